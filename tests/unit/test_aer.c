// SPDX-License-Identifier: GPL-2.0
/*
 * AER counters: parsing the text drivers/pci/pcie/aer.c writes (copied
 * here as the kernel's aer_stats_attrs print it, not produced by our
 * code), reading a fake sysfs tree, the JSON round trip and the
 * baseline.aer-rising rule over two observations.
 */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/pci_regs.h>

#include "aer.h"
#include "aer_json.h"
#include "aer_read.h"
#include "check.h"
#include "policy.h"

/* As the kernel's aer_stats_dev_attr() prints them (6.1 names). */
static const char kernel_cor[] =
	"RxErr 2\nBadTLP 5\nBadDLLP 1\nRollover 0\nTimeout 3\n"
	"NonFatalErr 0\nCorrIntErr 0\nHeaderOF 0\nTOTAL_ERR_COR 11\n";
static const char kernel_nonfatal[] =
	"Undefined 0\nDLP 0\nSDES 0\nTLP 0\nFCP 0\nCmpltTO 4\nCmpltAbrt 0\n"
	"UnxCmplt 0\nRxOF 0\nMalfTLP 0\nECRC 0\nUnsupReq 0\nACSViol 0\n"
	"UncorrIntErr 0\nBlockedTLP 0\nAtomicOpBlocked 0\nTLPBlockedErr 0\n"
	"PoisonTLPBlocked 0\nTOTAL_ERR_NONFATAL 4\n";
static const char kernel_fatal[] =
	"Undefined 0\nDLP 1\nSDES 0\nTLP 0\nFCP 0\nCmpltTO 0\nCmpltAbrt 0\n"
	"UnxCmplt 0\nRxOF 0\nMalfTLP 0\nECRC 0\nUnsupReq 0\nACSViol 0\n"
	"UncorrIntErr 0\nBlockedTLP 0\nAtomicOpBlocked 0\nTLPBlockedErr 0\n"
	"PoisonTLPBlocked 0\nTOTAL_ERR_FATAL 1\n";

