// SPDX-License-Identifier: GPL-2.0
/*
 * Snapshots: report --json read back. What is written is read back the
 * same; malformed documents fail with their location, never a crash.
 */
#include "testutil.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>

#include "fileio.h"
#include "json_out.h"
#include "snapshot.h"

static int render_report(FILE *f, const void *rep)
{
	return pa_json_report(f, rep);
}

/* The fixture with everything a snapshot can hold. */
static void full_report(struct pa_report *rep)
{
	test_fixture_report(rep);
	rep->devices[1].acs.has_ctrl_at_load = true;
	rep->devices[1].acs.ctrl_at_load = 0x1f;
	rep->devices[1].power_state = PCIEAUDIT_POWER_D0;
	rep->devices[2].power_state = PCIEAUDIT_POWER_D3HOT;
	rep->devices[3].config_unreadable = true;
	rep->devices[3].has_link = false;
	/* A VMD domain's root bus has five hex digits. */
	rep->devices[2].has_root_bus = true;
	rep->devices[2].root_bus = (struct pa_addr){ 0x10000, 0x3a, 0 };
	rep->devices[1].driver_unknown = true;
	/* The module's sampler; times to the millisecond, as written. */
	rep->devices[1].has_history = true;
	rep->devices[1].history = (struct pa_link_history){
		.since_ns = 1764583200123000000ull, .transitions = 3,
		.below_ns = 12500000001ull, .last_change_ns = 1764583260456000000ull,
		.has_min = true, .min_speed = 1, .min_width = 4, .interval_ms = 1000,
	};
	rep->has_host = true;
	rep->host = (struct pa_host){
		.source = PA_SOURCE_MODULE, .cmdline = strdup("ro \"a b\" quiet"),
		.numa_nodes = 2, .cpu_vendor = strdup("AuthenticAMD"),
		.cpu_family = 25,
	};
	test_add_pair(rep, rep->devices[2].addr, rep->devices[3].addr,
		      PCIEAUDIT_P2P_MAP_BUS_ADDR, PCIEAUDIT_P2P_PATH_COMMON_UPSTREAM,
		      PCIEAUDIT_P2P_HOST_NOT_NEEDED);
}

static void round_trip(void **state)
{
	struct pa_report rep, back;
	char *first, *second, err[512];
	int ret;

	(void)state;
	full_report(&rep);
	first = test_render(render_report, &rep, &ret);
	assert_int_equal(ret, 0);
	if (pa_snapshot_parse("first", first, strlen(first), &back, err, sizeof(err)))
		fail_msg("%s", err);
	/* Written again, it is the same text. */
	second = test_render(render_report, &back, &ret);
	test_snapshot(second, first, "snapshot_round_trip");
	assert_true(back.has_host);
	assert_int_equal(back.host.cpu_family, 25);
	assert_true(back.devices[1].acs.has_ctrl_at_load);
	assert_int_equal(back.devices[0].power_state, 0);
	assert_int_equal(back.devices[1].power_state, PCIEAUDIT_POWER_D0);
	assert_int_equal(back.devices[2].power_state, PCIEAUDIT_POWER_D3HOT);
	assert_false(back.devices[2].config_unreadable);
	assert_true(back.devices[3].config_unreadable);
	assert_true(back.devices[2].has_root_bus);
	assert_int_equal(back.devices[2].root_bus.domain, 0x10000);
	assert_int_equal(back.devices[2].root_bus.bus, 0x3a);
	assert_false(back.devices[1].has_root_bus);
	assert_true(back.devices[1].driver_unknown);
	assert_false(back.devices[2].driver_unknown);
	assert_true(back.devices[1].has_history);
	{
		const struct pa_link_history *a = &rep.devices[1].history;
		const struct pa_link_history *b = &back.devices[1].history;

		assert_int_equal(b->since_ns, a->since_ns);
		assert_int_equal(b->transitions, a->transitions);
		assert_int_equal(b->below_ns, a->below_ns);
		assert_int_equal(b->last_change_ns, a->last_change_ns);
		assert_true(b->has_min);
		assert_int_equal(b->min_speed, a->min_speed);
		assert_int_equal(b->min_width, a->min_width);
		assert_int_equal(b->interval_ms, a->interval_ms);
	}
	assert_false(back.devices[2].has_history);
	assert_non_null(strstr(first, "\"root_bus\":\"10000:3a\""));
	assert_int_equal(back.p2p.npairs, 1);
	pa_report_clear(&rep);
	pa_report_clear(&back);
	free(first);
	free(second);
}

