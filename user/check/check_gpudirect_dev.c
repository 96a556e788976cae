// SPDX-License-Identifier: GPL-2.0
/*
 * gpudirect rules on the devices of the chosen pairs: the GPU's BAR
 * against its memory, MPS and MRRS along a path, relaxed ordering.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>

#include "bdf.h"
#include "check_gpudirect.h"
#include "dev_caps.h"
#include "fabric.h"
#include "p2p_path.h"
#include "topo.h"

static bool in_pairs(const struct gd *g, const struct pa_addr *a)
{
	for (size_t i = 0; i < g->npairs; i++)
		if (pa_addr_eq(&g->pairs[i]->provider, a) ||
		    pa_addr_eq(&g->pairs[i]->client, a))
			return true;
	return false;
}

/* The GPU's memory: mem_bytes where a caller set it, else what NVML or KFD
 * gave the fabric; 0 when unknown. */
static uint64_t gpu_memory(const struct gd *g, const struct pa_device *d)
{
	if (d->mem_bytes)
		return d->mem_bytes;
	return g->rep->fabric ? pa_fabric_mem(g->rep->fabric, &d->addr) : 0;
}

static void bar_small(struct gd *g, const struct pa_device *d, size_t *known,
		      size_t *unsized)
{
	const struct pa_bar *b = pa_largest_prefetch_bar(d);
	char bdf[PA_BDF_LEN], have[PA_SIZE_TEXT_LEN], mem[PA_SIZE_TEXT_LEN];
	char top[PA_SIZE_TEXT_LEN];
	uint64_t largest, bytes = gpu_memory(g, d);

	*unsized += bytes && d->bars_unknown;
	if (!bytes || !d->caps_known || d->bars_unknown)
		return;
	(*known)++;
	if (b && b->size >= bytes)
		return;
	pa_bdf_format(&d->addr, bdf);
	pa_size_format(bytes, mem);
	pa_size_format(b ? b->size : 0, have);
	largest = b ? pa_rebar_largest(b) : 0;
	pa_size_format(largest, top);
	if (b && largest >= bytes)
		pa_check_add(g->c, PA_GD_BAR_SMALL, 0, &d->addr, 1,
			     (struct pa_remedy){ PA_REMEDY_BIOS,
			     "enable Above 4G Decoding and Resizable BAR (Re-Size BAR Support)" },
			     "%s %s: its largest prefetchable BAR (BAR%u, %s) is smaller than its %s of memory; the BAR is resizable up to %s, so the firmware or the driver left it small",
			     pa_check_noun(d), bdf, b->index, have, mem, top);
	else
		pa_check_add(g->c, PA_GD_BAR_SMALL, 0, &d->addr, 1,
			     (struct pa_remedy){ PA_REMEDY_HARDWARE,
			     "a card or firmware with a BAR as large as its memory (for NVIDIA, a BAR1 size profile); check Above 4G Decoding" },
			     "%s %s: its largest prefetchable BAR (%s%s) is smaller than its %s of memory%s",
			     pa_check_noun(d), bdf, b ? "" : "none", b ? have : "",
			     mem, b && b->resizable ? ", and it cannot grow that far" : "");
}

static void check_bars(struct gd *g)
{
	size_t gpus = 0, known = 0, unsized = 0;

	for (size_t i = 0; i < g->npartners; i++) {
		const struct pa_device *d = g->partners[i];

		if (pa_device_kind(d) != PA_KIND_GPU ||
		    !in_pairs(g, &d->addr))
			continue;
		gpus++;
		bar_small(g, d, &known, &unsized);
	}
	if (!known && unsized)
		pa_check_skip(g->c, PA_GD_BAR_SMALL,
			      "the GPUs' BAR sizes are not in the input (lspci -xxxx without lspci -v's sizes)");
	else if (!known)
		pa_check_skip(g->c, PA_GD_BAR_SMALL,
			      gpus ? "no GPU memory size: NVML or KFD did not give one" :
			      "no GPU in a pair");
}

struct path_list {
	struct pa_addr_list list;
	int err;
};

static void collect(const struct pa_addr *addr, enum pa_step_role role,
		    void *arg)
{
	struct path_list *pl = arg;

	/* Between two ports below it, a TLP does not cross the common
	 * bridge's own link. */
	if (addr && role != PA_STEP_COMMON && !pl->err)
		pl->err = pa_addr_list_add(&pl->list, addr);
}

static void mps_text(struct pa_sb *sb, const struct gd *g,
		     const struct pa_addr_list *l, bool mrrs)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct pa_device *d = pa_report_find(g->rep, &l->addrs[i]);
		unsigned int v = d ? (mrrs ? pa_mrrs_bytes(d) : pa_mps_bytes(d)) : 0;
		char bdf[PA_BDF_LEN];

		if (!v)
			continue;
		pa_bdf_format(&l->addrs[i], bdf);
		pa_sb_printf(sb, "%s%s %u", sb->len ? ", " : "", bdf, v);
	}
}

