/* SPDX-License-Identifier: GPL-2.0 */
/* A link's history (PCIEAUDIT_A_DEV_LINK_HISTORY) for people and scripts. */
#ifndef PA_LINK_HISTORY_H
#define PA_LINK_HISTORY_H

#include <stddef.h>
#include <json-c/json.h>

#include "model.h"

/* "3 transitions since 2026-12-01T10:00:00Z, last 2026-...; 12.5 s below
 * capability; slowest 2.5GT/s, narrowest x1 (sampled every 1000 ms)". */
void pa_history_format(const struct pa_link_history *h, char *buf, size_t len);

/* {"since", "transitions", "below_capability_seconds", "slowest_gts",
 * "narrowest_width", "last_change", "interval_ms"}; times as RFC 3339. */
json_object *pa_history_json(const struct pa_link_history *h);

/* RFC 3339 UTC with milliseconds, as monitor prints its timestamps. */
#define PA_TIME_LEN 80
void pa_format_time_ns(uint64_t ns, char buf[PA_TIME_LEN]);

#endif /* PA_LINK_HISTORY_H */
