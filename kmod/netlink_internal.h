/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the files that make up the "pcieaudit" family. */
#ifndef _PCIEAUDIT_NETLINK_INTERNAL_H
#define _PCIEAUDIT_NETLINK_INTERNAL_H

#include <linux/pci.h>
#include <net/genetlink.h>
#include <linux/pcieaudit.h>

#include "dev_caps.h"

extern struct genl_family pcieaudit_family;

/* Room a PCIEAUDIT_A_ADDR_* nest takes, as pcieaudit_nl_put_addr() fills it. */
#define PCIEAUDIT_NL_ADDR_SIZE	(nla_total_size(0) +			\
				 nla_total_size(sizeof(u32)) +		\
				 2 * nla_total_size(sizeof(u8)))

int pcieaudit_nl_put_addr(struct sk_buff *skb, int type, struct pci_dev *pdev);
int pcieaudit_nl_addr_key(const struct nlattr *nest,
			  struct netlink_ext_ack *extack, u64 *key);
struct pci_dev *pcieaudit_nl_get_dev(const struct nlattr *nest,
				     struct netlink_ext_ack *extack);
int pcieaudit_nl_perm(const struct sk_buff *skb,
		      struct netlink_ext_ack *extack);

/* Where a dump is. */
enum pcieaudit_dump_state {
	PCIEAUDIT_DUMP_NEW,	/* zeroed: the request is not checked yet */
	PCIEAUDIT_DUMP_CHECKED,	/* permission and request checked */
	PCIEAUDIT_DUMP_ENDED,	/* everything sent; the next call ends it */
};

struct pcieaudit_p2p_table;

/**
 * struct pcieaudit_dump_ctx - a dump's state between its parts, in cb->ctx
 * @next: key (pcieaudit_dev_key()) of the function to resume at: the
 *	device in a DEV_GET dump, the provider in a P2P_GET dump; the IOMMU
 *	group id to resume at in a GROUP_GET dump
 * @next_client: P2P_GET: key of the client to resume at, with @next's
 *	provider
 * @next_member: GROUP_GET: key of the member to resume at, in @next's
 *	group
 * @table: P2P_GET: the selection of addresses, or NULL until the first
 *	part; freed by pcieaudit_nl_p2p_done()
 * @state: enum pcieaudit_dump_state
 *
 * The netlink core zeroes it when the dump starts.
 */
struct pcieaudit_dump_ctx {
	u64 next;
	u64 next_client;
	u64 next_member;
	struct pcieaudit_p2p_table *table;
	enum pcieaudit_dump_state state;
};

/* All supported kernels (5.10+) have cb->ctx; cb->args is deprecated. */
static inline struct pcieaudit_dump_ctx *
pcieaudit_dump_ctx(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct pcieaudit_dump_ctx) > sizeof(cb->ctx));
	return (struct pcieaudit_dump_ctx *)cb->ctx;
}

int pcieaudit_nl_put_dev_caps(struct sk_buff *skb,
			      const struct pcieaudit_dev_caps *c);
size_t pcieaudit_nl_dev_caps_size(void);
struct pcieaudit_passthru;
int pcieaudit_nl_put_passthru(struct sk_buff *skb,
			      const struct pcieaudit_passthru *p);
size_t pcieaudit_nl_passthru_size(void);

int pcieaudit_nl_p2p_doit(struct sk_buff *skb, struct genl_info *info);
int pcieaudit_nl_p2p_start(struct netlink_callback *cb);
int pcieaudit_nl_p2p_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int pcieaudit_nl_p2p_done(struct netlink_callback *cb);

#endif /* _PCIEAUDIT_NETLINK_INTERNAL_H */
