// SPDX-License-Identifier: GPL-2.0
#include "iommu_sysfs.h"

#include <errno.h>
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

static int read_instance(const char *root, const struct pa_addr *addr,
			 struct pa_iommu *io)
{
	char path[PATH_MAX], target[PATH_MAX], bdf[PA_BDF_LEN];
	const char *name;
	ssize_t n;

	pa_bdf_format(addr, bdf);
	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s/iommu", root, bdf);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return 0;
	target[n] = '\0';
	name = strrchr(target, '/');
	io->instance = strdup(name ? name + 1 : target);
	return io->instance ? 0 : -ENOMEM;
}

/* An earlier device of the same group whose type was read, or NULL. */
static const struct pa_iommu *group_read(const struct pa_report *rep, size_t n,
					 uint32_t group)
{
	for (size_t i = 0; i < n; i++) {
		const struct pa_device *d = &rep->devices[i];

		if (d->has_iommu && d->iommu.group == group &&
		    d->iommu.def_domain_source == PCIEAUDIT_SOURCE_KERNEL)
			return &d->iommu;
	}
	return NULL;
}

int pa_iommu_sysfs_fill(const char *root, struct pa_report *rep)
{
	for (size_t i = 0; i < rep->ndevices; i++) {
		struct pa_device *d = &rep->devices[i];
		const struct pa_iommu *same;
		int err;

		if (!d->has_iommu)
			continue;
		/* The default domain is the group's: read once per group
		 * (an open and a read each, tens of microseconds under TCG,
		 * 1,032 of them at topo-1024's 102 groups). */
		if (!d->iommu.def_domain) {
			same = group_read(rep, i, d->iommu.group);
			if (same) {
				d->iommu.def_domain = same->def_domain;
				d->iommu.def_domain_source = same->def_domain_source;
			} else {
				read_type(root, &d->iommu);
			}
		}
		if (d->iommu.instance)
			continue;
		err = read_instance(root, &d->addr, &d->iommu);
		if (err)
			return err;
	}
	if (!rep->info.iommu_strict)
		pa_derive_iommu_strict(rep);
	return 0;
}
