// SPDX-License-Identifier: GPL-2.0
/* decode.c against messages built with libnl, as the kernel would send
 * them, and against every way they can be malformed. */
#include "testutil.h"
#include "dev_caps.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>
#include <linux/pci_regs.h>

#include "decode.h"

static void put_acs(struct nl_msg *msg, uint16_t pos, uint16_t cap,
		    uint16_t ctrl)
{
	struct nlattr *nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_ACS);

	nla_put_u16(msg, PCIEAUDIT_A_ACS_POS, pos);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_CAP, cap);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_CTRL, ctrl);
	nla_nest_end(msg, nest);
}

static void put_link(struct nl_msg *msg, uint32_t lnkcap, uint16_t lnksta)
{
	struct nlattr *nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_LINK);

	nla_put_u32(msg, PCIEAUDIT_A_LINK_LNKCAP, lnkcap);
	nla_put_u16(msg, PCIEAUDIT_A_LINK_LNKSTA, lnksta);
	nla_put_u32(msg, PCIEAUDIT_A_LINK_LNKCAP2, 0x3e);
	nla_put_u16(msg, PCIEAUDIT_A_LINK_LNKCTL2, 0x3);
	nla_nest_end(msg, nest);
}

static void put_iommu(struct nl_msg *msg)
{
	struct nlattr *nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_IOMMU);

	nla_put_u32(msg, PCIEAUDIT_A_IOMMU_GROUP, 17);
	nla_put_u32(msg, PCIEAUDIT_A_IOMMU_DOMAIN, PCIEAUDIT_DOMAIN_UNMANAGED);
	nla_put_u32(msg, PCIEAUDIT_A_IOMMU_DEF_DOMAIN, PCIEAUDIT_DOMAIN_DMA_FQ);
	nla_put_u32(msg, PCIEAUDIT_A_IOMMU_DEF_DOMAIN_SOURCE,
		    PCIEAUDIT_SOURCE_DERIVED);
	nla_put_string(msg, PCIEAUDIT_A_IOMMU_INSTANCE, "dmar1");
	nla_put_u32(msg, PCIEAUDIT_A_IOMMU_DMA_OWNER, PCIEAUDIT_DMA_OWNER_CLAIMED);
	nla_nest_end(msg, nest);
}

/* Every attribute the ABI defines for a device, as the kernel sends them. */
static struct nl_msg *full_device_msg(void)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 1, NLM_F_MULTI);

	test_put_addr(msg, PCIEAUDIT_A_DEV_ADDR, 0x10000, 0x04, 0x11);
	nla_put_string(msg, PCIEAUDIT_A_DEV_NAME, "10000:04:02.1");
	nla_put_u16(msg, PCIEAUDIT_A_DEV_VENDOR, 0x10de);
	nla_put_u16(msg, PCIEAUDIT_A_DEV_DEVICE, 0x2330);
	nla_put_u16(msg, PCIEAUDIT_A_DEV_SUBSYS_VENDOR, 0x10de);
	nla_put_u16(msg, PCIEAUDIT_A_DEV_SUBSYS_DEVICE, 0x16c1);
	nla_put_u32(msg, PCIEAUDIT_A_DEV_CLASS, 0x030200);
	nla_put_u8(msg, PCIEAUDIT_A_DEV_REVISION, 0xa1);
	nla_put_u32(msg, PCIEAUDIT_A_DEV_FLAGS,
		    PCIEAUDIT_DEV_F_PCIE | PCIEAUDIT_DEV_F_VIRTFN);
	nla_put_u8(msg, PCIEAUDIT_A_DEV_PCIE_TYPE, PCI_EXP_TYPE_ENDPOINT);
	test_put_addr(msg, PCIEAUDIT_A_DEV_UPSTREAM, 0x10000, 0x03, 0x00);
	test_put_addr(msg, PCIEAUDIT_A_DEV_PF, 0x10000, 0x04, 0x00);
	nla_put_string(msg, PCIEAUDIT_A_DEV_DRIVER, "vfio-pci");
	nla_put_s32(msg, PCIEAUDIT_A_DEV_NUMA_NODE, 1);
	put_acs(msg, 0x2a0, 0x5f, 0x1d);
	put_link(msg, 0x4 | 16 << 4, 0x3 | 4 << 4);
	put_iommu(msg);
	nla_put_u8(msg, PCIEAUDIT_A_DEV_SECONDARY_BUS, 0x05);
	nla_put_u32(msg, PCIEAUDIT_A_DEV_POWER_STATE, PCIEAUDIT_POWER_D3HOT);
	return msg;
}

/* ATS on, MPS 256 of 512, MRRS 1024, relaxed ordering on; BAR0 16M, BAR2
 * a 32G prefetchable 64-bit BAR resizable 256M-64G at 32G, BAR4 a 4K BAR
 * the kernel could not place. */
static void put_caps(struct nl_msg *msg)
{
	struct nlattr *nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_ATS);

	nla_put_u16(msg, PCIEAUDIT_A_ATS_POS, 0x160);
	nla_put_u16(msg, PCIEAUDIT_A_ATS_CAP, 0x0020);
	nla_put_u16(msg, PCIEAUDIT_A_ATS_CTRL, 0x8000);
	nla_nest_end(msg, nest);
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_EXPDEV);
	nla_put_u32(msg, PCIEAUDIT_A_EXPDEV_DEVCAP, 0x2);
	nla_put_u16(msg, PCIEAUDIT_A_EXPDEV_DEVCTL, 3 << 12 | 1 << 5 | 0x10);
	nla_nest_end(msg, nest);
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_BAR);
	nla_put_u8(msg, PCIEAUDIT_A_BAR_INDEX, 0);
	nla_put_u64(msg, PCIEAUDIT_A_BAR_SIZE, 16ULL << 20);
	nla_put_u32(msg, PCIEAUDIT_A_BAR_FLAGS, PCIEAUDIT_BAR_F_MEM);
	nla_put_u64(msg, PCIEAUDIT_A_BAR_START, 0xfd000000);
	nla_nest_end(msg, nest);
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_BAR);
	nla_put_u8(msg, PCIEAUDIT_A_BAR_INDEX, 2);
	nla_put_u64(msg, PCIEAUDIT_A_BAR_SIZE, 32ULL << 30);
	nla_put_u32(msg, PCIEAUDIT_A_BAR_FLAGS, PCIEAUDIT_BAR_F_MEM |
		    PCIEAUDIT_BAR_F_PREFETCH | PCIEAUDIT_BAR_F_MEM64);
	nla_put_u32(msg, PCIEAUDIT_A_BAR_REBAR_CAP, 0x1ff << 12);
	nla_put_u32(msg, PCIEAUDIT_A_BAR_REBAR_CTRL, 15 << 8 | 2);
	nla_nest_end(msg, nest);
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_BAR);
	nla_put_u8(msg, PCIEAUDIT_A_BAR_INDEX, 4);
	nla_put_u64(msg, PCIEAUDIT_A_BAR_SIZE, 4096);
	nla_put_u32(msg, PCIEAUDIT_A_BAR_FLAGS, PCIEAUDIT_BAR_F_MEM |
		    PCIEAUDIT_BAR_F_UNASSIGNED);
	nla_nest_end(msg, nest);
}

static int decode_and_free(struct nl_msg *msg, struct pa_device *dev)
{
	int err = pa_decode_device(msg, dev);

	nlmsg_free(msg);
	return err;
}

static void full_device(void **state)
{
	struct pa_device d;

	(void)state;
	assert_int_equal(decode_and_free(full_device_msg(), &d), 0);
	assert_int_equal(d.addr.domain, 0x10000);
	assert_int_equal(d.addr.bus, 0x04);
	assert_int_equal(d.addr.devfn, 0x11);
	assert_int_equal(d.vendor, 0x10de);
	assert_int_equal(d.device, 0x2330);
	assert_int_equal(d.subsys_vendor, 0x10de);
	assert_int_equal(d.subsys_device, 0x16c1);
	assert_int_equal(d.class, 0x030200);
	assert_int_equal(d.revision, 0xa1);
	assert_int_equal(d.flags, PCIEAUDIT_DEV_F_PCIE | PCIEAUDIT_DEV_F_VIRTFN);
	assert_int_equal(d.pcie_type, PCI_EXP_TYPE_ENDPOINT);
	assert_true(d.has_upstream);
	assert_int_equal(d.upstream.bus, 0x03);
	assert_true(d.has_pf);
	assert_int_equal(d.pf.devfn, 0x00);
	assert_string_equal(d.driver, "vfio-pci");
	assert_int_equal(d.numa_node, 1);
	assert_true(d.has_secondary_bus);
	assert_int_equal(d.secondary_bus, 5);
	assert_true(d.has_acs);
	assert_int_equal(d.acs.pos, 0x2a0);
	assert_int_equal(d.acs.cap, 0x5f);
	assert_int_equal(d.acs.ctrl, 0x1d);
	assert_true(d.has_link);
	assert_int_equal(d.link.lnkcap, 0x4 | 16 << 4);
	assert_int_equal(d.link.lnksta, 0x3 | 4 << 4);
	assert_true(d.link.has_lnkctl2);
	assert_int_equal(d.link.lnkctl2, 0x3);
	assert_true(d.has_iommu);
	assert_int_equal(d.iommu.group, 17);
	assert_int_equal(d.iommu.domain, PCIEAUDIT_DOMAIN_UNMANAGED);
	assert_int_equal(d.iommu.def_domain, PCIEAUDIT_DOMAIN_DMA_FQ);
	assert_int_equal(d.iommu.def_domain_source, PCIEAUDIT_SOURCE_DERIVED);
	assert_string_equal(d.iommu.instance, "dmar1");
	assert_int_equal(d.iommu.dma_owner, PCIEAUDIT_DMA_OWNER_CLAIMED);
	assert_int_equal(d.power_state, PCIEAUDIT_POWER_D3HOT);
	assert_false(d.config_unreadable);
	assert_null(d.vendor_name);
	pa_device_clear(&d);
}

