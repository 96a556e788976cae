/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * pcieaudit generic-netlink ABI.
 *
 * Family "pcieaudit", version PCIEAUDIT_FAMILY_VERSION. Every command,
 * attribute and value below is numbered from 1. New ones are only ever
 * appended; nothing is renumbered. A consumer must ignore attributes it does
 * not know.
 *
 * All commands require CAP_NET_ADMIN and CAP_SYS_ADMIN in the initial user
 * namespace (EPERM otherwise) and are visible only from the initial network
 * namespace: they expose extended configuration space, which sysfs also
 * restricts to CAP_SYS_ADMIN.
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
 *   reply:    one or more messages per IOMMU group holding a PCI function,
 *             PCIEAUDIT_A_GROUP_*, ordered by group id and within a group
 *             by member key, resumed by both. A group whose members do not
 *             fit one message continues in the next with the same
 *             PCIEAUDIT_A_GROUP_ID; PCIEAUDIT_A_GROUP_OTHER_MEMBERS is in
 *             its last message only. Userspace merges consecutive messages
 *             of one id.
 *
 * PCIEAUDIT_CMD_P2P_GET (do, dump)
 *   do request:   PCIEAUDIT_A_P2P_PROVIDER and one or more
 *                 PCIEAUDIT_A_P2P_CLIENT (at most PCIEAUDIT_P2P_MAX_CLIENTS),
 *                 optional PCIEAUDIT_A_P2P_FLAGS
 *   do reply:     PCIEAUDIT_A_P2P_PROVIDER, PCIEAUDIT_A_P2P_KERNEL_DISTANCE
 *                 (pci_p2pdma_distance_many() over all clients) and one
 *                 PCIEAUDIT_A_P2P_PAIR per client, in request order
 *   dump request: PCIEAUDIT_A_P2P_SELECT_DEV and PCIEAUDIT_A_P2P_SELECT_CLASS,
 *                 any number of each; a function is selected when it matches
 *                 any of them. With neither, every function without a
 *                 subordinate bus is selected. Optional PCIEAUDIT_A_P2P_FLAGS.
 *   dump reply:   one message per ordered pair of distinct selected functions,
 *                 PCIEAUDIT_A_P2P_PROVIDER and one PCIEAUDIT_A_P2P_PAIR,
 *                 ordered and resumed by (provider, client) key.
 *   Each pair carries two answers. The kernel's, where CONFIG_PCI_P2PDMA is
 *   built: pci_p2pdma_distance(). Where it answers, that is the verdict.
 *   And pcieaudit's own path analysis, available on every kernel, which
 *   models the calc_map_type_and_dist() of the kernel the module was built
 *   for (PCIEAUDIT_A_INFO_P2P_RULES): hops, distance, redirecting ACS
 *   bridges and the map type, which the kernel keeps private. It explains
 *   the kernel's answer, and is the verdict where there is none. Where
 *   both exist and differ, PCIEAUDIT_A_PAIR_AGREEMENT says so.
 *
 * PCIEAUDIT_CMD_MON_EVENT (multicast only, group PCIEAUDIT_MCGRP_MONITOR)
 *   PCIEAUDIT_A_MON_*: a function added or removed (the PCI bus notifier),
 *   a change of its link status or ACS control (the module's sampler,
 *   which reads each link's LnkSta once per pcieaudit.monitor_interval_ms
 *   at the link's downstream port, its other functions' only when it
 *   changed, and ACS control each pcieaudit.monitor_acs_interval_ms; it
 *   skips a function it would have to wake, see enum
 *   pcieaudit_hist_skip). With monitor_interval_ms=0 there is no monitor:
 *   no events, no link history. PCIEAUDIT_A_MON_SEQ counts events
 *   from 1 without gaps: a listener that sees a gap, or ENOBUFS on its
 *   socket, lost events and should resynchronise with a DEV_GET dump.
 *
 * Register values are raw and read live from configuration space; the module
 * never writes configuration space. A request's reads wait while the kernel
 * blocks configuration access to a function (during a reset), as sysfs
 * reads do, but unlike sysfs they never resume a runtime-suspended
 * function: they read it in the state it is in. The monitor's sampler
 * waits for nothing and reads nothing it would wake (enum
 * pcieaudit_hist_skip). A register that reads
 * all ones is not a value: the function is in D3cold or gone, and the
 * registers are reported as unknown (PCIEAUDIT_A_DEV_CONFIG_UNREADABLE).
 * Values the module derives itself rather than taking from a kernel API are
 * marked as such in the attribute's documentation.
 */
#ifndef _UAPI_LINUX_PCIEAUDIT_H
#define _UAPI_LINUX_PCIEAUDIT_H

#define PCIEAUDIT_FAMILY_NAME		"pcieaudit"
#define PCIEAUDIT_FAMILY_VERSION	1
#define PCIEAUDIT_MCGRP_MONITOR		"monitor"

