// SPDX-License-Identifier: GPL-2.0
/*
 * gpudirect: P2P readiness of each accelerator with the NICs, NVMe drives
 * and accelerators it would use. By default a pair is an accelerator and
 * its nearest partners of each kind (by nvidia-smi's legend, ties all
 * kept), as NCCL and GDS pick them; the policy can ask for every pair.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>

#include "abi_names.h"
#include "bdf.h"
#include "check.h"
#include "check_gpudirect.h"
#include "check_gpudirect_sw.h"
#include "link.h"
#include "p2p_infer.h"
#include "p2p_path.h"
#include "remedy.h"
#include "strbuf.h"
#include "topo.h"

bool pa_gd_accelerator(const struct pa_device *d)
{
	enum pa_kind k = pa_device_kind(d);

	return k == PA_KIND_GPU || k == PA_KIND_ACC;
}

#define accelerator pa_gd_accelerator

/* Partners come in three sorts: accelerators, NICs, NVMe drives. */
static int sort_of(const struct pa_device *d)
{
	return accelerator(d) ? PA_KIND_GPU : (int)pa_device_kind(d);
}

/* The pair as checked: from the accelerator, between two accelerators
 * from the lower address, so each pair is checked once. */
static const struct pa_p2p_pair *pair_of(const struct gd *g,
					 const struct pa_device *a,
					 const struct pa_device *b)
{
	if (accelerator(b) && pa_addr_cmp(&b->addr, &a->addr) < 0)
		return pa_p2p_find(&g->rep->p2p, &b->addr, &a->addr);
	return pa_p2p_find(&g->rep->p2p, &a->addr, &b->addr);
}

static bool chosen(const struct gd *g, const struct pa_p2p_pair *p)
{
	for (size_t i = 0; i < g->npairs; i++)
		if (g->pairs[i] == p)
			return true;
	return false;
}

static void choose(struct gd *g, const struct pa_p2p_pair *p)
{
	const struct pa_p2p_pair **v;

	if (!p || chosen(g, p))
		return;
	v = realloc(g->pairs, (g->npairs + 1) * sizeof(*v));
	if (!v) {
		g->c->err = -ENOMEM;
		return;
	}
	g->pairs = v;
	v[g->npairs++] = p;
}

/* The devices pairs are made of (pa_check_gpudirect_partner(): the same
 * test chose the pairs loading added). */
static int collect_partners(struct gd *g)
{
	const struct pa_report *rep = g->rep;

	g->partners = calloc(rep->ndevices + 1, sizeof(*g->partners));
	if (!g->partners)
		return -ENOMEM;
	for (size_t i = 0; i < rep->ndevices; i++) {
		const struct pa_device *d = &rep->devices[i];

		if (pa_check_gpudirect_partner(g->c->policy, d))
			g->partners[g->npartners++] = d;
	}
	return 0;
}

/* The pairs of accelerator a with partners of one sort: all of them, or
 * those at the nearest legend. */
static void choose_for(struct gd *g, const struct pa_device *a, int sort)
{
	enum pa_legend best = PA_NLEGENDS;

	for (size_t pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < g->npartners; i++) {
			const struct pa_device *b = g->partners[i];
			const struct pa_p2p_pair *p;
			enum pa_legend l;

			if (b == a || sort_of(b) != sort || !(p = pair_of(g, a, b)))
				continue;
			l = pa_legend_of(g->rep, p);
			if (!pass && l < best)
				best = l;
			else if (pass && (g->c->policy->all_pairs || l == best))
				choose(g, p);
		}
	}
}

static void choose_pairs(struct gd *g)
{
	static const int sorts[] = { PA_KIND_GPU, PA_KIND_NIC, PA_KIND_NVME };

	if (collect_partners(g)) {
		g->c->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < g->npartners; i++) {
		if (!accelerator(g->partners[i]))
			continue;
		for (size_t s = 0; s < sizeof(sorts) / sizeof(sorts[0]); s++)
			choose_for(g, g->partners[i], sorts[s]);
	}
}

/* "GPU 0000:03:00.0 and NIC 0000:04:00.0" */
void pa_gd_pair_names(struct pa_sb *sb, const struct gd *g,
		      const struct pa_p2p_pair *p)
{
	const struct pa_device *a = pa_report_find(g->rep, &p->provider);
	const struct pa_device *b = pa_report_find(g->rep, &p->client);
	char x[PA_BDF_LEN], y[PA_BDF_LEN];

	pa_bdf_format(&p->provider, x);
	pa_bdf_format(&p->client, y);
	pa_sb_printf(sb, "%s %s and %s %s", pa_check_noun(a), x,
		     pa_check_noun(b), y);
}

