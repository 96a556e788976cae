/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report from configuration space alone (an lspci dump, a sosreport):
 * the tree from the bridges' secondary and subordinate bus numbers, the
 * rest as --sysfs makes it. Pure.
 *
 * What the input cannot show stays unknown and says so: the kernel
 * release, IOMMU domains and mode; NUMA nodes, drivers and IOMMU groups
 * unless lspci -v printed them (the caller tells).
 */
#ifndef PA_LSPCI_MODEL_H
#define PA_LSPCI_MODEL_H

#include <stddef.h>

#include "model.h"
#include "sysfs_model.h"

/*
 * Sets each entry's path below a "pciDDDD:BB" root bus from the bridges
 * above it, then builds the report (pa_sysfs_model()). A function on a
 * bus that lies within a bridge's bus range, though no bridge in the input
 * leads to it (a filtered capture), gets no parent and a warning; its root
 * bus is the enclosing bridge's. Returns 0, -ENOMEM, or -ENODATA when a
 * function has fewer than 256 bytes (lspci -x, or lspci run without root):
 * *what then names it. Placeholders (pa_lspci_tree_fill()) are bridges of
 * the bus range drawn, their configuration unknown.
 */
int pa_lspci_model(struct pa_sysfs *s, struct pa_report *rep, char *what,
		   size_t whatlen);

#endif /* PA_LSPCI_MODEL_H */
