/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel version and configuration difference pcieaudit bridges.
 * Force-included into each translation unit by Kbuild, so the .c files use
 * only the helpers and macros defined here. Newest change first; each entry
 * names the upstream change it bridges.
 */
#ifndef _PCIEAUDIT_COMPAT_H
#define _PCIEAUDIT_COMPAT_H

#include <linux/bits.h>
#include <linux/rcupdate.h>
#include <linux/iommu.h>
#include <linux/pci.h>
#include <linux/pm_runtime.h>
#include <net/genetlink.h>
#include <linux/pcieaudit.h>

/*
 * Kbuild refuses kernels older than 5.10, the first with per-op policies in
 * struct genl_ops. Features that distributions backport are probed in Kbuild
 * from the target's headers rather than guessed from its version. Kbuild
 * also defines PCIEAUDIT_KVER (major * 100 + minor), used only for what no
 * header shows: the P2PDMA rules private to drivers/pci/p2pdma.c.
 */

/*
 * A runtime-PM reference on a device only while it is active: c0ef3df8dbae
 * ("PM: runtime: Simplify pm_runtime_get_if_active() usage", v6.9, in
 * stable) dropped the ign_usage_count argument, keeping what true meant.
 * Probed in Kbuild from the target's pm_runtime.h.
 */
static inline int pcieaudit_pm_runtime_get_if_active(struct device *dev)
{
#ifdef PCIEAUDIT_RPM_GET_IF_ACTIVE_TAKES_BOOL
	return pm_runtime_get_if_active(dev, true);
#else
	return pm_runtime_get_if_active(dev);
#endif
}

/*
 * Whether the kernel keeps AER counters for a function, which is what makes
 * its sysfs aer_dev_* files visible: pci_dev's aer_stats, set by
 * pci_aer_init() before the function is added and freed only with the
 * pci_dev. "PCI/AER: Rename struct aer_stats to aer_info" (v6.16, the
 * ratelimit series) renamed it. Probed in Kbuild.
 */
static inline bool pcieaudit_has_aer_counters(struct pci_dev *pdev)
{
#if !IS_ENABLED(CONFIG_PCIEAER)
	return false;
#elif defined(PCIEAUDIT_HAVE_AER_INFO)
	return READ_ONCE(pdev->aer_info);
#else
	return READ_ONCE(pdev->aer_stats);
#endif
}

/*
 * pci_dev's reset_methods[] in priority order, packed a byte each from the
 * lowest: a key for the methods' names, which only sysfs reset_method
 * spells (the table is private to drivers/pci/pci.c). "PCI: Add support
 * for reset method selection" (v5.15) added the array; before it there is
 * no key. False also when more methods than a u64 holds are selected.
 */
static inline bool pcieaudit_reset_methods_key(struct pci_dev *pdev, u64 *key)
{
#ifdef PCIEAUDIT_HAVE_RESET_METHODS
	unsigned int i;
	u8 m;

	*key = 0;
	for (i = 0; i < PCI_NUM_RESET_METHODS; i++) {
		m = READ_ONCE(pdev->reset_methods[i]);
		if (!m)
			return true;
		if (i == sizeof(*key))
			return false;
		*key |= (u64)m << (8 * i);
	}
	return true;
#else
	return false;
#endif
}

/*
 * pci_dev_is_disconnected() moved from drivers/pci/pci.h to linux/pci.h in
 * 2024 ("PCI: Make pci_dev_is_disconnected() helper public for other
 * drivers", v6.9) and reached some stable branches only, so a 5.10 to 6.8
 * point release or distribution kernel may lack it. Probed in Kbuild; this
 * is its body before the move.
 */
#ifndef PCIEAUDIT_HAVE_PCI_DEV_IS_DISCONNECTED
static inline bool pci_dev_is_disconnected(const struct pci_dev *dev)
{
	return dev->error_state == pci_channel_io_perm_failure;
}
#endif

/*
 * Dump request attributes: genl_info_dump() replaced
 * genl_dumpit_info()->attrs in v6.6 ("genetlink: use attrs from struct
 * genl_info"); the attrs field went away in the same cycle.
 */
#ifdef PCIEAUDIT_HAVE_GENL_INFO_DUMP
#define pcieaudit_dump_attrs(cb)	(genl_info_dump(cb)->attrs)
#else
#define pcieaudit_dump_attrs(cb)	(genl_dumpit_info(cb)->attrs)
#endif

/*
 * An extack in a dump's .start: "netlink: support extack in dump ->start()"
 * (after v6.1) passes one; before it, cb->extack is NULL there and an error from
 * .start reaches userspace without its message. There, .start accepts every
 * request and the first .dumpit call, which always has an extack, checks it
 * (the caller's CAP_SYS_ADMIN first) and fails the dump in NLMSG_DONE
 * instead, before anything is emitted. The dump's context
 * (struct pcieaudit_dump_ctx) marks the request as checked.
 */
#ifdef PCIEAUDIT_HAVE_DUMP_START_EXTACK
#define PCIEAUDIT_DUMP_START_EXTACK	true
#else
#define PCIEAUDIT_DUMP_START_EXTACK	false
#endif

/*
 * Who may join a multicast group: GENL_MCAST_CAP_SYS_ADMIN came with
 * "genetlink: add CAP_NET_ADMIN test for multicast bind" (v6.7, in 6.1.y
 * and 6.6.y stable). Without it any process of the initial network
 * namespace can join, so events then carry no register values, which
 * sysfs keeps from unprivileged users: only what happened to which
 * function.
 */
