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
#include "acs.h"
#include "acs_param.h"
#include "bdf.h"
#include "check.h"
#include "link.h"
#include "remedy.h"
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

	if (c->rep->info.iommu_unknown) {
		pa_check_skip(c, PA_BL_IOMMU_OFF, "the IOMMU is unknown: not in the input");
		return;
	}
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

		/* One link per device: its function 0 speaks for it. */
		if (!d->has_link || pa_link_owner(rep, d) != d ||
		    !pa_check_selects(c, PA_PROFILE_BASELINE, d))
			continue;
		checked++;
		if (!pa_link_below(rep, d, &speed, &width, &speed_only))
			continue;
		idle = speed_only && pa_device_kind(d) == PA_KIND_GPU;
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


/* ---- ACS parameters: did they take effect? ------------------------------ */

#define ACS_FIXED_KERNEL "boot a kernel with commit " PA_ACS_FIX_COMMIT " (\"PCI/ACS: Fix 'pci=config_acs=' parameter\"): Linux 6.15 or later, or the stable releases 6.12.23, 6.13.11, 6.14.2 and later"

struct acs_tally {
	size_t checked, in_effect;
	struct pa_sb unchecked;		/* "; "-separated reasons */
};

static void unchecked(struct acs_tally *t, const char *fmt, const char *what)
{
	pa_sb_printf(&t->unchecked, t->unchecked.len ? "; " : "");
	pa_sb_printf(&t->unchecked, fmt, what);
}

/* "ReqRedir and CmpltRedir" of the bits set in bits. */
static void flag_names(struct pa_sb *sb, uint16_t bits)
{
	unsigned int n = 0, total = 0;

	for (unsigned int b = 0; b < PA_ACS_NFLAGS; b++)
		total += bits >> b & 1;
	for (unsigned int b = 0; b < PA_ACS_NFLAGS; b++) {
		if (!(bits >> b & 1))
			continue;
		n++;
		pa_sb_printf(sb, "%s%s", n == 1 ? "" : n == total ? " and " : ", ",
			     pa_acs_flag_names[b]);
	}
}

/* Why an entry's bits are not as asked, and what to do. */
static struct pa_remedy acs_cause(struct pa_sb *sb, const struct pa_check *c,
				  const struct pa_acs_request *r, size_t i,
				  size_t bad_at, const struct pa_device *d)
{
	const char *release = c->rep->info.kernel_release;
	const struct pa_acs_entry *e = &r->entries[i];
	bool config = r->param == PA_ACS_PARAM_CONFIG_ACS;
	bool later = config && i > 0;
	const char *what = later ?
		"a pci=config_acs= naming several devices fails to parse after the first (\"PCI: Can't parse ACS command line parameter\"), so this device was not configured" :
		"the bits the parameter clears are copied from the firmware's setting instead, so they stay set where the firmware set them";
	uint16_t missing = e->want & e->mask & ~d->acs.cap;

	if (i > bad_at) {
		pa_sb_printf(sb, " The kernel stopped reading the parameter at its malformed entry %zu, before this one", bad_at + 1);
		return (struct pa_remedy){ PA_REMEDY_NONE, NULL };
	}
	if (missing && !((d->acs.ctrl ^ e->want) & e->mask & ~missing)) {
		pa_sb_printf(sb, " Its ACS capability does not implement ");
		flag_names(sb, missing);
		pa_sb_printf(sb, ", so no parameter can turn it on");
		return (struct pa_remedy){ PA_REMEDY_NONE, NULL };
	}
	switch (pa_acs_param_state(release, r->param)) {
	case PA_ACS_PARAM_BROKEN:
		pa_sb_printf(sb, " Likely cause: this kernel (%s) lacks commit " PA_ACS_FIX_COMMIT ": %s%s",
			     release, what, later ? "; name one device only, or boot a kernel with the fix" : "");
		return (struct pa_remedy){ PA_REMEDY_KERNEL, ACS_FIXED_KERNEL };
	case PA_ACS_PARAM_UNKNOWN:
		pa_sb_printf(sb, " Likely cause, unless this kernel (%s) carries commit " PA_ACS_FIX_COMMIT " (its release does not tell): %s",
			     release ? release : "release unknown", what);
		return (struct pa_remedy){ PA_REMEDY_KERNEL, ACS_FIXED_KERNEL };
	default:
		break;
	}
	if (d->acs.has_ctrl_at_load &&
	    !((d->acs.ctrl_at_load ^ e->want) & e->mask))
		pa_sb_printf(sb, " It was in effect when the module loaded: something rewrote ACS since (setpci, a tuning tool)");
	else
		pa_sb_printf(sb, " This kernel (%s) applies the parameter as written when it finds the device: something rewrote ACS since (setpci, a tuning tool), or a device-specific ACS quirk handled it",
			     release ? release : "release unknown");
	return (struct pa_remedy){ PA_REMEDY_COMMAND,
		"reboot, after removing what rewrote ACS (a setpci call in a boot script or tuning tool)" };
}

