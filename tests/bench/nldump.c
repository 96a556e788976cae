// SPDX-License-Identifier: GPL-2.0
/*
 * nldump: the floor of `pcieaudit-cli report --json` with the module. It
 * makes the generic netlink requests the CLI makes for that command, in
 * its order, with its flags and its receive size, and throws every reply
 * away: what is left is the kernel's dump and the transfers.
 *
 *   nldump [-v]
 *
 * The requests (user/sources/nl.c, fetch.c, user/pipeline/load.c), over
 * one socket set up as libnl 3 sets it up for the CLI (SO_SNDBUF and
 * SO_RCVBUF 32 KiB, NETLINK_EXT_ACK, no automatic acks):
 *   1. nlctrl CTRL_CMD_GETFAMILY, do, CTRL_ATTR_FAMILY_NAME "pcieaudit"
 *      (genl_ctrl_resolve());
 *   2. nlctrl CTRL_CMD_GETFAMILY, dump (genl_ctrl_alloc_cache(), where
 *      the CLI finds the family's version);
 *   3. PCIEAUDIT_CMD_INFO_GET, do, NLM_F_ACK;
 *   4. PCIEAUDIT_CMD_DEV_GET, dump;
 *   5. PCIEAUDIT_CMD_GROUP_GET, dump;
 *   6. PCIEAUDIT_CMD_P2P_GET, dump, one PCIEAUDIT_A_P2P_SELECT_DEV per
 *      function topo selects by default (GPUs, accelerators, NICs, NVMe,
 *      other display functions; no bridges, no VFs; in topo's order), and
 *      only with two or more of them, as the JSON's "p2p" asks.
 * A dump flagged NLM_F_DUMP_INTR is run again, at most 3 times more, as
 * the CLI does. Nothing is decoded but the family's id and version and,
 * for step 6, each function's address, vendor, class and flags.
 *
 * Every read is one recvmsg() of up to 32 KiB (the CLI's
 * nl_socket_set_msg_buf_size(); libnl then reads without MSG_PEEK), so
 * the kernel sizes the dump parts as for the CLI and the reads compare.
 *
 * Prints one line: "messages bytes", every netlink message received
 * (replies, acks and NLMSG_DONE included) and the bytes of all reads.
 * With -v, a line per request on standard error: "name reads messages
 * bytes". Exits 0; 1 with a message on standard error when a request
 * fails (an NLMSG_ERROR or NLMSG_DONE with an error, a truncated read, a
 * system call) or the family is not registered; 2 on a usage error.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <linux/pcieaudit.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* The CLI's PA_NL_PART_SIZE: its receive buffer, and the part size the
 * kernel then uses for dumps (at most 32 KiB less the skb overhead). */
#define RECV_SIZE	32768
/* libnl's nl_socket_set_buffer_size(sk, 0, 0), which nl_connect() calls. */
#define SOCK_BUF	32768
/* pa_nl_dump(): attempts after an interrupted one. */
#define DUMP_RETRIES	3
/* nlctrl's version, as libnl's genl_ctrl_resolve() and its cache send it. */
#define CTRL_VERSION	1

