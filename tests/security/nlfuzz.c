// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz: randomised generic-netlink requests to the "pcieaudit" family,
 * every reply classified. Runs inside the test VM (guest-init.sh here).
 *
 *   nlfuzz [--seed S] [--count N] [--out DIR] [--unpriv] [--only I]
 *   nlfuzz --privcheck [--family-id ID] [--drop | --opened-unpriv]
 *   nlfuzz --joincheck [--drop] | --mon-selftest
 *   nlfuzz --listen --out DIR [--sockets N] [--small K] [--seed S]
 *
 * Message I is generated from (seed, I) alone, so `--seed S --only I`
 * replays one message and prints what came back. Each request is followed
 * by an NLMSG_NOOP with NLM_F_ACK (the sentinel): its ack marks the end of
 * the replies to the request, except for a dump already started, which is
 * read on to NLMSG_DONE.
 *
 * Before sending, predict() works out from the bytes alone what the netlink
 * and genetlink cores of Linux 6.1 (net/netlink/af_netlink.c
 * netlink_rcv_skb(), net/netlink/genetlink.c genl_rcv_msg(),
 * genl_family_rcv_msg(), genl_header_check(), genl_family_rcv_msg_doit()
 * and _dumpit()) do with it before any pcieaudit code runs. An error without
 * an extended-ack message is accepted only where that prediction says the
 * core refuses the request with exactly that error; anything that reaches
 * the family's ops must either answer with replies that decode by the UAPI
 * layout or fail with an extack message.
 *
 * Output in DIR: summary.txt (key=value), replies.tsv (one line per
 * request: index, generator, prediction, outcome, errno, extack, message),
 * failures.txt (the first failures with the request in hex).
 *
 * --listen subscribes N sockets (K of them with the smallest receive
 * buffer) to the "monitor" multicast group, plus one that keeps joining
 * and leaving it, until SIGTERM or the family's removal, and validates
 * every event (see listen_main()): DIR/summary.txt, events.tsv,
 * failures.txt. --joincheck prints what this process gets when it joins.
 *
 * The module asks its capabilities of the socket's opener alone
 * (pcieaudit_nl_perm()): --drop opens the socket as root, then becomes
 * nobody with no capability and no_new_privs before any request (or, with
 * --joincheck, after joining the group as root); --opened-unpriv opens it
 * with no effective capability (effective uid nobody) and sends as root
 * with every capability back. Both print the process's /proc status lines
 * after the switch.
 */
#define _GNU_SOURCE	/* setresuid() */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/pcieaudit.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_MSG 65536
#define RCVBUF (1 << 20)
#define REPLY_TIMEOUT_MS 30000
#define MAX_BATCH 4
#define MAX_FAIL_LOG 50

/* ---- PRNG: splitmix64, reseeded per message ---------------------------- */

static uint64_t rstate;

static uint64_t rnd(void)
{
	uint64_t z = (rstate += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t rn(uint32_t n)
{
	return n ? (uint32_t)(rnd() % n) : 0;
}

static bool chance(unsigned int pct)
{
	return rn(100) < pct;
}

/* ---- PCI functions present, from sysfs (the independent list) ---------- */

struct pdev {
	uint32_t domain;
	uint8_t bus, devfn;
	uint32_t class;
};

static struct pdev devs[256];
static unsigned int ndev;

static int cmp_dev(const void *a, const void *b)
{
	const struct pdev *x = a, *y = b;
	uint64_t kx = (uint64_t)x->domain << 16 | x->bus << 8 | x->devfn;
	uint64_t ky = (uint64_t)y->domain << 16 | y->bus << 8 | y->devfn;

	return kx < ky ? -1 : kx > ky;
}

static void read_devs(void)
{
	DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) && ndev < ARRAY_SIZE(devs)) {
		unsigned int dom, bus, dev, fn;
		char path[300];
		FILE *f;

		if (sscanf(e->d_name, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
			continue;
		devs[ndev].domain = dom;
		devs[ndev].bus = bus;
		devs[ndev].devfn = dev << 3 | fn;
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/class",
			 e->d_name);
		f = fopen(path, "r");
		if (f) {
			if (fscanf(f, "%x", &devs[ndev].class) != 1)
				devs[ndev].class = 0;
			fclose(f);
		}
		ndev++;
	}
	closedir(d);
	qsort(devs, ndev, sizeof(devs[0]), cmp_dev);
}

static int find_dev(uint32_t domain, uint8_t bus, uint8_t devfn)
{
	for (unsigned int i = 0; i < ndev; i++)
		if (devs[i].domain == domain && devs[i].bus == bus &&
		    devs[i].devfn == devfn)
			return (int)i;
	return -1;
}

static bool listening;	/* --listen: functions come and go */

/* A function hot-added since read_devs(), for the listener. */
static bool in_sysfs_now(uint32_t domain, uint8_t bus, uint8_t devfn)
{
	char path[64];

	if (!listening)
		return false;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%04x:%02x:%02x.%x",
		 domain, bus, devfn >> 3, devfn & 7);
	return access(path, F_OK) == 0;
}

/* ---- request trees ------------------------------------------------------ */

#define MAX_NODES 8192
#define MAX_DATA 260

struct node {
	uint16_t type;		/* with NLA_F_* bits */
	bool nest;
	uint16_t dlen;
	uint8_t data[MAX_DATA];
	int child, next;	/* -1 terminated */
};

static struct node pool[MAX_NODES];
static int npool;

static int new_node(uint16_t type, bool nest)
{
	struct node *n;

	if (npool == MAX_NODES)
		return -1;
	n = &pool[npool];
	memset(n, 0, sizeof(*n));
	n->type = type;
	n->nest = nest;
	n->child = n->next = -1;
	return npool++;
}

static int leaf(uint16_t type, const void *data, uint16_t len)
{
	int i = new_node(type, false);

	if (i >= 0) {
		pool[i].dlen = len;
		memcpy(pool[i].data, data, len);
	}
	return i;
}

static int leaf_u32(uint16_t type, uint32_t v)
{
	return leaf(type, &v, 4);
}

static int leaf_u8(uint16_t type, uint8_t v)
{
	return leaf(type, &v, 1);
}

static int leaf_rand(uint16_t type, uint16_t len)
{
	uint8_t b[MAX_DATA];

	for (unsigned int i = 0; i < len; i++)
		b[i] = (uint8_t)rnd();
	return leaf(type, b, len);
}

/* Appends child to parent's list (parent -1: to *top). */
static void add(int *head, int child)
{
	int *p = head;

	if (child < 0)
		return;
	while (*p >= 0)
		p = &pool[*p].next;
	*p = child;
}

static int nest(uint16_t type)
{
	return new_node(type | NLA_F_NESTED, true);
}

static int addr_nest(uint16_t type, uint32_t domain, uint8_t bus, uint8_t devfn)
{
	int n = nest(type);

	if (n < 0)
		return -1;
	add(&pool[n].child, leaf_u32(PCIEAUDIT_A_ADDR_DOMAIN, domain));
	add(&pool[n].child, leaf_u8(PCIEAUDIT_A_ADDR_BUS, bus));
	add(&pool[n].child, leaf_u8(PCIEAUDIT_A_ADDR_DEVFN, devfn));
	return n;
}

static int real_addr(uint16_t type)
{
	const struct pdev *d = &devs[rn(ndev)];

	if (!ndev)
		return addr_nest(type, 0, 0, 0);
	return addr_nest(type, d->domain, d->bus, d->devfn);
}

/* An address that is wrong in one of the ways the handlers must catch. */
static int bad_addr(uint16_t type)
{
	static const uint32_t domains[] = {
		1, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff,
	};
	const struct pdev *d = ndev ? &devs[rn(ndev)] : NULL;
	uint32_t domain = d ? d->domain : 0;
	uint8_t bus = d ? d->bus : 0, devfn = d ? d->devfn : 0;

	switch (rn(4)) {
	case 0:
		domain = domains[rn(ARRAY_SIZE(domains))];
		break;
	case 1:
		bus = (uint8_t)rnd();
		break;
	case 2:
		devfn = (uint8_t)rnd();
		break;
	default:
		domain = (uint32_t)rnd();
		bus = (uint8_t)rnd();
		devfn = (uint8_t)rnd();
		break;
	}
	return addr_nest(type, domain, bus, devfn);
}

/* ---- serialisation ------------------------------------------------------ */

struct req {
	uint16_t type;		/* nlmsg_type */
	uint16_t flags;
	uint8_t cmd, version;
	uint16_t reserved;
	int top;		/* first top-level attribute */
	bool valid;		/* built valid and left alone: must succeed */
	const char *gen;	/* generator, for the log */
};

struct wire {
	uint8_t b[MAX_MSG];
	size_t len;
	size_t attr_off[1024];	/* offsets of attribute headers */
	unsigned int nattr;
};

static bool put_tree(struct wire *w, int i)
{
	for (; i >= 0; i = pool[i].next) {
		struct node *n = &pool[i];
		size_t start = w->len;
		struct nlattr *a;

		if (w->len + NLA_HDRLEN > sizeof(w->b))
			return false;
		if (w->nattr < ARRAY_SIZE(w->attr_off))
			w->attr_off[w->nattr++] = start;
		w->len += NLA_HDRLEN;
		if (n->nest) {
			if (!put_tree(w, n->child))
				return false;
		} else {
			if (w->len + NLA_ALIGN(n->dlen) > sizeof(w->b))
				return false;
			memcpy(w->b + w->len, n->data, n->dlen);
			memset(w->b + w->len + n->dlen, 0,
			       NLA_ALIGN(n->dlen) - n->dlen);
			w->len += n->dlen;
		}
		a = (struct nlattr *)(w->b + start);
		a->nla_type = n->type;
		/* A nest's length covers its children, not its own padding. */
		a->nla_len = (uint16_t)(w->len - start);
		w->len = NLA_ALIGN(w->len);
	}
	return true;
}

static bool serialise(const struct req *r, struct wire *w, uint32_t seq)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)w->b;
	struct genlmsghdr *g = (struct genlmsghdr *)(w->b + NLMSG_HDRLEN);

	memset(w->b, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	w->nattr = 0;
	w->len = NLMSG_HDRLEN + GENL_HDRLEN;
	if (!put_tree(w, r->top))
		return false;
	nlh->nlmsg_len = (uint32_t)w->len;
	nlh->nlmsg_type = r->type;
	nlh->nlmsg_flags = r->flags;
	nlh->nlmsg_seq = seq;
	nlh->nlmsg_pid = 0;
	g->cmd = r->cmd;
	g->version = r->version;
	g->reserved = r->reserved;
	return true;
}

/* ---- valid requests ----------------------------------------------------- */

static uint16_t family_id;
static bool unpriv;

static void valid_req(struct req *r)
{
	unsigned int i, n;
	int a;

	memset(r, 0, sizeof(*r));
	r->type = family_id;
	r->version = PCIEAUDIT_FAMILY_VERSION;
	r->flags = NLM_F_REQUEST | (chance(50) ? NLM_F_ACK : 0);
	r->top = -1;
	r->valid = true;
	switch (rn(10)) {
	case 0:
		r->cmd = PCIEAUDIT_CMD_INFO_GET;
		break;
	case 1:
	case 2:
		r->cmd = PCIEAUDIT_CMD_DEV_GET;
		add(&r->top, real_addr(PCIEAUDIT_A_DEV_ADDR));
		break;
	case 3:
		r->cmd = PCIEAUDIT_CMD_DEV_GET;
		r->flags = NLM_F_REQUEST | NLM_F_DUMP;
		break;
	case 4:
		r->cmd = PCIEAUDIT_CMD_GROUP_GET;
		r->flags = NLM_F_REQUEST | NLM_F_DUMP;
		break;
	case 5:
	case 6:
	case 7:
		r->cmd = PCIEAUDIT_CMD_P2P_GET;
		add(&r->top, real_addr(PCIEAUDIT_A_P2P_PROVIDER));
		n = chance(80) ? 1 + rn(4) : 1 + rn(PCIEAUDIT_P2P_MAX_CLIENTS);
		for (i = 0; i < n; i++)
			add(&r->top, real_addr(PCIEAUDIT_A_P2P_CLIENT));
		if (chance(30))
			add(&r->top, leaf_u32(PCIEAUDIT_A_P2P_FLAGS, 0));
		break;
	default:
		/* Pair dumps are the costly request: select a few. */
		r->cmd = PCIEAUDIT_CMD_P2P_GET;
		r->flags = NLM_F_REQUEST | NLM_F_DUMP;
		n = 1 + rn(3);
		for (i = 0; i < n; i++) {
			if (chance(60) || !ndev) {
				add(&r->top, real_addr(PCIEAUDIT_A_P2P_SELECT_DEV));
				continue;
			}
			a = nest(PCIEAUDIT_A_P2P_SELECT_CLASS);
			if (a < 0)
				break;
			add(&pool[a].child, leaf_u32(PCIEAUDIT_A_CLASS_VALUE,
						     devs[rn(ndev)].class));
			add(&pool[a].child, leaf_u32(PCIEAUDIT_A_CLASS_MASK,
						     chance(50) ? 0xffff00 : 0xffffff));
			add(&r->top, a);
		}
		if (chance(20))
			add(&r->top, leaf_u32(PCIEAUDIT_A_P2P_FLAGS, 0));
		break;
	}
}

/* ---- mutations ---------------------------------------------------------- */

struct where {
	int idx;
	int *link;	/* the pointer that points at idx */
};

static unsigned int collect(int *link, struct where *out, unsigned int n,
			    unsigned int max)
{
	for (; *link >= 0 && n < max; link = &pool[*link].next) {
		out[n].idx = *link;
		out[n].link = link;
		n++;
		if (pool[*link].nest)
			n = collect(&pool[*link].child, out, n, max);
	}
	return n;
}

static int copy_tree(int i)
{
	int c, head = -1, n;

	if (i < 0)
		return -1;
	n = new_node(pool[i].type, pool[i].nest);
	if (n < 0)
		return -1;
	pool[n].dlen = pool[i].dlen;
	memcpy(pool[n].data, pool[i].data, pool[i].dlen);
	for (c = pool[i].child; c >= 0; c = pool[c].next)
		add(&head, copy_tree(c));
	pool[n].child = head;
	return n;
}

/* A random attribute tree, up to depth levels deep. */
static int rand_tree(unsigned int depth)
{
	int n, i, k;

	if (!depth || chance(50))
		return leaf_rand((uint16_t)rn(12), (uint16_t)rn(chance(80) ? 9 : MAX_DATA));
	n = nest((uint16_t)rn(12));
	if (n < 0)
		return -1;
	k = (int)rn(4);
	for (i = 0; i < k; i++)
		add(&pool[n].child, rand_tree(depth - 1));
	return n;
}

