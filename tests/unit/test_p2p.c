// SPDX-License-Identifier: GPL-2.0
/* The pure P2P analysis: nvidia-smi legend on small synthetic topologies,
 * the narrowest link and the bandwidth trap, remedy strings, the topology
 * selection and its cells. */
#include "testutil.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>
#include <linux/pci_regs.h>

#include "bdf.h"
#include "link.h"
#include "p2p_infer.h"
#include "p2p_path.h"
#include "remedy.h"
#include "topo.h"

#define GEN1 1
#define GEN3 3
#define GEN4 4
#define NONE_UP -1

#define RP	PCI_EXP_TYPE_ROOT_PORT
#define USP	PCI_EXP_TYPE_UPSTREAM
#define DSP	PCI_EXP_TYPE_DOWNSTREAM
#define EP	PCI_EXP_TYPE_ENDPOINT

#define GPU_CLASS	0x030200
#define NIC_CLASS	0x020000
#define NVME_CLASS	0x010802
#define BRIDGE_CLASS	0x060400

static const struct pa_addr gpu0 = { 0, 0x03, 0 };	/* switch, port 0 */
static const struct pa_addr nic0 = { 0, 0x04, 0 };	/* switch, port 1 */
static const struct pa_addr gpu1 = { 0, 0x07, 0 };	/* nested switch */
static const struct pa_addr nvme = { 0, 0x08, 0 };	/* own root port */
static const struct pa_addr mf0 = { 0, 0x09, 0 };	/* multifunction */
static const struct pa_addr mf1 = { 0, 0x09, 1 };
static const struct pa_addr far_gpu = { 0, 0xc1, 0 };	/* bus c0, node 1 */
static const struct pa_addr dom_gpu = { 1, 0x81, 0 };	/* 0001:80, node 0 */
static const struct pa_addr usp = { 0, 0x01, 0 };

static void dev(struct pa_report *rep, uint32_t domain, uint8_t bus,
		uint8_t devfn, int up_bus, uint8_t up_devfn, uint32_t class,
		int type, int numa, uint32_t cap, uint32_t sta)
{
	const struct test_dev spec = {
		.domain = domain, .bus = bus, .devfn = devfn, .up_bus = up_bus,
		.up_devfn = up_devfn, .class = class, .pcie_type = type,
		.numa = numa, .lnkcap = cap, .lnksta = (uint16_t)sta,
	};

	test_add_dev(rep, &spec);
}

/*
 * [0000:00] root port 00:01.0 - switch 01:00.0 (its link trained at
 *           2.5GT/s x1) - ports 02:00.0 (GPU 03:00.0), 02:01.0 (NIC
 *           04:00.0, Gen3 x8), 02:02.0 (switch 05:00.0 - 06:00.0 - GPU
 *           07:00.0); root port 00:02.0 - NVMe 08:00.0 (Gen4 x4); root
 *           port 00:03.0 - two-function NIC 09:00.0/.1
 * [0000:c0] root port c0:01.0 - GPU c1:00.0, NUMA node 1
 * [0001:80] root port 80:01.0 - GPU 81:00.0, NUMA node 0
 */
static void server(struct pa_report *rep)
{
	uint32_t x16 = TEST_LINK(GEN4, 16);

	*rep = (struct pa_report){ 0 };
	rep->info.kernel_release = strdup("6.1.0-test");
	dev(rep, 0, 0x00, 0x08, NONE_UP, 0, BRIDGE_CLASS, RP, 0, x16, x16);
	dev(rep, 0, 0x01, 0x00, 0x00, 0x08, BRIDGE_CLASS, USP, 0, x16,
	    TEST_LINK(GEN1, 1));
	dev(rep, 0, 0x02, 0x00, 0x01, 0x00, BRIDGE_CLASS, DSP, 0, x16, x16);
	dev(rep, 0, 0x02, 0x08, 0x01, 0x00, BRIDGE_CLASS, DSP, 0, x16,
	    TEST_LINK(GEN3, 8));
	dev(rep, 0, 0x02, 0x10, 0x01, 0x00, BRIDGE_CLASS, DSP, 0, x16, x16);
	dev(rep, 0, 0x03, 0x00, 0x02, 0x00, GPU_CLASS, EP, 0, x16, x16);
	dev(rep, 0, 0x04, 0x00, 0x02, 0x08, NIC_CLASS, EP, 0,
	    TEST_LINK(GEN3, 8), TEST_LINK(GEN3, 8));
	dev(rep, 0, 0x05, 0x00, 0x02, 0x10, BRIDGE_CLASS, USP, 0, x16, x16);
	dev(rep, 0, 0x06, 0x00, 0x05, 0x00, BRIDGE_CLASS, DSP, 0, x16, x16);
	dev(rep, 0, 0x07, 0x00, 0x06, 0x00, GPU_CLASS, EP, 0, x16, x16);
	dev(rep, 0, 0x00, 0x10, NONE_UP, 0, BRIDGE_CLASS, RP, 0, x16, x16);
	dev(rep, 0, 0x08, 0x00, 0x00, 0x10, NVME_CLASS, EP, 0,
	    TEST_LINK(GEN4, 4), TEST_LINK(GEN4, 4));
	dev(rep, 0, 0x00, 0x18, NONE_UP, 0, BRIDGE_CLASS, RP, 0, x16, x16);
	dev(rep, 0, 0x09, 0x00, 0x00, 0x18, NIC_CLASS, EP, 0, x16, x16);
	dev(rep, 0, 0x09, 0x01, 0x00, 0x18, NIC_CLASS, EP, 0, x16, x16);
	dev(rep, 0, 0xc0, 0x08, NONE_UP, 0, BRIDGE_CLASS, RP, 1, x16, x16);
	dev(rep, 0, 0xc1, 0x00, 0xc0, 0x08, GPU_CLASS, EP, 1, x16, x16);
	dev(rep, 1, 0x80, 0x08, NONE_UP, 0, BRIDGE_CLASS, RP, 0, x16, x16);
	dev(rep, 1, 0x81, 0x00, 0x80, 0x08, GPU_CLASS, EP, 0, x16, x16);
	pa_report_sort(rep);
}