static void acs_device(struct pa_check *c, const struct pa_acs_request *r,
		       size_t i, size_t bad_at, const struct pa_device *d,
		       struct acs_tally *t)
{
	const struct pa_acs_entry *e = &r->entries[i];
	uint16_t wrong = (d->acs.ctrl ^ e->want) & e->mask;
	char bdf[PA_BDF_LEN];
	struct pa_remedy remedy;
	struct pa_sb sb = { 0 };
	char *text;

	pa_bdf_format(&d->addr, bdf);
	if (pa_device_acs_unknown(d)) {
		pa_sb_printf(&t->unchecked, t->unchecked.len ? "; " : "");
		pa_sb_printf(&t->unchecked, "%s has ACS unknown: %s", bdf,
			     pa_device_acs_unknown(d));
		return;
	}
	if (!d->has_acs) {
		unchecked(t, "%s has no ACS capability", bdf);
		return;
	}
	t->checked++;
	if (!wrong) {
		t->in_effect++;
		return;
	}
	pa_sb_printf(&sb, "%s%s did not take effect on %s %s: ",
		     pa_acs_param_name(r->param), r->value, pa_check_noun(d), bdf);
	if (wrong & ~e->want) {
		flag_names(&sb, wrong & ~e->want);
		pa_sb_printf(&sb, " still on, which it asks off%s",
			     wrong & e->want ? "; " : "");
	}
	if (wrong & e->want) {
		flag_names(&sb, wrong & e->want);
		pa_sb_printf(&sb, " off, which it asks on");
	}
	pa_sb_printf(&sb, " (entry %zu, %s).", i + 1, e->text);
	remedy = acs_cause(&sb, c, r, i, bad_at, d);
	text = pa_sb_take(&sb);
	if (!text) {
		c->err = -ENOMEM;
		return;
	}
	pa_check_add(c, PA_BL_ACS_PARAM_EFFECT, 0, &d->addr, 1, remedy,
		     "%s", text);
	free(text);
}

static void acs_absent_device(struct pa_check *c,
			      const struct pa_acs_request *r,
			      const struct pa_acs_entry *e)
{
	pa_check_add(c, PA_BL_ACS_PARAM_EFFECT, PA_SEV_WARN, NULL, 0,
		     (struct pa_remedy){ PA_REMEDY_NONE, NULL },
		     "%s%s names %s, which this report does not have: a mistyped address, or a device absent at boot. Nothing is checked for it",
		     pa_acs_param_name(r->param), r->value, e->text + (r->param == PA_ACS_PARAM_CONFIG_ACS ?
					       strcspn(e->text, "@") + 1 : 0));
}

/* The whole parameter on a kernel that does not have it. */
static void acs_absent_param(struct pa_check *c, const struct pa_acs_request *r)
{
	const char *release = c->rep->info.kernel_release;
	struct pa_addr_list devs = { 0 };
	bool redirect_only = true;
	struct pa_sb sb = { 0 };
	char *param = NULL;
	bool config = r->param == PA_ACS_PARAM_CONFIG_ACS;

	pa_sb_printf(&sb, "pci=disable_acs_redir=");
	for (size_t i = 0; i < r->n; i++) {
		const struct pa_acs_entry *e = &r->entries[i];
		const struct pa_device *d = e->kind == PA_ACS_SPEC_BDF ?
			pa_report_find(c->rep, &e->addr) : NULL;

		if (d && pa_addr_list_add(&devs, &d->addr))
			c->err = -ENOMEM;
		redirect_only &= e->kind != PA_ACS_SPEC_BAD && !e->want &&
				 !(e->mask & ~PA_ACS_REDIRECT_BITS);
		pa_sb_printf(&sb, "%s%s", i ? ";" : "",
			     e->text + strcspn(e->text, "@") + (strchr(e->text, '@') ? 1 : 0));
	}
	param = pa_sb_take(&sb);
	if (!param) {
		c->err = -ENOMEM;
	} else if (config && redirect_only && r->n &&
		   pa_acs_param_state(release, PA_ACS_PARAM_DISABLE_ACS_REDIR) == PA_ACS_PARAM_WORKS) {
		pa_check_add(c, PA_BL_ACS_PARAM_EFFECT, 0, devs.addrs, devs.n,
			     (struct pa_remedy){ PA_REMEDY_CMDLINE_ADD, param },
			     "%s%s is on the kernel command line, but this kernel (%s) has no pci=config_acs= (it came with Linux 6.11): it logs \"PCI: Unknown option\" and ignores it. Its entries only clear redirect bits, which pci=disable_acs_redir= does on this kernel: use that instead",
			     pa_acs_param_name(r->param), r->value, release);
	} else {
		pa_check_add(c, PA_BL_ACS_PARAM_EFFECT, 0, devs.addrs, devs.n,
			     (struct pa_remedy){ PA_REMEDY_KERNEL, ACS_FIXED_KERNEL },
			     "%s%s is on the kernel command line, but this kernel (%s) has no %s (it came with Linux %s): it logs \"PCI: Unknown option\" and ignores it",
			     pa_acs_param_name(r->param), r->value,
			     release ? release : "release unknown",
			     pa_acs_param_name(r->param),
			     config ? "6.11" : "4.19");
	}
	free(param);
	pa_addr_list_clear(&devs);
}

