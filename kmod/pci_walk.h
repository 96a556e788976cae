/* SPDX-License-Identifier: GPL-2.0 */
/* Ordered, resumable iteration over PCI functions; hot-plug generation. */
#ifndef _PCIEAUDIT_PCI_WALK_H
#define _PCIEAUDIT_PCI_WALK_H

#include <linux/pci.h>

/*
 * Functions handed out per walk step. Each step walks the whole bus, so a
 * dump of n functions costs about n * n / PCIEAUDIT_BATCH steps: with 16,
 * the bus walks were a tenth of a report on 1000 functions. 128 is more
 * than a 32 KiB part holds; the batch (2 KiB) is allocated per part.
 */
#define PCIEAUDIT_BATCH 128

struct pcieaudit_batch {
	unsigned int n;
	u64 key[PCIEAUDIT_BATCH];
	struct pci_dev *pdev[PCIEAUDIT_BATCH];
};

typedef bool (*pcieaudit_filter_t)(struct pci_dev *pdev, const void *ctx);

/* Keys order functions by domain, bus and devfn. */
static inline u64 pcieaudit_key(u32 domain, u8 bus, u8 devfn)
{
	return (u64)domain << 16 | (u64)bus << 8 | devfn;
}

u64 pcieaudit_dev_key(const struct pci_dev *pdev);
void pcieaudit_batch_collect(struct pcieaudit_batch *b, u64 from,
			     pcieaudit_filter_t filter, const void *ctx);
void pcieaudit_batch_offer(struct pcieaudit_batch *b, struct pci_dev *pdev,
			   u64 key);
void pcieaudit_batch_release(struct pcieaudit_batch *b);
struct pcieaudit_batch *pcieaudit_batch_alloc(void);
void pcieaudit_batch_free(struct pcieaudit_batch *b);

u32 pcieaudit_generation(void);
int pcieaudit_walk_init(void);
void pcieaudit_walk_exit(void);

#endif /* _PCIEAUDIT_PCI_WALK_H */
