// SPDX-License-Identifier: GPL-2.0
#include "testutil.h"

#include "fileio.h"
#include "json_out.h"
#include "snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
		.p2p_rules = dup("Linux 6.1"),
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
			   .instance = dup("dmar0"),
			   .dma_owner = PCIEAUDIT_DMA_OWNER_UNCLAIMED },
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
		/* ATS on, MPS 256 of 512, MRRS 512, relaxed ordering on; a
		 * 16M BAR0 and a 256M prefetchable BAR1 resizable 64M-16G. */
		.caps_known = true, .has_ats = true, .ats_cap = 0x20,
		.ats_ctrl = 0x8000, .has_expdev = true, .devcap = 0x2,
		.devctl = 0x2000 | 0x20 | 0x10,
		.bars = {
			{ .index = 0, .size = 16ULL << 20,
			  .flags = PCIEAUDIT_BAR_F_MEM },
			{ .index = 1, .size = 256ULL << 20,
			  .flags = PCIEAUDIT_BAR_F_MEM | PCIEAUDIT_BAR_F_PREFETCH |
				   PCIEAUDIT_BAR_F_MEM64,
			  .resizable = true, .rebar_cap = 0x3ffc0 << 0,
			  .rebar_ctrl = 8 << 8 | 1 },
		},
		.nbars = 2,
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