static void pair(struct pa_report *rep, struct pa_addr a, struct pa_addr b,
		 uint32_t map)
{
	assert_non_null(pa_report_find(rep, &a));
	assert_non_null(pa_report_find(rep, &b));
	test_add_pair(rep, a, b, map, PCIEAUDIT_P2P_PATH_COMMON_UPSTREAM,
		      PCIEAUDIT_P2P_HOST_NOT_NEEDED);
}

static const struct pa_p2p_pair *find(const struct pa_report *rep,
				      struct pa_addr a, struct pa_addr b)
{
	const struct pa_p2p_pair *p = pa_p2p_find(&rep->p2p, &a, &b);

	assert_non_null(p);
	return p;
}

static const char *legend(struct pa_report *rep, struct pa_addr a,
			  struct pa_addr b)
{
	if (!pa_p2p_find(&rep->p2p, &a, &b))
		pair(rep, a, b, PCIEAUDIT_P2P_MAP_BUS_ADDR);
	return pa_legend_name(pa_legend_of(rep, find(rep, a, b)));
}

static void legend_same_switch(void **state)
{
	struct pa_report rep;

	(void)state;
	server(&rep);
	assert_string_equal(legend(&rep, gpu0, nic0), "PIX");
	assert_string_equal(legend(&rep, nic0, gpu0), "PIX");
	/* Two functions of one device below a root port. */
	assert_string_equal(legend(&rep, mf0, mf1), "PIX");
	pa_report_clear(&rep);
}

static void legend_nested_switches(void **state)
{
	struct pa_report rep;

	(void)state;
	server(&rep);
	assert_string_equal(legend(&rep, gpu0, gpu1), "PXB");
	assert_string_equal(legend(&rep, gpu1, nic0), "PXB");
	pa_report_clear(&rep);
}

static void legend_two_root_ports(void **state)
{
	struct pa_report rep;

	(void)state;
	server(&rep);
	assert_string_equal(legend(&rep, gpu0, nvme), "PHB");
	assert_string_equal(legend(&rep, nvme, mf1), "PHB");
	pa_report_clear(&rep);
}

static void legend_two_host_bridges(void **state)
{
	struct pa_report rep;

	(void)state;
	server(&rep);
	/* Another domain, same NUMA node. */
	assert_string_equal(legend(&rep, gpu0, dom_gpu), "NODE");
	/* Another root bus on another node. */
	assert_string_equal(legend(&rep, gpu0, far_gpu), "SYS");
	assert_string_equal(legend(&rep, far_gpu, dom_gpu), "SYS");
	pa_report_clear(&rep);
}

static void legend_self(void **state)
{
	struct pa_report rep;

	(void)state;
	server(&rep);
	assert_string_equal(legend(&rep, gpu0, gpu0), "X");
	pa_report_clear(&rep);
}

static void set_numa(struct pa_report *rep, int numa)
{
	for (size_t i = 0; i < rep->ndevices; i++)
		rep->devices[i].numa_node = numa;
}

/* -1 is node 0 only on a host known to have one node; unknown is SYS,
 * never NODE, even where every function has -1 (an lspci dump). */
