// SPDX-License-Identifier: GPL-2.0
/*
 * The vfio profile's host and device rules (check_vfio_host.c): interrupt
 * remapping, reset, SR-IOV and ARI, 64-bit BARs, vfio-pci.ids=, each with
 * its fact present, absent and unknown; and the parsers behind the facts
 * (passthru.c, config_space.c's SR-IOV, PM, AF and DevCap2) on real text
 * and bytes.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "bdf.h"
#include "check.h"
#include "config_space.h"
#include "passthru.h"
#include "snapshot.h"
#include "sysread.h"
#include "json_out.h"
#include "vfio_facts.h"
#include "vfio_plan.h"
#include "exitcodes.h"
#include "load.h"

#define RP	{ 0, 0x00, 0x08 }	/* 00:01.0 */
#define EP	{ 0, 0x01, 0x00 }	/* 01:00.0 */
#define EP1	{ 0, 0x01, 0x01 }	/* 01:00.1 */

/* A root port with ACS and an NVMe drive below it, each alone in its
 * group; VT-d on; the host's interrupt remapping on. */
static void base(struct pa_report *rep, const char *cmdline)
{
	*rep = (struct pa_report){ 0 };
	test_add_dev(rep, &(struct test_dev){ .bus = 0, .devfn = 0x08,
		.up_bus = -1, .class = 0x060400,
		.pcie_type = PCI_EXP_TYPE_ROOT_PORT, .numa = -1,
		.has_acs = true, .acs_ctrl = 0x1d });
	test_add_dev(rep, &(struct test_dev){ .bus = 1, .devfn = 0,
		.up_bus = 0, .up_devfn = 0x08, .class = 0x010802,
		.pcie_type = PCI_EXP_TYPE_ENDPOINT, .numa = -1 });
	for (size_t i = 0; i < rep->ndevices; i++) {
		rep->devices[i].has_iommu = true;
		rep->devices[i].iommu.group = (uint32_t)i + 1;
		pa_passthru_init(&rep->devices[i].pt);
	}
	rep->devices[0].vendor = 0x8086;
	rep->devices[0].device = 0x7c10;
	rep->devices[1].driver = strdup("nvme");
	rep->devices[1].pt.reset_method = strdup("flr bus");
	assert_int_equal(pa_report_groups_from_devices(rep), 0);
	rep->info.iommu_def_mode = PCIEAUDIT_IOMMU_MODE_TRANSLATED;
	pa_host_clear(&rep->host);
	rep->has_host = true;
	rep->host.source = PA_SOURCE_SYSFS;
	rep->host.cmdline = cmdline ? strdup(cmdline) : NULL;
	rep->host.intremap = PA_INTREMAP_ON;
	rep->host.intremap_how = strdup("IR-PCI-MSIX-0000:01:00.0 in /proc/interrupts");
}

static struct pa_device *dev(struct pa_report *rep, struct pa_addr a)
{
	return (struct pa_device *)pa_report_find(rep, &a);
}

static void run(struct pa_report *rep, struct pa_check *c)
{
	struct pa_policy pol;

	pa_policy_default(&pol);
	for (int p = 0; p < PA_NPROFILES; p++)
		pol.profiles[p] = p == PA_PROFILE_VFIO;
	assert_int_equal(test_check_run(rep, &pol, c), 0);
}

static size_t count(const struct pa_check *c, enum pa_rule_id rule)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nfindings; i++)
		n += c->findings[i].rule == rule;
	return n;
}

static const struct pa_finding *first(const struct pa_check *c,
				      enum pa_rule_id rule)
{
	for (size_t i = 0; i < c->nfindings; i++)
		if (c->findings[i].rule == rule)
			return &c->findings[i];
	fail_msg("no %s finding", pa_rules[rule].id);
	return NULL;
}

/* The rule's findings are exactly n, and it ran (or was skipped). */
static void want(const struct pa_check *c, enum pa_rule_id rule, size_t n,
		 enum pa_rule_state state)
{
	if (count(c, rule) != n || c->state[rule] != state)
		fail_msg("%s: %zu findings, state %d (%s); want %zu, %d",
			 pa_rules[rule].id, count(c, rule), c->state[rule],
			 c->note[rule] ? c->note[rule] : "", n, state);
}

static void done(struct pa_report *rep, struct pa_check *c)
{
	pa_check_clear(c);
	pa_report_clear(rep);
}

/* ---- vfio.interrupt-remapping -------------------------------------------- */

static void test_intremap(void **state)
{
	struct pa_report rep;
	struct pa_check c;
	const struct pa_finding *f;

	(void)state;
	base(&rep, "root=/dev/sda");
	run(&rep, &c);
	want(&c, PA_VFIO_INTREMAP, 0, PA_RULE_RAN);
	assert_non_null(strstr(c.note[PA_VFIO_INTREMAP], "IR-PCI-MSIX"));
	done(&rep, &c);

	/* Off, from /proc/interrupts: VFIO refuses; from the firmware. */
	base(&rep, "root=/dev/sda");
	rep.host.intremap = PA_INTREMAP_OFF;
	run(&rep, &c);
	want(&c, PA_VFIO_INTREMAP, 1, PA_RULE_RAN);
	f = first(&c, PA_VFIO_INTREMAP);
	assert_int_equal(f->severity, PA_SEV_FAIL);
	assert_int_equal(f->remedy_kind, PA_REMEDY_BIOS);
	done(&rep, &c);

	/* allow_unsafe_interrupts=Y: VFIO attaches, unsafely: warn. */
	base(&rep, "root=/dev/sda intremap=off");
	rep.host.intremap = PA_INTREMAP_OFF;
	rep.host.allow_unsafe = PA_INTREMAP_ON;
	run(&rep, &c);
	f = first(&c, PA_VFIO_INTREMAP);
	assert_int_equal(f->severity, PA_SEV_WARN);
	assert_int_equal(f->remedy_kind, PA_REMEDY_CMDLINE_REMOVE);
	assert_string_equal(f->remedy, "intremap=off");
	done(&rep, &c);

	/* Unknown from the facts, but the command line turns it off. */
	base(&rep, "quiet nointremap");
	rep.host.intremap = PA_INTREMAP_UNKNOWN;
	run(&rep, &c);
	f = first(&c, PA_VFIO_INTREMAP);
	assert_int_equal(f->severity, PA_SEV_FAIL);
	assert_string_equal(f->remedy, "nointremap");
	done(&rep, &c);

	/* Unknown: skipped, not passed. */
	base(&rep, "quiet");
	rep.host.intremap = PA_INTREMAP_UNKNOWN;
	run(&rep, &c);
	want(&c, PA_VFIO_INTREMAP, 0, PA_RULE_SKIPPED);
	done(&rep, &c);

	/* In a VM, the hypervisor gives it. */
	base(&rep, "quiet");
	rep.host.intremap = PA_INTREMAP_OFF;
	rep.host.hypervisor = 1;
	run(&rep, &c);
	assert_int_equal(first(&c, PA_VFIO_INTREMAP)->remedy_kind,
			 PA_REMEDY_HYPERVISOR);
	done(&rep, &c);
}

