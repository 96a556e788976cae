// SPDX-License-Identifier: GPL-2.0
/*
 * --lspci input: lspci -xxxx text as people paste it (quoted in mail,
 * indented, mixed with -vvv, with or without -D, two dumps in one log)
 * reduced to what libpci's dump reader takes, and the tree from the
 * bridges' bus numbers, a filtered capture warned about.
 */
#include "testutil.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "bdf.h"
#include "load.h"
#include "lspci_model.h"
#include "lspci_read.h"
#include "lspci_text.h"
#include "lspci_vvv.h"
#include "config_space.h"
#include "lspci_tree.h"

/* 16 hex lines of 16 bytes: 256 bytes of a bridge or an endpoint. */
static void hex_lines(char *buf, size_t len, const char *prefix, bool bridge,
		      unsigned int secondary, unsigned int subordinate)
{
	uint8_t c[256] = { 0x86, 0x80, 0x01, 0x34 };
	size_t used = 0;

	c[PCI_HEADER_TYPE] = bridge ? PCI_HEADER_TYPE_BRIDGE : 0;
	c[PCI_SECONDARY_BUS] = bridge ? (uint8_t)secondary : 0;
	c[PCI_SUBORDINATE_BUS] = bridge ? (uint8_t)subordinate : 0;
	for (unsigned int off = 0; off < 256; off += 16) {
		used += (size_t)snprintf(buf + used, len - used, "%s%02x:", prefix, off);
		for (unsigned int k = 0; k < 16; k++)
			used += (size_t)snprintf(buf + used, len - used, " %02x",
						 c[off + k]);
		used += (size_t)snprintf(buf + used, len - used, "\n");
	}
}

static void normalise(const char *text, struct pa_lspci_text *t)
{
	assert_int_equal(pa_lspci_normalise(text, strlen(text), t), 0);
}

/* Quoted twice in mail, no domain, -vvv between header and hex. */
static void quoted_mail(void **state)
{
	char hex[4096], text[8192];
	struct pa_lspci_text t;

	(void)state;
	hex_lines(hex, sizeof(hex), "> > ", false, 0, 0);
	snprintf(text, sizeof(text),
		 "Hi, here is the output you asked for:\n"
		 "> > 02:00.0 VGA compatible controller: NVIDIA Corporation Device 2335 (rev a1)\n"
		 "> > \tSubsystem: NVIDIA Corporation Device 17ce\n"
		 "> > \tControl: I/O- Mem+ BusMaster+\n"
		 "> > \tCapabilities: [60] Express (v2) Endpoint, MSI 00\n"
		 "> > \tKernel driver in use: nvidia\n"
		 "> > \tNUMA node: 1\n"
		 "> > \tIOMMU group: 42\n"
		 "%s> >\n> Thanks\n", hex);
	normalise(text, &t);
	assert_int_equal(t.nfunctions, 1);
	assert_non_null(strstr(t.dump, "0000:02:00.0 "));
	assert_non_null(strstr(t.dump, "\nf0: "));
	assert_string_equal(t.facts[0].bdf, "0000:02:00.0");
	assert_string_equal(t.facts[0].driver, "nvidia");
	assert_string_equal(t.facts[0].numa_node, "1");
	assert_string_equal(t.facts[0].iommu_group, "42");
	assert_true(t.verbose);
	assert_true(t.iommu_groups);
	pa_lspci_text_clear(&t);
}

/*
 * Issue 24's findings 3 and 5: lspci -v (one v) puts the NUMA node and
 * IOMMU group in its Flags line and prints regions without "Region N:";
 * the configuration space numbers them (a 64-bit BAR takes two). Region
 * lines inside a capability (SR-IOV's VF BARs) are not the function's.
 */
static void verbose_one_v(void **state)
{
	uint8_t config[256] = { 0 };
	char text[2048];
	struct pa_lspci_text t;

	(void)state;
	snprintf(text, sizeof(text),
		 "1a:00.0 VGA compatible controller: NVIDIA Corporation Device 1e04 (rev a1)\n"
		 "\tFlags: fast devsel, IRQ 11, NUMA node 0, IOMMU group 7\n"
		 "\tMemory at b4000000 (32-bit, non-prefetchable) [disabled] [size=16M]\n"
		 "\tMemory at a0000000 (64-bit, prefetchable) [disabled] [size=256M]\n"
		 "\tI/O ports at 7000 [disabled] [size=128]\n"
		 "\tExpansion ROM at b5000000 [disabled] [size=512K]\n"
		 "\tCapabilities: [160] Single Root I/O Virtualization (SR-IOV)\n"
		 "\t\tRegion 0: Memory at 00000000c4600000 (64-bit, non-prefetchable)\n");
	normalise(text, &t);
	assert_int_equal(t.nfacts, 1);
	assert_string_equal(t.facts[0].numa_node, "0");
	assert_string_equal(t.facts[0].iommu_group, "7");
	assert_int_equal(t.facts[0].nplain, 3);
	assert_false(t.facts[0].bar_sizes_known);
	/* BAR0 32-bit memory, BAR1-2 64-bit, BAR3-4 empty, BAR5 I/O. */
	config[0x13] = 0xb4;
	config[0x14] = 0x0c;
	config[0x17] = 0xa0;
	config[0x24] = 0x01;
	config[0x25] = 0x70;
	assert_true(pa_lspci_plain_regions(&t.facts[0], config, sizeof(config)));
	assert_true(t.facts[0].bar_sizes_known);
	assert_int_equal(t.facts[0].bar_size[0], 16u << 20);
	assert_int_equal(t.facts[0].bar_size[1], 256u << 20);
	assert_int_equal(t.facts[0].bar_size[2], 0);
	assert_int_equal(t.facts[0].bar_size[5], 128);
	/* The places lspci printed, numbered likewise. */
	assert_true(t.facts[0].bar_place[1].has_start);
	assert_int_equal(t.facts[0].bar_place[1].start, 0xa0000000);
	assert_int_equal(t.facts[0].bar_place[1].flags, PCIEAUDIT_BAR_F_MEM |
			 PCIEAUDIT_BAR_F_MEM64 | PCIEAUDIT_BAR_F_PREFETCH);
	assert_int_equal(t.facts[0].bar_place[5].start, 0x7000);
	assert_int_equal(t.facts[0].bar_place[5].flags, PCIEAUDIT_BAR_F_IO);
	/* A count that does not match leaves the sizes unknown. */
	config[0x24] = 0;
	config[0x25] = 0;
	t.facts[0].bar_sizes_known = false;
	assert_false(pa_lspci_plain_regions(&t.facts[0], config, sizeof(config)));
	assert_false(t.facts[0].bar_sizes_known);
	pa_lspci_text_clear(&t);
}

