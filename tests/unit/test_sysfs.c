// SPDX-License-Identifier: GPL-2.0
/*
 * The no-module mode: configuration space parsing (the extended capability
 * walk past hidden, ID 0 entries included), and the sysfs reader on a
 * synthetic sysfs tree, on the fixture layout and on the H200 VM guest.
 */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>
#include <pci/pci.h>

#include "config_space.h"
#include "fileio.h"
#include "iommu_sysfs.h"
#include "lspci_read.h"
#include "lspci_tree.h"
#include "nvsmi_text.h"
#include "pcinames.h"
#include "sysfs_model.h"
#include "sysread.h"

#ifndef FIXTURES
#define FIXTURES "../../../shared/fixtures"
#endif

#define H200 FIXTURES "/h200-vm-guest"

#ifndef GPU_FIXTURES
#define GPU_FIXTURES "../fixtures"
#endif

static void put16(uint8_t *c, unsigned int pos, uint16_t v)
{
	c[pos] = v & 0xff;
	c[pos + 1] = v >> 8;
}

static void put32(uint8_t *c, unsigned int pos, uint32_t v)
{
	put16(c, pos, v & 0xffff);
	put16(c, pos + 2, v >> 16);
}

/* An ext capability header: ID, version 1, next. */
static void ext(uint8_t *c, unsigned int pos, uint16_t id, unsigned int next)
{
	put32(c, pos, id | 1u << 16 | next << 20);
}

/*
 * A function's configuration space: vendor:device, class, header type,
 * a PM and a PCIe capability of type type with LnkCap/LnkSta, and an
 * extended list with a hidden (ID 0) entry before ACS and SR-IOV.
 */
static void make_config(uint8_t *c, uint16_t vendor, uint16_t device,
			uint32_t class, uint8_t header, int type, uint32_t lnkcap,
			uint16_t lnksta, bool acs)
{
	memset(c, 0, 4096);
	put16(c, PCI_VENDOR_ID, vendor);
	put16(c, PCI_DEVICE_ID, device);
	put32(c, PCI_CLASS_REVISION, class << 8 | 0xa1);
	c[PCI_HEADER_TYPE] = header;
	put16(c, PCI_STATUS, PCI_STATUS_CAP_LIST);
	c[PCI_CAPABILITY_LIST] = 0x40;
	c[0x40] = PCI_CAP_ID_PM;
	c[0x41] = 0x60;
	c[0x60] = PCI_CAP_ID_EXP;
	c[0x61] = 0;
	put16(c, 0x60 + PCI_EXP_FLAGS, (uint16_t)(2 | type << 4));
	put32(c, 0x60 + PCI_EXP_LNKCAP, lnkcap);
	put16(c, 0x60 + PCI_EXP_LNKSTA, lnksta);
	put16(c, 0x60 + PCI_EXP_LNKCTL2, 4);
	if ((header & 0x7f) == PCI_HEADER_TYPE_BRIDGE)
		c[PCI_SECONDARY_BUS] = 7;
	else
		put16(c, PCI_SUBSYSTEM_VENDOR_ID, 0x17aa);
	ext(c, 0x100, 0, 0x140);
	if (acs) {
		ext(c, 0x140, PCI_EXT_CAP_ID_ACS, 0x180);
		put16(c, 0x140 + PCI_ACS_CAP, 0x5f);
		put16(c, 0x140 + PCI_ACS_CTRL, 0x1d);
	} else {
		ext(c, 0x140, 0, 0x180);
	}
	ext(c, 0x180, PCI_EXT_CAP_ID_SRIOV, 0);
}

static void parse_synthetic(void **state)
{
	uint8_t c[4096];
	struct pa_config pc;

	(void)state;
	make_config(c, 0x1000, 0xc030, 0x060400, 0x81, PCI_EXP_TYPE_DOWNSTREAM,
		    TEST_LINK(4, 16), TEST_LINK(3, 8), true);
	pa_config_parse(c, sizeof(c), &pc);
	assert_true(pc.valid);
	assert_int_equal(pc.vendor, 0x1000);
	assert_int_equal(pc.class, 0x060400);
	assert_int_equal(pc.revision, 0xa1);
	assert_true(pc.multifunction);
	assert_true(pc.bridge);
	assert_int_equal(pc.secondary_bus, 7);
	assert_int_equal(pc.pcie_type, PCI_EXP_TYPE_DOWNSTREAM);
	assert_true(pc.has_link);
	assert_int_equal(pc.link.lnkcap, TEST_LINK(4, 16));
	assert_int_equal(pc.link.lnksta, TEST_LINK(3, 8));
	assert_true(pc.link.has_lnkctl2);
	/* Found past the hidden entry at 0x100. */
	assert_true(pc.has_acs);
	assert_int_equal(pc.acs.pos, 0x140);
	assert_int_equal(pc.acs.ctrl, 0x1d);
	assert_true(pc.sriov);
}

