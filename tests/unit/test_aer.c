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
#include <linux/pcieaudit.h>

#include "aer.h"
#include "aer_json.h"
#include "aer_read.h"
#include "check.h"
#include "policy.h"
#include "text_out.h"

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
	assert_string_equal(buf, "correctable 11 (RxErr 2, BadTLP 5, BadDLLP 1, Timeout 3), "
			    "nonfatal 4 (CmpltTO 4), fatal 1 (DLP 1)");
	assert_int_equal(rep.devices[2].aer.state, PA_AER_UNKNOWN);
	assert_non_null(strstr(rep.devices[2].aer.reason, "no aer_dev_correctable"));
	assert_int_equal(rep.devices[3].aer.state, PA_AER_UNKNOWN);
	assert_string_equal(rep.devices[3].aer.reason,
			    "aer_dev_nonfatal: line 1 is not \"NAME COUNT\"");
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

/* A module that says where the kernel keeps counters: a function it keeps
 * none for is not opened, even where a directory has the files. */
static void module_says_no_counters(void **state)
{
	static const struct test_dev devs[] = {
		{ .bus = 1, .up_bus = -1, .class = 0x030200,
		  .pcie_type = PCI_EXP_TYPE_ENDPOINT, .numa = -1 },
		{ .bus = 2, .up_bus = -1, .class = 0x030200,
		  .pcie_type = PCI_EXP_TYPE_ENDPOINT, .numa = -1 },
	};
	struct pa_report rep = { .info.features = PCIEAUDIT_F_PCIEAER };
	char root[] = "/tmp/pa-aer-XXXXXX", dir[512], cmd[600];

	(void)state;
	for (size_t i = 0; i < sizeof(devs) / sizeof(devs[0]); i++)
		test_add_dev(&rep, &devs[i]);
	rep.devices[0].flags |= PCIEAUDIT_DEV_F_AER_STATS;
	assert_non_null(mkdtemp(root));
	make_dir(dir, sizeof(dir), root, "0000:01:00.0");
	put(dir, "aer_dev_correctable", kernel_cor);
	put(dir, "aer_dev_nonfatal", kernel_nonfatal);
	put(dir, "aer_dev_fatal", kernel_fatal);
	make_dir(dir, sizeof(dir), root, "0000:02:00.0");
	put(dir, "aer_dev_correctable", kernel_cor);
	put(dir, "aer_dev_nonfatal", kernel_nonfatal);
	put(dir, "aer_dev_fatal", kernel_fatal);

	pa_aer_read(root, &rep);

	assert_int_equal(rep.devices[0].aer.state, PA_AER_KNOWN);
	assert_int_equal(rep.devices[0].aer.cor, 11);
	assert_int_equal(rep.devices[1].aer.state, PA_AER_UNKNOWN);
	assert_non_null(strstr(rep.devices[1].aer.reason,
			       "the kernel keeps no AER counters"));
	/* Without the feature, the flag means nothing: both are read. */
	rep.info.features = 0;
	pa_aer_read(root, &rep);
	assert_int_equal(rep.devices[1].aer.state, PA_AER_KNOWN);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	pa_report_clear(&rep);
}


/*
 * The files as each kernel prints them (tests/fixtures/aer/README.md):
 * the names of its tables, an unnamed bit of the port, the TOTAL lines.
 * The expected lines are counted from the files here, not by aer.c.
 */
static size_t file_lines(const char *path, const char *skip_prefix)
{
	char line[128];
	size_t n = 0;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		n += strncmp(line, skip_prefix, strlen(skip_prefix)) != 0;
	fclose(f);
	return n;
}

