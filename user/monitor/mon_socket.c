// SPDX-License-Identifier: GPL-2.0
#include "mon_socket.h"

#include <errno.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/pcieaudit.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "nl.h"

bool pa_mon_family_removed(struct nl_msg *msg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gh = nlmsg_data(nlh);
	struct nlattr *tb[CTRL_ATTR_MAX + 1];

	if (nlh->nlmsg_type != GENL_ID_CTRL || gh->cmd != CTRL_CMD_DELFAMILY ||
	    genlmsg_parse(nlh, 0, tb, CTRL_ATTR_MAX, NULL) < 0 ||
	    !tb[CTRL_ATTR_FAMILY_NAME])
		return false;
	return !strcmp(nla_get_string(tb[CTRL_ATTR_FAMILY_NAME]),
		       PCIEAUDIT_FAMILY_NAME);
}

static int join(struct nl_sock *sk, const char *family, const char *group)
{
	int id = genl_ctrl_resolve_grp(sk, family, group);

	if (id < 0)
		return pa_nl_errno(id);
	return nl_socket_add_membership(sk, id) ? -EIO : 0;
}

int pa_mon_socket_open(struct nl_sock **skp, int *family, int rcvbuf,
		       nl_recvmsg_msg_cb_t cb, void *arg)
{
	struct nl_sock *sk = nl_socket_alloc();
	int err;

	if (!sk)
		return -ENOMEM;
	err = genl_connect(sk) ? -EIO : 0;
	if (!err) {
		*family = genl_ctrl_resolve(sk, PCIEAUDIT_FAMILY_NAME);
		if (*family < 0)
			err = pa_nl_errno(*family);
	}
	if (!err)
		err = join(sk, PCIEAUDIT_FAMILY_NAME, PCIEAUDIT_MCGRP_MONITOR);
	if (!err)
		err = join(sk, "nlctrl", "notify");
	if (!err) {
		nl_socket_disable_seq_check(sk);
		nl_socket_set_buffer_size(sk, rcvbuf, 0);
		nl_socket_set_nonblocking(sk);
		nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, cb, arg);
		*skp = sk;
		return 0;
	}
	nl_socket_free(sk);
	return err;
}
