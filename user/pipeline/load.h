/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The first stage of every command: where a report comes from (the kernel
 * module, a snapshot (report --json of another run), sysfs and
 * configuration space without the module, or an lspci dump) and what it is
 * completed with, so that the analysis (check, topo, p2p) only reads it.
 * The CLI's input side: it talks to the module and reads files.
 */
#ifndef PA_LOAD_H
#define PA_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "errors.h"
#include "model.h"
#include "nl.h"
#include "policy.h"
#include "topo.h"

/* Which P2P pairs the report brings. Where the source gives no verdict
 * (sysfs, lspci, a snapshot without the pair), pcieaudit's own path
 * analysis answers (p2p_infer.h). */
enum pa_pairs {
	PA_PAIRS_NONE,
	PA_PAIRS_DEFAULT,	/* among topo's default devices; a snapshot's own */
	PA_PAIRS_TOPO,		/* among topo's selection: select, bdfs */
	PA_PAIRS_ONE,		/* bdfs[0] (provider) to bdfs[1] only */
};

struct pa_load {
	const char *input;		/* snapshot path, "-": standard input */
	const char *sysfs;		/* sysfs root or fixture directory */
	const char *lspci;		/* lspci -xxxx output or a sosreport */
	const struct pa_addr *only;	/* report BDF; the module only */
	/*
	 * The module's socket to use, kept open across loads
	 * (pa_nl_connect(): the exporter's, opened before it dropped its
	 * privileges); NULL: one is opened for this load and closed.
	 */
	struct pa_nl *nl;
	/*
	 * PA_PAIRS_TOPO and PA_PAIRS_ONE ask the module for its devices
	 * without groups, AER or host facts: topo and p2p show none. A
	 * listed address missing from the report fails with exit 7.
	 */
	enum pa_pairs pairs;
	enum pa_select select;		/* PA_PAIRS_TOPO */
	const struct pa_addr *bdfs;	/* PA_SELECT_LIST, PA_PAIRS_ONE */
	size_t nbdfs;
	/* check's policy: the pairs its gpudirect profile judges, inferred
	 * where the source did not answer them; NULL for none. */
	const struct pa_policy *policy;
	bool host;	/* host facts from /proc and /sys; the fabric too */
	bool no_nvml;	/* and of the fabric, not NVML: report without --nvml */
	bool names;	/* vendor and device names from this host's pci.ids,
			 * unless a snapshot brings its own host's */
	bool class_names;	/* and class names: text prints them,
				 * JSON does not */
};

/* The biggest snapshot read: a host of thousands of functions with P2P
 * pairs among hundreds of them stays well below. */
#define PA_SNAPSHOT_MAX (64u << 20)

/*
 * Fills *rep from the module, unless input, sysfs or lspci says otherwise.
 * A snapshot brings its own pairs and host facts; an lspci dump has only
 * configuration space (and a sosreport's command line): its host facts
 * are unknown but for that. Returns 0, or an exit code with *e set; *rep
 * then holds nothing but the input's warnings, which the caller shows
 * before the error (pa_report_clear() it either way).
 */
int pa_load_report(const struct pa_load *l, struct pa_report *rep,
		   struct pa_error *e);

#endif /* PA_LOAD_H */
