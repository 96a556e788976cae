/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fabric drawn: topo's selection as a graph (fabric_graph.h), in DOT
 * (graph_dot.h), laid out and rendered as SVG by Graphviz (gv_dl.h). For
 * topo --svg and check --format html.
 */
#ifndef PA_DRAW_H
#define PA_DRAW_H

#include <stddef.h>

#include "errors.h"
#include "model.h"
#include "topo.h"

/* *svg (malloc()ed, NUL-terminated) of the devices topo selected; an exit
 * code, with e filled on failure (Graphviz missing: PA_EXIT_RUNTIME). */
int pa_draw_svg(const struct pa_report *rep, const struct pa_topo *topo,
		const char *title, char **svg, size_t *len, struct pa_error *e);

#endif /* PA_DRAW_H */
