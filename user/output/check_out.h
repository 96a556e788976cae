/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check's outputs: text for people, JSON for scripts, and files for fleet
 * collectors (a node_exporter textfile and an NFD features.d file). Pure:
 * they format what they are given onto f. Each returns 0 or -EIO.
 */
#ifndef PA_CHECK_OUT_H
#define PA_CHECK_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "check.h"
#include "model.h"
#include "topo.h"

/*
 * PASS, WARN, FAIL, INFO and SKIP lines by profile and rule, each finding
 * with its devices and remedy, then a summary. source says what was
 * checked ("the module", a snapshot's file name). colour adds ANSI colour
 * to the status words.
 */
int pa_check_text(FILE *f, const struct pa_report *rep,
		  const struct pa_check *c, const char *source, bool colour);

/* {"schema_version", "source", "verdict", "profiles", "summary", "rules",
 * "findings"}; see docs/json-schema.md. */
int pa_check_json(FILE *f, const struct pa_check *c, const char *source);

/* Prometheus text exposition format, for node_exporter's textfile
 * collector: pcieaudit_check_status, pcieaudit_profile_status,
 * pcieaudit_check_findings, pcieaudit_rule_status, pcieaudit_finding and
 * pcieaudit_link_downgraded, each with HELP and TYPE. */
int pa_check_prometheus(FILE *f, const struct pa_report *rep,
			const struct pa_check *c);

/* Node Feature Discovery features.d lines: pcieaudit.<profile>=pass|warn|
 * fail for each profile run, pcieaudit.status and pcieaudit.iommu-mode. */
int pa_check_nfd(FILE *f, const struct pa_report *rep,
		 const struct pa_check *c);

/* "pass", "skip", or the worst severity's name: a rule's status. */
const char *pa_check_rule_status(const struct pa_check *c, enum pa_rule_id r);

/*
 * One self-contained HTML page: no network, no script, no external font;
 * printable. The host's facts, the fabric drawn (svg, Graphviz's SVG
 * document; NULL with svg_why saying why not), every finding with its
 * devices and remedy, every rule's status, and topo's matrix over topo.
 * Everything from the input is escaped. docs/pictures.md names its ids.
 */
int pa_check_html(FILE *f, const struct pa_report *rep,
		  const struct pa_check *c, const struct pa_topo *topo,
		  const char *source, const char *svg, const char *svg_why);

#endif /* PA_CHECK_OUT_H */
