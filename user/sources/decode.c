// SPDX-License-Identifier: GPL-2.0
#include "decode.h"
#include "decode_caps.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/genl/genl.h>
#include <linux/pcieaudit.h>

/* The reply policies, generated from the protocol's spec (docs/protocol.md). */
#include "policy_gen.h"

static const struct pa_caps_policies caps_policies = {
	.ats = pcieaudit_ats_reply_policy,
	.expdev = pcieaudit_expdev_reply_policy,
	.bar = pcieaudit_bar_reply_policy,
	.passthru = pcieaudit_passthru_reply_policy,
	.sriov = pcieaudit_sriov_reply_policy,
	.vf_bar = pcieaudit_vf_bar_reply_policy,
};

static const struct nla_policy extack_policy[NLMSGERR_ATTR_MAX + 1] = {
	[NLMSGERR_ATTR_MSG]	= { .type = NLA_STRING },
};

/*
 * nla_parse(), plus the check libnl leaves out: bytes after the last whole
 * attribute. The kernel never sends any, so they mean an attribute was cut.
 */
static int parse_attrs(struct nlattr **tb, int max, struct nlattr *head,
		       int len, const struct nla_policy *policy)
{
	struct nlattr *nla;
	int rem;

	if (nla_parse(tb, max, head, len, policy) < 0)
		return -EBADMSG;
	nla_for_each_attr(nla, head, len, rem)
		;
	return rem > 0 ? -EBADMSG : 0;
}

static int parse_nest(struct nlattr **tb, int max, struct nlattr *nest,
		      const struct nla_policy *policy)
{
	return parse_attrs(tb, max, nla_data(nest), nla_len(nest), policy);
}

static int parse_genl(struct nl_msg *msg, struct nlattr **tb, int max,
		      const struct nla_policy *policy)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gnlh;

	if (!genlmsg_valid_hdr(nlh, 0))
		return -EBADMSG;
	gnlh = genlmsg_hdr(nlh);
	return parse_attrs(tb, max, genlmsg_attrdata(gnlh, 0),
			   genlmsg_attrlen(gnlh, 0), policy);
}

static int dup_string(const struct nlattr *nla, char **out)
{
	*out = NULL;
	if (!nla)
		return 0;
	*out = strdup(nla_get_string(nla));
	return *out ? 0 : -ENOMEM;
}

static uint8_t get_u8(struct nlattr *nla)
{
	return nla ? nla_get_u8(nla) : 0;
}

static uint16_t get_u16(struct nlattr *nla)
{
	return nla ? nla_get_u16(nla) : 0;
}

static uint32_t get_u32(struct nlattr *nla)
{
	return nla ? nla_get_u32(nla) : 0;
}

/*
 * About ten per P2P pair, so read in place rather than through nla_parse()
 * (a fifth of topo's time went to parsing): the rules of the spec's addr
 * set, exact sizes, the last of repeated attributes wins, unknown ones are
 * skipped, and trailing bytes are corrupt.
 */
static int decode_addr(struct nlattr *nest, struct pa_addr *addr)
{
	static const int size[PCIEAUDIT_A_ADDR_MAX + 1] = {
		[PCIEAUDIT_A_ADDR_DOMAIN] = 4,
		[PCIEAUDIT_A_ADDR_BUS] = 1,
		[PCIEAUDIT_A_ADDR_DEVFN] = 1,
	};
	struct nlattr *tb[PCIEAUDIT_A_ADDR_MAX + 1] = { NULL };
	struct nlattr *a;
	int rem;

	if (!nest)
		return -EBADMSG;
	nla_for_each_nested(a, nest, rem) {
		int type = nla_type(a);

		if (type > PCIEAUDIT_A_ADDR_MAX || !size[type])
			continue;
		if (nla_len(a) != size[type])
			return -EBADMSG;
		tb[type] = a;
	}
	if (rem > 0 || !tb[PCIEAUDIT_A_ADDR_DOMAIN] ||
	    !tb[PCIEAUDIT_A_ADDR_BUS] || !tb[PCIEAUDIT_A_ADDR_DEVFN])
		return -EBADMSG;
	addr->domain = nla_get_u32(tb[PCIEAUDIT_A_ADDR_DOMAIN]);
	addr->bus = nla_get_u8(tb[PCIEAUDIT_A_ADDR_BUS]);
	addr->devfn = nla_get_u8(tb[PCIEAUDIT_A_ADDR_DEVFN]);
	return 0;
}

