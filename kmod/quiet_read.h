/* SPDX-License-Identifier: GPL-2.0 */
/* Configuration reads that wake nothing and wait for nothing. */
#ifndef _PCIEAUDIT_QUIET_READ_H
#define _PCIEAUDIT_QUIET_READ_H

#include <linux/pci.h>

u32 pcieaudit_quiet_read(struct pci_dev *pdev, int pos, int size, u32 *val);

#endif /* _PCIEAUDIT_QUIET_READ_H */
