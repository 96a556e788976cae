// SPDX-License-Identifier: GPL-2.0
/*
 * baseline: what any PCIe host should get right: the IOMMU's state, links
 * trained to what both ends support, NUMA placement, and kernel parameters
 * that do nothing or contradict each other.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>

#include "abi_names.h"
#include "bdf.h"
#include "check.h"
#include "host.h"
#include "link.h"
#include "strbuf.h"
#include "topo.h"

/* Devices named in a message; the finding lists them all. */
#define NAMED_MAX 8

static void check_iommu(struct pa_check *c)
{
	const struct pa_info *in = &c->rep->info;
	const char *mode = pa_iommu_mode_name(in->iommu_def_mode);
	const char *strict = pa_iommu_strict_name(in->iommu_strict);
	char buf[200];

	if (pa_check_iommu_on(c->rep)) {
		pa_check_note(c, PA_BL_IOMMU_OFF, "IOMMU on: %s%s%s%s, %zu groups",
			      mode ? mode : "mode unknown", strict ? " (" : "",
			      strict ? strict : "", strict ? ")" : "",
			      c->rep->ngroups);
		return;
	}
	pa_check_add(c, PA_BL_IOMMU_OFF, 0, NULL, 0,
		     pa_check_iommu_remedy(c, buf, sizeof(buf)),
		     "no IOMMU serves the PCI devices%s. There is no DMA isolation, and no VFIO",
		     pa_check_iommu_why(c));
}

static void check_links(struct pa_check *c)
{
	const struct pa_report *rep = c->rep;
	size_t checked = 0;

	for (size_t i = 0; i < rep->ndevices; i++) {
		const struct pa_device *d = &rep->devices[i];
		char bdf[PA_BDF_LEN], got[PA_SPEED_TEXT_LEN], want[PA_SPEED_TEXT_LEN];
		struct pa_link_state st;
		unsigned int width;
		bool speed_only, idle;
		double speed;

		if (!d->has_link || !pa_check_selects(c, PA_PROFILE_BASELINE, d))
			continue;
		checked++;
		if (!pa_check_link_below(rep, d, &speed, &width, &speed_only))
			continue;
		idle = speed_only && pa_class_kind(d->class) == PA_KIND_GPU;
		pa_link_decode(&d->link, &st);
		pa_bdf_format(&d->addr, bdf);
		pa_link_format_speed(st.speed, got);
		pa_link_format_speed(speed, want);
		pa_check_add(c, PA_BL_LINK_DOWNGRADED, idle ? PA_SEV_INFO : 0,
			     &d->addr, 1, (struct pa_remedy){ PA_REMEDY_HARDWARE,
			     "reseat the card; check the slot, the riser and the firmware's PCIe speed setting" },
			     "%s %s trained %s x%u though both ends support %s x%u%s",
			     pa_check_noun(d), bdf, got, st.width, want, width,
			     idle ? "; GPUs lower their link speed when idle, so check again under load" : "");
	}
	pa_check_note(c, PA_BL_LINK_DOWNGRADED, "%zu link%s checked", checked,
		      checked == 1 ? "" : "s");
}

static void check_numa(struct pa_check *c)
{
	const struct pa_report *rep = c->rep;
	struct pa_addr_list devs = { 0 };
	struct pa_sb sb = { 0 };
	int nodes = rep->has_host ? rep->host.numa_nodes : -1;
	char *text;

	if (nodes < 1) {
		pa_check_skip(c, PA_BL_NUMA_UNKNOWN, "the number of NUMA nodes is unknown");
		return;
	}
	pa_check_note(c, PA_BL_NUMA_UNKNOWN, "%d NUMA node%s", nodes,
		      nodes == 1 ? "" : "s");
	if (nodes == 1)
		return;
	for (size_t i = 0; i < rep->ndevices; i++) {
		const struct pa_device *d = &rep->devices[i];

		/* Bridges, host bridges too (class 06), do no DMA of their own. */
		if (d->numa_node < 0 && d->class >> 16 != 0x06 &&
		    pa_check_selects(c, PA_PROFILE_BASELINE, d) &&
		    pa_addr_list_add(&devs, &d->addr))
			c->err = -ENOMEM;
	}
	if (devs.n) {
		size_t named = devs.n < NAMED_MAX ? devs.n : NAMED_MAX;

		pa_sb_bdfs(&sb, devs.addrs, named);
		if (devs.n > named)
			pa_sb_printf(&sb, " and %zu more", devs.n - named);
		text = pa_sb_take(&sb);
		if (!text)
			c->err = -ENOMEM;
		else
			pa_check_add(c, PA_BL_NUMA_UNKNOWN, 0, devs.addrs, devs.n,
				     (struct pa_remedy){ PA_REMEDY_BIOS,
				     "enable NUMA locality reporting for PCIe (ACPI SRAT/_PXM, often \"NUMA nodes per socket\" or \"ACPI SRAT L3 cache as NUMA domain\") or update the firmware" },
				     "%zu function%s report NUMA node -1 on a host with %d nodes: %s",
				     devs.n, devs.n == 1 ? "" : "s", nodes, text);
		free(text);
	}
	pa_addr_list_clear(&devs);
}

/* One parameter, whose removal is the remedy. */
static void flag_param(struct pa_check *c, enum pa_rule_id rule,
		       const struct pa_param *p, const char *why)
{
	if (!p)
		return;
	pa_check_add(c, rule, 0, NULL, 0,
		     (struct pa_remedy){ PA_REMEDY_CMDLINE_REMOVE, p->text },
		     "%s is on the kernel command line: %s", p->text, why);
}

