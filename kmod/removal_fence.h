/* SPDX-License-Identifier: GPL-2.0 */
/* Keeps a function's IOMMU state from being torn down while it is read. */
#ifndef _PCIEAUDIT_REMOVAL_FENCE_H
#define _PCIEAUDIT_REMOVAL_FENCE_H

#include <linux/device.h>

int pcieaudit_fence_init(void);
void pcieaudit_fence_exit(void);
bool pcieaudit_fence_present(struct device *dev);
bool pcieaudit_fence_enter(struct device *dev);
void pcieaudit_fence_leave(void);

#endif /* _PCIEAUDIT_REMOVAL_FENCE_H */
