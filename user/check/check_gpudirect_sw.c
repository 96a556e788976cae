// SPDX-License-Identifier: GPL-2.0
#include "check_gpudirect_sw.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bdf.h"
#include "fabric.h"
#include "remedy.h"
#include "topo.h"

#define NVIDIA 0x10de

const struct pa_accel_link *pa_gd_accel_link(const struct pa_report *rep,
					     const struct pa_p2p_pair *p)
{
	return rep->fabric ? pa_fabric_find(rep->fabric, &p->provider,
					    &p->client) : NULL;
}

void pa_gd_accel_finding(struct pa_check *c, const struct pa_p2p_pair *p,
			 const struct pa_accel_link *l)
{
	const struct pa_addr devs[2] = { p->provider, p->client };
	char x[PA_BDF_LEN], y[PA_BDF_LEN];

	pa_bdf_format(&p->provider, x);
	pa_bdf_format(&p->client, y);
	pa_check_add(c, PA_GD_ACCEL_LINK, 0, devs, 2,
		     (struct pa_remedy){ PA_REMEDY_NONE, NULL },
		     "%s and %s are joined by %u %s link%s (%s): their P2P traffic takes those, so their PCIe path is not judged",
		     x, y, l->count, pa_accel_type_name(l->type),
		     l->count == 1 ? "" : "s",
		     l->type == PA_ACCEL_NVLINK ? "NVML" : "KFD topology");
}

static bool any_gpu_of(const struct pa_report *rep, uint16_t vendor)
{
	for (size_t i = 0; i < rep->ndevices; i++)
		if (rep->devices[i].vendor == vendor &&
		    pa_device_kind(&rep->devices[i]) == PA_KIND_GPU)
			return true;
	return false;
}

void pa_gd_accel_note(struct pa_check *c, size_t joined)
{
	const struct pa_fabric *f = c->rep->fabric;

	if (joined)
		return;
	if (!f) {
		pa_check_skip(c, PA_GD_ACCEL_LINK,
			      "NVLink and XGMI not read (a snapshot)");
		return;
	}
	/* Unknown is not none: NVIDIA GPUs without NVML's answer. */
	if (any_gpu_of(c->rep, NVIDIA) && f->nvml.state != PA_SRC_READ) {
		pa_check_skip(c, PA_GD_ACCEL_LINK, "NVLink unknown: NVML %s%s%s",
			      pa_source_state_name(f->nvml.state),
			      f->nvml.detail ? ": " : "",
			      f->nvml.detail ? f->nvml.detail : "");
		return;
	}
	pa_check_note(c, PA_GD_ACCEL_LINK, "no pair joined by NVLink or XGMI (NVML %s, KFD %s)",
		      pa_source_state_name(f->nvml.state),
		      pa_source_state_name(f->kfd.state));
}

/* The NVIDIA GPUs, which the software findings name. */
static size_t nvidia_gpus(const struct pa_report *rep, struct pa_addr *out)
{
	size_t n = 0;

	for (size_t i = 0; i < rep->ndevices; i++)
		if (rep->devices[i].vendor == NVIDIA &&
		    pa_device_kind(&rep->devices[i]) == PA_KIND_GPU)
			out[n++] = rep->devices[i].addr;
	return n;
}

/* A NIC GPUDirect RDMA can use: InfiniBand class, NVIDIA (Mellanox)
 * networking, AWS EFA. Others may do RDMA too (E810 through irdma), so
 * without one the software findings are info, not absent. */
static bool rdma_nic(const struct pa_device *d)
{
	if (pa_device_kind(d) != PA_KIND_NIC)
		return false;
	return d->class >> 8 == 0x0207 || d->vendor == 0x15b3 ||
	       (d->driver && !strcmp(d->driver, "efa"));
}

static bool any_rdma_nic(const struct pa_report *rep)
{
	for (size_t i = 0; i < rep->ndevices; i++)
		if (rdma_nic(&rep->devices[i]))
			return true;
	return false;
}

enum route { ROUTE_NO, ROUTE_YES, ROUTE_UNKNOWN };

/* Whether GPU memory can go out through dma-buf; why says what is missing
 * or unknown. */
static enum route dmabuf_route(const struct pa_report *rep, char *why,
			       size_t len)
{
	const struct pa_gpu_sw *sw = &rep->fabric->sw;
	const char *rel = rep->info.kernel_release;
	unsigned int major, minor;
	int new_enough = -1;

	if (rel && !pa_kernel_version(rel, &major, &minor))
		new_enough = major > 5 || (major == 5 && minor >= 12);
	if (!new_enough || !sw->dmabuf_core || !sw->nvidia_open) {
		snprintf(why, len, "%s%s%s",
			 !new_enough ? "the kernel is older than 5.12; " : "",
			 !sw->dmabuf_core ? "the kernel has no dma-buf core (dma_buf_export); " : "",
			 !sw->nvidia_open ? "the NVIDIA driver is the proprietary kernel module, not the open one; " : "");
		why[strlen(why) - 2] = '\0';
		return ROUTE_NO;
	}
	if (new_enough < 0 || sw->dmabuf_core < 0 || sw->nvidia_open < 0) {
		snprintf(why, len, "%s%s%s",
			 new_enough < 0 ? "kernel release unknown; " : "",
			 sw->dmabuf_core < 0 ? "/proc/kallsyms unreadable; " : "",
			 sw->nvidia_open < 0 ? "/proc/driver/nvidia/version unreadable; " : "");
		why[strlen(why) - 2] = '\0';
		return ROUTE_UNKNOWN;
	}
	snprintf(why, len, "Linux %u.%u, the dma-buf core and NVIDIA's open kernel module",
		 major, minor);
	return ROUTE_YES;
}

