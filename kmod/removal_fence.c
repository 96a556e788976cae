// SPDX-License-Identifier: GPL-2.0
/*
 * A fence between reading a PCI function's IOMMU state and its removal.
 *
 * pci_lock_rescan_remove() does not hold off every removal. Only the sysfs
 * sriov_numvfs path takes it around a PF driver's sriov_configure(), from
 * a5338e365c45 ("PCI/IOV: Fix race between SR-IOV enable/disable and
 * hotplug", Cc: stable; Debian's 6.1.192 has it), after 05703271c3cd had
 * taken it in sriov_del_vfs() and deadlocked PF removal. A PF driver's own
 * pci_disable_sriov() (igb_remove() on unbind, for one) deletes its VFs
 * without it on every version. What every removal does have in common is
 * device_del(), which calls the bus notifiers with BUS_NOTIFY_DEL_DEVICE
 * first and BUS_NOTIFY_REMOVED_DEVICE last; the IOMMU core releases the
 * function's group membership and dev->iommu on BUS_NOTIFY_REMOVED_DEVICE
 * (iommu_bus_notifier(); see the docs for the versions read). So a function is marked as
 * going at DEL_DEVICE, after every reader that may have seen it unmarked
 * has left, and unmarked at REMOVED_DEVICE, after the IOMMU core (this
 * notifier runs last), when its IOMMU state is gone. Readers skip a marked
 * function. docs/kernel-contracts.md has the argument per version.
 */
#include <linux/limits.h>
#include <linux/notifier.h>
#include <linux/pci.h>
#include <linux/rwsem.h>
#include <linux/xarray.h>

#include "removal_fence.h"

static DECLARE_RWSEM(fence);
/* Functions between DEL_DEVICE and REMOVED_DEVICE, by address. */
static DEFINE_XARRAY(going);

static int removal_event(struct notifier_block *nb, unsigned long action,
			 void *data)
{
	unsigned long key = (unsigned long)data;

	switch (action) {
	case BUS_NOTIFY_DEL_DEVICE:
		/*
		 * A notifier cannot fail the removal, and a node is a small
		 * slab object: wait for memory rather than leave a reader
		 * unfenced.
		 */
		down_write(&fence);
		xa_store(&going, key, data, GFP_KERNEL | __GFP_NOFAIL);
		up_write(&fence);
		break;
	case BUS_NOTIFY_REMOVED_DEVICE:
		down_write(&fence);
		xa_erase(&going, key);
		up_write(&fence);
		break;
	}
	return NOTIFY_DONE;
}

/* Lowest priority: REMOVED_DEVICE reaches the IOMMU core first. */
static struct notifier_block removal_nb = {
	.notifier_call = removal_event,
	.priority = INT_MIN,
};

/**
 * pcieaudit_fence_init - start tracking PCI functions being removed
 *
 * A function already between DEL_DEVICE and REMOVED_DEVICE when this runs
 * is not tracked; module load does not race hot-unplug in practice, and
 * that window is named in docs/kernel-contracts.md.
 *
 * Return: 0 or a negative errno.
 */
int pcieaudit_fence_init(void)
{
	return bus_register_notifier(&pci_bus_type, &removal_nb);
}

/**
 * pcieaudit_fence_exit - stop tracking; no reader may be inside
 */
void pcieaudit_fence_exit(void)
{
	bus_unregister_notifier(&pci_bus_type, &removal_nb);
	xa_destroy(&going);
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
 * Return: false when @dev is being removed; then do not read, do not leave.
 */
bool pcieaudit_fence_enter(struct device *dev)
{
	down_read(&fence);
	if (!xa_load(&going, (unsigned long)dev))
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
