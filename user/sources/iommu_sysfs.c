// SPDX-License-Identifier: GPL-2.0
#include "iommu_sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/pcieaudit.h>

#include "abi_names.h"
#include "bdf.h"
#include "fileio.h"
#include "sysfs_model.h"

/* "DMA-FQ\n" and the like; the longest type sysfs writes is short. */
#define TYPE_MAX 64

static void read_type(const char *root, struct pa_iommu *io)
{
	char path[PATH_MAX];
	size_t len;
	char *text;

	snprintf(path, sizeof(path), "%s/kernel/iommu_groups/%u/type", root,
		 io->group);
	if (pa_read_file(path, TYPE_MAX, &text, &len))
		return;
	text[strcspn(text, "\n")] = '\0';
	io->def_domain = pa_domain_type_value(text);
	if (!io->def_domain)
		io->def_domain = PCIEAUDIT_DOMAIN_UNKNOWN;
	io->def_domain_source = PCIEAUDIT_SOURCE_KERNEL;
	free(text);
}

/*
 * Which IOMMU instance links each function: class/iommu/NAME/devices/ holds
 * a link per device, made with the device's own "iommu" link
 * (iommu_device_link()). A few directory reads for the whole machine,
 * where a readlink per function took 1,032 system calls at topo-1024.
 */
struct instance_of {
	struct pa_addr addr;
	char *name;
};

struct instances {
	struct instance_of *v;
	size_t n, cap;
	bool listed;		/* class/iommu was there to list */
};

static int instance_cmp(const void *a, const void *b)
{
	return pa_addr_cmp(&((const struct instance_of *)a)->addr,
			   &((const struct instance_of *)b)->addr);
}

static int instance_add(struct instances *t, const struct pa_addr *addr,
			const char *name)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		struct instance_of *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n].addr = *addr;
	t->v[t->n].name = strdup(name);
	return t->v[t->n++].name ? 0 : -ENOMEM;
}

static int list_instance(int classdir, const char *name, struct instances *t)
{
	char path[NAME_MAX + 16];
	struct pa_addr addr;
	struct dirent *e;
	int fd, err = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/devices", name);
	fd = openat(classdir, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dir = fd < 0 ? NULL : fdopendir(fd);
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	/* Non-PCI devices (ACPI, platform) have other names. */
	while (!err && (e = readdir(dir)))
		if (!pa_bdf_parse(e->d_name, &addr))
			err = instance_add(t, &addr, name);
	closedir(dir);
	return err;
}

static int instances_read(const char *root, struct instances *t)
{
	char path[PATH_MAX];
	struct dirent *e;
	int err = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/class/iommu", root);
	dir = opendir(path);
	if (!dir)
		return 0;
	t->listed = true;
	while (!err && (e = readdir(dir)))
		if (e->d_name[0] != '.')
			err = list_instance(dirfd(dir), e->d_name, t);
	closedir(dir);
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), instance_cmp);
	return err;
}

static void instances_clear(struct instances *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].name);
	free(t->v);
}

/* The name devices/BDF/iommu links to, relative to the devices folder:
 * only where class/iommu could not be listed. */
static int read_instance(int devdir, const struct pa_addr *addr,
			 struct pa_iommu *io)
{
	char path[PA_BDF_LEN + 8], target[PATH_MAX], bdf[PA_BDF_LEN];
	const char *name;
	ssize_t n;

	if (devdir < 0)
		return 0;
	pa_bdf_format(addr, bdf);
	snprintf(path, sizeof(path), "%s/iommu", bdf);
	n = readlinkat(devdir, path, target, sizeof(target) - 1);
	if (n <= 0)
		return 0;
	target[n] = '\0';
	name = strrchr(target, '/');
	io->instance = strdup(name ? name + 1 : target);
	return io->instance ? 0 : -ENOMEM;
}

static int fill_instance(const struct instances *t, int devdir,
			 const struct pa_addr *addr, struct pa_iommu *io)
{
	struct instance_of key = { .addr = *addr }, *hit;

	if (!t->listed)
		return read_instance(devdir, addr, io);
	if (!t->n)
		return 0;
	hit = bsearch(&key, t->v, t->n, sizeof(*t->v), instance_cmp);
	if (!hit)
		return 0;
	io->instance = strdup(hit->name);
	return io->instance ? 0 : -ENOMEM;
}

/* The groups whose type was read, each once: 102 at topo-1024's 1,032
 * functions, where a search of the devices before each was quadratic. */
struct group_types {
	struct pa_iommu *v;
	size_t n, cap;
};

static const struct pa_iommu *group_read(const struct group_types *t,
					 uint32_t group)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].group == group)
			return &t->v[i];
	return NULL;
}

static int group_add(struct group_types *t, const struct pa_iommu *io)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct pa_iommu *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->v = v;
		t->cap = cap;
	}
	/* Only the group and its type: no pointer is shared. */
	t->v[t->n++] = (struct pa_iommu){
		.group = io->group, .def_domain = io->def_domain,
		.def_domain_source = io->def_domain_source,
	};
	return 0;
}

static int fill_one(const char *root, int devdir, struct group_types *t,
		    const struct instances *inst, struct pa_device *d)
{
	const struct pa_iommu *same;
	int err;

	/* The default domain is the group's: read once per group (an
	 * open and a read each, tens of microseconds under TCG). */
	if (d->iommu.def_domain &&
	    d->iommu.def_domain_source == PCIEAUDIT_SOURCE_KERNEL &&
	    !group_read(t, d->iommu.group)) {
		err = group_add(t, &d->iommu);
		if (err)
			return err;
	} else if (!d->iommu.def_domain) {
		same = group_read(t, d->iommu.group);
		if (same) {
			d->iommu.def_domain = same->def_domain;
			d->iommu.def_domain_source = same->def_domain_source;
		} else {
			read_type(root, &d->iommu);
			if (d->iommu.def_domain_source == PCIEAUDIT_SOURCE_KERNEL) {
				err = group_add(t, &d->iommu);
				if (err)
					return err;
			}
		}
	}
	return d->iommu.instance ? 0 :
	       fill_instance(inst, devdir, &d->addr, &d->iommu);
}

int pa_iommu_sysfs_fill(const char *root, struct pa_report *rep)
{
	struct group_types t = { 0 };
	struct instances inst = { 0 };
	char path[PATH_MAX];
	int devdir, err;

	snprintf(path, sizeof(path), "%s/bus/pci/devices", root);
	devdir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	err = instances_read(root, &inst);
	for (size_t i = 0; !err && i < rep->ndevices; i++)
		if (rep->devices[i].has_iommu)
			err = fill_one(root, devdir, &t, &inst,
				       &rep->devices[i]);
	instances_clear(&inst);
	free(t.v);
	if (devdir >= 0)
		close(devdir);
	if (err)
		return err;
	if (!rep->info.iommu_strict)
		pa_derive_iommu_strict(rep);
	return 0;
}