/*
 * Where lspci said each region sits (pciutils' show_bases()): the kernel's
 * address when lspci read sysfs, a VF's "[virtual]" one too (its
 * registers read 0), a "[disabled]" one (placed, not decoding); none for
 * "<unassigned>", "<ignored>" (the kernel dropped the firmware's) and
 * "<broken-64-bit-slot>". The type as printed.
 */
static void region_places(void **state)
{
	static const char text[] =
		"01:00.1 3D controller: NVIDIA Corporation Device 2331 (rev a1)\n"
		"\tRegion 0: Memory at 38000000000 (64-bit, prefetchable) [virtual] [size=64G]\n"
		"\tRegion 2: Memory at f6000000 (32-bit, non-prefetchable) [disabled] [size=16M]\n"
		"\tRegion 3: Memory at <unassigned> (64-bit, prefetchable) [size=8G]\n"
		"\tRegion 4: I/O ports at e000 [size=128]\n"
		"\tRegion 5: Memory at <ignored> (32-bit, prefetchable) [size=1M]\n"
		"\tCapabilities: [bcc v1] Single Root I/O Virtualization (SR-IOV)\n"
		"\t\tRegion 1: Memory at 00000000c4600000 (64-bit, non-prefetchable)\n"
		"\n"
		"02:00.0 Non-Volatile memory controller: Device 1b36:0010\n"
		"\tRegion 5: Memory at <broken-64-bit-slot> (64-bit, non-prefetchable) [size=16K]\n";
	const struct pa_lspci_place *p;
	struct pa_lspci_text t;

	(void)state;
	normalise(text, &t);
	assert_int_equal(t.nfacts, 2);
	assert_true(t.facts[0].bar_sizes_known);
	p = t.facts[0].bar_place;
	assert_true(p[0].has_start);
	assert_int_equal(p[0].start, 0x38000000000ull);
	assert_int_equal(p[0].flags, PCIEAUDIT_BAR_F_MEM | PCIEAUDIT_BAR_F_MEM64 |
			 PCIEAUDIT_BAR_F_PREFETCH);
	/* Region 1 is the SR-IOV capability's, not the function's. */
	assert_false(p[1].has_start);
	assert_int_equal(p[1].flags, 0);
	assert_true(p[2].has_start);
	assert_int_equal(p[2].start, 0xf6000000);
	assert_int_equal(p[2].flags, PCIEAUDIT_BAR_F_MEM);
	assert_false(p[3].has_start);
	assert_true(t.facts[0].bar_unassigned[3]);
	assert_int_equal(p[3].flags, PCIEAUDIT_BAR_F_MEM | PCIEAUDIT_BAR_F_MEM64 |
			 PCIEAUDIT_BAR_F_PREFETCH);
	assert_true(p[4].has_start);
	assert_int_equal(p[4].start, 0xe000);
	assert_int_equal(p[4].flags, PCIEAUDIT_BAR_F_IO);
	assert_false(p[5].has_start);
	assert_true(t.facts[0].bar_unassigned[5]);
	assert_int_equal(p[5].flags, PCIEAUDIT_BAR_F_MEM | PCIEAUDIT_BAR_F_PREFETCH);
	assert_false(t.facts[1].bar_place[5].has_start);
	pa_lspci_text_clear(&t);
}

/* ---- Plain lspci -vvv text (lspci_vvv.c) --------------------------------- */

static const char root_port_vvv[] =
	"> 0000:00:02.0 PCI bridge [0604]: Red Hat, Inc. QEMU PCIe Root port [1b36:000c] (rev 02) (prog-if 00 [Normal decode])\n"
	">\tSubsystem: Red Hat, Inc. QEMU PCIe Root port [1b36:0000]\n"
	">\tControl: I/O+ Mem+ BusMaster+\n"
	">\tRegion 0: Memory at fde44000 (32-bit, non-prefetchable) [size=4K]\n"
	">\tBus: primary=00, secondary=01, subordinate=08, sec-latency=0\n"
	">\tCapabilities: [54] Express (v2) Root Port (Slot+), MSI 00\n"
	">\t\tDevCap:\tMaxPayload 256 bytes, PhantFunc 0\n"
	">\t\t\tExtTag- RBE+\n"
	">\t\tDevCtl:\tCorrErr+ NonFatalErr+ FatalErr+ UnsupReq+\n"
	">\t\t\tRlxdOrd+ ExtTag- PhantFunc- AuxPwr- NoSnoop-\n"
	">\t\t\tMaxPayload 128 bytes, MaxReadReq 512 bytes\n"
	">\t\tLnkCap:\tPort #1, Speed 16GT/s, Width x16, ASPM L0s\n"
	">\t\tLnkSta:\tSpeed 8GT/s (downgraded), Width x8 (downgraded)\n"
	">\t\tLnkCtl2: Target Link Speed: 16GT/s, EnterCompliance- SpeedDis-\n"
	">\tCapabilities: [48] MSI-X: Enable+ Count=1 Masked-\n"
	">\tCapabilities: [100 v2] Advanced Error Reporting\n"
	">\t\tUESta:\tDLP- SDES- TLP-\n"
	">\tCapabilities: [148 v1] Access Control Services\n"
	">\t\tACSCap:\tSrcValid+ TransBlk+ ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans+\n"
	">\t\tACSCtl:\tSrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-\n"
	">\tKernel driver in use: pcieport\n"
	">\n"
	"> 0000:00:02.1 PCI bridge [0604]: Red Hat, Inc. QEMU PCIe Root port [1b36:000c]\n"
	">\tControl: I/O+ Mem+ BusMaster+\n"
	">\tCapabilities: <access denied>\n";

static void vvv(const char *text, const struct pa_vvv_names *names,
		struct pa_vvv *v)
{
	assert_int_equal(pa_vvv_parse(text, strlen(text), names, v), 0);
}

/*
 * Issue 24's deliver item 3: the registers are rebuilt where lspci
 * printed them, and read back by the same parser as a dump's bytes.
 */
