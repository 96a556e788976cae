// SPDX-License-Identifier: GPL-2.0
/* The expected outputs of p2p and topo: text snapshots, the remedy's
 * variants, and the JSON objects' names, types and values. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include <linux/pcieaudit.h>
#include <linux/pci_regs.h>

#include "json_out.h"
#include "p2p_text.h"
#include "topo.h"

static const struct pa_addr gpu = { 0, 0x03, 0 };
static const struct pa_addr nic = { 0, 0x04, 0 };
static const struct pa_addr nvme = { 0, 0x05, 0 };
static const struct pa_addr dsp0 = { 0, 0x02, 0x00 };
static const struct pa_addr dsp1 = { 0, 0x02, 0x08 };

static void name(struct pa_report *rep, struct pa_addr addr, const char *cls,
		 const char *vendor, const char *device)
{
	struct pa_device *d = (struct pa_device *)pa_report_find(rep, &addr);

	assert_non_null(d);
	d->class_name = strdup(cls);
	d->vendor_name = strdup(vendor);
	d->device_name = strdup(device);
	d->driver = strdup(d->class >> 16 == 0x06 ? "pcieport" : "vfio-pci");
}

static void add(struct pa_report *rep, struct test_dev spec)
{
	test_add_dev(rep, &spec);
}

/*
 * Root port 00:01.0 - switch 01:00.0 - ports 02:00.0 (GPU 03:00.0, Gen4
 * x16) and 02:01.0 (NIC 04:00.0, Gen3 x8), both ports with ReqRedir and
 * CmpltRedir on; root port 00:02.0 - NVMe 05:00.0 (Gen4 x4).
 */
static void gpu_server(struct pa_report *rep, const char *release)
{
	const uint32_t x16 = TEST_LINK(4, 16), x8 = TEST_LINK(3, 8);
	const uint32_t x4 = TEST_LINK(4, 4);

	*rep = (struct pa_report){ 0 };
	rep->info.module_version = strdup("0.2.0");
	rep->info.kernel_release = strdup(release);
	add(rep, (struct test_dev){ .bus = 0, .devfn = 0x08, .up_bus = -1,
		.class = 0x060400, .pcie_type = PCI_EXP_TYPE_ROOT_PORT,
		.lnkcap = x16, .lnksta = x16, .has_acs = true, .acs_ctrl = 0x1d });
	add(rep, (struct test_dev){ .bus = 1, .up_bus = 0, .up_devfn = 0x08,
		.class = 0x060400, .pcie_type = PCI_EXP_TYPE_UPSTREAM,
		.lnkcap = x16, .lnksta = x16 });
	add(rep, (struct test_dev){ .bus = 2, .up_bus = 1,
		.class = 0x060400, .pcie_type = PCI_EXP_TYPE_DOWNSTREAM,
		.lnkcap = x16, .lnksta = x16, .has_acs = true, .acs_ctrl = 0x1d });
	add(rep, (struct test_dev){ .bus = 2, .devfn = 0x08, .up_bus = 1,
		.class = 0x060400, .pcie_type = PCI_EXP_TYPE_DOWNSTREAM,
		.lnkcap = x16, .lnksta = x8, .has_acs = true, .acs_ctrl = 0x1d });
	add(rep, (struct test_dev){ .bus = 3, .up_bus = 2, .class = 0x030200,
		.pcie_type = PCI_EXP_TYPE_ENDPOINT, .lnkcap = x16, .lnksta = x16 });
	add(rep, (struct test_dev){ .bus = 4, .up_bus = 2, .up_devfn = 0x08,
		.class = 0x020000, .pcie_type = PCI_EXP_TYPE_ENDPOINT,
		.lnkcap = x8, .lnksta = x8 });
	add(rep, (struct test_dev){ .bus = 0, .devfn = 0x10, .up_bus = -1,
		.class = 0x060400, .pcie_type = PCI_EXP_TYPE_ROOT_PORT,
		.lnkcap = x16, .lnksta = x4, .has_acs = true, .acs_ctrl = 0x1d });
	add(rep, (struct test_dev){ .bus = 5, .up_bus = 0, .up_devfn = 0x10,
		.class = 0x010802, .pcie_type = PCI_EXP_TYPE_ENDPOINT,
		.lnkcap = x4, .lnksta = x4 });
	pa_report_sort(rep);
	name(rep, gpu, "3D controller", "NVIDIA Corporation", "GH100 [H100 SXM5 80GB]");
	name(rep, nic, "Ethernet controller", "Mellanox Technologies", "MT27800 Family [ConnectX-5]");
	name(rep, nvme, "Non-Volatile memory controller", "Samsung Electronics Co Ltd", "NVMe SSD Controller PM9A1");
	name(rep, dsp0, "PCI bridge", "Broadcom / LSI", "PEX 890xx PCIe Gen 5 Switch");
}

/* GPU <-> NIC redirected by both switch ports; the CPU allows the detour. */
static struct pa_p2p_pair *redirected_pair(struct pa_report *rep,
					   struct pa_addr a, struct pa_addr b)
{
	struct pa_p2p_pair *p;

	test_add_pair(rep, a, b, PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE,
		      PCIEAUDIT_P2P_PATH_ACS_REDIRECT, PCIEAUDIT_P2P_HOST_CPU);
	p = (struct pa_p2p_pair *)pa_p2p_find(&rep->p2p, &a, &b);
	assert_int_equal(pa_addr_list_add(&p->redirect, &dsp0), 0);
	assert_int_equal(pa_addr_list_add(&p->redirect, &dsp1), 0);
	return p;
}

