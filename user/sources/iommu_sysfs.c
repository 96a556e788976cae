// SPDX-License-Identifier: GPL-2.0
#include "iommu_sysfs.h"

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

/* The name devices/BDF/iommu links to, relative to the devices folder. */
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
		    struct pa_device *d)
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
	       read_instance(devdir, &d->addr, &d->iommu);
}

int pa_iommu_sysfs_fill(const char *root, struct pa_report *rep)
{
	struct group_types t = { 0 };
	char path[PATH_MAX];
	int devdir, err = 0;

	snprintf(path, sizeof(path), "%s/bus/pci/devices", root);
	devdir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (size_t i = 0; !err && i < rep->ndevices; i++)
		if (rep->devices[i].has_iommu)
			err = fill_one(root, devdir, &t, &rep->devices[i]);
	free(t.v);
	if (devdir >= 0)
		close(devdir);
	if (err)
		return err;
	if (!rep->info.iommu_strict)
		pa_derive_iommu_strict(rep);
	return 0;
}
