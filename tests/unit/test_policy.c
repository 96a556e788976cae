// SPDX-License-Identifier: GPL-2.0
/*
 * Policy files: what they select and set, and for every kind of mistake an
 * error that names the file, line and column.
 */
#include "testutil.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "policy.h"
#include "topo.h"

#define EXAMPLE "../../docs/pcieaudit-policy.example.yaml"

static int parse(const char *text, struct pa_policy *p, char *err, size_t len)
{
	return pa_policy_parse("p.yaml", text, strlen(text), p, err, len);
}

/* The example in docs/ parses, and means what its comments say. */
static void example(void **state)
{
	struct pa_device ib = { .class = 0x020700, .vendor = 0x15b3 };
	struct pa_policy p;
	char err[512];
	size_t len;
	char *text;

	(void)state;
	assert_int_equal(pa_read_file(EXAMPLE, 1 << 20, &text, &len), 0);
	if (pa_policy_parse(EXAMPLE, text, len, &p, err, sizeof(err)))
		fail_msg("%s", err);
	free(text);
	assert_true(p.profiles[PA_PROFILE_GPUDIRECT] && p.profiles[PA_PROFILE_VFIO] &&
		    p.profiles[PA_PROFILE_BASELINE]);
	assert_int_equal(p.nselect, 5);
	assert_int_equal(p.select[0].kind, PA_KIND_GPU);
	assert_true(p.select[1].has_class);
	assert_int_equal(p.select[1].class_value, 0x020700);
	assert_int_equal(p.select[1].class_mask, 0xffff00);
	assert_true(pa_match_device(&p.select[1], &ib));
	assert_true(p.select[2].has_vendor && p.select[2].has_device);
	assert_int_equal(p.select[2].device, 0x101b);
	assert_string_equal(p.select[3].driver, "vfio-pci");
	assert_int_equal(p.select[4].bdf.bus, 0xc1);
	assert_int_equal(p.nexclude, 1);
	assert_int_equal(p.exclude[0].bdf.devfn, 0x14 << 3 | 3);
	assert_int_equal(p.rules[PA_GD_IOMMU_TRANSLATED], PA_RULE_OFF);
	assert_int_equal(p.rules[PA_VFIO_IOMMU_PASSTHROUGH], PA_SEV_INFO);
	assert_int_equal(p.rules[PA_BL_LINK_DOWNGRADED], PA_SEV_FAIL);
	assert_int_equal(p.rules[PA_VFIO_ACS_MISSING], PA_RULE_DEFAULT);
	assert_true(p.trap_ratio == 0.5);
	assert_false(p.all_pairs);
	pa_policy_clear(&p);
}

static void small_forms(void **state)
{
	struct pa_device gpu = { .class = 0x030200, .vendor = 0x10de, .device = 0x2335,
				 .addr = { 0, 0x41, 0 }, .driver = "nvidia" };
	struct pa_policy p;
	char err[512];

	(void)state;
	/* One profile as a scalar, flow style, hex in either case. */
	if (parse("version: 1\nprofiles: vfio\nselect: [{class: 0x03, vendor: 0x10DE}]\n"
		  "rules: {vfio.not-opened: no, vfio.acs-missing: yes}\n"
		  "gpudirect_pairs: all\n", &p, err, sizeof(err)))
		fail_msg("%s", err);
	assert_false(p.profiles[PA_PROFILE_GPUDIRECT]);
	assert_true(p.profiles[PA_PROFILE_VFIO]);
	assert_int_equal(p.select[0].class_mask, 0xff0000);
	assert_true(pa_match_device(&p.select[0], &gpu));
	gpu.vendor = 0x1002;
	assert_false(pa_match_device(&p.select[0], &gpu));
	assert_int_equal(p.rules[PA_VFIO_NOT_OPENED], PA_RULE_OFF);
	assert_int_equal(p.rules[PA_VFIO_ACS_MISSING], PA_RULE_DEFAULT);
	assert_true(p.all_pairs);
	pa_policy_clear(&p);

	/* The smallest policy: the defaults. */
	assert_int_equal(parse("version: 1\n", &p, err, sizeof(err)), 0);
	assert_int_equal(p.nselect, 0);
	assert_true(p.trap_ratio == PA_TRAP_RATIO_DEFAULT);
	pa_policy_clear(&p);
}