static uint16_t rand_type(uint16_t old)
{
	switch (rn(7)) {
	case 0:
		return 0;
	case 1:
		return (uint16_t)rn(PCIEAUDIT_A_DEV_MAX + 3);
	case 2:
		return (uint16_t)rnd();
	case 3:
		return old ^ NLA_F_NESTED;
	case 4:
		return old | NLA_F_NET_BYTEORDER;
	case 5:
		return (uint16_t)(1 + rn(PCIEAUDIT_A_P2P_MAX));
	default:
		return (uint16_t)(1 + rn(PCIEAUDIT_A_ADDR_MAX + 1));
	}
}

static void set_value(struct node *n)
{
	static const uint32_t v32[] = {
		0, 1, 0xff, 0xffff, 0x10000, 0xffffff, 0x1000000, 0x7fffffff,
		0x80000000, 0xfffffffe, 0xffffffff,
	};
	uint32_t v;

	if (n->dlen == 4) {
		v = chance(70) ? v32[rn(ARRAY_SIZE(v32))] : (uint32_t)rnd();
		memcpy(n->data, &v, 4);
	} else if (n->dlen) {
		n->data[rn(n->dlen)] ^= (uint8_t)(1 << rn(8));
	}
}

static void mutate_tree(struct req *r)
{
	struct where w[512];
	unsigned int nw = collect(&r->top, w, 0, ARRAY_SIZE(w));
	struct where *p = nw ? &w[rn(nw)] : NULL;
	struct node *n = p ? &pool[p->idx] : NULL;
	int c, d, k;

	switch (rn(11)) {
	case 0:		/* length */
		if (n && !n->nest) {
			static const uint16_t lens[] = { 0, 1, 2, 3, 5, 7, 8, 16 };
			uint16_t len = chance(80) ? lens[rn(ARRAY_SIZE(lens))] :
				       (uint16_t)rn(MAX_DATA);

			for (unsigned int i = n->dlen; i < len; i++)
				n->data[i] = (uint8_t)rnd();
			n->dlen = len;
			break;
		}
		/* fall through */
	case 1:		/* type */
		if (n)
			n->type = rand_type(n->type);
		break;
	case 2:		/* duplicate */
		if (p) {
			c = copy_tree(p->idx);
			if (c >= 0) {
				pool[c].next = pool[p->idx].next;
				pool[p->idx].next = c;
			}
		}
		break;
	case 3:		/* delete */
		if (p)
			*p->link = pool[p->idx].next;
		break;
	case 4:		/* insert noise */
		c = rand_tree(1 + rn(3));
		if (c >= 0) {
			int *link = p && n->nest && chance(50) ?
				    &n->child : &r->top;

			pool[c].next = *link;
			*link = c;
		}
		break;
	case 5:		/* leaf <-> nest */
		if (n && n->nest) {
			n->nest = false;
			n->child = -1;
			n->dlen = (uint16_t)rn(16);
			for (unsigned int i = 0; i < n->dlen; i++)
				n->data[i] = (uint8_t)rnd();
		} else if (n) {
			n->nest = true;
			n->type |= NLA_F_NESTED;
			n->child = rand_tree(2);
		}
		break;
	case 6:		/* wrap in a deep nest */
		if (p) {
			d = 1 + (int)rn(chance(50) ? 4 : 64);
			c = p->idx;
			for (k = 0; k < d; k++) {
				int o = nest(chance(50) ? pool[c].type & NLA_TYPE_MASK :
					     (uint16_t)(1 + rn(7)));

				if (o < 0)
					break;
				pool[o].next = pool[c].next;
				pool[c].next = -1;
				pool[o].child = c;
				c = o;
			}
			*p->link = c;
		}
		break;
	case 7:		/* wrong address */
		c = bad_addr(chance(50) && n ? n->type & NLA_TYPE_MASK :
			     (uint16_t)(1 + rn(PCIEAUDIT_A_P2P_MAX)));
		if (c >= 0 && p) {
			pool[c].next = pool[p->idx].next;
			*p->link = c;
		} else if (c >= 0) {
			add(&r->top, c);
		}
		break;
	case 8:		/* absurd number of clients */
		k = (int)(PCIEAUDIT_P2P_MAX_CLIENTS - 2 + rn(chance(50) ? 5 : 600));
		for (int i = 0; i < k; i++)
			add(&r->top, chance(95) ? real_addr(PCIEAUDIT_A_P2P_CLIENT) :
				     bad_addr(PCIEAUDIT_A_P2P_CLIENT));
		break;
	case 9:		/* P2P flags */
		add(&r->top, leaf_u32(PCIEAUDIT_A_P2P_FLAGS,
				      chance(50) ? 1u << rn(32) : (uint32_t)rnd()));
		break;
	default:	/* value */
		if (n && !n->nest)
			set_value(n);
		break;
	}
}

/* Header mutations; the flags are the ones the cores treat differently. */
static void mutate_header(struct req *r)
{
	static const uint16_t flags[] = {
		NLM_F_REQUEST, NLM_F_MULTI, NLM_F_ACK, NLM_F_ECHO,
		NLM_F_DUMP_INTR, NLM_F_DUMP_FILTERED, NLM_F_ROOT, NLM_F_MATCH,
		NLM_F_ATOMIC, NLM_F_DUMP, NLM_F_CREATE, NLM_F_EXCL,
	};

	r->valid = false;
	switch (rn(8)) {
	case 0:
		r->cmd = (uint8_t)(chance(50) ? rn(PCIEAUDIT_CMD_MAX + 3) : rnd());
		break;
	case 1:
		r->cmd = (uint8_t)(1 + rn(PCIEAUDIT_CMD_MAX));
		break;
	case 2:
		r->flags ^= flags[rn(ARRAY_SIZE(flags))];
		break;
	case 3:
		r->flags = (uint16_t)rnd();
		break;
	case 4:
		r->flags = NLM_F_REQUEST | (chance(50) ? NLM_F_DUMP : 0) |
			   (chance(50) ? NLM_F_ACK : 0);
		break;
	case 5:
		r->version = (uint8_t)rnd();
		break;
	case 6:
		r->reserved = (uint16_t)(chance(50) ? 1 : rnd());
		break;
	default:
		/* Not ours: ids above GENL_MAX_ID (1023) are never a family. */
		r->type = (uint16_t)(1024 + rn(65536 - 1024));
		break;
	}
}

/* ---- prediction: what the cores do before pcieaudit is reached --------- */

enum pred {
	P_DROP,		/* netlink_rcv_skb() ignores it: no reply */
	P_ACK0,		/* not a request: acked with 0 if NLM_F_ACK, else none */
	P_CORE,		/* core error, no extack (errno in pred_err) */
	P_CORE_EXT,	/* core error with extack (genl_header_check()) */
	P_DO,		/* reaches the op: doit */
	P_DUMP,		/* reaches the op: dump */
};

static const char *const pred_name[] = {
	"drop", "ack0", "core", "core_ext", "do", "dump",
};

static enum pred predict(const uint8_t *b, size_t len, int *err)
{
	const struct nlmsghdr *nlh = (const void *)b;
	const struct genlmsghdr *g = (const void *)(b + NLMSG_HDRLEN);
	uint16_t f;
	bool dump;

	*err = 0;
	if (len < NLMSG_HDRLEN || nlh->nlmsg_len < NLMSG_HDRLEN ||
	    nlh->nlmsg_len > len)
		return P_DROP;
	if (!(nlh->nlmsg_flags & NLM_F_REQUEST) ||
	    nlh->nlmsg_type < NLMSG_MIN_TYPE)
		return P_ACK0;
	/* genl_rcv_msg(): genl_family_find_byid() */
	if (nlh->nlmsg_type != family_id) {
		*err = ENOENT;
		return P_CORE;
	}
	/* genl_family_rcv_msg(): hdrsize is 0 */
	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN) {
		*err = EINVAL;
		return P_CORE;
	}
	/* genl_header_check(): resv_start_op is 0, so every command */
	f = nlh->nlmsg_flags;
	if ((f & NLM_F_DUMP) == NLM_F_DUMP)
		f &= ~NLM_F_DUMP;
	if (g->reserved || (f & ~(NLM_F_REQUEST | NLM_F_ACK | NLM_F_ECHO))) {
		*err = EINVAL;
		return P_CORE_EXT;
	}
	/* genl_get_cmd(): MON_EVENT is a multicast event, no op */
	if (g->cmd < 1 || g->cmd > PCIEAUDIT_CMD_MAX ||
	    g->cmd == PCIEAUDIT_CMD_MON_EVENT) {
		*err = EOPNOTSUPP;
		return P_CORE;
	}
	/* No op is GENL_ADMIN_PERM: the module itself refuses the unprivileged
	 * (pcieaudit_nl_perm()), with an extack message, after the core's
	 * policy checks. */
	/* _dumpit()/_doit(): the op lacks the handler */
	dump = (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
	if ((dump && g->cmd == PCIEAUDIT_CMD_INFO_GET) ||
	    (!dump && g->cmd == PCIEAUDIT_CMD_GROUP_GET)) {
		*err = EOPNOTSUPP;
		return P_CORE;
	}
	return dump ? P_DUMP : P_DO;
}

/* ---- statistics, log ---------------------------------------------------- */

static struct {
	unsigned long sent, batches, abandoned, replies, bytes;
	unsigned long drop, ack0;		/* silent as predicted */
	unsigned long answered;			/* (a) */
	unsigned long core_ext, module_ext;	/* (b) */
	unsigned long core_noext[4];		/* (c) ENOENT EINVAL EOPNOTSUPP EPERM */
	unsigned long unpriv_eperm;		/* --unpriv: the module's EPERM */
	unsigned long module_noext;		/* failure */
	unsigned long failures;
	unsigned long ok_by_cmd[2][PCIEAUDIT_CMD_MAX + 1];	/* do/dump */
	unsigned long dump_msgs, pairs;
} st;

struct hist {
	int err;
	char msg[80];
	unsigned long n;
};

static struct hist hist[128];
static unsigned int nhist;

static void count_msg(int err, const char *msg)
{
	unsigned int i;

	for (i = 0; i < nhist; i++)
		if (hist[i].err == err && !strcmp(hist[i].msg, msg)) {
			hist[i].n++;
			return;
		}
	if (nhist < ARRAY_SIZE(hist)) {
		hist[nhist].err = err;
		snprintf(hist[nhist].msg, sizeof(hist[nhist].msg), "%s", msg);
		hist[nhist++].n = 1;
	}
}

static FILE *flog, *ffail;
static bool verbose;

static void hexdump(FILE *f, const uint8_t *b, size_t len)
{
	for (size_t i = 0; i < len && i < 512; i++)
		fprintf(f, "%02x%s", b[i], (i % 32 == 31) ? "\n" : "");
	fputc('\n', f);
}

static void failure(unsigned long idx, const uint8_t *req, size_t len,
		    const char *fmt, ...)
{
	va_list ap;

	st.failures++;
	if (st.failures > MAX_FAIL_LOG && !verbose)
		return;
	va_start(ap, fmt);
	fprintf(ffail, "FAIL message %lu: ", idx);
	vfprintf(ffail, fmt, ap);
	va_end(ap);
	fprintf(ffail, "\nrequest (%zu bytes):\n", len);
	if (req)
		hexdump(ffail, req, len);
	fflush(ffail);
}

/* ---- reply decoding by the UAPI layout ---------------------------------- */

enum kind { K_NONE, K_U8, K_U16, K_U32, K_S32, K_STR, K_NEST, K_FLAG, K_U64 };

struct field {
	uint8_t kind;
	uint8_t max;		/* enum values: 1..max; 0 unchecked */
	bool repeat;
	const struct schema *nest;
};

struct schema {
	const char *name;
	unsigned int max;
	const struct field *f;	/* indexed by type */
	uint32_t required;	/* bit per type */
	bool addr;		/* a PCIEAUDIT_A_ADDR_* nest */
};

#define REQ(t) (1u << (t))

