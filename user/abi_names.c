// SPDX-License-Identifier: GPL-2.0
#include "abi_names.h"

#include <stddef.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const struct pa_feature_name pa_feature_names[PA_NFEATURES] = {
	{ PCIEAUDIT_F_P2PDMA,		"p2pdma" },
	{ PCIEAUDIT_F_IOMMU_API,	"iommu_api" },
	{ PCIEAUDIT_F_IOMMU_PRESENT,	"iommu_present" },
	{ PCIEAUDIT_F_PCI_IOV,		"pci_iov" },
	{ PCIEAUDIT_F_PCI_ATS,		"pci_ats" },
};

/* Looks a value up in a table indexed by that value; NULL past its end. */
static const char *lookup(const char *const *table, size_t size, uint32_t v)
{
	return v < size ? table[v] : NULL;
}

const char *pa_pcie_type_name(int pcie_type)
{
	static const char *const names[] = {
		[PCI_EXP_TYPE_ENDPOINT]		= "endpoint",
		[PCI_EXP_TYPE_LEG_END]		= "legacy_endpoint",
		[PCI_EXP_TYPE_ROOT_PORT]	= "root_port",
		[PCI_EXP_TYPE_UPSTREAM]		= "upstream_port",
		[PCI_EXP_TYPE_DOWNSTREAM]	= "downstream_port",
		[PCI_EXP_TYPE_PCI_BRIDGE]	= "pcie_to_pci_bridge",
		[PCI_EXP_TYPE_PCIE_BRIDGE]	= "pci_to_pcie_bridge",
		[PCI_EXP_TYPE_RC_END]		= "rc_endpoint",
		[PCI_EXP_TYPE_RC_EC]		= "rc_event_collector",
	};

	if (pcie_type < 0)
		return NULL;
	return lookup(names, ARRAY_SIZE(names), (uint32_t)pcie_type);
}

const char *pa_domain_type_name(uint32_t type)
{
	static const char *const names[] = {
		[PCIEAUDIT_DOMAIN_BLOCKED]	= "blocked",
		[PCIEAUDIT_DOMAIN_IDENTITY]	= "identity",
		[PCIEAUDIT_DOMAIN_UNMANAGED]	= "unmanaged",
		[PCIEAUDIT_DOMAIN_DMA]		= "DMA",
		[PCIEAUDIT_DOMAIN_DMA_FQ]	= "DMA-FQ",
	};
	const char *name;

	if (type == 0)
		return NULL;
	/* UNKNOWN, SVA, PLATFORM, NESTED and types newer than this CLI. */
	name = lookup(names, ARRAY_SIZE(names), type);
	return name ? name : "unknown";
}

const char *pa_source_name(uint32_t source)
{
	static const char *const names[] = {
		[PCIEAUDIT_SOURCE_KERNEL]	= "kernel",
		[PCIEAUDIT_SOURCE_DERIVED]	= "derived",
	};

	return lookup(names, ARRAY_SIZE(names), source);
}

const char *pa_iommu_mode_name(uint32_t mode)
{
	static const char *const names[] = {
		[PCIEAUDIT_IOMMU_MODE_PASSTHROUGH]	= "passthrough",
		[PCIEAUDIT_IOMMU_MODE_TRANSLATED]	= "translated",
	};

	return lookup(names, ARRAY_SIZE(names), mode);
}

const char *pa_iommu_strict_name(uint32_t strict)
{
	static const char *const names[] = {
		[PCIEAUDIT_IOMMU_STRICT_STRICT]	= "strict",
		[PCIEAUDIT_IOMMU_STRICT_LAZY]	= "lazy",
	};

	return lookup(names, ARRAY_SIZE(names), strict);
}

const char *pa_p2p_kernel_status_name(uint32_t status)
{
	static const char *const names[] = {
		[PCIEAUDIT_P2P_KERNEL_ANSWERED]		= "answered",
		[PCIEAUDIT_P2P_KERNEL_NOT_BUILT]	= "not_built",
		[PCIEAUDIT_P2P_KERNEL_WITHHELD_LOG]	= "withheld_log",
		[PCIEAUDIT_P2P_KERNEL_WITHHELD_UNSAFE]	= "withheld_unsafe",
	};

	return lookup(names, ARRAY_SIZE(names), status);
}

const char *pa_p2p_map_name(uint32_t map)
{
	static const char *const names[] = {
		[PCIEAUDIT_P2P_MAP_BUS_ADDR]		= "bus-addr",
		[PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE]	= "host-bridge",
		[PCIEAUDIT_P2P_MAP_NOT_SUPPORTED]	= "unsupported",
	};

	return lookup(names, ARRAY_SIZE(names), map);
}

const char *pa_p2p_path_name(uint32_t path)
{
	static const char *const names[] = {
		[PCIEAUDIT_P2P_PATH_COMMON_UPSTREAM]	= "common_upstream",
		[PCIEAUDIT_P2P_PATH_ACS_REDIRECT]	= "acs_redirect",
		[PCIEAUDIT_P2P_PATH_NO_COMMON_UPSTREAM]	= "no_common_upstream",
	};

	return lookup(names, ARRAY_SIZE(names), path);
}

const char *pa_p2p_host_rule_name(uint32_t rule)
{
	static const char *const names[] = {
		[PCIEAUDIT_P2P_HOST_NOT_NEEDED]	= "not_needed",
		[PCIEAUDIT_P2P_HOST_CPU]	= "cpu",
		[PCIEAUDIT_P2P_HOST_WHITELIST]	= "whitelist",
		[PCIEAUDIT_P2P_HOST_REFUSED]	= "refused",
	};

	return lookup(names, ARRAY_SIZE(names), rule);
}
