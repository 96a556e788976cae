// SPDX-License-Identifier: GPL-2.0
/*
 * A fence between reading a PCI function's IOMMU state and its arrival or
 * removal.
 *
 * pci_lock_rescan_remove() does not hold off every removal. Only the sysfs
 * sriov_numvfs path takes it around a PF driver's sriov_configure(), from
 * a5338e365c45 ("PCI/IOV: Fix race between SR-IOV enable/disable and
 * hotplug", Cc: stable; Debian's 6.1.192 has it), after 05703271c3cd had
 * taken it in sriov_del_vfs() and deadlocked PF removal. A PF driver's own
 * pci_disable_sriov() (igb_remove() on unbind, for one) deletes its VFs
 * without it on every version. What every addition and removal has in
 * common is the driver core's bus notifiers: device_add() sends
 * BUS_NOTIFY_ADD_DEVICE once the function is on the bus list, and the
 * IOMMU core probes it there (iommu_bus_notifier(), whose error path
 * releases a group it had just joined); device_del() sends
 * BUS_NOTIFY_DEL_DEVICE first and BUS_NOTIFY_REMOVED_DEVICE last, and the
 * IOMMU core releases the function's group membership and dev->iommu on
 * the latter. This notifier runs last in each chain. So a function is
 * "present" from its ADD_DEVICE, after the IOMMU core's probe has
 * succeeded or failed, and "going" from DEL_DEVICE, after every reader
 * that may have seen it present has left, until REMOVED_DEVICE, after the
 * IOMMU core, when it is forgotten. Readers read only present functions.
 * docs/kernel-contracts.md has the argument per version.
 *
 * No allocation where device_del() calls: it runs the notifiers under
 * memalloc_noio_save(). A present function's entry exists already, and
 * turning it into "going" replaces a value in place. A function that is
 * not present (its ADD_DEVICE record failed for memory) has nothing to
 * mark: readers skip it already.
 */
#include <linux/notifier.h>
#include <linux/pci.h>
#include <linux/rwsem.h>
#include <linux/xarray.h>

#include "removal_fence.h"

enum fence_state {
	FENCE_PRESENT = 1,
	FENCE_GOING,
};

static DECLARE_RWSEM(fence);
/* Each function's enum fence_state, by address; absent: not readable. */
static DEFINE_XARRAY(state);

static bool is_present(void *entry)
{
	return entry && xa_to_value(entry) == FENCE_PRESENT;
}

static int removal_event(struct notifier_block *nb, unsigned long action,
			 void *data)
{
	unsigned long key = (unsigned long)data;

	switch (action) {
	case BUS_NOTIFY_ADD_DEVICE:
		/* On -ENOMEM the function stays unreadable: its IOMMU state unknown. */
		xa_store(&state, key, xa_mk_value(FENCE_PRESENT), GFP_KERNEL);
		break;
	case BUS_NOTIFY_DEL_DEVICE:
		down_write(&fence);
		if (is_present(xa_load(&state, key)))
			xa_store(&state, key, xa_mk_value(FENCE_GOING), GFP_NOWAIT);
		up_write(&fence);
		break;
	case BUS_NOTIFY_REMOVED_DEVICE:
		xa_erase(&state, key);
		break;
	}
	return NOTIFY_DONE;
}

/* Lowest priority: each notice reaches the IOMMU core first. */
static struct notifier_block removal_nb = {
	.notifier_call = removal_event,
	.priority = INT_MIN,
};

static int mark_present(struct device *dev, void *unused)
{
	/*
	 * Not over a mark the notifier set meanwhile (-EBUSY); -ENOMEM
	 * leaves the function unreadable, its IOMMU state unknown.
	 */
	if (xa_insert(&state, (unsigned long)dev, xa_mk_value(FENCE_PRESENT),
		      GFP_KERNEL) == -ENOMEM)
		pr_warn_once("out of memory: IOMMU state of some functions unknown\n");
	return 0;
}

/**
 * pcieaudit_fence_init - start tracking PCI functions' arrival and removal
 *
 * The functions on the bus when this runs are present, except those whose
 * removal this notifier saw start meanwhile. A function already between
 * DEL_DEVICE and its unlinking from the bus list before the notifier was
 * registered is taken as present; that window is named in
 * docs/kernel-contracts.md.
 *
 * Return: 0 or a negative errno.
 */
int pcieaudit_fence_init(void)
{
	int ret;

	ret = bus_register_notifier(&pci_bus_type, &removal_nb);
	if (ret)
		return ret;
	bus_for_each_dev(&pci_bus_type, NULL, NULL, mark_present);
	return 0;
}

/**
 * pcieaudit_fence_exit - stop tracking; no reader may be inside
 */
void pcieaudit_fence_exit(void)
{
	bus_unregister_notifier(&pci_bus_type, &removal_nb);
	xa_destroy(&state);
}

/**
 * pcieaudit_fence_present - whether a function is neither arriving nor going
 * @dev: the function
 *
 * A hint for walks that take references (the monitor's load-time walk):
 * it can change as soon as it returns.
 *
 * Return: true when present.
 */
bool pcieaudit_fence_present(struct device *dev)
{
	return is_present(xa_load(&state, (unsigned long)dev));
}

/**
 * pcieaudit_fence_enter - start reading the IOMMU state of a function
 * @dev: the function, referenced by the caller
 *
 * On true, the IOMMU core will not release @dev's group membership or
 * dev->iommu until pcieaudit_fence_leave(). Never call it twice without
 * leaving in between: a removal waiting in between would deadlock.
 *
 * Context: may sleep.
 * Return: false when @dev is arriving or being removed; then do not read,
 * do not leave.
 */
bool pcieaudit_fence_enter(struct device *dev)
{
	down_read(&fence);
	if (pcieaudit_fence_present(dev))
		return true;
	up_read(&fence);
	return false;
}

/**
 * pcieaudit_fence_leave - end a read that pcieaudit_fence_enter() allowed
 */
void pcieaudit_fence_leave(void)
{
	up_read(&fence);
}
