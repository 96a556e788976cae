// SPDX-License-Identifier: GPL-2.0
#include "config_space.h"

#include <string.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#define HEADER_LEN	64
#define EXT_START	PCI_CFG_SPACE_SIZE

/*
 * The bytes, and who fills them: the parser names each range before it
 * reads it, so a reader with a fetch function reads only what is decoded
 * (the header, the capability chain, the extended capabilities used), as
 * lspci does. In a VM every configuration read traps to the hypervisor.
 */
struct view {
	const uint8_t *cfg;
	size_t len;
	pa_config_fetch_fn *fetch;
	void *ctx;
};

/* Makes [pos, pos + n) present, clipped to the space. */
static void need(const struct view *v, unsigned int pos, unsigned int n)
{
	if (!v->fetch || pos >= v->len)
		return;
	if (pos + n > v->len)
		n = (unsigned int)(v->len - pos);
	v->fetch(v->ctx, pos, n);
}

static uint8_t rd8(const struct view *v, unsigned int pos)
{
	return pos < v->len ? v->cfg[pos] : 0;
}

/* Configuration space is little-endian, whatever the CPU. */
static uint16_t rd16(const struct view *v, unsigned int pos)
{
	return pos + 2 <= v->len ?
	       (uint16_t)(v->cfg[pos] | v->cfg[pos + 1] << 8) : 0;
}

static uint32_t rd32(const struct view *v, unsigned int pos)
{
	return pos + 4 <= v->len ? (uint32_t)rd16(v, pos) |
				   (uint32_t)rd16(v, pos + 2) << 16 : 0;
}

static unsigned int find_cap(const struct view *v, uint8_t id)
{
	/* 48 steps, as the kernel's PCI_FIND_CAP_TTL. */
	unsigned int pos, ttl = 48;

	if (v->len < HEADER_LEN || !(rd16(v, PCI_STATUS) & PCI_STATUS_CAP_LIST))
		return 0;
	pos = rd8(v, PCI_CAPABILITY_LIST);
	while (ttl-- && pos >= 0x40 && pos + 2 <= v->len &&
	       pos < PCI_CFG_SPACE_SIZE) {
		pos &= ~3u;
		need(v, pos, 2);
		if (rd8(v, pos) == 0xff)
			break;
		if (rd8(v, pos) == id)
			return pos;
		pos = rd8(v, pos + 1);
	}
	return 0;
}

unsigned int pa_config_find_cap(const uint8_t *cfg, size_t len, uint8_t id)
{
	return find_cap(&(struct view){ .cfg = cfg, .len = len }, id);
}

static unsigned int find_ext_cap(const struct view *v, uint16_t id)
{
	unsigned int pos = EXT_START;
	unsigned int ttl = (PCI_CFG_SPACE_EXP_SIZE - EXT_START) / 8;

	while (ttl-- && pos >= EXT_START && pos + 4 <= v->len) {
		uint32_t header;

		need(v, pos, 4);
		header = rd32(v, pos);

		if (header == 0 || header == 0xffffffff)
			break;
		if (PCI_EXT_CAP_ID(header) == id)
			return pos;
		pos = PCI_EXT_CAP_NEXT(header);
	}
	return 0;
}

unsigned int pa_config_find_ext_cap(const uint8_t *cfg, size_t len,
				    uint16_t id)
{
	return find_ext_cap(&(struct view){ .cfg = cfg, .len = len }, id);
}

/* As the module's has_link_regs(), after pcie_cap_has_lnkctl(). */
static bool has_link_regs(int type)
{
	switch (type) {
	case PCI_EXP_TYPE_ENDPOINT:
	case PCI_EXP_TYPE_LEG_END:
	case PCI_EXP_TYPE_ROOT_PORT:
	case PCI_EXP_TYPE_UPSTREAM:
	case PCI_EXP_TYPE_DOWNSTREAM:
	case PCI_EXP_TYPE_PCI_BRIDGE:
	case PCI_EXP_TYPE_PCIE_BRIDGE:
		return true;
	default:
		return false;
	}
}