/* /proc/interrupts of a 6.1 VT-d guest, and of one booted intremap=off. */
static void test_intremap_parse(void **state)
{
	static const char on[] =
		"           CPU0       CPU1       \n"
		"  0:         35          0   IO-APIC   2-edge      timer\n"
		" 24:          0          0  DMAR-MSI    0-edge      dmar0\n"
		" 25:        120          0  IR-PCI-MSI 512000-edge      ahci[0000:00:1f.2]\n";
	static const char off[] =
		"           CPU0       \n"
		"  0:         35   IO-APIC   2-edge      timer\n"
		" 24:          0  DMAR-MSI    0-edge      dmar0\n"
		" 25:        120  PCI-MSIX-0000:01:00.0    0-edge      nvme0q0\n";
	static const char neither[] = "           CPU0\nNMI:  0   Non-maskable interrupts\n";
	struct pa_host h = { 0 };

	(void)state;
	pa_host_clear(&h);
	assert_int_equal(pa_intremap_from_interrupts(on, &h), 0);
	assert_int_equal(h.intremap, PA_INTREMAP_ON);
	assert_string_equal(h.intremap_how, "IR-PCI-MSI in /proc/interrupts");
	pa_host_clear(&h);
	assert_int_equal(pa_intremap_from_interrupts(off, &h), 0);
	assert_int_equal(h.intremap, PA_INTREMAP_OFF);
	assert_string_equal(h.intremap_how, "IO-APIC in /proc/interrupts, and no IR- chip");
	pa_host_clear(&h);
	assert_int_equal(pa_intremap_from_interrupts(neither, &h), 0);
	assert_int_equal(h.intremap, PA_INTREMAP_UNKNOWN);
	assert_int_equal(pa_intremap_from_dmesg("[    0.1] DMAR: IOMMU enabled\n[    0.2] DMAR-IR: Enabled IRQ remapping in x2apic mode\n", &h), 0);
	assert_int_equal(h.intremap, PA_INTREMAP_ON);
	pa_host_clear(&h);
	assert_int_equal(pa_intremap_from_dmesg("[    0.3] AMD-Vi: Interrupt remapping enabled\n", &h), 0);
	assert_int_equal(h.intremap, PA_INTREMAP_ON);
	pa_host_clear(&h);
	assert_int_equal(pa_intremap_from_dmesg("[    0.3] DMAR: IOMMU enabled\n", &h), 0);
	assert_int_equal(h.intremap, PA_INTREMAP_UNKNOWN);
	assert_int_equal(pa_bool_param("Y\n"), PA_INTREMAP_ON);
	assert_int_equal(pa_bool_param("N\n"), PA_INTREMAP_OFF);
	assert_int_equal(pa_bool_param(NULL), PA_INTREMAP_UNKNOWN);
	pa_host_clear(&h);
}

/* ---- vfio.no-reset ------------------------------------------------------- */

static void add_sibling(struct pa_report *rep, uint32_t group)
{
	struct pa_device *d;

	test_add_dev(rep, &(struct test_dev){ .bus = 1, .devfn = 1,
		.up_bus = 0, .up_devfn = 0x08, .class = 0x020000,
		.pcie_type = PCI_EXP_TYPE_ENDPOINT, .numa = -1 });
	pa_report_sort(rep);
	d = dev(rep, (struct pa_addr)EP1);
	d->has_iommu = true;
	d->iommu.group = group;
	d->driver = strdup("e1000e");
	pa_passthru_init(&d->pt);
	d->pt.reset_method = strdup("flr");
	pa_report_clear_groups(rep);
	assert_int_equal(pa_report_groups_from_devices(rep), 0);
}

/* The drive's sysfs reset_method (NULL: absent) and reset file. */
static struct pa_device *set_reset(struct pa_report *rep, const char *method,
				   int file)
{
	struct pa_device *d = dev(rep, (struct pa_addr)EP);

	free(d->pt.reset_method);
	d->pt.reset_method = method ? strdup(method) : NULL;
	d->pt.reset_file = file;
	return d;
}

static void test_reset(void **state)
{
	struct pa_report rep;
	struct pa_check c;
	const struct pa_finding *f;
	struct pa_device *d;

	(void)state;
	/* FLR: nothing. */
	base(&rep, "quiet");
	run(&rep, &c);
	want(&c, PA_VFIO_NO_RESET, 0, PA_RULE_RAN);
	done(&rep, &c);

	/* A 5.15+ kernel without a method, alone on its bus. */
	base(&rep, "quiet");
	set_reset(&rep, "", 1);
	run(&rep, &c);
	want(&c, PA_VFIO_NO_RESET, 1, PA_RULE_RAN);
	f = first(&c, PA_VFIO_NO_RESET);
	assert_int_equal(f->severity, PA_SEV_WARN);
	assert_non_null(strstr(f->message, "no reset method"));
	done(&rep, &c);

	/* No method of its own, its bus shared with another group's
	 * function: the bus reset resets that too. */
	base(&rep, "quiet");
	add_sibling(&rep, 7);
	set_reset(&rep, NULL, 0);
	run(&rep, &c);
	want(&c, PA_VFIO_NO_RESET, 1, PA_RULE_RAN);
	f = first(&c, PA_VFIO_NO_RESET);
	assert_int_equal(f->devices.n, 2);
	assert_non_null(strstr(f->message, "secondary bus reset"));
	done(&rep, &c);

	/* The same, the sibling in its group: VFIO's hot reset can. */
	base(&rep, "quiet");
	add_sibling(&rep, 2);
	set_reset(&rep, NULL, 0);
	run(&rep, &c);
	want(&c, PA_VFIO_NO_RESET, 0, PA_RULE_RAN);
	done(&rep, &c);

	/* An older kernel: no reset_method; FLR in DevCap. */
	base(&rep, "quiet");
	d = set_reset(&rep, NULL, -1);
	d->caps_known = d->has_expdev = true;
	d->devcap = PCI_EXP_DEVCAP_FLR;
	run(&rep, &c);
	want(&c, PA_VFIO_NO_RESET, 0, PA_RULE_RAN);
	done(&rep, &c);

	/* Nothing read: unknown, skipped. */
	base(&rep, "quiet");
	d = set_reset(&rep, NULL, -1);
	d->pt = (struct pa_passthru){ 0 };
	run(&rep, &c);
	want(&c, PA_VFIO_NO_RESET, 0, PA_RULE_SKIPPED);
	done(&rep, &c);
}

/* ---- vfio.sriov-resources ------------------------------------------------ */

static void sriov(struct pa_report *rep, uint16_t vfs, int bars)
{
	struct pa_device *d = dev(rep, (struct pa_addr)EP);

	d->pt.has_sriov = true;
	d->pt.total_vfs = vfs;
	d->pt.vf_offset = 1;
	d->pt.vf_stride = 1;
	d->pt.vf_bars_assigned = bars;
}