static void parse_short_and_broken(void **state)
{
	uint8_t c[4096];
	struct pa_config pc;

	(void)state;
	make_config(c, 0x10de, 0x2335, 0x030200, 0, PCI_EXP_TYPE_ENDPOINT,
		    TEST_LINK(5, 16), TEST_LINK(5, 16), true);
	/* 256 bytes: no extended space to walk. */
	pa_config_parse(c, 256, &pc);
	assert_true(pc.valid && pc.has_link && !pc.has_acs && !pc.sriov);
	assert_int_equal(pc.subsys_vendor, 0x17aa);
	/* 64 bytes: the header only. */
	pa_config_parse(c, 64, &pc);
	assert_true(pc.valid);
	assert_int_equal(pc.pcie_type, -1);
	pa_config_parse(c, 10, &pc);
	assert_false(pc.valid);
	/* Chains that loop end; pointers past the end are not followed. */
	ext(c, 0x100, 0, 0x100);
	assert_int_equal(pa_config_find_ext_cap(c, sizeof(c), PCI_EXT_CAP_ID_ACS), 0);
	ext(c, 0x100, 0, 0xffc);
	assert_int_equal(pa_config_find_ext_cap(c, 0x200, PCI_EXT_CAP_ID_ACS), 0);
	c[0x61] = 0x40;
	c[0x40] = 0x01;
	c[0x41] = 0x60;
	assert_int_equal(pa_config_find_cap(c, sizeof(c), 0x11), 0);
	/* A pointer into the header is invalid. */
	c[PCI_CAPABILITY_LIST] = 0x10;
	assert_int_equal(pa_config_find_cap(c, sizeof(c), PCI_CAP_ID_EXP), 0);
	/* All ones: a function that went away. */
	memset(c, 0xff, sizeof(c));
	pa_config_parse(c, sizeof(c), &pc);
	assert_false(pc.has_acs);
	assert_int_equal(pc.pcie_type, -1);
}

/* Every field the parser fills, the same in both. */
static void same_config(const struct pa_config *a, const struct pa_config *b)
{
	assert_int_equal(a->valid, b->valid);
	assert_int_equal(a->all_ones, b->all_ones);
	assert_int_equal(a->no_extended, b->no_extended);
	assert_int_equal(a->vendor, b->vendor);
	assert_int_equal(a->device, b->device);
	assert_int_equal(a->class, b->class);
	assert_int_equal(a->revision, b->revision);
	assert_int_equal(a->subsys_vendor, b->subsys_vendor);
	assert_int_equal(a->subsys_device, b->subsys_device);
	assert_int_equal(a->multifunction, b->multifunction);
	assert_int_equal(a->bridge, b->bridge);
	assert_int_equal(a->has_secondary_bus, b->has_secondary_bus);
	assert_int_equal(a->secondary_bus, b->secondary_bus);
	assert_int_equal(a->pcie_type, b->pcie_type);
	assert_int_equal(a->has_link, b->has_link);
	assert_int_equal(a->link.lnkcap, b->link.lnkcap);
	assert_int_equal(a->link.lnksta, b->link.lnksta);
	assert_int_equal(a->link.has_lnkctl2, b->link.has_lnkctl2);
	assert_int_equal(a->link.lnkctl2, b->link.lnkctl2);
	assert_int_equal(a->has_acs, b->has_acs);
	assert_int_equal(a->acs.pos, b->acs.pos);
	assert_int_equal(a->acs.cap, b->acs.cap);
	assert_int_equal(a->acs.ctrl, b->acs.ctrl);
	assert_int_equal(a->sriov, b->sriov);
	assert_int_equal(a->has_ats, b->has_ats);
	assert_int_equal(a->ats_cap, b->ats_cap);
	assert_int_equal(a->ats_ctrl, b->ats_ctrl);
	assert_int_equal(a->has_expdev, b->has_expdev);
	assert_int_equal(a->devcap, b->devcap);
	assert_int_equal(a->devctl, b->devctl);
	assert_int_equal(a->nbar_regs, b->nbar_regs);
	for (unsigned int i = 0; i < PA_MAX_BARS; i++) {
		assert_int_equal(a->bar_regs[i].upper, b->bar_regs[i].upper);
		assert_int_equal(a->bar_regs[i].flags, b->bar_regs[i].flags);
		assert_int_equal(a->bar_regs[i].address, b->bar_regs[i].address);
		assert_int_equal(a->rebar[i], b->rebar[i]);
		assert_int_equal(a->rebar_cap[i], b->rebar_cap[i]);
		assert_int_equal(a->rebar_ctrl[i], b->rebar_ctrl[i]);
	}
}