/* NVMe on its own root port, Intel host bridges off the whitelist. */
static struct pa_p2p_pair *refused_pair(struct pa_report *rep,
					struct pa_addr a, struct pa_addr b)
{
	struct pa_p2p_pair *p;

	test_add_pair(rep, a, b, PCIEAUDIT_P2P_MAP_NOT_SUPPORTED,
		      PCIEAUDIT_P2P_PATH_NO_COMMON_UPSTREAM,
		      PCIEAUDIT_P2P_HOST_REFUSED);
	p = (struct pa_p2p_pair *)pa_p2p_find(&rep->p2p, &a, &b);
	p->has_host_bridge_provider = p->has_host_bridge_client = true;
	p->host_bridge_provider = p->host_bridge_client = 0x808609a2;
	return p;
}

struct p2p_case {
	const struct pa_report *rep;
	const struct pa_p2p_pair *pair;
};

static int render_p2p(FILE *f, const void *arg)
{
	const struct p2p_case *c = arg;

	return pa_text_p2p(f, c->rep, c->pair);
}

static char *p2p_text(const struct pa_report *rep, const struct pa_p2p_pair *p)
{
	const struct p2p_case c = { rep, p };
	char *text;
	int ret;

	text = test_render(render_p2p, &c, &ret);
	assert_int_equal(ret, 0);
	return text;
}

static void assert_contains(const char *text, const char *part)
{
	if (!strstr(text, part))
		fail_msg("\"%s\" lacks \"%s\"", text, part);
}

static const char redirect_snapshot[] =
"P2P DMA from 0000:03:00.0 (provider) to 0000:04:00.0 (client), path length 4\n"
"\n"
"provider    0000:03:00.0 Endpoint [10de:0001] 3D controller: NVIDIA Corporation GH100 [H100 SXM5 80GB] (driver vfio-pci, NUMA node 0)\n"
"            Link: 16GT/s x16 (max 16GT/s x16)\n"
"up          0000:02:00.0 Downstream Port [1234:0001] PCI bridge: Broadcom / LSI PEX 890xx PCIe Gen 5 Switch (driver pcieport, NUMA node 0)\n"
"            ACSCtl: SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans- REDIRECTS\n"
"            Link: 16GT/s x16 (max 16GT/s x16)\n"
"common      0000:01:00.0 Upstream Port [1234:0001] unknown vendor unknown device (no driver, NUMA node 0)\n"
"            ACS: none\n"
"            Link: 16GT/s x16 (max 16GT/s x16), leads up, off this path\n"
"down        0000:02:01.0 Downstream Port [1234:0001] unknown vendor unknown device (no driver, NUMA node 0)\n"
"            ACSCtl: SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans- REDIRECTS\n"
"            Link: 8GT/s x8 (max 16GT/s x16)\n"
"client      0000:04:00.0 Endpoint [1234:0001] Ethernet controller: Mellanox Technologies MT27800 Family [ConnectX-5] (driver vfio-pci, NUMA node 0)\n"
"            Link: 8GT/s x8 (max 8GT/s x8)\n"
"\n"
"kernel:     distance 4 (pci_p2pdma_distance())\n"
"pcieaudit:  through the host bridge, distance 4\n"
"            path: below common upstream bridge 0000:01:00.0, but ACS redirects at 0000:02:00.0 and 0000:02:01.0\n"
"            host rule: allowed: AMD Zen CPU\n"
"ACS:        0000:03:00.0 -> 0000:04:00.0: through the root complex\n"
"              translated or not, requests redirected at 0000:02:00.0 (ReqRedir); completions redirected at 0000:02:01.0 (CmpltRedir)\n"
"            0000:04:00.0 -> 0000:03:00.0: through the root complex\n"
"              translated or not, requests redirected at 0000:02:01.0 (ReqRedir); completions redirected at 0000:02:00.0 (CmpltRedir)\n"
"topology:   PIX (at most one PCIe switch or bridge between them)\n"
"bandwidth:  7.88 GB/s per direction, narrowest at 0000:04:00.0 (8GT/s x8, max 8GT/s x8)\n"
"            BANDWIDTH TRAP: under half of the 31.51 GB/s 0000:03:00.0 is capable of\n"
"remedy:     ACS redirection on 0000:02:00.0 and 0000:02:01.0 sends this traffic up\n"
"            to the root complex. To let it pass below the common bridge, boot with\n"
"              pci=disable_acs_redir=0000:02:00.0;0000:02:01.0\n"
"            (pci=disable_acs_redir= works as written on Linux 4.19 to 6.10 and\n"
"            on kernels with commit 9cf8a952d57b (Linux 6.15 and later; stable\n"
"            6.12.23, 6.13.11, 6.14.2 and later). This kernel (6.12.23-amd64)\n"
"            is one of them.)\n"
"            or, since this kernel has pci=config_acs= and the fix, with\n"
"              pci=config_acs=x0x00xx@0000:02:00.0;x0x00xx@0000:02:01.0\n"
"            (x0x00xx: flags DirectTrans EgressCtrl UpstreamFwd CmpltRedir ReqRedir\n"
"            TransBlk SrcValid, bit 6 to bit 0; 0 forces off, x leaves as is)\n"
"            Keep the value inside the quotes of GRUB_CMDLINE_LINUX: ';' ends a\n"
"            shell command. This weakens isolation between these devices: their\n"
"            P2P traffic no longer passes the IOMMU, so their IOMMU groups merge.\n"
"            The alternative is to turn ACS redirection off in the BIOS or\n"
"            firmware settings, where the platform offers it.\n"
"            Verify afterwards with: pcieaudit-cli p2p 0000:03:00.0 0000:04:00.0\n";

