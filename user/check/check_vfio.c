// SPDX-License-Identifier: GPL-2.0
/*
 * vfio: passthrough isolation of the candidate devices (by default those
 * bound to vfio-pci, GPUs, accelerators, NICs and NVMe drives). The kernel's
 * groups are what VFIO enforces; the groups ACS supports (isolation.h) say
 * why a group is shared, and whether it claims more than ACS gives.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>

#include "abi_names.h"
#include "acs.h"
#include "bdf.h"
#include "check.h"
#include "isolation.h"
#include "strbuf.h"
#include "vfio_facts.h"

struct port {
	const struct pa_device *port;
	struct pa_addr_list below;	/* candidates below it */
};

struct vf {
	struct pa_check *c;
	const struct pa_report *rep;
	struct pa_isolation iso;
	struct port *ports;		/* acs-missing, by port */
	size_t nports;
	/* Ports above candidates whose ACS the input does not tell
	 * (acs-missing), and candidates whose group ACS cannot be held
	 * against for such a port (group-overclaims): unknown, not
	 * findings. */
	struct pa_addr_list acs_unknown;
	size_t overclaim_unknown;
	size_t candidates, vfio_devices;
	size_t owner_unknown;		/* vfio-pci devices not-opened cannot judge */
};

static void nomem(struct vf *v)
{
	v->c->err = -ENOMEM;
}

static bool in_group(const struct pa_group *g, const struct pa_addr *a)
{
	for (size_t i = 0; g && i < g->nmembers; i++)
		if (pa_addr_eq(&g->members[i], a))
			return true;
	return false;
}

static bool is_bridge(const struct pa_device *d)
{
	return d && (d->flags & PCIEAUDIT_DEV_F_BRIDGE);
}

/* "SrcValid, ReqRedir", from the bits of mask. */
static void flag_names(struct pa_sb *sb, uint16_t mask)
{
	const char *sep = "";

	for (unsigned int bit = 0; bit < PA_ACS_NFLAGS; bit++) {
		if (!(mask >> bit & 1))
			continue;
		pa_sb_printf(sb, "%s%s", sep, pa_acs_flag_names[bit]);
		sep = ", ";
	}
}

static bool changed_since_load(const struct pa_device *d)
{
	return d->has_acs && d->acs.has_ctrl_at_load &&
	       pa_acs_isolates(d, d->acs.ctrl_at_load) &&
	       !pa_acs_isolates(d, d->acs.ctrl);
}

/* Why d does not isolate what is below it, or its own functions. */
static void culprit_text(struct pa_sb *sb, const struct pa_device *d)
{
	char bdf[PA_BDF_LEN];
	uint16_t missing = pa_acs_req_missing(d, d->acs.ctrl);

	pa_bdf_format(&d->addr, bdf);
	if (pa_is_pci_bridge(d)) {
		pa_sb_printf(sb, "%s %s bridges to conventional PCI, whose devices it cannot keep apart",
			     pa_check_noun(d), bdf);
	} else if (!is_bridge(d)) {
		pa_sb_printf(sb, "%s %s is a multifunction device without ACS: its functions share a group",
			     pa_check_noun(d), bdf);
	} else if (pa_device_acs_unknown(d)) {
		pa_sb_printf(sb, "%s %s has ACS unknown: %s",
			     pa_check_noun(d), bdf, pa_device_acs_unknown(d));
	} else if (!d->has_acs) {
		pa_sb_printf(sb, "%s %s has no ACS capability", pa_check_noun(d), bdf);
	} else {
		pa_sb_printf(sb, "%s %s leaves ACS ", pa_check_noun(d), bdf);
		flag_names(sb, missing);
		pa_sb_printf(sb, " off%s", changed_since_load(d) ?
			     " (on when the module loaded)" : "");
	}
	/* PCH root ports often come as functions of one device. */
	if (is_bridge(d) && (d->flags & PCIEAUDIT_DEV_F_MULTIFUNCTION))
		pa_sb_printf(sb, ", and as a multifunction port shares a group with its slot's other functions without ACS");
}