static void device_caps(void **state)
{
	struct nl_msg *msg = full_device_msg();
	uint64_t sup[28];
	struct pa_device d;

	(void)state;
	put_caps(msg);
	assert_int_equal(decode_and_free(msg, &d), 0);
	assert_true(d.caps_known);
	assert_int_equal(pa_ats_enabled(&d), PA_YES);
	assert_int_equal(pa_mps_bytes(&d), 256);
	assert_int_equal(pa_mps_supported_bytes(&d), 512);
	assert_int_equal(pa_mrrs_bytes(&d), 1024);
	assert_int_equal(pa_relaxed_ordering(&d), PA_YES);
	assert_int_equal(d.nbars, 3);
	assert_int_equal(d.bars[1].index, 2);
	assert_true(d.bars[1].size == 32ULL << 30);
	assert_true(pa_rebar_current(&d.bars[1]) == 32ULL << 30);
	/* Capability bits 12-20: 256M to 64G. */
	assert_int_equal(pa_rebar_supported(&d.bars[1], sup, 28), 9);
	assert_true(sup[0] == 64ULL << 30 && sup[8] == 256ULL << 20);
	assert_true(pa_largest_prefetch_bar(&d) == &d.bars[1]);
	assert_true(d.bars[2].flags & PCIEAUDIT_BAR_F_UNASSIGNED);
	assert_false(d.bars[0].resizable);
	/* Where the kernel placed it, for the one that says. */
	assert_true(d.bars[0].has_start);
	assert_true(d.bars[0].start == 0xfd000000);
	assert_false(d.bars[2].has_start);
	pa_device_clear(&d);
}

/* One VF BAR: its register, and the kernel's resource (size 0: none;
 * res false: a kernel without IOV resources). */
static void put_vf_bar(struct nl_msg *msg, uint8_t i, uint32_t reg, bool res,
		       uint64_t size, uint32_t flags)
{
	struct nlattr *nest = nla_nest_start(msg, PCIEAUDIT_A_SRIOV_VF_BAR);

	nla_put_u8(msg, PCIEAUDIT_A_VF_BAR_INDEX, i);
	nla_put_u32(msg, PCIEAUDIT_A_VF_BAR_REG, reg);
	if (res) {
		nla_put_u64(msg, PCIEAUDIT_A_VF_BAR_SIZE, size);
		nla_put_u32(msg, PCIEAUDIT_A_VF_BAR_FLAGS, flags);
	}
	nla_nest_end(msg, nest);
}

/*
 * A PF: No_Soft_Reset set, FLR through AF, ARI in DevCap2 and DevCtl2;
 * 7 VFs of which the kernel enabled 2; VF BAR0 a 64-bit prefetchable BAR
 * (registers 0 and 1) whose space is @bar0_flags, the others empty.
 */
static void put_passthru(struct nl_msg *msg, bool res, uint32_t bar0_flags)
{
	struct nlattr *pt = nla_nest_start(msg, PCIEAUDIT_A_DEV_PASSTHRU);
	struct nlattr *sriov;

	nla_put_u16(msg, PCIEAUDIT_A_PASSTHRU_PMCSR, PCI_PM_CTRL_NO_SOFT_RESET);
	nla_put_u8(msg, PCIEAUDIT_A_PASSTHRU_AF_CAP, PCI_AF_CAP_TP | PCI_AF_CAP_FLR);
	nla_put_u32(msg, PCIEAUDIT_A_PASSTHRU_DEVCAP2, PCI_EXP_DEVCAP2_ARI);
	nla_put_u16(msg, PCIEAUDIT_A_PASSTHRU_DEVCTL2, PCI_EXP_DEVCTL2_ARI);
	sriov = nla_nest_start(msg, PCIEAUDIT_A_PASSTHRU_SRIOV);
	nla_put_u16(msg, PCIEAUDIT_A_SRIOV_POS, 0x160);
	nla_put_u16(msg, PCIEAUDIT_A_SRIOV_INITIAL_VFS, 7);
	nla_put_u16(msg, PCIEAUDIT_A_SRIOV_TOTAL_VFS, 7);
	nla_put_u16(msg, PCIEAUDIT_A_SRIOV_NUM_VFS, 2);
	nla_put_u16(msg, PCIEAUDIT_A_SRIOV_VF_OFFSET, 0x80);
	nla_put_u16(msg, PCIEAUDIT_A_SRIOV_VF_STRIDE, 2);
	nla_put_u16(msg, PCIEAUDIT_A_SRIOV_KERNEL_NUM_VFS, 2);
	put_vf_bar(msg, 0, PCI_BASE_ADDRESS_MEM_TYPE_64 |
		   PCI_BASE_ADDRESS_MEM_PREFETCH, res, 2 << 20, bar0_flags);
	for (uint8_t i = 1; i < 6; i++)
		put_vf_bar(msg, i, 0, res, 0, 0);
	nla_nest_end(msg, sriov);
	nla_put_u64(msg, PCIEAUDIT_A_PASSTHRU_RESET_METHODS, 0x0603);
	nla_nest_end(msg, pt);
}

static void passthru_from_module(void **state)
{
	struct nl_msg *msg = full_device_msg();
	struct pa_device d;

	(void)state;
	put_passthru(msg, true, PCIEAUDIT_BAR_F_MEM | PCIEAUDIT_BAR_F_PREFETCH |
		     PCIEAUDIT_BAR_F_MEM64);
	assert_int_equal(decode_and_free(msg, &d), 0);
	assert_true(d.pt_from_module);
	assert_true(d.pt.known);
	assert_int_equal(d.pt.no_soft_reset, 1);
	assert_int_equal(d.pt.af_flr, 1);
	assert_true(d.pt.has_devcap2);
	assert_int_equal(d.pt.devcap2, PCI_EXP_DEVCAP2_ARI);
	assert_int_equal(d.pt.devctl2, PCI_EXP_DEVCTL2_ARI);
	assert_true(d.pt.has_sriov);
	assert_int_equal(d.pt.total_vfs, 7);
	assert_int_equal(d.pt.num_vfs, 2);
	assert_int_equal(d.pt.vf_offset, 0x80);
	assert_int_equal(d.pt.sysfs_num_vfs, 2);
	assert_int_equal(d.pt.vf_bar_sizes_mask, 1);
	assert_int_equal(d.pt.vf_bars_assigned, 1);
	/* The reset methods are sysfs's: not known yet, but their key is. */
	assert_true(d.has_reset_key);
	assert_true(d.reset_key == 0x0603);
	assert_null(d.pt.reset_method);
	assert_int_equal(d.pt.reset_file, -1);
	pa_device_clear(&d);

	/* The kernel could not place VF BAR0. */
	msg = full_device_msg();
	put_passthru(msg, true, PCIEAUDIT_BAR_F_MEM | PCIEAUDIT_BAR_F_UNASSIGNED);
	assert_int_equal(decode_and_free(msg, &d), 0);
	assert_int_equal(d.pt.vf_bars_assigned, 0);
	pa_device_clear(&d);

	/* No IOV resources: from the registers, a 64-bit VF BAR at 0 was
	 * never placed. */
	msg = full_device_msg();
	put_passthru(msg, false, 0);
	assert_int_equal(decode_and_free(msg, &d), 0);
	assert_int_equal(d.pt.vf_bar_sizes_mask, 0);
	assert_int_equal(d.pt.vf_bars_assigned, 0);
	pa_device_clear(&d);
}

/* Unreadable registers: an empty nest, every VFIO fact unknown. An older
 * module sends no nest: the CLI reads sysfs as before. */
static void passthru_unknown(void **state)
{
	struct nl_msg *msg = full_device_msg();
	struct pa_device d;

	(void)state;
	nla_put_flag(msg, PCIEAUDIT_A_DEV_CONFIG_UNREADABLE);
	/* libnl's nla_nest_end() drops an empty nest; the kernel's keeps it. */
	assert_int_equal(nla_put(msg, PCIEAUDIT_A_DEV_PASSTHRU, 0, NULL), 0);
	assert_int_equal(decode_and_free(msg, &d), 0);
	assert_true(d.pt_from_module);
	assert_false(d.pt.known);
	pa_device_clear(&d);
	assert_int_equal(decode_and_free(full_device_msg(), &d), 0);
	assert_false(d.pt_from_module);
	assert_false(d.pt.known);
	pa_device_clear(&d);
}