static const char *const fixtures[] = {
	"gpudirect-fail.json", "gpudirect-pass.json", "vfio-fail.json",
	"vfio-override.json", "vfio-pass.json", "baseline-amd-fail.json",
	"baseline-intel-fail.json", "baseline-pass.json",
	"acs-param-pass.json", "acs-param-6.12-fail.json",
	"acs-param-old-kernel.json", "acs-param-malformed.json",
};

#define NFIXTURES (sizeof(fixtures) / sizeof(fixtures[0]))

static char *read_fixture(const char *name, size_t *len)
{
	char path[128];
	char *text;

	snprintf(path, sizeof(path), SNAPSHOTS "/%s", name);
	assert_int_equal(pa_read_file(path, 1 << 20, &text, len), 0);
	return text;
}

static void fixtures_parse(void **state)
{
	(void)state;
	for (size_t i = 0; i < NFIXTURES; i++) {
		struct pa_report rep;
		char err[512];
		size_t len;
		char *text = read_fixture(fixtures[i], &len);

		if (pa_snapshot_parse(fixtures[i], text, len, &rep, err, sizeof(err)))
			fail_msg("%s", err);
		assert_true(rep.has_host);
		pa_report_clear(&rep);
		free(text);
	}
}

/* ---- Malformed documents ------------------------------------------------- */

#define HEAD	"{\"schema_version\": 1, \"info\": {}, \"devices\": ["
#define DEV(x)	"{\"bdf\": \"0000:01:00.0\", \"vendor\": 4318, \"device\": 1, \"class\": 197120" x "}"
#define DEV2(x)	"{\"bdf\": \"0000:02:00.0\", \"vendor\": 4318, \"device\": 2, \"class\": 131072" x "}"
#define TAIL	"]}"

