/* SPDX-License-Identifier: GPL-2.0 */
/* Everything pcieaudit reports about one PCI function, read in one place. */
#ifndef _PCIEAUDIT_DEV_FACTS_H
#define _PCIEAUDIT_DEV_FACTS_H

#include <linux/pci.h>

#include "dev_caps.h"
#include "iommu_facts.h"
#include "passthru_facts.h"

#define PCIEAUDIT_NAME_LEN 64

struct pcieaudit_acs {
	u16 pos;
	u16 cap;
	u16 ctrl;
	bool has_ctrl_at_load;
	u16 ctrl_at_load;
};

struct pcieaudit_link {
	u32 lnkcap;
	u16 lnksta;
	bool has_v2;		/* capability version 2: the *2 registers exist */
	u32 lnkcap2;
	u16 lnkctl2;
};

struct pcieaudit_dev_facts {
	u32 flags;		/* enum pcieaudit_dev_flag */
	u32 power_state;	/* enum pcieaudit_power_state, 0: no PM cap */
	bool config_unreadable;	/* registers unknown: all ones, or gone */
	bool has_acs;
	bool has_link;
	struct pcieaudit_acs acs;
	struct pcieaudit_link link;
	struct pcieaudit_dev_caps caps;	/* BARs always; registers if readable */
	struct pcieaudit_passthru pt;	/* all unknown unless readable */
	struct pcieaudit_iommu iommu;
	char driver[PCIEAUDIT_NAME_LEN];
};

void pcieaudit_dev_facts_read(struct pci_dev *pdev,
			      struct pcieaudit_dev_facts *f);

#endif /* _PCIEAUDIT_DEV_FACTS_H */