static void port_devctl2(struct pa_report *rep, bool known, uint32_t devcap2,
			 uint16_t devctl2)
{
	struct pa_device *p = dev(rep, (struct pa_addr)RP);

	p->pt.has_devcap2 = known;
	p->pt.devcap2 = devcap2;
	p->pt.devctl2 = devctl2;
}

static void test_sriov(void **state)
{
	struct pa_report rep;
	struct pa_check c;
	const struct pa_finding *f;

	(void)state;
	/* No SR-IOV: nothing to judge. */
	base(&rep, "quiet");
	run(&rep, &c);
	want(&c, PA_VFIO_SRIOV_RESOURCES, 0, PA_RULE_RAN);
	done(&rep, &c);

	/* 2 VFs, BARs placed: fine. */
	base(&rep, "quiet");
	sriov(&rep, 2, 1);
	port_devctl2(&rep, true, 0, 0);
	run(&rep, &c);
	want(&c, PA_VFIO_SRIOV_RESOURCES, 0, PA_RULE_RAN);
	done(&rep, &c);

	/* VF BARs without space. */
	base(&rep, "quiet");
	sriov(&rep, 2, 0);
	run(&rep, &c);
	want(&c, PA_VFIO_SRIOV_RESOURCES, 1, PA_RULE_RAN);
	assert_int_equal(first(&c, PA_VFIO_SRIOV_RESOURCES)->remedy_kind,
			 PA_REMEDY_BIOS);
	done(&rep, &c);

	/* 16 VFs below a port with ARI Forwarding supported but off. */
	base(&rep, "quiet pci=noari");
	sriov(&rep, 16, 1);
	port_devctl2(&rep, true, PCI_EXP_DEVCAP2_ARI, 0);
	run(&rep, &c);
	want(&c, PA_VFIO_SRIOV_RESOURCES, 1, PA_RULE_RAN);
	f = first(&c, PA_VFIO_SRIOV_RESOURCES);
	assert_int_equal(f->devices.n, 2);
	assert_string_equal(f->remedy, "pci=noari");
	assert_non_null(strstr(f->message, "devfn 02.0"));
	done(&rep, &c);

	/* ... not supported: another port. */
	base(&rep, "quiet");
	sriov(&rep, 16, 1);
	port_devctl2(&rep, true, 0, 0);
	run(&rep, &c);
	assert_int_equal(first(&c, PA_VFIO_SRIOV_RESOURCES)->remedy_kind,
			 PA_REMEDY_HARDWARE);
	done(&rep, &c);

	/* ... on: fine. */
	base(&rep, "quiet");
	sriov(&rep, 16, 1);
	port_devctl2(&rep, true, PCI_EXP_DEVCAP2_ARI, PCI_EXP_DEVCTL2_ARI);
	run(&rep, &c);
	want(&c, PA_VFIO_SRIOV_RESOURCES, 0, PA_RULE_RAN);
	done(&rep, &c);

	/* ... the port's DevCtl2 unknown, VF BARs unknown: skipped. */
	base(&rep, "quiet");
	sriov(&rep, 16, -1);
	port_devctl2(&rep, false, 0, 0);
	run(&rep, &c);
	want(&c, PA_VFIO_SRIOV_RESOURCES, 0, PA_RULE_SKIPPED);
	done(&rep, &c);

	/* Nothing read of the drive: unknown, not "no SR-IOV". */
	base(&rep, "quiet");
	free(dev(&rep, (struct pa_addr)EP)->pt.reset_method);
	dev(&rep, (struct pa_addr)EP)->pt = (struct pa_passthru){ 0 };
	run(&rep, &c);
	want(&c, PA_VFIO_SRIOV_RESOURCES, 0, PA_RULE_SKIPPED);
	done(&rep, &c);
}

/* ---- vfio.bar-below-4g --------------------------------------------------- */

static void bar(struct pa_report *rep, uint64_t size, uint32_t flags,
		bool has_start, uint64_t start)
{
	struct pa_device *d = dev(rep, (struct pa_addr)EP);

	d->caps_known = true;
	d->bars[d->nbars++] = (struct pa_bar){ .index = (uint8_t)(2 * d->nbars),
		.size = size, .flags = flags, .has_start = has_start,
		.start = start };
}

#define PF64 (PCIEAUDIT_BAR_F_MEM | PCIEAUDIT_BAR_F_MEM64 | PCIEAUDIT_BAR_F_PREFETCH)

static void test_bars(void **state)
{
	struct pa_report rep;
	struct pa_check c;

	(void)state;
	base(&rep, "quiet");
	bar(&rep, 16 << 20, PCIEAUDIT_BAR_F_MEM, true, 0xfe000000);
	bar(&rep, 8ull << 30, PF64, true, 0x4000000000ull);
	run(&rep, &c);
	want(&c, PA_VFIO_BAR_BELOW_4G, 0, PA_RULE_RAN);
	done(&rep, &c);

	/* 512 MiB below 4 GiB. */
	base(&rep, "quiet");
	bar(&rep, 512 << 20, PF64, true, 0xc0000000);
	run(&rep, &c);
	want(&c, PA_VFIO_BAR_BELOW_4G, 1, PA_RULE_RAN);
	assert_int_equal(first(&c, PA_VFIO_BAR_BELOW_4G)->remedy_kind,
			 PA_REMEDY_BIOS);
	done(&rep, &c);

	/* Failed. */
	base(&rep, "quiet");
	bar(&rep, 8ull << 30, PF64 | PCIEAUDIT_BAR_F_UNASSIGNED, false, 0);
	run(&rep, &c);
	want(&c, PA_VFIO_BAR_BELOW_4G, 1, PA_RULE_RAN);
	assert_non_null(strstr(first(&c, PA_VFIO_BAR_BELOW_4G)->message,
			       "no address space"));
	done(&rep, &c);

	/* Sizes without places (the module's alone): unknown. */
	base(&rep, "quiet");
	bar(&rep, 8ull << 30, PF64, false, 0);
	run(&rep, &c);
	want(&c, PA_VFIO_BAR_BELOW_4G, 0, PA_RULE_SKIPPED);
	done(&rep, &c);
}

/* ---- A VF's BARs: the kernel's places ------------------------------------ */

/*
 * An SR-IOV GPU and two of its VFs below it, as sysfs (and lspci) show
 * them. A VF's BAR registers read 0 and its Vendor and Device IDs 0xffff
 * (SR-IOV; the real QEMU NVMe VFs of tests/fixtures/vm-runs/passthrough
 * read so): the kernel places each VF BAR at the PF's VF BAR plus the VF's
 * index times its size, and says so in the VF's resource file and in
 * lspci's "[virtual]" regions.
 */
