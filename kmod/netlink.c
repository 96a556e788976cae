// SPDX-License-Identifier: GPL-2.0
/*
 * The "pcieaudit" generic-netlink family: handlers, and the translation of
 * kernel facts into attributes. The policies are generated from the
 * protocol's spec (policy_gen.c). The facts themselves are
 * read by dev_facts.c and iommu_facts.c.
 *
 * Handlers hold pci_lock_rescan_remove() only within one call, never across
 * dump parts, so a reader that stops reading cannot block hot-plug.
 */
#include <linux/capability.h>
#include <linux/net.h>
#include <linux/pci.h>
#include <linux/user_namespace.h>
#include <linux/utsname.h>
#include <net/genetlink.h>
#include <net/sock.h>
#include <linux/pcieaudit.h>

#include "dev_facts.h"
#include "iommu_facts.h"
#include "mon_history.h"
#include "monitor.h"
#include "p2p_path.h"
#include "netlink.h"
#include "netlink_internal.h"
#include "pci_walk.h"
#include "policy_gen.h"
#include "version.h"

/* permission */

/*
 * Whether the request's socket was opened by a task holding @cap in the
 * initial user namespace: the credentials the socket's file keeps from
 * socket(2), whoever sends on it now. A socket without a file (a kernel
 * socket) or no longer attached to one holds no capability.
 */
static bool pcieaudit_nl_opener_capable(const struct sk_buff *skb, int cap)
{
	const struct sock *sk = NETLINK_CB(skb).sk;
	const struct socket *sock = sk ? READ_ONCE(sk->sk_socket) : NULL;
	const struct file *file = sock ? READ_ONCE(sock->file) : NULL;

	return file && file_ns_capable(file, &init_user_ns, cap);
}

/**
 * pcieaudit_nl_perm - whether a request's socket may read what we report
 * @skb: the request (cb->skb in a dump)
 * @extack: for the user's error
 *
 * sysfs shows configuration space beyond the first 64 bytes only to
 * CAP_SYS_ADMIN, and ACS, Link Capabilities 2 and Link Control 2 are there;
 * the family is administrative, so CAP_NET_ADMIN too. Both are asked of
 * whoever opened the socket, in the initial user namespace, and of no one
 * else: as for a file opened by root and handed on, the opener delegates.
 * A daemon may open its socket as root, then drop every capability and
 * its identity, and its requests still succeed; a task that lacks either
 * capability when it opens its own socket is refused, whatever it gains
 * later. sysfs's config file decides the same way, by its opener
 * (pci_read_config()). So no op is GENL_ADMIN_PERM, which netlink_capable()
 * would also ask of the sending task. Call it first in every doit, and in
 * a dump before any other check and before anything is emitted.
 *
 * Return: 0, or -EPERM with an extack message.
 */
int pcieaudit_nl_perm(const struct sk_buff *skb,
		      struct netlink_ext_ack *extack)
{
	if (!pcieaudit_nl_opener_capable(skb, CAP_NET_ADMIN)) {
		NL_SET_ERR_MSG(extack, "the socket's opener lacks CAP_NET_ADMIN");
		return -EPERM;
	}
	if (!pcieaudit_nl_opener_capable(skb, CAP_SYS_ADMIN)) {
		NL_SET_ERR_MSG(extack, "PCI configuration space needs CAP_SYS_ADMIN");
		return -EPERM;
	}
	return 0;
}

/* message builders */

/**
 * pcieaudit_nl_put_addr - a function's address as a nest
 * @skb: message
 * @type: attribute type of the nest
 * @pdev: the function
 *
 * Return: 0 or -EMSGSIZE.
 */
