/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the files that make up the "pcieaudit" family. */
#ifndef _PCIEAUDIT_NETLINK_INTERNAL_H
#define _PCIEAUDIT_NETLINK_INTERNAL_H

#include <linux/pci.h>
#include <net/genetlink.h>
#include <linux/pcieaudit.h>

#include "dev_caps.h"

extern struct genl_family pcieaudit_family;
extern const struct nla_policy pcieaudit_addr_policy[PCIEAUDIT_A_ADDR_MAX + 1];
extern const struct nla_policy pcieaudit_class_policy[PCIEAUDIT_A_CLASS_MAX + 1];
extern const struct nla_policy pcieaudit_p2p_policy[PCIEAUDIT_A_P2P_MAX + 1];

int pcieaudit_nl_put_addr(struct sk_buff *skb, int type, struct pci_dev *pdev);
int pcieaudit_nl_addr_key(const struct nlattr *nest,
			  struct netlink_ext_ack *extack, u64 *key);
struct pci_dev *pcieaudit_nl_get_dev(const struct nlattr *nest,
				     struct netlink_ext_ack *extack);
int pcieaudit_nl_perm(const struct sk_buff *skb,
		      struct netlink_ext_ack *extack);

/*
 * Dump cursors live in cb->args, which every supported kernel has; a key
 * takes two slots so it fits a 32-bit long too.
 */
static inline u64 pcieaudit_nl_cursor(const struct netlink_callback *cb,
				      unsigned int slot)
{
	return (u64)cb->args[slot] << 16 | cb->args[slot + 1];
}

static inline void pcieaudit_nl_cursor_set(struct netlink_callback *cb,
					   unsigned int slot, u64 key)
{
	cb->args[slot] = key >> 16;
	cb->args[slot + 1] = key & 0xffff;
}

int pcieaudit_nl_put_dev_caps(struct sk_buff *skb,
			      const struct pcieaudit_dev_caps *c);

int pcieaudit_nl_p2p_doit(struct sk_buff *skb, struct genl_info *info);
int pcieaudit_nl_p2p_start(struct netlink_callback *cb);
int pcieaudit_nl_p2p_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int pcieaudit_nl_p2p_done(struct netlink_callback *cb);

#endif /* _PCIEAUDIT_NETLINK_INTERNAL_H */
