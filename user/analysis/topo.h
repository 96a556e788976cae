/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The topology matrix: which devices it shows, their labels, and the
 * nvidia-smi style legend of each pair. Pure: reads the device report and
 * the P2P pairs in it, writes nothing.
 */
#ifndef PA_TOPO_H
#define PA_TOPO_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

/*
 * nvidia-smi's legend, so that users read the matrix at once. The rules,
 * from the pair's path (the module's hops) and the device report:
 *   X     provider and client are the same function.
 *   PIX   a common upstream bridge, and no hop below it on either side is
 *         a switch upstream port or a bridge to another bus (PCIe-to-PCI,
 *         PCI-to-PCIe, conventional PCI-to-PCI): at most one switch or
 *         bridge. A downstream port belongs to the switch above it.
 *   PXB   a common upstream bridge, and such a hop on either side: several
 *         switches, no host bridge crossed.
 *   PHB   no common upstream bridge, and the same host bridge.
 *   NODE  different host bridges on the same NUMA node.
 *   SYS   different host bridges on different NUMA nodes, or either NUMA
 *         node or host bridge unknown.
 * A device's host bridge is its root bus (domain:bus): the bus of the
 * function reached by following upstream links until there is none. NUMA
 * node -1 counts as node 0 only on a host whose facts say it has a single
 * node; otherwise it is unknown, and an unknown node is never NODE.
 */
enum pa_legend {
	PA_LEGEND_X,
	PA_LEGEND_PIX,
	PA_LEGEND_PXB,
	PA_LEGEND_PHB,
	PA_LEGEND_NODE,
	PA_LEGEND_SYS,
	PA_NLEGENDS
};

/* "X", "PIX", ...; also the JSON spelling. */
const char *pa_legend_name(enum pa_legend legend);

/* One line that explains it, for the text legend. */
const char *pa_legend_meaning(enum pa_legend legend);

enum pa_legend pa_legend_of(const struct pa_report *rep,
			    const struct pa_p2p_pair *pair);

/* The root bus above addr, devfn 0; false when the report cannot tell. */
bool pa_host_bridge(const struct pa_report *rep, const struct pa_addr *addr,
		    struct pa_addr *root);

/* Suffixes of a matrix cell after the legend; see pa_topo_cell(). */
#define PA_MARK_HOST_BRIDGE	'*'
#define PA_MARK_REFUSED		'-'
#define PA_MARK_UNKNOWN_MAP	'?'
#define PA_MARK_ACS_UNKNOWN	'~'
#define PA_MARK_TRAP		'!'
#define PA_CELL_NO_ANSWER	"?"

/* "SYS-!" plus NUL. */
#define PA_CELL_LEN 8

/*
 * A matrix cell for provider a and client b, from rep->p2p (sorted):
 * "X" on the diagonal, "NV#" or "XGMI" for a pair joined by accelerator
 * links (rep->fabric), PA_CELL_NO_ANSWER without a pair, else the legend,
 * then a mark for pcieaudit's map type (none for direct bus addresses,
 * '*' through the host bridge, '-' refused, '?' no verdict: through the
 * root complex, undecided without the CPU and the kernel's whitelist;
 * '~' no verdict: ACS unknown on the path, pa_p2p_acs_unknown_at()), then
 * '!' for a bandwidth trap.
 */
void pa_topo_cell(const struct pa_report *rep, const struct pa_addr *a,
		  const struct pa_addr *b, char cell[PA_CELL_LEN]);

/* "NVME" and a number, with room to spare. */
#define PA_LABEL_LEN 16

struct pa_topo_dev {
	const struct pa_device *dev;	/* points into the report */
	char label[PA_LABEL_LEN];
};

/* The selected devices, in matrix order. */
struct pa_topo {
	struct pa_topo_dev *devs;
	size_t n;
};

enum pa_select {
	/* GPUs and accelerators, NICs (InfiniBand too), NVMe; no VFs. */
	PA_SELECT_DEFAULT,
	PA_SELECT_ALL,		/* every function without a subordinate bus */
	PA_SELECT_LIST,		/* the addresses given, in their order */
};

/* What a class code makes a device: display controllers (3D too), then
 * processing accelerators and co-processors, network controllers
 * (Ethernet, InfiniBand, ...), NVM Express. */
enum pa_kind {
	PA_KIND_GPU,
	PA_KIND_ACC,
	PA_KIND_NIC,
	PA_KIND_NVME,
	PA_KIND_OTHER,
	PA_NKINDS
};

enum pa_kind pa_class_kind(uint32_t class);
/* As pa_class_kind(), but a display function that is nobody's GPU (a BMC's
 * VGA, integrated graphics) is PA_KIND_OTHER: check's rules about GPUs
 * must not name it. */
enum pa_kind pa_device_kind(const struct pa_device *dev);

#define PA_VENDOR_NVIDIA	0x10de
#define PA_VENDOR_AMD		0x1002
#define PA_VENDOR_MATROX	0x102b
#define PA_VENDOR_ASPEED	0x1a03

/* A display-class function of NVIDIA or AMD: a matrix's GPUn. Others (a
 * BMC's VGA, an emulated display) are DISPn there; check's kinds still
 * go by class alone. */
bool pa_topo_is_gpu(const struct pa_device *dev);

/* True for the classes PA_SELECT_DEFAULT shows. */
bool pa_topo_default_class(uint32_t class);

/*
 * Selects and labels devices of the report. Default and all are ordered
 * GPUs (NVIDIA's first, as nvidia-smi numbers them, then AMD's),
 * accelerators, NICs, NVMe, other display functions (DISPn), others, each
 * by address; a list keeps its order and drops repeats. -ENODEV when a listed address is not in the
 * report, with *missing its index; -ENOMEM.
 */
int pa_topo_select(const struct pa_report *rep, enum pa_select how,
		   const struct pa_addr *list, size_t nlist,
		   struct pa_topo *topo, size_t *missing);

/* The selected addresses, for a P2P dump request; free() them. */
int pa_topo_addrs(const struct pa_topo *topo, struct pa_addr **addrs);

void pa_topo_clear(struct pa_topo *topo);

#endif /* PA_TOPO_H */