static void p2p_acs_redirect(void **state)
{
	struct pa_report rep;
	char *text;

	(void)state;
	gpu_server(&rep, "6.12.23-amd64");
	text = p2p_text(&rep, redirected_pair(&rep, gpu, nic));
	test_snapshot(text, redirect_snapshot, "p2p_redirect");
	free(text);
	pa_report_clear(&rep);
}

/* The text with line breaks and their indentation as single blanks; it
 * frees text. */
static char *flat(char *text)
{
	char *out = malloc(strlen(text) + 1), *o = out, *in = text;

	assert_non_null(out);
	while (*text) {
		if (*text == '\n' || *text == ' ') {
			text += strspn(text, "\n ");
			*o++ = ' ';
		} else {
			*o++ = *text++;
		}
	}
	*o = '\0';
	free(in);
	return out;
}

/* 6.11 and 6.12-6.14 stable releases before 9cf8a952d57b: say why
 * disable_acs_redir may not work there, and offer no config_acs. */
static void p2p_remedy_kernel_without_fix(void **state)
{
	static const char *const broken[] = { "6.11.0-1-amd64", "6.12.22+deb13-amd64",
					      "6.13.10", "6.14.1-arch1-1" };
	struct pa_report rep;
	char *text;

	(void)state;
	for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		gpu_server(&rep, broken[i]);
		text = flat(p2p_text(&rep, redirected_pair(&rep, gpu, nic)));
		assert_contains(text, " pci=disable_acs_redir=0000:02:00.0;0000:02:01.0 ");
		assert_contains(text, "lacks the fix: the bits it clears are copied from the firmware's setting instead");
		assert_contains(text, "boot a kernel with the fix, or turn ACS redirection off in the firmware setup");
		assert_null(strstr(text, "pci=config_acs=x"));
		free(text);
		pa_report_clear(&rep);
	}
	/* A distribution's 6.12.0-55 may or may not carry the backport. */
	gpu_server(&rep, "6.12.0-55.el10.x86_64");
	text = flat(p2p_text(&rep, redirected_pair(&rep, gpu, nic)));
	assert_contains(text, "Whether this kernel (6.12.0-55.el10.x86_64) has the fix cannot be told from its release");
	assert_contains(text, "9cf8a952d57b");
	assert_null(strstr(text, "pci=config_acs=x"));
	free(text);
	pa_report_clear(&rep);
}

/* pci=config_acs= came with 6.11; older kernels get disable_acs_redir only. */
static void p2p_remedy_before_6_11(void **state)
{
	struct pa_report rep;
	char *text;

	(void)state;
	gpu_server(&rep, "6.10.14");
	text = p2p_text(&rep, redirected_pair(&rep, nic, gpu));
	assert_contains(text, "  pci=disable_acs_redir=0000:02:00.0;0000:02:01.0\n");
	assert_null(strstr(text, "config_acs"));
	assert_contains(text, "pcieaudit-cli p2p 0000:04:00.0 0000:03:00.0\n");
	free(text);
	pa_report_clear(&rep);
}

static const char refused_snapshot[] =
"P2P DMA from 0000:03:00.0 (provider) to 0000:05:00.0 (client), path length 6\n"
"\n"
"provider    0000:03:00.0 Endpoint [10de:0001] 3D controller: NVIDIA Corporation GH100 [H100 SXM5 80GB] (driver vfio-pci, NUMA node 0)\n"
"            Link: 16GT/s x16 (max 16GT/s x16)\n"
"up          0000:02:00.0 Downstream Port [1234:0001] PCI bridge: Broadcom / LSI PEX 890xx PCIe Gen 5 Switch (driver pcieport, NUMA node 0)\n"
"            ACSCtl: SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-\n"
"            Link: 16GT/s x16 (max 16GT/s x16)\n"
"up          0000:01:00.0 Upstream Port [1234:0001] unknown vendor unknown device (no driver, NUMA node 0)\n"
"            ACS: none\n"
"            Link: 16GT/s x16 (max 16GT/s x16)\n"
"up          0000:00:01.0 Root Port [1234:0001] unknown vendor unknown device (no driver, NUMA node 0)\n"
"            ACSCtl: SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-\n"
"            Link: 16GT/s x16 (max 16GT/s x16)\n"
"common      none: crosses the root complex\n"
"down        0000:00:02.0 Root Port [1234:0001] unknown vendor unknown device (no driver, NUMA node 0)\n"
"            ACSCtl: SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-\n"
"            Link: 16GT/s x4 (max 16GT/s x16)\n"
"client      0000:05:00.0 Endpoint [1234:0001] Non-Volatile memory controller: Samsung Electronics Co Ltd NVMe SSD Controller PM9A1 (driver vfio-pci, NUMA node 0)\n"
"            Link: 16GT/s x4 (max 16GT/s x4)\n"
"\n"
"kernel:     refused (pci_p2pdma_distance() answered -1)\n"
"pcieaudit:  not supported\n"
"            path: no common upstream bridge: crosses the root complex\n"
"            host rule: refused: not an AMD Zen CPU, host bridge 8086:09a2 not whitelisted\n"
"ACS:        0000:03:00.0 -> 0000:05:00.0: through the root complex\n"
"              translated or not, requests redirected at 0000:02:00.0 (ReqRedir); completions redirected at 0000:00:02.0 (CmpltRedir)\n"
"            0000:05:00.0 -> 0000:03:00.0: through the root complex\n"
"              translated or not, requests redirected at 0000:00:02.0 (ReqRedir); completions redirected at 0000:02:00.0 (CmpltRedir)\n"
"topology:   PHB (no common upstream bridge: through their PCIe host bridge)\n"
"bandwidth:  7.88 GB/s per direction, narrowest at 0000:05:00.0 (16GT/s x4, max 16GT/s x4)\n"
"            BANDWIDTH TRAP: under half of the 31.51 GB/s 0000:03:00.0 is capable of\n"
"remedy:     no kernel parameter changes this. The devices share no upstream\n"
"            bridge, so their traffic must cross the root complex, which the\n"
"            kernel allows only on AMD Zen CPUs and on host bridges it whitelists;\n"
"            host bridge 8086:09a2 is not on the list. Place both devices under one\n"
"            PCIe switch or root port, or use a platform whose host bridge is\n"
"            whitelisted.\n";

