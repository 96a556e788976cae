// SPDX-License-Identifier: GPL-2.0
/* pcieaudit: read-only audit of PCIe ACS, IOMMU groups and links. */
#include <linux/module.h>
#include <net/genetlink.h>
#include <linux/pcieaudit.h>

#include "acs_baseline.h"
#include "monitor.h"
#include "netlink.h"
#include "pci_walk.h"
#include "removal_fence.h"
#include "version.h"

static int __init pcieaudit_init(void)
{
	int ret;

	ret = pcieaudit_walk_init();
	if (ret)
		return ret;
	ret = pcieaudit_fence_init();
	if (ret)
		goto err_walk;
	ret = pcieaudit_acs_baseline_init();
	if (ret)
		goto err_fence;
	ret = pcieaudit_genl_init();
	if (ret)
		goto err_baseline;
	/* After the family: the monitor sends events through it. */
	ret = pcieaudit_monitor_init();
	if (ret)
		goto err_genl;
	pr_debug("version %s loaded\n", PCIEAUDIT_VERSION);
	return 0;

err_genl:
	pcieaudit_genl_uninit();
err_baseline:
	pcieaudit_acs_baseline_exit();
err_fence:
	pcieaudit_fence_exit();
err_walk:
	pcieaudit_walk_exit();
	return ret;
}

static void __exit pcieaudit_exit(void)
{
	pcieaudit_monitor_exit();
	pcieaudit_genl_uninit();
	pcieaudit_acs_baseline_exit();
	pcieaudit_fence_exit();
	pcieaudit_walk_exit();
}

module_init(pcieaudit_init);
module_exit(pcieaudit_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Read-only audit of PCIe ACS, IOMMU groups and links");
MODULE_AUTHOR("pcieaudit developers");
MODULE_VERSION(PCIEAUDIT_VERSION);
MODULE_ALIAS_GENL_FAMILY(PCIEAUDIT_FAMILY_NAME);
