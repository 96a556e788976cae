// SPDX-License-Identifier: GPL-2.0
#include "sysfs_model.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>

#include "abi_names.h"
#include "bdf.h"
#include "config_space.h"
#include "passthru.h"
#include "remedy.h"

const char *const pa_sysfs_attr_names[PA_NATTRS] = {
	[PA_ATTR_VENDOR]	= "vendor",
	[PA_ATTR_DEVICE]	= "device",
	[PA_ATTR_CLASS]		= "class",
	[PA_ATTR_SUBSYS_VENDOR]	= "subsystem_vendor",
	[PA_ATTR_SUBSYS_DEVICE]	= "subsystem_device",
	[PA_ATTR_REVISION]	= "revision",
	[PA_ATTR_NUMA_NODE]	= "numa_node",
};

void pa_sysfs_clear(struct pa_sysfs *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct pa_sysfs_dev *d = &s->devs[i];

		free(d->name);
		free(d->path);
		free(d->config);
		for (int a = 0; a < PA_NATTRS; a++)
			free(d->attrs[a]);
		free(d->driver);
		free(d->physfn);
		free(d->iommu_group);
		free(d->iommu_type);
		free(d->resource);
		free(d->reset_method);
		free(d->sriov_numvfs);
	}
	free(s->devs);
	free(s->kernel_release);
	*s = (struct pa_sysfs){ 0 };
}

/* A sysfs number ("0x10de\n", "-1\n"); false when absent or malformed. */
static bool number(const char *text, long min, long max, long *v)
{
	char *end;

	if (!text)
		return false;
	errno = 0;
	*v = strtol(text, &end, 0);
	if (errno || end == text || (*end && *end != '\n') ||
	    *v < min || *v > max)
		return false;
	return true;
}

/* The attribute when sysfs has it, the configuration space's otherwise. */
static uint32_t id(const struct pa_sysfs_dev *d, int attr, uint32_t fallback,
		   long max)
{
	long v;

	return number(d->attrs[attr], 0, max, &v) ? (uint32_t)v : fallback;
}

/* The path's components before the device's own, trailing slashes
 * ignored: a copy made with "cp -r dir/" keeps them. */
static size_t path_len(const char *path)
{
	size_t n = strlen(path);

	while (n && path[n - 1] == '/')
		n--;
	return n;
}

/* The component of path[0, end) that ends at end. */
static bool component_before(const char *path, size_t end, struct pa_addr *addr,
			     size_t *start_out)
{
	char name[PA_BDF_LEN + 1];
	size_t start = end;

	while (start && path[start - 1] != '/')
		start--;
	*start_out = start;
	if (end - start >= sizeof(name))
		return false;
	memcpy(name, path + start, end - start);
	name[end - start] = '\0';
	return pa_bdf_parse(name, addr) == 0;
}

/* The last BDF of the path before the device's own: its parent bridge.
 * A function on a root bus has a "pciDDDD:BB" host bridge there. */
static bool parent_of(const char *path, struct pa_addr *up)
{
	size_t end, start;
	struct pa_addr self;

	if (!path)
		return false;
	end = path_len(path);
	component_before(path, end, &self, &start);
	if (!start)
		return false;
	return component_before(path, start - 1, up, &start);
}

/* "pciDDDD:BB", the path's first component: the host bridge's root bus. */
static bool root_bus_of(const char *path, struct pa_addr *root)
{
	unsigned int domain, bus;
	int n = 0;

	/* Domains above 0xffff (VMD) print with more digits. */
	if (!path || sscanf(path, "pci%8x:%2x%n", &domain, &bus, &n) != 2 ||
	    (path[n] != '/' && path[n]))
		return false;
	*root = (struct pa_addr){ .domain = domain, .bus = (uint8_t)bus };
	return true;
}

