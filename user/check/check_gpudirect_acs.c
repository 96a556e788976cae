// SPDX-License-Identifier: GPL-2.0
/*
 * gpudirect.acs-redirect and gpudirect.acs-p2pdma: ACS judged by direction
 * (acs_direction.h), for the direction that carries a pair's traffic: a
 * NIC's or drive's DMA into the accelerator's memory, both ways between
 * two accelerators. The kernel's pci_p2pdma verdict is kept beside it,
 * named for what it is: the rule for in-kernel P2PDMA users.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>
#include <linux/pci_regs.h>

#include "acs_direction.h"
#include "acs_direction_text.h"
#include "bdf.h"
#include "check_gpudirect.h"
#include "check_gpudirect_sw.h"
#include "remedy.h"

/* A port the remedy sets, and on which side of a needed direction. */
struct port_need {
	struct pa_addr addr;
	bool req;
	bool cpl;
	uint16_t ctrl;
};

struct plan {
	struct port_need *v;
	size_t n;
	bool all_ats;		/* every failing requester has ATS on */
	bool any;		/* some direction failed */
};

/* Which directions carry the pair's traffic: [0] provider to client,
 * [1] back. The accelerator is the completer of a NIC's or drive's DMA. */
static void needed(const struct gd *g, const struct pa_p2p_pair *p,
		   bool need[2])
{
	const struct pa_device *a = pa_report_find(g->rep, &p->provider);
	const struct pa_device *b = pa_report_find(g->rep, &p->client);
	bool acc_a = a && pa_gd_accelerator(a), acc_b = b && pa_gd_accelerator(b);

	need[0] = !acc_a || acc_b;
	need[1] = !acc_b || acc_a;
}

