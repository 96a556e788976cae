// SPDX-License-Identifier: GPL-2.0
#include "graph_dot.h"

#include <errno.h>
#include <string.h>

#include "fabric.h"
#include "link.h"

#define RED	"#c00000"
#define ORANGE	"#d95f02"
#define GREEN	"#1b7e5a"
#define GREY	"#707070"
#define FONT	"DejaVu Sans,Arial,sans-serif"

void pa_dot_fn_id(const struct pa_addr *a, char id[PA_DOT_ID_LEN])
{
	snprintf(id, PA_DOT_ID_LEN, "fn-%04x-%02x-%02x-%u", a->domain, a->bus,
		 (unsigned int)(a->devfn >> 3), (unsigned int)(a->devfn & 7));
}

static void node_id(const struct pa_gnode *n, char id[PA_DOT_ID_LEN])
{
	if (n->kind == PA_GN_HOST_BRIDGE)
		snprintf(id, PA_DOT_ID_LEN, "hb-%04x-%02x", n->addr.domain,
			 n->addr.bus);
	else
		pa_dot_fn_id(&n->addr, id);
}

/* Inside a DOT string: quotes and backslashes escaped, controls dropped,
 * at most max bytes of s (then "..."). */
static void put_str(FILE *f, const char *s, size_t max)
{
	size_t i;

	for (i = 0; s && s[i] && i < max; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fputc(' ', f);
		else
			fputc(c, f);
	}
	if (s && s[i])
		fputs("...", f);
}

static void bdf(FILE *f, const struct pa_addr *a)
{
	fprintf(f, "%04x:%02x:%02x.%u", a->domain, a->bus,
		(unsigned int)(a->devfn >> 3), (unsigned int)(a->devfn & 7));
}

static const char *kind_word(enum pa_gnode_kind k)
{
	switch (k) {
	case PA_GN_ROOT_PORT:
		return "Root Port";
	case PA_GN_SWITCH_UP:
		return "upstream";
	case PA_GN_SWITCH_DOWN:
		return "downstream";
	case PA_GN_BRIDGE:
		return "bridge";
	case PA_GN_UNKNOWN:
		return "not in the input";
	default:
		return "";
	}
}

static const char *fill(const struct pa_gnode *n)
{
	if (n->redirects)
		return "#fdd0a2";
	switch (n->kind) {
	case PA_GN_HOST_BRIDGE:
		return "#d9d9d9";
	case PA_GN_GPU:
	case PA_GN_ACC:
		return "#c7e9c0";
	case PA_GN_NIC:
		return "#c6dbef";
	case PA_GN_NVME:
		return "#fff3b0";
	case PA_GN_UNKNOWN:
		return "#ffffff";
	default:
		return "#f2f2f2";
	}
}

static void put_node(FILE *f, const struct pa_gnode *n, const char *indent)
{
	char id[PA_DOT_ID_LEN];
	const struct pa_device *d = n->dev;
	bool dashed = n->acs_unknown || n->kind == PA_GN_UNKNOWN;

	node_id(n, id);
	fprintf(f, "%s\"%s\" [id=\"%s\", class=\"fn %s%s%s\", fillcolor=\"%s\"",
		indent, id, id, pa_gnode_class(n->kind),
		n->redirects ? " redirect" : "",
		n->acs_unknown ? " acs-unknown" : "", fill(n));
	if (n->redirects)
		fprintf(f, ", color=\"%s\", penwidth=2.5", ORANGE);
	if (dashed)
		fprintf(f, ", style=\"rounded,filled,dashed\"");
	if (n->kind == PA_GN_HOST_BRIDGE) {
		fprintf(f, ", shape=box, style=\"filled\", label=\"host bridge\\n%04x:%02x\"",
			n->addr.domain, n->addr.bus);
	} else {
		fputs(", label=\"", f);
		if (n->label[0])
			fprintf(f, "%s  ", n->label);
		else
			fprintf(f, "%s ", kind_word(n->kind));
		bdf(f, &n->addr);
		if (d && (d->device_name || d->vendor_name)) {
			fputs("\\n", f);
			put_str(f, d->device_name ? d->device_name : d->vendor_name, 34);
		} else if (d) {
			fprintf(f, "\\n[%04x:%04x]", d->vendor, d->device);
		}
		if (n->redirects)
			fputs("\\nACS redirects", f);
		if (n->acs_unknown)
			fputs("\\nACS unknown", f);
		fputs("\"", f);
	}
	fputs("];\n", f);
}

static void put_switch(FILE *f, const struct pa_graph *g, size_t up)
{
	const struct pa_device *d = g->nodes[up].dev;
	char id[PA_DOT_ID_LEN];

	pa_dot_fn_id(&g->nodes[up].addr, id);
	id[0] = 's';
	id[1] = 'w';
	fprintf(f, "    subgraph \"cluster_%s\" {\n      id=\"%s\"; class=\"switch\";\n"
		"      style=\"rounded,filled\"; fillcolor=\"#fafafa\"; color=\"#404040\";\n"
		"      label=\"switch ", id, id);
	if (d && d->device_name)
		put_str(f, d->device_name, 40);
	else if (d)
		fprintf(f, "[%04x:%04x]", d->vendor, d->device);
	fputs("\";\n", f);
	for (size_t i = 0; i < g->nnodes; i++)
		if (g->nodes[i].sw == up)
			put_node(f, &g->nodes[i], "      ");
	fputs("    }\n", f);
}

