// SPDX-License-Identifier: GPL-2.0
/*
 * main() end to end against a fake kernel: argument parsing, exit codes,
 * error messages, and nl.c's transport. The Makefile links this test with
 * --wrap for the libnl calls that would reach the kernel (see CLI_WRAPS);
 * the replies then run through libnl's real receive path, fed from a queue
 * of datagrams by an nl_cb_overwrite_recv() hook.
 */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <sys/stat.h>
#include <unistd.h>
#include <json-c/json.h>
#include <netlink/errno.h>
#include <netlink/handlers.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>
#include <linux/pcieaudit.h>
#include <linux/pci_regs.h>

#include "exitcodes.h"
#include "fetch.h"
#include "fileio.h"
#include "nl.h"
#include "rules.h"

#ifndef FIXTURES
#define FIXTURES "../../../shared/fixtures"
#endif

#define H200 FIXTURES "/h200-vm-guest"

/* main.c, compiled with -Dmain=pa_cli_main. */
int pa_cli_main(int argc, char **argv);

/* ---- The fake kernel ---------------------------------------------------- */

#define MAX_DATAGRAMS 32

struct request {
	uint8_t cmd;
	uint16_t flags;
	uint32_t seq;
	struct nlmsghdr *nlh;
};

static struct {
	int resolve_ret;		/* genl_ctrl_resolve() result */
	int cache_ret;			/* genl_ctrl_alloc_cache() result */
	uint8_t version;		/* family version in the controller */
	void (*respond)(const struct request *req);
	unsigned int interrupt_dumps;	/* device dumps to flag DUMP_INTR */
	unsigned int interrupt_p2p;	/* P2P dumps to flag DUMP_INTR */
	const char *release;		/* kernel release INFO reports */

	/* The last P2P request: what it selected or named. */
	unsigned int p2p_devs, p2p_classes, p2p_clients;
	struct { uint8_t bus, devfn; } p2p_addr[MAX_DATAGRAMS];
	struct { uint32_t value, mask; } p2p_class[MAX_DATAGRAMS];

	unsigned int dumps[PCIEAUDIT_CMD_MAX + 1];
	unsigned int dos[PCIEAUDIT_CMD_MAX + 1];
	struct nlattr *do_addr;		/* copy of the DEV_GET do's ADDR */
	uint16_t do_flags;
	const char *problem;		/* first thing the CLI did wrong */

	struct {
		unsigned char *data;
		size_t len;
	} queue[MAX_DATAGRAMS];
	size_t head, tail;
	bool open;			/* queue[tail] takes more messages */
} fake;

/* Assertions cannot run while main()'s output is redirected: note the
 * first problem and let the test assert on it afterwards. */
static void problem(const char *what)
{
	if (!fake.problem)
		fake.problem = what;
}

/* Appends msg to the current datagram; more=false ends the datagram, so
 * that several messages can share one, as in a real dump. */
static void queue(struct nl_msg *msg, bool more)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	size_t len = NLMSG_ALIGN(nlh->nlmsg_len);
	size_t i = fake.tail;
	unsigned char *data;

	if (i >= MAX_DATAGRAMS) {
		problem("fake kernel queue full");
		nlmsg_free(msg);
		return;
	}
	data = realloc(fake.queue[i].data, fake.queue[i].len + len);
	assert_non_null(data);
	memcpy(data + fake.queue[i].len, nlh, nlh->nlmsg_len);
	memset(data + fake.queue[i].len + nlh->nlmsg_len, 0, len - nlh->nlmsg_len);
	fake.queue[i].data = data;
	fake.queue[i].len += len;
	if (!more)
		fake.tail++;
	nlmsg_free(msg);
}

static int fake_recv(struct nl_sock *sk, struct sockaddr_nl *nla,
		     unsigned char **buf, struct ucred **creds)
{
	size_t i = fake.head;

	(void)sk;
	(void)creds;
	if (i == fake.tail)
		return 0;
	memset(nla, 0, sizeof(*nla));
	nla->nl_family = AF_NETLINK;
	*buf = fake.queue[i].data;	/* libnl frees it */
	fake.queue[i].data = NULL;
	fake.head++;
	return (int)fake.queue[i].len;
}

static struct nl_msg *reply(const struct request *req, int flags)
{
	return test_genl_msg(req->cmd, req->seq, flags);
}

static struct nl_msg *control(const struct request *req, int type, int flags,
			      const void *payload, size_t len, const char *text)
{
	struct nl_msg *msg = nlmsg_alloc_simple(type,
		flags | (text ? NLM_F_ACK_TLVS : 0));

	nlmsg_hdr(msg)->nlmsg_seq = req->seq;
	nlmsg_append(msg, (void *)payload, len, NLMSG_ALIGNTO);
	if (text)
		nla_put_string(msg, NLMSGERR_ATTR_MSG, text);
	return msg;
}

/* An ack (error 0) or an error, request capped as with NETLINK_CAP_ACK. */
static void queue_error(const struct request *req, int error, const char *text)
{
	struct nlmsgerr e = { .error = error, .msg = *req->nlh };

	queue(control(req, NLMSG_ERROR, NLM_F_CAPPED, &e, sizeof(e), text), false);
}

static void queue_done(const struct request *req, int error, const char *text,
		       int flags)
{
	queue(control(req, NLMSG_DONE, NLM_F_MULTI | flags, &error,
		      sizeof(error), text), false);
}

static void queue_info(const struct request *req)
{
	struct nl_msg *msg = reply(req, 0);

	nla_put_string(msg, PCIEAUDIT_A_INFO_MODULE_VERSION, "9.9.9");
	nla_put_string(msg, PCIEAUDIT_A_INFO_KERNEL_RELEASE,
		       fake.release ? fake.release : "6.1.0-fake");
	nla_put_u32(msg, PCIEAUDIT_A_INFO_FEATURES, PCIEAUDIT_F_IOMMU_API |
		    PCIEAUDIT_F_IOMMU_PRESENT);
	nla_put_u32(msg, PCIEAUDIT_A_INFO_IOMMU_DEF_MODE,
		    PCIEAUDIT_IOMMU_MODE_TRANSLATED);
	nla_put_u32(msg, PCIEAUDIT_A_INFO_IOMMU_STRICT,
		    PCIEAUDIT_IOMMU_STRICT_STRICT);
	nla_put_u32(msg, PCIEAUDIT_A_INFO_DEVICE_COUNT, 2);
	nla_put_u32(msg, PCIEAUDIT_A_INFO_GROUP_COUNT, 2);
	queue(msg, false);
	queue_error(req, 0, NULL);
}

static void put_iommu_group(struct nl_msg *msg, uint32_t group)
{
	struct nlattr *nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_IOMMU);

	nla_put_u32(msg, PCIEAUDIT_A_IOMMU_GROUP, group);
	nla_put_u32(msg, PCIEAUDIT_A_IOMMU_DOMAIN, PCIEAUDIT_DOMAIN_DMA);
	nla_nest_end(msg, nest);
}

static struct nl_msg *root_port(const struct request *req, int flags)
{
	struct nl_msg *msg = reply(req, flags);
	struct nlattr *nest;

	test_put_addr(msg, PCIEAUDIT_A_DEV_ADDR, 0, 0, 0x08);
	nla_put_u16(msg, PCIEAUDIT_A_DEV_VENDOR, 0x8086);
	nla_put_u16(msg, PCIEAUDIT_A_DEV_DEVICE, 0x1901);
	nla_put_u32(msg, PCIEAUDIT_A_DEV_CLASS, 0x060400);
	nla_put_u32(msg, PCIEAUDIT_A_DEV_FLAGS,
		    PCIEAUDIT_DEV_F_PCIE | PCIEAUDIT_DEV_F_BRIDGE);
	nla_put_u8(msg, PCIEAUDIT_A_DEV_PCIE_TYPE, PCI_EXP_TYPE_ROOT_PORT);
	nla_put_s32(msg, PCIEAUDIT_A_DEV_NUMA_NODE, 0);
	nla_put_u8(msg, PCIEAUDIT_A_DEV_SECONDARY_BUS, 1);
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_ACS);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_POS, 0x220);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_CAP, 0x5f);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_CTRL, 0x1d);
	nla_nest_end(msg, nest);
	put_iommu_group(msg, 1);
	return msg;
}

static struct nl_msg *endpoint(const struct request *req, uint8_t bus,
			       int flags)
{
	struct nl_msg *msg = reply(req, flags);
	struct nlattr *nest;

	test_put_addr(msg, PCIEAUDIT_A_DEV_ADDR, 0, bus, 0x00);
	nla_put_u16(msg, PCIEAUDIT_A_DEV_VENDOR, 0x10de);
	nla_put_u16(msg, PCIEAUDIT_A_DEV_DEVICE, 0x1eb8);
	nla_put_u8(msg, PCIEAUDIT_A_DEV_PCIE_TYPE, PCI_EXP_TYPE_ENDPOINT);
	nla_put_string(msg, PCIEAUDIT_A_DEV_DRIVER, "vfio-pci");
	nla_put_s32(msg, PCIEAUDIT_A_DEV_NUMA_NODE, -1);
	test_put_addr(msg, PCIEAUDIT_A_DEV_UPSTREAM, 0, 0, 0x08);
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_LINK);
	nla_put_u32(msg, PCIEAUDIT_A_LINK_LNKCAP, 0x4 | 16 << 4);
	nla_put_u16(msg, PCIEAUDIT_A_LINK_LNKSTA, 0x1 | 16 << 4);
	nla_nest_end(msg, nest);
	put_iommu_group(msg, 1);
	return msg;
}

static void queue_devices(const struct request *req)
{
	int intr = 0;

	if (fake.interrupt_dumps) {
		fake.interrupt_dumps--;
		intr = NLM_F_DUMP_INTR;
		/* A function that is gone again by the restart. */
		queue(endpoint(req, 0x42, NLM_F_MULTI | intr), true);
	}
	queue(root_port(req, NLM_F_MULTI | intr), true);
	queue(endpoint(req, 1, NLM_F_MULTI | intr), false);
	queue_done(req, 0, NULL, intr);
}

static bool asked_for(const struct nlattr *addr, uint8_t bus, uint8_t devfn)
{
	struct nlattr *tb[PCIEAUDIT_A_ADDR_MAX + 1];

	if (!addr || nla_parse_nested(tb, PCIEAUDIT_A_ADDR_MAX,
				      (struct nlattr *)addr, NULL) < 0)
		return false;
	return tb[PCIEAUDIT_A_ADDR_BUS] && tb[PCIEAUDIT_A_ADDR_DEVFN] &&
	       tb[PCIEAUDIT_A_ADDR_DOMAIN] &&
	       nla_get_u8(tb[PCIEAUDIT_A_ADDR_BUS]) == bus &&
	       nla_get_u8(tb[PCIEAUDIT_A_ADDR_DEVFN]) == devfn &&
	       nla_get_u32(tb[PCIEAUDIT_A_ADDR_DOMAIN]) == 0;
}

static void queue_device(const struct request *req)
{
	if (!asked_for(fake.do_addr, 1, 0)) {
		queue_error(req, -ENODEV, "no PCI function at this address");
		return;
	}
	queue(endpoint(req, 1, 0), false);
	queue_error(req, 0, NULL);
}

static void queue_groups(const struct request *req)
{
	struct nl_msg *msg = reply(req, NLM_F_MULTI);

	nla_put_u32(msg, PCIEAUDIT_A_GROUP_ID, 3);
	test_put_addr(msg, PCIEAUDIT_A_GROUP_MEMBER, 0, 5, 0);
	queue(msg, true);
	msg = reply(req, NLM_F_MULTI);
	nla_put_u32(msg, PCIEAUDIT_A_GROUP_ID, 1);
	test_put_addr(msg, PCIEAUDIT_A_GROUP_MEMBER, 0, 1, 0);
	test_put_addr(msg, PCIEAUDIT_A_GROUP_MEMBER, 0, 0, 0x08);
	queue(msg, false);
	queue_done(req, 0, NULL, 0);
}

static bool is_dump(const struct request *req)
{
	return req->flags & NLM_F_DUMP;
}

/* A healthy module with a root port and a GPU behind it. */
static void kernel_normal(const struct request *req)
{
	switch (req->cmd) {
	case PCIEAUDIT_CMD_INFO_GET:
		queue_info(req);
		break;
	case PCIEAUDIT_CMD_DEV_GET:
		if (is_dump(req))
			queue_devices(req);
		else
			queue_device(req);
		break;
	case PCIEAUDIT_CMD_GROUP_GET:
		queue_groups(req);
		break;
	default:
		problem("unknown command sent");
	}
}

/* The core refusing an unprivileged caller without a message (a module
 * before issue 26, GENL_ADMIN_PERM). */
static void kernel_eperm(const struct request *req)
{
	queue_error(req, -EPERM, NULL);
}

/*
 * Root without CAP_SYS_ADMIN: the module refuses every op with a message.
 * Where a dump's .start has no extack (before v6.2), it refuses in the first
 * part, so the error comes in NLMSG_DONE.
 */
#define NO_SYS_ADMIN "PCI configuration space needs CAP_SYS_ADMIN"

static void kernel_eperm_sys_admin(const struct request *req)
{
	queue_error(req, -EPERM, NO_SYS_ADMIN);
}

static void kernel_eperm_in_done(const struct request *req)
{
	if (req->cmd == PCIEAUDIT_CMD_INFO_GET) {
		kernel_normal(req);
		return;
	}
	queue_done(req, -EPERM, NO_SYS_ADMIN, 0);
}

static void kernel_dump_fails(const struct request *req)
{
	if (req->cmd != PCIEAUDIT_CMD_DEV_GET) {
		kernel_normal(req);
		return;
	}
	queue(root_port(req, NLM_F_MULTI), false);
	queue_done(req, -EMSGSIZE, "device does not fit a message", 0);
}

