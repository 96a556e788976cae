/* SPDX-License-Identifier: GPL-2.0 */
/* vfio-plan's outputs: text for people, JSON for tooling. Pure. */
#ifndef PA_VFIO_PLAN_OUT_H
#define PA_VFIO_PLAN_OUT_H

#include <stdio.h>

#include "vfio_plan.h"

int pa_vfio_plan_text(FILE *f, const struct pa_report *rep,
		      const struct pa_vfio_plan *p);
int pa_vfio_plan_json(FILE *f, const struct pa_report *rep,
		      const struct pa_vfio_plan *p);

#endif /* PA_VFIO_PLAN_OUT_H */
