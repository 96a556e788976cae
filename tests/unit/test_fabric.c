// SPDX-License-Identifier: GPL-2.0
/*
 * Accelerator links and GPUDirect software: NVML through recorded answers
 * (a fake ops table reading what tests/gpu/nvml_record.py wrote on the H200, tests/fixtures/h200),
 * the dlopen failure paths, KFD through a fixture sysfs tree, gpudirect
 * judging NVLink-joined pairs on their links (the H200 guest of issue 14,
 * against its nvidia-smi topo -m), the software rules, snapshots, and the
 * NCCL topology file of a switched host.
 */
#include "testutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "check.h"
#include "fabric.h"
#include "fabric_json.h"
#include "fabric_read.h"
#include "fileio.h"
#include "gpu_sw.h"
#include "json_out.h"
#include "kfd.h"
#include "nccl_xml.h"
#include "nvml.h"
#include "p2p_infer.h"
#include "p2p_text.h"
#include "policy.h"
#include "snapshot.h"
#include "sysfs_model.h"
#include "sysread.h"
#include "topo.h"

#ifndef FIXTURES
#define FIXTURES "../../../shared/fixtures"
#endif
#ifndef GPU_FIXTURES
#define GPU_FIXTURES "../fixtures"
#endif
#define H200_GUEST FIXTURES "/h200-vm-guest"
#define DATA FABRIC_FIXTURES

/* --- NVML answers as recorded: {"devices": [{"pci": {"busId"},
 * "nvlinks": [{"link", "state": 1 | 0 | {"error"}, "remote_busId"}]}]} */

struct fake {
	json_object *root;
	int count_rc;		/* nonzero: nvmlDeviceGetCount fails */
};

static json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

static json_object *device(struct fake *f, unsigned int i)
{
	return json_object_array_get_idx(member(f->root, "devices"), i);
}

static json_object *link_of(struct fake *f, unsigned int dev, unsigned int l)
{
	json_object *links = member(device(f, dev), "nvlinks");

	for (size_t i = 0; links && i < json_object_array_length(links); i++) {
		json_object *o = json_object_array_get_idx(links, i);

		if ((unsigned int)json_object_get_int(member(o, "link")) == l)
			return o;
	}
	return NULL;
}

static int fake_count(void *ctx, unsigned int *n)
{
	struct fake *f = ctx;

	*n = (unsigned int)json_object_array_length(member(f->root, "devices"));
	return f->count_rc;
}

static int fake_bus_id(void *ctx, unsigned int dev, char *buf)
{
	json_object *pci = member(device(ctx, dev), "pci");

	snprintf(buf, PA_NVML_BUSID_LEN, "%s",
		 json_object_get_string(member(pci, "busId")));
	return PA_NVML_SUCCESS;
}

/* An {"error": ...} answer stands for NVML_ERROR_NOT_SUPPORTED. */
static int fake_link_state(void *ctx, unsigned int dev, unsigned int link,
			   int *active)
{
	json_object *st = member(link_of(ctx, dev, link), "state");

	if (!st || !json_object_is_type(st, json_type_int))
		return PA_NVML_NOT_SUPPORTED;
	*active = json_object_get_int(st);
	return PA_NVML_SUCCESS;
}

static int fake_link_remote(void *ctx, unsigned int dev, unsigned int link,
			    char *buf)
{
	json_object *r = member(link_of(ctx, dev, link), "remote_busId");

	if (!r || !json_object_is_type(r, json_type_string))
		return PA_NVML_NOT_SUPPORTED;
	snprintf(buf, PA_NVML_BUSID_LEN, "%s", json_object_get_string(r));
	return PA_NVML_SUCCESS;
}

static int fake_link_remote_type(void *ctx, unsigned int dev,
				 unsigned int link, int *type)
{
	json_object *t = member(link_of(ctx, dev, link), "remote_type");

	if (!t || !json_object_is_type(t, json_type_int))
		return PA_NVML_NOT_SUPPORTED;
	*type = json_object_get_int(t);
	return PA_NVML_SUCCESS;
}

static int fake_memory(void *ctx, unsigned int dev, uint64_t *bytes)
{
	json_object *m = member(device(ctx, dev), "memory_total");

	if (!m || !json_object_is_type(m, json_type_int))
		return PA_NVML_NOT_SUPPORTED;
	*bytes = (uint64_t)json_object_get_int64(m);
	return PA_NVML_SUCCESS;
}

static const char *fake_error(void *ctx, int rc)
{
	(void)ctx;
	return rc == 9 ? "Driver Not Loaded" : "Not Supported";
}

static void fake_load(struct fake *f, struct pa_nvml_ops *ops,
		      const char *path)
{
	f->root = json_object_from_file(path);
	assert_non_null(f->root);
	*ops = (struct pa_nvml_ops){ f, fake_count, fake_bus_id,
		fake_link_state, fake_link_remote, fake_link_remote_type,
		fake_memory, fake_error,
		json_object_get_string(member(f->root, "driver_version")) };
}

