// SPDX-License-Identifier: GPL-2.0
#include "lspci_model.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pci_regs.h>

#include "bdf.h"
#include "config_space.h"

/* Standard configuration space: where the capability list lives. */
#define CONFIG_MIN	256

struct node {
	struct pa_addr addr;
	bool bridge;
	uint8_t secondary, subordinate;
	int pcie_type;		/* PCI_EXP_TYPE_*, -1 for none */
};

static void node_of(const struct pa_sysfs_dev *d, struct node *n)
{
	const uint8_t *c = d->config;
	struct pa_config pc;
	uint8_t type;

	*n = (struct node){ .pcie_type = -1 };
	pa_bdf_parse(d->name, &n->addr);
	/* A bridge lspci -t drew: its bus range, nothing else. */
	if (d->placeholder) {
		n->bridge = true;
		n->secondary = d->secondary;
		n->subordinate = d->subordinate;
		return;
	}
	pa_config_parse(d->config, d->config_len, &pc);
	type = c[PCI_HEADER_TYPE] & 0x7f;
	n->pcie_type = pc.pcie_type;
	/* All ones is a function gone silent, not a bridge. */
	if (pc.all_ones)
		return;
	n->bridge = type == PCI_HEADER_TYPE_BRIDGE ||
		    type == PCI_HEADER_TYPE_CARDBUS;
	n->secondary = c[PCI_SECONDARY_BUS];
	n->subordinate = c[PCI_SUBORDINATE_BUS];
}

/* The bridge whose secondary bus is bus, or NULL. */
static const struct node *bridge_to(const struct node *v, size_t n,
				    uint32_t domain, uint8_t bus)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].bridge && v[i].addr.domain == domain &&
		    v[i].secondary == bus && v[i].addr.bus != bus)
			return &v[i];
	return NULL;
}

/* The bridge with the narrowest bus range holding bus, which no bridge
 * leads to: the input lacks what lies between. */
static const struct node *enclosing(const struct node *v, size_t n,
				    uint32_t domain, uint8_t bus)
{
	const struct node *best = NULL;

	for (size_t i = 0; i < n; i++) {
		const struct node *b = &v[i];

		if (!b->bridge || b->addr.domain != domain ||
		    b->secondary >= bus || b->subordinate < bus ||
		    b->subordinate < b->secondary)
			continue;
		if (!best || b->subordinate - b->secondary <
			     best->subordinate - best->secondary)
			best = b;
	}
	return best;
}

/* A PCIe function that only ever sits below a port: never on a root bus
 * but in a virtual machine's flat bus 00. */
static bool needs_port(const struct node *n)
{
	switch (n->pcie_type) {
	case PCI_EXP_TYPE_ENDPOINT:
	case PCI_EXP_TYPE_LEG_END:
	case PCI_EXP_TYPE_UPSTREAM:
	case PCI_EXP_TYPE_DOWNSTREAM:
		return n->addr.bus != 0;
	default:
		return false;
	}
}

/* The topmost function above d (d itself without a bridge above), and
 * how many bridges lie between; bounded, as bus numbers can loop. */
static const struct node *top_of(const struct node *v, size_t n,
				 const struct node *d, const struct node **chain,
				 size_t *depth)
{
	const struct node *up;

	*depth = 0;
	while (*depth < n &&
	       (up = bridge_to(v, n, d->addr.domain, d->addr.bus))) {
		chain[(*depth)++] = up;
		d = up;
	}
	return d;
}

/* "pciDDDD:RR/<bridges from the top>/<d>" */
static int path_of(const struct node *v, size_t n, const struct node *d,
		   const struct node **chain, struct pa_warnings *w,
		   char **path)
{
	char bdf[PA_BDF_LEN], up[PA_BDF_LEN];
	size_t depth, len = 0;
	const struct node *top = top_of(v, n, d, chain, &depth);
	const struct node *outer = enclosing(v, n, top->addr.domain,
					     top->addr.bus);
	uint8_t root = top->addr.bus;
	FILE *f;
	int err = 0;

	if (outer) {
		const struct node *r = top_of(v, n, outer, chain + depth, &len);

		root = r->addr.bus;
		if (top == d) {
			pa_bdf_format(&d->addr, bdf);
			pa_bdf_format(&outer->addr, up);
			err = pa_warn(w, "%s: bus %02x lies behind bridge %s (buses %02x-%02x), but no bridge leading to it is in the input (a filtered capture?): its parent is unknown",
				      bdf, d->addr.bus, up, outer->secondary,
				      outer->subordinate);
		}
	} else if (top == d && needs_port(d)) {
		pa_bdf_format(&d->addr, bdf);
		err = pa_warn(w, "%s: a PCIe endpoint or switch port on bus %02x, which no bridge in the input leads to (a filtered capture?): its parent and host bridge are unknown",
			      bdf, d->addr.bus);
	}
	f = open_memstream(path, &len);
	if (!f)
		return -ENOMEM;
	fprintf(f, "pci%04x:%02x", d->addr.domain, root);
	for (size_t i = depth; i > 0; i--) {
		pa_bdf_format(&chain[i - 1]->addr, bdf);
		fprintf(f, "/%s", bdf);
	}
	pa_bdf_format(&d->addr, bdf);
	fprintf(f, "/%s", bdf);
	if (fclose(f))
		return -ENOMEM;
	return err;
}

/* Every function must have its capability list: refused otherwise. */
static int complete_enough(const struct pa_sysfs *s, char *what,
			   size_t whatlen)
{
	for (size_t i = 0; i < s->n; i++) {
		if (s->devs[i].config_len >= CONFIG_MIN || s->devs[i].placeholder)
			continue;
		snprintf(what, whatlen, "%s has %zu bytes of configuration space",
			 s->devs[i].name, s->devs[i].config_len);
		return -ENODATA;
	}
	return 0;
}

int pa_lspci_model(struct pa_sysfs *s, struct pa_report *rep, char *what,
		   size_t whatlen)
{
	struct pa_warnings w = { 0 };
	const struct node **chain;
	struct node *v;
	int err = complete_enough(s, what, whatlen);

	*rep = (struct pa_report){ 0 };
	if (err)
		return err;
	v = calloc(s->n + 1, sizeof(*v));
	chain = calloc(2 * s->n + 2, sizeof(*chain));
	err = v && chain ? 0 : -ENOMEM;
	for (size_t i = 0; !err && i < s->n; i++)
		node_of(&s->devs[i], &v[i]);
	for (size_t i = 0; !err && i < s->n; i++) {
		free(s->devs[i].path);
		s->devs[i].path = NULL;
		err = path_of(v, s->n, &v[i], chain, &w, &s->devs[i].path);
	}
	free(v);
	free(chain);
	if (!err)
		err = pa_sysfs_model(s, rep);
	if (!err)
		err = pa_warnings_move(&rep->warnings, &w);
	pa_warnings_clear(&w);
	if (err) {
		pa_report_clear(rep);
		return err;
	}
	return 0;
}
