// SPDX-License-Identifier: GPL-2.0
/*
 * The ACS control register of every function, recorded when the module
 * loads and when a function is added later. IOMMU groups are formed from
 * ACS at enumeration; comparing the live register with this record shows
 * ACS changed since (by setpci, a driver or firmware), which leaves the
 * groups claiming isolation the hardware no longer gives.
 *
 * Stored in an xarray keyed like dumps, as values, so a lookup needs no
 * lock and no allocation. A read that fails or returns all ones (D3cold,
 * or the function is gone) is not a baseline: such a function has none,
 * which the reply leaves out, so its baseline is unknown rather than
 * drifted. pci_user_read_config_word() waits out a reset in progress.
 */
#include <linux/device.h>
#include <linux/notifier.h>
#include <linux/pci.h>
#include <linux/xarray.h>

#include "acs_baseline.h"
#include "pci_walk.h"

static DEFINE_XARRAY(baseline);

static int record(struct device *dev, void *data)
{
	struct pci_dev *pdev = to_pci_dev(dev);
	u16 pos = pcieaudit_acs_pos(pdev);
	u16 ctrl;

	if (!pos || pci_dev_is_disconnected(pdev) ||
	    pci_user_read_config_word(pdev, pos + PCI_ACS_CTRL, &ctrl) ||
	    PCI_POSSIBLE_ERROR(ctrl))
		return 0;
	/* Losing one record to -ENOMEM only hides that function's drift. */
	xa_store(&baseline, pcieaudit_dev_key(pdev), xa_mk_value(ctrl),
		 GFP_KERNEL);
	return 0;
}

/**
 * pcieaudit_acs_baseline - the recorded ACS control of a function
 * @pdev: the function
 * @ctrl: set to the recorded value
 *
 * Return: false when nothing was recorded: no ACS capability, or its
 * control register was not readable when the function was recorded.
 */
bool pcieaudit_acs_baseline(struct pci_dev *pdev, u16 *ctrl)
{
	void *entry = xa_load(&baseline, pcieaudit_dev_key(pdev));

	if (!entry)
		return false;
	*ctrl = xa_to_value(entry);
	return true;
}

static int pci_bus_event(struct notifier_block *nb, unsigned long action,
			 void *data)
{
	struct device *dev = data;

	if (action == BUS_NOTIFY_ADD_DEVICE)
		record(dev, NULL);
	else if (action == BUS_NOTIFY_DEL_DEVICE)
		xa_erase(&baseline, pcieaudit_dev_key(to_pci_dev(dev)));
	return NOTIFY_DONE;
}

static struct notifier_block pci_bus_nb = {
	.notifier_call = pci_bus_event,
};

/**
 * pcieaudit_acs_baseline_init - record every function's ACS control now
 *
 * Return: 0 or a negative errno.
 */
int pcieaudit_acs_baseline_init(void)
{
	int ret;

	/* Notifier first, so a function added meanwhile is not missed. */
	ret = bus_register_notifier(&pci_bus_type, &pci_bus_nb);
	if (ret)
		return ret;
	bus_for_each_dev(&pci_bus_type, NULL, NULL, record);
	return 0;
}

/**
 * pcieaudit_acs_baseline_exit - forget the records
 */
void pcieaudit_acs_baseline_exit(void)
{
	bus_unregister_notifier(&pci_bus_type, &pci_bus_nb);
	xa_destroy(&baseline);
}
