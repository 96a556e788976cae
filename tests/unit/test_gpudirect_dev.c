// SPDX-License-Identifier: GPL-2.0
/*
 * gpudirect.bar-small, mps-mismatch, relaxed-ordering, baseline.bar-unassigned
 * and the grouping of findings that share a cause and a remedy. Expected
 * values are worked out by hand from the register encodings (PCIe Base 6.0
 * §7.5.3.3-4 Device Capabilities and Control, §7.8.6 Resizable BAR).
 */
#include <string.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "testutil.h"
#include "check.h"
#include "check_out.h"
#include "fabric.h"

static const struct pa_addr gpu = { 0, 3, 0 }, nic = { 0, 4, 0 };

/* GPU 03:00.0 and NIC 04:00.0 below one switch without redirection. */
static void machine(struct pa_report *rep)
{
	const uint32_t x16 = TEST_LINK(4, 16);

	*rep = (struct pa_report){ 0 };
	rep->info.kernel_release = strdup("6.15.0-1-amd64");
	test_add_dev(rep, &(struct test_dev){ .bus = 0, .devfn = 0x08,
		.up_bus = -1, .class = 0x060400,
		.pcie_type = PCI_EXP_TYPE_ROOT_PORT, .lnkcap = x16, .lnksta = x16 });
	test_add_dev(rep, &(struct test_dev){ .bus = 1, .up_bus = 0,
		.up_devfn = 0x08, .class = 0x060400,
		.pcie_type = PCI_EXP_TYPE_UPSTREAM, .lnkcap = x16, .lnksta = x16 });
	test_add_dev(rep, &(struct test_dev){ .bus = 2, .up_bus = 1,
		.class = 0x060400, .pcie_type = PCI_EXP_TYPE_DOWNSTREAM,
		.lnkcap = x16, .lnksta = x16 });
	test_add_dev(rep, &(struct test_dev){ .bus = 2, .devfn = 0x08,
		.up_bus = 1, .class = 0x060400,
		.pcie_type = PCI_EXP_TYPE_DOWNSTREAM, .lnkcap = x16, .lnksta = x16 });
	test_add_dev(rep, &(struct test_dev){ .bus = 3, .up_bus = 2,
		.class = 0x030200, .pcie_type = PCI_EXP_TYPE_ENDPOINT,
		.lnkcap = x16, .lnksta = x16 });
	test_add_dev(rep, &(struct test_dev){ .bus = 4, .up_bus = 2,
		.up_devfn = 0x08, .class = 0x020000,
		.pcie_type = PCI_EXP_TYPE_ENDPOINT, .lnkcap = x16, .lnksta = x16 });
	pa_report_sort(rep);
	/* Every function: MPS 256 (DevCtl 7:5 = 1), MRRS 512 (14:12 = 2),
	 * relaxed ordering on (bit 4). */
	for (size_t i = 0; i < rep->ndevices; i++) {
		struct pa_device *d = &rep->devices[i];

		d->caps_known = true;
		d->has_expdev = true;
		d->devcap = 0x1;
		d->devctl = 2 << 12 | 1 << 5 | 0x10;
	}
	test_add_pair(rep, gpu, nic, PCIEAUDIT_P2P_MAP_BUS_ADDR,
		      PCIEAUDIT_P2P_PATH_COMMON_UPSTREAM,
		      PCIEAUDIT_P2P_HOST_NOT_NEEDED);
}

static struct pa_device *dev(struct pa_report *rep, struct pa_addr a)
{
	for (size_t i = 0; i < rep->ndevices; i++)
		if (pa_addr_eq(&rep->devices[i].addr, &a))
			return &rep->devices[i];
	fail_msg("no such device");
	return NULL;
}

static void run(struct pa_report *rep, struct pa_check *c, int profile)
{
	struct pa_policy pol;

	pa_policy_default(&pol);
	for (int p = 0; p < PA_NPROFILES; p++)
		pol.profiles[p] = p == profile;
	assert_int_equal(test_check_run(rep, &pol, c), 0);
}

static size_t count(const struct pa_check *c, enum pa_rule_id rule,
		    enum pa_severity sev)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nfindings; i++)
		n += c->findings[i].rule == rule && c->findings[i].severity == sev;
	return n;
}