static void culprits_text(struct pa_sb *sb, const struct pa_report *rep,
			  const struct pa_addr_list *list)
{
	for (size_t i = 0; i < list->n; i++) {
		const struct pa_device *d = pa_report_find(rep, &list->addrs[i]);

		pa_sb_printf(sb, "%s", i ? "; " : "");
		if (d)
			culprit_text(sb, d);
	}
}

/* Whether pci=disable_acs_redir= or pci=config_acs= names the port. */
static const struct pa_param *acs_param_for(const struct pa_check *c,
					    const struct pa_device *d)
{
	static const char *const options[] = { "disable_acs_redir", "config_acs" };
	char bdf[PA_BDF_LEN];

	pa_bdf_format(&d->addr, bdf);
	for (size_t i = 0; c->has_cmdline && i < 2; i++) {
		const struct pa_param *p = pa_cmdline_option(&c->cmdline, "pci",
							     options[i]);

		/* Matched on the BDF or its short form, domain dropped. */
		if (p && p->value && (strstr(p->value, bdf) ||
				      strstr(p->value, bdf + 5)))
			return p;
	}
	return NULL;
}

#define REBOOT "reboot, after removing what rewrote ACS (a setpci call in a boot script or tuning tool)"

/* The fix for the first function that breaks isolation. */
static struct pa_remedy culprit_remedy(const struct pa_check *c,
				       const struct pa_device *d)
{
	const struct pa_param *p;

	if (pa_is_pci_bridge(d))
		return (struct pa_remedy){ PA_REMEDY_HARDWARE,
			"use a PCIe slot: devices behind a bridge to conventional PCI cannot be isolated" };
	if (!is_bridge(d))
		return (struct pa_remedy){ PA_REMEDY_HARDWARE,
			"assign all functions of the multifunction device together" };
	if (d->config_unreadable)
		return (struct pa_remedy){ PA_REMEDY_COMMAND,
			"check again while the port is powered (D0): its registers read as all ones now" };
	if (pa_device_acs_unknown(d))
		return (struct pa_remedy){ PA_REMEDY_COMMAND,
			"capture the full configuration space as root (lspci -xxxx, or sysfs config of 4096 bytes) and check again" };
	if (!d->has_acs)
		return (struct pa_remedy){ PA_REMEDY_HARDWARE,
			"move the device to a slot below a root port or switch with ACS (pcie_acs_override= would only hide the sharing)" };
	if (changed_since_load(d))
		return (struct pa_remedy){ PA_REMEDY_COMMAND, REBOOT };
	p = acs_param_for(c, d);
	if (p)
		return (struct pa_remedy){ PA_REMEDY_CMDLINE_REMOVE, p->text };
	return (struct pa_remedy){ PA_REMEDY_BIOS,
		"enable ACS for PCIe ports in the firmware setup (often \"ACS Enable\" or \"PCIe ACS Control\")" };
}

static void add(struct vf *v, enum pa_rule_id rule, enum pa_severity sev,
		const struct pa_addr_list *devs, struct pa_remedy remedy,
		struct pa_sb *msg)
{
	char *text = pa_sb_take(msg);

	if (!text)
		nomem(v);
	else
		pa_check_add(v->c, rule, sev, devs->addrs, devs->n, remedy,
			     "%s", text);
	free(text);
}

static void list_add(struct vf *v, struct pa_addr_list *l,
		     const struct pa_addr *a)
{
	if (pa_addr_list_add(l, a))
		nomem(v);
}

/* ---- The group ----------------------------------------------------------- */

