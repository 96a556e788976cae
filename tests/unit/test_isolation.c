// SPDX-License-Identifier: GPL-2.0
/* The groups ACS supports, as pci_device_group() forms them, on small
 * topologies built in the test. */
#include "testutil.h"

#include <string.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "isolation.h"

#define RP	PCI_EXP_TYPE_ROOT_PORT
#define USP	PCI_EXP_TYPE_UPSTREAM
#define DSP	PCI_EXP_TYPE_DOWNSTREAM
#define EP	PCI_EXP_TYPE_ENDPOINT
#define PCIB	PCI_EXP_TYPE_PCI_BRIDGE
#define MF	PCIEAUDIT_DEV_F_MULTIFUNCTION
#define LNK	TEST_LINK(3, 8)
#define FULL	0x1d	/* SrcValid ReqRedir CmpltRedir UpstreamFwd */

/* d(bus, devfn, up_bus, up_devfn, type, has_acs, ctrl, flags) */
#define D(b, df, ub, udf, t, acs, ctrl, fl) \
	{ 0, b, df, ub, udf, t == EP ? 0x020000 : 0x060400, t, 0, LNK, LNK, acs, ctrl, fl }

static void build(struct pa_report *rep, const struct test_dev *devs, size_t n)
{
	*rep = (struct pa_report){ 0 };
	for (size_t i = 0; i < n; i++)
		test_add_dev(rep, &devs[i]);
	pa_report_sort(rep);
}

static size_t at(const struct pa_report *rep, uint8_t bus, uint8_t devfn)
{
	const struct pa_addr a = { 0, bus, devfn };
	const struct pa_device *d = pa_report_find(rep, &a);

	assert_non_null(d);
	return (size_t)(d - rep->devices);
}

static bool together(struct pa_isolation *iso, const struct pa_report *rep,
		     uint8_t b1, uint8_t f1, uint8_t b2, uint8_t f2)
{
	return pa_isolation_together(iso, at(rep, b1, f1), at(rep, b2, f2));
}

static void flags(void **state)
{
	struct pa_device d = { .pcie_type = DSP, .has_acs = true,
			       .acs = { .cap = 0x5f, .ctrl = 0x1d } };

	(void)state;
	assert_true(pa_acs_isolates(&d, d.acs.ctrl));
	assert_int_equal(pa_acs_req_missing(&d, 0x11), PCI_ACS_RR | PCI_ACS_CR);
	/* A flag the capability lacks counts as hard-wired on. */
	d.acs.cap = 0x5b;
	assert_true(pa_acs_isolates(&d, 0x19));
	d.has_acs = false;
	assert_false(pa_acs_isolates(&d, 0));
	assert_int_equal(pa_acs_req_missing(&d, 0), PA_ACS_REQ);
	/* Single-function endpoints and upstream ports need none. */
	d.pcie_type = EP;
	assert_true(pa_acs_isolates(&d, 0));
	d.flags = MF;
	assert_false(pa_acs_isolates(&d, 0));
	d.pcie_type = PCIB;
	assert_false(pa_acs_isolates(&d, 0));
	d.pcie_type = -1;
	assert_false(pa_acs_isolates(&d, 0));
}

/* Root port with ACS, one without; a switch below the first whose second
 * downstream port lacks ACS. */
static void ports(void **state)
{
	static const struct test_dev devs[] = {
		D(0x00, 0x08, -1, 0, RP, true, FULL, 0),
		D(0x01, 0x00, 0x00, 0x08, USP, false, 0, 0),
		D(0x02, 0x00, 0x01, 0x00, DSP, true, FULL, 0),
		D(0x02, 0x08, 0x01, 0x00, DSP, false, 0, 0),
		D(0x03, 0x00, 0x02, 0x00, EP, false, 0, 0),
		D(0x04, 0x00, 0x02, 0x08, EP, false, 0, 0),
		D(0x00, 0x10, -1, 0, RP, false, 0, 0),
		D(0x05, 0x00, 0x00, 0x10, EP, false, 0, 0),
	};
	struct pa_report rep;
	struct pa_isolation iso;
	struct pa_addr_list why = { 0 };

	(void)state;
	build(&rep, devs, sizeof(devs) / sizeof(devs[0]));
	assert_int_equal(pa_isolation_compute(&rep, &iso), 0);
	assert_false(together(&iso, &rep, 0x03, 0, 0x02, 0x00));
	assert_false(together(&iso, &rep, 0x02, 0x00, 0x01, 0x00));
	/* Below a port without ACS: with the port, not with its peers. */
	assert_true(together(&iso, &rep, 0x04, 0, 0x02, 0x08));
	assert_false(together(&iso, &rep, 0x04, 0, 0x03, 0));
	assert_true(together(&iso, &rep, 0x05, 0, 0x00, 0x10));
	assert_false(together(&iso, &rep, 0x05, 0, 0x00, 0x08));
	assert_int_equal(pa_isolation_culprits(&rep, at(&rep, 0x04, 0), &why), 0);
	assert_int_equal(why.n, 1);
	assert_int_equal(why.addrs[0].devfn, 0x08);
	pa_addr_list_clear(&why);
	pa_isolation_clear(&iso);
	pa_report_clear(&rep);
}

