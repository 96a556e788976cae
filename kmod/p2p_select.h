/* SPDX-License-Identifier: GPL-2.0 */
/* The functions a P2P dump request selects (p2p_select.c). */
#ifndef _PCIEAUDIT_P2P_SELECT_H
#define _PCIEAUDIT_P2P_SELECT_H

#include <linux/pci.h>
#include <net/netlink.h>
#include <linux/pcieaudit.h>

struct pcieaudit_p2p_selection {
	const struct nlmsghdr *nlh;
	bool any;		/* the request named selectors */
};

/*
 * A selection of addresses only, at most PCIEAUDIT_P2P_MAX_CLIENTS of them
 * (what the CLI asks for), is kept for the whole dump, sorted by key: one
 * walk of the bus finds every selected function, and it is walked again
 * only when a function was added or removed since. The general path walks
 * the bus once per batch of clients of every provider and matches every
 * selector against every function: 4032 pairs of 64 devices on 1000
 * functions took more than a full report.
 */
struct pcieaudit_p2p_table {
	bool fast;		/* the selection is addresses only */
	bool resolved;
	u32 generation;		/* pcieaudit_generation() when resolved */
	unsigned int n;
	u64 key[PCIEAUDIT_P2P_MAX_CLIENTS];
	struct pci_dev *pdev[PCIEAUDIT_P2P_MAX_CLIENTS];	/* or NULL */
};

bool pcieaudit_p2p_selected(struct pci_dev *pdev, const void *data);
bool pcieaudit_p2p_table_keys(struct pcieaudit_p2p_table *t,
			      const struct nlmsghdr *nlh, bool skip_classes);
void pcieaudit_p2p_table_release(struct pcieaudit_p2p_table *t);
void pcieaudit_p2p_table_resolve(struct pcieaudit_p2p_table *t);
int pcieaudit_p2p_check_selectors(struct nlattr **attrs,
				  const struct nlmsghdr *nlh,
				  struct netlink_ext_ack *extack);

#endif /* _PCIEAUDIT_P2P_SELECT_H */
