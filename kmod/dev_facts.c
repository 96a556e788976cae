// SPDX-License-Identifier: GPL-2.0
/*
 * Live register reads and kernel state for one PCI function.
 *
 * Read-only: only pci_read_config_*() and pcie_capability_read_*(), never a
 * write. Registers of a disconnected function read as all ones, so they are
 * not reported at all rather than reported wrong.
 */
#include <linux/device.h>
#include <linux/pci.h>
#include <linux/string.h>
#include <linux/pcieaudit.h>

#include "acs_baseline.h"
#include "dev_facts.h"

/* Mirrors pcie_cap_has_lnkctl(), which is private to drivers/pci. */
static bool has_link_regs(struct pci_dev *pdev)
{
	switch (pci_pcie_type(pdev)) {
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

static bool read_link(struct pci_dev *pdev, struct pcieaudit_link *l)
{
	if (!pci_is_pcie(pdev) || !has_link_regs(pdev))
		return false;
	if (pcie_capability_read_dword(pdev, PCI_EXP_LNKCAP, &l->lnkcap) ||
	    pcie_capability_read_word(pdev, PCI_EXP_LNKSTA, &l->lnksta))
		return false;
	l->has_v2 = (pcie_caps_reg(pdev) & PCI_EXP_FLAGS_VERS) > 1;
	if (l->has_v2 &&
	    (pcie_capability_read_dword(pdev, PCI_EXP_LNKCAP2, &l->lnkcap2) ||
	     pcie_capability_read_word(pdev, PCI_EXP_LNKCTL2, &l->lnkctl2)))
		l->has_v2 = false;
	return true;
}

static bool read_acs(struct pci_dev *pdev, struct pcieaudit_acs *a)
{
	a->pos = pcieaudit_acs_pos(pdev);
	if (!a->pos)
		return false;
	a->has_ctrl_at_load = pcieaudit_acs_baseline(pdev, &a->ctrl_at_load);
	return !pci_read_config_word(pdev, a->pos + PCI_ACS_CAP, &a->cap) &&
	       !pci_read_config_word(pdev, a->pos + PCI_ACS_CTRL, &a->ctrl);
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
	return flags;
}

/**
 * pcieaudit_dev_facts_read - read what pcieaudit reports about a function
 * @pdev: the function, referenced by the caller, who also holds
 *	pci_lock_rescan_remove() so its IOMMU state is not torn down meanwhile
 * @f: filled in
 */
void pcieaudit_dev_facts_read(struct pci_dev *pdev,
			      struct pcieaudit_dev_facts *f)
{
	struct device_driver *drv;

	memset(f, 0, sizeof(*f));
	f->flags = dev_flags(pdev);
	if (!(f->flags & PCIEAUDIT_DEV_F_DISCONNECTED)) {
		f->has_acs = read_acs(pdev, &f->acs);
		f->has_link = read_link(pdev, &f->link);
	}
	pcieaudit_iommu_read(&pdev->dev, &f->iommu);

	/* As dev_driver_string(): the driver may unbind under us. */
	drv = READ_ONCE(pdev->dev.driver);
	if (drv)
		strscpy(f->driver, drv->name, sizeof(f->driver));
}
