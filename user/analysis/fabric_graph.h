/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fabric as a graph, before any layout: the nodes topo --svg and
 * check --format html draw (NUMA nodes, host bridges, ports, switches,
 * the selected endpoints), the edges between them (PCIe links with their
 * trained and capable speed and width, NVLink and XGMI), the ports that
 * redirect and the pairs they redirect. Pure: reads the report and topo's
 * selection, writes nothing; unknown facts stay unknown, with the reason.
 * docs/pictures.md names the drawing's ids and classes.
 */
#ifndef PA_FABRIC_GRAPH_H
#define PA_FABRIC_GRAPH_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"
#include "topo.h"

enum pa_gnode_kind {
	PA_GN_HOST_BRIDGE,	/* a root bus: addr is domain:bus, devfn 0 */
	PA_GN_ROOT_PORT,
	PA_GN_SWITCH_UP,	/* a switch's upstream port */
	PA_GN_SWITCH_DOWN,	/* a switch's downstream port */
	PA_GN_BRIDGE,		/* any other bridge (PCIe-to-PCI, ...) */
	PA_GN_GPU,
	PA_GN_ACC,
	PA_GN_NIC,
	PA_GN_NVME,
	PA_GN_OTHER,		/* an endpoint of another class */
	PA_GN_UNKNOWN,		/* a bridge the report names but lacks */
	PA_NGNODE_KINDS
};

/* "host-bridge", "root-port", ...: the drawing's classes. */
const char *pa_gnode_class(enum pa_gnode_kind kind);

#define PA_GN_NONE ((size_t)-1)

struct pa_gnode {
	enum pa_gnode_kind kind;
	struct pa_addr addr;
	const struct pa_device *dev;	/* NULL: host bridge, unknown */
	size_t parent;			/* node index, PA_GN_NONE at the top */
	size_t host_bridge;		/* the node index of its host bridge */
	size_t sw;			/* a switch's ports: the up port's index */
	int numa;			/* the host bridge's node; -1 unknown */
	char label[PA_LABEL_LEN];	/* topo's label of an endpoint, or "" */
	bool redirects;			/* ACS redirects a drawn pair here */
	bool acs_unknown;		/* a port whose ACS is unknown */
};

enum pa_gedge_kind {
	PA_GE_LINK,		/* a PCIe link: parent's port to the function */
	PA_GE_INTERNAL,		/* no link: a root bus, inside a switch */
	PA_GE_PCI,		/* a conventional PCI bus */
	PA_GE_ACCEL,		/* NVLink or XGMI between accelerators */
	PA_GE_PAIR,		/* a pair ACS redirects, end to end */
};

struct pa_gedge {
	enum pa_gedge_kind kind;
	size_t a, b;			/* node indexes: up and down for links */
	/* PA_GE_LINK: */
	const char *unknown;		/* why the link is unknown, or NULL */
	double speed, max_speed;	/* GT/s; 0 unknown */
	unsigned int width, max_width;	/* the capable: both ends' best */
	bool downgraded;		/* pa_link_below() */
	bool redirect_path;		/* on a redirected pair's path */
	/* PA_GE_ACCEL: */
	uint32_t accel_type, accel_count;
};

struct pa_graph {
	struct pa_gnode *nodes;
	size_t nnodes;
	struct pa_gedge *edges;
	size_t nedges;
	size_t npairs;			/* PA_GE_PAIR edges among them */
	/* NVLink and XGMI: false when neither source was read, so that no
	 * accelerator link is drawn as absent. */
	bool accel_known;
};

/*
 * Builds the graph of topo's selection: each selected function and every
 * bridge above it up to its host bridge. Pairs of rep->p2p between two
 * drawn functions that ACS redirects mark their redirecting ports, every
 * link on their path, and add one PA_GE_PAIR edge per unordered pair.
 * 0 or -ENOMEM.
 */
int pa_graph_build(const struct pa_report *rep, const struct pa_topo *topo,
		   struct pa_graph *g);

/* The node of addr (not of a host bridge), or PA_GN_NONE. */
size_t pa_graph_find(const struct pa_graph *g, const struct pa_addr *addr);

void pa_graph_clear(struct pa_graph *g);

#endif /* PA_FABRIC_GRAPH_H */
