/* SPDX-License-Identifier: GPL-2.0 */
/*
 * monitor's events: a PCIEAUDIT_CMD_MON_EVENT message decoded, and one
 * line of text or JSON per event. Pure.
 */
#ifndef PA_MONITOR_EVENT_H
#define PA_MONITOR_EVENT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"

struct nl_msg;

struct pa_mon_event {
	uint64_t seq;
	uint64_t time_ns;		/* CLOCK_REALTIME */
	uint32_t event;			/* enum pcieaudit_mon_event */
	uint32_t source;		/* enum pcieaudit_mon_source */
	struct pa_addr addr;
	bool has_link;			/* link events from privileged groups */
	uint32_t lnkcap;
	uint16_t lnksta_old, lnksta;
	bool has_acs;
	uint16_t acs_old, acs;
};

/* 0, or -EBADMSG for a message that is not a well-formed event. */
int pa_mon_decode(struct nl_msg *msg, struct pa_mon_event *ev);

/* One line, newline included, for the event. */
void pa_mon_print(FILE *f, const struct pa_mon_event *ev, bool json);

/*
 * An "aer" line for a function whose AER counters rose between two
 * readings of sysfs (prev, now both PA_AER_KNOWN): the deltas and the
 * totals. Nothing when none rose. Returns whether it printed.
 */
bool pa_mon_print_aer(FILE *f, uint64_t time_ns, const struct pa_addr *addr,
		      const struct pa_aer *prev, const struct pa_aer *now,
		      bool json);

/* The line for lost events: why ("ENOBUFS", "sequence gap 12..15") and
 * when (CLOCK_REALTIME ns). */
void pa_mon_print_resync(FILE *f, uint64_t time_ns, const char *why,
			 bool json);

#endif /* PA_MONITOR_EVENT_H */
