// SPDX-License-Identifier: GPL-2.0
/*
 * IOMMU group and domain of a device, from exported IOMMU core calls.
 *
 * The group's default domain is private to the IOMMU core. Only default
 * domains have the DMA-API or identity types, so when the attached domain
 * is one of those it is the default domain; otherwise (VFIO or iommufd own
 * the group) the default is reported as unknown rather than guessed.
 */
#include <linux/iommu.h>
#include <linux/pci.h>
#include <linux/string.h>
#include <linux/pcieaudit.h>

#include "iommu_facts.h"

static u32 domain_type(unsigned int type)
{
	switch (type) {
	case IOMMU_DOMAIN_BLOCKED:
		return PCIEAUDIT_DOMAIN_BLOCKED;
	case IOMMU_DOMAIN_IDENTITY:
		return PCIEAUDIT_DOMAIN_IDENTITY;
	case IOMMU_DOMAIN_UNMANAGED:
		return PCIEAUDIT_DOMAIN_UNMANAGED;
	case IOMMU_DOMAIN_DMA:
		return PCIEAUDIT_DOMAIN_DMA;
	case IOMMU_DOMAIN_DMA_FQ:
		return PCIEAUDIT_DOMAIN_DMA_FQ;
	case IOMMU_DOMAIN_SVA:
		return PCIEAUDIT_DOMAIN_SVA;
	case IOMMU_DOMAIN_PLATFORM:
		return PCIEAUDIT_DOMAIN_PLATFORM;
	case IOMMU_DOMAIN_NESTED:
		return PCIEAUDIT_DOMAIN_NESTED;
	default:
		return PCIEAUDIT_DOMAIN_UNKNOWN;
	}
}

static bool is_default_type(u32 type)
{
	return type == PCIEAUDIT_DOMAIN_DMA || type == PCIEAUDIT_DOMAIN_DMA_FQ ||
	       type == PCIEAUDIT_DOMAIN_IDENTITY;
}

/**
 * pcieaudit_iommu_read - the IOMMU group and domains of a device
 * @dev: the device, referenced by the caller
 * @io: filled in; io->in_group is false when the device has no group
 *
 * The domain pointer is not refcounted and may change when VFIO attaches,
 * so only its type is read, at once, and the pointer is never kept.
 */
void pcieaudit_iommu_read(struct device *dev, struct pcieaudit_iommu *io)
{
	struct iommu_group *group;
	struct iommu_domain *domain;
	struct device *inst;

	memset(io, 0, sizeof(*io));
	group = iommu_group_get(dev);
	if (!group)
		return;
	io->in_group = true;
	io->group = iommu_group_id(group);
	iommu_group_put(group);

	domain = iommu_get_domain_for_dev(dev);
	if (domain)
		io->domain = domain_type(READ_ONCE(domain->type));
	if (is_default_type(io->domain))
		io->def_domain = io->domain;

	inst = pcieaudit_iommu_instance(dev);
	if (inst)
		strscpy(io->instance, dev_name(inst), sizeof(io->instance));
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

	group = iommu_group_get(dev);
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

static int summarise(struct device *dev, void *data)
{
	struct pcieaudit_iommu_summary *s = data;
	struct iommu_domain *domain;
	unsigned int type;

	s->devices++;
	domain = iommu_get_domain_for_dev(dev);
	if (!domain)
		return 0;
	type = READ_ONCE(domain->type);
	if (type == IOMMU_DOMAIN_DMA)
		s->any_dma = true;
	else if (type == IOMMU_DOMAIN_DMA_FQ)
		s->any_dma_fq = true;
	return 0;
}

/**
 * pcieaudit_iommu_summary_read - counts and domain types across the PCI bus
 * @s: filled in
 */
void pcieaudit_iommu_summary_read(struct pcieaudit_iommu_summary *s)
{
	struct pcieaudit_group_batch b;
	unsigned int n;
	int from = 0;

	memset(s, 0, sizeof(*s));
	bus_for_each_dev(&pci_bus_type, NULL, s, summarise);
	do {
		n = pcieaudit_groups_collect(&b, from);
		s->groups += n;
		if (n)
			from = b.ids[n - 1] + 1;
		pcieaudit_groups_release(&b);
	} while (n == PCIEAUDIT_GROUP_BATCH);
}
