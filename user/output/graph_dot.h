/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fabric graph (fabric_graph.h) as Graphviz's DOT language, for dot's
 * layout: every node, cluster and edge with the id and classes that
 * docs/pictures.md documents, and a legend. Pure: 0 or -EIO.
 */
#ifndef PA_GRAPH_DOT_H
#define PA_GRAPH_DOT_H

#include <stdio.h>

#include "fabric_graph.h"
#include "model.h"

/* More redirected pairs than this are shown by their paths alone. */
#define PA_DOT_MAX_PAIR_EDGES 16

/* title: the graph's caption (a host, a file), or NULL. */
int pa_graph_dot(FILE *f, const struct pa_report *rep,
		 const struct pa_graph *g, const char *title);

/* "fn-0000-03-00-0": a function's id in the drawing. */
#define PA_DOT_ID_LEN 32
void pa_dot_fn_id(const struct pa_addr *a, char id[PA_DOT_ID_LEN]);

#endif /* PA_GRAPH_DOT_H */
