/* SPDX-License-Identifier: GPL-2.0 */
/* Fills a report's fabric: NVML (live hosts only), KFD, GPUDirect software. */
#ifndef PA_FABRIC_READ_H
#define PA_FABRIC_READ_H

#include "model.h"

/*
 * root is the sysfs mount or fixture the report came from ("/sys" for the
 * module). NVML answers only for the running host, and only when nvml is
 * true: otherwise, or for a fixture, its NVLinks stay unknown ("not-read",
 * with the reason). Returns 0 or -ENOMEM.
 */
int pa_fabric_read(const char *root, struct pa_report *rep, bool nvml);

#endif /* PA_FABRIC_READ_H */
