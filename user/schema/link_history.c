// SPDX-License-Identifier: GPL-2.0
#include "link_history.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include <linux/pcieaudit.h>

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

/* Why the sampler left a link unread, for people. */
static const char *hist_skip_text(uint32_t skip)
{
	switch (skip) {
	case PCIEAUDIT_HIST_SKIP_SUSPENDED:
		return "suspended, not woken";
	case PCIEAUDIT_HIST_SKIP_ASPM:
		return "ASPM on a link above, not woken";
	case PCIEAUDIT_HIST_SKIP_BLOCKED:
		return "config access blocked: a reset or SR-IOV change";
	case PCIEAUDIT_HIST_SKIP_UNREADABLE:
		return "unreadable";
	default:
		return "unknown reason";
	}
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
	if (n < len && h->unsampled_ns)
		n += (size_t)snprintf(buf + n, len - n, "; %.1f s not sampled",
				      (double)h->unsampled_ns / 1e9);
	if (n < len && h->skip)
		n += (size_t)snprintf(buf + n, len - n, "; not sampled now (%s)",
				      hist_skip_text(h->skip));
	if (n < len)
		snprintf(buf + n, len - n, " (sampled every %u ms)", h->interval_ms);
}

int pa_parse_time_ns(const char *s, uint64_t *ns)
{
	struct tm tm = { 0 };
	unsigned int ms;
	time_t t;
	int n = -1;

	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d.%3uZ%n", &tm.tm_year, &tm.tm_mon,
		   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &ms, &n) != 7 ||
	    n != 24 || s[n] || tm.tm_year < 1970 || ms > 999)
		return -EINVAL;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	t = timegm(&tm);
	if (t < 0)
		return -EINVAL;
	*ns = (uint64_t)t * 1000000000u + (uint64_t)ms * 1000000u;
	return 0;
}

uint8_t pa_link_speed_code(double gts)
{
	for (unsigned int code = 1; pa_link_speed_gts(code) > 0; code++)
		if (pa_link_speed_gts(code) == gts)
			return (uint8_t)code;
	return 0;
}
