/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host facts NCCL's topology file names (nccl_xml.h): the CPU and the
 * NUMA nodes' cpumaps, from cpuinfo and sysfs (nccl_host_read.c, thin) or
 * from a snapshot's host facts (nccl_host.c, pure).
 */
#ifndef PA_NCCL_HOST_H
#define PA_NCCL_HOST_H

#include <stddef.h>

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

#endif /* PA_NCCL_HOST_H */
