/* SPDX-License-Identifier: GPL-2.0 */
/* Human-readable output: an lspci -tv like tree with audit details. */
#ifndef PA_TEXT_OUT_H
#define PA_TEXT_OUT_H

#include <stdio.h>

#include "model.h"

/* A header line, the device tree per root bus, then the IOMMU groups.
 * Returns 0 or a negative errno. */
int pa_text_report(FILE *f, const struct pa_report *rep);

/* One "name: value" line per module info field; 0 or a negative errno. */
int pa_text_info(FILE *f, const struct pa_info *info);

/* info of a source without the module: where it came from, each field
 * src says it knows, the rest "unknown (why)", and the IOMMU and ACS
 * parameters of the kernel command line. 0 or a negative errno. */
int pa_text_info_source(FILE *f, const struct pa_info *info,
			const struct pa_info_source *src);

/* Also used by the P2P output: */

/* "<bdf> <type> [vvvv:dddd] <class>: <vendor> <device> (driver x, NUMA node
 * n)" and a newline. */
void pa_text_device_line(FILE *f, const struct pa_device *dev);

/* "<indent>Link: 8GT/s x8 (max 16GT/s x16) DOWNGRADED", then ", <note>"
 * unless note is NULL, and a newline. */
void pa_text_link(FILE *f, const char *indent, const struct pa_device *dev,
		  const char *note);

#endif /* PA_TEXT_OUT_H */