enum pcieaudit_cmd {
	PCIEAUDIT_CMD_INFO_GET = 1,
	PCIEAUDIT_CMD_DEV_GET,
	PCIEAUDIT_CMD_GROUP_GET,
	PCIEAUDIT_CMD_P2P_GET,
	PCIEAUDIT_CMD_MON_EVENT,

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
 * @PCIEAUDIT_F_PCIEAER: the kernel was built with CONFIG_PCIEAER, and
 *	PCIEAUDIT_DEV_F_AER_STATS says which functions it keeps AER counters
 *	for.
 */
enum pcieaudit_feature {
	PCIEAUDIT_F_P2PDMA		= 1U << 0,
	PCIEAUDIT_F_IOMMU_API		= 1U << 1,
	PCIEAUDIT_F_IOMMU_PRESENT	= 1U << 2,
	PCIEAUDIT_F_PCI_IOV		= 1U << 3,
	PCIEAUDIT_F_PCI_ATS		= 1U << 4,
	PCIEAUDIT_F_PCIEAER		= 1U << 5,
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
 * @PCIEAUDIT_IOMMU_STRICT_UNKNOWN: not determinable: no translated domain, or
 *	a kernel without a type for lazy domains (before v5.15), where a DMA
 *	domain may be either.
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
 * enum pcieaudit_dma_owner - PCIEAUDIT_A_IOMMU_DMA_OWNER values, from
 *	iommu_group_dma_owner_claimed()
 * @PCIEAUDIT_DMA_OWNER_UNCLAIMED: no driver using the DMA API is bound in
 *	the group and no user (VFIO, iommufd) has claimed it.
 * @PCIEAUDIT_DMA_OWNER_CLAIMED: a kernel driver using the DMA API is bound
 *	to a member, or a user such as VFIO or iommufd owns the group.
 */
enum pcieaudit_dma_owner {
	PCIEAUDIT_DMA_OWNER_UNCLAIMED = 1,
	PCIEAUDIT_DMA_OWNER_CLAIMED,
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
 * @PCIEAUDIT_DEV_F_AER_STATS: the kernel keeps AER error counters for the
 *	function (its sysfs aer_dev_* files exist), as pci_dev's aer_stats
 *	says; only where PCIEAUDIT_A_INFO_FEATURES has PCIEAUDIT_F_PCIEAER.
 * @PCIEAUDIT_DEV_F_ALL: mask of all defined bits.
 */
enum pcieaudit_dev_flag {
	PCIEAUDIT_DEV_F_PCIE		= 1U << 0,
	PCIEAUDIT_DEV_F_MULTIFUNCTION	= 1U << 1,
	PCIEAUDIT_DEV_F_VIRTFN		= 1U << 2,
	PCIEAUDIT_DEV_F_PHYSFN		= 1U << 3,
	PCIEAUDIT_DEV_F_BRIDGE		= 1U << 4,
	PCIEAUDIT_DEV_F_DISCONNECTED	= 1U << 5,
	PCIEAUDIT_DEV_F_AER_STATS	= 1U << 6,

