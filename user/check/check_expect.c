// SPDX-License-Identifier: GPL-2.0
/*
 * The expect profile (check --expect FILE): this host against a golden
 * host's snapshot, function by function where they sit (slot.h), or
 * against an inventory's counts, links, ACS, IOMMU and P2P verdicts.
 */
#include "check.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "abi_names.h"
#include "bdf.h"
#include "link.h"
#include "slot.h"
#include "topo.h"

static const struct pa_remedy hardware_remedy = {
	PA_REMEDY_HARDWARE, "reseat the card; check its slot, riser, cable and power; the kernel log names the link",
};

static const struct pa_remedy none = { PA_REMEDY_NONE, NULL };

static void others(char *buf, size_t len, size_t n)
{
	if (n)
		snprintf(buf, len, ", with %zu more function%s below or beside it",
			 n, n == 1 ? "" : "s");
	else
		buf[0] = '\0';
}

static void speed_text(double gts, char buf[PA_SPEED_TEXT_LEN])
{
	pa_link_format_speed(gts, buf);
}

/* A rule that met facts this host's source could not read: unknown, not
 * clean, unless it found something anyway. */
static void unknown_skip(struct pa_check *c, enum pa_rule_id rule,
			 size_t unknown, size_t looked, const char *why)
{
	if (!unknown || pa_check_rule_worst(c, rule))
		return;
	pa_check_skip(c, rule, "%zu of %zu expected %s unknown on this host%s%s",
		      unknown, looked, rule == PA_EX_P2P_DIFFERS ? "pairs" :
		      rule == PA_EX_ACS_DIFFERS ? "ACS controls" : "links",
		      why ? ": " : "", why ? why : "");
}

/* ---- Against a golden host ----------------------------------------------- */

struct golden_ctx {
	struct pa_check *c;
	const struct pa_report *g, *rep;
	const char *name;
	struct pa_slot_match m;
};

/* A filtered capture (lspci -d, -s): lspci -t drew bridges it left out,
 * and a function not in it is unknown, not missing. */
static bool filtered(const struct pa_report *rep)
{
	for (size_t i = 0; i < rep->ndevices; i++)
		if (rep->devices[i].config_not_captured)
			return true;
	return false;
}

static const char filtered_why[] =
	"this host's capture is filtered (lspci -d or -s: bridges above its functions are not in it): a function it lacks is unknown, not missing";

static void g_missing(struct golden_ctx *x)
{
	char gbdf[PA_BDF_LEN], more[80];

	if (filtered(x->rep)) {
		pa_check_skip(x->c, PA_EX_DEVICE_MISSING, "%s", filtered_why);
		return;
	}

	for (size_t g = 0; g < x->m.ng; g++) {
		const struct pa_device *gd = &x->g->devices[g], *up;
		struct pa_addr here[1];
		size_t n = 0;

		if (!pa_slot_top_missing(x->g, &x->m, g))
			continue;
		/* The port it should sit below, on this host. */
		up = pa_report_upstream(x->g, gd);
		if (up && x->m.g2c[up - x->g->devices] >= 0)
			here[n++] = x->rep->devices[x->m.g2c[up - x->g->devices]].addr;
		pa_bdf_format(&gd->addr, gbdf);
		others(more, sizeof(more), pa_slot_folded_missing(x->g, &x->m, g));
		pa_check_add(x->c, PA_EX_DEVICE_MISSING, 0, here, n, hardware_remedy,
			     "%s %04x:%04x (class %06x) expected at %s (%s on the golden host) is missing%s",
			     pa_check_noun(gd), gd->vendor, gd->device, gd->class,
			     x->m.gpath[g], gbdf, more);
	}
}

static void g_extra(struct golden_ctx *x)
{
	char bdf[PA_BDF_LEN], more[80];

	for (size_t i = 0; i < x->m.nc; i++) {
		const struct pa_device *d = &x->rep->devices[i];

		if (!pa_slot_top_extra(x->rep, &x->m, i))
			continue;
		pa_bdf_format(&d->addr, bdf);
		others(more, sizeof(more), pa_slot_folded_extra(x->rep, &x->m, i));
		pa_check_add(x->c, PA_EX_DEVICE_EXTRA, 0, &d->addr, 1, none,
			     "%s %04x:%04x (class %06x) at %s (%s) is not on the golden host%s",
			     pa_check_noun(d), d->vendor, d->device, d->class,
			     x->m.cpath[i], bdf, more);
	}
}

