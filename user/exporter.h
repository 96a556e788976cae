/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pcieaudit-cli exporter: a Prometheus /metrics endpoint served by
 * libmicrohttpd. Each scrape reads the module (or sysfs, or a snapshot)
 * afresh, runs check's profiles and writes metrics.h's series and check's.
 */
#ifndef PA_EXPORTER_H
#define PA_EXPORTER_H

#include <stddef.h>

struct pa_exporter_opts {
	const char *listen;	/* ADDR:PORT; NULL for PA_LISTEN_DEFAULT */
	const char *input;	/* as report --input */
	const char *sysfs;	/* as report --sysfs */
	const char *lspci;	/* as report --lspci */
};

/*
 * Serves until SIGINT or SIGTERM. Returns an exit code: PA_EXIT_OK after a
 * signal, PA_EXIT_USAGE for a bad --listen, PA_EXIT_RUNTIME when the
 * address cannot be bound.
 */
int pa_exporter_run(const struct pa_exporter_opts *o);

/*
 * One scrape's body, as /metrics serves it (the caller frees it). Always
 * a valid exposition: when the report cannot be loaded, pcieaudit_up is 0
 * and *load_msg (when not NULL) gets the reason. NULL when out of memory.
 */
char *pa_exporter_collect(const struct pa_exporter_opts *o, size_t *len,
			  char *load_msg, size_t msglen);

#endif /* PA_EXPORTER_H */
