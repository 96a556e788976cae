// SPDX-License-Identifier: GPL-2.0
#include "nl.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <netlink/netlink.h>
#include <netlink/errno.h>
#include <netlink/msg.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>
#include <linux/netlink.h>
#include <linux/pcieaudit.h>

#include "decode.h"

/* Present while pcieaudit.ko is loaded, in every network namespace. */
#ifndef PA_SYSFS_MODULE
#define PA_SYSFS_MODULE "/sys/module/pcieaudit"
#endif
/* The initial network namespace, the only one the family serves. */
#ifndef PA_INIT_NETNS
#define PA_INIT_NETNS "/proc/1/ns/net"
#endif

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

struct pa_nl {
	struct nl_sock *sk;
	int family;
	struct pa_errinfo *ei;
};

/* One request's state while libnl runs the callbacks. */
struct exchange {
	const struct pa_nl_reply *reply;
	struct pa_errinfo *ei;
	uint32_t seq;
	unsigned int replies;
	int err;		/* first failure, kernel's or handler's */
	bool done;		/* ACK or NLMSG_DONE seen */
	bool interrupted;	/* NLM_F_DUMP_INTR seen */
};

int pa_nl_errno(int nle_err)
{
	static const int map[] = {
		[NLE_FAILURE]		= EIO,
		[NLE_INTR]		= EINTR,
		[NLE_BAD_SOCK]		= EBADF,
		[NLE_AGAIN]		= EAGAIN,
		[NLE_NOMEM]		= ENOMEM,
		[NLE_EXIST]		= EEXIST,
		[NLE_INVAL]		= EINVAL,
		[NLE_RANGE]		= ERANGE,
		[NLE_MSGSIZE]		= EMSGSIZE,
		[NLE_OPNOTSUPP]		= EOPNOTSUPP,
		[NLE_AF_NOSUPPORT]	= EAFNOSUPPORT,
		[NLE_OBJ_NOTFOUND]	= ENOENT,
		[NLE_NOATTR]		= EBADMSG,
		[NLE_MISSING_ATTR]	= EBADMSG,
		[NLE_AF_MISMATCH]	= EPROTO,
		[NLE_SEQ_MISMATCH]	= EPROTO,
		[NLE_MSG_OVERFLOW]	= ENOBUFS,
		[NLE_MSG_TRUNC]		= EBADMSG,
		[NLE_NOADDR]		= EADDRNOTAVAIL,
		[NLE_SRCRT_NOSUPPORT]	= EOPNOTSUPP,
		[NLE_MSG_TOOSHORT]	= EBADMSG,
		[NLE_MSGTYPE_NOSUPPORT]	= EOPNOTSUPP,
		[NLE_OBJ_MISMATCH]	= EINVAL,
		[NLE_NOCACHE]		= EIO,
		[NLE_BUSY]		= EBUSY,
		/* Not EPROTONOSUPPORT: that stands for our ABI mismatch. */
		[NLE_PROTO_MISMATCH]	= EPROTO,
		[NLE_NOACCESS]		= EACCES,
		[NLE_PERM]		= EPERM,
		[NLE_PKTLOC_FILE]	= EIO,
		[NLE_PARSE_ERR]		= EBADMSG,
		[NLE_NODEV]		= ENODEV,
		[NLE_IMMUTABLE]		= EPERM,
		[NLE_DUMP_INTR]		= EINTR,
		[NLE_ATTRSIZE]		= EBADMSG,
	};
	unsigned int nle = (unsigned int)abs(nle_err);

	if (nle == 0)
		return 0;
	if (nle >= sizeof(map) / sizeof(map[0]) || !map[nle])
		return -EIO;
	return -map[nle];
}

#define PA_NL_PART_SIZE 32768

/* Best effort: kernels before 4.12 have no extended acks, and errors then
 * come without the kernel's explanation. */
static void enable_extack(struct nl_sock *sk)
{
	int one = 1;

	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK, &one,
		   sizeof(one));
}

/* genl_ctrl_resolve() gives only the id; the version is in the family
 * object, which the controller cache holds. */
static int check_version(struct pa_nl *nl)
{
	struct nl_cache *cache;
	struct genl_family *family;
	int err = genl_ctrl_alloc_cache(nl->sk, &cache);

	if (err < 0)
		return pa_nl_errno(err);
	family = genl_ctrl_search(cache, nl->family);
	if (!family) {
		err = -ENOENT;	/* unregistered since the lookup */
	} else {
		nl->ei->kernel_version = genl_family_get_version(family);
		if (nl->ei->kernel_version != PCIEAUDIT_FAMILY_VERSION)
			err = -EPROTONOSUPPORT;
		genl_family_put(family);
	}
	nl_cache_free(cache);
	return err;
}

/* Loaded and initialised: not on its way in or out. */
static bool module_live(void)
{
	char state[16] = "";
	FILE *f = fopen(PA_SYSFS_MODULE "/initstate", "r");

	if (!f)
		return false;
	if (!fgets(state, sizeof(state), f))
		state[0] = '\0';
	fclose(f);
	return !strcmp(state, "live\n");
}