static const struct {
	const char *text;
	const char *error;
} bad[] = {
	{ "", "p.yaml:1:1: empty policy (expected a mapping with 'version: 1')" },
	{ "# only a comment\n", "p.yaml:1:1: empty policy" },
	{ "version: 1\nprofiles: [gpudirect\n", "p.yaml:3:1: YAML: did not find expected ',' or ']'" },
	{ "version: 1\nselect:\n\t- class: gpu\n", "p.yaml:3:1: YAML: found character that cannot start any token" },
	{ "version: 1\n  profiles: [vfio]\n", "p.yaml:2:11: YAML: mapping values are not allowed in this context" },
	{ "- version: 1\n", "p.yaml:1:1: expected a mapping, found a list" },
	{ "profiles: [vfio]\n", "p.yaml:1:1: missing 'version: 1'" },
	{ "version: 2\n", "p.yaml:1:10: unsupported version '2' (this pcieaudit-cli reads version 1)" },
	{ "version: [1]\n", "p.yaml:1:10: expected a version, found a list" },
	{ "version: 1\nsellect: []\n",
	  "p.yaml:2:1: unknown key 'sellect' in the policy (expected version, profiles, select, exclude, rules, thresholds, gpudirect_pairs)" },
	{ "version: 1\nversion: 1\n", "p.yaml:2:1: duplicate key 'version'" },
	{ "version: 1\n[a]: 1\n", "p.yaml:2:1: expected a key, found a list" },
	{ "version: 1\nprofiles: [gpu]\n",
	  "p.yaml:2:12: unknown profile 'gpu' (expected gpudirect, vfio, baseline or expect)" },
	{ "version: 1\nprofiles: {a: 1}\n", "p.yaml:2:11: expected a list of profiles, found a mapping" },
	{ "version: 1\nselect: {class: gpu}\n",
	  "p.yaml:2:9: expected a list of device selectors, found a mapping" },
	{ "version: 1\nselect:\n  - gpu\n", "p.yaml:3:5: expected a mapping, found a scalar" },
	{ "version: 1\nselect:\n  - klass: gpu\n",
	  "p.yaml:3:5: unknown key 'klass' in a device selector (expected class, vendor, device, bdf, driver)" },
	{ "version: 1\nselect:\n  - {}\n", "p.yaml:3:5: empty device selector" },
	{ "version: 1\nselect:\n  - bdf: \"0000:41:00.9\"\n",
	  "p.yaml:3:10: bad PCI address '0000:41:00.9' (expected DDDD:BB:DD.F or BB:DD.F)" },
	{ "version: 1\nselect:\n  - bdf: 41:00.0.1\n", "p.yaml:3:10: bad PCI address '41:00.0.1'" },
	{ "version: 1\nselect:\n  - class: 0x3\n", "p.yaml:3:12: bad class '0x3' (expected gpu, accelerator, nic, nvme, or a class code 0xBB, 0xBBSS or 0xBBSSPP)" },
	{ "version: 1\nselect:\n  - class: graphics\n", "p.yaml:3:12: bad class 'graphics'" },
	{ "version: 1\nselect:\n  - class: 0x03020000\n", "p.yaml:3:12: bad class '0x03020000'" },
	{ "version: 1\nselect:\n  - vendor: 10de\n",
	  "p.yaml:3:13: bad vendor '10de' (expected a hex id such as 0x10de)" },
	{ "version: 1\nselect:\n  - vendor: 0x10de0\n", "p.yaml:3:13: bad vendor '0x10de0'" },
	{ "version: 1\nselect:\n  - device: 0x\n", "p.yaml:3:13: bad device '0x'" },
	{ "version: 1\nselect:\n  - driver: \"\"\n", "p.yaml:3:13: empty driver name" },
	{ "version: 1\nselect:\n  - driver: [vfio-pci]\n", "p.yaml:3:13: expected a driver name, found a list" },
	{ "version: 1\nexclude:\n  - bdf: 1\n", "p.yaml:3:10: bad PCI address '1'" },
	{ "version: 1\nrules: [vfio.acs-missing]\n", "p.yaml:2:8: expected a mapping of rule ids, found a list" },
	{ "version: 1\nrules:\n  vfio.foo: off\n",
	  "p.yaml:3:3: unknown rule 'vfio.foo' (pcieaudit-cli check --rules lists them)" },
	{ "version: 1\nrules:\n  vfio.acs-missing: critical\n",
	  "p.yaml:3:21: bad severity 'critical' for rule vfio.acs-missing (expected fail, warn, info, on or off)" },
	{ "version: 1\nrules:\n  vfio.acs-missing: {severity: warn}\n",
	  "p.yaml:3:21: expected a rule setting, found a mapping" },
	{ "version: 1\nthresholds: 0.5\n", "p.yaml:2:13: expected a mapping, found a scalar" },
	{ "version: 1\nthresholds:\n  bandwidth_trap_ratio: 1.5\n",
	  "p.yaml:3:25: bad bandwidth_trap_ratio '1.5' (expected a number above 0 and at most 1)" },
	{ "version: 1\nthresholds:\n  bandwidth_trap_ratio: 0\n", "p.yaml:3:25: bad bandwidth_trap_ratio '0'" },
	{ "version: 1\nthresholds:\n  bandwidth_trap_ratio: half\n", "p.yaml:3:25: bad bandwidth_trap_ratio 'half'" },
	{ "version: 1\nthresholds:\n  bandwidth_trap_ratio: nan\n", "p.yaml:3:25: bad bandwidth_trap_ratio 'nan'" },
	{ "version: 1\nthresholds:\n  ratio: 0.5\n",
	  "p.yaml:3:3: unknown key 'ratio' in thresholds (expected bandwidth_trap_ratio)" },
	{ "version: 1\ngpudirect_pairs: some\n", "p.yaml:2:18: bad gpudirect_pairs 'some' (expected nearest or all)" },
	{ "version: 1\n---\nversion: 1\n", "p.yaml:3:1: a second YAML document; a policy is one" },
	{ "version: 1\nselect: *nowhere\n", "p.yaml:2:9: YAML: found undefined alias" },
	{ "version: 1\nselect: &a [*a]\n", "p.yaml:2:" },
	{ "version: 1\nprofiles: [\"vf\\0io\"]\n", "p.yaml:2:12: a profile name contains a NUL byte" },
	{ "version: 1\n\xff\xfe: 1\n", "p.yaml:" },
};

