/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * pcieaudit generic-netlink ABI.
 *
 * Family "pcieaudit", version PCIEAUDIT_FAMILY_VERSION. Every command,
 * attribute and value below is numbered from 1. New ones are only ever
 * appended; nothing is renumbered. A consumer must ignore attributes it does
 * not know.
 *
 * All commands require CAP_NET_ADMIN in the initial user namespace and are
 * visible only from the initial network namespace: they expose extended
 * configuration space, which sysfs also restricts to privileged readers.
 *
 * PCIEAUDIT_CMD_INFO_GET (do)
 *   request:  no attributes
 *   reply:    PCIEAUDIT_A_INFO_*
 *
 * PCIEAUDIT_CMD_DEV_GET (do, dump)
 *   do request:   PCIEAUDIT_A_DEV_ADDR (nest of PCIEAUDIT_A_ADDR_*), required
 *   dump request: no attributes
 *   reply:        one message per PCI function, PCIEAUDIT_A_DEV_*
 *   A dump is ordered by (domain, bus, devfn) and resumes after the last key
 *   sent, so functions removed between parts are skipped, never repeated.
 *   NLM_F_DUMP_INTR is set when functions were added or removed during the
 *   dump; userspace should restart it.
 *
 * PCIEAUDIT_CMD_GROUP_GET (dump)
 *   request:  no attributes
 *   reply:    one message per IOMMU group holding a PCI function,
 *             PCIEAUDIT_A_GROUP_*, ordered and resumed by group id.
 *
 * Register values are raw and read live from configuration space; the module
 * never writes configuration space. Values the module derives itself rather
 * than taking from a kernel API are marked as such in the attribute's
 * documentation.
 */
#ifndef _UAPI_LINUX_PCIEAUDIT_H
#define _UAPI_LINUX_PCIEAUDIT_H

#define PCIEAUDIT_FAMILY_NAME		"pcieaudit"
#define PCIEAUDIT_FAMILY_VERSION	1

enum pcieaudit_cmd {
	PCIEAUDIT_CMD_INFO_GET = 1,
	PCIEAUDIT_CMD_DEV_GET,
	PCIEAUDIT_CMD_GROUP_GET,

	__PCIEAUDIT_CMD_MAX,
	PCIEAUDIT_CMD_MAX = __PCIEAUDIT_CMD_MAX - 1
};

/**
 * enum pcieaudit_feature - PCIEAUDIT_A_INFO_FEATURES bits
 * @PCIEAUDIT_F_P2PDMA: the kernel was built with CONFIG_PCI_P2PDMA, so
 *	pci_p2pdma_distance_many() gives real answers.
 * @PCIEAUDIT_F_IOMMU_API: the kernel was built with CONFIG_IOMMU_API.
 * @PCIEAUDIT_F_IOMMU_PRESENT: an IOMMU serves the PCI bus.
 * @PCIEAUDIT_F_PCI_IOV: the kernel was built with CONFIG_PCI_IOV.
 * @PCIEAUDIT_F_PCI_ATS: the kernel was built with CONFIG_PCI_ATS.
 */
enum pcieaudit_feature {
	PCIEAUDIT_F_P2PDMA		= 1U << 0,
	PCIEAUDIT_F_IOMMU_API		= 1U << 1,
	PCIEAUDIT_F_IOMMU_PRESENT	= 1U << 2,
	PCIEAUDIT_F_PCI_IOV		= 1U << 3,
	PCIEAUDIT_F_PCI_ATS		= 1U << 4,
};

