/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `lspci -t` (and -tv) output found in an --lspci file: which bridge each
 * function hangs below, as lspci drew it. Pure. The tree itself comes
 * from the bridges' bus numbers (lspci_model.c); this one is held against
 * it, so that a capture whose parts disagree says so.
 */
#ifndef PA_LSPCI_TREE_H
#define PA_LSPCI_TREE_H

#include <stddef.h>

#include "bdf.h"
#include "model.h"
#include "sysfs_model.h"

struct pa_lspci_edge {
	char bdf[PA_BDF_LEN];
	char parent[PA_BDF_LEN];	/* "" when on a root bus */
	/* A bridge's "-[SS-UU]": its secondary and subordinate bus; -1
	 * when the function is drawn as no bridge. */
	int secondary, subordinate;
};

struct pa_lspci_tree {
	struct pa_lspci_edge *v;
	size_t n;
};

/*
 * Every function that a `lspci -t` drawing in text (quoted in mail, "> ",
 * or indented, or not) places, with the bridge above it. Lines that are
 * not part of a drawing are skipped. 0 or -ENOMEM; *out is empty when
 * the text holds no drawing.
 */
int pa_lspci_tree_parse(const char *text, size_t len, struct pa_lspci_tree *out);
void pa_lspci_tree_clear(struct pa_lspci_tree *t);

/*
 * A capture filtered by vendor (lspci -d 10de: -xxxx) lacks the bridges
 * above its functions; lspci -t, run unfiltered, drew them. Adds to s an
 * entry without configuration space (placeholder, with the bus range
 * drawn) for each bridge the drawing puts above a function of s that s
 * lacks, so that the tree built from bus numbers places the function
 * where lspci saw it; the report marks them config_not_captured and warns.
 * 0 or -ENOMEM.
 */
int pa_lspci_tree_fill(const struct pa_lspci_tree *t, struct pa_sysfs *s);

/*
 * A warning in rep for each function of rep that the drawing places below
 * another bridge than the bus numbers do. Functions only one of them
 * shows are left alone: a drawing or a dump may be filtered. 0 or -ENOMEM.
 */
int pa_lspci_tree_check(const struct pa_lspci_tree *t, struct pa_report *rep);

#endif /* PA_LSPCI_TREE_H */
