/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's /metrics body: link state and AER counters of every
 * function, then check's own series (pa_check_prometheus()). Pure: a
 * report and a check in, Prometheus text exposition format out.
 */
#ifndef PA_METRICS_H
#define PA_METRICS_H

#include <stdio.h>

#include "check.h"
#include "model.h"

/*
 * Series, each family with HELP and TYPE, labelled bdf="DDDD:BB:DD.F":
 *   pcieaudit_link_speed_gts, pcieaudit_link_width,
 *   pcieaudit_link_max_speed_gts, pcieaudit_link_max_width  (gauges)
 *   pcieaudit_link_active        DLLLA where LnkCap says it is reported
 *   pcieaudit_link_transitions_total, ..._below_capability_seconds_total,
 *   pcieaudit_link_slowest_speed_gts, pcieaudit_link_narrowest_width,
 *   pcieaudit_link_last_change_timestamp_seconds  (the module's history)
 *   pcieaudit_aer_correctable_errors_total, ..._nonfatal_..., ..._fatal_...
 *   pcieaudit_aer_rootport_errors_total{bdf,severity}  (counters)
 *   pcieaudit_aer_unknown{bdf,reason}  1 where the counters are unknown
 * Functions whose registers are unreadable get no link series. 0 or -EIO.
 */
int pa_metrics_devices(FILE *f, const struct pa_report *rep);

/* pcieaudit_up (1: the module or sysfs answered) and
 * pcieaudit_scrape_duration_seconds. */
int pa_metrics_scrape(FILE *f, int up, double seconds);

#endif /* PA_METRICS_H */
