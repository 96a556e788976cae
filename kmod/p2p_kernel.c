// SPDX-License-Identifier: GPL-2.0
/*
 * Asking pci_p2pdma_distance_many() for its verdict, within bounds.
 *
 * Without CONFIG_PCI_P2PDMA the function is a stub answering -1, which
 * would read as a refusal, so it is not called at all. With it, even
 * verbose=false prints "Host bridge not in P2PDMA whitelist" for every
 * redirected pair on an unlisted host bridge, and a matrix query would
 * flood the log: such calls are allowed PCIEAUDIT_P2P_KERNEL_LOG_BURST
 * times a minute, and the pair's kernel verdict is withheld beyond that.
 */
#include <linux/jiffies.h>
#include <linux/pci-p2pdma.h>
#include <linux/spinlock.h>
#include <linux/pcieaudit.h>

#include "p2p_kernel.h"

static DEFINE_SPINLOCK(warn_lock);
static unsigned long warn_window;	/* jiffies when the minute began */
static unsigned int warn_calls;

static bool may_warn(void)
{
	bool ok;

	spin_lock(&warn_lock);
	if (!warn_calls || time_after(jiffies, warn_window + 60 * HZ)) {
		warn_window = jiffies;
		warn_calls = 0;
	}
	ok = warn_calls < PCIEAUDIT_P2P_KERNEL_LOG_BURST;
	if (ok)
		warn_calls++;
	spin_unlock(&warn_lock);
	return ok;
}

/**
 * pcieaudit_p2p_kernel_status - whether the kernel may be asked about a pair
 * @p: the pair, analysed
 * @verbose: the caller asked for the kernel's verbose explanation, which
 *	lifts the bound on warnings
 *
 * A call that the kernel would warn about uses up one of the minute's
 * allowance when it is granted.
 *
 * Return: enum pcieaudit_p2p_kernel; PCIEAUDIT_P2P_KERNEL_ANSWERED means
 *	call pcieaudit_p2p_kernel_distance().
 */
u32 pcieaudit_p2p_kernel_status(const struct pcieaudit_p2p *p, bool verbose)
{
	if (!IS_ENABLED(CONFIG_PCI_P2PDMA))
		return PCIEAUDIT_P2P_KERNEL_NOT_BUILT;
	if (pcieaudit_p2pdma_call_unsafe(p->provider))
		return PCIEAUDIT_P2P_KERNEL_WITHHELD_UNSAFE;
	if (p->kernel_warns && !verbose && !may_warn())
		return PCIEAUDIT_P2P_KERNEL_WITHHELD_LOG;
	return PCIEAUDIT_P2P_KERNEL_ANSWERED;
}

/**
 * pcieaudit_p2p_kernel_distance - pci_p2pdma_distance_many()
 * @provider: referenced by the caller
 * @clients: referenced by the caller
 * @n: number of clients, at most PCIEAUDIT_P2P_MAX_CLIENTS
 * @verbose: let the kernel explain refusals in its log
 *
 * Call only after pcieaudit_p2p_kernel_status() answered
 * PCIEAUDIT_P2P_KERNEL_ANSWERED for every pair.
 *
 * Return: the kernel's distance, -1 when it refuses.
 */
int pcieaudit_p2p_kernel_distance(struct pci_dev *provider,
				  struct pci_dev **clients, unsigned int n,
				  bool verbose)
{
	struct device *devs[PCIEAUDIT_P2P_MAX_CLIENTS];
	unsigned int i;

	if (WARN_ON_ONCE(n > ARRAY_SIZE(devs)))
		return -1;
	for (i = 0; i < n; i++)
		devs[i] = &clients[i]->dev;
	return pci_p2pdma_distance_many(provider, devs, n, verbose);
}