#define GPU_PF		"0000:01:00.0"
#define GPU_VF1		"0000:01:00.1"
#define GPU_VF2		"0000:01:00.2"
#define GPU_BAR0	0x6000000000ull		/* the PF's own BAR 0, 64 MiB */
#define RES_PF64	0x14220cull	/* IORESOURCE_MEM|PREFETCH|MEM_64|SIZEALIGN */

static void gpu_config(uint8_t *cfg, bool vf, uint64_t vf_bar)
{
	memset(cfg, 0, 4096);
	test_put16(cfg, PCI_VENDOR_ID, vf ? 0xffff : 0x10de);
	test_put16(cfg, PCI_DEVICE_ID, vf ? 0xffff : 0x2330);
	test_put32(cfg, PCI_CLASS_REVISION, 0x030200a1);
	test_put16(cfg, PCI_STATUS, PCI_STATUS_CAP_LIST);
	cfg[PCI_CAPABILITY_LIST] = 0x60;
	cfg[0x60] = PCI_CAP_ID_EXP;
	test_put16(cfg, 0x60 + PCI_EXP_FLAGS, 2 | PCI_EXP_TYPE_ENDPOINT << 4);
	if (vf)
		return;
	test_put16(cfg, PCI_COMMAND, PCI_COMMAND_MEMORY);
	test_put32(cfg, PCI_BASE_ADDRESS_0, (uint32_t)GPU_BAR0 | 0xc);
	test_put32(cfg, PCI_BASE_ADDRESS_1, (uint32_t)(GPU_BAR0 >> 32));
	test_put32(cfg, 0x100, PCI_EXT_CAP_ID_SRIOV | 1u << 16);
	test_put16(cfg, 0x100 + PCI_SRIOV_CTRL,
		   PCI_SRIOV_CTRL_VFE | PCI_SRIOV_CTRL_MSE);
	test_put16(cfg, 0x100 + PCI_SRIOV_INITIAL_VF, 2);
	test_put16(cfg, 0x100 + PCI_SRIOV_TOTAL_VF, 2);
	test_put16(cfg, 0x100 + PCI_SRIOV_NUM_VF, 2);
	test_put16(cfg, 0x100 + PCI_SRIOV_VF_OFFSET, 1);
	test_put16(cfg, 0x100 + PCI_SRIOV_VF_STRIDE, 1);
	test_put32(cfg, 0x100 + PCI_SRIOV_BAR, (uint32_t)vf_bar | 0xc);
	test_put32(cfg, 0x100 + PCI_SRIOV_BAR + 4, (uint32_t)(vf_bar >> 32));
}

static void put_file(const char *root, const char *bdf, const char *name,
		     const void *data, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/devices/%s/%s", root, bdf, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void put_text(const char *root, const char *bdf, const char *name,
		     const char *text)
{
	put_file(root, bdf, name, text, strlen(text));
}

/* A resource file as drivers/pci/pci-sysfs.c resource_show() writes it,
 * "0x%016llx 0x%016llx 0x%016llx" a line: the 6 BARs, the ROM, the 6 IOV
 * BARs (CONFIG_PCI_IOV); only BAR 0 and IOV BAR 0 (line 7) hold one. */
static void put_resource(const char *root, const char *bdf, uint64_t bar0,
			 uint64_t size0, uint64_t iov0, uint64_t iov_size)
{
	char text[13 * 60], *p = text;

	for (int i = 0; i < 13; i++) {
		uint64_t start = i == 0 ? bar0 : i == 7 ? iov0 : 0;
		uint64_t size = i == 0 ? size0 : i == 7 ? iov_size : 0;

		p += sprintf(p, "0x%016llx 0x%016llx 0x%016llx\n",
			     (unsigned long long)start,
			     (unsigned long long)(size ? start + size - 1 : 0),
			     size ? RES_PF64 : 0ull);
	}
	put_text(root, bdf, "resource", text);
}

/*
 * A --sysfs copy (the fixture layout, sysread.h) of the PF and its two
 * VFs, each VF bound to vfio-pci: VF BARs of vf_size from vf_bar. VF1
 * has its resource file; VF2, as a copy that left it out, has none.
 */
static void vf_tree(char *root, uint64_t vf_bar, uint64_t vf_size)
{
	static const char *const bdfs[] = { GPU_PF, GPU_VF1, GPU_VF2 };
	static uint8_t cfg[4096];
	char cmd[256], path[128];

	assert_non_null(mkdtemp(root));
	for (int i = 0; i < 3; i++) {
		snprintf(cmd, sizeof(cmd), "mkdir -p %s/devices/%s", root, bdfs[i]);
		assert_int_equal(system(cmd), 0);
		gpu_config(cfg, i > 0, vf_bar);
		put_file(root, bdfs[i], "config", cfg, sizeof(cfg));
		snprintf(path, sizeof(path), "pci0000:00/%s\n", bdfs[i]);
		put_text(root, bdfs[i], "sysfs_path", path);
		put_text(root, bdfs[i], "vendor", "0x10de\n");
		put_text(root, bdfs[i], "device", i ? "0x2331\n" : "0x2330\n");
		put_text(root, bdfs[i], "class", "0x030200\n");
		put_text(root, bdfs[i], "driver", i ? "vfio-pci\n" : "nvidia\n");
		snprintf(path, sizeof(path), "%d\n", 20 + i);
		put_text(root, bdfs[i], "iommu_group", path);
		put_text(root, bdfs[i], "iommu_group_type", "DMA-FQ\n");
		if (i)
			put_text(root, bdfs[i], "physfn", GPU_PF "\n");
	}
	put_resource(root, GPU_PF, GPU_BAR0, 64ull << 20, vf_bar, 2 * vf_size);
	put_resource(root, GPU_VF1, vf_bar, vf_size, 0, 0);
}

static void remove_root(const char *root)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static struct pa_device *at(struct pa_report *rep, const char *bdf)
{
	struct pa_addr a;

	assert_int_equal(pa_bdf_parse(bdf, &a), 0);
	return (struct pa_device *)pa_report_find(rep, &a);
}

/* VF1's BAR 0 as the kernel placed it: 64-bit prefetchable at start. */
static void kernel_place(const struct pa_device *vf, uint64_t size,
			 uint64_t start)
{
	assert_non_null(vf);
	assert_true(vf->caps_known);
	assert_false(vf->bars_unknown);
	assert_int_equal(vf->nbars, 1);
	assert_int_equal(vf->bars[0].index, 0);
	assert_int_equal(vf->bars[0].size, size);
	assert_int_equal(vf->bars[0].flags, PF64);
	assert_true(vf->bars[0].has_start);
	assert_int_equal(vf->bars[0].start, start);
}

/* --sysfs: VF1's place from its resource file, above 4 GiB; VF2's BARs
 * unknown (no resource, and its registers read 0): no finding for
 * either. Placed below 4 GiB by the kernel, VF1 has one. */
