/* SPDX-License-Identifier: GPL-2.0 */
/* The "pcieaudit" generic-netlink family. */
#ifndef _PCIEAUDIT_NETLINK_H
#define _PCIEAUDIT_NETLINK_H

int pcieaudit_genl_init(void);
void pcieaudit_genl_uninit(void);

#endif /* _PCIEAUDIT_NETLINK_H */
