// SPDX-License-Identifier: GPL-2.0
/* Text output: snapshots of the fixture's tree and of the info lines. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>

#include "text_out.h"

static int render_report(FILE *f, const void *rep)
{
	return pa_text_report(f, rep);
}

static int render_info(FILE *f, const void *info)
{
	return pa_text_info(f, info);
}

static const char report_snapshot[] =
"pcieaudit 0.1.0, kernel 6.1.0-test, IOMMU translated (lazy), 4 PCI functions, 2 IOMMU groups\n"
"[0000:00]\n"
"+- 0000:00:00.0 PCI Device [8086:1234] Host bridge: Intel Corporation Test Host Bridge (no driver, NUMA node 0)\n"
"|     ACS: none\n"
"|     Link: none\n"
"|     IOMMU: group 0, domain DMA (default DMA) via dmar0, DMA ownership unclaimed\n"
"\\- 0000:00:01.0 Root Port [8086:1901] PCI bridge: Intel Corporation Test Root Port (driver pcieport, NUMA node 0)\n"
"   |  ACSCap: SrcValid+ TransBlk+ ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans+\n"
"   |  ACSCtl: SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-\n"
"   |  Link: 16GT/s x16 (max 16GT/s x16)\n"
"   |  IOMMU: group 1, domain DMA-FQ (default DMA-FQ) via dmar0\n"
"   +- 0000:01:00.0 Endpoint [10de:1eb8] 3D controller: NVIDIA Corporation TU104GL [Tesla T4] (driver vfio-pci, NUMA node unknown)\n"
"   |     SR-IOV: PF with VFs enabled\n"
"   |     ACS: none\n"
"   |     Link: 2.5GT/s x8 (max 8GT/s x16) DOWNGRADED\n"
"   |     Device: MPS 256 (max 512), MRRS 512, RlxdOrd+, ATS+\n"
"   |     BARs: 0 16M mem; 1 256M mem pref 64-bit, resizable 4M-8G\n"
"   |     IOMMU: group 1, domain unmanaged (default DMA-FQ, derived)\n"
"   \\- 0000:01:00.2 Endpoint [10de:1eb9] unknown vendor unknown device (no driver, NUMA node unknown)\n"
"         SR-IOV: VF of 0000:01:00.0\n"
"         ACS: none\n"
"         Link: none\n"
"         IOMMU: none\n"
"\n"
"IOMMU groups:\n"
"  group 0: 0000:00:00.0\n"
"  group 1: 0000:00:01.0 0000:01:00.0 (+1 non-PCI)\n";

static void report_tree(void **state)
{
	struct pa_report rep;
	char *text;
	int ret;

	(void)state;
	test_fixture_report(&rep);
	text = test_render(render_report, &rep, &ret);
	pa_report_clear(&rep);
	assert_int_equal(ret, 0);
	assert_string_equal(text, report_snapshot);
	free(text);
}

static const char info_snapshot[] =
"module version:  0.1.0\n"
"kernel release:  6.1.0-test\n"
"P2P rules:       Linux 6.1\n"
"features:        p2pdma+ iommu_api+ iommu_present+ pci_iov- pci_ats-\n"
"IOMMU default:   translated\n"
"IOMMU strict:    lazy\n"
"PCI functions:   4\n"
"IOMMU groups:    2\n";

static void info_lines(void **state)
{
	struct pa_report rep;
	char *text;
	int ret;

	(void)state;
	test_fixture_report(&rep);
	text = test_render(render_info, &rep.info, &ret);
	pa_report_clear(&rep);
	assert_int_equal(ret, 0);
	assert_string_equal(text, info_snapshot);
	free(text);
}

static void info_without_iommu(void **state)
{
	const struct pa_info in = { .features = PCIEAUDIT_F_PCI_IOV };
	char *text;
	int ret;

	(void)state;
	text = test_render(render_info, &in, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(text, "IOMMU default:   none\n"));
	assert_non_null(strstr(text, "pci_iov+"));
	/* A module that does not name its P2P rules: no line for them. */
	assert_null(strstr(text, "P2P rules"));
	free(text);
}

static struct pa_device bare_device(uint8_t bus, uint8_t devfn)
{
	return (struct pa_device){
		.addr = { 0, bus, devfn }, .pcie_type = -1, .numa_node = -1,
	};
}

/* One device, its upstream bridge not in the report (report BDF); plus a
 * link that is down and a capped target speed. */
