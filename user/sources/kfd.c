// SPDX-License-Identifier: GPL-2.0
/* The KFD topology's files. Thin: reads, then pa_kfd_prop() decodes. */
#include "kfd.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"

#define NODES "class/kfd/kfd/topology/nodes"
#define PROPS_MAX (64 * 1024)
/* More nodes than any machine has: CPUs and GPUs of 16-GPU boards. */
#define MAX_NODES 256

struct node {
	bool gpu;
	struct pa_addr addr;
	uint64_t mem;			/* bytes over its memory banks */
};

static char *read_text(const char *path)
{
	char *text = NULL;
	size_t len;

	return pa_read_file(path, PROPS_MAX, &text, &len) ? NULL : text;
}

/* A GPU node's PCI address: location_id is bus << 8 | devfn. */
/* The sizes of a GPU node's mem_banks/M/properties, added up. */
static uint64_t read_mem(const char *dir, unsigned int id)
{
	char path[PATH_MAX + 32], bank[PATH_MAX + 320];
	uint64_t total = 0, size;
	struct dirent *e;
	char *props;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%u/mem_banks", dir, id);
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(bank, sizeof(bank), "%s/%s/properties", path, e->d_name);
		props = read_text(bank);
		if (props && pa_kfd_prop(props, "size_in_bytes", &size))
			total += size;
		free(props);
	}
	closedir(d);
	return total;
}

static bool read_node(const char *dir, unsigned int id, struct node *n)
{
	char path[PATH_MAX + 32];
	uint64_t loc = 0, domain = 0;
	char *props, *gid;

	snprintf(path, sizeof(path), "%s/%u/properties", dir, id);
	props = read_text(path);
	if (!props)
		return false;
	snprintf(path, sizeof(path), "%s/%u/gpu_id", dir, id);
	gid = read_text(path);
	n->gpu = gid && strtoull(gid, NULL, 10) != 0 &&
		 pa_kfd_prop(props, "location_id", &loc);
	pa_kfd_prop(props, "domain", &domain);
	n->addr = (struct pa_addr){ (uint32_t)domain, (uint8_t)(loc >> 8),
				    (uint8_t)loc };
	n->mem = n->gpu ? read_mem(dir, id) : 0;
	free(props);
	free(gid);
	return true;
}

static int read_links(const char *dir, unsigned int id,
		      const struct node *nodes, unsigned int nnodes,
		      struct pa_fabric *f)
{
	char path[PATH_MAX + 32];
	struct dirent *e;
	DIR *d;
	int err = 0;

	snprintf(path, sizeof(path), "%s/%u/io_links", dir, id);
	d = opendir(path);
	if (!d)
		return 0;
	while (!err && (e = readdir(d))) {
		uint64_t type, from, to;
		char lpath[PATH_MAX + 320];
		char *props;

		if (e->d_name[0] == '.')
			continue;
		snprintf(lpath, sizeof(lpath), "%s/%s/properties", path, e->d_name);
		props = read_text(lpath);
		/* Each end lists the link: count it from the lower node. */
		if (props && pa_kfd_prop(props, "type", &type) &&
		    type == PA_KFD_IOLINK_XGMI &&
		    pa_kfd_prop(props, "node_from", &from) &&
		    pa_kfd_prop(props, "node_to", &to) && from < to &&
		    to < nnodes && nodes[from].gpu && nodes[to].gpu)
			err = pa_fabric_add(f, &nodes[from].addr, &nodes[to].addr,
					    PA_ACCEL_XGMI, 1);
		free(props);
	}
	closedir(d);
	return err;
}

int pa_kfd_read(const char *root, struct pa_fabric *f)
{
	char dir[PATH_MAX], why[PATH_MAX + 64];
	struct node *nodes;
	unsigned int n = 0;
	int err = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/" NODES, root);
	d = opendir(dir);
	if (!d)
		return pa_source_set(&f->kfd, PA_SRC_ABSENT,
				     "no KFD topology (amdgpu not loaded)");
	closedir(d);
	nodes = calloc(MAX_NODES, sizeof(*nodes));
	if (!nodes)
		return -ENOMEM;
	/* Nodes are numbered from 0 without gaps. */
	while (n < MAX_NODES && read_node(dir, n, &nodes[n]))
		n++;
	for (unsigned int i = 0; i < n && !err; i++) {
		err = read_links(dir, i, nodes, n, f);
		if (!err && nodes[i].gpu && nodes[i].mem)
			err = pa_fabric_add_mem(f, &nodes[i].addr, nodes[i].mem,
						PA_ACCEL_XGMI);
	}
	if (!err && !n) {
		snprintf(why, sizeof(why), "%s/0/properties unreadable", dir);
		err = pa_source_set(&f->kfd, PA_SRC_FAILED, why);
	} else if (!err) {
		err = pa_source_set(&f->kfd, PA_SRC_READ, NULL);
	}
	free(nodes);
	return err;
}