/* rmmod under way: netlink_dump_start() cannot pin the module and answers
 * EPROTONOSUPPORT, which is not the family version (make stress found the
 * CLI calling it an ABI mismatch, exit 6). */
static void kernel_module_going(const struct request *req)
{
	if (req->cmd != PCIEAUDIT_CMD_DEV_GET) {
		kernel_normal(req);
		return;
	}
	queue_error(req, -EPROTONOSUPPORT, NULL);
}

static void kernel_malformed(const struct request *req)
{
	struct nl_msg *msg;

	if (req->cmd != PCIEAUDIT_CMD_DEV_GET) {
		kernel_normal(req);
		return;
	}
	msg = reply(req, NLM_F_MULTI);
	nla_put_u16(msg, PCIEAUDIT_A_DEV_VENDOR, 0x8086);	/* no ADDR */
	queue(msg, false);
	queue_done(req, 0, NULL, 0);
}

/* Leftovers of an older request come first and must be skipped. */
static void kernel_stale(const struct request *req)
{
	struct request old = *req;

	old.seq = req->seq - 1;
	queue(endpoint(&old, 9, NLM_F_MULTI), false);
	queue_done(&old, 0, NULL, 0);
	kernel_normal(req);
}

static void kernel_ack_only(const struct request *req)
{
	queue_error(req, 0, NULL);
}

/* ---- A GPU server, for p2p and topo --------------------------------------- */

#define LINK(speed, width) ((uint32_t)(speed) | (uint32_t)(width) << 4)

struct fake_dev {
	uint8_t bus, devfn;
	int up_bus;
	uint8_t up_devfn;
	uint32_t class;
	uint8_t type;
	uint32_t lnkcap;
	uint16_t lnksta;
	bool acs;
};

/*
 * Root port 00:01.0 - switch 01:00.0 - ports 02:00.0 (GPU 03:00.0, Gen4
 * x16) and 02:01.0 (NIC 04:00.0, Gen3 x8), ACS redirecting; root port
 * 00:02.0 - NVMe 05:00.0 (Gen4 x4).
 */
static const struct fake_dev server_devs[] = {
	{ 0x00, 0x08, -1, 0, 0x060400, PCI_EXP_TYPE_ROOT_PORT,
	  LINK(4, 16), LINK(4, 16), true },
	{ 0x00, 0x10, -1, 0, 0x060400, PCI_EXP_TYPE_ROOT_PORT,
	  LINK(4, 16), LINK(4, 4), true },
	{ 0x01, 0x00, 0x00, 0x08, 0x060400, PCI_EXP_TYPE_UPSTREAM,
	  LINK(4, 16), LINK(4, 16), false },
	{ 0x02, 0x00, 0x01, 0x00, 0x060400, PCI_EXP_TYPE_DOWNSTREAM,
	  LINK(4, 16), LINK(4, 16), true },
	{ 0x02, 0x08, 0x01, 0x00, 0x060400, PCI_EXP_TYPE_DOWNSTREAM,
	  LINK(4, 16), LINK(3, 8), true },
	{ 0x03, 0x00, 0x02, 0x00, 0x030200, PCI_EXP_TYPE_ENDPOINT,
	  LINK(4, 16), LINK(4, 16), false },
	{ 0x04, 0x00, 0x02, 0x08, 0x020000, PCI_EXP_TYPE_ENDPOINT,
	  LINK(3, 8), LINK(3, 8), false },
	{ 0x05, 0x00, 0x00, 0x10, 0x010802, PCI_EXP_TYPE_ENDPOINT,
	  LINK(4, 4), LINK(4, 4), false },
};

#define NSERVER_DEVS (sizeof(server_devs) / sizeof(server_devs[0]))

static bool is_bridge_type(uint8_t type)
{
	return type == PCI_EXP_TYPE_ROOT_PORT || type == PCI_EXP_TYPE_UPSTREAM ||
	       type == PCI_EXP_TYPE_DOWNSTREAM;
}

static struct nl_msg *server_device(const struct request *req,
				    const struct fake_dev *d, int flags)
{
	struct nl_msg *msg = reply(req, flags);
	struct nlattr *nest;

	test_put_addr(msg, PCIEAUDIT_A_DEV_ADDR, 0, d->bus, d->devfn);
	/* The GPU is NVIDIA's: topo numbers only those GPUn. */
	nla_put_u16(msg, PCIEAUDIT_A_DEV_VENDOR,
		    d->class >> 16 == 0x03 ? 0x10de : 0x1234);
	nla_put_u16(msg, PCIEAUDIT_A_DEV_DEVICE, 0x0001);
	nla_put_u32(msg, PCIEAUDIT_A_DEV_CLASS, d->class);
	nla_put_u32(msg, PCIEAUDIT_A_DEV_FLAGS, PCIEAUDIT_DEV_F_PCIE |
		    (is_bridge_type(d->type) ? PCIEAUDIT_DEV_F_BRIDGE : 0));
	nla_put_u8(msg, PCIEAUDIT_A_DEV_PCIE_TYPE, d->type);
	nla_put_s32(msg, PCIEAUDIT_A_DEV_NUMA_NODE, 0);
	if (d->up_bus >= 0)
		test_put_addr(msg, PCIEAUDIT_A_DEV_UPSTREAM, 0,
			      (uint8_t)d->up_bus, d->up_devfn);
	if (d->acs) {
		nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_ACS);
		nla_put_u16(msg, PCIEAUDIT_A_ACS_POS, 0x220);
		nla_put_u16(msg, PCIEAUDIT_A_ACS_CAP, 0x5f);
		nla_put_u16(msg, PCIEAUDIT_A_ACS_CTRL, 0x1d);
		nla_nest_end(msg, nest);
	}
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_LINK);
	nla_put_u32(msg, PCIEAUDIT_A_LINK_LNKCAP, d->lnkcap);
	nla_put_u16(msg, PCIEAUDIT_A_LINK_LNKSTA, d->lnksta);
	nla_nest_end(msg, nest);
	return msg;
}

static void queue_server_devices(const struct request *req)
{
	for (size_t i = 0; i < NSERVER_DEVS; i++)
		queue(server_device(req, &server_devs[i], NLM_F_MULTI),
		      i + 1 < NSERVER_DEVS);
	queue_done(req, 0, NULL, 0);
}

struct hop {
	uint8_t bus, devfn;
};

/* The module's answer for each pair of endpoints, provider a first. */
struct fake_pair {
	uint8_t a, b;
	uint32_t map, path, rule;
	int32_t distance;
	bool common, redirect;
	struct hop hops_a[4], hops_b[4];
};

static const struct fake_pair server_pairs[] = {
	{ 3, 4, PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE,
	  PCIEAUDIT_P2P_PATH_ACS_REDIRECT, PCIEAUDIT_P2P_HOST_CPU, 4,
	  true, true, { { 3, 0 }, { 2, 0x00 } }, { { 4, 0 }, { 2, 0x08 } } },
	{ 3, 5, PCIEAUDIT_P2P_MAP_NOT_SUPPORTED,
	  PCIEAUDIT_P2P_PATH_NO_COMMON_UPSTREAM, PCIEAUDIT_P2P_HOST_REFUSED, -1,
	  false, false, { { 3, 0 }, { 2, 0x00 }, { 1, 0 }, { 0, 0x08 } },
	  { { 5, 0 }, { 0, 0x10 } } },
	{ 4, 5, PCIEAUDIT_P2P_MAP_NOT_SUPPORTED,
	  PCIEAUDIT_P2P_PATH_NO_COMMON_UPSTREAM, PCIEAUDIT_P2P_HOST_REFUSED, -1,
	  false, false, { { 4, 0 }, { 2, 0x08 }, { 1, 0 }, { 0, 0x08 } },
	  { { 5, 0 }, { 0, 0x10 } } },
};

static const struct fake_pair *server_pair(uint8_t a, uint8_t b, bool *swap)
{
	for (size_t i = 0; i < sizeof(server_pairs) / sizeof(server_pairs[0]); i++) {
		*swap = server_pairs[i].a == b && server_pairs[i].b == a;
		if ((server_pairs[i].a == a && server_pairs[i].b == b) || *swap)
			return &server_pairs[i];
	}
	return NULL;
}

static void put_hops(struct nl_msg *msg, int type, const struct hop *hops)
{
	for (size_t i = 0; i < 4 && (hops[i].bus || hops[i].devfn); i++)
		test_put_addr(msg, type, 0, hops[i].bus, hops[i].devfn);
}

static void put_server_pair(struct nl_msg *msg, const struct fake_pair *fp,
			    bool swap, uint8_t client)
{
	struct nlattr *nest = nla_nest_start(msg, PCIEAUDIT_A_P2P_PAIR);

	test_put_addr(msg, PCIEAUDIT_A_PAIR_CLIENT, 0, client, 0);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_KERNEL_STATUS,
		    PCIEAUDIT_P2P_KERNEL_ANSWERED);
	nla_put_s32(msg, PCIEAUDIT_A_PAIR_KERNEL_DISTANCE, fp->distance);
	nla_put_s32(msg, PCIEAUDIT_A_PAIR_DISTANCE, fp->distance);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_PATH_LENGTH, 4 + !fp->common * 2);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_MAP, fp->map);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_PATH, fp->path);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_HOST_RULE, fp->rule);
	if (fp->common)
		test_put_addr(msg, PCIEAUDIT_A_PAIR_COMMON, 0, 1, 0);
	put_hops(msg, PCIEAUDIT_A_PAIR_HOP_PROVIDER, swap ? fp->hops_b : fp->hops_a);
	put_hops(msg, PCIEAUDIT_A_PAIR_HOP_CLIENT, swap ? fp->hops_a : fp->hops_b);
	if (fp->redirect) {
		test_put_addr(msg, PCIEAUDIT_A_PAIR_REDIRECT, 0, 2, 0x00);
		test_put_addr(msg, PCIEAUDIT_A_PAIR_REDIRECT, 0, 2, 0x08);
	}
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_HOST_BRIDGE_PROVIDER, 0x808609a2);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_HOST_BRIDGE_CLIENT, 0x808609a2);
	nla_nest_end(msg, nest);
}

/* One P2P reply message for provider a and client b, or NULL when the
 * module would have no such pair to send. */
static struct nl_msg *server_p2p(const struct request *req, int flags,
				 uint8_t a, uint8_t b)
{
	bool swap;
	const struct fake_pair *fp = server_pair(a, b, &swap);
	struct nl_msg *msg;

	if (!fp)
		return NULL;
	msg = reply(req, flags);
	test_put_addr(msg, PCIEAUDIT_A_P2P_PROVIDER, 0, a, 0);
	if (!(flags & NLM_F_MULTI))
		nla_put_s32(msg, PCIEAUDIT_A_P2P_KERNEL_DISTANCE, fp->distance);
	put_server_pair(msg, fp, swap, b);
	return msg;
}

static bool read_addr(struct nlattr *nest, uint8_t *bus, uint8_t *devfn)
{
	struct nlattr *tb[PCIEAUDIT_A_ADDR_MAX + 1];

	if (!(nest->nla_type & NLA_F_NESTED))
		problem("address nest sent without NLA_F_NESTED");
	if (nla_parse_nested(tb, PCIEAUDIT_A_ADDR_MAX, nest, NULL) < 0 ||
	    !tb[PCIEAUDIT_A_ADDR_BUS] || !tb[PCIEAUDIT_A_ADDR_DEVFN] ||
	    !tb[PCIEAUDIT_A_ADDR_DOMAIN])
		return false;
	*bus = nla_get_u8(tb[PCIEAUDIT_A_ADDR_BUS]);
	*devfn = nla_get_u8(tb[PCIEAUDIT_A_ADDR_DEVFN]);
	return true;
}

static void record_class(struct nlattr *nest)
{
	struct nlattr *tb[PCIEAUDIT_A_CLASS_MAX + 1];
	unsigned int i = fake.p2p_classes++;

	if (!(nest->nla_type & NLA_F_NESTED))
		problem("class nest sent without NLA_F_NESTED");
	if (nla_parse_nested(tb, PCIEAUDIT_A_CLASS_MAX, nest, NULL) < 0 ||
	    !tb[PCIEAUDIT_A_CLASS_VALUE] || !tb[PCIEAUDIT_A_CLASS_MASK]) {
		problem("malformed class selector");
		return;
	}
	if (i < MAX_DATAGRAMS) {
		fake.p2p_class[i].value = nla_get_u32(tb[PCIEAUDIT_A_CLASS_VALUE]);
		fake.p2p_class[i].mask = nla_get_u32(tb[PCIEAUDIT_A_CLASS_MASK]);
	}
}

/* Notes the request's addresses in fake.p2p_addr, in order: the provider
 * and clients of a do, the selected functions of a dump; and its class
 * selectors in fake.p2p_class. */
static void record_p2p(const struct request *req)
{
	struct nlattr *nla;
	int rem, n = 0;

	fake.p2p_devs = fake.p2p_classes = fake.p2p_clients = 0;
	nlmsg_for_each_attr(nla, req->nlh, GENL_HDRLEN, rem) {
		int type = nla_type(nla);

		if (type == PCIEAUDIT_A_P2P_SELECT_CLASS) {
			record_class(nla);
			continue;
		}
		if (type == PCIEAUDIT_A_P2P_SELECT_DEV)
			fake.p2p_devs++;
		else if (type == PCIEAUDIT_A_P2P_CLIENT)
			fake.p2p_clients++;
		else if (type != PCIEAUDIT_A_P2P_PROVIDER)
			continue;
		if (n < MAX_DATAGRAMS &&
		    !read_addr(nla, &fake.p2p_addr[n].bus, &fake.p2p_addr[n].devfn))
			problem("malformed address in a P2P request");
		n++;
	}
}

