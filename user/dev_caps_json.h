/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A device's "ats", "pcie_device" and "bars" in report --json: written
 * decoded (bytes, booleans), re-encoded into registers when a snapshot is
 * read, for report_schema.c's device table. Null, or absent in older
 * snapshots, is unknown: caps_known stays false. Pure.
 *
 * The keys inside these three objects are spelled here twice, once per
 * direction, side by side: they are not in the schema tables yet.
 */
#ifndef PA_DEV_CAPS_JSON_H
#define PA_DEV_CAPS_JSON_H

#include "report_schema.h"

/* base and top are the struct pa_device. */
json_object *pa_ats_json(const void *base, const void *top);
json_object *pa_pcie_device_json(const void *base, const void *top);
json_object *pa_bars_json(const void *base, const void *top);

int pa_ats_read(struct pa_json_in *in, const struct pa_schema_field *f,
		json_object *v, const char *path, void *base, void *top);
int pa_pcie_device_read(struct pa_json_in *in, const struct pa_schema_field *f,
			json_object *v, const char *path, void *base, void *top);
int pa_bars_read(struct pa_json_in *in, const struct pa_schema_field *f,
		 json_object *v, const char *path, void *base, void *top);

#endif /* PA_DEV_CAPS_JSON_H */