/* Unprivileged users cannot read PID 1's link: then assume another one. */
static bool other_netns(void)
{
	char self[64], init[64];
	ssize_t a = readlink("/proc/self/ns/net", self, sizeof(self));
	ssize_t b = readlink(PA_INIT_NETNS, init, sizeof(init));

	return a < 0 || b < 0 || a != b || memcmp(self, init, (size_t)a);
}

/*
 * genl_ctrl_resolve() reports any failure as "not found", out of memory
 * included; the controller's list of families tells the two apart.
 */
static int resolve_family(struct pa_nl *nl)
{
	struct genl_family *family;
	struct nl_cache *cache;
	int err;

	nl->family = genl_ctrl_resolve(nl->sk, PCIEAUDIT_FAMILY_NAME);
	if (nl->family >= 0)
		return 0;
	err = pa_nl_errno(nl->family);
	if (err != -ENOENT)
		return err;
	err = genl_ctrl_alloc_cache(nl->sk, &cache);
	if (err < 0)
		return pa_nl_errno(err);
	family = genl_ctrl_search_by_name(cache, PCIEAUDIT_FAMILY_NAME);
	err = -ENOENT;
	if (family) {		/* registered since the first question */
		nl->family = genl_family_get_id(family);
		genl_family_put(family);
		err = 0;
	}
	nl_cache_free(cache);
	return err;
}

static int connect_socket(struct pa_nl *nl)
{
	int err = genl_connect(nl->sk);

	if (err < 0)
		return pa_nl_errno(err);
	enable_extack(nl->sk);
	/* Do requests ask for their ack themselves (pa_nl_request()); dumps
	 * end with NLMSG_DONE instead. */
	nl_socket_disable_auto_ack(nl->sk);
	/* The kernel sizes a dump part to the reader's buffer, up to 32 KiB:
	 * half the parts (and the module's walks) of libnl's 16 KiB. */
	err = nl_socket_set_msg_buf_size(nl->sk, PA_NL_PART_SIZE);
	return err < 0 ? pa_nl_errno(err) : 0;
}

#define LOOKUP_OP "lookup of the " PCIEAUDIT_FAMILY_NAME " netlink family"

static int lookup_family(struct pa_nl *nl)
{
	/* Asking by name also makes the kernel load a module that declares
	 * the family alias. */
	int err = resolve_family(nl);

	if (err) {
		/* A live module whose family is not found: another netns. */
		if (err == -ENOENT)
			nl->ei->other_netns = module_live() && other_netns();
		return err;
	}
	return check_version(nl);
}

int pa_nl_connect(struct pa_nl **nlp)
{
	struct pa_nl *nl = calloc(1, sizeof(*nl));
	int err;

	*nlp = NULL;
	if (!nl)
		return -ENOMEM;
	nl->sk = nl_socket_alloc();
	err = nl->sk ? connect_socket(nl) : -ENOMEM;
	if (err) {
		pa_nl_close(nl);
		return err;
	}
	*nlp = nl;
	return 0;
}

/*
 * What an earlier request left queued, read and dropped: a dump abandoned
 * half-way keeps running in the kernel until it is read to its end, and
 * refuses the socket's next dump with EBUSY meanwhile. Each read lets the
 * kernel queue the dump's next part.
 */
static void drain(struct pa_nl *nl)
{
	static char buf[PA_NL_PART_SIZE];
	int fd = nl_socket_get_fd(nl->sk);

	while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC) >= 0 ||
	       errno == EINTR || errno == ENOBUFS)
		;
}

/* The family looked up on nl, with ei taking the details. */
static int lookup_into(struct pa_nl *nl, struct pa_errinfo *ei)
{
	int err;

	nl->ei = ei;
	ei->op = LOOKUP_OP;
	err = lookup_family(nl);
	if (!err)
		ei->op = NULL;
	return err;
}

int pa_nl_lookup(struct pa_nl *nl, struct pa_errinfo *ei)
{
	drain(nl);
	return lookup_into(nl, ei);
}

int pa_nl_open(struct pa_nl **nlp, struct pa_errinfo *ei)
{
	struct pa_nl *nl;
	int err;

	ei->op = LOOKUP_OP;
	err = pa_nl_connect(&nl);
	if (!err)
		err = lookup_into(nl, ei);
	if (err) {
		pa_nl_close(nl);
		*nlp = NULL;
		return err;
	}
	*nlp = nl;
	return 0;
}

void pa_nl_close(struct pa_nl *nl)
{
	if (!nl)
		return;
	nl_socket_free(nl->sk);
	free(nl);
}

static struct nl_msg *new_request(const struct pa_nl *nl, uint8_t cmd,
				  int flags, size_t attr_len)
{
	/* libnl's default buffer is a page; a long selection needs more. */
	struct nl_msg *msg = attr_len ?
		nlmsg_alloc_size(NLMSG_SPACE(GENL_HDRLEN + attr_len)) :
		nlmsg_alloc();

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
				flags, cmd, PCIEAUDIT_FAMILY_VERSION)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