void pa_gd_add_pair_finding(struct gd *g, enum pa_rule_id rule,
			    enum pa_severity sev, const struct pa_p2p_pair *p,
			    const struct pa_addr_list *more,
			    struct pa_remedy remedy, struct pa_sb *msg)
{
	struct pa_addr_list devs = { 0 };
	char *text;
	int err = pa_addr_list_add(&devs, &p->provider);

	if (!err)
		err = pa_addr_list_add(&devs, &p->client);
	for (size_t i = 0; !err && more && i < more->n; i++)
		err = pa_addr_list_add(&devs, &more->addrs[i]);
	text = pa_sb_take(msg);
	if (err || !text)
		g->c->err = -ENOMEM;
	else
		pa_check_add(g->c, rule, sev, devs.addrs, devs.n, remedy, "%s",
			     text);
	free(text);
	pa_addr_list_clear(&devs);
}

/* The first bridge on the pair's path whose ACS the input does not show:
 * whether it redirects is then unknown, never "no". */
static const struct pa_device *acs_unknown_hop(const struct gd *g,
					       const struct pa_p2p_pair *p)
{
	const struct pa_addr_list *lists[] = { &p->hops_provider, &p->hops_client };

	for (size_t l = 0; l < 2; l++) {
		for (size_t i = 0; i < lists[l]->n; i++) {
			const struct pa_device *d =
				pa_report_find(g->rep, &lists[l]->addrs[i]);

			if (d && (d->flags & PCIEAUDIT_DEV_F_BRIDGE) &&
			    pa_device_acs_unknown(d))
				return d;
		}
	}
	return NULL;
}

static void check_redirect_unknown(struct gd *g, const struct pa_p2p_pair *p,
				   const struct pa_device *d)
{
	struct pa_sb sb = { 0 };
	char bdf[PA_BDF_LEN];
	struct pa_addr_list at = { 0 };

	pa_bdf_format(&d->addr, bdf);
	pa_sb_printf(&sb, "whether ACS redirects P2P between ");
	pa_gd_pair_names(&sb, g, p);
	pa_sb_printf(&sb, " is unknown: the ACS of %s %s is unknown (%s)",
		     pa_check_noun(d), bdf, pa_device_acs_unknown(d));
	if (pa_addr_list_add(&at, &d->addr))
		g->c->err = -ENOMEM;
	pa_gd_add_pair_finding(g, PA_GD_ACS_REDIRECT, PA_SEV_INFO, p, &at,
			 (struct pa_remedy){ PA_REMEDY_COMMAND,
			 "capture the full configuration space as root (lspci -xxxx) and check again" }, &sb);
	pa_addr_list_clear(&at);
}

static const char *host_rule_text(uint32_t rule)
{
	switch (rule) {
	case PCIEAUDIT_P2P_HOST_CPU:
		return "allowed: AMD Zen CPU";
	case PCIEAUDIT_P2P_HOST_WHITELIST:
		return "allowed: whitelisted host bridge";
	default:
		return "allowed";
	}
}

/* A pair's own part of a grouped root-complex finding. */
static char *member_text(const struct gd *g, const struct pa_p2p_pair *p,
			 const char *detail)
{
	struct pa_sb sb = { 0 };

	pa_gd_pair_names(&sb, g, p);
	pa_sb_printf(&sb, " (%s)", detail);
	return pa_sb_take(&sb);
}

static void add_grouped(struct gd *g, enum pa_rule_id rule,
			const struct pa_p2p_pair *p, struct pa_remedy remedy,
			struct pa_sb *msg, const char *group, const char *detail)
{
	size_t before = g->c->nfindings;
	char *member = member_text(g, p, detail);

	if (!member) {
		pa_sb_clear(msg);
		g->c->err = -ENOMEM;
		return;
	}
	pa_gd_add_pair_finding(g, rule, 0, p, NULL, remedy, msg);
	pa_check_group_last(g->c, before, group, member);
	free(member);
}