int pcieaudit_nl_put_addr(struct sk_buff *skb, int type, struct pci_dev *pdev)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, PCIEAUDIT_A_ADDR_DOMAIN, pci_domain_nr(pdev->bus)) ||
	    nla_put_u8(skb, PCIEAUDIT_A_ADDR_BUS, pdev->bus->number) ||
	    nla_put_u8(skb, PCIEAUDIT_A_ADDR_DEVFN, pdev->devfn)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int put_acs(struct sk_buff *skb, const struct pcieaudit_acs *acs)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, PCIEAUDIT_A_DEV_ACS);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u16(skb, PCIEAUDIT_A_ACS_POS, acs->pos) ||
	    nla_put_u16(skb, PCIEAUDIT_A_ACS_CAP, acs->cap) ||
	    nla_put_u16(skb, PCIEAUDIT_A_ACS_CTRL, acs->ctrl) ||
	    (acs->has_ctrl_at_load &&
	     nla_put_u16(skb, PCIEAUDIT_A_ACS_CTRL_AT_LOAD, acs->ctrl_at_load))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int put_link(struct sk_buff *skb, const struct pcieaudit_link *link)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, PCIEAUDIT_A_DEV_LINK);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, PCIEAUDIT_A_LINK_LNKCAP, link->lnkcap) ||
	    nla_put_u16(skb, PCIEAUDIT_A_LINK_LNKSTA, link->lnksta))
		goto err_cancel;
	if (link->has_v2 &&
	    (nla_put_u32(skb, PCIEAUDIT_A_LINK_LNKCAP2, link->lnkcap2) ||
	     nla_put_u16(skb, PCIEAUDIT_A_LINK_LNKCTL2, link->lnkctl2)))
		goto err_cancel;
	nla_nest_end(skb, nest);
	return 0;

err_cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static int put_iommu(struct sk_buff *skb, const struct pcieaudit_iommu *io)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, PCIEAUDIT_A_DEV_IOMMU);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, PCIEAUDIT_A_IOMMU_GROUP, io->group))
		goto err_cancel;
	if (io->dma_owner &&
	    nla_put_u32(skb, PCIEAUDIT_A_IOMMU_DMA_OWNER, io->dma_owner))
		goto err_cancel;
	nla_nest_end(skb, nest);
	return 0;

err_cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/* Room put_history() needs at most. */
#define HISTORY_SIZE	(nla_total_size(0) +			\
			 6 * nla_total_size_64bit(sizeof(u64)) +	\
			 2 * nla_total_size(sizeof(u32)) +	\
			 2 * nla_total_size(sizeof(u8)))

/* The monitor's link history of a function; nothing where it has none. */
static int put_history(struct sk_buff *skb, struct pci_dev *pdev)
{
	struct mon_history h;
	struct nlattr *nest;
	u32 interval_ms;

	if (!pcieaudit_monitor_history(pdev, &h, &interval_ms))
		return 0;
	nest = nla_nest_start(skb, PCIEAUDIT_A_DEV_LINK_HISTORY);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, PCIEAUDIT_A_HIST_SINCE_NS, h.since_ns,
			      PCIEAUDIT_A_HIST_PAD) ||
	    nla_put_u64_64bit(skb, PCIEAUDIT_A_HIST_TRANSITIONS, h.transitions,
			      PCIEAUDIT_A_HIST_PAD) ||
	    nla_put_u64_64bit(skb, PCIEAUDIT_A_HIST_BELOW_NS, h.below_ns,
			      PCIEAUDIT_A_HIST_PAD) ||
	    nla_put_u32(skb, PCIEAUDIT_A_HIST_INTERVAL_MS, interval_ms) ||
	    nla_put_u64_64bit(skb, PCIEAUDIT_A_HIST_UNSAMPLED_NS,
			      h.unsampled_ns, PCIEAUDIT_A_HIST_PAD))
		goto cancel;
	if (h.seen_up &&
	    (nla_put_u8(skb, PCIEAUDIT_A_HIST_MIN_SPEED, h.min_speed) ||
	     nla_put_u8(skb, PCIEAUDIT_A_HIST_MIN_WIDTH, h.min_width)))
		goto cancel;
	if (h.last_change_ns &&
	    nla_put_u64_64bit(skb, PCIEAUDIT_A_HIST_LAST_CHANGE_NS,
			      h.last_change_ns, PCIEAUDIT_A_HIST_PAD))
		goto cancel;
	if (h.skip_reason &&
	    nla_put_u32(skb, PCIEAUDIT_A_HIST_SKIP, h.skip_reason))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;

cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static int put_dev_attrs(struct sk_buff *skb, struct pci_dev *pdev,
			 const struct pcieaudit_dev_facts *f)
{
	struct pci_dev *up = pci_upstream_bridge(pdev);

	if (pcieaudit_nl_put_addr(skb, PCIEAUDIT_A_DEV_ADDR, pdev) ||
	    nla_put_string(skb, PCIEAUDIT_A_DEV_NAME, pci_name(pdev)) ||
	    nla_put_u16(skb, PCIEAUDIT_A_DEV_VENDOR, pdev->vendor) ||
	    nla_put_u16(skb, PCIEAUDIT_A_DEV_DEVICE, pdev->device) ||
	    nla_put_u16(skb, PCIEAUDIT_A_DEV_SUBSYS_VENDOR,
			pdev->subsystem_vendor) ||
	    nla_put_u16(skb, PCIEAUDIT_A_DEV_SUBSYS_DEVICE,
			pdev->subsystem_device) ||
	    nla_put_u32(skb, PCIEAUDIT_A_DEV_CLASS, pdev->class) ||
	    nla_put_u8(skb, PCIEAUDIT_A_DEV_REVISION, pdev->revision) ||
	    nla_put_u32(skb, PCIEAUDIT_A_DEV_FLAGS, f->flags) ||
	    nla_put_s32(skb, PCIEAUDIT_A_DEV_NUMA_NODE, dev_to_node(&pdev->dev)))
		return -EMSGSIZE;
	if (pci_is_pcie(pdev) &&
	    nla_put_u8(skb, PCIEAUDIT_A_DEV_PCIE_TYPE, pci_pcie_type(pdev)))
		return -EMSGSIZE;
	if (up && pcieaudit_nl_put_addr(skb, PCIEAUDIT_A_DEV_UPSTREAM, up))
		return -EMSGSIZE;
	if (pdev->is_virtfn &&
	    pcieaudit_nl_put_addr(skb, PCIEAUDIT_A_DEV_PF, pci_physfn(pdev)))
		return -EMSGSIZE;
	if (pdev->subordinate &&
	    nla_put_u8(skb, PCIEAUDIT_A_DEV_SECONDARY_BUS,
		       pdev->subordinate->number))
		return -EMSGSIZE;
	if (f->driver[0] &&
	    nla_put_string(skb, PCIEAUDIT_A_DEV_DRIVER, f->driver))
		return -EMSGSIZE;
	if (f->power_state &&
	    nla_put_u32(skb, PCIEAUDIT_A_DEV_POWER_STATE, f->power_state))
		return -EMSGSIZE;
	if (f->config_unreadable &&
	    nla_put_flag(skb, PCIEAUDIT_A_DEV_CONFIG_UNREADABLE))
		return -EMSGSIZE;
	if (f->has_acs && put_acs(skb, &f->acs))
		return -EMSGSIZE;
	if (f->has_link && put_link(skb, &f->link))
		return -EMSGSIZE;
	if (f->iommu.in_group && put_iommu(skb, &f->iommu))
		return -EMSGSIZE;
	if (pcieaudit_nl_put_dev_caps(skb, &f->caps) ||
	    pcieaudit_nl_put_passthru(skb, &f->pt))
		return -EMSGSIZE;
	return put_history(skb, pdev);
}

/* Room put_dev_attrs() needs at most, for @pdev and its facts. */
static size_t dev_size(struct pci_dev *pdev,
		       const struct pcieaudit_dev_facts *f)
{
	/* Without @pdev: its name as one byte (dev_msg_fits_dump()). */
	return 3 * PCIEAUDIT_NL_ADDR_SIZE +	/* addr, upstream, pf */
	       nla_total_size(pdev ? strlen(pci_name(pdev)) + 1 : 1) +
	       nla_total_size(strlen(f->driver) + 1) +
	       4 * nla_total_size(sizeof(u16)) + /* vendor to subsys device */
	       3 * nla_total_size(sizeof(u8)) +	/* revision, type, bus */
	       4 * nla_total_size(sizeof(u32)) + /* class, flags, node, power */
	       nla_total_size(0) +		/* config unreadable */
	       nla_total_size(0) + 4 * nla_total_size(sizeof(u16)) +	/* acs */
	       nla_total_size(0) + 2 * nla_total_size(sizeof(u32)) +	/* link */
	       2 * nla_total_size(sizeof(u16)) +
	       nla_total_size(0) + 2 * nla_total_size(sizeof(u32)) +	/* iommu */
	       pcieaudit_nl_dev_caps_size() +	/* ats, expdev, bars */
	       pcieaudit_nl_passthru_size() +
	       HISTORY_SIZE;
}