static void legend_unknown_numa(void **state)
{
	struct pa_report rep;
	struct pa_device *d;

	(void)state;
	server(&rep);
	set_numa(&rep, -1);
	assert_string_equal(legend(&rep, gpu0, far_gpu), "SYS");
	rep.has_host = true;
	rep.host.numa_nodes = 2;
	assert_string_equal(legend(&rep, gpu0, far_gpu), "SYS");
	rep.host.numa_nodes = 1;
	assert_string_equal(legend(&rep, gpu0, far_gpu), "NODE");
	rep.has_host = false;
	rep.host.numa_nodes = -1;
	d = (struct pa_device *)pa_report_find(&rep, &dom_gpu);
	d->numa_node = 0;
	assert_string_equal(legend(&rep, gpu0, far_gpu), "SYS");
	/* Both known and equal still makes NODE. */
	((struct pa_device *)pa_report_find(&rep, &gpu0))->numa_node = 0;
	assert_string_equal(legend(&rep, gpu0, dom_gpu), "NODE");
	pa_report_clear(&rep);
}

/* Without the devices' upstream chain, the host bridge is unknown. */
static void legend_broken_chain(void **state)
{
	struct pa_report rep;
	struct pa_addr root;

	(void)state;
	server(&rep);
	assert_true(pa_host_bridge(&rep, &gpu1, &root));
	assert_int_equal(root.bus, 0);
	pair(&rep, gpu0, far_gpu, PCIEAUDIT_P2P_MAP_NOT_SUPPORTED);
	((struct pa_device *)pa_report_find(&rep, &far_gpu))->upstream.bus = 0x55;
	assert_false(pa_host_bridge(&rep, &far_gpu, &root));
	((struct pa_device *)pa_report_find(&rep, &far_gpu))->numa_node = 0;
	assert_string_equal(legend(&rep, gpu0, far_gpu), "SYS");
	pa_report_clear(&rep);
}

static void link_rates(void **state)
{
	(void)state;
	assert_float_equal(pa_link_gbps(2.5, 1), 0.25, 1e-9);
	assert_float_equal(pa_link_gbps(5, 4), 2.0, 1e-9);
	assert_float_equal(pa_link_gbps(8, 8), 8 * 128.0 / 130 * 8 / 8, 1e-9);
	assert_float_equal(pa_link_gbps(16, 16), 31.5077, 1e-4);
	assert_float_equal(pa_link_gbps(0, 16), 0, 0);
}

/* The example from the issue: a Gen4 x16 GPU and a Gen3 x8 NIC. */
static void trap_gpu_and_slow_nic(void **state)
{
	struct pa_report rep;
	struct pa_bottleneck b;

	(void)state;
	server(&rep);
	pair(&rep, gpu0, nic0, PCIEAUDIT_P2P_MAP_BUS_ADDR);
	pa_path_bottleneck(&rep, find(&rep, gpu0, nic0), &b);
	assert_true(b.found);
	assert_float_equal(b.gbps, 7.877, 1e-3);
	/* The NIC's link, named by the NIC rather than the port above. */
	assert_true(pa_addr_eq(&b.link, &nic0));
	assert_float_equal(b.ends_gbps, 31.508, 1e-3);
	assert_true(pa_addr_eq(&b.faster_end, &gpu0));
	assert_true(b.trap);
	pa_report_clear(&rep);
}

/* Equal links are no trap, and the common bridge's own link (trained at
 * 2.5GT/s x1 here) is not on the path between its ports. */
static void no_trap_for_equal_links(void **state)
{
	struct pa_report rep;
	struct pa_bottleneck b;

	(void)state;
	server(&rep);
	pair(&rep, gpu0, gpu1, PCIEAUDIT_P2P_MAP_BUS_ADDR);
	pa_path_bottleneck(&rep, find(&rep, gpu0, gpu1), &b);
	assert_true(b.found);
	assert_float_equal(b.gbps, 31.508, 1e-3);
	assert_true(pa_addr_eq(&b.link, &gpu0));
	assert_false(b.trap);
	pa_report_clear(&rep);
}

/* Across the root complex every link up to the root ports counts. */
static void bottleneck_up_to_the_root(void **state)
{
	struct pa_report rep;
	struct pa_bottleneck b;

	(void)state;
	server(&rep);
	pair(&rep, gpu0, nvme, PCIEAUDIT_P2P_MAP_NOT_SUPPORTED);
	pa_path_bottleneck(&rep, find(&rep, gpu0, nvme), &b);
	assert_float_equal(b.gbps, 0.25, 1e-9);
	assert_true(pa_addr_eq(&b.link, &usp));
	assert_true(b.trap);
	pa_report_clear(&rep);
}

