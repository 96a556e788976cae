// SPDX-License-Identifier: GPL-2.0
/*
 * Live register reads and kernel state for one PCI function.
 *
 * Read-only: only pci_user_read_config_*(), never a write. Those wait while
 * the kernel blocks configuration access to the function (a reset), as
 * sysfs reads do, where pci_read_config_*() and pcie_capability_read_*()
 * would read the function mid-reset. Nothing here wakes a function: a
 * function in D3cold, or one that is gone, reads all ones, and then its
 * registers are reported as unknown rather than as values.
 */
#include <linux/device.h>
#include <linux/pci.h>
#include <linux/string.h>
#include <linux/pcieaudit.h>

#include "acs_baseline.h"
#include "config_read.h"
#include "dev_facts.h"

/* Outcome of reading one capability's registers. */
enum cfg_read {
	CFG_ABSENT,		/* the function has no such registers */
	CFG_OK,
	CFG_UNREADABLE,		/* a read failed or returned all ones */
};

/*
 * The PCIe capability's registers at pci_pcie_cap() + offset, as
 * pcie_capability_read_*() find them, but through the blocking reads.
 * LNKCAP2 and LNKCTL2 exist from capability version 2 on, as
 * pcie_capability_reg_implemented() has it.
 */
static enum cfg_read read_link(struct pci_dev *pdev, struct pcieaudit_link *l)
{
	int cap = pci_pcie_cap(pdev);

	if (!pci_is_pcie(pdev) || !pcieaudit_has_link_regs(pdev))
		return CFG_ABSENT;
	if (!pcieaudit_read_dword(pdev, cap + PCI_EXP_LNKCAP, &l->lnkcap) ||
	    !pcieaudit_read_word(pdev, cap + PCI_EXP_LNKSTA, &l->lnksta))
		return CFG_UNREADABLE;
	l->has_v2 = (pcie_caps_reg(pdev) & PCI_EXP_FLAGS_VERS) > 1;
	if (l->has_v2 &&
	    (!pcieaudit_read_dword(pdev, cap + PCI_EXP_LNKCAP2, &l->lnkcap2) ||
	     !pcieaudit_read_word(pdev, cap + PCI_EXP_LNKCTL2, &l->lnkctl2)))
		return CFG_UNREADABLE;
	return CFG_OK;
}

static enum cfg_read read_acs(struct pci_dev *pdev, struct pcieaudit_acs *a)
{
	a->pos = pcieaudit_acs_pos(pdev);
	if (!a->pos)
		return CFG_ABSENT;
	a->has_ctrl_at_load = pcieaudit_acs_baseline(pdev, &a->ctrl_at_load);
	if (!pcieaudit_read_word(pdev, a->pos + PCI_ACS_CAP, &a->cap) ||
	    !pcieaudit_read_word(pdev, a->pos + PCI_ACS_CTRL, &a->ctrl))
		return CFG_UNREADABLE;
	return CFG_OK;
}

/*
 * The power state as the function's PMCSR says it; 0 without a PM
 * capability. Whether configuration space answers at all is decided by
 * the Class Code and Revision ID, which every function has: not the
 * Vendor ID, which an SR-IOV VF reads as all ones.
 */
static u32 read_power_state(struct pci_dev *pdev, bool *readable)
{
	u32 class_rev;
	u16 pmcsr;

	*readable = pcieaudit_read_dword(pdev, PCI_CLASS_REVISION, &class_rev);
	if (!pdev->pm_cap)
		return 0;
	if (!*readable || !pcieaudit_read_word(pdev, pdev->pm_cap + PCI_PM_CTRL, &pmcsr)) {
		*readable = false;
		return PCIEAUDIT_POWER_UNKNOWN;
	}
	return PCIEAUDIT_POWER_D0 + (pmcsr & PCI_PM_CTRL_STATE_MASK);
}

static u32 dev_flags(struct pci_dev *pdev)
{
	u32 flags = 0;

	if (pci_is_pcie(pdev))
		flags |= PCIEAUDIT_DEV_F_PCIE;
	if (pdev->multifunction)
		flags |= PCIEAUDIT_DEV_F_MULTIFUNCTION;
	if (pdev->is_virtfn)
		flags |= PCIEAUDIT_DEV_F_VIRTFN;
	if (pdev->is_physfn)
		flags |= PCIEAUDIT_DEV_F_PHYSFN;
	if (pdev->subordinate)
		flags |= PCIEAUDIT_DEV_F_BRIDGE;
	if (pci_dev_is_disconnected(pdev))
		flags |= PCIEAUDIT_DEV_F_DISCONNECTED;
	if (pcieaudit_has_aer_counters(pdev))
		flags |= PCIEAUDIT_DEV_F_AER_STATS;
	return flags;
}

/**
 * pcieaudit_dev_facts_read - read what pcieaudit reports about a function
 * @pdev: the function, referenced by the caller. pci_lock_rescan_remove(),
 *	which callers hold, does not keep a VF from being removed (a PF
 *	driver's pci_disable_sriov() does not take it): the reference keeps
 *	the pci_dev and its bus, the configuration reads of a removed VF come
 *	back all ones and are reported unreadable, and the IOMMU reads go
 *	through the removal fence (removal_fence.c).
 * @f: filled in
 *
 * Context: may sleep, waiting for a reset of @pdev to finish.
 */
void pcieaudit_dev_facts_read(struct pci_dev *pdev,
			      struct pcieaudit_dev_facts *f)
{
	struct device_driver *drv;
	bool readable = false;
	enum cfg_read acs, link;

	memset(f, 0, sizeof(*f));
	f->flags = dev_flags(pdev);
	if (f->flags & PCIEAUDIT_DEV_F_DISCONNECTED)
		f->power_state = pdev->pm_cap ? PCIEAUDIT_POWER_UNKNOWN : 0;
	else
		f->power_state = read_power_state(pdev, &readable);
	if (readable) {
		acs = read_acs(pdev, &f->acs);
		link = read_link(pdev, &f->link);
		/* One register of all ones makes every other one suspect. */
		readable = acs != CFG_UNREADABLE && link != CFG_UNREADABLE &&
			   pcieaudit_dev_caps_read(pdev, &f->caps) &&
			   pcieaudit_passthru_read(pdev, &f->pt);
		f->has_acs = readable && acs == CFG_OK;
		f->has_link = readable && link == CFG_OK;
	}
	if (!readable) {
		/* The BARs are the kernel's records: known without config reads. */
		pcieaudit_dev_caps_read_bars(pdev, &f->caps);
	}
	f->config_unreadable = !readable;
	pcieaudit_passthru_read_kernel(pdev, &f->pt);
	pcieaudit_iommu_read(&pdev->dev, &f->iommu);

	/* As dev_driver_string(): the driver may unbind under us. */
	drv = READ_ONCE(pdev->dev.driver);
	if (drv)
		strscpy(f->driver, drv->name, sizeof(f->driver));
}