static void check_shared(struct vf *v, size_t i, const struct pa_group *g)
{
	const struct pa_device *d = &v->rep->devices[i];
	struct pa_addr_list devs = { 0 }, why = { 0 };
	struct pa_sb sb = { 0 };
	char bdf[PA_BDF_LEN];

	list_add(v, &devs, &d->addr);
	for (size_t m = 0; m < g->nmembers; m++) {
		const struct pa_addr *a = &g->members[m];

		if (!pa_addr_same_slot(a, &d->addr) &&
		    !is_bridge(pa_report_find(v->rep, a)))
			list_add(v, &devs, a);
	}
	if (devs.n > 1 && pa_isolation_culprits(v->rep, i, &why))
		nomem(v);
	if (devs.n > 1 && !v->c->err) {
		pa_bdf_format(&d->addr, bdf);
		pa_sb_printf(&sb, "%s %s shares IOMMU group %u with ",
			     pa_check_noun(d), bdf, g->id);
		pa_sb_bdfs(&sb, devs.addrs + 1, devs.n - 1);
		pa_sb_printf(&sb, ": ");
		if (why.n)
			culprits_text(&sb, v->rep, &why);
		else
			pa_sb_printf(&sb, "ACS would keep them apart, so the kernel groups them for a DMA alias or an ACS quirk");
		add(v, PA_VFIO_GROUP_SHARED, 0, &devs, why.n ?
		    culprit_remedy(v->c, pa_report_find(v->rep, &why.addrs[0])) :
		    (struct pa_remedy){ 0 }, &sb);
	}
	pa_addr_list_clear(&devs);
	pa_addr_list_clear(&why);
}

/* vfio-pci.ids=vvvv:dddd,... for the endpoints still on host drivers. */
static void check_viable(struct vf *v, const struct pa_device *d,
			 const struct pa_group *g)
{
	struct pa_addr_list devs = { 0 };
	struct pa_sb sb = { 0 }, ids = { 0 };
	char bdf[PA_BDF_LEN], *param;

	list_add(v, &devs, &d->addr);
	pa_sb_printf(&ids, "vfio-pci.ids=");
	for (size_t m = 0; m < g->nmembers; m++) {
		const struct pa_device *o = pa_report_find(v->rep, &g->members[m]);

		if (!o || o == d || is_bridge(o) || !o->driver ||
		    pa_check_vfio_driver(o->driver) || !strcmp(o->driver, "pci-stub"))
			continue;
		pa_sb_printf(&ids, "%s%04x:%04x", devs.n > 1 ? "," : "",
			     o->vendor, o->device);
		list_add(v, &devs, &o->addr);
	}
	param = pa_sb_take(&ids);
	if (!param)
		nomem(v);
	if (devs.n > 1 && param) {
		pa_bdf_format(&d->addr, bdf);
		pa_sb_printf(&sb, "%s %s is bound to %s, but its IOMMU group %u also holds ",
			     pa_check_noun(d), bdf, d->driver, g->id);
		for (size_t k = 1; k < devs.n; k++) {
			const struct pa_device *o = pa_report_find(v->rep, &devs.addrs[k]);

			pa_bdf_format(&o->addr, bdf);
			pa_sb_printf(&sb, "%s%s (driver %s)", k > 1 ? ", " : "", bdf,
				     o->driver);
		}
		pa_sb_printf(&sb, ": VFIO refuses the group until they are bound to vfio-pci or unbound");
		add(v, PA_VFIO_GROUP_NOT_VIABLE, 0, &devs,
		    (struct pa_remedy){ PA_REMEDY_MODULE_PARAM, param }, &sb);
	}
	free(param);
	pa_addr_list_clear(&devs);
}

/*
 * vfio-pci manages DMA itself and claims no ownership on bind; a user that
 * opens the group (VFIO, iommufd) does. So with no other member bound to a
 * DMA-API driver (check_viable's business), "unclaimed" means nobody has
 * opened it. A snapshot or an older module may have the attached domain
 * instead: a default one means the same.
 */