/* One DEV_GET message; @cb is set for dumps, to flag inconsistent ones. */
static int put_dev_msg(struct sk_buff *skb, u32 portid, u32 seq, int flags,
		       struct netlink_callback *cb, struct pci_dev *pdev,
		       const struct pcieaudit_dev_facts *f)
{
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &pcieaudit_family, flags,
			  PCIEAUDIT_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (cb)
		genl_dump_check_consistent(cb, hdr);
	if (put_dev_attrs(skb, pdev, f)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* INFO_GET */

static u32 features(const struct pcieaudit_iommu_summary *s)
{
	u32 f = 0;

	if (IS_ENABLED(CONFIG_PCI_P2PDMA))
		f |= PCIEAUDIT_F_P2PDMA;
	if (IS_ENABLED(CONFIG_IOMMU_API))
		f |= PCIEAUDIT_F_IOMMU_API;
	if (s->groups)
		f |= PCIEAUDIT_F_IOMMU_PRESENT;
	if (IS_ENABLED(CONFIG_PCI_IOV))
		f |= PCIEAUDIT_F_PCI_IOV;
	if (IS_ENABLED(CONFIG_PCI_ATS))
		f |= PCIEAUDIT_F_PCI_ATS;
	if (IS_ENABLED(CONFIG_PCIEAER))
		f |= PCIEAUDIT_F_PCIEAER;
	return f;
}

/* Room put_info_attrs() needs at most. */
static size_t info_size(const char *rules)
{
	return nla_total_size(sizeof(PCIEAUDIT_VERSION)) +
	       nla_total_size(strlen(init_utsname()->release) + 1) +
	       nla_total_size(strlen(rules) + 1) +
	       4 * nla_total_size(sizeof(u32));
}

static int put_info_attrs(struct sk_buff *skb,
			  const struct pcieaudit_iommu_summary *s,
			  const char *rules)
{
	if (nla_put_string(skb, PCIEAUDIT_A_INFO_MODULE_VERSION,
			   PCIEAUDIT_VERSION) ||
	    nla_put_string(skb, PCIEAUDIT_A_INFO_KERNEL_RELEASE,
			   init_utsname()->release) ||
	    nla_put_u32(skb, PCIEAUDIT_A_INFO_FEATURES, features(s)) ||
	    nla_put_u32(skb, PCIEAUDIT_A_INFO_DEVICE_COUNT, s->devices) ||
	    nla_put_u32(skb, PCIEAUDIT_A_INFO_GROUP_COUNT, s->groups) ||
	    nla_put_string(skb, PCIEAUDIT_A_INFO_P2P_RULES, rules))
		return -EMSGSIZE;
	if (s->groups &&
	    nla_put_u32(skb, PCIEAUDIT_A_INFO_IOMMU_DEF_MODE,
			iommu_default_passthrough() ?
			PCIEAUDIT_IOMMU_MODE_PASSTHROUGH :
			PCIEAUDIT_IOMMU_MODE_TRANSLATED))
		return -EMSGSIZE;
	return 0;
}

static int info_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pcieaudit_iommu_summary s;
	struct sk_buff *msg;
	char rules[48];
	void *hdr;
	int err;

	err = pcieaudit_nl_perm(skb, info->extack);
	if (err)
		return err;
	pci_lock_rescan_remove();
	pcieaudit_iommu_summary_read(&s);
	pci_unlock_rescan_remove();
	pcieaudit_p2p_rules(rules, sizeof(rules));

	msg = genlmsg_new(info_size(rules), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &pcieaudit_family, 0,
				PCIEAUDIT_CMD_INFO_GET);
	if (!hdr || put_info_attrs(msg, &s, rules))
		goto err_free;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_free:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

/* DEV_GET */

/**
 * pcieaudit_nl_addr_key - the key (as pcieaudit_dev_key()) a nest names
 * @nest: a PCIEAUDIT_A_ADDR_* nest
 * @extack: for the user's error
 * @key: set on success
 *
 * Return: 0, or a negative errno with an extack message.
 */
int pcieaudit_nl_addr_key(const struct nlattr *nest,
			  struct netlink_ext_ack *extack, u64 *key)
{
	struct nlattr *tb[PCIEAUDIT_A_ADDR_MAX + 1];
	int err;

	/* The policy bounds the domain to what pci_domain_nr() returns. */
	err = nla_parse_nested(tb, PCIEAUDIT_A_ADDR_MAX, nest,
			       pcieaudit_addr_nl_policy, extack);
	if (err)
		return err;
	/* Since v6.0 the check names the attribute but sets no message. */
	if (NL_REQ_ATTR_CHECK(extack, nest, tb, PCIEAUDIT_A_ADDR_DOMAIN) ||
	    NL_REQ_ATTR_CHECK(extack, nest, tb, PCIEAUDIT_A_ADDR_BUS) ||
	    NL_REQ_ATTR_CHECK(extack, nest, tb, PCIEAUDIT_A_ADDR_DEVFN)) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "a PCI address needs domain, bus and devfn");
		return -EINVAL;
	}
	*key = pcieaudit_key(nla_get_u32(tb[PCIEAUDIT_A_ADDR_DOMAIN]),
			     nla_get_u8(tb[PCIEAUDIT_A_ADDR_BUS]),
			     nla_get_u8(tb[PCIEAUDIT_A_ADDR_DEVFN]));
	return 0;
}