struct copy_fetch {
	const uint8_t *whole;
	uint8_t *sparse;
	size_t len, fetched;
};

static void copy_fetch(void *ctx, unsigned int pos, unsigned int n)
{
	struct copy_fetch *f = ctx;

	assert_true(n > 0 && pos + n <= f->len);
	memcpy(f->sparse + pos, f->whole + pos, n);
	f->fetched += n;
}

/* The parser over only the bytes it asked for answers as over them all;
 * returns how many it asked for. */
static size_t sparse_matches_whole(const uint8_t *whole, size_t len)
{
	struct copy_fetch f = { .whole = whole, .len = len,
				.sparse = calloc(1, len + 1) };
	struct pa_config all, fetched, again;

	assert_non_null(f.sparse);
	pa_config_parse(whole, len, &all);
	pa_config_parse_fetch(f.sparse, len, copy_fetch, &f, &fetched);
	same_config(&all, &fetched);
	pa_config_parse(f.sparse, len, &again);
	same_config(&all, &again);
	free(f.sparse);
	return f.fetched;
}

static void sparse_synthetic(void **state)
{
	uint8_t c[4096];

	(void)state;
	make_config(c, 0x15b3, 0x101d, 0x020000, 0, PCI_EXP_TYPE_ENDPOINT,
		    TEST_LINK(4, 16), TEST_LINK(4, 16), true);
	/* ATS and Resizable BAR after SR-IOV: two entries, BARs 0 and 2. */
	ext(c, 0x180, PCI_EXT_CAP_ID_SRIOV, 0x1c0);
	ext(c, 0x1c0, PCI_EXT_CAP_ID_ATS, 0x200);
	put16(c, 0x1c0 + PCI_ATS_CAP, 0x20);
	put16(c, 0x1c0 + PCI_ATS_CTRL, 0x8000);
	ext(c, 0x200, PCI_EXT_CAP_ID_REBAR, 0);
	put32(c, 0x200 + PCI_REBAR_CAP, 0x3ff0);
	put32(c, 0x200 + PCI_REBAR_CTRL, 2 << PCI_REBAR_CTRL_NBAR_SHIFT | 0x800);
	put32(c, 0x208 + PCI_REBAR_CAP, 0x70);
	put32(c, 0x208 + PCI_REBAR_CTRL, 2 | 0x300);
	put32(c, PCI_BASE_ADDRESS_0, 0xe000000c);
	put32(c, PCI_BASE_ADDRESS_2, 0xd0000000);
	assert_true(sparse_matches_whole(c, sizeof(c)) < 256);
	assert_true(sparse_matches_whole(c, 256) <= 256);
	assert_int_equal(sparse_matches_whole(c, 64), 64);
	memset(c, 0xff, sizeof(c));
	assert_int_equal(sparse_matches_whole(c, sizeof(c)), 64);
}

/* Every function of every lspci -xxxx capture of the corpus: real
 * machines' capability chains. */
static void sparse_corpus(void **state)
{
	static const char *const names[] = {
		"asus-p6t6", "fsl-p2020", "fujitsu-p8010", "gigabyte-ich7",
		"h200-vm-guest", "haswell-e-connectx3", "ibm-pcix-domains",
		"n1sdp-pex8749-xxx", "plx-pex8796-port", "plx-pex9716-port-xxx",
		"qemu-acs-intel", "qemu-p2p-switch-xxx", "qemu-passthrough",
		"sunrise-point-mx150",
	};
	size_t functions = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct pa_lspci_extra extra;
		struct pa_sysfs s;
		char path[512], what[512];

		snprintf(path, sizeof(path), "%s/lspci/%s.lspci", GPU_FIXTURES,
			 names[i]);
		assert_int_equal(pa_lspci_read(path, &s, &extra, what,
					       sizeof(what)), 0);
		for (size_t d = 0; d < s.n; d++, functions++)
			if (s.devs[d].config)
				sparse_matches_whole(s.devs[d].config,
						     s.devs[d].config_len);
		pa_sysfs_clear(&s);
		free(extra.cmdline);
		free(extra.kernel_release);
		pa_lspci_tree_clear(&extra.tree);
		pa_nvsmi_clear(&extra.gpus);
		pa_warnings_clear(&extra.warnings);
	}
	assert_true(functions > 50);
}

/* libpci over its whole pci.ids, the oracle for the subset it is given;
 * without pci_init() its messages need handlers. */
static void pci_quiet(char *msg, ...)
{
	(void)msg;
}

