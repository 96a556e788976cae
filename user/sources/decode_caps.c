// SPDX-License-Identifier: GPL-2.0
#include "decode_caps.h"

#include <errno.h>
#include <string.h>
#include <netlink/attr.h>
#include <linux/pcieaudit.h>

#include "config_space.h"
#include "passthru.h"

/* nla_parse() of a nest, and no bytes after its last whole attribute. */
static int parse(struct nlattr **tb, int max, struct nlattr *nest,
		 const struct nla_policy *policy)
{
	struct nlattr *nla;
	int rem;

	if (nla_parse(tb, max, nla_data(nest), nla_len(nest),
		      (struct nla_policy *)policy) < 0)
		return -EBADMSG;
	nla_for_each_attr(nla, nla_data(nest), nla_len(nest), rem)
		;
	return rem > 0 ? -EBADMSG : 0;
}

static int decode_ats(struct nlattr *nest, const struct nla_policy *policy,
		      struct pa_device *d)
{
	struct nlattr *tb[PCIEAUDIT_A_ATS_MAX + 1];
	int err = parse(tb, PCIEAUDIT_A_ATS_MAX, nest, policy);

	if (err)
		return err;
	if (!tb[PCIEAUDIT_A_ATS_CAP] || !tb[PCIEAUDIT_A_ATS_CTRL])
		return -EBADMSG;
	d->has_ats = true;
	d->ats_cap = nla_get_u16(tb[PCIEAUDIT_A_ATS_CAP]);
	d->ats_ctrl = nla_get_u16(tb[PCIEAUDIT_A_ATS_CTRL]);
	return 0;
}

static int decode_expdev(struct nlattr *nest, const struct nla_policy *policy,
			 struct pa_device *d)
{
	struct nlattr *tb[PCIEAUDIT_A_EXPDEV_MAX + 1];
	int err = parse(tb, PCIEAUDIT_A_EXPDEV_MAX, nest, policy);

	if (err)
		return err;
	if (!tb[PCIEAUDIT_A_EXPDEV_DEVCAP] || !tb[PCIEAUDIT_A_EXPDEV_DEVCTL])
		return -EBADMSG;
	d->has_expdev = true;
	d->devcap = nla_get_u32(tb[PCIEAUDIT_A_EXPDEV_DEVCAP]);
	d->devctl = nla_get_u16(tb[PCIEAUDIT_A_EXPDEV_DEVCTL]);
	return 0;
}

static int decode_bar(struct nlattr *nest, const struct nla_policy *policy,
		      struct pa_device *d)
{
	struct nlattr *tb[PCIEAUDIT_A_BAR_MAX + 1];
	int err = parse(tb, PCIEAUDIT_A_BAR_MAX, nest, policy);
	struct pa_bar *b;

	if (err)
		return err;
	if (!tb[PCIEAUDIT_A_BAR_INDEX] || !tb[PCIEAUDIT_A_BAR_SIZE] ||
	    !tb[PCIEAUDIT_A_BAR_FLAGS] ||
	    nla_get_u8(tb[PCIEAUDIT_A_BAR_INDEX]) >= PA_MAX_BARS ||
	    d->nbars >= PA_MAX_BARS)
		return -EBADMSG;
	/* The module sends them in index order, each once. */
	if (d->nbars &&
	    d->bars[d->nbars - 1].index >= nla_get_u8(tb[PCIEAUDIT_A_BAR_INDEX]))
		return -EBADMSG;
	b = &d->bars[d->nbars++];
	b->index = nla_get_u8(tb[PCIEAUDIT_A_BAR_INDEX]);
	b->size = nla_get_u64(tb[PCIEAUDIT_A_BAR_SIZE]);
	b->flags = nla_get_u32(tb[PCIEAUDIT_A_BAR_FLAGS]);
	b->resizable = tb[PCIEAUDIT_A_BAR_REBAR_CAP] &&
		       tb[PCIEAUDIT_A_BAR_REBAR_CTRL];
	if (b->resizable) {
		b->rebar_cap = nla_get_u32(tb[PCIEAUDIT_A_BAR_REBAR_CAP]);
		b->rebar_ctrl = nla_get_u32(tb[PCIEAUDIT_A_BAR_REBAR_CTRL]);
	}
	/* Sent by modules that know it, for an assigned BAR. */
	b->has_start = tb[PCIEAUDIT_A_BAR_START] != NULL;
	if (b->has_start)
		b->start = nla_get_u64(tb[PCIEAUDIT_A_BAR_START]);
	return 0;
}