static void test_vf_bars_sysfs(void **state)
{
	struct pa_load l = { 0 };
	struct pa_report rep;
	struct pa_error e = { 0 };
	struct pa_check c;
	char root[] = "/tmp/pa-vfbar-XXXXXX";

	(void)state;
	vf_tree(root, 0x8000000000ull, 64ull << 30);
	l.sysfs = root;
	assert_int_equal(pa_load_report(&l, &rep, &e), 0);
	kernel_place(at(&rep, GPU_VF1), 64ull << 30, 0x8000000000ull);
	assert_int_equal(pa_vfio_bar_place(&at(&rep, GPU_VF1)->bars[0]),
			 PA_VFIO_BAR_ABOVE);
	assert_true(at(&rep, GPU_VF2)->bars_unknown);
	run(&rep, &c);
	want(&c, PA_VFIO_BAR_BELOW_4G, 0, PA_RULE_RAN);
	assert_non_null(strstr(c.note[PA_VFIO_BAR_BELOW_4G], "some unknown"));
	done(&rep, &c);
	remove_root(root);

	/* 512 MiB VF BARs the kernel put at 0xc0000000: VF1's is below. */
	strcpy(root, "/tmp/pa-vfbar-XXXXXX");
	vf_tree(root, 0xc0000000ull, 512ull << 20);
	assert_int_equal(pa_load_report(&l, &rep, &e), 0);
	kernel_place(at(&rep, GPU_VF1), 512ull << 20, 0xc0000000ull);
	run(&rep, &c);
	want(&c, PA_VFIO_BAR_BELOW_4G, 1, PA_RULE_RAN);
	assert_non_null(strstr(first(&c, PA_VFIO_BAR_BELOW_4G)->message,
			       GPU_VF1));
	done(&rep, &c);
	remove_root(root);
}

/* A function as the module sends it: a VF with its PF, bound to
 * vfio-pci, BAR 0's size and flags from the kernel's resource. */
static void module_vf(struct pa_report *rep, uint8_t devfn, uint64_t size)
{
	struct pa_device *d;

	test_add_dev(rep, &(struct test_dev){ .bus = 1, .devfn = devfn,
		.up_bus = -1, .class = 0x030200, .numa = -1,
		.pcie_type = PCI_EXP_TYPE_ENDPOINT,
		.flags = PCIEAUDIT_DEV_F_VIRTFN });
	d = &rep->devices[rep->ndevices - 1];
	d->has_pf = true;
	d->pf = (struct pa_addr){ 0, 1, 0 };
	d->driver = strdup("vfio-pci");
	d->caps_known = true;
	d->bars[d->nbars++] = (struct pa_bar){ .index = 0, .size = size,
					       .flags = PF64 };
	d->has_iommu = true;
	d->iommu.group = 20u + devfn;
	pa_passthru_init(&d->pt);
}

/* Its groups, and the IOMMU translating. */
static void module_groups(struct pa_report *rep)
{
	assert_int_equal(pa_report_groups_from_devices(rep), 0);
	rep->info.iommu_def_mode = PCIEAUDIT_IOMMU_MODE_TRANSLATED;
}

/*
 * Beside the module (pa_passthru_read()): VF1's place from its resource
 * file; VF2's, without one, unknown: its zero register is no place. A
 * VF BAR of 1 GiB at "0" would sit below 4 GiB; one of 64 GiB would not.
 */
static void test_vf_bars_module(void **state)
{
	static const uint64_t sizes[] = { 1ull << 30, 64ull << 30 };
	struct pa_report rep;
	struct pa_check c;

	(void)state;
	for (int i = 0; i < 2; i++) {
		char root[] = "/tmp/pa-vfbar-XXXXXX";

		vf_tree(root, 0x8000000000ull, sizes[i]);
		rep = (struct pa_report){ 0 };
		module_vf(&rep, 1, sizes[i]);
		module_vf(&rep, 2, sizes[i]);
		module_groups(&rep);
		assert_int_equal(pa_passthru_read(root, &rep), 0);
		kernel_place(at(&rep, GPU_VF1), sizes[i], 0x8000000000ull);
		assert_false(at(&rep, GPU_VF2)->bars[0].has_start);
		assert_int_equal(pa_vfio_bar_place(&at(&rep, GPU_VF2)->bars[0]),
				 PA_VFIO_BAR_UNKNOWN);
		run(&rep, &c);
		want(&c, PA_VFIO_BAR_BELOW_4G, 0, PA_RULE_RAN);
		done(&rep, &c);

		/* VF2 alone: its BARs' places are not in the input. */
		rep = (struct pa_report){ 0 };
		module_vf(&rep, 2, sizes[i]);
		module_groups(&rep);
		assert_int_equal(pa_passthru_read(root, &rep), 0);
		run(&rep, &c);
		want(&c, PA_VFIO_BAR_BELOW_4G, 0, PA_RULE_SKIPPED);
		done(&rep, &c);
		remove_root(root);
	}
}

static void hex_dump(FILE *f, const uint8_t *cfg)
{
	for (unsigned int off = 0; off < 4096; off += 16) {
		fprintf(f, off < 0x100 ? "%02x:" : "%03x:", off);
		for (unsigned int k = 0; k < 16; k++)
			fprintf(f, " %02x", cfg[off + k]);
		fputc('\n', f);
	}
	fputc('\n', f);
}

/*
 * --lspci of lspci -vvv -xxxx: VF1 as lspci prints it reading sysfs
 * (show_bases(): the resource's address and type, "[virtual]" as the
 * registers read 0), VF2 as lspci -F prints it from a dump: no region,
 * which is no answer. VF BARs of size (size_text as show_size() prints
 * it) from vf_bar; findings VF1's vfio.bar-below-4g findings.
 */
static void lspci_vfs(uint64_t vf_bar, uint64_t size, const char *size_text,
		      size_t findings)
{
	static uint8_t cfg[4096];
	char path[] = "/tmp/pa-vfbar-XXXXXX";
	struct pa_load l = { .lspci = path };
	struct pa_report rep;
	struct pa_error e = { 0 };
	struct pa_check c;
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	assert_non_null(f);
	gpu_config(cfg, false, vf_bar);
	fprintf(f, "01:00.0 3D controller [0302]: NVIDIA Corporation GH100 [H100 SXM5 80GB] [10de:2330] (rev a1)\n"
		"\tControl: I/O- Mem+ BusMaster+ SpecCycle- MemWINV- VGASnoop- ParErr- Stepping- SERR- FastB2B- DisINTx+\n"
		"\tIOMMU group: 20\n"
		"\tRegion 0: Memory at 6000000000 (64-bit, prefetchable) [size=64M]\n"
		"\tKernel driver in use: nvidia\n");
	hex_dump(f, cfg);
	gpu_config(cfg, true, 0);
	fprintf(f, "01:00.1 3D controller [0302]: NVIDIA Corporation Device [10de:2331] (rev a1)\n"
		"\tControl: I/O- Mem- BusMaster- SpecCycle- MemWINV- VGASnoop- ParErr- Stepping- SERR- FastB2B- DisINTx-\n"
		"\tIOMMU group: 21\n"
		"\tRegion 0: Memory at %08llx (64-bit, prefetchable) [virtual] [size=%s]\n"
		"\tKernel driver in use: vfio-pci\n",
		(unsigned long long)vf_bar, size_text);
	hex_dump(f, cfg);
	fprintf(f, "01:00.2 3D controller [0302]: NVIDIA Corporation Device [10de:2331] (rev a1)\n"
		"\tControl: I/O- Mem- BusMaster- SpecCycle- MemWINV- VGASnoop- ParErr- Stepping- SERR- FastB2B- DisINTx-\n"
		"\tIOMMU group: 22\n"
		"\tKernel driver in use: vfio-pci\n");
	hex_dump(f, cfg);
	fclose(f);
	assert_int_equal(pa_load_report(&l, &rep, &e), 0);
	unlink(path);
	kernel_place(at(&rep, GPU_VF1), size, vf_bar);
	assert_true(at(&rep, GPU_VF2)->bars_unknown);
	run(&rep, &c);
	want(&c, PA_VFIO_BAR_BELOW_4G, findings, PA_RULE_RAN);
	done(&rep, &c);
}