/**
 * enum pcieaudit_domain_type - IOMMU domain types, spelled in sysfs as
 * "blocked", "identity", "unmanaged", "DMA", "DMA-FQ".
 * @PCIEAUDIT_DOMAIN_UNKNOWN: a type this ABI does not name yet.
 * @PCIEAUDIT_DOMAIN_BLOCKED: all DMA blocked.
 * @PCIEAUDIT_DOMAIN_IDENTITY: passthrough, no translation.
 * @PCIEAUDIT_DOMAIN_UNMANAGED: owned by a user such as VFIO or iommufd.
 * @PCIEAUDIT_DOMAIN_DMA: translated by the DMA API, strict invalidation.
 * @PCIEAUDIT_DOMAIN_DMA_FQ: translated by the DMA API, lazy (flush queue).
 * @PCIEAUDIT_DOMAIN_SVA: shared virtual addressing.
 * @PCIEAUDIT_DOMAIN_PLATFORM: platform-specific default domain.
 * @PCIEAUDIT_DOMAIN_NESTED: nested translation (iommufd).
 */
enum pcieaudit_domain_type {
	PCIEAUDIT_DOMAIN_UNKNOWN = 1,
	PCIEAUDIT_DOMAIN_BLOCKED,
	PCIEAUDIT_DOMAIN_IDENTITY,
	PCIEAUDIT_DOMAIN_UNMANAGED,
	PCIEAUDIT_DOMAIN_DMA,
	PCIEAUDIT_DOMAIN_DMA_FQ,
	PCIEAUDIT_DOMAIN_SVA,
	PCIEAUDIT_DOMAIN_PLATFORM,
	PCIEAUDIT_DOMAIN_NESTED,
};

/**
 * enum pcieaudit_iommu_mode - PCIEAUDIT_A_INFO_IOMMU_DEF_MODE values
 * @PCIEAUDIT_IOMMU_MODE_UNKNOWN: not determinable on this kernel.
 * @PCIEAUDIT_IOMMU_MODE_PASSTHROUGH: default domains are identity.
 * @PCIEAUDIT_IOMMU_MODE_TRANSLATED: default domains translate.
 */
enum pcieaudit_iommu_mode {
	PCIEAUDIT_IOMMU_MODE_UNKNOWN = 1,
	PCIEAUDIT_IOMMU_MODE_PASSTHROUGH,
	PCIEAUDIT_IOMMU_MODE_TRANSLATED,
};

/**
 * enum pcieaudit_iommu_strict - PCIEAUDIT_A_INFO_IOMMU_STRICT values
 * @PCIEAUDIT_IOMMU_STRICT_UNKNOWN: not determinable (no translated domain).
 * @PCIEAUDIT_IOMMU_STRICT_STRICT: translated default domains are strict.
 * @PCIEAUDIT_IOMMU_STRICT_LAZY: translated default domains use flush queues.
 */
enum pcieaudit_iommu_strict {
	PCIEAUDIT_IOMMU_STRICT_UNKNOWN = 1,
	PCIEAUDIT_IOMMU_STRICT_STRICT,
	PCIEAUDIT_IOMMU_STRICT_LAZY,
};

/**
 * enum pcieaudit_source - how a value was obtained
 * @PCIEAUDIT_SOURCE_KERNEL: returned by an exported kernel API.
 * @PCIEAUDIT_SOURCE_DERIVED: computed by pcieaudit from kernel state,
 *	because the kernel keeps the value private.
 */
enum pcieaudit_source {
	PCIEAUDIT_SOURCE_KERNEL = 1,
	PCIEAUDIT_SOURCE_DERIVED,
};

/**
 * enum pcieaudit_dev_flag - PCIEAUDIT_A_DEV_FLAGS bits
 * @PCIEAUDIT_DEV_F_PCIE: has a PCI Express capability.
 * @PCIEAUDIT_DEV_F_MULTIFUNCTION: part of a multifunction device.
 * @PCIEAUDIT_DEV_F_VIRTFN: an SR-IOV virtual function (see DEV_PF).
 * @PCIEAUDIT_DEV_F_PHYSFN: has an SR-IOV capability, so it can host VFs.
 * @PCIEAUDIT_DEV_F_BRIDGE: has a subordinate bus.
 * @PCIEAUDIT_DEV_F_DISCONNECTED: the function no longer answers config
 *	reads (surprise removal); register values are absent.
 * @PCIEAUDIT_DEV_F_ALL: mask of all defined bits.
 */