	PCIEAUDIT_DEV_F_ALL		= (1U << 7) - 1,
};

/**
 * enum pcieaudit_power_state - PCIEAUDIT_A_DEV_POWER_STATE values: the
 *	power state a function's PM Control/Status register (PMCSR) reports
 * @PCIEAUDIT_POWER_UNKNOWN: not readable now: PMCSR read all ones or the
 *	read failed, as in D3cold or for a function that is gone.
 * @PCIEAUDIT_POWER_D0: D0, fully on.
 * @PCIEAUDIT_POWER_D1: D1.
 * @PCIEAUDIT_POWER_D2: D2.
 * @PCIEAUDIT_POWER_D3HOT: D3hot; configuration space still answers.
 */
enum pcieaudit_power_state {
	PCIEAUDIT_POWER_UNKNOWN = 1,
	PCIEAUDIT_POWER_D0,
	PCIEAUDIT_POWER_D1,
	PCIEAUDIT_POWER_D2,
	PCIEAUDIT_POWER_D3HOT,
};

/**
 * enum pcieaudit_info_attr - PCIEAUDIT_CMD_INFO_GET reply
 * @PCIEAUDIT_A_INFO_MODULE_VERSION: string, module version.
 * @PCIEAUDIT_A_INFO_KERNEL_RELEASE: string, running kernel's release.
 * @PCIEAUDIT_A_INFO_FEATURES: u32, enum pcieaudit_feature bits.
 * @PCIEAUDIT_A_INFO_IOMMU_DEF_MODE: u32, enum pcieaudit_iommu_mode, from
 *	iommu_default_passthrough(); absent without an IOMMU.
 * @PCIEAUDIT_A_INFO_IOMMU_STRICT: u32, enum pcieaudit_iommu_strict. No
 *	longer sent: the kernel does not export it, and deriving it meant
 *	dereferencing attached domains. The default domains' types in
 *	/sys/kernel/iommu_groups/N/type show it (DMA-FQ lazy, DMA strict).
 * @PCIEAUDIT_A_INFO_DEVICE_COUNT: u32, PCI functions present.
 * @PCIEAUDIT_A_INFO_GROUP_COUNT: u32, IOMMU groups holding PCI functions.
 * @PCIEAUDIT_A_INFO_IOMMU_STRICT_SOURCE: u32, enum pcieaudit_source of
 *	PCIEAUDIT_A_INFO_IOMMU_STRICT. No longer sent.
 * @PCIEAUDIT_A_INFO_P2P_RULES: string, the kernel whose P2P DMA rules
 *	pcieaudit's own analysis (PCIEAUDIT_A_PAIR_MAP and the rest) models:
 *	"Linux X.Y", the release the module was built for, followed by
 *	" + COMMIT" for each later rule a header showed was backported into
 *	it. Where the kernel cannot answer, the pair's verdict is this model's.
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
	PCIEAUDIT_A_INFO_P2P_RULES,

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
 * @PCIEAUDIT_A_ACS_CTRL_AT_LOAD: u16, the ACS Control register as it read
 *	when the module loaded, or when the function was added after that;
 *	absent when it was not readable then (D3cold), so unknown.
 *	A difference from PCIEAUDIT_A_ACS_CTRL means ACS changed since, and
 *	IOMMU groups formed at boot may claim isolation ACS no longer gives.
 */
enum pcieaudit_acs_attr {
	PCIEAUDIT_A_ACS_POS = 1,
	PCIEAUDIT_A_ACS_CAP,
	PCIEAUDIT_A_ACS_CTRL,
	PCIEAUDIT_A_ACS_CTRL_AT_LOAD,

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
 *	attached now. No longer sent: an attached domain is not refcounted
 *	and a module that is not the device's driver may not dereference it.
 * @PCIEAUDIT_A_IOMMU_DEF_DOMAIN: u32, enum pcieaudit_domain_type of the
 *	group's default domain. No longer sent: the kernel's own ABI for it
 *	is /sys/kernel/iommu_groups/N/type.
 * @PCIEAUDIT_A_IOMMU_DEF_DOMAIN_SOURCE: u32, enum pcieaudit_source of
 *	PCIEAUDIT_A_IOMMU_DEF_DOMAIN. No longer sent.
 * @PCIEAUDIT_A_IOMMU_INSTANCE: string, the IOMMU device serving the
 *	function. No longer sent: it was private IOMMU core state; the
 *	function's sysfs link "iommu" names it.
 * @PCIEAUDIT_A_IOMMU_DMA_OWNER: u32, enum pcieaudit_dma_owner; absent
 *	where the kernel cannot say (before v5.19).
 */
enum pcieaudit_iommu_attr {
	PCIEAUDIT_A_IOMMU_GROUP = 1,
	PCIEAUDIT_A_IOMMU_DOMAIN,
	PCIEAUDIT_A_IOMMU_DEF_DOMAIN,
	PCIEAUDIT_A_IOMMU_DEF_DOMAIN_SOURCE,
	PCIEAUDIT_A_IOMMU_INSTANCE,
	PCIEAUDIT_A_IOMMU_DMA_OWNER,

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
 * @PCIEAUDIT_A_DEV_POWER_STATE: u32, enum pcieaudit_power_state, read live
 *	from PMCSR without waking the function (the kernel's own record of
 *	the state may differ); absent when the function has no Power
 *	Management capability.
 * @PCIEAUDIT_A_DEV_CONFIG_UNREADABLE: flag, present when configuration
 *	space could not be read now: a read failed or returned all ones (the
 *	function is in D3cold or gone), or the function is disconnected.
 *	PCIEAUDIT_A_DEV_ACS and PCIEAUDIT_A_DEV_LINK are then absent because
 *	their registers are unknown, not because the function lacks them.
 *	So are PCIEAUDIT_A_DEV_ATS and PCIEAUDIT_A_DEV_EXPDEV, and the
 *	resizable-BAR registers of PCIEAUDIT_A_DEV_BAR.
 * @PCIEAUDIT_A_DEV_ATS: nest, enum pcieaudit_ats_attr; absent when the
 *	function has no ATS capability, or its registers are unknown.
 * @PCIEAUDIT_A_DEV_EXPDEV: nest, enum pcieaudit_expdev_attr; the PCI
 *	Express Device Capabilities and Control registers; absent for
 *	conventional PCI, or when they are unknown.
 * @PCIEAUDIT_A_DEV_BAR: nest, enum pcieaudit_bar_attr; repeated, one per
 *	standard BAR (0-5) the kernel knows a resource for, in index order.
 * @PCIEAUDIT_A_DEV_LINK_HISTORY: nest, enum pcieaudit_hist_attr; what the
 *	module's sampler saw of the function's link since it started tracking
 *	the function (module load or hot-add). Absent for functions without
 *	link registers and where sampling is off.
 * @PCIEAUDIT_A_DEV_PASSTHRU: nest, enum pcieaudit_passthru_attr; the
 *	registers VFIO's reset and SR-IOV checks read, and the kernel's SR-IOV
 *	records; sent for every function. Its registers are absent when
 *	PCIEAUDIT_A_DEV_CONFIG_UNREADABLE is present.
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
	PCIEAUDIT_A_DEV_POWER_STATE,
	PCIEAUDIT_A_DEV_CONFIG_UNREADABLE,
	PCIEAUDIT_A_DEV_ATS,
	PCIEAUDIT_A_DEV_EXPDEV,
	PCIEAUDIT_A_DEV_BAR,
	PCIEAUDIT_A_DEV_LINK_HISTORY,
	PCIEAUDIT_A_DEV_PASSTHRU,

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

/* Clients one P2P do request may name. */
#define PCIEAUDIT_P2P_MAX_CLIENTS	64

/**
 * enum pcieaudit_p2p_flag - PCIEAUDIT_A_P2P_FLAGS bits
 * @PCIEAUDIT_P2P_F_KERNEL_VERBOSE: call the kernel's function with verbose
 *	set, so it explains each refusal in the kernel log, and without the
 *	bound pcieaudit puts on the warnings it prints otherwise. For tests.
 * @PCIEAUDIT_P2P_F_ALL: mask of all defined bits.
 */
enum pcieaudit_p2p_flag {
	PCIEAUDIT_P2P_F_KERNEL_VERBOSE	= 1U << 0,