static const struct field addr_f[] = {
	[PCIEAUDIT_A_ADDR_DOMAIN] = { K_U32 },
	[PCIEAUDIT_A_ADDR_BUS] = { K_U8 },
	[PCIEAUDIT_A_ADDR_DEVFN] = { K_U8 },
};
static const struct schema addr_s = {
	"addr", PCIEAUDIT_A_ADDR_MAX, addr_f,
	REQ(1) | REQ(2) | REQ(3), true,
};
static const struct field acs_f[] = {
	[1] = { K_U16 }, [2] = { K_U16 }, [3] = { K_U16 }, [4] = { K_U16 },
};
static const struct schema acs_s = {
	"acs", PCIEAUDIT_A_ACS_MAX, acs_f, REQ(1) | REQ(2) | REQ(3), false,
};
static const struct field link_f[] = {
	[1] = { K_U32 }, [2] = { K_U16 }, [3] = { K_U32 }, [4] = { K_U16 },
};
static const struct schema link_s = {
	"link", PCIEAUDIT_A_LINK_MAX, link_f, REQ(1) | REQ(2), false,
};
static const struct field iommu_f[] = {
	[PCIEAUDIT_A_IOMMU_GROUP] = { K_U32 },
	[PCIEAUDIT_A_IOMMU_DOMAIN] = { K_U32, PCIEAUDIT_DOMAIN_NESTED },
	[PCIEAUDIT_A_IOMMU_DEF_DOMAIN] = { K_U32, PCIEAUDIT_DOMAIN_NESTED },
	[PCIEAUDIT_A_IOMMU_DEF_DOMAIN_SOURCE] = { K_U32, PCIEAUDIT_SOURCE_DERIVED },
	[PCIEAUDIT_A_IOMMU_INSTANCE] = { K_STR },
	[PCIEAUDIT_A_IOMMU_DMA_OWNER] = { K_U32, PCIEAUDIT_DMA_OWNER_CLAIMED },
};
static const struct schema iommu_s = {
	"iommu", PCIEAUDIT_A_IOMMU_MAX, iommu_f, REQ(1), false,
};
static const struct field ats_f[] = {
	[PCIEAUDIT_A_ATS_POS] = { K_U16 },
	[PCIEAUDIT_A_ATS_CAP] = { K_U16 },
	[PCIEAUDIT_A_ATS_CTRL] = { K_U16 },
};
static const struct schema ats_s = {
	"ats", PCIEAUDIT_A_ATS_MAX, ats_f, REQ(1) | REQ(2) | REQ(3), false,
};
static const struct field expdev_f[] = {
	[PCIEAUDIT_A_EXPDEV_DEVCAP] = { K_U32 },
	[PCIEAUDIT_A_EXPDEV_DEVCTL] = { K_U16 },
};
static const struct schema expdev_s = {
	"expdev", PCIEAUDIT_A_EXPDEV_MAX, expdev_f, REQ(1) | REQ(2), false,
};
/* The pad attribute of nla_put_u64_64bit() is empty, like a flag. */
static const struct field bar_f[] = {
	[PCIEAUDIT_A_BAR_INDEX] = { K_U8 },
	[PCIEAUDIT_A_BAR_SIZE] = { K_U64 },
	[PCIEAUDIT_A_BAR_FLAGS] = { K_U32 },
	[PCIEAUDIT_A_BAR_REBAR_CAP] = { K_U32 },
	[PCIEAUDIT_A_BAR_REBAR_CTRL] = { K_U32 },
	[PCIEAUDIT_A_BAR_PAD] = { K_FLAG },
	[PCIEAUDIT_A_BAR_START] = { K_U64 },
};
static const struct schema bar_s = {
	"bar", PCIEAUDIT_A_BAR_MAX, bar_f, REQ(1) | REQ(2) | REQ(3), false,
};
static const struct field vf_bar_f[] = {
	[PCIEAUDIT_A_VF_BAR_INDEX] = { K_U8 },
	[PCIEAUDIT_A_VF_BAR_REG] = { K_U32 },
	[PCIEAUDIT_A_VF_BAR_SIZE] = { K_U64 },
	[PCIEAUDIT_A_VF_BAR_FLAGS] = { K_U32 },
	[PCIEAUDIT_A_VF_BAR_PAD] = { K_FLAG },
};
static const struct schema vf_bar_s = {
	"vf bar", PCIEAUDIT_A_VF_BAR_MAX, vf_bar_f,
	REQ(PCIEAUDIT_A_VF_BAR_INDEX) | REQ(PCIEAUDIT_A_VF_BAR_REG), false,
};
static const struct field sriov_f[] = {
	[PCIEAUDIT_A_SRIOV_POS] = { K_U16 },
	[PCIEAUDIT_A_SRIOV_INITIAL_VFS] = { K_U16 },
	[PCIEAUDIT_A_SRIOV_TOTAL_VFS] = { K_U16 },
	[PCIEAUDIT_A_SRIOV_NUM_VFS] = { K_U16 },
	[PCIEAUDIT_A_SRIOV_VF_OFFSET] = { K_U16 },
	[PCIEAUDIT_A_SRIOV_VF_STRIDE] = { K_U16 },
	[PCIEAUDIT_A_SRIOV_KERNEL_NUM_VFS] = { K_U16 },
	[PCIEAUDIT_A_SRIOV_VF_BAR] = { K_NEST, 0, true, &vf_bar_s },
};
static const struct schema sriov_s = {
	"sriov", PCIEAUDIT_A_SRIOV_MAX, sriov_f,
	REQ(1) | REQ(2) | REQ(3) | REQ(4) | REQ(5) | REQ(6), false,
};
static const struct field passthru_f[] = {
	[PCIEAUDIT_A_PASSTHRU_PMCSR] = { K_U16 },
	[PCIEAUDIT_A_PASSTHRU_AF_CAP] = { K_U8 },
	[PCIEAUDIT_A_PASSTHRU_DEVCAP2] = { K_U32 },
	[PCIEAUDIT_A_PASSTHRU_DEVCTL2] = { K_U16 },
	[PCIEAUDIT_A_PASSTHRU_SRIOV] = { K_NEST, 0, false, &sriov_s },
	[PCIEAUDIT_A_PASSTHRU_PAD] = { K_FLAG },
	[PCIEAUDIT_A_PASSTHRU_RESET_METHODS] = { K_U64 },
};
static const struct schema passthru_s = {
	"passthru", PCIEAUDIT_A_PASSTHRU_MAX, passthru_f, 0, false,
};
static const struct field hist_f[] = {
	[PCIEAUDIT_A_HIST_SINCE_NS] = { K_U64 },
	[PCIEAUDIT_A_HIST_TRANSITIONS] = { K_U64 },
	[PCIEAUDIT_A_HIST_BELOW_NS] = { K_U64 },
	[PCIEAUDIT_A_HIST_MIN_SPEED] = { K_U8 },
	[PCIEAUDIT_A_HIST_MIN_WIDTH] = { K_U8 },
	[PCIEAUDIT_A_HIST_LAST_CHANGE_NS] = { K_U64 },
	[PCIEAUDIT_A_HIST_INTERVAL_MS] = { K_U32 },
	[PCIEAUDIT_A_HIST_PAD] = { K_FLAG, 0, true },
	[PCIEAUDIT_A_HIST_UNSAMPLED_NS] = { K_U64 },
	[PCIEAUDIT_A_HIST_SKIP] = { K_U32, PCIEAUDIT_HIST_SKIP_MAX },
};
static const struct schema hist_s = {
	"link history", PCIEAUDIT_A_HIST_MAX, hist_f,
	REQ(PCIEAUDIT_A_HIST_SINCE_NS) | REQ(PCIEAUDIT_A_HIST_TRANSITIONS) |
	REQ(PCIEAUDIT_A_HIST_BELOW_NS) | REQ(PCIEAUDIT_A_HIST_INTERVAL_MS), false,
};
static const struct field dev_f[] = {
	[PCIEAUDIT_A_DEV_ADDR] = { K_NEST, 0, false, &addr_s },
	[PCIEAUDIT_A_DEV_NAME] = { K_STR },
	[PCIEAUDIT_A_DEV_VENDOR] = { K_U16 },
	[PCIEAUDIT_A_DEV_DEVICE] = { K_U16 },
	[PCIEAUDIT_A_DEV_SUBSYS_VENDOR] = { K_U16 },
	[PCIEAUDIT_A_DEV_SUBSYS_DEVICE] = { K_U16 },
	[PCIEAUDIT_A_DEV_CLASS] = { K_U32 },
	[PCIEAUDIT_A_DEV_REVISION] = { K_U8 },
	[PCIEAUDIT_A_DEV_FLAGS] = { K_U32 },
	[PCIEAUDIT_A_DEV_PCIE_TYPE] = { K_U8 },
	[PCIEAUDIT_A_DEV_UPSTREAM] = { K_NEST, 0, false, &addr_s },
	[PCIEAUDIT_A_DEV_PF] = { K_NEST, 0, false, &addr_s },
	[PCIEAUDIT_A_DEV_DRIVER] = { K_STR },
	[PCIEAUDIT_A_DEV_NUMA_NODE] = { K_S32 },
	[PCIEAUDIT_A_DEV_ACS] = { K_NEST, 0, false, &acs_s },
	[PCIEAUDIT_A_DEV_LINK] = { K_NEST, 0, false, &link_s },
	[PCIEAUDIT_A_DEV_IOMMU] = { K_NEST, 0, false, &iommu_s },
	[PCIEAUDIT_A_DEV_SECONDARY_BUS] = { K_U8 },
	[PCIEAUDIT_A_DEV_POWER_STATE] = { K_U32, PCIEAUDIT_POWER_D3HOT },
	[PCIEAUDIT_A_DEV_CONFIG_UNREADABLE] = { K_FLAG },
	[PCIEAUDIT_A_DEV_ATS] = { K_NEST, 0, false, &ats_s },
	[PCIEAUDIT_A_DEV_EXPDEV] = { K_NEST, 0, false, &expdev_s },
	[PCIEAUDIT_A_DEV_BAR] = { K_NEST, 0, true, &bar_s },
	[PCIEAUDIT_A_DEV_LINK_HISTORY] = { K_NEST, 0, false, &hist_s },
	[PCIEAUDIT_A_DEV_PASSTHRU] = { K_NEST, 0, false, &passthru_s },
};
static const struct schema dev_s = {
	"dev", PCIEAUDIT_A_DEV_MAX, dev_f,
	REQ(1) | REQ(2) | REQ(3) | REQ(4) | REQ(5) | REQ(6) | REQ(7) | REQ(8) |
	REQ(9) | REQ(14), false,
};
static const struct field info_f[] = {
	[1] = { K_STR }, [2] = { K_STR }, [3] = { K_U32 },
	[4] = { K_U32, PCIEAUDIT_IOMMU_MODE_TRANSLATED },
	[5] = { K_U32, PCIEAUDIT_IOMMU_STRICT_LAZY }, [6] = { K_U32 },
	[7] = { K_U32 }, [8] = { K_U32, PCIEAUDIT_SOURCE_DERIVED },
	[PCIEAUDIT_A_INFO_P2P_RULES] = { K_STR },
};
static const struct schema info_s = {
	"info", PCIEAUDIT_A_INFO_MAX, info_f,
	REQ(1) | REQ(2) | REQ(3) | REQ(6) | REQ(7), false,
};
static const struct field group_f[] = {
	[PCIEAUDIT_A_GROUP_ID] = { K_U32 },
	[PCIEAUDIT_A_GROUP_MEMBER] = { K_NEST, 0, true, &addr_s },
	[PCIEAUDIT_A_GROUP_OTHER_MEMBERS] = { K_U32 },
};
static const struct schema group_s = {
	"group", PCIEAUDIT_A_GROUP_MAX, group_f, REQ(1), false,
};
static const struct field pair_f[] = {
	[PCIEAUDIT_A_PAIR_CLIENT] = { K_NEST, 0, false, &addr_s },
	[PCIEAUDIT_A_PAIR_KERNEL_STATUS] = { K_U32, PCIEAUDIT_P2P_KERNEL_WITHHELD_UNSAFE },
	[PCIEAUDIT_A_PAIR_KERNEL_DISTANCE] = { K_S32 },
	[PCIEAUDIT_A_PAIR_DISTANCE] = { K_S32 },
	[PCIEAUDIT_A_PAIR_PATH_LENGTH] = { K_U32 },
	[PCIEAUDIT_A_PAIR_MAP] = { K_U32, PCIEAUDIT_P2P_MAP_NOT_SUPPORTED },
	[PCIEAUDIT_A_PAIR_PATH] = { K_U32, PCIEAUDIT_P2P_PATH_NO_COMMON_UPSTREAM },
	[PCIEAUDIT_A_PAIR_HOST_RULE] = { K_U32, PCIEAUDIT_P2P_HOST_REFUSED },
	[PCIEAUDIT_A_PAIR_COMMON] = { K_NEST, 0, false, &addr_s },
	[PCIEAUDIT_A_PAIR_HOP_PROVIDER] = { K_NEST, 0, true, &addr_s },
	[PCIEAUDIT_A_PAIR_HOP_CLIENT] = { K_NEST, 0, true, &addr_s },
	[PCIEAUDIT_A_PAIR_REDIRECT] = { K_NEST, 0, true, &addr_s },
	[PCIEAUDIT_A_PAIR_HOST_BRIDGE_PROVIDER] = { K_U32 },
	[PCIEAUDIT_A_PAIR_HOST_BRIDGE_CLIENT] = { K_U32 },
	[PCIEAUDIT_A_PAIR_AGREEMENT] = { K_U32, PCIEAUDIT_P2P_DISAGREE },
};
static const struct schema pair_s = {
	"pair", PCIEAUDIT_A_PAIR_MAX, pair_f,
	REQ(1) | REQ(2) | REQ(4) | REQ(5) | REQ(6) | REQ(7) | REQ(8), false,
};
/* Request-only attributes (client, selectors, flags) must not come back. */
static const struct field p2p_f[] = {
	[PCIEAUDIT_A_P2P_PROVIDER] = { K_NEST, 0, false, &addr_s },
	[PCIEAUDIT_A_P2P_KERNEL_DISTANCE] = { K_S32 },
	[PCIEAUDIT_A_P2P_PAIR] = { K_NEST, 0, true, &pair_s },
};
static const struct schema p2p_s = {
	"p2p", PCIEAUDIT_A_P2P_MAX, p2p_f, REQ(1), false,
};

static const struct schema *const cmd_schema[] = {
	[PCIEAUDIT_CMD_INFO_GET] = &info_s,
	[PCIEAUDIT_CMD_DEV_GET] = &dev_s,
	[PCIEAUDIT_CMD_GROUP_GET] = &group_s,
	[PCIEAUDIT_CMD_P2P_GET] = &p2p_s,
};

/* Facts of one reply message, for the checks across messages. */
struct facts {
	int dev;		/* the function a DEV_GET/P2P reply is about */
	unsigned int pairs;
	uint32_t group;
};

static const uint8_t kind_len[] = {
	[K_U8] = 1, [K_U16] = 2, [K_U32] = 4, [K_S32] = 4, [K_FLAG] = 0,
	[K_U64] = 8,
};

/* The values of a decoded PCIEAUDIT_A_ADDR_* table. */
static void get_addr_tb(const struct nlattr *const *tb, uint32_t *dom,
			uint8_t *bus, uint8_t *devfn)
{
	memcpy(dom, (const uint8_t *)tb[PCIEAUDIT_A_ADDR_DOMAIN] + NLA_HDRLEN, 4);
	*bus = *((const uint8_t *)tb[PCIEAUDIT_A_ADDR_BUS] + NLA_HDRLEN);
	*devfn = *((const uint8_t *)tb[PCIEAUDIT_A_ADDR_DEVFN] + NLA_HDRLEN);
}

/* The same from the nest itself, already decoded once. */
static void get_addr(const struct nlattr *nest, uint32_t *dom, uint8_t *bus,
		     uint8_t *devfn)
{
	const struct nlattr *tb[PCIEAUDIT_A_ADDR_MAX + 1] = { 0 };
	const uint8_t *b = (const uint8_t *)nest + NLA_HDRLEN;
	size_t len = nest->nla_len - NLA_HDRLEN, off = 0;

	while (off + NLA_HDRLEN <= len) {
		const struct nlattr *a = (const void *)(b + off);

		tb[a->nla_type & NLA_TYPE_MASK] = a;
		off += NLA_ALIGN(a->nla_len);
	}
	get_addr_tb(tb, dom, bus, devfn);
}