static void bottleneck_without_links(void **state)
{
	struct pa_report rep;
	struct pa_bottleneck b;

	(void)state;
	server(&rep);
	pair(&rep, mf0, mf1, PCIEAUDIT_P2P_MAP_BUS_ADDR);
	for (size_t i = 0; i < rep.ndevices; i++)
		rep.devices[i].has_link = false;
	pa_path_bottleneck(&rep, find(&rep, mf0, mf1), &b);
	assert_false(b.found);
	assert_false(b.trap);
	pa_report_clear(&rep);
}

struct walk {
	char text[256];
};

static void record_step(const struct pa_addr *addr, enum pa_step_role role,
			void *arg)
{
	static const char roles[] = "PUCRDL";
	struct walk *w = arg;
	size_t len = strlen(w->text);

	snprintf(w->text + len, sizeof(w->text) - len, "%c%02x ", roles[role],
		 addr ? addr->bus : 0xff);
}

static void walk_order(void **state)
{
	struct pa_report rep;
	struct walk w = { "" };

	(void)state;
	server(&rep);
	pair(&rep, gpu1, nic0, PCIEAUDIT_P2P_MAP_BUS_ADDR);
	pa_path_walk(find(&rep, gpu1, nic0), record_step, &w);
	assert_string_equal(w.text, "P07 U06 U05 U02 C01 D02 L04 ");

	w.text[0] = '\0';
	pair(&rep, nvme, mf0, PCIEAUDIT_P2P_MAP_NOT_SUPPORTED);
	pa_path_walk(find(&rep, nvme, mf0), record_step, &w);
	assert_string_equal(w.text, "P08 U00 Rff D00 L09 ");

	w.text[0] = '\0';
	pair(&rep, nvme, nvme, PCIEAUDIT_P2P_MAP_BUS_ADDR);
	pa_path_walk(find(&rep, nvme, nvme), record_step, &w);
	assert_string_equal(w.text, "P08 ");
	pa_report_clear(&rep);
}

static struct pa_addr_list redirect_list(void)
{
	struct pa_addr_list list = { 0 };
	const struct pa_addr a = { 0, 0x02, 0x08 }, b = { 0, 0x02, 0x00 };

	/* The kernel's order, which is not address order. */
	assert_int_equal(pa_addr_list_add(&list, &a), 0);
	assert_int_equal(pa_addr_list_add(&list, &b), 0);
	return list;
}

static void disable_acs_redir_string(void **state)
{
	struct pa_addr_list list = redirect_list();
	const struct pa_addr wide = { 0x10000, 0xe1, 0x1f };
	char *text;

	(void)state;
	text = pa_remedy_disable_acs_redir(&list);
	assert_string_equal(text, "pci=disable_acs_redir=0000:02:01.0;0000:02:00.0");
	free(text);
	assert_int_equal(pa_addr_list_add(&list, &wide), 0);
	text = pa_remedy_disable_acs_redir(&list);
	assert_string_equal(text, "pci=disable_acs_redir=0000:02:01.0;0000:02:00.0;10000:e1:03.7");
	free(text);
	pa_addr_list_clear(&list);
}

static void config_acs_string(void **state)
{
	struct pa_addr_list list = redirect_list();
	char bits[PA_ACS_BITS_LEN];
	char *text;

	(void)state;
	pa_config_acs_bits(PA_ACS_REDIRECT_BITS, bits);
	assert_string_equal(bits, "x0x00xx");
	pa_config_acs_bits(0, bits);
	assert_string_equal(bits, "xxxxxxx");
	pa_config_acs_bits(PCI_ACS_SV, bits);
	assert_string_equal(bits, "xxxxxx0");
	pa_config_acs_bits(PCI_ACS_DT, bits);
	assert_string_equal(bits, "0xxxxxx");
	pa_config_acs_bits(0x7f, bits);
	assert_string_equal(bits, "0000000");
	text = pa_remedy_config_acs(&list);
	assert_string_equal(text, "pci=config_acs=x0x00xx@0000:02:01.0;x0x00xx@0000:02:00.0");
	free(text);
	pa_addr_list_clear(&list);
}

static void kernel_versions(void **state)
{
	static const struct {
		const char *release;
		bool config_acs;
	} cases[] = {
		{ "6.1.0-57-amd64", false }, { "6.10.14", false },
		{ "6.11.0", true }, { "6.12.0-rc1+", true }, { "7.0", true },
		{ "10.2.0", true }, { "5.15.0-91-generic", false },
		{ "", false }, { "abc", false }, { "6", false }, { "6.", false },
		{ ".11", false }, { "6.x", false }, { "99999999999.1", false },
	};
	unsigned int major, minor;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (pa_kernel_has_config_acs(cases[i].release) != cases[i].config_acs)
			fail_msg("wrong verdict for \"%s\"", cases[i].release);
	assert_false(pa_kernel_has_config_acs(NULL));
	assert_int_equal(pa_kernel_version("6.11.3-x", &major, &minor), 0);
	assert_int_equal(major, 6);
	assert_int_equal(minor, 11);
	assert_int_equal(pa_kernel_version("6-11", &major, &minor), -EINVAL);
}

