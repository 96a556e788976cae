// SPDX-License-Identifier: GPL-2.0
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>
#include <linux/pci_regs.h>

struct nl_msg *test_genl_msg(uint8_t cmd, uint32_t seq, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	assert_non_null(msg);
	assert_non_null(genlmsg_put(msg, 0, seq, TEST_FAMILY_ID, 0, flags, cmd,
				    PCIEAUDIT_FAMILY_VERSION));
	return msg;
}

void test_put_addr(struct nl_msg *msg, int type, uint32_t domain, uint8_t bus,
		   uint8_t devfn)
{
	struct nlattr *nest = nla_nest_start(msg, type | NLA_F_NESTED);

	assert_non_null(nest);
	assert_int_equal(nla_put_u32(msg, PCIEAUDIT_A_ADDR_DOMAIN, domain), 0);
	assert_int_equal(nla_put_u8(msg, PCIEAUDIT_A_ADDR_BUS, bus), 0);
	assert_int_equal(nla_put_u8(msg, PCIEAUDIT_A_ADDR_DEVFN, devfn), 0);
	nla_nest_end(msg, nest);
}

static char *dup(const char *s)
{
	char *copy = strdup(s);

	assert_non_null(copy);
	return copy;
}

static void add_device(struct pa_report *rep, struct pa_device *dev)
{
	assert_int_equal(pa_report_add_device(rep, dev), 0);
}

static void add_group(struct pa_report *rep, uint32_t id, uint32_t other,
		      size_t n, const struct pa_addr *members)
{
	struct pa_group g = { .id = id, .nmembers = n, .other_members = other };

	g.members = calloc(n, sizeof(*members));
	assert_non_null(g.members);
	memcpy(g.members, members, n * sizeof(*members));
	assert_int_equal(pa_report_add_group(rep, &g), 0);
}

static void fixture_info(struct pa_info *info)
{
	*info = (struct pa_info){
		.module_version = dup("0.1.0"),
		.kernel_release = dup("6.1.0-test"),
		.features = PCIEAUDIT_F_P2PDMA | PCIEAUDIT_F_IOMMU_API |
			    PCIEAUDIT_F_IOMMU_PRESENT,
		.iommu_def_mode = PCIEAUDIT_IOMMU_MODE_TRANSLATED,
		.iommu_strict = PCIEAUDIT_IOMMU_STRICT_LAZY,
		.device_count = 4,
		.group_count = 2,
	};
}

static void fixture_host_bridge(struct pa_report *rep)
{
	struct pa_device d = {
		.addr = { 0, 0, 0x00 }, .vendor = 0x8086, .device = 0x1234,
		.class = 0x060000, .pcie_type = -1, .numa_node = 0,
		.has_iommu = true,
		.iommu = { .group = 0, .domain = PCIEAUDIT_DOMAIN_DMA,
			   .def_domain = PCIEAUDIT_DOMAIN_DMA,
			   .def_domain_source = PCIEAUDIT_SOURCE_KERNEL,
			   .instance = dup("dmar0") },
		.vendor_name = dup("Intel Corporation"),
		.device_name = dup("Test Host Bridge"),
		.class_name = dup("Host bridge"),
	};

	add_device(rep, &d);
}

static void fixture_root_port(struct pa_report *rep)
{
	struct pa_device d = {
		.addr = { 0, 0, 0x08 }, .vendor = 0x8086, .device = 0x1901,
		.subsys_vendor = 0x17aa, .subsys_device = 0x2233,
		.class = 0x060400, .revision = 7, .pcie_type = PCI_EXP_TYPE_ROOT_PORT,
		.flags = PCIEAUDIT_DEV_F_PCIE | PCIEAUDIT_DEV_F_BRIDGE,
		.numa_node = 0, .driver = dup("pcieport"),
		.has_secondary_bus = true, .secondary_bus = 1,
		.has_acs = true, .acs = { .pos = 0x220, .cap = 0x5f, .ctrl = 0x1d },
		.has_link = true,
		.link = { .lnkcap = 0x4 | 16 << 4, .lnksta = 0x4 | 16 << 4,
			  .has_lnkctl2 = true, .lnkctl2 = 0x4 },
		.has_iommu = true,
		.iommu = { .group = 1, .domain = PCIEAUDIT_DOMAIN_DMA_FQ,
			   .def_domain = PCIEAUDIT_DOMAIN_DMA_FQ,
			   .def_domain_source = PCIEAUDIT_SOURCE_KERNEL,
			   .instance = dup("dmar0") },
		.vendor_name = dup("Intel Corporation"),
		.device_name = dup("Test Root Port"),
		.class_name = dup("PCI bridge"),
	};

	add_device(rep, &d);
}

static void fixture_endpoints(struct pa_report *rep)
{
	struct pa_device pf = {
		.addr = { 0, 1, 0x00 }, .vendor = 0x10de, .device = 0x1eb8,
		.class = 0x030200, .revision = 0xa1,
		.pcie_type = PCI_EXP_TYPE_ENDPOINT,
		.flags = PCIEAUDIT_DEV_F_PCIE | PCIEAUDIT_DEV_F_MULTIFUNCTION |
			 PCIEAUDIT_DEV_F_PHYSFN,
		.numa_node = -1, .driver = dup("vfio-pci"),
		.has_upstream = true, .upstream = { 0, 0, 0x08 },
		.has_link = true,
		.link = { .lnkcap = 0x3 | 16 << 4, .lnksta = 0x1 | 8 << 4 },
		.has_iommu = true,
		.iommu = { .group = 1, .domain = PCIEAUDIT_DOMAIN_UNMANAGED,
			   .def_domain = PCIEAUDIT_DOMAIN_DMA_FQ,
			   .def_domain_source = PCIEAUDIT_SOURCE_DERIVED },
		.vendor_name = dup("NVIDIA Corporation"),
		.device_name = dup("TU104GL [Tesla T4]"),
		.class_name = dup("3D controller"),
	};
	struct pa_device vf = {
		.addr = { 0, 1, 0x02 }, .vendor = 0x10de, .device = 0x1eb9,
		.class = 0x030200, .pcie_type = PCI_EXP_TYPE_ENDPOINT,
		.flags = PCIEAUDIT_DEV_F_PCIE | PCIEAUDIT_DEV_F_VIRTFN,
		.numa_node = -1,
		.has_upstream = true, .upstream = { 0, 0, 0x08 },
		.has_pf = true, .pf = { 0, 1, 0x00 },
	};

	/* Out of order on purpose: the output must not depend on it. */
	add_device(rep, &vf);
	add_device(rep, &pf);
}

void test_fixture_report(struct pa_report *rep)
{
	static const struct pa_addr group0[] = { { 0, 0, 0x00 } };
	static const struct pa_addr group1[] = { { 0, 1, 0x00 }, { 0, 0, 0x08 } };

	*rep = (struct pa_report){ 0 };
	fixture_info(&rep->info);
	fixture_endpoints(rep);
	fixture_root_port(rep);
	fixture_host_bridge(rep);
	add_group(rep, 1, 1, 2, group1);
	add_group(rep, 0, 0, 1, group0);
	pa_report_sort(rep);
}

char *test_render(int (*fn)(FILE *f, const void *arg), const void *arg,
		  int *ret)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	*ret = fn(f, arg);
	assert_int_equal(fclose(f), 0);
	return text;
}