static void vvv_root_port(void **state)
{
	struct pa_config c;
	struct pa_vvv v;

	(void)state;
	vvv(root_port_vvv, NULL, &v);
	assert_int_equal(v.n, 2);
	assert_string_equal(v.v[0].bdf, "0000:00:02.0");
	assert_true(v.v[0].ids_known);
	assert_false(v.v[0].caps_hidden);
	assert_int_equal(v.v[0].len, 4096);
	pa_config_parse(v.v[0].config, v.v[0].len, &c);
	assert_int_equal(c.vendor, 0x1b36);
	assert_int_equal(c.device, 0x000c);
	assert_int_equal(c.class, 0x060400);
	assert_int_equal(c.revision, 2);
	assert_true(c.bridge);
	assert_true(c.multifunction);		/* 00:02.1 follows */
	assert_int_equal(c.secondary_bus, 1);
	assert_int_equal(v.v[0].config[PCI_SUBORDINATE_BUS], 8);
	assert_int_equal(c.pcie_type, PCI_EXP_TYPE_ROOT_PORT);
	assert_int_equal(c.devcap & PCI_EXP_DEVCAP_PAYLOAD, 1);		/* 256 */
	assert_int_equal(c.devctl & PCI_EXP_DEVCTL_PAYLOAD, 0);		/* 128 */
	assert_int_equal((c.devctl & PCI_EXP_DEVCTL_READRQ) >> 12, 2);	/* 512 */
	assert_true(c.devctl & PCI_EXP_DEVCTL_RELAX_EN);
	assert_false(c.devctl & PCI_EXP_DEVCTL_EXT_TAG);
	assert_true(c.has_link);
	assert_int_equal(c.link.lnkcap & PCI_EXP_LNKCAP_SLS, 4);
	assert_int_equal((c.link.lnkcap & PCI_EXP_LNKCAP_MLW) >> 4, 16);
	assert_int_equal(c.link.lnksta & PCI_EXP_LNKSTA_CLS, 3);
	assert_int_equal((c.link.lnksta & PCI_EXP_LNKSTA_NLW) >> 4, 8);
	assert_true(c.link.has_lnkctl2);
	assert_int_equal(c.link.lnkctl2 & 0xf, 4);
	/* ACS after AER, which keeps its place in the chain with ID 0. */
	assert_true(c.has_acs);
	assert_int_equal(c.acs.pos, 0x148);
	assert_int_equal(c.acs.cap, 0x5f);
	assert_int_equal(c.acs.ctrl, 0x1d);
	assert_false(c.has_ats);
	assert_int_equal(c.nbar_regs, 2);
	assert_int_equal(c.bar_regs[0].address, 0xfde44000);
	assert_int_equal(c.bar_regs[0].flags, PCIEAUDIT_BAR_F_MEM);
	/* lspci without root: the capabilities are hidden, not absent. */
	assert_string_equal(v.v[1].bdf, "0000:00:02.1");
	assert_true(v.v[1].caps_hidden);
	assert_int_equal(v.v[1].len, 256);
	pa_vvv_clear(&v);
}

/* Resizable BAR and ATS; -v (one v) names capabilities, not registers:
 * hidden too. A block with hex rows is the dump reader's. */
static void vvv_rebar_ats(void **state)
{
	static const char text[] =
		"41:00.0 VGA compatible controller [0300]: NVIDIA Corporation GA102GL [RTX A6000] [10de:2230] (rev a1)\n"
		"\tRegion 0: Memory at f4000000 (32-bit, non-prefetchable) [size=16M]\n"
		"\tRegion 1: Memory at 38000000000 (64-bit, prefetchable) [size=64G]\n"
		"\tCapabilities: [60] Express (v2) Legacy Endpoint, MSI 00\n"
		"\t\tDevCap:\tMaxPayload 256 bytes, PhantFunc 0, Latency L0s unlimited\n"
		"\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x16\n"
		"\tCapabilities: [100 v1] Virtual Channel\n"
		"\tCapabilities: [420 v1] Address Translation Service (ATS)\n"
		"\t\tATSCap:\tInvalidate Queue Depth: 01\n"
		"\t\tATSCtl:\tEnable+, Smallest Translation Unit: 00\n"
		"\tCapabilities: [bb0 v1] Physical Resizable BAR\n"
		"\t\tBAR 0: current size: 16MB, supported: 16MB\n"
		"\t\tBAR 1: current size: 64GB, supported: 64MB 128MB 256MB 64GB\n"
		"\n"
		"02:00.0 Ethernet controller: Intel Corporation I210 Gigabit Network Connection (rev 03)\n"
		"\tFlags: bus master, fast devsel, latency 0, IRQ 17, NUMA node 0\n"
		"\tCapabilities: [a0] Express Endpoint, MSI 00\n"
		"\n"
		"03:00.0 Ethernet controller: Intel Corporation Device 1533\n"
		"\tControl: I/O+\n"
		"00: 86 80 33 15 07 04 10 00 03 00 00 02 10 00 00 00\n"
		"\n"
		"04:00.0 Ethernet controller [0200]: Intel Corporation Device [8086:1533]\n"
		"pcieaudit-cli: not a line of lspci's\n";
	struct pa_config c;
	struct pa_vvv v;

	(void)state;
	vvv(text, NULL, &v);
	assert_int_equal(v.n, 2);
	assert_int_equal(v.bare_headers, 1);
	pa_config_parse(v.v[0].config, v.v[0].len, &c);
	assert_int_equal(c.pcie_type, PCI_EXP_TYPE_LEG_END);
	assert_true(c.has_ats);
	assert_int_equal(c.ats_cap & 0x1f, 1);
	assert_true(c.ats_ctrl & PCI_ATS_CTRL_ENABLE);
	assert_true(c.rebar[0]);
	assert_true(c.rebar[1]);
	assert_int_equal((c.rebar_ctrl[1] >> 8) & 0x3f, 16);	/* 64 GB */
	assert_int_equal(c.rebar_cap[1], (1u << 10) | (1u << 11) | (1u << 12) |
				       (1u << 20));
	assert_int_equal(c.bar_regs[1].address, 0x38000000000ull);
	assert_true(c.bar_regs[1].flags & PCIEAUDIT_BAR_F_MEM64);
	assert_true(c.bar_regs[1].flags & PCIEAUDIT_BAR_F_PREFETCH);
	/* Names without -n, and no lookup: ids unknown. */
	assert_string_equal(v.v[1].bdf, "0000:02:00.0");
	assert_false(v.v[1].ids_known);
	assert_true(v.v[1].caps_hidden);
	pa_vvv_clear(&v);
}

static bool stub_ids(void *arg, const char *names, uint16_t *vendor,
		     uint16_t *device)
{
	(void)arg;
	if (strcmp(names, "Intel Corporation I210 Gigabit Network Connection"))
		return false;
	*vendor = 0x8086;
	*device = 0x1533;
	return true;
}

static bool stub_class(void *arg, const char *name, uint16_t *class)
{
	(void)arg;
	if (strcmp(name, "Ethernet controller"))
		return false;
	*class = 0x0200;
	return true;
}

