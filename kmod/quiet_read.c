// SPDX-License-Identifier: GPL-2.0
/*
 * The monitor's configuration reads, made only where they wake nothing,
 * bring no link out of a low-power state and wait on no reset, as the PCI
 * core's own poller (pci_pme_list_scan()) reads: the bridge above and the
 * function active for runtime PM, a reference on each held across the
 * read, neither in a low-power state the kernel put it in; no link with
 * ASPM enabled between the function and the root complex; the function's
 * config access not blocked. Read-only: pci_user_read_config_*() alone.
 * docs/kernel-contracts.md has the argument per version.
 */
#include <linux/pci.h>
#include <linux/pm_runtime.h>
#include <linux/pcieaudit.h>

#include "quiet_read.h"

/* A link the read of @pdev crosses has ASPM enabled: reading would wake it. */
static bool crosses_aspm(struct pci_dev *pdev)
{
	struct pci_dev *d;

	for (d = pdev; d; d = pci_upstream_bridge(d))
		if (pcie_aspm_enabled(d))
			return true;
	return false;
}

/*
 * In a low-power state as far as the kernel knows. PCI_UNKNOWN is what the
 * PCI core records for a function it never powered up itself (no driver
 * ever enabled it, and it has no PM capability): it is on, as it came.
 */
static bool low_power(const struct pci_dev *pdev)
{
	pci_power_t state = READ_ONCE(pdev->current_state);

	return state != PCI_D0 && state != PCI_UNKNOWN;
}

/*
 * A runtime-PM reference on an active device: > 0 taken, < 0 runtime PM
 * disabled (no reference, the device is as the PCI core left it), 0 not
 * active (suspended, or on its way).
 */
static int pm_get(struct pci_dev *pdev)
{
	return pcieaudit_pm_runtime_get_if_active(&pdev->dev);
}

static void pm_put(struct pci_dev *pdev, int ref)
{
	if (ref > 0)
		pm_runtime_put(&pdev->dev);
}

/**
 * pcieaudit_quiet_read - read a register unless that would wake or wait
 * @pdev: the function, referenced by the caller
 * @pos: the register's offset
 * @size: 2 or 4
 * @val: set to the value on success
 *
 * Context: process context; takes no lock of the caller's.
 * Return: 0, or enum pcieaudit_hist_skip: why it did not read.
 */
u32 pcieaudit_quiet_read(struct pci_dev *pdev, int pos, int size, u32 *val)
{
	struct pci_dev *up = pci_upstream_bridge(pdev);
	int upref = -1, ref = -1, err;
	u16 word;
	u32 skip;

	skip = PCIEAUDIT_HIST_SKIP_UNREADABLE;
	if (pci_dev_is_disconnected(pdev))
		goto out;
	/* As pci_pme_list_scan(): the bridge above active and in D0. */
	skip = PCIEAUDIT_HIST_SKIP_SUSPENDED;
	if (up) {
		upref = pm_get(up);
		if (!upref || low_power(up))
			goto out;
	}
	ref = pm_get(pdev);
	if (!ref || low_power(pdev))
		goto out;
	skip = PCIEAUDIT_HIST_SKIP_ASPM;
	if (crosses_aspm(pdev))
		goto out;
	/*
	 * Held by a reset or an SR-IOV change: skip rather than wait up to a
	 * minute. An unlocked read, a hint (pci_lock, which guards the bit,
	 * is private to drivers/pci; the bit is a bit-field, which neither
	 * READ_ONCE() nor data_race() takes): only a block taken in the
	 * instant between this test and the read is waited out, as sysfs
	 * would.
	 */
	skip = PCIEAUDIT_HIST_SKIP_BLOCKED;
	if (pdev->block_cfg_access)
		goto out;
	if (size == 4) {
		err = pci_user_read_config_dword(pdev, pos, val);
	} else {
		err = pci_user_read_config_word(pdev, pos, &word);
		*val = word;
	}
	skip = PCIEAUDIT_HIST_SKIP_UNREADABLE;
	if (err || (size == 4 ? PCI_POSSIBLE_ERROR(*val) :
		    PCI_POSSIBLE_ERROR((u16)*val)))
		goto out;
	skip = 0;
out:
	pm_put(pdev, ref);
	if (up)
		pm_put(up, upref);
	return skip;
}