	PCIEAUDIT_P2P_F_ALL		= (1U << 1) - 1,
};

/**
 * enum pcieaudit_p2p_map - how DMA between two functions would be mapped,
 *	as the kernel's enum pci_p2pdma_map_type
 * @PCIEAUDIT_P2P_MAP_BUS_ADDR: directly, below a common upstream bridge.
 * @PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE: through the root complex.
 * @PCIEAUDIT_P2P_MAP_NOT_SUPPORTED: the kernel refuses P2P DMA.
 */
enum pcieaudit_p2p_map {
	PCIEAUDIT_P2P_MAP_BUS_ADDR = 1,
	PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE,
	PCIEAUDIT_P2P_MAP_NOT_SUPPORTED,
};

/**
 * enum pcieaudit_p2p_path - the shape of the path between two functions
 * @PCIEAUDIT_P2P_PATH_COMMON_UPSTREAM: a common upstream bridge (or the
 *	same function), and no bridge on the way redirects.
 * @PCIEAUDIT_P2P_PATH_ACS_REDIRECT: a common upstream bridge, but a bridge
 *	on the way has ACS RR, CR or EC set, which sends the traffic up to
 *	the root complex.
 * @PCIEAUDIT_P2P_PATH_NO_COMMON_UPSTREAM: different root ports or host
 *	bridges; the traffic crosses the root complex.
 */
enum pcieaudit_p2p_path {
	PCIEAUDIT_P2P_PATH_COMMON_UPSTREAM = 1,
	PCIEAUDIT_P2P_PATH_ACS_REDIRECT,
	PCIEAUDIT_P2P_PATH_NO_COMMON_UPSTREAM,
};

/**
 * enum pcieaudit_p2p_host_rule - what decided a path through the root
 *	complex
 * @PCIEAUDIT_P2P_HOST_NOT_NEEDED: the path stays below a common bridge.
 * @PCIEAUDIT_P2P_HOST_CPU: the CPU allows it (AMD Zen or newer).
 * @PCIEAUDIT_P2P_HOST_WHITELIST: the host bridges are on the running
 *	kernel's P2PDMA whitelist.
 * @PCIEAUDIT_P2P_HOST_REFUSED: neither, so the kernel refuses.
 */
enum pcieaudit_p2p_host_rule {
	PCIEAUDIT_P2P_HOST_NOT_NEEDED = 1,
	PCIEAUDIT_P2P_HOST_CPU,
	PCIEAUDIT_P2P_HOST_WHITELIST,
	PCIEAUDIT_P2P_HOST_REFUSED,
};

/**
 * enum pcieaudit_p2p_kernel - PCIEAUDIT_A_PAIR_KERNEL_STATUS values
 * @PCIEAUDIT_P2P_KERNEL_ANSWERED: PCIEAUDIT_A_PAIR_KERNEL_DISTANCE holds
 *	pci_p2pdma_distance()'s answer.
 * @PCIEAUDIT_P2P_KERNEL_NOT_BUILT: CONFIG_PCI_P2PDMA is off; the kernel's
 *	function is a stub that answers -1 to everything, so it is not called.
 * @PCIEAUDIT_P2P_KERNEL_WITHHELD_LOG: not called, because the kernel would
 *	warn in its log even with verbose off (v5.14 and newer), and pcieaudit
 *	already let it do so PCIEAUDIT_P2P_KERNEL_LOG_BURST times in the
 *	current 60-second window (a window starts with the first such call
 *	after the last one ended).
 * @PCIEAUDIT_P2P_KERNEL_WITHHELD_UNSAFE: not called, because the provider
 *	has P2P memory and this kernel (v5.14 to v6.8) would allocate with
 *	GFP_KERNEL under rcu_read_lock() (fixed upstream in v6.9).
 */
enum pcieaudit_p2p_kernel {
	PCIEAUDIT_P2P_KERNEL_ANSWERED = 1,
	PCIEAUDIT_P2P_KERNEL_NOT_BUILT,
	PCIEAUDIT_P2P_KERNEL_WITHHELD_LOG,
	PCIEAUDIT_P2P_KERNEL_WITHHELD_UNSAFE,
};

/**
 * enum pcieaudit_p2p_agreement - PCIEAUDIT_A_PAIR_AGREEMENT values
 * @PCIEAUDIT_P2P_AGREE: the kernel's distance equals pcieaudit's own.
 * @PCIEAUDIT_P2P_DISAGREE: it does not. The kernel's answer is the verdict;
 *	pcieaudit's analysis, which should explain it, models rules this
 *	kernel does not have (see PCIEAUDIT_A_INFO_P2P_RULES).
 */
enum pcieaudit_p2p_agreement {
	PCIEAUDIT_P2P_AGREE = 1,
	PCIEAUDIT_P2P_DISAGREE,
};

/* Kernel calls that may warn, allowed per 60-second window; see above. */
#define PCIEAUDIT_P2P_KERNEL_LOG_BURST	4

/**
 * enum pcieaudit_p2p_attr - PCIEAUDIT_CMD_P2P_GET request and reply
 * @PCIEAUDIT_A_P2P_PROVIDER: nest, enum pcieaudit_addr_attr.
 * @PCIEAUDIT_A_P2P_CLIENT: nest, enum pcieaudit_addr_attr; repeated.
 * @PCIEAUDIT_A_P2P_SELECT_DEV: nest, enum pcieaudit_addr_attr; repeated.
 * @PCIEAUDIT_A_P2P_SELECT_CLASS: nest, enum pcieaudit_class_attr; repeated.
 * @PCIEAUDIT_A_P2P_FLAGS: u32, enum pcieaudit_p2p_flag bits.
 * @PCIEAUDIT_A_P2P_KERNEL_DISTANCE: s32, pci_p2pdma_distance_many() over
 *	all clients of a do request; absent unless every pair's kernel status
 *	is PCIEAUDIT_P2P_KERNEL_ANSWERED.
 * @PCIEAUDIT_A_P2P_PAIR: nest, enum pcieaudit_pair_attr.
 */
enum pcieaudit_p2p_attr {
	PCIEAUDIT_A_P2P_PROVIDER = 1,
	PCIEAUDIT_A_P2P_CLIENT,
	PCIEAUDIT_A_P2P_SELECT_DEV,
	PCIEAUDIT_A_P2P_SELECT_CLASS,
	PCIEAUDIT_A_P2P_FLAGS,
	PCIEAUDIT_A_P2P_KERNEL_DISTANCE,
	PCIEAUDIT_A_P2P_PAIR,

	__PCIEAUDIT_A_P2P_MAX,
	PCIEAUDIT_A_P2P_MAX = __PCIEAUDIT_A_P2P_MAX - 1
};

/**
 * enum pcieaudit_class_attr - a class selector (nested): a function is
 *	selected when (class & MASK) == (VALUE & MASK)
 * @PCIEAUDIT_A_CLASS_VALUE: u32, 24-bit class code.
 * @PCIEAUDIT_A_CLASS_MASK: u32, 24-bit mask; 0xff0000 selects a base class.
 */
enum pcieaudit_class_attr {
	PCIEAUDIT_A_CLASS_VALUE = 1,
	PCIEAUDIT_A_CLASS_MASK,