static void clean(void **state)
{
	struct pa_report rep;
	struct pa_check c;

	(void)state;
	machine(&rep);
	run(&rep, &c, PA_PROFILE_GPUDIRECT);
	assert_int_equal(c.nfindings, 0);
	assert_int_equal(c.state[PA_GD_MPS_MISMATCH], PA_RULE_RAN);
	assert_int_equal(c.state[PA_GD_RELAXED_ORDERING], PA_RULE_RAN);
	/* Unknown is not none: no memory size, no verdict on the BAR. */
	assert_int_equal(c.state[PA_GD_BAR_SMALL], PA_RULE_SKIPPED);
	pa_check_clear(&c);
	pa_report_clear(&rep);
}

static void mps_mismatch(void **state)
{
	struct pa_report rep;
	struct pa_check c;

	(void)state;
	machine(&rep);
	dev(&rep, nic)->devctl = 2 << 12 | 0 << 5 | 0x10;	/* MPS 128 */
	run(&rep, &c, PA_PROFILE_GPUDIRECT);
	assert_int_equal(count(&c, PA_GD_MPS_MISMATCH, PA_SEV_WARN), 1);
	assert_non_null(strstr(c.findings[0].message, "0000:04:00.0 128"));
	assert_non_null(strstr(c.findings[0].message, "0000:03:00.0 256"));
	assert_string_equal(c.findings[0].remedy, "pci=pcie_bus_peer2peer");
	pa_check_clear(&c);
	/* Only MRRS differs between the ends: info. */
	dev(&rep, nic)->devctl = 5 << 12 | 1 << 5 | 0x10;	/* MRRS 4096 */
	run(&rep, &c, PA_PROFILE_GPUDIRECT);
	assert_int_equal(count(&c, PA_GD_MPS_MISMATCH, PA_SEV_INFO), 1);
	assert_int_equal(count(&c, PA_GD_MPS_MISMATCH, PA_SEV_WARN), 0);
	pa_check_clear(&c);
	pa_report_clear(&rep);
}

static void relaxed_ordering_grouped(void **state)
{
	struct pa_report rep;
	struct pa_check c;
	char *text;
	int ret;

	(void)state;
	machine(&rep);
	dev(&rep, gpu)->devctl &= ~0x10;
	dev(&rep, nic)->devctl &= ~0x10;
	run(&rep, &c, PA_PROFILE_GPUDIRECT);
	assert_int_equal(count(&c, PA_GD_RELAXED_ORDERING, PA_SEV_WARN), 2);
	assert_string_equal(c.findings[0].remedy,
			    "for d in 0000:03:00.0 0000:04:00.0; do setpci -s $d CAP_EXP+0x8.w=0010:0010; done");
	assert_true(pa_finding_same_group(&c.findings[0], &c.findings[1]));
	/* Text: one block listing both; JSON keeps two findings. */
	text = NULL;
	{
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		assert_non_null(f);
		ret = pa_check_text(f, &rep, &c, "test", false);
		fclose(f);
	}
	assert_int_equal(ret, 0);
	assert_non_null(strstr(text, "        2 of them:\n          GPU 0000:03:00.0\n          NIC 0000:04:00.0\n"));
	assert_null(strstr(strstr(text, "relaxed-ordering") + 1, "relaxed-ordering:"));
	free(text);
	pa_check_clear(&c);
	pa_report_clear(&rep);
}

/* A 256M BAR1 resizable up to 16G on a GPU with 16G: the firmware left it
 * small. Then no prefetchable BAR big enough and none that can grow. */