/* Decodes an attribute chain; returns NULL or what is wrong with it. */
static const char *decode(const struct schema *s, const uint8_t *b, size_t len,
			  unsigned int depth, struct facts *fx)
{
	static char why[160];
	const struct nlattr *tb[32] = { 0 };
	uint32_t seen = 0;
	size_t off = 0;

	if (depth > 4)
		return "nested too deep";
	while (off + NLA_HDRLEN <= len) {
		const struct nlattr *a = (const void *)(b + off);
		unsigned int type = a->nla_type & NLA_TYPE_MASK;
		const uint8_t *data = b + off + NLA_HDRLEN;
		size_t dlen = a->nla_len - NLA_HDRLEN;
		const struct field *f;
		const char *err;
		uint32_t v = 0;

		if (a->nla_len < NLA_HDRLEN || off + a->nla_len > len)
			return "attribute length outside the message";
		if (type == 0 || type > s->max || !s->f[type].kind) {
			snprintf(why, sizeof(why), "%s: unknown attribute %u",
				 s->name, type);
			return why;
		}
		f = &s->f[type];
		if ((seen & REQ(type)) && !f->repeat) {
			snprintf(why, sizeof(why), "%s: attribute %u repeated",
				 s->name, type);
			return why;
		}
		seen |= REQ(type);
		tb[type] = a;
		switch (f->kind) {
		case K_STR:
			if (!dlen || data[dlen - 1] || strlen((const char *)data) != dlen - 1) {
				snprintf(why, sizeof(why), "%s: attribute %u not a C string",
					 s->name, type);
				return why;
			}
			break;
		case K_NEST:
			if (!(a->nla_type & NLA_F_NESTED)) {
				snprintf(why, sizeof(why), "%s: nest %u without NLA_F_NESTED",
					 s->name, type);
				return why;
			}
			err = decode(f->nest, data, dlen, depth + 1, fx);
			if (err)
				return err;
			if (s == &p2p_s && type == PCIEAUDIT_A_P2P_PAIR)
				fx->pairs++;
			break;
		default:
			if (dlen != kind_len[f->kind]) {
				snprintf(why, sizeof(why), "%s: attribute %u has %zu bytes",
					 s->name, type, dlen);
				return why;
			}
			if (dlen <= sizeof(v))
				memcpy(&v, data, dlen);
			if (f->max && (v < 1 || v > f->max)) {
				snprintf(why, sizeof(why), "%s: attribute %u value %u out of range",
					 s->name, type, v);
				return why;
			}
			break;
		}
		off += NLA_ALIGN(a->nla_len);
	}
	if (off < len && len - off >= NLA_HDRLEN)
		return "trailing bytes";
	if ((seen & s->required) != s->required) {
		snprintf(why, sizeof(why), "%s: required attributes missing (have %#x, need %#x)",
			 s->name, seen, s->required);
		return why;
	}
	if (s->addr) {
		uint32_t dom;
		uint8_t bus, devfn;

		get_addr_tb(tb, &dom, &bus, &devfn);
		/* Every function named must be one sysfs lists. */
		if (find_dev(dom, bus, devfn) < 0 && !in_sysfs_now(dom, bus, devfn)) {
			snprintf(why, sizeof(why), "address %04x:%02x:%02x.%x not in sysfs",
				 dom, bus, devfn >> 3, devfn & 7);
			return why;
		}
	}
	if (s == &dev_s) {
		uint32_t dom;
		uint8_t bus, devfn;
		char name[32];

		get_addr(tb[PCIEAUDIT_A_DEV_ADDR], &dom, &bus, &devfn);
		snprintf(name, sizeof(name), "%04x:%02x:%02x.%x", dom, bus,
			 devfn >> 3, devfn & 7);
		if (strcmp(name, (const char *)tb[PCIEAUDIT_A_DEV_NAME] + NLA_HDRLEN)) {
			snprintf(why, sizeof(why), "dev: name %s for address %s",
				 (const char *)tb[PCIEAUDIT_A_DEV_NAME] + NLA_HDRLEN, name);
			return why;
		}
		fx->dev = find_dev(dom, bus, devfn);
	}
	if (s == &group_s)
		memcpy(&fx->group, (const uint8_t *)tb[1] + NLA_HDRLEN, 4);
	return NULL;
}

/* ---- the exchange ------------------------------------------------------- */

struct pending {
	uint32_t seq;
	const uint8_t *req;
	size_t len;
	const struct req *r;	/* NULL for raw */
	enum pred pred;
	int pred_err;
	unsigned long idx;
	/* what came back */
	unsigned int data, acks, errors, dones;
	int err;		/* first error or DONE errno */
	bool ext;		/* it carried an extack message */
	char msg[128];
	bool started;		/* a dump part seen */
	bool bad;		/* a failure already recorded */
	int last_dev;		/* dump order */
	unsigned int devs_seen;
	unsigned int pairs;
	uint32_t last_group;
};

static int open_sock(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1, sz = RCVBUF;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	/* Error acks without the request: the TLVs follow struct nlmsgerr. */
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

static int send_raw(int fd, const void *b, size_t len)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	return sendto(fd, b, len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0 ?
	       -errno : 0;
}

/* The extack of an NLMSG_ERROR or NLMSG_DONE; false if malformed. */
static bool parse_ext(const struct nlmsghdr *nlh, size_t off, char *msg,
		      size_t msz, bool *has_msg, uint32_t req_len)
{
	const uint8_t *b = (const uint8_t *)nlh;
	size_t len = nlh->nlmsg_len;

	*has_msg = false;
	msg[0] = '\0';
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return true;
	off += NLMSG_HDRLEN;
	while (off + NLA_HDRLEN <= len) {
		const struct nlattr *a = (const void *)(b + off);
		const char *d = (const char *)(b + off + NLA_HDRLEN);
		size_t dl = a->nla_len - NLA_HDRLEN;

		if (a->nla_len < NLA_HDRLEN || off + a->nla_len > len)
			return false;
		switch (a->nla_type & NLA_TYPE_MASK) {
		case NLMSGERR_ATTR_MSG:
			if (!dl || d[dl - 1] || !d[0])
				return false;
			snprintf(msg, msz, "%s", d);
			*has_msg = true;
			break;
		case NLMSGERR_ATTR_OFFS:
			/* The offset must point into the request. */
			if (dl != 4 || (req_len && *(const uint32_t *)d >= req_len))
				return false;
			break;
		default:
			break;
		}
		off += NLA_ALIGN(a->nla_len);
	}
	return true;
}

static void on_message(struct pending *p, const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	const struct nlmsgerr *e = NLMSG_DATA(nlh);
	struct facts fx = { .dev = -1 };
	bool dumpreq = p->pred == P_DUMP;
	const char *why;
	bool has;
	int err;

	st.replies++;
	if (nlh->nlmsg_type == NLMSG_ERROR) {
		if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)) ||
		    !(nlh->nlmsg_flags & NLM_F_CAPPED) ||
		    !parse_ext(nlh, sizeof(*e), p->msg, sizeof(p->msg), &has,
			       p->len >= NLMSG_HDRLEN ?
			       ((const struct nlmsghdr *)p->req)->nlmsg_len : 0)) {
			failure(p->idx, p->req, p->len, "malformed NLMSG_ERROR");
			p->bad = true;
			return;
		}
		if (e->error > 0 || e->error < -4095) {
			failure(p->idx, p->req, p->len, "error %d out of range", e->error);
			p->bad = true;
			return;
		}
		if (e->error == 0) {
			p->acks++;
			return;
		}
		p->errors++;
		if (!p->err) {
			p->err = -e->error;
			p->ext = has;
		}
		return;
	}
	if (nlh->nlmsg_type == NLMSG_DONE) {
		p->dones++;
		if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(int)) ||
		    !parse_ext(nlh, sizeof(int), p->msg, sizeof(p->msg), &has, 0)) {
			failure(p->idx, p->req, p->len, "malformed NLMSG_DONE");
			p->bad = true;
			return;
		}
		memcpy(&err, NLMSG_DATA(nlh), sizeof(err));
		if (err > 0 || err < -4095) {
			failure(p->idx, p->req, p->len, "NLMSG_DONE errno %d", err);
			p->bad = true;
		} else if (err && !p->err) {
			p->err = -err;
			p->ext = has;
		}
		return;
	}
	p->data++;
	if (p->pred != P_DO && p->pred != P_DUMP) {
		failure(p->idx, p->req, p->len, "a reply to a request predicted %s",
			pred_name[p->pred]);
		p->bad = true;
		return;
	}
	if (dumpreq)
		p->started = true;
	st.dump_msgs += dumpreq;
	if (nlh->nlmsg_type != family_id ||
	    nlh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN) ||
	    g->cmd != ((const struct genlmsghdr *)(p->req + NLMSG_HDRLEN))->cmd ||
	    g->version != PCIEAUDIT_FAMILY_VERSION || g->reserved ||
	    !!(nlh->nlmsg_flags & NLM_F_MULTI) != dumpreq) {
		failure(p->idx, p->req, p->len,
			"reply header: type %u len %u cmd %u version %u flags %#x",
			nlh->nlmsg_type, nlh->nlmsg_len, g->cmd, g->version,
			nlh->nlmsg_flags);
		p->bad = true;
		return;
	}
	why = decode(cmd_schema[g->cmd], (const uint8_t *)g + GENL_HDRLEN,
		     nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN), 0, &fx);
	if (why) {
		failure(p->idx, p->req, p->len, "reply does not decode: %s", why);
		p->bad = true;
		return;
	}
	p->pairs += fx.pairs;
	st.pairs += fx.pairs;
	if (dumpreq && g->cmd == PCIEAUDIT_CMD_DEV_GET) {
		/* A dump lists functions in (domain, bus, devfn) order. */
		if (fx.dev <= p->last_dev) {
			failure(p->idx, p->req, p->len, "device dump out of order");
			p->bad = true;
		}
		p->last_dev = fx.dev;
		p->devs_seen++;
	}
	if (dumpreq && g->cmd == PCIEAUDIT_CMD_GROUP_GET) {
		if (p->data > 1 && fx.group <= p->last_group) {
			failure(p->idx, p->req, p->len, "group dump out of order");
			p->bad = true;
		}
		p->last_group = fx.group;
	}
}

/* Client attributes of a P2P do request. */
static unsigned int count_clients(const uint8_t *b, size_t len)
{
	unsigned int n = 0;
	size_t off = NLMSG_HDRLEN + GENL_HDRLEN;

	while (off + NLA_HDRLEN <= len) {
		const struct nlattr *a = (const void *)(b + off);

		if (a->nla_len < NLA_HDRLEN)
			break;
		n += (a->nla_type & NLA_TYPE_MASK) == PCIEAUDIT_A_P2P_CLIENT;
		off += NLA_ALIGN(a->nla_len);
	}
	return n;
}

/* Judges one request once all its replies are in. */
static void judge(struct pending *p)
{
	const char *out;
	int cmd = p->len >= NLMSG_HDRLEN + GENL_HDRLEN ?
		  ((const struct genlmsghdr *)(p->req + NLMSG_HDRLEN))->cmd : 0;
	bool ackflag = p->len >= NLMSG_HDRLEN &&
		       (((const struct nlmsghdr *)p->req)->nlmsg_flags & NLM_F_ACK);
	bool fail = p->bad;

	switch (p->pred) {
	case P_DROP:
		out = "none";
		if (p->data || p->acks || p->errors || p->dones) {
			failure(p->idx, p->req, p->len, "predicted no reply, got one");
			fail = true;
		} else {
			st.drop++;
		}
		break;
	case P_ACK0:
		out = "ack0";
		if (p->data || p->errors || p->dones || p->acks != (ackflag ? 1u : 0u)) {
			failure(p->idx, p->req, p->len, "predicted %s ack only",
				ackflag ? "an" : "no");
			fail = true;
		} else {
			st.ack0++;
		}
		break;
	case P_CORE:
	case P_CORE_EXT:
		out = "err";
		if (p->data || p->dones || p->errors != 1 || p->acks ||
		    p->err != p->pred_err ||
		    (p->pred == P_CORE_EXT && !p->ext)) {
			failure(p->idx, p->req, p->len,
				"predicted core error %d%s, got errno %d (ext %d, %u errors, %u replies)",
				p->pred_err, p->pred == P_CORE_EXT ? " with extack" : "",
				p->err, p->ext, p->errors, p->data);
			fail = true;
		} else if (p->pred == P_CORE_EXT) {
			st.core_ext++;
		} else {
			st.core_noext[p->err == ENOENT ? 0 : p->err == EINVAL ? 1 :
				      p->err == EOPNOTSUPP ? 2 : 3]++;
		}
		break;
	default:
		if (p->err) {
			out = p->dones ? "done_err" : "err";
			if (!p->ext) {
				st.module_noext++;
				failure(p->idx, p->req, p->len,
					"errno %d from the family's ops without an extack message",
					p->err);
				fail = true;
			} else {
				st.module_ext++;
				count_msg(p->err, p->msg);
			}
			if (unpriv && p->err == EPERM)
				st.unpriv_eperm++;
			if (p->r && p->r->valid && (!unpriv || p->err != EPERM)) {
				failure(p->idx, p->req, p->len,
					"a valid request failed: errno %d (%s)",
					p->err, p->msg);
				fail = true;
			}
			break;
		}
		out = "ok";
		if (unpriv) {
			failure(p->idx, p->req, p->len,
				"an unprivileged socket's request was answered");
			fail = true;
		}
		if (p->pred == P_DO && (p->data != 1 || p->dones ||
					p->acks != (ackflag ? 1u : 0u))) {
			failure(p->idx, p->req, p->len,
				"do: %u replies, %u acks, %u dones", p->data,
				p->acks, p->dones);
			fail = true;
		}
		if (p->pred == P_DUMP && (p->dones != 1 || p->acks)) {
			failure(p->idx, p->req, p->len, "dump: %u dones, %u acks",
				p->dones, p->acks);
			fail = true;
		}
		/* Every function sysfs lists, each once. */
		if (p->pred == P_DUMP && cmd == PCIEAUDIT_CMD_DEV_GET &&
		    p->devs_seen != ndev) {
			failure(p->idx, p->req, p->len, "device dump: %u functions, sysfs has %u",
				p->devs_seen, ndev);
			fail = true;
		}
		/* One pair per client, in a do reply. */
		if (p->pred == P_DO && cmd == PCIEAUDIT_CMD_P2P_GET &&
		    p->pairs != count_clients(p->req, p->len)) {
			failure(p->idx, p->req, p->len, "p2p do: %u pairs for %u clients",
				p->pairs, count_clients(p->req, p->len));
			fail = true;
		}
		if (!fail) {
			st.answered++;
			if (cmd >= 1 && cmd <= PCIEAUDIT_CMD_MAX)
				st.ok_by_cmd[p->pred == P_DUMP][cmd]++;
		}
		break;
	}
	if (flog) {
		char m[128];
		size_t i;

		snprintf(m, sizeof(m), "%s", p->msg);
		for (i = 0; m[i]; i++)
			if (m[i] == '\t' || m[i] == '\n')
				m[i] = ' ';
		fprintf(flog, "%lu\t%s\t%s\t%s\t%d\t%d\t%s%s\n", p->idx,
			p->r ? p->r->gen : "raw", pred_name[p->pred], out,
			p->err, p->ext, m, fail ? "\tFAIL" : "");
	}
	if (verbose)
		printf("message %lu: predicted %s (%d), got %s errno %d ext %d \"%s\", %u replies, %u acks%s\n",
		       p->idx, pred_name[p->pred], p->pred_err, out, p->err,
		       p->ext, p->msg, p->data, p->acks, fail ? " FAIL" : "");
}

static uint32_t next_seq = 1;
static bool judging = true;	/* off for --privcheck */
static uint8_t rbuf[256 * 1024];

/*
 * Sends the requests in one write, then the sentinel, and reads until the
 * sentinel's ack and the end of any dump started.
 */