static void test_vf_bars_lspci(void **state)
{
	(void)state;
	lspci_vfs(0x8000000000ull, 64ull << 30, "64G", 0);
	lspci_vfs(0xc0000000ull, 512ull << 20, "512M", 1);
}

/* ---- vfio.ids-not-bound -------------------------------------------------- */

static void test_ids(void **state)
{
	struct pa_report rep;
	struct pa_check c;
	const struct pa_finding *f;

	(void)state;
	/* The drive is 1234:0001: named, and nvme took it. */
	base(&rep, "quiet vfio-pci.ids=10de:2330,1234:0001");
	run(&rep, &c);
	want(&c, PA_VFIO_IDS_NOT_BOUND, 1, PA_RULE_RAN);
	f = first(&c, PA_VFIO_IDS_NOT_BOUND);
	assert_int_equal(f->severity, PA_SEV_FAIL);
	assert_string_equal(f->remedy, "echo 'softdep nvme pre: vfio-pci' >> /etc/modprobe.d/vfio.conf; update-initramfs -u (or dracut -f); reboot");
	done(&rep, &c);

	/* Subsystem ids that do not match: not named. */
	base(&rep, "quiet vfio_pci.ids=1234:0001:abcd:0001");
	run(&rep, &c);
	want(&c, PA_VFIO_IDS_NOT_BOUND, 0, PA_RULE_RAN);
	done(&rep, &c);

	/* Bound to vfio-pci: as asked. */
	base(&rep, "quiet vfio-pci.ids=1234:0001");
	free(dev(&rep, (struct pa_addr)EP)->driver);
	dev(&rep, (struct pa_addr)EP)->driver = strdup("vfio-pci");
	run(&rep, &c);
	want(&c, PA_VFIO_IDS_NOT_BOUND, 0, PA_RULE_RAN);
	done(&rep, &c);

	/* Drivers unknown (lspci without -k). */
	base(&rep, "quiet vfio-pci.ids=1234:0001");
	dev(&rep, (struct pa_addr)EP)->driver_unknown = true;
	run(&rep, &c);
	want(&c, PA_VFIO_IDS_NOT_BOUND, 0, PA_RULE_SKIPPED);
	done(&rep, &c);

	/* No command line. */
	base(&rep, NULL);
	run(&rep, &c);
	want(&c, PA_VFIO_IDS_NOT_BOUND, 0, PA_RULE_SKIPPED);
	done(&rep, &c);
}

/* ---- The facts from configuration space and sysfs ------------------------ */

/* An SR-IOV NVMe PF as QEMU's nvme,sriov_max_vfs=16 builds it: PM at
 * 0x40 (No_Soft_Reset), PCIe v2 at 0x60 with FLR, SR-IOV at 0x100 whose
 * VF BAR 0 is 64-bit, non-prefetchable. */
static void nvme_pf(uint8_t *cfg, uint32_t vf_bar_lo)
{
	memset(cfg, 0, 4096);
	test_put16(cfg, PCI_VENDOR_ID, 0x1b36);
	test_put16(cfg, PCI_DEVICE_ID, 0x0010);
	test_put32(cfg, PCI_CLASS_REVISION, 0x01080202);
	test_put16(cfg, PCI_STATUS, PCI_STATUS_CAP_LIST);
	cfg[PCI_CAPABILITY_LIST] = 0x40;
	cfg[0x40] = PCI_CAP_ID_PM;
	cfg[0x41] = 0x60;
	test_put16(cfg, 0x40 + PCI_PM_CTRL, PCI_PM_CTRL_NO_SOFT_RESET);
	cfg[0x60] = PCI_CAP_ID_EXP;
	test_put16(cfg, 0x60 + PCI_EXP_FLAGS, 0x0002);	/* v2, endpoint */
	test_put32(cfg, 0x60 + PCI_EXP_DEVCAP, PCI_EXP_DEVCAP_FLR);
	test_put32(cfg, 0x60 + PCI_EXP_DEVCAP2, PCI_EXP_DEVCAP2_ARI);
	test_put16(cfg, 0x60 + PCI_EXP_DEVCTL2, PCI_EXP_DEVCTL2_ARI);
	test_put32(cfg, 0x100, PCI_EXT_CAP_ID_SRIOV | 1u << 16);
	test_put16(cfg, 0x100 + PCI_SRIOV_INITIAL_VF, 16);
	test_put16(cfg, 0x100 + PCI_SRIOV_TOTAL_VF, 16);
	test_put16(cfg, 0x100 + PCI_SRIOV_NUM_VF, 0);
	test_put16(cfg, 0x100 + PCI_SRIOV_VF_OFFSET, 1);
	test_put16(cfg, 0x100 + PCI_SRIOV_VF_STRIDE, 1);
	test_put32(cfg, 0x100 + PCI_SRIOV_BAR, vf_bar_lo);
}

/* sysfs resource of that PF: BAR 0, then the ROM, then VF BAR 0. */
static const char res_assigned[] =
	"0x00000000fe800000 0x00000000fe803fff 0x0000000000140204\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"0x0000000800000000 0x000000080003ffff 0x0000000000140204\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n";

