/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a snapshot must hold together, once read: no function or group
 * listed twice, every upstream, pf, pair end and hop among the devices,
 * upstream links ending at a root bus (no cycle), and each device's IOMMU
 * group listing it. Pure; n log n on the sorted report, so a huge or
 * hostile snapshot cannot cost n squared.
 */
#ifndef PA_SNAPSHOT_CHECK_H
#define PA_SNAPSHOT_CHECK_H

#include "json_in.h"
#include "model.h"

/* rep sorted (pa_report_sort(), pa_p2p_sort()); 0 or -EINVAL with in's
 * error naming the device "devices[bdf=...]" or pair "p2p[a=...,b=...]". */
int pa_snapshot_check(struct pa_json_in *in, const struct pa_report *rep);

#endif /* PA_SNAPSHOT_CHECK_H */
