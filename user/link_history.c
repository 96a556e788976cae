// SPDX-License-Identifier: GPL-2.0
#include "link_history.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include "link.h"

void pa_format_time_ns(uint64_t ns, char buf[PA_TIME_LEN])
{
	time_t s = (time_t)(ns / 1000000000u);
	struct tm tm;

	if (!gmtime_r(&s, &tm)) {
		snprintf(buf, PA_TIME_LEN, "%s", "?");
		return;
	}
	snprintf(buf, PA_TIME_LEN, "%04d-%02d-%02dT%02d:%02d:%02d.%03uZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, (unsigned int)(ns / 1000000u % 1000u));
}

void pa_history_format(const struct pa_link_history *h, char *buf, size_t len)
{
	char since[PA_TIME_LEN], last[PA_TIME_LEN], speed[PA_SPEED_TEXT_LEN];
	size_t n;

	pa_format_time_ns(h->since_ns, since);
	n = (size_t)snprintf(buf, len, "%" PRIu64 " transition%s since %s",
			     h->transitions, h->transitions == 1 ? "" : "s", since);
	if (n < len && h->last_change_ns) {
		pa_format_time_ns(h->last_change_ns, last);
		n += (size_t)snprintf(buf + n, len - n, ", last %s", last);
	}
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, "; %.1f s below capability",
				      (double)h->below_ns / 1e9);
	if (n < len && h->has_min) {
		pa_link_format_speed(pa_link_speed_gts(h->min_speed), speed);
		n += (size_t)snprintf(buf + n, len - n, "; slowest %s, narrowest x%u",
				      speed, h->min_width);
	}
	if (n < len)
		snprintf(buf + n, len - n, " (sampled every %u ms)", h->interval_ms);
}

static json_object *time_value(uint64_t ns)
{
	char buf[PA_TIME_LEN];

	pa_format_time_ns(ns, buf);
	return json_object_new_string(buf);
}

json_object *pa_history_json(const struct pa_link_history *h)
{
	json_object *obj = json_object_new_object();
	double min_speed = h->has_min ? pa_link_speed_gts(h->min_speed) : 0;

	json_object_object_add(obj, "since", time_value(h->since_ns));
	json_object_object_add(obj, "transitions",
			       json_object_new_uint64(h->transitions));
	json_object_object_add(obj, "below_capability_seconds",
			       json_object_new_double((double)h->below_ns / 1e9));
	json_object_object_add(obj, "slowest_gts", min_speed > 0 ?
			       json_object_new_double(min_speed) : NULL);
	json_object_object_add(obj, "narrowest_width", h->has_min ?
			       json_object_new_int(h->min_width) : NULL);
	json_object_object_add(obj, "last_change", h->last_change_ns ?
			       time_value(h->last_change_ns) : NULL);
	json_object_object_add(obj, "interval_ms",
			       json_object_new_int64(h->interval_ms));
	return obj;
}
