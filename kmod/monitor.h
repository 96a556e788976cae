/* SPDX-License-Identifier: GPL-2.0 */
/* Link and ACS monitoring: events on the "monitor" group, link history. */
#ifndef _PCIEAUDIT_MONITOR_H
#define _PCIEAUDIT_MONITOR_H

#include <linux/pci.h>

#include "mon_history.h"

int pcieaudit_monitor_init(void);
void pcieaudit_monitor_exit(void);
bool pcieaudit_monitor_history(struct pci_dev *pdev, struct mon_history *h,
			       u32 *interval_ms);
void pcieaudit_monitor_hint(int domain, u8 bus, u8 devfn, u32 source);

#endif /* _PCIEAUDIT_MONITOR_H */
