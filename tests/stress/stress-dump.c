// SPDX-License-Identifier: GPL-2.0
/*
 * stress-dump: the guest side of the stress test (tests/stress/). It judges
 * only what it sees inside one dump (order, duplicates, malformed messages);
 * everything that needs the history of the run is written to logs, with
 * CLOCK_BOOTTIME stamps, and judged by check.py on the host.
 *
 *   stress-dump loop KIND LOG STOPFILE [--failslab]
 *	dump KIND (dev, group, p2p, mix) back to back until STOPFILE exists;
 *	--failslab sets /proc/thread-self/make-it-fail around the netlink
 *	system calls only, so debugfs failslab (task-filter) fails the
 *	kernel's allocations for the dump, never those for the log.
 *   stress-dump sweep KIND LOG MAX
 *	fail the 1st, 2nd, ... MAX-th slab allocation of one dump
 *	(/proc/thread-self/fail-nth), until a dump runs without reaching it.
 *   stress-dump hotplug LOG CYCLES ENDPOINT SWITCH PF NUMVFS
 *	CYCLES hot-plug cycles, in turn: remove+rescan of ENDPOINT, of the
 *	switch whose upstream port is SWITCH (its whole subtree), and
 *	sriov_numvfs of PF to 0 and back to NUMVFS.
 *   stress-dump resume LOG SWITCH PF NUMVFS
 *	P2P dumps in which the provider a part ends in is removed before the
 *	next part is built (once the switch's subtree, once the VFs).
 *   stress-dump clisweep LOG DIR WINDOW STEP CMD ARG...
 *	count the slab allocations of one run of CMD, then run it with each
 *	STEP-th of the last WINDOW of them failed (fail-nth).
 *   stress-dump reload LOG COUNT KO
 *	COUNT times rmmod pcieaudit (retried while in use) and insmod KO.
 *
 * Dump log lines (one per dump, "D"), keys as hex (domain << 16 | bus << 8
 * | devfn):
 *   D KIND SEQ T0 T1 ERR PARTS MSGS INTR ENOBUFS KEYS
 *	ERR 0 or the negative errno the dump ended with; INTR 1 when a
 *	message had NLM_F_DUMP_INTR; ENOBUFS 1 when a part after the first
 *	could not be allocated (recv() failed, ERR is -ENOBUFS);
 *	KEYS dev: k,k,...  group: id:k+k,...  p2p: pk>ck,...
 *   B KIND SEQ REASON	a dump broke a rule checked here
 * Sweep lines: S KIND N INJECTED ERR MSGS ENOBUFS
 * Hot-plug lines: W T0 T1 OP BDF,BDF,...  (the BDFs may be absent from T0
 * to T1; OK/FAIL lines say whether each cycle did what it should)
 * Reload lines: U T0 T1 ATTEMPTS (the family may be absent from T0 to T1)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <linux/pcieaudit.h>

#ifndef CLOCK_BOOTTIME
#define CLOCK_BOOTTIME 7
#endif

#define BUF_SIZE 4096	/* one page: the kernel sizes parts after it */

enum kind { K_DEV, K_GROUP, K_P2P, K_MIX };
static const char *const kind_names[] = { "dev", "group", "p2p", "mix" };

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("stress-dump: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

/* ---- growing string ---------------------------------------------------- */

struct sbuf {
	char *s;
	size_t len, cap;
};

static void sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (b->len + n < b->cap)
			break;
		b->cap = (b->cap ? 2 * b->cap : 4096) + (size_t)n;
		b->s = realloc(b->s, b->cap);
		if (!b->s)
			die("out of memory");
	}
	b->len += n;
}

/* ---- raw generic netlink ------------------------------------------------- */

struct nl {
	int fd;
	int family;		/* 0: not resolved */
	uint32_t seq;
};