static void collect(const char *path, struct pa_fabric *fab)
{
	struct fake f = { 0 };
	struct pa_nvml_ops ops;

	fake_load(&f, &ops, path);
	pa_fabric_init(fab);
	assert_int_equal(pa_nvml_collect(&ops, fab), 0);
	json_object_put(f.root);
}

static struct pa_addr addr(uint32_t domain, uint8_t bus, uint8_t dev,
			   uint8_t fn)
{
	return (struct pa_addr){ domain, bus, (uint8_t)(dev << 3 | fn) };
}

static unsigned int link_asks;

static int counting_link_state(void *ctx, unsigned int dev, unsigned int link,
			       int *active)
{
	link_asks++;
	return fake_link_state(ctx, dev, link, active);
}

/* With one GPU no link can join two of NVML's GPUs: its 18 link queries
 * are not made (the H200's), and the result is the same as asking. */
static void nvml_one_gpu_asks_no_links(void **state)
{
	struct pa_fabric fab, asked;
	struct fake f = { 0 };
	struct pa_nvml_ops ops;

	(void)state;
	fake_load(&f, &ops, DATA "/nvml/h200-1gpu-recorded.json");
	ops.link_state = counting_link_state;
	pa_fabric_init(&fab);
	link_asks = 0;
	assert_int_equal(pa_nvml_collect(&ops, &fab), 0);
	assert_int_equal(link_asks, 0);
	assert_int_equal(fab.nvml.state, PA_SRC_READ);
	assert_int_equal(fab.nlinks, 0);
	assert_int_equal(fab.nmems, 1);
	json_object_put(f.root);
	/* Two GPUs are still asked, every link of each. */
	fake_load(&f, &ops, DATA "/nvml/h200-2gpu-nv18.json");
	ops.link_state = counting_link_state;
	pa_fabric_init(&asked);
	link_asks = 0;
	assert_int_equal(pa_nvml_collect(&ops, &asked), 0);
	assert_int_equal(link_asks, 2 * PA_NVML_MAX_LINKS);
	assert_true(asked.nlinks > 0);
	json_object_put(f.root);
	pa_fabric_clear(&fab);
	pa_fabric_clear(&asked);
}

/* The H200 of the device machine, as NVML answered there: every NVLink
 * query "Not Supported" (one GPU, no NVLink in the VM); nvidia-smi topo -m
 * there shows no NV# cell. */
static void nvml_h200_recorded(void **state)
{
	struct pa_fabric fab;
	char *smi = NULL, *mib;
	size_t len;

	(void)state;
	collect(DATA "/nvml/h200-1gpu-recorded.json", &fab);
	assert_int_equal(fab.nvml.state, PA_SRC_READ);
	assert_string_equal(fab.nvml.detail, "580.159.04");
	assert_int_equal(fab.nlinks, 0);
	/* The independent oracle agrees: no NV# in nvidia-smi's matrix. */
	assert_int_equal(pa_read_file(GPU_FIXTURES "/h200/captured/smi-topo-m.txt",
				      1 << 16, &smi, &len), 0);
	assert_null(strstr(smi, "\tNV"));
	free(smi);
	/* The memory, as nvidia-smi -q's FB Memory Usage Total (MiB). */
	assert_int_equal(fab.nmems, 1);
	assert_int_equal(pa_read_file(GPU_FIXTURES "/h200/captured/smi-q.txt",
				      1 << 20, &smi, &len), 0);
	mib = strstr(strstr(smi, "FB Memory Usage"), "Total");
	assert_non_null(mib);
	assert_int_equal(pa_fabric_mem(&fab, &(struct pa_addr){ 0, 0, 6 << 3 }) >> 20,
			 strtoull(strchr(mib, ':') + 1, NULL, 10));
	free(smi);
	pa_fabric_clear(&fab);
}

/* nvidia-smi topo -m's cell for GPU0, GPU1 of the shared guest fixture. */
static void smi_cell(char *cell, size_t len)
{
	char *smi = NULL, *line, *save = NULL, *tok;
	size_t n;

	if (!test_have_guest())
		skip();
	assert_int_equal(pa_read_file(H200_GUEST "/nvidia-smi-topo-m.txt",
				      1 << 16, &smi, &n), 0);
	line = strstr(smi, "\nGPU0\t");
	assert_non_null(line);
	strtok_r(line + 1, "\t", &save);		/* GPU0 */
	tok = strtok_r(NULL, "\t", &save);		/* X */
	tok = strtok_r(NULL, "\t", &save);		/* GPU1's cell */
	snprintf(cell, len, "%s", tok);
	free(smi);
}

static void guest_report(struct pa_report *rep)
{
	struct pa_sysfs s;
	char what[256];

	if (!test_have_guest())
		skip();
	assert_int_equal(pa_sysfs_read(H200_GUEST, &s, what, sizeof(what)), 0);
	assert_int_equal(pa_sysfs_model(&s, rep), 0);
	pa_sysfs_clear(&s);
	pa_report_sort(rep);
}