static void parses_kernel_text(void **state)
{
	uint64_t v = 99;

	(void)state;
	assert_int_equal(pa_aer_parse(PA_AER_DEV_COR, kernel_cor, &v), 0);
	assert_int_equal(v, 11);
	assert_int_equal(pa_aer_parse(PA_AER_DEV_NONFATAL, kernel_nonfatal, &v), 0);
	assert_int_equal(v, 4);
	assert_int_equal(pa_aer_parse(PA_AER_DEV_FATAL, kernel_fatal, &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(pa_aer_parse(PA_AER_RP_COR, "12\n", &v), 0);
	assert_int_equal(v, 12);
	/* Without the total line (not seen in any kernel, but cheap): sums. */
	assert_int_equal(pa_aer_parse(PA_AER_DEV_COR, "RxErr 2\nBadTLP 5\n", &v), 0);
	assert_int_equal(v, 7);
	/* The total is the kernel's own, even where the lines disagree. */
	assert_int_equal(pa_aer_parse(PA_AER_DEV_COR, "RxErr 2\nTOTAL_ERR_COR 9\n", &v), 0);
	assert_int_equal(v, 9);
}

static void rejects_malformed(void **state)
{
	static const char *const bad[] = {
		"", "\n", "RxErr\n", "RxErr x\n", "RxErr 1 2\n", "12\n",
		"RxErr -1\n", "RxErr 99999999999999999999999\n",
		"RxErr 18446744073709551615\nBadTLP 1\n",
	};
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (pa_aer_parse(PA_AER_DEV_COR, bad[i], &v) != -EINVAL)
			fail_msg("accepted \"%s\"", bad[i]);
	assert_int_equal(pa_aer_parse(PA_AER_RP_COR, "", &v), -EINVAL);
	assert_int_equal(pa_aer_parse(PA_AER_RP_COR, "1 2\n", &v), -EINVAL);
	assert_int_equal(pa_aer_parse(PA_AER_RP_COR, "x\n", &v), -EINVAL);
	assert_int_equal(pa_aer_parse(PA_AER_NFILES, "1\n", &v), -EINVAL);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void make_dir(char *out, size_t len, const char *root, const char *bdf)
{
	snprintf(out, len, "%s/devices", root);
	mkdir(out, 0755);
	snprintf(out, len, "%s/devices/%s", root, bdf);
	assert_int_equal(mkdir(out, 0755), 0);
}

/* A root port with counters, an endpoint with them, one without (no AER
 * capability), one with garbage, one not readable, a conventional one. */
static void reads_fake_sysfs(void **state)
{
	static const struct test_dev devs[] = {
		{ .bus = 0, .devfn = 0x08, .up_bus = -1, .class = 0x060400,
		  .pcie_type = PCI_EXP_TYPE_ROOT_PORT, .numa = -1 },
		{ .bus = 1, .devfn = 0x00, .up_bus = 0, .up_devfn = 0x08,
		  .class = 0x030200, .pcie_type = PCI_EXP_TYPE_ENDPOINT, .numa = -1 },
		{ .bus = 1, .devfn = 0x01, .up_bus = 0, .up_devfn = 0x08,
		  .class = 0x040300, .pcie_type = PCI_EXP_TYPE_ENDPOINT, .numa = -1 },
		{ .bus = 1, .devfn = 0x02, .up_bus = 0, .up_devfn = 0x08,
		  .class = 0x020000, .pcie_type = PCI_EXP_TYPE_ENDPOINT, .numa = -1 },
		{ .bus = 1, .devfn = 0x03, .up_bus = 0, .up_devfn = 0x08,
		  .class = 0x020000, .pcie_type = PCI_EXP_TYPE_ENDPOINT, .numa = -1 },
		{ .bus = 0, .devfn = 0x10, .up_bus = -1, .class = 0x060100,
		  .pcie_type = -1, .numa = -1 },
	};
	struct pa_report rep = { 0 };
	char root[] = "/tmp/pa-aer-XXXXXX", dir[512], cmd[600];
	char buf[256];

	(void)state;
	for (size_t i = 0; i < sizeof(devs) / sizeof(devs[0]); i++)
		test_add_dev(&rep, &devs[i]);
	assert_non_null(mkdtemp(root));
	make_dir(dir, sizeof(dir), root, "0000:00:01.0");
	put(dir, "aer_dev_correctable", kernel_cor);
	put(dir, "aer_dev_nonfatal", kernel_nonfatal);
	put(dir, "aer_dev_fatal", kernel_fatal);
	put(dir, "aer_rootport_total_err_cor", "20\n");
	put(dir, "aer_rootport_total_err_nonfatal", "3\n");
	put(dir, "aer_rootport_total_err_fatal", "0\n");
	make_dir(dir, sizeof(dir), root, "0000:01:00.0");
	put(dir, "aer_dev_correctable", kernel_cor);
	put(dir, "aer_dev_nonfatal", kernel_nonfatal);
	put(dir, "aer_dev_fatal", kernel_fatal);
	make_dir(dir, sizeof(dir), root, "0000:01:00.1");
	make_dir(dir, sizeof(dir), root, "0000:01:00.2");
	put(dir, "aer_dev_correctable", kernel_cor);
	put(dir, "aer_dev_nonfatal", "garbage");
	put(dir, "aer_dev_fatal", kernel_fatal);
	/* 01:00.3 has no directory at all. */

	pa_aer_read(root, &rep);

	assert_int_equal(rep.devices[0].aer.state, PA_AER_KNOWN);
	assert_true(rep.devices[0].aer.has_rootport);
	assert_int_equal(rep.devices[0].aer.rp_cor, 20);
	assert_int_equal(rep.devices[0].aer.rp_nonfatal, 3);
	assert_int_equal(rep.devices[1].aer.state, PA_AER_KNOWN);
	assert_false(rep.devices[1].aer.has_rootport);
	assert_int_equal(rep.devices[1].aer.cor, 11);
	assert_int_equal(rep.devices[1].aer.nonfatal, 4);
	assert_int_equal(rep.devices[1].aer.fatal, 1);
	pa_aer_format(&rep.devices[1].aer, buf, sizeof(buf));
	assert_string_equal(buf, "correctable 11, nonfatal 4, fatal 1");
	assert_int_equal(rep.devices[2].aer.state, PA_AER_UNKNOWN);
	assert_non_null(strstr(rep.devices[2].aer.reason, "no aer_dev_correctable"));
	assert_int_equal(rep.devices[3].aer.state, PA_AER_UNKNOWN);
	assert_string_equal(rep.devices[3].aer.reason,
			    "aer_dev_nonfatal: unexpected contents");
	assert_int_equal(rep.devices[4].aer.state, PA_AER_UNKNOWN);
	assert_non_null(strstr(rep.devices[4].aer.reason, "no sysfs directory"));
	/* Conventional PCI has no AER: not read, not unknown. */
	assert_int_equal(rep.devices[5].aer.state, PA_AER_NOT_READ);
	pa_aer_format(&rep.devices[2].aer, buf, sizeof(buf));
	assert_true(!strncmp(buf, "unknown (no aer_dev_correctable", 31));

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	pa_report_clear(&rep);
}

static void json_round_trip(void **state)
{
	const struct pa_aer cases[] = {
		{ .state = PA_AER_KNOWN, .cor = 1, .nonfatal = 2, .fatal = 3 },
		{ .state = PA_AER_KNOWN, .cor = 1ull << 40, .has_rootport = true,
		  .rp_cor = 7, .rp_nonfatal = 8, .rp_fatal = 9 },
		{ .state = PA_AER_UNKNOWN, .reason = "no aer_dev_correctable" },
	};
	const char *problem = NULL;
	struct pa_aer back;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_object *o = pa_aer_json(&cases[i]);
		json_object *p = json_tokener_parse(json_object_to_json_string(o));

		assert_int_equal(pa_aer_json_parse(p, &back, &problem), 0);
		assert_memory_equal(&back, &cases[i], sizeof(back));
		json_object_put(o);
		json_object_put(p);
	}
	assert_null(pa_aer_json(&(struct pa_aer){ 0 }));
	assert_int_equal(pa_aer_json_parse(NULL, &back, &problem), 0);
	assert_int_equal(back.state, PA_AER_NOT_READ);
}

static void json_rejects(void **state)
{
	static const struct {
		const char *json, *problem;
	} bad[] = {
		{ "[]", "aer: expected an object or null" },
		{ "{}", "aer.state: expected \"known\" or \"unknown\"" },
		{ "{\"state\":\"maybe\"}", "aer.state: expected \"known\" or \"unknown\"" },
		{ "{\"state\":\"unknown\"}", "aer.reason: expected a string" },
		{ "{\"state\":\"known\",\"correctable\":-1,\"nonfatal\":0,\"fatal\":0}",
		  "aer.correctable: expected a count" },
		{ "{\"state\":\"known\",\"correctable\":1,\"nonfatal\":\"0\",\"fatal\":0}",
		  "aer.nonfatal: expected a count" },
		{ "{\"state\":\"known\",\"correctable\":1,\"nonfatal\":0,\"fatal\":0,\"rootport\":1}",
		  "aer.rootport: expected an object or null" },
		{ "{\"state\":\"known\",\"correctable\":1,\"nonfatal\":0,\"fatal\":0,\"rootport\":{\"correctable\":1,\"nonfatal\":0}}",
		  "aer.rootport.fatal: expected a count" },
	};
	struct pa_aer back;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_object *v = json_tokener_parse(bad[i].json);
		const char *problem = NULL;

		assert_non_null(v);
		assert_int_equal(pa_aer_json_parse(v, &back, &problem), -EINVAL);
		assert_string_equal(problem, bad[i].problem);
		json_object_put(v);
	}
}

static const struct test_dev gpu = {
	.bus = 1, .devfn = 0, .up_bus = -1, .class = 0x030200,
	.pcie_type = PCI_EXP_TYPE_ENDPOINT, .numa = -1,
};
static const struct test_dev nic = {
	.bus = 2, .devfn = 0, .up_bus = -1, .class = 0x020000,
	.pcie_type = PCI_EXP_TYPE_ENDPOINT, .numa = -1,
};

static void observe(struct pa_report *rep, uint64_t gpu_cor, uint64_t nic_cor)
{
	*rep = (struct pa_report){ 0 };
	test_add_dev(rep, &gpu);
	test_add_dev(rep, &nic);
	pa_report_sort(rep);
	rep->devices[0].aer = (struct pa_aer){ .state = PA_AER_KNOWN, .cor = gpu_cor };
	rep->devices[1].aer = (struct pa_aer){ .state = PA_AER_KNOWN, .cor = nic_cor };
}

static void run(struct pa_report *rep, struct pa_check *c)
{
	struct pa_policy pol;

	pa_policy_default(&pol);
	for (int p = 0; p < PA_NPROFILES; p++)
		pol.profiles[p] = p == PA_PROFILE_BASELINE;
	assert_int_equal(test_check_run(rep, &pol, c), 0);
	pa_policy_clear(&pol);
}

static size_t findings_of(const struct pa_check *c, const struct pa_finding **f)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nfindings; i++)
		if (c->findings[i].rule == PA_BL_AER_RISING) {
			*f = &c->findings[i];
			n++;
		}
	return n;
}

