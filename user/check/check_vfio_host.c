// SPDX-License-Identifier: GPL-2.0
/*
 * vfio: what stops a passthrough beyond isolation, in the order people meet
 * it: interrupt remapping (vfio_iommu_type1 refuses to attach without it),
 * the candidates' reset methods, SR-IOV resources and ARI, large BARs
 * below 4 GiB, and vfio-pci.ids= that a host driver beat to the device.
 * Facts the input does not hold are unknown: the rule is skipped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "bdf.h"
#include "check.h"
#include "strbuf.h"
#include "vfio_facts.h"

/* ---- Interrupt remapping ------------------------------------------------- */

static struct pa_remedy intremap_remedy(const struct pa_check *c,
					const struct pa_param *off)
{
	if (off)
		return (struct pa_remedy){ PA_REMEDY_CMDLINE_REMOVE, off->text };
	if (c->rep->host.hypervisor == 1)
		return (struct pa_remedy){ PA_REMEDY_HYPERVISOR,
			"give the VM an IOMMU that remaps interrupts (QEMU: -device intel-iommu,intremap=on with -machine kernel-irqchip=split)" };
	return (struct pa_remedy){ PA_REMEDY_BIOS,
		"enable interrupt remapping in the firmware setup (with VT-d or AMD-Vi, and x2APIC)" };
}

static void check_intremap(struct pa_check *c)
{
	struct pa_vfio_intremap ir;

	pa_vfio_intremap_state(c, &ir);
	if (ir.state == PA_INTREMAP_UNKNOWN) {
		pa_check_skip(c, PA_VFIO_INTREMAP, "%s", ir.how);
		return;
	}
	if (ir.state == PA_INTREMAP_ON) {
		pa_check_note(c, PA_VFIO_INTREMAP, "on (%s)", ir.how);
		return;
	}
	if (ir.allow_unsafe == PA_INTREMAP_ON)
		pa_check_add(c, PA_VFIO_INTREMAP, PA_SEV_WARN, NULL, 0,
			     intremap_remedy(c, ir.off),
			     "interrupt remapping is off (%s), and vfio_iommu_type1.allow_unsafe_interrupts=Y lets VFIO attach without it: a passed-through device can raise any interrupt on the host",
			     ir.how);
	else
		pa_check_add(c, PA_VFIO_INTREMAP, 0, NULL, 0,
			     intremap_remedy(c, ir.off),
			     "interrupt remapping is off (%s): vfio_iommu_type1 refuses to attach a group (VFIO_SET_IOMMU fails: \"No interrupt remapping support\")",
			     ir.how);
}

/* ---- Reset --------------------------------------------------------------- */

static void check_reset(struct pa_check *c, const struct pa_device *d,
			size_t *unknown)
{
	struct pa_vfio_reset r;
	struct pa_sb sb = { 0 };
	char bdf[PA_BDF_LEN], *text;
	struct pa_addr_list devs = { 0 };

	if (pa_vfio_reset_of(c->rep, d, &r)) {
		c->err = -ENOMEM;
		return;
	}
	if (r.kind == PA_VFIO_RESET_UNKNOWN)
		(*unknown)++;
	if (r.kind != PA_VFIO_RESET_NONE && r.kind != PA_VFIO_RESET_BUS_SHARED) {
		pa_addr_list_clear(&r.sharing);
		return;
	}
	pa_bdf_format(&d->addr, bdf);
	if (pa_addr_list_add(&devs, &d->addr))
		c->err = -ENOMEM;
	for (size_t i = 0; i < r.sharing.n; i++)
		if (pa_addr_list_add(&devs, &r.sharing.addrs[i]))
			c->err = -ENOMEM;
	if (r.kind == PA_VFIO_RESET_NONE) {
		pa_sb_printf(&sb, "%s %s has no reset method (%s): VFIO cannot reset it between guests, and a guest finds it as the last one left it",
			     pa_check_noun(d), bdf, r.methods);
	} else {
		pa_sb_printf(&sb, "%s %s resets only by a secondary bus reset (%s), which also resets ",
			     pa_check_noun(d), bdf, r.methods);
		pa_sb_bdfs(&sb, r.sharing.addrs, r.sharing.n);
		pa_sb_printf(&sb, ", outside its IOMMU group: VFIO cannot reset it while they are in use");
	}
	text = pa_sb_take(&sb);
	if (text && !c->err)
		pa_check_add(c, PA_VFIO_NO_RESET, 0, devs.addrs, devs.n,
			     (struct pa_remedy){ PA_REMEDY_HARDWARE, r.kind == PA_VFIO_RESET_NONE ?
				"use a device with Function Level Reset, or give it to one guest for the host's uptime" :
				"move it to a slot of its own, or give every device below that bridge to the same guest" },
			     "%s", text);
	else if (!text)
		c->err = -ENOMEM;
	free(text);
	pa_addr_list_clear(&devs);
	pa_addr_list_clear(&r.sharing);
}