static void malformed(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pa_policy p;
		char err[512];
		int ret = parse(bad[i].text, &p, err, sizeof(err));

		if (ret != -EINVAL)
			fail_msg("case %zu accepted (%d): %s", i, ret, bad[i].text);
		if (strncmp(err, bad[i].error, strlen(bad[i].error)))
			fail_msg("case %zu: \"%s\" does not start \"%s\"", i, err,
				 bad[i].error);
		/* A failed parse leaves the defaults, nothing allocated. */
		assert_int_equal(p.nselect, 0);
		assert_null(p.select);
	}
}

static void matching(void **state)
{
	struct pa_match m = { .kind = PA_KIND_NVME };
	struct pa_device nvme = { .class = 0x010802, .addr = { 0, 3, 0 } };
	struct pa_device sata = { .class = 0x010601 };

	(void)state;
	assert_true(pa_match_device(&m, &nvme));
	assert_false(pa_match_device(&m, &sata));
	m = (struct pa_match){ .kind = -1, .driver = "nvme" };
	assert_false(pa_match_device(&m, &nvme));
	nvme.driver = "nvme";
	assert_true(pa_match_device(&m, &nvme));
	m = (struct pa_match){ .kind = -1, .has_bdf = true, .bdf = { 0, 3, 0 } };
	assert_true(pa_match_device(&m, &nvme));
	m.bdf.domain = 1;
	assert_false(pa_match_device(&m, &nvme));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(example),
		cmocka_unit_test(small_forms),
		cmocka_unit_test(malformed),
		cmocka_unit_test(matching),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