static bool verbose;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("nldump: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

/* ---- attributes ----------------------------------------------------------- */

#define NLA_DATA(a)	((const char *)(a) + NLA_HDRLEN)
#define NLA_PLEN(a)	((int)(a)->nla_len - NLA_HDRLEN)

static const struct nlattr *nla_find(const void *data, int len, int type)
{
	const struct nlattr *a = data;

	while (len >= (int)sizeof(*a) && a->nla_len >= sizeof(*a) &&
	       a->nla_len <= len) {
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
		len -= NLA_ALIGN(a->nla_len);
		a = (const void *)((const char *)a + NLA_ALIGN(a->nla_len));
	}
	return NULL;
}

/* An attribute's value of exactly size bytes into out; false otherwise. */
static bool nla_get(const struct nlattr *a, void *out, int size)
{
	if (!a || NLA_PLEN(a) < size)
		return false;
	memcpy(out, NLA_DATA(a), (size_t)size);
	return true;
}

/* Appends an attribute at *pos of buf; returns the attribute. */
static struct nlattr *nla_put(char *buf, size_t *pos, int type,
			      const void *data, size_t len)
{
	struct nlattr *a = (struct nlattr *)(buf + *pos);

	a->nla_type = (uint16_t)type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	if (len)
		memcpy(buf + *pos + NLA_HDRLEN, data, len);
	memset(buf + *pos + NLA_HDRLEN + len, 0,
	       NLA_ALIGN(NLA_HDRLEN + len) - (NLA_HDRLEN + len));
	*pos += NLA_ALIGN(NLA_HDRLEN + len);
	return a;
}

/* The genetlink attributes of a message, and their length. */
static const void *genl_attrs(const struct nlmsghdr *nlh, int *len)
{
	*len = (int)nlh->nlmsg_len - (int)NLMSG_LENGTH(GENL_HDRLEN);
	return (const char *)NLMSG_DATA(nlh) + GENL_HDRLEN;
}

/* ---- the socket ---------------------------------------------------------- */

struct nl {
	int fd;
	uint16_t family;
	uint32_t seq;
	/* Totals, and the current request's. */
	unsigned long long msgs, bytes;
	unsigned long long req_reads, req_msgs, req_bytes;
};

static void nl_open(struct nl *nl)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int buf = SOCK_BUF, one = 1;

	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (nl->fd < 0)
		die("socket: %s", strerror(errno));
	if (setsockopt(nl->fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf)) ||
	    setsockopt(nl->fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf)))
		die("setsockopt: %s", strerror(errno));
	if (bind(nl->fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("bind: %s", strerror(errno));
	/* Best effort, as for the CLI (kernels before 4.12 have none). */
	setsockopt(nl->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	nl->seq = 1;
}

/* Sends one request: a genetlink header and alen bytes of attributes. */
static void nl_send(struct nl *nl, uint16_t type, uint16_t flags, uint8_t cmd,
		    uint8_t version, const void *attrs, size_t alen)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct nlmsghdr nlh = {
		.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN + alen),
		.nlmsg_type = type,
		.nlmsg_flags = NLM_F_REQUEST | flags,
		.nlmsg_seq = ++nl->seq,
	};
	struct genlmsghdr g = { .cmd = cmd, .version = version };
	struct iovec iov[3] = {
		{ &nlh, NLMSG_HDRLEN },
		{ &g, GENL_HDRLEN },
		{ (void *)attrs, alen },
	};
	struct msghdr msg = {
		.msg_name = &sa, .msg_namelen = sizeof(sa),
		.msg_iov = iov, .msg_iovlen = alen ? 3 : 2,
	};

	while (sendmsg(nl->fd, &msg, 0) < 0)
		if (errno != EINTR)
			die("sendmsg: %s", strerror(errno));
	nl->req_reads = nl->req_msgs = nl->req_bytes = 0;
}

/* The kernel's extended ack message of an NLMSG_ERROR or NLMSG_DONE, or "". */
static const char *extack_msg(const struct nlmsghdr *nlh)
{
	int len = (int)nlh->nlmsg_len - NLMSG_HDRLEN, off;
	const struct nlattr *m;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return "";
	if (nlh->nlmsg_type == NLMSG_DONE) {
		off = sizeof(int);
	} else {
		const struct nlmsgerr *e = NLMSG_DATA(nlh);

		off = sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += (int)e->msg.nlmsg_len - NLMSG_HDRLEN;
	}
	if (off < 0 || len < off)
		return "";
	m = nla_find((const char *)NLMSG_DATA(nlh) + NLMSG_ALIGN(off),
		     len - NLMSG_ALIGN(off), NLMSGERR_ATTR_MSG);
	return m && NLA_PLEN(m) > 0 && NLA_DATA(m)[NLA_PLEN(m) - 1] == '\0' ?
	       NLA_DATA(m) : "";
}

/*
 * Called for each reply message of the request (neither an error, an ack
 * nor NLMSG_DONE); returns nothing: replies are thrown away.
 */
