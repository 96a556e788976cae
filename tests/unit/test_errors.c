// SPDX-License-Identifier: GPL-2.0
/* BDF parsing, errno to exit code mapping, error messages, libnl errors. */
#include "testutil.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/errno.h>

#include "bdf.h"
#include "errors.h"
#include "exitcodes.h"
#include "nl.h"

static void bdf_good(void **state)
{
	static const struct {
		const char *text;
		struct pa_addr addr;
		const char *canonical;
	} cases[] = {
		{ "0000:04:00.0", { 0, 0x04, 0x00 }, "0000:04:00.0" },
		{ "04:00.1", { 0, 0x04, 0x01 }, "0000:04:00.1" },
		{ "abcd:EF:1f.7", { 0xabcd, 0xef, 0xff }, "abcd:ef:1f.7" },
		{ "10000:e1:00.0", { 0x10000, 0xe1, 0x00 }, "10000:e1:00.0" },
		{ "0:0:1.2", { 0, 0, 0x0a }, "0000:00:01.2" },
		{ "ffffffff:ff:1f.7", { 0xffffffff, 0xff, 0xff }, "ffffffff:ff:1f.7" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pa_addr addr;
		char buf[PA_BDF_LEN];

		assert_int_equal(pa_bdf_parse(cases[i].text, &addr), 0);
		assert_int_equal(addr.domain, cases[i].addr.domain);
		assert_int_equal(addr.bus, cases[i].addr.bus);
		assert_int_equal(addr.devfn, cases[i].addr.devfn);
		pa_bdf_format(&addr, buf);
		assert_string_equal(buf, cases[i].canonical);
	}
}

static void bdf_bad(void **state)
{
	static const char *const bad[] = {
		"", "04", "04:00", "04:00.", "04:00.8", "04:20.0", "004:00.0",
		"04:000.0", "04:00.00", "0000:04:00.0x", " 04:00.0", "04:00.0 ",
		"+4:00.0", "0x4:00.0", "-1:00.0", "04::00.0", "g4:00.0",
		"0000:04:00:0", "123456789:00:00.0", "0000:0000:04:00.0",
		":04:00.0", "04.00.0", "04:00.\x01",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pa_addr addr = { 1, 2, 3 };

		if (pa_bdf_parse(bad[i], &addr) != -EINVAL)
			fail_msg("accepted \"%s\"", bad[i]);
		assert_int_equal(addr.domain, 1);	/* untouched */
	}
}

static void exit_codes(void **state)
{
	(void)state;
	assert_int_equal(pa_exit_code(0), PA_EXIT_OK);
	assert_int_equal(pa_exit_code(-ENOENT), PA_EXIT_NO_MODULE);
	assert_int_equal(pa_exit_code(-EPERM), PA_EXIT_PERMISSION);
	assert_int_equal(pa_exit_code(-EACCES), PA_EXIT_PERMISSION);
	assert_int_equal(pa_exit_code(-EPROTONOSUPPORT), PA_EXIT_ABI);
	assert_int_equal(pa_exit_code(-ENODEV), PA_EXIT_NO_DEVICE);
	assert_int_equal(pa_exit_code(-EBADMSG), PA_EXIT_RUNTIME);
	assert_int_equal(pa_exit_code(-EINVAL), PA_EXIT_RUNTIME);
	assert_int_equal(pa_exit_code(-ENOMEM), PA_EXIT_RUNTIME);
	assert_int_equal(pa_exit_code(-EINTR), PA_EXIT_RUNTIME);
	/* The numbers themselves are an interface. */
	assert_int_equal(PA_EXIT_FINDING, 1);
	assert_int_equal(PA_EXIT_USAGE, 2);
	assert_int_equal(PA_EXIT_RUNTIME, 3);
	assert_int_equal(PA_EXIT_NO_MODULE, 4);
	assert_int_equal(PA_EXIT_PERMISSION, 5);
	assert_int_equal(PA_EXIT_ABI, 6);
	assert_int_equal(PA_EXIT_NO_DEVICE, 7);
}

/* The one error type: its exit code is the documented one for each way it
 * is made, and it prints as one prefixed line. */
static void error_channel(void **state)
{
	static const struct {
		int err;
		int exit;
	} by_errno[] = {
		{ -ENOENT, PA_EXIT_NO_MODULE }, { -EPERM, PA_EXIT_PERMISSION },
		{ -EACCES, PA_EXIT_PERMISSION }, { -EPROTONOSUPPORT, PA_EXIT_ABI },
		{ -ENODEV, PA_EXIT_NO_DEVICE }, { -EBADMSG, PA_EXIT_RUNTIME },
		{ -ENOMEM, PA_EXIT_RUNTIME }, { -EINTR, PA_EXIT_RUNTIME },
	};
	struct pa_errinfo ei = { .op = "device dump" };
	struct pa_error e;
	char line[1200];

	(void)state;
	for (size_t i = 0; i < sizeof(by_errno) / sizeof(by_errno[0]); i++) {
		assert_int_equal(pa_error_errno(&e, by_errno[i].err, &ei),
				 by_errno[i].exit);
		assert_int_equal(e.exit, by_errno[i].exit);
		assert_string_equal(e.hint, "");
	}
	assert_int_equal(pa_error_usage(&e, "unknown command '%s'", "x"),
			 PA_EXIT_USAGE);
	pa_error_format(&e, line, sizeof(line));
	assert_string_equal(line, "pcieaudit-cli: unknown command 'x' (see 'pcieaudit-cli --help')\n");
	assert_int_equal(pa_error_set(&e, PA_EXIT_BAD_INPUT, "%s: bad", "p.yaml"),
			 PA_EXIT_BAD_INPUT);
	pa_error_format(&e, line, sizeof(line));
	assert_string_equal(line, "pcieaudit-cli: p.yaml: bad\n");
	/* The kernel's reason stays in the message, as pa_print_error() has it. */
	snprintf(ei.kernel_msg, sizeof(ei.kernel_msg), "needs CAP_SYS_ADMIN");
	pa_error_errno(&e, -EPERM, &ei);
	pa_error_format(&e, line, sizeof(line));
	assert_string_equal(line, "pcieaudit-cli: permission denied for the device dump: run as root, or with CAP_SYS_ADMIN and CAP_NET_ADMIN (kernel: needs CAP_SYS_ADMIN)\n");
	assert_int_equal(PA_EXIT_WARNINGS, 8);
	assert_int_equal(PA_EXIT_BAD_INPUT, 9);
}

struct error_case {
	int err;
	const struct pa_errinfo *ei;
};

static int render_error(FILE *f, const void *arg)
{
	const struct error_case *e = arg;

	pa_print_error(f, e->err, e->ei);
	return 0;
}

/* The message for err, checked to be exactly one prefixed line. */
static char *message(int err, const struct pa_errinfo *ei)
{
	const struct error_case arg = { err, ei };
	char *text;
	int ret;

	text = test_render(render_error, &arg, &ret);
	assert_true(strncmp(text, "pcieaudit-cli: ", 15) == 0);
	assert_non_null(strchr(text, '\n'));
	assert_int_equal(strchr(text, '\n')[1], '\0');
	return text;
}

static void assert_contains(char *text, const char *part)
{
	if (!strstr(text, part))
		fail_msg("\"%s\" lacks \"%s\"", text, part);
}

static void messages(void **state)
{
	struct pa_errinfo ei = { .op = "device dump" };
	char *text;

	(void)state;
	text = message(-ENOENT, &ei);
	assert_contains(text, "not loaded");
	assert_contains(text, "modprobe pcieaudit");
	assert_contains(text, "DKMS");
	assert_contains(text, "docs/install.md");
	free(text);

	/* Loaded, but asked from another network namespace: say so. */
	ei.other_netns = 1;
	text = message(-ENOENT, &ei);
	assert_contains(text, "module is loaded");
	assert_contains(text, "not reachable from this network namespace");
	assert_contains(text, "initial network namespace");
	if (strstr(text, "not loaded"))
		fail_msg("\"%s\" claims the module is not loaded", text);
	free(text);
	ei.other_netns = 0;

	text = message(-EPERM, &ei);
	assert_contains(text, "permission denied for the device dump");
	assert_contains(text, "root");
	/* The module needs both; CAP_NET_ADMIN alone is refused. */
	assert_contains(text, "CAP_SYS_ADMIN and CAP_NET_ADMIN");
	free(text);

	ei.kernel_version = 2;
	text = message(-EPROTONOSUPPORT, &ei);
	assert_contains(text, "family version 2");
	assert_contains(text, "speaks version 1");
	free(text);

	text = message(-EBADMSG, &ei);
	assert_contains(text, "malformed reply");
	free(text);

	text = message(-EINTR, &ei);
	assert_contains(text, "during the device dump; try again");
	free(text);

	text = message(-EINVAL, &ei);
	assert_string_equal(text, "pcieaudit-cli: device dump failed: Invalid argument\n");
	free(text);
}

static void no_such_device_names_bdf(void **state)
{
	struct pa_errinfo ei = { .op = "device request", .bdf = "0000:99:00.0" };
	char *text;

	(void)state;
	strcpy(ei.kernel_msg, "no PCI function at this address");
	text = message(-ENODEV, &ei);
	assert_string_equal(text, "pcieaudit-cli: no such PCI device: 0000:99:00.0"
			    " (kernel: no PCI function at this address)\n");
	free(text);
}

static void nle_to_errno(void **state)
{
	(void)state;
	assert_int_equal(pa_nl_errno(0), 0);
	assert_int_equal(pa_nl_errno(-NLE_OBJ_NOTFOUND), -ENOENT);
	assert_int_equal(pa_nl_errno(-NLE_PERM), -EPERM);
	assert_int_equal(pa_nl_errno(-NLE_NOACCESS), -EACCES);
	assert_int_equal(pa_nl_errno(-NLE_NODEV), -ENODEV);
	assert_int_equal(pa_nl_errno(-NLE_NOMEM), -ENOMEM);
	assert_int_equal(pa_nl_errno(-NLE_DUMP_INTR), -EINTR);
	assert_int_equal(pa_nl_errno(-NLE_MSG_TRUNC), -EBADMSG);
	/* Must not read as an ABI mismatch. */
	assert_int_equal(pa_nl_errno(-NLE_PROTO_MISMATCH), -EPROTO);
	assert_int_equal(pa_nl_errno(-NLE_FAILURE), -EIO);
	assert_int_equal(pa_nl_errno(-9999), -EIO);
	/* libnl is not consistent about the sign. */
	assert_int_equal(pa_nl_errno(NLE_PERM), -EPERM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bdf_good),
		cmocka_unit_test(bdf_bad),
		cmocka_unit_test(exit_codes),
		cmocka_unit_test(error_channel),
		cmocka_unit_test(messages),
		cmocka_unit_test(no_such_device_names_bdf),
		cmocka_unit_test(nle_to_errno),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