static bool server_has(uint8_t bus, uint8_t devfn)
{
	for (size_t i = 0; i < NSERVER_DEVS; i++)
		if (server_devs[i].bus == bus && server_devs[i].devfn == devfn)
			return true;
	return false;
}

static void queue_server_p2p_do(const struct request *req)
{
	struct nl_msg *msg;

	if (fake.p2p_clients != 1) {
		problem("P2P do without exactly one client");
		return;
	}
	if (!server_has(fake.p2p_addr[0].bus, fake.p2p_addr[0].devfn) ||
	    !server_has(fake.p2p_addr[1].bus, fake.p2p_addr[1].devfn)) {
		queue_error(req, -ENODEV, "no PCI function at this address");
		return;
	}
	msg = server_p2p(req, 0, fake.p2p_addr[0].bus, fake.p2p_addr[1].bus);
	if (!msg) {
		problem("no canned answer for this P2P pair");
		return;
	}
	queue(msg, false);
	queue_error(req, 0, NULL);
}

/* Every ordered pair of the selected functions, in key order. The buses
 * of the selectable endpoints are distinct and their devfn 0. */
static void queue_server_p2p_dump(const struct request *req)
{
	int intr = 0;
	struct nl_msg *msg;

	if (fake.interrupt_p2p) {
		fake.interrupt_p2p--;
		intr = NLM_F_DUMP_INTR;
		/* A pair the restart must forget. */
		queue(server_p2p(req, NLM_F_MULTI | intr, 4, 3), true);
	}
	for (uint8_t a = 0; a < 0x10; a++)
		for (uint8_t b = 0; b < 0x10; b++) {
			bool sel_a = false, sel_b = false;

			for (unsigned int i = 0; i < fake.p2p_devs; i++) {
				sel_a |= fake.p2p_addr[i].bus == a;
				sel_b |= fake.p2p_addr[i].bus == b;
			}
			msg = a != b && sel_a && sel_b ?
				server_p2p(req, NLM_F_MULTI | intr, a, b) : NULL;
			if (msg)
				queue(msg, true);
		}
	queue_done(req, 0, NULL, intr);
}

static void kernel_server(const struct request *req)
{
	switch (req->cmd) {
	case PCIEAUDIT_CMD_DEV_GET:
		if (is_dump(req))
			queue_server_devices(req);
		else
			problem("device do request to the server");
		break;
	case PCIEAUDIT_CMD_P2P_GET:
		record_p2p(req);
		if (is_dump(req))
			queue_server_p2p_dump(req);
		else
			queue_server_p2p_do(req);
		break;
	default:
		kernel_normal(req);
	}
}

/* A module from before P2P: the kernel knows no such command. */
static void kernel_server_without_p2p(const struct request *req)
{
	if (req->cmd == PCIEAUDIT_CMD_P2P_GET)
		queue_error(req, -EOPNOTSUPP, NULL);
	else
		kernel_server(req);
}

/* ---- libnl replacements (see CLI_WRAPS in the Makefile) ----------------- */

int __wrap_genl_connect(struct nl_sock *sk);
int __wrap_genl_ctrl_resolve(struct nl_sock *sk, const char *name);
int __wrap_genl_ctrl_alloc_cache(struct nl_sock *sk, struct nl_cache **cache);
struct genl_family *__wrap_genl_ctrl_search(struct nl_cache *cache, int id);
struct genl_family *__wrap_genl_ctrl_search_by_name(struct nl_cache *cache,
						   const char *name);
int __wrap_nl_send_auto(struct nl_sock *sk, struct nl_msg *msg);
struct nl_cb *__real_nl_cb_alloc(enum nl_cb_kind kind);
struct nl_cb *__wrap_nl_cb_alloc(enum nl_cb_kind kind);

int __wrap_genl_connect(struct nl_sock *sk)
{
	(void)sk;
	return 0;
}

int __wrap_genl_ctrl_resolve(struct nl_sock *sk, const char *name)
{
	(void)sk;
	if (strcmp(name, PCIEAUDIT_FAMILY_NAME))
		problem("resolved the wrong family");
	return fake.resolve_ret;
}

int __wrap_genl_ctrl_alloc_cache(struct nl_sock *sk, struct nl_cache **cache)
{
	(void)sk;
	*cache = NULL;
	return fake.cache_ret;
}

/* The controller's list agrees with genl_ctrl_resolve(). */
struct genl_family *__wrap_genl_ctrl_search_by_name(struct nl_cache *cache,
						   const char *name)
{
	(void)cache;
	(void)name;
	return fake.resolve_ret < 0 ? NULL : __wrap_genl_ctrl_search(NULL, fake.resolve_ret);
}

struct genl_family *__wrap_genl_ctrl_search(struct nl_cache *cache, int id)
{
	struct genl_family *family = genl_family_alloc();

	(void)cache;
	genl_family_set_id(family, (unsigned int)id);
	genl_family_set_version(family, fake.version);
	return family;
}

static void record_request(const struct request *req)
{
	struct nlattr *addr;

	if (is_dump(req)) {
		fake.dumps[req->cmd]++;
		return;
	}
	fake.dos[req->cmd]++;
	fake.do_flags = req->flags;
	addr = nlmsg_find_attr(req->nlh, GENL_HDRLEN, PCIEAUDIT_A_DEV_ADDR);
	free(fake.do_addr);
	fake.do_addr = NULL;
	if (!addr)
		return;
	if (!(addr->nla_type & NLA_F_NESTED))
		problem("ADDR nest sent without NLA_F_NESTED");
	fake.do_addr = malloc(addr->nla_len);
	memcpy(fake.do_addr, addr, addr->nla_len);
}

int __wrap_nl_send_auto(struct nl_sock *sk, struct nl_msg *msg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gnlh = genlmsg_hdr(nlh);
	struct request req;

	nl_complete_msg(sk, msg);
	if (nlh->nlmsg_type != TEST_FAMILY_ID)
		problem("request sent to the wrong family id");
	if (gnlh->version != PCIEAUDIT_FAMILY_VERSION)
		problem("request with the wrong family version");
	if (gnlh->cmd < 1 || gnlh->cmd > PCIEAUDIT_CMD_MAX) {
		problem("request for an unknown command");
		return (int)nlh->nlmsg_len;
	}
	req = (struct request){ gnlh->cmd, nlh->nlmsg_flags, nlh->nlmsg_seq, nlh };
	record_request(&req);
	fake.respond(&req);
	return (int)nlh->nlmsg_len;
}

struct nl_cb *__wrap_nl_cb_alloc(enum nl_cb_kind kind)
{
	struct nl_cb *cb = __real_nl_cb_alloc(kind);

	if (cb)
		nl_cb_overwrite_recv(cb, fake_recv);
	return cb;
}

/* ---- Running main() ------------------------------------------------------ */

struct result {
	int rc;
	char *out;
	char *err;
};

static char *slurp(FILE *f)
{
	long len;
	char *text;

	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)len + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	return text;
}

/* Runs main() with the NULL-terminated args, capturing stdout and stderr. */
static struct result run_args(const char *const *args)
{
	char *argv[16] = { "pcieaudit-cli" };
	int argc = 1, saved_out, saved_err;
	FILE *out = tmpfile(), *err = tmpfile();
	struct result r;

	assert_non_null(out);
	assert_non_null(err);
	for (; *args && argc < 15; args++)
		argv[argc++] = (char *)*args;

	fflush(stdout);
	fflush(stderr);
	saved_out = dup(STDOUT_FILENO);
	saved_err = dup(STDERR_FILENO);
	dup2(fileno(out), STDOUT_FILENO);
	dup2(fileno(err), STDERR_FILENO);
	r.rc = pa_cli_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved_out);
	close(saved_err);

	r.out = slurp(out);
	r.err = slurp(err);
	assert_null(fake.problem);
	return r;
}

#define run(...) run_args((const char *const[]){ __VA_ARGS__, NULL })

static void release(struct result *r)
{
	free(r->out);
	free(r->err);
}

static void assert_contains(const char *text, const char *part)
{
	if (!strstr(text, part))
		fail_msg("\"%s\" lacks \"%s\"", text, part);
}

/* Exactly one line, prefixed with the program name. */
static void assert_one_error_line(const char *err)
{
	assert_true(strncmp(err, "pcieaudit-cli: ", 15) == 0);
	assert_non_null(strchr(err, '\n'));
	assert_int_equal(strchr(err, '\n')[1], '\0');
}

static void expect_failure(struct result r, int rc, const char *part)
{
	if (r.rc != rc)
		fail_msg("exit %d, not %d; stderr: %s", r.rc, rc, r.err);
	assert_string_equal(r.out, "");
	assert_one_error_line(r.err);
	assert_contains(r.err, part);
	release(&r);
}

static int setup(void **state)
{
	(void)state;
	memset(&fake, 0, sizeof(fake));
	fake.resolve_ret = TEST_FAMILY_ID;
	fake.version = PCIEAUDIT_FAMILY_VERSION;
	fake.respond = kernel_normal;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < MAX_DATAGRAMS; i++)
		free(fake.queue[i].data);
	free(fake.do_addr);
	return 0;
}

static json_object *parse(const char *text)
{
	json_object *root = json_tokener_parse(text);

	assert_non_null(root);
	return root;
}

static json_object *get(json_object *obj, const char *key)
{
	json_object *value = NULL;

	if (!json_object_object_get_ex(obj, key, &value))
		fail_msg("missing key \"%s\"", key);
	return value;
}

static const char *get_string(json_object *obj, const char *key)
{
	return json_object_get_string(get(obj, key));
}

/* ---- Tests ----------------------------------------------------------------- */

static void usage_errors(void **state)
{
	(void)state;
	expect_failure(run_args((const char *const[]){ NULL }), PA_EXIT_USAGE,
		       "no command given");
	expect_failure(run("bogus"), PA_EXIT_USAGE, "unknown command 'bogus'");
	expect_failure(run("--bogus", "report"), PA_EXIT_USAGE,
		       "unknown option '--bogus'");
	expect_failure(run("report", "--bogus"), PA_EXIT_USAGE,
		       "unknown option '--bogus' for report");
	expect_failure(run("report", "04:00.8"), PA_EXIT_USAGE,
		       "invalid PCI address '04:00.8'");
	expect_failure(run("report", "04:00.0", "05:00.0"), PA_EXIT_USAGE,
		       "unexpected argument '05:00.0'");
	expect_failure(run("info", "04:00.0"), PA_EXIT_USAGE,
		       "unexpected argument '04:00.0' for info");
	expect_failure(run("report", "--nvml"), PA_EXIT_USAGE,
		       "--nvml adds NVML's facts to the JSON snapshot: report --json --nvml");
	expect_failure(run("--json", "check", "--nvml"), PA_EXIT_USAGE,
		       "unknown option '--nvml' for check");
	/* None of these may reach the kernel. */
	assert_int_equal(fake.dos[PCIEAUDIT_CMD_INFO_GET], 0);
}

static const char *const tested_commands[] = {
	"report", "info", "p2p", "topo", "check",
};

#define NCOMMANDS_TESTED (sizeof(tested_commands) / sizeof(tested_commands[0]))

static void help_and_version(void **state)
{
	struct result r;

	(void)state;
	r = run("--help");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_true(strncmp(r.out, "Usage: pcieaudit-cli", 20) == 0);
	assert_contains(r.out, "  report ");
	assert_contains(r.out, "  info ");
	assert_contains(r.out, "  p2p      [--json] [SOURCE] A B ");
	assert_contains(r.out, "  topo     [SOURCE] [--all | BDF...] ");
	assert_contains(r.out, "  check    [options] ");
	assert_contains(r.out, "  monitor  [--json] ");
	assert_contains(r.out, "  exporter [--listen ADDR:PORT] ");
	assert_string_equal(r.err, "");
	release(&r);

	r = run("check", "--help");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "Usage: pcieaudit-cli check [options]\n");
	assert_contains(r.out, "--format F");
	assert_contains(r.out, "8 warnings");
	release(&r);

	r = run("report", "--help");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "Usage: pcieaudit-cli report [--json [--nvml]] [BDF]");
	assert_contains(r.out, "--nvml        with --json: ask NVML too");
	release(&r);

	r = run("p2p", "--help");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "Usage: pcieaudit-cli p2p [--json] [SOURCE] A B\n");
	assert_contains(r.out, "Exits 0 whenever the module answered");
	release(&r);

	r = run("topo", "-h");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "Usage: pcieaudit-cli topo [SOURCE] [--all | BDF...]\n");
	release(&r);

	r = run("info", "-h");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "Usage: pcieaudit-cli info [--json]");
	release(&r);

	r = run("--version");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_string_equal(r.out,
		"pcieaudit-cli test (netlink family pcieaudit version 1)\n");
	release(&r);

	/* After any command too, without asking the kernel. */
	for (size_t i = 0; i < NCOMMANDS_TESTED; i++) {
		r = run(tested_commands[i], "--version");
		assert_int_equal(r.rc, PA_EXIT_OK);
		assert_contains(r.out, "pcieaudit-cli test");
		release(&r);
	}
	r = run("check", "-V");
	assert_int_equal(r.rc, PA_EXIT_OK);
	release(&r);
	assert_int_equal(fake.dos[PCIEAUDIT_CMD_INFO_GET], 0);
}

static void module_not_loaded(void **state)
{
	(void)state;
	fake.resolve_ret = -NLE_OBJ_NOTFOUND;
	expect_failure(run("report"), PA_EXIT_NO_MODULE, "modprobe pcieaudit");
	expect_failure(run("info", "--json"), PA_EXIT_NO_MODULE, "DKMS");
}