static void reads_recorded_kernels(void **state)
{
	static const char *const kernels[] = { "5.10", "6.1", "6.6", "6.12" };
	static const struct test_dev devs[] = {
		{ .bus = 0, .devfn = 0x10, .up_bus = -1, .class = 0x060400,
		  .pcie_type = PCI_EXP_TYPE_ROOT_PORT, .numa = -1 },
		{ .bus = 1, .devfn = 0x00, .up_bus = 0, .up_devfn = 0x10,
		  .class = 0x030200, .pcie_type = PCI_EXP_TYPE_ENDPOINT, .numa = -1 },
	};

	(void)state;
	for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		struct pa_report rep = { 0 };
		char root[256], path[512];
		const struct pa_aer *port, *gpu;
		const struct pa_aer_type *t;

		for (size_t i = 0; i < sizeof(devs) / sizeof(devs[0]); i++)
			test_add_dev(&rep, &devs[i]);
		snprintf(root, sizeof(root), "../fixtures/aer/%s", kernels[k]);
		pa_aer_read(root, &rep);
		port = &rep.devices[0].aer;
		gpu = &rep.devices[1].aer;
		assert_int_equal(port->state, PA_AER_KNOWN);
		assert_int_equal(gpu->state, PA_AER_KNOWN);
		assert_int_equal(port->cor, 6);
		assert_true(port->has_rootport);
		assert_int_equal(port->rp_cor, 8);
		assert_int_equal(gpu->nonfatal, 1);
		snprintf(path, sizeof(path), "%s/devices/0000:00:02.0/aer_dev_correctable", root);
		size_t expect = file_lines(path, "TOTAL_");
		snprintf(path, sizeof(path), "%s/devices/0000:00:02.0/aer_dev_nonfatal", root);
		expect += file_lines(path, "TOTAL_");
		snprintf(path, sizeof(path), "%s/devices/0000:00:02.0/aer_dev_fatal", root);
		expect += file_lines(path, "TOTAL_");
		assert_int_equal(port->ntypes, expect);
		assert_int_equal(port->unknown_names, 0);
		assert_int_equal(gpu->unknown_names, 0);
		t = pa_aer_find_type(port, PA_AER_SEV_COR, "BadTLP");
		assert_non_null(t);
		assert_int_equal(t->count, 5);
		t = pa_aer_find_type(port, PA_AER_SEV_COR, "dev_cor_errs_bit[9]");
		assert_non_null(t);
		assert_true(t->known);
		assert_int_equal(t->count, 1);
		t = pa_aer_find_type(gpu, PA_AER_SEV_NONFATAL, "CmpltTO");
		assert_non_null(t);
		assert_int_equal(t->count, 1);
		/* The TOTAL line is the total, not a type. */
		assert_null(pa_aer_find_type(port, PA_AER_SEV_COR, "TOTAL_ERR_COR"));
		/* 6.6 stops at bit 26; the stable kernels print all 32. */
		assert_true((pa_aer_find_type(gpu, PA_AER_SEV_FATAL, "TLPXlatBlocked") != NULL) ==
			    (strcmp(kernels[k], "6.6") != 0));
		pa_report_clear(&rep);
	}
}