static void check_domain(struct vf *v, const struct pa_device *d)
{
	uint32_t dom = d->iommu.domain;
	char bdf[PA_BDF_LEN];

	pa_bdf_format(&d->addr, bdf);
	if (d->iommu.dma_owner == PCIEAUDIT_DMA_OWNER_UNCLAIMED) {
		pa_check_add(v->c, PA_VFIO_NOT_OPENED, 0, &d->addr, 1,
			     (struct pa_remedy){ 0 },
			     "%s %s is bound to %s but no user has claimed its IOMMU group: no user has opened it yet",
			     pa_check_noun(d), bdf, d->driver);
		return;
	}
	if (d->iommu.dma_owner)
		return;
	if (!dom) {
		v->owner_unknown++;
		return;
	}
	if (dom != PCIEAUDIT_DOMAIN_DMA && dom != PCIEAUDIT_DOMAIN_DMA_FQ &&
	    dom != PCIEAUDIT_DOMAIN_IDENTITY)
		return;
	pa_check_add(v->c, PA_VFIO_NOT_OPENED, 0, &d->addr, 1,
		     (struct pa_remedy){ 0 },
		     "%s %s is bound to %s but still in its default %s domain: no user has opened it yet",
		     pa_check_noun(d), bdf, d->driver, pa_domain_type_name(dom));
}

/* ---- ACS above the device ------------------------------------------------ */

static struct port *port_entry(struct vf *v, const struct pa_device *p)
{
	struct port *e;

	for (size_t i = 0; i < v->nports; i++)
		if (v->ports[i].port == p)
			return &v->ports[i];
	e = realloc(v->ports, (v->nports + 1) * sizeof(*e));
	if (!e) {
		nomem(v);
		return NULL;
	}
	v->ports = e;
	e = &e[v->nports++];
	*e = (struct port){ .port = p };
	list_add(v, &e->below, &p->addr);
	return e;
}

static bool listed(const struct pa_addr_list *l, const struct pa_addr *a)
{
	for (size_t i = 0; i < l->n; i++)
		if (pa_addr_eq(&l->addrs[i], a))
			return true;
	return false;
}

/* Whether a culprit's ACS is unknown: what it would keep apart is. */
static bool culprit_unknown(const struct pa_report *rep,
			    const struct pa_addr_list *why)
{
	for (size_t i = 0; i < why->n; i++) {
		const struct pa_device *d = pa_report_find(rep, &why->addrs[i]);

		if (d && is_bridge(d) && pa_device_acs_unknown(d))
			return true;
	}
	return false;
}

static void note_ports(struct vf *v, const struct pa_device *d)
{
	const struct pa_device *b = pa_report_upstream(v->rep, d);

	for (size_t steps = 0; b && steps <= v->rep->ndevices;
	     steps++, b = pa_report_upstream(v->rep, b)) {
		struct port *e;

		if (b->pcie_type != PCI_EXP_TYPE_ROOT_PORT &&
		    b->pcie_type != PCI_EXP_TYPE_DOWNSTREAM)
			continue;
		if (pa_device_acs_unknown(b)) {
			if (!listed(&v->acs_unknown, &b->addr))
				list_add(v, &v->acs_unknown, &b->addr);
			continue;
		}
		if (!pa_acs_req_missing(b, b->acs.ctrl))
			continue;
		e = port_entry(v, b);
		if (e)
			list_add(v, &e->below, &d->addr);
	}
}

static void report_ports(struct vf *v)
{
	for (size_t i = 0; i < v->nports; i++) {
		struct port *e = &v->ports[i];
		struct pa_sb sb = { 0 };

		culprit_text(&sb, e->port);
		pa_sb_printf(&sb, ", above ");
		pa_sb_bdfs(&sb, e->below.addrs + 1, e->below.n - 1);
		pa_sb_printf(&sb, ": devices below it can reach each other without the IOMMU");
		add(v, PA_VFIO_ACS_MISSING, 0, &e->below,
		    culprit_remedy(v->c, e->port), &sb);
		pa_addr_list_clear(&e->below);
	}
	free(v->ports);
}

/* ---- Groups finer than ACS ----------------------------------------------- */