/* The module is loaded (its sysfs directory exists, PA_SYSFS_MODULE in the
 * Makefile), yet the family is not found: another network namespace. */
static void family_in_other_netns(void **state)
{
	char ns[64];
	ssize_t ns_len;
	FILE *f;

	(void)state;
	assert_int_equal(mkdir(PA_SYSFS_MODULE, 0755) == 0 || errno == EEXIST, 1);
	f = fopen(PA_SYSFS_MODULE "/initstate", "w");
	assert_non_null(f);
	fputs("live\n", f);
	fclose(f);
	/* PID 1's namespace is another one than ours. */
	unlink(PA_INIT_NETNS);
	assert_int_equal(symlink("net:[1]", PA_INIT_NETNS), 0);
	fake.resolve_ret = -NLE_OBJ_NOTFOUND;
	expect_failure(run("report"), PA_EXIT_NO_MODULE,
		       "not reachable from this network namespace");
	expect_failure(run("info"), PA_EXIT_NO_MODULE, "module is loaded");
	/* Same namespace: the module is on its way in or out, not elsewhere. */
	ns_len = readlink("/proc/self/ns/net", ns, sizeof(ns) - 1);
	assert_true(ns_len > 0);
	ns[ns_len] = '\0';
	unlink(PA_INIT_NETNS);
	assert_int_equal(symlink(ns, PA_INIT_NETNS), 0);
	expect_failure(run("report"), PA_EXIT_NO_MODULE, "modprobe pcieaudit");
	unlink(PA_INIT_NETNS);
	assert_int_equal(symlink("net:[1]", PA_INIT_NETNS), 0);
	f = fopen(PA_SYSFS_MODULE "/initstate", "w");
	assert_non_null(f);
	fputs("going\n", f);
	fclose(f);
	expect_failure(run("report"), PA_EXIT_NO_MODULE, "modprobe pcieaudit");
	assert_int_equal(unlink(PA_SYSFS_MODULE "/initstate"), 0);
	assert_int_equal(rmdir(PA_SYSFS_MODULE), 0);
	assert_int_equal(unlink(PA_INIT_NETNS), 0);
	expect_failure(run("report"), PA_EXIT_NO_MODULE, "modprobe pcieaudit");
}

/* genl_ctrl_resolve() says "not found" when it ran out of memory too. */
static void family_lookup_out_of_memory(void **state)
{
	(void)state;
	fake.resolve_ret = -NLE_OBJ_NOTFOUND;
	fake.cache_ret = -NLE_NOMEM;
	expect_failure(run("report"), PA_EXIT_RUNTIME, "memory");
}

static void lookup_permission_denied(void **state)
{
	(void)state;
	fake.resolve_ret = -NLE_PERM;
	expect_failure(run("report"), PA_EXIT_PERMISSION,
		       "CAP_SYS_ADMIN and CAP_NET_ADMIN");
}

static void kernel_permission_denied(void **state)
{
	(void)state;
	fake.respond = kernel_eperm;
	expect_failure(run("report"), PA_EXIT_PERMISSION,
		       "permission denied for the module info request: run as root, or with CAP_SYS_ADMIN and CAP_NET_ADMIN");
}

/* CAP_NET_ADMIN without CAP_SYS_ADMIN: exit 5, the kernel's reason shown. */
static void kernel_needs_sys_admin(void **state)
{
	(void)state;
	fake.respond = kernel_eperm_sys_admin;
	expect_failure(run("report"), PA_EXIT_PERMISSION,
		       "permission denied for the module info request: run as root, or with CAP_SYS_ADMIN and CAP_NET_ADMIN (kernel: " NO_SYS_ADMIN ")");
	fake.respond = kernel_eperm_in_done;
	expect_failure(run("report"), PA_EXIT_PERMISSION,
		       "CAP_SYS_ADMIN and CAP_NET_ADMIN (kernel: " NO_SYS_ADMIN ")");
}

static void abi_mismatch(void **state)
{
	(void)state;
	fake.version = 2;
	expect_failure(run("report"), PA_EXIT_ABI, "family version 2");
	fake.version = 0;
	expect_failure(run("info"), PA_EXIT_ABI, "speaks version 1");
	assert_int_equal(fake.dos[PCIEAUDIT_CMD_INFO_GET], 0);
}

static void report_json(void **state)
{
	struct result r;
	json_object *root, *dev, *groups;

	(void)state;
	r = run("--json", "report");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_string_equal(r.err, "");
	root = parse(r.out);
	assert_string_equal(get_string(get(root, "info"), "module_version"), "9.9.9");
	assert_int_equal(json_object_array_length(get(root, "devices")), 2);
	dev = json_object_array_get_idx(get(root, "devices"), 1);
	assert_string_equal(get_string(dev, "bdf"), "0000:01:00.0");
	assert_string_equal(get_string(dev, "upstream"), "0000:00:01.0");
	assert_string_equal(get_string(dev, "driver"), "vfio-pci");
	assert_true(json_object_get_boolean(get(get(dev, "link"), "downgraded")));
	groups = get(root, "groups");
	assert_int_equal(json_object_array_length(groups), 2);
	assert_int_equal(json_object_get_int(get(json_object_array_get_idx(groups, 0), "id")), 1);
	assert_int_equal(fake.dumps[PCIEAUDIT_CMD_DEV_GET], 1);
	assert_int_equal(fake.dumps[PCIEAUDIT_CMD_GROUP_GET], 1);
	assert_true(fake.do_flags & NLM_F_ACK);
	json_object_put(root);
	release(&r);

	r = run("report", "--json");
	assert_int_equal(r.rc, PA_EXIT_OK);
	json_object_put(parse(r.out));
	release(&r);
}

static void report_text(void **state)
{
	struct result r;

	(void)state;
	r = run("report");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "pcieaudit 9.9.9, kernel 6.1.0-fake, IOMMU translated (strict)");
	assert_contains(r.out, "\\- 0000:00:01.0 Root Port [8086:1901]");
	assert_contains(r.out, "Link: 2.5GT/s x16 (max 16GT/s x16) DOWNGRADED");
	release(&r);
}

static void info_command(void **state)
{
	struct result r;
	json_object *root;

	(void)state;
	r = run("info");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "module version:  9.9.9\n");
	release(&r);

	r = run("info", "--json");
	assert_int_equal(r.rc, PA_EXIT_OK);
	root = parse(r.out);
	assert_string_equal(get_string(get(root, "info"), "iommu_strict"), "strict");
	json_object_put(root);
	release(&r);
	assert_int_equal(fake.dumps[PCIEAUDIT_CMD_DEV_GET], 0);
}

static void report_one_device(void **state)
{
	struct result r;
	json_object *root, *groups;

	(void)state;
	r = run("report", "01:00.0", "--json");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_int_equal(fake.dos[PCIEAUDIT_CMD_DEV_GET], 1);
	assert_int_equal(fake.dumps[PCIEAUDIT_CMD_DEV_GET], 0);
	assert_true(asked_for(fake.do_addr, 1, 0));
	root = parse(r.out);
	assert_int_equal(json_object_array_length(get(root, "devices")), 1);
	/* Only the group holding it; group 3 is someone else's. */
	groups = get(root, "groups");
	assert_int_equal(json_object_array_length(groups), 1);
	assert_int_equal(json_object_get_int(get(json_object_array_get_idx(groups, 0), "id")), 1);
	json_object_put(root);
	release(&r);
}

static void no_such_device(void **state)
{
	(void)state;
	expect_failure(run("report", "7:00.0"), PA_EXIT_NO_DEVICE,
		       "no such PCI device: 0000:07:00.0 (kernel: no PCI function at this address)");
}

static void dump_restarts_after_hotplug(void **state)
{
	struct result r;
	json_object *root;

	(void)state;
	fake.interrupt_dumps = 1;
	r = run("--json", "report");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_int_equal(fake.dumps[PCIEAUDIT_CMD_DEV_GET], 2);
	root = parse(r.out);
	/* Nothing of the interrupted attempt survives. */
	assert_int_equal(json_object_array_length(get(root, "devices")), 2);
	json_object_put(root);
	release(&r);
}

static void dump_gives_up(void **state)
{
	(void)state;
	fake.interrupt_dumps = 100;
	expect_failure(run("report"), PA_EXIT_RUNTIME,
		       "during the device dump; try again");
	assert_int_equal(fake.dumps[PCIEAUDIT_CMD_DEV_GET], 1 + PA_NL_DUMP_RETRIES);
}

static void dump_fails_midway(void **state)
{
	(void)state;
	fake.respond = kernel_dump_fails;
	expect_failure(run("report"), PA_EXIT_RUNTIME,
		       "device dump failed: Message too long (kernel: device does not fit a message)");
}

static void dump_while_unloading(void **state)
{
	(void)state;
	fake.respond = kernel_module_going;
	expect_failure(run("report"), PA_EXIT_NO_MODULE,
		       "the pcieaudit module was being unloaded: the kernel refused to start the device dump");
}

static void malformed_reply(void **state)
{
	(void)state;
	fake.respond = kernel_malformed;
	expect_failure(run("report"), PA_EXIT_RUNTIME,
		       "malformed reply from the kernel module to the device dump");
}

static void stale_messages_skipped(void **state)
{
	struct result r;

	(void)state;
	fake.respond = kernel_stale;
	r = run("--json", "report");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_null(strstr(r.out, "0000:09:00.0"));
	release(&r);
}

static void ack_without_reply(void **state)
{
	(void)state;
	fake.respond = kernel_ack_only;
	expect_failure(run("info"), PA_EXIT_RUNTIME,
		       "malformed reply from the kernel module to the module info request");
}

static json_object *item(json_object *array, size_t i)
{
	assert_true(i < json_object_array_length(array));
	return json_object_array_get_idx(array, i);
}

static void p2p_text_answer(void **state)
{
	struct result r;

	(void)state;
	fake.respond = kernel_server;
	r = run("p2p", "03:00.0", "0000:04:00.0");
	if (r.rc != PA_EXIT_OK)
		fail_msg("exit %d; stderr: %s", r.rc, r.err);
	assert_string_equal(r.err, "");
	assert_contains(r.out, "P2P DMA from 0000:03:00.0 (provider) to 0000:04:00.0 (client), path length 4\n");
	assert_contains(r.out, "\nup          0000:02:00.0 Downstream Port [1234:0001]");
	assert_contains(r.out, "DirectTrans- REDIRECTS\n");
	assert_contains(r.out, "\ncommon      0000:01:00.0 Upstream Port");
	assert_contains(r.out, "\ndown        0000:02:01.0 Downstream Port");
	assert_contains(r.out, "\nkernel:     distance 4 (pci_p2pdma_distance())\n");
	assert_contains(r.out, "\npcieaudit:  through the host bridge, distance 4\n");
	assert_contains(r.out, "\ntopology:   PIX ");
	assert_contains(r.out, "BANDWIDTH TRAP: under half of the 31.51 GB/s 0000:03:00.0");
	assert_contains(r.out, "\n              pci=disable_acs_redir=0000:02:00.0;0000:02:01.0\n");
	/* 6.1 has no pci=config_acs=. */
	assert_null(strstr(r.out, "config_acs"));
	release(&r);

	/* One do request: provider, then exactly one client. */
	assert_int_equal(fake.dos[PCIEAUDIT_CMD_P2P_GET], 1);
	assert_int_equal(fake.dumps[PCIEAUDIT_CMD_DEV_GET], 1);
	assert_int_equal(fake.p2p_clients, 1);
	assert_int_equal(fake.p2p_addr[0].bus, 3);
	assert_int_equal(fake.p2p_addr[1].bus, 4);
	assert_true(fake.do_flags & NLM_F_ACK);
}

/* pci=config_acs= is offered only where it works as written: a kernel
 * with 9cf8a952d57b, not 6.11, which misparses several devices. */
static void p2p_config_acs_with_fix(void **state)
{
	struct result r;

	(void)state;
	fake.respond = kernel_server;
	fake.release = "6.14.2-fake";
	r = run("p2p", "04:00.0", "03:00.0");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "\n              pci=config_acs=x0x00xx@0000:02:00.0;x0x00xx@0000:02:01.0\n");
	assert_contains(r.out, "pcieaudit-cli p2p 0000:04:00.0 0000:03:00.0\n");
	release(&r);

	fake.release = "6.11.0-fake";
	r = run("p2p", "04:00.0", "03:00.0");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "\n              pci=disable_acs_redir=0000:02:00.0;0000:02:01.0\n");
	assert_contains(r.out, "lacks the fix");
	assert_null(strstr(r.out, "pci=config_acs=x"));
	release(&r);
}

/* A refusal is a finding, not an error: exit 0. */
static void p2p_refused_is_no_error(void **state)
{
	struct result r;

	(void)state;
	fake.respond = kernel_server;
	r = run("p2p", "05:00.0", "03:00.0");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "\ncommon      none: crosses the root complex\n");
	assert_contains(r.out, "\nkernel:     refused (pci_p2pdma_distance() answered -1)\n");
	assert_contains(r.out, "host rule: refused: not an AMD Zen CPU, host bridge 8086:09a2 not whitelisted\n");
	assert_contains(r.out, "\nremedy:     no kernel parameter changes this.");
	release(&r);
}