static void p2p_refused_across_root(void **state)
{
	struct pa_report rep;
	char *text;

	(void)state;
	gpu_server(&rep, "6.1.0-57-amd64");
	text = p2p_text(&rep, refused_pair(&rep, gpu, nvme));
	test_snapshot(text, refused_snapshot, "p2p_refused");
	free(text);
	pa_report_clear(&rep);
}

static void p2p_through_whitelisted_host_bridge(void **state)
{
	struct pa_report rep;
	struct pa_p2p_pair *p;
	char *text;

	(void)state;
	gpu_server(&rep, "6.1.0-57-amd64");
	p = refused_pair(&rep, nic, nvme);
	p->host_rule = PCIEAUDIT_P2P_HOST_WHITELIST;
	p->map = PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE;
	p->distance = 4;
	p->host_bridge_client = 0x80862020;
	text = p2p_text(&rep, p);
	assert_contains(text, "pcieaudit:  through the host bridge, distance 4\n");
	assert_contains(text, "host rule: allowed: whitelisted host bridge 8086:09a2 and 8086:2020\n");
	assert_contains(text, "remedy:     P2P DMA works, but through the root complex.");
	/* Equal links, no trap. */
	assert_null(strstr(text, "TRAP"));
	free(text);
	pa_report_clear(&rep);
}

static void p2p_direct(void **state)
{
	struct pa_report rep;
	struct pa_p2p_pair *p;
	char *text;

	(void)state;
	gpu_server(&rep, "6.1.0-57-amd64");
	test_add_pair(&rep, gpu, nic, PCIEAUDIT_P2P_MAP_BUS_ADDR,
		      PCIEAUDIT_P2P_PATH_COMMON_UPSTREAM,
		      PCIEAUDIT_P2P_HOST_NOT_NEEDED);
	p = (struct pa_p2p_pair *)pa_p2p_find(&rep.p2p, &gpu, &nic);
	text = p2p_text(&rep, p);
	assert_contains(text, "pcieaudit:  direct (bus address), distance 4\n");
	assert_contains(text, "path: below common upstream bridge 0000:01:00.0\n");
	assert_contains(text, "host rule: not needed: the path stays below a common bridge\n");
	assert_contains(text, "\nremedy:     none needed\n");
	/* No function redirects: the ports' ACS shows without the mark. */
	assert_null(strstr(text, "REDIRECTS"));
	free(text);
	pa_report_clear(&rep);
}

static void kernel_line(struct pa_report *rep, struct pa_p2p_pair *p,
			uint32_t status, int32_t distance, const char *want)
{
	char *text;

	p->kernel_status = status;
	p->has_kernel_distance = status == PCIEAUDIT_P2P_KERNEL_ANSWERED;
	p->kernel_distance = distance;
	p->agreement = pa_p2p_agreement_of(p);
	text = p2p_text(rep, p);
	assert_contains(text, want);
	free(text);
}

static void p2p_kernel_verdicts(void **state)
{
	struct pa_report rep;
	struct pa_p2p_pair *p;

	(void)state;
	gpu_server(&rep, "6.1.0-57-amd64");
	p = refused_pair(&rep, gpu, nvme);
	kernel_line(&rep, p, PCIEAUDIT_P2P_KERNEL_ANSWERED, -1,
		    "\nkernel:     refused (pci_p2pdma_distance() answered -1)\n");
	kernel_line(&rep, p, PCIEAUDIT_P2P_KERNEL_NOT_BUILT, 0,
		    "\nkernel:     no answer: kernel built without CONFIG_PCI_P2PDMA\n");
	kernel_line(&rep, p, PCIEAUDIT_P2P_KERNEL_WITHHELD_LOG, 0,
		    "\nkernel:     withheld: asking would make the kernel warn in its log, which it already did 4 times in the last minute\n");
	kernel_line(&rep, p, PCIEAUDIT_P2P_KERNEL_WITHHELD_UNSAFE, 0,
		    "\nkernel:     withheld: the provider has P2P memory, and this kernel would allocate under rcu_read_lock() (fixed in 6.9)\n");
	kernel_line(&rep, p, 77, 0, "\nkernel:     unknown answer (status 77)\n");
	pa_report_clear(&rep);
}