static void check_mps_pair(struct gd *g, const struct pa_p2p_pair *p,
			   size_t *unknown, size_t *known)
{
	struct path_list pl = { 0 };
	unsigned int lo = 0, hi = 0;
	const struct pa_device *a = pa_report_find(g->rep, &p->provider);
	const struct pa_device *b = pa_report_find(g->rep, &p->client);
	struct pa_sb sb = { 0 }, list = { 0 };

	pa_path_walk(p, collect, &pl);
	for (size_t i = 0; !pl.err && i < pl.list.n; i++) {
		const struct pa_device *d = pa_report_find(g->rep, &pl.list.addrs[i]);
		unsigned int v = d ? pa_mps_bytes(d) : 0;

		if (!v) {
			(*unknown)++;
			continue;
		}
		(*known)++;
		lo = !lo || v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	if (pl.err) {
		g->c->err = pl.err;
		pa_addr_list_clear(&pl.list);
		return;
	}
	if (lo != hi) {
		mps_text(&list, g, &pl.list, false);
		pa_sb_printf(&sb, "Max_Payload_Size differs along the path of ");
		pa_gd_pair_names(&sb, g, p);
		pa_sb_printf(&sb, " (%s bytes): a TLP of %u bytes from one end is malformed at a port set to %u",
			     list.s ? list.s : "", hi, lo);
		pa_sb_clear(&list);
		pa_gd_add_pair_finding(g, PA_GD_MPS_MISMATCH, 0, p, NULL,
				       (struct pa_remedy){ PA_REMEDY_CMDLINE_ADD,
				       "pci=pcie_bus_peer2peer" }, &sb);
	} else if (a && b && pa_mrrs_bytes(a) && pa_mrrs_bytes(b) &&
		   pa_mrrs_bytes(a) != pa_mrrs_bytes(b)) {
		struct pa_addr_list ends = { 0 };

		if (!pa_addr_list_add(&ends, &p->provider) &&
		    !pa_addr_list_add(&ends, &p->client))
			mps_text(&list, g, &ends, true);
		pa_addr_list_clear(&ends);
		pa_sb_printf(&sb, "Max_Read_Request_Size differs between ");
		pa_gd_pair_names(&sb, g, p);
		pa_sb_printf(&sb, " (%s bytes): their reads of each other are split differently; MPS agrees (%u)",
			     list.s ? list.s : "", lo);
		pa_sb_clear(&list);
		pa_gd_add_pair_finding(g, PA_GD_MPS_MISMATCH, PA_SEV_INFO, p, NULL,
				       (struct pa_remedy){ PA_REMEDY_NONE, NULL }, &sb);
	}
	pa_addr_list_clear(&pl.list);
}

static bool ro_off(const struct gd *g, const struct pa_device *d, size_t *known)
{
	enum pa_kind k = pa_device_kind(d);
	enum pa_tristate ro = pa_relaxed_ordering(d);

	if ((k != PA_KIND_NIC && !pa_gd_accelerator(d)) ||
	    !in_pairs(g, &d->addr) || ro == PA_UNKNOWN)
		return false;
	(*known)++;
	return ro == PA_NO;
}

/* One command for every device found: the findings share it. */
static char *ro_remedy(const struct gd *g)
{
	struct pa_sb sb = { 0 };
	size_t known = 0, n = 0;

	for (size_t i = 0; i < g->npartners; i++) {
		char bdf[PA_BDF_LEN];

		if (!ro_off(g, g->partners[i], &known))
			continue;
		pa_bdf_format(&g->partners[i]->addr, bdf);
		pa_sb_printf(&sb, "%s%s", n++ ? " " : "", bdf);
	}
	if (n == 1) {
		char *one = pa_sb_take(&sb);

		if (!one)
			return NULL;
		pa_sb_printf(&sb, "setpci -s %s CAP_EXP+0x8.w=0010:0010", one);
		free(one);
	} else if (n) {
		char *list = pa_sb_take(&sb);

		if (!list)
			return NULL;
		pa_sb_printf(&sb, "for d in %s; do setpci -s $d CAP_EXP+0x8.w=0010:0010; done",
			     list);
		free(list);
	}
	return n ? pa_sb_take(&sb) : strdup("");
}

static void check_ro(struct gd *g)
{
	static const char why[] = "Enable Relaxed Ordering is off in Device Control: writes and read completions stay strictly ordered. If the kernel log says a quirk disabled it below a root port, that port breaks relaxed ordering: leave it off there";
	char *remedy = ro_remedy(g);
	size_t known = 0;

	if (!remedy) {
		g->c->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < g->npartners; i++) {
		const struct pa_device *d = g->partners[i];
		char bdf[PA_BDF_LEN], member[PA_BDF_LEN + 32];
		size_t before = g->c->nfindings;

		if (!ro_off(g, d, &known))
			continue;
		pa_bdf_format(&d->addr, bdf);
		snprintf(member, sizeof(member), "%s %s", pa_check_noun(d), bdf);
		pa_check_add(g->c, PA_GD_RELAXED_ORDERING, 0, &d->addr, 1,
			     (struct pa_remedy){ PA_REMEDY_COMMAND, remedy },
			     "%s: %s", member, why);
		pa_check_group_last(g->c, before, why, member);
	}
	if (!known)
		pa_check_skip(g->c, PA_GD_RELAXED_ORDERING,
			      "no accelerator or NIC in a pair has a known Device Control register (module too old, or registers unreadable)");
	free(remedy);
}

void pa_gd_check_devices(struct gd *g)
{
	size_t unknown = 0, known = 0;

	check_bars(g);
	for (size_t i = 0; i < g->npairs && !g->c->err; i++)
		check_mps_pair(g, g->pairs[i], &unknown, &known);
	if (!known)
		pa_check_skip(g->c, PA_GD_MPS_MISMATCH,
			      "no function on a pair's path has a known Device Control register (module too old, or registers unreadable)");
	else if (unknown)
		pa_check_note(g->c, PA_GD_MPS_MISMATCH,
			      "%zu pair%s checked; %zu function%s on the way with MPS unknown",
			      g->npairs, g->npairs == 1 ? "" : "s", unknown,
			      unknown == 1 ? "" : "s");
	check_ro(g);
}