static void p2p_json_answer(void **state)
{
	struct result r;
	json_object *root, *p;

	(void)state;
	fake.respond = kernel_server;
	r = run("--json", "p2p", "03:00.0", "04:00.0");
	assert_int_equal(r.rc, PA_EXIT_OK);
	root = parse(r.out);
	assert_int_equal(json_object_array_length(get(root, "p2p")), 1);
	p = item(get(root, "p2p"), 0);
	assert_string_equal(get_string(p, "a"), "0000:03:00.0");
	assert_string_equal(get_string(p, "b"), "0000:04:00.0");
	assert_int_equal(json_object_get_int(get(p, "kernel_distance")), 4);
	assert_string_equal(get_string(p, "kernel_status"), "answered");
	assert_string_equal(get_string(p, "map"), "host-bridge");
	assert_string_equal(get_string(p, "path"), "acs_redirect");
	assert_string_equal(get_string(p, "host_rule"), "cpu");
	assert_string_equal(get_string(p, "common"), "0000:01:00.0");
	assert_string_equal(get_string(p, "legend"), "PIX");
	assert_string_equal(json_object_get_string(item(get(p, "redirect"), 1)),
			    "0000:02:01.0");
	assert_string_equal(get_string(get(p, "bottleneck"), "link"), "0000:04:00.0");
	assert_true(json_object_get_boolean(get(p, "bandwidth_trap")));
	json_object_put(root);
	release(&r);
}

static void p2p_no_such_device(void **state)
{
	(void)state;
	fake.respond = kernel_server;
	expect_failure(run("p2p", "03:00.0", "07:00.0"), PA_EXIT_NO_DEVICE,
		       "no such PCI device: 0000:07:00.0 (kernel: no PCI function at this address)");
	expect_failure(run("p2p", "07:00.0", "08:00.0"), PA_EXIT_NO_DEVICE,
		       "no such PCI device: 0000:07:00.0 or 0000:08:00.0");
}

static void p2p_usage(void **state)
{
	(void)state;
	fake.respond = kernel_server;
	expect_failure(run("p2p", "03:00.0"), PA_EXIT_USAGE,
		       "p2p needs 2 PCI addresses: p2p [--json] [SOURCE] A B");
	expect_failure(run("p2p", "03:00.0", "04:00.0", "05:00.0"),
		       PA_EXIT_USAGE, "unexpected argument '05:00.0' for p2p");
	expect_failure(run("p2p", "03:00.0", "4:0.9"), PA_EXIT_USAGE,
		       "invalid PCI address '4:0.9'");
	expect_failure(run("p2p", "--all", "03:00.0", "04:00.0"), PA_EXIT_USAGE,
		       "unknown option '--all' for p2p");
	expect_failure(run("topo", "--all", "03:00.0"), PA_EXIT_USAGE,
		       "topo takes --all or PCI addresses, not both");
	assert_int_equal(fake.dos[PCIEAUDIT_CMD_INFO_GET], 0);
}

static void topo_text_matrix(void **state)
{
	struct result r;

	(void)state;
	fake.respond = kernel_server;
	r = run("topo");
	if (r.rc != PA_EXIT_OK)
		fail_msg("exit %d; stderr: %s", r.rc, r.err);
	assert_contains(r.out,
		"       GPU0   NIC0   NVME0\n"
		"GPU0   X      PIX*!  PHB-!\n"
		"NIC0   PIX*!  X      PHB-\n"
		"NVME0  PHB-!  PHB-   X\n");
	assert_contains(r.out, "\nGPU0   [0000:00] 0000:03:00.0 Endpoint [10de:0001]");
	assert_contains(r.out, "\nLegend:\n");
	release(&r);
	/* One dump, selecting the three by address. */
	assert_int_equal(fake.dumps[PCIEAUDIT_CMD_P2P_GET], 1);
	assert_int_equal(fake.p2p_devs, 3);
	assert_int_equal(fake.p2p_classes, 0);
}

static void topo_json_matrix(void **state)
{
	struct result r;
	json_object *root, *row;

	(void)state;
	fake.respond = kernel_server;
	r = run("topo", "--json");
	assert_int_equal(r.rc, PA_EXIT_OK);
	root = parse(r.out);
	assert_int_equal(json_object_array_length(get(root, "devices")), 3);
	assert_string_equal(get_string(item(get(root, "devices"), 1), "label"), "NIC0");
	row = item(get(root, "matrix"), 0);
	assert_string_equal(json_object_get_string(item(row, 1)), "PIX*!");
	assert_string_equal(json_object_get_string(item(row, 2)), "PHB-!");
	assert_int_equal(json_object_array_length(get(root, "p2p")), 6);
	json_object_put(root);
	release(&r);
}

static void topo_named_devices(void **state)
{
	struct result r;

	(void)state;
	fake.respond = kernel_server;
	r = run("topo", "05:00.0", "03:00.0", "5:0.0");
	assert_int_equal(r.rc, PA_EXIT_OK);
	/* The order given, the repeat dropped. */
	assert_contains(r.out, "       NVME0  GPU0\n"
			"NVME0  X      PHB-!\n"
			"GPU0   PHB-!  X\n");
	release(&r);
	assert_int_equal(fake.p2p_devs, 2);

	/* A bridge, by name, and alone: no pairs, so no dump. */
	r = run("topo", "01:00.0");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "      DEV0\nDEV0  X\n");
	release(&r);
	assert_int_equal(fake.dumps[PCIEAUDIT_CMD_P2P_GET], 1);
}

static void topo_all(void **state)
{
	struct result r;

	(void)state;
	fake.respond = kernel_server;
	r = run("topo", "--all");
	assert_int_equal(r.rc, PA_EXIT_OK);
	release(&r);
	/* Every function without a subordinate bus, and only those. */
	assert_int_equal(fake.p2p_devs, 3);
}

static void topo_no_such_device(void **state)
{
	(void)state;
	fake.respond = kernel_server;
	expect_failure(run("topo", "03:00.0", "09:00.0"), PA_EXIT_NO_DEVICE,
		       "no such PCI device: 0000:09:00.0");
	assert_int_equal(fake.dumps[PCIEAUDIT_CMD_P2P_GET], 0);
}

static void topo_dump_restarts(void **state)
{
	struct result r;
	json_object *root;

	(void)state;
	fake.respond = kernel_server;
	fake.interrupt_p2p = 1;
	r = run("topo", "--json");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_int_equal(fake.dumps[PCIEAUDIT_CMD_P2P_GET], 2);
	root = parse(r.out);
	/* The interrupted attempt's extra pair is gone. */
	assert_int_equal(json_object_array_length(get(root, "p2p")), 6);
	json_object_put(root);
	release(&r);
}

static void report_json_with_pairs(void **state)
{
	struct result r;
	json_object *root, *p2p;

	(void)state;
	fake.respond = kernel_server;
	r = run("--json", "report");
	assert_int_equal(r.rc, PA_EXIT_OK);
	root = parse(r.out);
	p2p = get(root, "p2p");
	assert_int_equal(json_object_array_length(p2p), 6);
	assert_string_equal(get_string(item(p2p, 0), "a"), "0000:03:00.0");
	assert_string_equal(get_string(item(p2p, 0), "b"), "0000:04:00.0");
	assert_string_equal(get_string(item(p2p, 5), "legend"), "PHB");
	json_object_put(root);
	release(&r);
	assert_int_equal(fake.p2p_devs, 3);

	/* Text reports ask for no pairs. */
	r = run("report");
	assert_int_equal(r.rc, PA_EXIT_OK);
	release(&r);
	assert_int_equal(fake.dumps[PCIEAUDIT_CMD_P2P_GET], 1);
}

/* An older module: the report still works, p2p and topo explain. */
static void module_without_p2p(void **state)
{
	struct result r;
	json_object *root;

	(void)state;
	fake.respond = kernel_server_without_p2p;
	r = run("--json", "report");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_string_equal(r.err, "");
	root = parse(r.out);
	assert_null(get(root, "p2p"));
	assert_int_equal(json_object_array_length(get(root, "devices")), 8);
	json_object_put(root);
	release(&r);

	expect_failure(run("p2p", "03:00.0", "04:00.0"), PA_EXIT_RUNTIME,
		       "the loaded kernel module does not answer the P2P request");
	expect_failure(run("topo"), PA_EXIT_RUNTIME,
		       "does not answer the P2P dump");
}

/* fetch.c's P2P requests directly: class selectors, which no command
 * sends yet, and the guards before anything is sent. */
static void p2p_transport(void **state)
{
	static const struct pa_class_select classes[] = {
		{ 0x030000, 0xff0000 }, { 0x010802, 0xffffff },
	};
	const struct pa_addr gpu = { 0, 3, 0 }, clients[65] = { { 0, 4, 0 } };
	struct pa_p2p_select sel = { .devs = &gpu, .ndevs = 1,
				     .classes = classes, .nclasses = 2 };
	struct pa_errinfo ei = { 0 };
	struct pa_p2p p2p;
	struct pa_nl *nl;

	(void)state;
	fake.respond = kernel_server;
	assert_int_equal(pa_nl_open(&nl, &ei), 0);
	assert_int_equal(pa_fetch_p2p_dump(nl, &sel, &p2p), 0);
	assert_int_equal(fake.p2p_devs, 1);
	assert_int_equal(fake.p2p_classes, 2);
	assert_int_equal(fake.p2p_class[0].value, 0x030000);
	assert_int_equal(fake.p2p_class[0].mask, 0xff0000);
	assert_int_equal(fake.p2p_class[1].value, 0x010802);
	assert_int_equal(fake.p2p_class[1].mask, 0xffffff);
	pa_p2p_clear(&p2p);

	/* Nothing selected: nothing asked, rather than "everything". */
	sel = (struct pa_p2p_select){ 0 };
	assert_int_equal(pa_fetch_p2p_dump(nl, &sel, &p2p), 0);
	assert_int_equal(p2p.npairs, 0);
	assert_int_equal(fake.dumps[PCIEAUDIT_CMD_P2P_GET], 1);

	assert_int_equal(pa_fetch_p2p(nl, &gpu, clients, 0, &p2p), -EINVAL);
	assert_int_equal(pa_fetch_p2p(nl, &gpu, clients,
				      PCIEAUDIT_P2P_MAX_CLIENTS + 1, &p2p), -EINVAL);
	assert_int_equal(fake.dos[PCIEAUDIT_CMD_P2P_GET], 0);
	assert_int_equal(pa_fetch_p2p(nl, &gpu, clients, 1, &p2p), 0);
	assert_int_equal(p2p.npairs, 1);
	assert_true(p2p.has_kernel_distance);
	assert_int_equal(p2p.kernel_distance, 4);
	pa_p2p_clear(&p2p);
	pa_nl_close(nl);
	assert_null(fake.problem);
}

/* ---- check ----------------------------------------------------------------- */

static char tmp_dir[64];

static const char *tmp_path(const char *name)
{
	static char path[2][128];
	static int which;

	if (!tmp_dir[0]) {
		strcpy(tmp_dir, "/tmp/pa-cli-XXXXXX");
		assert_non_null(mkdtemp(tmp_dir));
	}
	which = !which;
	snprintf(path[which], sizeof(path[which]), "%s/%s", tmp_dir, name);
	return path[which];
}

static void write_tmp(const char *name, const char *text)
{
	assert_int_equal(pa_write_atomic(tmp_path(name), text, strlen(text)), 0);
}

static void expect_rc(struct result r, int rc, const char *part)
{
	if (r.rc != rc)
		fail_msg("exit %d, not %d; stderr: %s", r.rc, rc, r.err);
	assert_contains(r.out, part);
	assert_string_equal(r.err, "");
	release(&r);
}

/* A snapshot needs no module: nothing is asked of the kernel. */
static void check_exit_codes(void **state)
{
	(void)state;
	expect_rc(run("check", "--input", SNAPSHOTS "/vfio-fail.json", "--profile", "vfio"),
		  PA_EXIT_FINDING, "\n  FAIL  vfio.group-shared: NIC 0000:02:00.0 shares");
	expect_rc(run("check", "--input=" SNAPSHOTS "/baseline-amd-fail.json",
		      "--profile=baseline"),
		  PA_EXIT_WARNINGS, "\n  WARN  baseline.amd-iommu-on:");
	expect_rc(run("check", "--input", SNAPSHOTS "/vfio-pass.json", "--profile",
		      "vfio,baseline"),
		  PA_EXIT_OK, "\n  PASS  vfio.group-shared (3 devices checked)\n");
	/* Info findings alone pass. */
	expect_rc(run("check", "--input", SNAPSHOTS "/gpudirect-fail.json", "--profile",
		      "gpudirect", "--policy", "../../docs/pcieaudit-policy.example.yaml"),
		  PA_EXIT_FINDING, "FAIL  gpudirect.acs-redirect:");
	assert_int_equal(fake.dos[PCIEAUDIT_CMD_INFO_GET], 0);
	assert_int_equal(fake.dumps[PCIEAUDIT_CMD_DEV_GET], 0);
}

/* check --expect through main(): the golden of the acceptance, its own
 * golden, an inventory refused with its place, and --exit-codes. */
