// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's pure parts: --listen parsing, the device series, and one
 * collection on the H200 guest fixture and on a directory without one.
 * tests/exporter/exporter-test.py drives the HTTP side.
 */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <linux/pci_regs.h>

#include "aer.h"
#include "cli.h"
#include "exitcodes.h"
#include "exporter.h"
#include "exporter_collect.h"
#include "listen_addr.h"
#include "metrics.h"
#include "privdrop.h"

#ifndef FIXTURES
#define FIXTURES "../../../shared/fixtures"
#endif

static void listen_parses(void **state)
{
	static const char *const bad[] = {
		"", ":9862", "127.0.0.1", "127.0.0.1:", "127.0.0.1:0",
		"127.0.0.1:65536", "127.0.0.1:-1", "127.0.0.1:80x", "::1:80",
		"[::1]", "[::1]80", "[]:80", "[127.0.0.1]:80", "example.org:80",
		"256.0.0.1:80", "127.0.0.1: 80",
	};
	struct sockaddr_storage ss;
	struct sockaddr_in *in4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	socklen_t len;
	char text[INET6_ADDRSTRLEN];

	(void)state;
	assert_int_equal(pa_listen_parse(PA_LISTEN_DEFAULT, &ss, &len), 0);
	assert_int_equal(ss.ss_family, AF_INET);
	assert_int_equal(in4->sin_addr.s_addr, htonl(INADDR_LOOPBACK));
	assert_int_equal(ntohs(in4->sin_port), 9862);
	assert_int_equal(pa_listen_parse("localhost:1", &ss, &len), 0);
	assert_int_equal(in4->sin_addr.s_addr, htonl(INADDR_LOOPBACK));
	assert_int_equal(pa_listen_parse("0.0.0.0:65535", &ss, &len), 0);
	assert_int_equal(len, sizeof(struct sockaddr_in));
	assert_int_equal(pa_listen_parse("[fe80::1]:9100", &ss, &len), 0);
	assert_int_equal(ss.ss_family, AF_INET6);
	assert_int_equal(len, sizeof(struct sockaddr_in6));
	assert_int_equal(ntohs(in6->sin6_port), 9100);
	inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof(text));
	assert_string_equal(text, "fe80::1");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (pa_listen_parse(bad[i], &ss, &len) != -EINVAL)
			fail_msg("accepted \"%s\"", bad[i]);
}

static int render_devices(FILE *f, const void *arg)
{
	return pa_metrics_devices(f, arg);
}