/* Without -n: the names looked up; one the lookup lacks stays unknown. */
static void vvv_names(void **state)
{
	static const char text[] =
		"02:00.0 Ethernet controller: Intel Corporation I210 Gigabit Network Connection (rev 03)\n"
		"\tSubsystem: Intel Corporation Device 0000\n"
		"\tControl: I/O+\n"
		"\n"
		"03:00.0 Ethernet controller: Intel Corporation Device Nobody Knows\n"
		"\tControl: I/O+\n";
	const struct pa_vvv_names names = { stub_ids, stub_class, NULL };
	struct pa_config c;
	struct pa_vvv v;

	(void)state;
	vvv(text, &names, &v);
	assert_int_equal(v.n, 2);
	assert_true(v.v[0].ids_known);
	pa_config_parse(v.v[0].config, v.v[0].len, &c);
	assert_int_equal(c.vendor, 0x8086);
	assert_int_equal(c.device, 0x1533);
	assert_int_equal(c.class, 0x020000);
	assert_int_equal(c.revision, 3);
	/* A subsystem by name only is not looked up: unknown, 0. */
	assert_int_equal(c.subsys_vendor, 0);
	assert_false(v.v[1].ids_known);
	pa_config_parse(v.v[1].config, v.v[1].len, &c);
	assert_int_equal(c.vendor, 0);
	assert_int_equal(c.class, 0x020000);
	pa_vvv_clear(&v);
}

/* A bug report's indentation, -D, and the same function twice: the
 * longer dump wins. Lines that only look like hex are not taken. */
static void indented_twice(void **state)
{
	char hex[4096], text[16384];
	struct pa_lspci_text t;
	size_t n;

	(void)state;
	n = (size_t)snprintf(text, sizeof(text),
			     "    0001:40:00.0 PCI bridge: Intel Corporation Device\n"
			     "    00: 86 80 01 34 00 00 00 00 00 00 00 00 00 00 01 00\n"
			     "    10: 00 00 00 00\n"
			     "    00000000: 7f 45 4c 46\n\n");
	hex_lines(hex, sizeof(hex), "    ", true, 0x41, 0x42);
	snprintf(text + n, sizeof(text) - n,
		 "[   1.0] pci 0001:40:00.0: [8086:3401] type 01 class 0x060400\n"
		 "    0001:40:00.0 PCI bridge: Intel Corporation Device\n%s", hex);
	normalise(text, &t);
	assert_int_equal(t.nfunctions, 1);
	assert_non_null(strstr(t.dump, "0001:40:00.0 "));
	assert_non_null(strstr(t.dump, "\nf0: "));
	assert_false(t.verbose);
	assert_null(t.facts[0].driver);
	pa_lspci_text_clear(&t);
}

static void nothing_there(void **state)
{
	struct pa_lspci_text t;

	(void)state;
	normalise("00:01.0 PCI bridge: only lspci, no -x\n\tControl: I/O+\n", &t);
	assert_int_equal(t.nfunctions, 0);
	pa_lspci_text_clear(&t);
}

/* An entry of s as lspci_read.c leaves it: name and config. */
static void add(struct pa_sysfs *s, const char *bdf, bool bridge,
		uint8_t secondary, uint8_t subordinate, size_t len)
{
	struct pa_sysfs_dev *d;

	s->devs = realloc(s->devs, (s->n + 1) * sizeof(*s->devs));
	assert_non_null(s->devs);
	d = &s->devs[s->n++];
	*d = (struct pa_sysfs_dev){ .name = strdup(bdf), .config = calloc(1, 4096),
				    .config_len = len };
	d->config[PCI_VENDOR_ID] = 0x86;
	d->config[PCI_VENDOR_ID + 1] = 0x80;
	d->config[PCI_HEADER_TYPE] = bridge ? PCI_HEADER_TYPE_BRIDGE : 0;
	d->config[PCI_SECONDARY_BUS] = bridge ? secondary : 0;
	d->config[PCI_SUBORDINATE_BUS] = bridge ? subordinate : 0;
}

static const struct pa_device *find(const struct pa_report *rep,
				    const char *bdf)
{
	struct pa_addr a;

	assert_int_equal(pa_bdf_parse(bdf, &a), 0);
	return pa_report_find(rep, &a);
}

static void upstream_is(const struct pa_report *rep, const char *bdf,
			const char *up)
{
	const struct pa_device *d = find(rep, bdf);
	char got[PA_BDF_LEN];

	assert_non_null(d);
	if (!up) {
		assert_false(d->has_upstream);
		return;
	}
	assert_true(d->has_upstream);
	pa_bdf_format(&d->upstream, got);
	assert_string_equal(got, up);
}

/* lspci -nn's and -n's ids on the header line; -v text without hex
 * lines keeps its facts (a sosreport's lspci -nnvv), not in the dump. */
static void header_ids(void **state)
{
	static const char text[] =
		"0000:17:00.0 PCI bridge [0604]: Intel Corporation Sky Lake-E PCI Express Root Port A [8086:2030] (rev 04) (prog-if 00 [Normal decode])\n"
		"\tKernel driver in use: pcieport\n\n"
		"18:00.0 0302: 10de:2330 (rev a1)\n"
		"\tKernel driver in use: nvidia\n"
		"\tNUMA node: 0\n\n"
		"00:1f.0 ISA bridge: Intel Corporation C620 Series Chipset LPC Controller (rev 09)\n"
		"\tSubsystem: Intel Corporation Device 0000\n";
	struct pa_lspci_text t;

	(void)state;
	normalise(text, &t);
	assert_int_equal(t.nfunctions, 0);
	assert_int_equal(t.nfacts, 3);
	assert_string_equal(t.facts[0].bdf, "0000:17:00.0");
	assert_false(t.facts[0].has_dump);
	assert_true(t.facts[0].has_ids);
	assert_int_equal(t.facts[0].class, 0x0604);
	assert_int_equal(t.facts[0].vendor, 0x8086);
	assert_int_equal(t.facts[0].device, 0x2030);
	assert_int_equal(t.facts[0].revision, 4);
	assert_string_equal(t.facts[0].driver, "pcieport");
	assert_true(t.facts[1].has_ids);
	assert_int_equal(t.facts[1].class, 0x0302);
	assert_int_equal(t.facts[1].vendor, 0x10de);
	assert_int_equal(t.facts[1].device, 0x2330);
	assert_int_equal(t.facts[1].revision, 0xa1);
	assert_string_equal(t.facts[1].numa_node, "0");
	/* Names only: the ids are unknown. */
	assert_false(t.facts[2].has_ids);
	assert_null(t.facts[2].driver);
	assert_true(t.verbose);
	assert_string_equal(t.dump, "");
	pa_lspci_text_clear(&t);
}

/* Root port 00:01.0 (buses 01-05), a switch below it, an endpoint on 03,
 * and a second root bus 0x40 with its own port. */
