// SPDX-License-Identifier: GPL-2.0
/* NVLinks from NVML's answers. Pure: every answer comes through the ops. */
#include "nvml.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bdf.h"

struct gpu {
	struct pa_addr addr;
	unsigned int to_switch;		/* active links to no GPU of NVML's */
};

static int fail(const struct pa_nvml_ops *ops, struct pa_fabric *f,
		const char *what, int rc)
{
	char why[160];

	snprintf(why, sizeof(why), "%s: %s", what,
		 ops->error ? ops->error(ops->ctx, rc) : "error");
	return pa_source_set(&f->nvml, PA_SRC_FAILED, why);
}

static int find_gpu(const struct gpu *gpus, unsigned int n,
		    const struct pa_addr *a)
{
	for (unsigned int i = 0; i < n; i++)
		if (pa_addr_eq(&gpus[i].addr, a))
			return (int)i;
	return -1;
}

/* A far end that is none of NVML's GPUs: an NVSwitch, unless NVML says
 * it is a GPU (one hidden from us) or something else. */
static bool is_switch(const struct pa_nvml_ops *ops, unsigned int dev,
		      unsigned int link)
{
	int type = PA_NVML_REMOTE_SWITCH;

	if (ops->link_remote_type &&
	    ops->link_remote_type(ops->ctx, dev, link, &type) != PA_NVML_SUCCESS)
		return true;
	return type == PA_NVML_REMOTE_SWITCH;
}

/* One GPU's links: to other GPUs into f, the rest counted as switch links. */
static int read_links(const struct pa_nvml_ops *ops, struct gpu *gpus,
		      unsigned int n, unsigned int dev, struct pa_fabric *f)
{
	for (unsigned int l = 0; l < PA_NVML_MAX_LINKS; l++) {
		char busid[PA_NVML_BUSID_LEN] = "";
		struct pa_addr far;
		int active = 0, peer, err;

		if (ops->link_state(ops->ctx, dev, l, &active) != PA_NVML_SUCCESS ||
		    !active ||
		    ops->link_remote(ops->ctx, dev, l, busid) != PA_NVML_SUCCESS)
			continue;
		busid[PA_NVML_BUSID_LEN - 1] = '\0';
		if (pa_bdf_parse(busid, &far))
			continue;
		peer = find_gpu(gpus, n, &far);
		if (peer < 0) {
			if (is_switch(ops, dev, l))
				gpus[dev].to_switch++;
			continue;
		}
		/* Each end reports the link: count it from the lower one. */
		if ((unsigned int)peer > dev) {
			err = pa_fabric_add(f, &gpus[dev].addr, &far,
					    PA_ACCEL_NVLINK, 1);
			if (err)
				return err;
		}
	}
	return 0;
}

static int switch_pairs(const struct gpu *gpus, unsigned int n,
			struct pa_fabric *f)
{
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int j = i + 1; j < n; j++) {
			unsigned int c = gpus[i].to_switch < gpus[j].to_switch ?
					 gpus[i].to_switch : gpus[j].to_switch;
			int err = pa_fabric_add(f, &gpus[i].addr, &gpus[j].addr,
						PA_ACCEL_NVLINK, c);

			if (err)
				return err;
		}
	return 0;
}

int pa_nvml_collect(const struct pa_nvml_ops *ops, struct pa_fabric *f)
{
	unsigned int n = 0;
	struct gpu *gpus;
	int rc, err = 0;

	rc = ops->count(ops->ctx, &n);
	if (rc != PA_NVML_SUCCESS)
		return fail(ops, f, "nvmlDeviceGetCount", rc);
	gpus = calloc(n + 1, sizeof(*gpus));
	if (!gpus)
		return -ENOMEM;
	for (unsigned int i = 0; i < n; i++) {
		char busid[PA_NVML_BUSID_LEN] = "";

		rc = ops->bus_id(ops->ctx, i, busid);
		busid[PA_NVML_BUSID_LEN - 1] = '\0';
		if (rc != PA_NVML_SUCCESS || pa_bdf_parse(busid, &gpus[i].addr)) {
			err = fail(ops, f, "nvmlDeviceGetPciInfo",
				   rc ? rc : PA_NVML_NOT_SUPPORTED);
			free(gpus);
			return err;
		}
	}
	for (unsigned int i = 0; i < n && !err; i++) {
		uint64_t bytes = 0;

		/* A link is recorded between two of NVML's GPUs only (to
		 * each other or through a switch): with one GPU there is
		 * none to ask about, which saves its 18 link queries. */
		if (n > 1)
			err = read_links(ops, gpus, n, i, f);
		if (!err && ops->memory &&
		    ops->memory(ops->ctx, i, &bytes) == PA_NVML_SUCCESS && bytes)
			err = pa_fabric_add_mem(f, &gpus[i].addr, bytes,
						PA_ACCEL_NVLINK);
	}
	if (!err)
		err = switch_pairs(gpus, n, f);
	if (!err)
		err = pa_source_set(&f->nvml, PA_SRC_READ, ops->version);
	free(gpus);
	return err;
}
