// SPDX-License-Identifier: GPL-2.0
/*
 * The fabric graph topo --svg and check --format html draw, before any
 * layout, against the report it comes from: each node and edge held to
 * the devices' own registers and the pairs' own redirect lists.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pci_regs.h>

#include "testutil.h"

#include "fabric_graph.h"
#include "graph_dot.h"
#include "topo.h"

struct fixture {
	struct pa_report rep;
	struct pa_topo topo;
	struct pa_graph g;
};

static void build(struct fixture *x, const char *file)
{
	memset(x, 0, sizeof(*x));
	test_load_snapshot(file, &x->rep);
	assert_int_equal(pa_topo_select(&x->rep, PA_SELECT_DEFAULT, NULL, 0,
					&x->topo, NULL), 0);
	assert_int_equal(pa_graph_build(&x->rep, &x->topo, &x->g), 0);
}

static void clear(struct fixture *x)
{
	pa_graph_clear(&x->g);
	pa_topo_clear(&x->topo);
	pa_report_clear(&x->rep);
}

static size_t node_of(const struct pa_graph *g, uint8_t bus, uint8_t dev,
		      uint8_t fn)
{
	const struct pa_addr a = { 0, bus, (uint8_t)(dev << 3 | fn) };

	return pa_graph_find(g, &a);
}

static const struct pa_gedge *edge_into(const struct pa_graph *g, size_t b)
{
	for (size_t i = 0; i < g->nedges; i++)
		if (g->edges[i].b == b && g->edges[i].kind != PA_GE_PAIR &&
		    g->edges[i].kind != PA_GE_ACCEL)
			return &g->edges[i];
	return NULL;
}

/* Independent of link.c: LnkSta's speed and width below the smaller of the
 * two ends' LnkCap. */
static bool below(const struct pa_report *rep, const struct pa_device *d)
{
	const struct pa_device *up = pa_report_find(rep, &d->upstream);
	unsigned int cs = d->link.lnkcap & 0xf, cw = d->link.lnkcap >> 4 & 0x3f;

	if (up && up->has_link) {
		if ((up->link.lnkcap & 0xf) < cs)
			cs = up->link.lnkcap & 0xf;
		if ((up->link.lnkcap >> 4 & 0x3f) < cw)
			cw = up->link.lnkcap >> 4 & 0x3f;
	}
	return (d->link.lnksta & 0xf) < cs || (d->link.lnksta >> 4 & 0x3f) < cw;
}

static bool named_in_a_redirect(const struct pa_report *rep,
				const struct pa_addr *a)
{
	for (size_t i = 0; i < rep->p2p.npairs; i++)
		for (size_t r = 0; r < rep->p2p.pairs[i].redirect.n; r++)
			if (pa_addr_eq(&rep->p2p.pairs[i].redirect.addrs[r], a))
				return true;
	return false;
}

/* What holds on any report: every selected function drawn, each under the
 * bridge the report names, links as their registers say, redirects as
 * the pairs say. */
static void check_invariants(const struct fixture *x)
{
	const struct pa_graph *g = &x->g;

	for (size_t i = 0; i < x->topo.n; i++) {
		size_t n = pa_graph_find(g, &x->topo.devs[i].dev->addr);

		assert_true(n != PA_GN_NONE);
		assert_string_equal(g->nodes[n].label, x->topo.devs[i].label);
	}
	for (size_t i = 0; i < g->nnodes; i++) {
		const struct pa_gnode *n = &g->nodes[i];
		const struct pa_gedge *e = edge_into(g, i);

		if (n->kind == PA_GN_HOST_BRIDGE) {
			assert_true(n->parent == PA_GN_NONE);
			assert_null(e);
			continue;
		}
		assert_non_null(n->dev);
		assert_true(n->parent != PA_GN_NONE);
		assert_non_null(e);
		assert_true(e->a == n->parent);
		if (n->dev->has_upstream) {
			assert_true(pa_addr_eq(&g->nodes[n->parent].addr,
					       &n->dev->upstream));
		} else {
			assert_int_equal(g->nodes[n->parent].kind, PA_GN_HOST_BRIDGE);
			assert_int_equal(g->nodes[n->parent].addr.bus, n->dev->addr.bus);
			assert_int_equal(e->kind, PA_GE_INTERNAL);
		}
		assert_int_equal(n->redirects,
				 named_in_a_redirect(&x->rep, &n->addr));
		if (e->kind == PA_GE_LINK && !e->unknown) {
			assert_int_equal(e->downgraded, below(&x->rep, n->dev));
			assert_int_equal(e->width, n->dev->link.lnksta >> 4 & 0x3f);
		}
		if (n->dev->numa_node >= 0)
			assert_int_equal(n->numa, n->dev->numa_node);
	}
}