/* Two H200s joined by 18 NVLinks: our matrix cell is nvidia-smi's. */
static void nvml_nv18_matches_nvidia_smi(void **state)
{
	struct pa_addr g0 = addr(0, 0, 6, 0), g1 = addr(0, 0, 7, 0);
	char want[16], cell[PA_CELL_LEN];
	struct pa_report rep;

	(void)state;
	guest_report(&rep);
	rep.fabric = malloc(sizeof(*rep.fabric));
	assert_non_null(rep.fabric);
	collect(DATA "/nvml/h200-2gpu-nv18.json", rep.fabric);
	assert_int_equal(rep.fabric->nlinks, 1);
	assert_int_equal(rep.fabric->links[0].count, 18);
	smi_cell(want, sizeof(want));
	pa_topo_cell(&rep, &g0, &g1, cell);
	assert_string_equal(cell, want);
	pa_topo_cell(&rep, &g1, &g0, cell);
	assert_string_equal(cell, want);
	pa_report_clear(&rep);
}

/* NVSwitch boards: links reach switches, every GPU pair gets the smaller
 * of their counts; links down or not answered are left out, and so is
 * GPU 0's link to a GPU NVML does not list. */
static void nvml_nvswitch(void **state)
{
	struct pa_fabric fab;
	const struct pa_accel_link *l;

	(void)state;
	collect(DATA "/nvml/hgx-4gpu-nvswitch.json", &fab);
	assert_int_equal(fab.nlinks, 6);
	l = pa_fabric_find(&fab, &(struct pa_addr){ 0, 0x18, 0 },
			   &(struct pa_addr){ 0, 0x2a, 0 });
	assert_non_null(l);
	assert_int_equal(l->count, 17);
	l = pa_fabric_find(&fab, &(struct pa_addr){ 0, 0x2a, 0 },
			   &(struct pa_addr){ 0, 0x5d, 0 });
	assert_int_equal(l->count, 16);
	l = pa_fabric_find(&fab, &(struct pa_addr){ 0, 0x3a, 0 },
			   &(struct pa_addr){ 0, 0x18, 0 });
	assert_int_equal(l->count, 17);
	l = pa_fabric_find(&fab, &(struct pa_addr){ 0, 0x5d, 0 },
			   &(struct pa_addr){ 0, 0x3a, 0 });
	assert_int_equal(l->count, 16);
	pa_fabric_clear(&fab);
}

static void nvml_count_fails(void **state)
{
	struct fake f = { .count_rc = 9 };
	struct pa_nvml_ops ops;
	struct pa_fabric fab;

	(void)state;
	fake_load(&f, &ops, DATA "/nvml/h200-2gpu-nv18.json");
	pa_fabric_init(&fab);
	assert_int_equal(pa_nvml_collect(&ops, &fab), 0);
	assert_int_equal(fab.nvml.state, PA_SRC_FAILED);
	assert_string_equal(fab.nvml.detail, "nvmlDeviceGetCount: Driver Not Loaded");
	assert_int_equal(fab.nlinks, 0);
	json_object_put(f.root);
	pa_fabric_clear(&fab);
}

/* No library, a library without NVML's calls, NVML turned off. */
static void nvml_dlopen_paths(void **state)
{
	struct pa_fabric fab;

	(void)state;
	pa_fabric_init(&fab);
	setenv("PCIEAUDIT_NVML_LIB", "/nonexistent/libnvidia-ml.so.1", 1);
	assert_int_equal(pa_nvml_read(&fab), 0);
	assert_int_equal(fab.nvml.state, PA_SRC_ABSENT);
	assert_non_null(strstr(fab.nvml.detail, "/nonexistent/libnvidia-ml.so.1"));
	setenv("PCIEAUDIT_NVML_LIB", "libc.so.6", 1);
	assert_int_equal(pa_nvml_read(&fab), 0);
	assert_int_equal(fab.nvml.state, PA_SRC_FAILED);
	assert_non_null(strstr(fab.nvml.detail, "lacks an NVML call"));
	setenv("PCIEAUDIT_NO_NVML", "1", 1);
	assert_int_equal(pa_nvml_read(&fab), 0);
	assert_int_equal(fab.nvml.state, PA_SRC_DISABLED);
	setenv("PCIEAUDIT_NO_NVML", "0", 1);
	assert_int_equal(pa_nvml_read(&fab), 0);
	assert_int_equal(fab.nvml.state, PA_SRC_FAILED);
	unsetenv("PCIEAUDIT_NO_NVML");
	unsetenv("PCIEAUDIT_NVML_LIB");
	assert_int_equal(fab.nlinks, 0);
	pa_fabric_clear(&fab);
}

/* On the running host with an NVIDIA function, NVML is loaded only when
 * asked (report --json --nvml): unasked, it is not-read with the reason and
 * the loader never runs; asked, the loader's own failure shows it ran. */