/* Hops the device report lacks (removed meanwhile) still print. */
static void p2p_hop_not_in_report(void **state)
{
	struct pa_report rep;
	struct pa_p2p_pair *p;
	char *text;

	(void)state;
	gpu_server(&rep, "6.1.0-57-amd64");
	p = redirected_pair(&rep, gpu, nic);
	p->hops_provider.addrs[1].devfn = 0x38;
	p->map = 9;
	p->path = 9;
	p->host_rule = 9;
	text = p2p_text(&rep, p);
	assert_contains(text, "\nup          0000:02:07.0 (not in the device report)\n");
	assert_contains(text, "pcieaudit:  unknown map type 9, distance 4\n");
	assert_contains(text, "path: unknown path kind 9\n");
	assert_contains(text, "host rule: unknown rule 9\n");
	assert_contains(text, "\nremedy:     none known\n");
	free(text);
	pa_report_clear(&rep);
}

/* All six ordered pairs among GPU, NIC and NVMe. */
static void all_pairs(struct pa_report *rep)
{
	redirected_pair(rep, gpu, nic);
	redirected_pair(rep, nic, gpu);
	refused_pair(rep, gpu, nvme);
	refused_pair(rep, nvme, gpu);
	refused_pair(rep, nic, nvme);
	refused_pair(rep, nvme, nic);
}

struct topo_case {
	const struct pa_report *rep;
	const struct pa_topo *topo;
};

static int render_topo(FILE *f, const void *arg)
{
	const struct topo_case *c = arg;

	return pa_text_topo(f, c->rep, c->topo);
}

static const char topo_snapshot[] =
"       GPU0   NIC0   NVME0\n"
"GPU0   X      PIX*!  PHB-!\n"
"NIC0   PIX*!  X      PHB-\n"
"NVME0  PHB-!  PHB-   X\n"
"\n"
"Rows are providers, columns clients.\n"
"\n"
"GPU0   [0000:00] 0000:03:00.0 Endpoint [10de:0001] 3D controller: NVIDIA Corporation GH100 [H100 SXM5 80GB] (driver vfio-pci, NUMA node 0)\n"
"NIC0   [0000:00] 0000:04:00.0 Endpoint [1234:0001] Ethernet controller: Mellanox Technologies MT27800 Family [ConnectX-5] (driver vfio-pci, NUMA node 0)\n"
"NVME0  [0000:00] 0000:05:00.0 Endpoint [1234:0001] Non-Volatile memory controller: Samsung Electronics Co Ltd NVMe SSD Controller PM9A1 (driver vfio-pci, NUMA node 0)\n"
"\n"
"Legend:\n"
"  X      = the same function\n"
"  PIX    = at most one PCIe switch or bridge between them\n"
"  PXB    = several PCIe switches, no host bridge crossed\n"
"  PHB    = no common upstream bridge: through their PCIe host bridge\n"
"  NODE   = across PCIe host bridges within one NUMA node\n"
"  SYS    = across NUMA nodes (or a NUMA node unknown)\n"
"  NV#    = a bonded set of # NVLinks (instead of PCIe)\n"
"  XGMI   = AMD XGMI links (instead of PCIe)\n"
"Marks after it, pcieaudit's P2P DMA verdict and the bandwidth:\n"
"  (none) = direct P2P DMA, with bus addresses\n"
"  *      = through the host bridge (after PIX or PXB: ACS redirects it)\n"
"  -      = not supported: the kernel refuses\n"
"  !      = bandwidth trap: the narrowest link is under half of what\n"
"           the faster device can do\n"
"  ?      = no verdict: the path crosses the root complex, which the CPU\n"
"           and the kernel's host bridge whitelist decide (not in the input)\n"
"  ~      = no verdict: a function on the path has ACS unknown (256 bytes\n"
"           of configuration space): direct, or redirected\n"
"  ?      = no answer for this pair (devices changed meanwhile)\n"
"[dddd:bb] is a device's host bridge, its root bus.\n"
"'pcieaudit-cli p2p A B' explains a pair: path, verdicts, remedy.\n";

static void topo_matrix(void **state)
{
	struct pa_report rep;
	struct pa_topo t;
	struct topo_case c = { &rep, &t };
	char *text;
	int ret;

	(void)state;
	gpu_server(&rep, "6.1.0-57-amd64");
	all_pairs(&rep);
	assert_int_equal(pa_topo_select(&rep, PA_SELECT_DEFAULT, NULL, 0, &t,
					NULL), 0);
	text = test_render(render_topo, &c, &ret);
	assert_int_equal(ret, 0);
	test_snapshot(text, topo_snapshot, "topo");
	free(text);
	/* Issue 24's finding 6: offline, every pair is answered, and a '?'
	 * is no verdict, not "devices changed meanwhile". */
	free(rep.info.module_version);
	rep.info.module_version = NULL;
	text = test_render(render_topo, &c, &ret);
	assert_int_equal(ret, 0);
	assert_null(strstr(text, "meanwhile"));
	assert_non_null(strstr(text, "  ?      = no verdict: the path crosses the root complex"));
	assert_non_null(strstr(text, "  ~      = no verdict: a function on the path has ACS unknown"));
	free(text);
	pa_topo_clear(&t);
	pa_report_clear(&rep);
}