static void rising_needs_two_observations(void **state)
{
	struct pa_report now, prev;
	const struct pa_finding *f = NULL;
	struct pa_check c;

	(void)state;
	observe(&now, 15, 3);
	run(&now, &c);
	assert_int_equal(c.state[PA_BL_AER_RISING], PA_RULE_SKIPPED);
	assert_non_null(strstr(c.note[PA_BL_AER_RISING], "two observations"));
	assert_int_equal(findings_of(&c, &f), 0);
	pa_check_clear(&c);

	/* The GPU rose from 10 to 15; the NIC stayed at 3. */
	observe(&prev, 10, 3);
	now.previous = &prev;
	run(&now, &c);
	assert_int_equal(c.state[PA_BL_AER_RISING], PA_RULE_RAN);
	assert_int_equal(findings_of(&c, &f), 1);
	assert_int_equal(f->severity, PA_SEV_WARN);
	assert_int_equal(f->devices.n, 1);
	assert_int_equal(f->devices.addrs[0].bus, 1);
	assert_non_null(strstr(f->message, "logged 5 correctable AER errors"));
	pa_check_clear(&c);
	pa_report_clear(&prev);

	/* Counters that dropped: a reboot between; nothing to compare. */
	observe(&prev, 20, 5);
	run(&now, &c);
	assert_int_equal(c.state[PA_BL_AER_RISING], PA_RULE_SKIPPED);
	assert_int_equal(findings_of(&c, &f), 0);
	pa_check_clear(&c);
	pa_report_clear(&prev);

	/* Unknown now: unknown is not none, so no PASS either. */
	observe(&prev, 10, 3);
	pa_aer_set_unknown(&now.devices[0].aer, "test");
	pa_aer_set_unknown(&now.devices[1].aer, "test");
	run(&now, &c);
	assert_int_equal(c.state[PA_BL_AER_RISING], PA_RULE_SKIPPED);
	assert_non_null(strstr(c.note[PA_BL_AER_RISING], "2 unknown"));
	pa_check_clear(&c);
	pa_report_clear(&prev);
	pa_report_clear(&now);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_kernel_text),
		cmocka_unit_test(rejects_malformed),
		cmocka_unit_test(reads_fake_sysfs),
		cmocka_unit_test(json_round_trip),
		cmocka_unit_test(json_rejects),
		cmocka_unit_test(rising_needs_two_observations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