static void device_series(void **state)
{
	/* LnkCap: 16GT/s x16 with DLLLA reporting; LnkSta: 8GT/s x8, active. */
	static const struct test_dev port = {
		.bus = 0, .devfn = 0x08, .up_bus = -1, .class = 0x060400,
		.pcie_type = PCI_EXP_TYPE_ROOT_PORT, .numa = -1,
		.lnkcap = TEST_LINK(4, 16) | PCI_EXP_LNKCAP_DLLLARC,
		.lnksta = TEST_LINK(3, 8) | PCI_EXP_LNKSTA_DLLLA,
	};
	static const struct test_dev nic = {
		.bus = 1, .devfn = 0, .up_bus = 0, .up_devfn = 0x08,
		.class = 0x020000, .pcie_type = PCI_EXP_TYPE_ENDPOINT,
		.numa = -1, .lnkcap = TEST_LINK(4, 16), .lnksta = TEST_LINK(3, 8),
	};
	struct pa_report rep = { 0 };
	char *text;
	int ret;

	(void)state;
	test_add_dev(&rep, &port);
	test_add_dev(&rep, &nic);
	rep.devices[0].aer = (struct pa_aer){ .state = PA_AER_KNOWN, .cor = 7,
		.has_rootport = true, .rp_cor = 9 };
	pa_aer_set_unknown(&rep.devices[1].aer, "say \"why\"\\");
	assert_int_equal(pa_aer_parse_types(PA_AER_DEV_COR,
					    "RxErr 0\nBadTLP 7\nLane\"Err 0\nTOTAL_ERR_COR 7\n",
					    &rep.devices[0].aer.cor, &rep.devices[0].aer, NULL), 0);
	assert_int_equal(pa_aer_parse_types(PA_AER_DEV_FATAL, "DLP 0\nTOTAL_ERR_FATAL 0\n",
					    &rep.devices[0].aer.fatal, &rep.devices[0].aer, NULL), 0);
	text = test_render(render_devices, &rep, &ret);
	/* By type: every line, zeros too, the name escaped as a label value. */
	assert_non_null(strstr(text, "# TYPE pcieaudit_aer_errors_total counter\n"));
	assert_non_null(strstr(text, "pcieaudit_aer_errors_total{bdf=\"0000:00:01.0\",severity=\"correctable\",type=\"RxErr\"} 0\n"));
	assert_non_null(strstr(text, "pcieaudit_aer_errors_total{bdf=\"0000:00:01.0\",severity=\"correctable\",type=\"BadTLP\"} 7\n"));
	assert_non_null(strstr(text, "pcieaudit_aer_errors_total{bdf=\"0000:00:01.0\",severity=\"correctable\",type=\"Lane\\\"Err\"} 0\n"));
	assert_non_null(strstr(text, "pcieaudit_aer_errors_total{bdf=\"0000:00:01.0\",severity=\"fatal\",type=\"DLP\"} 0\n"));
	assert_null(strstr(text, "type=\"TOTAL_ERR_COR\""));
	assert_non_null(strstr(text, "pcieaudit_aer_unknown_types{bdf=\"0000:00:01.0\"} 1\n"));
	assert_null(strstr(text, "pcieaudit_aer_errors_total{bdf=\"0000:01:00.0\""));
	assert_int_equal(ret, 0);
	assert_non_null(strstr(text, "pcieaudit_link_speed_gts{bdf=\"0000:00:01.0\"} 8\n"));
	assert_non_null(strstr(text, "pcieaudit_link_width{bdf=\"0000:01:00.0\"} 8\n"));
	assert_non_null(strstr(text, "pcieaudit_link_max_speed_gts{bdf=\"0000:01:00.0\"} 16\n"));
	assert_non_null(strstr(text, "pcieaudit_link_max_width{bdf=\"0000:00:01.0\"} 16\n"));
	/* DLLLA only where LnkCap reports it. */
	assert_non_null(strstr(text, "pcieaudit_link_active{bdf=\"0000:00:01.0\"} 1\n"));
	assert_null(strstr(text, "pcieaudit_link_active{bdf=\"0000:01:00.0\"}"));
	assert_non_null(strstr(text, "pcieaudit_aer_correctable_errors_total{bdf=\"0000:00:01.0\"} 7\n"));
	assert_non_null(strstr(text, "pcieaudit_aer_rootport_errors_total{bdf=\"0000:00:01.0\",severity=\"correctable\"} 9\n"));
	/* Unknown counters: no sample that reads as 0, a reason instead. */
	assert_null(strstr(text, "pcieaudit_aer_correctable_errors_total{bdf=\"0000:01:00.0\"}"));
	assert_non_null(strstr(text, "pcieaudit_aer_unknown{bdf=\"0000:01:00.0\",reason=\"say \\\"why\\\"\\\\\"} 1\n"));
	assert_non_null(strstr(text, "# TYPE pcieaudit_aer_fatal_errors_total counter\n"));
	free(text);
	pa_report_clear(&rep);
}