/* Where the kernel answered otherwise, the matrix shows its verdict. */
static void topo_follows_the_kernel(void **state)
{
	struct pa_report rep;
	struct pa_p2p_pair *p;
	char cell[PA_CELL_LEN];

	(void)state;
	gpu_server(&rep, "7.3.4+deb13-amd64");
	p = refused_pair(&rep, gpu, nvme);
	p->kernel_status = PCIEAUDIT_P2P_KERNEL_ANSWERED;
	p->has_kernel_distance = true;
	p->kernel_distance = -1;
	p->agreement = pa_p2p_agreement_of(p);
	assert_int_equal(p->agreement, PCIEAUDIT_P2P_AGREE);
	pa_topo_cell(&rep, &gpu, &nvme, cell);
	assert_string_equal(cell, "PHB-!");
	/* The kernel allows what the model refuses: through the host bridge. */
	p->kernel_distance = 6;
	p->agreement = pa_p2p_agreement_of(p);
	assert_int_equal(p->agreement, PCIEAUDIT_P2P_DISAGREE);
	assert_int_equal(pa_p2p_verdict_map(p), PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE);
	pa_topo_cell(&rep, &gpu, &nvme, cell);
	assert_string_equal(cell, "PHB*!");
	/* The kernel refuses what the model allows. */
	p = redirected_pair(&rep, gpu, nic);
	p->kernel_distance = -1;
	p->agreement = pa_p2p_agreement_of(p);
	assert_int_equal(pa_p2p_verdict_map(p), PCIEAUDIT_P2P_MAP_NOT_SUPPORTED);
	pa_topo_cell(&rep, &gpu, &nic, cell);
	assert_string_equal(cell, "PIX-!");
	/* Without the kernel's answer, the model's map stands. */
	p->kernel_status = PCIEAUDIT_P2P_KERNEL_NOT_BUILT;
	p->has_kernel_distance = false;
	p->agreement = pa_p2p_agreement_of(p);
	assert_int_equal(pa_p2p_verdict_map(p), PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE);
	pa_report_clear(&rep);
}

static void topo_nothing_selected(void **state)
{
	struct pa_report rep = { 0 };
	struct pa_topo t = { 0 };
	struct topo_case c = { &rep, &t };
	char *text;
	int ret;

	(void)state;
	text = test_render(render_topo, &c, &ret);
	assert_int_equal(ret, 0);
	assert_string_equal(text, "No GPUs, accelerators, NICs or NVMe drives found; use --all or name BDFs.\n");
	free(text);
}

/* ---- JSON ------------------------------------------------------------------ */

static json_object *get(json_object *obj, const char *key)
{
	json_object *value = NULL;

	if (!json_object_object_get_ex(obj, key, &value))
		fail_msg("missing key \"%s\"", key);
	return value;
}

static void check_keys(json_object *obj, const char *const *keys, size_t n)
{
	size_t i = 0;

	json_object_object_foreach(obj, key, value) {
		(void)value;
		assert_true(i < n);
		assert_string_equal(key, keys[i]);
		i++;
	}
	assert_int_equal(i, n);
}

static void check_string(json_object *obj, const char *key, const char *want)
{
	json_object *v = get(obj, key);

	assert_true(json_object_is_type(v, json_type_string));
	assert_string_equal(json_object_get_string(v), want);
}

static void check_int(json_object *obj, const char *key, int64_t want)
{
	json_object *v = get(obj, key);

	assert_true(json_object_is_type(v, json_type_int));
	assert_int_equal(json_object_get_int64(v), want);
}

