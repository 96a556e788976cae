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
 *   pcieaudit_device_info{bdf,vendor,device,class,driver,slot,numa_node} 1
 *   pcieaudit_link_speed_gts, pcieaudit_link_width,
 *   pcieaudit_link_max_speed_gts, pcieaudit_link_max_width  (gauges)
 *   pcieaudit_link_active        DLLLA where LnkCap says it is reported
 *   pcieaudit_link_transitions_total, ..._below_capability_seconds_total,
 *   pcieaudit_link_slowest_speed_gts, pcieaudit_link_narrowest_width,
 *   pcieaudit_link_last_change_timestamp_seconds  (the module's history)
 *   pcieaudit_aer_correctable_errors_total, ..._nonfatal_..., ..._fatal_...
 *   pcieaudit_aer_rootport_errors_total{bdf,severity}  (counters)
 *   pcieaudit_aer_errors_total{bdf,severity,type}  (each aer_dev_* line)
 *   pcieaudit_aer_unknown_types{bdf}  lines whose names are not known
 *   pcieaudit_aer_unknown{bdf,reason}  1 where the counters are unknown
 * Functions whose registers are unreadable get no link series. 0, -EIO,
 * or -ENOMEM.
 */
int pa_metrics_devices(FILE *f, const struct pa_report *rep);

/* What made the exporter collect. */
enum pa_collect_trigger {
	PA_COLLECT_START,	/* the first collection, before listening */
	PA_COLLECT_INTERVAL,	/* --interval elapsed */
	PA_COLLECT_EVENT,	/* a "monitor" event, or the module came or went */
	PA_COLLECT_TRIGGERS
};

/* The exporter's collections so far; the last one's outcome. */
struct pa_collect_stats {
	int up;				/* 1: the module (or sysfs) answered */
	double timestamp;		/* the last one's end, UNIX seconds */
	double duration;		/* the last one's, seconds */
	unsigned long long total[PA_COLLECT_TRIGGERS];
	unsigned long long errors;	/* not up, or out of memory */
};

/*
 * The collection's own series: pcieaudit_up,
 * pcieaudit_collect_timestamp_seconds (a scraper's time() minus it is the
 * age of what it got), pcieaudit_collect_duration_seconds,
 * pcieaudit_collections_total{trigger} and pcieaudit_collect_errors_total.
 * 0 or -EIO.
 */
int pa_metrics_collector(FILE *f, const struct pa_collect_stats *st);

#endif /* PA_METRICS_H */