static void add_extra_functions(struct pa_report *rep)
{
	const struct test_dev vf = {
		.bus = 0x09, .devfn = 0x02, .up_bus = 0x00, .up_devfn = 0x18,
		.class = NIC_CLASS, .pcie_type = EP,
		.flags = PCIEAUDIT_DEV_F_VIRTFN,
	};
	const struct test_dev usb = {
		.bus = 0x00, .devfn = 0xa0, .up_bus = NONE_UP,
		.class = 0x0c0330, .pcie_type = -1,
	};
	const struct test_dev acc = {
		.bus = 0x00, .devfn = 0xa8, .up_bus = NONE_UP,
		.class = 0x120000, .pcie_type = PCI_EXP_TYPE_RC_END,
	};

	test_add_dev(rep, &vf);
	test_add_dev(rep, &usb);
	test_add_dev(rep, &acc);
	pa_report_sort(rep);
}

static void labels(const struct pa_topo *t, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t i = 0; i < t->n; i++)
		len += (size_t)snprintf(out + len, size - len, "%s=%02x.%x ",
					t->devs[i].label, t->devs[i].dev->addr.bus,
					t->devs[i].dev->addr.devfn & 7);
}

static void select_default(void **state)
{
	struct pa_report rep;
	struct pa_topo t;
	char text[512];

	(void)state;
	server(&rep);
	add_extra_functions(&rep);
	assert_int_equal(pa_topo_select(&rep, PA_SELECT_DEFAULT, NULL, 0, &t,
					NULL), 0);
	labels(&t, text, sizeof(text));
	/* GPUs, accelerators, NICs, NVMe; no bridges, VFs or USB. */
	assert_string_equal(text,
		"GPU0=03.0 GPU1=07.0 GPU2=c1.0 GPU3=81.0 ACC0=00.0 "
		"NIC0=04.0 NIC1=09.0 NIC2=09.1 NVME0=08.0 ");
	pa_topo_clear(&t);

	assert_int_equal(pa_topo_select(&rep, PA_SELECT_ALL, NULL, 0, &t,
					NULL), 0);
	labels(&t, text, sizeof(text));
	assert_string_equal(text,
		"GPU0=03.0 GPU1=07.0 GPU2=c1.0 GPU3=81.0 ACC0=00.0 "
		"NIC0=04.0 NIC1=09.0 NIC2=09.1 NIC3=09.2 NVME0=08.0 DEV0=00.0 ");
	pa_topo_clear(&t);
	pa_report_clear(&rep);
}

/* Issue 24's finding 7: a BMC's VGA (ASPEED) is no GPU; GPUn are
 * NVIDIA's by bus id, as nvidia-smi numbers them, then AMD's. */
static void gpu_labels(void **state)
{
	struct pa_report rep;
	struct pa_topo t;
	char text[512];

	(void)state;
	server(&rep);
	((struct pa_device *)pa_report_find(&rep, &gpu0))->vendor = 0x1a03;
	((struct pa_device *)pa_report_find(&rep, &gpu1))->vendor = PA_VENDOR_AMD;
	assert_int_equal(pa_topo_select(&rep, PA_SELECT_DEFAULT, NULL, 0, &t,
					NULL), 0);
	labels(&t, text, sizeof(text));
	assert_string_equal(text,
		"GPU0=c1.0 GPU1=81.0 GPU2=07.0 NIC0=04.0 NIC1=09.0 NIC2=09.1 "
		"NVME0=08.0 DISP0=03.0 ");
	pa_topo_clear(&t);
	pa_report_clear(&rep);
}

/* check's rules name GPUs by pa_device_kind(): a BMC's VGA and a display
 * built into the root complex are not GPUs; NVIDIA's and AMD's are,
 * wherever they sit. */