static const struct pa_device *first_changed(const struct pa_report *rep,
					     const struct pa_addr_list *why)
{
	for (size_t i = 0; i < why->n; i++) {
		const struct pa_device *d = pa_report_find(rep, &why->addrs[i]);

		if (d && changed_since_load(d))
			return d;
	}
	return NULL;
}

static void explain_overclaim(struct vf *v, struct pa_sb *sb,
			      const struct pa_addr_list *why,
			      enum pa_severity *sev, struct pa_remedy *remedy)
{
	const struct pa_param *override = v->c->has_cmdline ?
		pa_cmdline_last(&v->c->cmdline, "pcie_acs_override") : NULL;
	const struct pa_device *changed = first_changed(v->rep, why);
	char bdf[PA_BDF_LEN];

	*sev = PA_SEV_FAIL;
	if (override) {
		pa_sb_printf(sb, ". %s on the kernel command line makes a patched kernel assume isolation there is none",
			     override->text);
		*remedy = (struct pa_remedy){ PA_REMEDY_CMDLINE_REMOVE, override->text };
	} else if (changed) {
		pa_bdf_format(&changed->addr, bdf);
		pa_sb_printf(sb, ". ACS on %s changed after the groups were formed", bdf);
		*remedy = (struct pa_remedy){ PA_REMEDY_COMMAND, REBOOT };
	} else {
		pa_sb_printf(sb, ". Neither pcie_acs_override= nor an ACS change explains it: a device-specific ACS quirk in the kernel probably does");
		*sev = PA_SEV_INFO;
	}
}

static void check_overclaim(struct vf *v, size_t i, const struct pa_group *g)
{
	const struct pa_device *d = &v->rep->devices[i];
	struct pa_addr_list devs = { 0 }, why = { 0 };
	struct pa_remedy remedy = { 0 };
	enum pa_severity sev;
	struct pa_sb sb = { 0 };
	char bdf[PA_BDF_LEN];

	list_add(v, &devs, &d->addr);
	for (size_t j = 0; j < v->rep->ndevices; j++)
		if (j != i && pa_isolation_together(&v->iso, i, j) &&
		    !in_group(g, &v->rep->devices[j].addr))
			list_add(v, &devs, &v->rep->devices[j].addr);
	if (devs.n > 1 && pa_isolation_culprits(v->rep, i, &why))
		nomem(v);
	if (devs.n > 1 && !v->c->err && culprit_unknown(v->rep, &why)) {
		v->overclaim_unknown++;
	} else if (devs.n > 1 && !v->c->err) {
		pa_bdf_format(&d->addr, bdf);
		pa_sb_printf(&sb, "the kernel puts %s %s in IOMMU group %u without ",
			     pa_check_noun(d), bdf, g->id);
		pa_sb_bdfs(&sb, devs.addrs + 1, devs.n - 1);
		pa_sb_printf(&sb, ", but ACS does not keep them apart: ");
		culprits_text(&sb, v->rep, &why);
		explain_overclaim(v, &sb, &why, &sev, &remedy);
		add(v, PA_VFIO_GROUP_OVERCLAIMS, sev, &devs, remedy, &sb);
	}
	pa_addr_list_clear(&devs);
	pa_addr_list_clear(&why);
}

/* ---- The checks ---------------------------------------------------------- */

static void check_candidate(struct vf *v, size_t i)
{
	const struct pa_device *d = &v->rep->devices[i];
	const struct pa_group *g = pa_report_group_of(v->rep, d);
	char bdf[PA_BDF_LEN];

	v->candidates++;
	note_ports(v, d);
	if (!g) {
		pa_bdf_format(&d->addr, bdf);
		pa_check_add(v->c, PA_VFIO_GROUP_SHARED, 0, &d->addr, 1,
			     (struct pa_remedy){ 0 },
			     "%s %s is in no IOMMU group: VFIO cannot assign it",
			     pa_check_noun(d), bdf);
		return;
	}
	check_shared(v, i, g);
	check_overclaim(v, i, g);
	if (!pa_check_vfio_driver(d->driver))
		return;
	v->vfio_devices++;
	check_viable(v, d, g);
	check_domain(v, d);
}