static int nl_open(struct nl *nl)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = 60 };

	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (nl->fd < 0)
		return -errno;
	/* A dump that hangs is a failure, not a reason to hang the run. */
	setsockopt(nl->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (bind(nl->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int err = -errno;

		close(nl->fd);
		nl->fd = -1;
		return err;
	}
	return 0;
}

static void nl_reopen(struct nl *nl)
{
	if (nl->fd >= 0)
		close(nl->fd);
	while (nl_open(nl))
		usleep(10000);
}

static int nl_send(struct nl *nl, uint16_t type, uint16_t flags, uint8_t cmd,
		   uint8_t version, const void *attrs, size_t alen)
{
	char buf[BUF_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct genlmsghdr *g = NLMSG_DATA(nlh);
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	if (NLMSG_LENGTH(GENL_HDRLEN + alen) > sizeof(buf))
		return -EMSGSIZE;
	memset(buf, 0, sizeof(buf));
	nlh->nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN + alen);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++nl->seq;
	g->cmd = cmd;
	g->version = version;
	memcpy((char *)g + GENL_HDRLEN, attrs, alen);
	if (sendto(nl->fd, buf, nlh->nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0)
		return -errno;
	return 0;
}

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

#define NLA_DATA(a)	((const char *)(a) + NLA_HDRLEN)
#define NLA_PLEN(a)	((int)(a)->nla_len - NLA_HDRLEN)

/* A PCIEAUDIT_A_ADDR_* nest as a key, or -1 when malformed. */
static long long addr_key(const struct nlattr *nest)
{
	const struct nlattr *d, *b, *f;

	if (!nest)
		return -1;
	d = nla_find(NLA_DATA(nest), NLA_PLEN(nest), PCIEAUDIT_A_ADDR_DOMAIN);
	b = nla_find(NLA_DATA(nest), NLA_PLEN(nest), PCIEAUDIT_A_ADDR_BUS);
	f = nla_find(NLA_DATA(nest), NLA_PLEN(nest), PCIEAUDIT_A_ADDR_DEVFN);
	if (!d || !b || !f || NLA_PLEN(d) != 4 || NLA_PLEN(b) != 1 ||
	    NLA_PLEN(f) != 1)
		return -1;
	return (long long)*(const uint32_t *)NLA_DATA(d) << 16 |
	       *(const uint8_t *)NLA_DATA(b) << 8 | *(const uint8_t *)NLA_DATA(f);
}

/* CTRL_CMD_GETFAMILY; 0, -ENOENT when absent, or another -errno. */
static int resolve(struct nl *nl)
{
	char req[NLA_ALIGN(NLA_HDRLEN + sizeof(PCIEAUDIT_FAMILY_NAME))];
	struct nlattr *a = (struct nlattr *)req;
	char buf[BUF_SIZE] __attribute__((aligned(4)));
	int err, n;

	memset(req, 0, sizeof(req));
	a->nla_type = CTRL_ATTR_FAMILY_NAME;
	a->nla_len = NLA_HDRLEN + sizeof(PCIEAUDIT_FAMILY_NAME);
	memcpy(req + NLA_HDRLEN, PCIEAUDIT_FAMILY_NAME,
	       sizeof(PCIEAUDIT_FAMILY_NAME));
	err = nl_send(nl, GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY, 1, req,
		      sizeof(req));
	if (err)
		return err;
	for (;;) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;

		n = recv(nl->fd, buf, sizeof(buf), 0);
		if (n < 0)
			return -errno;
		for (; NLMSG_OK(nlh, n); nlh = NLMSG_NEXT(nlh, n)) {
			const struct nlattr *id;

			if (nlh->nlmsg_seq != nl->seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_ERROR)
				return ((struct nlmsgerr *)NLMSG_DATA(nlh))->error ?: -EPROTO;
			id = nla_find((char *)NLMSG_DATA(nlh) + GENL_HDRLEN,
				      nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN),
				      CTRL_ATTR_FAMILY_ID);
			if (!id)
				return -EPROTO;
			nl->family = *(const uint16_t *)NLA_DATA(id);
			return 0;
		}
	}
}

/* ---- one dump ------------------------------------------------------------ */

struct dump {
	enum kind kind;
	int err, parts, msgs, intr, enobufs;
	long long last[2];	/* ordering key of the previous message */
	struct sbuf keys;
	char bad[160];
};

static void mark_bad(struct dump *d, const char *fmt, ...)
{
	va_list ap;

	if (d->bad[0])
		return;
	va_start(ap, fmt);
	vsnprintf(d->bad, sizeof(d->bad), fmt, ap);
	va_end(ap);
}

/* Keys must rise strictly: resumption by key never repeats or goes back. */
static void check_order(struct dump *d, long long k0, long long k1)
{
	if (k0 < d->last[0] || (k0 == d->last[0] && k1 <= d->last[1]))
		mark_bad(d, "order:%llx/%llx-after-%llx/%llx", k0, k1,
			 d->last[0], d->last[1]);
	d->last[0] = k0;
	d->last[1] = k1;
}

static void take_dev(struct dump *d, const void *attrs, int len)
{
	const struct nlattr *name = nla_find(attrs, len, PCIEAUDIT_A_DEV_NAME);
	const struct nlattr *fl = nla_find(attrs, len, PCIEAUDIT_A_DEV_FLAGS);
	long long k = addr_key(nla_find(attrs, len, PCIEAUDIT_A_DEV_ADDR));
	char expect[32];

	if (k < 0 || !name || !fl) {
		mark_bad(d, "malformed-dev");
		return;
	}
	snprintf(expect, sizeof(expect), "%04llx:%02llx:%02llx.%lld",
		 k >> 16, (k >> 8) & 0xff, (k >> 3) & 0x1f, k & 7);
	if (NLA_PLEN(name) < 1 || strncmp(NLA_DATA(name), expect, NLA_PLEN(name)))
		mark_bad(d, "name-%.*s-for-%s", NLA_PLEN(name), NLA_DATA(name),
			 expect);
	if (*(const uint32_t *)NLA_DATA(fl) & ~PCIEAUDIT_DEV_F_ALL)
		mark_bad(d, "flags-%s", expect);
	check_order(d, k, 0);
	sb_add(&d->keys, "%s%llx", d->keys.len ? "," : "", k);
}