static void parse_pcie(const struct view *v, struct pa_config *c)
{
	unsigned int pos = find_cap(v, PCI_CAP_ID_EXP);
	size_t len = v->len;
	uint16_t flags;

	c->pcie_type = -1;
	if (!pos)
		return;
	/* Flags to Link Status: the registers decoded, in one read. */
	need(v, pos, PCI_EXP_LNKSTA + 2);
	flags = rd16(v, pos + PCI_EXP_FLAGS);
	c->pcie_type = (flags & PCI_EXP_FLAGS_TYPE) >> 4;
	if (pos + PCI_EXP_DEVCTL + 2 <= len) {
		c->has_expdev = true;
		c->devcap = rd32(v, pos + PCI_EXP_DEVCAP);
		c->devctl = rd16(v, pos + PCI_EXP_DEVCTL);
	}
	if ((flags & PCI_EXP_FLAGS_VERS) > 1 &&
	    pos + PCI_EXP_DEVCTL2 + 2 <= len) {
		need(v, pos + PCI_EXP_DEVCAP2, PCI_EXP_DEVCTL2 + 2 - PCI_EXP_DEVCAP2);
		c->has_devcap2 = true;
		c->devcap2 = rd32(v, pos + PCI_EXP_DEVCAP2);
		c->devctl2 = rd16(v, pos + PCI_EXP_DEVCTL2);
	}
	if (!has_link_regs(c->pcie_type) || pos + PCI_EXP_LNKSTA + 2 > len)
		return;
	c->has_link = true;
	c->link.lnkcap = rd32(v, pos + PCI_EXP_LNKCAP);
	c->link.lnksta = rd16(v, pos + PCI_EXP_LNKSTA);
	/* Link Control 2 exists from capability version 2 on. */
	c->link.has_lnkctl2 = (flags & PCI_EXP_FLAGS_VERS) > 1 &&
			      pos + PCI_EXP_LNKCTL2 + 2 <= len;
	if (c->link.has_lnkctl2) {
		need(v, pos + PCI_EXP_LNKCTL2, 2);
		c->link.lnkctl2 = rd16(v, pos + PCI_EXP_LNKCTL2);
	}
}

/* The Resizable BAR capability: an entry per resizable BAR, each naming
 * its BAR index (PCIe 6.0 §7.8.6), as the module reads it. */
static void parse_rebar(const struct view *v, struct pa_config *c)
{
	unsigned int pos = find_ext_cap(v, PCI_EXT_CAP_ID_REBAR);
	size_t len = v->len;
	unsigned int n;

	if (!pos || pos + PCI_REBAR_CTRL + 4 > len)
		return;
	need(v, pos + PCI_REBAR_CTRL, 4);
	n = (rd32(v, pos + PCI_REBAR_CTRL) & PCI_REBAR_CTRL_NBAR_MASK) >>
	    PCI_REBAR_CTRL_NBAR_SHIFT;
	/* Every entry's capability and control, in one read. */
	need(v, pos + PCI_REBAR_CAP, 8 * (n < PA_MAX_BARS ? n : PA_MAX_BARS));
	for (unsigned int e = 0; e < n && e < PA_MAX_BARS; e++) {
		unsigned int at = pos + e * 8;
		uint32_t ctrl;

		if (at + PCI_REBAR_CTRL + 4 > len)
			return;
		ctrl = rd32(v, at + PCI_REBAR_CTRL);
		if ((ctrl & PCI_REBAR_CTRL_BAR_IDX) >= PA_MAX_BARS)
			continue;
		c->rebar[ctrl & PCI_REBAR_CTRL_BAR_IDX] = true;
		c->rebar_cap[ctrl & PCI_REBAR_CTRL_BAR_IDX] =
			rd32(v, at + PCI_REBAR_CAP);
		c->rebar_ctrl[ctrl & PCI_REBAR_CTRL_BAR_IDX] = ctrl;
	}
}

/* n BAR registers from at: type (I/O or memory, 64-bit, prefetchable)
 * and place. */