static void check_root_complex(struct gd *g, const struct pa_p2p_pair *p)
{
	const char *legend = pa_legend_name(pa_legend_of(g->rep, p));
	char cmd[2 * PA_BDF_LEN + 32], x[PA_BDF_LEN], y[PA_BDF_LEN];
	char detail[96];
	/* The kernel's verdict where it gave one, pcieaudit's otherwise. */
	uint32_t map = pa_p2p_verdict_map(p);
	struct pa_sb sb = { 0 };

	pa_bdf_format(&p->provider, x);
	pa_bdf_format(&p->client, y);
	if (map == PCIEAUDIT_P2P_MAP_NOT_SUPPORTED) {
		pa_sb_printf(&sb, "the kernel refuses P2P DMA between ");
		pa_gd_pair_names(&sb, g, p);
		pa_sb_printf(&sb, " (%s): no common upstream bridge, not an AMD Zen CPU, and the host bridge is not on the kernel's P2PDMA whitelist",
			     legend);
		add_grouped(g, PA_GD_P2P_REFUSED, p,
			    (struct pa_remedy){ PA_REMEDY_HARDWARE,
			    "place both devices below one PCIe switch or root port" },
			    &sb, "the kernel refuses P2P DMA between these pairs: no common upstream bridge, not an AMD Zen CPU, and the host bridge is not on the kernel's P2PDMA whitelist",
			    legend);
	} else if (map == PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE) {
		pa_sb_printf(&sb, "P2P DMA between ");
		pa_gd_pair_names(&sb, g, p);
		pa_sb_printf(&sb, " crosses the root complex (%s, %s)", legend,
			     host_rule_text(p->host_rule));
		snprintf(detail, sizeof(detail), "%s, %s", legend,
			 host_rule_text(p->host_rule));
		add_grouped(g, PA_GD_P2P_HOST_BRIDGE, p,
			    (struct pa_remedy){ PA_REMEDY_HARDWARE,
			    "for direct P2P, place both devices below one PCIe switch" },
			    &sb, "P2P DMA between these pairs crosses the root complex",
			    detail);
	} else {
		snprintf(cmd, sizeof(cmd), "pcieaudit-cli p2p %s %s", x, y);
		pa_sb_printf(&sb, "no kernel verdict for ");
		pa_gd_pair_names(&sb, g, p);
		pa_sb_printf(&sb, ": their path crosses the root complex (%s), which the kernel allows only on AMD Zen CPUs and whitelisted host bridges; the module can tell",
			     legend);
		pa_gd_add_pair_finding(g, PA_GD_P2P_UNKNOWN, 0, p, NULL,
				 (struct pa_remedy){ PA_REMEDY_COMMAND, cmd }, &sb);
	}
}

static void check_numa(struct gd *g, const struct pa_p2p_pair *p)
{
	const struct pa_device *a = pa_report_find(g->rep, &p->provider);
	const struct pa_device *b = pa_report_find(g->rep, &p->client);
	struct pa_sb sb = { 0 };
	char x[PA_BDF_LEN], y[PA_BDF_LEN];

	if (!a || !b || a->numa_node < 0 || b->numa_node < 0 ||
	    a->numa_node == b->numa_node)
		return;
	pa_bdf_format(&a->addr, x);
	pa_bdf_format(&b->addr, y);
	pa_sb_printf(&sb, "%s %s is on NUMA node %d, %s %s on node %d: their P2P traffic crosses the inter-socket link",
		     pa_check_noun(a), x, a->numa_node, pa_check_noun(b), y,
		     b->numa_node);
	pa_gd_add_pair_finding(g, PA_GD_NUMA_REMOTE, 0, p, NULL,
			 (struct pa_remedy){ PA_REMEDY_HARDWARE,
			 "pair each accelerator with devices on its own NUMA node" }, &sb);
}

/* A pair whose NUMA nodes are unknown was not checked: when none was,
 * the rule cannot tell (an lspci dump, a VM without NUMA information). */
static void numa_unknown(struct gd *g)
{
	size_t unknown = 0;

	for (size_t i = 0; i < g->npairs; i++) {
		const struct pa_device *a = pa_report_find(g->rep, &g->pairs[i]->provider);
		const struct pa_device *b = pa_report_find(g->rep, &g->pairs[i]->client);

		unknown += !a || !b || a->numa_node < 0 || b->numa_node < 0;
	}
	if (unknown == g->npairs)
		pa_check_skip(g->c, PA_GD_NUMA_REMOTE,
			      "the NUMA nodes of the devices are unknown");
	else if (unknown)
		pa_check_note(g->c, PA_GD_NUMA_REMOTE,
			      "%zu pair%s checked, %zu more with a NUMA node unknown",
			      g->npairs - unknown, g->npairs - unknown == 1 ? "" : "s",
			      unknown);
}

