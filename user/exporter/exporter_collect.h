/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's collections, apart from its scrapes: a thread collects
 * every --interval, and soon after a "monitor" event where the module is
 * loaded; a scrape serves the last body from memory and never collects, so
 * its latency does not grow with the fabric. The collection's time, age,
 * triggers and errors are series of their own (pa_metrics_collector()).
 */
#ifndef PA_EXPORTER_COLLECT_H
#define PA_EXPORTER_COLLECT_H

#include <stddef.h>

#include "exporter.h"

/* An event is followed by a collection after EVENT_SETTLE_MS (a hot-plug is
 * a burst of events), and never sooner than EVENT_GAP_MS after the previous
 * collection began: a flapping link costs at most one collection a second. */
#define PA_EVENT_SETTLE_MS	100
#define PA_EVENT_GAP_MS		1000

struct pa_collector;

/*
 * The collector with its sockets open, where the module is the source: the
 * module's request socket (pa_nl_connect()) and the monitor group's, which
 * keep the privileges of this moment (privdrop.h); no collection yet, no
 * thread. 0 or a negative errno. The module need not be loaded.
 */
int pa_collector_open(struct pa_collector **cp,
		      const struct pa_exporter_opts *o);

/*
 * Collects once (so the first scrape already has a body), then starts the
 * thread. 0, or a negative errno when the thread cannot start (then
 * pa_collector_stop() it). The caller's signal mask, capabilities and
 * no_new_privs are the thread's.
 */
int pa_collector_run(struct pa_collector *c);

/* Both; on failure nothing is left. */
int pa_collector_start(struct pa_collector **cp,
		       const struct pa_exporter_opts *o);

/* A copy of the last body and the collection's series, for one scrape (the
 * caller frees it); NULL when out of memory. Never collects. */
char *pa_collector_body(struct pa_collector *c, size_t *len);

/* Stops the thread (after a collection in progress) and frees c. */
void pa_collector_stop(struct pa_collector *c);

/*
 * One collection's body, without the collection's own series: the device
 * series and check's (the caller frees it). *up is 1 when the report was
 * loaded, else 0 and the body is empty, with the reason in *load_msg (when
 * not NULL). NULL when out of memory.
 */
char *pa_exporter_collect(const struct pa_exporter_opts *o, size_t *len,
			  int *up, char *load_msg, size_t msglen);

#endif /* PA_EXPORTER_COLLECT_H */
