// SPDX-License-Identifier: GPL-2.0
#include "topo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "fabric.h"
#include "p2p_infer.h"
#include "p2p_path.h"

static const struct {
	const char *name;
	const char *meaning;
} legends[PA_NLEGENDS] = {
	[PA_LEGEND_X]	 = { "X", "the same function" },
	[PA_LEGEND_PIX]	 = { "PIX", "at most one PCIe switch or bridge between them" },
	[PA_LEGEND_PXB]	 = { "PXB", "several PCIe switches, no host bridge crossed" },
	[PA_LEGEND_PHB]	 = { "PHB", "no common upstream bridge: through their PCIe host bridge" },
	[PA_LEGEND_NODE] = { "NODE", "across PCIe host bridges within one NUMA node" },
	[PA_LEGEND_SYS]	 = { "SYS", "across NUMA nodes (or a NUMA node unknown)" },
};

const char *pa_legend_name(enum pa_legend legend)
{
	return legend < PA_NLEGENDS ? legends[legend].name : "?";
}

const char *pa_legend_meaning(enum pa_legend legend)
{
	return legend < PA_NLEGENDS ? legends[legend].meaning : "?";
}

bool pa_host_bridge(const struct pa_report *rep, const struct pa_addr *addr,
		    struct pa_addr *root)
{
	const struct pa_device *dev = pa_report_find(rep, addr);

	/* The source's own word beats a walk through missing bridges. */
	if (dev && dev->has_root_bus) {
		*root = dev->root_bus;
		return true;
	}
	/* Bounded: corrupt upstream links could form a cycle. */
	for (size_t steps = 0; dev && steps <= rep->ndevices; steps++) {
		if (!dev->has_upstream) {
			*root = (struct pa_addr){ dev->addr.domain, dev->addr.bus, 0 };
			return true;
		}
		dev = pa_report_find(rep, &dev->upstream);
	}
	return false;
}

/* A hop that is not just a downstream port of the switch the path is in.
 * One the report lacks counts too: one switch cannot be proven then. */
static bool starts_another_switch(const struct pa_device *dev)
{
	if (!dev)
		return true;
	switch (dev->pcie_type) {
	case PCI_EXP_TYPE_UPSTREAM:
	case PCI_EXP_TYPE_PCI_BRIDGE:
	case PCI_EXP_TYPE_PCIE_BRIDGE:
		return true;
	case -1:
		return (dev->flags & PCIEAUDIT_DEV_F_BRIDGE) != 0;
	default:
		return false;
	}
}

struct switch_count {
	const struct pa_report *rep;
	bool several;
};

static void visit_hop(const struct pa_addr *addr, enum pa_step_role role,
		      void *arg)
{
	struct switch_count *sc = arg;

	if ((role == PA_STEP_UP || role == PA_STEP_DOWN) &&
	    starts_another_switch(pa_report_find(sc->rep, addr)))
		sc->several = true;
}

/* A function's NUMA node, -1 when unknown. -1 is node 0 only on a host
 * known to have a single node; elsewhere, and in an input that does not
 * say (an lspci dump), it stays unknown. */
static int numa_node(const struct pa_report *rep, const struct pa_addr *addr)
{
	const struct pa_device *dev = pa_report_find(rep, addr);

	if (!dev)
		return -1;
	if (dev->numa_node < 0 && rep->has_host && rep->host.numa_nodes == 1)
		return 0;
	return dev->numa_node;
}

/* No common upstream bridge: how far apart are their host bridges? */
static enum pa_legend across_root(const struct pa_report *rep,
				  const struct pa_p2p_pair *pair)
{
	struct pa_addr hp, hc;
	int np, nc;

	if (!pa_host_bridge(rep, &pair->provider, &hp) ||
	    !pa_host_bridge(rep, &pair->client, &hc))
		return PA_LEGEND_SYS;
	if (pa_addr_eq(&hp, &hc))
		return PA_LEGEND_PHB;
	np = numa_node(rep, &pair->provider);
	nc = numa_node(rep, &pair->client);
	return np >= 0 && np == nc ? PA_LEGEND_NODE : PA_LEGEND_SYS;
}

enum pa_legend pa_legend_of(const struct pa_report *rep,
			    const struct pa_p2p_pair *pair)
{
	struct switch_count sc = { rep, false };

	if (pa_addr_eq(&pair->provider, &pair->client))
		return PA_LEGEND_X;
	if (!pair->has_common)
		return across_root(rep, pair);
	pa_path_walk(pair, visit_hop, &sc);
	return sc.several ? PA_LEGEND_PXB : PA_LEGEND_PIX;
}