	__PCIEAUDIT_A_CLASS_MAX,
	PCIEAUDIT_A_CLASS_MAX = __PCIEAUDIT_A_CLASS_MAX - 1
};

/**
 * enum pcieaudit_pair_attr - one provider/client pair (nested)
 * @PCIEAUDIT_A_PAIR_CLIENT: nest, enum pcieaudit_addr_attr.
 * @PCIEAUDIT_A_PAIR_KERNEL_STATUS: u32, enum pcieaudit_p2p_kernel.
 * @PCIEAUDIT_A_PAIR_KERNEL_DISTANCE: s32, pci_p2pdma_distance(); -1 when
 *	the kernel refuses. Present only with PCIEAUDIT_P2P_KERNEL_ANSWERED.
 * @PCIEAUDIT_A_PAIR_DISTANCE: s32, pcieaudit's own answer to the same
 *	question, computed as the kernel computes it: -1 when not supported.
 * @PCIEAUDIT_A_PAIR_PATH_LENGTH: u32, hops from the provider to the client:
 *	through the common upstream bridge, or counted up to the root bus on
 *	each side when there is none (as the kernel counts).
 * @PCIEAUDIT_A_PAIR_MAP: u32, enum pcieaudit_p2p_map (derived).
 * @PCIEAUDIT_A_PAIR_PATH: u32, enum pcieaudit_p2p_path (derived).
 * @PCIEAUDIT_A_PAIR_HOST_RULE: u32, enum pcieaudit_p2p_host_rule (derived).
 * @PCIEAUDIT_A_PAIR_COMMON: nest, enum pcieaudit_addr_attr; the nearest
 *	common upstream bridge, or the function itself when provider and
 *	client are the same; absent when there is none.
 * @PCIEAUDIT_A_PAIR_HOP_PROVIDER: nest, enum pcieaudit_addr_attr; repeated,
 *	from the provider up, excluding the common bridge.
 * @PCIEAUDIT_A_PAIR_HOP_CLIENT: nest, enum pcieaudit_addr_attr; repeated,
 *	from the client up, excluding the common bridge.
 * @PCIEAUDIT_A_PAIR_REDIRECT: nest, enum pcieaudit_addr_attr; repeated, the
 *	functions on the path whose ACS control has RR, CR or EC set, in the
 *	order the kernel lists them for pci=disable_acs_redir=.
 * @PCIEAUDIT_A_PAIR_HOST_BRIDGE_PROVIDER: u32, vendor << 16 | device of the
 *	provider's host bridge function, as the whitelist matches it; absent
 *	when the host bridge has none.
 * @PCIEAUDIT_A_PAIR_HOST_BRIDGE_CLIENT: u32, the same for the client.
 * @PCIEAUDIT_A_PAIR_AGREEMENT: u32, enum pcieaudit_p2p_agreement: whether
 *	PCIEAUDIT_A_PAIR_KERNEL_DISTANCE equals PCIEAUDIT_A_PAIR_DISTANCE.
 *	Present exactly when PCIEAUDIT_A_PAIR_KERNEL_DISTANCE is.
 */
enum pcieaudit_pair_attr {
	PCIEAUDIT_A_PAIR_CLIENT = 1,
	PCIEAUDIT_A_PAIR_KERNEL_STATUS,
	PCIEAUDIT_A_PAIR_KERNEL_DISTANCE,
	PCIEAUDIT_A_PAIR_DISTANCE,
	PCIEAUDIT_A_PAIR_PATH_LENGTH,
	PCIEAUDIT_A_PAIR_MAP,
	PCIEAUDIT_A_PAIR_PATH,
	PCIEAUDIT_A_PAIR_HOST_RULE,
	PCIEAUDIT_A_PAIR_COMMON,
	PCIEAUDIT_A_PAIR_HOP_PROVIDER,
	PCIEAUDIT_A_PAIR_HOP_CLIENT,
	PCIEAUDIT_A_PAIR_REDIRECT,
	PCIEAUDIT_A_PAIR_HOST_BRIDGE_PROVIDER,
	PCIEAUDIT_A_PAIR_HOST_BRIDGE_CLIENT,
	PCIEAUDIT_A_PAIR_AGREEMENT,

	__PCIEAUDIT_A_PAIR_MAX,
	PCIEAUDIT_A_PAIR_MAX = __PCIEAUDIT_A_PAIR_MAX - 1
};

/**
 * enum pcieaudit_ats_attr - Address Translation Services capability (nested)
 * @PCIEAUDIT_A_ATS_POS: u16, capability offset in configuration space.
 * @PCIEAUDIT_A_ATS_CAP: u16, ATS Capability register, raw.
 * @PCIEAUDIT_A_ATS_CTRL: u16, ATS Control register, raw, read live; bit 15
 *	(Enable) says whether the function issues translated requests.
 */
enum pcieaudit_ats_attr {
	PCIEAUDIT_A_ATS_POS = 1,
	PCIEAUDIT_A_ATS_CAP,
	PCIEAUDIT_A_ATS_CTRL,

	__PCIEAUDIT_A_ATS_MAX,
	PCIEAUDIT_A_ATS_MAX = __PCIEAUDIT_A_ATS_MAX - 1
};

/**
 * enum pcieaudit_expdev_attr - PCI Express device registers (nested), raw
 * @PCIEAUDIT_A_EXPDEV_DEVCAP: u32, Device Capabilities (Max_Payload_Size
 *	Supported in bits 2:0).
 * @PCIEAUDIT_A_EXPDEV_DEVCTL: u16, Device Control, read live
 *	(Enable Relaxed Ordering bit 4, Max_Payload_Size bits 7:5,
 *	Max_Read_Request_Size bits 14:12).
 */
enum pcieaudit_expdev_attr {
	PCIEAUDIT_A_EXPDEV_DEVCAP = 1,
	PCIEAUDIT_A_EXPDEV_DEVCTL,

