/* SPDX-License-Identifier: GPL-2.0 */
/* Asks the module for its state and collects the replies into the model. */
#ifndef PA_FETCH_H
#define PA_FETCH_H

#include "model.h"
#include "nl.h"

int pa_fetch_info(struct pa_nl *nl, struct pa_info *info);

/*
 * Module info, devices and IOMMU groups, sorted. With only set, just that
 * device (-ENODEV when the kernel has none there) and the groups holding it.
 * On failure *rep is left empty.
 */
int pa_fetch_report(struct pa_nl *nl, const struct pa_addr *only,
		    struct pa_report *rep);

#endif /* PA_FETCH_H */
