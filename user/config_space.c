// SPDX-License-Identifier: GPL-2.0
#include "config_space.h"

#include <linux/pci_regs.h>

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
		parse_pcie(cfg, len, &c);
		parse_ext(cfg, len, &c);
		c.no_extended = c.pcie_type >= 0 && len <= PCI_CFG_SPACE_SIZE;
	}
	*out = c;
}