__attribute__((noreturn)) static void pci_die(char *msg, ...)
{
	fail_msg("libpci: %s", msg);
	abort();
}

static char *full_lookup(struct pci_access *pacc, int flags, int id1, int id2)
{
	char buf[256];
	const char *name = pci_lookup_name(pacc, buf, sizeof(buf),
					   flags | PCI_LOOKUP_NO_NUMBERS, id1, id2);

	return name ? strdup(name) : NULL;
}

static void same_name(const char *got, char *want)
{
	if (!want || !got)
		assert_ptr_equal(got, want);
	else
		assert_string_equal(got, want);
	free(want);
}

static void names_as_whole_pci_ids(void **state)
{
	/* Known and unknown vendors, devices and classes (0d57 and 1b36:000c
	 * are not in Debian 12's pci.ids; ff is "Unassigned class"). */
	static const struct { uint16_t v, d; uint32_t cls; } ids[] = {
		{ 0x8086, 0x100f, 0x020000 }, { 0x8086, 0x0d57, 0x060000 },
		{ 0x10de, 0x2335, 0x030200 }, { 0x10de, 0x1db4, 0x030200 },
		{ 0x1af4, 0x1041, 0x020000 }, { 0x1af4, 0x1045, 0xff0000 },
		{ 0x1b36, 0x000c, 0x060400 }, { 0x15b3, 0x1017, 0x020000 },
		{ 0x144d, 0xa808, 0x010802 }, { 0xabcd, 0x0001, 0x123456 },
		{ 0x1022, 0x1483, 0x060400 }, { 0x8086, 0x1c10, 0x0c0330 },
	};
	enum { N = sizeof(ids) / sizeof(ids[0]) };
	struct pa_device devs[N], nocls[N];
	struct pci_access *pacc = pci_alloc();

	(void)state;
	assert_non_null(pacc);
	pacc->error = pci_die;
	pacc->warning = pacc->debug = pci_quiet;
	/* As pa_names_fill() asks libpci (a missing hwdb answers nothing). */
	if (!pa_names_hwdb_present())
		pci_set_param(pacc, "hwdb.disable", "1");
	for (size_t i = 0; i < N; i++)
		devs[i] = nocls[i] = (struct pa_device){
			.vendor = ids[i].v, .device = ids[i].d,
			.class = ids[i].cls };
	pa_names_fill(devs, N, true);
	pa_names_fill(nocls, N, false);
	for (size_t i = 0; i < N; i++) {
		same_name(devs[i].vendor_name,
			  full_lookup(pacc, PCI_LOOKUP_VENDOR, ids[i].v, 0));
		same_name(devs[i].device_name,
			  full_lookup(pacc, PCI_LOOKUP_DEVICE, ids[i].v, ids[i].d));
		same_name(devs[i].class_name,
			  full_lookup(pacc, PCI_LOOKUP_CLASS, (int)(ids[i].cls >> 8), 0));
		assert_string_equal(nocls[i].vendor_name ? nocls[i].vendor_name : "",
				    devs[i].vendor_name ? devs[i].vendor_name : "");
		assert_null(nocls[i].class_name);
		pa_device_clear(&devs[i]);
		pa_device_clear(&nocls[i]);
	}
	pci_cleanup(pacc);
}

/* The GPU's extended list reads 0x0000@100, LTR@12c, 0x0000@134, AER@1b8,
 * 0x0000@248, 0x0000@250, VSEC@2a4, power budgeting@2b8, DSN@2f0. */
static void h200_config(void **state)
{
	uint8_t *c;
	size_t len;
	struct pa_config pc;

	(void)state;
	if (!test_have_guest())
		skip();
	assert_int_equal(pa_read_file(H200 "/devices/0000:00:06.0/config", 4096,
				      (char **)&c, &len), 0);
	assert_int_equal(len, 4096);
	assert_int_equal(pa_config_find_ext_cap(c, len, 0x18), 0x12c);
	assert_int_equal(pa_config_find_ext_cap(c, len, PCI_EXT_CAP_ID_ERR), 0x1b8);
	assert_int_equal(pa_config_find_ext_cap(c, len, PCI_EXT_CAP_ID_VNDR), 0x2a4);
	assert_int_equal(pa_config_find_ext_cap(c, len, PCI_EXT_CAP_ID_PWR), 0x2b8);
	assert_int_equal(pa_config_find_ext_cap(c, len, PCI_EXT_CAP_ID_DSN), 0x2f0);
	assert_int_equal(pa_config_find_ext_cap(c, len, PCI_EXT_CAP_ID_ACS), 0);
	pa_config_parse(c, len, &pc);
	assert_int_equal(pc.pcie_type, PCI_EXP_TYPE_ENDPOINT);
	assert_int_equal(pc.link.lnkcap & 0x3ff, TEST_LINK(5, 16));
	assert_int_equal(pc.link.lnksta & 0x3ff, TEST_LINK(5, 16));
	free(c);
}

