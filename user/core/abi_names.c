// SPDX-License-Identifier: GPL-2.0
#include "abi_names.h"

#include <stddef.h>
#include <string.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "model.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const struct pa_feature_name pa_feature_names[PA_NFEATURES] = {
	{ PCIEAUDIT_F_P2PDMA,		"p2pdma" },
	{ PCIEAUDIT_F_IOMMU_API,	"iommu_api" },
	{ PCIEAUDIT_F_IOMMU_PRESENT,	"iommu_present" },
	{ PCIEAUDIT_F_PCI_IOV,		"pci_iov" },
	{ PCIEAUDIT_F_PCI_ATS,		"pci_ats" },
};

/* Tables indexed by value; NULL entries are values without a name. */
static const char *const pcie_types[] = {
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

static const char *const domain_types[] = {
	[PCIEAUDIT_DOMAIN_UNKNOWN]	= "unknown",
	[PCIEAUDIT_DOMAIN_BLOCKED]	= "blocked",
	[PCIEAUDIT_DOMAIN_IDENTITY]	= "identity",
	[PCIEAUDIT_DOMAIN_UNMANAGED]	= "unmanaged",
	[PCIEAUDIT_DOMAIN_DMA]		= "DMA",
	[PCIEAUDIT_DOMAIN_DMA_FQ]	= "DMA-FQ",
};

static const char *const sources[] = {
	[PCIEAUDIT_SOURCE_KERNEL]	= "kernel",
	[PCIEAUDIT_SOURCE_DERIVED]	= "derived",
};

static const char *const dma_owners[] = {
	[PCIEAUDIT_DMA_OWNER_UNCLAIMED]	= "unclaimed",
	[PCIEAUDIT_DMA_OWNER_CLAIMED]	= "claimed",
};

static const char *const hist_skips[] = {
	[PCIEAUDIT_HIST_SKIP_SUSPENDED]		= "suspended",
	[PCIEAUDIT_HIST_SKIP_ASPM]		= "aspm",
	[PCIEAUDIT_HIST_SKIP_BLOCKED]		= "blocked",
	[PCIEAUDIT_HIST_SKIP_UNREADABLE]	= "unreadable",
};

static const char *const iommu_modes[] = {
	[PCIEAUDIT_IOMMU_MODE_PASSTHROUGH]	= "passthrough",
	[PCIEAUDIT_IOMMU_MODE_TRANSLATED]	= "translated",
};

static const char *const iommu_stricts[] = {
	[PCIEAUDIT_IOMMU_STRICT_STRICT]	= "strict",
	[PCIEAUDIT_IOMMU_STRICT_LAZY]	= "lazy",
};

/* PMCSR's states; PCIEAUDIT_POWER_UNKNOWN has no name: JSON says null. */
static const char *const power_states[] = {
	[PCIEAUDIT_POWER_D0]	= "D0",
	[PCIEAUDIT_POWER_D1]	= "D1",
	[PCIEAUDIT_POWER_D2]	= "D2",
	[PCIEAUDIT_POWER_D3HOT]	= "D3hot",
};

static const char *const kernel_statuses[] = {
	[PCIEAUDIT_P2P_KERNEL_ANSWERED]		= "answered",
	[PCIEAUDIT_P2P_KERNEL_NOT_BUILT]	= "not_built",
	[PCIEAUDIT_P2P_KERNEL_WITHHELD_LOG]	= "withheld_log",
	[PCIEAUDIT_P2P_KERNEL_WITHHELD_UNSAFE]	= "withheld_unsafe",
};

static const char *const p2p_maps[] = {
	[PCIEAUDIT_P2P_MAP_BUS_ADDR]		= "bus-addr",
	[PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE]	= "host-bridge",
	[PCIEAUDIT_P2P_MAP_NOT_SUPPORTED]	= "unsupported",
};

static const char *const p2p_paths[] = {
	[PCIEAUDIT_P2P_PATH_COMMON_UPSTREAM]	= "common_upstream",
	[PCIEAUDIT_P2P_PATH_ACS_REDIRECT]	= "acs_redirect",
	[PCIEAUDIT_P2P_PATH_NO_COMMON_UPSTREAM]	= "no_common_upstream",
};

static const char *const host_rules[] = {
	[PCIEAUDIT_P2P_HOST_NOT_NEEDED]	= "not_needed",
	[PCIEAUDIT_P2P_HOST_CPU]	= "cpu",
	[PCIEAUDIT_P2P_HOST_WHITELIST]	= "whitelist",
	[PCIEAUDIT_P2P_HOST_REFUSED]	= "refused",
};

static const char *const agreements[] = {
	[PCIEAUDIT_P2P_AGREE]		= "agree",
	[PCIEAUDIT_P2P_DISAGREE]	= "disagree",
};

static const char *const host_sources[] = {
	[PA_SOURCE_MODULE]	= "module",
	[PA_SOURCE_SYSFS]	= "sysfs",
	[PA_SOURCE_LSPCI]	= "lspci",
};

#define NAME(table, v)	lookup(table, ARRAY_SIZE(table), v)
#define VALUE(table, s)	reverse(table, ARRAY_SIZE(table), s)

/* Looks a value up in a table indexed by that value; NULL past its end. */
static const char *lookup(const char *const *table, size_t size, uint32_t v)
{
	return v < size ? table[v] : NULL;
}

static uint32_t reverse(const char *const *table, size_t size,
			const char *name)
{
	for (uint32_t v = 0; v < size; v++)
		if (table[v] && !strcmp(table[v], name))
			return v;
	return 0;
}

const char *pa_pcie_type_name(int pcie_type)
{
	if (pcie_type < 0)
		return NULL;
	return NAME(pcie_types, (uint32_t)pcie_type);
}

int pa_pcie_type_value(const char *name)
{
	/* PCI_EXP_TYPE_ENDPOINT is 0, so 0 cannot mean "none" here. */
	for (size_t v = 0; v < ARRAY_SIZE(pcie_types); v++)
		if (pcie_types[v] && !strcmp(pcie_types[v], name))
			return (int)v;
	return -1;
}

const char *pa_domain_type_name(uint32_t type)
{
	const char *name;

	if (type == 0)
		return NULL;
	/* SVA, PLATFORM, NESTED and types newer than this CLI. */
	name = NAME(domain_types, type);
	return name ? name : "unknown";
}

const char *pa_source_name(uint32_t source)
{
	return NAME(sources, source);
}

const char *pa_dma_owner_name(uint32_t owner)
{
	return NAME(dma_owners, owner);
}

const char *pa_hist_skip_name(uint32_t skip)
{
	return NAME(hist_skips, skip);
}

const char *pa_iommu_mode_name(uint32_t mode)
{
	return NAME(iommu_modes, mode);
}

const char *pa_iommu_strict_name(uint32_t strict)
{
	return NAME(iommu_stricts, strict);
}

const char *pa_power_state_name(uint32_t state)
{
	return NAME(power_states, state);
}

const char *pa_p2p_kernel_status_name(uint32_t status)
{
	return NAME(kernel_statuses, status);
}

const char *pa_p2p_map_name(uint32_t map)
{
	return NAME(p2p_maps, map);
}

const char *pa_p2p_path_name(uint32_t path)
{
	return NAME(p2p_paths, path);
}

const char *pa_p2p_host_rule_name(uint32_t rule)
{
	return NAME(host_rules, rule);
}

const char *pa_p2p_agreement_name(uint32_t agreement)
{
	return NAME(agreements, agreement);
}

const char *pa_host_source_name(uint32_t source)
{
	return NAME(host_sources, source);
}

uint32_t pa_domain_type_value(const char *name)
{
	return VALUE(domain_types, name);
}

uint32_t pa_source_value(const char *name)
{
	return VALUE(sources, name);
}

uint32_t pa_dma_owner_value(const char *name)
{
	return VALUE(dma_owners, name);
}

uint32_t pa_hist_skip_value(const char *name)
{
	return VALUE(hist_skips, name);
}

uint32_t pa_iommu_mode_value(const char *name)
{
	return VALUE(iommu_modes, name);
}

uint32_t pa_iommu_strict_value(const char *name)
{
	return VALUE(iommu_stricts, name);
}

uint32_t pa_power_state_value(const char *name)
{
	return VALUE(power_states, name);
}

uint32_t pa_p2p_kernel_status_value(const char *name)
{
	return VALUE(kernel_statuses, name);
}

uint32_t pa_p2p_map_value(const char *name)
{
	return VALUE(p2p_maps, name);
}

uint32_t pa_p2p_path_value(const char *name)
{
	return VALUE(p2p_paths, name);
}

uint32_t pa_p2p_host_rule_value(const char *name)
{
	return VALUE(host_rules, name);
}

uint32_t pa_p2p_agreement_value(const char *name)
{
	return VALUE(agreements, name);
}

uint32_t pa_host_source_value(const char *name)
{
	return VALUE(host_sources, name);
}
