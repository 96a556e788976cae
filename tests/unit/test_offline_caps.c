// SPDX-License-Identifier: GPL-2.0
/*
 * ATS, device control and BARs without the module: the registers from
 * configuration space, the BAR sizes from sysfs's resource file or lspci
 * -v's "[size=]" (the bytes hold none), unknown without them, never none.
 * Registers placed by hand as the PCIe Base spec lays them out.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "dev_caps.h"
#include "lspci_text.h"
#include "nvsmi_text.h"
#include "sysfs_model.h"


#define PCIE_CAP	0x40
#define ATS_CAP		0x100

/* An endpoint: MPS supported 512, MPS 256, MRRS 512, Relaxed Ordering on;
 * ATS enabled; BAR0 32-bit memory, BAR2-3 64-bit prefetchable, BAR4 0. */
static uint8_t *endpoint(void)
{
	uint8_t *c = calloc(1, 4096);

	assert_non_null(c);
	test_put16(c, PCI_VENDOR_ID, 0x10de);
	test_put16(c, PCI_DEVICE_ID, 0x2335);
	test_put32(c, PCI_CLASS_REVISION, 0x030200a1);
	test_put16(c, PCI_STATUS, PCI_STATUS_CAP_LIST);
	c[PCI_CAPABILITY_LIST] = PCIE_CAP;
	test_put32(c, PCI_BASE_ADDRESS_0, 0xfd000000);
	test_put32(c, PCI_BASE_ADDRESS_2, 0x0000000c);	/* 64-bit, prefetchable */
	test_put32(c, PCI_BASE_ADDRESS_3, 0x00003800);
	c[PCIE_CAP] = PCI_CAP_ID_EXP;
	test_put16(c, PCIE_CAP + PCI_EXP_FLAGS, 2 | PCI_EXP_TYPE_ENDPOINT << 4);
	test_put32(c, PCIE_CAP + PCI_EXP_DEVCAP, 2);
	test_put16(c, PCIE_CAP + PCI_EXP_DEVCTL, 1 << 5 | 2 << 12 | PCI_EXP_DEVCTL_RELAX_EN);
	test_put32(c, ATS_CAP, PCI_EXT_CAP_ID_ATS | 1 << 16);
	test_put16(c, ATS_CAP + PCI_ATS_CAP, 0x0020);
	test_put16(c, ATS_CAP + PCI_ATS_CTRL, PCI_ATS_CTRL_ENABLE);
	return c;
}

static void model_one(struct pa_sysfs_dev *d, struct pa_report *rep)
{
	struct pa_sysfs s = { .devs = d, .n = 1 };

	assert_int_equal(pa_sysfs_model(&s, rep), 0);
	assert_int_equal(rep->ndevices, 1);
}

/* sysfs: the resource file sizes BAR0 (16M) and BAR2 (32G, IORESOURCE_UNSET). */
static void sysfs_resource(void **state)
{
	static const char resource[] =
		"0x00000000fd000000 0x00000000fdffffff 0x0000000000040200\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x0000000000000000 0x00000007ffffffff 0x000000002014220c\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n";
	struct pa_sysfs_dev d = { .name = "0000:03:00.0", .config_len = 4096,
				  .resource = (char *)resource };
	struct pa_report rep;
	const struct pa_device *dev;

	(void)state;
	d.config = endpoint();
	model_one(&d, &rep);
	dev = &rep.devices[0];
	assert_true(dev->caps_known);
	assert_false(dev->bars_unknown);
	assert_int_equal(pa_ats_capable(dev), PA_YES);
	assert_int_equal(pa_ats_enabled(dev), PA_YES);
	assert_int_equal(pa_mps_bytes(dev), 256);
	assert_int_equal(pa_mps_supported_bytes(dev), 512);
	assert_int_equal(pa_mrrs_bytes(dev), 512);
	assert_int_equal(pa_relaxed_ordering(dev), PA_YES);
	assert_int_equal(dev->nbars, 2);
	assert_int_equal(dev->bars[0].index, 0);
	assert_int_equal(dev->bars[0].size, 16u << 20);
	assert_int_equal(dev->bars[0].flags, PCIEAUDIT_BAR_F_MEM);
	assert_int_equal(dev->bars[1].index, 2);
	assert_int_equal(dev->bars[1].size, 32ULL << 30);
	assert_int_equal(dev->bars[1].flags, PCIEAUDIT_BAR_F_MEM |
			 PCIEAUDIT_BAR_F_PREFETCH | PCIEAUDIT_BAR_F_MEM64 |
			 PCIEAUDIT_BAR_F_UNASSIGNED);
	pa_report_clear(&rep);
	free(d.config);
}