static void test_facts_parse(void **state)
{
	static uint8_t cfg[4096];
	struct pa_config c;
	struct pa_passthru pt = { 0 };
	char res[sizeof(res_assigned)];
	char *vf;

	(void)state;
	nvme_pf(cfg, PCI_BASE_ADDRESS_MEM_TYPE_64);
	pa_config_parse(cfg, sizeof(cfg), &c);
	assert_true(c.sriov);
	assert_int_equal(c.total_vfs, 16);
	assert_int_equal(c.vf_offset, 1);
	assert_int_equal(c.no_soft_reset, 1);
	assert_int_equal(c.af_flr, -1);
	assert_true(c.has_devcap2);
	assert_int_equal(c.devctl2 & PCI_EXP_DEVCTL2_ARI, PCI_EXP_DEVCTL2_ARI);

	/* Placed: the resource has VF BAR 0. */
	assert_int_equal(pa_passthru_fill(&c, res_assigned, "flr\n", 1, "0\n", &pt), 0);
	assert_string_equal(pt.reset_method, "flr");
	assert_int_equal(pt.vf_bars_assigned, 1);
	assert_int_equal(pt.vf_bar_sizes_mask, 1);
	assert_int_equal(pt.sysfs_num_vfs, 0);

	/* The kernel failed to assign it: the resource is cleared. */
	memcpy(res, res_assigned, sizeof(res));
	vf = res;
	for (int l = 0; l < 7; l++)
		vf = strchr(vf, '\n') + 1;
	memcpy(vf, "0x0000000000000000 0x0000000000000000 0x0000000000000000", 56);
	assert_int_equal(pa_passthru_fill(&c, res, NULL, -1, NULL, &pt), 0);
	assert_int_equal(pt.vf_bars_assigned, 0);
	assert_null(pt.reset_method);
	assert_int_equal(pt.reset_file, -1);

	/* Sized but IORESOURCE_UNSET: no space either. */
	memcpy(vf, "0x0000000000000000 0x000000000003ffff 0x0000000020140204", 56);
	assert_int_equal(pa_passthru_fill(&c, res, NULL, -1, NULL, &pt), 0);
	assert_int_equal(pt.vf_bars_assigned, 0);
	assert_int_equal(pt.vf_bar_sizes_mask, 1);

	/* Without a resource file (lspci): a 64-bit VF BAR at 0 is unplaced,
	 * one with an address placed. */
	assert_int_equal(pa_passthru_fill(&c, NULL, NULL, -1, NULL, &pt), 0);
	assert_int_equal(pt.vf_bars_assigned, 0);
	nvme_pf(cfg, 0x00000004);
	test_put32(cfg, 0x100 + PCI_SRIOV_BAR + 4, 0x8);
	pa_config_parse(cfg, sizeof(cfg), &c);
	assert_int_equal(pa_passthru_fill(&c, NULL, NULL, -1, NULL, &pt), 0);
	assert_int_equal(pt.vf_bars_assigned, 1);

	/* 256 bytes (lspci -xxx): SR-IOV is unknown, not absent. */
	pa_config_parse(cfg, 256, &c);
	assert_int_equal(pa_passthru_fill(&c, NULL, NULL, -1, NULL, &pt), 0);
	assert_false(pt.has_sriov);
	free(pt.reset_method);
}

static int render(FILE *f, const void *rep)
{
	return pa_json_report(f, rep);
}

/* The facts survive report --json and its reading back. */
static void test_snapshot_keeps(void **state)
{
	struct pa_report rep, back;
	char *json, err[256];
	struct pa_device *d;
	int ret;

	(void)state;
	base(&rep, "quiet vfio-pci.ids=1234:0001");
	rep.host.allow_unsafe = PA_INTREMAP_OFF;
	sriov(&rep, 16, 0);
	port_devctl2(&rep, true, PCI_EXP_DEVCAP2_ARI, 0);
	bar(&rep, 8ull << 30, PF64, true, 0xc0000000);
	json = test_render(render, &rep, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(json);
	assert_int_equal(pa_snapshot_parse("t", json, strlen(json), &back, err,
					   sizeof(err)), 0);
	assert_int_equal(back.host.intremap, PA_INTREMAP_ON);
	assert_int_equal(back.host.allow_unsafe, PA_INTREMAP_OFF);
	assert_string_equal(back.host.intremap_how, rep.host.intremap_how);
	d = dev(&back, (struct pa_addr)EP);
	assert_true(d->pt.known);
	assert_string_equal(d->pt.reset_method, "flr bus");
	assert_true(d->pt.has_sriov);
	assert_int_equal(d->pt.total_vfs, 16);
	assert_int_equal(d->pt.vf_bars_assigned, 0);
	assert_int_equal(d->pt.sysfs_num_vfs, -1);
	assert_true(d->bars[0].has_start);
	assert_int_equal(d->bars[0].start, 0xc0000000);
	assert_true(dev(&back, (struct pa_addr)RP)->pt.has_devcap2);
	assert_int_equal(dev(&back, (struct pa_addr)RP)->pt.devcap2,
			 PCI_EXP_DEVCAP2_ARI);
	free(json);
	pa_report_clear(&back);
	pa_report_clear(&rep);
}

/* vfio-host-fail.json (its README): the rules' exact findings. */
static void test_fixture(void **state)
{
	static const enum pa_rule_id rules[] = {
		PA_VFIO_INTREMAP, PA_VFIO_SRIOV_RESOURCES, PA_VFIO_SRIOV_RESOURCES,
		PA_VFIO_BAR_BELOW_4G, PA_VFIO_IDS_NOT_BOUND,
	};
	static const char *const subject[] = {
		NULL, "0000:07:00.0", "0000:07:00.0", "0000:01:00.0", "0000:01:00.1",
	};
	struct pa_report rep;
	struct pa_check c;
	size_t k = 0;
	char bdf[PA_BDF_LEN];

	(void)state;
	test_load_snapshot("vfio-host-fail.json", &rep);
	run(&rep, &c);
	for (size_t i = 0; i < c.nfindings; i++) {
		const struct pa_finding *f = &c.findings[i];

		if (f->rule < PA_VFIO_INTREMAP)
			continue;
		assert_true(k < 5);
		assert_int_equal(f->rule, rules[k]);
		if (subject[k]) {
			pa_bdf_format(&f->devices.addrs[0], bdf);
			assert_string_equal(bdf, subject[k]);
		} else {
			assert_int_equal(f->devices.n, 0);
		}
		k++;
	}
	assert_int_equal(k, 5);
	/* The GPU resets through the bus, its audio function in its group. */
	want(&c, PA_VFIO_NO_RESET, 0, PA_RULE_RAN);
	done(&rep, &c);
}

/* vfio-plan on it: the group's other endpoint goes too; the blockers; the
 * refusals. */
static void test_plan(void **state)
{
	struct pa_report rep;
	struct pa_check c;
	struct pa_vfio_plan p;
	struct pa_error e = { 0 };
	struct pa_addr gpu = EP, v100 = { 0, 0x06, 0 }, none = { 0, 0x09, 0 };
	struct pa_addr port = RP, host_bridge = { 0, 0, 0 };
	bool bound_now = false;

	(void)state;
	test_load_snapshot("vfio-host-fail.json", &rep);
	run(&rep, &c);
	assert_int_equal(pa_vfio_plan_build(&rep, &c, &gpu, 1, &p, &e), 0);
	assert_int_equal(p.ndevs, 2);
	assert_true(p.devs[0].asked);
	assert_false(p.devs[1].asked);
	assert_int_equal(p.devs[1].d->addr.devfn, 1);
	assert_int_equal(p.devs[0].reset.kind, PA_VFIO_RESET_BUS);
	assert_int_equal(p.ngroups, 1);
	assert_int_equal(p.nblockers, 3);
	assert_int_equal(p.blockers[0]->rule, PA_VFIO_INTREMAP);
	assert_int_equal(p.blockers[1]->rule, PA_VFIO_BAR_BELOW_4G);
	assert_int_equal(p.blockers[2]->rule, PA_VFIO_IDS_NOT_BOUND);
	assert_int_equal(pa_vfio_plan_exit_code(&p), PA_EXIT_FINDING);
	assert_string_equal(p.steps[0].kind, "cmdline");
	assert_non_null(strstr(p.steps[0].text, "remove intremap=off"));
	for (size_t i = 0; i < p.nsteps; i++)
		bound_now |= !strcmp(p.steps[i].kind, "bind") &&
			strstr(p.steps[i].text, "echo 0000:01:00.1 > /sys/bus/pci/devices/0000:01:00.1/driver/unbind");
	assert_true(bound_now);
	assert_non_null(strstr(p.steps[p.nsteps - 1].text,
			       "-device vfio-pci,host=0000:01:00.1"));
	pa_vfio_plan_clear(&p);

	assert_int_equal(pa_vfio_plan_build(&rep, &c, &none, 1, &p, &e),
			 PA_EXIT_NO_DEVICE);
	e = (struct pa_error){ 0 };
	assert_int_equal(pa_vfio_plan_build(&rep, &c, &port, 1, &p, &e),
			 PA_EXIT_USAGE);
	assert_non_null(strstr(e.msg, "is a bridge"));
	e = (struct pa_error){ 0 };
	/* A header-type-0 host bridge is no endpoint of a guest either. */
	assert_int_equal(pa_vfio_plan_build(&rep, &c, &host_bridge, 1, &p, &e),
			 PA_EXIT_USAGE);
	assert_non_null(strstr(e.msg, "is a host bridge (class 060000)"));
	e = (struct pa_error){ 0 };
	/* The V100's group is open by a guest. */
	assert_int_equal(pa_vfio_plan_build(&rep, &c, &v100, 1, &p, &e),
			 PA_EXIT_USAGE);
	assert_non_null(strstr(e.msg, "in use"));
	e = (struct pa_error){ 0 };
	done(&rep, &c);
}

/* A tree in /sys's own layout: bus/pci/devices/BDF with its config file. */
static void live_tree(char *root, const char *status)
{
	unsigned char cfg[256] = { 0x86, 0x80, 0xd3, 0x10 };	/* 8086:10d3 */
	char path[512];
	FILE *f;

	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "mkdir -p %s/bus/pci/devices/0000:01:00.0/power",
		 root);
	assert_int_equal(system(path), 0);
	snprintf(path, sizeof(path), "%s/bus/pci/devices/0000:01:00.0/config", root);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(cfg, 1, sizeof(cfg), f), sizeof(cfg));
	fclose(f);
	snprintf(path, sizeof(path),
		 "%s/bus/pci/devices/0000:01:00.0/power/runtime_status", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", status);
	fclose(f);
}