static void rate_text(struct pa_sb *sb, const struct pa_device *d)
{
	char speed[PA_SPEED_TEXT_LEN];
	struct pa_link_state st;

	pa_link_decode(&d->link, &st);
	pa_link_format_speed(st.speed, speed);
	pa_sb_printf(sb, "%s x%u", speed, st.width);
}

static void check_trap(struct gd *g, const struct pa_p2p_pair *p)
{
	const struct pa_device *a = pa_report_find(g->rep, &p->provider);
	const struct pa_device *b = pa_report_find(g->rep, &p->client);
	double ratio = g->c->policy->trap_ratio;
	char at[PA_BDF_LEN], fast[PA_BDF_LEN];
	const struct pa_device *narrow;
	struct pa_bottleneck bn;
	struct pa_sb sb = { 0 };
	bool idle;

	if (!a || !b || pa_device_kind(a) == PA_KIND_NVME ||
	    pa_device_kind(b) == PA_KIND_NVME)
		return;
	pa_path_bottleneck(g->rep, p, &bn);
	if (!bn.found || !(bn.gbps < ratio * bn.ends_gbps))
		return;
	narrow = pa_report_find(g->rep, &bn.link);
	/* As link-downgraded judges the same link: an idle GPU is INFO. */
	idle = narrow && pa_check_link_idle(g->rep, narrow);
	pa_bdf_format(&bn.link, at);
	pa_bdf_format(&bn.faster_end, fast);
	pa_sb_printf(&sb, "the narrowest link between ");
	pa_gd_pair_names(&sb, g, p);
	pa_sb_printf(&sb, " carries %.2f GB/s (at %s, ", bn.gbps, at);
	rate_text(&sb, narrow);
	pa_sb_printf(&sb, "), under %.0f%% of the %.2f GB/s %s can do%s",
		     ratio * 100, bn.ends_gbps, fast,
		     idle ? "; GPUs lower their link speed when idle, so check again under load" : "");
	pa_gd_add_pair_finding(g, PA_GD_BANDWIDTH_TRAP, idle ? PA_SEV_INFO : 0, p, NULL,
			 (struct pa_remedy){ PA_REMEDY_HARDWARE,
			 "move the slower device to a slot with a faster, wider link, or pair the accelerator with a faster one" }, &sb);
}

static void check_pairs(struct gd *g)
{
	/* ACS, by direction, explains the paths the kernel sees redirected. */
	pa_gd_check_acs(g);
	for (size_t i = 0; i < g->npairs; i++) {
		const struct pa_p2p_pair *p = g->pairs[i];
		const struct pa_accel_link *l = pa_gd_accel_link(g->rep, p);
		const struct pa_device *unknown = acs_unknown_hop(g, p);
		bool redirected = p->path == PCIEAUDIT_P2P_PATH_ACS_REDIRECT &&
				  p->redirect.n;
		/* Below a common bridge, with unknown ACS on the way (the
		 * common bridge or an endpoint too): no verdict, and no root
		 * complex crossed either. */
		struct pa_addr at;
		bool open = pa_p2p_acs_unknown_at(g->rep, p, &at) &&
			    !pa_p2p_verdict_map(p);

		/* NVLink or XGMI carries the pair's traffic, not PCIe. */
		if (l) {
			pa_gd_accel_finding(g->c, p, l);
			g->joined++;
			continue;
		}
		if (!unknown && open)
			unknown = pa_report_find(g->rep, &at);
		if (!redirected && unknown)
			check_redirect_unknown(g, p, unknown);
		if (!redirected && !open &&
		    pa_p2p_verdict_map(p) != PCIEAUDIT_P2P_MAP_BUS_ADDR)
			check_root_complex(g, p);
		check_numa(g, p);
		check_trap(g, p);
	}
}

struct path_devs {
	struct pa_addr_list *list;
	int err;
};

static void collect(const struct pa_addr *addr, enum pa_step_role role,
		    void *arg)
{
	struct path_devs *pd = arg;

	/* The common bridge's own link leads up, off the path. */
	if (addr && role != PA_STEP_COMMON && !pd->err)
		pd->err = pa_addr_list_add(pd->list, addr);
}

static bool listed(const struct pa_addr_list *list, size_t before,
		   const struct pa_addr *a)
{
	for (size_t i = 0; i < before; i++)
		if (pa_addr_eq(&list->addrs[i], a))
			return true;
	return false;
}