static void g_moved(struct golden_ctx *x)
{
	char gbdf[PA_BDF_LEN], bdf[PA_BDF_LEN];

	for (size_t g = 0; g < x->m.ng; g++) {
		const struct pa_device *gd = &x->g->devices[g], *d;

		if (x->m.how[g] != PA_SLOT_MOVED)
			continue;
		d = &x->rep->devices[x->m.g2c[g]];
		pa_bdf_format(&gd->addr, gbdf);
		pa_bdf_format(&d->addr, bdf);
		pa_check_add(x->c, PA_EX_MOVED, 0, &d->addr, 1,
			     (struct pa_remedy){ PA_REMEDY_HARDWARE, "put the card back in the golden host's slot, or take a golden host of this layout" },
			     "%s %04x:%04x sits at %s (%s), on the golden host at %s (%s)",
			     pa_check_noun(d), d->vendor, d->device, x->m.cpath[x->m.g2c[g]],
			     bdf, x->m.gpath[g], gbdf);
	}
}

static void g_links(struct golden_ctx *x)
{
	char bdf[PA_BDF_LEN], gbdf[PA_BDF_LEN];
	char s1[PA_SPEED_TEXT_LEN], s2[PA_SPEED_TEXT_LEN];
	size_t unknown = 0, looked = 0;

	for (size_t g = 0; g < x->m.ng; g++) {
		const struct pa_device *gd = &x->g->devices[g], *d;
		struct pa_link_state want, got;
		bool slow, narrow;

		if (x->m.g2c[g] < 0 || !pa_slot_reports_link(x->g, gd) ||
		    pa_device_link_unknown(gd))
			continue;
		d = &x->rep->devices[x->m.g2c[g]];
		looked++;
		if (pa_device_link_unknown(d) || !d->has_link) {
			unknown++;
			continue;
		}
		pa_link_decode(&gd->link, &want);
		pa_link_decode(&d->link, &got);
		slow = got.speed > 0 && want.speed > 0 && got.speed < want.speed;
		narrow = want.width && got.width < want.width;
		if (!slow && !narrow)
			continue;
		pa_bdf_format(&d->addr, bdf);
		pa_bdf_format(&gd->addr, gbdf);
		speed_text(got.speed, s1);
		speed_text(want.speed, s2);
		pa_check_add(x->c, PA_EX_LINK_BELOW,
			     !narrow && pa_device_kind(d) == PA_KIND_GPU ?
			     PA_SEV_INFO : 0, &d->addr, 1, hardware_remedy,
			     "%s %s at %s trained %s x%u, below the golden host's %s x%u (%s there)",
			     pa_check_noun(d), bdf, x->m.cpath[x->m.g2c[g]], s1,
			     got.width, s2, want.width, gbdf);
	}
	unknown_skip(x->c, PA_EX_LINK_BELOW, unknown, looked,
		     "the source could not read their link registers");
}

static void g_acs(struct golden_ctx *x)
{
	char bdf[PA_BDF_LEN], gbdf[PA_BDF_LEN];
	size_t unknown = 0, looked = 0;

	for (size_t g = 0; g < x->m.ng; g++) {
		const struct pa_device *gd = &x->g->devices[g], *d;
		int want, got;

		if (x->m.g2c[g] < 0 || pa_device_acs_unknown(gd))
			continue;
		d = &x->rep->devices[x->m.g2c[g]];
		if (!gd->has_acs && !d->has_acs)
			continue;
		looked++;
		if (pa_device_acs_unknown(d)) {
			unknown++;
			continue;
		}
		want = gd->has_acs ? gd->acs.ctrl : -1;
		got = d->has_acs ? d->acs.ctrl : -1;
		if (want == got)
			continue;
		pa_bdf_format(&d->addr, bdf);
		pa_bdf_format(&gd->addr, gbdf);
		pa_check_add(x->c, PA_EX_ACS_DIFFERS, 0, &d->addr, 1,
			     (struct pa_remedy){ PA_REMEDY_BIOS, "the firmware's ACS setting, or the pci=config_acs= / disable_acs_redir= parameter, as on the golden host" },
			     "%s %s at %s: ACS control %s%04x, the golden host's %s%04x (%s there)",
			     pa_check_noun(d), bdf, x->m.cpath[x->m.g2c[g]],
			     got < 0 ? "none, not 0x" : "0x", got < 0 ? 0 : got,
			     want < 0 ? "none, not 0x" : "0x", want < 0 ? 0 : want, gbdf);
	}
	unknown_skip(x->c, PA_EX_ACS_DIFFERS, unknown, looked,
		     "the source could not read their extended configuration space");
}

