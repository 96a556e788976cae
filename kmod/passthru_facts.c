// SPDX-License-Identifier: GPL-2.0
/*
 * The registers VFIO's reset and SR-IOV checks read (PMCSR, the Advanced
 * Features capability, Device Capabilities and Control 2, the SR-IOV
 * capability) and the kernel's own SR-IOV records, so that the CLI need
 * not open each function's configuration space beside the module.
 *
 * The contract of dev_facts.c: capabilities are found with the exported
 * pci_find_capability() and pci_find_ext_capability(), registers are read
 * only with pci_user_read_config_*(), never written, and a read of all
 * ones makes them unknown. The VFs the kernel enabled are pci_num_vf()'s,
 * and their BARs' space the kernel's own IOV resources: no configuration
 * access at all.
 */
#include <linux/ioport.h>
#include <linux/pci.h>
#include <linux/string.h>
#include <linux/pcieaudit.h>

#include "config_read.h"
#include "dev_caps.h"
#include "passthru_facts.h"

static bool read_reset_caps(struct pci_dev *pdev, struct pcieaudit_passthru *p)
{
	int af = pci_find_capability(pdev, PCI_CAP_ID_AF);

	if (pdev->pm_cap) {
		if (!pcieaudit_read_word(pdev, pdev->pm_cap + PCI_PM_CTRL,
					 &p->pmcsr))
			return false;
		p->has_pmcsr = true;
	}
	if (af) {
		if (!pcieaudit_read_byte(pdev, af + PCI_AF_CAP, &p->af_cap))
			return false;
		p->has_af_cap = true;
	}
	return true;
}

/* Device Capabilities 2 and Control 2, from capability version 2 on, as
 * pcie_capability_reg_implemented() has it.
 */
static bool read_devcap2(struct pci_dev *pdev, struct pcieaudit_passthru *p)
{
	int cap = pci_pcie_cap(pdev);

	if (!pci_is_pcie(pdev) || (pcie_caps_reg(pdev) & PCI_EXP_FLAGS_VERS) < 2)
		return true;
	if (!pcieaudit_read_dword(pdev, cap + PCI_EXP_DEVCAP2, &p->devcap2) ||
	    !pcieaudit_read_word(pdev, cap + PCI_EXP_DEVCTL2, &p->devctl2))
		return false;
	p->has_devcap2 = true;
	return true;
}

/* The kernel's record of the space for VF BAR @i, all VFs together. */
static void read_vf_resource(struct pci_dev *pdev, unsigned int i,
			     struct pcieaudit_vf_bar *b)
{
#ifdef CONFIG_PCI_IOV
	struct resource *r = &pdev->resource[PCI_IOV_RESOURCES + i];

	b->has_res = true;
	b->flags = pcieaudit_resource_bar_flags(r);
	b->size = b->flags ? resource_size(r) : 0;
#endif
}

/* PCIe 6.0 §9.3.3: the registers, each VF BAR register, and the kernel's
 * view of them.
 */
static bool read_sriov(struct pci_dev *pdev, struct pcieaudit_passthru *p)
{
	struct pcieaudit_sriov *s = &p->sriov;
	int pos = pci_find_ext_capability(pdev, PCI_EXT_CAP_ID_SRIOV);
	unsigned int i;

	if (!pos)
		return true;
	s->pos = pos;
	if (!pcieaudit_read_word(pdev, pos + PCI_SRIOV_INITIAL_VF, &s->initial_vfs) ||
	    !pcieaudit_read_word(pdev, pos + PCI_SRIOV_TOTAL_VF, &s->total_vfs) ||
	    !pcieaudit_read_word(pdev, pos + PCI_SRIOV_NUM_VF, &s->num_vfs) ||
	    !pcieaudit_read_word(pdev, pos + PCI_SRIOV_VF_OFFSET, &s->vf_offset) ||
	    !pcieaudit_read_word(pdev, pos + PCI_SRIOV_VF_STRIDE, &s->vf_stride))
		return false;
	for (i = 0; i < PCI_SRIOV_NUM_BARS; i++) {
		/* An unimplemented BAR reads 0; the upper half of a 64-bit
		 * one may read all ones, a value and not an error.
		 */
		if (pci_user_read_config_dword(pdev, pos + PCI_SRIOV_BAR + 4 * i,
					       &s->bar[i].reg))
			return false;
		read_vf_resource(pdev, i, &s->bar[i]);
	}
	/* sysfs shows sriov_numvfs only for a function the kernel set up as
	 * a PF (dev_is_pf()).
	 */
	s->has_kernel_num_vfs = pdev->is_physfn;
	s->kernel_num_vfs = pci_num_vf(pdev);
	p->has_sriov = true;
	return true;
}

/**
 * pcieaudit_passthru_read_kernel - what the kernel records, no register
 * @pdev: the function, referenced by the caller
 * @p: the reset methods' key set, the rest left as it is
 */
void pcieaudit_passthru_read_kernel(struct pci_dev *pdev,
				    struct pcieaudit_passthru *p)
{
	p->has_reset_key = pcieaudit_reset_methods_key(pdev, &p->reset_key);
}

/**
 * pcieaudit_passthru_read - read what VFIO's checks need of a function
 * @pdev: the function, referenced by the caller, whose configuration space
 *	answered a moment ago (not in D3cold)
 * @p: filled in
 *
 * Context: may sleep, waiting for a reset of @pdev to finish.
 * Return: false when a register read failed or read all ones; @p is then
 * all unknown.
 */
bool pcieaudit_passthru_read(struct pci_dev *pdev,
			     struct pcieaudit_passthru *p)
{
	memset(p, 0, sizeof(*p));
	if (read_reset_caps(pdev, p) && read_devcap2(pdev, p) &&
	    read_sriov(pdev, p))
		return true;
	memset(p, 0, sizeof(*p));
	return false;
}