void test_load_snapshot(const char *file, struct pa_report *rep)
{
	char path[256], err[512];
	size_t len;
	char *text;

	snprintf(path, sizeof(path), SNAPSHOTS "/%s", file);
	assert_int_equal(pa_read_file(path, 1 << 20, &text, &len), 0);
	if (pa_snapshot_parse(file, text, len, rep, err, sizeof(err)))
		fail_msg("%s", err);
	free(text);
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

char *test_json_unspaced(const char *text)
{
	char *out = malloc(strlen(text) + 1), *o = out;
	bool in_string = false, escaped = false;

	assert_non_null(out);
	for (; *text; text++) {
		if (in_string) {
			in_string = escaped || *text != '"';
			escaped = !escaped && *text == '\\';
		} else if (*text == ' ' || *text == '\n' || *text == '\t') {
			continue;
		} else {
			in_string = *text == '"';
		}
		*o++ = *text;
	}
	*o = '\0';
	return out;
}

static int render_json_report(FILE *f, const void *rep)
{
	return pa_json_report(f, rep);
}

void test_json_compact_is_pretty(const struct pa_report *rep)
{
	char *compact, *pretty, *unspaced;
	int ret;

	compact = test_render(render_json_report, rep, &ret);
	assert_int_equal(ret, 0);
	pa_json_set_pretty(true);
	pretty = test_render(render_json_report, rep, &ret);
	pa_json_set_pretty(false);
	assert_int_equal(ret, 0);
	unspaced = test_json_unspaced(pretty);
	compact[strcspn(compact, "\n")] = '\0';
	assert_string_equal(compact, unspaced);
	free(compact);
	free(pretty);
	free(unspaced);
}

static bool bridge_type(int pcie_type)
{
	return pcie_type == PCI_EXP_TYPE_ROOT_PORT ||
	       pcie_type == PCI_EXP_TYPE_UPSTREAM ||
	       pcie_type == PCI_EXP_TYPE_DOWNSTREAM ||
	       pcie_type == PCI_EXP_TYPE_PCI_BRIDGE ||
	       pcie_type == PCI_EXP_TYPE_PCIE_BRIDGE;
}

void test_put16(uint8_t *cfg, unsigned int pos, uint16_t v)
{
	cfg[pos] = (uint8_t)v;
	cfg[pos + 1] = (uint8_t)(v >> 8);
}

void test_put32(uint8_t *cfg, unsigned int pos, uint32_t v)
{
	test_put16(cfg, pos, (uint16_t)v);
	test_put16(cfg, pos + 2, (uint16_t)(v >> 16));
}

void test_add_dev(struct pa_report *rep, const struct test_dev *spec)
{
	struct pa_device d = {
		.addr = { spec->domain, spec->bus, spec->devfn },
		.vendor = spec->class >> 16 == 0x03 ? 0x10de : 0x1234,
		.device = 0x0001,
		.class = spec->class, .pcie_type = spec->pcie_type,
		.numa_node = spec->numa,
		.flags = spec->flags | (spec->pcie_type >= 0 ? PCIEAUDIT_DEV_F_PCIE : 0) |
			 (bridge_type(spec->pcie_type) ? PCIEAUDIT_DEV_F_BRIDGE : 0),
		.has_upstream = spec->up_bus >= 0,
		.upstream = { spec->domain, (uint8_t)spec->up_bus, spec->up_devfn },
		.has_link = spec->lnkcap != 0,
		.link = { .lnkcap = spec->lnkcap, .lnksta = spec->lnksta },
		.has_acs = spec->has_acs,
		.acs = { .pos = 0x100, .cap = 0x7f, .ctrl = spec->acs_ctrl },
	};

	add_device(rep, &d);
}

/* Which of start's ancestors (start included) is a, or -1. */
static int depth_of(const struct pa_report *rep, struct pa_addr start,
		    const struct pa_addr *a)
{
	const struct pa_device *d = pa_report_find(rep, &start);

	for (int depth = 0; d; depth++) {
		if (pa_addr_eq(&d->addr, a))
			return depth;
		d = d->has_upstream ? pa_report_find(rep, &d->upstream) : NULL;
	}
	return -1;
}

/* The first ancestor of a (a included) that is also one of b. */
static const struct pa_device *common_of(const struct pa_report *rep,
					 struct pa_addr a, struct pa_addr b)
{
	const struct pa_device *d = pa_report_find(rep, &a);

	while (d && depth_of(rep, b, &d->addr) < 0)
		d = d->has_upstream ? pa_report_find(rep, &d->upstream) : NULL;
	return d;
}

static void add_hops(const struct pa_report *rep, struct pa_addr from,
		     const struct pa_device *stop, struct pa_addr_list *hops)
{
	const struct pa_device *d = pa_report_find(rep, &from);

	while (d && d != stop) {
		assert_int_equal(pa_addr_list_add(hops, &d->addr), 0);
		d = d->has_upstream ? pa_report_find(rep, &d->upstream) : NULL;
	}
}

void test_add_pair(struct pa_report *rep, struct pa_addr a, struct pa_addr b,
		   uint32_t map, uint32_t path, uint32_t host_rule)
{
	const struct pa_device *common = common_of(rep, a, b);
	struct pa_p2p one = { .npairs = 1 };
	struct pa_p2p_pair *p = calloc(1, sizeof(*p));

	assert_non_null(p);
	*p = (struct pa_p2p_pair){
		.provider = a, .client = b,
		.kernel_status = PCIEAUDIT_P2P_KERNEL_ANSWERED,
		.has_kernel_distance = true,
		.map = map, .path = path, .host_rule = host_rule,
		.has_common = common != NULL,
	};
	if (common)
		p->common = common->addr;
	add_hops(rep, a, common, &p->hops_provider);
	add_hops(rep, b, common, &p->hops_client);
	p->path_length = (uint32_t)(p->hops_provider.n + p->hops_client.n);
	p->distance = map == PCIEAUDIT_P2P_MAP_NOT_SUPPORTED ?
		-1 : (int32_t)p->path_length;
	p->kernel_distance = p->distance;
	p->agreement = pa_p2p_agreement_of(p);
	one.pairs = p;
	assert_int_equal(pa_p2p_take(&rep->p2p, &one), 0);
	pa_p2p_sort(&rep->p2p);
	rep->has_p2p = true;
}

static void save_snapshot(const char *text, const char *name)
{
	const char *dir = getenv("PA_SNAPSHOT_DIR");
	char path[512];
	FILE *f;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/%s.txt", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

void test_snapshot(const char *text, const char *want, const char *name)
{
	size_t line = 1, start = 0, i;

	if (!strcmp(text, want))
		return;
	save_snapshot(text, name);
	for (i = 0; text[i] && text[i] == want[i]; i++) {
		if (text[i] == '\n') {
			line++;
			start = i + 1;
		}
	}
	fail_msg("%s differs at line %zu:\n got: %.*s\nwant: %.*s", name, line,
		 (int)strcspn(text + start, "\n"), text + start,
		 (int)strcspn(want + start, "\n"), want + start);
}

int test_check_run(struct pa_report *rep, const struct pa_policy *pol,
		   struct pa_check *c)
{
	int err = pa_check_infer_pairs(rep, pol);

	return err ? err : pa_check_run(rep, pol, c);
}

bool test_have_guest(void)
{
	struct stat st;

	if (stat(TEST_H200_GUEST "/devices", &st) == 0)
		return true;
	print_message("SKIPPED: %s is missing (../shared/fixtures)\n",
		      TEST_H200_GUEST);
	return false;
}