static int plan_port(struct plan *pl, const struct pa_report *rep,
		     const struct pa_addr *a, bool req)
{
	const struct pa_device *d = pa_report_find(rep, a);
	struct port_need *v;

	for (size_t i = 0; i < pl->n; i++) {
		if (!pa_addr_eq(&pl->v[i].addr, a))
			continue;
		pl->v[i].req |= req;
		pl->v[i].cpl |= !req;
		return 0;
	}
	v = realloc(pl->v, (pl->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	pl->v = v;
	v[pl->n++] = (struct port_need){
		.addr = *a, .req = req, .cpl = !req,
		.ctrl = d && d->has_acs ? d->acs.ctrl : 0,
	};
	return 0;
}

static int plan_direction(struct plan *pl, const struct pa_report *rep,
			  const struct pa_acs_direction *d)
{
	int err = 0;

	pl->any = true;
	if (d->requester_ats != PA_YES)
		pl->all_ats = false;
	for (size_t i = 0; !err && i < d->req_ports.n; i++)
		err = plan_port(pl, rep, &d->req_ports.addrs[i], true);
	for (size_t i = 0; !err && i < d->cpl_ports.n; i++)
		err = plan_port(pl, rep, &d->cpl_ports.addrs[i], false);
	return err;
}

static int cmp_need(const void *x, const void *y)
{
	const struct port_need *a = x, *b = y;

	return pa_addr_cmp(&a->addr, &b->addr);
}

/* "pci=config_acs=xx110x1@0000:00:02.1;xx101x1@0000:00:02.0": one
 * parameter, since a second pci=config_acs= replaces the first. */
static char *config_acs_param(struct plan *pl, enum pa_acs_intent intent)
{
	struct pa_sb sb = { 0 };

	qsort(pl->v, pl->n, sizeof(*pl->v), cmp_need);
	pa_sb_printf(&sb, "pci=config_acs=");
	for (size_t i = 0; i < pl->n; i++) {
		char bits[8], bdf[PA_BDF_LEN];

		pa_acs_intent_bits(intent, pl->v[i].req, pl->v[i].cpl,
				   pl->v[i].ctrl, bits);
		pa_bdf_format(&pl->v[i].addr, bdf);
		pa_sb_printf(&sb, "%s%s@%s", i ? ";" : "", bits, bdf);
	}
	return pa_sb_take(&sb);
}

/* The ports of every failing direction, in address order, for
 * pci=disable_acs_redir=, which clears ReqRedir, CmpltRedir and
 * EgressCtrl alike. */
static char *disable_redir_param(const struct plan *pl)
{
	struct pa_addr_list list = { 0 };
	char *s;

	for (size_t i = 0; i < pl->n; i++)
		if (pa_addr_list_add(&list, &pl->v[i].addr)) {
			pa_addr_list_clear(&list);
			return NULL;
		}
	s = pa_remedy_disable_acs_redir(&list);
	pa_addr_list_clear(&list);
	return s;
}

static const char *kernel_verdict(const struct pa_p2p_pair *p)
{
	switch (pa_p2p_verdict_map(p)) {
	case PCIEAUDIT_P2P_MAP_BUS_ADDR:
		return "allows it below the common bridge";
	case PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE:
		return "maps it through the host bridge";
	case PCIEAUDIT_P2P_MAP_NOT_SUPPORTED:
		return "refuses it";
	default:
		return "is unknown";
	}
}

static void direction_names(struct pa_sb *sb, const struct gd *g,
			    const struct pa_acs_direction *d)
{
	const struct pa_device *r = pa_report_find(g->rep, &d->requester);
	const struct pa_device *c = pa_report_find(g->rep, &d->completer);
	char x[PA_BDF_LEN], y[PA_BDF_LEN];

	pa_bdf_format(&d->requester, x);
	pa_bdf_format(&d->completer, y);
	pa_sb_printf(sb, "%s %s -> %s %s", pa_check_noun(r), x,
		     pa_check_noun(c), y);
}

static void describe(struct pa_sb *sb, const struct gd *g,
		     const struct pa_acs_direction *d)
{
	direction_names(sb, g, d);
	pa_sb_printf(sb, ": %s (", pa_acs_direction_verdict(d));
	pa_acs_direction_text(sb, d);
	pa_sb_printf(sb, ")");
}

struct judged {
	const struct pa_p2p_pair *p;
	bool need[2];
	struct pa_acs_direction dir[2];
	bool failed;		/* a needed direction goes through the RC */
	bool passed;		/* every needed direction goes peer to peer */
};

static void redirect_finding(struct gd *g, const struct judged *j,
			     const char *remedy, const char *why_param)
{
	struct pa_sb sb = { 0 };
	bool first = true;

	pa_sb_printf(&sb, "ACS keeps the traffic of ");
	pa_gd_pair_names(&sb, g, j->p);
	pa_sb_printf(&sb, " off the peer path, by the PCIe ACS rules (Base 6.0 §6.12): ");
	for (int k = 0; k < 2; k++) {
		if (!j->need[k])
			continue;
		pa_sb_printf(&sb, "%s", first ? "" : "; ");
		describe(&sb, g, &j->dir[k]);
		first = false;
	}
	for (int k = 0; k < 2; k++)
		if (!j->need[k]) {
			pa_sb_printf(&sb, ". The other direction, which it does not need: ");
			describe(&sb, g, &j->dir[k]);
		}
	pa_sb_printf(&sb, ". The kernel's P2PDMA verdict, its rule for in-kernel P2PDMA users, %s. %s",
		     kernel_verdict(j->p), why_param);
	pa_gd_add_pair_finding(g, PA_GD_ACS_REDIRECT,
			       0, j->p, &j->p->redirect,
			       (struct pa_remedy){ PA_REMEDY_CMDLINE_ADD, remedy },
			       &sb);
}

static void p2pdma_finding(struct gd *g, const struct judged *j)
{
	struct pa_sb sb = { 0 };

	pa_sb_printf(&sb, "the kernel's P2PDMA rule, for in-kernel P2PDMA users, sees ACS redirect at ");
	pa_sb_bdfs(&sb, j->p->redirect.addrs, j->p->redirect.n);
	pa_sb_printf(&sb, " between ");
	pa_gd_pair_names(&sb, g, j->p);
	pa_sb_printf(&sb, " and %s; the direction that carries the traffic goes peer to peer all the same: ",
		     kernel_verdict(j->p));
	for (int k = 0, first = 1; k < 2; k++) {
		if (!j->need[k])
			continue;
		pa_sb_printf(&sb, "%s", first ? "" : "; ");
		describe(&sb, g, &j->dir[k]);
		first = 0;
	}
	pa_gd_add_pair_finding(g, PA_GD_ACS_P2PDMA, 0, j->p, NULL,
			       (struct pa_remedy){ PA_REMEDY_NONE, NULL }, &sb);
}

static int judge(struct gd *g, struct judged *j, struct plan *pl)
{
	int err = 0;

	needed(g, j->p, j->need);
	j->passed = true;
	for (int k = 0; k < 2 && !err; k++) {
		err = pa_acs_direction(g->rep, j->p, k, &j->dir[k]);
		if (err || !j->need[k])
			continue;
		if (j->dir[k].peer_to_peer == PA_NO) {
			j->failed = true;
			err = plan_direction(pl, g->rep, &j->dir[k]);
		}
		if (j->dir[k].peer_to_peer != PA_YES)
			j->passed = false;
	}
	return err;
}

/* The remedy for every failing direction at once, and a sentence on it. */
static char *remedy_text(struct gd *g, struct plan *pl, char *why, size_t len)
{
	const char *release = g->rep->info.kernel_release;
	enum pa_acs_intent intent = pl->all_ats ? PA_ACS_INTENT_VM_ATS :
				    PA_ACS_INTENT_BARE_METAL;
	char kernel[600], *param;

	if (pa_acs_param_state(release, PA_ACS_PARAM_CONFIG_ACS) ==
	    PA_ACS_PARAM_ABSENT) {
		char *per = config_acs_param(pl, intent);

		param = disable_redir_param(pl);
		snprintf(why, len, "This kernel has no pci=config_acs= (Linux 6.11): pci=disable_acs_redir= clears ReqRedir, CmpltRedir and EgressCtrl both ways on these ports; with 6.11 or later, %s sets each port for its direction",
			 per ? per : "pci=config_acs=");
		free(per);
		return param;
	}
	param = config_acs_param(pl, intent);
	snprintf(why, len, "The remedy sets every port on a failing direction %s. %s",
		 intent == PA_ACS_INTENT_VM_ATS ?
		 "for VMs with ATS: DirectTrans on, so translated requests go peer to peer while untranslated ones stay redirected and IOMMU groups stay apart (\"1x111x1\")" :
		 "for bare metal as NVIDIA's rdma_topo does: ReqRedir off where requests enter (\"xx110x1\"), CmpltRedir off where completions enter (\"xx101x1\"), both where both do; the IOMMU groups of the ports' devices merge",
		 pa_acs_param_on_kernel(release, PA_ACS_PARAM_CONFIG_ACS, pl->n,
					kernel, sizeof(kernel)));
	return param;
}

void pa_gd_check_acs(struct gd *g)
{
	struct judged *js = calloc(g->npairs + 1, sizeof(*js));
	struct plan pl = { .all_ats = true };
	char why[2048];
	char *param = NULL;
	size_t unknown = 0;
	int err = js ? 0 : -ENOMEM;

	for (size_t i = 0; !err && i < g->npairs; i++) {
		js[i].p = g->pairs[i];
		/* Without a common bridge the traffic crosses the root complex
		 * whatever ACS says (gpudirect.p2p-*), and NVLink or XGMI
		 * carries it where they join the pair; p2p shows its ACS. */
		if (g->pairs[i]->has_common &&
		    !pa_gd_accel_link(g->rep, g->pairs[i]))
			err = judge(g, &js[i], &pl);
		else
			js[i].passed = true;
	}
	if (!err && pl.any) {
		param = remedy_text(g, &pl, why, sizeof(why));
		if (!param)
			err = -ENOMEM;
	}
	for (size_t i = 0; !err && i < g->npairs; i++) {
		if (js[i].failed)
			redirect_finding(g, &js[i], param, why);
		else if (js[i].passed &&
			 js[i].p->path == PCIEAUDIT_P2P_PATH_ACS_REDIRECT)
			p2pdma_finding(g, &js[i]);
		else if (!js[i].passed)
			unknown++;
	}
	if (!err && unknown)
		pa_check_note(g->c, PA_GD_ACS_REDIRECT,
			      "%zu pair%s checked, %zu with ACS unknown on the way",
			      g->npairs, g->npairs == 1 ? "" : "s", unknown);
	if (err)
		g->c->err = err;
	for (size_t i = 0; js && i < g->npairs; i++)
		for (int k = 0; k < 2; k++)
			pa_acs_direction_clear(&js[i].dir[k]);
	free(js);
	free(pl.v);
	free(param);
}