/* VF BARs out of order, missing or half a resource; DevCap2 alone. */
static void passthru_malformed(void **state)
{
	struct nlattr *pt, *sriov;
	struct nl_msg *msg;
	struct pa_device d;

	(void)state;
	for (int bad = 0; bad < 4; bad++) {
		msg = full_device_msg();
		pt = nla_nest_start(msg, PCIEAUDIT_A_DEV_PASSTHRU);
		if (bad == 3) {
			nla_put_u32(msg, PCIEAUDIT_A_PASSTHRU_DEVCAP2, 0);
			nla_nest_end(msg, pt);
			assert_int_equal(decode_and_free(msg, &d), -EBADMSG);
			continue;
		}
		sriov = nla_nest_start(msg, PCIEAUDIT_A_PASSTHRU_SRIOV);
		nla_put_u16(msg, PCIEAUDIT_A_SRIOV_INITIAL_VFS, 7);
		nla_put_u16(msg, PCIEAUDIT_A_SRIOV_TOTAL_VFS, 7);
		nla_put_u16(msg, PCIEAUDIT_A_SRIOV_NUM_VFS, 0);
		nla_put_u16(msg, PCIEAUDIT_A_SRIOV_VF_OFFSET, 1);
		nla_put_u16(msg, PCIEAUDIT_A_SRIOV_VF_STRIDE, 1);
		for (uint8_t i = 0; i < 6; i++) {
			if (bad == 0 && i == 5)
				break;		/* five of six */
			if (bad == 1 && i == 2) {
				put_vf_bar(msg, 3, 0, true, 0, 0);
				continue;	/* out of order */
			}
			if (bad == 2 && i == 4) {
				struct nlattr *b = nla_nest_start(msg, PCIEAUDIT_A_SRIOV_VF_BAR);

				nla_put_u8(msg, PCIEAUDIT_A_VF_BAR_INDEX, i);
				nla_put_u32(msg, PCIEAUDIT_A_VF_BAR_REG, 0);
				nla_put_u64(msg, PCIEAUDIT_A_VF_BAR_SIZE, 0);
				nla_nest_end(msg, b);	/* size without flags */
				continue;
			}
			put_vf_bar(msg, i, 0, true, 0, 0);
		}
		nla_nest_end(msg, sriov);
		nla_nest_end(msg, pt);
		assert_int_equal(decode_and_free(msg, &d), -EBADMSG);
	}
}

/* Without the attributes (an older module), the facts are unknown. */
static void device_caps_unknown(void **state)
{
	struct pa_device d;

	(void)state;
	assert_int_equal(decode_and_free(full_device_msg(), &d), 0);
	assert_false(d.caps_known);
	assert_int_equal(pa_ats_capable(&d), PA_UNKNOWN);
	assert_int_equal(pa_relaxed_ordering(&d), PA_UNKNOWN);
	assert_int_equal(pa_mps_bytes(&d), 0);
	pa_device_clear(&d);
}

/* BARs out of order, or an index past 5, break the ABI. */
static void device_caps_malformed(void **state)
{
	struct nl_msg *msg = full_device_msg();
	struct nlattr *nest;
	struct pa_device d;

	(void)state;
	put_caps(msg);
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_BAR);
	nla_put_u8(msg, PCIEAUDIT_A_BAR_INDEX, 1);
	nla_put_u64(msg, PCIEAUDIT_A_BAR_SIZE, 4096);
	nla_put_u32(msg, PCIEAUDIT_A_BAR_FLAGS, PCIEAUDIT_BAR_F_MEM);
	nla_nest_end(msg, nest);
	assert_int_equal(decode_and_free(msg, &d), -EBADMSG);
	msg = full_device_msg();
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_BAR);
	nla_put_u8(msg, PCIEAUDIT_A_BAR_INDEX, 6);
	nla_put_u64(msg, PCIEAUDIT_A_BAR_SIZE, 4096);
	nla_put_u32(msg, PCIEAUDIT_A_BAR_FLAGS, PCIEAUDIT_BAR_F_MEM);
	nla_nest_end(msg, nest);
	assert_int_equal(decode_and_free(msg, &d), -EBADMSG);
	msg = full_device_msg();
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_EXPDEV);
	nla_put_u16(msg, PCIEAUDIT_A_EXPDEV_DEVCAP, 2);
	nla_put_u16(msg, PCIEAUDIT_A_EXPDEV_DEVCTL, 0);
	nla_nest_end(msg, nest);
	assert_int_equal(decode_and_free(msg, &d), -EBADMSG);
}

/* D3cold: PMCSR and every other register read all ones. The module says
 * so and leaves ACS and link out; they are unknown, not absent. */
static void unreadable_device(void **state)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 1, 0);
	struct pa_device d;

	(void)state;
	test_put_addr(msg, PCIEAUDIT_A_DEV_ADDR, 0, 3, 0);
	nla_put_u32(msg, PCIEAUDIT_A_DEV_FLAGS, PCIEAUDIT_DEV_F_PCIE);
	nla_put_u32(msg, PCIEAUDIT_A_DEV_POWER_STATE, PCIEAUDIT_POWER_UNKNOWN);
	nla_put_flag(msg, PCIEAUDIT_A_DEV_CONFIG_UNREADABLE);
	put_iommu(msg);
	assert_int_equal(decode_and_free(msg, &d), 0);
	assert_int_equal(d.power_state, PCIEAUDIT_POWER_UNKNOWN);
	assert_true(d.config_unreadable);
	assert_false(d.has_acs);
	assert_false(d.has_link);
	assert_true(d.has_iommu);
	pa_device_clear(&d);
}

/* Older modules flagged only a disconnected function; its registers are
 * unknown too. A state newer than this CLI is kept as it is. */
static void disconnected_and_newer_power_state(void **state)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 1, 0);
	struct pa_device d;

	(void)state;
	test_put_addr(msg, PCIEAUDIT_A_DEV_ADDR, 0, 3, 0);
	nla_put_u32(msg, PCIEAUDIT_A_DEV_FLAGS, PCIEAUDIT_DEV_F_DISCONNECTED);
	nla_put_u32(msg, PCIEAUDIT_A_DEV_POWER_STATE, 77);
	assert_int_equal(decode_and_free(msg, &d), 0);
	assert_true(d.config_unreadable);
	assert_int_equal(d.power_state, 77);
	pa_device_clear(&d);
}

/* Absent nests mean "no ACS", "no link registers", "no IOMMU". */
static void minimal_device(void **state)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 1, 0);
	struct pa_device d;

	(void)state;
	test_put_addr(msg, PCIEAUDIT_A_DEV_ADDR, 0, 0, 0xf8);
	assert_int_equal(decode_and_free(msg, &d), 0);
	assert_int_equal(d.addr.devfn, 0xf8);
	assert_int_equal(d.pcie_type, -1);
	assert_int_equal(d.numa_node, -1);
	assert_null(d.driver);
	assert_false(d.has_upstream);
	assert_false(d.has_pf);
	assert_false(d.has_secondary_bus);
	assert_false(d.has_acs);
	assert_false(d.has_link);
	assert_false(d.has_iommu);
	/* No PM capability, or a module before power states. */
	assert_int_equal(d.power_state, 0);
	assert_false(d.config_unreadable);
	pa_device_clear(&d);
}