/**
 * pcieaudit_nl_get_dev - the function a PCIEAUDIT_A_ADDR_* nest names
 * @nest: the nest, validated against pcieaudit_addr_nl_policy
 * @extack: for the user's error
 *
 * Call with pci_lock_rescan_remove() held.
 *
 * Return: a referenced function, or an ERR_PTR.
 */
struct pci_dev *pcieaudit_nl_get_dev(const struct nlattr *nest,
				     struct netlink_ext_ack *extack)
{
	struct pci_dev *pdev;
	u64 key;
	int err;

	err = pcieaudit_nl_addr_key(nest, extack, &key);
	if (err)
		return ERR_PTR(err);
	pdev = pci_get_domain_bus_and_slot(key >> 16, (key >> 8) & 0xff,
					   key & 0xff);
	if (!pdev) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "no such PCI function");
		return ERR_PTR(-ENODEV);
	}
	return pdev;
}

static int dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pcieaudit_dev_facts f;
	struct sk_buff *msg = NULL;
	struct pci_dev *pdev;
	int err;

	err = pcieaudit_nl_perm(skb, info->extack);
	if (err)
		return err;
	if (GENL_REQ_ATTR_CHECK(info, PCIEAUDIT_A_DEV_ADDR)) {
		NL_SET_ERR_MSG(info->extack, "missing the PCI function's address");
		return -EINVAL;
	}
	pci_lock_rescan_remove();
	pdev = pcieaudit_nl_get_dev(info->attrs[PCIEAUDIT_A_DEV_ADDR],
				    info->extack);
	if (IS_ERR(pdev)) {
		err = PTR_ERR(pdev);
	} else {
		/* Read, sized, then filled. */
		pcieaudit_dev_facts_read(pdev, &f);
		msg = genlmsg_new(dev_size(pdev, &f), GFP_KERNEL);
		err = msg ? put_dev_msg(msg, info->snd_portid, info->snd_seq,
					0, NULL, pdev, &f) : -ENOMEM;
		pci_dev_put(pdev);
	}
	pci_unlock_rescan_remove();

	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* A device dump's permission and request; .start or the first .dumpit. */
static int dev_get_check(struct netlink_callback *cb)
{
	struct nlattr **attrs = pcieaudit_dump_attrs(cb);
	int err;

	err = pcieaudit_nl_perm(cb->skb, cb->extack);
	if (err)
		return err;
	if (attrs && attrs[PCIEAUDIT_A_DEV_ADDR]) {
		NL_SET_ERR_MSG_ATTR(cb->extack, attrs[PCIEAUDIT_A_DEV_ADDR],
				    "a dump takes no device; use a do request");
		return -EINVAL;
	}
	return 0;
}

static int dev_get_start(struct netlink_callback *cb)
{
	return PCIEAUDIT_DUMP_START_EXTACK ? dev_get_check(cb) : 0;
}

