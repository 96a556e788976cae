/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pcieaudit-cli exporter: a Prometheus /metrics endpoint served by
 * libmicrohttpd. A scrape serves the last collection from memory
 * (exporter_collect.h): the module (or sysfs, or a snapshot) read, check's
 * profiles run, metrics.h's series and check's written.
 */
#ifndef PA_EXPORTER_H
#define PA_EXPORTER_H

#include <stdbool.h>
#include <stddef.h>

struct pa_expect;

struct pa_exporter_opts {
	const char *listen;	/* ADDR:PORT; NULL for PA_LISTEN_DEFAULT */
	const char *input;	/* as report --input */
	const char *sysfs;	/* as report --sysfs */
	const char *lspci;	/* as report --lspci */
	const char *interval;	/* --interval SECONDS; NULL for the default */
	double interval_s;	/* parsed by pa_exporter_run() */
	/* --expect, read by the caller; NULL: no expect profile. */
	const struct pa_expect *expect;
	/* --web-config FILE (web_config.h); NULL: plain HTTP, no auth. */
	const char *web_config;
	/* --user NAME (privdrop.h); NULL: nobody, where started as root. */
	const char *user;
	/* Set by pa_exporter_run(): whether privileges were dropped after
	 * the sockets opened, and to whom (for messages). */
	bool dropped;
	const char *user_name;
};

#define PA_EXPORTER_INTERVAL_DEFAULT_S	10.0
#define PA_EXPORTER_INTERVAL_MIN_S	0.1
#define PA_EXPORTER_INTERVAL_MAX_S	86400.0

/* Parses --interval: decimal seconds within the bounds above. 0 or -EINVAL. */
int pa_exporter_parse_interval(const char *text, double *seconds);

/*
 * The listening socket systemd passed by socket activation (LISTEN_PID is
 * this process, LISTEN_FDS >= 1: fd 3), -1 when none was, -2 when fd 3 is
 * no stream socket. Unsets the LISTEN_* variables it took.
 */
int pa_exporter_listen_fd(void);

/*
 * Serves until SIGINT or SIGTERM. Returns an exit code: PA_EXIT_OK after a
 * signal, PA_EXIT_USAGE for a bad --listen or --interval, PA_EXIT_BAD_INPUT
 * for a --web-config that cannot be read or used (before listening),
 * PA_EXIT_RUNTIME when the address cannot be bound or the collector cannot
 * start.
 */
int pa_exporter_run(struct pa_exporter_opts *o);

#endif /* PA_EXPORTER_H */
