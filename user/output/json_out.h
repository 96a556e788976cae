/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JSON output, schema_version 1. Key names and spellings are a contract with
 * scripts and tests; only ever add. Link speeds are JSON doubles in GT/s and
 * always carry a fraction: 2.5, 5.0, 8.0, 16.0, 32.0, 64.0.
 */
#ifndef PA_JSON_OUT_H
#define PA_JSON_OUT_H

#include <stdbool.h>
#include <stdio.h>
#include <json-c/json.h>

#include "model.h"
#include "report_schema.h"
#include "topo.h"

/*
 * Layout, as iproute2 has it: compact (one line, no spaces) unless on,
 * when pa_json_print() indents. The CLI turns it on for a terminal and
 * for --pretty; scripts and files get the compact form.
 */
void pa_json_set_pretty(bool on);

/* Prints root and a newline, then puts root; 0 or a negative errno. */
int pa_json_print(FILE *f, json_object *root);

/* {"schema_version", "info", "devices", "groups", "p2p", "host"}; "p2p"
 * is null unless rep->has_p2p, "host" unless rep->has_host. It is also the
 * snapshot format check --input reads (snapshot.h). 0 or a negative errno. */
int pa_json_report(FILE *f, const struct pa_report *rep);

/* {"schema_version", "info"}; 0 or a negative errno. */
int pa_json_info(FILE *f, const struct pa_info *info);

/* info of a source without the module: {"schema_version", "source":
 * {"kind", "path"}, "info" (null where src does not know), "unknown":
 * {field: why}, "iommu_params": [word] | null}. 0 or a negative errno. */
int pa_json_info_source(FILE *f, const struct pa_info *info,
			const struct pa_info_source *src);

/* {"schema_version", "info", "p2p"}: every pair of rep->p2p, each with its
 * legend and narrowest link; 0 or a negative errno. */
int pa_json_p2p(FILE *f, const struct pa_report *rep);

/* {"schema_version", "info", "devices", "matrix", "p2p"}: topo's devices
 * as {"label", "bdf"}, the matrix cells by row (provider) and column
 * (client), and the pairs; 0 or a negative errno. */
int pa_json_topo(FILE *f, const struct pa_report *rep,
		 const struct pa_topo *topo);

#endif /* PA_JSON_OUT_H */
