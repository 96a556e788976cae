// SPDX-License-Identifier: GPL-2.0
/* DEV_GET reply attributes for what VFIO's reset and SR-IOV checks read. */
#include <net/genetlink.h>
#include <linux/pcieaudit.h>

#include "netlink_internal.h"
#include "passthru_facts.h"

static int put_vf_bar(struct sk_buff *skb, unsigned int index,
		      const struct pcieaudit_vf_bar *b)
{
	struct nlattr *nest = nla_nest_start(skb, PCIEAUDIT_A_SRIOV_VF_BAR);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(skb, PCIEAUDIT_A_VF_BAR_INDEX, index) ||
	    nla_put_u32(skb, PCIEAUDIT_A_VF_BAR_REG, b->reg) ||
	    (b->has_res &&
	     (nla_put_u64_64bit(skb, PCIEAUDIT_A_VF_BAR_SIZE, b->size,
				PCIEAUDIT_A_VF_BAR_PAD) ||
	      nla_put_u32(skb, PCIEAUDIT_A_VF_BAR_FLAGS, b->flags)))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int put_sriov(struct sk_buff *skb, const struct pcieaudit_sriov *s)
{
	struct nlattr *nest = nla_nest_start(skb, PCIEAUDIT_A_PASSTHRU_SRIOV);
	unsigned int i;

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u16(skb, PCIEAUDIT_A_SRIOV_POS, s->pos) ||
	    nla_put_u16(skb, PCIEAUDIT_A_SRIOV_INITIAL_VFS, s->initial_vfs) ||
	    nla_put_u16(skb, PCIEAUDIT_A_SRIOV_TOTAL_VFS, s->total_vfs) ||
	    nla_put_u16(skb, PCIEAUDIT_A_SRIOV_NUM_VFS, s->num_vfs) ||
	    nla_put_u16(skb, PCIEAUDIT_A_SRIOV_VF_OFFSET, s->vf_offset) ||
	    nla_put_u16(skb, PCIEAUDIT_A_SRIOV_VF_STRIDE, s->vf_stride) ||
	    (s->has_kernel_num_vfs &&
	     nla_put_u16(skb, PCIEAUDIT_A_SRIOV_KERNEL_NUM_VFS,
			 s->kernel_num_vfs)))
		goto cancel;
	for (i = 0; i < PCI_SRIOV_NUM_BARS; i++)
		if (put_vf_bar(skb, i, &s->bar[i]))
			goto cancel;
	nla_nest_end(skb, nest);
	return 0;

cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/**
 * pcieaudit_nl_passthru_size - room pcieaudit_nl_put_passthru() needs at most
 *
 * Return: bytes, with every register and the SR-IOV capability present.
 */
size_t pcieaudit_nl_passthru_size(void)
{
	size_t vf_bar = nla_total_size(0) + nla_total_size(sizeof(u8)) +
			2 * nla_total_size(sizeof(u32)) +
			nla_total_size_64bit(sizeof(u64));

	return nla_total_size(0) +					/* passthru */
	       nla_total_size_64bit(sizeof(u64)) +		/* reset methods */
	       2 * nla_total_size(sizeof(u16)) +		/* pmcsr, devctl2 */
	       nla_total_size(sizeof(u8)) + nla_total_size(sizeof(u32)) +
	       nla_total_size(0) + 7 * nla_total_size(sizeof(u16)) +	/* sriov */
	       PCI_SRIOV_NUM_BARS * vf_bar;
}

/**
 * pcieaudit_nl_put_passthru - the PASSTHRU nest, sent for every function
 * @skb: the DEV_GET message being built
 * @p: what pcieaudit_passthru_read() found; all zero when configuration
 *	space was unreadable, which leaves the nest empty
 *
 * Return: 0, or -EMSGSIZE when @skb is full.
 */
int pcieaudit_nl_put_passthru(struct sk_buff *skb,
			      const struct pcieaudit_passthru *p)
{
	struct nlattr *nest = nla_nest_start(skb, PCIEAUDIT_A_DEV_PASSTHRU);

	if (!nest)
		return -EMSGSIZE;
	if ((p->has_pmcsr &&
	     nla_put_u16(skb, PCIEAUDIT_A_PASSTHRU_PMCSR, p->pmcsr)) ||
	    (p->has_af_cap &&
	     nla_put_u8(skb, PCIEAUDIT_A_PASSTHRU_AF_CAP, p->af_cap)) ||
	    (p->has_devcap2 &&
	     (nla_put_u32(skb, PCIEAUDIT_A_PASSTHRU_DEVCAP2, p->devcap2) ||
	      nla_put_u16(skb, PCIEAUDIT_A_PASSTHRU_DEVCTL2, p->devctl2))) ||
	    (p->has_sriov && put_sriov(skb, &p->sriov)) ||
	    (p->has_reset_key &&
	     nla_put_u64_64bit(skb, PCIEAUDIT_A_PASSTHRU_RESET_METHODS,
			       p->reset_key, PCIEAUDIT_A_PASSTHRU_PAD))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}
