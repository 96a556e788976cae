// SPDX-License-Identifier: GPL-2.0
/*
 * p2p-probe: asks PCIEAUDIT_CMD_P2P_GET and prints every attribute of every
 * pair, one line each, for the host's oracle to compare with the kernel's
 * own log, sysfs and configuration space. It judges nothing itself.
 *
 *   p2p-probe dump [--quiet] [BDF...]
 *	every ordered pair of functions without a subordinate bus (no
 *	selectors), or of the BDFs (address selectors); --quiet leaves
 *	PCIEAUDIT_P2P_F_KERNEL_VERBOSE off
 *   p2p-probe do [--quiet] PROVIDER CLIENT...
 *	one do request
 *   p2p-probe do-each BDF...
 *	one verbose do request per BDF as provider, with every other BDF as
 *	its clients (split into requests of PCIEAUDIT_P2P_MAX_CLIENTS)
 *
 * Output, one line each; "-" is an absent attribute, lists are joined with
 * "," (hops, from the end point up) or ";" (redirecting functions, as the
 * kernel lists them for pci=disable_acs_redir=):
 *   pair op=<dump|do> provider=<bdf> client=<bdf> kstatus=<status>
 *	kdist=<n|-> dist=<n> len=<n> map=<map> path=<path> host=<rule>
 *	common=<bdf|-> hops_p=<list> hops_c=<list> redirect=<list>
 *	hb_p=<vvvv:dddd|-> hb_c=<vvvv:dddd|-> intr=<0|1>
 *   many op=do provider=<bdf> clients=<list> kdist=<n|->
 *   done op=<dump|do|do-each> pairs=<n> parts=<dump parts or requests>
 *	rc=<errno or 0>
 *   error op=<...> rc=<errno> msg=<extack message>
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include <linux/pcieaudit.h>

#ifndef NLMSGERR_ATTR_MSG
#define NLMSGERR_ATTR_MSG 1
#endif

struct addr {
	unsigned int domain, bus, devfn;
};

static int family;
static unsigned int npairs;

static const char *name_of(const char *const *names, unsigned int n,
			   unsigned int v)
{
	static char buf[16];

	if (v < n && names[v])
		return names[v];
	snprintf(buf, sizeof(buf), "unknown(%u)", v);
	return buf;
}

static const char *const kstatus_names[] = {
	[PCIEAUDIT_P2P_KERNEL_ANSWERED] = "answered",
	[PCIEAUDIT_P2P_KERNEL_NOT_BUILT] = "not_built",
	[PCIEAUDIT_P2P_KERNEL_WITHHELD_LOG] = "withheld_log",
	[PCIEAUDIT_P2P_KERNEL_WITHHELD_UNSAFE] = "withheld_unsafe",
};
static const char *const agree_names[] = {
	[PCIEAUDIT_P2P_AGREE] = "agree",
	[PCIEAUDIT_P2P_DISAGREE] = "disagree",
};
static const char *const map_names[] = {
	[PCIEAUDIT_P2P_MAP_BUS_ADDR] = "bus_addr",
	[PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE] = "thru_host_bridge",
	[PCIEAUDIT_P2P_MAP_NOT_SUPPORTED] = "not_supported",
};
static const char *const path_names[] = {
	[PCIEAUDIT_P2P_PATH_COMMON_UPSTREAM] = "common_upstream",
	[PCIEAUDIT_P2P_PATH_ACS_REDIRECT] = "acs_redirect",
	[PCIEAUDIT_P2P_PATH_NO_COMMON_UPSTREAM] = "no_common_upstream",
};
static const char *const host_names[] = {
	[PCIEAUDIT_P2P_HOST_NOT_NEEDED] = "not_needed",
	[PCIEAUDIT_P2P_HOST_CPU] = "cpu",
	[PCIEAUDIT_P2P_HOST_WHITELIST] = "whitelist",
	[PCIEAUDIT_P2P_HOST_REFUSED] = "refused",
};
#define NAME(tab, v) name_of(tab, sizeof(tab) / sizeof(tab[0]), v)

static int parse_bdf(const char *s, struct addr *a)
{
	unsigned int dev, fn;
	char end;

	if (sscanf(s, "%x:%x:%x.%u%c", &a->domain, &a->bus, &dev, &fn, &end) != 4 ||
	    a->bus > 0xff || dev > 0x1f || fn > 7) {
		fprintf(stderr, "not a BDF: %s\n", s);
		return -1;
	}
	a->devfn = dev << 3 | fn;
	return 0;
}

/* "dddd:bb:dd.f" of an address nest, or "malformed". */
static const char *fmt_addr(struct nlattr *nest, char *buf, size_t len)
{
	struct nlattr *tb[PCIEAUDIT_A_ADDR_MAX + 1];

	if (!nest || nla_parse_nested(tb, PCIEAUDIT_A_ADDR_MAX, nest, NULL) ||
	    !tb[PCIEAUDIT_A_ADDR_DOMAIN] || !tb[PCIEAUDIT_A_ADDR_BUS] ||
	    !tb[PCIEAUDIT_A_ADDR_DEVFN]) {
		snprintf(buf, len, "malformed");
		return buf;
	}
	uint8_t devfn = nla_get_u8(tb[PCIEAUDIT_A_ADDR_DEVFN]);

	snprintf(buf, len, "%04x:%02x:%02x.%d",
		 nla_get_u32(tb[PCIEAUDIT_A_ADDR_DOMAIN]),
		 nla_get_u8(tb[PCIEAUDIT_A_ADDR_BUS]), devfn >> 3, devfn & 7);
	return buf;
}