static void put_numa(FILE *f, const struct pa_graph *g, int numa)
{
	if (numa >= 0)
		fprintf(f, "  subgraph \"cluster_numa-%d\" {\n    id=\"numa-%d\"; class=\"numa\";\n"
			"    label=\"NUMA node %d\"; style=\"rounded\"; color=\"#4060a0\";\n",
			numa, numa, numa);
	else
		fputs("  subgraph \"cluster_numa-unknown\" {\n    id=\"numa-unknown\"; class=\"numa unknown\";\n"
		      "    label=\"NUMA node unknown\"; style=\"rounded,dashed\"; color=\"" GREY "\";\n", f);
	for (size_t i = 0; i < g->nnodes; i++) {
		const struct pa_gnode *n = &g->nodes[i];

		if (n->numa != numa)
			continue;
		if (n->kind == PA_GN_SWITCH_UP)
			put_switch(f, g, i);
		else if (n->sw == PA_GN_NONE)
			put_node(f, n, "    ");
	}
	fputs("  }\n", f);
}

static void speed_width(FILE *f, double gts, unsigned int width)
{
	char s[PA_SPEED_TEXT_LEN];

	pa_link_format_speed(gts, s);
	fprintf(f, "%s x", s);
	if (width)
		fprintf(f, "%u", width);
	else
		fputc('?', f);
}

static void put_link(FILE *f, const struct pa_graph *g, const struct pa_gedge *e)
{
	char a[PA_DOT_ID_LEN], b[PA_DOT_ID_LEN];
	const char *kind = e->kind == PA_GE_INTERNAL ? "internal" :
			   e->kind == PA_GE_PCI ? "pci" : "pcie";

	node_id(&g->nodes[e->a], a);
	node_id(&g->nodes[e->b], b);
	fprintf(f, "  \"%s\" -> \"%s\" [id=\"link-%s\", class=\"link %s%s%s%s\"",
		a, b, b + 3, kind,
		e->kind == PA_GE_LINK && e->unknown ? " unknown" : "",
		e->downgraded ? " downgraded" : "",
		e->redirect_path ? " redirect-path" : "");
	if (e->redirect_path)
		fprintf(f, ", color=\"%s\", penwidth=3", ORANGE);
	if (e->kind == PA_GE_INTERNAL) {
		fputs(", style=\"solid\", arrowhead=none", f);
		if (!e->redirect_path)
			fputs(", color=\"#a0a0a0\"", f);
		fputs("];\n", f);
		return;
	}
	if (e->kind == PA_GE_PCI) {
		fputs(", label=\"PCI bus\"];\n", f);
		return;
	}
	if (e->unknown) {
		fputs(", style=\"dashed\", label=\"link unknown\", tooltip=\"", f);
		put_str(f, e->unknown, 200);
		fputs("\"", f);
		if (!e->redirect_path)
			fputs(", color=\"" GREY "\"", f);
		fputs("];\n", f);
		return;
	}
	fputs(", label=\"", f);
	speed_width(f, e->speed, e->width);
	if (e->speed != e->max_speed || e->width != e->max_width) {
		fputs("\\nof ", f);
		speed_width(f, e->max_speed, e->max_width);
	}
	if (e->downgraded)
		fputs("\\nDOWNGRADED", f);
	fputs("\"", f);
	if (e->downgraded) {
		fprintf(f, ", fontcolor=\"%s\", style=\"bold\"", RED);
		if (!e->redirect_path)
			fprintf(f, ", color=\"%s\", penwidth=2.5", RED);
	}
	fputs("];\n", f);
}

static void put_other_edge(FILE *f, const struct pa_graph *g,
			   const struct pa_gedge *e)
{
	char a[PA_DOT_ID_LEN], b[PA_DOT_ID_LEN];

	node_id(&g->nodes[e->a], a);
	node_id(&g->nodes[e->b], b);
	if (e->kind == PA_GE_ACCEL) {
		const char *key = e->accel_type == PA_ACCEL_XGMI ? "xgmi" : "nvlink";

		fprintf(f, "  \"%s\" -> \"%s\" [id=\"%s-%s-%s\", class=\"accel %s\", "
			"constraint=false, dir=none, color=\"%s\", penwidth=2.5, "
			"fontcolor=\"%s\", label=\"%s%s", a, b, key, a + 3, b + 3,
			key, GREEN, GREEN,
			e->accel_type == PA_ACCEL_XGMI ? "XGMI" : "NV",
			e->accel_type == PA_ACCEL_XGMI ? "" : "");
		if (e->accel_type != PA_ACCEL_XGMI)
			fprintf(f, "%u", e->accel_count);
		else if (e->accel_count > 1)
			fprintf(f, " x%u", e->accel_count);
		fputs("\"];\n", f);
		return;
	}
	if (g->npairs > PA_DOT_MAX_PAIR_EDGES)
		return;
	fprintf(f, "  \"%s\" -> \"%s\" [id=\"pair-%s-%s\", class=\"pair redirected\", "
		"constraint=false, dir=both, style=dotted, color=\"%s\", penwidth=1.5, "
		"tooltip=\"ACS redirects this pair through the root complex\"];\n",
		a, b, a + 3, b + 3, ORANGE);
}