static void device_kind_display(void **state)
{
	struct pa_device d = { .class = 0x030000, .pcie_type = PCI_EXP_TYPE_ENDPOINT,
			       .has_upstream = true };

	(void)state;
	d.vendor = 0x1234;		/* a GPU stand-in below a port */
	assert_int_equal(pa_device_kind(&d), PA_KIND_GPU);
	d.vendor = PA_VENDOR_ASPEED;	/* a BMC's VGA below its bridge */
	assert_int_equal(pa_device_kind(&d), PA_KIND_OTHER);
	d.vendor = PA_VENDOR_MATROX;
	assert_int_equal(pa_device_kind(&d), PA_KIND_OTHER);
	d.vendor = 0x8086;		/* integrated graphics on the root bus */
	d.pcie_type = PCI_EXP_TYPE_RC_END;
	d.has_upstream = false;
	assert_int_equal(pa_device_kind(&d), PA_KIND_OTHER);
	d.pcie_type = -1;		/* a guest's console VGA */
	d.vendor = 0x1b36;
	assert_int_equal(pa_device_kind(&d), PA_KIND_OTHER);
	d.vendor = PA_VENDOR_NVIDIA;	/* a guest's passed-through GPU */
	d.class = 0x030200;
	assert_int_equal(pa_device_kind(&d), PA_KIND_GPU);
	d.vendor = PA_VENDOR_AMD;
	assert_int_equal(pa_device_kind(&d), PA_KIND_GPU);
	d.class = 0x020000;		/* not a display: its class decides */
	d.vendor = PA_VENDOR_ASPEED;
	assert_int_equal(pa_device_kind(&d), PA_KIND_NIC);
}

static void select_list(void **state)
{
	const struct pa_addr list[] = { nic0, gpu0, nic0, usp };
	const struct pa_addr bad[] = { gpu0, { 0, 0x77, 0 } };
	struct pa_report rep;
	struct pa_topo t = { 0 };
	struct pa_addr *addrs;
	size_t missing = 99;
	char text[256];

	(void)state;
	server(&rep);
	assert_int_equal(pa_topo_select(&rep, PA_SELECT_LIST, list, 4, &t,
					&missing), 0);
	labels(&t, text, sizeof(text));
	/* The order given, repeats dropped; a bridge if asked for. */
	assert_string_equal(text, "NIC0=04.0 GPU0=03.0 DEV0=01.0 ");
	assert_int_equal(pa_topo_addrs(&t, &addrs), 0);
	assert_true(pa_addr_eq(&addrs[0], &nic0));
	assert_true(pa_addr_eq(&addrs[2], &usp));
	free(addrs);
	pa_topo_clear(&t);

	assert_int_equal(pa_topo_select(&rep, PA_SELECT_LIST, bad, 2, &t,
					&missing), -ENODEV);
	assert_int_equal(missing, 1);
	assert_null(t.devs);
	pa_report_clear(&rep);
}

static void default_classes(void **state)
{
	(void)state;
	assert_true(pa_topo_default_class(0x030000));	/* VGA */
	assert_true(pa_topo_default_class(0x030200));	/* 3D */
	assert_true(pa_topo_default_class(0x038000));
	assert_true(pa_topo_default_class(0x120000));	/* accelerator */
	assert_true(pa_topo_default_class(0x0b4000));	/* co-processor */
	assert_true(pa_topo_default_class(0x020000));	/* Ethernet */
	assert_true(pa_topo_default_class(0x020700));	/* InfiniBand */
	assert_true(pa_topo_default_class(0x010802));	/* NVMe */
	assert_false(pa_topo_default_class(0x010800));	/* other NVM */
	assert_false(pa_topo_default_class(0x0b0000));	/* 386 */
	assert_false(pa_topo_default_class(0x060400));
	assert_false(pa_topo_default_class(0x0c0330));
}

static void cell(struct pa_report *rep, struct pa_addr a, struct pa_addr b,
		 const char *want)
{
	char text[PA_CELL_LEN];

	pa_topo_cell(rep, &a, &b, text);
	assert_string_equal(text, want);
}

static void cells(void **state)
{
	struct pa_report rep;

	(void)state;
	server(&rep);
	pair(&rep, gpu0, nic0, PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE);
	pair(&rep, gpu0, gpu1, PCIEAUDIT_P2P_MAP_BUS_ADDR);
	pair(&rep, gpu0, nvme, PCIEAUDIT_P2P_MAP_NOT_SUPPORTED);
	pair(&rep, gpu0, far_gpu, PCIEAUDIT_P2P_MAP_NOT_SUPPORTED);
	pair(&rep, far_gpu, dom_gpu, PCIEAUDIT_P2P_MAP_NOT_SUPPORTED);
	pair(&rep, dom_gpu, far_gpu, 42);
	cell(&rep, gpu0, nic0, "PIX*!");
	cell(&rep, gpu0, gpu1, "PXB");
	cell(&rep, gpu0, nvme, "PHB-!");
	/* Up through the switch whose own link trained at 2.5GT/s x1. */
	cell(&rep, gpu0, far_gpu, "SYS-!");
	cell(&rep, far_gpu, dom_gpu, "SYS-");
	cell(&rep, dom_gpu, far_gpu, "SYS?");
	cell(&rep, gpu0, gpu0, "X");
	cell(&rep, nic0, gpu0, "?");
	pa_report_clear(&rep);
}

/* ---- pcieaudit's own analysis, without the module ------------------------- */

static struct pa_device *mut_find(struct pa_report *rep, const struct pa_addr *a)
{
	return (struct pa_device *)pa_report_find(rep, a);
}