static void fabric_read_asks_nvml_only_when_told(void **state)
{
	struct pa_device gpu = { .addr = addr(0, 0x41, 0, 0),
				 .vendor = PA_VENDOR_NVIDIA };
	struct pa_report rep = { .devices = &gpu, .ndevices = 1 };

	(void)state;
	setenv("PCIEAUDIT_NVML_LIB", "/nonexistent/libnvidia-ml.so.1", 1);
	assert_int_equal(pa_fabric_read("/sys", &rep, false), 0);
	assert_int_equal(rep.fabric->nvml.state, PA_SRC_NOT_READ);
	assert_string_equal(rep.fabric->nvml.detail,
			    "report --json asks NVML only with --nvml");
	assert_int_equal(pa_fabric_read("/sys", &rep, true), 0);
	assert_int_equal(rep.fabric->nvml.state, PA_SRC_ABSENT);
	assert_non_null(strstr(rep.fabric->nvml.detail, "/nonexistent/libnvidia-ml.so.1"));
	/* A copy of a host is never NVML's, asked or not; a tree without
	 * NVIDIA has nothing for it, asked or not. */
	assert_int_equal(pa_fabric_read(DATA "/kfd-xgmi", &rep, true), 0);
	assert_string_equal(rep.fabric->nvml.detail, "not the running host");
	gpu.vendor = 0x1002;
	assert_int_equal(pa_fabric_read("/sys", &rep, false), 0);
	assert_int_equal(rep.fabric->nvml.state, PA_SRC_ABSENT);
	unsetenv("PCIEAUDIT_NVML_LIB");
	pa_fabric_clear(rep.fabric);
	free(rep.fabric);
}

/* Three MI300X-like GPUs, all pairs over XGMI (type 11); the PCIe links
 * to the CPU node (type 2) are not accelerator links. */
static void kfd_fixture(void **state)
{
	struct pa_addr a = addr(0, 0x11, 0, 0), b = addr(0, 0x21, 0, 0);
	struct pa_addr c = addr(1, 0x31, 0, 0);
	const struct pa_accel_link *l;
	struct pa_fabric fab;
	char cell[PA_CELL_LEN];

	(void)state;
	pa_fabric_init(&fab);
	assert_int_equal(pa_kfd_read(DATA "/kfd-xgmi", &fab), 0);
	assert_int_equal(fab.kfd.state, PA_SRC_READ);
	assert_int_equal(fab.nlinks, 3);
	l = pa_fabric_find(&fab, &b, &a);
	assert_non_null(l);
	assert_int_equal(l->type, PA_ACCEL_XGMI);
	assert_int_equal(l->count, 1);
	assert_non_null(pa_fabric_find(&fab, &a, &c));
	assert_non_null(pa_fabric_find(&fab, &c, &b));
	pa_accel_cell(l, cell, sizeof(cell));
	assert_string_equal(cell, "XGMI");
	/* 192 GiB in two banks on node 1, one on the others. */
	assert_int_equal(fab.nmems, 3);
	assert_int_equal(pa_fabric_mem(&fab, &a), 206158430208ull);
	assert_int_equal(pa_fabric_mem(&fab, &c), 206158430208ull);
	pa_fabric_clear(&fab);

	pa_fabric_init(&fab);
	assert_int_equal(pa_kfd_read("/nonexistent-pa", &fab), 0);
	assert_int_equal(fab.kfd.state, PA_SRC_ABSENT);
	pa_fabric_clear(&fab);
}

static void kfd_props(void **state)
{
	uint64_t v;

	(void)state;
	assert_true(pa_kfd_prop("type 11\nnode_from 1\n", "type", &v));
	assert_int_equal(v, 11);
	assert_true(pa_kfd_prop("type 11\nnode_from 1", "node_from", &v));
	assert_int_equal(v, 1);
	assert_false(pa_kfd_prop("node_to 2\n", "node", &v));
	assert_false(pa_kfd_prop("type x\n", "type", &v));
	assert_false(pa_kfd_prop("", "type", &v));
}