/* The addresses of every TYPE attribute directly inside NEST, joined. */
static void fmt_list(struct nlattr *nest, int type, char sep, char *buf,
		     size_t len)
{
	struct nlattr *a;
	size_t used = 0;
	int rem;

	buf[0] = 0;
	nla_for_each_nested(a, nest, rem) {
		char one[32];

		if (nla_type(a) != type)
			continue;
		used += snprintf(buf + used, len - used, "%s%s",
				 used ? (char[]){ sep, 0 } : "",
				 fmt_addr(a, one, sizeof(one)));
		if (used >= len)
			break;
	}
	if (!buf[0])
		snprintf(buf, len, "-");
}

static void fmt_u32_or_dash(struct nlattr *a, char *buf, size_t len)
{
	if (a)
		snprintf(buf, len, "%u", nla_get_u32(a));
	else
		snprintf(buf, len, "-");
}

static void fmt_s32_or_dash(struct nlattr *a, char *buf, size_t len)
{
	if (a)
		snprintf(buf, len, "%d", (int)nla_get_s32(a));
	else
		snprintf(buf, len, "-");
}

static void fmt_hb(struct nlattr *a, char *buf, size_t len)
{
	if (a)
		snprintf(buf, len, "%04x:%04x", nla_get_u32(a) >> 16,
			 nla_get_u32(a) & 0xffff);
	else
		snprintf(buf, len, "-");
}

static void print_pair(const char *op, const char *provider,
		       struct nlattr *pair, bool intr)
{
	struct nlattr *tb[PCIEAUDIT_A_PAIR_MAX + 1];
	char client[32], common[32], kdist[16], dist[16], len[16];
	char hops_p[1024], hops_c[1024], redir[1024], hb_p[16], hb_c[16];
	const char *agree = "-";

