// SPDX-License-Identifier: GPL-2.0
#include "fetch.h"

#include <errno.h>
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
	struct pa_device dev;
	int err = pa_decode_device(msg, &dev);

	if (err)
		return err;
	err = pa_report_add_device(rep, &dev);
	if (err)
		pa_device_clear(&dev);
	return err;
}

static void restart_devices(void *arg)
{
	pa_report_clear_devices(arg);
}

static int on_group(struct nl_msg *msg, void *arg)
{
	struct pa_report *rep = arg;
	struct pa_group group;
	int err = pa_decode_group(msg, &group);

	if (err)
		return err;
	err = pa_report_add_group(rep, &group);
	if (err)
		pa_group_clear(&group);
	return err;
}

static void restart_groups(void *arg)
{
	pa_report_clear_groups(arg);
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

	return pa_nl_dump(nl, PCIEAUDIT_CMD_DEV_GET, &reply);
}

static int dump_groups(struct pa_nl *nl, struct pa_report *rep)
{
	const struct pa_nl_reply reply = {
		.what = "IOMMU group dump", .msg = on_group,
		.restart = restart_groups, .arg = rep,
	};

	return pa_nl_dump(nl, PCIEAUDIT_CMD_GROUP_GET, &reply);
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
