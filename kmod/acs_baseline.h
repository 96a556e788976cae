/* SPDX-License-Identifier: GPL-2.0 */
/* ACS control of every function as it read when pcieaudit loaded. */
#ifndef _PCIEAUDIT_ACS_BASELINE_H
#define _PCIEAUDIT_ACS_BASELINE_H

#include <linux/pci.h>

bool pcieaudit_acs_baseline(struct pci_dev *pdev, u16 *ctrl);
int pcieaudit_acs_baseline_init(void);
void pcieaudit_acs_baseline_exit(void);

#endif /* _PCIEAUDIT_ACS_BASELINE_H */
