// SPDX-License-Identifier: GPL-2.0
#include "p2p_infer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>

#include "remedy.h"

/* As pci_bridge_has_acs_redir(). */
static bool redirects(const struct pa_device *d)
{
	return d->has_acs && (d->acs.ctrl & PA_ACS_REDIRECT_BITS);
}

static bool is_above(const struct pa_report *rep, const struct pa_device *a,
		     const struct pa_device *b)
{
	for (size_t steps = 0; b && steps <= rep->ndevices;
	     steps++, b = pa_report_upstream(rep, b))
		if (a == b)
			return true;
	return false;
}

/* Appends d and what is above it, up to (excluding) stop or the root. */
static int chain(const struct pa_report *rep, const struct pa_device *d,
		 const struct pa_device *stop, struct pa_addr_list *hops,
		 struct pa_addr_list *redirect)
{
	int err = 0;

	for (size_t steps = 0; !err && d && d != stop && steps <= rep->ndevices;
	     steps++, d = pa_report_upstream(rep, d)) {
		err = pa_addr_list_add(hops, &d->addr);
		if (!err && redirect && redirects(d))
			err = pa_addr_list_add(redirect, &d->addr);
	}
	return err;
}

static const struct pa_device *common_of(const struct pa_report *rep,
					 const struct pa_device *a,
					 const struct pa_device *b)
{
	for (size_t steps = 0; a && steps <= rep->ndevices;
	     steps++, a = pa_report_upstream(rep, a))
		if (is_above(rep, a, b))
			return a;
	return NULL;
}

/* calc_map_type_and_dist()'s CPU rule; its whitelist is the module's. */
static uint32_t host_rule(const struct pa_report *rep)
{
	const struct pa_host *h = &rep->host;

	if (rep->has_host && h->cpu_vendor && !strcmp(h->cpu_vendor, PA_CPU_AMD) &&
	    h->cpu_family >= 0x17)
		return PCIEAUDIT_P2P_HOST_CPU;
	return 0;
}

/* The first function of list whose ACS the input does not tell. */
static bool unknown_in(const struct pa_report *rep,
		       const struct pa_addr_list *list, struct pa_addr *at)
{
	for (size_t i = 0; i < list->n; i++) {
		const struct pa_device *d = pa_report_find(rep, &list->addrs[i]);

		if (d && pa_device_acs_unknown(d)) {
			*at = d->addr;
			return true;
		}
	}
	return false;
}

bool pa_p2p_acs_unknown_at(const struct pa_report *rep,
			   const struct pa_p2p_pair *p, struct pa_addr *at)
{
	const struct pa_device *common;

	if (!p->has_common || p->redirect.n)
		return false;
	if (unknown_in(rep, &p->hops_provider, at))
		return true;
	common = pa_report_find(rep, &p->common);
	if (common && pa_device_acs_unknown(common)) {
		*at = common->addr;
		return true;
	}
	return unknown_in(rep, &p->hops_client, at);
}

/* Direct only where every function on the way is known not to redirect:
 * with one unknown, the verdict is. */
static void settle(const struct pa_report *rep, struct pa_p2p_pair *p)
{
	struct pa_addr at;

	if (p->has_kernel_distance || p->map != PCIEAUDIT_P2P_MAP_BUS_ADDR ||
	    !pa_p2p_acs_unknown_at(rep, p, &at))
		return;
	p->map = 0;
	p->path = 0;
	p->host_rule = 0;
}

void pa_p2p_settle_unknown(struct pa_report *rep)
{
	for (size_t i = 0; i < rep->p2p.npairs; i++)
		settle(rep, &rep->p2p.pairs[i]);
}

static void verdict(const struct pa_report *rep, struct pa_p2p_pair *p)
{
	p->path_length = (uint32_t)(p->hops_provider.n + p->hops_client.n);
	p->distance = (int32_t)p->path_length;
	if (p->has_common && !p->redirect.n) {
		p->path = PCIEAUDIT_P2P_PATH_COMMON_UPSTREAM;
		p->map = PCIEAUDIT_P2P_MAP_BUS_ADDR;
		p->host_rule = PCIEAUDIT_P2P_HOST_NOT_NEEDED;
		settle(rep, p);
		return;
	}
	p->path = p->has_common ? PCIEAUDIT_P2P_PATH_ACS_REDIRECT :
				  PCIEAUDIT_P2P_PATH_NO_COMMON_UPSTREAM;
	p->host_rule = host_rule(rep);
	p->map = p->host_rule ? PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE : 0;
}

int pa_p2p_infer(const struct pa_report *rep, const struct pa_addr *a,
		 const struct pa_addr *b, struct pa_p2p_pair *pair)
{
	const struct pa_device *pa = pa_report_find(rep, a);
	const struct pa_device *pb = pa_report_find(rep, b);
	const struct pa_device *common = pa && pb ? common_of(rep, pa, pb) : NULL;
	struct pa_p2p_pair p = { .provider = *a, .client = *b };
	int err;

	p.has_common = common != NULL;
	if (common)
		p.common = common->addr;
	/* Redirects in the kernel's order: the provider's side up to and
	 * including the common bridge, then the client's side below it. */
	err = chain(rep, pa, common, &p.hops_provider,
		    common ? &p.redirect : NULL);
	if (!err && common && redirects(common))
		err = pa_addr_list_add(&p.redirect, &common->addr);
	if (!err)
		err = chain(rep, pb, common, &p.hops_client,
			    common ? &p.redirect : NULL);
	if (err) {
		pa_p2p_pair_clear(&p);
		return err;
	}
	verdict(rep, &p);
	*pair = p;
	return 0;
}

static int add_inferred(struct pa_report *rep, const struct pa_addr *a,
			const struct pa_addr *b, struct pa_p2p *to)
{
	struct pa_p2p_pair pair;
	int err = pa_p2p_infer(rep, a, b, &pair);

	if (err)
		return err;
	err = pa_p2p_add(to, &pair);
	if (err)
		pa_p2p_pair_clear(&pair);
	return err;
}

int pa_p2p_fill(struct pa_report *rep, const struct pa_addr *devs, size_t n)
{
	struct pa_p2p more = { 0 };
	int err = 0;

	pa_p2p_sort(&rep->p2p);
	for (size_t i = 0; !err && i < n; i++)
		for (size_t j = 0; !err && j < n; j++)
			if (i != j && !pa_p2p_find(&rep->p2p, &devs[i], &devs[j]))
				err = add_inferred(rep, &devs[i], &devs[j], &more);
	if (!err)
		err = pa_p2p_take(&rep->p2p, &more);
	pa_p2p_clear(&more);
	pa_p2p_sort(&rep->p2p);
	return err;
}