	__PCIEAUDIT_A_EXPDEV_MAX,
	PCIEAUDIT_A_EXPDEV_MAX = __PCIEAUDIT_A_EXPDEV_MAX - 1
};

/**
 * enum pcieaudit_bar_flag - PCIEAUDIT_A_BAR_FLAGS bits, from the kernel's
 *	struct resource for the BAR
 * @PCIEAUDIT_BAR_F_IO: an I/O space BAR.
 * @PCIEAUDIT_BAR_F_MEM: a memory space BAR.
 * @PCIEAUDIT_BAR_F_PREFETCH: prefetchable memory.
 * @PCIEAUDIT_BAR_F_MEM64: a 64-bit memory BAR (it uses the next index too).
 * @PCIEAUDIT_BAR_F_UNASSIGNED: the kernel found the BAR but holds no
 *	address range for it (the resource is in no resource tree, or marked
 *	unset): assignment failed, and the device cannot use it.
 * @PCIEAUDIT_BAR_F_ALL: mask of all defined bits.
 */
enum pcieaudit_bar_flag {
	PCIEAUDIT_BAR_F_IO		= 1U << 0,
	PCIEAUDIT_BAR_F_MEM		= 1U << 1,
	PCIEAUDIT_BAR_F_PREFETCH	= 1U << 2,
	PCIEAUDIT_BAR_F_MEM64		= 1U << 3,
	PCIEAUDIT_BAR_F_UNASSIGNED	= 1U << 4,

	PCIEAUDIT_BAR_F_ALL		= (1U << 5) - 1,
};

/**
 * enum pcieaudit_bar_attr - one BAR (nested)
 * @PCIEAUDIT_A_BAR_INDEX: u8, 0-5.
 * @PCIEAUDIT_A_BAR_SIZE: u64, pci_resource_len(), bytes.
 * @PCIEAUDIT_A_BAR_FLAGS: u32, enum pcieaudit_bar_flag bits.
 * @PCIEAUDIT_A_BAR_REBAR_CAP: u32, the Resizable BAR Capability register
 *	of this BAR's entry, raw (bit n+4: 2^n MB supported); absent when the
 *	BAR is not resizable.
 * @PCIEAUDIT_A_BAR_REBAR_CTRL: u32, the entry's Resizable BAR Control
 *	register, raw (bits 13:8: current size, 2^n MB), read live.
 * @PCIEAUDIT_A_BAR_PAD: padding for the u64, never sent alone.
 * @PCIEAUDIT_A_BAR_START: u64, pci_resource_start(): where the kernel placed
 *	the BAR, as sysfs resource shows it; absent when the BAR is
 *	unassigned.
 */
enum pcieaudit_bar_attr {
	PCIEAUDIT_A_BAR_INDEX = 1,
	PCIEAUDIT_A_BAR_SIZE,
	PCIEAUDIT_A_BAR_FLAGS,
	PCIEAUDIT_A_BAR_REBAR_CAP,
	PCIEAUDIT_A_BAR_REBAR_CTRL,
	PCIEAUDIT_A_BAR_PAD,
	PCIEAUDIT_A_BAR_START,

	__PCIEAUDIT_A_BAR_MAX,
	PCIEAUDIT_A_BAR_MAX = __PCIEAUDIT_A_BAR_MAX - 1
};

/**
 * enum pcieaudit_passthru_attr - what VFIO's reset and SR-IOV checks read
 *	(nested)
 * @PCIEAUDIT_A_PASSTHRU_PMCSR: u16, the PM capability's Control/Status
 *	register, raw, read live (bit 3: No_Soft_Reset); absent without a PM
 *	capability.
 * @PCIEAUDIT_A_PASSTHRU_AF_CAP: u8, the Advanced Features capability's AF
 *	Capabilities register, raw (bit 0: Transactions Pending, bit 1: FLR);
 *	absent without the capability.
 * @PCIEAUDIT_A_PASSTHRU_DEVCAP2: u32, PCI Express Device Capabilities 2,
 *	raw; absent for conventional PCI and before capability version 2.
 * @PCIEAUDIT_A_PASSTHRU_DEVCTL2: u16, PCI Express Device Control 2, raw,
 *	read live; absent as PCIEAUDIT_A_PASSTHRU_DEVCAP2.
 * @PCIEAUDIT_A_PASSTHRU_SRIOV: nest, enum pcieaudit_sriov_attr; the SR-IOV
 *	capability; absent when the function has none.
 * @PCIEAUDIT_A_PASSTHRU_PAD: padding for the u64, never sent alone.
 * @PCIEAUDIT_A_PASSTHRU_RESET_METHODS: u64, pci_dev's reset_methods[] in
 *	priority order, a byte each from the lowest, 0 ending them: indices
 *	into the kernel's private table of method names, so only a key, the
 *	same for functions whose sysfs reset_method reads the same; 0 for
 *	none. Sent where the kernel has the array (v5.15 on), and regardless
 *	of PCIEAUDIT_A_DEV_CONFIG_UNREADABLE: no register is read.
 */
enum pcieaudit_passthru_attr {
	PCIEAUDIT_A_PASSTHRU_PMCSR = 1,
	PCIEAUDIT_A_PASSTHRU_AF_CAP,
	PCIEAUDIT_A_PASSTHRU_DEVCAP2,
	PCIEAUDIT_A_PASSTHRU_DEVCTL2,
	PCIEAUDIT_A_PASSTHRU_SRIOV,
	PCIEAUDIT_A_PASSTHRU_PAD,
	PCIEAUDIT_A_PASSTHRU_RESET_METHODS,

