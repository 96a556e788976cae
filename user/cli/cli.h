/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands of pcieaudit-cli (cmd_*.c) and what they share: the options
 * main.c parsed, and the steps each takes: load (load.h) from the source
 * the options name, analyse, render. Every failure goes to one struct
 * pa_error, which main prints.
 */
#ifndef PA_CLI_H
#define PA_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "errors.h"
#include "load.h"
#include "model.h"
#include "check.h"
#include "policy.h"

/* More than a matrix can show legibly. */
#define PA_CLI_MAX_BDFS 64

/* check --format. */
enum pa_format {
	PA_FORMAT_TEXT, PA_FORMAT_JSON, PA_FORMAT_PROMETHEUS, PA_FORMAT_NFD,
	PA_FORMAT_HTML,
	PA_NFORMATS
};

/* PA_NFORMATS for a name that is none of them. */
enum pa_format pa_format_lookup(const char *name);

struct pa_cli_opts {
	bool json;
	bool pretty;			/* --pretty: indented JSON */
	bool all;			/* topo --all */
	bool nvml;			/* report --json --nvml */
	size_t nbdfs;
	struct pa_addr bdfs[PA_CLI_MAX_BDFS];
	/* report, p2p, topo, check and exporter: where the report comes from */
	const char *input;
	const char *sysfs;
	const char *lspci;
	/* topo */
	const char *nccl_xml;
	const char *svg;		/* topo --svg */
	/* check */
	const char *policy;
	const char *profiles;
	const char *format;
	const char *output;
	const char *previous;		/* check --previous */
	const char *listen;		/* exporter --listen */
	const char *interval;		/* exporter --interval */
	bool no_color;
	bool rules;
	const char *expect;		/* check --expect */
	const char *exit_codes;		/* --exit-codes */
	const char *web_config;		/* exporter --web-config */
	const char *user;		/* exporter --user */
	/* fleet: its file arguments, in order */
	const char **files;
	size_t nfiles;
};

/*
 * A command: its exit code. On failure *e is set and the exit code is
 * e->exit; check's findings (exit 1 and 8) are no failure.
 */
typedef int pa_cmd_fn(const struct pa_cli_opts *opts, struct pa_error *e);

pa_cmd_fn pa_cmd_report, pa_cmd_info, pa_cmd_p2p, pa_cmd_topo, pa_cmd_check,
	  pa_cmd_monitor, pa_cmd_exporter, pa_cmd_fleet, pa_cmd_vfio_plan;

/* What was read, for a heading: a file, "sysfs DIR", "the module". */
const char *pa_cli_source_name(const struct pa_cli_opts *opts, char *buf,
			       size_t len);

/* Whether the options name a source other than the module. */
bool pa_cli_offline(const struct pa_cli_opts *opts);

/* The load of opts' source; the caller adds what its command needs. */
struct pa_load pa_cli_load(const struct pa_cli_opts *opts);

/* What --expect names (check, exporter): a golden host's snapshot or an
 * inventory, read once. ex points into the other two. */
struct pa_cli_expect {
	struct pa_expect ex;
	struct pa_report golden;
	struct pa_inventory inv;
};

/* Reads path into *x: PA_EXIT_OK, or an exit code (9 for a file that
 * cannot be read or parsed) with e filled. pa_cli_clear_expect() after,
 * whatever it returned. */
int pa_cli_read_expect(const char *path, struct pa_cli_expect *x,
		       struct pa_error *e);
void pa_cli_clear_expect(struct pa_cli_expect *x);

/* pa_load_report() whose input warnings go to stderr, before the output
 * or the error, so that a report from broken input never reads as clean;
 * 0 or e->exit. */
int pa_cli_load_report(const struct pa_load *l, struct pa_report *rep,
		       struct pa_error *e);

/* Output errors surface late, at the flush (a full disk, a closed pipe):
 * err (a negative errno from rendering) or the flush's, into *e. */
int pa_cli_finish_output(int err, struct pa_error *e);

/* Builds a file with render, then replaces path with it atomically, so
 * that collectors never see half a file. */
int pa_cli_write_file(const char *path, int (*render)(FILE *f, const void *arg),
		      const void *arg, struct pa_error *e);

#endif /* PA_CLI_H */