	if (nla_parse_nested(tb, PCIEAUDIT_A_PAIR_MAX, pair, NULL) ||
	    !tb[PCIEAUDIT_A_PAIR_KERNEL_STATUS] || !tb[PCIEAUDIT_A_PAIR_MAP] ||
	    !tb[PCIEAUDIT_A_PAIR_PATH] || !tb[PCIEAUDIT_A_PAIR_HOST_RULE]) {
		printf("malformed op=%s provider=%s\n", op, provider);
		return;
	}
	fmt_addr(tb[PCIEAUDIT_A_PAIR_CLIENT], client, sizeof(client));
	if (tb[PCIEAUDIT_A_PAIR_COMMON])
		fmt_addr(tb[PCIEAUDIT_A_PAIR_COMMON], common, sizeof(common));
	else
		snprintf(common, sizeof(common), "-");
	fmt_s32_or_dash(tb[PCIEAUDIT_A_PAIR_KERNEL_DISTANCE], kdist, sizeof(kdist));
	fmt_s32_or_dash(tb[PCIEAUDIT_A_PAIR_DISTANCE], dist, sizeof(dist));
	fmt_u32_or_dash(tb[PCIEAUDIT_A_PAIR_PATH_LENGTH], len, sizeof(len));
	fmt_list(pair, PCIEAUDIT_A_PAIR_HOP_PROVIDER, ',', hops_p, sizeof(hops_p));
	fmt_list(pair, PCIEAUDIT_A_PAIR_HOP_CLIENT, ',', hops_c, sizeof(hops_c));
	fmt_list(pair, PCIEAUDIT_A_PAIR_REDIRECT, ';', redir, sizeof(redir));
	fmt_hb(tb[PCIEAUDIT_A_PAIR_HOST_BRIDGE_PROVIDER], hb_p, sizeof(hb_p));
	fmt_hb(tb[PCIEAUDIT_A_PAIR_HOST_BRIDGE_CLIENT], hb_c, sizeof(hb_c));
	if (tb[PCIEAUDIT_A_PAIR_AGREEMENT])
		agree = NAME(agree_names, nla_get_u32(tb[PCIEAUDIT_A_PAIR_AGREEMENT]));

	printf("pair op=%s provider=%s client=%s kstatus=%s kdist=%s agree=%s dist=%s len=%s "
	       "map=%s path=%s host=%s common=%s hops_p=%s hops_c=%s redirect=%s "
	       "hb_p=%s hb_c=%s intr=%d\n",
	       op, provider, client,
	       NAME(kstatus_names, nla_get_u32(tb[PCIEAUDIT_A_PAIR_KERNEL_STATUS])),
	       kdist, agree, dist, len,
	       NAME(map_names, nla_get_u32(tb[PCIEAUDIT_A_PAIR_MAP])),
	       NAME(path_names, nla_get_u32(tb[PCIEAUDIT_A_PAIR_PATH])),
	       NAME(host_names, nla_get_u32(tb[PCIEAUDIT_A_PAIR_HOST_RULE])),
	       common, hops_p, hops_c, redir, hb_p, hb_c, intr);
	npairs++;
}

/* One reply message: the provider, the many-distance of a do, its pairs. */
static void print_msg(const char *op, struct nlmsghdr *nlh, const char *clients)
{
	struct nlattr *tb[PCIEAUDIT_A_P2P_MAX + 1];
	bool intr = nlh->nlmsg_flags & NLM_F_DUMP_INTR;
	char provider[32], kdist[16];
	struct nlattr *a;
	int rem;

	if (genlmsg_parse(nlh, 0, tb, PCIEAUDIT_A_P2P_MAX, NULL) ||
	    !tb[PCIEAUDIT_A_P2P_PROVIDER]) {
		printf("malformed op=%s\n", op);
		return;
	}
	fmt_addr(tb[PCIEAUDIT_A_P2P_PROVIDER], provider, sizeof(provider));
	if (clients) {
		fmt_s32_or_dash(tb[PCIEAUDIT_A_P2P_KERNEL_DISTANCE], kdist,
				sizeof(kdist));
		printf("many op=%s provider=%s clients=%s kdist=%s\n", op,
		       provider, clients, kdist);
	}
	nlmsg_for_each_attr(a, nlh, GENL_HDRLEN, rem)
		if (nla_type(a) == PCIEAUDIT_A_P2P_PAIR)
			print_pair(op, provider, a, intr);
}