	__PCIEAUDIT_A_PASSTHRU_MAX,
	PCIEAUDIT_A_PASSTHRU_MAX = __PCIEAUDIT_A_PASSTHRU_MAX - 1
};

/**
 * enum pcieaudit_sriov_attr - SR-IOV capability registers and the kernel's
 *	VF records (nested)
 * @PCIEAUDIT_A_SRIOV_POS: u16, capability offset in configuration space.
 * @PCIEAUDIT_A_SRIOV_INITIAL_VFS: u16, InitialVFs, raw.
 * @PCIEAUDIT_A_SRIOV_TOTAL_VFS: u16, TotalVFs, raw.
 * @PCIEAUDIT_A_SRIOV_NUM_VFS: u16, NumVFs, raw, read live.
 * @PCIEAUDIT_A_SRIOV_VF_OFFSET: u16, First VF Offset, raw, read live.
 * @PCIEAUDIT_A_SRIOV_VF_STRIDE: u16, VF Stride, raw, read live.
 * @PCIEAUDIT_A_SRIOV_KERNEL_NUM_VFS: u16, pci_num_vf(): the VFs the kernel
 *	enabled, as sysfs sriov_numvfs shows them; absent for a function the
 *	kernel did not set up as a PF.
 * @PCIEAUDIT_A_SRIOV_VF_BAR: nest, enum pcieaudit_vf_bar_attr; repeated,
 *	one per VF BAR register, 0-5, in index order.
 */
enum pcieaudit_sriov_attr {
	PCIEAUDIT_A_SRIOV_POS = 1,
	PCIEAUDIT_A_SRIOV_INITIAL_VFS,
	PCIEAUDIT_A_SRIOV_TOTAL_VFS,
	PCIEAUDIT_A_SRIOV_NUM_VFS,
	PCIEAUDIT_A_SRIOV_VF_OFFSET,
	PCIEAUDIT_A_SRIOV_VF_STRIDE,
	PCIEAUDIT_A_SRIOV_KERNEL_NUM_VFS,
	PCIEAUDIT_A_SRIOV_VF_BAR,

	__PCIEAUDIT_A_SRIOV_MAX,
	PCIEAUDIT_A_SRIOV_MAX = __PCIEAUDIT_A_SRIOV_MAX - 1
};

/**
 * enum pcieaudit_vf_bar_attr - one VF BAR of an SR-IOV capability (nested)
 * @PCIEAUDIT_A_VF_BAR_INDEX: u8, 0-5.
 * @PCIEAUDIT_A_VF_BAR_REG: u32, the VF BAR register, raw, read live.
 * @PCIEAUDIT_A_VF_BAR_SIZE: u64, pci_resource_len() of the kernel's IOV
 *	resource: the space of all VFs, bytes, 0 when it holds none; absent
 *	where the kernel keeps no IOV resources (built without
 *	CONFIG_PCI_IOV).
 * @PCIEAUDIT_A_VF_BAR_FLAGS: u32, enum pcieaudit_bar_flag bits of that
 *	resource, 0 when none; absent with PCIEAUDIT_A_VF_BAR_SIZE.
 * @PCIEAUDIT_A_VF_BAR_PAD: padding for the u64, never sent alone.
 */
enum pcieaudit_vf_bar_attr {
	PCIEAUDIT_A_VF_BAR_INDEX = 1,
	PCIEAUDIT_A_VF_BAR_REG,
	PCIEAUDIT_A_VF_BAR_SIZE,
	PCIEAUDIT_A_VF_BAR_FLAGS,
	PCIEAUDIT_A_VF_BAR_PAD,

	__PCIEAUDIT_A_VF_BAR_MAX,
	PCIEAUDIT_A_VF_BAR_MAX = __PCIEAUDIT_A_VF_BAR_MAX - 1
};

/**
 * enum pcieaudit_hist_attr - link history of a function (nested), derived
 *	by the module from its LnkSta samples; times are CLOCK_REALTIME ns
 * @PCIEAUDIT_A_HIST_SINCE_NS: u64, when tracking started.
 * @PCIEAUDIT_A_HIST_TRANSITIONS: u64, samples whose LnkSta speed, width or
 *	Data Link Layer Link Active differed from the previous sample.
 * @PCIEAUDIT_A_HIST_BELOW_NS: u64, time the link was up below what both
 *	its ends support (speed or width under the lower LnkCap of the
 *	function and its upstream port), at sampling granularity.
 * @PCIEAUDIT_A_HIST_MIN_SPEED: u8, the slowest LnkSta speed encoding seen
 *	while the link was up; absent when it was never seen up.
 * @PCIEAUDIT_A_HIST_MIN_WIDTH: u8, the narrowest width seen while up;
 *	absent when it was never seen up.
 * @PCIEAUDIT_A_HIST_LAST_CHANGE_NS: u64, when the last transition was
 *	sampled; absent when there was none.
 * @PCIEAUDIT_A_HIST_INTERVAL_MS: u32, the sampling interval.
 * @PCIEAUDIT_A_HIST_PAD: padding for the u64s, never sent alone.
 * @PCIEAUDIT_A_HIST_UNSAMPLED_NS: u64, time the sampler did not read the
 *	link (see PCIEAUDIT_A_HIST_SKIP), in which no time accrued to
 *	PCIEAUDIT_A_HIST_BELOW_NS.
 * @PCIEAUDIT_A_HIST_SKIP: u32, enum pcieaudit_hist_skip: why the latest
 *	sample did not read the link; absent when it did.
 */
enum pcieaudit_hist_attr {
	PCIEAUDIT_A_HIST_SINCE_NS = 1,
	PCIEAUDIT_A_HIST_TRANSITIONS,
	PCIEAUDIT_A_HIST_BELOW_NS,
	PCIEAUDIT_A_HIST_MIN_SPEED,
	PCIEAUDIT_A_HIST_MIN_WIDTH,
	PCIEAUDIT_A_HIST_LAST_CHANGE_NS,
	PCIEAUDIT_A_HIST_INTERVAL_MS,
	PCIEAUDIT_A_HIST_PAD,
	PCIEAUDIT_A_HIST_UNSAMPLED_NS,
	PCIEAUDIT_A_HIST_SKIP,