static void decode_bars(const struct view *cv, unsigned int at,
			unsigned int n, struct pa_config_bar *regs)
{
	for (unsigned int i = 0; i < n; i++) {
		struct pa_config_bar *b = &regs[i];
		uint32_t v = rd32(cv, at + 4 * i);

		if (b->upper)
			continue;
		if (v & PCI_BASE_ADDRESS_SPACE_IO) {
			b->flags = PCIEAUDIT_BAR_F_IO;
			b->address = v & PCI_BASE_ADDRESS_IO_MASK;
			continue;
		}
		b->flags = PCIEAUDIT_BAR_F_MEM;
		b->address = v & PCI_BASE_ADDRESS_MEM_MASK;
		if (v & PCI_BASE_ADDRESS_MEM_PREFETCH)
			b->flags |= PCIEAUDIT_BAR_F_PREFETCH;
		if ((v & PCI_BASE_ADDRESS_MEM_TYPE_MASK) ==
		    PCI_BASE_ADDRESS_MEM_TYPE_64 && i + 1 < n) {
			b->flags |= PCIEAUDIT_BAR_F_MEM64;
			b->address |= (uint64_t)rd32(cv, at + 4 * (i + 1)) << 32;
			regs[i + 1].upper = true;
		}
	}
}

static void parse_bars(const struct view *cv, uint8_t type,
		       struct pa_config *c)
{
	c->nbar_regs = type == PCI_HEADER_TYPE_NORMAL ? 6 :
		       type == PCI_HEADER_TYPE_BRIDGE ? 2 : 0;
	decode_bars(cv, PCI_BASE_ADDRESS_0, c->nbar_regs, c->bar_regs);
}

/* PM's No_Soft_Reset and the Advanced Features FLR, for the reset
 * methods of kernels without sysfs reset_method. */
static void parse_reset_caps(const struct view *v, struct pa_config *c)
{
	unsigned int pos = find_cap(v, PCI_CAP_ID_PM);

	c->no_soft_reset = c->af_flr = -1;
	if (pos && pos + PCI_PM_CTRL + 2 <= v->len) {
		need(v, pos + PCI_PM_CTRL, 2);
		c->no_soft_reset = pa_config_no_soft_reset(rd16(v, pos + PCI_PM_CTRL));
	}
	pos = find_cap(v, PCI_CAP_ID_AF);
	if (pos && pos + PCI_AF_CAP + 1 <= v->len) {
		need(v, pos + PCI_AF_CAP, 1);
		c->af_flr = pa_config_af_flr(rd8(v, pos + PCI_AF_CAP));
	}
}

int pa_config_no_soft_reset(uint16_t pmcsr)
{
	return !!(pmcsr & PCI_PM_CTRL_NO_SOFT_RESET);
}

/* An FLR the kernel's pci_af_flr() would use: it needs both bits. */
int pa_config_af_flr(uint8_t af_cap)
{
	return (af_cap & (PCI_AF_CAP_TP | PCI_AF_CAP_FLR)) ==
	       (PCI_AF_CAP_TP | PCI_AF_CAP_FLR);
}

void pa_config_decode_vf_bars(const uint8_t regs[4 * PA_MAX_BARS],
			      struct pa_config_bar out[PA_MAX_BARS])
{
	memset(out, 0, PA_MAX_BARS * sizeof(*out));
	decode_bars(&(struct view){ .cfg = regs, .len = 4 * PA_MAX_BARS }, 0,
		    PA_MAX_BARS, out);
}

/* TotalVFs, NumVFs, the VF routing and the VF BARs (PCIe 6.0 §9.3.3). */
static void parse_sriov(const struct view *v, unsigned int pos,
			struct pa_config *c)
{
	if (!pos || pos + PCI_SRIOV_BAR + 4 * PA_MAX_BARS > v->len)
		return;
	need(v, pos + PCI_SRIOV_INITIAL_VF, PCI_SRIOV_BAR + 4 * PA_MAX_BARS -
	     PCI_SRIOV_INITIAL_VF);
	c->initial_vfs = rd16(v, pos + PCI_SRIOV_INITIAL_VF);
	c->total_vfs = rd16(v, pos + PCI_SRIOV_TOTAL_VF);
	c->num_vfs = rd16(v, pos + PCI_SRIOV_NUM_VF);
	c->vf_offset = rd16(v, pos + PCI_SRIOV_VF_OFFSET);
	c->vf_stride = rd16(v, pos + PCI_SRIOV_VF_STRIDE);
	decode_bars(v, pos + PCI_SRIOV_BAR, PA_MAX_BARS, c->vf_bar_regs);
}