static void take_group(struct dump *d, const void *attrs, int len)
{
	const struct nlattr *id = nla_find(attrs, len, PCIEAUDIT_A_GROUP_ID);
	const struct nlattr *a = attrs;
	int rem = len;
	bool first = true;

	if (!id || NLA_PLEN(id) != 4) {
		mark_bad(d, "malformed-group");
		return;
	}
	check_order(d, *(const uint32_t *)NLA_DATA(id), 0);
	sb_add(&d->keys, "%s%u:", d->keys.len ? "," : "",
	       *(const uint32_t *)NLA_DATA(id));
	while (rem >= (int)sizeof(*a) && a->nla_len >= sizeof(*a) &&
	       a->nla_len <= rem) {
		if ((a->nla_type & NLA_TYPE_MASK) == PCIEAUDIT_A_GROUP_MEMBER) {
			long long k = addr_key(a);

			if (k < 0)
				mark_bad(d, "malformed-member");
			sb_add(&d->keys, "%s%llx", first ? "" : "+", k);
			first = false;
		}
		rem -= NLA_ALIGN(a->nla_len);
		a = (const void *)((const char *)a + NLA_ALIGN(a->nla_len));
	}
}

static void take_p2p(struct dump *d, const void *attrs, int len)
{
	const struct nlattr *pair = nla_find(attrs, len, PCIEAUDIT_A_P2P_PAIR);
	long long p = addr_key(nla_find(attrs, len, PCIEAUDIT_A_P2P_PROVIDER));
	long long c = pair ? addr_key(nla_find(NLA_DATA(pair), NLA_PLEN(pair),
					       PCIEAUDIT_A_PAIR_CLIENT)) : -1;

	if (p < 0 || c < 0) {
		mark_bad(d, "malformed-pair");
		return;
	}
	if (p == c)
		mark_bad(d, "self-pair-%llx", p);
	if (!nla_find(NLA_DATA(pair), NLA_PLEN(pair),
		      PCIEAUDIT_A_PAIR_KERNEL_STATUS))
		mark_bad(d, "no-kernel-status-%llx>%llx", p, c);
	check_order(d, p, c);
	sb_add(&d->keys, "%s%llx>%llx", d->keys.len ? "," : "", p, c);
}

static const uint8_t kind_cmd[] = {
	PCIEAUDIT_CMD_DEV_GET, PCIEAUDIT_CMD_GROUP_GET, PCIEAUDIT_CMD_P2P_GET,
};

/* Optional make-it-fail file, written around the netlink calls only. */
static int fail_fd = -1;

static void set_fail(bool on)
{
	if (fail_fd >= 0)
		while (pwrite(fail_fd, on ? "1" : "0", 1, 0) != 1 &&
		       errno == EINTR)
			;
}

/*
 * Runs one dump to its end. Sets d->err to 0 or the error it ended with;
 * returns false when the socket must be replaced (state unknown).
 */
