/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Netlink replies of the pcieaudit family into model structs. Pure: no I/O.
 * Every function returns 0 or a negative errno: -EBADMSG when the message
 * breaks the ABI (wrong attribute size, missing required attribute,
 * truncated nest), -ENOMEM. Unknown attributes are ignored, as the ABI
 * requires. On failure the output is left untouched, but for
 * pa_decode_device(): it decodes in place, and clears *dev on failure.
 */
#ifndef PA_DECODE_H
#define PA_DECODE_H

#include <stddef.h>

#include "model.h"

struct nl_msg;
struct nlmsghdr;

int pa_decode_info(struct nl_msg *msg, struct pa_info *info);
int pa_decode_device(struct nl_msg *msg, struct pa_device *dev);
int pa_decode_group(struct nl_msg *msg, struct pa_group *group);

/*
 * A PCIEAUDIT_CMD_P2P_GET reply, do or dump: the provider, the optional
 * kernel distance over all clients, and every PAIR in order, each with the
 * provider filled in. A message without a pair is malformed.
 */
int pa_decode_p2p(struct nl_msg *msg, struct pa_p2p *p2p);

/* The error an NLMSG_DONE message carries: 0 or a negative errno. */
int pa_decode_done_error(const struct nlmsghdr *nlh);

/*
 * Copies the extended ack message (NLMSGERR_ATTR_MSG) of an NLMSG_ERROR or
 * NLMSG_DONE message into buf; buf is "" when there is none.
 */
void pa_decode_extack(const struct nlmsghdr *nlh, char *buf, size_t size);

#endif /* PA_DECODE_H */
