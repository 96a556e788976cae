// SPDX-License-Identifier: GPL-2.0
/*
 * pa_replay: a PCI domain made from a captured configuration space, for
 * pcieaudit's tests only (tests/replay/). The capture comes as firmware
 * (tests/replay/mkblob.py's format, below); each of its root buses becomes
 * a root bus of a new domain whose pci_ops serve reads from the capture.
 * Writes change only the registers software may write: Command, the
 * bridges' bus numbers and Bridge Control, PCIe Device, Link and their
 * second Control registers, ACS Control (the bits the capability has), and
 * the BARs, sized from the capture's sizes where it has them (else they
 * read as absent while sized). The functions are scanned and registered
 * (sysfs, config) but never added: no driver binds and nothing maps them.
 *
 * Blob: "PAREPLY1", __le32 nroots, __le32 nfuncs; nroots of
 * { __le32 domain; u8 first, last; __le16 0 }; nfuncs of
 * { __le32 domain; __le16 bus; u8 devfn; u8 0; __le32 len; __le32 0;
 *   __le64 size[7] (BAR 0-5, ROM; 0 unknown); u8 cfg[4096] }.
 */
#include <linux/firmware.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/unaligned.h>

#define PAR_MAGIC	"PAREPLY1"
#define PAR_CFG		4096
#define PAR_NSIZE	7
#define PAR_MAX_ROOTS	64
#define PAR_MAX_FUNCS	4096

struct par_root_rec {
	__le32 domain;
	u8 first;
	u8 last;
	__le16 rsvd;
} __packed;

struct par_func_rec {
	__le32 domain;
	__le16 bus;
	u8 devfn;
	u8 rsvd;
	__le32 len;
	__le32 rsvd2;
	__le64 size[PAR_NSIZE];
	u8 cfg[PAR_CFG];
} __packed;

struct par_func {
	int domain;
	u8 bus;
	u8 devfn;
	u32 len;
	u64 size[PAR_NSIZE];
	u8 bar_kind[PAR_NSIZE];	/* 0 none, 1 io, 2 mem32, 3 mem64 low, 4 mem64 high, 5 rom */
	u8 bar_of[PAR_NSIZE];	/* the size index of a high dword's BAR */
	u8 cfg[PAR_CFG];
	u8 wmask[PAR_CFG];
};

struct par_root {
	struct pci_sysdata sd;
	struct pci_bus *bus;
};

static char *firmware = "pcieaudit-replay.bin";
module_param(firmware, charp, 0444);
MODULE_PARM_DESC(firmware, "the capture, as tests/replay/mkblob.py writes it");

static struct par_func *funcs;
static unsigned int nfuncs;
static struct par_root *roots;
static unsigned int nroots;
static DEFINE_RAW_SPINLOCK(par_lock);

static struct par_func *par_find(struct pci_bus *bus, unsigned int devfn)
{
	int domain = pci_domain_nr(bus);
	unsigned int i;

	for (i = 0; i < nfuncs; i++)
		if (funcs[i].domain == domain && funcs[i].bus == bus->number &&
		    funcs[i].devfn == devfn)
			return &funcs[i];
	return NULL;
}

static int par_read(struct pci_bus *bus, unsigned int devfn, int where,
		    int size, u32 *val)
{
	struct par_func *f = par_find(bus, devfn);
	unsigned long flags;
	u32 v = 0;
	int i;

	if (!f) {
		*val = ~0U;
		return PCIBIOS_DEVICE_NOT_FOUND;
	}
	if (where < 0 || where + size > f->len) {
		*val = ~0U;
		return PCIBIOS_BAD_REGISTER_NUMBER;
	}
	raw_spin_lock_irqsave(&par_lock, flags);
	for (i = size - 1; i >= 0; i--)
		v = (v << 8) | f->cfg[where + i];
	raw_spin_unlock_irqrestore(&par_lock, flags);
	*val = v;
	return PCIBIOS_SUCCESSFUL;
}

/* A BAR's dword after software wrote @val to it. */
static u32 par_bar_write(struct par_func *f, int idx, u32 val, u32 old)
{
	u64 mask;
	int bar = idx;

	if (f->bar_kind[idx] == 4)
		bar = f->bar_of[idx];
	if (!f->size[bar]) {
		/* Size unknown: the BAR reads as not implemented while sized. */
		if (f->bar_kind[idx] == 5)
			return (val & 0xfffff800) == 0xfffff800 ? 0 : val;
		return val == ~0U ? 0 : val;
	}
	mask = ~(f->size[bar] - 1);
	switch (f->bar_kind[idx]) {
	case 1:
		return (val & (u32)mask & ~3U) | (old & 3);
	case 2:
	case 3:
		return (val & (u32)mask & ~0xfU) | (old & 0xf);
	case 4:
		return val & (u32)(mask >> 32);
	default:
		return (val & (u32)mask & 0xfffff800) | (val & 1);
	}
}