static void check_bdfs(json_object *array, const char *const *want, size_t n)
{
	assert_true(json_object_is_type(array, json_type_array));
	assert_int_equal(json_object_array_length(array), n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(json_object_get_string(
			json_object_array_get_idx(array, i)), want[i]);
}

static int render_p2p_json(FILE *f, const void *rep)
{
	return pa_json_p2p(f, rep);
}

static int render_topo_json(FILE *f, const void *arg)
{
	const struct topo_case *c = arg;

	return pa_json_topo(f, c->rep, c->topo);
}

static int render_report_json(FILE *f, const void *rep)
{
	return pa_json_report(f, rep);
}

/*
 * The kernel's answer is the verdict and the analysis explains it, or says
 * it cannot; without an answer the analysis is the verdict, and names the
 * kernel whose rules it models.
 */
static void p2p_verdict_source(void **state)
{
	struct pa_report rep;
	struct pa_p2p_pair *p;
	char *text;

	(void)state;
	gpu_server(&rep, "7.3.4+deb13-amd64");
	rep.info.p2p_rules = strdup("Linux 7.3");
	p = refused_pair(&rep, gpu, nvme);

	/* Agreement: nothing more to say. */
	kernel_line(&rep, p, PCIEAUDIT_P2P_KERNEL_ANSWERED, -1,
		    "\nkernel:     refused (pci_p2pdma_distance() answered -1)\npcieaudit:  not supported\n");
	text = p2p_text(&rep, p);
	assert_null(strstr(text, "DISAGREES"));
	assert_null(strstr(text, "modelled on"));
	free(text);

	/* The kernel allows what the model refuses: said, never hidden. */
	kernel_line(&rep, p, PCIEAUDIT_P2P_KERNEL_ANSWERED, 6,
		    "\nkernel:     distance 6 (pci_p2pdma_distance())\n"
		    "pcieaudit:  not supported\n"
		    "            DISAGREES with the kernel, whose answer is the verdict: pcieaudit models Linux 7.3's rules, and this kernel's differ\n");

	/* No answer: the model is the verdict, and says whose it is. */
	kernel_line(&rep, p, PCIEAUDIT_P2P_KERNEL_NOT_BUILT, 0,
		    "\npcieaudit:  not supported (the verdict, modelled on Linux 7.3's rules)\n");
	kernel_line(&rep, p, PCIEAUDIT_P2P_KERNEL_WITHHELD_LOG, 0,
		    "\npcieaudit:  not supported (the verdict, modelled on Linux 7.3's rules)\n");
	text = p2p_text(&rep, p);
	assert_null(strstr(text, "DISAGREES"));
	free(text);

	/* A module that does not name its rules. */
	free(rep.info.p2p_rules);
	rep.info.p2p_rules = NULL;
	kernel_line(&rep, p, PCIEAUDIT_P2P_KERNEL_NOT_BUILT, 0,
		    "\npcieaudit:  not supported\n");
	kernel_line(&rep, p, PCIEAUDIT_P2P_KERNEL_ANSWERED, 6,
		    "DISAGREES with the kernel, whose answer is the verdict: pcieaudit models another kernel's rules");
	pa_report_clear(&rep);
}

static json_object *parse(char *text)
{
	json_object *root = json_tokener_parse(text);

	assert_non_null(root);
	return root;
}

static const char *const pair_keys[] = {
	"a", "b", "kernel_distance", "kernel_status", "agreement", "modelled_on",
	"distance", "path_length",
	"map", "path", "host_rule", "common", "hops_a", "hops_b", "redirect",
	"directions",
	"legend", "bottleneck", "bandwidth_trap",
};

#define NPAIR_KEYS (sizeof(pair_keys) / sizeof(pair_keys[0]))

static void json_redirected_pair(void **state)
{
	static const char *const hops_a[] = { "0000:03:00.0", "0000:02:00.0" };
	static const char *const hops_b[] = { "0000:04:00.0", "0000:02:01.0" };
	static const char *const redirect[] = { "0000:02:00.0", "0000:02:01.0" };
	static const char *const top[] = { "schema_version", "info", "p2p" };
	struct pa_report rep;
	json_object *root, *p, *bn;
	char *text;
	int ret;

	(void)state;
	gpu_server(&rep, "6.1.0-57-amd64");
	redirected_pair(&rep, gpu, nic);
	text = test_render(render_p2p_json, &rep, &ret);
	assert_int_equal(ret, 0);
	root = parse(text);
	check_keys(root, top, 3);
	assert_int_equal(json_object_array_length(get(root, "p2p")), 1);
	p = json_object_array_get_idx(get(root, "p2p"), 0);
	check_keys(p, pair_keys, NPAIR_KEYS);
	check_string(p, "a", "0000:03:00.0");
	check_string(p, "b", "0000:04:00.0");
	check_int(p, "kernel_distance", 4);
	check_string(p, "kernel_status", "answered");
	check_string(p, "agreement", "agree");
	/* The kernel answered: its answer is the verdict, not the model. */
	assert_null(get(p, "modelled_on"));
	check_int(p, "distance", 4);
	check_int(p, "path_length", 4);
	check_string(p, "map", "host-bridge");
	check_string(p, "path", "acs_redirect");
	check_string(p, "host_rule", "cpu");
	check_string(p, "common", "0000:01:00.0");
	check_bdfs(get(p, "hops_a"), hops_a, 2);
	check_bdfs(get(p, "hops_b"), hops_b, 2);
	check_bdfs(get(p, "redirect"), redirect, 2);
	check_string(p, "legend", "PIX");
	bn = get(p, "bottleneck");
	check_keys(bn, (const char *const[]){ "gbps", "link" }, 2);
	assert_true(json_object_is_type(get(bn, "gbps"), json_type_double));
	assert_float_equal(json_object_get_double(get(bn, "gbps")), 7.88, 1e-9);
	check_string(bn, "link", "0000:04:00.0");
	assert_true(json_object_get_boolean(get(p, "bandwidth_trap")));
	/* Two decimals, not json-c's seventeen digits. */
	assert_contains(text, "\"gbps\":7.88,");
	json_object_put(root);
	free(text);
	pa_report_clear(&rep);
}

static void json_refused_pair(void **state)
{
	static const char *const hops_a[] = {
		"0000:03:00.0", "0000:02:00.0", "0000:01:00.0", "0000:00:01.0",
	};
	struct pa_report rep;
	struct pa_p2p_pair *p;
	json_object *root, *o;
	char *text;
	int ret;

	(void)state;
	gpu_server(&rep, "6.1.0-57-amd64");
	p = refused_pair(&rep, gpu, nvme);
	p->kernel_status = PCIEAUDIT_P2P_KERNEL_NOT_BUILT;
	p->has_kernel_distance = false;
	p->agreement = 0;
	rep.info.p2p_rules = strdup("Linux 6.1");
	text = test_render(render_p2p_json, &rep, &ret);
	assert_int_equal(ret, 0);
	root = parse(text);
	o = json_object_array_get_idx(get(root, "p2p"), 0);
	assert_null(get(o, "kernel_distance"));
	check_string(o, "kernel_status", "not_built");
	assert_null(get(o, "agreement"));
	check_string(o, "modelled_on", "Linux 6.1");
	check_int(o, "distance", -1);
	check_int(o, "path_length", 6);
	check_string(o, "map", "unsupported");
	check_string(o, "path", "no_common_upstream");
	check_string(o, "host_rule", "refused");
	assert_null(get(o, "common"));
	check_bdfs(get(o, "hops_a"), hops_a, 4);
	check_bdfs(get(o, "redirect"), NULL, 0);
	check_string(o, "legend", "PHB");
	check_string(get(o, "bottleneck"), "link", "0000:05:00.0");
	assert_true(json_object_get_boolean(get(o, "bandwidth_trap")));
	json_object_put(root);
	free(text);

	/* Values this CLI does not know are null, not guessed. */
	p->kernel_status = 9;
	p->agreement = 9;
	p->map = 9;
	p->path = 9;
	p->host_rule = 9;
	text = test_render(render_p2p_json, &rep, &ret);
	root = parse(text);
	o = json_object_array_get_idx(get(root, "p2p"), 0);
	assert_null(get(o, "kernel_status"));
	assert_null(get(o, "agreement"));
	assert_null(get(o, "map"));
	assert_null(get(o, "path"));
	assert_null(get(o, "host_rule"));
	json_object_put(root);
	free(text);
	pa_report_clear(&rep);
}

static void json_topo(void **state)
{
	static const char *const top[] = {
		"schema_version", "info", "devices", "matrix", "p2p",
	};
	static const char *const rows[3][3] = {
		{ "X", "PIX*!", "PHB-!" },
		{ "PIX*!", "X", "PHB-" },
		{ "PHB-!", "PHB-", "X" },
	};
	struct pa_report rep;
	struct pa_topo t;
	struct topo_case c = { &rep, &t };
	json_object *root, *devs, *matrix;
	char *text;
	int ret;

	(void)state;
	gpu_server(&rep, "6.1.0-57-amd64");
	all_pairs(&rep);
	assert_int_equal(pa_topo_select(&rep, PA_SELECT_DEFAULT, NULL, 0, &t,
					NULL), 0);
	text = test_render(render_topo_json, &c, &ret);
	assert_int_equal(ret, 0);
	root = parse(text);
	check_keys(root, top, 5);
	devs = get(root, "devices");
	assert_int_equal(json_object_array_length(devs), 3);
	check_keys(json_object_array_get_idx(devs, 0),
		   (const char *const[]){ "label", "bdf" }, 2);
	check_string(json_object_array_get_idx(devs, 0), "label", "GPU0");
	check_string(json_object_array_get_idx(devs, 2), "label", "NVME0");
	check_string(json_object_array_get_idx(devs, 2), "bdf", "0000:05:00.0");
	matrix = get(root, "matrix");
	for (size_t i = 0; i < 3; i++)
		check_bdfs(json_object_array_get_idx(matrix, i), rows[i], 3);
	assert_int_equal(json_object_array_length(get(root, "p2p")), 6);
	/* Sorted by provider, then client. */
	check_string(json_object_array_get_idx(get(root, "p2p"), 1), "a",
		     "0000:03:00.0");
	check_string(json_object_array_get_idx(get(root, "p2p"), 1), "b",
		     "0000:05:00.0");
	json_object_put(root);
	free(text);
	pa_topo_clear(&t);
	pa_report_clear(&rep);
}

static void json_report_p2p(void **state)
{
	struct pa_report rep;
	json_object *root;
	char *text;
	int ret;

	(void)state;
	gpu_server(&rep, "6.1.0-57-amd64");
	text = test_render(render_report_json, &rep, &ret);
	root = parse(text);
	assert_null(get(root, "p2p"));		/* not asked for */
	json_object_put(root);
	free(text);

	all_pairs(&rep);
	text = test_render(render_report_json, &rep, &ret);
	assert_int_equal(ret, 0);
	root = parse(text);
	assert_int_equal(json_object_array_length(get(root, "p2p")), 6);
	check_keys(json_object_array_get_idx(get(root, "p2p"), 5), pair_keys,
		   NPAIR_KEYS);
	json_object_put(root);
	free(text);
	pa_report_clear(&rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(p2p_acs_redirect),
		cmocka_unit_test(p2p_remedy_kernel_without_fix),
		cmocka_unit_test(p2p_remedy_before_6_11),
		cmocka_unit_test(p2p_refused_across_root),
		cmocka_unit_test(p2p_through_whitelisted_host_bridge),
		cmocka_unit_test(p2p_direct),
		cmocka_unit_test(p2p_kernel_verdicts),
		cmocka_unit_test(p2p_verdict_source),
		cmocka_unit_test(p2p_hop_not_in_report),
		cmocka_unit_test(topo_matrix),
		cmocka_unit_test(topo_follows_the_kernel),
		cmocka_unit_test(topo_nothing_selected),
		cmocka_unit_test(json_redirected_pair),
		cmocka_unit_test(json_refused_pair),
		cmocka_unit_test(json_topo),
		cmocka_unit_test(json_report_p2p),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