/* The sampler's history nest: what it always sends is required. */
static void link_history(void **state)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 1, 0);
	struct nlattr *nest;
	struct pa_device d;

	(void)state;
	test_put_addr(msg, PCIEAUDIT_A_DEV_ADDR, 0, 1, 0);
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_LINK_HISTORY);
	nla_put_u64(msg, PCIEAUDIT_A_HIST_SINCE_NS, 1000);
	nla_put_u64(msg, PCIEAUDIT_A_HIST_TRANSITIONS, 1415);
	nla_put_u64(msg, PCIEAUDIT_A_HIST_BELOW_NS, 12600000000000ull);
	nla_put_u8(msg, PCIEAUDIT_A_HIST_MIN_SPEED, 2);
	nla_put_u8(msg, PCIEAUDIT_A_HIST_MIN_WIDTH, 8);
	nla_put_u64(msg, PCIEAUDIT_A_HIST_LAST_CHANGE_NS, 5000);
	nla_put_u32(msg, PCIEAUDIT_A_HIST_INTERVAL_MS, 1000);
	nla_nest_end(msg, nest);
	assert_int_equal(decode_and_free(msg, &d), 0);
	assert_true(d.has_history);
	assert_int_equal(d.history.transitions, 1415);
	assert_int_equal(d.history.below_ns, 12600000000000ull);
	assert_true(d.history.has_min);
	assert_int_equal(d.history.min_speed, 2);
	assert_int_equal(d.history.min_width, 8);
	assert_int_equal(d.history.last_change_ns, 5000);
	assert_int_equal(d.history.interval_ms, 1000);
	/* A module before the skip attributes: read every time. */
	assert_int_equal(d.history.unsampled_ns, 0);
	assert_int_equal(d.history.skip, 0);
	pa_device_clear(&d);

	/* A link the sampler left unread: why, and for how long. */
	msg = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 1, 0);
	test_put_addr(msg, PCIEAUDIT_A_DEV_ADDR, 0, 1, 0);
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_LINK_HISTORY);
	nla_put_u64(msg, PCIEAUDIT_A_HIST_SINCE_NS, 1000);
	nla_put_u64(msg, PCIEAUDIT_A_HIST_TRANSITIONS, 0);
	nla_put_u64(msg, PCIEAUDIT_A_HIST_BELOW_NS, 0);
	nla_put_u32(msg, PCIEAUDIT_A_HIST_INTERVAL_MS, 100);
	nla_put_u64(msg, PCIEAUDIT_A_HIST_UNSAMPLED_NS, 2500000000ull);
	nla_put_u32(msg, PCIEAUDIT_A_HIST_SKIP, PCIEAUDIT_HIST_SKIP_SUSPENDED);
	nla_nest_end(msg, nest);
	assert_int_equal(decode_and_free(msg, &d), 0);
	assert_int_equal(d.history.unsampled_ns, 2500000000ull);
	assert_int_equal(d.history.skip, PCIEAUDIT_HIST_SKIP_SUSPENDED);
	pa_device_clear(&d);

	/* Without the interval: malformed. */
	msg = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 1, 0);
	test_put_addr(msg, PCIEAUDIT_A_DEV_ADDR, 0, 1, 0);
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_LINK_HISTORY);
	nla_put_u64(msg, PCIEAUDIT_A_HIST_SINCE_NS, 1000);
	nla_put_u64(msg, PCIEAUDIT_A_HIST_TRANSITIONS, 1);
	nla_put_u64(msg, PCIEAUDIT_A_HIST_BELOW_NS, 0);
	nla_nest_end(msg, nest);
	assert_int_equal(decode_and_free(msg, &d), -EBADMSG);
}

static void link_without_version2_registers(void **state)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 1, 0);
	struct nlattr *nest;
	struct pa_device d;

	(void)state;
	test_put_addr(msg, PCIEAUDIT_A_DEV_ADDR, 0, 1, 0);
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_LINK);
	nla_put_u32(msg, PCIEAUDIT_A_LINK_LNKCAP, 0x21);
	nla_put_u16(msg, PCIEAUDIT_A_LINK_LNKSTA, 0x11);
	nla_nest_end(msg, nest);
	assert_int_equal(decode_and_free(msg, &d), 0);
	assert_true(d.has_link);
	assert_false(d.link.has_lnkctl2);
	pa_device_clear(&d);
}

static void unknown_attributes_ignored(void **state)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 1, 0);
	struct nlattr *nest;
	struct pa_device d;

	(void)state;
	nla_put_u64(msg, 200, 0x1122334455667788ULL);	/* newer top level */
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_ADDR);
	nla_put_string(msg, 50, "newer address part");
	nla_put_u32(msg, PCIEAUDIT_A_ADDR_DOMAIN, 1);
	nla_put_u8(msg, PCIEAUDIT_A_ADDR_BUS, 2);
	nla_put_u8(msg, PCIEAUDIT_A_ADDR_DEVFN, 3);
	nla_nest_end(msg, nest);
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_ACS);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_POS, 0x100);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_CAP, 0x7f);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_CTRL, 0x01);
	nla_put_u8(msg, 99, 1);
	nla_nest_end(msg, nest);
	assert_int_equal(decode_and_free(msg, &d), 0);
	assert_int_equal(d.addr.domain, 1);
	assert_int_equal(d.addr.bus, 2);
	assert_int_equal(d.addr.devfn, 3);
	assert_int_equal(d.acs.cap, 0x7f);
	pa_device_clear(&d);
}

/* The ACS control at load: kept when sent, absent from older modules, and
 * held to its exact size like every other register. */
static void acs_control_at_load(void **state)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 1, 0);
	struct nlattr *nest;
	struct pa_device d;

	(void)state;
	test_put_addr(msg, PCIEAUDIT_A_DEV_ADDR, 0, 2, 0);
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_ACS);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_POS, 0x100);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_CAP, 0x5f);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_CTRL, 0x11);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_CTRL_AT_LOAD, 0x1d);
	nla_nest_end(msg, nest);
	assert_int_equal(decode_and_free(msg, &d), 0);
	assert_true(d.acs.has_ctrl_at_load);
	assert_int_equal(d.acs.ctrl_at_load, 0x1d);
	assert_int_equal(d.acs.ctrl, 0x11);
	pa_device_clear(&d);

	msg = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 1, 0);
	test_put_addr(msg, PCIEAUDIT_A_DEV_ADDR, 0, 2, 0);
	put_acs(msg, 0x100, 0x5f, 0x11);
	assert_int_equal(decode_and_free(msg, &d), 0);
	assert_false(d.acs.has_ctrl_at_load);
	pa_device_clear(&d);

	msg = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 1, 0);
	test_put_addr(msg, PCIEAUDIT_A_DEV_ADDR, 0, 2, 0);
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_ACS);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_POS, 0x100);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_CAP, 0x5f);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_CTRL, 0x11);
	nla_put_u32(msg, PCIEAUDIT_A_ACS_CTRL_AT_LOAD, 0x1d);
	nla_nest_end(msg, nest);
	assert_int_equal(decode_and_free(msg, &d), -EBADMSG);
}

static void missing_addr(void **state)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 1, 0);
	struct pa_device d = { .vendor = 0xbeef };

	(void)state;
	nla_put_u16(msg, PCIEAUDIT_A_DEV_VENDOR, 0x8086);
	nla_put_string(msg, PCIEAUDIT_A_DEV_DRIVER, "leak-check");
	assert_int_equal(decode_and_free(msg, &d), -EBADMSG);
	assert_int_equal(d.vendor, 0);	/* output cleared, the driver freed */
	assert_null(d.driver);
}

static void addr_missing_member(void **state)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 1, 0);
	struct nlattr *nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_ADDR);
	struct pa_device d;

	(void)state;
	nla_put_u32(msg, PCIEAUDIT_A_ADDR_DOMAIN, 0);
	nla_put_u8(msg, PCIEAUDIT_A_ADDR_DEVFN, 0);
	nla_nest_end(msg, nest);
	assert_int_equal(decode_and_free(msg, &d), -EBADMSG);
}

/* One attribute with the wrong payload size, everything else valid. */
static void wrong_size(int type, size_t len)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 1, 0);
	const unsigned char zeros[8] = { 0 };
	struct pa_device d;

	test_put_addr(msg, PCIEAUDIT_A_DEV_ADDR, 0, 1, 0);
	nla_put(msg, type, (int)len, zeros);
	assert_int_equal(decode_and_free(msg, &d), -EBADMSG);
}

static void wrong_attribute_sizes(void **state)
{
	(void)state;
	wrong_size(PCIEAUDIT_A_DEV_VENDOR, 4);
	wrong_size(PCIEAUDIT_A_DEV_VENDOR, 1);
	wrong_size(PCIEAUDIT_A_DEV_CLASS, 2);
	wrong_size(PCIEAUDIT_A_DEV_CLASS, 8);
	wrong_size(PCIEAUDIT_A_DEV_REVISION, 2);
	wrong_size(PCIEAUDIT_A_DEV_NUMA_NODE, 1);
	wrong_size(PCIEAUDIT_A_DEV_PCIE_TYPE, 0);
	wrong_size(PCIEAUDIT_A_DEV_DRIVER, 0);
	wrong_size(PCIEAUDIT_A_DEV_POWER_STATE, 2);
	wrong_size(PCIEAUDIT_A_DEV_POWER_STATE, 8);
}

static void wrong_size_inside_nest(void **state)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 1, 0);
	struct nlattr *nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_ADDR);
	struct pa_device d;

	(void)state;
	nla_put_u32(msg, PCIEAUDIT_A_ADDR_DOMAIN, 0);
	nla_put_u8(msg, PCIEAUDIT_A_ADDR_BUS, 0);
	nla_put_u16(msg, PCIEAUDIT_A_ADDR_DEVFN, 0);	/* u8 in the ABI */
	nla_nest_end(msg, nest);
	assert_int_equal(decode_and_free(msg, &d), -EBADMSG);
}

static void unterminated_string(void **state)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 1, 0);
	struct pa_device d;

	(void)state;
	test_put_addr(msg, PCIEAUDIT_A_DEV_ADDR, 0, 1, 0);
	nla_put(msg, PCIEAUDIT_A_DEV_DRIVER, 3, "abc");
	assert_int_equal(decode_and_free(msg, &d), -EBADMSG);
}