static void set_acs(struct pa_report *rep, uint8_t bus, uint8_t devfn,
		    uint16_t ctrl)
{
	const struct pa_addr a = { 0, bus, devfn };
	struct pa_device *d = mut_find(rep, &a);

	assert_non_null(d);
	d->has_acs = true;
	d->acs.cap = 0x7f;
	d->acs.ctrl = ctrl;
}

static void list_is(const struct pa_addr_list *l, const char *want)
{
	char got[256] = "", bdf[PA_BDF_LEN];
	size_t used = 0;

	for (size_t i = 0; i < l->n; i++) {
		snprintf(bdf, sizeof(bdf), "%02x:%02x.%x", l->addrs[i].bus,
			 l->addrs[i].devfn >> 3, l->addrs[i].devfn & 7);
		used += (size_t)snprintf(got + used, sizeof(got) - used, "%s%s",
					 i ? " " : "", bdf);
	}
	assert_string_equal(got, want);
}

/* As calc_map_type_and_dist() walks: hops with the endpoints, redirects
 * from the provider up to the common bridge, then the client's side. */
/*
 * Issue 24's finding 1: with 256 bytes of a switch port (lspci -xxx, sysfs
 * read without root), whether it redirects is unknown, and so is the
 * pair: never direct. A port known to redirect still decides it.
 */
static void inferred_unknown_acs(void **state)
{
	struct pa_report rep;
	struct pa_p2p_pair p;
	struct pa_addr at;

	(void)state;
	server(&rep);
	((struct pa_device *)pa_report_find(&rep, &(struct pa_addr){ 0, 0x02, 0x08 }))
		->no_extended_config = true;
	assert_int_equal(pa_p2p_infer(&rep, &gpu0, &nic0, &p), 0);
	assert_int_equal(p.map, 0);
	assert_int_equal(p.path, 0);
	assert_int_equal(p.host_rule, 0);
	assert_true(pa_p2p_acs_unknown_at(&rep, &p, &at));
	assert_true(pa_addr_eq(&at, &(struct pa_addr){ 0, 0x02, 0x08 }));
	assert_int_equal(pa_p2p_add(&rep.p2p, &p), 0);
	pa_p2p_sort(&rep.p2p);
	cell(&rep, gpu0, nic0, "PIX~!");
	/* The common bridge counts too, as the kernel walks it. */
	((struct pa_device *)pa_report_find(&rep, &(struct pa_addr){ 0, 0x02, 0x08 }))
		->no_extended_config = false;
	((struct pa_device *)pa_report_find(&rep, &usp))->config_not_captured = true;
	assert_int_equal(pa_p2p_infer(&rep, &gpu0, &nic0, &p), 0);
	assert_int_equal(p.map, 0);
	pa_p2p_pair_clear(&p);
	/* A port known to redirect: through the root complex, whatever
	 * the unknown one does. */
	set_acs(&rep, 0x02, 0x00, 0x1d);
	assert_int_equal(pa_p2p_infer(&rep, &gpu0, &nic0, &p), 0);
	assert_int_equal(p.path, PCIEAUDIT_P2P_PATH_ACS_REDIRECT);
	assert_false(pa_p2p_acs_unknown_at(&rep, &p, &at));
	pa_p2p_pair_clear(&p);
	/* A snapshot's pair of an older writer, direct across it, and one
	 * the kernel answered. */
	((struct pa_device *)pa_report_find(&rep, &(struct pa_addr){ 0, 0x02, 0x00 }))
		->has_acs = false;
	pair(&rep, gpu0, nic0, PCIEAUDIT_P2P_MAP_BUS_ADDR);
	rep.p2p.pairs[rep.p2p.npairs - 1].has_kernel_distance = false;
	pair(&rep, nic0, gpu0, PCIEAUDIT_P2P_MAP_BUS_ADDR);
	pa_p2p_settle_unknown(&rep);
	assert_int_equal(find(&rep, gpu0, nic0)->map, 0);
	assert_int_equal(find(&rep, nic0, gpu0)->map, PCIEAUDIT_P2P_MAP_BUS_ADDR);
	pa_report_clear(&rep);
}

