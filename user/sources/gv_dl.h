/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Graphviz (libgvc, libcgraph), opened at run time by topo --svg and
 * check --format html alone: no other command loads it, nor the dozen
 * libraries its plugins bring.
 */
#ifndef PA_GV_DL_H
#define PA_GV_DL_H

#include <stddef.h>

/* The sonames of Debian 12's libgvc6 and libcgraph6. */
#ifndef PA_GVC_LIB
#define PA_GVC_LIB "libgvc.so.6"
#endif
#ifndef PA_CGRAPH_LIB
#define PA_CGRAPH_LIB "libcgraph.so.6"
#endif

/*
 * Lays out dot (the DOT language) with dot's engine and renders it as
 * SVG into *svg (malloc()ed, NUL-terminated, *len bytes). -1 with why
 * when the library, a symbol or the layout fails; -ENOMEM.
 */
int pa_gv_svg(const char *dot, char **svg, size_t *len, char *why,
	      size_t whylen);

#endif /* PA_GV_DL_H */
