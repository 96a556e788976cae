// SPDX-License-Identifier: GPL-2.0
/*
 * ATS, PCI Express device control and BARs of one PCI function.
 *
 * The same contract as dev_facts.c: capabilities are found with the
 * exported pci_find_ext_capability(), registers are read only with
 * pci_user_read_config_*(), never written, and a read of all ones makes
 * them unknown. BAR sizes and flags are the kernel's own struct resource,
 * which needs no configuration access at all.
 */
#include <linux/bitfield.h>
#include <linux/ioport.h>
#include <linux/pci.h>
#include <linux/string.h>
#include <linux/pcieaudit.h>

#include "config_read.h"
#include "dev_caps.h"

static bool read_ats(struct pci_dev *pdev, struct pcieaudit_dev_caps *c)
{
	int pos = pci_find_ext_capability(pdev, PCI_EXT_CAP_ID_ATS);

	if (!pos)
		return true;
	c->ats.pos = pos;
	if (!pcieaudit_read_word(pdev, pos + PCI_ATS_CAP, &c->ats.cap) ||
	    !pcieaudit_read_word(pdev, pos + PCI_ATS_CTRL, &c->ats.ctrl))
		return false;
	c->has_ats = true;
	return true;
}

/* Device Capabilities and Control: every PCI Express function has them. */
static bool read_expdev(struct pci_dev *pdev, struct pcieaudit_dev_caps *c)
{
	int cap = pci_pcie_cap(pdev);

	if (!pci_is_pcie(pdev))
		return true;
	if (!pcieaudit_read_dword(pdev, cap + PCI_EXP_DEVCAP, &c->expdev.devcap) ||
	    !pcieaudit_read_word(pdev, cap + PCI_EXP_DEVCTL, &c->expdev.devctl))
		return false;
	c->has_expdev = true;
	return true;
}

/**
 * pcieaudit_resource_bar_flags - a BAR resource's enum pcieaudit_bar_flag bits
 * @r: one of a function's resources, the kernel's own record
 *
 * Return: the bits, or 0 when the kernel holds no I/O or memory range of
 * any size for it.
 */
u32 pcieaudit_resource_bar_flags(const struct resource *r)
{
	unsigned long fl = r->flags;
	u32 f = 0;

	if (!(fl & (IORESOURCE_IO | IORESOURCE_MEM)) || !resource_size(r))
		return 0;
	f |= fl & IORESOURCE_IO ? PCIEAUDIT_BAR_F_IO : PCIEAUDIT_BAR_F_MEM;
	if (fl & IORESOURCE_PREFETCH)
		f |= PCIEAUDIT_BAR_F_PREFETCH;
	if (fl & IORESOURCE_MEM_64)
		f |= PCIEAUDIT_BAR_F_MEM64;
	/* A claimed resource sits in the resource tree. */
	if ((fl & IORESOURCE_UNSET) || !READ_ONCE(r->parent))
		f |= PCIEAUDIT_BAR_F_UNASSIGNED;
	return f;
}

static void read_bar_resources(struct pci_dev *pdev,
			       struct pcieaudit_dev_caps *c)
{
	int i;

	/* No declarations in for (): 5.10 builds with -std=gnu89. */
	for (i = 0; i < PCI_STD_NUM_BARS; i++) {
		struct resource *r = &pdev->resource[i];
		u32 f = pcieaudit_resource_bar_flags(r);

		if (!f)
			continue;
		c->bar[i].size = resource_size(r);
		c->bar[i].flags = f;
		/* As sysfs resource shows it: where the kernel placed it. */
		c->bar[i].start = r->start;
	}
}

/*
 * The Resizable BAR capability (PCIe Base 6.0 §7.8.6): one Capability and
 * Control register pair per resizable BAR, the number of them in the first
 * Control register, each Control naming its BAR index.
 */
static bool read_rebar(struct pci_dev *pdev, struct pcieaudit_dev_caps *c)
{
	int pos = pci_find_ext_capability(pdev, PCI_EXT_CAP_ID_REBAR);
	unsigned int n, e;
	u32 ctrl;

	if (!pos)
		return true;
	if (!pcieaudit_read_dword(pdev, pos + PCI_REBAR_CTRL, &ctrl))
		return false;
	n = FIELD_GET(PCI_REBAR_CTRL_NBAR_MASK, ctrl);
	for (e = 0; e < n && e < PCI_STD_NUM_BARS; e++) {
		int at = pos + e * 8;
		u32 cap, ectrl;
		unsigned int idx;

		if (!pcieaudit_read_dword(pdev, at + PCI_REBAR_CAP, &cap) ||
		    !pcieaudit_read_dword(pdev, at + PCI_REBAR_CTRL, &ectrl))
			return false;
		idx = ectrl & PCI_REBAR_CTRL_BAR_IDX;
		if (idx >= PCI_STD_NUM_BARS || !c->bar[idx].flags)
			continue;
		c->bar[idx].resizable = true;
		c->bar[idx].rebar_cap = cap;
		c->bar[idx].rebar_ctrl = ectrl;
	}
	return true;
}

/**
 * pcieaudit_dev_caps_read_bars - only the BARs' sizes and flags
 * @pdev: the function, referenced by the caller
 * @c: filled in; every register fact left unknown
 *
 * For a function whose configuration space does not answer: the kernel's
 * resources are known all the same.
 */
void pcieaudit_dev_caps_read_bars(struct pci_dev *pdev,
				  struct pcieaudit_dev_caps *c)
{
	memset(c, 0, sizeof(*c));
	read_bar_resources(pdev, c);
}

/**
 * pcieaudit_dev_caps_read - read a function's ATS, device control and BARs
 * @pdev: the function, referenced by the caller, whose configuration space
 *	answered a moment ago (not in D3cold)
 * @c: filled in
 *
 * Context: may sleep, waiting for a reset of @pdev to finish.
 * Return: false when a register read failed or read all ones; the
 * registers are then unknown and only the BARs' sizes and flags are set.
 */
bool pcieaudit_dev_caps_read(struct pci_dev *pdev,
			     struct pcieaudit_dev_caps *c)
{
	pcieaudit_dev_caps_read_bars(pdev, c);
	if (read_ats(pdev, c) && read_expdev(pdev, c) && read_rebar(pdev, c))
		return true;
	pcieaudit_dev_caps_read_bars(pdev, c);
	return false;
}
