/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check: the rules of the profiles run over a report, into findings. Pure:
 * a report and a policy in, findings out; the outputs format them.
 */
#ifndef PA_CHECK_H
#define PA_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "cmdline.h"
#include "model.h"
#include "policy.h"
#include "rules.h"

/* check --expect FILE: what this host should be, a golden host's
 * snapshot or an inventory (policy.h); exactly one is set. */
struct pa_expect {
	const char *name;		/* the file, for messages */
	const struct pa_report *golden;
	const struct pa_inventory *inv;
};

/* What a finding's remedy is: where the fix goes. */
enum pa_remedy_kind {
	PA_REMEDY_NONE,
	PA_REMEDY_CMDLINE_ADD,		/* a kernel command line parameter */
	PA_REMEDY_CMDLINE_REMOVE,
	PA_REMEDY_MODULE_PARAM,		/* module.param=value */
	PA_REMEDY_BIOS,			/* a firmware setup setting */
	PA_REMEDY_HYPERVISOR,		/* the VM's configuration, outside it */
	PA_REMEDY_HARDWARE,		/* slots, cards, risers */
	PA_REMEDY_COMMAND,		/* something to run */
	PA_REMEDY_KERNEL,		/* a kernel built with other options */
};

struct pa_remedy {
	enum pa_remedy_kind kind;
	const char *text;
};

/* "cmdline-add", "bios", ...; NULL for none. */
const char *pa_remedy_kind_name(enum pa_remedy_kind kind);

struct pa_finding {
	enum pa_rule_id rule;
	enum pa_severity severity;
	struct pa_addr_list devices;	/* the ones involved, the subject first */
	char *message;
	enum pa_remedy_kind remedy_kind;
	char *remedy;			/* NULL for none */
	/* Findings of one rule that share group, severity and remedy have
	 * one cause: text output prints group once and each member's
	 * member line; JSON keeps every finding. NULL: not grouped. */
	char *group;
	char *member;
};

enum pa_rule_state {
	PA_RULE_NOT_RUN,	/* its profile was not asked for, or policy off */
	PA_RULE_RAN,
	PA_RULE_SKIPPED,	/* the report cannot tell: note says why */
};

struct pa_check {
	bool profiles[PA_NPROFILES];
	enum pa_rule_state state[PA_NRULES];
	char *note[PA_NRULES];		/* why skipped, or what passed */
	struct pa_finding *findings;	/* by rule, in the order found */
	size_t nfindings;
	/* For the rule code. */
	int err;			/* sticky: -ENOMEM */
	const struct pa_policy *policy;
	const struct pa_report *rep;
	bool has_cmdline;		/* the host's, parsed */
	struct pa_cmdline cmdline;
};

/*
 * The P2P pairs the policy's gpudirect profile judges that rep lacks,
 * inferred (p2p_infer.h): among the GPUs, accelerators, NICs and NVMe
 * drives it selects. Loading does this once (load.h), so that check only
 * reads; 0 or -ENOMEM.
 */
int pa_check_infer_pairs(struct pa_report *rep,
			 const struct pa_policy *policy);

/* The devices gpudirect makes pairs of: an accelerator, NIC or NVMe drive
 * the policy selects for it. The pairs loading adds and those check
 * judges come from this one test, so the two cannot differ. */
bool pa_check_gpudirect_partner(const struct pa_policy *policy,
				const struct pa_device *dev);

/*
 * Runs the policy's profiles over rep, which it only reads: the pairs
 * gpudirect judges come with the report (pa_check_infer_pairs()).
 * 0 or -ENOMEM.
 */
int pa_check_run(const struct pa_report *rep, const struct pa_policy *policy,
		 struct pa_check *c);
void pa_check_clear(struct pa_check *c);

/* The worst severity among a rule's, a profile's (profile < PA_NPROFILES)
 * or all findings (PA_NPROFILES); 0 for none. */
enum pa_severity pa_check_rule_worst(const struct pa_check *c,
				     enum pa_rule_id rule);
enum pa_severity pa_check_profile_worst(const struct pa_check *c,
					unsigned int profile);