static void gpudirect_fail(void **state)
{
	struct fixture x;
	size_t hb80, rp, up, d0, d1, gpu, nic, gpu1;
	const struct pa_gedge *e;

	(void)state;
	build(&x, "gpudirect-fail.json");
	check_invariants(&x);
	rp = node_of(&x.g, 0x00, 1, 0);
	up = node_of(&x.g, 0x01, 0, 0);
	d0 = node_of(&x.g, 0x02, 0, 0);
	d1 = node_of(&x.g, 0x02, 1, 0);
	gpu = node_of(&x.g, 0x03, 0, 0);
	nic = node_of(&x.g, 0x04, 0, 0);
	gpu1 = node_of(&x.g, 0x81, 0, 0);
	/* 2 host bridges, 2 root ports, a switch of 3 ports, 3 endpoints. */
	assert_int_equal(x.g.nnodes, 10);
	assert_int_equal(x.g.nodes[rp].kind, PA_GN_ROOT_PORT);
	assert_int_equal(x.g.nodes[up].kind, PA_GN_SWITCH_UP);
	assert_int_equal(x.g.nodes[d0].kind, PA_GN_SWITCH_DOWN);
	assert_int_equal(x.g.nodes[gpu].kind, PA_GN_GPU);
	assert_int_equal(x.g.nodes[nic].kind, PA_GN_NIC);
	assert_true(x.g.nodes[d0].sw == up && x.g.nodes[d1].sw == up);
	assert_true(x.g.nodes[d0].redirects && x.g.nodes[d1].redirects);
	assert_false(x.g.nodes[up].redirects || x.g.nodes[rp].redirects);
	hb80 = x.g.nodes[gpu1].host_bridge;
	assert_int_equal(x.g.nodes[hb80].kind, PA_GN_HOST_BRIDGE);
	assert_int_equal(x.g.nodes[hb80].addr.bus, 0x80);
	assert_int_equal(x.g.nodes[gpu1].numa, 1);
	assert_int_equal(x.g.nodes[gpu].numa, 0);
	/* The NIC's link: 8GT/s x8 of 16GT/s x16, on the redirected path. */
	e = edge_into(&x.g, nic);
	assert_int_equal(e->kind, PA_GE_LINK);
	assert_true(e->downgraded && e->redirect_path);
	assert_int_equal(e->width, 8);
	assert_int_equal(e->max_width, 16);
	assert_true(e->speed == 8.0 && e->max_speed == 16.0);
	assert_false(edge_into(&x.g, gpu)->downgraded);
	assert_int_equal(edge_into(&x.g, d0)->kind, PA_GE_INTERNAL);
	/* The redirected pair's path runs up to the root port's host bridge;
	 * GPU1's, through no redirect, is not marked. */
	assert_true(edge_into(&x.g, up)->redirect_path);
	assert_true(edge_into(&x.g, rp)->redirect_path);
	assert_false(edge_into(&x.g, gpu1)->redirect_path);
	assert_int_equal(x.g.npairs, 1);
	/* No NVML or KFD in a snapshot: accelerator links unknown. */
	assert_false(x.g.accel_known);
	clear(&x);
}

static void unknown_stays_unknown(void **state)
{
	struct fixture x;
	struct pa_device *nic;
	const struct pa_addr a = { 0, 0x04, 0 };
	const struct pa_gedge *e;

	(void)state;
	memset(&x, 0, sizeof(x));
	test_load_snapshot("gpudirect-fail.json", &x.rep);
	nic = (struct pa_device *)pa_report_find(&x.rep, &a);
	nic->config_not_captured = true;
	for (size_t i = 0; i < x.rep.ndevices; i++)
		x.rep.devices[i].numa_node = -1;
	assert_int_equal(pa_topo_select(&x.rep, PA_SELECT_DEFAULT, NULL, 0,
					&x.topo, NULL), 0);
	assert_int_equal(pa_graph_build(&x.rep, &x.topo, &x.g), 0);
	e = edge_into(&x.g, pa_graph_find(&x.g, &a));
	assert_int_equal(e->kind, PA_GE_LINK);
	assert_non_null(e->unknown);
	assert_false(e->downgraded);
	/* Two nodes on the host, none says which: unknown, not node 0. */
	for (size_t i = 0; i < x.g.nnodes; i++)
		assert_int_equal(x.g.nodes[i].numa, -1);
	clear(&x);
}

static void gpu_server(void **state)
{
	struct fixture x;
	size_t sws = 0, downs = 0, dev = 0;

	(void)state;
	build(&x, "gpu-server.json");
	check_invariants(&x);
	for (size_t i = 0; i < x.g.nnodes; i++) {
		sws += x.g.nodes[i].kind == PA_GN_SWITCH_UP;
		downs += x.g.nodes[i].kind == PA_GN_SWITCH_DOWN;
		dev += x.g.nodes[i].label[0] != '\0';
	}
	/* make demo's machine: four GPU stand-ins below one switch. */
	assert_int_equal(sws, 1);
	assert_int_equal(downs, 4);
	assert_int_equal(dev, x.topo.n);
	clear(&x);
}

/* The DOT names every node and link by its documented id and class. */
static void dot_ids(void **state)
{
	struct fixture x;
	char *dot = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	build(&x, "gpudirect-fail.json");
	f = open_memstream(&dot, &len);
	assert_non_null(f);
	assert_int_equal(pa_graph_dot(f, &x.rep, &x.g, "t\"<x>"), 0);
	fclose(f);
	assert_non_null(strstr(dot, "id=\"fn-0000-02-01-0\", class=\"fn switch-down redirect\""));
	assert_non_null(strstr(dot, "id=\"link-0000-04-00-0\", class=\"link pcie downgraded redirect-path\""));
	assert_non_null(strstr(dot, "id=\"hb-0000-80\""));
	assert_non_null(strstr(dot, "id=\"numa-1\""));
	assert_non_null(strstr(dot, "id=\"sw-0000-01-00-0\""));
	assert_non_null(strstr(dot, "id=\"pair-0000-03-00-0-0000-04-00-0\""));
	assert_non_null(strstr(dot, "id=\"legend\""));
	assert_non_null(strstr(dot, "label=\"t\\\"<x>\""));
	free(dot);
	clear(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gpudirect_fail),
		cmocka_unit_test(unknown_stays_unknown),
		cmocka_unit_test(gpu_server),
		cmocka_unit_test(dot_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
