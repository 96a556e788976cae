// SPDX-License-Identifier: GPL-2.0
#include "fabric_graph.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "fabric.h"
#include "link.h"

static const char *const classes[PA_NGNODE_KINDS] = {
	[PA_GN_HOST_BRIDGE] = "host-bridge", [PA_GN_ROOT_PORT] = "root-port",
	[PA_GN_SWITCH_UP] = "switch-up", [PA_GN_SWITCH_DOWN] = "switch-down",
	[PA_GN_BRIDGE] = "bridge", [PA_GN_GPU] = "gpu",
	[PA_GN_ACC] = "accelerator", [PA_GN_NIC] = "nic", [PA_GN_NVME] = "nvme",
	[PA_GN_OTHER] = "other", [PA_GN_UNKNOWN] = "unknown",
};

const char *pa_gnode_class(enum pa_gnode_kind kind)
{
	return kind < PA_NGNODE_KINDS ? classes[kind] : "unknown";
}

static int add_node(struct pa_graph *g, const struct pa_gnode *n, size_t *at)
{
	struct pa_gnode *p = realloc(g->nodes, (g->nnodes + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	g->nodes = p;
	p[g->nnodes] = *n;
	*at = g->nnodes++;
	return 0;
}

static int add_edge(struct pa_graph *g, const struct pa_gedge *e)
{
	struct pa_gedge *p = realloc(g->edges, (g->nedges + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	g->edges = p;
	p[g->nedges++] = *e;
	return 0;
}

size_t pa_graph_find(const struct pa_graph *g, const struct pa_addr *addr)
{
	for (size_t i = 0; i < g->nnodes; i++)
		if (g->nodes[i].kind != PA_GN_HOST_BRIDGE &&
		    pa_addr_eq(&g->nodes[i].addr, addr))
			return i;
	return PA_GN_NONE;
}

static size_t find_host_bridge(const struct pa_graph *g,
			       const struct pa_addr *root)
{
	for (size_t i = 0; i < g->nnodes; i++)
		if (g->nodes[i].kind == PA_GN_HOST_BRIDGE &&
		    g->nodes[i].addr.domain == root->domain &&
		    g->nodes[i].addr.bus == root->bus)
			return i;
	return PA_GN_NONE;
}

static enum pa_gnode_kind kind_of(const struct pa_device *d)
{
	switch (d->pcie_type) {
	case PCI_EXP_TYPE_ROOT_PORT:
		return PA_GN_ROOT_PORT;
	case PCI_EXP_TYPE_UPSTREAM:
		return PA_GN_SWITCH_UP;
	case PCI_EXP_TYPE_DOWNSTREAM:
		return PA_GN_SWITCH_DOWN;
	default:
		break;
	}
	if (d->has_secondary_bus || (d->flags & PCIEAUDIT_DEV_F_BRIDGE))
		return PA_GN_BRIDGE;
	switch (pa_device_kind(d)) {
	case PA_KIND_GPU:
		return PA_GN_GPU;
	case PA_KIND_ACC:
		return PA_GN_ACC;
	case PA_KIND_NIC:
		return PA_GN_NIC;
	case PA_KIND_NVME:
		return PA_GN_NVME;
	default:
		return PA_GN_OTHER;
	}
}

static bool is_port(enum pa_gnode_kind k)
{
	return k == PA_GN_ROOT_PORT || k == PA_GN_SWITCH_DOWN ||
	       k == PA_GN_SWITCH_UP || k == PA_GN_BRIDGE;
}

/* The node of dev, added with every bridge above it; *at its index. */
static int add_function(const struct pa_report *rep, struct pa_graph *g,
			const struct pa_device *dev, size_t *at)
{
	size_t chain[64], n = 0, parent = PA_GN_NONE;
	const struct pa_device *d = dev;
	struct pa_addr root;
	int err;

	/* Up to the first function already drawn, or the top. */
	while (d && n < sizeof(chain) / sizeof(chain[0])) {
		size_t i = pa_graph_find(g, &d->addr);
		struct pa_gnode node = {
			.kind = kind_of(d), .addr = d->addr, .dev = d,
			.parent = PA_GN_NONE, .host_bridge = PA_GN_NONE,
			.sw = PA_GN_NONE, .numa = -1,
		};

		if (i != PA_GN_NONE) {
			parent = i;
			break;
		}
		node.acs_unknown = is_port(node.kind) &&
				   pa_device_acs_unknown(d) != NULL;
		err = add_node(g, &node, &chain[n]);
		if (err)
			return err;
		n++;
		if (!d->has_upstream)
			break;
		{
			const struct pa_device *up = pa_report_find(rep, &d->upstream);

			if (!up) {
				/* Named, not in the report: drawn unknown. */
				struct pa_gnode u = {
					.kind = PA_GN_UNKNOWN,
					.addr = d->upstream, .parent = PA_GN_NONE,
					.host_bridge = PA_GN_NONE,
					.sw = PA_GN_NONE, .numa = -1,
				};
				size_t ui = pa_graph_find(g, &d->upstream);

				if (ui == PA_GN_NONE) {
					err = add_node(g, &u, &ui);
					if (err)
						return err;
				}
				parent = ui;
				break;
			}
			d = up;
		}
	}
	if (!n) {
		*at = parent;
		return 0;
	}
	/* The top of a new chain hangs from its host bridge. */
	if (parent == PA_GN_NONE) {
		const struct pa_device *top = g->nodes[chain[n - 1]].dev;

		if (!pa_host_bridge(rep, &top->addr, &root))
			root = (struct pa_addr){ top->addr.domain, top->addr.bus, 0 };
		parent = find_host_bridge(g, &root);
		if (parent == PA_GN_NONE) {
			struct pa_gnode hb = {
				.kind = PA_GN_HOST_BRIDGE, .addr = root,
				.parent = PA_GN_NONE, .host_bridge = PA_GN_NONE,
				.sw = PA_GN_NONE, .numa = -1,
			};

			err = add_node(g, &hb, &parent);
			if (err)
				return err;
			g->nodes[parent].host_bridge = parent;
		}
	}
	for (size_t k = n; k-- > 0;) {
		g->nodes[chain[k]].parent = parent;
		parent = chain[k];
	}
	*at = chain[0];
	return 0;
}

static size_t top_of(const struct pa_graph *g, size_t i)
{
	for (size_t steps = 0; steps <= g->nnodes &&
	     g->nodes[i].parent != PA_GN_NONE; steps++)
		i = g->nodes[i].parent;
	return i;
}

static void set_numa(const struct pa_report *rep, struct pa_graph *g)
{
	for (size_t i = 0; i < g->nnodes; i++) {
		struct pa_gnode *n = &g->nodes[i];
		size_t top = top_of(g, i);
		int numa;

		n->host_bridge = top;
		if (!n->dev)
			continue;
		numa = n->dev->numa_node;
		if (numa < 0 && rep->has_host && rep->host.numa_nodes == 1)
			numa = 0;
		if (numa >= 0 && g->nodes[top].numa < 0)
			g->nodes[top].numa = numa;
	}
	for (size_t i = 0; i < g->nnodes; i++)
		g->nodes[i].numa = g->nodes[g->nodes[i].host_bridge].numa;
	/* A switch's ports share the upstream port's index. */
	for (size_t i = 0; i < g->nnodes; i++) {
		struct pa_gnode *n = &g->nodes[i];

		if (n->kind == PA_GN_SWITCH_UP)
			n->sw = i;
		else if (n->kind == PA_GN_SWITCH_DOWN && n->parent != PA_GN_NONE &&
			 g->nodes[n->parent].kind == PA_GN_SWITCH_UP)
			n->sw = n->parent;
	}
}

static void link_facts(const struct pa_report *rep, const struct pa_device *d,
		       struct pa_gedge *e)
{
	const struct pa_device *o = pa_link_owner(rep, d);
	const struct pa_device *up = pa_report_upstream(rep, o);
	struct pa_link_state me, other;
	double want_speed;
	unsigned int want_width;
	bool speed_only;

	e->unknown = pa_device_link_unknown(o);
	if (!e->unknown && !o->has_link)
		e->unknown = "no link registers in the input";
	if (e->unknown)
		return;
	pa_link_decode(&o->link, &me);
	e->speed = me.speed;
	e->width = me.width;
	e->max_speed = me.max_speed;
	e->max_width = me.max_width;
	if (up && up->has_link) {
		pa_link_decode(&up->link, &other);
		if (other.max_width && other.max_width < e->max_width)
			e->max_width = other.max_width;
		if (other.max_speed > 0 && other.max_speed < e->max_speed)
			e->max_speed = other.max_speed;
	}
	e->downgraded = pa_link_below(rep, o, &want_speed, &want_width,
				      &speed_only);
	if (!me.width)
		e->unknown = "the link is down";
}

static int add_tree_edges(const struct pa_report *rep, struct pa_graph *g)
{
	for (size_t i = 0; i < g->nnodes; i++) {
		const struct pa_gnode *n = &g->nodes[i];
		struct pa_gedge e = { .kind = PA_GE_LINK, .a = n->parent, .b = i };
		int err;

		if (n->parent == PA_GN_NONE)
			continue;
		if (!n->dev)
			e.kind = PA_GE_INTERNAL;
		else if (g->nodes[n->parent].kind == PA_GN_HOST_BRIDGE ||
			 (n->kind == PA_GN_SWITCH_DOWN && n->sw != PA_GN_NONE))
			e.kind = PA_GE_INTERNAL;
		else if (n->dev->pcie_type < 0)
			e.kind = PA_GE_PCI;
		else
			link_facts(rep, n->dev, &e);
		err = add_edge(g, &e);
		if (err)
			return err;
	}
	return 0;
}

/* The link edge ending at node b, or NULL. */
static struct pa_gedge *edge_to(struct pa_graph *g, size_t b)
{
	for (size_t i = 0; i < g->nedges; i++)
		if (g->edges[i].b == b && g->edges[i].kind != PA_GE_ACCEL &&
		    g->edges[i].kind != PA_GE_PAIR)
			return &g->edges[i];
	return NULL;
}

static void mark_path(struct pa_graph *g, size_t i)
{
	for (size_t steps = 0; steps <= g->nnodes && i != PA_GN_NONE; steps++) {
		struct pa_gedge *e = edge_to(g, i);

		if (e)
			e->redirect_path = true;
		i = g->nodes[i].parent;
	}
}

static bool have_pair(const struct pa_graph *g, size_t a, size_t b)
{
	for (size_t i = 0; i < g->nedges; i++)
		if (g->edges[i].kind == PA_GE_PAIR &&
		    ((g->edges[i].a == a && g->edges[i].b == b) ||
		     (g->edges[i].a == b && g->edges[i].b == a)))
			return true;
	return false;
}

static int add_redirects(const struct pa_report *rep, struct pa_graph *g)
{
	for (size_t i = 0; rep->has_p2p && i < rep->p2p.npairs; i++) {
		const struct pa_p2p_pair *p = &rep->p2p.pairs[i];
		size_t a = pa_graph_find(g, &p->provider);
		size_t b = pa_graph_find(g, &p->client);
		int err;

		if (!p->redirect.n || a == PA_GN_NONE || b == PA_GN_NONE || a == b)
			continue;
		for (size_t r = 0; r < p->redirect.n; r++) {
			size_t at = pa_graph_find(g, &p->redirect.addrs[r]);

			if (at != PA_GN_NONE)
				g->nodes[at].redirects = true;
		}
		mark_path(g, a);
		mark_path(g, b);
		if (have_pair(g, a, b))
			continue;
		err = add_edge(g, &(struct pa_gedge){ .kind = PA_GE_PAIR,
						      .a = a, .b = b });
		if (err)
			return err;
		g->npairs++;
	}
	return 0;
}

static int add_accel(const struct pa_report *rep, struct pa_graph *g)
{
	const struct pa_fabric *f = rep->fabric;

	if (!f)
		return 0;
	g->accel_known = f->nvml.state == PA_SRC_READ ||
			 f->nvml.state == PA_SRC_ABSENT ||
			 f->kfd.state == PA_SRC_READ ||
			 f->kfd.state == PA_SRC_ABSENT || f->nlinks;
	for (size_t i = 0; i < f->nlinks; i++) {
		size_t a = pa_graph_find(g, &f->links[i].a);
		size_t b = pa_graph_find(g, &f->links[i].b);
		int err;

		if (a == PA_GN_NONE || b == PA_GN_NONE)
			continue;
		err = add_edge(g, &(struct pa_gedge){
			.kind = PA_GE_ACCEL, .a = a, .b = b,
			.accel_type = f->links[i].type,
			.accel_count = f->links[i].count });
		if (err)
			return err;
	}
	return 0;
}

int pa_graph_build(const struct pa_report *rep, const struct pa_topo *topo,
		   struct pa_graph *g)
{
	int err = 0;

	*g = (struct pa_graph){ 0 };
	for (size_t i = 0; !err && i < topo->n; i++) {
		size_t at;

		err = add_function(rep, g, topo->devs[i].dev, &at);
		if (!err && at != PA_GN_NONE)
			memcpy(g->nodes[at].label, topo->devs[i].label,
			       sizeof(g->nodes[at].label));
	}
	if (!err) {
		set_numa(rep, g);
		err = add_tree_edges(rep, g);
	}
	if (!err)
		err = add_redirects(rep, g);
	if (!err)
		err = add_accel(rep, g);
	if (err)
		pa_graph_clear(g);
	return err;
}

void pa_graph_clear(struct pa_graph *g)
{
	free(g->nodes);
	free(g->edges);
	*g = (struct pa_graph){ 0 };
}