static void check_changed(struct vf *v)
{
	char bdf[PA_BDF_LEN], was[PA_ACS_TEXT_LEN], now[PA_ACS_TEXT_LEN];
	bool known = false;

	for (size_t i = 0; i < v->rep->ndevices; i++) {
		const struct pa_device *d = &v->rep->devices[i];
		uint16_t lost;

		known |= d->has_acs && d->acs.has_ctrl_at_load;
		if (!d->has_acs || !d->acs.has_ctrl_at_load ||
		    d->acs.ctrl == d->acs.ctrl_at_load)
			continue;
		lost = d->acs.ctrl_at_load & ~d->acs.ctrl & PA_ACS_REQ & d->acs.cap;
		pa_bdf_format(&d->addr, bdf);
		pa_acs_format(d->acs.ctrl_at_load, was);
		pa_acs_format(d->acs.ctrl, now);
		pa_check_add(v->c, PA_VFIO_ACS_CHANGED, lost ? 0 : PA_SEV_INFO,
			     &d->addr, 1, lost ?
			     (struct pa_remedy){ PA_REMEDY_COMMAND, REBOOT } :
			     (struct pa_remedy){ 0 },
			     "ACS control of %s %s changed since the module loaded, from %s to %s%s",
			     pa_check_noun(d), bdf, was, now, lost ?
			     ": IOMMU groups formed at boot claim isolation it no longer gives" :
			     "; no isolating flag was lost");
	}
	if (!known)
		pa_check_skip(v->c, PA_VFIO_ACS_CHANGED,
			      "no ACS control at load in the report (sysfs, or a module before 0.2)");
}

static void check_mode(struct vf *v)
{
	const struct pa_param *pt = v->c->has_cmdline ?
		pa_cmdline_option(&v->c->cmdline, "iommu", "pt") : NULL;
	const struct pa_info *in = &v->rep->info;

	pa_check_note(v->c, PA_VFIO_IOMMU_OFF, "IOMMU on, %zu groups",
		      v->rep->ngroups);
	if (in->iommu_def_mode == PCIEAUDIT_IOMMU_MODE_PASSTHROUGH)
		pa_check_add(v->c, PA_VFIO_IOMMU_PASSTHROUGH, 0, NULL, 0, pt ?
			     (struct pa_remedy){ PA_REMEDY_CMDLINE_REMOVE, pt->text } :
			     (struct pa_remedy){ PA_REMEDY_CMDLINE_ADD, "iommu.passthrough=0" },
			     "the IOMMU's default domains are identity: devices the host keeps bypass translation");
	else if (in->iommu_def_mode == PCIEAUDIT_IOMMU_MODE_TRANSLATED)
		pa_check_note(v->c, PA_VFIO_IOMMU_PASSTHROUGH, "translated (%s)",
			      pa_iommu_strict_name(in->iommu_strict) ?
			      pa_iommu_strict_name(in->iommu_strict) : "strictness unknown");
	else
		pa_check_skip(v->c, PA_VFIO_IOMMU_PASSTHROUGH,
			      "the IOMMU's default mode is unknown");
}

static void no_iommu(struct vf *v)
{
	char buf[200];

	pa_check_add(v->c, PA_VFIO_IOMMU_OFF, 0, NULL, 0,
		     pa_check_iommu_remedy(v->c, buf, sizeof(buf)),
		     "no IOMMU serves the PCI devices%s. There are no IOMMU groups for VFIO to assign",
		     pa_check_iommu_why(v->c));
	for (int r = 0; r < PA_NRULES; r++)
		if (pa_rules[r].profile == PA_PROFILE_VFIO && r != PA_VFIO_IOMMU_OFF)
			pa_check_skip(v->c, r, "no IOMMU");
}

static bool has_findings(const struct pa_check *c, enum pa_rule_id rule)
{
	for (size_t i = 0; i < c->nfindings; i++)
		if (c->findings[i].rule == rule)
			return true;
	return false;
}

