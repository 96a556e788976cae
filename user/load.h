/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a report comes from: the kernel module, a snapshot (report --json
 * of another run), or sysfs and configuration space without the module.
 * The CLI's input side: it talks to the module and reads files.
 */
#ifndef PA_LOAD_H
#define PA_LOAD_H

#include <stdbool.h>

#include "model.h"

struct pa_load {
	const char *input;		/* snapshot path, "-": standard input */
	const char *sysfs;		/* sysfs root or fixture directory */
	const char *lspci;		/* lspci -xxxx output or a sosreport */
	const struct pa_addr *only;	/* report BDF; the module only */
	bool pairs;	/* P2P pairs among topo's default devices */
	bool host;	/* host facts from /proc and /sys; the fabric too */
	bool fabric;	/* NVLink, XGMI, GPUDirect software (fabric.h) */
};

struct pa_load_error {
	int exit;			/* enum pa_exit */
	char msg[1024];			/* "pcieaudit-cli: ...\n" */
};

/* The biggest snapshot read: a host of thousands of functions with P2P
 * pairs among hundreds of them stays well below. */
#define PA_SNAPSHOT_MAX (64u << 20)

/*
 * Fills *rep from the module, unless input, sysfs or lspci says otherwise.
 * A snapshot brings its own pairs and host facts; an lspci dump has only
 * configuration space (and a sosreport's command line): its host facts
 * are unknown but for that. Returns 0, or an exit code
 * with e->msg set; *rep is then empty.
 */
int pa_load_report(const struct pa_load *l, struct pa_report *rep,
		   struct pa_load_error *e);

#endif /* PA_LOAD_H */
