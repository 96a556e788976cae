// SPDX-License-Identifier: GPL-2.0
#include "draw.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "exitcodes.h"
#include "fabric_graph.h"
#include "graph_dot.h"
#include "gv_dl.h"

int pa_draw_svg(const struct pa_report *rep, const struct pa_topo *topo,
		const char *title, char **svg, size_t *len, struct pa_error *e)
{
	struct pa_graph g;
	char *dot = NULL, why[300];
	size_t dotlen = 0;
	FILE *f;
	int err;

	*svg = NULL;
	*len = 0;
	err = pa_graph_build(rep, topo, &g);
	if (err)
		return pa_error_errno(e, err, &(struct pa_errinfo){ .op = "the picture" });
	f = open_memstream(&dot, &dotlen);
	if (!f) {
		pa_graph_clear(&g);
		return pa_error_errno(e, -ENOMEM, &(struct pa_errinfo){ .op = "the picture" });
	}
	err = pa_graph_dot(f, rep, &g, title);
	if (fclose(f) && !err)
		err = -EIO;
	pa_graph_clear(&g);
	if (!err) {
		err = pa_gv_svg(dot, svg, len, why, sizeof(why));
		if (err == -1) {
			free(dot);
			return pa_error_set(e, PA_EXIT_RUNTIME,
					    "cannot draw the fabric: %s", why);
		}
	}
	free(dot);
	if (err)
		return pa_error_errno(e, err, &(struct pa_errinfo){ .op = "the picture" });
	return PA_EXIT_OK;
}