static void tree_from_bus_numbers(void **state)
{
	struct pa_sysfs s = { 0 };
	struct pa_report rep;
	char what[256];

	(void)state;
	add(&s, "0000:00:01.0", true, 0x01, 0x05, 4096);
	add(&s, "0000:01:00.0", true, 0x02, 0x05, 4096);
	add(&s, "0000:02:00.0", true, 0x03, 0x03, 4096);
	add(&s, "0000:03:00.0", false, 0, 0, 4096);
	add(&s, "0000:40:01.0", true, 0x41, 0x41, 4096);
	add(&s, "0000:41:00.0", false, 0, 0, 4096);
	assert_int_equal(pa_lspci_model(&s, &rep, what, sizeof(what)), 0);
	upstream_is(&rep, "0000:00:01.0", NULL);
	upstream_is(&rep, "0000:01:00.0", "0000:00:01.0");
	upstream_is(&rep, "0000:02:00.0", "0000:01:00.0");
	upstream_is(&rep, "0000:03:00.0", "0000:02:00.0");
	upstream_is(&rep, "0000:41:00.0", "0000:40:01.0");
	assert_int_equal(find(&rep, "0000:41:00.0")->root_bus.bus, 0x40);
	assert_int_equal(rep.warnings.n, 0);
	pa_report_clear(&rep);
	pa_sysfs_clear(&s);
}

/* lspci -d 10de: -xxxx: the GPU's switch ports are missing. */
static void filtered_capture(void **state)
{
	struct pa_sysfs s = { 0 };
	struct pa_report rep;
	char what[256];

	(void)state;
	add(&s, "0000:00:01.0", true, 0x01, 0x05, 4096);
	add(&s, "0000:03:00.0", false, 0, 0, 4096);
	assert_int_equal(pa_lspci_model(&s, &rep, what, sizeof(what)), 0);
	upstream_is(&rep, "0000:03:00.0", NULL);
	assert_int_equal(find(&rep, "0000:03:00.0")->root_bus.bus, 0x00);
	assert_int_equal(rep.warnings.n, 1);
	assert_non_null(strstr(rep.warnings.text[0], "0000:03:00.0"));
	assert_non_null(strstr(rep.warnings.text[0], "0000:00:01.0"));
	pa_report_clear(&rep);
	pa_sysfs_clear(&s);
}

/* lspci -t of the machine below, as lspci 3.9 draws it from a dump of it:
 * two root buses in domain 0, a switch with a multifunction endpoint, an
 * empty downstream port, and a second domain. */
static const char drawing[] =
	"-+-[0000:00]---01.0-[01-05]----00.0-[02-05]--+-00.0-[03]--+-00.0\n"
	" |                                           |            \\-00.1\n"
	" |                                           \\-01.0-[04]--\n"
	" +-[0000:40]---01.0-[41]----00.0\n"
	" \\-[0001:00]---00.0\n";

static const char *const drawn[][2] = {
	{ "0000:00:01.0", "" },
	{ "0000:01:00.0", "0000:00:01.0" },
	{ "0000:02:00.0", "0000:01:00.0" },
	{ "0000:03:00.0", "0000:02:00.0" },
	{ "0000:03:00.1", "0000:02:00.0" },
	{ "0000:02:01.0", "0000:01:00.0" },
	{ "0000:40:01.0", "" },
	{ "0000:41:00.0", "0000:40:01.0" },
	{ "0001:00:00.0", "" },
};

/*
 * lspci -d 10de: -xxxx and an unfiltered lspci -t: the GPU below a switch
 * (03:00.0 under DSP 02:00.0, USP 01:00.0, root port 00:01.0), only the
 * GPU captured, and the root port. The drawing places the GPU below the
 * switch ports, which the report holds as bridges of unknown
 * configuration, warned about once each; none is invented beyond them.
 */
static void tree_fills_bridges(void **state)
{
	static const char drawing_text[] =
		"-[0000:00]-+-00.0  Intel Corporation Device 29c0\n"
		"           +-01.0-[01-03]----00.0-[02-03]----00.0-[03]----00.0  NVIDIA Corporation Device 2335\n"
		"           \\-1f.0  Intel Corporation Device 2918\n";
	struct pa_lspci_tree t;
	struct pa_sysfs s = { 0 };
	struct pa_report rep;
	const struct pa_device *d;
	char what[256];

	(void)state;
	assert_int_equal(pa_lspci_tree_parse(drawing_text, strlen(drawing_text),
					     &t), 0);
	add(&s, "0000:00:01.0", true, 0x01, 0x03, 4096);
	add(&s, "0000:03:00.0", false, 0, 0, 4096);
	assert_int_equal(pa_lspci_tree_fill(&t, &s), 0);
	assert_int_equal(s.n, 4);
	assert_int_equal(pa_lspci_model(&s, &rep, what, sizeof(what)), 0);
	upstream_is(&rep, "0000:03:00.0", "0000:02:00.0");
	upstream_is(&rep, "0000:02:00.0", "0000:01:00.0");
	upstream_is(&rep, "0000:01:00.0", "0000:00:01.0");
	upstream_is(&rep, "0000:00:01.0", NULL);
	assert_int_equal(find(&rep, "0000:03:00.0")->root_bus.bus, 0);
	d = find(&rep, "0000:02:00.0");
	assert_true(d->config_not_captured);
	assert_true(d->flags & PCIEAUDIT_DEV_F_BRIDGE);
	assert_int_equal(d->secondary_bus, 3);
	assert_non_null(pa_device_acs_unknown(d));
	assert_non_null(pa_device_link_unknown(d));
	assert_false(find(&rep, "0000:03:00.0")->config_not_captured);
	assert_false(find(&rep, "0000:00:01.0")->config_not_captured);
	/* Two placeholders, one warning each; none for the GPU's parent. */
	assert_int_equal(rep.ndevices, 4);
	assert_int_equal(rep.warnings.n, 2);
	assert_non_null(strstr(rep.warnings.text[0], "lspci -t"));
	assert_int_equal(pa_lspci_tree_check(&t, &rep), 0);
	assert_int_equal(rep.warnings.n, 2);
	pa_report_clear(&rep);
	pa_sysfs_clear(&s);
	pa_lspci_tree_clear(&t);
}