static void fill_from_config(const struct pa_config *c, struct pa_device *d)
{
	/* All ones is no device: its type and registers are unknown. */
	if (c->all_ones) {
		d->config_unreadable = true;
		return;
	}
	d->no_extended_config = c->no_extended;
	d->pcie_type = c->pcie_type;
	d->flags = (c->pcie_type >= 0 ? PCIEAUDIT_DEV_F_PCIE : 0) |
		   (c->multifunction ? PCIEAUDIT_DEV_F_MULTIFUNCTION : 0) |
		   (c->bridge ? PCIEAUDIT_DEV_F_BRIDGE : 0) |
		   (c->sriov ? PCIEAUDIT_DEV_F_PHYSFN : 0);
	d->has_secondary_bus = c->has_secondary_bus;
	d->secondary_bus = c->secondary_bus;
	d->has_acs = c->has_acs;
	d->acs = c->acs;
	d->has_link = c->has_link;
	d->link = c->link;
}

/* sysfs's resource file: "start end flags" a line, the six BARs first. */
#define RES_IO		0x00000100	/* IORESOURCE_IO */
#define RES_MEM		0x00000200	/* IORESOURCE_MEM */
#define RES_PREFETCH	0x00002000	/* IORESOURCE_PREFETCH */
#define RES_MEM_64	0x00100000	/* IORESOURCE_MEM_64 */
#define RES_UNSET	0x20000000	/* IORESOURCE_UNSET: not assigned */

/* A resource's flags as the module's read_bar_resources() maps them. */
static uint32_t res_type(unsigned long long flags)
{
	uint32_t f;

	if (flags & RES_IO)
		return PCIEAUDIT_BAR_F_IO;
	f = PCIEAUDIT_BAR_F_MEM;
	if (flags & RES_PREFETCH)
		f |= PCIEAUDIT_BAR_F_PREFETCH;
	if (flags & RES_MEM_64)
		f |= PCIEAUDIT_BAR_F_MEM64;
	return f;
}

bool pa_sysfs_resource_bars(const char *text, struct pa_sysfs_bar *out)
{
	const char *p = text;

	for (int i = 0; i < PA_MAX_BARS; i++) {
		unsigned long long start, end, flags;
		int n = 0;

		if (!p || sscanf(p, "%llx %llx %llx%n", &start, &end, &flags,
				 &n) != 3)
			return false;
		out[i] = (struct pa_sysfs_bar){ 0 };
		if ((flags & (RES_IO | RES_MEM)) && end > start) {
			out[i].size = end - start + 1;
			out[i].unassigned = flags & RES_UNSET;
			out[i].has_start = !out[i].unassigned;
			out[i].start = out[i].has_start ? start : 0;
			out[i].flags = res_type(flags);
		}
		p = strchr(p + n, '\n');
		p = p ? p + 1 : NULL;
	}
	return true;
}

/*
 * Where BAR i sits: the kernel's placement where the source has it (the
 * resource file, lspci's address); else the register, but not a VF's,
 * which reads 0 whatever the kernel placed there (SR-IOV): unknown.
 */
static void bar_place(const struct pa_config *c, unsigned int i,
		      const struct pa_sysfs_bar *src, bool vf, struct pa_bar *b)
{
	if (src->unassigned)
		return;
	if (src->has_start) {
		b->has_start = true;
		b->start = src->start;
	} else if (!vf) {
		b->has_start = true;
		b->start = c->bar_regs[i].address;
	}
}

/* A VF: sysfs's physfn link, or the Vendor ID a VF reads (0xffff under
 * SR-IOV; the kernel shows the PF's in sysfs). */
static bool is_vf(const struct pa_config *c, const struct pa_sysfs_dev *s)
{
	return s->physfn || c->vendor == 0xffff;
}

static bool any_sized(const struct pa_sysfs_bar *bars)
{
	for (int i = 0; i < PA_MAX_BARS; i++)
		if (bars[i].size)
			return true;
	return false;
}

/*
 * ATS, device control and BARs from configuration space, as the module
 * sends them: registers from the bytes, BAR sizes from the source (the
 * bytes hold none), and the BARs' types and places from the source where
 * it has the kernel's. ATS lives in extended space: without it, unknown.
 */
static void fill_caps(const struct pa_config *c, const struct pa_sysfs_dev *s,
		      struct pa_device *d)
{
	struct pa_sysfs_bar sizes[PA_MAX_BARS];
	bool known = s->bar_sizes_known;