/* A nest whose inner attribute claims more bytes than the nest holds. */
static void truncated_nest(void **state)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 1, 0);
	const struct nlattr inner = { .nla_len = 8, .nla_type = PCIEAUDIT_A_ACS_POS };
	unsigned char payload[6] = { 0 };
	struct pa_device d;

	(void)state;
	memcpy(payload, &inner, sizeof(inner));
	test_put_addr(msg, PCIEAUDIT_A_DEV_ADDR, 0, 1, 0);
	nla_put(msg, PCIEAUDIT_A_DEV_ACS | NLA_F_NESTED, sizeof(payload), payload);
	assert_int_equal(decode_and_free(msg, &d), -EBADMSG);
}

/* Complete members, then a cut attribute: libnl's nla_parse() alone would
 * accept this and silently drop the tail. */
static void nest_with_cut_tail(void **state)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 1, 0);
	const struct nlattr cut = { .nla_len = 8, .nla_type = 4 };
	struct nlattr *nest;
	struct pa_device d;

	(void)state;
	test_put_addr(msg, PCIEAUDIT_A_DEV_ADDR, 0, 1, 0);
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_ACS);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_POS, 0x100);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_CAP, 0x7f);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_CTRL, 0x01);
	nlmsg_append(msg, (void *)&cut, sizeof(cut), NLMSG_ALIGNTO);
	nla_nest_end(msg, nest);
	assert_int_equal(decode_and_free(msg, &d), -EBADMSG);
}

static void nest_missing_required(int nest_type, int member, size_t len)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 1, 0);
	const unsigned char zeros[4] = { 0 };
	struct nlattr *nest;
	struct pa_device d;

	test_put_addr(msg, PCIEAUDIT_A_DEV_ADDR, 0, 1, 0);
	nest = nla_nest_start(msg, nest_type);
	nla_put(msg, member, (int)len, zeros);
	nla_nest_end(msg, nest);
	assert_int_equal(decode_and_free(msg, &d), -EBADMSG);
}

static void nests_missing_required_members(void **state)
{
	(void)state;
	nest_missing_required(PCIEAUDIT_A_DEV_ACS, PCIEAUDIT_A_ACS_CAP, 2);
	nest_missing_required(PCIEAUDIT_A_DEV_LINK, PCIEAUDIT_A_LINK_LNKCAP, 4);
	nest_missing_required(PCIEAUDIT_A_DEV_IOMMU, PCIEAUDIT_A_IOMMU_DOMAIN, 4);
	nest_missing_required(PCIEAUDIT_A_DEV_UPSTREAM, PCIEAUDIT_A_ADDR_BUS, 1);
	nest_missing_required(PCIEAUDIT_A_DEV_PF, PCIEAUDIT_A_ADDR_DOMAIN, 4);
}

/* The last attribute cut short by a smaller nlmsg_len. */
static void truncated_message(void **state)
{
	struct nl_msg *msg = full_device_msg();
	struct pa_device d;

	(void)state;
	nlmsg_hdr(msg)->nlmsg_len -= 4;
	assert_int_equal(decode_and_free(msg, &d), -EBADMSG);
}

static void shorter_than_genl_header(void **state)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 1, 0);
	struct pa_device d;

	(void)state;
	nlmsg_hdr(msg)->nlmsg_len = NLMSG_HDRLEN + 2;
	assert_int_equal(decode_and_free(msg, &d), -EBADMSG);
}

/* Every cut length and every single corrupted byte must decode or fail
 * with -EBADMSG; the sanitizers catch anything worse. */
static void corruption_never_crashes(void **state)
{
	struct nl_msg *good = full_device_msg();
	uint32_t len = nlmsg_hdr(good)->nlmsg_len;

	(void)state;
	for (uint32_t cut = NLMSG_HDRLEN; cut <= len; cut++) {
		struct nl_msg *msg = nlmsg_convert(nlmsg_hdr(good));
		struct pa_device d;
		int err;

		nlmsg_hdr(msg)->nlmsg_len = cut;
		err = decode_and_free(msg, &d);
		assert_true(err == 0 || err == -EBADMSG);
		if (!err)
			pa_device_clear(&d);
	}
	/* Bytes 0-3 are nlmsg_len, which the socket layer has checked. */
	for (uint32_t i = sizeof(uint32_t); i < len; i++) {
		for (unsigned int v = 0; v < 256; v += 0x55) {
			struct nl_msg *msg = nlmsg_convert(nlmsg_hdr(good));
			struct pa_device d;
			int err;

			((unsigned char *)nlmsg_hdr(msg))[i] = (unsigned char)v;
			err = decode_and_free(msg, &d);
			assert_true(err == 0 || err == -EBADMSG);
			if (!err)
				pa_device_clear(&d);
		}
	}
	nlmsg_free(good);
}

static void group(void **state)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_GROUP_GET, 1, NLM_F_MULTI);
	struct pa_group g;

	(void)state;
	nla_put_u32(msg, PCIEAUDIT_A_GROUP_ID, 12);
	test_put_addr(msg, PCIEAUDIT_A_GROUP_MEMBER, 0, 4, 1);
	test_put_addr(msg, PCIEAUDIT_A_GROUP_MEMBER, 0, 4, 0);
	nla_put_u32(msg, PCIEAUDIT_A_GROUP_OTHER_MEMBERS, 2);
	test_put_addr(msg, PCIEAUDIT_A_GROUP_MEMBER, 1, 0, 0);
	assert_int_equal(pa_decode_group(msg, &g), 0);
	nlmsg_free(msg);
	assert_int_equal(g.id, 12);
	assert_int_equal(g.other_members, 2);
	assert_int_equal(g.nmembers, 3);
	assert_int_equal(g.members[0].devfn, 1);
	assert_int_equal(g.members[1].devfn, 0);
	assert_int_equal(g.members[2].domain, 1);
	pa_group_clear(&g);
}

/* A group too large for one message continues in the next (same id). */
static void group_continued(void **state)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_GROUP_GET, 1, NLM_F_MULTI);
	struct pa_group g, more;

	(void)state;
	nla_put_u32(msg, PCIEAUDIT_A_GROUP_ID, 7);
	test_put_addr(msg, PCIEAUDIT_A_GROUP_MEMBER, 0, 4, 0);
	assert_int_equal(pa_decode_group(msg, &g), 0);
	nlmsg_free(msg);
	msg = test_genl_msg(PCIEAUDIT_CMD_GROUP_GET, 1, NLM_F_MULTI);
	nla_put_u32(msg, PCIEAUDIT_A_GROUP_ID, 7);
	test_put_addr(msg, PCIEAUDIT_A_GROUP_MEMBER, 0, 4, 1);
	test_put_addr(msg, PCIEAUDIT_A_GROUP_MEMBER, 0, 4, 2);
	nla_put_u32(msg, PCIEAUDIT_A_GROUP_OTHER_MEMBERS, 1);
	assert_int_equal(pa_decode_group(msg, &more), 0);
	nlmsg_free(msg);
	assert_int_equal(g.other_members, 0);
	assert_int_equal(pa_group_append(&g, &more), 0);
	assert_int_equal(g.nmembers, 3);
	assert_int_equal(g.members[0].devfn, 0);
	assert_int_equal(g.members[2].devfn, 2);
	assert_int_equal(g.other_members, 1);
	assert_int_equal(more.nmembers, 0);
	pa_group_clear(&g);
}

static void group_malformed(void **state)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_GROUP_GET, 1, 0);
	struct nlattr *nest;
	struct pa_group g;

	(void)state;
	test_put_addr(msg, PCIEAUDIT_A_GROUP_MEMBER, 0, 4, 1);
	assert_int_equal(pa_decode_group(msg, &g), -EBADMSG);	/* no ID */
	nlmsg_free(msg);

	msg = test_genl_msg(PCIEAUDIT_CMD_GROUP_GET, 1, 0);
	nla_put_u32(msg, PCIEAUDIT_A_GROUP_ID, 3);
	test_put_addr(msg, PCIEAUDIT_A_GROUP_MEMBER, 0, 4, 1);
	nest = nla_nest_start(msg, PCIEAUDIT_A_GROUP_MEMBER);
	nla_put_u32(msg, PCIEAUDIT_A_ADDR_DOMAIN, 0);
	nla_nest_end(msg, nest);
	/* The second member lacks bus and devfn; the first must not leak. */
	assert_int_equal(pa_decode_group(msg, &g), -EBADMSG);
	nlmsg_free(msg);
}

static struct nl_msg *info_msg(bool with_iommu)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_INFO_GET, 1, 0);

	nla_put_string(msg, PCIEAUDIT_A_INFO_MODULE_VERSION, "0.2.0");
	nla_put_string(msg, PCIEAUDIT_A_INFO_KERNEL_RELEASE, "6.1.0-28-amd64");
	nla_put_u32(msg, PCIEAUDIT_A_INFO_FEATURES,
		    PCIEAUDIT_F_IOMMU_API | PCIEAUDIT_F_PCI_ATS);
	if (with_iommu) {
		nla_put_u32(msg, PCIEAUDIT_A_INFO_IOMMU_DEF_MODE,
			    PCIEAUDIT_IOMMU_MODE_PASSTHROUGH);
		nla_put_u32(msg, PCIEAUDIT_A_INFO_IOMMU_STRICT,
			    PCIEAUDIT_IOMMU_STRICT_STRICT);
		nla_put_u32(msg, PCIEAUDIT_A_INFO_IOMMU_STRICT_SOURCE,
			    PCIEAUDIT_SOURCE_DERIVED);
	}
	nla_put_u32(msg, PCIEAUDIT_A_INFO_DEVICE_COUNT, 31);
	nla_put_u32(msg, PCIEAUDIT_A_INFO_GROUP_COUNT, 9);
	/* Optional: a module before it does not send it. */
	if (with_iommu)
		nla_put_string(msg, PCIEAUDIT_A_INFO_P2P_RULES,
			       "Linux 6.1 + 0ba76b19fd4c");
	return msg;
}