static int exchange(int fd, const uint8_t *buf, size_t len, struct pending *ps,
		    unsigned int n)
{
	struct {
		struct nlmsghdr h;
	} sentinel = { {
		.nlmsg_len = NLMSG_HDRLEN, .nlmsg_type = NLMSG_NOOP,
		.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK,
	} };
	bool sentinel_seen = false;
	unsigned int i;
	int err;

	sentinel.h.nlmsg_seq = next_seq++;
	err = send_raw(fd, buf, len);
	if (err) {
		/* netlink_sendmsg() refuses only what is too large to send. */
		failure(ps[0].idx, buf, len, "sendto: %s", strerror(-err));
		return -1;
	}
	if (send_raw(fd, &sentinel, sizeof(sentinel)))
		return -1;
	st.bytes += len;
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		bool open_dump = false;
		ssize_t got;
		int rem;

		for (i = 0; i < n; i++)
			open_dump |= ps[i].started && !ps[i].dones;
		if (sentinel_seen && !open_dump)
			break;
		if (poll(&pfd, 1, REPLY_TIMEOUT_MS) != 1) {
			failure(ps[0].idx, buf, len, "no reply within %d ms",
				REPLY_TIMEOUT_MS);
			return -1;
		}
		got = recv(fd, rbuf, sizeof(rbuf), MSG_TRUNC);
		if (got < 0) {
			failure(ps[0].idx, buf, len, "recv: %s", strerror(errno));
			return -1;
		}
		if ((size_t)got > sizeof(rbuf)) {
			failure(ps[0].idx, buf, len, "reply of %zd bytes truncated", got);
			return -1;
		}
		rem = (int)got;
		for (struct nlmsghdr *h = (void *)rbuf; NLMSG_OK(h, rem);
		     h = NLMSG_NEXT(h, rem)) {
			if (h->nlmsg_seq == sentinel.h.nlmsg_seq) {
				sentinel_seen = true;
				continue;
			}
			for (i = 0; i < n && ps[i].seq != h->nlmsg_seq; i++)
				;
			if (i == n) {
				failure(ps[0].idx, buf, len,
					"reply with sequence %u, type %u to nothing sent",
					h->nlmsg_seq, h->nlmsg_type);
				return -1;
			}
			on_message(&ps[i], h);
		}
		if (rem) {
			failure(ps[0].idx, buf, len, "%d bytes of a datagram not a message", rem);
			return -1;
		}
	}
	if (judging)
		for (i = 0; i < n; i++)
			judge(&ps[i]);
	return 0;
}

/* ---- generators --------------------------------------------------------- */

static struct wire wires[MAX_BATCH];
static uint8_t batch[MAX_BATCH * MAX_MSG];

/* One request into w: valid, mutated, noise or a random tree. */
static void generate(struct req *r, struct wire *w, uint32_t seq, bool in_batch,
		     bool last)
{
	unsigned int k, muts;
	uint32_t pick = rn(100);

	npool = 0;
	if (pick < 12) {
		valid_req(r);
		r->gen = "valid";
	} else if (pick < 80) {
		valid_req(r);
		r->valid = false;
		r->gen = "mutated";
		muts = 1 + rn(chance(70) ? 2 : 6);
		for (k = 0; k < muts; k++) {
			if (chance(20))
				mutate_header(r);
			else
				mutate_tree(r);
		}
	} else if (pick < 90) {
		valid_req(r);
		r->valid = false;
		r->gen = "tree";
		r->top = -1;
		r->cmd = (uint8_t)(1 + rn(PCIEAUDIT_CMD_MAX));
		if (chance(30))
			r->flags |= NLM_F_DUMP;
		k = 1 + rn(8);
		while (k--)
			add(&r->top, rand_tree(1 + rn(chance(80) ? 4 : 40)));
	} else {
		valid_req(r);
		r->valid = false;
		r->gen = "noise";
		r->top = -1;
		r->cmd = (uint8_t)(chance(70) ? rn(PCIEAUDIT_CMD_MAX + 2) : rnd());
		r->flags = (uint16_t)(chance(50) ? NLM_F_REQUEST |
				      (chance(30) ? NLM_F_DUMP : 0) |
				      (chance(50) ? NLM_F_ACK : 0) : rnd());
		add(&r->top, leaf_rand((uint16_t)rnd(), (uint16_t)rn(MAX_DATA - 4)));
	}
	/* In a batch, a dump only last: a second one on the socket is EBUSY. */
	if (in_batch && !last)
		r->flags &= ~NLM_F_MATCH;
	if (!serialise(r, w, seq)) {
		/* Too large: fall back to the bare header. */
		npool = 0;
		r->top = -1;
		serialise(r, w, seq);
	}
	if (in_batch)
		return;
	/* Damage to the encoding itself. */
	if (!strcmp(r->gen, "valid") || chance(75))
		return;
	r->valid = false;
	switch (rn(6)) {
	case 0:		/* cut short (nlmsg_len follows); an empty send is ENODATA */
		w->len = 1 + rn((uint32_t)w->len - 1);
		if (w->len >= 4)
			((struct nlmsghdr *)w->b)->nlmsg_len = (uint32_t)w->len;
		break;
	case 1:		/* nlmsg_len beyond the datagram: ignored by the core */
		((struct nlmsghdr *)w->b)->nlmsg_len = (uint32_t)w->len + 1 + rn(64);
		break;
	case 2:		/* an attribute's nla_len wrong */
		if (w->nattr) {
			struct nlattr *a = (void *)(w->b + w->attr_off[rn(w->nattr)]);

			a->nla_len = (uint16_t)(chance(50) ? rn(8) : rnd());
		}
		break;
	case 3:		/* 1 to 3 bytes left over after the attributes */
		k = 1 + rn(3);
		while (k--)
			w->b[w->len++] = (uint8_t)rnd();
		((struct nlmsghdr *)w->b)->nlmsg_len = (uint32_t)w->len;
		break;
	case 4:		/* nlmsg_len shorter than the genetlink header */
		((struct nlmsghdr *)w->b)->nlmsg_len = NLMSG_HDRLEN + rn(GENL_HDRLEN);
		w->len = ((struct nlmsghdr *)w->b)->nlmsg_len;
		break;
	default:	/* a random byte flipped */
		/*
		 * Not the type (another family) nor the sequence number (the
		 * reply would be to nothing sent): flags or what follows.
		 */
		k = w->len > NLMSG_HDRLEN && chance(80) ?
		    NLMSG_HDRLEN + rn((uint32_t)w->len - NLMSG_HDRLEN) : 6 + rn(2);
		w->b[k] ^= (uint8_t)(1 << rn(8));
		/* Keep the datagram one message: fix the length back up. */
		if (w->len >= 4)
			((struct nlmsghdr *)w->b)->nlmsg_len = (uint32_t)w->len;
		break;
	}
}

/* A dump request, read partly or not at all, then its socket closed. */
static void abandon(void)
{
	struct req r;
	struct wire *w = &wires[0];
	int fd = open_sock();
	ssize_t got;

	if (fd < 0)
		return;
	if (chance(50)) {
		int sz = 4096;

		/* A small buffer keeps the dump waiting for the reader. */
		setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz));
	}
	npool = 0;
	do {
		valid_req(&r);
	} while (!(r.flags & NLM_F_DUMP));
	if (r.cmd == PCIEAUDIT_CMD_P2P_GET && chance(50))
		r.top = -1;	/* every pair: the longest dump */
	if (serialise(&r, w, next_seq++) && !send_raw(fd, w->b, w->len)) {
		unsigned int parts = rn(3);

		while (parts--) {
			got = recv(fd, rbuf, sizeof(rbuf), MSG_DONTWAIT);
			if (got <= 0)
				break;
		}
		st.abandoned++;
	}
	close(fd);
}

static int run_one(int fd, unsigned long idx, uint64_t seed)
{
	struct pending ps[MAX_BATCH];
	struct req rs[MAX_BATCH];
	unsigned int n = 1, i;
	size_t off = 0;
	int err;

	rstate = seed ^ (idx * 0xd1b54a32d192ed03ULL);
	rnd();
	if (chance(2) && !unpriv) {
		abandon();
		st.sent++;
		return 0;
	}
	if (chance(4))
		n = 2 + rn(MAX_BATCH - 1);
	memset(ps, 0, sizeof(ps));
	for (i = 0; i < n; i++) {
		uint32_t seq = next_seq++;

		generate(&rs[i], &wires[i], seq, n > 1, i == n - 1);
		ps[i].seq = seq;
		ps[i].req = batch + off;
		ps[i].len = wires[i].len;
		ps[i].r = &rs[i];
		ps[i].idx = idx;
		ps[i].last_dev = -1;
		ps[i].pred = predict(wires[i].b, wires[i].len, &ps[i].pred_err);
		memcpy(batch + off, wires[i].b, wires[i].len);
		/* Messages of a batch start aligned, as the core walks them. */
		off += NLMSG_ALIGN(wires[i].len);
		memset(batch + off - (NLMSG_ALIGN(wires[i].len) - wires[i].len), 0,
		       NLMSG_ALIGN(wires[i].len) - wires[i].len);
	}
	if (n > 1)
		st.batches++;
	if (verbose)
		hexdump(stdout, batch, off);
	/* A lone message goes out exactly as long as it was made. */
	err = exchange(fd, batch, n > 1 ? off : wires[0].len, ps, n);
	st.sent += n;
	return err;
}

/* ---- family lookup and the privilege probe ------------------------------ */

/*
 * The id of family NAME and, when GROUP is given, of its multicast group
 * of that name (0 when the family has none of that name).
 */
static int resolve_family(int fd, const char *name, uint16_t *id,
			  const char *group, uint32_t *grp_id)
{
	struct {
		struct nlmsghdr h;
		struct genlmsghdr g;
		uint8_t attrs[64];
	} m;
	struct nlattr *a = (void *)m.attrs;
	struct nlmsghdr *h;
	size_t nlen = strlen(name) + 1;
	ssize_t got;
	bool have_id = false;

	if (grp_id)
		*grp_id = 0;
	memset(&m, 0, sizeof(m));
	a->nla_type = CTRL_ATTR_FAMILY_NAME;
	a->nla_len = (uint16_t)(NLA_HDRLEN + nlen);
	memcpy(m.attrs + NLA_HDRLEN, name, nlen);
	m.h.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN + NLA_ALIGN(a->nla_len));
	m.h.nlmsg_type = GENL_ID_CTRL;
	m.h.nlmsg_flags = NLM_F_REQUEST;
	m.h.nlmsg_seq = next_seq++;
	m.g.cmd = CTRL_CMD_GETFAMILY;
	m.g.version = 2;
	if (send_raw(fd, &m, m.h.nlmsg_len))
		return -EIO;
	got = recv(fd, rbuf, sizeof(rbuf), 0);
	if (got < 0)
		return -errno;
	h = (void *)rbuf;
	if (!NLMSG_OK(h, (size_t)got))
		return -EBADMSG;
	if (h->nlmsg_type == NLMSG_ERROR)
		return ((struct nlmsgerr *)NLMSG_DATA(h))->error;
	for (size_t off = NLMSG_LENGTH(GENL_HDRLEN); off + NLA_HDRLEN <= h->nlmsg_len;) {
		a = (void *)((uint8_t *)h + off);
		if (a->nla_len < NLA_HDRLEN)
			break;
		if (a->nla_type == CTRL_ATTR_FAMILY_ID) {
			memcpy(id, (uint8_t *)a + NLA_HDRLEN, 2);
			have_id = true;
		}
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_MCAST_GROUPS && group && grp_id) {
			/* A nest of nests, each a group's name and id. */
			size_t end = off + a->nla_len;

			for (size_t o = off + NLA_HDRLEN; o + NLA_HDRLEN <= end;) {
				struct nlattr *g = (void *)((uint8_t *)h + o);
				const char *gname = NULL;
				uint32_t gid = 0;

				if (g->nla_len < NLA_HDRLEN)
					break;
				for (size_t i = o + NLA_HDRLEN; i + NLA_HDRLEN <= o + g->nla_len;) {
					struct nlattr *f = (void *)((uint8_t *)h + i);

					if (f->nla_len < NLA_HDRLEN)
						break;
					if (f->nla_type == CTRL_ATTR_MCAST_GRP_NAME)
						gname = (const char *)f + NLA_HDRLEN;
					if (f->nla_type == CTRL_ATTR_MCAST_GRP_ID &&
					    f->nla_len == NLA_HDRLEN + 4)
						memcpy(&gid, (uint8_t *)f + NLA_HDRLEN, 4);
					i += NLA_ALIGN(f->nla_len);
				}
				if (gname && !strcmp(gname, group))
					*grp_id = gid;
				o += NLA_ALIGN(g->nla_len);
			}
		}
		off += NLA_ALIGN(a->nla_len);
	}
	return have_id ? 0 : -EBADMSG;
}

static int resolve(int fd, uint16_t *id)
{
	return resolve_family(fd, PCIEAUDIT_FAMILY_NAME, id, NULL, NULL);
}

/* Every op, do and dump, valid: the errno each gets ("op CMD MODE ERRNO"). */
static int privcheck(int fd)
{
	static const char *const names[] = {
		[PCIEAUDIT_CMD_INFO_GET] = "INFO_GET",
		[PCIEAUDIT_CMD_DEV_GET] = "DEV_GET",
		[PCIEAUDIT_CMD_GROUP_GET] = "GROUP_GET",
		[PCIEAUDIT_CMD_P2P_GET] = "P2P_GET",
	};

	/* The ops end at P2P_GET; MON_EVENT is only ever multicast. */
	for (int cmd = 1; cmd <= PCIEAUDIT_CMD_P2P_GET; cmd++) {
		for (int dump = 0; dump < 2; dump++) {
			struct pending p = { 0 };
			struct req r;
			struct wire *w = &wires[0];

			npool = 0;
			rstate = 1;
			valid_req(&r);
			r.cmd = (uint8_t)cmd;
			r.top = -1;
			r.flags = NLM_F_REQUEST | NLM_F_ACK | (dump ? NLM_F_DUMP : 0);
			if (cmd == PCIEAUDIT_CMD_DEV_GET && !dump)
				r.top = real_addr(PCIEAUDIT_A_DEV_ADDR);
			if (cmd == PCIEAUDIT_CMD_P2P_GET && !dump) {
				add(&r.top, real_addr(PCIEAUDIT_A_P2P_PROVIDER));
				add(&r.top, real_addr(PCIEAUDIT_A_P2P_CLIENT));
			}
			serialise(&r, w, next_seq);
			p.seq = next_seq++;
			p.req = w->b;
			p.len = w->len;
			p.pred = dump ? P_DUMP : P_DO;
			p.last_dev = -1;
			/* Judged by the host; only the raw outcome here. */
			flog = NULL;
			if (exchange(fd, w->b, w->len, &p, 1))
				printf("op %s %s timeout\n", names[cmd], dump ? "dump" : "do");
			else
				printf("op %s %s %s\n", names[cmd], dump ? "dump" : "do",
				       p.err ? strerror(p.err) : "ok");
		}
	}
	return 0;
}

/* ---- the monitor multicast group ---------------------------------------- */

/*
 * nlfuzz --listen DIR: subscribers to the "monitor" group, kept for as long
 * as the suite runs (fuzzing, ACS changes, hot-plug, rmmod). Every event
 * each socket receives is decoded by the UAPI layout and the spec's
 * mon-event: command MON_EVENT, the attributes of its kind and no other,
 * sizes, enum values, addresses sysfs lists, sequence numbers rising with
 * a gap only after ENOBUFS, time not going back. Some sockets have the
 * smallest receive buffer the kernel allows and are read only every
 * SMALL_DRAIN_MS, so that ENOBUFS happens. One more socket joins and
 * leaves the group, and tries ids that are no group, all the time; every
 * answer is held against net/netlink/af_netlink.c netlink_setsockopt()
 * and netlink_bind() and genetlink.c genl_bind() of 6.1, and its
 * membership against the kernel's own list (NETLINK_LIST_MEMBERSHIPS).
 * The run ends on SIGTERM or when nlctrl announces the family's removal
 * (rmmod under the subscribers).
 */