static const struct pa_param *passthrough(const struct pa_cmdline *cl)
{
	const struct pa_param *p = pa_cmdline_option(cl, "iommu", "pt");
	const struct pa_param *q = pa_cmdline_last(cl, "iommu.passthrough");

	return p ? p : q && pa_cmdline_true(q->value) ? q : NULL;
}

static const struct pa_param *not_passthrough(const struct pa_cmdline *cl)
{
	const struct pa_param *p = pa_cmdline_option(cl, "iommu", "nopt");
	const struct pa_param *q = pa_cmdline_last(cl, "iommu.passthrough");

	return p ? p : q && !pa_cmdline_true(q->value) ? q : NULL;
}

static const struct pa_param *turned_off(const struct pa_cmdline *cl)
{
	const struct pa_param *p = pa_cmdline_option(cl, "iommu", "off");

	if (!p)
		p = pa_cmdline_option(cl, "intel_iommu", "off");
	return p ? p : pa_cmdline_option(cl, "amd_iommu", "off");
}

static void conflict(struct pa_check *c, const struct pa_param *a,
		     const struct pa_param *b, const char *why)
{
	if (!a || !b)
		return;
	pa_check_add(c, PA_BL_IOMMU_PARAMS_CONFLICT, 0, NULL, 0,
		     (struct pa_remedy){ PA_REMEDY_CMDLINE_REMOVE, a->text },
		     "%s and %s are both on the kernel command line: %s",
		     a->text, b->text, why);
}

static void check_conflicts(struct pa_check *c)
{
	const struct pa_cmdline *cl = &c->cmdline;

	conflict(c, passthrough(cl), turned_off(cl),
		 "passthrough needs an IOMMU, which the other turns off (drop that one instead to keep passthrough)");
	conflict(c, passthrough(cl), not_passthrough(cl),
		 "they ask for passthrough and for translation; only the one the kernel parses last counts");
	conflict(c, pa_cmdline_option(cl, "intel_iommu", "on"),
		 pa_cmdline_option(cl, "intel_iommu", "off"),
		 "only the one the kernel parses last counts");
}

/*
 * Which IOMMU driver can bind is decided by the firmware's ACPI table (DMAR
 * for VT-d, IVRS for AMD-Vi), not the CPU: a VM may show an AMD CPU and a
 * VT-d IOMMU. The CPU vendor decides only when the table is not known.
 */
static void check_vendor(struct pa_check *c)
{
	const struct pa_report *rep = c->rep;
	const char *table = rep->has_host ? rep->host.iommu_table : NULL;
	bool intel = pa_check_cpu_is(rep, PA_CPU_INTEL);
	bool amd = pa_check_cpu_is(rep, PA_CPU_AMD) ||
		   pa_check_cpu_is(rep, PA_CPU_HYGON);

	if (table && (!strcmp(table, "DMAR") || !strcmp(table, "IVRS"))) {
		intel = !strcmp(table, "DMAR");
		amd = !intel;
	}
	if (!intel && !amd) {
		pa_check_skip(c, PA_BL_IOMMU_PARAM_VENDOR, "the CPU vendor is unknown");
		return;
	}
	flag_param(c, PA_BL_IOMMU_PARAM_VENDOR,
		   intel ? pa_cmdline_last(&c->cmdline, "amd_iommu") :
			   pa_cmdline_last(&c->cmdline, "intel_iommu"),
		   intel ? "amd_iommu= does nothing without an AMD IOMMU (this host has Intel VT-d or an Intel CPU)" :
			   "intel_iommu= does nothing without Intel VT-d (this host has an AMD IOMMU or an AMD CPU)");
}

static void check_cmdline(struct pa_check *c)
{
	static const enum pa_rule_id rules[] = {
		PA_BL_AMD_IOMMU_ON, PA_BL_PCI_NOACS, PA_BL_ACS_OVERRIDE,
		PA_BL_IOMMU_PARAMS_CONFLICT, PA_BL_IOMMU_PARAM_VENDOR,
	};
	const struct pa_cmdline *cl = &c->cmdline;

	for (size_t r = 0; r < sizeof(rules) / sizeof(rules[0]); r++) {
		if (c->has_cmdline)
			pa_check_note(c, rules[r], "%zu parameters read", cl->n);
		else
			pa_check_skip(c, rules[r], "the kernel command line is unknown");
	}
	if (!c->has_cmdline)
		return;
	flag_param(c, PA_BL_AMD_IOMMU_ON, pa_cmdline_option(cl, "amd_iommu", "on"),
		   "not a value amd_iommu= accepts; the kernel logs \"AMD-Vi: Unknown option - 'on'\" and ignores it");
	flag_param(c, PA_BL_PCI_NOACS, pa_cmdline_option(cl, "pci", "noacs"),
		   "no such option; the kernel logs \"PCI: Unknown option `noacs'\" and changes nothing (remove only noacs from a list of pci= options)");
	flag_param(c, PA_BL_ACS_OVERRIDE, pa_cmdline_last(cl, "pcie_acs_override"),
		   "a mainline kernel ignores it; a patched one (Proxmox, linux-zen) splits IOMMU groups the hardware does not isolate");
	check_conflicts(c);
	check_vendor(c);
}

void pa_check_baseline(struct pa_check *c)
{
	check_iommu(c);
	check_links(c);
	check_numa(c);
	check_cmdline(c);
}