static int decode_optional_addr(struct nlattr *nest, bool *present,
				struct pa_addr *addr)
{
	*present = nest != NULL;
	return nest ? decode_addr(nest, addr) : 0;
}

static int decode_acs(struct nlattr *nest, struct pa_acs *acs)
{
	struct nlattr *tb[PCIEAUDIT_A_ACS_MAX + 1];
	int err = parse_nest(tb, PCIEAUDIT_A_ACS_MAX, nest, pcieaudit_acs_reply_policy);

	if (err)
		return err;
	if (!tb[PCIEAUDIT_A_ACS_POS] || !tb[PCIEAUDIT_A_ACS_CAP] ||
	    !tb[PCIEAUDIT_A_ACS_CTRL])
		return -EBADMSG;
	acs->pos = nla_get_u16(tb[PCIEAUDIT_A_ACS_POS]);
	acs->cap = nla_get_u16(tb[PCIEAUDIT_A_ACS_CAP]);
	acs->ctrl = nla_get_u16(tb[PCIEAUDIT_A_ACS_CTRL]);
	/* Modules before ACS drift tracking leave it out. */
	acs->has_ctrl_at_load = tb[PCIEAUDIT_A_ACS_CTRL_AT_LOAD] != NULL;
	acs->ctrl_at_load = get_u16(tb[PCIEAUDIT_A_ACS_CTRL_AT_LOAD]);
	return 0;
}

static int decode_link(struct nlattr *nest, struct pa_link *link)
{
	struct nlattr *tb[PCIEAUDIT_A_LINK_MAX + 1];
	int err = parse_nest(tb, PCIEAUDIT_A_LINK_MAX, nest, pcieaudit_link_reply_policy);

	if (err)
		return err;
	if (!tb[PCIEAUDIT_A_LINK_LNKCAP] || !tb[PCIEAUDIT_A_LINK_LNKSTA])
		return -EBADMSG;
	link->lnkcap = nla_get_u32(tb[PCIEAUDIT_A_LINK_LNKCAP]);
	link->lnksta = nla_get_u16(tb[PCIEAUDIT_A_LINK_LNKSTA]);
	link->has_lnkctl2 = tb[PCIEAUDIT_A_LINK_LNKCTL2] != NULL;
	link->lnkctl2 = get_u16(tb[PCIEAUDIT_A_LINK_LNKCTL2]);
	return 0;
}

static int decode_iommu(struct nlattr *nest, struct pa_iommu *iommu)
{
	struct nlattr *tb[PCIEAUDIT_A_IOMMU_MAX + 1];
	int err = parse_nest(tb, PCIEAUDIT_A_IOMMU_MAX, nest, pcieaudit_iommu_reply_policy);

	if (err)
		return err;
	if (!tb[PCIEAUDIT_A_IOMMU_GROUP])
		return -EBADMSG;
	iommu->group = nla_get_u32(tb[PCIEAUDIT_A_IOMMU_GROUP]);
	iommu->domain = get_u32(tb[PCIEAUDIT_A_IOMMU_DOMAIN]);
	iommu->def_domain = get_u32(tb[PCIEAUDIT_A_IOMMU_DEF_DOMAIN]);
	iommu->def_domain_source =
		get_u32(tb[PCIEAUDIT_A_IOMMU_DEF_DOMAIN_SOURCE]);
	iommu->dma_owner = get_u32(tb[PCIEAUDIT_A_IOMMU_DMA_OWNER]);
	return dup_string(tb[PCIEAUDIT_A_IOMMU_INSTANCE], &iommu->instance);
}

