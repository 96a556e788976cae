// SPDX-License-Identifier: GPL-2.0
#include "fetch.h"

#include <errno.h>
#include <stdlib.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <linux/pcieaudit.h>

#include "decode.h"

static int on_info(struct nl_msg *msg, void *arg)
{
	struct pa_info *info = arg;

	pa_info_clear(info);
	return pa_decode_info(msg, info);
}

static int on_device(struct nl_msg *msg, void *arg)
{
	struct pa_report *rep = arg;
	struct pa_device *dev = pa_report_new_device(rep);
	int err;

	if (!dev)
		return -ENOMEM;
	err = pa_decode_device(msg, dev);
	if (err)
		pa_report_drop_last_device(rep);
	return err;
}

static void restart_devices(void *arg)
{
	pa_report_clear_devices(arg);
}

static int on_group(struct nl_msg *msg, void *arg)
{
	struct pa_report *rep = arg;
	struct pa_group group, *last;
	int err = pa_decode_group(msg, &group);

	if (err)
		return err;
	/* A group too large for one message goes on in the next, same id. */
	last = rep->ngroups ? &rep->groups[rep->ngroups - 1] : NULL;
	if (last && last->id == group.id)
		err = pa_group_append(last, &group);
	else
		err = pa_report_add_group(rep, &group);
	if (err)
		pa_group_clear(&group);
	return err;
}

static void restart_groups(void *arg)
{
	pa_report_clear_groups(arg);
}

static int on_p2p(struct nl_msg *msg, void *arg)
{
	struct pa_p2p *p2p = arg;
	struct pa_p2p one;
	int err = pa_decode_p2p(msg, &one);

	if (err)
		return err;
	if (one.has_kernel_distance) {
		p2p->has_kernel_distance = true;
		p2p->kernel_distance = one.kernel_distance;
	}
	err = pa_p2p_take(p2p, &one);
	pa_p2p_clear(&one);
	return err;
}

static void restart_p2p(void *arg)
{
	pa_p2p_clear(arg);
}

