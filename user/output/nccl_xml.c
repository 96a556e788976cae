// SPDX-License-Identifier: GPL-2.0
#include "nccl_xml.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>

#include "bdf.h"
#include "fabric.h"
#include "link.h"
#include "topo.h"

/* NCCL's GPUs and NICs, by class: display controllers, network. */
static bool wanted(const struct pa_device *d)
{
	return !(d->flags & (PCIEAUDIT_DEV_F_BRIDGE | PCIEAUDIT_DEV_F_VIRTFN)) &&
	       (d->class >> 16 == 0x03 || d->class >> 16 == 0x02);
}

/* The NCCL parent of d: the bridge two levels up, or NULL for the CPU. */
static const struct pa_device *nccl_parent(const struct pa_report *rep,
					   const struct pa_device *d)
{
	const struct pa_device *port = pa_report_upstream(rep, d);

	return port ? pa_report_upstream(rep, port) : NULL;
}

/* Marks d and its NCCL ancestors as nodes of the file. */
static void mark(const struct pa_report *rep, const struct pa_device *d,
		 bool *node)
{
	for (size_t steps = 0; d && steps <= rep->ndevices; steps++) {
		node[d - rep->devices] = true;
		d = nccl_parent(rep, d);
	}
}

/* The topmost NCCL node above d: its numa_node is the CPU's numaid. */
static const struct pa_device *top(const struct pa_report *rep,
				   const struct pa_device *d)
{
	const struct pa_device *p;

	for (size_t steps = 0; (p = nccl_parent(rep, d)) &&
	     steps <= rep->ndevices; steps++)
		d = p;
	return d;
}

static void speed_text(double gts, char *buf, size_t len)
{
	/* As sysfs max_link_speed: "2.5 GT/s PCIe", "32.0 GT/s PCIe". */
	snprintf(buf, len, "%.1f GT/s PCIe", gts);
}

static void pci_attrs(FILE *f, const struct pa_report *rep,
		      const struct pa_device *d)
{
	const struct pa_device *port = pa_report_upstream(rep, d);
	struct pa_link_state ds = { 0 }, ps = { 0 };
	char bdf[PA_BDF_LEN], speed[32] = "";
	double gts;
	unsigned int width;

	if (d->has_link)
		pa_link_decode(&d->link, &ds);
	if (port && port->has_link)
		pa_link_decode(&port->link, &ps);
	gts = ps.max_speed > 0 && (ps.max_speed < ds.max_speed || !ds.max_speed) ?
	      ps.max_speed : ds.max_speed;
	width = ps.max_width && ps.max_width < ds.max_width ? ps.max_width :
		ds.max_width;
	if (gts > 0)
		speed_text(gts, speed, sizeof(speed));
	pa_bdf_format(&d->addr, bdf);
	fprintf(f, "busid=\"%s\" class=\"0x%06x\" vendor=\"0x%04x\" device=\"0x%04x\" subsystem_vendor=\"0x%04x\" subsystem_device=\"0x%04x\" link_speed=\"%s\" link_width=\"%u\"",
		bdf, d->class, d->vendor, d->device, d->subsys_vendor,
		d->subsys_device, speed, width);
}

static bool has_nvlinks(const struct pa_report *rep, const struct pa_device *d)
{
	const struct pa_fabric *fab = rep->fabric;

	for (size_t i = 0; fab && i < fab->nlinks; i++)
		if (fab->links[i].type == PA_ACCEL_NVLINK &&
		    (pa_addr_eq(&fab->links[i].a, &d->addr) ||
		     pa_addr_eq(&fab->links[i].b, &d->addr)))
			return true;
	return false;
}

/* NVLinks as NCCL writes them under the GPU, which NCCL then takes
 * instead of asking NVML: what a guest's NVML may not see. */