static void collects(void **state)
{
	struct pa_exporter_opts o = { .sysfs = FIXTURES "/h200-vm-guest" };
	char msg[512];
	size_t len;
	char *body;
	int up;

	(void)state;
	if (!test_have_guest())
		skip();
	body = pa_exporter_collect(&o, &len, &up, msg, sizeof(msg));
	assert_non_null(body);
	assert_int_equal(strlen(body), len);
	assert_int_equal(up, 1);
	assert_string_equal(msg, "");
	assert_non_null(strstr(body, "pcieaudit_link_speed_gts{"));
	assert_non_null(strstr(body, "\npcieaudit_check_status "));
	/* The collection's own series are the scrape's, not the body's. */
	assert_null(strstr(body, "pcieaudit_up"));
	free(body);

	o.sysfs = "/nonexistent-pcieaudit";
	body = pa_exporter_collect(&o, &len, &up, msg, sizeof(msg));
	assert_non_null(body);
	assert_int_equal(up, 0);
	assert_null(strstr(body, "pcieaudit_link_"));
	assert_non_null(strstr(msg, "no PCI functions under /nonexistent-pcieaudit"));
	free(body);
}

/* --expect: the expect profile's findings in every collection. */
static void collects_expect(void **state)
{
	struct pa_exporter_opts o = { .input = SNAPSHOTS "/gpudirect-lost-gpu.json" };
	struct pa_cli_expect x = { 0 };
	struct pa_error e = { 0 };
	char msg[512];
	size_t len;
	char *body;
	int up;

	(void)state;
	body = pa_exporter_collect(&o, &len, &up, msg, sizeof(msg));
	assert_non_null(body);
	assert_null(strstr(body, "expect."));
	free(body);
	assert_int_equal(pa_cli_read_expect(SNAPSHOTS "/gpudirect-fail.json", &x, &e), PA_EXIT_OK);
	o.expect = &x.ex;
	body = pa_exporter_collect(&o, &len, &up, msg, sizeof(msg));
	assert_non_null(body);
	assert_int_equal(up, 1);
	assert_non_null(strstr(body, "pcieaudit_finding{id=\"expect.device-missing\",profile=\"expect\",severity=\"fail\",devices=\"0000:80:01.0\"} 1\n"));
	assert_non_null(strstr(body, "pcieaudit_finding{id=\"expect.link-below\",profile=\"expect\",severity=\"fail\",devices=\"0000:04:00.0\"} 1\n"));
	free(body);
	pa_cli_clear_expect(&x);
	/* A file that cannot be read is refused before any server starts. */
	assert_int_equal(pa_cli_read_expect("/nonexistent-pcieaudit.json", &x, &e), PA_EXIT_BAD_INPUT);
	pa_cli_clear_expect(&x);
}

static int render_collector(FILE *f, const void *arg)
{
	return pa_metrics_collector(f, arg);
}

static void collector_series(void **state)
{
	static const struct pa_collect_stats st = {
		.up = 1, .timestamp = 1796130000.25, .duration = 0.0125,
		.total = { [PA_COLLECT_START] = 1, [PA_COLLECT_INTERVAL] = 41,
			   [PA_COLLECT_EVENT] = 3 },
		.errors = 2,
	};
	char *text;
	int ret;

	(void)state;
	text = test_render(render_collector, &st, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(text, "\npcieaudit_up 1\n"));
	assert_non_null(strstr(text, "\npcieaudit_collect_timestamp_seconds 1796130000.250\n"));
	assert_non_null(strstr(text, "\npcieaudit_collect_duration_seconds 0.012500\n"));
	assert_non_null(strstr(text, "\npcieaudit_collections_total{trigger=\"start\"} 1\n"));
	assert_non_null(strstr(text, "\npcieaudit_collections_total{trigger=\"interval\"} 41\n"));
	assert_non_null(strstr(text, "\npcieaudit_collections_total{trigger=\"event\"} 3\n"));
	assert_non_null(strstr(text, "# TYPE pcieaudit_collect_errors_total counter\n"));
	assert_non_null(strstr(text, "\npcieaudit_collect_errors_total 2\n"));
	free(text);
}