static void check_expect(void **state)
{
	struct result r;
	char part[200];

	(void)state;
	r = run("check", "--profile", "expect", "--input",
		SNAPSHOTS "/gpudirect-lost-gpu.json", "--expect",
		SNAPSHOTS "/gpudirect-fail.json", "--no-color");
	assert_int_equal(r.rc, PA_EXIT_FINDING);
	assert_contains(r.out, "FAIL  expect.device-missing: GPU 10de:20b5");
	assert_contains(r.out, "FAIL  expect.link-below: NIC 0000:04:00.0");
	release(&r);
	/* A golden against itself: nothing, and nagios' and npd's OK. */
	r = run("check", "--profile", "expect", "--input", SNAPSHOTS "/gpudirect-fail.json",
		"--expect", SNAPSHOTS "/gpudirect-fail.json", "--exit-codes", "nagios");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "summary: expect PASS; 0 failed, 0 warnings");
	release(&r);
	r = run("check", "--profile", "expect", "--input", SNAPSHOTS "/gpudirect-lost-gpu.json",
		"--expect", SNAPSHOTS "/gpudirect-fail.json", "--exit-codes", "nagios");
	assert_int_equal(r.rc, 2);
	release(&r);
	r = run("check", "--profile", "expect", "--input", SNAPSHOTS "/gpudirect-lost-gpu.json",
		"--expect", SNAPSHOTS "/gpudirect-fail.json", "--exit-codes", "npd");
	assert_int_equal(r.rc, 1);
	release(&r);
	/* Warnings: nagios WARNING, npd a problem (8 reads unknown to it). */
	r = run("check", "--input", SNAPSHOTS "/baseline-amd-fail.json", "--exit-codes=nagios");
	assert_int_equal(r.rc, 1);
	release(&r);
	r = run("check", "--input", SNAPSHOTS "/baseline-amd-fail.json", "--exit-codes", "npd");
	assert_int_equal(r.rc, 1);
	release(&r);
	/* An error is UNKNOWN (3) to both. */
	r = run("check", "--input", SNAPSHOTS "/missing.json", "--exit-codes", "nagios");
	assert_int_equal(r.rc, 3);
	release(&r);
	r = run("check", "--input", SNAPSHOTS "/missing.json", "--exit-codes", "npd");
	assert_int_equal(r.rc, 3);
	release(&r);
	expect_failure(run("check", "--exit-codes", "icinga"), PA_EXIT_USAGE,
		       "unknown --exit-codes 'icinga' (expected pcieaudit, nagios or npd)");
	expect_failure(run("check", "--profile", "expect"), PA_EXIT_USAGE,
		       "the expect profile needs --expect FILE");
	write_tmp("inv.yaml", "version: 1\ndevices:\n  - class: gpu\n    count: -2\n");
	snprintf(part, sizeof(part), "%s:4:12: bad count '-2'", tmp_path("inv.yaml"));
	expect_failure(run("check", "--input", SNAPSHOTS "/gpudirect-fail.json", "--expect",
			   tmp_path("inv.yaml")), PA_EXIT_BAD_INPUT, part);
	expect_failure(run("check", "--input", SNAPSHOTS "/gpudirect-fail.json", "--expect",
			   SNAPSHOTS "/missing.json"), PA_EXIT_BAD_INPUT,
		       "cannot read --expect " SNAPSHOTS "/missing.json");
	/* Without --expect nothing changes: no expect profile. */
	r = run("check", "--input", SNAPSHOTS "/gpudirect-fail.json", "--no-color");
	assert_null(strstr(r.out, "expect"));
	release(&r);
}

/* fleet through main(): snapshots as files, a host that differs, a bad one. */
static void fleet_files(void **state)
{
	struct result r;

	(void)state;
	r = run("fleet", SNAPSHOTS "/gpudirect-fail.json", SNAPSHOTS "/gpudirect-fail.json",
		SNAPSHOTS "/gpudirect-lost-gpu.json");
	assert_int_equal(r.rc, PA_EXIT_FINDING);
	assert_contains(r.out, "3 hosts, 1 kind, 1 differs from their kind's majority");
	assert_contains(r.out, SNAPSHOTS "/gpudirect-lost-gpu.json: link 5GT/s x4 at pci0000:00/01.0/00.0/01.0/00.0, the majority's 8GT/s x8; GPU 10de:20b5 missing at pci0000:80/01.0/00.0");
	release(&r);
	r = run("fleet", "--exit-codes", "nagios", SNAPSHOTS "/gpudirect-fail.json");
	assert_int_equal(r.rc, 0);
	release(&r);
	expect_failure(run("fleet"), PA_EXIT_USAGE, "fleet needs snapshots");
	expect_failure(run("fleet", SNAPSHOTS "/gpudirect-fail.json", SNAPSHOTS "/missing.json"),
		       PA_EXIT_BAD_INPUT, "cannot read " SNAPSHOTS "/missing.json");
}

static void check_bad_input(void **state)
{
	char part[400];

	(void)state;
	expect_failure(run("check", "--input", SNAPSHOTS "/missing.json"),
		       PA_EXIT_BAD_INPUT,
		       "cannot read " SNAPSHOTS "/missing.json: No such file or directory");
	write_tmp("cut.json", "{\n  \"schema_version\": 1,\n  \"info\": {");
	snprintf(part, sizeof(part), "%s:3:12: invalid JSON: unexpected end of input",
		 tmp_path("cut.json"));
	expect_failure(run("check", "--input", tmp_path("cut.json")),
		       PA_EXIT_BAD_INPUT, part);
	write_tmp("dup.json", "{\"schema_version\": 1, \"info\": {}, \"devices\": ["
		  "{\"bdf\": \"01:00.0\", \"vendor\": 1, \"device\": 1, \"class\": 1},"
		  "{\"bdf\": \"0000:01:00.0\", \"vendor\": 1, \"device\": 1, \"class\": 1}]}");
	expect_failure(run("check", "--input", tmp_path("dup.json")),
		       PA_EXIT_BAD_INPUT, "devices[bdf=0000:01:00.0]: listed twice");
	write_tmp("p.yaml", "version: 1\nsellect: []\n");
	snprintf(part, sizeof(part), "%s:2:1: unknown key 'sellect'", tmp_path("p.yaml"));
	expect_failure(run("check", "--input", SNAPSHOTS "/vfio-pass.json", "--policy",
			   tmp_path("p.yaml")), PA_EXIT_BAD_INPUT, part);
	expect_failure(run("check", "--policy", SNAPSHOTS "/missing.yaml"),
		       PA_EXIT_BAD_INPUT, "cannot read policy " SNAPSHOTS "/missing.yaml");
	expect_failure(run("check", "--sysfs", "/nonexistent-pa"), PA_EXIT_BAD_INPUT,
		       "no PCI functions under /nonexistent-pa");
	expect_failure(run("report", "--input", tmp_path("cut.json")),
		       PA_EXIT_BAD_INPUT, "invalid JSON");
	/* Issue 24: neither hex nor lspci -vvv blocks, and the message
	 * says what the file held and what is needed. */
	write_tmp("nn.txt",
		  "00:00.0 Host bridge [0600]: Intel Corporation 440FX [8086:1237] (rev 02)\n"
		  "00:01.0 ISA bridge [0601]: Intel Corporation PIIX3 ISA [8086:7000]\n"
		  "-[0000:00]-+-00.0\n"
		  "           \\-01.0\n");
	snprintf(part, sizeof(part), "no PCI function in %s (it holds 2 function lines without hex rows or lspci -v blocks below them: lspci or lspci -nn output, and an lspci -t drawing of 2 functions): expected lspci -vvv output",
		 tmp_path("nn.txt"));
	expect_failure(run("report", "--lspci", tmp_path("nn.txt")),
		       PA_EXIT_BAD_INPUT, part);
	assert_int_equal(fake.dos[PCIEAUDIT_CMD_INFO_GET], 0);
}

static void check_usage(void **state)
{
	(void)state;
	expect_failure(run("check", "--profile", "gpu"), PA_EXIT_USAGE,
		       "unknown profile 'gpu' (expected gpudirect, vfio, baseline or expect)");
	expect_failure(run("check", "--format", "xml"), PA_EXIT_USAGE,
		       "unknown format 'xml'");
	expect_failure(run("check", "--input", "a", "--sysfs", "b"), PA_EXIT_USAGE,
		       "check takes one of --input, --sysfs and --lspci");
	expect_failure(run("check", "--input"), PA_EXIT_USAGE, "--input needs a value");
	expect_failure(run("check", "--output="), PA_EXIT_USAGE, "--output needs a value");
	expect_failure(run("check", "--policy", "a", "--policy", "b"), PA_EXIT_USAGE,
		       "--policy given twice");
	expect_failure(run("check", "01:00.0"), PA_EXIT_USAGE,
		       "unexpected argument '01:00.0' for check");
	expect_failure(run("check", "--json", "--format", "text"), PA_EXIT_USAGE,
		       "--json and --format text contradict each other");
	expect_failure(run("check", "--json", "--format", "nfd"), PA_EXIT_USAGE,
		       "--json and --format nfd contradict each other");
	expect_failure(run("check", "--profile", ","), PA_EXIT_USAGE,
		       "--profile names no profile");
	expect_failure(run("report", "--policy", "p.yaml"), PA_EXIT_USAGE,
		       "unknown option '--policy' for report");
	/* info reads every source now: a missing snapshot is bad input. */
	expect_failure(run("info", "--input", "x.json"), PA_EXIT_BAD_INPUT,
		       "cannot read x.json");
	expect_failure(run("info", "--nccl-xml", "x.xml"), PA_EXIT_USAGE,
		       "unknown option '--nccl-xml' for info");
	expect_failure(run("topo", "--lspci", "a", "--input", "b"), PA_EXIT_USAGE,
		       "topo takes one of --input, --sysfs and --lspci");
	expect_failure(run("topo", "--policy", "p.yaml"), PA_EXIT_USAGE,
		       "unknown option '--policy' for topo");
	expect_failure(run("report", "--nccl-xml", "x.xml"), PA_EXIT_USAGE,
		       "unknown option '--nccl-xml' for report");
	expect_failure(run("report", "01:00.0", "--input", "x.json"), PA_EXIT_USAGE,
		       "report BDF reads the module only");
	assert_int_equal(fake.dos[PCIEAUDIT_CMD_INFO_GET], 0);
}

static void check_json(void **state)
{
	struct result r;
	json_object *root, *f;

	(void)state;
	r = run("check", "--input", SNAPSHOTS "/gpudirect-fail.json", "--profile",
		"gpudirect", "--json");
	assert_int_equal(r.rc, PA_EXIT_FINDING);
	root = parse(r.out);
	assert_int_equal(json_object_get_int(get(root, "schema_version")), 1);
	assert_string_equal(get_string(root, "source"), SNAPSHOTS "/gpudirect-fail.json");
	assert_string_equal(get_string(root, "verdict"), "fail");
	assert_string_equal(get_string(get(root, "profiles"), "gpudirect"), "fail");
	assert_int_equal(json_object_get_int(get(get(root, "summary"), "fail")), 1);
	assert_int_equal(json_object_get_int(get(get(root, "summary"), "warn")), 6);
	f = item(get(root, "findings"), 0);
	assert_string_equal(get_string(f, "id"), "gpudirect.acs-redirect");
	assert_string_equal(get_string(f, "severity"), "fail");
	assert_string_equal(json_object_get_string(item(get(f, "devices"), 3)),
			    "0000:02:01.0");
	assert_string_equal(get_string(get(f, "remedy"), "kind"), "cmdline-add");
	assert_string_equal(get_string(get(f, "remedy"), "value"),
			    "pci=disable_acs_redir=0000:02:00.0;0000:02:01.0");
	f = item(get(root, "rules"), 1);
	assert_string_equal(get_string(f, "id"), "gpudirect.p2p-refused");
	assert_string_equal(get_string(f, "status"), "pass");
	json_object_put(root);
	release(&r);
}

static size_t dotfiles(void)
{
	DIR *d = opendir(tmp_dir);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] == '.' && strcmp(e->d_name, ".") &&
		     strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static char *slurp_path(const char *path)
{
	size_t len;
	char *text;

	assert_int_equal(pa_read_file(path, 1 << 20, &text, &len), 0);
	return text;
}

static void check_output_files(void **state)
{
	struct result r;
	char *text;

	(void)state;
	r = run("check", "--input", SNAPSHOTS "/vfio-fail.json", "--format", "prometheus",
		"--output", tmp_path("pcieaudit.prom"));
	assert_int_equal(r.rc, PA_EXIT_FINDING);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, "");
	release(&r);
	text = slurp_path(tmp_path("pcieaudit.prom"));
	assert_contains(text, "\npcieaudit_check_status 2\n");
	free(text);

	r = run("check", "--input", SNAPSHOTS "/vfio-pass.json", "--profile", "vfio",
		"--format", "nfd", "--output", tmp_path("pcieaudit"));
	assert_int_equal(r.rc, PA_EXIT_OK);
	release(&r);
	text = slurp_path(tmp_path("pcieaudit"));
	assert_string_equal(text,
		"# Written by pcieaudit-cli check; replaced on each run.\n"
		"pcieaudit.vfio=pass\npcieaudit.status=pass\n"
		"pcieaudit.iommu-mode=translated\n");
	free(text);
	assert_int_equal(dotfiles(), 0);

	expect_failure(run("check", "--input", SNAPSHOTS "/vfio-pass.json", "--output",
			   "/nonexistent-pa/x"), PA_EXIT_RUNTIME,
		       "cannot write /nonexistent-pa/x: No such file or directory");
}

static void check_rules(void **state)
{
	struct result r;

	(void)state;
	r = run("check", "--rules");
	assert_int_equal(r.rc, PA_EXIT_OK);
	for (int i = 0; i < PA_NRULES; i++) {
		char line[64];

		snprintf(line, sizeof(line), "%s ", pa_rules[i].id);
		assert_contains(r.out, line);
	}
	release(&r);
	assert_int_equal(fake.dos[PCIEAUDIT_CMD_INFO_GET], 0);
}