static const struct {
	const char *text;
	const char *error;
} bad[] = {
	{ "", "sample:1:1: invalid JSON: unexpected end of input" },
	{ "   \n  ", "sample:2:3: invalid JSON: unexpected end of input" },
	{ "{", "unexpected end of input" },
	{ "{\n  \"schema_version\": 1,\n  \"info\": {,}\n}", "sample:3:12: invalid JSON" },
	{ "{\"a\": tru}", "sample:1:10: invalid JSON: boolean expected" },
	{ HEAD TAIL " x", "unexpected data after the document" },
	{ HEAD TAIL "{}", "unexpected data after the document" },
	{ "[]", "sample: (top level): expected object, found array" },
	{ "null", "sample: (top level): expected object, found null" },
	{ "{\"info\": {}, \"devices\": []}", "sample: schema_version: missing (required)" },
	{ "{\"schema_version\": \"1\", \"info\": {}, \"devices\": []}",
	  "schema_version: expected int, found string" },
	{ "{\"schema_version\": 2, \"info\": {}, \"devices\": []}",
	  "schema_version: 2 is not supported (this CLI reads 1)" },
	{ "{\"schema_version\": 1, \"devices\": []}", "sample: info: missing (required)" },
	{ "{\"schema_version\": 1, \"info\": [], \"devices\": []}",
	  "info: expected object, found array" },
	{ "{\"schema_version\": 1, \"info\": {}}", "devices: missing (required)" },
	{ "{\"schema_version\": 1, \"info\": {}, \"devices\": null}",
	  "devices: missing (required)" },
	{ "{\"schema_version\": 1, \"info\": {}, \"devices\": {}}",
	  "devices: expected array, found object" },
	{ "{\"schema_version\": 1, \"info\": {\"features\": {\"p2pdma\": 1}}, \"devices\": []}",
	  "info.features.p2pdma: expected boolean, found int" },
	{ "{\"schema_version\": 1, \"info\": {\"iommu_default_mode\": \"pt\"}, \"devices\": []}",
	  "info.iommu_default_mode: unknown value \"pt\"" },
	{ "{\"schema_version\": 1, \"info\": {\"device_count\": -1}, \"devices\": []}",
	  "info.device_count: -1 out of range 0..4294967295" },
	{ HEAD "7" TAIL, "devices[0]: expected object, found int" },
	{ HEAD "{}" TAIL, "devices[0].bdf: missing (required)" },
	{ HEAD "{\"bdf\": \"0000:zz:00.0\"}" TAIL,
	  "devices[0].bdf: invalid PCI address \"0000:zz:00.0\"" },
	{ HEAD "{\"bdf\": \"0000:01:00.0\\u0000x\"}" TAIL,
	  "devices[0].bdf: contains a NUL byte" },
	{ HEAD "{\"bdf\": \"0000:01:00.0\", \"vendor\": \"10de\"}" TAIL,
	  "devices[0].vendor: expected int, found string" },
	{ HEAD "{\"bdf\": \"0000:01:00.0\", \"vendor\": 4318.0}" TAIL,
	  "devices[0].vendor: expected int, found double" },
	{ HEAD "{\"bdf\": \"0000:01:00.0\", \"vendor\": 65536}" TAIL,
	  "devices[0].vendor: 65536 out of range 0..65535" },
	{ HEAD "{\"bdf\": \"0000:01:00.0\", \"vendor\": 99999999999999999999999}" TAIL,
	  "devices[0].vendor:" },
	{ HEAD "{\"bdf\": \"0000:01:00.0\", \"vendor\": 18446744073709551615}" TAIL,
	  "devices[0].vendor:" },
	{ HEAD "{\"bdf\": \"0000:01:00.0\", \"vendor\": 1, \"device\": 1}" TAIL,
	  "devices[0].class: missing (required)" },
	{ HEAD DEV(", \"class\": 16777216") TAIL, "devices[0].class: 16777216 out of range" },
	{ HEAD DEV(", \"numa_node\": -2") TAIL, "devices[0].numa_node: -2 out of range -1..65535" },
	{ HEAD DEV(", \"pcie_type\": \"switch\"") TAIL,
	  "devices[0].pcie_type: unknown value \"switch\"" },
	{ HEAD DEV(", \"multifunction\": \"yes\"") TAIL,
	  "devices[0].multifunction: expected boolean, found string" },
	{ HEAD DEV(", \"driver\": 5") TAIL, "devices[0].driver: expected string, found int" },
	{ HEAD DEV(", \"upstream\": \"bad\"") TAIL,
	  "devices[0].upstream: invalid PCI address \"bad\"" },
	{ HEAD DEV(", \"acs\": 1") TAIL, "devices[0].acs: expected object, found int" },
	{ HEAD DEV(", \"acs\": {\"ctrl\": 1}") TAIL, "devices[0].acs.cap: missing (required)" },
	{ HEAD DEV(", \"acs\": {\"cap\": 95, \"ctrl\": 29, \"ctrl_at_load\": 65536}") TAIL,
	  "devices[0].acs.ctrl_at_load: 65536 out of range" },
	{ HEAD DEV(", \"link\": {\"lnkcap\": 260}") TAIL,
	  "devices[0].link.lnksta: missing (required)" },
	{ HEAD DEV(", \"link\": {\"lnkcap\": 4294967296, \"lnksta\": 1}") TAIL,
	  "devices[0].link.lnkcap: 4294967296 out of range" },
	{ HEAD DEV(", \"iommu\": {}") TAIL, "devices[0].iommu.group: missing (required)" },
	{ HEAD DEV(", \"iommu\": {\"group\": 1, \"domain\": \"bogus\"}") TAIL,
	  "devices[0].iommu.domain: unknown value \"bogus\"" },
	{ HEAD DEV("") "," DEV("") TAIL, "devices[bdf=0000:01:00.0]: listed twice" },
	{ HEAD DEV(", \"upstream\": \"0000:09:00.0\"") TAIL,
	  "devices[bdf=0000:01:00.0]: upstream 0000:09:00.0 is not in devices" },
	{ HEAD DEV(", \"pf\": \"0000:09:00.0\"") TAIL,
	  "devices[bdf=0000:01:00.0]: pf 0000:09:00.0 is not in devices" },
	{ HEAD DEV(", \"upstream\": \"0000:01:00.0\"") TAIL,
	  "devices[bdf=0000:01:00.0].upstream: upstream links form a cycle" },
	{ HEAD DEV(", \"upstream\": \"0000:02:00.0\"") "," DEV2(", \"upstream\": \"0000:01:00.0\"") TAIL,
	  "upstream links form a cycle" },
	{ HEAD DEV(", \"iommu\": {\"group\": 3}") "], \"groups\": []}",
	  "devices[bdf=0000:01:00.0].iommu.group: group 3 in groups does not list this device" },
	{ HEAD DEV("") "], \"groups\": [{\"id\": 1}]}", "groups[0].devices: missing (required)" },
	{ HEAD DEV("") "], \"groups\": [{\"id\": 1, \"devices\": [7]}]}",
	  "groups[0].devices[0]: expected string, found int" },
	{ HEAD DEV("") "], \"groups\": [{\"id\": 1, \"devices\": []}, {\"id\": 1, \"devices\": []}]}",
	  "groups[id=1]: listed twice" },
	{ HEAD DEV("") "], \"p2p\": {}}", "p2p: expected array, found object" },
	{ HEAD DEV("") "], \"p2p\": [{\"a\": \"0000:01:00.0\"}]}", "p2p[0].b: missing (required)" },
	{ HEAD DEV("") "], \"p2p\": [{\"a\": \"0000:01:00.0\", \"b\": \"0000:09:00.0\"}]}",
	  "p2p[a=0000:01:00.0,b=0000:09:00.0]: b 0000:09:00.0 is not in devices" },
	{ HEAD DEV("") "," DEV2("") "], \"p2p\": [{\"a\": \"0000:01:00.0\", \"b\": \"0000:02:00.0\", \"map\": \"fast\"}]}",
	  "p2p[0].map: unknown value \"fast\"" },
	{ HEAD DEV("") "," DEV2("") "], \"p2p\": [{\"a\": \"0000:01:00.0\", \"b\": \"0000:02:00.0\", \"hops_a\": [\"0000:07:00.0\"]}]}",
	  "hop 0000:07:00.0 is not in devices" },
	{ HEAD DEV("") "," DEV2("") "], \"p2p\": [{\"a\": \"0000:01:00.0\", \"b\": \"0000:02:00.0\"}, {\"a\": \"0000:01:00.0\", \"b\": \"0000:02:00.0\"}]}",
	  "p2p[a=0000:01:00.0,b=0000:02:00.0]: listed twice" },
	{ HEAD DEV(", \"root_bus\": \"0000:00:00.0\"") TAIL,
	  "devices[0].root_bus: invalid PCI bus \"0000:00:00.0\"" },
	{ HEAD DEV(", \"root_bus\": \"00\"") TAIL,
	  "devices[0].root_bus: invalid PCI bus \"00\"" },
	{ HEAD DEV(", \"root_bus\": \"0000: 1\"") TAIL,
	  "devices[0].root_bus: invalid PCI bus" },
	{ HEAD DEV(", \"ats\": {\"capable\": 1}") TAIL,
	  "devices[0].ats.capable: expected boolean, found int" },
	{ HEAD DEV(", \"pcie_device\": {\"mps\": 300}") TAIL,
	  "devices[0].pcie_device.mps: 300 is not a payload size (128 to 4096)" },
	{ HEAD DEV(", \"bars\": [{\"index\": 6, \"size\": 1, \"type\": \"mem\"}]") TAIL,
	  "devices[0].bars[0].index: 6 out of range 0..5" },
	{ HEAD DEV(", \"bars\": [{\"index\": 0, \"size\": 1, \"type\": \"rom\"}]") TAIL,
	  "devices[0].bars[0].type: \"rom\" is neither io nor mem" },
	{ HEAD DEV(", \"bars\": [{\"index\": 0, \"size\": 1}]") TAIL,
	  "devices[0].bars[0].type: missing (required)" },
	{ HEAD DEV(", \"bars\": [1, 2, 3, 4, 5, 6, 7]") TAIL,
	  "devices[0].bars: more than 6 entries" },
	{ HEAD DEV(", \"bars\": [{\"index\": 0, \"size\": 1, \"type\": \"mem\", \"resizable\": {\"current\": 3}}]") TAIL,
	  "devices[0].bars[0].resizable.current: not a power of two of at least 1M" },
	{ HEAD DEV(", \"bars\": [{\"index\": 0, \"size\": 1, \"type\": \"mem\", \"resizable\": {}}]") TAIL,
	  "devices[0].bars[0].resizable.supported: missing (required)" },
	{ HEAD DEV(", \"link_history\": {\"transitions\": 1}") TAIL,
	  "devices[0].link_history.since: missing (required)" },
	{ HEAD DEV(", \"link_history\": {\"since\": \"2026-12-01 10:00:00\"}") TAIL,
	  "devices[0].link_history.since: \"2026-12-01 10:00:00\" is not a time" },
	{ HEAD DEV(", \"link_history\": {\"since\": \"2026-12-01T10:00:00.000Z\", \"slowest_gts\": 3.0}") TAIL,
	  "devices[0].link_history.slowest_gts: 3.0 is not a PCIe link speed in GT/s" },
	{ HEAD DEV(", \"driver_known\": 0") TAIL,
	  "devices[0].driver_known: expected boolean, found int" },
	{ HEAD DEV(", \"power_state\": \"D3cold\"") TAIL,
	  "devices[0].power_state: unknown value \"D3cold\"" },
	{ HEAD DEV(", \"power_state\": 3") TAIL,
	  "devices[0].power_state: expected string, found int" },
	{ HEAD DEV(", \"config_readable\": \"no\"") TAIL,
	  "devices[0].config_readable: expected boolean, found string" },
	{ HEAD DEV("") "], \"host\": 1}", "host: expected object, found int" },
	{ HEAD DEV("") "], \"host\": {\"numa_nodes\": 0}}", "host.numa_nodes: 0 out of range 1..65536" },
	{ HEAD DEV("") "], \"host\": {\"cmdline\": [\"ro\"]}}", "host.cmdline: expected string, found array" },
	{ HEAD DEV("") "], \"host\": {\"source\": \"guess\"}}", "host.source: unknown value \"guess\"" },
};