/* Bodies come from memory: many of them, one collection (the first). */
static void serves_without_collecting(void **state)
{
	struct pa_exporter_opts o = { .sysfs = FIXTURES "/h200-vm-guest",
				      .interval_s = 3600 };
	struct pa_collector *c;
	char *first, *body;
	size_t len;

	(void)state;
	if (!test_have_guest())
		skip();
	assert_int_equal(pa_collector_start(&c, &o), 0);
	first = pa_collector_body(c, &len);
	assert_non_null(first);
	assert_int_equal(strlen(first), len);
	assert_non_null(strstr(first, "pcieaudit_link_speed_gts{"));
	assert_non_null(strstr(first, "\npcieaudit_up 1\n"));
	assert_non_null(strstr(first, "\npcieaudit_collections_total{trigger=\"start\"} 1\n"));
	assert_non_null(strstr(first, "\npcieaudit_collections_total{trigger=\"interval\"} 0\n"));
	for (int i = 0; i < 20; i++) {
		body = pa_collector_body(c, &len);
		assert_non_null(body);
		assert_string_equal(body, first);
		free(body);
	}
	free(first);
	pa_collector_stop(c);
}

static void interval_parses(void **state)
{
	static const char *const bad[] = { "", "0", "0.05", "-1", "nan", "inf",
					   "86401", "1s", "1e9", " 1" };
	double v;

	(void)state;
	assert_int_equal(pa_exporter_parse_interval("10", &v), 0);
	assert_true(v == 10.0);
	assert_int_equal(pa_exporter_parse_interval("0.5", &v), 0);
	assert_true(v == 0.5);
	assert_int_equal(pa_exporter_parse_interval("86400", &v), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (pa_exporter_parse_interval(bad[i], &v) != -EINVAL)
			fail_msg("accepted \"%s\"", bad[i]);
}

/* sd_listen_fds(3)'s protocol, with fd 3 a socket, a pipe, or another
 * process's (LISTEN_PID not ours). */
static void listen_fd_from_systemd(void **state)
{
	int saved = fcntl(3, F_GETFD) == -1 ? -1 : fcntl(3, F_DUPFD_CLOEXEC, 10);
	char pid[32];
	int p[2], s;

	(void)state;
	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	assert_int_equal(pa_exporter_listen_fd(), -1);

	s = socket(AF_INET, SOCK_STREAM, 0);
	assert_int_equal(dup2(s, 3), 3);
	if (s != 3)
		close(s);
	setenv("LISTEN_PID", "1", 1);
	setenv("LISTEN_FDS", "1", 1);
	assert_int_equal(pa_exporter_listen_fd(), -1);	/* pid 1's fds */
	setenv("LISTEN_PID", pid, 1);
	setenv("LISTEN_FDS", "0", 1);
	assert_int_equal(pa_exporter_listen_fd(), -1);
	assert_null(getenv("LISTEN_PID"));
	setenv("LISTEN_PID", pid, 1);
	setenv("LISTEN_FDS", "1", 1);
	setenv("LISTEN_FDNAMES", "pcieaudit-exporter.socket", 1);
	assert_int_equal(pa_exporter_listen_fd(), 3);
	assert_null(getenv("LISTEN_PID"));
	assert_null(getenv("LISTEN_FDS"));
	assert_null(getenv("LISTEN_FDNAMES"));
	assert_true(fcntl(3, F_GETFD) & FD_CLOEXEC);

	assert_int_equal(pipe(p), 0);
	assert_int_equal(dup2(p[0], 3), 3);
	if (p[0] != 3)
		close(p[0]);
	close(p[1]);
	setenv("LISTEN_PID", pid, 1);
	setenv("LISTEN_FDS", "1", 1);
	assert_int_equal(pa_exporter_listen_fd(), -2);	/* not a socket */
	close(3);
	if (saved >= 0) {
		dup2(saved, 3);
		close(saved);
	}
}

/* --user's plan: who the exporter becomes, from what it started as. */
static void privdrop_plans(void **state)
{
	struct pa_privdrop p;
	char why[512];

	(void)state;
	/* Root: nobody by default, another identity and no capability. */
	assert_int_equal(pa_privdrop_plan(0, NULL, false, &p, why, sizeof(why)), 0);
	assert_true(p.drop && p.setid);
	assert_int_equal(p.uid, 65534);
	assert_string_equal(p.name, "nobody");
	/* --user root keeps root. */
	assert_int_equal(pa_privdrop_plan(0, "root", false, &p, why, sizeof(why)), 0);
	assert_false(p.drop || p.setid);
	/* Another user: stays, without capabilities; cannot become another. */
	assert_int_equal(pa_privdrop_plan(1000, NULL, false, &p, why, sizeof(why)), 0);
	assert_true(p.drop);
	assert_false(p.setid);
	assert_int_equal(pa_privdrop_plan(1000, "nobody", false, &p, why, sizeof(why)),
			 PA_EXIT_USAGE);
	assert_non_null(strstr(why, "only root can become another user"));
	assert_int_equal(pa_privdrop_plan(65534, "nobody", false, &p, why, sizeof(why)), 0);
	assert_true(p.drop && !p.setid);
	/* --sysfs needs root past 64 bytes: nothing dropped, --user refused. */
	assert_int_equal(pa_privdrop_plan(0, NULL, true, &p, why, sizeof(why)), 0);
	assert_false(p.drop || p.setid);
	assert_int_equal(pa_privdrop_plan(0, "nobody", true, &p, why, sizeof(why)),
			 PA_EXIT_USAGE);
	assert_non_null(strstr(why, "64 bytes"));
	assert_int_equal(pa_privdrop_plan(0, "no-such-user-pcieaudit", false, &p, why,
					  sizeof(why)), PA_EXIT_USAGE);
	assert_non_null(strstr(why, "no-such-user-pcieaudit"));
}

/* The value of a /proc/self/status line ("CapEff:"), or NULL. */
static char *status_line(const char *key, char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/status", "r");
	char *v = NULL;

	while (f && !v && fgets(buf, (int)len, f))
		if (!strncmp(buf, key, strlen(key)))
			v = buf + strlen(key) + strspn(buf + strlen(key), " \t");
	if (f)
		fclose(f);
	return v;
}

/*
 * The drop itself, in a child (it cannot be undone), where the tests run
 * as root: the kernel's /proc view afterwards, not the drop's own check.
 */
static void privdrop_applies(void **state)
{
	static const char *const zero[] = { "CapInh:", "CapPrm:", "CapEff:",
					    "CapBnd:", "CapAmb:" };
	int status;
	pid_t pid;

	(void)state;
	if (geteuid() != 0)
		skip();
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct pa_privdrop p;
		char why[512], line[256], *v;
		int bad = 0;

		if (pa_privdrop_plan(0, NULL, false, &p, why, sizeof(why)) ||
		    pa_privdrop_apply(&p, why, sizeof(why)))
			_exit(10);
		for (size_t i = 0; i < sizeof(zero) / sizeof(zero[0]); i++) {
			v = status_line(zero[i], line, sizeof(line));
			bad |= !v || strncmp(v, "0000000000000000", 16);
		}
		v = status_line("NoNewPrivs:", line, sizeof(line));
		bad |= !v || *v != '1';
		v = status_line("Uid:", line, sizeof(line));
		bad |= !v || strncmp(v, "65534\t65534\t65534\t65534", 23);
		v = status_line("Groups:", line, sizeof(line));
		bad |= !v || (*v != '\n' && *v != '\0');
		bad |= !setuid(0) || !seteuid(0);
		_exit(bad ? 11 : 0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(listen_parses),
		cmocka_unit_test(device_series),
		cmocka_unit_test(collects),
		cmocka_unit_test(collects_expect),
		cmocka_unit_test(collector_series),
		cmocka_unit_test(serves_without_collecting),
		cmocka_unit_test(interval_parses),
		cmocka_unit_test(listen_fd_from_systemd),
		cmocka_unit_test(privdrop_plans),
		cmocka_unit_test(privdrop_applies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