static int dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct pcieaudit_dump_ctx *ctx = pcieaudit_dump_ctx(cb);
	u32 portid = NETLINK_CB(cb->skb).portid;
	struct pcieaudit_dev_facts f;
	struct pcieaudit_batch *b;
	u64 next = ctx->next;
	bool full = false;
	unsigned int i, n;
	int err;

	if (ctx->state == PCIEAUDIT_DUMP_ENDED)
		return 0;
	if (ctx->state == PCIEAUDIT_DUMP_NEW) {
		err = PCIEAUDIT_DUMP_START_EXTACK ? 0 : dev_get_check(cb);
		if (err)
			return err;
		ctx->state = PCIEAUDIT_DUMP_CHECKED;
	}

	b = pcieaudit_batch_alloc();
	if (!b)
		return -ENOMEM;
	pci_lock_rescan_remove();
	cb->seq = pcieaudit_generation();
	do {
		pcieaudit_batch_collect(b, next, NULL, NULL);
		n = b->n;
		for (i = 0; i < n && !full; i++) {
			pcieaudit_dev_facts_read(b->pdev[i], &f);
			full = put_dev_msg(skb, portid, cb->nlh->nlmsg_seq,
					   NLM_F_MULTI, cb, b->pdev[i], &f) != 0;
			if (!full)
				next = b->key[i] + 1;
		}
		pcieaudit_batch_release(b);
	} while (!full && n == PCIEAUDIT_BATCH);
	pci_unlock_rescan_remove();
	pcieaudit_batch_free(b);

	ctx->next = next;
	if (!full)
		ctx->state = PCIEAUDIT_DUMP_ENDED;
	else if (!skb->len)
		return -EMSGSIZE;
	return skb->len;
}

/* GROUP_GET */

/* A group's PCI members with keys from @from on, referenced, in key order. */
struct member_ctx {
	struct pcieaudit_batch *b;
	u64 from;
	u32 others;			/* members that are not PCI functions */
};

static int collect_member(struct device *dev, void *data)
{
	struct member_ctx *ctx = data;
	u64 key;

	if (!dev_is_pci(dev)) {
		ctx->others++;
		return 0;
	}
	key = pcieaudit_dev_key(to_pci_dev(dev));
	if (key >= ctx->from)
		pcieaudit_batch_offer(ctx->b, to_pci_dev(dev), key);
	return 0;
}

/*
 * One message of group @id: its members from key *@from on, in key order,
 * as many as fit. Returns 0 when the group ended in it, -EAGAIN when it
 * continues (*@from is where), -EMSGSIZE when nothing fit.
 */
static int put_group_msg(struct sk_buff *skb, struct netlink_callback *cb,
			 struct iommu_group *group, int id, u64 *from)
{
	struct member_ctx ctx = { 0 };
	unsigned int i, n, sent = 0;
	bool full = false;
	void *hdr;
	int err;

	ctx.b = pcieaudit_batch_alloc();
	if (!ctx.b)
		return -ENOMEM;
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &pcieaudit_family, NLM_F_MULTI,
			  PCIEAUDIT_CMD_GROUP_GET);
	if (!hdr) {
		pcieaudit_batch_free(ctx.b);
		return -EMSGSIZE;
	}
	genl_dump_check_consistent(cb, hdr);
	if (nla_put_u32(skb, PCIEAUDIT_A_GROUP_ID, id)) {
		err = -EMSGSIZE;
		goto cancel;
	}
	do {
		ctx.from = *from;
		ctx.others = 0;
		iommu_group_for_each_dev(group, &ctx, collect_member);
		n = ctx.b->n;
		for (i = 0; i < n && !full; i++) {
			full = pcieaudit_nl_put_addr(skb, PCIEAUDIT_A_GROUP_MEMBER,
						     ctx.b->pdev[i]) != 0;
			if (!full) {
				*from = ctx.b->key[i] + 1;
				sent++;
			}
		}
		pcieaudit_batch_release(ctx.b);
	} while (!full && n == PCIEAUDIT_BATCH);
	err = full ? -EAGAIN : 0;
	if (!full && nla_put_u32(skb, PCIEAUDIT_A_GROUP_OTHER_MEMBERS,
				 ctx.others))
		err = -EAGAIN;
	if (err && !sent) {
		err = -EMSGSIZE;
		goto cancel;
	}
	genlmsg_end(skb, hdr);
	pcieaudit_batch_free(ctx.b);
	return err;

cancel:
	genlmsg_cancel(skb, hdr);
	pcieaudit_batch_free(ctx.b);
	return err;
}