static void bar_small(void **state)
{
	struct pa_report rep;
	struct pa_check c;
	struct pa_device *g;

	(void)state;
	machine(&rep);
	g = dev(&rep, gpu);
	g->mem_bytes = 16ULL << 30;
	g->nbars = 2;
	g->bars[0] = (struct pa_bar){ .index = 0, .size = 16ULL << 20,
				      .flags = PCIEAUDIT_BAR_F_MEM };
	g->bars[1] = (struct pa_bar){ .index = 1, .size = 256ULL << 20,
		.flags = PCIEAUDIT_BAR_F_MEM | PCIEAUDIT_BAR_F_PREFETCH |
			 PCIEAUDIT_BAR_F_MEM64,
		/* Capability bits 12-18: 2^8 to 2^14 MB, 256M to 16G;
		 * Control bits 13:8 = 8: 256M now. */
		.resizable = true, .rebar_cap = 0x7f << 12,
		.rebar_ctrl = 8 << 8 | 1 };
	run(&rep, &c, PA_PROFILE_GPUDIRECT);
	assert_int_equal(count(&c, PA_GD_BAR_SMALL, PA_SEV_WARN), 1);
	assert_int_equal(c.findings[0].remedy_kind, PA_REMEDY_BIOS);
	assert_non_null(strstr(c.findings[0].message, "BAR1, 256M) is smaller than its 16G of memory; the BAR is resizable up to 16G"));
	pa_check_clear(&c);
	g->bars[1].rebar_cap = 1u << 12;	/* only 256M */
	run(&rep, &c, PA_PROFILE_GPUDIRECT);
	assert_int_equal(c.findings[0].remedy_kind, PA_REMEDY_HARDWARE);
	pa_check_clear(&c);
	/* The size from the fabric (NVML) instead of mem_bytes. */
	{
		struct pa_fabric fab;

		pa_fabric_init(&fab);
		assert_int_equal(pa_fabric_add_mem(&fab, &gpu, 16ULL << 30,
						   PA_ACCEL_NVLINK), 0);
		g->mem_bytes = 0;
		rep.fabric = &fab;
		run(&rep, &c, PA_PROFILE_GPUDIRECT);
		assert_int_equal(count(&c, PA_GD_BAR_SMALL, PA_SEV_WARN), 1);
		pa_check_clear(&c);
		g->bars[1].size = 16ULL << 30;
		run(&rep, &c, PA_PROFILE_GPUDIRECT);
		assert_int_equal(count(&c, PA_GD_BAR_SMALL, PA_SEV_WARN), 0);
		pa_check_clear(&c);
		rep.fabric = NULL;
		pa_fabric_clear(&fab);
		g->mem_bytes = 16ULL << 30;
	}
	run(&rep, &c, PA_PROFILE_GPUDIRECT);
	assert_int_equal(count(&c, PA_GD_BAR_SMALL, PA_SEV_WARN), 0);
	assert_int_equal(c.state[PA_GD_BAR_SMALL], PA_RULE_RAN);
	pa_check_clear(&c);
	pa_report_clear(&rep);
}

static void bar_unassigned(void **state)
{
	struct pa_report rep;
	struct pa_check c;
	struct pa_device *n;

	(void)state;
	machine(&rep);
	n = dev(&rep, nic);
	n->nbars = 1;
	n->bars[0] = (struct pa_bar){ .index = 2, .size = 1ULL << 20,
		.flags = PCIEAUDIT_BAR_F_MEM | PCIEAUDIT_BAR_F_UNASSIGNED };
	run(&rep, &c, PA_PROFILE_BASELINE);
	assert_int_equal(count(&c, PA_BL_BAR_UNASSIGNED, PA_SEV_FAIL), 1);
	pa_check_clear(&c);
	n->bars[0].flags &= ~PCIEAUDIT_BAR_F_UNASSIGNED;
	run(&rep, &c, PA_PROFILE_BASELINE);
	assert_int_equal(count(&c, PA_BL_BAR_UNASSIGNED, PA_SEV_FAIL), 0);
	assert_int_equal(c.state[PA_BL_BAR_UNASSIGNED], PA_RULE_RAN);
	pa_check_clear(&c);
	/* No facts (an older module): skipped, not passed. */
	for (size_t i = 0; i < rep.ndevices; i++)
		rep.devices[i].caps_known = false;
	run(&rep, &c, PA_PROFILE_BASELINE);
	assert_int_equal(c.state[PA_BL_BAR_UNASSIGNED], PA_RULE_SKIPPED);
	pa_check_clear(&c);
	pa_report_clear(&rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clean),
		cmocka_unit_test(mps_mismatch),
		cmocka_unit_test(relaxed_ordering_grouped),
		cmocka_unit_test(bar_small),
		cmocka_unit_test(bar_unassigned),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