static void peermem(struct pa_check *c, const struct pa_addr *gpus, size_t n,
		    enum route route, const char *why)
{
	const struct pa_gpu_sw *sw = &c->rep->fabric->sw;
	const struct pa_remedy modprobe = { PA_REMEDY_COMMAND, "modprobe nvidia-peermem" };

	if (sw->peermem_loaded > 0)
		pa_check_note(c, PA_GD_PEERMEM, "nvidia-peermem loaded");
	else if (sw->peermem_loaded < 0)
		pa_check_skip(c, PA_GD_PEERMEM, "the module list is unreadable");
	else if (route == ROUTE_YES)
		pa_check_add(c, PA_GD_PEERMEM, PA_SEV_INFO, gpus, n, modprobe,
			     "nvidia-peermem is not loaded; the dma-buf route serves GPUDirect RDMA instead (%s)",
			     why);
	else if (route == ROUTE_UNKNOWN)
		pa_check_add(c, PA_GD_PEERMEM, PA_SEV_INFO, gpus, n, modprobe,
			     "nvidia-peermem is not loaded, and whether dma-buf can serve instead is unknown (%s)",
			     why);
	else
		pa_check_add(c, PA_GD_PEERMEM,
			     any_rdma_nic(c->rep) ? 0 : PA_SEV_INFO, gpus, n, modprobe,
			     "nvidia-peermem is not loaded and dma-buf cannot serve instead (%s): RDMA NICs cannot register GPU memory%s",
			     why, any_rdma_nic(c->rep) ? "" :
			     " (no InfiniBand, NVIDIA/Mellanox or EFA NIC found: info)");
}

static void dmabuf(struct pa_check *c, const struct pa_addr *gpus, size_t n,
		   enum route route, const char *why)
{
	const struct pa_gpu_sw *sw = &c->rep->fabric->sw;

	if (route == ROUTE_YES) {
		pa_check_note(c, PA_GD_DMABUF, "%s", why);
		return;
	}
	if (route == ROUTE_UNKNOWN) {
		pa_check_skip(c, PA_GD_DMABUF, "%s", why);
		return;
	}
	pa_check_add(c, PA_GD_DMABUF,
		     sw->peermem_loaded > 0 || !any_rdma_nic(c->rep) ? PA_SEV_INFO : 0,
		     gpus, n, sw->nvidia_open == 0 ?
		     (struct pa_remedy){ PA_REMEDY_COMMAND,
		     "install NVIDIA's open kernel modules (the driver's -m=kernel-open, or the nvidia-open packages)" } :
		     (struct pa_remedy){ PA_REMEDY_KERNEL,
		     "Linux 5.12 or later with CONFIG_DMA_SHARED_BUFFER" },
		     "GPU memory cannot be shared through dma-buf: %s%s", why,
		     sw->peermem_loaded > 0 ? "; nvidia-peermem serves instead" : "");
}

void pa_gd_software(struct pa_check *c)
{
	const struct pa_report *rep = c->rep;
	struct pa_addr *gpus;
	enum route route;
	char why[300];
	size_t n;

	if (!rep->fabric) {
		pa_check_skip(c, PA_GD_PEERMEM, "GPUDirect software not read (a snapshot)");
		pa_check_skip(c, PA_GD_DMABUF, "GPUDirect software not read (a snapshot)");
		return;
	}
	gpus = calloc(rep->ndevices + 1, sizeof(*gpus));
	if (!gpus) {
		c->err = -ENOMEM;
		return;
	}
	n = nvidia_gpus(rep, gpus);
	if (!n || rep->fabric->sw.nvidia_loaded <= 0) {
		const char *r = !n ? "no NVIDIA GPU" :
				rep->fabric->sw.nvidia_loaded < 0 ?
				"the module list is unreadable" :
				"the NVIDIA driver is not loaded";

		pa_check_skip(c, PA_GD_PEERMEM, "%s", r);
		pa_check_skip(c, PA_GD_DMABUF, "%s", r);
	} else {
		route = dmabuf_route(rep, why, sizeof(why));
		peermem(c, gpus, n, route, why);
		dmabuf(c, gpus, n, route, why);
	}
	free(gpus);
}