static const char iommu_unknown_why[] =
	"the source cannot see the IOMMU's mode or groups (an lspci capture, a sysfs copy without kernel/iommu_groups)";

/* "off", "translated", "passthrough" or NULL (cannot tell). */
static const char *iommu_mode(const struct pa_report *rep)
{
	if (rep->info.iommu_unknown)
		return NULL;
	if (!pa_check_iommu_on(rep))
		return "off";
	return pa_iommu_mode_name(rep->info.iommu_def_mode);
}

static bool same_group(const struct pa_device *a, const struct pa_device *b)
{
	return a->has_iommu && b->has_iommu && a->iommu.group == b->iommu.group;
}

/*
 * One function in its golden slot on both hosts, for the group comparison:
 * its group on each (a function without one is alone: its index, above
 * any group number), and how many of these functions share it there, here
 * and on both alike.
 */
struct group_ent {
	uint64_t there, here;
	size_t g, n_there, n_here, n_both, here_run;
};

static int by_there(const void *a, const void *b)
{
	const struct group_ent *x = a, *y = b;

	return (x->there > y->there) - (x->there < y->there);
}

static int by_here(const void *a, const void *b)
{
	const struct group_ent *x = a, *y = b;

	return (x->here > y->here) - (x->here < y->here);
}

static int by_both(const void *a, const void *b)
{
	const struct group_ent *x = a, *y = b;

	return by_there(a, b) ? by_there(a, b) :
	       (x->here > y->here) - (x->here < y->here);
}

static int by_golden(const void *a, const void *b)
{
	const struct group_ent *x = a, *y = b;

	return (x->g > y->g) - (x->g < y->g);
}

/* Sorts e by cmp and gives each its run's length in *count (at offset
 * off); returns the number of runs, each entry's run index in here_run
 * when runs is set. */
static size_t runs_of(struct group_ent *e, size_t n,
		      int (*cmp)(const void *, const void *), size_t off,
		      bool runs)
{
	size_t nruns = 0;

	qsort(e, n, sizeof(*e), cmp);
	for (size_t i = 0, j; i < n; i = j, nruns++) {
		for (j = i + 1; j < n && !cmp(&e[i], &e[j]); j++)
			;
		for (size_t k = i; k < j; k++) {
			*(size_t *)((char *)&e[k] + off) = j - i;
			if (runs)
				e[k].here_run = nruns;
		}
	}
	return nruns;
}

/*
 * A function's group differs when the functions sharing it on one host are
 * not those sharing it on the other: when fewer share it on both alike
 * than on either. Sorting keeps this n log n in functions (the pairwise
 * comparison was quadratic: 90,000 steps at 300 functions).
 */
