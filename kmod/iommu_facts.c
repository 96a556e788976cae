// SPDX-License-Identifier: GPL-2.0
/*
 * IOMMU group and DMA ownership of a device, from exported IOMMU core calls
 * used within their documented contracts only.
 *
 * Nothing here reads a domain. iommu_get_domain_for_dev() returns a pointer
 * that is valid only for the driver bound to the device (its kernel-doc from
 * 7.0 on; before that, nothing holds a domain alive either): VFIO or iommufd
 * may detach and free it at any moment. The default domain's type is the
 * kernel's own sysfs ABI (/sys/kernel/iommu_groups/N/type), which the CLI
 * reads; the IOMMU instance is the device's sysfs link "iommu". What a
 * module can say is whether the group's DMA ownership is claimed:
 * iommu_group_dma_owner_claimed(), "only for non-binding status reporting".
 *
 * Every read of a device's group happens inside the removal fence: the IOMMU
 * core releases dev->iommu_group when the device is deleted, which
 * pci_lock_rescan_remove() does not hold off for SR-IOV VFs.
 */
#include <linux/iommu.h>
#include <linux/pci.h>
#include <linux/string.h>
#include <linux/pcieaudit.h>

#include "iommu_facts.h"
#include "removal_fence.h"

/*
 * The group, referenced, or NULL. iommu_group_get() reads dev->iommu_group
 * unlocked; only the fence keeps iommu_release_device() from dropping the
 * group's last reference in between.
 */
static struct iommu_group *group_get_fenced(struct device *dev)
{
	struct iommu_group *group;

	if (!pcieaudit_fence_enter(dev))
		return NULL;
	group = iommu_group_get(dev);
	pcieaudit_fence_leave();
	return group;
}

/**
 * pcieaudit_iommu_read - the IOMMU group of a device and its DMA ownership
 * @dev: the device, referenced by the caller
 * @io: filled in; io->in_group is false when the device has no group or is
 *	being removed
 *
 * Context: may sleep; never with a group's mutex held (iommu_group_for_each_dev()
 * callbacks), which iommu_group_dma_owner_claimed() takes.
 */
void pcieaudit_iommu_read(struct device *dev, struct pcieaudit_iommu *io)
{
	struct iommu_group *group;

	memset(io, 0, sizeof(*io));
	group = group_get_fenced(dev);
	if (!group)
		return;
	io->in_group = true;
	io->group = iommu_group_id(group);
	/* The group reference is all its kernel-doc asks for. */
	io->dma_owner = pcieaudit_group_dma_owner(group);
	iommu_group_put(group);
}

struct groups_ctx {
	struct pcieaudit_group_batch *b;
	int from;
};

/*
 * Insertion into a sorted, duplicate-free batch. Each entry keeps the
 * reference iommu_group_get() took: the core has no group iterator, and
 * iommu_group_get_by_id() is gone after v6.2 (absent from 6.12's headers),
 * so a group is only ever reached through a device in it.
 */
static int collect_group(struct device *dev, void *data)
{
	struct groups_ctx *ctx = data;
	struct pcieaudit_group_batch *b = ctx->b;
	struct iommu_group *group;
	unsigned int i;
	int id;

	group = group_get_fenced(dev);
	if (!group)
		return 0;
	id = iommu_group_id(group);

	if (id < ctx->from)
		goto skip;
	for (i = 0; i < b->n; i++)
		if (b->ids[i] == id)
			goto skip;
	if (b->n == PCIEAUDIT_GROUP_BATCH) {
		if (id > b->ids[b->n - 1])
			goto skip;
		iommu_group_put(b->groups[--b->n]);
	}
	for (i = b->n; i > 0 && b->ids[i - 1] > id; i--) {
		b->ids[i] = b->ids[i - 1];
		b->groups[i] = b->groups[i - 1];
	}
	b->ids[i] = id;
	b->groups[i] = group;
	b->n++;
	return 0;
skip:
	iommu_group_put(group);
	return 0;
}

/**
 * pcieaudit_groups_collect - the next IOMMU groups holding PCI functions
 * @b: filled with up to PCIEAUDIT_GROUP_BATCH groups in ascending id order,
 *     each with a reference; release with pcieaudit_groups_release()
 * @from: smallest id to include
 *
 * Fewer than PCIEAUDIT_GROUP_BATCH groups means there are no more.
 *
 * Return: the number of groups.
 */
unsigned int pcieaudit_groups_collect(struct pcieaudit_group_batch *b,
				      int from)
{
	struct groups_ctx ctx = { .b = b, .from = from };

	b->n = 0;
	bus_for_each_dev(&pci_bus_type, NULL, &ctx, collect_group);
	return b->n;
}

/**
 * pcieaudit_groups_release - drop the references of a collected batch
 * @b: the batch
 */
void pcieaudit_groups_release(struct pcieaudit_group_batch *b)
{
	while (b->n)
		iommu_group_put(b->groups[--b->n]);
}

static int count_device(struct device *dev, void *data)
{
	struct pcieaudit_iommu_summary *s = data;

	s->devices++;
	return 0;
}

/**
 * pcieaudit_iommu_summary_read - PCI functions and IOMMU groups holding them
 * @s: filled in
 */
void pcieaudit_iommu_summary_read(struct pcieaudit_iommu_summary *s)
{
	struct pcieaudit_group_batch b;
	unsigned int n;
	int from = 0;

	memset(s, 0, sizeof(*s));
	bus_for_each_dev(&pci_bus_type, NULL, s, count_device);
	do {
		n = pcieaudit_groups_collect(&b, from);
		s->groups += n;
		if (n)
			from = b.ids[n - 1] + 1;
		pcieaudit_groups_release(&b);
	} while (n == PCIEAUDIT_GROUP_BATCH);
}