/* Receives until the dump ends or the do is acknowledged. */
static int receive(struct nl_sock *sk, const char *op, const char *clients,
		   int *parts)
{
	struct sockaddr_nl peer;
	unsigned char *buf;
	bool done = false;
	int n, rc = 0;

	while (!done && (n = nl_recv(sk, &peer, &buf, NULL)) > 0) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;

		(*parts)++;
		for (; nlmsg_ok(nlh, n); nlh = nlmsg_next(nlh, &n)) {
			if (nlh->nlmsg_type == NLMSG_DONE) {
				done = true;
			} else if (nlh->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = nlmsg_data(nlh);
				struct nlattr *tb[NLMSGERR_ATTR_MSG + 1] = { 0 };
				int off = sizeof(*e);

				rc = -e->error;
				done = true;
				if (!rc)
					continue;
				if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
					off += e->msg.nlmsg_len - sizeof(e->msg);
				if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
					nla_parse(tb, NLMSGERR_ATTR_MSG,
						  (struct nlattr *)((char *)e + off),
						  nlh->nlmsg_len - NLMSG_HDRLEN - off,
						  NULL);
				printf("error op=%s rc=%d msg=%s\n", op, rc,
				       tb[NLMSGERR_ATTR_MSG] ?
				       nla_get_string(tb[NLMSGERR_ATTR_MSG]) : "-");
			} else if (nlh->nlmsg_type == family) {
				print_msg(op, nlh, clients);
			}
		}
		free(buf);
	}
	if (n < 0) {
		fprintf(stderr, "recv: %s\n", nl_geterror(n));
		rc = -n;
	}
	return rc;
}

static struct nl_sock *open_socket(size_t bufsize)
{
	struct nl_sock *sk = nl_socket_alloc();

	if (!sk || genl_connect(sk)) {
		fprintf(stderr, "cannot open a generic netlink socket\n");
		exit(1);
	}
	/* One part per recvmsg(): no peeking, a fixed buffer. */
	nl_socket_disable_msg_peek(sk);
	nl_socket_set_msg_buf_size(sk, bufsize);
	return sk;
}

static int put_addr(struct nl_msg *msg, int type, const struct addr *a)
{
	struct nlattr *nest = nla_nest_start(msg, type);

	if (!nest || nla_put_u32(msg, PCIEAUDIT_A_ADDR_DOMAIN, a->domain) ||
	    nla_put_u8(msg, PCIEAUDIT_A_ADDR_BUS, a->bus) ||
	    nla_put_u8(msg, PCIEAUDIT_A_ADDR_DEVFN, a->devfn))
		return -1;
	nla_nest_end(msg, nest);
	return 0;
}

static void *put_header(struct nl_msg *msg, int flags)
{
	return genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, flags,
			   PCIEAUDIT_CMD_P2P_GET, PCIEAUDIT_FAMILY_VERSION);
}

/*
 * A page-sized buffer makes a dump of a few dozen pairs span several parts,
 * so that resuming by key is exercised as well. Without addresses the
 * module selects every function without a subordinate bus (its general
 * path); with up to 64 it resolves them in one walk per part (the CLI's).
 */
static int do_dump(const struct addr *sel, unsigned int n, bool verbose)
{
	struct nl_sock *sk = open_socket(4096);
	struct nl_msg *msg = nlmsg_alloc_size(64 * 1024);
	int parts = 0, rc;
	unsigned int i;

	if (!msg || !put_header(msg, NLM_F_DUMP) ||
	    nla_put_u32(msg, PCIEAUDIT_A_P2P_FLAGS,
			verbose ? PCIEAUDIT_P2P_F_KERNEL_VERBOSE : 0)) {
		fprintf(stderr, "cannot build the dump request\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (put_addr(msg, PCIEAUDIT_A_P2P_SELECT_DEV, &sel[i])) {
			fprintf(stderr, "cannot build the dump request\n");
			return 1;
		}
	}
	if (nl_send_auto(sk, msg) < 0) {
		fprintf(stderr, "cannot send the dump request\n");
		return 1;
	}
	nlmsg_free(msg);
	rc = receive(sk, "dump", NULL, &parts);
	printf("done op=dump pairs=%u parts=%d rc=%d\n", npairs, parts, rc);
	nl_socket_free(sk);
	return rc ? 1 : 0;
}