/* Quoted in a mail, between other commands' output. */
static void tree_drawing(void **state)
{
	char text[4096] = "$ lspci -t\n";
	struct pa_lspci_tree t;
	const char *p = drawing;

	(void)state;
	while (*p) {
		size_t n = strcspn(p, "\n") + 1;

		strcat(text, "> ");
		strncat(text, p, n);
		p += n;
	}
	strcat(text, "> 00:01.0 PCI bridge: Intel Corporation Device 3401\n"
		     "> \tBus: primary=00, secondary=01, subordinate=05\n");
	assert_int_equal(pa_lspci_tree_parse(text, strlen(text), &t), 0);
	assert_int_equal(t.n, sizeof(drawn) / sizeof(drawn[0]));
	for (size_t i = 0; i < t.n; i++) {
		assert_string_equal(t.v[i].bdf, drawn[i][0]);
		assert_string_equal(t.v[i].parent, drawn[i][1]);
	}
	pa_lspci_tree_clear(&t);
}

/* -vvv text and hex with "+-" and "-[" in them is no drawing. */
static void tree_none(void **state)
{
	static const char text[] =
		"00:01.0 PCI bridge: x\n"
		"\tCapabilities: [100 v1] Access Control Services\n"
		"+-01.0 stray\n"
		"00: 86 80 01 34 00 00 00 00 00 00 04 06 00 00 01 00\n"
		"\\-[0000:00]---01.0 after a line that began none\n";
	struct pa_lspci_tree t;

	(void)state;
	assert_int_equal(pa_lspci_tree_parse(text, strlen(text), &t), 0);
	assert_int_equal(t.n, 0);
	pa_lspci_tree_clear(&t);
}

/* The same machine drawn with 03:00.0 and 03:00.1 below the other port. */
static const char moved[] =
	"-+-[0000:00]---01.0-[01-05]----00.0-[02-05]--+-00.0-[04]--\n"
	" |                                           \\-01.0-[03]--+-00.0\n"
	" |                                                        \\-00.1\n"
	" +-[0000:40]---01.0-[41]----00.0\n"
	" \\-[0001:00]---00.0\n";

/* The drawing against the bus numbers of the same machine: agreeing, and
 * with bus 03 drawn below the other port, 02:01.0. */
static void tree_disagrees(void **state)
{
	struct pa_sysfs s = { 0 };
	struct pa_lspci_tree t;
	struct pa_report rep;
	char what[256];

	(void)state;
	add(&s, "0000:00:01.0", true, 0x01, 0x05, 4096);
	add(&s, "0000:01:00.0", true, 0x02, 0x05, 4096);
	add(&s, "0000:02:00.0", true, 0x03, 0x03, 4096);
	add(&s, "0000:02:01.0", true, 0x04, 0x04, 4096);
	add(&s, "0000:03:00.0", false, 0, 0, 4096);
	add(&s, "0000:03:00.1", false, 0, 0, 4096);
	add(&s, "0000:40:01.0", true, 0x41, 0x41, 4096);
	add(&s, "0000:41:00.0", false, 0, 0, 4096);
	add(&s, "0001:00:00.0", false, 0, 0, 4096);
	assert_int_equal(pa_lspci_model(&s, &rep, what, sizeof(what)), 0);
	assert_int_equal(pa_lspci_tree_parse(drawing, strlen(drawing), &t), 0);
	assert_int_equal(pa_lspci_tree_check(&t, &rep), 0);
	assert_int_equal(rep.warnings.n, 0);
	pa_lspci_tree_clear(&t);

	assert_int_equal(pa_lspci_tree_parse(moved, strlen(moved), &t), 0);
	assert_int_equal(pa_lspci_tree_check(&t, &rep), 0);
	assert_int_equal(rep.warnings.n, 2);
	assert_non_null(strstr(rep.warnings.text[0], "0000:03:00.0: lspci -t draws it below 0000:02:01.0, the bridges' bus numbers put it below 0000:02:00.0"));
	pa_lspci_tree_clear(&t);
	pa_report_clear(&rep);
	pa_sysfs_clear(&s);
}

/* lspci -x: 64 bytes, refused with the function named. */
static void header_only_refused(void **state)
{
	struct pa_sysfs s = { 0 };
	struct pa_report rep;
	char what[256];

	(void)state;
	add(&s, "0000:00:01.0", true, 0x01, 0x01, 4096);
	add(&s, "0000:01:00.0", false, 0, 0, 64);
	assert_int_equal(pa_lspci_model(&s, &rep, what, sizeof(what)), -ENODATA);
	assert_non_null(strstr(what, "0000:01:00.0 has 64 bytes"));
	pa_sysfs_clear(&s);
}

/* Bus numbers that loop must not hang the walk. */
static void bus_loop(void **state)
{
	struct pa_sysfs s = { 0 };
	struct pa_report rep;
	char what[256];

	(void)state;
	add(&s, "0000:01:00.0", true, 0x02, 0x02, 4096);
	add(&s, "0000:02:00.0", true, 0x01, 0x01, 4096);
	assert_int_equal(pa_lspci_model(&s, &rep, what, sizeof(what)), 0);
	assert_int_equal(rep.ndevices, 2);
	pa_report_clear(&rep);
	pa_sysfs_clear(&s);
}

static void write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

/* A sosreport: proc/bus/pci/BB/DD.F binary files (a second domain as
 * DDDD:BB), proc/cmdline; the lspci text beside it is not needed. */
