/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vfio-plan's pipeline: load the report with its host facts, run the vfio
 * profile, build the plan for the named devices, render it.
 */
#ifndef PA_VFIO_PLAN_RUN_H
#define PA_VFIO_PLAN_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "errors.h"
#include "load.h"

/* Check's exit code for the plan (0, 1 a blocker that fails, 8 warnings
 * only), or e->exit: 7 for a function not in the input, 2 for a bridge
 * or a group in use. */
int pa_vfio_plan_run(const struct pa_load *l, const struct pa_addr *bdfs,
		     size_t n, bool json, FILE *out, struct pa_error *e);

#endif /* PA_VFIO_PLAN_RUN_H */