/* A rule that met unknown ACS: SKIP where nothing else was found, else
 * its note says what it could not judge. */
static void unknown_note(struct vf *v, enum pa_rule_id rule, const char *what)
{
	const struct pa_device *d = v->acs_unknown.n ?
		pa_report_find(v->rep, &v->acs_unknown.addrs[0]) : NULL;
	struct pa_sb sb = { 0 };
	char *text;

	pa_sb_printf(&sb, "%s: ACS unknown", what);
	if (v->acs_unknown.n)
		pa_sb_printf(&sb, " at ");
	pa_sb_bdfs(&sb, v->acs_unknown.addrs, v->acs_unknown.n);
	if (d)
		pa_sb_printf(&sb, " (%s)", pa_device_acs_unknown(d));
	text = pa_sb_take(&sb);
	if (!text) {
		nomem(v);
		return;
	}
	if (has_findings(v->c, rule))
		pa_check_note(v->c, rule, "%zu device%s checked; %s",
			      v->candidates, v->candidates == 1 ? "" : "s", text);
	else
		pa_check_skip(v->c, rule, "%s", text);
	free(text);
}

static void unknown_notes(struct vf *v)
{
	char what[96];

	if (!v->candidates)
		return;
	if (v->acs_unknown.n)
		unknown_note(v, PA_VFIO_ACS_MISSING,
			     "whether devices below those ports reach each other without the IOMMU is unknown");
	if (v->overclaim_unknown) {
		snprintf(what, sizeof(what),
			 "%zu device%s' groups not held against ACS",
			 v->overclaim_unknown,
			 v->overclaim_unknown == 1 ? "" : "s");
		unknown_note(v, PA_VFIO_GROUP_OVERCLAIMS, what);
	}
}

static void notes(struct vf *v)
{
	static const enum pa_rule_id per_device[] = {
		PA_VFIO_GROUP_SHARED, PA_VFIO_ACS_MISSING, PA_VFIO_GROUP_OVERCLAIMS,
	};

	for (size_t r = 0; r < 3; r++)
		if (v->candidates)
			pa_check_note(v->c, per_device[r], "%zu device%s checked",
				      v->candidates, v->candidates == 1 ? "" : "s");
		else
			pa_check_skip(v->c, per_device[r], "no device selected");
	unknown_notes(v);
	if (!v->vfio_devices) {
		pa_check_note(v->c, PA_VFIO_GROUP_NOT_VIABLE, "no vfio-pci device");
		pa_check_note(v->c, PA_VFIO_NOT_OPENED, "no vfio-pci device");
	} else if (v->owner_unknown == v->vfio_devices) {
		pa_check_skip(v->c, PA_VFIO_NOT_OPENED,
			      "the kernel does not say whether a user owns the group (iommu_group_dma_owner_claimed() is v5.19+)");
	}
	pa_check_note(v->c, PA_VFIO_ACS_CHANGED, "ACS as at load");
}

void pa_check_vfio(struct pa_check *c)
{
	struct vf v = { .c = c, .rep = c->rep };

	if (c->rep->info.iommu_unknown) {
		for (int r = 0; r < PA_NRULES; r++)
			if (pa_rules[r].profile == PA_PROFILE_VFIO)
				pa_check_skip(c, r, "IOMMU groups unknown: not in the input");
		return;
	}
	if (!pa_check_iommu_on(c->rep)) {
		no_iommu(&v);
		return;
	}
	check_mode(&v);
	if (pa_isolation_compute(c->rep, &v.iso)) {
		nomem(&v);
		return;
	}
	for (size_t i = 0; i < c->rep->ndevices && !c->err; i++)
		if (pa_check_selects(c, PA_PROFILE_VFIO, &c->rep->devices[i]))
			check_candidate(&v, i);
	report_ports(&v);
	check_changed(&v);
	notes(&v);
	pa_check_vfio_host(c);
	pa_addr_list_clear(&v.acs_unknown);
	pa_isolation_clear(&v.iso);
}