typedef void (*on_reply)(const struct nlmsghdr *nlh, void *arg);

/*
 * Reads the replies of the request just sent until its ack, NLMSG_DONE
 * or, for a do request without NLM_F_ACK, its one reply. Returns true
 * when a dump message carried NLM_F_DUMP_INTR. A failure ends the run.
 */
static bool nl_recv(struct nl *nl, const char *what, bool dump, bool ack,
		    on_reply cb, void *arg)
{
	static char buf[RECV_SIZE] __attribute__((aligned(NLMSG_ALIGNTO)));
	bool done = false, intr = false;

	while (!done) {
		struct sockaddr_nl sa;
		struct iovec iov = { buf, sizeof(buf) };
		struct msghdr msg = {
			.msg_name = &sa, .msg_namelen = sizeof(sa),
			.msg_iov = &iov, .msg_iovlen = 1,
		};
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
		ssize_t got = recvmsg(nl->fd, &msg, 0);
		int n;

		if (got < 0) {
			if (errno == EINTR)
				continue;
			die("%s: recvmsg: %s", what, strerror(errno));
		}
		if (got == 0)
			die("%s: the socket gave nothing back", what);
		if (msg.msg_flags & MSG_TRUNC)
			die("%s: a read of more than %d bytes", what, RECV_SIZE);
		nl->req_reads++;
		nl->req_bytes += (unsigned long long)got;
		nl->bytes += (unsigned long long)got;
		n = (int)got;
		for (; NLMSG_OK(nlh, n); nlh = NLMSG_NEXT(nlh, n)) {
			nl->req_msgs++;
			nl->msgs++;
			if (nlh->nlmsg_seq != nl->seq)
				continue;	/* nothing earlier is pending */
			/* On any message of the dump, NLMSG_DONE included. */
			if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
				intr = true;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(nlh);

				if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
					die("%s: a short NLMSG_ERROR", what);
				if (e->error == -ENOENT && !nl->family)
					die("no generic netlink family \"%s\" "
					    "(pcieaudit.ko not loaded?)",
					    PCIEAUDIT_FAMILY_NAME);
				if (e->error)
					die("%s: %s%s%s", what,
					    strerror(-e->error),
					    *extack_msg(nlh) ? ": " : "",
					    extack_msg(nlh));
				done = true;	/* the ack */
				break;
			}
			if (nlh->nlmsg_type == NLMSG_DONE) {
				int err = 0;

				if (nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(err)))
					memcpy(&err, NLMSG_DATA(nlh), sizeof(err));
				if (err)
					die("%s: %s%s%s", what, strerror(-err),
					    *extack_msg(nlh) ? ": " : "",
					    extack_msg(nlh));
				done = true;
				break;
			}
			if (cb)
				cb(nlh, arg);
			if (!dump && !ack) {
				done = true;	/* one reply, no ack asked */
				break;
			}
		}
	}
	if (verbose)
		fprintf(stderr, "%s %llu %llu %llu\n", what, nl->req_reads,
			nl->req_msgs, nl->req_bytes);
	return intr;
}

/* A dump of cmd with alen bytes of attributes, run again when interrupted. */
static void nl_dump(struct nl *nl, const char *what, uint8_t cmd,
		    const void *attrs, size_t alen, on_reply cb, void *arg,
		    void (*restart)(void *arg))
{
	for (int attempt = 0; attempt <= DUMP_RETRIES; attempt++) {
		if (attempt && restart)
			restart(arg);
		nl_send(nl, nl->family, NLM_F_DUMP, cmd,
			PCIEAUDIT_FAMILY_VERSION, attrs, alen);
		if (!nl_recv(nl, what, true, false, cb, arg))
			return;
	}
	die("%s: interrupted by hot-plug %d times", what, DUMP_RETRIES + 1);
}

/* ---- the requests -------------------------------------------------------- */