int pa_decode_info(struct nl_msg *msg, struct pa_info *info)
{
	struct nlattr *tb[PCIEAUDIT_A_INFO_MAX + 1];
	struct pa_info in = { 0 };
	int err = parse_genl(msg, tb, PCIEAUDIT_A_INFO_MAX, pcieaudit_info_reply_policy);

	if (err)
		return err;
	/* The ABI sends these unconditionally. */
	if (!tb[PCIEAUDIT_A_INFO_MODULE_VERSION] ||
	    !tb[PCIEAUDIT_A_INFO_KERNEL_RELEASE] ||
	    !tb[PCIEAUDIT_A_INFO_FEATURES] ||
	    !tb[PCIEAUDIT_A_INFO_DEVICE_COUNT] ||
	    !tb[PCIEAUDIT_A_INFO_GROUP_COUNT])
		return -EBADMSG;
	in.features = nla_get_u32(tb[PCIEAUDIT_A_INFO_FEATURES]);
	in.iommu_def_mode = get_u32(tb[PCIEAUDIT_A_INFO_IOMMU_DEF_MODE]);
	in.iommu_strict = get_u32(tb[PCIEAUDIT_A_INFO_IOMMU_STRICT]);
	in.device_count = nla_get_u32(tb[PCIEAUDIT_A_INFO_DEVICE_COUNT]);
	in.group_count = nla_get_u32(tb[PCIEAUDIT_A_INFO_GROUP_COUNT]);
	err = dup_string(tb[PCIEAUDIT_A_INFO_MODULE_VERSION], &in.module_version);
	if (!err)
		err = dup_string(tb[PCIEAUDIT_A_INFO_KERNEL_RELEASE],
				 &in.kernel_release);
	if (!err)
		err = dup_string(tb[PCIEAUDIT_A_INFO_P2P_RULES], &in.p2p_rules);
	if (err) {
		pa_info_clear(&in);
		return err;
	}
	*info = in;
	return 0;
}

/* Scalars may be absent (a disconnected function has no registers left to
 * read); they then keep the defaults pa_device_clear() sets. */
static void decode_device_scalars(struct nlattr **tb, struct pa_device *d)
{
	d->vendor = get_u16(tb[PCIEAUDIT_A_DEV_VENDOR]);
	d->device = get_u16(tb[PCIEAUDIT_A_DEV_DEVICE]);
	d->subsys_vendor = get_u16(tb[PCIEAUDIT_A_DEV_SUBSYS_VENDOR]);
	d->subsys_device = get_u16(tb[PCIEAUDIT_A_DEV_SUBSYS_DEVICE]);
	d->class = get_u32(tb[PCIEAUDIT_A_DEV_CLASS]) & 0xffffff;
	d->revision = get_u8(tb[PCIEAUDIT_A_DEV_REVISION]);
	d->flags = get_u32(tb[PCIEAUDIT_A_DEV_FLAGS]);
	if (tb[PCIEAUDIT_A_DEV_PCIE_TYPE])
		d->pcie_type = nla_get_u8(tb[PCIEAUDIT_A_DEV_PCIE_TYPE]);
	if (tb[PCIEAUDIT_A_DEV_NUMA_NODE])
		d->numa_node = nla_get_s32(tb[PCIEAUDIT_A_DEV_NUMA_NODE]);
	d->has_secondary_bus = tb[PCIEAUDIT_A_DEV_SECONDARY_BUS] != NULL;
	d->secondary_bus = get_u8(tb[PCIEAUDIT_A_DEV_SECONDARY_BUS]);
	/* A state newer than this CLI stays as it is: printed as unknown. */
	d->power_state = get_u32(tb[PCIEAUDIT_A_DEV_POWER_STATE]);
	/* Disconnected functions had unreadable registers before modules
	 * said so. */
	d->config_unreadable = tb[PCIEAUDIT_A_DEV_CONFIG_UNREADABLE] != NULL ||
			       (d->flags & PCIEAUDIT_DEV_F_DISCONNECTED);
}

