/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rules check knows: stable ids, profiles, default severities, and
 * their documentation (check --rules prints it; docs/check.md's table says
 * the same). Ids are a contract with policies and dashboards: never rename
 * or reuse one.
 */
#ifndef PA_RULES_H
#define PA_RULES_H

enum pa_profile {
	PA_PROFILE_GPUDIRECT,
	PA_PROFILE_VFIO,
	PA_PROFILE_BASELINE,
	/* Against a golden host or an inventory (check --expect): runs
	 * only with one. */
	PA_PROFILE_EXPECT,
	PA_NPROFILES
};

/* Ordered: a worse finding compares greater. */
enum pa_severity {
	PA_SEV_INFO = 1,
	PA_SEV_WARN,
	PA_SEV_FAIL,
};

enum pa_rule_id {
	PA_GD_ACS_REDIRECT,
	PA_GD_P2P_REFUSED,
	PA_GD_P2P_HOST_BRIDGE,
	PA_GD_P2P_UNKNOWN,
	PA_GD_NUMA_REMOTE,
	PA_GD_LINK_DOWNGRADED,
	PA_GD_BANDWIDTH_TRAP,
	PA_GD_IOMMU_TRANSLATED,
	PA_GD_ACS_P2PDMA,
	PA_GD_BAR_SMALL,
	PA_GD_MPS_MISMATCH,
	PA_GD_RELAXED_ORDERING,
	PA_VFIO_IOMMU_OFF,
	PA_VFIO_IOMMU_PASSTHROUGH,
	PA_VFIO_GROUP_SHARED,
	PA_VFIO_GROUP_NOT_VIABLE,
	PA_VFIO_ACS_MISSING,
	PA_VFIO_GROUP_OVERCLAIMS,
	PA_VFIO_ACS_CHANGED,
	PA_VFIO_NOT_OPENED,
	PA_BL_IOMMU_OFF,
	PA_BL_LINK_DOWNGRADED,
	PA_BL_NUMA_UNKNOWN,
	PA_BL_AMD_IOMMU_ON,
	PA_BL_PCI_NOACS,
	PA_BL_ACS_OVERRIDE,
	PA_BL_IOMMU_PARAMS_CONFLICT,
	PA_BL_IOMMU_PARAM_VENDOR,
	PA_BL_ACS_PARAM_EFFECT,
	PA_BL_BAR_UNASSIGNED,
	PA_GD_ACCEL_LINK,
	PA_GD_PEERMEM,
	PA_GD_DMABUF,
	PA_BL_AER_RISING,
	PA_EX_DEVICE_MISSING,
	PA_EX_DEVICE_EXTRA,
	PA_EX_LINK_BELOW,
	PA_EX_ACS_DIFFERS,
	PA_EX_IOMMU_DIFFERS,
	PA_EX_P2P_DIFFERS,
	PA_EX_MOVED,
	PA_VFIO_INTREMAP,
	PA_VFIO_NO_RESET,
	PA_VFIO_SRIOV_RESOURCES,
	PA_VFIO_BAR_BELOW_4G,
	PA_VFIO_IDS_NOT_BOUND,
	PA_NRULES
};

struct pa_rule {
	const char *id;
	enum pa_profile profile;
	enum pa_severity severity;	/* the default */
	const char *what;		/* what is wrong, one line */
	const char *why;		/* why it matters, short and exact */
};

extern const struct pa_rule pa_rules[PA_NRULES];

/* The rule with that id, or -1. */
int pa_rule_lookup(const char *id);

/* "gpudirect", "vfio", "baseline"; and back, -1 when unknown. */
const char *pa_profile_name(enum pa_profile profile);
int pa_profile_lookup(const char *name);

/* "fail", "warn", "info"; and back, 0 when unknown. */
const char *pa_severity_name(enum pa_severity sev);
enum pa_severity pa_severity_lookup(const char *name);

#endif /* PA_RULES_H */