/* ---- SR-IOV -------------------------------------------------------------- */

static bool has_cmdline_option(const struct pa_check *c, const char *name,
			       const char *option, const struct pa_param **p)
{
	*p = c->has_cmdline ? pa_cmdline_option(&c->cmdline, name, option) : NULL;
	return *p != NULL;
}

static void check_sriov(struct pa_check *c, const struct pa_device *d,
			size_t *pfs, size_t *unknown, size_t *not_read)
{
	const struct pa_passthru *pt = &d->pt;
	const struct pa_device *port;
	const struct pa_param *p;
	char bdf[PA_BDF_LEN], pbdf[PA_BDF_LEN];
	unsigned int last;

	if (!pt->known || d->no_extended_config)
		(*not_read)++;
	if (!pt->known || !pt->has_sriov)
		return;
	(*pfs)++;
	pa_bdf_format(&d->addr, bdf);
	if (pt->vf_bars_assigned < 0)
		(*unknown)++;
	if (pt->vf_bars_assigned == 0)
		pa_check_add(c, PA_VFIO_SRIOV_RESOURCES, 0, &d->addr, 1,
			     (struct pa_remedy){ PA_REMEDY_BIOS,
				"enable SR-IOV (and Above 4G Decoding) in the firmware setup, which reserves the VF BARs' space; pci=realloc lets the kernel grow the bridge windows where there is room" },
			     "%s %s has SR-IOV (%u VFs), but its VF BARs got no address space: writing sriov_numvfs fails (-ENOMEM)",
			     pa_check_noun(d), bdf, pt->total_vfs);
	if (!pa_vfio_sriov_needs_ari(d, &last))
		return;
	port = pa_report_upstream(c->rep, d);
	if (!port || (port->pcie_type != PCI_EXP_TYPE_ROOT_PORT &&
		      port->pcie_type != PCI_EXP_TYPE_DOWNSTREAM))
		return;
	if (!port->pt.known || !port->pt.has_devcap2) {
		(*unknown)++;
		return;
	}
	if (port->pt.devctl2 & PCI_EXP_DEVCTL2_ARI)
		return;
	pa_bdf_format(&port->addr, pbdf);
	pa_check_add(c, PA_VFIO_SRIOV_RESOURCES, 0,
		     (struct pa_addr[]){ d->addr, port->addr }, 2,
		     !(port->pt.devcap2 & PCI_EXP_DEVCAP2_ARI) ?
		     (struct pa_remedy){ PA_REMEDY_HARDWARE,
			"move the device below a port that supports ARI Forwarding, or enable at most the VFs that fit in device 0's functions" } :
		     has_cmdline_option(c, "pci", "noari", &p) ?
		     (struct pa_remedy){ PA_REMEDY_CMDLINE_REMOVE, p->text } :
		     (struct pa_remedy){ PA_REMEDY_COMMAND,
			"the kernel enables ARI Forwarding when the function below has an ARI capability: check the device's firmware" },
		     "%s %s has %u VFs reaching devfn %02x.%u, beyond device 0, but %s %s above it has ARI Forwarding off%s: VFs past function 7 are unreachable",
		     pa_check_noun(d), bdf, pt->total_vfs, (last & 0xff) >> 3,
		     last & 7, pa_check_noun(port), pbdf,
		     port->pt.devcap2 & PCI_EXP_DEVCAP2_ARI ? "" : " (not supported)");
}

/* ---- BARs ---------------------------------------------------------------- */

static void check_bars(struct pa_check *c, const struct pa_device *d,
		       size_t *unknown)
{
	char bdf[PA_BDF_LEN];

	if (!d->caps_known || d->bars_unknown || d->config_unreadable) {
		(*unknown)++;
		return;
	}
	pa_bdf_format(&d->addr, bdf);
	for (size_t i = 0; i < d->nbars; i++) {
		const struct pa_bar *b = &d->bars[i];
		enum pa_vfio_bar_place place = pa_vfio_bar_place(b);

		if (place == PA_VFIO_BAR_UNKNOWN)
			(*unknown)++;
		if (place != PA_VFIO_BAR_BELOW && place != PA_VFIO_BAR_FAILED)
			continue;
		pa_check_add(c, PA_VFIO_BAR_BELOW_4G, 0, &d->addr, 1,
			     c->rep->host.hypervisor == 1 ?
			     (struct pa_remedy){ PA_REMEDY_HYPERVISOR,
				"give the VM a 64-bit PCI hole large enough for the BAR (QEMU q35: -global q35-pcihost.pci-hole64-size=)" } :
			     (struct pa_remedy){ PA_REMEDY_BIOS,
				"enable Above 4G Decoding (and Resizable BAR) in the firmware setup" },
			     place == PA_VFIO_BAR_FAILED ?
			     "%s %s's 64-bit prefetchable BAR %u (%llu MiB) got no address space: there was no room for it (above 4 GiB)" :
			     "%s %s's 64-bit prefetchable BAR %u (%llu MiB) sits below 4 GiB: the 32-bit window it crowds is small, and a guest's may not fit it",
			     pa_check_noun(d), bdf, b->index,
			     (unsigned long long)(b->size >> 20));
	}
}

