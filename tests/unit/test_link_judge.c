// SPDX-License-Identifier: GPL-2.0
/*
 * Links judged as lspci and the spec have them (issue 16, findings 6 and
 * 7): a root or downstream port that trained to its partner's capability
 * is not DOWNGRADED, Link Control 2 of an endpoint's other functions is
 * reserved, and an idle GPU's link is judged once, as INFO, by every rule.
 *
 * The machine: a Gen5 root port with a Gen4 x16 GPU idling at 2.5GT/s
 * (its audio and USB functions share the link), and a second GPU at Gen4
 * x16 below another root port.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "check.h"
#include "json_out.h"
#include "policy.h"
#include "text_out.h"

#define MF PCIEAUDIT_DEV_F_MULTIFUNCTION

static void machine(struct pa_report *rep)
{
	const struct test_dev devs[] = {
		{ 0, 0x00, 0x08, -1, 0, 0x060400, PCI_EXP_TYPE_ROOT_PORT, 0,
		  TEST_LINK(5, 16), TEST_LINK(1, 16), true, 0, 0 },
		{ 0, 0x01, 0x00, 0x00, 0x08, 0x030000, PCI_EXP_TYPE_ENDPOINT, 0,
		  TEST_LINK(4, 16), TEST_LINK(1, 16), false, 0, MF },
		{ 0, 0x01, 0x01, 0x00, 0x08, 0x040300, PCI_EXP_TYPE_ENDPOINT, 0,
		  TEST_LINK(4, 16), TEST_LINK(1, 16), false, 0, MF },
		{ 0, 0x01, 0x02, 0x00, 0x08, 0x0c0330, PCI_EXP_TYPE_ENDPOINT, 0,
		  TEST_LINK(4, 16), TEST_LINK(1, 16), false, 0, MF },
		{ 0, 0x00, 0x10, -1, 0, 0x060400, PCI_EXP_TYPE_ROOT_PORT, 0,
		  TEST_LINK(5, 16), TEST_LINK(4, 16), true, 0, 0 },
		{ 0, 0x02, 0x00, 0x00, 0x10, 0x030200, PCI_EXP_TYPE_ENDPOINT, 0,
		  TEST_LINK(4, 16), TEST_LINK(4, 16), false, 0, 0 },
	};

	*rep = (struct pa_report){ 0 };
	for (size_t i = 0; i < sizeof(devs) / sizeof(devs[0]); i++)
		test_add_dev(rep, &devs[i]);
	/* Link Control 2 targets 5GT/s in the other functions' reserved
	 * register, 16GT/s in function 0's. */
	for (size_t i = 0; i < rep->ndevices; i++) {
		rep->devices[i].link.has_lnkctl2 = true;
		rep->devices[i].link.lnkctl2 = rep->devices[i].addr.devfn &&
			rep->devices[i].addr.bus == 1 ? 2 : 4;
	}
	rep->devices[0].link.lnkctl2 = 5;
	rep->devices[4].link.lnkctl2 = 5;
	pa_report_sort(rep);
}

static char *text_of(const struct pa_report *rep, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(json ? pa_json_report(f, rep) : pa_text_report(f, rep), 0);
	fclose(f);
	return buf;
}

/* The text from bdf's device line to the next device line of the tree. */
static char *block_of(const char *text, const char *bdf)
{
	const char *start = strstr(text, bdf), *end;

	assert_non_null(start);
	end = strstr(start + 1, "- 0000:");
	return strndup(start, end ? (size_t)(end - start) : strlen(start));
}

/* Finding 7: the partner decides; lspci marks neither port. */
static void root_port_not_downgraded(void **state)
{
	struct pa_report rep;
	char *text, *block;

	(void)state;
	machine(&rep);
	text = text_of(&rep, false);
	block = block_of(text, "0000:00:01.0");
	assert_null(strstr(block, "DOWNGRADED"));
	free(block);
	block = block_of(text, "0000:00:02.0");
	assert_null(strstr(block, "DOWNGRADED"));
	free(block);
	/* The GPU below does report its slow link, as lspci does. */
	block = block_of(text, "0000:01:00.0");
	assert_non_null(strstr(block, "DOWNGRADED"));
	free(block);
	free(text);
	pa_report_clear(&rep);
}

/* Finding 7: LnkCtl2 is reserved in an endpoint's other functions. */
static void lnkctl2_reserved(void **state)
{
	struct pa_report rep;
	char *text, *block;

	(void)state;
	machine(&rep);
	text = text_of(&rep, false);
	block = block_of(text, "0000:01:00.1");
	assert_null(strstr(block, "target"));
	free(block);
	free(text);
	text = text_of(&rep, true);
	/* Function 0's own target is decoded still. */
	assert_non_null(strstr(text, "\"target_speed\":16"));
	assert_null(strstr(text, "\"target_speed\":5"));
	free(text);
	pa_report_clear(&rep);
}

static void run(struct pa_report *rep, int profile, struct pa_check *c)
{
	struct pa_policy pol;

	pa_policy_default(&pol);
	for (int p = 0; p < PA_NPROFILES; p++)
		pol.profiles[p] = p == profile;
	assert_int_equal(pa_check_run(rep, &pol, c), 0);
	pa_policy_clear(&pol);
}

static size_t count(const struct pa_check *c, enum pa_rule_id rule)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nfindings; i++)
		n += c->findings[i].rule == rule;
	return n;
}

/* Finding 6: one link, one finding, INFO, whatever the rule. */
static void idle_gpu_once_info(void **state)
{
	struct pa_report rep;
	struct pa_check c;

	(void)state;
	machine(&rep);
	run(&rep, PA_PROFILE_BASELINE, &c);
	assert_int_equal(count(&c, PA_BL_LINK_DOWNGRADED), 1);
	assert_int_equal(pa_check_rule_worst(&c, PA_BL_LINK_DOWNGRADED), PA_SEV_INFO);
	pa_check_clear(&c);
	pa_report_clear(&rep);

	machine(&rep);
	run(&rep, PA_PROFILE_GPUDIRECT, &c);
	assert_int_equal(count(&c, PA_GD_LINK_DOWNGRADED), 1);
	assert_int_equal(pa_check_rule_worst(&c, PA_GD_LINK_DOWNGRADED), PA_SEV_INFO);
	assert_int_equal(pa_check_rule_worst(&c, PA_GD_BANDWIDTH_TRAP), PA_SEV_INFO);
	pa_check_clear(&c);
	pa_report_clear(&rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(root_port_not_downgraded),
		cmocka_unit_test(lnkctl2_reserved),
		cmocka_unit_test(idle_gpu_once_info),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