/* report --json on the host, check --input anywhere: the same findings. */
static void check_offline_equals_live(void **state)
{
	struct result snap, live, offline;
	json_object *a, *b;

	(void)state;
	fake.respond = kernel_server;
	/* Without --nvml NVML's rules skip, naming the option. */
	snap = run("--json", "report");
	assert_int_equal(snap.rc, PA_EXIT_OK);
	write_tmp("host.json", snap.out);
	offline = run("check", "--input", tmp_path("host.json"), "--profile", "gpudirect");
	assert_contains(offline.out, "SKIP  gpudirect.accel-link (NVLink unknown: NVML not-read: "
			"report --json asks NVML only with --nvml)");
	release(&offline);
	release(&snap);
	snap = run("--json", "report", "--nvml");
	assert_int_equal(snap.rc, PA_EXIT_OK);
	write_tmp("host.json", snap.out);
	live = run("check", "--format", "json");
	offline = run("check", "--format", "json", "--input", tmp_path("host.json"));
	assert_int_equal(live.rc, offline.rc);
	a = parse(live.out);
	b = parse(offline.out);
	assert_string_equal(get_string(a, "source"), "the module");
	json_object_object_del(a, "source");
	json_object_object_del(b, "source");
	test_snapshot(json_object_to_json_string(b), json_object_to_json_string(a),
		      "offline_equals_live");
	/* Something was found, or the comparison proves little. */
	assert_true(json_object_array_length(get(a, "findings")) > 3);
	json_object_put(a);
	json_object_put(b);
	release(&live);
	release(&offline);

	/* The text too, below its header line. */
	live = run("check");
	offline = run("check", "--input", tmp_path("host.json"));
	assert_string_equal(strchr(live.out, '\n'), strchr(offline.out, '\n'));
	release(&live);
	release(&offline);
	release(&snap);
}

static void report_host_and_snapshots(void **state)
{
	struct result r;
	json_object *root;

	(void)state;
	r = run("report", "--json");
	assert_int_equal(r.rc, PA_EXIT_OK);
	root = parse(r.out);
	assert_string_equal(get_string(get(root, "host"), "source"), "module");
	json_object_put(root);
	release(&r);

	r = run("report", "--input", SNAPSHOTS "/gpudirect-fail.json");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "0000:03:00.0 Endpoint [10de:20b5]");
	release(&r);

	if (access(H200 "/devices", R_OK)) {
		print_message("SKIPPED: %s is missing\n", H200);
		return;
	}
	r = run("report", "--sysfs", H200);
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "0000:00:06.0 Endpoint [10de:2335]");
	release(&r);
	r = run("--json", "report", "--sysfs", H200);
	root = parse(r.out);
	assert_string_equal(get_string(get(root, "host"), "source"), "sysfs");
	assert_null(get(get(root, "info"), "module_version"));
	/* Pairs from pcieaudit's own path analysis, no kernel verdict. */
	assert_int_equal(json_object_array_length(get(root, "p2p")), 6);
	assert_null(get(item(get(root, "p2p"), 0), "kernel_status"));
	json_object_put(root);
	release(&r);
	r = run("check", "--sysfs", H200, "--profile", "gpudirect");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "INFO  gpudirect.p2p-unknown:");
	release(&r);
}

/* A fixture attribute file's first line. */
static char *fixture_line(const char *bdf, const char *attr)
{
	char path[512], *text = NULL;
	size_t len;

	snprintf(path, sizeof(path), "%s/devices/%s/%s", H200, bdf, attr);
	assert_int_equal(pa_read_file(path, 4096, &text, &len), 0);
	text[strcspn(text, "\n")] = '\0';
	return text;
}

/* topo without the module: the matrix from sysfs, the NCCL file with the
 * fixture's own max_link_speed and max_link_width, a snapshot's topo. */
static void topo_sysfs_and_nccl_xml(void **state)
{
	static const char *const gpus[] = { "0000:00:06.0", "0000:00:07.0" };
	struct result r;
	char *xml = NULL, want[256];
	size_t len;

	(void)state;
	if (access(H200 "/devices", R_OK)) {
		print_message("SKIPPED: %s is missing\n", H200);
		return;
	}
	r = run("topo", "--sysfs", H200, "--nccl-xml", tmp_path("nccl.xml"));
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "GPU0  X ");
	assert_contains(r.out, "NVLink: unknown, NVML not-read");
	release(&r);
	assert_int_equal(pa_read_file(tmp_path("nccl.xml"), 1 << 20, &xml, &len), 0);
	assert_contains(xml, "<system version=\"1\">");
	for (size_t i = 0; i < 2; i++) {
		char *speed = fixture_line(gpus[i], "max_link_speed");
		char *width = fixture_line(gpus[i], "max_link_width");

		snprintf(want, sizeof(want), "<pci busid=\"%s\" class=\"0x030200\"",
			 gpus[i]);
		assert_contains(xml, want);
		snprintf(want, sizeof(want), "link_speed=\"%s\" link_width=\"%s\"",
			 speed, width);
		assert_contains(xml, want);
		free(speed);
		free(width);
	}
	free(xml);

	r = run("--json", "report", "--sysfs", H200);
	write_tmp("guest.json", r.out);
	release(&r);
	r = run("topo", "--input", tmp_path("guest.json"));
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "GPU1  PHB");
	release(&r);
	expect_failure(run("topo", "--sysfs", H200, "--nccl-xml",
			   "/nonexistent-pa/x.xml"), PA_EXIT_RUNTIME,
		       "cannot write /nonexistent-pa/x.xml");
}

/* ---- One pipeline: every command and source gives the same pairs ---------- */

/* "MAP HOST_RULE" of the pair a -> b in a JSON document's p2p array. */
static void pair_verdict(const char *json, const char *a, const char *b,
			 char *buf, size_t len)
{
	json_object *root = parse(json), *pairs = get(root, "p2p");
	size_t n = json_object_array_length(pairs);

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(pairs, i);

		if (strcmp(get_string(p, "a"), a) || strcmp(get_string(p, "b"), b))
			continue;
		snprintf(buf, len, "%s %s", get_string(p, "map"),
			 get_string(p, "host_rule"));
	}
	json_object_put(root);
	if (!buf[0])
		fail_msg("no pair %s -> %s in %s", a, b, json);
}

/* The output of a command that must succeed quietly. */
static char *output_of(struct result r)
{
	if (r.rc != PA_EXIT_OK)
		fail_msg("exit %d; stderr: %s", r.rc, r.err);
	free(r.err);
	return r.out;
}

/*
 * The H200 guest's functions on an AMD Zen host (cpuinfo beside them):
 * the kernel would allow P2P through the root complex (the CPU rule of
 * calc_map_type_and_dist()). report --json (the snapshot check reads),
 * topo, p2p and their snapshot round trip must all say so. The pairs were
 * inferred before the host's CPU was read for report and check, so they
 * stayed unknown there while topo answered "host-bridge (cpu)".
 */
static void pairs_agree_across_commands(void **state)
{
	static const char *const pairs[][2] = {
		{ "0000:00:06.0", "0000:00:07.0" },
		{ "0000:00:07.0", "0000:00:03.0" },
		{ "0000:00:03.0", "0000:00:06.0" },
	};
	static const char cpuinfo[] = "processor\t: 0\nvendor_id\t: AuthenticAMD\n"
		"cpu family\t: 25\nmodel\t\t: 1\nmodel name\t: AMD EPYC 7713\n\n";
	char dir[128], link[160], want[64], got[64];
	char *report, *topo, *snap_topo, *check;
	struct result r;

	(void)state;
	if (access(H200 "/devices", R_OK)) {
		print_message("SKIPPED: %s is missing\n", H200);
		return;
	}
	snprintf(dir, sizeof(dir), "%s", tmp_path("amd-host"));
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(link, sizeof(link), "%s/devices", dir);
	assert_int_equal(symlink(H200 "/devices", link), 0);
	write_tmp("amd-host/cpuinfo", cpuinfo);

	report = output_of(run("--json", "report", "--sysfs", dir));
	write_tmp("amd-host.json", report);
	topo = output_of(run("--json", "topo", "--sysfs", dir));
	snap_topo = output_of(run("--json", "topo", "--input",
				  tmp_path("amd-host.json")));
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		const char *a = pairs[i][0], *b = pairs[i][1];
		char *one;

		pair_verdict(topo, a, b, want, sizeof(want));
		assert_string_equal(want, "host-bridge cpu");
		pair_verdict(report, a, b, got, sizeof(got));
		assert_string_equal(got, want);
		pair_verdict(snap_topo, a, b, got, sizeof(got));
		assert_string_equal(got, want);
		one = output_of(run("--json", "p2p", "--sysfs", dir, a, b));
		pair_verdict(one, a, b, got, sizeof(got));
		assert_string_equal(got, want);
		free(one);
		one = output_of(run("--json", "p2p", "--input",
				    tmp_path("amd-host.json"), a, b));
		pair_verdict(one, a, b, got, sizeof(got));
		assert_string_equal(got, want);
		free(one);
	}
	/* check judges the same pairs: allowed by the CPU, none unknown. */
	r = run("check", "--sysfs", dir, "--profile", "gpudirect");
	check = r.out;
	assert_contains(check, "(PHB, allowed: AMD Zen CPU)");
	assert_contains(check, "PASS  gpudirect.p2p-unknown");
	free(r.err);
	free(check);
	free(report);
	free(topo);
	free(snap_topo);
}

/*
 * Each failure class, whichever step meets it (option parsing, load,
 * analysis, render), exits with the code README's "Exit codes" and
 * exitcodes.h give it, and says why in one line on stderr.
 */
static void exit_code_per_failure_class(void **state)
{
	(void)state;
	/* 2: usage, from the option parser. */
	expect_failure(run("frobnicate"), PA_EXIT_USAGE, "see 'pcieaudit-cli --help'");
	expect_failure(run("topo", "--all", "01:00.0"), PA_EXIT_USAGE,
		       "--all or PCI addresses");
	expect_failure(run("check", "--profile", "nope", "--input",
			   SNAPSHOTS "/vfio-pass.json"), PA_EXIT_USAGE, "unknown profile");
	/* 3: runtime, from the module's load and from rendering a file. */
	fake.respond = kernel_dump_fails;
	expect_failure(run("report"), PA_EXIT_RUNTIME, "device dump failed");
	fake.respond = kernel_normal;
	expect_failure(run("check", "--input", SNAPSHOTS "/vfio-pass.json",
			   "--output", "/nonexistent-pa/x.prom"),
		       PA_EXIT_RUNTIME, "cannot write /nonexistent-pa/x.prom");
	/* 4: the module not loaded, whichever command asks it. */
	fake.resolve_ret = -NLE_OBJ_NOTFOUND;
	expect_failure(run("p2p", "01:00.0", "02:00.0"), PA_EXIT_NO_MODULE,
		       "modprobe pcieaudit");
	expect_failure(run("topo"), PA_EXIT_NO_MODULE, "modprobe pcieaudit");
	expect_failure(run("check"), PA_EXIT_NO_MODULE, "modprobe pcieaudit");
	fake.resolve_ret = TEST_FAMILY_ID;
	/* 5: permission. */
	fake.respond = kernel_eperm;
	expect_failure(run("topo"), PA_EXIT_PERMISSION, "permission denied");
	fake.respond = kernel_normal;
	/* 6: ABI. */
	fake.version = 2;
	expect_failure(run("p2p", "01:00.0", "02:00.0"), PA_EXIT_ABI,
		       "family version 2");
	fake.version = PCIEAUDIT_FAMILY_VERSION;
	/* 7: no such device, from the module and from a file alike. */
	expect_failure(run("report", "0000:7f:00.0"), PA_EXIT_NO_DEVICE,
		       "no such PCI device: 0000:7f:00.0");
	expect_failure(run("p2p", "--input", SNAPSHOTS "/vfio-pass.json", "7f:00.0",
			   "7f:00.1"), PA_EXIT_NO_DEVICE,
		       "no function 0000:7f:00.0 or 0000:7f:00.1 in the input");
	expect_failure(run("topo", "--input", SNAPSHOTS "/vfio-pass.json", "7f:00.0"),
		       PA_EXIT_NO_DEVICE, "no function 0000:7f:00.0 in the input");
	/* 9: bad input: a snapshot or a policy. */
	expect_failure(run("topo", "--input", SNAPSHOTS "/missing.json"),
		       PA_EXIT_BAD_INPUT, "cannot read " SNAPSHOTS "/missing.json");
	expect_failure(run("check", "--input", SNAPSHOTS "/vfio-pass.json", "--policy",
			   SNAPSHOTS "/missing.yaml"), PA_EXIT_BAD_INPUT,
		       "cannot read policy " SNAPSHOTS "/missing.yaml");
	/* 1 and 8 are check's verdicts, no error: nothing on stderr. */
	expect_rc(run("check", "--input", SNAPSHOTS "/vfio-fail.json", "--profile",
		      "vfio"), PA_EXIT_FINDING, "FAIL");
	expect_rc(run("check", "--input", SNAPSHOTS "/baseline-amd-fail.json",
		      "--profile", "baseline"), PA_EXIT_WARNINGS, "WARN");
}

/* Runs main() on argv with stdout on a terminal; returns what it wrote. */
static char *run_argv_on_tty(const char *no_color, int argc, char **argv)
{
	int master, slave, saved, n;
	struct termios t;
	char *out = calloc(1, 8192);
	size_t len = 0;

	assert_int_equal(openpty(&master, &slave, NULL, NULL, NULL), 0);
	tcgetattr(slave, &t);
	cfmakeraw(&t);
	tcsetattr(slave, TCSANOW, &t);
	if (no_color)
		setenv("NO_COLOR", no_color, 1);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	dup2(slave, STDOUT_FILENO);
	assert_int_equal(pa_cli_main(argc, argv), PA_EXIT_OK);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(slave);
	unsetenv("NO_COLOR");
	fcntl(master, F_SETFL, O_NONBLOCK);
	while (len < 8191 && (n = (int)read(master, out + len, 8191 - len)) > 0)
		len += (size_t)n;
	close(master);
	return out;
}