static void g_iommu(struct golden_ctx *x)
{
	const char *want = iommu_mode(x->g), *got = iommu_mode(x->rep);
	char bdf[PA_BDF_LEN];
	struct group_ent *e;
	bool *told;
	size_t n = 0, nruns;

	if (x->rep->info.iommu_unknown) {
		pa_check_skip(x->c, PA_EX_IOMMU_DIFFERS, "%s", iommu_unknown_why);
		return;
	}
	if (want && got && strcmp(want, got))
		pa_check_add(x->c, PA_EX_IOMMU_DIFFERS, 0, NULL, 0,
			     (struct pa_remedy){ PA_REMEDY_CMDLINE_ADD, "the golden host's IOMMU parameters (iommu=pt, iommu.passthrough=, intel_iommu=, amd_iommu=)" },
			     "IOMMU default domains: %s, the golden host's %s",
			     got, want);
	if (!pa_check_iommu_on(x->g) || !pa_check_iommu_on(x->rep))
		return;
	e = calloc(x->m.ng + 1, sizeof(*e));
	if (!e) {
		x->c->err = -ENOMEM;
		return;
	}
	/* A device that moved left one group and joined another:
	 * expect.moved says so, and groups are compared among the devices in
	 * their golden slots only. */
	for (size_t g = 0; g < x->m.ng; g++) {
		const struct pa_device *gd = &x->g->devices[g], *d;

		if (x->m.g2c[g] < 0 || x->m.how[g] == PA_SLOT_MOVED)
			continue;
		d = &x->rep->devices[x->m.g2c[g]];
		e[n++] = (struct group_ent){
			.there = gd->has_iommu ? gd->iommu.group : 1ULL << 32 | g,
			.here = d->has_iommu ? d->iommu.group : 1ULL << 32 | g,
			.g = g,
		};
	}
	runs_of(e, n, by_there, offsetof(struct group_ent, n_there), false);
	runs_of(e, n, by_both, offsetof(struct group_ent, n_both), false);
	nruns = runs_of(e, n, by_here, offsetof(struct group_ent, n_here), true);
	qsort(e, n, sizeof(*e), by_golden);
	told = calloc(nruns + 1, sizeof(*told));
	if (!told) {
		free(e);
		x->c->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct pa_device *gd = &x->g->devices[e[i].g], *d;
		long c = x->m.g2c[e[i].g];

		d = &x->rep->devices[c];
		/* One finding per group of this host. */
		if (!gd->has_iommu || !d->has_iommu || told[e[i].here_run] ||
		    (e[i].n_both == e[i].n_there && e[i].n_both == e[i].n_here))
			continue;
		told[e[i].here_run] = true;
		pa_bdf_format(&d->addr, bdf);
		pa_check_add(x->c, PA_EX_IOMMU_DIFFERS, 0, &d->addr, 1,
			     (struct pa_remedy){ PA_REMEDY_BIOS, "the golden host's ACS setting and kernel parameters: groups form from ACS at boot" },
			     "%s %s at %s shares IOMMU group %u with %zu other functions, on the golden host with %zu",
			     pa_check_noun(d), bdf, x->m.cpath[c],
			     d->iommu.group, e[i].n_here - 1, e[i].n_there - 1);
	}
	free(told);
	free(e);
}

static const struct pa_p2p_pair *find_pair(const struct pa_report *rep,
					   const struct pa_addr *a,
					   const struct pa_addr *b)
{
	for (size_t i = 0; i < rep->p2p.npairs; i++)
		if (pa_addr_eq(&rep->p2p.pairs[i].provider, a) &&
		    pa_addr_eq(&rep->p2p.pairs[i].client, b))
			return &rep->p2p.pairs[i];
	return NULL;
}

static long index_in(const struct pa_report *rep, const struct pa_addr *a)
{
	const struct pa_device *d = pa_report_find(rep, a);

	return d ? d - rep->devices : -1;
}

static const char *map_name(uint32_t map)
{
	const char *s = pa_p2p_map_name(map);

	return s ? s : "unknown";
}

