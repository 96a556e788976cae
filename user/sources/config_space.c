// SPDX-License-Identifier: GPL-2.0
#include "config_space.h"

#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#define HEADER_LEN	64
#define EXT_START	PCI_CFG_SPACE_SIZE

/* Configuration space is little-endian, whatever the CPU. */
static uint16_t rd16(const uint8_t *cfg, size_t len, unsigned int pos)
{
	return pos + 2 <= len ? (uint16_t)(cfg[pos] | cfg[pos + 1] << 8) : 0;
}

static uint32_t rd32(const uint8_t *cfg, size_t len, unsigned int pos)
{
	return pos + 4 <= len ? (uint32_t)rd16(cfg, len, pos) |
				(uint32_t)rd16(cfg, len, pos + 2) << 16 : 0;
}

unsigned int pa_config_find_cap(const uint8_t *cfg, size_t len, uint8_t id)
{
	/* 48 steps, as the kernel's PCI_FIND_CAP_TTL. */
	unsigned int pos, ttl = 48;

	if (len < HEADER_LEN || !(rd16(cfg, len, PCI_STATUS) & PCI_STATUS_CAP_LIST))
		return 0;
	pos = cfg[PCI_CAPABILITY_LIST];
	while (ttl-- && pos >= 0x40 && pos + 2 <= len && pos < PCI_CFG_SPACE_SIZE) {
		pos &= ~3u;
		if (cfg[pos] == 0xff)
			break;
		if (cfg[pos] == id)
			return pos;
		pos = cfg[pos + 1];
	}
	return 0;
}

unsigned int pa_config_find_ext_cap(const uint8_t *cfg, size_t len,
				    uint16_t id)
{
	unsigned int pos = EXT_START;
	unsigned int ttl = (PCI_CFG_SPACE_EXP_SIZE - EXT_START) / 8;

	while (ttl-- && pos >= EXT_START && pos + 4 <= len) {
		uint32_t header = rd32(cfg, len, pos);

		if (header == 0 || header == 0xffffffff)
			break;
		if (PCI_EXT_CAP_ID(header) == id)
			return pos;
		pos = PCI_EXT_CAP_NEXT(header);
	}
	return 0;
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

static void parse_pcie(const uint8_t *cfg, size_t len, struct pa_config *c)
{
	unsigned int pos = pa_config_find_cap(cfg, len, PCI_CAP_ID_EXP);
	uint16_t flags;

	c->pcie_type = -1;
	if (!pos)
		return;
	flags = rd16(cfg, len, pos + PCI_EXP_FLAGS);
	c->pcie_type = (flags & PCI_EXP_FLAGS_TYPE) >> 4;
	if (pos + PCI_EXP_DEVCTL + 2 <= len) {
		c->has_expdev = true;
		c->devcap = rd32(cfg, len, pos + PCI_EXP_DEVCAP);
		c->devctl = rd16(cfg, len, pos + PCI_EXP_DEVCTL);
	}
	if (!has_link_regs(c->pcie_type) || pos + PCI_EXP_LNKSTA + 2 > len)
		return;
	c->has_link = true;
	c->link.lnkcap = rd32(cfg, len, pos + PCI_EXP_LNKCAP);
	c->link.lnksta = rd16(cfg, len, pos + PCI_EXP_LNKSTA);
	/* Link Control 2 exists from capability version 2 on. */
	c->link.has_lnkctl2 = (flags & PCI_EXP_FLAGS_VERS) > 1 &&
			      pos + PCI_EXP_LNKCTL2 + 2 <= len;
	if (c->link.has_lnkctl2)
		c->link.lnkctl2 = rd16(cfg, len, pos + PCI_EXP_LNKCTL2);
}

/* The Resizable BAR capability: an entry per resizable BAR, each naming
 * its BAR index (PCIe 6.0 §7.8.6), as the module reads it. */
static void parse_rebar(const uint8_t *cfg, size_t len, struct pa_config *c)
{
	unsigned int pos = pa_config_find_ext_cap(cfg, len, PCI_EXT_CAP_ID_REBAR);
	unsigned int n;

	if (!pos || pos + PCI_REBAR_CTRL + 4 > len)
		return;
	n = (rd32(cfg, len, pos + PCI_REBAR_CTRL) & PCI_REBAR_CTRL_NBAR_MASK) >>
	    PCI_REBAR_CTRL_NBAR_SHIFT;
	for (unsigned int e = 0; e < n && e < PA_MAX_BARS; e++) {
		unsigned int at = pos + e * 8;
		uint32_t ctrl;

		if (at + PCI_REBAR_CTRL + 4 > len)
			return;
		ctrl = rd32(cfg, len, at + PCI_REBAR_CTRL);
		if ((ctrl & PCI_REBAR_CTRL_BAR_IDX) >= PA_MAX_BARS)
			continue;
		c->rebar[ctrl & PCI_REBAR_CTRL_BAR_IDX] = true;
		c->rebar_cap[ctrl & PCI_REBAR_CTRL_BAR_IDX] =
			rd32(cfg, len, at + PCI_REBAR_CAP);
		c->rebar_ctrl[ctrl & PCI_REBAR_CTRL_BAR_IDX] = ctrl;
	}
}

/* Each BAR register's type: I/O or memory, 64-bit, prefetchable. */
static void parse_bars(const uint8_t *cfg, size_t len, uint8_t type,
		       struct pa_config *c)
{
	c->nbar_regs = type == PCI_HEADER_TYPE_NORMAL ? 6 :
		       type == PCI_HEADER_TYPE_BRIDGE ? 2 : 0;
	for (unsigned int i = 0; i < c->nbar_regs; i++) {
		struct pa_config_bar *b = &c->bar_regs[i];
		uint32_t v = rd32(cfg, len, PCI_BASE_ADDRESS_0 + 4 * i);

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
		    PCI_BASE_ADDRESS_MEM_TYPE_64 && i + 1 < c->nbar_regs) {
			b->flags |= PCIEAUDIT_BAR_F_MEM64;
			b->address |= (uint64_t)rd32(cfg, len,
				PCI_BASE_ADDRESS_0 + 4 * (i + 1)) << 32;
			c->bar_regs[i + 1].upper = true;
		}
	}
}