static void malformed(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pa_report rep = { .ndevices = 99 };
		char err[512];
		int ret = pa_snapshot_parse("sample", bad[i].text,
					    strlen(bad[i].text), &rep, err,
					    sizeof(err));

		if (ret != -EINVAL)
			fail_msg("case %zu accepted (%d): %s", i, ret, bad[i].text);
		if (!strstr(err, bad[i].error))
			fail_msg("case %zu: \"%s\" lacks \"%s\"", i, err, bad[i].error);
		/* Nothing is left behind on failure. */
		assert_int_equal(rep.ndevices, 0);
		assert_null(rep.devices);
	}
}

/* Keys the CLI does not know are ignored; absent optional ones are null. */
static void minimal_and_unknown_keys(void **state)
{
	static const char text[] = HEAD DEV(", \"future\": {\"x\": [1, 2]}") "], \"later\": 1}";
	struct pa_report rep;
	char err[512];

	(void)state;
	if (pa_snapshot_parse("sample", text, strlen(text), &rep, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(rep.ndevices, 1);
	assert_int_equal(rep.devices[0].numa_node, -1);
	assert_int_equal(rep.devices[0].pcie_type, -1);
	/* Snapshots older than power states: unknown state, readable. */
	assert_int_equal(rep.devices[0].power_state, 0);
	assert_false(rep.devices[0].config_unreadable);
	assert_false(rep.has_p2p);
	assert_false(rep.has_host);
	assert_int_equal(rep.host.numa_nodes, -1);
	pa_report_clear(&rep);
}

static void deep_nesting(void **state)
{
	char text[4096];
	struct pa_report rep;
	char err[512];
	size_t n = 0;

	(void)state;
	n += (size_t)snprintf(text, sizeof(text), "{\"schema_version\": 1, \"x\": ");
	for (int i = 0; i < 1000; i++)
		text[n++] = '[';
	text[n] = '\0';
	assert_int_equal(pa_snapshot_parse("deep", text, n, &rep, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "deep:1:"));
}

/* Every prefix of a real snapshot fails cleanly: a cut file, a pipe that
 * closed early. */
static void truncated_anywhere(void **state)
{
	(void)state;
	for (size_t f = 0; f < NFIXTURES; f++) {
		size_t len;
		char *text = read_fixture(fixtures[f], &len);

		for (size_t cut = 0; cut + 1 < len; cut += 1 + (len > 4000) * 6) {
			struct pa_report rep;
			char err[512];
			char *copy = malloc(cut + 1);

			assert_non_null(copy);
			memcpy(copy, text, cut);
			copy[cut] = '\0';
			if (pa_snapshot_parse(fixtures[f], copy, cut, &rep, err,
					      sizeof(err)) != -EINVAL)
				fail_msg("%s cut at %zu accepted", fixtures[f], cut);
			assert_int_equal(strncmp(err, fixtures[f], strlen(fixtures[f])), 0);
			free(copy);
		}
		free(text);
	}
}

/* Bytes changed anywhere: accepted or refused, never a crash (ASan and
 * UBSan watch). */
static void mutated_bytes(void **state)
{
	static const char replacements[] = "\"{}[],:0-9e.\\ xn";
	unsigned int seed = 12345;
	size_t len;
	char *text = read_fixture("vfio-fail.json", &len);

	(void)state;
	for (int round = 0; round < 3000; round++) {
		struct pa_report rep;
		char err[512];
		char *copy = malloc(len + 1);
		size_t at;

		assert_non_null(copy);
		memcpy(copy, text, len + 1);
		for (int k = 0; k < 3; k++) {
			seed = seed * 1103515245u + 12345u;
			at = (seed >> 8) % len;
			copy[at] = replacements[(seed >> 20) % (sizeof(replacements) - 1)];
		}
		if (!pa_snapshot_parse("m", copy, len, &rep, err, sizeof(err)))
			pa_report_clear(&rep);
		free(copy);
	}
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(fixtures_parse),
		cmocka_unit_test(malformed),
		cmocka_unit_test(minimal_and_unknown_keys),
		cmocka_unit_test(deep_nesting),
		cmocka_unit_test(truncated_anywhere),
		cmocka_unit_test(mutated_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