/* True when every rule of @profile that was asked for was skipped and none
 * found anything (PA_NPROFILES: all profiles): nothing could be judged,
 * which is no pass. */
bool pa_check_profile_skipped(const struct pa_check *c, unsigned int profile);

/* pa_check_verdict() of @profile, or "skip" when it was all skipped. */
const char *pa_check_profile_verdict(const struct pa_check *c,
				     unsigned int profile);

/* "pass", "warn" or "fail", from the worst severity (info passes). */
const char *pa_check_verdict(enum pa_severity worst);

/* PA_EXIT_OK, PA_EXIT_WARNINGS or PA_EXIT_FINDING. */
int pa_check_exit_code(const struct pa_check *c);

/* ---- For the profiles' rule code (check_*.c) ----------------------------- */

/* Adds a finding unless the policy turns the rule off; severity 0 takes
 * the rule's default, and the policy's severity wins over both. */
__attribute__((format(printf, 7, 8)))
void pa_check_add(struct pa_check *c, enum pa_rule_id rule,
		  enum pa_severity severity, const struct pa_addr *devs,
		  size_t ndevs, struct pa_remedy remedy, const char *fmt, ...);

/* Groups the finding pa_check_add() just added, if it did: nfindings_before
 * is c->nfindings before that call. */
void pa_check_group_last(struct pa_check *c, size_t nfindings_before,
			 const char *group, const char *member);

/* Whether two findings belong to one group (see struct pa_finding). */
bool pa_finding_same_group(const struct pa_finding *a,
			   const struct pa_finding *b);

/* The rule could not be checked; fmt says why. */
__attribute__((format(printf, 3, 4)))
void pa_check_skip(struct pa_check *c, enum pa_rule_id rule,
		   const char *fmt, ...);

/* What a clean rule looked at, for its PASS line. */
__attribute__((format(printf, 3, 4)))
void pa_check_note(struct pa_check *c, enum pa_rule_id rule,
		   const char *fmt, ...);

/* Whether the profile looks at dev: the policy's selection, or the
 * profile's default, minus exclusions. */
bool pa_check_selects(const struct pa_check *c, enum pa_profile profile,
		      const struct pa_device *dev);

/* "GPU", "NIC", "root port", ... for messages. */
const char *pa_check_noun(const struct pa_device *dev);

/* vfio-pci, or one of its variant drivers. */
bool pa_check_vfio_driver(const char *driver);

/* Whether an IOMMU serves the PCI devices. */
bool pa_check_iommu_on(const struct pa_report *rep);

/* d's link is a GPU's, trained below both ends' best in speed alone: the
 * GPU idles at a low speed. Every rule judges such a link as INFO. */
bool pa_check_link_idle(const struct pa_report *rep, const struct pa_device *d);

/*
 * How to turn the IOMMU on: drop a parameter that turns it off; where the
 * firmware describes VT-d (an ACPI DMAR table) or the table is unknown on
 * an Intel host, add intel_iommu=on (Debian's kernels leave VT-d off);
 * without such a table, a VM needs a virtual IOMMU from its hypervisor and
 * a host the firmware's VT-d or AMD-Vi setting. buf holds the text the
 * remedy points to.
 */
struct pa_remedy pa_check_iommu_remedy(const struct pa_check *c,
				       char *buf, size_t len);

/* Why no IOMMU serves the devices, as far as the host facts tell: a
 * clause for a finding's message, "" when they tell nothing. */
const char *pa_check_iommu_why(const struct pa_check *c);

/* Whether the host's CPU vendor is vendor (PA_CPU_INTEL, PA_CPU_AMD). */
bool pa_check_cpu_is(const struct pa_report *rep, const char *vendor);

void pa_check_gpudirect(struct pa_check *c);
/* baseline.aer-rising (check_aer.c), part of the baseline profile. */
void pa_check_aer(struct pa_check *c);
void pa_check_vfio(struct pa_check *c);
void pa_check_baseline(struct pa_check *c);
/* baseline.bar-unassigned, from check_baseline. */
void pa_check_bar_unassigned(struct pa_check *c);
/* The expect profile (check_expect.c): policy->expect against rep. */
void pa_check_expect(struct pa_check *c);

#endif /* PA_CHECK_H */