static void put_legend(FILE *f, const struct pa_report *rep,
		       const struct pa_graph *g)
{
	size_t gpus = 0;

	for (size_t i = 0; i < g->nnodes; i++)
		gpus += g->nodes[i].kind == PA_GN_GPU || g->nodes[i].kind == PA_GN_ACC;
	fputs("  subgraph cluster_legend {\n    id=\"legend\"; class=\"legend\"; label=\"legend\";"
	      " rank=sink; style=\"rounded\"; color=\"#b0b0b0\"; fontsize=9;\n"
	      "    \"legend-table\" [id=\"legend-table\", class=\"legend-table\", shape=plain, "
	      "style=solid, fontsize=8, label=<"
	      "<table border=\"0\" cellborder=\"0\" cellspacing=\"1\">"
	      "<tr><td align=\"left\">link: trained speed, width</td></tr>"
	      "<tr><td align=\"left\">\"of\": what both ends can do</td></tr>"
	      "<tr><td align=\"left\"><font color=\"" RED "\"><b>red: link DOWNGRADED</b></font></td></tr>"
	      "<tr><td align=\"left\"><font color=\"" ORANGE "\"><b>orange box: ACS redirects</b></font></td></tr>"
	      "<tr><td align=\"left\"><font color=\"" ORANGE "\">orange line: a redirected</font></td></tr>"
	      "<tr><td align=\"left\"><font color=\"" ORANGE "\">pair's path to the root complex</font></td></tr>"
	      "<tr><td align=\"left\"><font color=\"" ORANGE "\">dotted: the pair itself</font></td></tr>"
	      "<tr><td align=\"left\"><font color=\"" GREEN "\"><b>green: NVLink (NV#), XGMI</b></font></td></tr>"
	      "<tr><td align=\"left\"><font color=\"" GREY "\">dashed: unknown</font></td></tr>"
	      "<tr><td align=\"left\"><font color=\"" GREY "\">grey: no link (root bus, switch)</font></td></tr>", f);
	if (g->npairs > PA_DOT_MAX_PAIR_EDGES)
		fprintf(f, "<tr><td align=\"left\"><font color=\"" ORANGE "\">%zu redirected pairs: paths only</font></td></tr>",
			g->npairs);
	if (gpus > 1 && !g->accel_known)
		fputs("<tr><td align=\"left\"><font color=\"" GREY "\">NVLink, XGMI: unknown (not read)</font></td></tr>", f);
	if (!rep->has_p2p)
		fputs("<tr><td align=\"left\"><font color=\"" GREY "\">P2P pairs: unknown</font></td></tr>", f);
	fputs("</table>>];\n  }\n", f);
}

int pa_graph_dot(FILE *f, const struct pa_report *rep,
		 const struct pa_graph *g, const char *title)
{
	bool unknown = false;
	int maxnuma = -1;

	fputs("digraph pcieaudit {\n", f);
	fputs("  graph [id=\"fabric\", class=\"pcieaudit-fabric\", rankdir=LR, "
	      "nodesep=0.1, ranksep=0.25, fontname=\"" FONT "\", fontsize=11, "
	      "newrank=true, labelloc=t, label=\"", f);
	put_str(f, title ? title : "PCIe fabric", 120);
	fputs("\"];\n", f);
	fputs("  node [shape=box, style=\"rounded,filled\", fontname=\"" FONT "\", "
	      "fontsize=9, margin=\"0.08,0.03\", height=0.3];\n"
	      "  edge [fontname=\"" FONT "\", fontsize=8, arrowhead=none];\n", f);
	for (size_t i = 0; i < g->nnodes; i++) {
		if (g->nodes[i].numa > maxnuma)
			maxnuma = g->nodes[i].numa;
		unknown |= g->nodes[i].numa < 0;
	}
	for (int n = 0; n <= maxnuma; n++) {
		bool any = false;

		for (size_t i = 0; i < g->nnodes && !any; i++)
			any = g->nodes[i].numa == n;
		if (any)
			put_numa(f, g, n);
	}
	if (unknown)
		put_numa(f, g, -1);
	for (size_t i = 0; i < g->nedges; i++) {
		if (g->edges[i].kind == PA_GE_ACCEL || g->edges[i].kind == PA_GE_PAIR)
			put_other_edge(f, g, &g->edges[i]);
		else
			put_link(f, g, &g->edges[i]);
	}
	put_legend(f, rep, g);
	fputs("}\n", f);
	return ferror(f) ? -EIO : 0;
}