static int group_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct pcieaudit_dump_ctx *ctx = pcieaudit_dump_ctx(cb);
	struct pcieaudit_group_batch b;
	int next = ctx->next;
	u64 member = ctx->next_member;
	bool full = false;
	unsigned int i, n;
	int err = 0;
	u64 from;

	if (ctx->state == PCIEAUDIT_DUMP_ENDED)
		return 0;
	/* No .start: the first call checks, before anything is emitted. */
	if (ctx->state == PCIEAUDIT_DUMP_NEW) {
		err = pcieaudit_nl_perm(cb->skb, cb->extack);
		if (err)
			return err;
		ctx->state = PCIEAUDIT_DUMP_CHECKED;
	}

	pci_lock_rescan_remove();
	cb->seq = pcieaudit_generation();
	do {
		n = pcieaudit_groups_collect(&b, next);
		for (i = 0; i < n && !full; i++) {
			/* A group gone meanwhile: the next starts at its first member. */
			from = b.ids[i] == next ? member : 0;
			err = put_group_msg(skb, cb, b.groups[i], b.ids[i], &from);
			full = err != 0;
			if (!err) {
				next = b.ids[i] + 1;
				member = 0;
			} else if (err == -EAGAIN) {
				next = b.ids[i];
				member = from;
			}
		}
		pcieaudit_groups_release(&b);
	} while (!full && n == PCIEAUDIT_GROUP_BATCH);
	pci_unlock_rescan_remove();

	ctx->next = next;
	ctx->next_member = member;
	if (!full)
		ctx->state = PCIEAUDIT_DUMP_ENDED;
	else if (err == -ENOMEM)
		return err;
	else if (!skb->len)
		return -EMSGSIZE;
	return skb->len;
}

/* genetlink setup */

/*
 * No op is GENL_ADMIN_PERM: the core would ask CAP_NET_ADMIN of the sending
 * task as well as of the socket's opener. Every handler asks
 * pcieaudit_nl_perm() instead, for CAP_NET_ADMIN and CAP_SYS_ADMIN of the
 * opener alone: each doit first, each dump in PCIEAUDIT_DUMP_START_EXTACK's
 * .start or else its first .dumpit call. Joining the monitor group is the
 * core's check of the joining task (PCIEAUDIT_MCGRP_INIT()).
 */
static const struct genl_ops pcieaudit_ops[] = {
	{
		.cmd = PCIEAUDIT_CMD_INFO_GET,
		.doit = info_get_doit,
	},
	{
		.cmd = PCIEAUDIT_CMD_DEV_GET,
		.doit = dev_get_doit,
		.start = dev_get_start,
		.dumpit = dev_get_dumpit,
		.policy = pcieaudit_dev_get_nl_policy,
		.maxattr = ARRAY_SIZE(pcieaudit_dev_get_nl_policy) - 1,
	},
	{
		.cmd = PCIEAUDIT_CMD_GROUP_GET,
		.dumpit = group_get_dumpit,
	},
	{
		.cmd = PCIEAUDIT_CMD_P2P_GET,
		.doit = pcieaudit_nl_p2p_doit,
		.start = pcieaudit_nl_p2p_start,
		.dumpit = pcieaudit_nl_p2p_dumpit,
		.done = pcieaudit_nl_p2p_done,
		.policy = pcieaudit_p2p_get_nl_policy,
		.maxattr = ARRAY_SIZE(pcieaudit_p2p_get_nl_policy) - 1,
	},
};

static const struct genl_multicast_group pcieaudit_mcgrps[] = {
	PCIEAUDIT_MCGRP_INIT(PCIEAUDIT_MCGRP_MONITOR),
};

struct genl_family pcieaudit_family __ro_after_init = {
	.name = PCIEAUDIT_FAMILY_NAME,
	.version = PCIEAUDIT_FAMILY_VERSION,
	.module = THIS_MODULE,
	.ops = pcieaudit_ops,
	.n_ops = ARRAY_SIZE(pcieaudit_ops),
	.mcgrps = pcieaudit_mcgrps,
	.n_mcgrps = ARRAY_SIZE(pcieaudit_mcgrps),
	/* Handlers take their own locks; no need to serialise on genl_mutex. */
	.parallel_ops = true,
};

/* MON_EVENT */

/* Room put_mon_attrs() needs at most. */
#define MON_EVENT_SIZE	(2 * nla_total_size_64bit(sizeof(u64)) +	\
			 3 * nla_total_size(sizeof(u32)) +		\
			 PCIEAUDIT_NL_ADDR_SIZE +			\
			 4 * nla_total_size(sizeof(u16)))