static void h200_model(void **state)
{
	struct pa_report rep;
	struct pa_sysfs s;
	char what[256];

	(void)state;
	if (!test_have_guest())
		skip();
	assert_int_equal(pa_sysfs_read(H200, &s, what, sizeof(what)), 0);
	assert_int_equal(s.n, 8);
	assert_null(s.kernel_release);
	assert_int_equal(pa_sysfs_model(&s, &rep), 0);
	pa_sysfs_clear(&s);
	assert_int_equal(rep.ndevices, 8);
	assert_int_equal(rep.ngroups, 0);
	assert_false(rep.info.features & PCIEAUDIT_F_IOMMU_PRESENT);
	/* A flat bus: nothing has an upstream bridge. */
	for (size_t i = 0; i < rep.ndevices; i++)
		assert_false(rep.devices[i].has_upstream);
	assert_int_equal(rep.devices[6].vendor, 0x10de);
	assert_int_equal(rep.devices[6].class, 0x030200);
	assert_string_equal(rep.devices[6].driver, "nvidia");
	assert_int_equal(rep.devices[6].numa_node, -1);
	assert_true(rep.devices[6].has_link);
	assert_false(rep.devices[6].has_acs);
	/* virtio: conventional PCI functions, 256 bytes of config. */
	assert_int_equal(rep.devices[3].pcie_type, -1);
	assert_string_equal(rep.devices[3].driver, "virtio-pci");
	assert_null(rep.devices[0].driver);
	pa_report_clear(&rep);
}

/* ---- A synthetic sysfs mount ------------------------------------------------ */

static char root[64];

static void write_at(const char *rel, const void *data, size_t len)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

static void text_at(const char *rel, const char *text)
{
	write_at(rel, text, strlen(text));
}

