/* SPDX-License-Identifier: GPL-2.0 */
/* The registers VFIO's reset and SR-IOV checks read, and the VF records. */
#ifndef _PCIEAUDIT_PASSTHRU_FACTS_H
#define _PCIEAUDIT_PASSTHRU_FACTS_H

#include <linux/pci.h>

struct pcieaudit_vf_bar {
	u32 reg;
	bool has_res;		/* the kernel keeps IOV resources */
	u64 size;		/* 0: it holds none for this BAR */
	u32 flags;		/* enum pcieaudit_bar_flag */
};

struct pcieaudit_sriov {
	u16 pos;
	u16 initial_vfs, total_vfs, num_vfs, vf_offset, vf_stride;
	bool has_kernel_num_vfs;
	u16 kernel_num_vfs;
	struct pcieaudit_vf_bar bar[PCI_SRIOV_NUM_BARS];
};

struct pcieaudit_passthru {
	bool has_reset_key;
	u64 reset_key;		/* pcieaudit_reset_methods_key() */
	bool has_pmcsr, has_af_cap, has_devcap2, has_sriov;
	u16 pmcsr;
	u8 af_cap;
	u32 devcap2;
	u16 devctl2;
	struct pcieaudit_sriov sriov;
};

bool pcieaudit_passthru_read(struct pci_dev *pdev,
			     struct pcieaudit_passthru *p);
void pcieaudit_passthru_read_kernel(struct pci_dev *pdev,
				    struct pcieaudit_passthru *p);

#endif /* _PCIEAUDIT_PASSTHRU_FACTS_H */