static int put_addr(struct nl_msg *msg, int type, const struct pa_addr *addr)
{
	/* The kernel's strict validation rejects nests without NLA_F_NESTED,
	 * which older libnl releases leave out. */
	struct nlattr *nest = nla_nest_start(msg, type | NLA_F_NESTED);

	if (!nest ||
	    nla_put_u32(msg, PCIEAUDIT_A_ADDR_DOMAIN, addr->domain) ||
	    nla_put_u8(msg, PCIEAUDIT_A_ADDR_BUS, addr->bus) ||
	    nla_put_u8(msg, PCIEAUDIT_A_ADDR_DEVFN, addr->devfn))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

int pa_fetch_info(struct pa_nl *nl, struct pa_info *info)
{
	const struct pa_nl_reply reply = {
		.what = "module info request", .msg = on_info, .arg = info,
	};
	struct nl_msg *req = pa_nl_request(nl, PCIEAUDIT_CMD_INFO_GET);
	int err;

	if (!req)
		return -ENOMEM;
	err = pa_nl_do(nl, req, &reply);
	nlmsg_free(req);
	return err;
}

static int fetch_device(struct pa_nl *nl, const struct pa_addr *addr,
			struct pa_report *rep)
{
	const struct pa_nl_reply reply = {
		.what = "device request", .msg = on_device, .arg = rep,
	};
	struct nl_msg *req = pa_nl_request(nl, PCIEAUDIT_CMD_DEV_GET);
	int err;

	if (!req)
		return -ENOMEM;
	err = put_addr(req, PCIEAUDIT_A_DEV_ADDR, addr);
	if (!err)
		err = pa_nl_do(nl, req, &reply);
	nlmsg_free(req);
	return err;
}

static int dump_devices(struct pa_nl *nl, struct pa_report *rep)
{
	const struct pa_nl_reply reply = {
		.what = "device dump", .msg = on_device,
		.restart = restart_devices, .arg = rep,
	};

	return pa_nl_dump(nl, PCIEAUDIT_CMD_DEV_GET, NULL, &reply);
}

static int dump_groups(struct pa_nl *nl, struct pa_report *rep)
{
	const struct pa_nl_reply reply = {
		.what = "IOMMU group dump", .msg = on_group,
		.restart = restart_groups, .arg = rep,
	};

	return pa_nl_dump(nl, PCIEAUDIT_CMD_GROUP_GET, NULL, &reply);
}

int pa_fetch_report(struct pa_nl *nl, const struct pa_addr *only,
		    struct pa_report *rep)
{
	int err;

	*rep = (struct pa_report){ 0 };
	err = pa_fetch_info(nl, &rep->info);
	if (!err)
		err = only ? fetch_device(nl, only, rep) : dump_devices(nl, rep);
	if (!err)
		err = dump_groups(nl, rep);
	if (err) {
		pa_report_clear(rep);
		return err;
	}
	if (only)
		pa_report_keep_groups_of_devices(rep);
	pa_report_sort(rep);
	return 0;
}

int pa_fetch_devices(struct pa_nl *nl, struct pa_report *rep)
{
	int err;

	*rep = (struct pa_report){ 0 };
	err = pa_fetch_info(nl, &rep->info);
	if (!err)
		err = dump_devices(nl, rep);
	if (err) {
		pa_report_clear(rep);
		return err;
	}
	pa_report_sort(rep);
	return 0;
}

/* Room for one nest of PCIEAUDIT_A_ADDR_* and one of PCIEAUDIT_A_CLASS_*. */
#define ADDR_NEST_LEN	(NLA_HDRLEN + nla_total_size(4) + 2 * nla_total_size(1))
#define CLASS_NEST_LEN	(NLA_HDRLEN + 2 * nla_total_size(4))

static int put_p2p_do(struct nl_msg *msg, const struct pa_addr *provider,
		      const struct pa_addr *clients, size_t nclients)
{
	int err = put_addr(msg, PCIEAUDIT_A_P2P_PROVIDER, provider);

	for (size_t i = 0; !err && i < nclients; i++)
		err = put_addr(msg, PCIEAUDIT_A_P2P_CLIENT, &clients[i]);
	return err;
}

int pa_fetch_p2p(struct pa_nl *nl, const struct pa_addr *provider,
		 const struct pa_addr *clients, size_t nclients,
		 struct pa_p2p *p2p)
{
	const struct pa_nl_reply reply = {
		.what = "P2P request", .msg = on_p2p, .arg = p2p,
	};
	struct nl_msg *req;
	int err;

	*p2p = (struct pa_p2p){ 0 };
	if (!nclients || nclients > PCIEAUDIT_P2P_MAX_CLIENTS)
		return -EINVAL;
	req = pa_nl_request(nl, PCIEAUDIT_CMD_P2P_GET);
	if (!req)
		return -ENOMEM;
	err = put_p2p_do(req, provider, clients, nclients);
	if (!err)
		err = pa_nl_do(nl, req, &reply);
	nlmsg_free(req);
	if (err)
		pa_p2p_clear(p2p);
	return err;
}

static int put_class(struct nl_msg *msg, const struct pa_class_select *c)
{
	struct nlattr *nest = nla_nest_start(msg, PCIEAUDIT_A_P2P_SELECT_CLASS |
					     NLA_F_NESTED);

	if (!nest ||
	    nla_put_u32(msg, PCIEAUDIT_A_CLASS_VALUE, c->value) ||
	    nla_put_u32(msg, PCIEAUDIT_A_CLASS_MASK, c->mask))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

static int put_select(struct nl_msg *msg, const void *arg)
{
	const struct pa_p2p_select *sel = arg;
	int err = 0;

	for (size_t i = 0; !err && i < sel->ndevs; i++)
		err = put_addr(msg, PCIEAUDIT_A_P2P_SELECT_DEV, &sel->devs[i]);
	for (size_t i = 0; !err && i < sel->nclasses; i++)
		err = put_class(msg, &sel->classes[i]);
	return err;
}

int pa_fetch_p2p_dump(struct pa_nl *nl, const struct pa_p2p_select *sel,
		      struct pa_p2p *p2p)
{
	const struct pa_nl_reply reply = {
		.what = "P2P dump", .msg = on_p2p, .restart = restart_p2p,
		.arg = p2p,
	};
	const struct pa_nl_attrs attrs = {
		.len = sel->ndevs * ADDR_NEST_LEN +
		       sel->nclasses * CLASS_NEST_LEN,
		.put = put_select, .arg = sel,
	};
	int err;

	*p2p = (struct pa_p2p){ 0 };
	/* Without selectors the kernel would select every function. */
	if (!sel->ndevs && !sel->nclasses)
		return 0;
	err = pa_nl_dump(nl, PCIEAUDIT_CMD_P2P_GET, &attrs, &reply);
	if (err) {
		pa_p2p_clear(p2p);
		return err;
	}
	pa_p2p_sort(p2p);
	return 0;
}

int pa_fetch_topo_pairs(struct pa_nl *nl, const struct pa_topo *topo,
			struct pa_report *rep)
{
	struct pa_p2p_select sel = { 0 };
	struct pa_addr *addrs;
	int err = pa_topo_addrs(topo, &addrs);

	if (err)
		return err;
	sel.devs = addrs;
	/* One device makes no pair; none must not become "select all". */
	sel.ndevs = topo->n > 1 ? topo->n : 0;
	err = pa_fetch_p2p_dump(nl, &sel, &rep->p2p);
	free(addrs);
	/*
	 * A function of the device dump was removed before the P2P dump
	 * selected it: hot-plug, not a BDF the user asked for (exit 7).
	 */
	if (err == -ENODEV)
		err = -EINTR;
	rep->has_p2p = !err;
	return err;
}