enum pcieaudit_dev_flag {
	PCIEAUDIT_DEV_F_PCIE		= 1U << 0,
	PCIEAUDIT_DEV_F_MULTIFUNCTION	= 1U << 1,
	PCIEAUDIT_DEV_F_VIRTFN		= 1U << 2,
	PCIEAUDIT_DEV_F_PHYSFN		= 1U << 3,
	PCIEAUDIT_DEV_F_BRIDGE		= 1U << 4,
	PCIEAUDIT_DEV_F_DISCONNECTED	= 1U << 5,

	PCIEAUDIT_DEV_F_ALL		= (1U << 6) - 1,
};

/**
 * enum pcieaudit_info_attr - PCIEAUDIT_CMD_INFO_GET reply
 * @PCIEAUDIT_A_INFO_MODULE_VERSION: string, module version.
 * @PCIEAUDIT_A_INFO_KERNEL_RELEASE: string, running kernel's release.
 * @PCIEAUDIT_A_INFO_FEATURES: u32, enum pcieaudit_feature bits.
 * @PCIEAUDIT_A_INFO_IOMMU_DEF_MODE: u32, enum pcieaudit_iommu_mode, from
 *	iommu_default_passthrough(); absent without an IOMMU.
 * @PCIEAUDIT_A_INFO_IOMMU_STRICT: u32, enum pcieaudit_iommu_strict. The
 *	kernel does not export it; it is derived from the type of translated
 *	default domains in use (DMA-FQ means lazy, DMA strict).
 * @PCIEAUDIT_A_INFO_DEVICE_COUNT: u32, PCI functions present.
 * @PCIEAUDIT_A_INFO_GROUP_COUNT: u32, IOMMU groups holding PCI functions.
 * @PCIEAUDIT_A_INFO_IOMMU_STRICT_SOURCE: u32, enum pcieaudit_source of
 *	PCIEAUDIT_A_INFO_IOMMU_STRICT.
 */
enum pcieaudit_info_attr {
	PCIEAUDIT_A_INFO_MODULE_VERSION = 1,
	PCIEAUDIT_A_INFO_KERNEL_RELEASE,
	PCIEAUDIT_A_INFO_FEATURES,
	PCIEAUDIT_A_INFO_IOMMU_DEF_MODE,
	PCIEAUDIT_A_INFO_IOMMU_STRICT,
	PCIEAUDIT_A_INFO_DEVICE_COUNT,
	PCIEAUDIT_A_INFO_GROUP_COUNT,
	PCIEAUDIT_A_INFO_IOMMU_STRICT_SOURCE,

	__PCIEAUDIT_A_INFO_MAX,
	PCIEAUDIT_A_INFO_MAX = __PCIEAUDIT_A_INFO_MAX - 1
};

/**
 * enum pcieaudit_addr_attr - a PCI function's address (nested)
 * @PCIEAUDIT_A_ADDR_DOMAIN: u32, PCI segment.
 * @PCIEAUDIT_A_ADDR_BUS: u8.
 * @PCIEAUDIT_A_ADDR_DEVFN: u8, device << 3 | function.
 */
enum pcieaudit_addr_attr {
	PCIEAUDIT_A_ADDR_DOMAIN = 1,
	PCIEAUDIT_A_ADDR_BUS,
	PCIEAUDIT_A_ADDR_DEVFN,

	__PCIEAUDIT_A_ADDR_MAX,
	PCIEAUDIT_A_ADDR_MAX = __PCIEAUDIT_A_ADDR_MAX - 1
};

/**
 * enum pcieaudit_acs_attr - ACS extended capability (nested); the nest is
 *	absent when the function has no ACS capability
 * @PCIEAUDIT_A_ACS_POS: u16, capability offset in configuration space.
 * @PCIEAUDIT_A_ACS_CAP: u16, ACS Capability register, raw.
 * @PCIEAUDIT_A_ACS_CTRL: u16, ACS Control register, raw, read live.
 */
