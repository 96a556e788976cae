/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's least privilege (--user). The module asks CAP_NET_ADMIN
 * and CAP_SYS_ADMIN of whoever opened a request's socket, and of no one
 * else (kmod/netlink.c, pcieaudit_nl_perm()): the opener delegates, as
 * with a file opened by root and handed on. So the exporter opens its
 * sockets (the module's, the monitor group's, the listening one) with the
 * privileges it was started with, then, before any thread starts, becomes
 * an unprivileged user with no capability in any set and no_new_privs.
 * --sysfs cannot: sysfs gives configuration space past 64 bytes only to a
 * file opened with CAP_SYS_ADMIN, and it opens its files at every
 * collection (docs/monitoring.md, "Least privilege").
 */
#ifndef PA_PRIVDROP_H
#define PA_PRIVDROP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* --user's default where the exporter starts as root. */
#define PA_PRIVDROP_DEFAULT_USER "nobody"

struct pa_privdrop {
	bool drop;		/* drop capabilities and set no_new_privs */
	bool setid;		/* and become uid, gid (started as root) */
	uid_t uid;
	gid_t gid;
	char name[64];		/* the user's name, for messages */
};

/*
 * What the exporter started as (euid) and its options allow: the plan,
 * decided before any socket opens. user is --user (NULL: not given),
 * sysfs whether --sysfs is the source. Looks the user up in the password
 * database. 0, or an exit code (PA_EXIT_USAGE) with the reason in why.
 *
 *   - --sysfs: nothing is dropped (it needs root past 64 bytes); --user
 *     with it is refused.
 *   - started as root: become user (default nobody); --user root keeps
 *     root and every capability.
 *   - started as another user: stay it, drop its capabilities (systemd's
 *     ambient ones); --user naming someone else is refused.
 */
int pa_privdrop_plan(uid_t euid, const char *user, bool sysfs,
		     struct pa_privdrop *p, char *why, size_t len);

/*
 * Carries the plan out, in the calling thread, which must be the only
 * one: capabilities and no_new_privs are per thread, and threads started
 * later inherit them. Supplementary groups go, then the bounding set
 * (where CAP_SETPCAP allows: a process without it and without permitted
 * capabilities cannot regain any under no_new_privs), the ambient set, the
 * identity, then every remaining set, and the process becomes
 * non-dumpable, so that no other process of the user can take its
 * sockets. Checked afterwards against the kernel's own answers. 0, or a
 * negative errno with the failed step in why: the caller must not go on.
 */
int pa_privdrop_apply(const struct pa_privdrop *p, char *why, size_t len);

/*
 * The kernel's view of this thread: 0 when no capability is effective,
 * permitted, inheritable or ambient, no_new_privs is set, the uids and
 * gids are p's (where p->setid), no supplementary group is left and
 * setuid(0) fails; where bounding is true, the bounding set must be empty
 * too. Else -EPERM with what is left in why.
 */
int pa_privdrop_verify(const struct pa_privdrop *p, bool bounding,
		       char *why, size_t len);

#endif /* PA_PRIVDROP_H */