static int put_mon_attrs(struct sk_buff *skb,
			 const struct pcieaudit_mon_msg *ev)
{
	if (nla_put_u64_64bit(skb, PCIEAUDIT_A_MON_SEQ, ev->seq,
			      PCIEAUDIT_A_MON_PAD) ||
	    nla_put_u64_64bit(skb, PCIEAUDIT_A_MON_TIME_NS, ev->time_ns,
			      PCIEAUDIT_A_MON_PAD) ||
	    nla_put_u32(skb, PCIEAUDIT_A_MON_EVENT, ev->event) ||
	    nla_put_u32(skb, PCIEAUDIT_A_MON_SOURCE, ev->source) ||
	    pcieaudit_nl_put_addr(skb, PCIEAUDIT_A_MON_ADDR, ev->pdev))
		return -EMSGSIZE;
	/* Register values only where joining the group is privileged. */
	if (!PCIEAUDIT_MCGRP_PRIVILEGED)
		return 0;
	if (ev->event == PCIEAUDIT_MON_LINK &&
	    (nla_put_u32(skb, PCIEAUDIT_A_MON_LNKCAP, ev->lnkcap) ||
	     nla_put_u16(skb, PCIEAUDIT_A_MON_LNKSTA_OLD, ev->lnksta_old) ||
	     nla_put_u16(skb, PCIEAUDIT_A_MON_LNKSTA, ev->lnksta)))
		return -EMSGSIZE;
	if (ev->event == PCIEAUDIT_MON_ACS &&
	    (nla_put_u16(skb, PCIEAUDIT_A_MON_ACS_CTRL_OLD, ev->acs_ctrl_old) ||
	     nla_put_u16(skb, PCIEAUDIT_A_MON_ACS_CTRL, ev->acs_ctrl)))
		return -EMSGSIZE;
	return 0;
}

/**
 * pcieaudit_nl_mon_event - multicast one monitor event
 * @ev: the event
 *
 * Nothing is sent without listeners; a failed allocation loses the event,
 * which the listeners see as a gap in PCIEAUDIT_A_MON_SEQ.
 *
 * Context: may sleep.
 */
void pcieaudit_nl_mon_event(const struct pcieaudit_mon_msg *ev)
{
	struct sk_buff *skb;
	void *hdr;

	if (!genl_has_listeners(&pcieaudit_family, &init_net, 0))
		return;
	skb = genlmsg_new(MON_EVENT_SIZE, GFP_KERNEL);
	if (!skb)
		return;
	hdr = genlmsg_put(skb, 0, 0, &pcieaudit_family, 0,
			  PCIEAUDIT_CMD_MON_EVENT);
	if (!hdr || put_mon_attrs(skb, ev)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_end(skb, hdr);
	/* -ESRCH: the last listener left meanwhile. */
	genlmsg_multicast(&pcieaudit_family, skb, 0, 0, GFP_KERNEL);
}

/*
 * The largest DEV_GET message fits the first buffer of a dump on a fresh
 * socket, NLMSG_GOODSIZE, so a dump never fails on its first message: a
 * name as long as pci_name() makes it (a 32-bit domain), a driver name as
 * long as PCIEAUDIT_NAME_LEN, every optional attribute.
 */
static bool dev_msg_fits_dump(void)
{
	struct pcieaudit_dev_facts f;
	size_t max;

	memset(f.driver, 'x', sizeof(f.driver) - 1);
	f.driver[sizeof(f.driver) - 1] = 0;
	max = nla_total_size(sizeof("ffffffff:ff:1f.7")) - nla_total_size(1) +
	      dev_size(NULL, &f);
	return nlmsg_total_size(GENL_HDRLEN + max) <= NLMSG_GOODSIZE;
}

/**
 * pcieaudit_genl_init - register the "pcieaudit" family
 *
 * Return: 0 or a negative errno.
 */
int pcieaudit_genl_init(void)
{
	if (!dev_msg_fits_dump()) {
		pr_err("a device message exceeds a dump's first buffer\n");
		return -EMSGSIZE;
	}
	return genl_register_family(&pcieaudit_family);
}

/**
 * pcieaudit_genl_uninit - unregister the family; waits for running dumps
 */
void pcieaudit_genl_uninit(void)
{
	genl_unregister_family(&pcieaudit_family);
}