static bool run_dump(struct nl *nl, struct dump *d)
{
	static char buf[BUF_SIZE] __attribute__((aligned(4)));
	bool done = false, sane = true;

	d->err = d->parts = d->msgs = d->intr = d->enobufs = 0;
	d->last[0] = d->last[1] = -1;
	d->keys.len = 0;
	if (d->keys.s)
		d->keys.s[0] = '\0';
	d->bad[0] = '\0';

	set_fail(true);
	d->err = nl_send(nl, nl->family, NLM_F_DUMP, kind_cmd[d->kind],
			 PCIEAUDIT_FAMILY_VERSION, NULL, 0);
	while (!d->err && !done) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
		int n = recv(nl->fd, buf, sizeof(buf), MSG_TRUNC);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			/*
			 * ENOBUFS: the kernel could not allocate the next
			 * part. Nothing restarts the dump but another part
			 * arriving, so it is over (as for libnl): the caller
			 * sees the error and a fresh socket.
			 */
			if (errno == ENOBUFS)
				d->enobufs++;
			d->err = errno == EAGAIN ? -ETIMEDOUT : -errno;
			sane = false;
			break;
		}
		if (n > (int)sizeof(buf)) {
			mark_bad(d, "truncated-part-%d", n);
			sane = false;
			break;
		}
		d->parts++;
		for (; NLMSG_OK(nlh, n); nlh = NLMSG_NEXT(nlh, n)) {
			void *attrs = (char *)NLMSG_DATA(nlh) + GENL_HDRLEN;
			int alen = nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);

			if (nlh->nlmsg_seq != nl->seq)
				continue;	/* of an abandoned request */
			if (nlh->nlmsg_type == NLMSG_DONE) {
				d->err = *(int *)NLMSG_DATA(nlh);
				done = true;
				break;
			}
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				d->err = ((struct nlmsgerr *)NLMSG_DATA(nlh))->error;
				if (!d->err)
					mark_bad(d, "ack-instead-of-done");
				done = true;
				break;
			}
			if (nlh->nlmsg_type != nl->family || alen < 0) {
				mark_bad(d, "type-%u", nlh->nlmsg_type);
				continue;
			}
			if (!(nlh->nlmsg_flags & NLM_F_MULTI))
				mark_bad(d, "not-multi");
			if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
				d->intr = 1;
			d->msgs++;
			switch (d->kind) {
			case K_DEV:
				take_dev(d, attrs, alen);
				break;
			case K_GROUP:
				take_group(d, attrs, alen);
				break;
			default:
				take_p2p(d, attrs, alen);
				break;
			}
		}
	}
	set_fail(false);
	if (d->err == -ENOENT)
		nl->family = 0;		/* unloaded: resolve again */
	/*
	 * After an error the kernel may still hold the dump open (a first
	 * part it could not allocate is answered with NLMSG_ERROR, and the
	 * dump resumes on the next recv()): start afresh, as the CLI does.
	 */
	return sane && !d->err;
}

static void log_dump(FILE *log, const struct dump *d, unsigned long seq,
		     unsigned long long t0, unsigned long long t1)
{
	fprintf(log, "D %s %lu %llu %llu %d %d %d %d %d %s\n",
		kind_names[d->kind], seq, t0, t1, d->err, d->parts, d->msgs,
		d->intr, d->enobufs, d->keys.len ? d->keys.s : "-");
	if (d->bad[0])
		fprintf(log, "B %s %lu %s\n", kind_names[d->kind], seq, d->bad);
	fflush(log);
}

static enum kind parse_kind(const char *s)
{
	for (unsigned int i = 0; i < 4; i++)
		if (!strcmp(s, kind_names[i]))
			return i;
	die("unknown kind %s", s);
	return K_DEV;
}

static FILE *open_log(const char *path)
{
	FILE *f = fopen(path, "a");

	if (!f)
		die("%s: %s", path, strerror(errno));
	return f;
}

/* Family lookups, counted in the log when the family is absent. */
static int ensure_family(struct nl *nl, FILE *log)
{
	unsigned long long t0 = now_ns();
	int err;

	if (nl->family)
		return 0;
	set_fail(true);
	err = resolve(nl);
	set_fail(false);
	if (err) {
		fprintf(log, "R %llu %llu %d\n", t0, now_ns(), err);
		fflush(log);
		nl_reopen(nl);
	}
	return err;
}

static int cmd_loop(int argc, char **argv)
{
	enum kind kind = parse_kind(argv[2]);
	FILE *log = open_log(argv[3]);
	const char *stop = argv[4];
	struct nl nl = { .fd = -1 };
	struct dump d = { 0 };
	unsigned long seq = 0;

	if (argc > 5 && !strcmp(argv[5], "--failslab")) {
		/*
		 * A page fault inside recv() whose allocation fails turns
		 * into EFAULT: keep every page of ours resident.
		 */
		if (mlockall(MCL_CURRENT | MCL_FUTURE))
			die("mlockall: %s", strerror(errno));
		fail_fd = open("/proc/thread-self/make-it-fail", O_WRONLY);
		if (fail_fd < 0)
			die("make-it-fail: %s", strerror(errno));
	}
	srand(getpid());
	nl_reopen(&nl);
	while (access(stop, F_OK)) {
		unsigned long long t0;

		if (ensure_family(&nl, log)) {
			usleep(5000);
			continue;
		}
		d.kind = kind == K_MIX ? seq % 3 : kind;
		t0 = now_ns();
		if (!run_dump(&nl, &d))
			nl_reopen(&nl);
		log_dump(log, &d, ++seq, t0, now_ns());
		/* A short pause, so that rmmod finds moments without a dump. */
		usleep(rand() % 3000);
	}
	fclose(log);
	return 0;
}

/* ---- fail-nth sweep ------------------------------------------------------ */