static void sosreport(void **state)
{
	char root[] = "/tmp/pa-sos-XXXXXX", path[256], what[256], cmd[300];
	uint8_t c[4096] = { 0x86, 0x80, 0x01, 0x34 };
	struct pa_lspci_extra extra;
	struct pa_sysfs s;
	struct pa_report rep;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/proc/bus/pci/00 %s/proc/bus/pci/0001:40", root, root);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/proc/cmdline", root);
	write_file(path, "ro intel_iommu=on\n", 18);
	c[PCI_HEADER_TYPE] = PCI_HEADER_TYPE_BRIDGE;
	c[PCI_SECONDARY_BUS] = 1;
	c[PCI_SUBORDINATE_BUS] = 1;
	snprintf(path, sizeof(path), "%s/proc/bus/pci/00/01.0", root);
	write_file(path, c, sizeof(c));
	c[PCI_HEADER_TYPE] = 0;
	snprintf(path, sizeof(path), "%s/proc/bus/pci/0001:40/00.0", root);
	write_file(path, c, 256);
	assert_int_equal(pa_lspci_read(root, &s, &extra, what, sizeof(what)), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(extra.cmdline, "ro intel_iommu=on");
	assert_int_equal(pa_lspci_model(&s, &rep, what, sizeof(what)), 0);
	assert_non_null(find(&rep, "0001:40:00.0"));
	assert_int_equal(find(&rep, "0000:00:01.0")->secondary_bus, 1);
	pa_report_clear(&rep);
	pa_sysfs_clear(&s);
	free(extra.cmdline);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

/*
 * A sosreport made from a real capture (gigabyte-ich7: lspci -vvvxxxx):
 * each function's hex as its binary proc/bus/pci/BB/DD.F, the rest of the
 * text as sos_commands/pci/lspci_-nnvv, as sos stores lspci -nnvv. edit,
 * if not NULL, may change the text's lines before they are written.
 */
#define SOS_FIXTURE GPU_FIXTURES "/lspci/gigabyte-ich7.lspci"

static bool is_hex_line(const char *l)
{
	size_t n = strspn(l, "0123456789abcdef");

	return (n == 2 || n == 3) && l[n] == ':' && strlen(l) >= n + 1 + 48;
}

static void make_sos(const char *root, bool with_text,
		     void (*edit)(FILE *out, const char *line))
{
	char cmd[600], path[512], line[512], bdf[16] = "";
	uint8_t config[4096];
	size_t len = 0;
	FILE *in = fopen(SOS_FIXTURE, "r"), *text;

	assert_non_null(in);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/sos_commands/pci %s/proc/bus/pci/00 %s/proc/bus/pci/01 %s/proc/bus/pci/02",
		 root, root, root, root);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/sos_commands/pci/lspci_-nnvv", root);
	text = fopen(with_text ? path : "/dev/null", "w");
	assert_non_null(text);
	for (;;) {
		bool more = fgets(line, sizeof(line), in) != NULL;
		unsigned int off, b[16];

		/* A header, or the end: the function before is complete. */
		if ((!more || (isxdigit((unsigned char)line[0]) && line[2] == ':' &&
			       line[5] == '.')) && *bdf) {
			snprintf(cmd, sizeof(cmd), "mkdir -p %s/proc/bus/pci/%.2s", root, bdf);
			assert_int_equal(system(cmd), 0);
			snprintf(path, sizeof(path), "%s/proc/bus/pci/%.2s/%s", root,
				 bdf, bdf + 3);
			write_file(path, config, len);
			*bdf = '\0';
		}
		if (!more)
			break;
		if (isxdigit((unsigned char)line[0]) && line[2] == ':' && line[5] == '.') {
			snprintf(bdf, sizeof(bdf), "%.7s", line);
			memset(config, 0, sizeof(config));
			len = 0;
		} else if (is_hex_line(line) && *bdf) {
			assert_int_equal(sscanf(line, "%x: %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x",
						&off, &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], &b[7],
						&b[8], &b[9], &b[10], &b[11], &b[12], &b[13], &b[14], &b[15]), 17);
			for (int k = 0; k < 16; k++)
				config[off + k] = (uint8_t)b[k];
			len = off + 16 > len ? off + 16 : len;
			continue;
		}
		if (edit)
			edit(text, line);
		else
			fputs(line, text);
	}
	fclose(in);
	fclose(text);
}

/* The oracle: lspci's own "Kernel driver in use:" line for bdf in the
 * capture (BB:DD.F), or NULL. */
static char *fixture_driver(const char *bdf)
{
	char line[512], *found = NULL;
	bool in = false;
	FILE *f = fopen(SOS_FIXTURE, "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (isxdigit((unsigned char)line[0]) && line[2] == ':' && line[5] == '.')
			in = !strncmp(line, bdf, 7);
		else if (in && strstr(line, "Kernel driver in use: ")) {
			found = strdup(strstr(line, ": ") + 2);
			found[strcspn(found, "\n")] = '\0';
		}
	}
	fclose(f);
	return found;
}

static void remove_tree(const char *root)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static bool warned(const struct pa_report *rep, const char *bdf,
		   const char *what)
{
	for (size_t i = 0; i < rep->warnings.n; i++)
		if (!strncmp(rep->warnings.text[i], bdf, strlen(bdf)) &&
		    strstr(rep->warnings.text[i], what))
			return true;
	return false;
}

/* A sosreport's lspci -nnvv gives what its binary configuration space
 * cannot: each function's driver as lspci printed it, BAR sizes. */
static void sosreport_lspci_text(void **state)
{
	char root[] = "/tmp/pa-sos-XXXXXX", bdf[PA_BDF_LEN];
	struct pa_load l = { 0 };
	struct pa_report rep;
	struct pa_error e;
	size_t drivers = 0;

	(void)state;
	assert_non_null(mkdtemp(root));
	make_sos(root, true, NULL);
	l.lspci = root;
	assert_int_equal(pa_load_report(&l, &rep, &e), 0);
	assert_int_equal(rep.ndevices, 16);
	assert_int_equal(rep.warnings.n, 0);
	for (size_t i = 0; i < rep.ndevices; i++) {
		const struct pa_device *d = &rep.devices[i];
		char *want;

		pa_bdf_format(&d->addr, bdf);
		want = fixture_driver(bdf + 5);
		assert_false(d->driver_unknown);
		if (want) {
			assert_non_null(d->driver);
			assert_string_equal(d->driver, want);
		}
		else
			assert_null(d->driver);
		drivers += want != NULL;
		free(want);
	}
	/* 14 "Kernel driver in use:" lines in the capture. */
	assert_int_equal(drivers, 14);
	/* "Region 0: Memory at 58340000 (64-bit, non-prefetchable) [size=16K]" */
	assert_false(find(&rep, "0000:00:1b.0")->bars_unknown);
	assert_int_equal(find(&rep, "0000:00:1b.0")->bars[0].size, 16 << 10);
	pa_report_clear(&rep);
	remove_tree(root);
}

/* A sosreport whose files were gzipped in place: read the same. */
static void sosreport_gzipped_text(void **state)
{
	char root[] = "/tmp/pa-sos-XXXXXX", cmd[400];
	struct pa_load l = { 0 };
	struct pa_report rep;
	struct pa_error e;

	(void)state;
	assert_non_null(mkdtemp(root));
	make_sos(root, true, NULL);
	snprintf(cmd, sizeof(cmd), "cd %s/sos_commands/pci && gzip -n lspci_-nnvv && mv lspci_-nnvv.gz lspci_-nnvv",
		 root);
	assert_int_equal(system(cmd), 0);
	l.lspci = root;
	assert_int_equal(pa_load_report(&l, &rep, &e), 0);
	assert_int_equal(rep.warnings.n, 0);
	assert_non_null(find(&rep, "0000:02:00.0")->driver);
	assert_string_equal(find(&rep, "0000:02:00.0")->driver, "ath9k");
	pa_report_clear(&rep);
	remove_tree(root);
}