/* A name a later kernel may add is kept, counted, and marked. */
static void keeps_unknown_names(void **state)
{
	struct pa_aer aer = { .state = PA_AER_KNOWN };
	char buf[256];
	size_t line = 0;
	uint64_t v = 0;

	(void)state;
	assert_int_equal(pa_aer_parse_types(PA_AER_DEV_COR,
					    "RxErr 1\nLaneMarginErr 3\nThisNameIsFarTooLongForOurTable 2\n"
					    "dev_cor_errs_bit[11] 4\ndev_cor_errs_bit[x] 1\nTOTAL_ERR_COR 11\n",
					    &v, &aer, &line), 0);
	assert_int_equal(v, 11);
	assert_int_equal(line, 0);
	assert_int_equal(aer.ntypes, 5);
	assert_int_equal(aer.unknown_names, 3);
	assert_false(pa_aer_find_type(&aer, PA_AER_SEV_COR, "LaneMarginErr")->known);
	assert_int_equal(pa_aer_find_type(&aer, PA_AER_SEV_COR, "LaneMarginErr")->count, 3);
	assert_true(pa_aer_find_type(&aer, PA_AER_SEV_COR, "dev_cor_errs_bit[11]")->known);
	assert_false(pa_aer_find_type(&aer, PA_AER_SEV_COR, "dev_cor_errs_bit[x]")->known);
	assert_false(aer.types[2].known);
	assert_int_equal(strlen(aer.types[2].name), sizeof(aer.types[2].name) - 1);
	/* A nonfatal name is not a correctable one. */
	assert_false(pa_aer_name_known(PA_AER_SEV_COR, "CmpltTO"));
	assert_true(pa_aer_name_known(PA_AER_SEV_FATAL, "CmpltTO"));
	pa_aer_format_types(&aer, PA_AER_SEV_COR, buf, sizeof(buf));
	assert_non_null(strstr(buf, "LaneMarginErr 3 (name unknown to pcieaudit)"));
	/* A malformed line: which one, and nothing kept past it. */
	aer = (struct pa_aer){ .state = PA_AER_KNOWN };
	assert_int_equal(pa_aer_parse_types(PA_AER_DEV_COR, "RxErr 1\nBadTLP x\n",
					    &v, &aer, &line), -EINVAL);
	assert_int_equal(line, 2);
	/* More lines than any kernel prints: the rest are counted. */
	aer = (struct pa_aer){ .state = PA_AER_KNOWN };
	char many[PA_AER_MAX_TYPES * 16 + 64] = "";
	for (int i = 0; i < PA_AER_MAX_TYPES + 3; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "E%d 1\n", i);
	assert_int_equal(pa_aer_parse_types(PA_AER_DEV_COR, many, &v, &aer, NULL), 0);
	assert_int_equal(v, PA_AER_MAX_TYPES + 3);
	assert_int_equal(aer.ntypes, PA_AER_MAX_TYPES);
	assert_int_equal(aer.unknown_names, PA_AER_MAX_TYPES + 3);
}

static struct pa_aer with_types(uint64_t rxerr, uint64_t badtlp, const char *extra)
{
	struct pa_aer a = { .state = PA_AER_KNOWN, .cor = rxerr + badtlp };
	char text[256];
	uint64_t v;

	snprintf(text, sizeof(text), "RxErr %llu\nBadTLP %llu\n%sTOTAL_ERR_COR %llu\n",
		 (unsigned long long)rxerr, (unsigned long long)badtlp, extra,
		 (unsigned long long)(rxerr + badtlp));
	assert_int_equal(pa_aer_parse_types(PA_AER_DEV_COR, text, &v, &a, NULL), 0);
	assert_int_equal(pa_aer_parse_types(PA_AER_DEV_NONFATAL, "CmpltTO 2\nTOTAL_ERR_NONFATAL 2\n",
					    &v, &a, NULL), 0);
	a.nonfatal = 2;
	return a;
}

static void type_rises(void **state)
{
	struct pa_aer p = with_types(1, 2, ""), n = with_types(1, 5, "LaneMarginErr 4\n");
	struct pa_aer old = { .state = PA_AER_KNOWN, .cor = 1 };
	char buf[128];

	(void)state;
	assert_int_equal(pa_aer_type_rises(&p, &n, PA_AER_SEV_COR, buf, sizeof(buf)), 2);
	assert_string_equal(buf, "BadTLP +3, LaneMarginErr +4");
	assert_int_equal(pa_aer_type_rises(&p, &n, PA_AER_SEV_NONFATAL, buf, sizeof(buf)), 0);
	/* An earlier reading without types (an old snapshot) tells nothing. */
	assert_int_equal(pa_aer_type_rises(&old, &n, PA_AER_SEV_COR, buf, sizeof(buf)), 0);
	/* Cut to the buffer, never past it. */
	assert_int_equal(pa_aer_type_rises(&p, &n, PA_AER_SEV_COR, buf, 8), 2);
	assert_string_equal(buf, "BadTLP ");
}


static int render_text(FILE *f, const void *arg)
{
	return pa_text_report(f, arg);
}

/* A link's two ends side by side: the endpoint's counters, then those of
 * the port that received its link's errors; the port's own line has no
 * "other end" (its link is upward, to the host bridge). */
