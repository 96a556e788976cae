/* SPDX-License-Identifier: GPL-2.0 */
/* What the IOMMU core tells a module about a device, and about all groups. */
#ifndef _PCIEAUDIT_IOMMU_FACTS_H
#define _PCIEAUDIT_IOMMU_FACTS_H

#include <linux/device.h>
#include <linux/types.h>

struct pcieaudit_iommu {
	bool in_group;
	int group;
	u32 dma_owner;		/* enum pcieaudit_dma_owner, 0 if unknown */
};

struct pcieaudit_iommu_summary {
	u32 devices;		/* PCI functions */
	u32 groups;		/* distinct IOMMU groups holding them */
};

/* Groups handed out per walk step, each with a reference. */
#define PCIEAUDIT_GROUP_BATCH 16

struct iommu_group;

struct pcieaudit_group_batch {
	unsigned int n;
	int ids[PCIEAUDIT_GROUP_BATCH];
	struct iommu_group *groups[PCIEAUDIT_GROUP_BATCH];
};

void pcieaudit_iommu_read(struct device *dev, struct pcieaudit_iommu *io);
unsigned int pcieaudit_groups_collect(struct pcieaudit_group_batch *b,
				      int from);
void pcieaudit_groups_release(struct pcieaudit_group_batch *b);
void pcieaudit_iommu_summary_read(struct pcieaudit_iommu_summary *s);

#endif /* _PCIEAUDIT_IOMMU_FACTS_H */