#define MON_SOCKS 8
#define SMALL_DRAIN_MS 15000
#define MON_RING 4096

struct monsock {
	int fd;
	char name[16];
	bool small, churn, joined;
	int rcvbuf;
	unsigned long events, enobufs, gaps, lost, foreign;
	unsigned long kinds[PCIEAUDIT_MON_ACS + 1];
	uint64_t last_seq, last_time;
	/*
	 * ENOBUFS reports not yet matched by a gap. The report comes before
	 * the events queued ahead of the loss, so the gap follows it.
	 */
	unsigned long unmatched_enobufs;
};

static uint32_t mon_group;
static FILE *fevents;
static unsigned long mon_failures, regs_events, noregs_events;
static uint64_t listen_start_ns;
static struct {
	uint64_t seq, hash;
} mon_ring[MON_RING];

static const struct field mon_f[] = {
	[PCIEAUDIT_A_MON_SEQ] = { K_U64 },
	[PCIEAUDIT_A_MON_TIME_NS] = { K_U64 },
	[PCIEAUDIT_A_MON_EVENT] = { K_U32, PCIEAUDIT_MON_ACS },
	[PCIEAUDIT_A_MON_SOURCE] = { K_U32, PCIEAUDIT_MON_SRC_PCIE_LINK_EVENT },
	[PCIEAUDIT_A_MON_ADDR] = { K_NEST, 0, false, &addr_s },
	[PCIEAUDIT_A_MON_LNKCAP] = { K_U32 },
	[PCIEAUDIT_A_MON_LNKSTA_OLD] = { K_U16 },
	[PCIEAUDIT_A_MON_LNKSTA] = { K_U16 },
	[PCIEAUDIT_A_MON_ACS_CTRL_OLD] = { K_U16 },
	[PCIEAUDIT_A_MON_ACS_CTRL] = { K_U16 },
	[PCIEAUDIT_A_MON_PAD] = { K_FLAG, 0, true },
};
static const struct schema mon_s = {
	"mon-event", PCIEAUDIT_A_MON_MAX, mon_f,
	REQ(PCIEAUDIT_A_MON_SEQ) | REQ(PCIEAUDIT_A_MON_TIME_NS) |
	REQ(PCIEAUDIT_A_MON_EVENT) | REQ(PCIEAUDIT_A_MON_SOURCE) |
	REQ(PCIEAUDIT_A_MON_ADDR), false,
};

#define LNKSTA_WATCHED	0x3bff	/* speed, width, DLLLA, LBMS, LABS */
#define REGS_LINK	(REQ(PCIEAUDIT_A_MON_LNKCAP) | REQ(PCIEAUDIT_A_MON_LNKSTA_OLD) | \
			 REQ(PCIEAUDIT_A_MON_LNKSTA))
#define REGS_ACS	(REQ(PCIEAUDIT_A_MON_ACS_CTRL_OLD) | REQ(PCIEAUDIT_A_MON_ACS_CTRL))

static const char *const mon_kind[] = {
	[PCIEAUDIT_MON_ADDED] = "added", [PCIEAUDIT_MON_REMOVED] = "removed",
	[PCIEAUDIT_MON_LINK] = "link", [PCIEAUDIT_MON_ACS] = "acs",
};

static uint64_t realtime_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

static void mon_fail(const struct monsock *ms, const void *b, size_t len,
		     const char *fmt, ...)
{
	va_list ap;

	mon_failures++;
	if (mon_failures > MAX_FAIL_LOG)
		return;
	va_start(ap, fmt);
	fprintf(ffail, "FAIL monitor socket %s: ", ms->name);
	vfprintf(ffail, fmt, ap);
	va_end(ap);
	fputc('\n', ffail);
	if (b) {
		fprintf(ffail, "event (%zu bytes):\n", len);
		hexdump(ffail, b, len);
	}
	fflush(ffail);
}

static uint64_t fnv1a(const uint8_t *b, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (len--)
		h = (h ^ *b++) * 0x100000001b3ULL;
	return h;
}

/* The attributes present, for the per-kind rules; decode() checked them. */
static uint32_t mon_attrs(const uint8_t *b, size_t len,
			  const struct nlattr **tb)
{
	uint32_t seen = 0;

	for (size_t off = 0; off + NLA_HDRLEN <= len;) {
		const struct nlattr *a = (const void *)(b + off);
		unsigned int type = a->nla_type & NLA_TYPE_MASK;

		if (a->nla_len < NLA_HDRLEN)
			break;
		if (type <= PCIEAUDIT_A_MON_MAX) {
			tb[type] = a;
			seen |= REQ(type);
		}
		off += NLA_ALIGN(a->nla_len);
	}
	return seen;
}

#define ATTR_VAL(tb, t, var) memcpy(&(var), (const uint8_t *)(tb)[t] + NLA_HDRLEN, sizeof(var))

/* One datagram received on a monitor socket. */
static void mon_event(struct monsock *ms, const uint8_t *b, size_t got)
{
	const struct nlmsghdr *h = (const void *)b;
	const struct genlmsghdr *g = NLMSG_DATA(h);
	const struct nlattr *tb[PCIEAUDIT_A_MON_MAX + 1] = { 0 };
	struct facts fx = { .dev = -1 };
	uint32_t seen, ev, src, dom, regs, allowed;
	uint64_t seq, t, now = realtime_ns();
	uint16_t old = 0, new = 0;
	const uint8_t *attrs;
	size_t alen;
	const char *why;
	uint8_t bus, devfn;

	if (got < NLMSG_HDRLEN || !NLMSG_OK(h, got) || h->nlmsg_len != got) {
		mon_fail(ms, b, got, "a datagram of %zu bytes that is not one message", got);
		return;
	}
	if (h->nlmsg_type != family_id) {
		/* Random ids the churning socket joined belong to others. */
		if (ms->churn) {
			ms->foreign++;
			return;
		}
		mon_fail(ms, b, got, "message of type %u on the monitor group", h->nlmsg_type);
		return;
	}
	if (h->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN) || h->nlmsg_flags ||
	    h->nlmsg_seq || h->nlmsg_pid || g->cmd != PCIEAUDIT_CMD_MON_EVENT ||
	    g->version != PCIEAUDIT_FAMILY_VERSION || g->reserved) {
		mon_fail(ms, b, got, "event header: len %u flags %#x seq %u pid %u cmd %u version %u reserved %u",
			 h->nlmsg_len, h->nlmsg_flags, h->nlmsg_seq, h->nlmsg_pid,
			 g->cmd, g->version, g->reserved);
		return;
	}
	attrs = (const uint8_t *)g + GENL_HDRLEN;
	alen = h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	why = decode(&mon_s, attrs, alen, 0, &fx);
	if (why) {
		mon_fail(ms, b, got, "event does not decode: %s", why);
		return;
	}
	seen = mon_attrs(attrs, alen, tb);
	ATTR_VAL(tb, PCIEAUDIT_A_MON_SEQ, seq);
	ATTR_VAL(tb, PCIEAUDIT_A_MON_TIME_NS, t);
	ATTR_VAL(tb, PCIEAUDIT_A_MON_EVENT, ev);
	ATTR_VAL(tb, PCIEAUDIT_A_MON_SOURCE, src);
	get_addr(tb[PCIEAUDIT_A_MON_ADDR], &dom, &bus, &devfn);

	/* The kind decides the source and the register attributes. */
	regs = ev == PCIEAUDIT_MON_LINK ? REGS_LINK : ev == PCIEAUDIT_MON_ACS ? REGS_ACS : 0;
	allowed = mon_s.required | REQ(PCIEAUDIT_A_MON_PAD) | regs;
	if (seen & ~allowed) {
		mon_fail(ms, b, got, "%s event with attributes %#x of another kind",
			 mon_kind[ev], seen & ~allowed);
		return;
	}
	/* A tracepoint may prompt a link read, never the others. */
	if (ev == PCIEAUDIT_MON_ADDED || ev == PCIEAUDIT_MON_REMOVED ?
	    src != PCIEAUDIT_MON_SRC_BUS_NOTIFIER :
	    src != PCIEAUDIT_MON_SRC_SAMPLER &&
	    (ev != PCIEAUDIT_MON_LINK || src < PCIEAUDIT_MON_SRC_PCI_HP_EVENT)) {
		mon_fail(ms, b, got, "%s event from source %u", mon_kind[ev], src);
		return;
	}
	if (regs && (seen & regs) != regs && (seen & regs)) {
		mon_fail(ms, b, got, "%s event with some of its registers (%#x)",
			 mon_kind[ev], seen & regs);
		return;
	}
	if (regs && (seen & regs) == regs) {
		regs_events++;
		if (ev == PCIEAUDIT_MON_LINK) {
			ATTR_VAL(tb, PCIEAUDIT_A_MON_LNKSTA_OLD, old);
			ATTR_VAL(tb, PCIEAUDIT_A_MON_LNKSTA, new);
			if (!((old ^ new) & LNKSTA_WATCHED)) {
				mon_fail(ms, b, got, "link event without a change: LnkSta %#x -> %#x",
					 old, new);
				return;
			}
		} else {
			ATTR_VAL(tb, PCIEAUDIT_A_MON_ACS_CTRL_OLD, old);
			ATTR_VAL(tb, PCIEAUDIT_A_MON_ACS_CTRL, new);
			if (old == new) {
				mon_fail(ms, b, got, "ACS event without a change: %#x", old);
				return;
			}
		}
	} else if (regs) {
		noregs_events++;
	}

	/* Order: per socket; a gap only where ENOBUFS said events were lost. */
	if (seq == 0) {
		mon_fail(ms, b, got, "sequence number 0");
		return;
	}
	if (ms->last_seq && seq <= ms->last_seq) {
		mon_fail(ms, b, got, "sequence %llu after %llu", (unsigned long long)seq,
			 (unsigned long long)ms->last_seq);
		return;
	}
	if (ms->last_seq && seq != ms->last_seq + 1 && !ms->churn) {
		if (!ms->unmatched_enobufs) {
			mon_fail(ms, b, got, "sequence %llu after %llu without ENOBUFS",
				 (unsigned long long)seq, (unsigned long long)ms->last_seq);
			return;
		}
		ms->unmatched_enobufs--;
		ms->gaps++;
		ms->lost += seq - ms->last_seq - 1;
	}
	if (t < ms->last_time || t > now + 1000000000ULL ||
	    t + 2000000000ULL < listen_start_ns) {
		mon_fail(ms, b, got, "time %llu after %llu (now %llu, start %llu)",
			 (unsigned long long)t, (unsigned long long)ms->last_time,
			 (unsigned long long)now, (unsigned long long)listen_start_ns);
		return;
	}
	/* Every socket gets the same bytes for the same event. */
	if (mon_ring[seq % MON_RING].seq == seq &&
	    mon_ring[seq % MON_RING].hash != fnv1a(b, got)) {
		mon_fail(ms, b, got, "event %llu differs from another socket's copy",
			 (unsigned long long)seq);
		return;
	}
	mon_ring[seq % MON_RING].seq = seq;
	mon_ring[seq % MON_RING].hash = fnv1a(b, got);
	ms->last_seq = seq;
	ms->last_time = t;
	ms->events++;
	ms->kinds[ev]++;
	if (fevents)
		fprintf(fevents, "%s\t%llu\t%llu\t%s\t%u\t%04x:%02x:%02x.%x\t%#x\t%#x\n",
			ms->name, (unsigned long long)seq, (unsigned long long)t,
			mon_kind[ev], src, dom, bus, devfn >> 3, devfn & 7, old, new);
}

/* Reads what is queued; ENOBUFS is counted and marks the next gap allowed. */
static void mon_drain(struct monsock *ms)
{
	for (;;) {
		ssize_t got = recv(ms->fd, rbuf, sizeof(rbuf), MSG_DONTWAIT | MSG_TRUNC);

		if (got < 0) {
			if (errno == ENOBUFS) {
				ms->enobufs++;
				ms->unmatched_enobufs++;
				continue;
			}
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				mon_fail(ms, NULL, 0, "recv: %s", strerror(errno));
			return;
		}
		if ((size_t)got > sizeof(rbuf)) {
			mon_fail(ms, NULL, 0, "event of %zd bytes truncated", got);
			continue;
		}
		mon_event(ms, rbuf, (size_t)got);
	}
}

static int join(int fd, int opt, uint32_t group)
{
	return setsockopt(fd, SOL_NETLINK, opt, &group, sizeof(group)) ? errno : 0;
}

/* The kernel's list of the socket's groups; -1 if it cannot say. */
static int member(int fd, uint32_t group, uint32_t *ngroups)
{
	uint32_t words[64] = { 0 };
	socklen_t len = sizeof(words);

	if (getsockopt(fd, SOL_NETLINK, NETLINK_LIST_MEMBERSHIPS, words, &len))
		return -1;
	if (ngroups)
		*ngroups = len * 8;
	if (!group || group > len * 8 || group > sizeof(words) * 8)
		return 0;
	return !!(words[(group - 1) / 32] & (1u << ((group - 1) % 32)));
}

static uint32_t portid(int fd)
{
	struct sockaddr_nl sa;
	socklen_t len = sizeof(sa);

	return getsockname(fd, (struct sockaddr *)&sa, &len) ? 0 : sa.nl_pid;
}

/* ---- membership churn: each call one operation, judged ------------------ */

static const char *const churn_name[] = {
	"join", "leave", "join-0", "join-beyond", "join-short", "bind",
	"join-other", "reopen",
};
static unsigned long churn_ops[ARRAY_SIZE(churn_name)];

/*
 * rmmod unregisters the family, and that drops every membership of its
 * group: a churn step that races the removal is not a wrong answer.
 */
static bool family_gone(void)
{
	int fd = open_sock();
	uint16_t id;
	bool gone;

	if (fd < 0)
		return false;
	gone = resolve(fd, &id) == -ENOENT;
	close(fd);
	return gone;
}