static void dir_at(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

static void link_at(const char *target, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(symlink(target, path), 0);
}

#define RP "devices/pci0000:00/0000:00:01.0"
#define EP RP "/0000:01:00.0"
#define VF RP "/0000:01:00.2"

/* A root port, a GPU below it and one of its VFs, as a sysfs mount shows
 * them: links for the bus view, drivers, PF and IOMMU groups. */
static void make_tree(void)
{
	uint8_t c[4096];

	strcpy(root, "/tmp/pa-sysfs-XXXXXX");
	assert_non_null(mkdtemp(root));
	dir_at("devices");
	dir_at("devices/pci0000:00");
	dir_at(RP);
	dir_at(EP);
	dir_at(VF);
	dir_at("bus");
	dir_at("bus/pci");
	dir_at("bus/pci/devices");
	dir_at("bus/pci/drivers");
	dir_at("bus/pci/drivers/pcieport");
	dir_at("bus/pci/drivers/vfio-pci");
	dir_at("kernel");
	dir_at("kernel/iommu_groups");
	dir_at("kernel/iommu_groups/3");
	dir_at("kernel/iommu_groups/4");
	text_at("kernel/iommu_groups/3/type", "DMA-FQ\n");
	text_at("kernel/iommu_groups/4/type", "DMA-FQ\n");
	dir_at("devices/system");
	dir_at("devices/system/node");
	text_at("devices/system/node/online", "0-1\n");
	text_at("cmdline", "ro intel_iommu=on\n");
	text_at("cpuinfo", "vendor_id\t: GenuineIntel\ncpu family\t: 6\n");

	link_at("../../../" RP, "bus/pci/devices/0000:00:01.0");
	link_at("../../../" EP, "bus/pci/devices/0000:01:00.0");
	link_at("../../../" VF, "bus/pci/devices/0000:01:00.2");

	make_config(c, 0x8086, 0x347a, 0x060400, 0x01, PCI_EXP_TYPE_ROOT_PORT,
		    TEST_LINK(4, 16), TEST_LINK(4, 16), true);
	write_at(RP "/config", c, sizeof(c));
	text_at(RP "/class", "0x060400\n");
	text_at(RP "/numa_node", "1\n");
	link_at("../../../bus/pci/drivers/pcieport", RP "/driver");
	link_at("../../../kernel/iommu_groups/3", RP "/iommu_group");

	make_config(c, 0x10de, 0x20b5, 0x030200, 0x00, PCI_EXP_TYPE_ENDPOINT,
		    TEST_LINK(4, 16), TEST_LINK(4, 8), false);
	write_at(EP "/config", c, sizeof(c));
	/* BAR0 16M; the kernel's resource file has a line per resource. */
	text_at(EP "/resource",
		"0x00000000fd000000 0x00000000fdffffff 0x0000000000040200\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n");
	text_at(EP "/vendor", "0x10de\n");
	text_at(EP "/numa_node", "1\n");
	link_at("../../../../bus/pci/drivers/vfio-pci", EP "/driver");
	link_at("../../../../kernel/iommu_groups/4", EP "/iommu_group");

	write_at(VF "/config", c, 256);
	link_at("../0000:01:00.0", VF "/physfn");
	link_at("../../../../kernel/iommu_groups/4", VF "/iommu_group");
}

static void remove_tree(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static void sysfs_mount(void **state)
{
	struct pa_report rep;
	struct pa_host host = { 0 };
	struct pa_sysfs s;
	const struct pa_device *rp, *ep, *vf;
	char what[256];

	(void)state;
	make_tree();
	assert_int_equal(pa_sysfs_read(root, &s, what, sizeof(what)), 0);
	assert_int_equal(pa_sysfs_model(&s, &rep), 0);
	pa_sysfs_clear(&s);
	assert_int_equal(rep.ndevices, 3);
	rp = &rep.devices[0];
	ep = &rep.devices[1];
	vf = &rep.devices[2];
	assert_int_equal(rp->pcie_type, PCI_EXP_TYPE_ROOT_PORT);
	assert_true(rp->flags & PCIEAUDIT_DEV_F_BRIDGE);
	assert_false(rp->has_upstream);
	assert_string_equal(rp->driver, "pcieport");
	assert_int_equal(rp->numa_node, 1);
	assert_true(rp->has_acs);
	assert_int_equal(rp->iommu.group, 3);
	assert_int_equal(rp->iommu.def_domain, PCIEAUDIT_DOMAIN_DMA_FQ);
	/* Unknown without the module: the attached domain. */
	assert_int_equal(rp->iommu.domain, 0);
	assert_true(ep->has_upstream);
	assert_int_equal(ep->upstream.bus, 0);
	assert_int_equal(ep->upstream.devfn, 0x08);
	assert_string_equal(ep->driver, "vfio-pci");
	assert_true(ep->flags & PCIEAUDIT_DEV_F_PHYSFN);
	assert_true(vf->flags & PCIEAUDIT_DEV_F_VIRTFN);
	assert_int_equal(vf->pf.devfn, 0);
	assert_true(vf->has_upstream);
	assert_null(vf->driver);
	assert_int_equal(rep.ngroups, 2);
	assert_int_equal(rep.groups[1].nmembers, 2);
	assert_int_equal(rep.info.iommu_def_mode, PCIEAUDIT_IOMMU_MODE_TRANSLATED);
	assert_int_equal(rep.info.iommu_strict, PCIEAUDIT_IOMMU_STRICT_LAZY);
	/* Device Control from the bytes; BARs sized by resource, unknown
	 * where the file is missing (the root port here). */
	assert_true(ep->caps_known && ep->has_expdev);
	assert_false(ep->bars_unknown);
	assert_int_equal(ep->nbars, 1);
	assert_int_equal(ep->bars[0].size, 16u << 20);
	assert_true(rp->caps_known);
	assert_true(rp->bars_unknown);
	pa_report_clear(&rep);

	/* A copy of another host: its files, never this machine's /proc. */
	assert_int_equal(pa_host_read(root, &host), 0);
	assert_string_equal(host.cmdline, "ro intel_iommu=on");
	assert_string_equal(host.cpu_vendor, "GenuineIntel");
	assert_int_equal(host.cpu_family, 6);
	assert_int_equal(host.numa_nodes, 2);
	pa_host_clear(&host);
	remove_tree();
}

/*
 * A resource file's six BAR lines (drivers/pci/pci-sysfs.c resource_show():
 * start, end, flags; a real H200 VM guest's 64-bit prefetchable flags
 * 0x14220c): starts and types as the kernel has them, none for an
 * IORESOURCE_UNSET one, false for a file cut short.
 */
static void resource_bars(void **state)
{
	static const char text[] =
		"0x00000000fd000000 0x00000000fdffffff 0x0000000000040200\n"
		"0x0000100000000000 0x0000103fffffffff 0x000000000014220c\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x0000000000000000 0x00000001ffffffff 0x000000002014220c\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x000000000000e000 0x000000000000e07f 0x0000000000040101\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n";
	struct pa_sysfs_bar b[PA_MAX_BARS];

	(void)state;
	assert_true(pa_sysfs_resource_bars(text, b));
	assert_true(b[0].has_start);
	assert_int_equal(b[0].start, 0xfd000000);
	assert_int_equal(b[0].size, 16u << 20);
	assert_int_equal(b[0].flags, PCIEAUDIT_BAR_F_MEM);
	assert_int_equal(b[1].start, 0x100000000000ull);
	assert_int_equal(b[1].size, 256ull << 30);
	assert_int_equal(b[1].flags, PCIEAUDIT_BAR_F_MEM | PCIEAUDIT_BAR_F_MEM64 |
			 PCIEAUDIT_BAR_F_PREFETCH);
	assert_int_equal(b[2].size, 0);
	assert_false(b[2].has_start);
	assert_true(b[3].unassigned);
	assert_false(b[3].has_start);
	assert_int_equal(b[3].size, 8ull << 30);
	assert_int_equal(b[5].start, 0xe000);
	assert_int_equal(b[5].flags, PCIEAUDIT_BAR_F_IO);
	assert_false(pa_sysfs_resource_bars(text + 57 * 2, b));
	assert_false(pa_sysfs_resource_bars("", b));
}

/* model_strict RELEASE: info.iommu_strict of the tree with plain "DMA"
 * groups, read as if from a kernel of that release (NULL: unknown). */
static uint32_t model_strict(const char *release)
{
	struct pa_report rep;
	struct pa_sysfs s;
	char what[256];
	uint32_t strict;

	assert_int_equal(pa_sysfs_read(root, &s, what, sizeof(what)), 0);
	free(s.kernel_release);
	s.kernel_release = release ? strdup(release) : NULL;
	assert_int_equal(pa_sysfs_model(&s, &rep), 0);
	pa_sysfs_clear(&s);
	strict = rep.info.iommu_strict;
	pa_report_clear(&rep);
	return strict;
}

/* Before v5.15 lazy domains have no type of their own: "DMA" is strict or
 * lazy, so strictness is unknown there (Debian 11's 5.10 showed it). */
static void dma_strict_needs_dma_fq(void **state)
{
	(void)state;
	make_tree();
	text_at("kernel/iommu_groups/3/type", "DMA\n");
	text_at("kernel/iommu_groups/4/type", "DMA\n");
	assert_int_equal(model_strict("6.1.0-57-amd64"), PCIEAUDIT_IOMMU_STRICT_STRICT);
	assert_int_equal(model_strict("5.15.0-1-generic"), PCIEAUDIT_IOMMU_STRICT_STRICT);
	assert_int_equal(model_strict("5.10.0-46-amd64"), PCIEAUDIT_IOMMU_STRICT_UNKNOWN);
	assert_int_equal(model_strict(NULL), PCIEAUDIT_IOMMU_STRICT_UNKNOWN);
	/* A lazy group shows the kernel has the type, whatever its release. */
	text_at("kernel/iommu_groups/4/type", "DMA-FQ\n");
	assert_int_equal(model_strict("5.10.0-46-amd64"), PCIEAUDIT_IOMMU_STRICT_LAZY);
	remove_tree();
}

/* What the module no longer reads comes from sysfs: the default domain
 * from the group's type, the instance from the iommu link, strictness from
 * the types. A function whose files are missing stays unknown. */
static void module_report_gets_sysfs_iommu(void **state)
{
	struct pa_report rep = { 0 };
	struct pa_device ep = { .addr = { 0, 1, 0 }, .has_iommu = true,
				.iommu = { .group = 4 } };
	struct pa_device gone = { .addr = { 0, 1, 1 }, .has_iommu = true,
				  .iommu = { .group = 9 } };

	(void)state;
	make_tree();
	link_at("../../../virtual/iommu/dmar3", EP "/iommu");
	assert_int_equal(pa_report_add_device(&rep, &ep), 0);
	assert_int_equal(pa_report_add_device(&rep, &gone), 0);
	assert_int_equal(pa_iommu_sysfs_fill(root, &rep), 0);
	assert_int_equal(rep.devices[0].iommu.def_domain, PCIEAUDIT_DOMAIN_DMA_FQ);
	assert_int_equal(rep.devices[0].iommu.def_domain_source, PCIEAUDIT_SOURCE_KERNEL);
	assert_string_equal(rep.devices[0].iommu.instance, "dmar3");
	assert_int_equal(rep.devices[1].iommu.def_domain, 0);
	assert_null(rep.devices[1].iommu.instance);
	assert_int_equal(rep.info.iommu_strict, PCIEAUDIT_IOMMU_STRICT_LAZY);
	pa_report_clear(&rep);
	remove_tree();
}

/* With the IOMMUs' class folder, each instance's devices/ list names the
 * functions it serves: no readlink per function, and a function listed
 * nowhere has no instance, whatever its own link (not read) says. */
static void module_report_instances_from_class(void **state)
{
	struct pa_report rep = { 0 };
	struct pa_device ep = { .addr = { 0, 1, 0 }, .has_iommu = true,
				.iommu = { .group = 4 } };
	struct pa_device vf = { .addr = { 0, 1, 2 }, .has_iommu = true,
				.iommu = { .group = 4 } };

	(void)state;
	make_tree();
	link_at("../../../virtual/iommu/dmar3", VF "/iommu");
	dir_at("class");
	dir_at("class/iommu");
	dir_at("class/iommu/dmar3");
	dir_at("class/iommu/dmar3/devices");
	link_at("../../../" EP, "class/iommu/dmar3/devices/0000:01:00.0");
	/* An ACPI device beside it: not a PCI name, skipped. */
	link_at("../../../devices", "class/iommu/dmar3/devices/ACPI0007:00");
	dir_at("class/iommu/dmar4");
	assert_int_equal(pa_report_add_device(&rep, &ep), 0);
	assert_int_equal(pa_report_add_device(&rep, &vf), 0);
	assert_int_equal(pa_iommu_sysfs_fill(root, &rep), 0);
	assert_string_equal(rep.devices[0].iommu.instance, "dmar3");
	assert_null(rep.devices[1].iommu.instance);
	/* The group's type was read once and given to both. */
	assert_int_equal(rep.devices[1].iommu.def_domain, PCIEAUDIT_DOMAIN_DMA_FQ);
	pa_report_clear(&rep);
	remove_tree();
}

static void nothing_there(void **state)
{
	struct pa_sysfs s;
	char what[256];

	(void)state;
	assert_int_equal(pa_sysfs_read("/nonexistent-pa", &s, what, sizeof(what)),
			 -ENOENT);
	assert_int_equal(s.n, 0);
}

/* Without CAP_SYS_ADMIN, sysfs hands out the first 64 bytes of config:
 * ACS would read as absent, so that is an error, not a report. Needs root
 * to drop privileges, and a PCI function with more than 64 bytes. */
/* The running kernel's bytes: what the sysfs reader read, in the pieces
 * the parser asked for, decodes as the whole file does. */
static void live_sparse_read(void **state)
{
	struct pa_sysfs s;
	char what[256], path[512];
	size_t checked = 0;

	(void)state;
	if (geteuid() != 0 || pa_sysfs_read("/sys", &s, what, sizeof(what))) {
		print_message("SKIPPED: needs root and a readable /sys/bus/pci\n");
		skip();
	}
	for (size_t i = 0; i < s.n; i++) {
		struct pa_config whole, sparse;
		uint8_t *c;
		size_t len;

		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/config",
			 s.devs[i].name);
		if (pa_read_file(path, 4096, (char **)&c, &len))
			continue;
		assert_int_equal(len, s.devs[i].config_len);
		pa_config_parse(c, len, &whole);
		pa_config_parse(s.devs[i].config, s.devs[i].config_len, &sparse);
		same_config(&whole, &sparse);
		checked++;
		free(c);
	}
	pa_sysfs_clear(&s);
	assert_true(checked > 0);
}

static void unprivileged_read(void **state)
{
	struct pa_sysfs s;
	char what[256];
	int status;
	pid_t pid;

	(void)state;
	if (geteuid() != 0 || pa_sysfs_read("/sys", &s, what, sizeof(what))) {
		print_message("SKIPPED: needs root and a readable /sys/bus/pci\n");
		skip();
	}
	status = s.n && s.devs[0].config_len > 64;
	for (size_t i = 0; i < s.n; i++)
		status |= s.devs[i].config_len > 64;
	pa_sysfs_clear(&s);
	if (!status) {
		print_message("SKIPPED: no PCI function with more than 64 bytes of config\n");
		skip();
	}
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		if (setgid(65534) || setuid(65534))
			_exit(2);
		_exit(pa_sysfs_read("/sys", &s, what, sizeof(what)) == -EACCES &&
		      strstr(what, "/config") ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_synthetic),
		cmocka_unit_test(parse_short_and_broken),
		cmocka_unit_test(sparse_synthetic),
		cmocka_unit_test(sparse_corpus),
		cmocka_unit_test(names_as_whole_pci_ids),
		cmocka_unit_test(h200_config),
		cmocka_unit_test(h200_model),
		cmocka_unit_test(sysfs_mount),
		cmocka_unit_test(resource_bars),
		cmocka_unit_test(dma_strict_needs_dma_fq),
		cmocka_unit_test(module_report_gets_sysfs_iommu),
		cmocka_unit_test(module_report_instances_from_class),
		cmocka_unit_test(nothing_there),
		cmocka_unit_test(live_sparse_read),
		cmocka_unit_test(unprivileged_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