/* The H200 machine's own files, as captured there. */
static void gpu_sw_recorded(void **state)
{
	struct pa_gpu_sw sw = { -1, -1, -1, -1, NULL };
	char *text;
	size_t len;

	(void)state;
	assert_int_equal(pa_read_file(GPU_FIXTURES "/h200/sysfs/modules", 1 << 16,
				      &text, &len), 0);
	pa_gpu_sw_modules(text, &sw);
	free(text);
	assert_int_equal(sw.nvidia_loaded, 1);
	assert_int_equal(sw.peermem_loaded, 0);
	assert_int_equal(pa_read_file(GPU_FIXTURES "/h200/sysfs/nvidia_version",
				      1 << 16, &text, &len), 0);
	assert_int_equal(pa_gpu_sw_nvidia_version(text, &sw), 0);
	free(text);
	assert_int_equal(sw.nvidia_open, 1);
	assert_int_equal(pa_gpu_sw_nvidia_version(
		"NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.183.01  Sun May 12 19:39:15 UTC 2024\n",
		&sw), 0);
	assert_int_equal(sw.nvidia_open, 0);
	pa_gpu_sw_modules("nvidia_peermem 16384 0 - Live 0x0\nnvidia 1 2 - Live 0x0\n", &sw);
	assert_int_equal(sw.peermem_loaded, 1);
	pa_gpu_sw_modules("nvidia_uvm 1 0 - Live 0x0\n", &sw);
	assert_int_equal(sw.nvidia_loaded, 0);
	assert_true(pa_gpu_sw_kallsyms_line("0000000000000000 T dma_buf_export\n"));
	assert_false(pa_gpu_sw_kallsyms_line("0000000000000000 T dma_buf_export_foo\n"));
	/* The kernel's configuration: =y, off as a comment, off as absent
	 * (an invisible bool), not a configuration, and a value a bool
	 * cannot have (left to kallsyms). */
	assert_int_equal(pa_gpu_sw_kconfig_dmabuf("#\nCONFIG_X=y\nCONFIG_DMA_SHARED_BUFFER=y\n"), 1);
	assert_int_equal(pa_gpu_sw_kconfig_dmabuf("CONFIG_X=y\n# CONFIG_DMA_SHARED_BUFFER is not set\n"), 0);
	assert_int_equal(pa_gpu_sw_kconfig_dmabuf("CONFIG_X=y\nCONFIG_VIRTIO_DMA_SHARED_BUFFER=m\n"), 0);
	assert_int_equal(pa_gpu_sw_kconfig_dmabuf("CONFIG_DMA_SHARED_BUFFER_X=y\nCONFIG_Y=m"), 0);
	assert_int_equal(pa_gpu_sw_kconfig_dmabuf("not a configuration\n"), -1);
	assert_int_equal(pa_gpu_sw_kconfig_dmabuf(""), -1);
	assert_int_equal(pa_gpu_sw_kconfig_dmabuf("CONFIG_DMA_SHARED_BUFFER=m\n"), -1);
	free(sw.nvidia_version);
}

static const struct pa_finding *finding(const struct pa_check *c,
					enum pa_rule_id rule, size_t nth)
{
	for (size_t i = 0; i < c->nfindings; i++)
		if (c->findings[i].rule == rule && !nth--)
			return &c->findings[i];
	return NULL;
}

static bool names(const struct pa_finding *f, const struct pa_addr *a)
{
	for (size_t i = 0; i < f->devices.n; i++)
		if (pa_addr_eq(&f->devices.addrs[i], a))
			return true;
	return false;
}

static void run_gpudirect(struct pa_report *rep, struct pa_check *c)
{
	struct pa_policy pol;

	pa_policy_default(&pol);
	memset(pol.profiles, 0, sizeof(pol.profiles));
	pol.profiles[PA_PROFILE_GPUDIRECT] = true;
	assert_int_equal(test_check_run(rep, &pol, c), 0);
	pa_policy_clear(&pol);
}

/* Issue 14: the guest's GPU pair is no longer "no kernel verdict ... PHB"
 * once NVML says NV18; without NVML the NVLink is unknown, not absent. */
static void check_guest_on_nvlink(void **state)
{
	struct pa_addr g0 = addr(0, 0, 6, 0), g1 = addr(0, 0, 7, 0);
	const struct pa_finding *f;
	struct pa_report rep;
	struct pa_check c;

	(void)state;
	guest_report(&rep);
	rep.fabric = malloc(sizeof(*rep.fabric));
	assert_non_null(rep.fabric);
	collect(DATA "/nvml/h200-2gpu-nv18.json", rep.fabric);
	run_gpudirect(&rep, &c);
	f = finding(&c, PA_GD_ACCEL_LINK, 0);
	assert_non_null(f);
	assert_true(names(f, &g0) && names(f, &g1));
	assert_non_null(strstr(f->message, "18 NVLink links"));
	for (size_t i = 0; (f = finding(&c, PA_GD_P2P_UNKNOWN, i)); i++)
		assert_false(names(f, &g0) && names(f, &g1));
	pa_check_clear(&c);

	/* NVML not read: the pair is judged on PCIe, the link unknown. */
	pa_fabric_clear(rep.fabric);
	assert_int_equal(pa_source_set(&rep.fabric->nvml, PA_SRC_ABSENT,
				       "libnvidia-ml.so.1: cannot open"), 0);
	run_gpudirect(&rep, &c);
	assert_null(finding(&c, PA_GD_ACCEL_LINK, 0));
	assert_int_equal(c.state[PA_GD_ACCEL_LINK], PA_RULE_SKIPPED);
	assert_non_null(strstr(c.note[PA_GD_ACCEL_LINK], "cannot open"));
	f = finding(&c, PA_GD_P2P_UNKNOWN, 0);
	assert_non_null(f);
	pa_check_clear(&c);
	pa_report_clear(&rep);
}

struct out_case {
	const struct pa_report *rep;
	const struct pa_topo *topo;
	const struct pa_p2p_pair *pair;
};

static int render_p2p(FILE *f, const void *arg)
{
	const struct out_case *c = arg;

	return pa_text_p2p(f, c->rep, c->pair);
}

static int render_topo(FILE *f, const void *arg)
{
	const struct out_case *c = arg;

	return pa_text_topo(f, c->rep, c->topo);
}

static int render_topo_json(FILE *f, const void *arg)
{
	const struct out_case *c = arg;

	return pa_json_topo(f, c->rep, c->topo);
}