/* The map type's mark, '\0' for none. */
static char map_mark(uint32_t map)
{
	switch (map) {
	case PCIEAUDIT_P2P_MAP_BUS_ADDR:
		return '\0';
	case PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE:
		return PA_MARK_HOST_BRIDGE;
	case PCIEAUDIT_P2P_MAP_NOT_SUPPORTED:
		return PA_MARK_REFUSED;
	default:
		return PA_MARK_UNKNOWN_MAP;
	}
}

void pa_topo_cell(const struct pa_report *rep, const struct pa_addr *a,
		  const struct pa_addr *b, char cell[PA_CELL_LEN])
{
	const struct pa_accel_link *link;
	const struct pa_p2p_pair *pair;
	struct pa_bottleneck bn;
	char marks[3] = { 0 };
	size_t n = 0;

	if (pa_addr_eq(a, b)) {
		snprintf(cell, PA_CELL_LEN, "%s", pa_legend_name(PA_LEGEND_X));
		return;
	}
	/* As nvidia-smi: a pair joined by NVLink talks over it, not PCIe. */
	link = rep->fabric ? pa_fabric_find(rep->fabric, a, b) : NULL;
	if (link) {
		pa_accel_cell(link, cell, PA_CELL_LEN);
		return;
	}
	pair = pa_p2p_find(&rep->p2p, a, b);
	if (!pair) {
		snprintf(cell, PA_CELL_LEN, "%s", PA_CELL_NO_ANSWER);
		return;
	}
	pa_path_bottleneck(rep, pair, &bn);
	/* The kernel's verdict where it gave one. */
	marks[n] = map_mark(pa_p2p_verdict_map(pair));
	if (marks[n] == PA_MARK_UNKNOWN_MAP &&
	    pa_p2p_acs_unknown_at(rep, pair, &(struct pa_addr){ 0 }))
		marks[n] = PA_MARK_ACS_UNKNOWN;
	n += marks[n] != '\0';
	if (bn.trap)
		marks[n] = PA_MARK_TRAP;
	snprintf(cell, PA_CELL_LEN, "%s%s",
		 pa_legend_name(pa_legend_of(rep, pair)), marks);
}

/* Matrix labels: the kinds, and display functions that are no GPU. */
#define LABEL_DISPLAY	PA_NKINDS
#define NLABELS		(PA_NKINDS + 1)

static const char *const kind_labels[NLABELS] = {
	[PA_KIND_GPU] = "GPU", [PA_KIND_ACC] = "ACC", [PA_KIND_NIC] = "NIC",
	[PA_KIND_NVME] = "NVME", [PA_KIND_OTHER] = "DEV",
	[LABEL_DISPLAY] = "DISP",
};

enum pa_kind pa_class_kind(uint32_t class)
{
	if (class >> 16 == 0x03)
		return PA_KIND_GPU;
	if (class >> 16 == 0x12 || class >> 8 == 0x0b40)
		return PA_KIND_ACC;
	if (class >> 16 == 0x02)
		return PA_KIND_NIC;
	if (class == 0x010802)
		return PA_KIND_NVME;
	return PA_KIND_OTHER;
}

/* Display functions that are nobody's GPU: a management controller's VGA
 * (ASPEED's; Matrox's G200 family on Dell, HPE and Lenovo BMCs), and one
 * built into the root complex, not behind a port (Intel's integrated
 * graphics, a virtual machine's console VGA). NVIDIA's and AMD's are GPUs
 * wherever they sit: a guest's passed-through GPU is on its root bus. */
static bool auxiliary_display(const struct pa_device *dev)
{
	if (dev->vendor == PA_VENDOR_ASPEED || dev->vendor == PA_VENDOR_MATROX)
		return true;
	if (dev->vendor == PA_VENDOR_NVIDIA || dev->vendor == PA_VENDOR_AMD)
		return false;
	return !dev->has_upstream && (dev->pcie_type == PCI_EXP_TYPE_RC_END ||
				      dev->pcie_type < 0);
}

enum pa_kind pa_device_kind(const struct pa_device *dev)
{
	enum pa_kind k = pa_class_kind(dev->class);

	return k == PA_KIND_GPU && auxiliary_display(dev) ? PA_KIND_OTHER : k;
}

bool pa_topo_default_class(uint32_t class)
{
	return pa_class_kind(class) != PA_KIND_OTHER;
}

