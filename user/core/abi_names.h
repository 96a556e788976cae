/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spellings of the UAPI's enum values, shared by the JSON and text output.
 * The JSON spellings are a contract with scripts; never change one.
 */
#ifndef PA_ABI_NAMES_H
#define PA_ABI_NAMES_H

#include <stdint.h>

#define PA_NFEATURES 5

struct pa_feature_name {
	uint32_t bit;		/* enum pcieaudit_feature */
	const char *name;
};

extern const struct pa_feature_name pa_feature_names[PA_NFEATURES];

/* "endpoint", "root_port", ...; NULL for conventional PCI (-1) and for
 * types the PCIe specification reserves. */
const char *pa_pcie_type_name(int pcie_type);

/* "DMA", "DMA-FQ", "identity", "blocked", "unmanaged" as sysfs spells them,
 * "unknown" for any other type; NULL when the attribute was absent (0). */
const char *pa_domain_type_name(uint32_t type);

/* "kernel" or "derived"; NULL when absent or unknown. */
const char *pa_source_name(uint32_t source);

/* "claimed" or "unclaimed" (iommu_group_dma_owner_claimed()); NULL when
 * the kernel cannot say. */
const char *pa_dma_owner_name(uint32_t owner);

/* Why the sampler did not read a link (enum pcieaudit_hist_skip):
 * "suspended", "aspm", "blocked", "unreadable"; NULL when it did. */
const char *pa_hist_skip_name(uint32_t skip);

/* "passthrough" or "translated"; NULL when absent or undeterminable. */
const char *pa_iommu_mode_name(uint32_t mode);

/* "strict" or "lazy"; NULL when absent or undeterminable. */
const char *pa_iommu_strict_name(uint32_t strict);

/* "D0", "D1", "D2", "D3hot"; NULL when absent (no PM capability), not
 * readable (PCIEAUDIT_POWER_UNKNOWN) or newer than this CLI. */
const char *pa_power_state_name(uint32_t state);

/* "answered", "not_built", "withheld_log", "withheld_unsafe"; NULL for a
 * value this CLI does not know. */
const char *pa_p2p_kernel_status_name(uint32_t status);

/* "bus-addr", "host-bridge", "unsupported"; NULL when unknown. */
const char *pa_p2p_map_name(uint32_t map);

/* "common_upstream", "acs_redirect", "no_common_upstream"; NULL when
 * unknown. */
const char *pa_p2p_path_name(uint32_t path);

/* "not_needed", "cpu", "whitelist", "refused"; NULL when unknown. */
const char *pa_p2p_host_rule_name(uint32_t rule);

/* "agree", "disagree"; NULL when absent or unknown. */
const char *pa_p2p_agreement_name(uint32_t agreement);

/* "module" or "sysfs" (enum pa_host_source); NULL when unknown. */
const char *pa_host_source_name(uint32_t source);

/*
 * The reverse of the lookups above, for snapshots: the value whose name is
 * name, or 0 when there is none. "unknown" gives PCIEAUDIT_DOMAIN_UNKNOWN.
 */
uint32_t pa_domain_type_value(const char *name);
uint32_t pa_source_value(const char *name);
uint32_t pa_dma_owner_value(const char *name);
uint32_t pa_iommu_mode_value(const char *name);
uint32_t pa_hist_skip_value(const char *name);
uint32_t pa_iommu_strict_value(const char *name);
uint32_t pa_power_state_value(const char *name);
uint32_t pa_p2p_kernel_status_value(const char *name);
uint32_t pa_p2p_map_value(const char *name);
uint32_t pa_p2p_path_value(const char *name);
uint32_t pa_p2p_host_rule_value(const char *name);
uint32_t pa_p2p_agreement_value(const char *name);
uint32_t pa_host_source_value(const char *name);
/* PCI_EXP_TYPE_* for a pa_pcie_type_name() spelling, or -1. */
int pa_pcie_type_value(const char *name);

#endif /* PA_ABI_NAMES_H */
