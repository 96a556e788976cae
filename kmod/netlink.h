/* SPDX-License-Identifier: GPL-2.0 */
/* The "pcieaudit" generic-netlink family. */
#ifndef _PCIEAUDIT_NETLINK_H
#define _PCIEAUDIT_NETLINK_H

#include <linux/pci.h>

int pcieaudit_genl_init(void);
void pcieaudit_genl_uninit(void);

/**
 * struct pcieaudit_mon_msg - one PCIEAUDIT_CMD_MON_EVENT, as monitor.c saw it
 * @seq: PCIEAUDIT_A_MON_SEQ
 * @time_ns: PCIEAUDIT_A_MON_TIME_NS
 * @event: enum pcieaudit_mon_event
 * @source: enum pcieaudit_mon_source
 * @pdev: the function
 * @lnkcap: link events: LnkCap
 * @lnksta_old: link events: LnkSta before
 * @lnksta: link events: LnkSta now
 * @acs_ctrl_old: ACS events: ACS control before
 * @acs_ctrl: ACS events: ACS control now
 */
struct pcieaudit_mon_msg {
	u64 seq, time_ns;
	u32 event, source;
	struct pci_dev *pdev;
	u32 lnkcap;
	u16 lnksta_old, lnksta, acs_ctrl_old, acs_ctrl;
};

void pcieaudit_nl_mon_event(const struct pcieaudit_mon_msg *ev);

#endif /* _PCIEAUDIT_NETLINK_H */
