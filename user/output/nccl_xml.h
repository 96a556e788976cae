/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host's fabric in NCCL's topology file format (NCCL_TOPO_FILE), as
 * NCCL's src/graph/xml.cc builds it from sysfs: CPUs by NUMA node, PCI
 * switches, GPUs and NICs, link speeds and widths, NVLinks. For VFIO
 * guests, which see a flat fake topology, and to check what NCCL sees.
 */
#ifndef PA_NCCL_XML_H
#define PA_NCCL_XML_H

#include <stdio.h>

#include "model.h"

struct pa_nccl_host {
	const char *arch;	/* "x86_64", ...: uname's machine */
	char *vendor;		/* cpuinfo vendor_id; NULL unknown */
	int family, model;	/* cpuinfo cpu family, model; -1 unknown */
	char **cpumaps;		/* node N's cpumap text, NULL unknown */
	size_t nnodes;
};

/* vendor_id, cpu family and model of the first processor. Pure. Returns
 * 0 or -ENOMEM. */
int pa_nccl_cpuinfo(const char *text, struct pa_nccl_host *h);

/* Reads cpuinfo and the nodes' cpumap files for root (live: /proc and
 * root/devices/system/node; fixture: root/cpuinfo, root/node/nodeN-cpumap).
 * What cannot be read stays unknown. Returns 0 or -ENOMEM. */
int pa_nccl_host_read(const char *root, struct pa_nccl_host *h);

/* From a snapshot's host facts: vendor and family; the rest unknown.
 * Returns 0 or -ENOMEM. Pure. */
int pa_nccl_host_from(const struct pa_host *host, struct pa_nccl_host *h);

void pa_nccl_host_clear(struct pa_nccl_host *h);

/*
 * Writes the file. A device's NCCL parent is the bridge two levels up (a
 * switch's upstream port; root and downstream ports are not nodes), or
 * the CPU of its NUMA node when the chain ends. link_speed is the lower
 * of the device's and its upstream port's maximum, link_width likewise;
 * where there is no upstream port (a device on a root bus) NCCL writes
 * width 0 and reads it as 16, this writes the device's own. Returns 0 or
 * -EIO.
 */
int pa_nccl_xml(FILE *f, const struct pa_report *rep,
		const struct pa_nccl_host *h);

#endif /* PA_NCCL_XML_H */
