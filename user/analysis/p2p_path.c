// SPDX-License-Identifier: GPL-2.0
#include "p2p_path.h"

#include "link.h"

static void walk_hops_up(const struct pa_addr_list *hops,
			 const struct pa_addr *self, enum pa_step_role role,
			 pa_step_fn fn, void *arg)
{
	for (size_t i = 0; i < hops->n; i++)
		if (!pa_addr_eq(&hops->addrs[i], self))
			fn(&hops->addrs[i], role, arg);
}

/* The client's hops run from the client up; travel goes down. */
static void walk_hops_down(const struct pa_addr_list *hops,
			   const struct pa_addr *self, pa_step_fn fn, void *arg)
{
	for (size_t i = hops->n; i-- > 0;)
		if (!pa_addr_eq(&hops->addrs[i], self))
			fn(&hops->addrs[i], PA_STEP_DOWN, arg);
}

void pa_path_walk(const struct pa_p2p_pair *pair, pa_step_fn fn, void *arg)
{
	const struct pa_addr *p = &pair->provider, *c = &pair->client;

	fn(p, PA_STEP_PROVIDER, arg);
	if (pa_addr_eq(p, c))
		return;
	walk_hops_up(&pair->hops_provider, p, PA_STEP_UP, fn, arg);
	/* One endpoint may itself be the common bridge (a port and a
	 * function below it): it is already on the path as that endpoint. */
	if (!pair->has_common)
		fn(NULL, PA_STEP_ROOT_COMPLEX, arg);
	else if (!pa_addr_eq(&pair->common, p) && !pa_addr_eq(&pair->common, c))
		fn(&pair->common, PA_STEP_COMMON, arg);
	walk_hops_down(&pair->hops_client, c, fn, arg);
	fn(c, PA_STEP_CLIENT, arg);
}

static double trained_gbps(const struct pa_device *dev)
{
	struct pa_link_state st;

	if (!dev || !dev->has_link)
		return 0;
	pa_link_decode(&dev->link, &st);
	return pa_link_gbps(st.speed, st.width);
}

static double capable_gbps(const struct pa_device *dev)
{
	struct pa_link_state st;

	if (!dev || !dev->has_link)
		return 0;
	pa_link_decode(&dev->link, &st);
	return pa_link_gbps(st.max_speed, st.max_width);
}

static void narrower(const struct pa_report *rep, const struct pa_addr *addr,
		     struct pa_bottleneck *b)
{
	double gbps = trained_gbps(pa_report_find(rep, addr));

	if (gbps <= 0 || (b->found && gbps >= b->gbps))
		return;
	b->found = true;
	b->gbps = gbps;
	b->link = *addr;
}

/* Each side from its endpoint up: a link is then named by the function
 * below it (the GPU, not the switch port above it), whose capability the
 * user knows. */
static void narrowest_on_side(const struct pa_report *rep,
			      const struct pa_addr *end,
			      const struct pa_addr_list *hops,
			      struct pa_bottleneck *b)
{
	narrower(rep, end, b);
	for (size_t i = 0; i < hops->n; i++)
		narrower(rep, &hops->addrs[i], b);
}

static void faster_end(const struct pa_report *rep,
		       const struct pa_p2p_pair *pair, struct pa_bottleneck *b)
{
	double p = capable_gbps(pa_report_find(rep, &pair->provider));
	double c = capable_gbps(pa_report_find(rep, &pair->client));

	b->ends_gbps = p >= c ? p : c;
	b->faster_end = p >= c ? pair->provider : pair->client;
}

void pa_path_bottleneck(const struct pa_report *rep,
			const struct pa_p2p_pair *pair, struct pa_bottleneck *b)
{
	*b = (struct pa_bottleneck){ 0 };
	narrowest_on_side(rep, &pair->provider, &pair->hops_provider, b);
	narrowest_on_side(rep, &pair->client, &pair->hops_client, b);
	faster_end(rep, pair, b);
	/* A Gen4 x16 GPU talking to a NIC on Gen3 x8 gets a quarter of
	 * what it could move: a pairing worth a second look. */
	b->trap = b->found && b->gbps < b->ends_gbps / 2;
}