static void inferred_paths(void **state)
{
	struct pa_report rep;
	struct pa_p2p_pair p;

	(void)state;
	server(&rep);
	assert_int_equal(pa_p2p_infer(&rep, &gpu0, &nic0, &p), 0);
	assert_true(p.has_common);
	assert_true(pa_addr_eq(&p.common, &usp));
	list_is(&p.hops_provider, "03:00.0 02:00.0");
	list_is(&p.hops_client, "04:00.0 02:01.0");
	assert_int_equal(p.path_length, 4);
	assert_int_equal(p.map, PCIEAUDIT_P2P_MAP_BUS_ADDR);
	assert_int_equal(p.path, PCIEAUDIT_P2P_PATH_COMMON_UPSTREAM);
	assert_int_equal(p.host_rule, PCIEAUDIT_P2P_HOST_NOT_NEEDED);
	assert_int_equal(p.kernel_status, 0);
	pa_p2p_pair_clear(&p);

	/* Redirecting ports, the common upstream port among them. */
	set_acs(&rep, 0x02, 0x00, 0x1d);
	set_acs(&rep, 0x02, 0x08, 0x1d);
	set_acs(&rep, 0x01, 0x00, 0x20);
	assert_int_equal(pa_p2p_infer(&rep, &nic0, &gpu0, &p), 0);
	list_is(&p.redirect, "02:01.0 01:00.0 02:00.0");
	assert_int_equal(p.path, PCIEAUDIT_P2P_PATH_ACS_REDIRECT);
	/* Through the root complex: no host facts, so no verdict. */
	assert_int_equal(p.map, 0);
	assert_int_equal(p.host_rule, 0);
	pa_p2p_pair_clear(&p);

	/* AMD family 17h and newer: the CPU allows it. */
	rep.has_host = true;
	rep.host = (struct pa_host){ .cpu_vendor = strdup("AuthenticAMD"),
				     .cpu_family = 0x19, .numa_nodes = -1 };
	assert_int_equal(pa_p2p_infer(&rep, &gpu0, &nvme, &p), 0);
	assert_false(p.has_common);
	list_is(&p.hops_provider, "03:00.0 02:00.0 01:00.0 00:01.0");
	list_is(&p.hops_client, "08:00.0 00:02.0");
	assert_int_equal(p.redirect.n, 0);
	assert_int_equal(p.path, PCIEAUDIT_P2P_PATH_NO_COMMON_UPSTREAM);
	assert_int_equal(p.host_rule, PCIEAUDIT_P2P_HOST_CPU);
	assert_int_equal(p.map, PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE);
	assert_int_equal(p.distance, 6);
	pa_p2p_pair_clear(&p);
	rep.host.cpu_family = 0x15;
	assert_int_equal(pa_p2p_infer(&rep, &gpu0, &nvme, &p), 0);
	assert_int_equal(p.map, 0);
	pa_p2p_pair_clear(&p);
	pa_report_clear(&rep);
}

/* Only the pairs missing from a module's answer are added. */
static void fill_missing_pairs(void **state)
{
	const struct pa_addr devs[] = { gpu0, nic0, nvme };
	struct pa_report rep;

	(void)state;
	server(&rep);
	test_add_pair(&rep, gpu0, nic0, PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE,
		      PCIEAUDIT_P2P_PATH_ACS_REDIRECT, PCIEAUDIT_P2P_HOST_CPU);
	assert_int_equal(pa_p2p_fill(&rep, devs, 3), 0);
	assert_int_equal(rep.p2p.npairs, 6);
	/* The module's answer stays. */
	assert_int_equal(pa_p2p_find(&rep.p2p, &gpu0, &nic0)->kernel_status,
			 PCIEAUDIT_P2P_KERNEL_ANSWERED);
	assert_int_equal(pa_p2p_find(&rep.p2p, &nic0, &gpu0)->kernel_status, 0);
	assert_int_equal(pa_p2p_fill(&rep, devs, 3), 0);
	assert_int_equal(rep.p2p.npairs, 6);
	pa_report_clear(&rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(legend_same_switch),
		cmocka_unit_test(legend_nested_switches),
		cmocka_unit_test(legend_two_root_ports),
		cmocka_unit_test(legend_two_host_bridges),
		cmocka_unit_test(legend_self),
		cmocka_unit_test(legend_unknown_numa),
		cmocka_unit_test(legend_broken_chain),
		cmocka_unit_test(link_rates),
		cmocka_unit_test(trap_gpu_and_slow_nic),
		cmocka_unit_test(no_trap_for_equal_links),
		cmocka_unit_test(bottleneck_up_to_the_root),
		cmocka_unit_test(bottleneck_without_links),
		cmocka_unit_test(walk_order),
		cmocka_unit_test(disable_acs_redir_string),
		cmocka_unit_test(config_acs_string),
		cmocka_unit_test(kernel_versions),
		cmocka_unit_test(select_default),
		cmocka_unit_test(select_list),
		cmocka_unit_test(default_classes),
		cmocka_unit_test(cells),
		cmocka_unit_test(inferred_paths),
		cmocka_unit_test(inferred_unknown_acs),
		cmocka_unit_test(gpu_labels),
		cmocka_unit_test(device_kind_display),
		cmocka_unit_test(fill_missing_pairs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
