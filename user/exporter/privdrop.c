// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE	/* setresuid(), getresuid() */
#include "privdrop.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/capability.h>

#include "exitcodes.h"

/* Before 4.3 there is no ambient set: nothing to clear or check. */
#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT			47
#define PR_CAP_AMBIENT_IS_SET		1
#define PR_CAP_AMBIENT_CLEAR_ALL	4
#endif

int pa_privdrop_plan(uid_t euid, const char *user, bool sysfs,
		     struct pa_privdrop *p, char *why, size_t len)
{
	const char *name = user;
	struct passwd *pw;

	*p = (struct pa_privdrop){ 0 };
	if (sysfs) {
		if (!user)
			return 0;
		snprintf(why, len, "--user with --sysfs: sysfs gives configuration space past 64 bytes only to root (CAP_SYS_ADMIN), and --sysfs reads it at every collection; without --user the exporter keeps the privileges it started with");
		return PA_EXIT_USAGE;
	}
	if (!name && euid == 0)
		name = PA_PRIVDROP_DEFAULT_USER;
	if (!name) {
		/* Not root: stay who we are, without capabilities. */
		p->drop = true;
		p->uid = euid;
		snprintf(p->name, sizeof(p->name), "uid %u", (unsigned int)euid);
		return 0;
	}
	errno = 0;
	pw = getpwnam(name);
	if (!pw) {
		snprintf(why, len, "--user %s: %s", name,
			 errno ? strerror(errno) : "no such user");
		return PA_EXIT_USAGE;
	}
	if (euid != 0 && pw->pw_uid != euid) {
		snprintf(why, len, "--user %s: only root can become another user (started as uid %u)",
			 name, (unsigned int)euid);
		return PA_EXIT_USAGE;
	}
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->uid = pw->pw_uid;
	p->gid = pw->pw_gid;
	/* --user root: as started, every capability kept. */
	p->drop = pw->pw_uid != 0 || euid != 0;
	p->setid = euid == 0 && pw->pw_uid != 0;
	return 0;
}

static int caps_get(struct __user_cap_data_struct d[2])
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };

	/* Valgrind does not see capget() fill both elements. */
	memset(d, 0, 2 * sizeof(*d));

	return syscall(SYS_capget, &h, d) ? -errno : 0;
}

static int caps_clear(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0 } };

	return syscall(SYS_capset, &h, d) ? -errno : 0;
}

static bool cap_in(const struct __user_cap_data_struct d[2], int cap,
		   int set)
{
	const struct __user_cap_data_struct *x = &d[cap / 32];
	uint32_t bits = set == 0 ? x->effective : set == 1 ? x->permitted :
			x->inheritable;

	return bits & (1u << (cap % 32));
}

/* The bounding set, every capability the kernel knows: PR_CAPBSET_READ
 * says EINVAL past the last. */
static int bounding_drop(void)
{
	for (int cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0))
			return -errno;
	return 0;
}

static int fail(char *why, size_t len, const char *step, int err)
{
	snprintf(why, len, "%s: %s", step, strerror(-err));
	return err;
}

int pa_privdrop_apply(const struct pa_privdrop *p, char *why, size_t len)
{
	struct __user_cap_data_struct d[2];
	bool setpcap, held = p->setid;
	int err;

	if (!p->drop)
		return 0;
	err = caps_get(d);
	if (err)
		return fail(why, len, "capget", err);
	setpcap = cap_in(d, CAP_SETPCAP, 0);
	held |= d[0].permitted || d[1].permitted;
	if (p->setid && setgroups(0, NULL))
		return fail(why, len, "setgroups", -errno);
	if (setpcap) {
		err = bounding_drop();
		if (err)
			return fail(why, len, "emptying the bounding set", err);
	}
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) &&
	    errno != EINVAL)
		return fail(why, len, "clearing the ambient set", -errno);
	if (p->setid && setresgid(p->gid, p->gid, p->gid))
		return fail(why, len, "setresgid", -errno);
	if (p->setid && setresuid(p->uid, p->uid, p->uid))
		return fail(why, len, "setresuid", -errno);
	/* setresuid() cleared effective and permitted; inheritable stays. */
	err = caps_clear();
	if (err)
		return fail(why, len, "capset", err);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return fail(why, len, "PR_SET_NO_NEW_PRIVS", -errno);
	/* The sockets were opened with privilege: no ptrace, no
	 * pidfd_getfd() and no core dump for the user's other processes. */
	if (held && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		return fail(why, len, "PR_SET_DUMPABLE", -errno);
	return pa_privdrop_verify(p, setpcap, why, len);
}

static int left(char *why, size_t len, const char *what)
{
	snprintf(why, len, "still held after the drop: %s", what);
	return -EPERM;
}

int pa_privdrop_verify(const struct pa_privdrop *p, bool bounding,
		       char *why, size_t len)
{
	struct __user_cap_data_struct d[2];
	uid_t r, e, s;
	gid_t rg, eg, sg;
	int err = caps_get(d);

	if (err)
		return fail(why, len, "capget", err);
	if (d[0].effective || d[1].effective)
		return left(why, len, "effective capabilities");
	if (d[0].permitted || d[1].permitted)
		return left(why, len, "permitted capabilities");
	if (d[0].inheritable || d[1].inheritable)
		return left(why, len, "inheritable capabilities");
	for (int cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++) {
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, cap, 0, 0) > 0)
			return left(why, len, "ambient capabilities");
		if (bounding && prctl(PR_CAPBSET_READ, cap, 0, 0, 0) > 0)
			return left(why, len, "the bounding set");
	}
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
		return left(why, len, "no_new_privs unset");
	if (getresuid(&r, &e, &s) || getresgid(&rg, &eg, &sg))
		return fail(why, len, "getresuid", -errno);
	if (p->setid && (r != p->uid || e != p->uid || s != p->uid ||
			 rg != p->gid || eg != p->gid || sg != p->gid))
		return left(why, len, "another user or group id");
	if (p->setid && getgroups(0, NULL) != 0)
		return left(why, len, "supplementary groups");
	if (!setuid(0))
		return left(why, len, "setuid(0) succeeded");
	return 0;
}