static void text_shows_both_ends(void **state)
{
	static const struct test_dev devs[] = {
		{ .bus = 0, .devfn = 0x10, .up_bus = -1, .class = 0x060400,
		  .pcie_type = PCI_EXP_TYPE_ROOT_PORT, .numa = -1,
		  .lnkcap = 0x104, .lnksta = 0x1004 },
		{ .bus = 1, .devfn = 0x00, .up_bus = 0, .up_devfn = 0x10,
		  .class = 0x030200, .pcie_type = PCI_EXP_TYPE_ENDPOINT, .numa = -1,
		  .lnkcap = 0x104, .lnksta = 0x1004 },
	};
	struct pa_report rep = { 0 };
	char *text;
	int ret;

	(void)state;
	for (size_t i = 0; i < sizeof(devs) / sizeof(devs[0]); i++)
		test_add_dev(&rep, &devs[i]);
	pa_aer_read("../fixtures/aer/6.12", &rep);
	text = test_render(render_text, &rep, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(text,
		"AER: correctable 2 (RxErr 2), nonfatal 1 (CmpltTO 1), fatal 0\n"));
	assert_non_null(strstr(text,
		"AER at the link's other end (0000:00:02.0): correctable 6 (BadTLP 5, "
		"dev_cor_errs_bit[9] 1), nonfatal 0, fatal 0; received as root port: "
		"correctable 8, nonfatal 1, fatal 0\n"));
	assert_null(strstr(strstr(text, "other end") + 1, "other end"));
	free(text);
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
	struct pa_aer back, typed = with_types(3, 4, "LaneMarginErr 1\n");

	(void)state;
	{
		json_object *o = pa_aer_json(&typed);
		json_object *p = json_tokener_parse(json_object_to_json_string(o));

		assert_int_equal(pa_aer_json_parse(p, &back, &problem), 0);
		assert_int_equal(back.ntypes, typed.ntypes);
		assert_int_equal(back.unknown_names, 1);
		for (size_t i = 0; i < typed.ntypes; i++) {
			assert_string_equal(back.types[i].name, typed.types[i].name);
			assert_int_equal(back.types[i].count, typed.types[i].count);
			assert_int_equal(back.types[i].severity, typed.types[i].severity);
			assert_int_equal(back.types[i].known, typed.types[i].known);
		}
		json_object_put(o);
		json_object_put(p);
	}
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
		{ "{\"state\":\"known\",\"correctable\":1,\"nonfatal\":0,\"fatal\":0,\"types\":[]}",
		  "aer.types: expected an object" },
		{ "{\"state\":\"known\",\"correctable\":1,\"nonfatal\":0,\"fatal\":0,\"types\":{\"fatal\":1}}",
		  "aer.types: expected an object of counts per severity" },
		{ "{\"state\":\"known\",\"correctable\":1,\"nonfatal\":0,\"fatal\":0,\"types\":{\"correctable\":{\"RxErr\":-1}}}",
		  "aer.types: expected a count for each name" },
		{ "{\"state\":\"known\",\"correctable\":1,\"nonfatal\":0,\"fatal\":0,\"types\":{\"correctable\":{\"\":1}}}",
		  "aer.types: an empty or too long name, or too many" },
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
	/* Without types in the reports, no types in the message. */
	assert_null(strstr(f->message, "+"));
	pa_check_clear(&c);

	/* By type where both reports have them. */
	prev.devices[0].aer = with_types(4, 6, "");
	now.devices[0].aer = with_types(5, 8, "LaneMarginErr 2\n");
	now.devices[0].aer.cor = 15;
	run(&now, &c);
	assert_int_equal(findings_of(&c, &f), 1);
	assert_non_null(strstr(f->message,
			       "logged 5 correctable AER errors since the earlier report: "
			       "RxErr +1, BadTLP +2, LaneMarginErr +2 (15 now)"));
	pa_check_clear(&c);
	pa_report_clear(&prev);
	now.devices[0].aer = (struct pa_aer){ .state = PA_AER_KNOWN, .cor = 15 };

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
		cmocka_unit_test(module_says_no_counters),
		cmocka_unit_test(reads_recorded_kernels),
		cmocka_unit_test(keeps_unknown_names),
		cmocka_unit_test(type_rises),
		cmocka_unit_test(text_shows_both_ends),
		cmocka_unit_test(json_round_trip),
		cmocka_unit_test(json_rejects),
		cmocka_unit_test(rising_needs_two_observations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
