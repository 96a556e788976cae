// SPDX-License-Identifier: GPL-2.0
#include "vfio_facts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

/* ---- Interrupt remapping ------------------------------------------------- */

static const struct pa_param *intremap_off(const struct pa_check *c)
{
	const struct pa_param *p;

	if (!c->has_cmdline)
		return NULL;
	p = pa_cmdline_last(&c->cmdline, "nointremap");
	if (p)
		return p;
	p = pa_cmdline_last(&c->cmdline, "intremap");
	return p && p->value && !strcmp(p->value, "off") ? p : NULL;
}

void pa_vfio_intremap_state(const struct pa_check *c,
			    struct pa_vfio_intremap *ir)
{
	const struct pa_host *h = &c->rep->host;

	*ir = (struct pa_vfio_intremap){ 0 };
	ir->off = intremap_off(c);
	ir->allow_unsafe = c->rep->has_host ? h->allow_unsafe : 0;
	if (c->rep->has_host && h->intremap) {
		ir->state = h->intremap;
		snprintf(ir->buf, sizeof(ir->buf), "%s%s", h->intremap_how ?
			 h->intremap_how : "the host's facts",
			 ir->off && h->intremap == PA_INTREMAP_OFF ? ", " : "");
		if (ir->off && h->intremap == PA_INTREMAP_OFF)
			strncat(ir->buf, ir->off->text,
				sizeof(ir->buf) - strlen(ir->buf) - 1);
		ir->how = ir->buf;
	} else if (ir->off) {
		ir->state = PA_INTREMAP_OFF;
		ir->how = ir->off->text;
	} else {
		ir->how = "interrupt remapping unknown: the input has no /proc/interrupts chip and no kernel log line that says, and the command line does not turn it off";
	}
}

/* ---- Reset --------------------------------------------------------------- */

static bool same_group(const struct pa_device *a, const struct pa_device *b)
{
	return a->has_iommu && b->has_iommu && a->iommu.group == b->iommu.group;
}

/* The functions a reset of the bridge above d also resets, outside d's
 * group; false when d has no bridge above (a root bus: no bus reset). */
static bool bus_siblings(const struct pa_report *rep, const struct pa_device *d,
			 struct pa_addr_list *outside, bool *any, int *err)
{
	*any = false;
	if (!d->has_upstream || (d->flags & PCIEAUDIT_DEV_F_VIRTFN))
		return false;
	for (size_t i = 0; i < rep->ndevices; i++) {
		const struct pa_device *o = &rep->devices[i];

		if (o == d || !o->has_upstream ||
		    !pa_addr_eq(&o->upstream, &d->upstream))
			continue;
		*any = true;
		if (!same_group(o, d) && pa_addr_list_add(outside, &o->addr))
			*err = -ENOMEM;
	}
	return true;
}

/* sysfs reset_method's words: any but a bus reset is the function's own. */
static void method_words(const char *text, bool *bus, bool *own)
{
	char word[32];

	*bus = *own = false;
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, " \t\n");

		if (n && n < sizeof(word)) {
			memcpy(word, p, n);
			word[n] = '\0';
			if (!strcmp(word, "bus") || !strcmp(word, "cxl_bus"))
				*bus = true;
			else
				*own = true;
		}
		p += n;
		p += strspn(p, " \t\n");
	}
}

/* Older kernels (no reset_method): FLR in DevCap, AF's FLR, PM without
 * No_Soft_Reset, from configuration space. */
static bool derived_own(const struct pa_device *d, char *buf, size_t len)
{
	bool flr = d->caps_known && d->has_expdev &&
		   (d->devcap & PCI_EXP_DEVCAP_FLR);

	snprintf(buf, len, "%s%s%s", flr ? "flr " : "",
		 d->pt.af_flr == 1 ? "af " : "",
		 d->pt.no_soft_reset == 0 ? "pm " : "");
	if (*buf)
		buf[strlen(buf) - 1] = '\0';
	return *buf != '\0';
}

int pa_vfio_reset_of(const struct pa_report *rep, const struct pa_device *d,
		     struct pa_vfio_reset *r)
{
	const struct pa_passthru *pt = &d->pt;
	bool bus = false, own = false, any = false, bridge;
	char own_text[32];
	int err = 0;