static void g_p2p(struct golden_ctx *x)
{
	char a[PA_BDF_LEN], b[PA_BDF_LEN];
	size_t unknown = 0, looked = 0;

	if (!x->g->has_p2p || !x->g->p2p.npairs) {
		pa_check_skip(x->c, PA_EX_P2P_DIFFERS, "the golden host's snapshot holds no P2P pairs");
		return;
	}
	if (!x->rep->has_p2p) {
		pa_check_skip(x->c, PA_EX_P2P_DIFFERS, "this host's source gives no P2P verdicts");
		return;
	}
	for (size_t i = 0; i < x->g->p2p.npairs; i++) {
		const struct pa_p2p_pair *gp = &x->g->p2p.pairs[i], *p;
		long ga = index_in(x->g, &gp->provider), gb = index_in(x->g, &gp->client);
		const struct pa_addr *ca, *cb;
		uint32_t want, got;

		if (ga < 0 || gb < 0 || x->m.g2c[ga] < 0 || x->m.g2c[gb] < 0)
			continue;
		ca = &x->rep->devices[x->m.g2c[ga]].addr;
		cb = &x->rep->devices[x->m.g2c[gb]].addr;
		looked++;
		p = find_pair(x->rep, ca, cb);
		if (!p) {
			unknown++;
			continue;
		}
		want = pa_p2p_verdict_map(gp);
		got = pa_p2p_verdict_map(p);
		/* Without the module, a path through the root complex has no
		 * verdict (its whitelist is unknown): unknown, not different. */
		if (!want) {
			looked--;
			continue;
		}
		if (!got)
			unknown++;
		if (!got || want == got)
			continue;
		pa_bdf_format(ca, a);
		pa_bdf_format(cb, b);
		pa_check_add(x->c, PA_EX_P2P_DIFFERS, 0,
			     (struct pa_addr[]){ *ca, *cb }, 2, none,
			     "P2P %s -> %s (%s -> %s): %s, the golden host's %s",
			     a, b, x->m.cpath[x->m.g2c[ga]], x->m.cpath[x->m.g2c[gb]],
			     map_name(got), map_name(want));
	}
	unknown_skip(x->c, PA_EX_P2P_DIFFERS, unknown, looked,
		     "this host's report lacks those pairs, or has no kernel verdict for a path through the root complex (no module)");
}

static void against_golden(struct pa_check *c, const struct pa_expect *ex)
{
	struct golden_ctx x = { c, ex->golden, c->rep, ex->name, { 0 } };
	int err = pa_slot_match(ex->golden, c->rep, &x.m);
	bool other;

	if (err) {
		c->err = err;
		return;
	}
	/* Half of it not found: another kind of host, one finding. A
	 * filtered capture is judged by how much of it the golden has. */
	if (filtered(c->rep)) {
		size_t here = 0, matched = 0;

		for (size_t i = 0; i < x.m.nc; i++) {
			if (!x.m.cpath[i] || c->rep->devices[i].config_not_captured)
				continue;
			here++;
			matched += x.m.c2g[i] >= 0;
		}
		other = matched * 2 < here;
	} else {
		other = x.m.compared && x.m.found * 2 < x.m.compared;
	}
	if (other) {
		pa_check_add(c, PA_EX_DEVICE_MISSING, 0, NULL, 0,
			     (struct pa_remedy){ PA_REMEDY_COMMAND, "compare with a golden host of this kind (report --json of a known-good host like this one)" },
			     "the golden host %s is another kind of host: only %zu of its %zu functions are found here by slot and model (this host has %zu); nothing else is compared",
			     ex->name, x.m.found, x.m.compared, c->rep->ndevices);
		for (int r = PA_EX_DEVICE_EXTRA; r < PA_NRULES; r++)
			pa_check_skip(c, r, "the golden host %s is another kind of host", ex->name);
		pa_slot_match_clear(&x.m);
		return;
	}
	g_missing(&x);
	g_extra(&x);
	g_moved(&x);
	g_links(&x);
	g_acs(&x);
	g_iommu(&x);
	g_p2p(&x);
	pa_check_note(c, PA_EX_DEVICE_MISSING, "%zu of %zu functions of the golden host found",
		      x.m.found, x.m.compared);
	pa_slot_match_clear(&x.m);
}

/* ---- Against an inventory ------------------------------------------------- */

static bool counted(const struct pa_inv_device *e, const struct pa_device *d)
{
	bool bridge_asked = e->match.has_class &&
			    (e->match.class_value >> 16) == 0x06;

	return !(d->flags & PCIEAUDIT_DEV_F_VIRTFN) &&
	       (bridge_asked || !(d->flags & PCIEAUDIT_DEV_F_BRIDGE)) &&
	       pa_match_device(&e->match, d);
}

