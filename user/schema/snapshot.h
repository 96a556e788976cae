/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Snapshots: the document report --json prints (json_out.h), read back into
 * the model, so that check --input on any machine sees what check sees on
 * the host. Pure: text in, report out.
 *
 * Only raw values are read (registers, spellings of enum values, BDFs);
 * derived ones (flags, speeds, legends, bottlenecks) are computed again.
 * Required: schema_version 1, info, devices[] and each P2P pair's a and b;
 * within them, the keys report_schema.c marks required (a device's bdf,
 * vendor, device and class, acs.cap and acs.ctrl, link.lnkcap and
 * link.lnksta, iommu.group, a group's id and devices). Any other field may
 * be absent, which reads as JSON null. Keys this CLI does not know are
 * ignored.
 */
#ifndef PA_SNAPSHOT_H
#define PA_SNAPSHOT_H

#include <stddef.h>

#include "model.h"

/*
 * Parses text (len bytes, NUL-terminated at text[len]) into *rep. On
 * failure returns -EINVAL (malformed or inconsistent document) or -ENOMEM,
 * leaves *rep empty and writes to err
 * "<name>:<line>:<column>: <problem>" for a JSON syntax error, or
 * "<name>: <JSON path>: <problem>" otherwise.
 */
int pa_snapshot_parse(const char *name, const char *text, size_t len,
		      struct pa_report *rep, char *err, size_t errlen);

#endif /* PA_SNAPSHOT_H */