/* No resource file, no sizes: registers known, BARs unknown, not none;
 * 256 bytes: ATS (extended space) unknown, MPS still known. */
static void no_sizes(void **state)
{
	struct pa_sysfs_dev d = { .name = "0000:03:00.0", .config_len = 4096 };
	struct pa_report rep;
	const struct pa_device *dev;

	(void)state;
	d.config = endpoint();
	model_one(&d, &rep);
	dev = &rep.devices[0];
	assert_true(dev->caps_known);
	assert_true(dev->bars_unknown);
	assert_int_equal(dev->nbars, 0);
	assert_int_equal(pa_mps_bytes(dev), 256);
	pa_report_clear(&rep);
	d.config_len = 256;
	model_one(&d, &rep);
	dev = &rep.devices[0];
	assert_int_equal(pa_ats_capable(dev), PA_UNKNOWN);
	assert_int_equal(pa_mps_bytes(dev), 256);
	pa_report_clear(&rep);
	free(d.config);
}

/* lspci -v's Region lines: sizes and <unassigned>; lspci -F prints no
 * size, and then nothing is known of any BAR of that function. */
static void lspci_regions(void **state)
{
	static const char text[] =
		"0000:03:00.0 3D controller: NVIDIA Corporation Device 2335 (rev a1)\n"
		"\tControl: I/O- Mem+ BusMaster+\n"
		"\tRegion 0: Memory at fd000000 (32-bit, non-prefetchable) [size=16M]\n"
		"\tRegion 2: Memory at <unassigned> (64-bit, prefetchable) [size=32G]\n"
		"\tRegion 5: I/O ports at e000 [size=128]\n"
		"00: de 10 35 23 06 00 10 00 a1 00 02 03 00 00 00 00\n"
		"\n"
		"0000:04:00.0 Ethernet controller: Intel Corporation Device 1533\n"
		"\tControl: I/O- Mem+ BusMaster+\n"
		"\tRegion 0: Memory at fb000000 (32-bit, non-prefetchable)\n"
		"00: 86 80 33 15 06 00 10 00 03 00 00 02 00 00 00 00\n";
	struct pa_lspci_text t;

	(void)state;
	assert_int_equal(pa_lspci_normalise(text, strlen(text), &t), 0);
	assert_int_equal(t.nfunctions, 2);
	assert_true(t.facts[0].bar_sizes_known);
	assert_int_equal(t.facts[0].bar_size[0], 16u << 20);
	assert_false(t.facts[0].bar_unassigned[0]);
	assert_int_equal(t.facts[0].bar_size[2], 32ULL << 30);
	assert_true(t.facts[0].bar_unassigned[2]);
	assert_int_equal(t.facts[0].bar_size[5], 128);
	assert_false(t.facts[1].bar_sizes_known);
	pa_lspci_text_clear(&t);
}

/* nvidia-smi -q as nvidia-bug-report.log holds it: each GPU's framebuffer
 * Total, not BAR1's, nor a GPU without the section. */
static void nvsmi_fb(void **state)
{
	static const char text[] =
		"/usr/bin/nvidia-smi --query\n\n\n"
		"==============NVSMI LOG==============\n\n"
		"Attached GPUs                             : 3\n"
		"GPU 00000000:01:00.0\n"
		"    Product Name                          : Quadro K2200\n"
		"    FB Memory Usage\n"
		"        Total                             : 4096 MiB\n"
		"        Used                              : 402 MiB\n"
		"    BAR1 Memory Usage\n"
		"        Total                             : 256 MiB\n"
		"GPU 00000001:C1:00.0\n"
		"    BAR1 Memory Usage\n"
		"        Total                             : 256 MiB\n"
		"GPU 00000002:41:00.0\n"
		"    FB Memory Usage\n"
		"        Total                             : 81559 MiB\n";
	struct pa_nvsmi g;

	(void)state;
	assert_int_equal(pa_nvsmi_parse(text, strlen(text), &g), 0);
	assert_int_equal(g.n, 2);
	assert_string_equal(g.v[0].bdf, "0000:01:00.0");
	assert_int_equal(g.v[0].fb_bytes, 4096ULL << 20);
	assert_string_equal(g.v[1].bdf, "0002:41:00.0");
	assert_int_equal(g.v[1].fb_bytes, 81559ULL << 20);
	pa_nvsmi_clear(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sysfs_resource),
		cmocka_unit_test(no_sizes),
		cmocka_unit_test(lspci_regions),
		cmocka_unit_test(nvsmi_fb),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