	if (!c->valid || c->all_ones)
		return;
	d->caps_known = true;
	d->has_ats = c->has_ats;
	d->ats_cap = c->ats_cap;
	d->ats_ctrl = c->ats_ctrl;
	d->has_expdev = c->has_expdev;
	d->devcap = c->devcap;
	d->devctl = c->devctl;
	if (known)
		memcpy(sizes, s->bar_size, sizeof(sizes));
	else if (s->resource)
		known = pa_sysfs_resource_bars(s->resource, sizes);
	/* A BAR the bytes place (a non-zero address) needs a size. */
	for (unsigned int i = 0; known && i < c->nbar_regs; i++)
		known = c->bar_regs[i].upper || !c->bar_regs[i].address ||
			sizes[i].size;
	/* lspci prints a region the registers or the kernel show: of a VF
	 * read from a dump (-F), whose registers read 0, none. No region is
	 * then no answer. */
	if (known && s->bar_sizes_known && is_vf(c, s) && !any_sized(sizes))
		known = false;
	if (!known) {
		d->bars_unknown = true;
		return;
	}
	for (unsigned int i = 0; i < c->nbar_regs; i++) {
		struct pa_bar *b;

		if (c->bar_regs[i].upper || !sizes[i].size)
			continue;
		b = &d->bars[d->nbars++];
		*b = (struct pa_bar){ .index = (uint8_t)i, .size = sizes[i].size,
				      .flags = sizes[i].flags ? sizes[i].flags :
					       c->bar_regs[i].flags };
		if (sizes[i].unassigned)
			b->flags |= PCIEAUDIT_BAR_F_UNASSIGNED;
		bar_place(c, i, &sizes[i], is_vf(c, s), b);
		b->resizable = c->rebar[i];
		b->rebar_cap = c->rebar_cap[i];
		b->rebar_ctrl = c->rebar_ctrl[i];
	}
}

static void fill_iommu(const struct pa_sysfs_dev *s, struct pa_device *d)
{
	long group;

	if (!number(s->iommu_group, 0, UINT32_MAX, &group))
		return;
	d->has_iommu = true;
	d->iommu.group = (uint32_t)group;
	if (s->iommu_type) {
		char type[16] = "";

		strncpy(type, s->iommu_type, sizeof(type) - 1);
		type[strcspn(type, "\n")] = '\0';
		d->iommu.def_domain = pa_domain_type_value(type);
		if (!d->iommu.def_domain)
			d->iommu.def_domain = PCIEAUDIT_DOMAIN_UNKNOWN;
		/* sysfs shows the kernel's own default domain. */
		d->iommu.def_domain_source = PCIEAUDIT_SOURCE_KERNEL;
	}
}

static int dup_name(const char *text, char **out)
{
	*out = NULL;
	if (!text)
		return 0;
	*out = strndup(text, strcspn(text, "\n"));
	return *out ? 0 : -ENOMEM;
}

/* A BDF as a file holds it: the name, maybe a newline. */
static bool bdf_text(const char *text, struct pa_addr *addr)
{
	char name[PA_BDF_LEN + 1];
	size_t n = text ? strcspn(text, "\n") : sizeof(name);

	if (n >= sizeof(name))
		return false;
	memcpy(name, text, n);
	name[n] = '\0';
	return pa_bdf_parse(name, addr) == 0;
}

/* A bridge lspci -t drew that the input lacks: its place, nothing more. */
static void placeholder_of(const struct pa_sysfs_dev *s, struct pa_device *d)
{
	d->config_not_captured = true;
	d->config_unreadable = true;
	d->driver_unknown = true;
	d->flags = PCIEAUDIT_DEV_F_BRIDGE;
	d->has_secondary_bus = true;
	d->secondary_bus = s->secondary;
	d->has_upstream = parent_of(s->path, &d->upstream);
	d->has_root_bus = root_bus_of(s->path, &d->root_bus);
}

/* lspci text without the capabilities' registers: what they hold is
 * unknown, the type too where even the Express capability is hidden. */
