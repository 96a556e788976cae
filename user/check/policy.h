/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check's policy: which profiles run, which devices they look at, which
 * rules count and how much, and thresholds. Read from YAML with libyaml;
 * pure: text in, policy out. The format is in docs/check.md ("Policy files").
 */
#ifndef PA_POLICY_H
#define PA_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "rules.h"

/* A device selector; every field set must match. */
struct pa_match {
	int kind;		/* enum pa_kind (topo.h), -1: any */
	bool has_class;
	uint32_t class_value, class_mask;
	bool has_vendor;
	uint16_t vendor;
	bool has_device;
	uint16_t device;
	bool has_bdf;
	struct pa_addr bdf;
	char *driver;		/* NULL: any */
};

/* pa_policy.rules[]: the default, off, or a severity. */
#define PA_RULE_DEFAULT	0
#define PA_RULE_OFF	(-1)

#define PA_TRAP_RATIO_DEFAULT 0.5

struct pa_expect;

struct pa_policy {
	bool profiles[PA_NPROFILES];
	/* check --expect: what the host should be; NULL: the expect
	 * profile does not run. Not owned. */
	const struct pa_expect *expect;
	/* Devices the profiles look at; without select, each profile's own
	 * default. Exclusions apply either way. */
	struct pa_match *select;
	size_t nselect;
	struct pa_match *exclude;
	size_t nexclude;
	int rules[PA_NRULES];
	double trap_ratio;	/* gpudirect.bandwidth-trap: 0 < r <= 1 */
	bool all_pairs;		/* gpudirect: every pair, not the nearest */
};

/* Every profile and rule at its default. */
void pa_policy_default(struct pa_policy *p);
void pa_policy_clear(struct pa_policy *p);

/*
 * Parses a policy document. name is the file name for messages. Returns 0,
 * -EINVAL with err holding "<name>:<line>:<column>: <problem>", or
 * -ENOMEM; *p is left at the defaults on failure.
 */
int pa_policy_parse(const char *name, const char *text, size_t len,
		    struct pa_policy *p, char *err, size_t errlen);

/* ---- Inventories (check --expect FILE.yaml) ------------------------------ */

/* What the ports above an inventory device's functions should do. */
enum pa_inv_acs {
	PA_INV_ACS_ANY,
	PA_INV_ACS_REDIRECT_OFF,	/* no ReqRedir, CmpltRedir, EgressCtrl */
	PA_INV_ACS_ISOLATING,		/* SrcValid, ReqRedir, CmpltRedir, UpstreamFwd */
};

/* One model or class of device: how many, and at least which link. */
struct pa_inv_device {
	struct pa_match match;		/* class, vendor, device */
	long count;			/* -1: not said */
	double speed;			/* GT/s; 0: not said */
	unsigned int width;		/* 0: not said */
	enum pa_inv_acs acs;
	size_t line;			/* in the file, for messages */
};

/* The kinds of pair an inventory gives a P2P verdict for. */
enum pa_inv_pair { PA_INV_GPU_GPU, PA_INV_GPU_NIC, PA_INV_GPU_NVME, PA_INV_NPAIRS };

/* iommu.mode: off, beside enum pcieaudit_iommu_mode's values. */
#define PA_INV_IOMMU_OFF 0x100

struct pa_inventory {
	struct pa_inv_device *devices;
	size_t ndevices;
	uint32_t iommu_mode;		/* enum pcieaudit_iommu_mode or
					 * PA_INV_IOMMU_OFF; 0: not said */
	int isolated;			/* -1: not said */
	uint32_t p2p[PA_INV_NPAIRS];	/* enum pcieaudit_p2p_map; 0: not said */
};

/*
 * Parses an inventory (docs/check.md, "Inventories"): as pa_policy_parse(),
 * unknown keys, wrong types and impossible values (a width of x3, a
 * negative count) are -EINVAL with "<name>:<line>:<column>: <problem>".
 */
int pa_inventory_parse(const char *name, const char *text, size_t len,
		       struct pa_inventory *inv, char *err, size_t errlen);
void pa_inventory_clear(struct pa_inventory *inv);

bool pa_match_device(const struct pa_match *m, const struct pa_device *dev);

#endif /* PA_POLICY_H */