static int cmd_sweep(char **argv)
{
	enum kind kind = parse_kind(argv[2]);
	FILE *log = open_log(argv[3]);
	int max = atoi(argv[4]), fd, idle = 0;
	struct nl nl = { .fd = -1 };
	struct dump d = { .kind = kind };

	fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fd < 0)
		die("fail-nth: %s", strerror(errno));
	for (int n = 1; n <= max && idle < 3; n++) {
		unsigned long long t0;
		char val[16], num[16];
		int len, injected;

		nl_reopen(&nl);
		while (ensure_family(&nl, log))
			usleep(5000);
		len = snprintf(num, sizeof(num), "%d", n);
		t0 = now_ns();
		if (pwrite(fd, num, len, 0) != len)
			die("fail-nth write: %s", strerror(errno));
		run_dump(&nl, &d);
		len = pread(fd, val, sizeof(val) - 1, 0);
		val[len > 0 ? len : 0] = '\0';
		injected = atoi(val) == 0;
		if (pwrite(fd, "0", 1, 0) != 1)
			die("fail-nth reset: %s", strerror(errno));
		/* Past the dump's last allocation: nothing left to fail. */
		idle = injected ? 0 : idle + 1;
		fprintf(log, "S %s %d %d %d %d %d\n", kind_names[kind], n,
			injected, d.err, d.msgs, d.enobufs);
		log_dump(log, &d, n, t0, now_ns());
	}
	fclose(log);
	return 0;
}

/* ---- hot-plug ------------------------------------------------------------ */

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		err = -errno;
	close(fd);
	return err;
}

static bool exists(const char *bdf)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s", bdf);
	return !access(path, F_OK);
}

/* The functions below (and including) @bdf, from sysfs; comma-separated. */
static void subtree(const char *bdf, struct sbuf *out)
{
	char cmd[256];
	FILE *p;
	char line[256];

	snprintf(cmd, sizeof(cmd),
		 "for d in /sys/bus/pci/devices/*; do readlink -f $d; done | grep '/%s\\(/\\|$\\)'",
		 bdf);
	p = popen(cmd, "r");
	if (!p)
		die("popen: %s", strerror(errno));
	while (fgets(line, sizeof(line), p)) {
		char *b = strrchr(line, '/');

		b = b ? b + 1 : line;
		b[strcspn(b, "\n")] = '\0';
		sb_add(out, "%s%s", out->len ? "," : "", b);
	}
	pclose(p);
}

/* The first @n VFs of @pf, from sysfs; comma-separated. */
static void vf_list(const char *pf, int n, struct sbuf *out)
{
	for (int i = 0; i < n; i++) {
		char link[128], target[256];
		ssize_t len;

		snprintf(link, sizeof(link), "/sys/bus/pci/devices/%s/virtfn%d",
			 pf, i);
		len = readlink(link, target, sizeof(target) - 1);
		if (len < 0)
			die("%s: %s", link, strerror(errno));
		target[len] = '\0';
		sb_add(out, "%s%s", out->len ? "," : "", strrchr(target, '/') + 1);
	}
}

static bool all_exist(const char *list)
{
	char *copy = strdup(list), *save = NULL;
	bool ok = true;

	for (char *b = strtok_r(copy, ",", &save); b; b = strtok_r(NULL, ",", &save))
		ok &= exists(b);
	free(copy);
	return ok;
}

static bool none_exist(const char *list)
{
	char *copy = strdup(list), *save = NULL;
	bool ok = true;

	for (char *b = strtok_r(copy, ",", &save); b; b = strtok_r(NULL, ",", &save))
		ok &= !exists(b);
	free(copy);
	return ok;
}

static int cmd_hotplug(char **argv)
{
	FILE *log = open_log(argv[2]);
	int cycles = atoi(argv[3]), failed = 0;
	const char *ep = argv[4], *sw = argv[5], *pf = argv[6], *nvfs = argv[7];
	struct sbuf ep_set = { 0 }, sw_set = { 0 }, vf_set = { 0 };
	char path[128], numvfs[128];

	subtree(ep, &ep_set);
	subtree(sw, &sw_set);
	vf_list(pf, atoi(nvfs), &vf_set);
	fprintf(log, "SET endpoint %s\nSET switch %s\nSET vf %s\n", ep_set.s,
		sw_set.s, vf_set.s);
	snprintf(numvfs, sizeof(numvfs), "/sys/bus/pci/devices/%s/sriov_numvfs",
		 pf);

	for (int i = 0; i < cycles; i++) {
		const char *op = (const char *[]){ "endpoint", "switch", "vf" }[i % 3];
		const char *set = i % 3 == 0 ? ep_set.s :
				  i % 3 == 1 ? sw_set.s : vf_set.s;
		unsigned long long t0, t1;
		int e1, e2;
		bool gone;

		t0 = now_ns();
		if (i % 3 == 2) {
			e1 = write_file(numvfs, "0");
			gone = none_exist(set);
			e2 = write_file(numvfs, nvfs);
		} else {
			snprintf(path, sizeof(path),
				 "/sys/bus/pci/devices/%s/remove",
				 i % 3 ? sw : ep);
			e1 = write_file(path, "1");
			gone = none_exist(set);
			e2 = write_file("/sys/bus/pci/rescan", "1");
		}
		t1 = now_ns();
		fprintf(log, "W %llu %llu %s %s\n", t0, t1, op, set);
		if (e1 || e2 || !gone || !all_exist(set)) {
			failed++;
			fprintf(log, "FAIL %d %s remove=%d rescan=%d gone=%d back=%d\n",
				i + 1, op, e1, e2, gone, all_exist(set));
		} else {
			fprintf(log, "OK %d %s\n", i + 1, op);
		}
		fflush(log);
	}
	fclose(log);
	return failed ? 1 : 0;
}