static uint64_t get_u64(struct nlattr *nla)
{
	return nla ? nla_get_u64(nla) : 0;
}

/* The sampler's history; what it always sends is required. */
static int decode_history(struct nlattr *nest, struct pa_link_history *h)
{
	struct nlattr *tb[PCIEAUDIT_A_HIST_MAX + 1];
	int err = parse_nest(tb, PCIEAUDIT_A_HIST_MAX, nest,
			      pcieaudit_hist_reply_policy);

	if (err)
		return err;
	if (!tb[PCIEAUDIT_A_HIST_SINCE_NS] || !tb[PCIEAUDIT_A_HIST_TRANSITIONS] ||
	    !tb[PCIEAUDIT_A_HIST_BELOW_NS] || !tb[PCIEAUDIT_A_HIST_INTERVAL_MS])
		return -EBADMSG;
	*h = (struct pa_link_history){
		.since_ns = get_u64(tb[PCIEAUDIT_A_HIST_SINCE_NS]),
		.transitions = get_u64(tb[PCIEAUDIT_A_HIST_TRANSITIONS]),
		.below_ns = get_u64(tb[PCIEAUDIT_A_HIST_BELOW_NS]),
		.last_change_ns = get_u64(tb[PCIEAUDIT_A_HIST_LAST_CHANGE_NS]),
		.has_min = tb[PCIEAUDIT_A_HIST_MIN_SPEED] &&
			   tb[PCIEAUDIT_A_HIST_MIN_WIDTH],
		.min_speed = get_u8(tb[PCIEAUDIT_A_HIST_MIN_SPEED]),
		.min_width = get_u8(tb[PCIEAUDIT_A_HIST_MIN_WIDTH]),
		.interval_ms = get_u32(tb[PCIEAUDIT_A_HIST_INTERVAL_MS]),
		.unsampled_ns = get_u64(tb[PCIEAUDIT_A_HIST_UNSAMPLED_NS]),
		.skip = get_u32(tb[PCIEAUDIT_A_HIST_SKIP]),
	};
	return 0;
}

static int decode_device_nests(struct nlattr **tb, struct pa_device *d)
{
	int err;

	err = decode_addr(tb[PCIEAUDIT_A_DEV_ADDR], &d->addr);
	if (err)
		return err;
	err = decode_optional_addr(tb[PCIEAUDIT_A_DEV_UPSTREAM],
				   &d->has_upstream, &d->upstream);
	if (err)
		return err;
	err = decode_optional_addr(tb[PCIEAUDIT_A_DEV_PF], &d->has_pf, &d->pf);
	if (err)
		return err;

	d->has_acs = tb[PCIEAUDIT_A_DEV_ACS] != NULL;
	if (d->has_acs) {
		err = decode_acs(tb[PCIEAUDIT_A_DEV_ACS], &d->acs);
		if (err)
			return err;
	}
	d->has_link = tb[PCIEAUDIT_A_DEV_LINK] != NULL;
	if (d->has_link) {
		err = decode_link(tb[PCIEAUDIT_A_DEV_LINK], &d->link);
		if (err)
			return err;
	}
	d->has_history = tb[PCIEAUDIT_A_DEV_LINK_HISTORY] != NULL;
	if (d->has_history) {
		err = decode_history(tb[PCIEAUDIT_A_DEV_LINK_HISTORY], &d->history);
		if (err)
			return err;
	}
	d->has_iommu = tb[PCIEAUDIT_A_DEV_IOMMU] != NULL;
	if (d->has_iommu)
		return decode_iommu(tb[PCIEAUDIT_A_DEV_IOMMU], &d->iommu);
	return 0;
}

/* Straight into *dev, a report's new slot where the caller has one: a
 * function is 4 KiB, and copying it showed in the dump's profile. */