static void describe(const struct pa_inv_device *e, char *buf, size_t len)
{
	static const char *const kinds[] = { "GPU", "accelerator", "NIC", "NVMe drive" };
	size_t n = (size_t)snprintf(buf, len, "%s", e->match.kind >= 0 ?
				    kinds[e->match.kind] : "function");

	if (e->match.has_class && n < len)
		n += (size_t)snprintf(buf + n, len - n, " of class %06x", e->match.class_value);
	if (e->match.has_vendor && n < len)
		n += (size_t)snprintf(buf + n, len - n, " %04x:", e->match.vendor);
	if (e->match.has_device && n < len)
		snprintf(buf + n, len - n, "%s%04x", e->match.has_vendor ? "" : " device ",
			 e->match.device);
	else if (e->match.has_vendor && n < len)
		snprintf(buf + n, len - n, "*");
}

static void inv_link(struct pa_check *c, const struct pa_inv_device *e,
		     const struct pa_device *d, char **paths, size_t *unknown,
		     size_t *looked)
{
	char bdf[PA_BDF_LEN], s1[PA_SPEED_TEXT_LEN], s2[PA_SPEED_TEXT_LEN];
	struct pa_link_state got;
	const char *path = paths[d - c->rep->devices];
	bool slow, narrow;

	if (!e->speed && !e->width)
		return;
	/* Unreadable: has_link is false then, and the link unknown. */
	if (pa_device_link_unknown(d) && !(d->addr.devfn & 7)) {
		(*looked)++;
		(*unknown)++;
		return;
	}
	if (!pa_slot_reports_link(c->rep, d))
		return;
	(*looked)++;
	pa_link_decode(&d->link, &got);
	slow = e->speed && got.speed > 0 && got.speed < e->speed;
	narrow = e->width && got.width < e->width;
	if (!slow && !narrow)
		return;
	pa_bdf_format(&d->addr, bdf);
	speed_text(got.speed, s1);
	speed_text(e->speed, s2);
	pa_check_add(c, PA_EX_LINK_BELOW,
		     !narrow && pa_device_kind(d) == PA_KIND_GPU ? PA_SEV_INFO : 0,
		     &d->addr, 1, hardware_remedy,
		     "%s %s at %s trained %s x%u, below the inventory's %s x%u (line %zu)",
		     pa_check_noun(d), bdf, path ? path : "?", s1, got.width,
		     e->speed ? s2 : "any speed,", e->width, e->line);
}

static bool acs_as_asked(enum pa_inv_acs want, const struct pa_acs *acs)
{
	uint16_t redirect = PCI_ACS_RR | PCI_ACS_CR | PCI_ACS_EC;
	uint16_t iso = (PCI_ACS_SV | PCI_ACS_RR | PCI_ACS_CR | PCI_ACS_UF) & acs->cap;

	if (want == PA_INV_ACS_REDIRECT_OFF)
		return !(acs->ctrl & redirect);
	return (acs->ctrl & iso) == iso;
}

static void inv_acs(struct pa_check *c, const struct pa_inv_device *e,
		    const struct pa_device *d, bool *told, size_t *unknown,
		    size_t *looked)
{
	const struct pa_device *p = d;
	char bdf[PA_BDF_LEN], ebdf[PA_BDF_LEN];

	if (!e->acs)
		return;
	for (size_t steps = 0; steps < c->rep->ndevices &&
	     (p = pa_report_upstream(c->rep, p)); steps++) {
		size_t i = (size_t)(p - c->rep->devices);

		if (p->pcie_type != PCI_EXP_TYPE_ROOT_PORT &&
		    p->pcie_type != PCI_EXP_TYPE_DOWNSTREAM)
			continue;
		(*looked)++;
		if (pa_device_acs_unknown(p)) {
			(*unknown)++;
			continue;
		}
		if (told[i] || (p->has_acs ? acs_as_asked(e->acs, &p->acs) :
				e->acs == PA_INV_ACS_REDIRECT_OFF))
			continue;
		told[i] = true;
		pa_bdf_format(&p->addr, bdf);
		pa_bdf_format(&d->addr, ebdf);
		pa_check_add(c, PA_EX_ACS_DIFFERS, 0, &p->addr, 1,
			     (struct pa_remedy){ PA_REMEDY_BIOS, e->acs == PA_INV_ACS_REDIRECT_OFF ?
			       "the firmware's ACS setting, or pci=config_acs= / disable_acs_redir= of the port" :
			       "the firmware's ACS setting; drop the pci= parameter that clears it" },
			     "%s %s above %s: ACS control %s%04x, the inventory asks %s (line %zu)",
			     pa_check_noun(p), bdf, ebdf, p->has_acs ? "0x" : "none, not 0x",
			     p->has_acs ? p->acs.ctrl : 0,
			     e->acs == PA_INV_ACS_REDIRECT_OFF ? "redirect-off" : "isolating",
			     e->line);
	}
}