static void churn(struct monsock *ms)
{
	uint32_t ngroups = 0, g, mask;
	unsigned int op = rn(ARRAY_SIZE(churn_name));
	int got = 0, want = 0, m;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	uint16_t shortval = (uint16_t)mon_group;

	if (member(ms->fd, 0, &ngroups) < 0)
		ngroups = 0;
	switch (op) {
	case 0:
		got = join(ms->fd, NETLINK_ADD_MEMBERSHIP, mon_group);
		ms->joined |= !got;
		break;
	case 1:
		got = join(ms->fd, NETLINK_DROP_MEMBERSHIP, mon_group);
		ms->joined &= !!got;
		break;
	case 2:
		got = join(ms->fd, chance(50) ? NETLINK_ADD_MEMBERSHIP :
			   NETLINK_DROP_MEMBERSHIP, 0);
		want = EINVAL;
		break;
	case 3:
		/*
		 * No such group: beyond every id genetlink has given out. A
		 * socket that never joined lists no groups (ngroups 0), and
		 * "beyond 0" once drew the monitor group itself.
		 */
		g = chance(50) ? (ngroups > mon_group ? ngroups : mon_group) + 1 + rn(1000) :
				 0xffffffffu - rn(4);
		got = join(ms->fd, NETLINK_ADD_MEMBERSHIP, g);
		want = ngroups ? EINVAL : got;
		break;
	case 4:
		/* An optlen under an int leaves the value 0. */
		got = setsockopt(ms->fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
				 &shortval, sizeof(shortval)) ? errno : 0;
		want = EINVAL;
		break;
	case 5:
		/* bind() sets the first 32 groups to the mask. */
		mask = chance(50) ? 0 : (uint32_t)rnd() & 0x0000ffff;
		if (mon_group <= 32 && chance(70))
			mask |= 1u << (mon_group - 1);
		sa.nl_pid = portid(ms->fd);
		sa.nl_groups = mask;
		got = bind(ms->fd, (struct sockaddr *)&sa, sizeof(sa)) ? errno : 0;
		if (mon_group <= 32 && !got)
			ms->joined = mask & (1u << (mon_group - 1));
		break;
	case 6:
		/*
		 * Another id in range, most of them no family's group:
		 * genl_bind() finds none and lets root in; then out again.
		 */
		g = 1 + rn(ngroups ? ngroups : 1);
		if (g == mon_group)
			g = 1;
		got = join(ms->fd, NETLINK_ADD_MEMBERSHIP, g);
		if (!got)
			got = join(ms->fd, NETLINK_DROP_MEMBERSHIP, g);
		break;
	default:
		/* Closed while joined, events perhaps queued. */
		close(ms->fd);
		ms->fd = open_sock();
		ms->joined = false;
		ms->last_seq = ms->last_time = 0;
		if (ms->fd < 0) {
			mon_fail(ms, NULL, 0, "cannot reopen");
			return;
		}
		break;
	}
	churn_ops[op]++;
	if ((got != want || member(ms->fd, mon_group, NULL) != ms->joined) &&
	    family_gone()) {
		ms->joined = false;
		return;
	}
	if (got != want) {
		mon_fail(ms, NULL, 0, "%s: %s, want %s", churn_name[op],
			 got ? strerror(got) : "success", want ? strerror(want) : "success");
		ms->joined = member(ms->fd, mon_group, NULL) == 1;
	}
	m = member(ms->fd, mon_group, NULL);
	if (m != ms->joined) {
		mon_fail(ms, NULL, 0, "after %s the kernel lists membership %d, want %d",
			 churn_name[op], m, ms->joined);
		ms->joined = m == 1;
	}
}

/* nlctrl's notification that the family is gone. */
static bool family_removed(int fd)
{
	bool gone = false;

	for (;;) {
		ssize_t got = recv(fd, rbuf, sizeof(rbuf), MSG_DONTWAIT);
		int rem = (int)got;

		if (got < 0)
			return gone;
		for (struct nlmsghdr *h = (void *)rbuf; NLMSG_OK(h, rem); h = NLMSG_NEXT(h, rem)) {
			const struct genlmsghdr *g = NLMSG_DATA(h);

			if (h->nlmsg_type != GENL_ID_CTRL || g->cmd != CTRL_CMD_DELFAMILY)
				continue;
			for (size_t off = NLMSG_LENGTH(GENL_HDRLEN); off + NLA_HDRLEN <= h->nlmsg_len;) {
				const struct nlattr *a = (const void *)((uint8_t *)h + off);

				if (a->nla_len < NLA_HDRLEN)
					break;
				if (a->nla_type == CTRL_ATTR_FAMILY_ID &&
				    !memcmp((const uint8_t *)a + NLA_HDRLEN, &family_id, 2))
					gone = true;
				off += NLA_ALIGN(a->nla_len);
			}
		}
	}
}

static volatile sig_atomic_t stop_listening;

static void on_term(int sig)
{
	(void)sig;
	stop_listening = 1;
}

static uint64_t mono_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static int listen_main(const char *out, unsigned int nsock, unsigned int nsmall,
		       uint64_t seed)
{
	struct monsock socks[MON_SOCKS + 1];
	struct monsock *ch;
	struct pollfd pfd[MON_SOCKS + 2];
	uint16_t ctrl_id;
	uint32_t notify = 0;
	int ctl, tiny = 1;
	bool removed = false;
	uint64_t t0 = mono_ms(), last_small = t0, last_churn = t0;
	char path[512];
	FILE *fs;

	listening = true;
	listen_start_ns = realtime_ns();
	rstate = seed;
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	snprintf(path, sizeof(path), "%s/failures.txt", out);
	ffail = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/events.tsv", out);
	fevents = fopen(path, "w");
	if (!ffail || !fevents) {
		perror("nlfuzz: output");
		return 1;
	}
	ctl = open_sock();
	if (ctl < 0 || resolve_family(ctl, PCIEAUDIT_FAMILY_NAME, &family_id,
				      PCIEAUDIT_MCGRP_MONITOR, &mon_group) ||
	    !mon_group) {
		fprintf(stderr, "nlfuzz: no family or no %s group\n", PCIEAUDIT_MCGRP_MONITOR);
		return 1;
	}
	if (resolve_family(ctl, "nlctrl", &ctrl_id, "notify", &notify) || !notify ||
	    join(ctl, NETLINK_ADD_MEMBERSHIP, notify)) {
		fprintf(stderr, "nlfuzz: cannot join nlctrl's notify group\n");
		return 1;
	}
	if (nsock > MON_SOCKS)
		nsock = MON_SOCKS;
	memset(socks, 0, sizeof(socks));
	for (unsigned int i = 0; i <= nsock; i++) {
		struct monsock *ms = &socks[i];
		socklen_t sl = sizeof(ms->rcvbuf);

		ms->fd = open_sock();
		ms->churn = i == nsock;
		ms->small = i < nsmall;
		snprintf(ms->name, sizeof(ms->name), ms->churn ? "churn" : "%s%u",
			 ms->small ? "small" : "big", i);
		if (ms->fd < 0) {
			perror("nlfuzz: socket");
			return 1;
		}
		/* The kernel raises it to SOCK_MIN_RCVBUF: about one event. */
		if (ms->small)
			setsockopt(ms->fd, SOL_SOCKET, SO_RCVBUFFORCE, &tiny, sizeof(tiny));
		getsockopt(ms->fd, SOL_SOCKET, SO_RCVBUF, &ms->rcvbuf, &sl);
		/* Receive our own ENOBUFS, never suppressed. */
		setsockopt(ms->fd, SOL_NETLINK, NETLINK_NO_ENOBUFS, &(int){ 0 }, sizeof(int));
		if (!ms->churn) {
			int err = join(ms->fd, NETLINK_ADD_MEMBERSHIP, mon_group);

			if (err || member(ms->fd, mon_group, NULL) != 1) {
				fprintf(stderr, "nlfuzz: %s cannot join group %u: %s\n",
					ms->name, mon_group, strerror(err));
				return 1;
			}
			ms->joined = true;
		}
	}
	ch = &socks[nsock];
	snprintf(path, sizeof(path), "%s/ready", out);
	fs = fopen(path, "w");
	if (fs) {
		fprintf(fs, "family_id=%u\ngroup=%u\n", family_id, mon_group);
		fclose(fs);
	}
	while (!stop_listening && !removed) {
		unsigned int n = 0;

		pfd[n++] = (struct pollfd){ .fd = ctl, .events = POLLIN };
		for (unsigned int i = nsmall; i <= nsock; i++)
			pfd[n++] = (struct pollfd){ .fd = socks[i].fd, .events = POLLIN };
		poll(pfd, n, 20);
		for (unsigned int i = nsmall; i <= nsock; i++)
			mon_drain(&socks[i]);
		if (mono_ms() - last_small >= SMALL_DRAIN_MS) {
			for (unsigned int i = 0; i < nsmall; i++)
				mon_drain(&socks[i]);
			last_small = mono_ms();
		}
		if (mono_ms() - last_churn >= 10) {
			churn(ch);
			last_churn = mono_ms();
		}
		removed = family_removed(ctl);
	}
	/*
	 * What was queued before the removal; then the kernel has let go.
	 * Not judged on the churn socket: genl_bind() lets root join an id
	 * that no family owns, and between genl_unregister_family()'s
	 * idr_remove() and our reading its DELFAMILY notice a churn step
	 * may join the freed id again (a cold CI run did). The four
	 * listeners never join after their start, so they still show that
	 * the removal dropped every membership.
	 */
	for (unsigned int i = 0; i <= nsock; i++) {
		mon_drain(&socks[i]);
		if (removed && &socks[i] != ch && member(socks[i].fd, mon_group, NULL) == 1)
			mon_fail(&socks[i], NULL, 0, "still a member of group %u after the family's removal",
				 mon_group);
	}

	snprintf(path, sizeof(path), "%s/summary.txt", out);
	fs = fopen(path, "w");
	if (!fs)
		return 1;
	fprintf(fs, "family_id=%u\ngroup=%u\nseconds=%.1f\nfamily_removed=%d\n",
		family_id, mon_group, (double)(mono_ms() - t0) / 1000, removed);
	fprintf(fs, "regs_events=%lu\nnoregs_events=%lu\nfailures=%lu\n",
		regs_events, noregs_events, mon_failures);
	for (unsigned int i = 0; i <= nsock; i++) {
		const struct monsock *ms = &socks[i];

		fprintf(fs, "socket\t%s\trcvbuf=%d\tevents=%lu\tenobufs=%lu\tgaps=%lu\tlost=%lu\tforeign=%lu\tadded=%lu\tremoved=%lu\tlink=%lu\tacs=%lu\n",
			ms->name, ms->rcvbuf, ms->events, ms->enobufs, ms->gaps,
			ms->lost, ms->foreign, ms->kinds[PCIEAUDIT_MON_ADDED],
			ms->kinds[PCIEAUDIT_MON_REMOVED], ms->kinds[PCIEAUDIT_MON_LINK],
			ms->kinds[PCIEAUDIT_MON_ACS]);
		printf("nlfuzz listen: %s: %lu events, %lu ENOBUFS, %lu gaps (%lu lost)\n",
		       ms->name, ms->events, ms->enobufs, ms->gaps, ms->lost);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(churn_name); i++)
		fprintf(fs, "churn_%s=%lu\n", churn_name[i], churn_ops[i]);
	fclose(fs);
	fclose(fevents);
	fclose(ffail);
	printf("nlfuzz listen: %s, %lu failures\n",
	       removed ? "family removed" : "stopped", mon_failures);
	return mon_failures ? 1 : 0;
}

/*
 * nlfuzz --joincheck: this process's own attempts at the group, one line
 * each ("join own ok", "join own Operation not permitted", ...), judged on
 * the host against the access model (docs/reliability.md section 4).
 */
static int joincheck(int fd)
{
	uint32_t ngroups = 0;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int err;

	err = resolve_family(fd, PCIEAUDIT_FAMILY_NAME, &family_id,
			     PCIEAUDIT_MCGRP_MONITOR, &mon_group);
	printf("lookup %s\ngroup %u\n", err ? strerror(-err) : "ok", mon_group);
	if (err || !mon_group)
		return 0;
	err = join(fd, NETLINK_ADD_MEMBERSHIP, mon_group);
	printf("join own %s\n", err ? strerror(err) : "ok");
	printf("member own %d\n", member(fd, mon_group, &ngroups));
	err = join(fd, NETLINK_DROP_MEMBERSHIP, mon_group);
	printf("leave own %s\n", err ? strerror(err) : "ok");
	if (mon_group <= 32) {
		sa.nl_pid = portid(fd);
		sa.nl_groups = 1u << (mon_group - 1);
		err = bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ? errno : 0;
		printf("bind own %s\n", err ? strerror(err) : "ok");
		printf("member own %d\n", member(fd, mon_group, NULL));
	}
	err = join(fd, NETLINK_ADD_MEMBERSHIP, 0);
	printf("join zero %s\n", err ? strerror(err) : "ok");
	err = join(fd, NETLINK_ADD_MEMBERSHIP, ngroups + 1);
	printf("join beyond %s\n", err ? strerror(err) : "ok");
	return 0;
}

/* ---- privileges kept by the socket, not by the sender -------------------- */

/* The lines of /proc/self/status the host judges the switch by. */
static void print_status(void)
{
	static const char *const keys[] = { "Uid:", "CapEff:", "CapPrm:", "CapBnd:",
					     "NoNewPrivs:" };
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
			if (!strncmp(line, keys[i], strlen(keys[i])))
				printf("status %s", line);
	if (f)
		fclose(f);
}

/* Becomes nobody with no capability in any set and no_new_privs. */
static int drop_to_nobody(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0 } };
	const uid_t nobody = 65534;

	for (int cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0))
			return -errno;
	if (setgroups(0, NULL) || setresgid(nobody, nobody, nobody) ||
	    setresuid(nobody, nobody, nobody) || syscall(SYS_capset, &h, d) ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	return 0;
}

/*
 * nlfuzz --joincheck --drop: joined as root, then nobody: the membership
 * stays (the core checks the joining task, once), leaving works, joining
 * again is the core's answer to nobody.
 */
static int joindrop(int fd)
{
	int err = resolve_family(fd, PCIEAUDIT_FAMILY_NAME, &family_id,
				 PCIEAUDIT_MCGRP_MONITOR, &mon_group);

	printf("lookup %s\ngroup %u\n", err ? strerror(-err) : "ok", mon_group);
	if (err || !mon_group)
		return 0;
	err = join(fd, NETLINK_ADD_MEMBERSHIP, mon_group);
	printf("join root %s\n", err ? strerror(err) : "ok");
	err = drop_to_nobody();
	printf("drop %s\n", err ? strerror(-err) : "ok");
	print_status();
	printf("member after drop %d\n", member(fd, mon_group, NULL));
	err = join(fd, NETLINK_DROP_MEMBERSHIP, mon_group);
	printf("leave after drop %s\n", err ? strerror(err) : "ok");
	err = join(fd, NETLINK_ADD_MEMBERSHIP, mon_group);
	printf("rejoin after drop %s\n", err ? strerror(err) : "ok");
	printf("member after rejoin %d\n", member(fd, mon_group, NULL));
	return 0;
}

/* The same again and again: any answer unlike the first is counted. */
static int joinrepeat(int fd, unsigned int n)
{
	int first[4], got[4];
	unsigned int odd = 0;
	uint32_t ngroups = 0;

	if (resolve_family(fd, PCIEAUDIT_FAMILY_NAME, &family_id,
			   PCIEAUDIT_MCGRP_MONITOR, &mon_group) || !mon_group)
		return 0;
	for (unsigned int i = 0; i < n; i++) {
		got[0] = join(fd, NETLINK_ADD_MEMBERSHIP, mon_group);
		got[1] = join(fd, NETLINK_DROP_MEMBERSHIP, mon_group);
		member(fd, 0, &ngroups);
		got[2] = join(fd, NETLINK_ADD_MEMBERSHIP, ngroups + 1 + i);
		got[3] = member(fd, mon_group, NULL);
		if (!i)
			memcpy(first, got, sizeof(got));
		odd += !!memcmp(first, got, sizeof(got));
	}
	printf("repeat %u inconsistent %u\n", n, odd);
	return 0;
}