static void on_family(const struct nlmsghdr *nlh, void *arg)
{
	struct nl *nl = arg;
	const void *attrs;
	uint32_t version = 0;
	int len;

	attrs = genl_attrs(nlh, &len);
	if (!nla_get(nla_find(attrs, len, CTRL_ATTR_FAMILY_ID), &nl->family,
		     sizeof(nl->family)) || !nl->family)
		die("family lookup: no family id in the reply");
	/* The CLI checks it in the controller's dump; the same value. */
	if (nla_get(nla_find(attrs, len, CTRL_ATTR_VERSION), &version,
		    sizeof(version)) && version != PCIEAUDIT_FAMILY_VERSION)
		die("family version %u, not %d", version,
		    PCIEAUDIT_FAMILY_VERSION);
}

static void lookup(struct nl *nl)
{
	char attrs[NLA_ALIGN(NLA_HDRLEN + sizeof(PCIEAUDIT_FAMILY_NAME))];
	size_t pos = 0;

	nla_put(attrs, &pos, CTRL_ATTR_FAMILY_NAME, PCIEAUDIT_FAMILY_NAME,
		sizeof(PCIEAUDIT_FAMILY_NAME));
	nl_send(nl, GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY, CTRL_VERSION, attrs,
		pos);
	nl_recv(nl, "family lookup", false, false, on_family, nl);
	if (!nl->family)
		die("family lookup: no reply");
	/* The controller's cache, for the version; interrupted, libnl
	 * (nl_cache_refill()) asks again. */
	for (int i = 0;; i++) {
		nl_send(nl, GENL_ID_CTRL, NLM_F_DUMP, CTRL_CMD_GETFAMILY,
			CTRL_VERSION, NULL, 0);
		if (!nl_recv(nl, "family dump", true, false, NULL, NULL))
			break;
		if (i == DUMP_RETRIES)
			die("family dump: interrupted %d times", i + 1);
	}
}

/* What topo's default selection is ordered by (user/analysis/topo.c):
 * NVIDIA's GPUs, AMD's, accelerators, NICs, NVMe, other display
 * functions; -1 for what it leaves out. */
enum { R_NVIDIA, R_AMD, R_ACC, R_NIC, R_NVME, R_DISPLAY, NRANKS };

static int rank_of(uint16_t vendor, uint32_t class, uint32_t flags)
{
	if (flags & (PCIEAUDIT_DEV_F_BRIDGE | PCIEAUDIT_DEV_F_VIRTFN))
		return -1;
	if (class >> 16 == 0x03)
		return vendor == 0x10de ? R_NVIDIA :
		       vendor == 0x1002 ? R_AMD : R_DISPLAY;
	if (class >> 16 == 0x12 || class >> 8 == 0x0b40)
		return R_ACC;
	if (class >> 16 == 0x02)
		return R_NIC;
	if (class == 0x010802)
		return R_NVME;
	return -1;
}

/* The selected functions' SELECT_DEV nests, one list per rank, each in
 * the dump's (address) order, as the CLI's sorted report has them. */
struct selection {
	char *nests[NRANKS];
	size_t len[NRANKS], cap[NRANKS], n;
};

/* A PCIEAUDIT_A_ADDR_* nest as libnl's put_addr() builds it. */
#define ADDR_NEST_LEN	(NLA_HDRLEN + NLA_ALIGN(NLA_HDRLEN + 4) + \
			 2 * NLA_ALIGN(NLA_HDRLEN + 1))

