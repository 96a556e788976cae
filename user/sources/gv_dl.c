// SPDX-License-Identifier: GPL-2.0
/* Thin: Graphviz's symbols, looked up once, and one layout. */
#include "gv_dl.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gvc.h>

struct pa_gv {
	__typeof__(&gvContext) context;
	__typeof__(&gvLayout) layout;
	__typeof__(&gvRenderData) render_data;
	__typeof__(&gvFreeRenderData) free_render_data;
	__typeof__(&gvFreeLayout) free_layout;
	__typeof__(&gvFreeContext) free_context;
	__typeof__(&agmemread) memread;
	__typeof__(&agclose) close;
};

static int open_gv(struct pa_gv *gv, char *why, size_t whylen)
{
	static const char *const gvc_names[] = {
		"gvContext", "gvLayout", "gvRenderData", "gvFreeRenderData",
		"gvFreeLayout", "gvFreeContext",
	};
	static const char *const cg_names[] = { "agmemread", "agclose" };
	void *sym[8];
	void *cg = dlopen(PA_CGRAPH_LIB, RTLD_NOW | RTLD_LOCAL);
	void *gvc = cg ? dlopen(PA_GVC_LIB, RTLD_NOW | RTLD_LOCAL) : NULL;

	if (!gvc) {
		snprintf(why, whylen, "%s (install Debian's libgvc6)", dlerror());
		return -1;
	}
	for (size_t i = 0; i < 6; i++)
		if (!(sym[i] = dlsym(gvc, gvc_names[i]))) {
			snprintf(why, whylen, "%s", dlerror());
			return -1;
		}
	for (size_t i = 0; i < 2; i++)
		if (!(sym[6 + i] = dlsym(cg, cg_names[i]))) {
			snprintf(why, whylen, "%s", dlerror());
			return -1;
		}
	/* POSIX makes a void * from dlsym() convertible to a function's. */
	*(void **)&gv->context = sym[0];
	*(void **)&gv->layout = sym[1];
	*(void **)&gv->render_data = sym[2];
	*(void **)&gv->free_render_data = sym[3];
	*(void **)&gv->free_layout = sym[4];
	*(void **)&gv->free_context = sym[5];
	*(void **)&gv->memread = sym[6];
	*(void **)&gv->close = sym[7];
	return 0;
}

int pa_gv_svg(const char *dot, char **svg, size_t *len, char *why,
	      size_t whylen)
{
	struct pa_gv gv;
	GVC_t *ctx;
	graph_t *g;
	char *data = NULL;
	unsigned int n = 0;
	int rc = -1;

	*svg = NULL;
	*len = 0;
	if (open_gv(&gv, why, whylen))
		return -1;
	ctx = gv.context();
	if (!ctx) {
		snprintf(why, whylen, "gvContext() failed");
		return -1;
	}
	g = gv.memread(dot);
	if (!g) {
		snprintf(why, whylen, "Graphviz did not read the graph");
	} else if (gv.layout(ctx, g, "dot")) {
		snprintf(why, whylen, "Graphviz's dot layout failed");
	} else {
		if (gv.render_data(ctx, g, "svg", &data, &n) || !data)
			snprintf(why, whylen, "Graphviz's SVG renderer failed");
		else if (!(*svg = malloc((size_t)n + 1)))
			rc = -ENOMEM;
		else {
			memcpy(*svg, data, n);
			(*svg)[n] = '\0';
			*len = n;
			rc = 0;
		}
		if (data)
			gv.free_render_data(data);
		gv.free_layout(ctx, g);
	}
	if (g)
		gv.close(g);
	gv.free_context(ctx);
	return rc;
}