/* One VF BAR: its register into regs, the kernel's resource into res;
 * *with_res stays true while every one has it. */
static int decode_vf_bar(struct nlattr *nest, const struct pa_caps_policies *pol,
			 uint8_t regs[4 * PA_MAX_BARS], struct pa_vf_res *res,
			 bool *with_res, unsigned int *next)
{
	struct nlattr *tb[PCIEAUDIT_A_VF_BAR_MAX + 1];
	int err = parse(tb, PCIEAUDIT_A_VF_BAR_MAX, nest, pol->vf_bar);
	unsigned int i;
	uint32_t reg, flags;

	if (err)
		return err;
	/* All six, once each, in index order. */
	if (!tb[PCIEAUDIT_A_VF_BAR_INDEX] || !tb[PCIEAUDIT_A_VF_BAR_REG] ||
	    nla_get_u8(tb[PCIEAUDIT_A_VF_BAR_INDEX]) != *next ||
	    *next >= PA_MAX_BARS ||
	    !tb[PCIEAUDIT_A_VF_BAR_SIZE] != !tb[PCIEAUDIT_A_VF_BAR_FLAGS])
		return -EBADMSG;
	i = (*next)++;
	reg = nla_get_u32(tb[PCIEAUDIT_A_VF_BAR_REG]);
	for (unsigned int b = 0; b < 4; b++)
		regs[4 * i + b] = (uint8_t)(reg >> (8 * b));
	if (!tb[PCIEAUDIT_A_VF_BAR_SIZE]) {
		*with_res = false;
		return 0;
	}
	flags = nla_get_u32(tb[PCIEAUDIT_A_VF_BAR_FLAGS]);
	res[i].sized = (flags & PCIEAUDIT_BAR_F_MEM) &&
		       nla_get_u64(tb[PCIEAUDIT_A_VF_BAR_SIZE]);
	res[i].unset = flags & PCIEAUDIT_BAR_F_UNASSIGNED;
	return 0;
}

static int decode_sriov(struct nlattr *nest, const struct pa_caps_policies *pol,
			struct pa_config *c, struct pa_vf_res *res,
			bool *with_res, int *num_vfs)
{
	struct nlattr *tb[PCIEAUDIT_A_SRIOV_MAX + 1];
	uint8_t regs[4 * PA_MAX_BARS] = { 0 };
	int err = parse(tb, PCIEAUDIT_A_SRIOV_MAX, nest, pol->sriov);
	unsigned int next = 0;
	struct nlattr *nla;
	int rem;

	if (err)
		return err;
	if (!tb[PCIEAUDIT_A_SRIOV_TOTAL_VFS] || !tb[PCIEAUDIT_A_SRIOV_INITIAL_VFS] ||
	    !tb[PCIEAUDIT_A_SRIOV_NUM_VFS] || !tb[PCIEAUDIT_A_SRIOV_VF_OFFSET] ||
	    !tb[PCIEAUDIT_A_SRIOV_VF_STRIDE])
		return -EBADMSG;
	c->sriov = true;
	c->initial_vfs = nla_get_u16(tb[PCIEAUDIT_A_SRIOV_INITIAL_VFS]);
	c->total_vfs = nla_get_u16(tb[PCIEAUDIT_A_SRIOV_TOTAL_VFS]);
	c->num_vfs = nla_get_u16(tb[PCIEAUDIT_A_SRIOV_NUM_VFS]);
	c->vf_offset = nla_get_u16(tb[PCIEAUDIT_A_SRIOV_VF_OFFSET]);
	c->vf_stride = nla_get_u16(tb[PCIEAUDIT_A_SRIOV_VF_STRIDE]);
	if (tb[PCIEAUDIT_A_SRIOV_KERNEL_NUM_VFS])
		*num_vfs = nla_get_u16(tb[PCIEAUDIT_A_SRIOV_KERNEL_NUM_VFS]);
	*with_res = true;
	/* VF_BAR repeats, so parse() kept only the last one. */
	nla_for_each_attr(nla, nla_data(nest), nla_len(nest), rem) {
		if (nla_type(nla) != PCIEAUDIT_A_SRIOV_VF_BAR)
			continue;
		err = decode_vf_bar(nla, pol, regs, res, with_res, &next);
		if (err)
			return err;
	}
	if (next != PA_MAX_BARS)
		return -EBADMSG;
	pa_config_decode_vf_bars(regs, c->vf_bar_regs);
	return 0;
}