	__PCIEAUDIT_A_HIST_MAX,
	PCIEAUDIT_A_HIST_MAX = __PCIEAUDIT_A_HIST_MAX - 1
};

/**
 * enum pcieaudit_hist_skip - PCIEAUDIT_A_HIST_SKIP values: why the sampler
 *	did not read a link. It never wakes a function or a link to read it.
 * @PCIEAUDIT_HIST_SKIP_SUSPENDED: the function, or the bridge above it, is
 *	runtime-suspended or not in D0.
 * @PCIEAUDIT_HIST_SKIP_ASPM: ASPM is enabled on a link between the
 *	function and the root complex, which a read would bring out of its
 *	low-power state.
 * @PCIEAUDIT_HIST_SKIP_BLOCKED: the kernel blocks the function's
 *	configuration access (a reset, an SR-IOV change in progress).
 * @PCIEAUDIT_HIST_SKIP_UNREADABLE: the read failed or returned all ones
 *	(the function is gone or disconnected).
 */
enum pcieaudit_hist_skip {
	PCIEAUDIT_HIST_SKIP_SUSPENDED = 1,
	PCIEAUDIT_HIST_SKIP_ASPM,
	PCIEAUDIT_HIST_SKIP_BLOCKED,
	PCIEAUDIT_HIST_SKIP_UNREADABLE,

	__PCIEAUDIT_HIST_SKIP_MAX,
	PCIEAUDIT_HIST_SKIP_MAX = __PCIEAUDIT_HIST_SKIP_MAX - 1
};

/**
 * enum pcieaudit_mon_event - PCIEAUDIT_A_MON_EVENT values
 * @PCIEAUDIT_MON_ADDED: the function was added (hot-add, rescan, VF).
 * @PCIEAUDIT_MON_REMOVED: the function is being removed.
 * @PCIEAUDIT_MON_LINK: LnkSta's speed, width, Data Link Layer Link Active,
 *	Link Bandwidth Management Status or Link Autonomous Bandwidth Status
 *	changed.
 * @PCIEAUDIT_MON_ACS: the ACS control register changed.
 */
enum pcieaudit_mon_event {
	PCIEAUDIT_MON_ADDED = 1,
	PCIEAUDIT_MON_REMOVED,
	PCIEAUDIT_MON_LINK,
	PCIEAUDIT_MON_ACS,
};

/**
 * enum pcieaudit_mon_source - PCIEAUDIT_A_MON_SOURCE values: what saw it
 * @PCIEAUDIT_MON_SRC_BUS_NOTIFIER: the PCI bus notifier (added, removed).
 * @PCIEAUDIT_MON_SRC_SAMPLER: the module's periodic read of LnkSta and
 *	ACS control; a change that came and went between two samples is
 *	not seen.
 * @PCIEAUDIT_MON_SRC_PCI_HP_EVENT: the kernel's pci_hp_event tracepoint
 *	(pciehp: link up or down, card present or not) named the port, and
 *	the read of LnkSta it prompted saw the change.
 * @PCIEAUDIT_MON_SRC_PCIE_LINK_EVENT: the kernel's pcie_link_event
 *	tracepoint (bwctrl, link retraining, a new bus) named the port, and
 *	the read of LnkSta it prompted saw the change.
 */
enum pcieaudit_mon_source {
	PCIEAUDIT_MON_SRC_BUS_NOTIFIER = 1,
	PCIEAUDIT_MON_SRC_SAMPLER,
	PCIEAUDIT_MON_SRC_PCI_HP_EVENT,
	PCIEAUDIT_MON_SRC_PCIE_LINK_EVENT,
};

/**
 * enum pcieaudit_mon_attr - PCIEAUDIT_CMD_MON_EVENT message
 * @PCIEAUDIT_A_MON_SEQ: u64, the event's number, from 1, without gaps.
 * @PCIEAUDIT_A_MON_TIME_NS: u64, CLOCK_REALTIME ns when it was seen.
 * @PCIEAUDIT_A_MON_EVENT: u32, enum pcieaudit_mon_event.
 * @PCIEAUDIT_A_MON_SOURCE: u32, enum pcieaudit_mon_source.
 * @PCIEAUDIT_A_MON_ADDR: nest, enum pcieaudit_addr_attr; the function.
 * @PCIEAUDIT_A_MON_LNKCAP: u32, LnkCap (link events).
 * @PCIEAUDIT_A_MON_LNKSTA_OLD: u16, LnkSta at the previous sample.
 * @PCIEAUDIT_A_MON_LNKSTA: u16, LnkSta now.
 * @PCIEAUDIT_A_MON_ACS_CTRL_OLD: u16, ACS control at the previous sample.
 * @PCIEAUDIT_A_MON_ACS_CTRL: u16, ACS control now.
 */
enum pcieaudit_mon_attr {
	PCIEAUDIT_A_MON_SEQ = 1,
	PCIEAUDIT_A_MON_TIME_NS,
	PCIEAUDIT_A_MON_EVENT,
	PCIEAUDIT_A_MON_SOURCE,
	PCIEAUDIT_A_MON_ADDR,
	PCIEAUDIT_A_MON_LNKCAP,
	PCIEAUDIT_A_MON_LNKSTA_OLD,
	PCIEAUDIT_A_MON_LNKSTA,
	PCIEAUDIT_A_MON_ACS_CTRL_OLD,
	PCIEAUDIT_A_MON_ACS_CTRL,
	PCIEAUDIT_A_MON_PAD,

	__PCIEAUDIT_A_MON_MAX,
	PCIEAUDIT_A_MON_MAX = __PCIEAUDIT_A_MON_MAX - 1
};

#endif /* _UAPI_LINUX_PCIEAUDIT_H */