/* A root port without ACS puts its whole subtree in one group. */
static void root_port_without_acs(void **state)
{
	static const struct test_dev devs[] = {
		D(0x00, 0x08, -1, 0, RP, false, 0, 0),
		D(0x01, 0x00, 0x00, 0x08, USP, false, 0, 0),
		D(0x02, 0x00, 0x01, 0x00, DSP, true, FULL, 0),
		D(0x02, 0x08, 0x01, 0x00, DSP, true, FULL, 0),
		D(0x03, 0x00, 0x02, 0x00, EP, false, 0, 0),
		D(0x04, 0x00, 0x02, 0x08, EP, false, 0, 0),
	};
	struct pa_report rep;
	struct pa_isolation iso;
	struct pa_addr_list why = { 0 };

	(void)state;
	build(&rep, devs, sizeof(devs) / sizeof(devs[0]));
	assert_int_equal(pa_isolation_compute(&rep, &iso), 0);
	assert_true(together(&iso, &rep, 0x03, 0, 0x04, 0));
	assert_true(together(&iso, &rep, 0x03, 0, 0x00, 0x08));
	assert_int_equal(pa_isolation_culprits(&rep, at(&rep, 0x03, 0), &why), 0);
	assert_int_equal(why.n, 1);
	assert_int_equal(why.addrs[0].bus, 0);
	pa_addr_list_clear(&why);
	pa_isolation_clear(&iso);
	pa_report_clear(&rep);
}

/* Conventional PCI behind a PCIe-to-PCI bridge aliases to the bridge. */
static void pci_bridge(void **state)
{
	static const struct test_dev devs[] = {
		D(0x00, 0x08, -1, 0, RP, true, FULL, 0),
		D(0x01, 0x00, 0x00, 0x08, PCIB, false, 0, 0),
		{ 0, 0x02, 0x08, 0x01, 0x00, 0x020000, -1, 0, 0, 0, false, 0, 0 },
		{ 0, 0x02, 0x10, 0x01, 0x00, 0x0c0300, -1, 0, 0, 0, false, 0, 0 },
	};
	struct pa_report rep;
	struct pa_isolation iso;

	(void)state;
	build(&rep, devs, sizeof(devs) / sizeof(devs[0]));
	assert_int_equal(pa_isolation_compute(&rep, &iso), 0);
	assert_true(together(&iso, &rep, 0x02, 0x08, 0x02, 0x10));
	assert_true(together(&iso, &rep, 0x02, 0x08, 0x01, 0x00));
	assert_false(together(&iso, &rep, 0x01, 0x00, 0x00, 0x08));
	pa_isolation_clear(&iso);
	pa_report_clear(&rep);
}

/* Functions without ACS share a group; one with ACS stands alone. */
static void multifunction(void **state)
{
	static const struct test_dev devs[] = {
		D(0x00, 0x08, -1, 0, RP, true, FULL, 0),
		D(0x01, 0x00, 0x00, 0x08, EP, true, FULL, MF),
		D(0x01, 0x01, 0x00, 0x08, EP, false, 0, MF),
		D(0x01, 0x02, 0x00, 0x08, EP, true, 0x01, MF),
	};
	struct pa_report rep;
	struct pa_isolation iso;
	struct pa_addr_list why = { 0 };

	(void)state;
	build(&rep, devs, sizeof(devs) / sizeof(devs[0]));
	assert_int_equal(pa_isolation_compute(&rep, &iso), 0);
	assert_false(together(&iso, &rep, 0x01, 0x00, 0x01, 0x01));
	assert_true(together(&iso, &rep, 0x01, 0x01, 0x01, 0x02));
	assert_int_equal(pa_isolation_culprits(&rep, at(&rep, 0x01, 0x01), &why), 0);
	assert_int_equal(why.n, 1);
	assert_int_equal(why.addrs[0].devfn, 0x01);
	pa_addr_list_clear(&why);
	pa_isolation_clear(&iso);
	pa_report_clear(&rep);
}

/* Upstream links that loop (a corrupt live report) end the walks. */
static void upstream_cycle(void **state)
{
	static const struct test_dev devs[] = {
		D(0x01, 0x00, 0x02, 0x00, DSP, false, 0, 0),
		D(0x02, 0x00, 0x01, 0x00, DSP, false, 0, 0),
	};
	struct pa_report rep;
	struct pa_isolation iso;
	struct pa_addr_list why = { 0 };

	(void)state;
	build(&rep, devs, sizeof(devs) / sizeof(devs[0]));
	assert_int_equal(pa_isolation_compute(&rep, &iso), 0);
	assert_int_equal(pa_isolation_culprits(&rep, 0, &why), 0);
	assert_true(why.n <= rep.ndevices + 1);
	pa_addr_list_clear(&why);
	pa_isolation_clear(&iso);
	pa_report_clear(&rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(flags),
		cmocka_unit_test(ports),
		cmocka_unit_test(root_port_without_acs),
		cmocka_unit_test(pci_bridge),
		cmocka_unit_test(multifunction),
		cmocka_unit_test(upstream_cycle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
