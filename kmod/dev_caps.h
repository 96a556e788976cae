/* SPDX-License-Identifier: GPL-2.0 */
/* ATS, PCIe device control and BARs of one PCI function. */
#ifndef _PCIEAUDIT_DEV_CAPS_H
#define _PCIEAUDIT_DEV_CAPS_H

#include <linux/pci.h>

struct pcieaudit_ats {
	u16 pos;
	u16 cap;
	u16 ctrl;
};

struct pcieaudit_expdev {
	u32 devcap;
	u16 devctl;
};

struct pcieaudit_bar {
	u64 start;
	u64 size;
	u32 flags;		/* enum pcieaudit_bar_flag */
	bool resizable;		/* rebar_cap and rebar_ctrl were read */
	u32 rebar_cap;
	u32 rebar_ctrl;
};

struct pcieaudit_dev_caps {
	bool has_ats;
	bool has_expdev;
	struct pcieaudit_ats ats;
	struct pcieaudit_expdev expdev;
	struct pcieaudit_bar bar[PCI_STD_NUM_BARS];
};

u32 pcieaudit_resource_bar_flags(const struct resource *r);

/*
 * Fills @c; false when a register read failed or read all ones, and then
 * only the BARs' sizes and flags (the kernel's own records) are valid.
 */
void pcieaudit_dev_caps_read_bars(struct pci_dev *pdev,
				  struct pcieaudit_dev_caps *c);
bool pcieaudit_dev_caps_read(struct pci_dev *pdev,
			     struct pcieaudit_dev_caps *c);

#endif /* _PCIEAUDIT_DEV_CAPS_H */