static void parse_ext(const struct view *v, struct pa_config *c)
{
	unsigned int pos = find_ext_cap(v, PCI_EXT_CAP_ID_ACS);
	size_t len = v->len;

	if (pos && pos + PCI_ACS_CTRL + 2 <= len) {
		need(v, pos + PCI_ACS_CAP, 4);
		c->has_acs = true;
		c->acs.pos = (uint16_t)pos;
		c->acs.cap = rd16(v, pos + PCI_ACS_CAP);
		c->acs.ctrl = rd16(v, pos + PCI_ACS_CTRL);
	}
	pos = find_ext_cap(v, PCI_EXT_CAP_ID_SRIOV);
	c->sriov = pos != 0;
	parse_sriov(v, pos, c);
	pos = find_ext_cap(v, PCI_EXT_CAP_ID_ATS);
	if (pos && pos + PCI_ATS_CTRL + 2 <= len) {
		need(v, pos + PCI_ATS_CAP, 4);
		c->has_ats = true;
		c->ats_cap = rd16(v, pos + PCI_ATS_CAP);
		c->ats_ctrl = rd16(v, pos + PCI_ATS_CTRL);
	}
	parse_rebar(v, c);
}

static void parse(const struct view *v, struct pa_config *out)
{
	struct pa_config c = { .pcie_type = -1, .no_soft_reset = -1,
			      .af_flr = -1 };
	size_t len = v->len;
	uint8_t type;

	if (len >= HEADER_LEN) {
		c.valid = true;
		need(v, 0, HEADER_LEN);
		/* The whole header reads all ones, not just the ids: a VF's
		 * vendor and device ids read 0xffff too. */
		if (rd32(v, PCI_VENDOR_ID) == 0xffffffff &&
		    rd32(v, PCI_COMMAND) == 0xffffffff &&
		    rd32(v, PCI_CLASS_REVISION) == 0xffffffff) {
			c.all_ones = true;
			c.vendor = c.device = 0xffff;
			c.class = 0xffffff;
			c.revision = 0xff;
			*out = c;
			return;
		}
		c.vendor = rd16(v, PCI_VENDOR_ID);
		c.device = rd16(v, PCI_DEVICE_ID);
		c.revision = rd8(v, PCI_REVISION_ID);
		c.class = rd32(v, PCI_CLASS_REVISION) >> 8;
		type = rd8(v, PCI_HEADER_TYPE);
		c.multifunction = type & 0x80;
		c.bridge = (type & 0x7f) == PCI_HEADER_TYPE_BRIDGE ||
			   (type & 0x7f) == PCI_HEADER_TYPE_CARDBUS;
		if ((type & 0x7f) == PCI_HEADER_TYPE_NORMAL) {
			c.subsys_vendor = rd16(v, PCI_SUBSYSTEM_VENDOR_ID);
			c.subsys_device = rd16(v, PCI_SUBSYSTEM_ID);
		}
		c.has_secondary_bus = c.bridge;
		c.secondary_bus = rd8(v, PCI_SECONDARY_BUS);
		parse_bars(v, type & 0x7f, &c);
		parse_pcie(v, &c);
		parse_reset_caps(v, &c);
		parse_ext(v, &c);
		c.no_extended = c.pcie_type >= 0 && len <= PCI_CFG_SPACE_SIZE;
	}
	*out = c;
}

void pa_config_parse(const uint8_t *cfg, size_t len, struct pa_config *out)
{
	parse(&(struct view){ .cfg = cfg, .len = len }, out);
}

void pa_config_parse_fetch(const uint8_t *cfg, size_t len,
			   pa_config_fetch_fn *fetch, void *ctx,
			   struct pa_config *out)
{
	parse(&(struct view){ .cfg = cfg, .len = len, .fetch = fetch,
			      .ctx = ctx }, out);
}