static void acs_request(struct pa_check *c, const struct pa_acs_request *r,
			struct acs_tally *t)
{
	const struct pa_report *rep = c->rep;
	size_t bad_at = (size_t)-1;

	if (pa_acs_param_state(rep->info.kernel_release, r->param) ==
	    PA_ACS_PARAM_ABSENT) {
		acs_absent_param(c, r);
		return;
	}
	for (size_t i = 0; i < r->n && !c->err; i++) {
		const struct pa_acs_entry *e = &r->entries[i];
		const struct pa_device *d;
		size_t matched = 0, no_acs = 0;

		switch (e->kind) {
		case PA_ACS_SPEC_BAD:
			if (bad_at == (size_t)-1)
				bad_at = i;
			pa_check_add(c, PA_BL_ACS_PARAM_EFFECT, 0, NULL, 0,
				     (struct pa_remedy){ PA_REMEDY_NONE, NULL },
				     "%s%s: entry %zu (\"%s\") is malformed: %s. The kernel stops reading the parameter there and configures no device from there on. %s, separated by ';'; a device is [<domain>:]<bus>:<device>.<function> or pci:<vendor>:<device>, in hex",
				     pa_acs_param_name(r->param), r->value, i + 1,
				     e->text, e->error,
				     r->param == PA_ACS_PARAM_CONFIG_ACS ?
				     "Entries are <7 flags of 0, 1 or x>@<device>" :
				     "Entries are devices");
			break;
		case PA_ACS_SPEC_PATH:
			unchecked(t, "%s is a bridge path, not resolved here", e->text);
			break;
		case PA_ACS_SPEC_BDF:
			d = pa_report_find(rep, &e->addr);
			if (d)
				acs_device(c, r, i, bad_at, d, t);
			else
				acs_absent_device(c, r, e);
			break;
		case PA_ACS_SPEC_IDS:
			/* Ids may match every function: count those without
			 * ACS rather than list them. */
			for (size_t k = 0; k < rep->ndevices; k++) {
				if (!pa_acs_entry_matches(e, &rep->devices[k]))
					continue;
				matched++;
				if (rep->devices[k].has_acs ||
				    pa_device_acs_unknown(&rep->devices[k]))
					acs_device(c, r, i, bad_at, &rep->devices[k], t);
				else
					no_acs++;
			}
			if (!matched)
				acs_absent_device(c, r, e);
			if (no_acs) {
				pa_sb_printf(&t->unchecked, t->unchecked.len ? "; " : "");
				pa_sb_printf(&t->unchecked, "%zu function%s matching %s without ACS capability",
					     no_acs, no_acs == 1 ? "" : "s", e->text);
			}
			break;
		}
	}
}

static void check_acs_params(struct pa_check *c)
{
	struct acs_tally t = { 0 };
	size_t found = 0, before = c->nfindings;
	char *why;

	if (!c->has_cmdline) {
		pa_check_skip(c, PA_BL_ACS_PARAM_EFFECT, "the kernel command line is unknown");
		return;
	}
	if (c->state[PA_BL_ACS_PARAM_EFFECT] != PA_RULE_RAN)
		return;
	for (int p = PA_ACS_PARAM_DISABLE_ACS_REDIR;
	     p <= PA_ACS_PARAM_CONFIG_ACS && !c->err; p++) {
		struct pa_acs_request r;
		int ret = pa_acs_request_find(&c->cmdline, (enum pa_acs_param)p, &r);

		if (ret < 0) {
			c->err = ret;
			break;
		}
		if (!ret)
			continue;
		found++;
		acs_request(c, &r, &t);
		pa_acs_request_clear(&r);
	}
	why = pa_sb_take(&t.unchecked);
	if (!why) {
		c->err = -ENOMEM;
		return;
	}
	if (!found)
		pa_check_skip(c, PA_BL_ACS_PARAM_EFFECT,
			      "no pci=disable_acs_redir= or pci=config_acs= on the kernel command line");
	else if (!t.checked && c->nfindings == before)
		pa_check_skip(c, PA_BL_ACS_PARAM_EFFECT, "no device named has a known ACS control: %s",
			      *why ? why : "none found");
	else
		pa_check_note(c, PA_BL_ACS_PARAM_EFFECT, "%zu of %zu device%s as asked%s%s",
			      t.in_effect, t.checked, t.checked == 1 ? "" : "s",
			      *why ? "; not checked: " : "", why);
	free(why);
}

void pa_check_baseline(struct pa_check *c)
{
	check_iommu(c);
	check_links(c);
	check_numa(c);
	check_cmdline(c);
	check_acs_params(c);
	pa_check_bar_unassigned(c);
	pa_check_aer(c);
}
