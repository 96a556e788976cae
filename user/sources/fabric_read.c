// SPDX-License-Identifier: GPL-2.0
#include "fabric_read.h"

#include <errno.h>
#include <stdlib.h>

#include "fabric.h"
#include "gpu_sw.h"
#include "kfd.h"
#include "nvml.h"
#include "sysread.h"
#include "topo.h"

/* NVML enumerates NVIDIA's PCI functions: with none in the tree it has
 * nothing to say, and loading it costs a command 10 ms and more. */
static bool any_nvidia(const struct pa_report *rep)
{
	for (size_t i = 0; i < rep->ndevices; i++)
		if (rep->devices[i].vendor == PA_VENDOR_NVIDIA)
			return true;
	return false;
}

int pa_fabric_read(const char *root, struct pa_report *rep, bool nvml)
{
	bool live = pa_sysfs_is_live(root);
	struct pa_fabric *f = rep->fabric;
	int err;

	if (!f) {
		f = malloc(sizeof(*f));
		if (!f)
			return -ENOMEM;
		rep->fabric = f;
	} else {
		pa_fabric_clear(f);
	}
	pa_fabric_init(f);
	/* NVML answers for this host, never for a copy of another's sysfs. */
	if (!live)
		err = pa_source_set(&f->nvml, PA_SRC_NOT_READ, "not the running host");
	else if (!any_nvidia(rep))
		err = pa_source_set(&f->nvml, PA_SRC_ABSENT, "no NVIDIA function in the PCI tree");
	else if (!nvml)
		err = pa_source_set(&f->nvml, PA_SRC_NOT_READ,
				    "report --json asks NVML only with --nvml");
	else
		err = pa_nvml_read(f);
	if (!err)
		err = pa_kfd_read(root, f);
	if (!err)
		err = pa_gpu_sw_read(root, live, &f->sw);
	return err;
}
