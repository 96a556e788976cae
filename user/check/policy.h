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

struct pa_policy {
	bool profiles[PA_NPROFILES];
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

bool pa_match_device(const struct pa_match *m, const struct pa_device *dev);

#endif /* PA_POLICY_H */