static int par_bar_index(struct par_func *f, int where)
{
	int hdr = f->cfg[PCI_HEADER_TYPE] & 0x7f;

	if (where >= PCI_BASE_ADDRESS_0 && where <= PCI_BASE_ADDRESS_5 &&
	    (hdr == PCI_HEADER_TYPE_NORMAL || where <= PCI_BASE_ADDRESS_1))
		return (where - PCI_BASE_ADDRESS_0) / 4;
	if ((hdr == PCI_HEADER_TYPE_NORMAL && where == PCI_ROM_ADDRESS) ||
	    (hdr == PCI_HEADER_TYPE_BRIDGE && where == PCI_ROM_ADDRESS1))
		return 6;
	return -1;
}

static int par_write(struct pci_bus *bus, unsigned int devfn, int where,
		     int size, u32 val)
{
	struct par_func *f = par_find(bus, devfn);
	unsigned long flags;
	int i, idx;

	if (!f)
		return PCIBIOS_DEVICE_NOT_FOUND;
	if (where < 0 || where + size > f->len)
		return PCIBIOS_BAD_REGISTER_NUMBER;
	raw_spin_lock_irqsave(&par_lock, flags);
	idx = par_bar_index(f, where);
	if (idx >= 0 && size == 4 && f->bar_kind[idx]) {
		u32 old = get_unaligned_le32(&f->cfg[where]);

		put_unaligned_le32(par_bar_write(f, idx, val, old), &f->cfg[where]);
	} else if (idx < 0) {
		for (i = 0; i < size; i++) {
			u8 m = f->wmask[where + i];
			u8 b = val >> (8 * i);

			f->cfg[where + i] = (f->cfg[where + i] & ~m) | (b & m);
		}
	}
	raw_spin_unlock_irqrestore(&par_lock, flags);
	return PCIBIOS_SUCCESSFUL;
}

static struct pci_ops par_ops = {
	.read = par_read,
	.write = par_write,
};

static void par_mask(struct par_func *f, unsigned int pos, u16 m)
{
	if (pos + 1 < f->len) {
		f->wmask[pos] |= m & 0xff;
		f->wmask[pos + 1] |= m >> 8;
	}
}

/* Which registers software may write, from the capture's capabilities. */
static void par_setup(struct par_func *f)
{
	int hdr = f->cfg[PCI_HEADER_TYPE] & 0x7f;
	unsigned int pos, n, i;

	par_mask(f, PCI_COMMAND, 0xffff);
	if (hdr == PCI_HEADER_TYPE_BRIDGE) {
		par_mask(f, PCI_PRIMARY_BUS, 0xffff);
		par_mask(f, PCI_SUBORDINATE_BUS, 0x00ff);
		par_mask(f, PCI_BRIDGE_CONTROL, 0xffff);
	}
	for (i = 0; i < 6; i++) {
		u32 l = get_unaligned_le32(&f->cfg[PCI_BASE_ADDRESS_0 + 4 * i]);

		if (hdr == PCI_HEADER_TYPE_BRIDGE ? i >= 2 : hdr != PCI_HEADER_TYPE_NORMAL)
			break;
		if (i && f->bar_kind[i - 1] == 3) {
			f->bar_kind[i] = 4;
			f->bar_of[i] = i - 1;
			continue;
		}
		if (l & PCI_BASE_ADDRESS_SPACE_IO)
			f->bar_kind[i] = 1;
		else if ((l & PCI_BASE_ADDRESS_MEM_TYPE_MASK) == PCI_BASE_ADDRESS_MEM_TYPE_64)
			f->bar_kind[i] = 3;
		else
			f->bar_kind[i] = 2;
	}
	if (hdr == PCI_HEADER_TYPE_NORMAL || hdr == PCI_HEADER_TYPE_BRIDGE)
		f->bar_kind[6] = 5;

	/* The capability list, bounded against loops. */
	pos = (f->cfg[PCI_STATUS] & PCI_STATUS_CAP_LIST) ? f->cfg[PCI_CAPABILITY_LIST] : 0;
	for (n = 0; pos >= 0x40 && pos < 0xff && n < 48; n++) {
		if (f->cfg[pos] == PCI_CAP_ID_EXP) {
			par_mask(f, pos + PCI_EXP_DEVCTL, 0xffff);
			par_mask(f, pos + PCI_EXP_LNKCTL, 0xffff & ~PCI_EXP_LNKCTL_RL);
			par_mask(f, pos + PCI_EXP_DEVCTL2, 0xffff);
			par_mask(f, pos + PCI_EXP_LNKCTL2, 0xffff);
		}
		pos = f->cfg[pos + 1] & ~3;
	}
	if (f->len <= PCI_CFG_SPACE_SIZE)
		return;
	pos = PCI_CFG_SPACE_SIZE;
	for (n = 0; pos >= PCI_CFG_SPACE_SIZE && pos <= PCI_CFG_SPACE_EXP_SIZE - 8 &&
	     n < 512; n++) {
		u32 h = get_unaligned_le32(&f->cfg[pos]);

		if (!h || h == ~0U)
			break;
		if (PCI_EXT_CAP_ID(h) == PCI_EXT_CAP_ID_ACS)
			par_mask(f, pos + PCI_ACS_CTRL,
				 get_unaligned_le16(&f->cfg[pos + PCI_ACS_CAP]) & 0x7f);
		pos = PCI_EXT_CAP_NEXT(h);
	}
}

