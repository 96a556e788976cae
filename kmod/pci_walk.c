// SPDX-License-Identifier: GPL-2.0
/*
 * Ordered, resumable iteration over PCI functions.
 *
 * The bus klist is in registration order and a removed node can restart a
 * pci_get_device() walk from the head, so dumps never keep a position in it.
 * Each step instead collects, in one bus_for_each_dev() pass, the smallest
 * PCIEAUDIT_BATCH keys at or above a cursor, holding a reference on each
 * device. A dump part resumes from the key after the last one it sent, so
 * devices removed in between are skipped and none is sent twice.
 *
 * A bus notifier counts additions and removals; dumps put the count in
 * cb->seq so userspace sees NLM_F_DUMP_INTR when the set changed.
 */
#include <linux/atomic.h>
#include <linux/device.h>
#include <linux/notifier.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "pci_walk.h"

static atomic_t generation = ATOMIC_INIT(1);

u64 pcieaudit_dev_key(const struct pci_dev *pdev)
{
	return pcieaudit_key(pci_domain_nr(pdev->bus), pdev->bus->number,
			     pdev->devfn);
}

struct collect_ctx {
	struct pcieaudit_batch *b;
	u64 from;
	pcieaudit_filter_t filter;
	const void *filter_ctx;
};

/* Whether pcieaudit_batch_offer() would keep @key in @b. */
static bool batch_wants(const struct pcieaudit_batch *b, u64 key)
{
	return b->n < PCIEAUDIT_BATCH || key < b->key[b->n - 1];
}

/**
 * pcieaudit_batch_offer - keep a function among the smallest keys seen
 * @b: the batch, sorted by key, of at most PCIEAUDIT_BATCH entries
 * @pdev: the function; referenced when kept
 * @key: its key, not already in @b
 *
 * Insertion into the sorted array; a full batch drops its largest key.
 */
void pcieaudit_batch_offer(struct pcieaudit_batch *b, struct pci_dev *pdev,
			   u64 key)
{
	unsigned int i;

	if (!batch_wants(b, key))
		return;
	if (b->n == PCIEAUDIT_BATCH)
		pci_dev_put(b->pdev[--b->n]);
	for (i = b->n; i > 0 && b->key[i - 1] > key; i--) {
		b->key[i] = b->key[i - 1];
		b->pdev[i] = b->pdev[i - 1];
	}
	b->key[i] = key;
	b->pdev[i] = pci_dev_get(pdev);
	b->n++;
}

static int collect_one(struct device *dev, void *data)
{
	struct collect_ctx *ctx = data;
	struct pci_dev *pdev = to_pci_dev(dev);
	u64 key = pcieaudit_dev_key(pdev);

	if (key < ctx->from || !batch_wants(ctx->b, key))
		return 0;
	if (ctx->filter && !ctx->filter(pdev, ctx->filter_ctx))
		return 0;
	pcieaudit_batch_offer(ctx->b, pdev, key);
	return 0;
}

/**
 * pcieaudit_batch_collect - the next functions in key order
 * @b: filled with up to PCIEAUDIT_BATCH referenced devices, sorted by key
 * @from: smallest key to include
 * @filter: when not NULL, only functions for which it returns true
 * @ctx: passed to @filter
 *
 * Fewer than PCIEAUDIT_BATCH entries means the walk has reached the end.
 */
void pcieaudit_batch_collect(struct pcieaudit_batch *b, u64 from,
			     pcieaudit_filter_t filter, const void *ctx)
{
	struct collect_ctx cc = {
		.b = b, .from = from, .filter = filter, .filter_ctx = ctx,
	};

	b->n = 0;
	bus_for_each_dev(&pci_bus_type, NULL, &cc, collect_one);
}

/**
 * pcieaudit_batch_release - drop the references a batch holds
 * @b: batch filled by pcieaudit_batch_collect()
 */
void pcieaudit_batch_release(struct pcieaudit_batch *b)
{
	while (b->n)
		pci_dev_put(b->pdev[--b->n]);
}

/**
 * pcieaudit_batch_alloc - an empty batch, too large for the stack
 *
 * Return: the batch, or NULL when out of memory.
 */
struct pcieaudit_batch *pcieaudit_batch_alloc(void)
{
	return kzalloc(sizeof(struct pcieaudit_batch), GFP_KERNEL);
}

/**
 * pcieaudit_batch_free - release a batch's references and free it
 * @b: batch from pcieaudit_batch_alloc(), or NULL
 */
void pcieaudit_batch_free(struct pcieaudit_batch *b)
{
	if (!b)
		return;
	pcieaudit_batch_release(b);
	kfree(b);
}

/**
 * pcieaudit_generation - changes whenever a PCI function is added or removed
 *
 * Return: a non-zero counter, suitable for netlink_callback.seq.
 */
u32 pcieaudit_generation(void)
{
	return (u32)atomic_read(&generation) ?: 1;
}

static int pci_bus_event(struct notifier_block *nb, unsigned long action,
			 void *data)
{
	if (action == BUS_NOTIFY_ADD_DEVICE || action == BUS_NOTIFY_DEL_DEVICE)
		atomic_inc(&generation);
	return NOTIFY_DONE;
}

static struct notifier_block pci_bus_nb = {
	.notifier_call = pci_bus_event,
};

/**
 * pcieaudit_walk_init - start counting PCI hot-plug events
 *
 * Return: 0 or a negative errno.
 */
int pcieaudit_walk_init(void)
{
	return bus_register_notifier(&pci_bus_type, &pci_bus_nb);
}

/**
 * pcieaudit_walk_exit - stop counting PCI hot-plug events
 */
void pcieaudit_walk_exit(void)
{
	bus_unregister_notifier(&pci_bus_type, &pci_bus_nb);
}
