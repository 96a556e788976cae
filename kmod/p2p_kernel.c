// SPDX-License-Identifier: GPL-2.0
/*
 * Asking pci_p2pdma_distance_many() for its verdict, within bounds.
 *
 * Without CONFIG_PCI_P2PDMA the function is a stub answering -1, which
 * would read as a refusal, so it is not called at all. With it, from v5.14
 * even verbose=false prints "Host bridge not in P2PDMA whitelist" for every
 * redirected pair on an unlisted host bridge (PCIEAUDIT_P2PDMA_WARNS_QUIETLY),
 * and a matrix query would flood the log: such calls are allowed
 * PCIEAUDIT_P2P_KERNEL_LOG_BURST times a minute, and the pair's kernel
 * verdict is withheld beyond that. Kernels before v5.14 never warn without
 * verbose, so nothing is withheld for the log there.
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
 * allowance when it is granted. p->kernel_warns is only ever set on kernels
 * that warn without verbose.
 *
 * Return: enum pcieaudit_p2p_kernel; PCIEAUDIT_P2P_KERNEL_ANSWERED means
 *	call pcieaudit_p2p_kernel_ask().
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
 * pcieaudit_p2p_kernel_ask - pci_p2pdma_distance_many()
 * @provider: referenced by the caller
 * @clients: referenced by the caller
 * @n: number of clients, at most PCIEAUDIT_P2P_MAX_CLIENTS
 * @verbose: let the kernel explain refusals in its log
 * @dist: the kernel's distance, -1 when it refuses; set when answered
 *
 * Call only after pcieaudit_p2p_kernel_status() answered
 * PCIEAUDIT_P2P_KERNEL_ANSWERED for every pair.
 *
 * The provider's P2P memory is looked at again here, right before the
 * call, rather than trusted from the status computed earlier for the whole
 * request: a driver may have published it since. What remains is the few
 * instructions between this look and calc_map_type_and_dist()'s own
 * rcu_dereference(), on 5.14-6.8 kernels only. That window is harmless in
 * the sense that matters: the pointer is published by the provider's own
 * driver (pci_p2pdma_add_resource()) so that P2PDMA users call this very
 * function on that provider, and from that moment every such call, the
 * kernel's own included, makes the same GFP_KERNEL store under
 * rcu_read_lock(). pcieaudit refrains from adding calls to a provider
 * known to trigger it; a publication landing inside the window makes
 * pcieaudit's one call indistinguishable from the next in-kernel caller's,
 * adding no hazard the kernel does not already have. No lock closes it: the
 * publication takes none that a module can hold.
 *
 * Return: PCIEAUDIT_P2P_KERNEL_ANSWERED with *dist set, or
 *	PCIEAUDIT_P2P_KERNEL_WITHHELD_UNSAFE when the provider gained P2P
 *	memory since its status was decided.
 */
u32 pcieaudit_p2p_kernel_ask(struct pci_dev *provider,
			     struct pci_dev **clients, unsigned int n,
			     bool verbose, int *dist)
{
	struct device *devs[PCIEAUDIT_P2P_MAX_CLIENTS];
	unsigned int i;

	*dist = -1;
	if (WARN_ON_ONCE(n > ARRAY_SIZE(devs)))
		return PCIEAUDIT_P2P_KERNEL_WITHHELD_UNSAFE;
	for (i = 0; i < n; i++)
		devs[i] = &clients[i]->dev;
	if (pcieaudit_p2pdma_call_unsafe(provider))
		return PCIEAUDIT_P2P_KERNEL_WITHHELD_UNSAFE;
	*dist = pci_p2pdma_distance_many(provider, devs, n, verbose);
	return PCIEAUDIT_P2P_KERNEL_ANSWERED;
}

/**
 * pcieaudit_p2p_kernel_answers - the kernel's verdicts on a do request
 * @provider: the provider
 * @clients: its clients, in request order
 * @pairs: pcieaudit's analysis of each pair, in the same order
 * @n: how many
 * @verbose: whether the kernel may explain itself in the log
 * @status: filled: enum pcieaudit_p2p_kernel_status of each pair
 * @dist: filled: each pair's own distance, where answered
 * @sum: filled: pci_p2pdma_distance_many() over all clients, where answered
 *
 * Decides which calls to make, so that no call floods the log: each
 * pair's status first; then, where every pair may be asked, the sum over
 * all clients; then each pair on its own (a lone client's is the sum).
 *
 * Return: whether @sum was answered.
 */
bool pcieaudit_p2p_kernel_answers(struct pci_dev *provider,
				  struct pci_dev **clients,
				  const struct pcieaudit_p2p *pairs,
				  unsigned int n, bool verbose, u32 *status,
				  int *dist, int *sum)
{
	bool all_answered = true;
	unsigned int i;
	u32 st;

	*sum = -1;
	for (i = 0; i < n; i++) {
		status[i] = pcieaudit_p2p_kernel_status(&pairs[i], verbose);
		all_answered &= status[i] == PCIEAUDIT_P2P_KERNEL_ANSWERED;
	}
	/*
	 * Without verbose, pci_p2pdma_distance_many() stops at the first
	 * client it refuses. Where that pair warns, the call warns as well, on
	 * top of the pair's own call below, so it takes from the allowance
	 * too; if none is left, the pair is withheld, and the sum with it.
	 */
	for (i = 0; all_answered && n > 1 && i < n; i++) {
		if (pairs[i].map != PCIEAUDIT_P2P_MAP_NOT_SUPPORTED)
			continue;
		if (pairs[i].kernel_warns) {
			st = pcieaudit_p2p_kernel_status(&pairs[i], verbose);
			if (st != PCIEAUDIT_P2P_KERNEL_ANSWERED) {
				status[i] = st;
				all_answered = false;
			}
		}
		break;
	}
	if (all_answered) {
		st = pcieaudit_p2p_kernel_ask(provider, clients, n, verbose, sum);
		if (st != PCIEAUDIT_P2P_KERNEL_ANSWERED) {
			/* The provider gained P2P memory: ask about no pair. */
			for (i = 0; i < n; i++)
				status[i] = st;
			all_answered = false;
		}
	}
	for (i = 0; i < n; i++) {
		dist[i] = *sum;
		if (status[i] == PCIEAUDIT_P2P_KERNEL_ANSWERED && n > 1)
			status[i] = pcieaudit_p2p_kernel_ask(provider, &clients[i],
							     1, verbose,
							     &dist[i]);
	}
	return all_answered;
}