static void info(void **state)
{
	struct nl_msg *msg = info_msg(true);
	struct pa_info in;

	(void)state;
	assert_int_equal(pa_decode_info(msg, &in), 0);
	nlmsg_free(msg);
	assert_string_equal(in.module_version, "0.2.0");
	assert_string_equal(in.kernel_release, "6.1.0-28-amd64");
	assert_int_equal(in.features, PCIEAUDIT_F_IOMMU_API | PCIEAUDIT_F_PCI_ATS);
	assert_int_equal(in.iommu_def_mode, PCIEAUDIT_IOMMU_MODE_PASSTHROUGH);
	assert_int_equal(in.iommu_strict, PCIEAUDIT_IOMMU_STRICT_STRICT);
	assert_int_equal(in.device_count, 31);
	assert_int_equal(in.group_count, 9);
	assert_string_equal(in.p2p_rules, "Linux 6.1 + 0ba76b19fd4c");
	pa_info_clear(&in);

	msg = info_msg(false);
	assert_int_equal(pa_decode_info(msg, &in), 0);
	nlmsg_free(msg);
	assert_int_equal(in.iommu_def_mode, 0);
	assert_int_equal(in.iommu_strict, 0);
	assert_null(in.p2p_rules);
	pa_info_clear(&in);
}

static void info_missing_required(void **state)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_INFO_GET, 1, 0);
	struct pa_info in;

	(void)state;
	nla_put_string(msg, PCIEAUDIT_A_INFO_MODULE_VERSION, "0.2.0");
	nla_put_u32(msg, PCIEAUDIT_A_INFO_FEATURES, 0);
	nla_put_u32(msg, PCIEAUDIT_A_INFO_DEVICE_COUNT, 1);
	nla_put_u32(msg, PCIEAUDIT_A_INFO_GROUP_COUNT, 1);
	assert_int_equal(pa_decode_info(msg, &in), -EBADMSG);
	nlmsg_free(msg);
}

/*
 * Every attribute the kernel sends is in the reply policy, generated from
 * the spec, so a wrong size is corruption. The hand-written policy lacked
 * IOMMU_STRICT_SOURCE, and took any size of it.
 */
static void info_strict_source_size(void **state)
{
	struct nl_msg *msg = info_msg(false);
	struct pa_info in;

	(void)state;
	nla_put_u16(msg, PCIEAUDIT_A_INFO_IOMMU_STRICT_SOURCE,
		    PCIEAUDIT_SOURCE_DERIVED);
	assert_int_equal(pa_decode_info(msg, &in), -EBADMSG);
	nlmsg_free(msg);
}

/* An NLMSG_ERROR as the kernel builds it: nlmsgerr, the request's payload
 * unless capped, then the extended ack attributes. */
static struct nl_msg *error_msg(int error, bool capped, const char *text)
{
	struct nl_msg *req = test_genl_msg(PCIEAUDIT_CMD_DEV_GET, 7, 0);
	struct nl_msg *msg = nlmsg_alloc_simple(NLMSG_ERROR,
		NLM_F_ACK_TLVS | (capped ? NLM_F_CAPPED : 0));
	struct nlmsghdr *rq;
	struct nlmsgerr e = { .error = error };

	test_put_addr(req, PCIEAUDIT_A_DEV_ADDR, 0, 0x99, 0);
	rq = nlmsg_hdr(req);
	e.msg = *rq;
	nlmsg_append(msg, &e, sizeof(e), NLMSG_ALIGNTO);
	if (!capped)
		nlmsg_append(msg, nlmsg_data(rq), (size_t)nlmsg_datalen(rq),
			     NLMSG_ALIGNTO);
	nla_put_u32(msg, NLMSGERR_ATTR_OFFS, 20);
	if (text)
		nla_put_string(msg, NLMSGERR_ATTR_MSG, text);
	nlmsg_free(req);
	return msg;
}

static void extack(void **state)
{
	char buf[64];
	struct nl_msg *msg;

	(void)state;
	msg = error_msg(-ENODEV, false, "no PCI function there");
	pa_decode_extack(nlmsg_hdr(msg), buf, sizeof(buf));
	assert_string_equal(buf, "no PCI function there");
	nlmsg_free(msg);

	msg = error_msg(-ENODEV, true, "capped");
	pa_decode_extack(nlmsg_hdr(msg), buf, sizeof(buf));
	assert_string_equal(buf, "capped");
	nlmsg_free(msg);

	msg = error_msg(-EINVAL, false, NULL);
	pa_decode_extack(nlmsg_hdr(msg), buf, sizeof(buf));
	assert_string_equal(buf, "");
	nlmsg_free(msg);

	/* Without NLM_F_ACK_TLVS there are no attributes to look for. */
	msg = error_msg(-EINVAL, false, "ignored");
	nlmsg_hdr(msg)->nlmsg_flags &= (uint16_t)~NLM_F_ACK_TLVS;
	pa_decode_extack(nlmsg_hdr(msg), buf, sizeof(buf));
	assert_string_equal(buf, "");
	nlmsg_free(msg);

	/* An echoed length beyond the message must not be followed. */
	msg = error_msg(-EINVAL, false, "ignored");
	((struct nlmsgerr *)nlmsg_data(nlmsg_hdr(msg)))->msg.nlmsg_len = 0xfffffff0;
	pa_decode_extack(nlmsg_hdr(msg), buf, sizeof(buf));
	assert_string_equal(buf, "");
	nlmsg_free(msg);

	/* Truncated to fit a small buffer. */
	msg = error_msg(-ENODEV, true, "a rather long message from the kernel");
	pa_decode_extack(nlmsg_hdr(msg), buf, 8);
	assert_string_equal(buf, "a rathe");
	nlmsg_free(msg);
}

static struct nl_msg *done_msg(int error, const char *text)
{
	struct nl_msg *msg = nlmsg_alloc_simple(NLMSG_DONE, NLM_F_MULTI |
		(text ? NLM_F_ACK_TLVS : 0));

	nlmsg_append(msg, &error, sizeof(error), NLMSG_ALIGNTO);
	if (text)
		nla_put_string(msg, NLMSGERR_ATTR_MSG, text);
	return msg;
}

static void done(void **state)
{
	struct nl_msg *msg;
	char buf[64];

	(void)state;
	msg = done_msg(0, NULL);
	assert_int_equal(pa_decode_done_error(nlmsg_hdr(msg)), 0);
	nlmsg_free(msg);

	msg = done_msg(-EMSGSIZE, "device too big for a message");
	assert_int_equal(pa_decode_done_error(nlmsg_hdr(msg)), -EMSGSIZE);
	pa_decode_extack(nlmsg_hdr(msg), buf, sizeof(buf));
	assert_string_equal(buf, "device too big for a message");
	nlmsg_free(msg);

	/* Old kernels sent NLMSG_DONE without a payload. */
	msg = nlmsg_alloc_simple(NLMSG_DONE, NLM_F_MULTI);
	assert_int_equal(pa_decode_done_error(nlmsg_hdr(msg)), 0);
	nlmsg_free(msg);
}

/* ---- P2P replies ------------------------------------------------------------ */

/* What a PAIR nest holds; the tests below drop or spoil one part each. */
struct pair_spec {
	uint8_t client_bus;
	uint32_t status;
	bool kernel_distance;		/* put PAIR_KERNEL_DISTANCE */
	uint32_t agreement;		/* put PAIR_AGREEMENT unless 0 */
	bool kernel_differs;		/* the kernel's distance 2, not 4 */
	bool no_client, no_distance, no_map;
	bool host_bridges;
	int bad_type;			/* appended with bad_len zero bytes */
	size_t bad_len;
	bool cut_tail;			/* a cut attribute at the end */
};

static void spoil(struct nl_msg *msg, const struct pair_spec *ps)
{
	const unsigned char zeros[8] = { 0 };
	const struct nlattr cut = { .nla_len = 12, .nla_type = 10 };

	if (ps->bad_type)
		nla_put(msg, ps->bad_type, (int)ps->bad_len, zeros);
	if (ps->cut_tail)
		nlmsg_append(msg, (void *)&cut, sizeof(cut), NLMSG_ALIGNTO);
}