/* The guest's GPUs on NV18: topo's cells and legend, p2p's line, and the
 * JSON's link with its type and count. */
static void outputs_on_nvlink(void **state)
{
	struct pa_addr g0 = addr(0, 0, 6, 0), g1 = addr(0, 0, 7, 0);
	struct pa_addr both[2] = { g0, g1 };
	json_object *root, *link;
	struct out_case c;
	struct pa_report rep;
	struct pa_topo t;
	char *text;
	int ret;

	(void)state;
	guest_report(&rep);
	rep.fabric = malloc(sizeof(*rep.fabric));
	assert_non_null(rep.fabric);
	collect(DATA "/nvml/h200-2gpu-nv18.json", rep.fabric);
	assert_int_equal(pa_p2p_fill(&rep, both, 2), 0);
	rep.has_p2p = true;
	assert_int_equal(pa_topo_select(&rep, PA_SELECT_DEFAULT, NULL, 0, &t, NULL), 0);
	c = (struct out_case){ &rep, &t, pa_p2p_find(&rep.p2p, &g0, &g1) };

	text = test_render(render_topo, &c, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(text, "GPU0  X      NV18"));
	assert_non_null(strstr(text, "GPU1  NV18   X"));
	assert_non_null(strstr(text, "NVLink: from NVML (driver 580.159.04)\n"));
	free(text);

	text = test_render(render_p2p, &c, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(text, "links:      18 NVLink links join them"));
	free(text);

	text = test_render(render_topo_json, &c, &ret);
	assert_int_equal(ret, 0);
	root = json_tokener_parse(text);
	assert_non_null(root);
	link = json_object_array_get_idx(member(member(root, "fabric"), "links"), 0);
	assert_string_equal(json_object_get_string(member(link, "type")), "nvlink");
	assert_int_equal(json_object_get_int(member(link, "count")), 18);
	assert_string_equal(json_object_get_string(member(link, "a")), "0000:00:06.0");
	assert_string_equal(json_object_get_string(json_object_array_get_idx(
		json_object_array_get_idx(member(root, "matrix"), 0), 1)), "NV18");
	json_object_put(root);
	free(text);
	pa_topo_clear(&t);
	pa_report_clear(&rep);
}

/* One NVIDIA GPU and, with nic, a ConnectX NIC; the software facts
 * given. */
static void sw_case_nic(const char *release, int nvidia, int open,
			int peermem, int dmabuf, bool nic, struct pa_check *c,
			struct pa_report *rep)
{
	*rep = (struct pa_report){ 0 };
	test_add_dev(rep, &(struct test_dev){ .bus = 3, .up_bus = -1,
		.class = 0x030200, .pcie_type = PCI_EXP_TYPE_ENDPOINT });
	rep->devices[0].vendor = 0x10de;
	if (nic) {
		test_add_dev(rep, &(struct test_dev){ .bus = 4, .up_bus = -1,
			.class = 0x020000, .pcie_type = PCI_EXP_TYPE_ENDPOINT });
		rep->devices[1].vendor = 0x15b3;
	}
	rep->info.kernel_release = release ? strdup(release) : NULL;
	rep->fabric = malloc(sizeof(*rep->fabric));
	assert_non_null(rep->fabric);
	pa_fabric_init(rep->fabric);
	rep->fabric->sw = (struct pa_gpu_sw){ peermem, nvidia, open, dmabuf, NULL };
	run_gpudirect(rep, c);
}

static void sw_case(const char *release, int nvidia, int open, int peermem,
		    int dmabuf, struct pa_check *c, struct pa_report *rep)
{
	sw_case_nic(release, nvidia, open, peermem, dmabuf, true, c, rep);
}