static void parse_ext(const uint8_t *cfg, size_t len, struct pa_config *c)
{
	unsigned int pos = pa_config_find_ext_cap(cfg, len, PCI_EXT_CAP_ID_ACS);

	if (pos && pos + PCI_ACS_CTRL + 2 <= len) {
		c->has_acs = true;
		c->acs.pos = (uint16_t)pos;
		c->acs.cap = rd16(cfg, len, pos + PCI_ACS_CAP);
		c->acs.ctrl = rd16(cfg, len, pos + PCI_ACS_CTRL);
	}
	c->sriov = pa_config_find_ext_cap(cfg, len, PCI_EXT_CAP_ID_SRIOV) != 0;
	pos = pa_config_find_ext_cap(cfg, len, PCI_EXT_CAP_ID_ATS);
	if (pos && pos + PCI_ATS_CTRL + 2 <= len) {
		c->has_ats = true;
		c->ats_cap = rd16(cfg, len, pos + PCI_ATS_CAP);
		c->ats_ctrl = rd16(cfg, len, pos + PCI_ATS_CTRL);
	}
	parse_rebar(cfg, len, c);
}

void pa_config_parse(const uint8_t *cfg, size_t len, struct pa_config *out)
{
	struct pa_config c = { .pcie_type = -1 };
	uint8_t type;

	if (len >= HEADER_LEN) {
		c.valid = true;
		/* The whole header reads all ones, not just the ids: a VF's
		 * vendor and device ids read 0xffff too. */
		if (rd32(cfg, len, PCI_VENDOR_ID) == 0xffffffff &&
		    rd32(cfg, len, PCI_COMMAND) == 0xffffffff &&
		    rd32(cfg, len, PCI_CLASS_REVISION) == 0xffffffff) {
			c.all_ones = true;
			c.vendor = c.device = 0xffff;
			c.class = 0xffffff;
			c.revision = 0xff;
			*out = c;
			return;
		}
		c.vendor = rd16(cfg, len, PCI_VENDOR_ID);
		c.device = rd16(cfg, len, PCI_DEVICE_ID);
		c.revision = cfg[PCI_REVISION_ID];
		c.class = rd32(cfg, len, PCI_CLASS_REVISION) >> 8;
		type = cfg[PCI_HEADER_TYPE];
		c.multifunction = type & 0x80;
		c.bridge = (type & 0x7f) == PCI_HEADER_TYPE_BRIDGE ||
			   (type & 0x7f) == PCI_HEADER_TYPE_CARDBUS;
		if ((type & 0x7f) == PCI_HEADER_TYPE_NORMAL) {
			c.subsys_vendor = rd16(cfg, len, PCI_SUBSYSTEM_VENDOR_ID);
			c.subsys_device = rd16(cfg, len, PCI_SUBSYSTEM_ID);
		}
		c.has_secondary_bus = c.bridge;
		c.secondary_bus = cfg[PCI_SECONDARY_BUS];
		parse_bars(cfg, len, type & 0x7f, &c);
		parse_pcie(cfg, len, &c);
		parse_ext(cfg, len, &c);
		c.no_extended = c.pcie_type >= 0 && len <= PCI_CFG_SPACE_SIZE;
	}
	*out = c;
}