static void gpu_node(FILE *f, const struct pa_report *rep,
		     const struct pa_device *d, int indent)
{
	const struct pa_fabric *fab = rep->fabric;

	fprintf(f, "%*s<gpu>\n", indent, "");
	for (size_t i = 0; i < fab->nlinks; i++) {
		const struct pa_accel_link *l = &fab->links[i];
		const struct pa_addr *far;
		const struct pa_device *t;
		char bdf[PA_BDF_LEN];

		if (l->type != PA_ACCEL_NVLINK)
			continue;
		if (pa_addr_eq(&l->a, &d->addr))
			far = &l->b;
		else if (pa_addr_eq(&l->b, &d->addr))
			far = &l->a;
		else
			continue;
		t = pa_report_find(rep, far);
		pa_bdf_format(far, bdf);
		fprintf(f, "%*s<nvlink target=\"%s\" count=\"%u\" tclass=\"0x%06x\"/>\n",
			indent + 2, "", bdf, l->count, t ? t->class : 0x030200);
	}
	fprintf(f, "%*s</gpu>\n", indent, "");
}

static void pci_node(FILE *f, const struct pa_report *rep, const bool *node,
		     const struct pa_device *d, int indent)
{
	bool children = false, nvl = has_nvlinks(rep, d);

	for (size_t i = 0; i < rep->ndevices && !children; i++)
		children = node[i] && nccl_parent(rep, &rep->devices[i]) == d;
	fprintf(f, "%*s<pci ", indent, "");
	pci_attrs(f, rep, d);
	if (!children && !nvl) {
		fprintf(f, "/>\n");
		return;
	}
	fprintf(f, ">\n");
	if (nvl)
		gpu_node(f, rep, d, indent + 2);
	/* Devices are in address order: so are NCCL's sub nodes. */
	for (size_t i = 0; i < rep->ndevices; i++)
		if (node[i] && nccl_parent(rep, &rep->devices[i]) == d)
			pci_node(f, rep, node, &rep->devices[i], indent + 2);
	fprintf(f, "%*s</pci>\n", indent, "");
}

static void cpu_open(FILE *f, const struct pa_nccl_host *h, int numa)
{
	fprintf(f, "  <cpu numaid=\"%d\"", numa);
	if (numa >= 0 && (size_t)numa < h->nnodes && h->cpumaps[numa])
		fprintf(f, " affinity=\"%s\"", h->cpumaps[numa]);
	if (h->arch)
		fprintf(f, " arch=\"%s\"", h->arch);
	if (h->vendor)
		fprintf(f, " vendor=\"%s\"", h->vendor);
	if (h->family >= 0)
		fprintf(f, " familyid=\"%d\"", h->family);
	if (h->model >= 0)
		fprintf(f, " modelid=\"%d\"", h->model);
	fprintf(f, ">\n");
}

int pa_nccl_xml(FILE *f, const struct pa_report *rep,
		const struct pa_nccl_host *h)
{
	bool *node = calloc(rep->ndevices + 1, sizeof(*node));
	int numa, next;

	if (!node)
		return -ENOMEM;
	for (size_t i = 0; i < rep->ndevices; i++)
		if (wanted(&rep->devices[i]))
			mark(rep, &rep->devices[i], node);
	fprintf(f, "<system version=\"1\">\n");
	/* One CPU per NUMA node, lowest first; -1 (unknown) is a node too. */
	for (numa = -1; numa != INT32_MAX; numa = next) {
		bool any = false;

		next = INT32_MAX;
		for (size_t i = 0; i < rep->ndevices; i++) {
			const struct pa_device *d = &rep->devices[i];

			if (!node[i] || nccl_parent(rep, d))
				continue;
			if (d->numa_node > numa && d->numa_node < next)
				next = d->numa_node;
			if (d->numa_node == numa || (numa == -1 && d->numa_node < -1))
				any = true;
		}
		if (!any)
			continue;
		cpu_open(f, h, numa);
		for (size_t i = 0; i < rep->ndevices; i++) {
			const struct pa_device *d = &rep->devices[i];

			if (node[i] && !nccl_parent(rep, d) && top(rep, d) == d &&
			    (d->numa_node == numa || (numa == -1 && d->numa_node < -1)))
				pci_node(f, rep, node, d, 4);
		}
		fprintf(f, "  </cpu>\n");
	}
	fprintf(f, "</system>\n");
	free(node);
	return ferror(f) ? -EIO : 0;
}