static bool group_isolated(const struct pa_report *rep, const struct pa_device *d)
{
	for (size_t i = 0; i < rep->ndevices; i++) {
		const struct pa_device *o = &rep->devices[i];

		if (o != d && same_group(o, d) && !pa_addr_same_slot(&o->addr, &d->addr) &&
		    !(o->flags & PCIEAUDIT_DEV_F_BRIDGE))
			return false;
	}
	return true;
}

static int pair_kind(const struct pa_report *rep, const struct pa_p2p_pair *p)
{
	const struct pa_device *a = pa_report_find(rep, &p->provider);
	const struct pa_device *b = pa_report_find(rep, &p->client);
	enum pa_kind ka, kb;

	if (!a || !b)
		return -1;
	ka = pa_device_kind(a);
	kb = pa_device_kind(b);
	if (ka != PA_KIND_GPU && kb == PA_KIND_GPU) {
		kb = ka;
		ka = PA_KIND_GPU;
	}
	if (ka != PA_KIND_GPU)
		return -1;
	return kb == PA_KIND_GPU ? PA_INV_GPU_GPU : kb == PA_KIND_NIC ?
	       PA_INV_GPU_NIC : kb == PA_KIND_NVME ? PA_INV_GPU_NVME : -1;
}

static void inv_p2p(struct pa_check *c, const struct pa_inventory *inv)
{
	static const char *const kinds[] = { "gpu-gpu", "gpu-nic", "gpu-nvme" };
	char a[PA_BDF_LEN], b[PA_BDF_LEN];
	size_t looked = 0, unknown = 0;
	bool asked = false;

	for (int k = 0; k < PA_INV_NPAIRS; k++)
		asked |= inv->p2p[k] != 0;
	if (!asked) {
		pa_check_skip(c, PA_EX_P2P_DIFFERS, "the inventory gives no P2P verdict");
		return;
	}
	if (!c->rep->has_p2p) {
		pa_check_skip(c, PA_EX_P2P_DIFFERS, "this host's source gives no P2P verdicts");
		return;
	}
	for (size_t i = 0; i < c->rep->p2p.npairs; i++) {
		const struct pa_p2p_pair *p = &c->rep->p2p.pairs[i];
		int k = pair_kind(c->rep, p);
		uint32_t got;

		if (k < 0 || !inv->p2p[k])
			continue;
		looked++;
		got = pa_p2p_verdict_map(p);
		unknown += !got;
		if (!got || got == inv->p2p[k])
			continue;
		pa_bdf_format(&p->provider, a);
		pa_bdf_format(&p->client, b);
		pa_check_add(c, PA_EX_P2P_DIFFERS, 0,
			     (struct pa_addr[]){ p->provider, p->client }, 2, none,
			     "P2P %s -> %s: %s, the inventory's %s is %s",
			     a, b, map_name(got), kinds[k], map_name(inv->p2p[k]));
	}
	unknown_skip(c, PA_EX_P2P_DIFFERS, unknown, looked,
		     "no kernel verdict without the module for a path through the root complex");
}

