/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A netlink socket that listens: joined to the module's "monitor" group
 * and to nlctrl's "notify" group, which says when the family goes away
 * (rmmod). Shared by monitor (which prints the events) and the exporter
 * (which collects again when one comes).
 */
#ifndef PA_MON_SOCKET_H
#define PA_MON_SOCKET_H

#include <stdbool.h>
#include <netlink/netlink.h>
#include <netlink/handlers.h>

/*
 * Opens it non-blocking, with a receive buffer of rcvbuf bytes and cb
 * called for each valid message; *family gets the family's id. 0 or a
 * negative errno (as pa_nl_errno(): -ENOENT when the module is not
 * loaded).
 */
int pa_mon_socket_open(struct nl_sock **skp, int *family, int rcvbuf,
		       nl_recvmsg_msg_cb_t cb, void *arg);

/* Whether msg is nlctrl's CTRL_CMD_DELFAMILY for the pcieaudit family. */
bool pa_mon_family_removed(struct nl_msg *msg);

#endif /* PA_MON_SOCKET_H */