	*r = (struct pa_vfio_reset){ 0 };
	if (pt->known && pt->reset_method) {
		method_words(pt->reset_method, &bus, &own);
		snprintf(r->methods, sizeof(r->methods), "reset_method %s",
			 *pt->reset_method ? pt->reset_method : "empty");
	} else if (pt->known && pt->reset_file == 0) {
		/* sysfs shows reset (and reset_method) only where the kernel
		 * has a method (pci_reset_supported()). */
		snprintf(r->methods, sizeof(r->methods), "no sysfs reset file");
	} else if (pt->known && derived_own(d, own_text, sizeof(own_text))) {
		own = true;
		snprintf(r->methods, sizeof(r->methods), "%s in configuration space",
			 own_text);
	} else if (pt->known && pt->reset_file == 1) {
		/* A device-specific or ACPI reset, or the bus alone. */
		own = true;
		snprintf(r->methods, sizeof(r->methods), "sysfs reset, no FLR or PM reset");
	} else {
		r->kind = PA_VFIO_RESET_UNKNOWN;
		snprintf(r->methods, sizeof(r->methods), pt->known ?
			 "no FLR, AF or PM reset in configuration space; sysfs reset unknown" :
			 "not in the input");
		return 0;
	}
	if (own) {
		r->kind = PA_VFIO_RESET_OK;
		return 0;
	}
	if (bus) {
		/* The kernel lists bus only for a function alone on it. */
		r->kind = PA_VFIO_RESET_BUS;
		return 0;
	}
	/* No method of its own: VFIO's hot reset resets the bus, and needs
	 * every function on it owned by the same user. */
	bridge = bus_siblings(rep, d, &r->sharing, &any, &err);
	if (err)
		return err;
	r->kind = !bridge || !any ? PA_VFIO_RESET_NONE :
		  r->sharing.n ? PA_VFIO_RESET_BUS_SHARED : PA_VFIO_RESET_BUS;
	return 0;
}

/* ---- SR-IOV and BARs ----------------------------------------------------- */

bool pa_vfio_sriov_needs_ari(const struct pa_device *d, unsigned int *last)
{
	const struct pa_passthru *pt = &d->pt;

	if (!pt->known || !pt->has_sriov || !pt->total_vfs)
		return false;
	if (pt->vf_offset)
		*last = d->addr.devfn + pt->vf_offset +
			(unsigned int)pt->vf_stride * (pt->total_vfs - 1u);
	else
		*last = d->addr.devfn + pt->total_vfs;
	return *last > 7;
}

enum pa_vfio_bar_place pa_vfio_bar_place(const struct pa_bar *b)
{
	if (!(b->flags & PCIEAUDIT_BAR_F_MEM64) ||
	    !(b->flags & PCIEAUDIT_BAR_F_PREFETCH) || b->size < PA_VFIO_LARGE_BAR)
		return PA_VFIO_BAR_SMALL;
	if (b->flags & PCIEAUDIT_BAR_F_UNASSIGNED)
		return PA_VFIO_BAR_FAILED;
	if (!b->has_start)
		return PA_VFIO_BAR_UNKNOWN;
	return b->start + b->size <= (1ull << 32) ? PA_VFIO_BAR_BELOW :
						      PA_VFIO_BAR_ABOVE;
}

/* ---- vfio-pci.ids= ------------------------------------------------------- */

static void parse_ids(const char *text, struct pa_vfio_ids *ids)
{
	for (const char *p = text; *p && ids->n < PA_VFIO_MAX_IDS;) {
		struct pa_vfio_id id = { .subvendor = 0xffffffff,
					 .subdevice = 0xffffffff };
		int n = sscanf(p, "%x:%x:%x:%x", &id.vendor, &id.device,
			       &id.subvendor, &id.subdevice);

		/* vfio_pci_fill_ids() skips what it cannot parse. */
		if (n >= 2)
			ids->id[ids->n++] = id;
		p += strcspn(p, ",");
		p += *p == ',';
	}
}

int pa_vfio_ids_get(const struct pa_check *c, struct pa_vfio_ids *ids)
{
	const struct pa_param *p = c->has_cmdline ?
		pa_cmdline_last(&c->cmdline, "vfio_pci.ids") : NULL;
	const char *mod = c->rep->has_host ? c->rep->host.vfio_pci_ids : NULL;

	*ids = (struct pa_vfio_ids){ .known = c->has_cmdline || mod };
	if (p && p->value) {
		ids->text = p->text;
		parse_ids(p->value, ids);
	}
	if (mod && *mod) {
		if (!ids->text) {
			ids->owned = malloc(strlen(mod) + 16);
			if (!ids->owned)
				return -ENOMEM;
			sprintf(ids->owned, "vfio_pci ids=%s", mod);
			ids->text = ids->owned;
		}
		parse_ids(mod, ids);
	}
	return 0;
}

static bool id_eq(uint32_t want, uint16_t have)
{
	return want == 0xffffffff || want == have;
}

bool pa_vfio_ids_match(const struct pa_vfio_ids *ids, const struct pa_device *d)
{
	for (size_t i = 0; i < ids->n; i++) {
		const struct pa_vfio_id *id = &ids->id[i];

		if (id_eq(id->vendor, d->vendor) && id_eq(id->device, d->device) &&
		    id_eq(id->subvendor, d->subsys_vendor) &&
		    id_eq(id->subdevice, d->subsys_device))
			return true;
	}
	return false;
}

void pa_vfio_ids_clear(struct pa_vfio_ids *ids)
{
	free(ids->owned);
	*ids = (struct pa_vfio_ids){ 0 };
}