/* One do request; the clients are printed as the request named them. */
static int do_request(const struct addr *provider, const struct addr *clients,
		      unsigned int n, bool verbose)
{
	struct nl_sock *sk = open_socket(256 * 1024);
	struct nl_msg *msg = nlmsg_alloc_size(64 * 1024);
	char list[64 * 16] = "";
	size_t used = 0;
	unsigned int i;
	int parts = 0, rc;

	if (!msg || !put_header(msg, 0) ||
	    put_addr(msg, PCIEAUDIT_A_P2P_PROVIDER, provider) ||
	    nla_put_u32(msg, PCIEAUDIT_A_P2P_FLAGS,
			verbose ? PCIEAUDIT_P2P_F_KERNEL_VERBOSE : 0)) {
		fprintf(stderr, "cannot build the do request\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (put_addr(msg, PCIEAUDIT_A_P2P_CLIENT, &clients[i])) {
			fprintf(stderr, "cannot build the do request\n");
			return 1;
		}
		used += snprintf(list + used, sizeof(list) - used,
				 "%s%04x:%02x:%02x.%u", i ? "," : "",
				 clients[i].domain, clients[i].bus,
				 clients[i].devfn >> 3, clients[i].devfn & 7);
	}
	if (nl_send_auto(sk, msg) < 0) {
		fprintf(stderr, "cannot send the do request\n");
		return 1;
	}
	nlmsg_free(msg);
	rc = receive(sk, "do", list, &parts);
	nl_socket_free(sk);
	return rc;
}

int main(int argc, char **argv)
{
	struct addr addrs[1024], clients[PCIEAUDIT_P2P_MAX_CLIENTS];
	bool verbose = true;
	const char *op;
	struct nl_sock *sk;
	int i, n, rc = 0;

	if (argc < 2)
		goto usage;
	op = argv[1];
	argv += 2;
	argc -= 2;
	if (argc && !strcmp(argv[0], "--quiet")) {
		verbose = false;
		argv++;
		argc--;
	}
	if (argc > (int)(sizeof(addrs) / sizeof(addrs[0])))
		goto usage;
	for (i = 0; i < argc; i++)
		if (parse_bdf(argv[i], &addrs[i]))
			goto usage;

	sk = nl_socket_alloc();
	if (!sk || genl_connect(sk))
		return 1;
	family = genl_ctrl_resolve(sk, PCIEAUDIT_FAMILY_NAME);
	nl_socket_free(sk);
	if (family < 0) {
		fprintf(stderr, "family: %s\n", nl_geterror(family));
		printf("done op=%s pairs=0 parts=0 rc=%d\n", op, ENOENT);
		return 1;
	}

	if (!strcmp(op, "dump"))
		return do_dump(addrs, argc, verbose);
	if (!strcmp(op, "do") && argc >= 2 &&
	    argc - 1 <= PCIEAUDIT_P2P_MAX_CLIENTS) {
		rc = do_request(&addrs[0], &addrs[1], argc - 1, verbose);
		printf("done op=do pairs=%u parts=1 rc=%d\n", npairs, rc);
		return rc ? 1 : 0;
	}
	if (!strcmp(op, "do-each") && verbose && argc >= 2) {
		int requests = 0;

		for (i = 0; i < argc && !rc; i++) {
			int j;

			for (n = 0, j = 0; j < argc && !rc; j++) {
				if (j == i)
					continue;
				clients[n++] = addrs[j];
				if (n == PCIEAUDIT_P2P_MAX_CLIENTS) {
					rc = do_request(&addrs[i], clients, n, true);
					requests++;
					n = 0;
				}
			}
			if (n && !rc) {
				rc = do_request(&addrs[i], clients, n, true);
				requests++;
			}
		}
		printf("done op=do-each pairs=%u parts=%d rc=%d\n", npairs,
		       requests, rc);
		return rc ? 1 : 0;
	}
usage:
	fprintf(stderr, "usage: p2p-probe dump [--quiet] [BDF...] | do [--quiet] PROVIDER CLIENT... | do-each BDF...\n");
	return 2;
}
