// SPDX-License-Identifier: GPL-2.0
/* DEV_GET reply attributes for ATS, PCIe device control and BARs. */
#include <net/genetlink.h>
#include <linux/pcieaudit.h>

#include "dev_caps.h"
#include "netlink_internal.h"

static int put_ats(struct sk_buff *skb, const struct pcieaudit_ats *ats)
{
	struct nlattr *nest = nla_nest_start(skb, PCIEAUDIT_A_DEV_ATS);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u16(skb, PCIEAUDIT_A_ATS_POS, ats->pos) ||
	    nla_put_u16(skb, PCIEAUDIT_A_ATS_CAP, ats->cap) ||
	    nla_put_u16(skb, PCIEAUDIT_A_ATS_CTRL, ats->ctrl)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int put_expdev(struct sk_buff *skb, const struct pcieaudit_expdev *e)
{
	struct nlattr *nest = nla_nest_start(skb, PCIEAUDIT_A_DEV_EXPDEV);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, PCIEAUDIT_A_EXPDEV_DEVCAP, e->devcap) ||
	    nla_put_u16(skb, PCIEAUDIT_A_EXPDEV_DEVCTL, e->devctl)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int put_bar(struct sk_buff *skb, unsigned int index,
		   const struct pcieaudit_bar *bar)
{
	struct nlattr *nest = nla_nest_start(skb, PCIEAUDIT_A_DEV_BAR);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(skb, PCIEAUDIT_A_BAR_INDEX, index) ||
	    nla_put_u64_64bit(skb, PCIEAUDIT_A_BAR_SIZE, bar->size,
			      PCIEAUDIT_A_BAR_PAD) ||
	    nla_put_u32(skb, PCIEAUDIT_A_BAR_FLAGS, bar->flags) ||
	    (!(bar->flags & PCIEAUDIT_BAR_F_UNASSIGNED) &&
	     nla_put_u64_64bit(skb, PCIEAUDIT_A_BAR_START, bar->start,
			       PCIEAUDIT_A_BAR_PAD)) ||
	    (bar->resizable &&
	     (nla_put_u32(skb, PCIEAUDIT_A_BAR_REBAR_CAP, bar->rebar_cap) ||
	      nla_put_u32(skb, PCIEAUDIT_A_BAR_REBAR_CTRL, bar->rebar_ctrl)))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/**
 * pcieaudit_nl_dev_caps_size - room pcieaudit_nl_put_dev_caps() needs at most
 *
 * Return: bytes, for every BAR resizable and both nests present.
 */
size_t pcieaudit_nl_dev_caps_size(void)
{
	size_t bar = nla_total_size(0) + nla_total_size(sizeof(u8)) +
		     2 * nla_total_size_64bit(sizeof(u64)) +
		     3 * nla_total_size(sizeof(u32));

	return nla_total_size(0) + 3 * nla_total_size(sizeof(u16)) +	/* ats */
	       nla_total_size(0) + nla_total_size(sizeof(u32)) +	/* expdev */
	       nla_total_size(sizeof(u16)) +
	       PCI_STD_NUM_BARS * bar;
}

/**
 * pcieaudit_nl_put_dev_caps - the ATS, EXPDEV and BAR attributes
 * @skb: the DEV_GET message being built
 * @c: what pcieaudit_dev_caps_read() found
 *
 * Return: 0, or -EMSGSIZE when @skb is full.
 */
int pcieaudit_nl_put_dev_caps(struct sk_buff *skb,
			      const struct pcieaudit_dev_caps *c)
{
	unsigned int i;

	if (c->has_ats && put_ats(skb, &c->ats))
		return -EMSGSIZE;
	if (c->has_expdev && put_expdev(skb, &c->expdev))
		return -EMSGSIZE;
	for (i = 0; i < PCI_STD_NUM_BARS; i++)
		if (c->bar[i].flags && put_bar(skb, i, &c->bar[i]))
			return -EMSGSIZE;
	return 0;
}