static void check_links(struct gd *g)
{
	struct pa_addr_list all = { 0 };
	struct path_devs pd = { &all, 0 };
	char bdf[PA_BDF_LEN];

	for (size_t i = 0; i < g->npairs; i++)
		if (!pa_gd_accel_link(g->rep, g->pairs[i]))
			pa_path_walk(g->pairs[i], collect, &pd);
	for (size_t i = 0; !pd.err && i < all.n; i++) {
		const struct pa_device *d = pa_report_find(g->rep, &all.addrs[i]);
		char want[PA_SPEED_TEXT_LEN];
		struct pa_sb sb = { 0 };
		unsigned int width;
		bool speed_only, idle;
		double speed;
		char *text;

		if (!d || listed(&all, i, &d->addr) ||
		    !pa_link_below(g->rep, d, &speed, &width, &speed_only))
			continue;
		idle = speed_only && pa_device_kind(d) == PA_KIND_GPU;
		pa_bdf_format(&d->addr, bdf);
		pa_link_format_speed(speed, want);
		pa_sb_printf(&sb, "%s %s, on a P2P path, trained ", pa_check_noun(d), bdf);
		rate_text(&sb, d);
		pa_sb_printf(&sb, " though both ends support %s x%u%s", want, width,
			     idle ? "; GPUs lower their link speed when idle, so check again under load" : "");
		text = pa_sb_take(&sb);
		if (!text)
			pd.err = -ENOMEM;
		else
			pa_check_add(g->c, PA_GD_LINK_DOWNGRADED,
				     idle ? PA_SEV_INFO : 0, &d->addr, 1,
				     (struct pa_remedy){ PA_REMEDY_HARDWARE,
				     "reseat the card; check the slot, the riser and the firmware's PCIe speed setting" },
				     "%s", text);
		free(text);
	}
	if (pd.err)
		g->c->err = pd.err;
	pa_addr_list_clear(&all);
}

static void check_iommu(struct gd *g)
{
	const struct pa_info *in = &g->rep->info;
	const char *strict = pa_iommu_strict_name(in->iommu_strict);

	if (g->rep->info.iommu_unknown) {
		pa_check_skip(g->c, PA_GD_IOMMU_TRANSLATED,
			      "the IOMMU is unknown: not in the input");
		return;
	}
	if (!pa_check_iommu_on(g->rep)) {
		pa_check_note(g->c, PA_GD_IOMMU_TRANSLATED, "no IOMMU");
		return;
	}
	switch (in->iommu_def_mode) {
	case PCIEAUDIT_IOMMU_MODE_PASSTHROUGH:
		pa_check_note(g->c, PA_GD_IOMMU_TRANSLATED, "IOMMU in passthrough");
		break;
	case PCIEAUDIT_IOMMU_MODE_TRANSLATED:
		pa_check_add(g->c, PA_GD_IOMMU_TRANSLATED, 0, NULL, 0,
			     (struct pa_remedy){ PA_REMEDY_CMDLINE_ADD, "iommu=pt" },
			     "the IOMMU translates DMA by default (%s): peer traffic pays for IOMMU translation, and GPUDirect RDMA needs IOMMU mappings of the peer's BARs",
			     strict ? strict : "strictness unknown");
		break;
	default:
		pa_check_skip(g->c, PA_GD_IOMMU_TRANSLATED,
			      "the IOMMU's default mode is unknown");
	}
}

static const enum pa_rule_id pair_rules[] = {
	PA_GD_ACS_REDIRECT, PA_GD_P2P_REFUSED, PA_GD_P2P_HOST_BRIDGE,
	PA_GD_P2P_UNKNOWN, PA_GD_NUMA_REMOTE, PA_GD_LINK_DOWNGRADED,
	PA_GD_BANDWIDTH_TRAP, PA_GD_ACS_P2PDMA, PA_GD_BAR_SMALL,
	PA_GD_MPS_MISMATCH, PA_GD_RELAXED_ORDERING,
};

void pa_check_gpudirect(struct pa_check *c)
{
	struct gd g = { .c = c, .rep = c->rep };
	size_t n = sizeof(pair_rules) / sizeof(pair_rules[0]);

	choose_pairs(&g);
	for (size_t r = 0; r < n; r++) {
		if (g.npairs)
			pa_check_note(c, pair_rules[r], "%zu pair%s checked",
				      g.npairs, g.npairs == 1 ? "" : "s");
		else
			pa_check_skip(c, pair_rules[r],
				      "no accelerator with a partner selected");
	}
	if (g.npairs) {
		check_pairs(&g);
		check_links(&g);
		numa_unknown(&g);
		pa_gd_check_devices(&g);
	}
	pa_gd_accel_note(c, g.joined);
	pa_gd_software(c);
	check_iommu(&g);
	free(g.partners);
	free(g.pairs);
}