static void software_rules(void **state)
{
	const struct pa_finding *f;
	struct pa_report rep;
	struct pa_check c;

	(void)state;
	/* The H200 machine: 6.18, open module, dma-buf core, no peermem. */
	sw_case("6.18.44-fc-v973-gpu", 1, 1, 0, 1, &c, &rep);
	f = finding(&c, PA_GD_PEERMEM, 0);
	assert_non_null(f);
	assert_int_equal(f->severity, PA_SEV_INFO);
	assert_null(finding(&c, PA_GD_DMABUF, 0));
	assert_int_equal(c.state[PA_GD_DMABUF], PA_RULE_RAN);
	pa_check_clear(&c);
	pa_report_clear(&rep);

	/* Proprietary module on 5.10, no peermem: both warn. */
	sw_case("5.10.0-30-amd64", 1, 0, 0, 1, &c, &rep);
	assert_int_equal(finding(&c, PA_GD_PEERMEM, 0)->severity, PA_SEV_WARN);
	f = finding(&c, PA_GD_DMABUF, 0);
	assert_int_equal(f->severity, PA_SEV_WARN);
	assert_non_null(strstr(f->message, "older than 5.12"));
	assert_non_null(strstr(f->message, "proprietary"));
	assert_string_equal(f->remedy_kind == PA_REMEDY_COMMAND ? "command" : "?", "command");
	pa_check_clear(&c);
	pa_report_clear(&rep);

	/* The same without an RDMA NIC: nothing to register memory for. */
	sw_case_nic("5.10.0-30-amd64", 1, 0, 0, 1, false, &c, &rep);
	assert_int_equal(finding(&c, PA_GD_PEERMEM, 0)->severity, PA_SEV_INFO);
	assert_int_equal(finding(&c, PA_GD_DMABUF, 0)->severity, PA_SEV_INFO);
	pa_check_clear(&c);
	pa_report_clear(&rep);

	/* peermem loaded: dma-buf's absence is info only. */
	sw_case("6.1.0-20-amd64", 1, 0, 1, 1, &c, &rep);
	assert_null(finding(&c, PA_GD_PEERMEM, 0));
	assert_int_equal(finding(&c, PA_GD_DMABUF, 0)->severity, PA_SEV_INFO);
	pa_check_clear(&c);
	pa_report_clear(&rep);

	/* Unknown is not none: kallsyms unreadable skips dma-buf. */
	sw_case("6.1.0-20-amd64", 1, 1, 0, -1, &c, &rep);
	assert_int_equal(c.state[PA_GD_DMABUF], PA_RULE_SKIPPED);
	assert_int_equal(finding(&c, PA_GD_PEERMEM, 0)->severity, PA_SEV_INFO);
	pa_check_clear(&c);
	pa_report_clear(&rep);

	/* The driver not loaded (a VFIO host): nothing to judge. */
	sw_case("6.1.0-20-amd64", 0, -1, 0, 1, &c, &rep);
	assert_int_equal(c.state[PA_GD_PEERMEM], PA_RULE_SKIPPED);
	assert_int_equal(c.state[PA_GD_DMABUF], PA_RULE_SKIPPED);
	pa_check_clear(&c);
	pa_report_clear(&rep);
}

static int render_report(FILE *f, const void *arg)
{
	return pa_json_report(f, arg);
}

/* report --json's fabric comes back from the snapshot unchanged. */
static void snapshot_round_trip(void **state)
{
	struct pa_report rep, back;
	char *a, *b, err[256];
	int ret;

	(void)state;
	guest_report(&rep);
	rep.fabric = malloc(sizeof(*rep.fabric));
	assert_non_null(rep.fabric);
	collect(DATA "/nvml/h200-2gpu-nv18.json", rep.fabric);
	assert_int_equal(pa_kfd_read(DATA "/kfd-xgmi", rep.fabric), 0);
	rep.fabric->sw = (struct pa_gpu_sw){ 0, 1, 1, 1, strdup("NVRM version: x") };
	a = test_render(render_report, &rep, &ret);
	assert_int_equal(ret, 0);
	test_json_compact_is_pretty(&rep);
	assert_int_equal(pa_snapshot_parse("s", a, strlen(a), &back, err,
					   sizeof(err)), 0);
	assert_non_null(back.fabric);
	assert_int_equal(back.fabric->nlinks, 4);
	assert_int_equal(back.fabric->nmems, 3);
	b = test_render(render_report, &back, &ret);
	assert_string_equal(a, b);
	free(a);
	free(b);
	pa_report_clear(&back);
	pa_report_clear(&rep);

	a = strdup("{\"schema_version\": 1, \"info\": {}, \"devices\": [], \"groups\": [],"
		   " \"fabric\": {\"links\": [{\"a\": \"00:06.0\", \"b\": \"00:07.0\","
		   " \"type\": \"pcie\", \"count\": 1}]}}");
	assert_int_not_equal(pa_snapshot_parse("s", a, strlen(a), &back, err,
					       sizeof(err)), 0);
	assert_non_null(strstr(err, "links[0].type"));
	free(a);
}

/*
 * A switched host: root port 00:01.0, switch 01:00.0 with downstream
 * ports 02:00.0 and 02:01.0, a Gen5 x16 GPU at 03:00.0 and a Gen4 x8 NIC
 * at 04:00.0 (its downstream port Gen5 x16), an NVMe drive elsewhere.
 * NCCL's xml.cc makes the switch's upstream port the GPU's and the NIC's
 * parent (two levels up, the downstream port skipped), the CPU the
 * switch's (its parent, the root port, skipped); link_speed and
 * link_width are the lower of the device's and its upstream port's
 * maxima. The expected text is derived from those rules.
 */