/* ---- P2P resumption across a removed provider ------------------------------- */

/* The provider of the last pair in a part, or -1. */
static long long last_provider(const char *buf, int n, int family)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;
	long long p = -1;

	for (; NLMSG_OK(nlh, n); nlh = NLMSG_NEXT(nlh, n))
		if (nlh->nlmsg_type == family)
			p = addr_key(nla_find((const char *)NLMSG_DATA(nlh) + GENL_HDRLEN,
					      nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN),
					      PCIEAUDIT_A_P2P_PROVIDER));
	return p;
}

static bool in_set(const char *set, long long key)
{
	char bdf[32];

	snprintf(bdf, sizeof(bdf), "%04llx:%02llx:%02llx.%lld", key >> 16,
		 (key >> 8) & 0xff, (key >> 3) & 0x1f, key & 7);
	return key >= 0 && strstr(set, bdf);
}

static size_t put_attr(char *p, uint16_t type, const void *data, size_t len)
{
	struct nlattr *a = (struct nlattr *)p;

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy(p + NLA_HDRLEN, data, len);
	memset(p + NLA_HDRLEN + len, 0, NLA_ALIGN(a->nla_len) - a->nla_len);
	return NLA_ALIGN(a->nla_len);
}

/*
 * Address selectors (PCIEAUDIT_A_P2P_SELECT_DEV) of every function without
 * a subordinate bus now, the set a dump without selectors takes: such a
 * selection (the CLI's) goes the module's one-walk path, none its general
 * path. Returns the length written to @attrs.
 */
static size_t select_endpoints(char *attrs, size_t room)
{
	FILE *p = popen("for d in /sys/bus/pci/devices/*; do "
			"[ -e $d/pci_bus ] || echo ${d##*/}; done", "r");
	char line[64];
	size_t len = 0;

	if (!p)
		die("popen: %s", strerror(errno));
	while (fgets(line, sizeof(line), p)) {
		unsigned int dom, bus, dev, fn;
		uint8_t b, devfn;
		char nest[64];
		size_t n = NLA_HDRLEN;

		if (sscanf(line, "%x:%x:%x.%u", &dom, &bus, &dev, &fn) != 4)
			continue;
		b = (uint8_t)bus;
		devfn = (uint8_t)(dev << 3 | fn);
		n += put_attr(nest + n, PCIEAUDIT_A_ADDR_DOMAIN, &dom, 4);
		n += put_attr(nest + n, PCIEAUDIT_A_ADDR_BUS, &b, 1);
		n += put_attr(nest + n, PCIEAUDIT_A_ADDR_DEVFN, &devfn, 1);
		((struct nlattr *)nest)->nla_type = PCIEAUDIT_A_P2P_SELECT_DEV |
						    NLA_F_NESTED;
		((struct nlattr *)nest)->nla_len = n;
		if (len + n > room)
			die("select: more functions than a request holds");
		memcpy(attrs + len, nest, n);
		len += n;
	}
	pclose(p);
	return len;
}

/*
 * One P2P dump, part by part. The kernel builds the next part at the end
 * of the recv() that drained the previous one, unless the socket's queue
 * is still over half its (small) buffer: so each part is first peeked at,
 * and when it ends in a provider of the switch's subtree or a VF, that
 * provider is removed before the part is consumed. The next part then
 * resumes from a removed provider, which must not cost the next provider
 * any of its pairs (check.py compares the dump with sysfs). Both of the
 * module's paths are driven: no selectors, then every endpoint by address.
 */
struct resume {
	const char *sw, *nvfs;
	struct sbuf sw_set, vf_set;
	char numvfs[128];
	int rcvbuf;
};