static void put_pair(struct nl_msg *msg, const struct pair_spec *ps)
{
	struct nlattr *nest = nla_nest_start(msg, PCIEAUDIT_A_P2P_PAIR |
					     NLA_F_NESTED);

	if (!ps->no_client)
		test_put_addr(msg, PCIEAUDIT_A_PAIR_CLIENT, 0, ps->client_bus, 0);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_KERNEL_STATUS, ps->status);
	if (ps->kernel_distance)
		nla_put_s32(msg, PCIEAUDIT_A_PAIR_KERNEL_DISTANCE,
			    ps->kernel_differs ? 2 : 4);
	if (ps->agreement)
		nla_put_u32(msg, PCIEAUDIT_A_PAIR_AGREEMENT, ps->agreement);
	if (!ps->no_distance)
		nla_put_s32(msg, PCIEAUDIT_A_PAIR_DISTANCE, 4);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_PATH_LENGTH, 4);
	if (!ps->no_map)
		nla_put_u32(msg, PCIEAUDIT_A_PAIR_MAP,
			    PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_PATH, PCIEAUDIT_P2P_PATH_ACS_REDIRECT);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_HOST_RULE, PCIEAUDIT_P2P_HOST_CPU);
	test_put_addr(msg, PCIEAUDIT_A_PAIR_COMMON, 0, 1, 0);
	/* Interleaved on purpose: each list keeps its own order. */
	test_put_addr(msg, PCIEAUDIT_A_PAIR_HOP_PROVIDER, 0, 3, 0);
	test_put_addr(msg, PCIEAUDIT_A_PAIR_REDIRECT, 0, 2, 0x08);
	test_put_addr(msg, PCIEAUDIT_A_PAIR_HOP_CLIENT, 0, ps->client_bus, 0);
	test_put_addr(msg, PCIEAUDIT_A_PAIR_HOP_PROVIDER, 0, 2, 0x00);
	test_put_addr(msg, PCIEAUDIT_A_PAIR_HOP_CLIENT, 0, 2, 0x08);
	test_put_addr(msg, PCIEAUDIT_A_PAIR_REDIRECT, 0, 2, 0x00);
	if (ps->host_bridges) {
		nla_put_u32(msg, PCIEAUDIT_A_PAIR_HOST_BRIDGE_PROVIDER, 0x10221480);
		nla_put_u32(msg, PCIEAUDIT_A_PAIR_HOST_BRIDGE_CLIENT, 0x10221481);
	}
	spoil(msg, ps);
	nla_nest_end(msg, nest);
}

static const struct pair_spec good_pair = {
	.client_bus = 4, .status = PCIEAUDIT_P2P_KERNEL_ANSWERED,
	.kernel_distance = true, .host_bridges = true,
};

/* A do reply to provider 03:00.0 with clients 04:00.0 and 05:00.0. */
static struct nl_msg *p2p_do_msg(void)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_P2P_GET, 1, 0);
	struct pair_spec second = good_pair;

	test_put_addr(msg, PCIEAUDIT_A_P2P_PROVIDER, 0, 3, 0);
	nla_put_s32(msg, PCIEAUDIT_A_P2P_KERNEL_DISTANCE, 8);
	put_pair(msg, &good_pair);
	second.client_bus = 5;
	second.status = PCIEAUDIT_P2P_KERNEL_NOT_BUILT;
	second.kernel_distance = false;
	second.host_bridges = false;
	put_pair(msg, &second);
	return msg;
}

static int decode_p2p_and_free(struct nl_msg *msg, struct pa_p2p *p2p)
{
	int err = pa_decode_p2p(msg, p2p);

	nlmsg_free(msg);
	return err;
}

static void assert_addr(const struct pa_addr *a, uint8_t bus, uint8_t devfn)
{
	assert_int_equal(a->domain, 0);
	assert_int_equal(a->bus, bus);
	assert_int_equal(a->devfn, devfn);
}

static void p2p_do_reply(void **state)
{
	struct pa_p2p p2p;
	const struct pa_p2p_pair *p;

	(void)state;
	assert_int_equal(decode_p2p_and_free(p2p_do_msg(), &p2p), 0);
	assert_true(p2p.has_kernel_distance);
	assert_int_equal(p2p.kernel_distance, 8);
	assert_int_equal(p2p.npairs, 2);
	p = &p2p.pairs[0];
	assert_addr(&p->provider, 3, 0);
	assert_addr(&p->client, 4, 0);
	assert_int_equal(p->kernel_status, PCIEAUDIT_P2P_KERNEL_ANSWERED);
	assert_true(p->has_kernel_distance);
	assert_int_equal(p->kernel_distance, 4);
	assert_int_equal(p->distance, 4);
	assert_int_equal(p->path_length, 4);
	assert_int_equal(p->map, PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE);
	assert_int_equal(p->path, PCIEAUDIT_P2P_PATH_ACS_REDIRECT);
	assert_int_equal(p->host_rule, PCIEAUDIT_P2P_HOST_CPU);
	assert_true(p->has_common);
	assert_addr(&p->common, 1, 0);
	assert_int_equal(p->hops_provider.n, 2);
	assert_addr(&p->hops_provider.addrs[0], 3, 0);
	assert_addr(&p->hops_provider.addrs[1], 2, 0x00);
	assert_int_equal(p->hops_client.n, 2);
	assert_addr(&p->hops_client.addrs[0], 4, 0);
	assert_addr(&p->hops_client.addrs[1], 2, 0x08);
	/* The kernel's order, not sorted. */
	assert_int_equal(p->redirect.n, 2);
	assert_addr(&p->redirect.addrs[0], 2, 0x08);
	assert_addr(&p->redirect.addrs[1], 2, 0x00);
	assert_true(p->has_host_bridge_provider);
	assert_int_equal(p->host_bridge_provider, 0x10221480);
	assert_int_equal(p->host_bridge_client, 0x10221481);
	/* No PAIR_AGREEMENT (an older module): the same comparison. */
	assert_int_equal(p->agreement, PCIEAUDIT_P2P_AGREE);

	p = &p2p.pairs[1];
	assert_addr(&p->provider, 3, 0);
	assert_addr(&p->client, 5, 0);
	assert_int_equal(p->kernel_status, PCIEAUDIT_P2P_KERNEL_NOT_BUILT);
	assert_false(p->has_kernel_distance);
	assert_int_equal(p->agreement, 0);
	assert_false(p->has_host_bridge_provider);
	assert_false(p->has_host_bridge_client);
	pa_p2p_clear(&p2p);
}

/* One pair of a do reply to provider 03:00.0, as ps says. */
static uint32_t pair_agreement(const struct pair_spec *ps)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_P2P_GET, 1, 0);
	struct pa_p2p p2p;
	uint32_t agreement;

	test_put_addr(msg, PCIEAUDIT_A_P2P_PROVIDER, 0, 3, 0);
	put_pair(msg, ps);
	assert_int_equal(decode_p2p_and_free(msg, &p2p), 0);
	assert_int_equal(p2p.npairs, 1);
	agreement = p2p.pairs[0].agreement;
	pa_p2p_clear(&p2p);
	return agreement;
}

/* The module's word on agreement is kept; without it, the distances
 * decide; without the kernel's answer there is nothing to agree with. */
static void p2p_agreement(void **state)
{
	struct pair_spec ps = good_pair;

	(void)state;
	ps.agreement = PCIEAUDIT_P2P_AGREE;
	assert_int_equal(pair_agreement(&ps), PCIEAUDIT_P2P_AGREE);
	ps.agreement = PCIEAUDIT_P2P_DISAGREE;
	ps.kernel_differs = true;
	assert_int_equal(pair_agreement(&ps), PCIEAUDIT_P2P_DISAGREE);
	ps.agreement = 0;
	assert_int_equal(pair_agreement(&ps), PCIEAUDIT_P2P_DISAGREE);
	ps.kernel_differs = false;
	assert_int_equal(pair_agreement(&ps), PCIEAUDIT_P2P_AGREE);
	/* A value newer than this CLI stays as it is. */
	ps.agreement = 9;
	assert_int_equal(pair_agreement(&ps), 9);
	ps = good_pair;
	ps.status = PCIEAUDIT_P2P_KERNEL_WITHHELD_LOG;
	ps.kernel_distance = false;
	ps.agreement = PCIEAUDIT_P2P_AGREE;
	assert_int_equal(pair_agreement(&ps), 0);
}

/* A dump message: one pair, no distance over all clients, no common
 * bridge, and attributes newer than this CLI. */