struct nl_msg *pa_nl_request(const struct pa_nl *nl, uint8_t cmd)
{
	/* The ack tells a reply-less success from a reply still coming. */
	return new_request(nl, cmd, NLM_F_ACK, 0);
}

/* Messages of an earlier, abandoned request may still be queued. */
static int on_seq_check(struct nl_msg *msg, void *arg)
{
	const struct exchange *x = arg;

	return nlmsg_hdr(msg)->nlmsg_seq == x->seq ? NL_OK : NL_SKIP;
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct exchange *x = arg;

	x->replies++;
	x->err = x->reply->msg(msg, x->reply->arg);
	return x->err ? NL_STOP : NL_OK;
}

static int on_dump_intr(struct nl_msg *msg, void *arg)
{
	struct exchange *x = arg;

	(void)msg;
	/* Read on to NLMSG_DONE so that nothing stale stays queued. */
	x->interrupted = true;
	return NL_OK;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct exchange *x = arg;

	(void)msg;
	x->done = true;
	return NL_STOP;
}

static int on_finish(struct nl_msg *msg, void *arg)
{
	struct exchange *x = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);

	/* A dump that fails after it started reports it here. */
	x->err = pa_decode_done_error(nlh);
	if (x->err)
		pa_decode_extack(nlh, x->ei->kernel_msg,
				 sizeof(x->ei->kernel_msg));
	x->done = true;
	return NL_STOP;
}

static int on_error(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	struct exchange *x = arg;
	/* libnl hands over the payload; the header precedes it. */
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)
		((const char *)e - NLMSG_HDRLEN);

	(void)who;
	pa_decode_extack(nlh, x->ei->kernel_msg, sizeof(x->ei->kernel_msg));
	x->err = e->error < 0 ? e->error : -EPROTO;
	/* The kernel's EPROTONOSUPPORT comes only from a dump that could not
	 * pin the module (netlink_dump_start(), rmmod under way). Ours stands
	 * for the family version (check_version()), so this one is "not
	 * loaded", exit 4. */
	if (x->err == -EPROTONOSUPPORT) {
		x->err = -ENOENT;
		x->ei->module_going = 1;
	}
	return NL_STOP;
}

static struct nl_cb *exchange_callbacks(struct exchange *x)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);

	if (!cb)
		return NULL;
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, on_seq_check, x);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, x);
	nl_cb_set(cb, NL_CB_DUMP_INTR, NL_CB_CUSTOM, on_dump_intr, x);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, x);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, x);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, x);
	return cb;
}

/* Sends req and reads until its ack, NLMSG_DONE or an error. */
static int exchange(struct pa_nl *nl, struct nl_msg *req, struct exchange *x)
{
	struct nl_cb *cb = exchange_callbacks(x);
	int ret;

	if (!cb)
		return -ENOMEM;
	x->ei->kernel_msg[0] = '\0';
	ret = nl_send_auto(nl->sk, req);
	x->seq = nlmsg_hdr(req)->nlmsg_seq;
	while (ret >= 0 && !x->done && !x->err) {
		ret = nl_recvmsgs_report(nl->sk, cb);
		if (ret == 0)
			ret = -NLE_FAILURE;	/* socket gave nothing back */
	}
	nl_cb_put(cb);
	if (x->err)
		return x->err;
	return ret < 0 ? pa_nl_errno(ret) : 0;
}

int pa_nl_do(struct pa_nl *nl, struct nl_msg *req,
	     const struct pa_nl_reply *reply)
{
	struct exchange x = { .reply = reply, .ei = nl->ei };
	int err = exchange(nl, req, &x);

	if (!err && !x.replies)
		err = -EBADMSG;		/* acked without an answer */
	if (err)
		nl->ei->op = reply->what;
	return err;
}

static struct nl_msg *dump_request(const struct pa_nl *nl, uint8_t cmd,
				   const struct pa_nl_attrs *attrs, int *err)
{
	struct nl_msg *req = new_request(nl, cmd, NLM_F_DUMP,
					 attrs ? attrs->len : 0);

	if (!req) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = attrs ? attrs->put(req, attrs->arg) : 0;
	if (*err) {
		nlmsg_free(req);
		return NULL;
	}
	return req;
}

int pa_nl_dump(struct pa_nl *nl, uint8_t cmd, const struct pa_nl_attrs *attrs,
	       const struct pa_nl_reply *reply)
{
	int err = 0;

	for (int attempt = 0; attempt <= PA_NL_DUMP_RETRIES; attempt++) {
		struct exchange x = { .reply = reply, .ei = nl->ei };
		struct nl_msg *req = dump_request(nl, cmd, attrs, &err);

		if (!req)
			break;
		if (attempt)
			reply->restart(reply->arg);
		err = exchange(nl, req, &x);
		nlmsg_free(req);
		if (err || !x.interrupted)
			break;
		err = -EINTR;	/* stays if no attempt is left */
	}
	if (err)
		nl->ei->op = reply->what;
	return err;
}
