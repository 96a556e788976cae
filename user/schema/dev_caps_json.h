/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A device's "ats", "pcie_device" and "bars" in report --json, as schema
 * tables (report_schema.h): written decoded (bytes, booleans), encoded
 * into registers again when a snapshot is read. Null, or absent in older
 * snapshots, is unknown: caps_known then stays false. Pure.
 */
#ifndef PA_DEV_CAPS_JSON_H
#define PA_DEV_CAPS_JSON_H

#include "report_schema.h"

/* Of struct pa_device. */
extern const struct pa_schema pa_ats_schema;
extern const struct pa_schema pa_pcie_device_schema;
/* Of struct pa_bar. */
extern const struct pa_schema pa_bar_schema;

/* null when unknown (report_schema.h's present and found). */
bool pa_ats_known(const void *dev);
bool pa_pcie_device_known(const void *dev);
bool pa_bars_known(const void *dev);
void pa_caps_found(void *dev);
void pa_pcie_device_found(void *dev);
void pa_bars_found(void *dev);

#endif /* PA_DEV_CAPS_JSON_H */