static void inv_iommu(struct pa_check *c, const struct pa_inventory *inv)
{
	const char *got = iommu_mode(c->rep), *want;
	char bdf[PA_BDF_LEN];

	if (!inv->iommu_mode && inv->isolated < 0) {
		pa_check_skip(c, PA_EX_IOMMU_DIFFERS, "the inventory says nothing of the IOMMU");
		return;
	}
	if (c->rep->info.iommu_unknown || !got) {
		pa_check_skip(c, PA_EX_IOMMU_DIFFERS, "%s", iommu_unknown_why);
		return;
	}
	want = inv->iommu_mode == PA_INV_IOMMU_OFF ? "off" :
	       inv->iommu_mode ? pa_iommu_mode_name(inv->iommu_mode) : NULL;
	if (want && strcmp(want, got))
		pa_check_add(c, PA_EX_IOMMU_DIFFERS, 0, NULL, 0,
			     (struct pa_remedy){ PA_REMEDY_CMDLINE_ADD, "the IOMMU parameters of the inventory's mode (iommu=pt for passthrough; intel_iommu=on, amd_iommu= for translated)" },
			     "IOMMU default domains: %s, the inventory's %s", got, want);
	if (inv->isolated != 1 || !pa_check_iommu_on(c->rep))
		return;
	for (size_t i = 0; i < c->rep->ndevices; i++) {
		const struct pa_device *d = &c->rep->devices[i];
		bool any = false;

		for (size_t k = 0; k < inv->ndevices && !any; k++)
			any = counted(&inv->devices[k], d);
		if (!any || !d->has_iommu || group_isolated(c->rep, d))
			continue;
		pa_bdf_format(&d->addr, bdf);
		pa_check_add(c, PA_EX_IOMMU_DIFFERS, 0, &d->addr, 1,
			     (struct pa_remedy){ PA_REMEDY_BIOS, "ACS on the ports above it (the firmware's ACS setting)" },
			     "%s %s shares IOMMU group %u with other devices; the inventory asks isolated groups",
			     pa_check_noun(d), bdf, d->iommu.group);
	}
}

static void against_inventory(struct pa_check *c, const struct pa_inventory *inv)
{
	size_t lunknown = 0, llooked = 0, aunknown = 0, alooked = 0;
	bool *told = calloc(c->rep->ndevices + 1, sizeof(*told));
	char what[96], **paths = NULL;

	if (!told || pa_slot_paths(c->rep, &paths)) {
		free(told);
		c->err = -ENOMEM;
		return;
	}
	for (size_t k = 0; k < inv->ndevices; k++) {
		const struct pa_inv_device *e = &inv->devices[k];
		long n = 0;

		for (size_t i = 0; i < c->rep->ndevices; i++) {
			const struct pa_device *d = &c->rep->devices[i];

			if (!counted(e, d))
				continue;
			n++;
			inv_link(c, e, d, paths, &lunknown, &llooked);
			inv_acs(c, e, d, told, &aunknown, &alooked);
		}
		describe(e, what, sizeof(what));
		if (e->count >= 0 && n < e->count && filtered(c->rep))
			pa_check_skip(c, PA_EX_DEVICE_MISSING, "%s", filtered_why);
		else if (e->count >= 0 && n < e->count)
			pa_check_add(c, PA_EX_DEVICE_MISSING, 0, NULL, 0, hardware_remedy,
				     "%ld %s expected (inventory line %zu), %ld found",
				     e->count, what, e->line, n);
		else if (e->count >= 0 && n > e->count)
			pa_check_add(c, PA_EX_DEVICE_EXTRA, 0, NULL, 0, none,
				     "%ld %s expected (inventory line %zu), %ld found",
				     e->count, what, e->line, n);
	}
	free(told);
	pa_slot_paths_free(paths, c->rep->ndevices);
	unknown_skip(c, PA_EX_LINK_BELOW, lunknown, llooked,
		     "the source could not read their link registers");
	unknown_skip(c, PA_EX_ACS_DIFFERS, aunknown, alooked,
		     "the source could not read their extended configuration space");
	inv_iommu(c, inv);
	inv_p2p(c, inv);
	pa_check_skip(c, PA_EX_MOVED, "an inventory names no slots: only a golden host tells a device that moved");
}

void pa_check_expect(struct pa_check *c)
{
	const struct pa_expect *ex = c->policy->expect;

	if (ex->golden)
		against_golden(c, ex);
	else
		against_inventory(c, ex->inv);
}
