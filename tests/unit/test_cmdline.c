// SPDX-License-Identifier: GPL-2.0
/* The kernel command line as the kernel splits it, and the host facts read
 * from /proc and /sys text. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "cmdline.h"
#include "host.h"

static void split_like_the_kernel(void **state)
{
	static const char text[] =
		"BOOT_IMAGE=/vmlinuz-6.1 root=UUID=4b1e ro  quiet intel-iommu=on "
		"pci=noacs,realloc \"dyndbg=file a.c +p\" acpi=\"force on\" "
		"iommu=pt iommu=nopt -- init=x single";
	struct pa_cmdline cl;
	const struct pa_param *p;

	(void)state;
	assert_int_equal(pa_cmdline_parse(text, &cl), 0);
	/* Everything after "--" is init's. */
	assert_int_equal(cl.n, 10);
	assert_null(pa_cmdline_last(&cl, "init"));
	assert_string_equal(cl.params[2].name, "ro");
	assert_null(cl.params[2].value);
	/* Dashes and underscores name the same parameter. */
	p = pa_cmdline_last(&cl, "intel_iommu");
	assert_non_null(p);
	assert_string_equal(p->text, "intel-iommu=on");
	/* Quotes hold blanks; they are not part of names or values. */
	p = pa_cmdline_last(&cl, "dyndbg");
	assert_string_equal(p->value, "file a.c +p");
	p = pa_cmdline_last(&cl, "acpi");
	assert_string_equal(p->value, "force on");
	/* The last of a repeated parameter is the one the kernel keeps. */
	assert_string_equal(pa_cmdline_last(&cl, "iommu")->value, "nopt");
	assert_non_null(pa_cmdline_option(&cl, "iommu", "pt"));
	assert_non_null(pa_cmdline_option(&cl, "pci", "noacs"));
	assert_non_null(pa_cmdline_option(&cl, "pci", "realloc"));
	assert_null(pa_cmdline_option(&cl, "pci", "noac"));
	assert_null(pa_cmdline_option(&cl, "ro", "x"));
	pa_cmdline_clear(&cl);
}

static void options_with_values(void **state)
{
	struct pa_cmdline cl;

	(void)state;
	assert_int_equal(pa_cmdline_parse("pci=disable_acs_redir=0000:02:00.0;0000:02:01.0,realloc",
					  &cl), 0);
	assert_non_null(pa_cmdline_option(&cl, "pci", "disable_acs_redir"));
	assert_non_null(pa_cmdline_option(&cl, "pci", "realloc"));
	pa_cmdline_clear(&cl);
	assert_int_equal(pa_cmdline_parse("", &cl), 0);
	assert_int_equal(cl.n, 0);
	assert_int_equal(pa_cmdline_parse("   \n", &cl), 0);
	assert_int_equal(cl.n, 0);
	/* An unterminated quote runs to the end, as in next_arg(). */
	assert_int_equal(pa_cmdline_parse("a=\"b c", &cl), 0);
	assert_int_equal(cl.n, 1);
	pa_cmdline_clear(&cl);
}

static void booleans(void **state)
{
	(void)state;
	assert_true(pa_cmdline_true(NULL));
	assert_true(pa_cmdline_true("1"));
	assert_true(pa_cmdline_true("y"));
	assert_true(pa_cmdline_true("On"));
	assert_false(pa_cmdline_true("0"));
	assert_false(pa_cmdline_true("off"));
	assert_false(pa_cmdline_true("n"));
	assert_false(pa_cmdline_true(""));
}

static void node_lists(void **state)
{
	static const struct {
		const char *text;
		int count;
	} cases[] = {
		{ "0\n", 1 }, { "0-1\n", 2 }, { "0-3,8-11\n", 8 }, { "0,2,4", 3 },
		{ "", -1 }, { "\n", -1 }, { "a", -1 }, { "3-1", -1 }, { "0-", -1 },
		{ "0,,1", -1 }, { "999999", -1 }, { "0 1", -1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (pa_node_list_count(cases[i].text) != cases[i].count)
			fail_msg("\"%s\": %d, want %d", cases[i].text,
				 pa_node_list_count(cases[i].text), cases[i].count);
}

static void cpuinfo(void **state)
{
	static const char two[] =
		"processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\n"
		"model\t\t: 1\nflags\t\t: fpu vme hypervisor lahf_lm\n\n"
		"processor\t: 1\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n";
	struct pa_host h = { 0 };

	(void)state;
	pa_host_clear(&h);
	assert_int_equal(pa_cpuinfo_parse(two, &h), 0);
	assert_string_equal(h.cpu_vendor, "AuthenticAMD");
	assert_int_equal(h.cpu_family, 25);
	assert_int_equal(h.hypervisor, 1);
	pa_host_clear(&h);
	/* Bare metal, where the flag is missing; a word merely containing
	 * it does not count. */
	assert_int_equal(pa_cpuinfo_parse("vendor_id\t: GenuineIntel\nflags\t: fpu vmx nothypervisor\n",
					  &h), 0);
	assert_int_equal(h.hypervisor, 0);
	pa_host_clear(&h);
	/* arm64 and friends: no vendor_id, no family, no flags. */
	assert_int_equal(pa_cpuinfo_parse("processor\t: 0\nBogoMIPS\t: 50.00\n",
					  &h), 0);
	assert_null(h.cpu_vendor);
	assert_int_equal(h.cpu_family, -1);
	assert_int_equal(h.hypervisor, -1);
	assert_int_equal(pa_cpuinfo_parse("cpu family: x\nvendor_id:\n", &h), 0);
	assert_string_equal(h.cpu_vendor, "");
	assert_int_equal(h.cpu_family, -1);
	pa_host_clear(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(split_like_the_kernel),
		cmocka_unit_test(options_with_values),
		cmocka_unit_test(booleans),
		cmocka_unit_test(node_lists),
		cmocka_unit_test(cpuinfo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