static void lone_device(void **state)
{
	struct pa_report rep = { 0 };
	struct pa_device d = bare_device(4, 0);
	char *text;
	int ret;

	(void)state;
	d.has_upstream = true;
	d.upstream = (struct pa_addr){ 0, 3, 0 };
	d.has_link = true;
	d.link = (struct pa_link){ .lnkcap = 4 | 16 << 4, .lnksta = 1 };
	assert_int_equal(pa_report_add_device(&rep, &d), 0);
	text = test_render(render_report, &rep, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(text, "\n[0000:04]\n\\- 0000:04:00.0 PCI Device"));
	assert_non_null(strstr(text, "      Link: down (max 16GT/s x16)\n"));
	free(text);

	rep.devices[0].link = (struct pa_link){
		.lnkcap = 4 | 16 << 4, .lnksta = 3 | 16 << 4,
		.has_lnkctl2 = true, .lnkctl2 = 3,
	};
	text = test_render(render_report, &rep, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(text, "Link: 8GT/s x16 (max 16GT/s x16, target 8GT/s) DOWNGRADED\n"));
	free(text);
	pa_report_clear(&rep);
}

/* Corrupt data: two devices upstream of each other. Both still print. */
static void upstream_cycle(void **state)
{
	struct pa_report rep = { 0 };
	struct pa_device a = bare_device(1, 0), b = bare_device(2, 0);
	char *text;
	int ret;

	(void)state;
	a.has_upstream = b.has_upstream = true;
	a.upstream = b.addr;
	b.upstream = a.addr;
	assert_int_equal(pa_report_add_device(&rep, &a), 0);
	assert_int_equal(pa_report_add_device(&rep, &b), 0);
	text = test_render(render_report, &rep, &ret);
	pa_report_clear(&rep);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(text, "0000:01:00.0 PCI Device"));
	assert_non_null(strstr(text, "0000:02:00.0 PCI Device"));
	free(text);
}

static void roots_on_two_buses(void **state)
{
	struct pa_report rep = { 0 };
	struct pa_device a = bare_device(0, 0), b = bare_device(0x80, 0);
	char *text;
	int ret;

	(void)state;
	b.addr.domain = 1;
	b.flags = PCIEAUDIT_DEV_F_DISCONNECTED;
	assert_int_equal(pa_report_add_device(&rep, &a), 0);
	assert_int_equal(pa_report_add_device(&rep, &b), 0);
	text = test_render(render_report, &rep, &ret);
	pa_report_clear(&rep);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(text, "[0000:00]\n\\- 0000:00:00.0"));
	assert_non_null(strstr(text, "[0001:80]\n\\- 0001:80:00.0"));
	assert_non_null(strstr(text, "NUMA node unknown) DISCONNECTED\n"));
	free(text);
}

/* The power state in the tree; registers that read all ones are unknown,
 * never "none". */
static void power_and_unreadable(void **state)
{
	struct pa_report rep;
	char *text;
	int ret;

	(void)state;
	test_fixture_report(&rep);
	rep.devices[1].power_state = PCIEAUDIT_POWER_D0;
	rep.devices[2].power_state = PCIEAUDIT_POWER_D3HOT;
	rep.devices[3].power_state = PCIEAUDIT_POWER_UNKNOWN;
	rep.devices[3].config_unreadable = true;
	text = test_render(render_report, &rep, &ret);
	pa_report_clear(&rep);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(text, "   |  Power: D0\n   |  ACSCap: "));
	assert_non_null(strstr(text, "   |     SR-IOV: PF with VFs enabled\n"
				     "   |     Power: D3hot\n"
				     "   |     ACS: none\n"));
	assert_non_null(strstr(text,
		"         Power: unknown (D3cold or gone: configuration space not readable)\n"
		"         ACS: unknown: not readable now (power state unknown)\n"
		"         Link: unknown: not readable now (power state unknown)\n"
		"         IOMMU: none\n"));
	/* No PM capability: no line. */
	assert_null(strstr(text, "0000:00:00.0 PCI Device [8086:1234] Host bridge: Intel Corporation Test Host Bridge (no driver, NUMA node 0)\n|     Power"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(report_tree),
		cmocka_unit_test(info_lines),
		cmocka_unit_test(info_without_iommu),
		cmocka_unit_test(lone_device),
		cmocka_unit_test(upstream_cycle),
		cmocka_unit_test(roots_on_two_buses),
		cmocka_unit_test(power_and_unreadable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