static void on_device(const struct nlmsghdr *nlh, void *arg)
{
	struct selection *sel = arg;
	const struct nlattr *addr, *d, *b, *f;
	uint32_t class = 0, flags = 0, domain = 0;
	uint16_t vendor = 0;
	uint8_t bus = 0, devfn = 0;
	struct nlattr *nest;
	const void *attrs;
	size_t pos;
	int len, r;

	attrs = genl_attrs(nlh, &len);
	addr = nla_find(attrs, len, PCIEAUDIT_A_DEV_ADDR);
	nla_get(nla_find(attrs, len, PCIEAUDIT_A_DEV_VENDOR), &vendor,
		sizeof(vendor));
	nla_get(nla_find(attrs, len, PCIEAUDIT_A_DEV_CLASS), &class,
		sizeof(class));
	nla_get(nla_find(attrs, len, PCIEAUDIT_A_DEV_FLAGS), &flags,
		sizeof(flags));
	r = rank_of(vendor, class & 0xffffff, flags);
	if (r < 0)
		return;
	d = addr ? nla_find(NLA_DATA(addr), NLA_PLEN(addr),
			    PCIEAUDIT_A_ADDR_DOMAIN) : NULL;
	b = addr ? nla_find(NLA_DATA(addr), NLA_PLEN(addr),
			    PCIEAUDIT_A_ADDR_BUS) : NULL;
	f = addr ? nla_find(NLA_DATA(addr), NLA_PLEN(addr),
			    PCIEAUDIT_A_ADDR_DEVFN) : NULL;
	if (!nla_get(d, &domain, 4) || !nla_get(b, &bus, 1) ||
	    !nla_get(f, &devfn, 1))
		die("device dump: a function without an address");
	if (sel->len[r] + ADDR_NEST_LEN > sel->cap[r]) {
		sel->cap[r] = 2 * sel->cap[r] + 16 * ADDR_NEST_LEN;
		sel->nests[r] = realloc(sel->nests[r], sel->cap[r]);
		if (!sel->nests[r])
			die("out of memory");
	}
	pos = sel->len[r];
	nest = nla_put(sel->nests[r], &pos, PCIEAUDIT_A_P2P_SELECT_DEV |
		       NLA_F_NESTED, NULL, 0);
	nla_put(sel->nests[r], &pos, PCIEAUDIT_A_ADDR_DOMAIN, &domain, 4);
	nla_put(sel->nests[r], &pos, PCIEAUDIT_A_ADDR_BUS, &bus, 1);
	nla_put(sel->nests[r], &pos, PCIEAUDIT_A_ADDR_DEVFN, &devfn, 1);
	nest->nla_len = (uint16_t)(pos - sel->len[r]);
	sel->len[r] = pos;
	sel->n++;
}

static void restart_devices(void *arg)
{
	struct selection *sel = arg;

	for (int r = 0; r < NRANKS; r++)
		sel->len[r] = 0;
	sel->n = 0;
}

int main(int argc, char **argv)
{
	struct selection sel = { 0 };
	struct nl nl = { .fd = -1 };
	char *attrs = NULL;
	size_t alen = 0;

	if (argc == 2 && !strcmp(argv[1], "-v")) {
		verbose = true;
	} else if (argc != 1) {
		fprintf(stderr, "usage: nldump [-v]\n");
		return 2;
	}
	nl_open(&nl);
	lookup(&nl);

	nl_send(&nl, nl.family, NLM_F_ACK, PCIEAUDIT_CMD_INFO_GET,
		PCIEAUDIT_FAMILY_VERSION, NULL, 0);
	nl_recv(&nl, "info", false, true, NULL, NULL);
	nl_dump(&nl, "devices", PCIEAUDIT_CMD_DEV_GET, NULL, 0, on_device,
		&sel, restart_devices);
	nl_dump(&nl, "groups", PCIEAUDIT_CMD_GROUP_GET, NULL, 0, NULL, NULL,
		NULL);
	/* pa_fetch_topo_pairs(): one function makes no pair, and none must
	 * not become "select all". */
	if (sel.n > 1) {
		for (int r = 0; r < NRANKS; r++)
			alen += sel.len[r];
		attrs = malloc(alen);
		if (!attrs)
			die("out of memory");
		alen = 0;
		for (int r = 0; r < NRANKS; r++) {
			if (sel.len[r])
				memcpy(attrs + alen, sel.nests[r], sel.len[r]);
			alen += sel.len[r];
		}
		nl_dump(&nl, "p2p", PCIEAUDIT_CMD_P2P_GET, attrs, alen, NULL,
			NULL, NULL);
	}
	if (verbose)
		fprintf(stderr, "selected %zu\n", sel.n);
	printf("%llu %llu\n", nl.msgs, nl.bytes);
	free(attrs);
	for (int r = 0; r < NRANKS; r++)
		free(sel.nests[r]);
	close(nl.fd);
	return fflush(stdout) ? 1 : 0;
}