static char *run_on_tty(const char *no_color, const char *flag)
{
	char *argv[] = { "pcieaudit-cli", "check", "--input",
			 SNAPSHOTS "/baseline-pass.json", "--profile", "baseline",
			 (char *)flag, NULL };

	return run_argv_on_tty(no_color, flag ? 7 : 6, argv);
}

/* JSON as iproute2 prints it: compact into a pipe or a file, indented on a
 * terminal or with --pretty (before or after the command). */
static void json_layout(void **state)
{
	char *argv[] = { "pcieaudit-cli", "check", "--input",
			 SNAPSHOTS "/baseline-pass.json", "--profile", "baseline",
			 "--format", "json", NULL };
	struct result r;
	char *out;

	(void)state;
	r = run("check", "--input", SNAPSHOTS "/baseline-pass.json", "--profile",
		"baseline", "--format", "json");
	assert_ptr_equal(strchr(r.out, '\n'), r.out + strlen(r.out) - 1);
	assert_null(strstr(r.out, "\": "));
	assert_contains(r.out, "{\"schema_version\":1,\"source\":");
	release(&r);
	r = run("report", "--input", SNAPSHOTS "/baseline-pass.json", "--json");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_ptr_equal(strchr(r.out, '\n'), r.out + strlen(r.out) - 1);
	release(&r);
	r = run("report", "--input", SNAPSHOTS "/baseline-pass.json", "--json",
		"--pretty");
	assert_contains(r.out, "{\n  \"schema_version\": 1,\n  \"info\": {\n");
	release(&r);
	r = run("--pretty", "--json", "report", "--input",
		SNAPSHOTS "/baseline-pass.json");
	assert_contains(r.out, "{\n  \"schema_version\": 1,\n  \"info\": {\n");
	release(&r);
	out = run_argv_on_tty("1", 8, argv);
	assert_contains(out, "{\n  \"schema_version\": 1,\n  \"source\": ");
	free(out);
}

static void check_colour(void **state)
{
	char *term = getenv("TERM") ? strdup(getenv("TERM")) : NULL;
	char *out;

	(void)state;
	/* A person's terminal, whatever the caller's: make unit under
	 * TERM=dumb or NO_COLOR=1 once failed here. */
	setenv("TERM", "xterm", 1);
	unsetenv("NO_COLOR");
	out = run_on_tty(NULL, NULL);
	assert_contains(out, "\033[32mPASS\033[0m  baseline.iommu-off");
	free(out);
	out = run_on_tty("1", NULL);
	assert_contains(out, "PASS  baseline.iommu-off");
	assert_null(strchr(out, '\033'));
	free(out);
	/* NO_COLOR set but empty does not count. */
	out = run_on_tty("", NULL);
	assert_non_null(strchr(out, '\033'));
	free(out);
	out = run_on_tty(NULL, "--no-color");
	assert_null(strchr(out, '\033'));
	free(out);
	setenv("TERM", "dumb", 1);
	out = run_on_tty(NULL, NULL);
	assert_contains(out, "PASS  baseline.iommu-off");
	assert_null(strchr(out, '\033'));
	free(out);
	if (term)
		setenv("TERM", term, 1);
	else
		unsetenv("TERM");
	free(term);
}

static void remove_tmp_dir(void)
{
	char cmd[96];

	if (!tmp_dir[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp_dir);
	if (system(cmd))
		print_message("could not remove %s\n", tmp_dir);
}

#define TEST(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

/* The snapshot file's own info.key, read with json-c: the oracle. */
static char *snapshot_info(const char *path, const char *object,
			   const char *key)
{
	json_object *root = json_object_from_file(path), *o = NULL;
	char *value;

	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, object, &o));
	value = strdup(get_string(o, key));
	json_object_put(root);
	return value;
}

/* Header lines "DDDD:BB:DD.F " of an lspci capture: its functions. */
static size_t lspci_functions(const char *path)
{
	char line[512];
	size_t n = 0;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		n += strlen(line) > 13 && line[4] == ':' && line[7] == ':' &&
		     line[10] == '.' && line[12] == ' ';
	fclose(f);
	return n;
}

/* info of a snapshot: what it recorded, read through the same pipeline
 * as report; no module asked. */
static void info_snapshot(void **state)
{
	const char *snap = SNAPSHOTS "/baseline-intel-fail.json";
	char *version = snapshot_info(snap, "info", "module_version");
	char *kernel = snapshot_info(snap, "info", "kernel_release");
	char want[256];
	struct result r;
	json_object *root, *params;

	(void)state;
	r = run("info", "--input", snap);
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "source:          snapshot " SNAPSHOTS);
	snprintf(want, sizeof(want), "module version:  %s\n", version);
	assert_contains(r.out, want);
	snprintf(want, sizeof(want), "kernel release:  %s\n", kernel);
	assert_contains(r.out, want);
	/* The snapshot's cmdline: "... ro quiet iommu=pt intel_iommu=off" */
	assert_contains(r.out, "IOMMU/ACS boot:  iommu=pt intel_iommu=off\n");
	release(&r);

	r = run("--json", "info", "--input", snap);
	assert_int_equal(r.rc, PA_EXIT_OK);
	root = parse(r.out);
	assert_string_equal(get_string(get(root, "info"), "module_version"), version);
	assert_string_equal(get_string(get(root, "source"), "kind"), "snapshot");
	params = get(root, "iommu_params");
	assert_int_equal(json_object_array_length(params), 2);
	assert_string_equal(json_object_get_string(item(params, 1)), "intel_iommu=off");
	json_object_put(root);
	release(&r);
	assert_int_equal(fake.dumps[PCIEAUDIT_CMD_DEV_GET], 0);
	free(version);
	free(kernel);
}

/* info --sysfs: no module version ever, the count of functions sysfs
 * shows, whether an IOMMU is there. */
/* A sysfs copy without kernel/iommu_groups cannot tell "no IOMMU" from "not
 * copied": unknown, in text and JSON, and back from the JSON. The same
 * machine's copy with the (empty) directory says none. Oracle: the lent H200
 * machine's /sys/kernel/iommu_groups, an empty directory (ls -la, 2026-12-01). */
static void sysfs_copy_without_groups(void **state)
{
	struct result r;

	(void)state;
	if (!test_have_guest())
		skip();
	r = run("report", "--sysfs", H200);
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "IOMMU unknown (not in the input)");
	assert_contains(r.out, "IOMMU groups unknown");
	release(&r);
	r = run("--json", "report", "--sysfs", H200);
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "\"group_count\":null");
	release(&r);
	r = run("report", "--sysfs", "../fixtures/h200/sysfs");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "IOMMU none, 7 PCI functions, 0 IOMMU groups");
	release(&r);
}

static void info_sysfs(void **state)
{
	char want[64];
	size_t n = 0;
	struct dirent *e;
	struct result r;
	json_object *root, *info;
	DIR *d = opendir(H200 "/devices");

	(void)state;
	if (!d) {
		print_message("SKIPPED: %s is missing\n", H200);
		return;
	}
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	r = run("info", "--sysfs", H200);
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "module version:  unknown (not in sysfs");
	assert_contains(r.out, "features:        unknown (");
	snprintf(want, sizeof(want), "PCI functions:   %zu\n", n);
	assert_contains(r.out, want);
	/* The guest has no IOMMU: no iommu_groups in the fixture. */
	assert_contains(r.out, "IOMMU default:   unknown");
	assert_contains(r.out, "IOMMU/ACS boot:  unknown (no kernel command line in the input)\n");
	release(&r);

	r = run("--json", "info", "--sysfs", H200);
	assert_int_equal(r.rc, PA_EXIT_OK);
	root = parse(r.out);
	info = get(root, "info");
	assert_null(get(info, "module_version"));
	assert_int_equal(json_object_get_int(get(info, "device_count")), (int)n);
	assert_false(json_object_get_boolean(get(get(info, "features"), "iommu_present")));
	assert_non_null(get_string(get(root, "unknown"), "module_version"));
	assert_null(get(root, "iommu_params"));
	json_object_put(root);
	release(&r);
}

/* info --lspci: a capture knows its functions, nothing of the module, the
 * kernel or the IOMMU. */
static void info_lspci(void **state)
{
	const char *file = GPU_FIXTURES "/lspci/h200-vm-guest.lspci";
	char want[64];
	struct result r;
	json_object *root, *info;

	(void)state;
	r = run("info", "--lspci", file);
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "source:          lspci ");
	assert_contains(r.out, "module version:  unknown (not in an lspci capture)\n");
	assert_contains(r.out, "kernel release:  unknown (not in an lspci capture)\n");
	assert_contains(r.out, "IOMMU default:   unknown (not in an lspci capture)\n");
	assert_contains(r.out, "IOMMU groups:    unknown (not in an lspci capture)\n");
	snprintf(want, sizeof(want), "PCI functions:   %zu\n", lspci_functions(file));
	assert_contains(r.out, want);
	release(&r);

	r = run("--json", "info", "--lspci", file);
	assert_int_equal(r.rc, PA_EXIT_OK);
	root = parse(r.out);
	info = get(root, "info");
	assert_null(get(info, "module_version"));
	assert_null(get(info, "features"));
	assert_null(get(info, "group_count"));
	assert_int_equal(json_object_get_int(get(info, "device_count")),
			 (int)lspci_functions(file));
	assert_string_equal(get_string(get(root, "unknown"), "group_count"),
			    "not in an lspci capture");
	json_object_put(root);
	release(&r);
}

/* info --lspci on a sosreport: its proc/cmdline's IOMMU and ACS words. */
static void info_sosreport(void **state)
{
	uint8_t config[256] = { 0x86, 0x80, 0x01, 0x34 };
	char cmd[256];
	struct result r;
	FILE *f;

	(void)state;
	snprintf(cmd, sizeof(cmd), "mkdir -p %s %s", tmp_path("sos/proc/bus/pci/00"),
		 tmp_path("sos/sos_commands/pci"));
	assert_int_equal(system(cmd), 0);
	write_tmp("sos/proc/cmdline", "BOOT_IMAGE=/vmlinuz ro quiet amd_iommu=on iommu=pt pci=realloc,noats pcie_acs_override=downstream\n");
	/* sos's kernel plugin: uname -a. */
	write_tmp("sos/uname", "Linux gpu-node-7 5.14.0-362.8.1.el9_3.x86_64 #1 SMP PREEMPT_DYNAMIC Tue Oct 3 11:12:36 EDT 2023 x86_64 x86_64 x86_64 GNU/Linux\n");
	f = fopen(tmp_path("sos/proc/bus/pci/00/00.0"), "w");
	assert_non_null(f);
	assert_int_equal(fwrite(config, 1, sizeof(config), f), sizeof(config));
	fclose(f);
	r = run("info", "--lspci", tmp_path("sos"));
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "source:          sosreport ");
	assert_contains(r.out, "module version:  unknown (not in a sosreport's PCI files)\n");
	assert_contains(r.out, "kernel release:  5.14.0-362.8.1.el9_3.x86_64\n");
	assert_contains(r.out, "PCI functions:   1\n");
	assert_contains(r.out, "IOMMU/ACS boot:  amd_iommu=on iommu=pt pci=realloc,noats pcie_acs_override=downstream\n");
	release(&r);
}

/* monitor follows the module's events: no file holds them. */
static void monitor_refuses_sources(void **state)
{
	(void)state;
	expect_failure(run("monitor", "--lspci", "x"), PA_EXIT_USAGE,
		       "monitor follows the running kernel's events as they happen: it cannot read --lspci");
	expect_failure(run("monitor", "--input=x"), PA_EXIT_USAGE,
		       "it cannot read --input");
	expect_failure(run("monitor", "--sysfs", "/sys"), PA_EXIT_USAGE,
		       "it cannot read --sysfs");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(usage_errors),
		TEST(check_expect),
		TEST(fleet_files),
		TEST(help_and_version),
		TEST(module_not_loaded),
		TEST(family_in_other_netns),
		TEST(family_lookup_out_of_memory),
		TEST(lookup_permission_denied),
		TEST(kernel_permission_denied),
		TEST(kernel_needs_sys_admin),
		TEST(abi_mismatch),
		TEST(report_json),
		TEST(report_text),
		TEST(info_command),
		TEST(info_snapshot),
		TEST(sysfs_copy_without_groups),
		TEST(info_sysfs),
		TEST(info_lspci),
		TEST(info_sosreport),
		TEST(monitor_refuses_sources),
		TEST(report_one_device),
		TEST(no_such_device),
		TEST(dump_restarts_after_hotplug),
		TEST(dump_gives_up),
		TEST(dump_fails_midway),
		TEST(dump_while_unloading),
		TEST(malformed_reply),
		TEST(stale_messages_skipped),
		TEST(ack_without_reply),
		TEST(p2p_text_answer),
		TEST(p2p_config_acs_with_fix),
		TEST(p2p_refused_is_no_error),
		TEST(p2p_json_answer),
		TEST(p2p_no_such_device),
		TEST(p2p_usage),
		TEST(topo_text_matrix),
		TEST(topo_json_matrix),
		TEST(topo_named_devices),
		TEST(topo_all),
		TEST(topo_no_such_device),
		TEST(topo_dump_restarts),
		TEST(report_json_with_pairs),
		TEST(module_without_p2p),
		TEST(p2p_transport),
		TEST(check_exit_codes),
		TEST(check_bad_input),
		TEST(check_usage),
		TEST(check_json),
		TEST(check_output_files),
		TEST(check_rules),
		TEST(check_offline_equals_live),
		TEST(report_host_and_snapshots),
		TEST(check_colour),
		TEST(json_layout),
		TEST(topo_sysfs_and_nccl_xml),
		TEST(pairs_agree_across_commands),
		TEST(exit_code_per_failure_class),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);

	remove_tmp_dir();
	return failed;
}