/* Dumps until a provider of each set was removed; 0 when both were. */
static int resume_rounds(FILE *log, struct resume *r, bool select)
{
	char path[128];
	int done_sw = 0, done_vf = 0;

	for (int round = 0; round < 20 && !(done_sw && done_vf); round++) {
		static char buf[BUF_SIZE] __attribute__((aligned(4)));
		static char sel[BUF_SIZE / 2] __attribute__((aligned(4)));
		size_t sel_len = select ? select_endpoints(sel, sizeof(sel)) : 0;
		struct nl nl = { .fd = -1 };
		struct dump d = { .kind = K_P2P };
		const char *removed = NULL;
		unsigned long long t0, tr = 0;
		int parts = 0;

		nl_reopen(&nl);
		while (ensure_family(&nl, log))
			usleep(5000);
		setsockopt(nl.fd, SOL_SOCKET, SO_RCVBUF, &r->rcvbuf, sizeof(r->rcvbuf));
		t0 = now_ns();
		d.last[0] = d.last[1] = -1;
		d.err = nl_send(&nl, nl.family, NLM_F_DUMP, PCIEAUDIT_CMD_P2P_GET,
				PCIEAUDIT_FAMILY_VERSION, sel, sel_len);
		for (bool done = false; !d.err && !done;) {
			struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
			int n = recv(nl.fd, buf, sizeof(buf), MSG_PEEK | MSG_TRUNC);
			long long p;

			if (n < 0 || n > (int)sizeof(buf)) {
				d.err = n < 0 ? -errno : -EMSGSIZE;
				break;
			}
			p = last_provider(buf, n, nl.family);
			/* Never in the first part: nothing would follow it. */
			if (!removed && parts > 0) {
				if (!done_sw && in_set(r->sw_set.s, p)) {
					snprintf(path, sizeof(path),
						 "/sys/bus/pci/devices/%s/remove", r->sw);
					tr = now_ns();
					if (!write_file(path, "1"))
						removed = r->sw_set.s;
				} else if (!done_vf && in_set(r->vf_set.s, p)) {
					tr = now_ns();
					if (!write_file(r->numvfs, "0"))
						removed = r->vf_set.s;
				}
				if (removed)
					fprintf(log, "RM %s after-part %d provider %llx\n",
						removed, parts, p);
			}
			n = recv(nl.fd, buf, sizeof(buf), 0);
			if (n < 0) {
				d.err = -errno;
				break;
			}
			parts++;
			d.parts++;
			for (; NLMSG_OK(nlh, n); nlh = NLMSG_NEXT(nlh, n)) {
				if (nlh->nlmsg_type == NLMSG_DONE ||
				    nlh->nlmsg_type == NLMSG_ERROR) {
					d.err = *(int *)NLMSG_DATA(nlh);
					done = true;
					break;
				}
				if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
					d.intr = 1;
				d.msgs++;
				take_p2p(&d, (char *)NLMSG_DATA(nlh) + GENL_HDRLEN,
					 nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN));
			}
		}
		log_dump(log, &d, round + 1, t0, now_ns());
		close(nl.fd);
		if (removed == r->sw_set.s) {
			write_file("/sys/bus/pci/rescan", "1");
			fprintf(log, "W %llu %llu switch %s\n", tr, now_ns(), r->sw_set.s);
			done_sw = all_exist(r->sw_set.s) ? 1 : -1;
		} else if (removed == r->vf_set.s) {
			write_file(r->numvfs, r->nvfs);
			fprintf(log, "W %llu %llu vf %s\n", tr, now_ns(), r->vf_set.s);
			done_vf = all_exist(r->vf_set.s) ? 1 : -1;
		}
		fflush(log);
	}
	fprintf(log, "RESUME %s switch %d vf %d\n", select ? "select" : "all",
		done_sw, done_vf);
	return done_sw == 1 && done_vf == 1 ? 0 : 1;
}

static int cmd_resume(char **argv)
{
	FILE *log = open_log(argv[2]);
	struct resume r = { .sw = argv[3], .nvfs = argv[5], .rcvbuf = 4096 };
	const char *pf = argv[4];
	int failed;

	subtree(r.sw, &r.sw_set);
	vf_list(pf, atoi(r.nvfs), &r.vf_set);
	snprintf(r.numvfs, sizeof(r.numvfs),
		 "/sys/bus/pci/devices/%s/sriov_numvfs", pf);
	failed = resume_rounds(log, &r, false);
	failed |= resume_rounds(log, &r, true);
	fclose(log);
	return failed;
}

/* ---- the CLI with one allocation failed ------------------------------------- */

/*
 * Runs argv with its Nth slab allocation failed (counted from before the
 * exec); *left is what remained of the count when it exited, read from
 * the zombie before it is reaped (0: the failure was injected).
 */