#ifdef PCIEAUDIT_HAVE_GENL_MCAST_CAP
#define PCIEAUDIT_MCGRP_INIT(n)	{ .name = (n), .flags = GENL_MCAST_CAP_SYS_ADMIN }
#define PCIEAUDIT_MCGRP_PRIVILEGED	true
#else
#define PCIEAUDIT_MCGRP_INIT(n)	{ .name = (n) }
#define PCIEAUDIT_MCGRP_PRIVILEGED	false
#endif

/*
 * Required-attribute checks with an extack message: "netlink: add helpers
 * for extack attr presence checking" (v6.0).
 */
#ifndef NL_REQ_ATTR_CHECK
#define NL_REQ_ATTR_CHECK(extack, nest, tb, type) ({			\
	bool __missing = !(tb)[type];					\
									\
	if (__missing)							\
		NL_SET_ERR_MSG_ATTR(extack, nest, "missing attribute");	\
	__missing;							\
})
#define GENL_REQ_ATTR_CHECK(info, attr) ({				\
	struct genl_info *__info = (info);				\
									\
	NL_REQ_ATTR_CHECK(__info->extack, NULL, __info->attrs, attr);	\
})
#endif

/*
 * The all-ones test of a failed configuration read: PCI_POSSIBLE_ERROR()
 * came with "PCI: Add PCI_ERROR_RESPONSE and related definitions" (v5.18).
 */
#ifndef PCI_POSSIBLE_ERROR
#define PCI_POSSIBLE_ERROR(val)	((val) == ((typeof(val))~0))
#endif

/*
 * Whether a group's DMA ownership is claimed: iommu_group_dma_owner_claimed()
 * came with 1ea2a07a532b ("iommu: Add DMA ownership management interfaces",
 * v5.19), EXPORT_SYMBOL_GPL; probed in Kbuild from the target's iommu.h.
 * Its kernel-doc: "racy and only for non-binding status reporting"; it
 * takes group->mutex, so never call it inside iommu_group_for_each_dev().
 * Before it (5.10) nothing exported says, and the answer is unknown (0).
 */
static inline u32 pcieaudit_group_dma_owner(struct iommu_group *group)
{
#ifdef PCIEAUDIT_HAVE_DMA_OWNER
	return iommu_group_dma_owner_claimed(group) ?
	       PCIEAUDIT_DMA_OWNER_CLAIMED : PCIEAUDIT_DMA_OWNER_UNCLAIMED;
#else
	return 0;
#endif
}

/*
 * The host bridge above a bus. pci_find_host_bridge() is exported by v6.1
 * but not by v5.10 (Debian's 5.10.223 Module.symvers lacks it), so this is
 * its body: the root bus's bridge device is the host bridge's.
 */
static inline struct pci_host_bridge *pcieaudit_find_host_bridge(struct pci_bus *bus)
{
	while (bus->parent)
		bus = bus->parent;
	return to_pci_host_bridge(bus->bridge);
}

/*
 * ACS capability offset cached in pci_dev: 52fbf5bdeeef ("PCI: Cache ACS
 * capability offset in device", v5.9).
 */
static inline u16 pcieaudit_acs_pos(struct pci_dev *pdev)
{
	return pdev->acs_cap;
}

/*
 * The CPU rule of calc_map_type_and_dist(): dea286bb71ba ("PCI/P2PDMA:
 * Allow P2PDMA on AMD Zen and newer CPUs", v5.9), x86 only, read from CPU 0
 * as the kernel does (cpu_data(0) is boot_cpu_data's per-CPU copy).
 */
static inline bool pcieaudit_cpu_supports_p2pdma(void)
{
#ifdef CONFIG_X86
	return boot_cpu_data.x86_vendor == X86_VENDOR_AMD &&
	       boot_cpu_data.x86 >= 0x17;
#else
	return false;
#endif
}

/*
 * From ae21f835a5bd ("PCI/P2PDMA: Finish RCU conversion of pdev->p2pdma",
 * v5.14) until 1e5c66afd4a4 ("PCI/P2PDMA: Fix a sleeping issue in a RCU
 * read section", v6.9, GFP_ATOMIC), calc_map_type_and_dist() allocates with
 * GFP_KERNEL under rcu_read_lock() when the provider owns P2P memory; do
 * not call it then. Before v5.14 there is no RCU read section (and
 * p2pdma is no __rcu pointer), so the GFP_KERNEL store is legal. Both ends
 * are version-gated: no header shows either change, and stable backports
 * of the fix cannot be detected, so 5.14-6.8 kernels are assumed unfixed.
 *
 * The check is racy by nature: a driver may publish P2P memory on the
 * provider (pci_p2pdma_add_resource(), no lock a module can take) between
 * it and the call. pcieaudit_p2p_kernel_ask() repeats it immediately
 * before each call, which leaves a window of a few instructions; why that
 * window is harmless is written there.
 */
#define PCIEAUDIT_P2PDMA_ALLOC_UNDER_RCU \
	(PCIEAUDIT_KVER >= 514 && PCIEAUDIT_KVER < 609)

static inline bool pcieaudit_p2pdma_call_unsafe(struct pci_dev *provider)
{
#if defined(CONFIG_PCI_P2PDMA) && PCIEAUDIT_P2PDMA_ALLOC_UNDER_RCU
	return rcu_access_pointer(provider->p2pdma);
#else
	return false;
#endif
}

/*
 * Whether pci_p2pdma_distance_many() warns "Host bridge not in P2PDMA
 * whitelist" even with verbose off: from cf201bfe8cdc ("PCI/P2PDMA: Warn if
 * host bridge not in whitelist", v5.14), for ACS-redirected pairs. Before
 * it the function never logs without verbose. Version-gated: no header
 * shows it. (b9964341607f, queued for v7.4, makes it depend on verbose.)
 */
#define PCIEAUDIT_P2PDMA_WARNS_QUIETLY	(PCIEAUDIT_KVER >= 514)

#endif /* _PCIEAUDIT_COMPAT_H */
