// SPDX-License-Identifier: GPL-2.0
#include "decode_caps.h"

#include <errno.h>
#include <string.h>
#include <netlink/attr.h>
#include <linux/pcieaudit.h>

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
	return 0;
}

int pa_decode_device_caps(struct nlattr *head, int len, struct nlattr *ats,
			  struct nlattr *expdev,
			  const struct pa_caps_policies *pol, struct pa_device *d)
{
	struct pa_device t = *d;
	struct nlattr *nla;
	int rem, err = 0;

	t.nbars = 0;
	if (ats)
		err = decode_ats(ats, pol->ats, &t);
	if (!err && expdev)
		err = decode_expdev(expdev, pol->expdev, &t);
	nla_for_each_attr(nla, head, len, rem) {
		if (err)
			break;
		if (nla_type(nla) == PCIEAUDIT_A_DEV_BAR)
			err = decode_bar(nla, pol->bar, &t);
	}
	if (err)
		return err;
	/* A module that knows these attributes sends EXPDEV for every
	 * readable PCIe function, and BARs wherever the kernel has any. */
	t.caps_known = t.has_expdev || t.has_ats || t.nbars;
	*d = t;
	return 0;
}