enum pcieaudit_acs_attr {
	PCIEAUDIT_A_ACS_POS = 1,
	PCIEAUDIT_A_ACS_CAP,
	PCIEAUDIT_A_ACS_CTRL,

	__PCIEAUDIT_A_ACS_MAX,
	PCIEAUDIT_A_ACS_MAX = __PCIEAUDIT_A_ACS_MAX - 1
};

/**
 * enum pcieaudit_link_attr - PCIe link registers (nested), raw; the nest is
 *	absent for functions without link registers (RCiEPs, conventional PCI)
 * @PCIEAUDIT_A_LINK_LNKCAP: u32, Link Capabilities (max speed, max width).
 * @PCIEAUDIT_A_LINK_LNKSTA: u16, Link Status (current speed, width).
 * @PCIEAUDIT_A_LINK_LNKCAP2: u32, Link Capabilities 2 (supported speeds);
 *	absent on capability version 1.
 * @PCIEAUDIT_A_LINK_LNKCTL2: u16, Link Control 2 (target speed); absent on
 *	capability version 1.
 */
enum pcieaudit_link_attr {
	PCIEAUDIT_A_LINK_LNKCAP = 1,
	PCIEAUDIT_A_LINK_LNKSTA,
	PCIEAUDIT_A_LINK_LNKCAP2,
	PCIEAUDIT_A_LINK_LNKCTL2,

	__PCIEAUDIT_A_LINK_MAX,
	PCIEAUDIT_A_LINK_MAX = __PCIEAUDIT_A_LINK_MAX - 1
};

/**
 * enum pcieaudit_iommu_attr - IOMMU state of a function (nested); the nest is
 *	absent when the function is in no IOMMU group
 * @PCIEAUDIT_A_IOMMU_GROUP: u32, iommu_group_id(), as in
 *	/sys/kernel/iommu_groups/N.
 * @PCIEAUDIT_A_IOMMU_DOMAIN: u32, enum pcieaudit_domain_type of the domain
 *	attached now (iommu_get_domain_for_dev()); absent when none is.
 * @PCIEAUDIT_A_IOMMU_DEF_DOMAIN: u32, enum pcieaudit_domain_type of the
 *	group's default domain; absent when it cannot be determined.
 * @PCIEAUDIT_A_IOMMU_DEF_DOMAIN_SOURCE: u32, enum pcieaudit_source. The
 *	default domain is private to the IOMMU core; it is derived from the
 *	attached domain when that is a DMA-API or identity domain, which only
 *	default domains are.
 * @PCIEAUDIT_A_IOMMU_INSTANCE: string, the IOMMU device serving the function
 *	(as /sys/class/iommu/NAME), where the kernel records one.
 */
enum pcieaudit_iommu_attr {
	PCIEAUDIT_A_IOMMU_GROUP = 1,
	PCIEAUDIT_A_IOMMU_DOMAIN,
	PCIEAUDIT_A_IOMMU_DEF_DOMAIN,
	PCIEAUDIT_A_IOMMU_DEF_DOMAIN_SOURCE,
	PCIEAUDIT_A_IOMMU_INSTANCE,

	__PCIEAUDIT_A_IOMMU_MAX,
	PCIEAUDIT_A_IOMMU_MAX = __PCIEAUDIT_A_IOMMU_MAX - 1
};