static int run_failnth(char **argv, long n, const char *base, long *left)
{
	siginfo_t si;
	char path[300], val[32];
	pid_t pid = fork();
	int fd, len, status;

	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		int o, e;

		snprintf(path, sizeof(path), "%s.json", base);
		o = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		snprintf(path, sizeof(path), "%s.err", base);
		e = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(125);
		fd = open("/proc/thread-self/fail-nth", O_WRONLY);
		len = snprintf(val, sizeof(val), "%ld", n);
		if (fd < 0 || write(fd, val, len) != len)
			_exit(125);
		close(fd);
		execv(argv[0], argv);
		_exit(127);
	}
	if (waitid(P_PID, pid, &si, WEXITED | WNOWAIT))
		die("waitid: %s", strerror(errno));
	snprintf(path, sizeof(path), "/proc/%d/fail-nth", pid);
	fd = open(path, O_RDONLY);
	len = fd < 0 ? -1 : read(fd, val, sizeof(val) - 1);
	val[len > 0 ? len : 0] = '\0';
	*left = len > 0 ? atol(val) : -1;
	if (fd >= 0)
		close(fd);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * How many slab allocations one run of the CLI makes (exec included), then
 * the last WINDOW of them failed one at a time, every STEP-th: the CLI's
 * own work is at the end, after the exec and the dynamic loader. A run's
 * stdout is kept as DIR/N.json when it exits 0; its first line of stderr
 * goes to the log: "N n rc left message".
 */
static int cmd_clisweep(char **argv)
{
	FILE *log = open_log(argv[2]);
	const char *dir = argv[3];
	long window = atol(argv[4]), step = atol(argv[5]), left, total;
	char base[256], path[300], msg[512];
	int rc;

	snprintf(base, sizeof(base), "%s/count", dir);
	rc = run_failnth(argv + 6, 100000000L, base, &left);
	total = 100000000L - left;
	fprintf(log, "T %ld rc %d\n", total, rc);
	fflush(log);
	if (rc || left <= 0)
		return 1;
	for (long n = total; n > 0 && n > total - window; n -= step) {
		FILE *err;

		snprintf(base, sizeof(base), "%s/%ld", dir, n);
		rc = run_failnth(argv + 6, n, base, &left);
		snprintf(path, sizeof(path), "%s.err", base);
		err = fopen(path, "r");
		msg[0] = '\0';
		if (err && fgets(msg, sizeof(msg), err))
			msg[strcspn(msg, "\n")] = '\0';
		if (err)
			fclose(err);
		unlink(path);
		fprintf(log, "N %ld %d %ld %s\n", n, rc, left, msg);
		fflush(log);
		snprintf(path, sizeof(path), "%s.json", base);
		if (rc)
			unlink(path);
	}
	fclose(log);
	return 0;
}

/* ---- module reload --------------------------------------------------------- */

static int cmd_reload(char **argv)
{
	FILE *log = open_log(argv[2]);
	int count = atoi(argv[3]), failed = 0;
	const char *ko = argv[4];

	for (int i = 0; i < count; i++) {
		unsigned long long t0, t1, first = now_ns();
		long attempts = 0;
		int fd, err = 0;

		/* In use while a dump runs: retry, as rmmod's user would. */
		for (;;) {
			attempts++;
			t0 = now_ns();
			if (!syscall(SYS_delete_module, "pcieaudit", O_NONBLOCK))
				break;
			err = errno;
			if ((err != EWOULDBLOCK && err != EBUSY) ||
			    now_ns() - first > 60000000000ULL)
				break;
			usleep(1000);
			err = 0;
		}
		if (err) {
			fprintf(log, "FAIL %d rmmod %s after %ld attempts\n",
				i + 1, strerror(err), attempts);
			failed++;
			break;
		}
		/* Long enough for the dumpers to find the family gone. */
		usleep(20000);
		fd = open(ko, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || syscall(SYS_finit_module, fd, "", 0)) {
			fprintf(log, "FAIL %d insmod %s\n", i + 1, strerror(errno));
			failed++;
			break;
		}
		close(fd);
		t1 = now_ns();
		fprintf(log, "U %llu %llu %ld\n", t0, t1, attempts);
		fflush(log);
	}
	fclose(log);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 5 && !strcmp(argv[1], "loop"))
		return cmd_loop(argc, argv);
	if (argc == 5 && !strcmp(argv[1], "sweep"))
		return cmd_sweep(argv);
	if (argc == 8 && !strcmp(argv[1], "hotplug"))
		return cmd_hotplug(argv);
	if (argc >= 7 && !strcmp(argv[1], "clisweep"))
		return cmd_clisweep(argv);
	if (argc == 6 && !strcmp(argv[1], "resume"))
		return cmd_resume(argv);
	if (argc == 5 && !strcmp(argv[1], "reload"))
		return cmd_reload(argv);
	fprintf(stderr, "usage: see the comment at the top of stress-dump.c\n");
	return 2;
}