static int par_parse(const struct firmware *fw)
{
	const struct par_root_rec *rr;
	const struct par_func_rec *fr;
	u32 nr, nf;
	unsigned int i, j;

	if (fw->size < 16 || memcmp(fw->data, PAR_MAGIC, 8))
		return -EINVAL;
	nr = get_unaligned_le32(fw->data + 8);
	nf = get_unaligned_le32(fw->data + 12);
	if (!nr || nr > PAR_MAX_ROOTS || !nf || nf > PAR_MAX_FUNCS ||
	    fw->size != 16 + nr * sizeof(*rr) + (size_t)nf * sizeof(*fr))
		return -EINVAL;
	roots = kcalloc(nr, sizeof(*roots), GFP_KERNEL);
	funcs = kvcalloc(nf, sizeof(*funcs), GFP_KERNEL);
	if (!roots || !funcs)
		return -ENOMEM;
	rr = (const void *)(fw->data + 16);
	fr = (const void *)(rr + nr);
	for (i = 0; i < nr; i++) {
		roots[i].sd.domain = le32_to_cpu(rr[i].domain);
		roots[i].sd.node = NUMA_NO_NODE;
		if (rr[i].first > rr[i].last)
			return -EINVAL;
	}
	nroots = nr;
	for (i = 0; i < nf; i++) {
		struct par_func *f = &funcs[i];

		f->domain = le32_to_cpu(fr[i].domain);
		f->bus = le16_to_cpu(fr[i].bus);
		f->devfn = fr[i].devfn;
		f->len = le32_to_cpu(fr[i].len);
		if (f->len != PCI_CFG_SPACE_SIZE && f->len != PCI_CFG_SPACE_EXP_SIZE)
			return -EINVAL;
		for (j = 0; j < PAR_NSIZE; j++)
			f->size[j] = le64_to_cpu(fr[i].size[j]);
		memcpy(f->cfg, fr[i].cfg, PAR_CFG);
		par_setup(f);
	}
	nfuncs = nf;
	return 0;
}

static void par_remove(void)
{
	unsigned int i;

	pci_lock_rescan_remove();
	for (i = 0; i < nroots; i++) {
		if (!roots[i].bus)
			continue;
		pci_stop_root_bus(roots[i].bus);
		pci_remove_root_bus(roots[i].bus);
		roots[i].bus = NULL;
	}
	pci_unlock_rescan_remove();
}

static int par_scan(const struct firmware *fw)
{
	const struct par_root_rec *rr = (const void *)(fw->data + 16);
	unsigned int i;

	for (i = 0; i < nroots; i++) {
		struct resource busn = DEFINE_RES_NAMED(rr[i].first,
			rr[i].last - rr[i].first + 1, "pa_replay", IORESOURCE_BUS);
		LIST_HEAD(res);
		struct pci_bus *bus;

		pci_add_resource(&res, &busn);
		pci_lock_rescan_remove();
		bus = pci_create_root_bus(NULL, rr[i].first, &par_ops, &roots[i].sd, &res);
		if (bus) {
			roots[i].bus = bus;
			pci_scan_child_bus(bus);
		}
		pci_unlock_rescan_remove();
		if (!bus) {
			pci_free_resource_list(&res);
			pr_err("no root bus %04x:%02x\n", roots[i].sd.domain, rr[i].first);
			return -EBUSY;
		}
		pr_info("replaying %s as root bus %04x:%02x\n", firmware,
			roots[i].sd.domain, rr[i].first);
	}
	return 0;
}

static void par_free(void)
{
	kvfree(funcs);
	kfree(roots);
	funcs = NULL;
	roots = NULL;
	nfuncs = 0;
	nroots = 0;
}

static int __init par_init(void)
{
	const struct firmware *fw;
	int ret;

	ret = request_firmware(&fw, firmware, NULL);
	if (ret) {
		pr_err("no firmware %s: %d\n", firmware, ret);
		return ret;
	}
	ret = par_parse(fw);
	if (ret) {
		pr_err("%s is not a replay blob\n", firmware);
	} else {
		ret = par_scan(fw);
		if (ret)
			par_remove();
	}
	release_firmware(fw);
	if (ret)
		par_free();
	return ret;
}

static void __exit par_exit(void)
{
	par_remove();
	par_free();
}

module_init(par_init);
module_exit(par_exit);
MODULE_DESCRIPTION("pcieaudit test: a PCI domain replayed from a captured configuration space");
MODULE_LICENSE("GPL");
