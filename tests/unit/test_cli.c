// SPDX-License-Identifier: GPL-2.0
/*
 * main() end to end against a fake kernel: argument parsing, exit codes,
 * error messages, and nl.c's transport. The Makefile links this test with
 * --wrap for the libnl calls that would reach the kernel (see CLI_WRAPS);
 * the replies then run through libnl's real receive path, fed from a queue
 * of datagrams by an nl_cb_overwrite_recv() hook.
 */
#include "testutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>
#include <netlink/errno.h>
#include <netlink/handlers.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>
#include <linux/pcieaudit.h>
#include <linux/pci_regs.h>

#include "exitcodes.h"
#include "nl.h"

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
	uint8_t version;		/* family version in the controller */
	void (*respond)(const struct request *req);
	unsigned int interrupt_dumps;	/* device dumps to flag DUMP_INTR */

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
	nla_put_string(msg, PCIEAUDIT_A_INFO_KERNEL_RELEASE, "6.1.0-fake");
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

/* GENL_ADMIN_PERM refusing an unprivileged caller. */
static void kernel_eperm(const struct request *req)
{
	queue_error(req, -EPERM, NULL);
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

/* ---- libnl replacements (see CLI_WRAPS in the Makefile) ----------------- */

int __wrap_genl_connect(struct nl_sock *sk);
int __wrap_genl_ctrl_resolve(struct nl_sock *sk, const char *name);
int __wrap_genl_ctrl_alloc_cache(struct nl_sock *sk, struct nl_cache **cache);
struct genl_family *__wrap_genl_ctrl_search(struct nl_cache *cache, int id);
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
	return 0;
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
	/* None of these may reach the kernel. */
	assert_int_equal(fake.dos[PCIEAUDIT_CMD_INFO_GET], 0);
}

static void help_and_version(void **state)
{
	struct result r;

	(void)state;
	r = run("--help");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_true(strncmp(r.out, "Usage: pcieaudit-cli", 20) == 0);
	assert_contains(r.out, "  report ");
	assert_contains(r.out, "  info ");
	assert_string_equal(r.err, "");
	release(&r);

	r = run("report", "--help");
	assert_int_equal(r.rc, PA_EXIT_OK);
	assert_contains(r.out, "Usage: pcieaudit-cli report [--json] [BDF]");
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
	assert_int_equal(fake.dos[PCIEAUDIT_CMD_INFO_GET], 0);
}

static void module_not_loaded(void **state)
{
	(void)state;
	fake.resolve_ret = -NLE_OBJ_NOTFOUND;
	expect_failure(run("report"), PA_EXIT_NO_MODULE, "modprobe pcieaudit");
	expect_failure(run("info", "--json"), PA_EXIT_NO_MODULE, "DKMS");
}

static void lookup_permission_denied(void **state)
{
	(void)state;
	fake.resolve_ret = -NLE_PERM;
	expect_failure(run("report"), PA_EXIT_PERMISSION, "CAP_NET_ADMIN");
}

static void kernel_permission_denied(void **state)
{
	(void)state;
	fake.respond = kernel_eperm;
	expect_failure(run("report"), PA_EXIT_PERMISSION,
		       "permission denied for the module info request");
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

#define TEST(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(usage_errors),
		TEST(help_and_version),
		TEST(module_not_loaded),
		TEST(lookup_permission_denied),
		TEST(kernel_permission_denied),
		TEST(abi_mismatch),
		TEST(report_json),
		TEST(report_text),
		TEST(info_command),
		TEST(report_one_device),
		TEST(no_such_device),
		TEST(dump_restarts_after_hotplug),
		TEST(dump_gives_up),
		TEST(dump_fails_midway),
		TEST(malformed_reply),
		TEST(stale_messages_skipped),
		TEST(ack_without_reply),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
