/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vfio-plan: what giving some devices to one guest takes. The groups they
 * bring in and every other endpoint that must go too, their drivers, reset
 * methods and SR-IOV and BAR needs, the vfio rules' findings that stand in
 * the way (each naming its rule), and the steps in order. Pure: a report
 * and its check in, the plan out.
 */
#ifndef PA_VFIO_PLAN_H
#define PA_VFIO_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "check.h"
#include "errors.h"
#include "vfio_facts.h"

struct pa_vfio_plan_dev {
	const struct pa_device *d;
	bool asked;			/* named by the user, not brought in */
	struct pa_vfio_reset reset;
};

struct pa_vfio_plan_step {
	const char *kind;		/* "cmdline", "bind", "boot", "libvirt", "qemu" */
	const char *what;		/* what it is for, one line */
	char *text;			/* the exact lines */
};

struct pa_vfio_plan {
	struct pa_vfio_plan_dev *devs;	/* every endpoint that goes, by address */
	size_t ndevs;
	uint32_t *groups;
	size_t ngroups;
	struct pa_vfio_intremap ir;
	const struct pa_finding **blockers;	/* in c's order */
	size_t nblockers;
	struct pa_vfio_plan_step *steps;
	size_t nsteps;
	enum pa_severity worst;		/* of the blockers; 0 for none */
	const struct pa_check *c;	/* the vfio rules' run: what was skipped */
};

/*
 * The plan for bdfs over rep and c (the vfio profile's run). Refuses, with
 * *e set: a function not in the report (PA_EXIT_NO_DEVICE), a bridge, or
 * one whose group a VFIO user already holds (PA_EXIT_USAGE). Returns 0,
 * e->exit, or -ENOMEM.
 */
int pa_vfio_plan_build(const struct pa_report *rep, const struct pa_check *c,
		       const struct pa_addr *bdfs, size_t n,
		       struct pa_vfio_plan *p, struct pa_error *e);
void pa_vfio_plan_clear(struct pa_vfio_plan *p);

/* PA_EXIT_OK, PA_EXIT_WARNINGS or PA_EXIT_FINDING, as check's. */
int pa_vfio_plan_exit_code(const struct pa_vfio_plan *p);

#endif /* PA_VFIO_PLAN_H */