/* ---- vfio-pci.ids= ------------------------------------------------------- */

static void check_ids(struct pa_check *c)
{
	struct pa_vfio_ids ids;
	size_t named = 0, unknown = 0;
	char bdf[PA_BDF_LEN], remedy[256];

	if (pa_vfio_ids_get(c, &ids)) {
		c->err = -ENOMEM;
		return;
	}
	if (!ids.known) {
		pa_check_skip(c, PA_VFIO_IDS_NOT_BOUND,
			      "the kernel command line is not in the input");
		return;
	}
	for (size_t i = 0; i < c->rep->ndevices; i++) {
		const struct pa_device *d = &c->rep->devices[i];

		if (!pa_vfio_ids_match(&ids, d))
			continue;
		named++;
		if (d->driver_unknown) {
			unknown++;
			continue;
		}
		if (!d->driver || pa_check_vfio_driver(d->driver))
			continue;
		pa_bdf_format(&d->addr, bdf);
		snprintf(remedy, sizeof(remedy),
			 "echo 'softdep %s pre: vfio-pci' >> /etc/modprobe.d/vfio.conf; update-initramfs -u (or dracut -f); reboot",
			 d->driver);
		pa_check_add(c, PA_VFIO_IDS_NOT_BOUND, 0, &d->addr, 1,
			     (struct pa_remedy){ PA_REMEDY_COMMAND, remedy },
			     "%s %s (%04x:%04x) is named by %s but bound to %s: the host driver probed it before vfio-pci loaded",
			     pa_check_noun(d), bdf, d->vendor, d->device,
			     ids.text, d->driver);
	}
	if (!ids.n)
		pa_check_note(c, PA_VFIO_IDS_NOT_BOUND, "no vfio-pci.ids=");
	else if (named == unknown && named)
		pa_check_skip(c, PA_VFIO_IDS_NOT_BOUND,
			      "the drivers of the %zu devices %s names are not in the input",
			      named, ids.text);
	else
		pa_check_note(c, PA_VFIO_IDS_NOT_BOUND, "%zu device%s named by %s",
			      named, named == 1 ? "" : "s", ids.text);
	pa_vfio_ids_clear(&ids);
}

/* ---- The checks ---------------------------------------------------------- */

static void device_notes(struct pa_check *c, enum pa_rule_id rule,
			 size_t checked, size_t unknown, const char *what)
{
	if (!checked)
		pa_check_skip(c, rule, "no %s selected", what);
	else if (unknown == checked)
		pa_check_skip(c, rule, "not in the input for the %zu %s%s (sysfs or configuration space has it)",
			      checked, what, checked == 1 ? "" : "s");
	else
		pa_check_note(c, rule, "%zu %s%s checked%s", checked, what,
			      checked == 1 ? "" : "s", unknown ? ", some unknown" : "");
}

void pa_check_vfio_host(struct pa_check *c)
{
	size_t cand = 0, reset_unknown = 0, bar_unknown = 0, pfs = 0,
	       sriov_unknown = 0, not_read = 0;

	check_intremap(c);
	for (size_t i = 0; i < c->rep->ndevices && !c->err; i++) {
		const struct pa_device *d = &c->rep->devices[i];

		if (!pa_check_selects(c, PA_PROFILE_VFIO, d) ||
		    (d->flags & PCIEAUDIT_DEV_F_BRIDGE))
			continue;
		cand++;
		check_reset(c, d, &reset_unknown);
		check_sriov(c, d, &pfs, &sriov_unknown, &not_read);
		check_bars(c, d, &bar_unknown);
	}
	device_notes(c, PA_VFIO_NO_RESET, cand, reset_unknown, "device");
	device_notes(c, PA_VFIO_BAR_BELOW_4G, cand, bar_unknown > cand ? cand : bar_unknown,
		     "device");
	if (!pfs && cand && not_read == cand)
		pa_check_skip(c, PA_VFIO_SRIOV_RESOURCES,
			      "the devices' SR-IOV capabilities are not in the input");
	else if (!pfs)
		pa_check_note(c, PA_VFIO_SRIOV_RESOURCES, "no SR-IOV device selected%s",
			      not_read ? " (some devices' capabilities unknown)" : "");
	else
		device_notes(c, PA_VFIO_SRIOV_RESOURCES, pfs,
			     sriov_unknown > pfs ? pfs : sriov_unknown, "SR-IOV device");
	check_ids(c);
}