static void hide_caps(struct pa_device *d)
{
	d->caps_unknown = d->pcie_type >= 0 ? PA_CAPS_NOT_PRINTED :
					      PA_CAPS_ACCESS_DENIED;
	d->has_acs = false;
	d->has_link = false;
	d->caps_known = false;
	d->has_ats = false;		/* unknown, as caps_known says */
	d->has_expdev = false;
	d->bars_unknown = false;
	d->nbars = 0;
	if (d->pcie_type < 0)
		d->config_unreadable = true;
}

static int device_of(const struct pa_sysfs_dev *s, struct pa_device *d)
{
	struct pa_config c;
	long numa;
	int err;

	if (s->placeholder) {
		placeholder_of(s, d);
		return 0;
	}
	pa_config_parse(s->config, s->config_len, &c);
	fill_from_config(&c, d);
	fill_caps(&c, s, d);
	d->vendor = (uint16_t)id(s, PA_ATTR_VENDOR, c.vendor, 0xffff);
	d->device = (uint16_t)id(s, PA_ATTR_DEVICE, c.device, 0xffff);
	d->subsys_vendor = (uint16_t)id(s, PA_ATTR_SUBSYS_VENDOR,
					c.subsys_vendor, 0xffff);
	d->subsys_device = (uint16_t)id(s, PA_ATTR_SUBSYS_DEVICE,
					c.subsys_device, 0xffff);
	d->class = id(s, PA_ATTR_CLASS, c.class, 0xffffff);
	d->revision = (uint8_t)id(s, PA_ATTR_REVISION, c.revision, 0xff);
	d->numa_node = number(s->attrs[PA_ATTR_NUMA_NODE], -1, 0xffff, &numa) ?
		       (int32_t)numa : -1;
	d->has_upstream = parent_of(s->path, &d->upstream);
	d->has_root_bus = root_bus_of(s->path, &d->root_bus);
	d->has_pf = bdf_text(s->physfn, &d->pf);
	if (d->has_pf)
		d->flags |= PCIEAUDIT_DEV_F_VIRTFN;
	fill_iommu(s, d);
	if (c.valid && !c.all_ones) {
		err = pa_passthru_fill(&c, s->resource, s->reset_method,
				       s->reset_file, s->sriov_numvfs, &d->pt);
		if (err)
			return err;
	}
	d->driver_unknown = s->driver_unknown;
	if (s->caps_hidden)
		hide_caps(d);
	return dup_name(s->driver, &d->driver);
}

void pa_derive_iommu_strict(struct pa_report *rep)
{
	size_t dma = 0, fq = 0;
	struct pa_info *in = &rep->info;

	for (size_t i = 0; i < rep->ndevices; i++) {
		uint32_t t = rep->devices[i].iommu.def_domain;

		dma += t == PCIEAUDIT_DOMAIN_DMA;
		fq += t == PCIEAUDIT_DOMAIN_DMA_FQ;
	}
	if (dma + fq == 0)
		return;
	in->iommu_strict = PCIEAUDIT_IOMMU_STRICT_UNKNOWN;
	if (fq)
		in->iommu_strict = PCIEAUDIT_IOMMU_STRICT_LAZY;
	else if (pa_kernel_has_dma_fq(in->kernel_release))
		in->iommu_strict = PCIEAUDIT_IOMMU_STRICT_STRICT;
}

/* The kernel's default: the type most groups have; strictness from the
 * translated ones. */
static void derive_info(struct pa_report *rep)
{
	size_t identity = 0, dma = 0, fq = 0;
	struct pa_info *in = &rep->info;

	for (size_t i = 0; i < rep->ndevices; i++) {
		uint32_t t = rep->devices[i].iommu.def_domain;

		identity += t == PCIEAUDIT_DOMAIN_IDENTITY;
		dma += t == PCIEAUDIT_DOMAIN_DMA;
		fq += t == PCIEAUDIT_DOMAIN_DMA_FQ;
	}
	in->device_count = (uint32_t)rep->ndevices;
	in->group_count = (uint32_t)rep->ngroups;
	if (rep->ngroups)
		in->features |= PCIEAUDIT_F_IOMMU_PRESENT;
	if (identity + dma + fq == 0)
		return;
	in->iommu_def_mode = identity > dma + fq ?
		PCIEAUDIT_IOMMU_MODE_PASSTHROUGH : PCIEAUDIT_IOMMU_MODE_TRANSLATED;
	in->iommu_strict = PCIEAUDIT_IOMMU_STRICT_UNKNOWN;
	pa_derive_iommu_strict(rep);
}