static void nccl_xml_switch(void **state)
{
	const uint32_t g5 = TEST_LINK(5, 16), g4 = TEST_LINK(4, 8);
	struct pa_nccl_host h = { .family = -1, .model = -1 };
	struct pa_report rep = { 0 };
	char *cpumaps[1] = { "ffff" }, *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	test_add_dev(&rep, &(struct test_dev){ .bus = 0, .devfn = 0x08, .up_bus = -1,
		.class = 0x060400, .pcie_type = PCI_EXP_TYPE_ROOT_PORT,
		.lnkcap = g5, .lnksta = g5, .numa = 0 });
	test_add_dev(&rep, &(struct test_dev){ .bus = 1, .up_bus = 0, .up_devfn = 0x08,
		.class = 0x060400, .pcie_type = PCI_EXP_TYPE_UPSTREAM,
		.lnkcap = g5, .lnksta = g5, .numa = 0 });
	test_add_dev(&rep, &(struct test_dev){ .bus = 2, .up_bus = 1,
		.class = 0x060400, .pcie_type = PCI_EXP_TYPE_DOWNSTREAM,
		.lnkcap = g5, .lnksta = g5, .numa = 0 });
	test_add_dev(&rep, &(struct test_dev){ .bus = 2, .devfn = 0x08, .up_bus = 1,
		.class = 0x060400, .pcie_type = PCI_EXP_TYPE_DOWNSTREAM,
		.lnkcap = g5, .lnksta = g5, .numa = 0 });
	test_add_dev(&rep, &(struct test_dev){ .bus = 3, .up_bus = 2,
		.class = 0x030200, .pcie_type = PCI_EXP_TYPE_ENDPOINT,
		.lnkcap = g5, .lnksta = g5, .numa = 0 });
	test_add_dev(&rep, &(struct test_dev){ .bus = 4, .up_bus = 2, .up_devfn = 0x08,
		.class = 0x020700, .pcie_type = PCI_EXP_TYPE_ENDPOINT,
		.lnkcap = g4, .lnksta = g4, .numa = 0 });
	test_add_dev(&rep, &(struct test_dev){ .bus = 0x40, .up_bus = -1,
		.class = 0x010802, .pcie_type = PCI_EXP_TYPE_ENDPOINT,
		.lnkcap = g4, .lnksta = g4, .numa = 1 });
	pa_report_sort(&rep);
	h.arch = "x86_64";
	h.vendor = "AuthenticAMD";
	h.family = 25;
	h.model = 17;
	h.cpumaps = cpumaps;
	h.nnodes = 1;
	f = open_memstream(&text, &len);
	assert_int_equal(pa_nccl_xml(f, &rep, &h), 0);
	fclose(f);
	test_snapshot(text,
"<system version=\"1\">\n"
"  <cpu numaid=\"0\" affinity=\"ffff\" arch=\"x86_64\" vendor=\"AuthenticAMD\" familyid=\"25\" modelid=\"17\">\n"
"    <pci busid=\"0000:01:00.0\" class=\"0x060400\" vendor=\"0x1234\" device=\"0x0001\" subsystem_vendor=\"0x0000\" subsystem_device=\"0x0000\" link_speed=\"32.0 GT/s PCIe\" link_width=\"16\">\n"
"      <pci busid=\"0000:03:00.0\" class=\"0x030200\" vendor=\"0x10de\" device=\"0x0001\" subsystem_vendor=\"0x0000\" subsystem_device=\"0x0000\" link_speed=\"32.0 GT/s PCIe\" link_width=\"16\"/>\n"
"      <pci busid=\"0000:04:00.0\" class=\"0x020700\" vendor=\"0x1234\" device=\"0x0001\" subsystem_vendor=\"0x0000\" subsystem_device=\"0x0000\" link_speed=\"16.0 GT/s PCIe\" link_width=\"8\"/>\n"
"    </pci>\n"
"  </cpu>\n"
"</system>\n", "nccl_xml_switch");
	free(text);
	pa_report_clear(&rep);
}

/* A snapshot's host for the file: its CPU, not this machine's. */
static void nccl_host_of_snapshot(void **state)
{
	struct pa_host host = { .cpu_vendor = "AuthenticAMD", .cpu_family = 25 };
	struct pa_nccl_host h = { .family = -1, .model = -1 };

	(void)state;
	assert_int_equal(pa_nccl_host_from(&host, &h), 0);
	assert_string_equal(h.vendor, "AuthenticAMD");
	assert_string_equal(h.arch, "x86_64");
	assert_int_equal(h.family, 25);
	assert_int_equal(h.model, -1);
	assert_int_equal(h.nnodes, 0);
	pa_nccl_host_clear(&h);
	assert_int_equal(pa_nccl_cpuinfo("vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 207\nmodel name\t: x\n\nvendor_id\t: Other\n", &h), 0);
	assert_string_equal(h.vendor, "GenuineIntel");
	assert_int_equal(h.family, 6);
	assert_int_equal(h.model, 207);
	pa_nccl_host_clear(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nvml_h200_recorded),
		cmocka_unit_test(nvml_one_gpu_asks_no_links),
		cmocka_unit_test(nvml_nv18_matches_nvidia_smi),
		cmocka_unit_test(nvml_nvswitch),
		cmocka_unit_test(nvml_count_fails),
		cmocka_unit_test(nvml_dlopen_paths),
		cmocka_unit_test(fabric_read_asks_nvml_only_when_told),
		cmocka_unit_test(kfd_fixture),
		cmocka_unit_test(kfd_props),
		cmocka_unit_test(gpu_sw_recorded),
		cmocka_unit_test(check_guest_on_nvlink),
		cmocka_unit_test(outputs_on_nvlink),
		cmocka_unit_test(software_rules),
		cmocka_unit_test(snapshot_round_trip),
		cmocka_unit_test(nccl_xml_switch),
		cmocka_unit_test(nccl_host_of_snapshot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