/*
 * nlfuzz --mon-selftest: the event validator against events made here, one
 * valid and the rest each wrong in one way the spec forbids; every wrong
 * one must be caught, the valid ones not. Runs on the host (no module).
 */
/* Zero means the valid ACS event's value. */
struct mon_case {
	const char *name;
	uint32_t event, source, cmd, flags;
	uint64_t seq, time_delta;	/* time: now - time_delta ns */
	int acs_old, acs_new;		/* -1: absent */
	int acs_len;			/* bytes of ACS_CTRL */
	bool no_addr, bad_addr, link_regs, unknown, enobufs_before;
	bool bad;			/* must be caught */
};

static size_t mon_build(const struct mon_case *c, uint8_t *b)
{
	struct req r = { .type = family_id,
			 .cmd = (uint8_t)(c->cmd ? c->cmd : PCIEAUDIT_CMD_MON_EVENT),
			 .version = PCIEAUDIT_FAMILY_VERSION, .top = -1 };
	struct wire *w = &wires[0];
	uint64_t t = realtime_ns() - c->time_delta;
	int acs_old = c->acs_old ? c->acs_old : 0x1d;
	int acs_new = c->acs_new ? c->acs_new : 0x1c;
	uint32_t v;

	npool = 0;
	add(&r.top, leaf(PCIEAUDIT_A_MON_SEQ, &c->seq, 8));
	add(&r.top, leaf(PCIEAUDIT_A_MON_TIME_NS, &t, 8));
	add(&r.top, leaf_u32(PCIEAUDIT_A_MON_EVENT, c->event ? c->event : PCIEAUDIT_MON_ACS));
	add(&r.top, leaf_u32(PCIEAUDIT_A_MON_SOURCE,
			     c->source ? c->source : PCIEAUDIT_MON_SRC_SAMPLER));
	if (!c->no_addr)
		add(&r.top, addr_nest(PCIEAUDIT_A_MON_ADDR, c->bad_addr ? 0x7777 : devs[0].domain,
				      devs[0].bus, devs[0].devfn));
	if (c->link_regs) {
		add(&r.top, leaf_u32(PCIEAUDIT_A_MON_LNKCAP, 0x7c1012));
		v = 0x2011;
		add(&r.top, leaf(PCIEAUDIT_A_MON_LNKSTA_OLD, &v, 2));
		v = 0x0011;
		add(&r.top, leaf(PCIEAUDIT_A_MON_LNKSTA, &v, 2));
	}
	if (acs_old >= 0) {
		v = (uint32_t)acs_old;
		add(&r.top, leaf(PCIEAUDIT_A_MON_ACS_CTRL_OLD, &v, 2));
	}
	if (acs_new >= 0) {
		v = (uint32_t)acs_new;
		add(&r.top, leaf(PCIEAUDIT_A_MON_ACS_CTRL, &v, (uint16_t)(c->acs_len ? c->acs_len : 2)));
	}
	if (c->unknown)
		add(&r.top, leaf_u32(PCIEAUDIT_A_MON_MAX + 1, 0));
	serialise(&r, w, 0);
	((struct nlmsghdr *)w->b)->nlmsg_flags = (uint16_t)c->flags;
	memcpy(b, w->b, w->len);
	return w->len;
}

static int mon_selftest(void)
{
	static const struct mon_case cases[] = {
		{ "valid", .seq = 1 },
		{ "valid, next", .seq = 2 },
		{ "ACS control of 4 bytes", .seq = 3, .acs_len = 4, .bad = true },
		{ "unknown attribute", .seq = 3, .unknown = true, .bad = true },
		{ "event kind 5", .seq = 3, .event = 5, .bad = true },
		{ "link event with ACS registers", .seq = 3, .event = PCIEAUDIT_MON_LINK, .bad = true },
		{ "ACS event with link registers", .seq = 3, .link_regs = true, .bad = true },
		{ "ACS event from the bus notifier", .seq = 3,
		  .source = PCIEAUDIT_MON_SRC_BUS_NOTIFIER, .bad = true },
		{ "added event with ACS registers", .seq = 3, .event = PCIEAUDIT_MON_ADDED,
		  .source = PCIEAUDIT_MON_SRC_BUS_NOTIFIER, .bad = true },
		{ "no address", .seq = 3, .no_addr = true, .bad = true },
		{ "address sysfs does not list", .seq = 3, .bad_addr = true, .bad = true },
		{ "half the registers", .seq = 3, .acs_old = -1, .bad = true },
		{ "ACS event without a change", .seq = 3, .acs_new = 0x1d, .bad = true },
		{ "command INFO_GET", .seq = 3, .cmd = PCIEAUDIT_CMD_INFO_GET, .bad = true },
		{ "NLM_F_MULTI", .seq = 3, .flags = NLM_F_MULTI, .bad = true },
		{ "sequence repeated", .seq = 2, .bad = true },
		{ "sequence gap without ENOBUFS", .seq = 9, .bad = true },
		{ "time going back", .seq = 3, .time_delta = 60000000000ULL, .bad = true },
		{ "sequence gap after ENOBUFS", .seq = 9, .enobufs_before = true },
		{ "added, valid", .event = PCIEAUDIT_MON_ADDED, .source = PCIEAUDIT_MON_SRC_BUS_NOTIFIER,
		  .acs_old = -1, .acs_new = -1, .seq = 10 },
		{ "link, valid", .event = PCIEAUDIT_MON_LINK, .source = PCIEAUDIT_MON_SRC_SAMPLER,
		  .acs_old = -1, .acs_new = -1, .seq = 11,
		  .link_regs = true },
		{ "link prompted by pci_hp_event", .event = PCIEAUDIT_MON_LINK,
		  .source = PCIEAUDIT_MON_SRC_PCI_HP_EVENT, .acs_old = -1, .acs_new = -1,
		  .seq = 12, .link_regs = true },
		{ "ACS event prompted by pcie_link_event", .seq = 13,
		  .source = PCIEAUDIT_MON_SRC_PCIE_LINK_EVENT, .bad = true },
		{ "link event from source 5", .event = PCIEAUDIT_MON_LINK, .source = 5,
		  .acs_old = -1, .acs_new = -1, .seq = 13, .link_regs = true, .bad = true },
	};
	struct monsock ms = { .fd = -1, .name = "selftest" };
	uint8_t b[4096];
	unsigned int bad = 0;

	if (!ndev) {
		fprintf(stderr, "nlfuzz: no PCI function in sysfs to name\n");
		return 77;
	}
	family_id = 30;
	listen_start_ns = realtime_ns() - 10000000000ULL;
	ffail = fopen("/dev/null", "w");
	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct mon_case *c = &cases[i];
		unsigned long before = mon_failures;
		struct monsock keep = ms;
		bool caught;

		ms.unmatched_enobufs = c->enobufs_before;
		mon_event(&ms, b, mon_build(c, b));
		caught = mon_failures != before;
		if (caught != c->bad) {
			printf("nlfuzz mon-selftest: FAIL: %s %s\n", c->name,
			       caught ? "rejected" : "accepted");
			bad++;
		}
		/* A rejected event leaves the socket's state as it was. */
		if (caught)
			ms = keep;
	}
	printf("nlfuzz mon-selftest: %zu events, %lu rejected; %s\n", ARRAY_SIZE(cases),
	       mon_failures, bad ? "FAIL" : "every wrong one caught, every valid one accepted");
	return bad ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: nlfuzz [--seed S] [--count N] [--out DIR] [--unpriv] [--only I] [--verbose]\n"
			"       nlfuzz --privcheck [--family-id ID] [--drop | --opened-unpriv]\n"
			"       nlfuzz --joincheck [--drop] | --mon-selftest\n"
			"       nlfuzz --listen --out DIR [--sockets N] [--small K] [--seed S]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long count = 10000, only = 0, i;
	uint64_t seed = 0;
	bool have_seed = false, have_only = false, priv = false;
	bool do_listen = false, jcheck = false, mselftest = false;
	bool drop = false, opened_unpriv = false;
	unsigned int nsock = 4, nsmall = 2;
	const char *out = ".";
	long forced_id = -1;
	struct timespec t0, t1;
	char path[512];
	FILE *fs;
	double secs;
	int fd, err;

	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--seed") && a + 1 < argc) {
			seed = strtoull(argv[++a], NULL, 0);
			have_seed = true;
		} else if (!strcmp(argv[a], "--count") && a + 1 < argc) {
			count = strtoul(argv[++a], NULL, 0);
		} else if (!strcmp(argv[a], "--out") && a + 1 < argc) {
			out = argv[++a];
		} else if (!strcmp(argv[a], "--only") && a + 1 < argc) {
			only = strtoul(argv[++a], NULL, 0);
			have_only = true;
			verbose = true;
		} else if (!strcmp(argv[a], "--unpriv")) {
			unpriv = true;
		} else if (!strcmp(argv[a], "--verbose")) {
			verbose = true;
		} else if (!strcmp(argv[a], "--privcheck")) {
			priv = true;
		} else if (!strcmp(argv[a], "--listen")) {
			do_listen = true;
		} else if (!strcmp(argv[a], "--mon-selftest")) {
			mselftest = true;
		} else if (!strcmp(argv[a], "--joincheck")) {
			jcheck = true;
		} else if (!strcmp(argv[a], "--drop")) {
			drop = true;
		} else if (!strcmp(argv[a], "--opened-unpriv")) {
			opened_unpriv = true;
		} else if (!strcmp(argv[a], "--sockets") && a + 1 < argc) {
			nsock = (unsigned int)strtoul(argv[++a], NULL, 0);
		} else if (!strcmp(argv[a], "--small") && a + 1 < argc) {
			nsmall = (unsigned int)strtoul(argv[++a], NULL, 0);
		} else if (!strcmp(argv[a], "--family-id") && a + 1 < argc) {
			forced_id = strtol(argv[++a], NULL, 0);
		} else {
			usage();
		}
	}
	if (!have_seed) {
		clock_gettime(CLOCK_REALTIME, &t0);
		seed = (uint64_t)t0.tv_sec * 1000000007ULL ^ (uint64_t)t0.tv_nsec;
	}
	read_devs();
	if (do_listen)
		return listen_main(out, nsock, nsmall, seed);
	if (mselftest)
		return mon_selftest();
	/* Effective uid nobody: no effective capability; permitted kept. */
	if (opened_unpriv && seteuid(65534)) {
		perror("nlfuzz: seteuid");
		return 1;
	}
	fd = open_sock();
	if (fd < 0) {
		perror("nlfuzz: socket");
		return 1;
	}
	if (opened_unpriv && seteuid(0)) {
		perror("nlfuzz: seteuid");
		return 1;
	}
	if (jcheck && drop)
		return joindrop(fd);
	if (jcheck) {
		joincheck(fd);
		return joinrepeat(fd, 500);
	}
	if (priv && drop) {
		err = drop_to_nobody();
		printf("drop %s\n", err ? strerror(-err) : "ok");
	}
	if (priv && (drop || opened_unpriv))
		print_status();
	err = resolve(fd, &family_id);
	if (priv) {
		printf("lookup %s\n", err ? strerror(-err) : "ok");
		if (err && forced_id < 0)
			return 0;
		if (forced_id >= 0)
			family_id = (uint16_t)forced_id;
		ffail = stdout;
		judging = false;
		printf("family_id %u\n", family_id);
		return privcheck(fd);
	}
	if (err) {
		fprintf(stderr, "nlfuzz: family %s: %s\n", PCIEAUDIT_FAMILY_NAME,
			strerror(-err));
		return 1;
	}

	snprintf(path, sizeof(path), "%s/failures.txt", out);
	ffail = have_only ? stdout : fopen(path, "w");
	snprintf(path, sizeof(path), "%s/replies.tsv", out);
	flog = have_only ? NULL : fopen(path, "w");
	if (!ffail || (!have_only && !flog)) {
		perror("nlfuzz: output");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = have_only ? only : 0; i < (have_only ? only + 1 : count); i++) {
		if (run_one(fd, i, seed)) {
			/* The socket's state is unknown now: start afresh. */
			close(fd);
			fd = open_sock();
			if (fd < 0)
				break;
		}
		if (!have_only && i % 10000 == 9999) {
			fprintf(stderr, "nlfuzz: %lu messages, %lu failures\n",
				st.sent, st.failures);
			fflush(flog);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (have_only)
		return st.failures ? 1 : 0;

	snprintf(path, sizeof(path), "%s/summary.txt", out);
	fs = fopen(path, "w");
	if (!fs)
		return 1;
	fprintf(fs, "seed=%llu\ncount=%lu\nunpriv=%d\nfamily_id=%u\nfunctions=%u\n",
		(unsigned long long)seed, count, unpriv, family_id, ndev);
	fprintf(fs, "sent=%lu\nbatches=%lu\nabandoned=%lu\nreplies=%lu\nbytes=%lu\n",
		st.sent, st.batches, st.abandoned, st.replies, st.bytes);
	fprintf(fs, "seconds=%.1f\n", secs);
	fprintf(fs, "silent_drop=%lu\nsilent_ack0=%lu\n", st.drop, st.ack0);
	fprintf(fs, "answered=%lu\n", st.answered);
	fprintf(fs, "core_ext=%lu\nmodule_ext=%lu\n", st.core_ext, st.module_ext);
	fprintf(fs, "core_noext_ENOENT=%lu\ncore_noext_EINVAL=%lu\ncore_noext_EOPNOTSUPP=%lu\ncore_noext_EPERM=%lu\n",
		st.core_noext[0], st.core_noext[1], st.core_noext[2], st.core_noext[3]);
	fprintf(fs, "module_noext=%lu\nfailures=%lu\n", st.module_noext, st.failures);
	fprintf(fs, "unpriv_eperm=%lu\n", st.unpriv_eperm);
	fprintf(fs, "ok_info_do=%lu\nok_dev_do=%lu\nok_dev_dump=%lu\nok_group_dump=%lu\nok_p2p_do=%lu\nok_p2p_dump=%lu\n",
		st.ok_by_cmd[0][1], st.ok_by_cmd[0][2], st.ok_by_cmd[1][2],
		st.ok_by_cmd[1][3], st.ok_by_cmd[0][4], st.ok_by_cmd[1][4]);
	fprintf(fs, "dump_messages=%lu\npairs=%lu\n", st.dump_msgs, st.pairs);
	for (unsigned int h = 0; h < nhist; h++)
		fprintf(fs, "extack\t%d\t%lu\t%s\n", hist[h].err, hist[h].n, hist[h].msg);
	fclose(fs);
	fclose(flog);
	fclose(ffail);
	fprintf(stderr, "nlfuzz: seed %llu: %lu messages in %.1f s, %lu failures\n",
		(unsigned long long)seed, st.sent, secs, st.failures);
	return st.failures ? 1 : 0;
}
