/* SPDX-License-Identifier: GPL-2.0 */
/* Link and ACS monitoring: events on the "monitor" group, link history. */
#ifndef _PCIEAUDIT_MONITOR_H
#define _PCIEAUDIT_MONITOR_H

#include <linux/pci.h>
#include <linux/skbuff.h>
#include <net/genetlink.h>

extern const struct genl_multicast_group pcieaudit_mcgrps[1];

int pcieaudit_monitor_init(void);
void pcieaudit_monitor_exit(void);
size_t pcieaudit_monitor_history_size(void);
int pcieaudit_monitor_put_history(struct sk_buff *skb, struct pci_dev *pdev);
void pcieaudit_monitor_hint(int domain, u8 bus, u8 devfn, u32 source);

#endif /* _PCIEAUDIT_MONITOR_H */
