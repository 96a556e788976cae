// SPDX-License-Identifier: GPL-2.0
/* cpuinfo and NUMA nodes' cpumaps for the NCCL file. Thin. */
#include "nccl_host.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "fileio.h"
#include "sysread.h"

/* More nodes than machines have. */
#define MAX_NODES 64

static char *read_line(const char *path)
{
	char *text = NULL;
	size_t len;

	if (pa_read_file(path, 1u << 20, &text, &len))
		return NULL;
	text[strcspn(text, "\n")] = '\0';
	return text;
}

int pa_nccl_host_read(const char *root, struct pa_nccl_host *h)
{
	bool live = pa_sysfs_is_live(root);
	static struct utsname u;
	char path[PATH_MAX];
	char *cpuinfo = NULL;
	size_t len;
	int err = 0;

	pa_nccl_host_clear(h);
	if (live && !uname(&u))
		h->arch = u.machine;
	snprintf(path, sizeof(path), "%s/cpuinfo", root);
	if (!pa_read_file(live ? "/proc/cpuinfo" : path, 4u << 20, &cpuinfo, &len))
		err = pa_nccl_cpuinfo(cpuinfo, h);
	free(cpuinfo);
	/* A copy's cpuinfo with a vendor_id comes from an x86 machine. */
	if (!live && h->vendor)
		h->arch = "x86_64";
	h->cpumaps = calloc(MAX_NODES, sizeof(*h->cpumaps));
	if (!h->cpumaps)
		return -ENOMEM;
	h->nnodes = MAX_NODES;
	for (size_t n = 0; !err && n < MAX_NODES; n++) {
		if (live)
			snprintf(path, sizeof(path), "%s/devices/system/node/node%zu/cpumap",
				 root, n);
		else
			snprintf(path, sizeof(path), "%s/node/node%zu-cpumap", root, n);
		h->cpumaps[n] = read_line(path);
	}
	return err;
}