int pa_decode_device_passthru(struct nlattr *nest,
			      const struct pa_caps_policies *pol,
			      struct pa_device *d)
{
	struct nlattr *tb[PCIEAUDIT_A_PASSTHRU_MAX + 1];
	struct pa_config c = { .no_soft_reset = -1, .af_flr = -1 };
	struct pa_vf_res res[PA_MAX_BARS] = { 0 };
	bool with_res = false;
	int num_vfs = -1, err;
	if (!nest)
		return 0;
	err = parse(tb, PCIEAUDIT_A_PASSTHRU_MAX, nest, pol->passthru);
	if (err)
		return err;
	if (!tb[PCIEAUDIT_A_PASSTHRU_DEVCAP2] != !tb[PCIEAUDIT_A_PASSTHRU_DEVCTL2])
		return -EBADMSG;
	d->pt_from_module = true;
	d->has_reset_key = tb[PCIEAUDIT_A_PASSTHRU_RESET_METHODS] != NULL;
	if (d->has_reset_key)
		d->reset_key = nla_get_u64(tb[PCIEAUDIT_A_PASSTHRU_RESET_METHODS]);
	/* Unreadable registers: every VFIO fact unknown, as from sysfs. */
	if (d->config_unreadable)
		return 0;
	if (tb[PCIEAUDIT_A_PASSTHRU_PMCSR])
		c.no_soft_reset = pa_config_no_soft_reset(
			nla_get_u16(tb[PCIEAUDIT_A_PASSTHRU_PMCSR]));
	if (tb[PCIEAUDIT_A_PASSTHRU_AF_CAP])
		c.af_flr = pa_config_af_flr(
			nla_get_u8(tb[PCIEAUDIT_A_PASSTHRU_AF_CAP]));
	c.has_devcap2 = tb[PCIEAUDIT_A_PASSTHRU_DEVCAP2] != NULL;
	if (c.has_devcap2) {
		c.devcap2 = nla_get_u32(tb[PCIEAUDIT_A_PASSTHRU_DEVCAP2]);
		c.devctl2 = nla_get_u16(tb[PCIEAUDIT_A_PASSTHRU_DEVCTL2]);
	}
	if (tb[PCIEAUDIT_A_PASSTHRU_SRIOV]) {
		err = decode_sriov(tb[PCIEAUDIT_A_PASSTHRU_SRIOV], pol, &c, res,
				   &with_res, &num_vfs);
		if (err) {
			d->pt_from_module = false;
			return err;
		}
	}
	pa_passthru_set(&c, with_res ? res : NULL, num_vfs, &d->pt);
	return 0;
}

int pa_decode_device_caps(struct nlattr *head, int len, struct nlattr *ats,
			  struct nlattr *expdev,
			  const struct pa_caps_policies *pol, struct pa_device *d)
{
	struct nlattr *nla;
	int rem, err = 0;

	d->nbars = 0;
	if (ats)
		err = decode_ats(ats, pol->ats, d);
	if (!err && expdev)
		err = decode_expdev(expdev, pol->expdev, d);
	nla_for_each_attr(nla, head, len, rem) {
		if (err)
			break;
		if (nla_type(nla) == PCIEAUDIT_A_DEV_BAR)
			err = decode_bar(nla, pol->bar, d);
	}
	if (err)
		return err;
	/* A module that knows these attributes sends EXPDEV for every
	 * readable PCIe function, and BARs wherever the kernel has any. */
	d->caps_known = d->has_expdev || d->has_ats || d->nbars;
	return 0;
}