/* 0 for NVIDIA's GPUs, 1 for AMD's, 2 for any other display function. */
static int gpu_rank(const struct pa_device *dev)
{
	return dev->vendor == PA_VENDOR_NVIDIA ? 0 :
	       dev->vendor == PA_VENDOR_AMD ? 1 : 2;
}

bool pa_topo_is_gpu(const struct pa_device *dev)
{
	return pa_class_kind(dev->class) == PA_KIND_GPU && gpu_rank(dev) < 2;
}

static size_t label_of(const struct pa_device *dev)
{
	enum pa_kind k = pa_class_kind(dev->class);

	return k == PA_KIND_GPU && !pa_topo_is_gpu(dev) ? LABEL_DISPLAY :
	       (size_t)k;
}

static bool is_bridge(const struct pa_device *dev)
{
	return (dev->flags & PCIEAUDIT_DEV_F_BRIDGE) != 0;
}

/* VFs are left out by default: one SR-IOV NIC can bring hundreds. */
static bool selected(const struct pa_device *dev, enum pa_select how)
{
	if (is_bridge(dev))
		return false;
	if (how == PA_SELECT_ALL)
		return true;
	return pa_topo_default_class(dev->class) &&
	       !(dev->flags & PCIEAUDIT_DEV_F_VIRTFN);
}

static void add(struct pa_topo *t, const struct pa_device *dev,
		size_t counts[NLABELS])
{
	size_t k = label_of(dev);
	struct pa_topo_dev *td = &t->devs[t->n++];

	td->dev = dev;
	snprintf(td->label, sizeof(td->label), "%s%zu", kind_labels[k],
		 counts[k]++);
}

/*
 * GPUs as nvidia-smi numbers them, NVIDIA's by bus id, then AMD's; the
 * other kinds in turn, display functions that are no GPU (a BMC's VGA,
 * an emulated display) before the rest.
 */
static void select_by_kind(const struct pa_report *rep, enum pa_select how,
			   struct pa_topo *t)
{
	static const size_t order[] = {
		PA_KIND_GPU, PA_KIND_ACC, PA_KIND_NIC, PA_KIND_NVME,
		LABEL_DISPLAY, PA_KIND_OTHER,
	};
	size_t counts[NLABELS] = { 0 };

	for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++)
		for (int rank = 0; rank < (order[o] == PA_KIND_GPU ? 2 : 1); rank++)
			for (size_t i = 0; i < rep->ndevices; i++) {
				const struct pa_device *d = &rep->devices[i];

				if (label_of(d) == order[o] &&
				    (order[o] != PA_KIND_GPU || gpu_rank(d) == rank) &&
				    selected(d, how))
					add(t, d, counts);
			}
}

static bool listed_before(const struct pa_topo *t, const struct pa_device *dev)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->devs[i].dev == dev)
			return true;
	return false;
}

static int select_list(const struct pa_report *rep, const struct pa_addr *list,
		       size_t nlist, struct pa_topo *t, size_t *missing)
{
	size_t counts[NLABELS] = { 0 };

	for (size_t i = 0; i < nlist; i++) {
		const struct pa_device *dev = pa_report_find(rep, &list[i]);

		if (!dev) {
			*missing = i;
			return -ENODEV;
		}
		if (!listed_before(t, dev))
			add(t, dev, counts);
	}
	return 0;
}

int pa_topo_select(const struct pa_report *rep, enum pa_select how,
		   const struct pa_addr *list, size_t nlist,
		   struct pa_topo *topo, size_t *missing)
{
	size_t max = how == PA_SELECT_LIST ? nlist : rep->ndevices;
	struct pa_topo t = { calloc(max + 1, sizeof(*t.devs)), 0 };
	int err = 0;

	if (!t.devs)
		return -ENOMEM;
	if (how == PA_SELECT_LIST)
		err = select_list(rep, list, nlist, &t, missing);
	else
		select_by_kind(rep, how, &t);
	if (err) {
		pa_topo_clear(&t);
		return err;
	}
	*topo = t;
	return 0;
}

int pa_topo_addrs(const struct pa_topo *topo, struct pa_addr **addrs)
{
	*addrs = calloc(topo->n + 1, sizeof(**addrs));
	if (!*addrs)
		return -ENOMEM;
	for (size_t i = 0; i < topo->n; i++)
		(*addrs)[i] = topo->devs[i].dev->addr;
	return 0;
}

void pa_topo_clear(struct pa_topo *topo)
{
	free(topo->devs);
	*topo = (struct pa_topo){ 0 };
}