static void p2p_dump_message(void **state)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_P2P_GET, 1, NLM_F_MULTI);
	struct nlattr *nest;
	struct pa_p2p p2p;

	(void)state;
	nla_put_u64(msg, 99, 1);
	test_put_addr(msg, PCIEAUDIT_A_P2P_PROVIDER, 0, 0x81, 0);
	nest = nla_nest_start(msg, PCIEAUDIT_A_P2P_PAIR | NLA_F_NESTED);
	test_put_addr(msg, PCIEAUDIT_A_PAIR_CLIENT, 0, 0x05, 1);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_KERNEL_STATUS,
		    PCIEAUDIT_P2P_KERNEL_WITHHELD_LOG);
	nla_put_s32(msg, PCIEAUDIT_A_PAIR_DISTANCE, -1);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_PATH_LENGTH, 5);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_MAP, PCIEAUDIT_P2P_MAP_NOT_SUPPORTED);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_PATH,
		    PCIEAUDIT_P2P_PATH_NO_COMMON_UPSTREAM);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_HOST_RULE, PCIEAUDIT_P2P_HOST_REFUSED);
	nla_put_string(msg, 77, "newer");
	test_put_addr(msg, PCIEAUDIT_A_PAIR_HOP_PROVIDER, 0, 0x81, 0);
	test_put_addr(msg, PCIEAUDIT_A_PAIR_HOP_PROVIDER, 0, 0x80, 0x08);
	nla_nest_end(msg, nest);
	assert_int_equal(decode_p2p_and_free(msg, &p2p), 0);
	assert_false(p2p.has_kernel_distance);
	assert_int_equal(p2p.npairs, 1);
	assert_addr(&p2p.pairs[0].provider, 0x81, 0);
	assert_addr(&p2p.pairs[0].client, 0x05, 1);
	assert_int_equal(p2p.pairs[0].distance, -1);
	assert_false(p2p.pairs[0].has_common);
	assert_int_equal(p2p.pairs[0].hops_provider.n, 2);
	assert_int_equal(p2p.pairs[0].hops_client.n, 0);
	assert_int_equal(p2p.pairs[0].redirect.n, 0);
	pa_p2p_clear(&p2p);
}

static void p2p_expect_bad(struct nl_msg *msg)
{
	struct pa_p2p p2p = { .npairs = 42 };

	assert_int_equal(decode_p2p_and_free(msg, &p2p), -EBADMSG);
	assert_int_equal(p2p.npairs, 42);	/* output untouched */
}

static struct nl_msg *p2p_msg_with(const struct pair_spec *ps)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_P2P_GET, 1, 0);

	test_put_addr(msg, PCIEAUDIT_A_P2P_PROVIDER, 0, 3, 0);
	put_pair(msg, &good_pair);	/* a good pair first: no leak after it */
	put_pair(msg, ps);
	return msg;
}

static void p2p_missing_parts(void **state)
{
	struct pair_spec ps;
	struct nl_msg *msg;

	(void)state;
	/* No PROVIDER. */
	msg = test_genl_msg(PCIEAUDIT_CMD_P2P_GET, 1, 0);
	put_pair(msg, &good_pair);
	p2p_expect_bad(msg);
	/* No PAIR. */
	msg = test_genl_msg(PCIEAUDIT_CMD_P2P_GET, 1, 0);
	test_put_addr(msg, PCIEAUDIT_A_P2P_PROVIDER, 0, 3, 0);
	p2p_expect_bad(msg);

	ps = good_pair;
	ps.no_client = true;
	p2p_expect_bad(p2p_msg_with(&ps));
	ps = good_pair;
	ps.no_distance = true;
	p2p_expect_bad(p2p_msg_with(&ps));
	ps = good_pair;
	ps.no_map = true;
	p2p_expect_bad(p2p_msg_with(&ps));
	/* The kernel answered, but its distance is missing. */
	ps = good_pair;
	ps.kernel_distance = false;
	p2p_expect_bad(p2p_msg_with(&ps));
}

/* A complete PAIR plus one attribute of the wrong size. */
static void p2p_pair_wrong_size(int type, size_t len)
{
	struct pair_spec ps = good_pair;

	ps.bad_type = type;
	ps.bad_len = len;
	p2p_expect_bad(p2p_msg_with(&ps));
}

static void p2p_wrong_sizes(void **state)
{
	struct nl_msg *msg;

	(void)state;
	p2p_pair_wrong_size(PCIEAUDIT_A_PAIR_KERNEL_STATUS, 2);
	p2p_pair_wrong_size(PCIEAUDIT_A_PAIR_KERNEL_DISTANCE, 8);
	p2p_pair_wrong_size(PCIEAUDIT_A_PAIR_DISTANCE, 1);
	p2p_pair_wrong_size(PCIEAUDIT_A_PAIR_PATH_LENGTH, 8);
	p2p_pair_wrong_size(PCIEAUDIT_A_PAIR_MAP, 1);
	p2p_pair_wrong_size(PCIEAUDIT_A_PAIR_HOST_BRIDGE_CLIENT, 2);
	/* Address nests without their members: the lists are checked too. */
	p2p_pair_wrong_size(PCIEAUDIT_A_PAIR_HOP_CLIENT, 0);
	p2p_pair_wrong_size(PCIEAUDIT_A_PAIR_REDIRECT, 0);
	p2p_pair_wrong_size(PCIEAUDIT_A_PAIR_COMMON, 0);

	msg = test_genl_msg(PCIEAUDIT_CMD_P2P_GET, 1, 0);
	test_put_addr(msg, PCIEAUDIT_A_P2P_PROVIDER, 0, 3, 0);
	nla_put_u16(msg, PCIEAUDIT_A_P2P_KERNEL_DISTANCE, 1);
	put_pair(msg, &good_pair);
	p2p_expect_bad(msg);
}

static void p2p_spoiled_pair_is_the_cause(void **state)
{
	struct pa_p2p p2p;

	(void)state;
	/* The same messages, unspoiled, decode: the size is what fails. */
	assert_int_equal(decode_p2p_and_free(p2p_msg_with(&good_pair), &p2p), 0);
	assert_int_equal(p2p.npairs, 2);
	pa_p2p_clear(&p2p);
}

/* A complete PAIR followed by a cut attribute; a cut message. */
static void p2p_truncated(void **state)
{
	struct pair_spec ps = good_pair;
	struct nl_msg *msg;

	(void)state;
	ps.cut_tail = true;
	p2p_expect_bad(p2p_msg_with(&ps));

	msg = p2p_do_msg();
	nlmsg_hdr(msg)->nlmsg_len -= 4;
	p2p_expect_bad(msg);
}

static void p2p_corruption_never_crashes(void **state)
{
	struct nl_msg *good = p2p_do_msg();
	uint32_t len = nlmsg_hdr(good)->nlmsg_len;

	(void)state;
	for (uint32_t cut = NLMSG_HDRLEN; cut <= len; cut++) {
		struct nl_msg *msg = nlmsg_convert(nlmsg_hdr(good));
		struct pa_p2p p2p;
		int err;

		nlmsg_hdr(msg)->nlmsg_len = cut;
		err = decode_p2p_and_free(msg, &p2p);
		assert_true(err == 0 || err == -EBADMSG);
		if (!err)
			pa_p2p_clear(&p2p);
	}
	for (uint32_t i = sizeof(uint32_t); i < len; i++) {
		for (unsigned int v = 0; v < 256; v += 0x55) {
			struct nl_msg *msg = nlmsg_convert(nlmsg_hdr(good));
			struct pa_p2p p2p;
			int err;

			((unsigned char *)nlmsg_hdr(msg))[i] = (unsigned char)v;
			err = decode_p2p_and_free(msg, &p2p);
			assert_true(err == 0 || err == -EBADMSG);
			if (!err)
				pa_p2p_clear(&p2p);
		}
	}
	nlmsg_free(good);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(full_device),
		cmocka_unit_test(device_caps),
		cmocka_unit_test(device_caps_unknown),
		cmocka_unit_test(device_caps_malformed),
		cmocka_unit_test(passthru_from_module),
		cmocka_unit_test(passthru_unknown),
		cmocka_unit_test(passthru_malformed),
		cmocka_unit_test(minimal_device),
		cmocka_unit_test(link_history),
		cmocka_unit_test(unreadable_device),
		cmocka_unit_test(disconnected_and_newer_power_state),
		cmocka_unit_test(link_without_version2_registers),
		cmocka_unit_test(unknown_attributes_ignored),
		cmocka_unit_test(acs_control_at_load),
		cmocka_unit_test(missing_addr),
		cmocka_unit_test(addr_missing_member),
		cmocka_unit_test(wrong_attribute_sizes),
		cmocka_unit_test(wrong_size_inside_nest),
		cmocka_unit_test(unterminated_string),
		cmocka_unit_test(truncated_nest),
		cmocka_unit_test(nest_with_cut_tail),
		cmocka_unit_test(nests_missing_required_members),
		cmocka_unit_test(truncated_message),
		cmocka_unit_test(shorter_than_genl_header),
		cmocka_unit_test(corruption_never_crashes),
		cmocka_unit_test(group),
		cmocka_unit_test(group_continued),
		cmocka_unit_test(group_malformed),
		cmocka_unit_test(info),
		cmocka_unit_test(info_missing_required),
		cmocka_unit_test(info_strict_source_size),
		cmocka_unit_test(extack),
		cmocka_unit_test(done),
		cmocka_unit_test(p2p_do_reply),
		cmocka_unit_test(p2p_agreement),
		cmocka_unit_test(p2p_dump_message),
		cmocka_unit_test(p2p_missing_parts),
		cmocka_unit_test(p2p_wrong_sizes),
		cmocka_unit_test(p2p_spoiled_pair_is_the_cause),
		cmocka_unit_test(p2p_truncated),
		cmocka_unit_test(p2p_corruption_never_crashes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