int pa_decode_device(struct nl_msg *msg, struct pa_device *dev)
{
	struct nlattr *tb[PCIEAUDIT_A_DEV_MAX + 1];
	int err;

	*dev = (struct pa_device){ .pcie_type = -1, .numa_node = -1 };
	err = parse_genl(msg, tb, PCIEAUDIT_A_DEV_MAX, pcieaudit_dev_reply_policy);
	if (err)
		return err;
	decode_device_scalars(tb, dev);
	err = decode_device_nests(tb, dev);
	if (!err)
		err = pa_decode_device_caps(genlmsg_attrdata(genlmsg_hdr(nlmsg_hdr(msg)), 0),
					    genlmsg_attrlen(genlmsg_hdr(nlmsg_hdr(msg)), 0),
					    tb[PCIEAUDIT_A_DEV_ATS],
					    tb[PCIEAUDIT_A_DEV_EXPDEV], &caps_policies, dev);
	if (!err)
		err = pa_decode_device_passthru(tb[PCIEAUDIT_A_DEV_PASSTHRU],
						&caps_policies, dev);
	if (!err)
		err = dup_string(tb[PCIEAUDIT_A_DEV_DRIVER], &dev->driver);
	if (err)
		pa_device_clear(dev);
	return err;
}

static int add_member(struct pa_group *g, struct nlattr *nest)
{
	struct pa_addr addr;
	struct pa_addr *v;
	int err = decode_addr(nest, &addr);

	if (err)
		return err;
	v = realloc(g->members, (g->nmembers + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	g->members = v;
	v[g->nmembers++] = addr;
	return 0;
}

int pa_decode_group(struct nl_msg *msg, struct pa_group *group)
{
	struct nlattr *tb[PCIEAUDIT_A_GROUP_MAX + 1];
	struct genlmsghdr *gnlh;
	struct pa_group g = { 0 };
	struct nlattr *nla;
	int err, rem;

	err = parse_genl(msg, tb, PCIEAUDIT_A_GROUP_MAX, pcieaudit_group_reply_policy);
	if (err)
		return err;
	if (!tb[PCIEAUDIT_A_GROUP_ID])
		return -EBADMSG;
	g.id = nla_get_u32(tb[PCIEAUDIT_A_GROUP_ID]);
	g.other_members = get_u32(tb[PCIEAUDIT_A_GROUP_OTHER_MEMBERS]);

	gnlh = genlmsg_hdr(nlmsg_hdr(msg));
	/* MEMBER repeats, so nla_parse() only kept the last one. */
	nla_for_each_attr(nla, genlmsg_attrdata(gnlh, 0),
			  genlmsg_attrlen(gnlh, 0), rem) {
		if (nla_type(nla) != PCIEAUDIT_A_GROUP_MEMBER)
			continue;
		err = add_member(&g, nla);
		if (err) {
			pa_group_clear(&g);
			return err;
		}
	}
	*group = g;
	return 0;
}

/* Appends a repeated address attribute to the list its type selects. */
static int add_hop(struct pa_p2p_pair *pair, struct nlattr *nla)
{
	struct pa_addr_list *list;
	struct pa_addr addr;
	int err;

	switch (nla_type(nla)) {
	case PCIEAUDIT_A_PAIR_HOP_PROVIDER:
		list = &pair->hops_provider;
		break;
	case PCIEAUDIT_A_PAIR_HOP_CLIENT:
		list = &pair->hops_client;
		break;
	case PCIEAUDIT_A_PAIR_REDIRECT:
		list = &pair->redirect;
		break;
	default:
		return 0;
	}
	err = decode_addr(nla, &addr);
	return err ? err : pa_addr_list_add(list, &addr);
}

/* The hop and redirect lists repeat, and their order matters, so they are
 * read in a walk of their own: nla_parse() keeps only the last of each. */
static int decode_pair_lists(struct nlattr *nest, struct pa_p2p_pair *pair)
{
	struct nlattr *nla;
	int rem, err;

	nla_for_each_nested(nla, nest, rem) {
		err = add_hop(pair, nla);
		if (err)
			return err;
	}
	return 0;
}

/* Every pair carries these; only COMMON, the kernel's distance and the
 * host bridge ids may be absent. */
static bool pair_complete(struct nlattr **tb)
{
	static const int required[] = {
		PCIEAUDIT_A_PAIR_CLIENT, PCIEAUDIT_A_PAIR_KERNEL_STATUS,
		PCIEAUDIT_A_PAIR_DISTANCE, PCIEAUDIT_A_PAIR_PATH_LENGTH,
		PCIEAUDIT_A_PAIR_MAP, PCIEAUDIT_A_PAIR_PATH,
		PCIEAUDIT_A_PAIR_HOST_RULE,
	};

	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (!tb[required[i]])
			return false;
	/* The ABI promises the kernel's distance whenever it answered. */
	return nla_get_u32(tb[PCIEAUDIT_A_PAIR_KERNEL_STATUS]) !=
		PCIEAUDIT_P2P_KERNEL_ANSWERED ||
	       tb[PCIEAUDIT_A_PAIR_KERNEL_DISTANCE];
}

static void decode_pair_scalars(struct nlattr **tb, struct pa_p2p_pair *p)
{
	p->kernel_status = nla_get_u32(tb[PCIEAUDIT_A_PAIR_KERNEL_STATUS]);
	p->has_kernel_distance =
		p->kernel_status == PCIEAUDIT_P2P_KERNEL_ANSWERED;
	if (p->has_kernel_distance)
		p->kernel_distance =
			nla_get_s32(tb[PCIEAUDIT_A_PAIR_KERNEL_DISTANCE]);
	p->distance = nla_get_s32(tb[PCIEAUDIT_A_PAIR_DISTANCE]);
	/* A module before PCIEAUDIT_A_PAIR_AGREEMENT: the same comparison. */
	if (tb[PCIEAUDIT_A_PAIR_AGREEMENT] && p->has_kernel_distance)
		p->agreement = nla_get_u32(tb[PCIEAUDIT_A_PAIR_AGREEMENT]);
	else
		p->agreement = pa_p2p_agreement_of(p);
	p->path_length = nla_get_u32(tb[PCIEAUDIT_A_PAIR_PATH_LENGTH]);
	p->map = nla_get_u32(tb[PCIEAUDIT_A_PAIR_MAP]);
	p->path = nla_get_u32(tb[PCIEAUDIT_A_PAIR_PATH]);
	p->host_rule = nla_get_u32(tb[PCIEAUDIT_A_PAIR_HOST_RULE]);
	p->has_host_bridge_provider =
		tb[PCIEAUDIT_A_PAIR_HOST_BRIDGE_PROVIDER] != NULL;
	p->host_bridge_provider =
		get_u32(tb[PCIEAUDIT_A_PAIR_HOST_BRIDGE_PROVIDER]);
	p->has_host_bridge_client =
		tb[PCIEAUDIT_A_PAIR_HOST_BRIDGE_CLIENT] != NULL;
	p->host_bridge_client = get_u32(tb[PCIEAUDIT_A_PAIR_HOST_BRIDGE_CLIENT]);
}

/* One PAIR nest into *pair, which the caller clears on failure. */
static int decode_pair(struct nlattr *nest, const struct pa_addr *provider,
		       struct pa_p2p_pair *pair)
{
	struct nlattr *tb[PCIEAUDIT_A_PAIR_MAX + 1];
	int err = parse_nest(tb, PCIEAUDIT_A_PAIR_MAX, nest, pcieaudit_pair_reply_policy);

	if (err)
		return err;
	if (!pair_complete(tb))
		return -EBADMSG;
	pair->provider = *provider;
	err = decode_addr(tb[PCIEAUDIT_A_PAIR_CLIENT], &pair->client);
	if (!err)
		err = decode_optional_addr(tb[PCIEAUDIT_A_PAIR_COMMON],
					   &pair->has_common, &pair->common);
	if (err)
		return err;
	decode_pair_scalars(tb, pair);
	return decode_pair_lists(nest, pair);
}

static int add_pair(struct pa_p2p *p2p, struct nlattr *nest,
		    const struct pa_addr *provider)
{
	struct pa_p2p_pair pair = { 0 };
	int err = decode_pair(nest, provider, &pair);

	if (!err)
		err = pa_p2p_add(p2p, &pair);
	if (err)
		pa_p2p_pair_clear(&pair);
	return err;
}

/* PAIR repeats (one per client of a do request), in request order. */
static int decode_pairs(struct nl_msg *msg, const struct pa_addr *provider,
			struct pa_p2p *p2p)
{
	struct genlmsghdr *gnlh = genlmsg_hdr(nlmsg_hdr(msg));
	struct nlattr *nla;
	int rem, err;

	nla_for_each_attr(nla, genlmsg_attrdata(gnlh, 0),
			  genlmsg_attrlen(gnlh, 0), rem) {
		if (nla_type(nla) != PCIEAUDIT_A_P2P_PAIR)
			continue;
		err = add_pair(p2p, nla, provider);
		if (err)
			return err;
	}
	/* A reply answers at least one client. */
	return p2p->npairs ? 0 : -EBADMSG;
}

int pa_decode_p2p(struct nl_msg *msg, struct pa_p2p *p2p)
{
	struct nlattr *tb[PCIEAUDIT_A_P2P_MAX + 1];
	struct pa_p2p p = { 0 };
	struct pa_addr provider;
	int err = parse_genl(msg, tb, PCIEAUDIT_A_P2P_MAX, pcieaudit_p2p_reply_policy);

	if (err)
		return err;
	err = decode_addr(tb[PCIEAUDIT_A_P2P_PROVIDER], &provider);
	if (err)
		return err;
	p.has_kernel_distance = tb[PCIEAUDIT_A_P2P_KERNEL_DISTANCE] != NULL;
	if (p.has_kernel_distance)
		p.kernel_distance =
			nla_get_s32(tb[PCIEAUDIT_A_P2P_KERNEL_DISTANCE]);
	err = decode_pairs(msg, &provider, &p);
	if (err) {
		pa_p2p_clear(&p);
		return err;
	}
	*p2p = p;
	return 0;
}

int pa_decode_done_error(const struct nlmsghdr *nlh)
{
	int err;

	if (nlmsg_datalen(nlh) < (int)sizeof(err))
		return 0;
	memcpy(&err, nlmsg_data(nlh), sizeof(err));
	return err < 0 ? err : 0;
}

/* Bytes before the extended ack attributes: struct nlmsgerr and, unless the
 * kernel capped it, the payload of the request it echoes; for NLMSG_DONE the
 * error code. Negative when the message is too short to tell. */
static int extack_offset(const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = nlmsg_data(nlh);
	int len = nlmsg_datalen(nlh);
	int off;

	if (nlh->nlmsg_type == NLMSG_DONE)
		return (int)sizeof(int);
	if (nlh->nlmsg_type != NLMSG_ERROR || len < (int)sizeof(*e))
		return -1;
	off = (int)sizeof(*e);
	if (nlh->nlmsg_flags & NLM_F_CAPPED)
		return off;
	/* The echoed length comes off the wire: bound it before adding. */
	if (e->msg.nlmsg_len < NLMSG_HDRLEN ||
	    e->msg.nlmsg_len - NLMSG_HDRLEN > (uint32_t)(len - off))
		return -1;
	return off + (int)(e->msg.nlmsg_len - NLMSG_HDRLEN);
}

void pa_decode_extack(const struct nlmsghdr *nlh, char *buf, size_t size)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	int len = nlmsg_datalen(nlh);
	int off = extack_offset(nlh);

	buf[0] = '\0';
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || off < 0)
		return;
	off = NLMSG_ALIGN(off);
	if (off > len)
		return;
	if (parse_attrs(tb, NLMSGERR_ATTR_MAX,
			(struct nlattr *)((char *)nlmsg_data(nlh) + off),
			len - off, extack_policy) < 0 ||
	    !tb[NLMSGERR_ATTR_MSG])
		return;
	nla_strlcpy(buf, tb[NLMSGERR_ATTR_MSG], size);
}