/* Beside the module, a runtime-suspended function's config file is left
 * unread (reading it would wake the function): its facts stay unknown. */
static void test_suspended_left_asleep(void **state)
{
	static const char *const statuses[] = { "active", "suspended" };

	(void)state;
	for (int i = 0; i < 2; i++) {
		char root[] = "/tmp/pa-passthru-XXXXXX", cmd[64];
		struct pa_device dev = { .addr = { 0, 1, 0 } };
		struct pa_report rep = { .devices = &dev, .ndevices = 1 };

		live_tree(root, statuses[i]);
		assert_int_equal(pa_passthru_read(root, &rep), 0);
		assert_int_equal(dev.pt.known, i == 0);
		free(dev.pt.reset_method);
		snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
		assert_int_equal(system(cmd), 0);
	}
}

/* root/bus/pci/devices/BDF (the live layout), and its file name if any. */
static void put_live_text(const char *root, const char *bdf, const char *name,
			  const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "mkdir -p %s/bus/pci/devices/%s", root, bdf);
	assert_int_equal(system(path), 0);
	if (!name)
		return;
	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s/%s", root, bdf, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/*
 * Beside a module that sends the reset methods' key: one reset_method
 * read a key (01:00.1's file, which says otherwise, is never opened);
 * without methods (key 0) each function's own, absent or emptied by hand.
 */
static void test_reset_keys_module(void **state)
{
	char root[] = "/tmp/pa-passthru-XXXXXX", cmd[64];
	struct pa_device dev[4] = { { .addr = { 0, 1, 0 } }, { .addr = { 0, 1, 1 } },
				    { .addr = { 0, 1, 2 } }, { .addr = { 0, 1, 3 } } };
	struct pa_report rep = { .devices = dev, .ndevices = 4 };
	const uint64_t keys[4] = { 0x0603, 0x0603, 0, 0 };

	(void)state;
	assert_non_null(mkdtemp(root));
	put_live_text(root, "0000:01:00.0", "reset_method", "flr bus\n");
	put_live_text(root, "0000:01:00.1", "reset_method", "not read\n");
	put_live_text(root, "0000:01:00.2", NULL, NULL);
	put_live_text(root, "0000:01:00.3", "reset_method", "\n");
	for (int i = 0; i < 4; i++) {
		pa_passthru_init(&dev[i].pt);
		dev[i].pt_from_module = true;
		dev[i].has_reset_key = true;
		dev[i].reset_key = keys[i];
	}
	assert_int_equal(pa_passthru_read(root, &rep), 0);
	assert_string_equal(dev[0].pt.reset_method, "flr bus");
	assert_string_equal(dev[1].pt.reset_method, "flr bus");
	assert_int_equal(dev[1].pt.reset_file, 1);
	assert_null(dev[2].pt.reset_method);
	assert_int_equal(dev[2].pt.reset_file, 0);
	assert_string_equal(dev[3].pt.reset_method, "");
	assert_int_equal(dev[3].pt.reset_file, 1);
	/* An older module without keys: each function's own file. */
	dev[1].has_reset_key = false;
	assert_int_equal(pa_passthru_read(root, &rep), 0);
	assert_string_equal(dev[1].pt.reset_method, "not read");
	for (int i = 0; i < 4; i++)
		free(dev[i].pt.reset_method);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reset_keys_module),
		cmocka_unit_test(test_intremap),
		cmocka_unit_test(test_intremap_parse),
		cmocka_unit_test(test_reset),
		cmocka_unit_test(test_sriov),
		cmocka_unit_test(test_bars),
		cmocka_unit_test(test_vf_bars_sysfs),
		cmocka_unit_test(test_vf_bars_module),
		cmocka_unit_test(test_vf_bars_lspci),
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_facts_parse),
		cmocka_unit_test(test_snapshot_keeps),
		cmocka_unit_test(test_fixture),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_suspended_left_asleep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
