/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Configuration reads the module makes: through pci_user_read_config_*(),
 * which wait while a reset blocks access, and never an all-ones value
 * taken as a register (a function gone or in D3cold reads so).
 */
#ifndef _PCIEAUDIT_CONFIG_READ_H
#define _PCIEAUDIT_CONFIG_READ_H

#include <linux/pci.h>

static inline bool pcieaudit_read_byte(struct pci_dev *pdev, int pos, u8 *val)
{
	return !pci_user_read_config_byte(pdev, pos, val) &&
	       !PCI_POSSIBLE_ERROR(*val);
}

static inline bool pcieaudit_read_word(struct pci_dev *pdev, int pos, u16 *val)
{
	return !pci_user_read_config_word(pdev, pos, val) &&
	       !PCI_POSSIBLE_ERROR(*val);
}

static inline bool pcieaudit_read_dword(struct pci_dev *pdev, int pos,
					u32 *val)
{
	return !pci_user_read_config_dword(pdev, pos, val) &&
	       !PCI_POSSIBLE_ERROR(*val);
}

/*
 * Mirrors pcie_cap_has_lnkctl(), which is private to drivers/pci, as
 * pcie_capability_read_*() apply it: only these types have link registers.
 */
static inline bool pcieaudit_has_link_regs(struct pci_dev *pdev)
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

#endif /* _PCIEAUDIT_CONFIG_READ_H */