/* Without the text, as before: drivers and BAR sizes unknown. */
static void sosreport_without_text(void **state)
{
	char root[] = "/tmp/pa-sos-XXXXXX";
	struct pa_load l = { 0 };
	struct pa_report rep;
	struct pa_error e;

	(void)state;
	assert_non_null(mkdtemp(root));
	make_sos(root, false, NULL);
	l.lspci = root;
	assert_int_equal(pa_load_report(&l, &rep, &e), 0);
	assert_int_equal(rep.ndevices, 16);
	assert_true(find(&rep, "0000:01:00.0")->driver_unknown);
	assert_true(find(&rep, "0000:00:1b.0")->bars_unknown);
	pa_report_clear(&rep);
	remove_tree(root);
}

/* The text taken at another time: 02:00.0 shows other ids (as lspci -nn
 * prints them), 01:00.0 is missing, 05:00.0 is only in the text. */
static void disagreeing_text(FILE *out, const char *line)
{
	static bool skip;

	if (!strncmp(line, "02:00.0 ", 8)) {
		fputs("02:00.0 Network controller [0280]: Atheros Communications Inc. AR9485 [168c:0032] (rev 01)\n", out);
		return;
	}
	if (isxdigit((unsigned char)line[0]) && line[2] == ':')
		skip = !strncmp(line, "01:00.0 ", 8);
	if (!skip)
		fputs(line, out);
	if (!strncmp(line, "00:1f.3 ", 8))
		fputs("\tKernel driver in use: i801_smbus\n\n05:00.0 Ethernet controller [0200]: Intel Corporation I210 [8086:1533] (rev 03)\n\tKernel driver in use: igb\n\n", out);
}

static void sosreport_text_disagrees(void **state)
{
	char root[] = "/tmp/pa-sos-XXXXXX";
	struct pa_load l = { 0 };
	struct pa_report rep;
	struct pa_error e;
	const struct pa_device *d;

	(void)state;
	assert_non_null(mkdtemp(root));
	make_sos(root, true, disagreeing_text);
	l.lspci = root;
	assert_int_equal(pa_load_report(&l, &rep, &e), 0);
	assert_int_equal(rep.ndevices, 16);
	/* The configuration space wins; the text's facts are not used. */
	d = find(&rep, "0000:02:00.0");
	assert_int_equal(d->vendor, 0x168c);
	assert_int_equal(d->device, 0x002a);
	assert_true(d->driver_unknown);
	assert_null(d->driver);
	assert_true(warned(&rep, "0000:02:00.0", "168c:0032"));
	assert_true(find(&rep, "0000:01:00.0")->driver_unknown);
	assert_true(warned(&rep, "0000:01:00.0", "not in sos_commands/pci/lspci_-nnvv"));
	assert_null(find(&rep, "0000:05:00.0"));
	assert_true(warned(&rep, "0000:05:00.0", "no such function"));
	/* The others keep the text's drivers. */
	assert_string_equal(find(&rep, "0000:00:1c.0")->driver, "pcieport");
	assert_false(find(&rep, "0000:00:1c.0")->driver_unknown);
	assert_int_equal(rep.warnings.n, 3);
	pa_report_clear(&rep);
	remove_tree(root);
}

/* sos's lspci -tv puts back a bridge whose proc/bus/pci file is missing,
 * as --lspci does with lspci -t in the file. */
static void sosreport_tree(void **state)
{
	char root[] = "/tmp/pa-sos-XXXXXX", path[300];
	static const char drawing[] =
		"-[0000:00]-+-1b.0  Intel Corporation 82801G (ICH7 Family) High Definition Audio Controller\n"
		"           +-1c.0-[01]----00.0  Realtek Semiconductor Co., Ltd. RTL8101/2/6E PCI Express Fast/Gigabit Ethernet controller\n"
		"           +-1c.1-[02]----00.0  Qualcomm Atheros AR928X Wireless Network Adapter (PCI-Express)\n"
		"           \\-1f.3  Intel Corporation NM10/ICH7 Family SMBus Controller\n";
	struct pa_load l = { 0 };
	struct pa_report rep;
	struct pa_error e;
	const struct pa_device *d;

	(void)state;
	assert_non_null(mkdtemp(root));
	make_sos(root, true, NULL);
	snprintf(path, sizeof(path), "%s/proc/bus/pci/00/1c.1", root);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/sos_commands/pci/lspci_-tv", root);
	write_file(path, drawing, strlen(drawing));
	l.lspci = root;
	assert_int_equal(pa_load_report(&l, &rep, &e), 0);
	d = find(&rep, "0000:00:1c.1");
	assert_non_null(d);
	assert_true(d->config_not_captured);
	upstream_is(&rep, "0000:02:00.0", "0000:00:1c.1");
	assert_true(warned(&rep, "0000:00:1c.1", "configuration space has no such function"));
	pa_report_clear(&rep);
	remove_tree(root);
}

/* A VF's vendor and device ids read 0xffff; the rest of it answers. */
static void vf_is_readable(void **state)
{
	struct pa_sysfs s = { 0 };
	struct pa_report rep;
	char what[256];

	(void)state;
	add(&s, "0000:05:00.1", false, 0, 0, 4096);
	memset(s.devs[0].config, 0xff, 4);
	s.devs[0].config[PCI_CLASS_DEVICE + 1] = 0x01;
	add(&s, "0000:05:00.2", false, 0, 0, 4096);
	memset(s.devs[1].config, 0xff, 4096);
	assert_int_equal(pa_lspci_model(&s, &rep, what, sizeof(what)), 0);
	assert_false(find(&rep, "0000:05:00.1")->config_unreadable);
	assert_true(find(&rep, "0000:05:00.2")->config_unreadable);
	pa_report_clear(&rep);
	pa_sysfs_clear(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(quoted_mail),
		cmocka_unit_test(verbose_one_v),
		cmocka_unit_test(region_places),
		cmocka_unit_test(vvv_root_port),
		cmocka_unit_test(vvv_rebar_ats),
		cmocka_unit_test(vvv_names),
		cmocka_unit_test(indented_twice),
		cmocka_unit_test(nothing_there),
		cmocka_unit_test(header_ids),
		cmocka_unit_test(tree_from_bus_numbers),
		cmocka_unit_test(filtered_capture),
		cmocka_unit_test(tree_drawing),
		cmocka_unit_test(tree_fills_bridges),
		cmocka_unit_test(tree_none),
		cmocka_unit_test(tree_disagrees),
		cmocka_unit_test(header_only_refused),
		cmocka_unit_test(bus_loop),
		cmocka_unit_test(sosreport),
		cmocka_unit_test(sosreport_lspci_text),
		cmocka_unit_test(sosreport_without_text),
		cmocka_unit_test(sosreport_gzipped_text),
		cmocka_unit_test(sosreport_text_disagrees),
		cmocka_unit_test(sosreport_tree),
		cmocka_unit_test(vf_is_readable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