/* What the input lacks for this function, said once per function. */
static int check_input(struct pa_report *rep, const struct pa_sysfs_dev *s,
		       const struct pa_device *d)
{
	struct pa_warnings *w = &rep->warnings;
	const char *name = s->name;
	struct pa_addr self;
	size_t start;

	if (s->path && path_len(s->path) != strlen(s->path))
		return pa_warn(w, "%s: its sysfs path ends in '/' (%s): read as without it",
			       name, s->path);
	if (s->path && (!component_before(s->path, strlen(s->path), &self, &start) ||
			!pa_addr_eq(&self, &d->addr)))
		return pa_warn(w, "%s: its sysfs path %s does not end in its own address: its parent bridge is unknown",
			       name, s->path);
	if (s->ids_unknown &&
	    pa_warn(w, "%s: lspci printed names without -nn's ids, which this host's pci.ids does not tell apart (a name two devices share, or one it lacks): its vendor and device ids are unknown (lspci -nn prints them)",
		    name))
		return -ENOMEM;
	if (s->class_unknown &&
	    pa_warn(w, "%s: lspci printed a class name without -nn's code that this host's pci.ids does not tell: its class is unknown (lspci -nn prints it)",
		    name))
		return -ENOMEM;
	if (d->caps_unknown)
		return pa_warn(w, "%s: %s: its type, link and ACS are unknown",
			       name, pa_device_acs_unknown(d));
	if (d->config_not_captured)
		return pa_warn(w, "%s: not in the input; lspci -t draws it as the bridge to bus %02x above captured functions (a filtered capture?), so it is placed there, its configuration unknown",
			       name, s->secondary);
	if (d->config_unreadable)
		return pa_warn(w, "%s: configuration space reads all ones (D3cold or gone): its type, link and ACS are unknown",
			       name);
	if (d->no_extended_config)
		return pa_warn(w, "%s: a PCIe function with 256 bytes of configuration space, no extended space: its ACS is unknown",
			       name);
	return 0;
}

/* Every bridge the input names as a parent should be in it. */
static int check_parents(struct pa_report *rep)
{
	char bdf[PA_BDF_LEN], up[PA_BDF_LEN];
	int err = 0;

	for (size_t i = 0; !err && i < rep->ndevices; i++) {
		const struct pa_device *d = &rep->devices[i];

		if (!d->has_upstream || pa_report_find(rep, &d->upstream))
			continue;
		pa_bdf_format(&d->addr, bdf);
		pa_bdf_format(&d->upstream, up);
		err = pa_warn(&rep->warnings, "%s: its parent bridge %s is not in the input: the path above it is incomplete",
			      bdf, up);
	}
	return err;
}

static int add_device(struct pa_report *rep, const struct pa_sysfs_dev *s)
{
	struct pa_device d = { .pcie_type = -1, .numa_node = -1 };
	int err;

	if (!bdf_text(s->name, &d.addr))
		return 0;
	err = device_of(s, &d);
	if (!err)
		err = check_input(rep, s, &d);
	if (!err)
		err = pa_report_add_device(rep, &d);
	if (err)
		pa_device_clear(&d);
	return err;
}

int pa_sysfs_model(const struct pa_sysfs *s, struct pa_report *rep)
{
	int err = 0;

	*rep = (struct pa_report){ 0 };
	if (s->kernel_release) {
		rep->info.kernel_release = strndup(s->kernel_release,
			strcspn(s->kernel_release, "\n"));
		err = rep->info.kernel_release ? 0 : -ENOMEM;
	}
	for (size_t i = 0; !err && i < s->n; i++)
		err = add_device(rep, &s->devs[i]);
	if (!err)
		err = pa_report_groups_from_devices(rep);
	if (err) {
		pa_report_clear(rep);
		return err;
	}
	derive_info(rep);
	pa_report_sort(rep);
	err = check_parents(rep);
	if (err)
		pa_report_clear(rep);
	return err;
}