/**
 * enum pcieaudit_dev_attr - PCIEAUDIT_CMD_DEV_GET request and reply
 * @PCIEAUDIT_A_DEV_ADDR: nest, enum pcieaudit_addr_attr; the function.
 * @PCIEAUDIT_A_DEV_NAME: string, pci_name(), e.g. "0000:04:00.0".
 * @PCIEAUDIT_A_DEV_VENDOR: u16.
 * @PCIEAUDIT_A_DEV_DEVICE: u16.
 * @PCIEAUDIT_A_DEV_SUBSYS_VENDOR: u16.
 * @PCIEAUDIT_A_DEV_SUBSYS_DEVICE: u16.
 * @PCIEAUDIT_A_DEV_CLASS: u32, 24-bit class code (base, sub, prog-if).
 * @PCIEAUDIT_A_DEV_REVISION: u8.
 * @PCIEAUDIT_A_DEV_FLAGS: u32, enum pcieaudit_dev_flag bits.
 * @PCIEAUDIT_A_DEV_PCIE_TYPE: u8, PCI Express device/port type (PCI_EXP_TYPE_*
 *	in pci_regs.h); absent for conventional PCI.
 * @PCIEAUDIT_A_DEV_UPSTREAM: nest, enum pcieaudit_addr_attr;
 *	pci_upstream_bridge(), which maps a VF to its PF first. Absent on a
 *	root bus.
 * @PCIEAUDIT_A_DEV_PF: nest, enum pcieaudit_addr_attr; the PF of a VF.
 * @PCIEAUDIT_A_DEV_DRIVER: string, bound driver; absent when unbound.
 * @PCIEAUDIT_A_DEV_NUMA_NODE: s32, NUMA node, -1 when unknown.
 * @PCIEAUDIT_A_DEV_ACS: nest, enum pcieaudit_acs_attr.
 * @PCIEAUDIT_A_DEV_LINK: nest, enum pcieaudit_link_attr.
 * @PCIEAUDIT_A_DEV_IOMMU: nest, enum pcieaudit_iommu_attr.
 * @PCIEAUDIT_A_DEV_SECONDARY_BUS: u8, subordinate bus number of a bridge.
 */
enum pcieaudit_dev_attr {
	PCIEAUDIT_A_DEV_ADDR = 1,
	PCIEAUDIT_A_DEV_NAME,
	PCIEAUDIT_A_DEV_VENDOR,
	PCIEAUDIT_A_DEV_DEVICE,
	PCIEAUDIT_A_DEV_SUBSYS_VENDOR,
	PCIEAUDIT_A_DEV_SUBSYS_DEVICE,
	PCIEAUDIT_A_DEV_CLASS,
	PCIEAUDIT_A_DEV_REVISION,
	PCIEAUDIT_A_DEV_FLAGS,
	PCIEAUDIT_A_DEV_PCIE_TYPE,
	PCIEAUDIT_A_DEV_UPSTREAM,
	PCIEAUDIT_A_DEV_PF,
	PCIEAUDIT_A_DEV_DRIVER,
	PCIEAUDIT_A_DEV_NUMA_NODE,
	PCIEAUDIT_A_DEV_ACS,
	PCIEAUDIT_A_DEV_LINK,
	PCIEAUDIT_A_DEV_IOMMU,
	PCIEAUDIT_A_DEV_SECONDARY_BUS,

	__PCIEAUDIT_A_DEV_MAX,
	PCIEAUDIT_A_DEV_MAX = __PCIEAUDIT_A_DEV_MAX - 1
};

/**
 * enum pcieaudit_group_attr - PCIEAUDIT_CMD_GROUP_GET reply
 * @PCIEAUDIT_A_GROUP_ID: u32, iommu_group_id().
 * @PCIEAUDIT_A_GROUP_MEMBER: nest, enum pcieaudit_addr_attr; repeated, one
 *	per PCI function in the group.
 * @PCIEAUDIT_A_GROUP_OTHER_MEMBERS: u32, members that are not PCI functions.
 */
enum pcieaudit_group_attr {
	PCIEAUDIT_A_GROUP_ID = 1,
	PCIEAUDIT_A_GROUP_MEMBER,
	PCIEAUDIT_A_GROUP_OTHER_MEMBERS,

	__PCIEAUDIT_A_GROUP_MAX,
	PCIEAUDIT_A_GROUP_MAX = __PCIEAUDIT_A_GROUP_MAX - 1
};

#endif /* _UAPI_LINUX_PCIEAUDIT_H */
