// SPDX-License-Identifier: GPL-2.0
/* Register decoding tables: ACS flags, link speeds and widths, and the
 * spellings of the UAPI's enums. */
#include "testutil.h"

#include <string.h>
#include <linux/pcieaudit.h>

#include "abi_names.h"
#include "acs.h"
#include "link.h"

static void acs_names_match_lspci(void **state)
{
	static const char *const lspci[PA_ACS_NFLAGS] = {
		"SrcValid", "TransBlk", "ReqRedir", "CmpltRedir",
		"UpstreamFwd", "EgressCtrl", "DirectTrans",
	};

	(void)state;
	for (unsigned int i = 0; i < PA_ACS_NFLAGS; i++)
		assert_string_equal(pa_acs_flag_names[i], lspci[i]);
}

static void acs_format(void **state)
{
	static const struct {
		uint16_t reg;
		const char *text;
	} cases[] = {
		{ 0x0000, "SrcValid- TransBlk- ReqRedir- CmpltRedir- UpstreamFwd- EgressCtrl- DirectTrans-" },
		{ 0x007f, "SrcValid+ TransBlk+ ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl+ DirectTrans+" },
		{ 0x001d, "SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-" },
		{ 0x0042, "SrcValid- TransBlk+ ReqRedir- CmpltRedir- UpstreamFwd- EgressCtrl- DirectTrans+" },
		/* Bits 8-15 of ACS Capability are the egress vector size. */
		{ 0xff80, "SrcValid- TransBlk- ReqRedir- CmpltRedir- UpstreamFwd- EgressCtrl- DirectTrans-" },
	};
	char buf[PA_ACS_TEXT_LEN];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		pa_acs_format(cases[i].reg, buf);
		assert_string_equal(buf, cases[i].text);
	}
}

static void acs_flag_bits(void **state)
{
	(void)state;
	assert_true(pa_acs_flag(0x04, 2));
	assert_false(pa_acs_flag(0x04, 1));
	assert_false(pa_acs_flag(0xffff, 7));	/* not an ACS flag */
}

static void speed_table(void **state)
{
	static const double gts[] = { 0, 2.5, 5, 8, 16, 32, 64, 0, 0 };

	(void)state;
	for (unsigned int code = 0; code < sizeof(gts) / sizeof(gts[0]); code++)
		assert_true(pa_link_speed_gts(code) == gts[code]);
	assert_true(pa_link_speed_gts(0xf) == 0);
}

static struct pa_link_state decode(uint32_t lnkcap, uint16_t lnksta,
				   bool has_ctl2, uint16_t lnkctl2)
{
	const struct pa_link regs = { .lnkcap = lnkcap, .lnksta = lnksta,
				      .has_lnkctl2 = has_ctl2, .lnkctl2 = lnkctl2 };
	struct pa_link_state st;

	pa_link_decode(&regs, &st);
	return st;
}

#define LNK(speed, width) ((uint32_t)(speed) | (uint32_t)(width) << 4)

static void link_full_speed(void **state)
{
	/* Upper LnkCap bits (ASPM, port number) must not leak in. */
	struct pa_link_state st = decode(0xff000000 | LNK(4, 16), 0x3000 | LNK(4, 16),
					 true, 0x0004);

	(void)state;
	assert_true(st.speed == 16);
	assert_true(st.max_speed == 16);
	assert_true(st.target_speed == 16);
	assert_int_equal(st.width, 16);
	assert_int_equal(st.max_width, 16);
	assert_false(st.downgraded);
}

static void link_downgrades(void **state)
{
	struct pa_link_state st;

	(void)state;
	st = decode(LNK(4, 16), LNK(3, 4), false, 0);	/* both */
	assert_true(st.speed == 8);
	assert_int_equal(st.width, 4);
	assert_true(st.target_speed == 0);
	assert_true(st.downgraded);

	st = decode(LNK(5, 8), LNK(1, 8), false, 0);	/* speed only */
	assert_true(st.speed == 2.5);
	assert_true(st.max_speed == 32);
	assert_true(st.downgraded);

	st = decode(LNK(2, 32), LNK(2, 1), false, 0);	/* width only */
	assert_int_equal(st.max_width, 32);
	assert_int_equal(st.width, 1);
	assert_true(st.downgraded);

	st = decode(LNK(3, 4), LNK(3, 4), false, 0);
	assert_false(st.downgraded);
}

static void link_target_hardwired_zero(void **state)
{
	/* Pre-r3.0 devices hardwire the target to 0: only 2.5GT/s, as lspci. */
	struct pa_link_state st = decode(LNK(1, 1), LNK(1, 1), true, 0x0000);

	(void)state;
	assert_true(st.target_speed == 2.5);
}

static void link_down_is_not_downgraded(void **state)
{
	/* An empty slot: width 0, speed field stale. */
	struct pa_link_state st = decode(LNK(4, 16), LNK(1, 0), true, 0x0004);

	(void)state;
	assert_int_equal(st.width, 0);
	assert_false(st.downgraded);
}

static void link_unknown_speeds(void **state)
{
	struct pa_link_state st;

	(void)state;
	/* A speed newer than the table: still compared by encoding. */
	st = decode(LNK(7, 16), LNK(6, 16), true, 0x0007);
	assert_true(st.max_speed == 0);
	assert_true(st.speed == 64);
	assert_true(st.target_speed == 0);
	assert_true(st.downgraded);

	st = decode(LNK(0, 1), LNK(0, 1), false, 0);	/* reserved encoding */
	assert_true(st.speed == 0);
	assert_true(st.max_speed == 0);
	assert_false(st.downgraded);
}

static void speed_text(void **state)
{
	char buf[PA_SPEED_TEXT_LEN];

	(void)state;
	pa_link_format_speed(2.5, buf);
	assert_string_equal(buf, "2.5GT/s");
	pa_link_format_speed(16, buf);
	assert_string_equal(buf, "16GT/s");
	pa_link_format_speed(0, buf);
	assert_string_equal(buf, "unknown");
}

static void pcie_type_names(void **state)
{
	static const char *const names[] = {
		"endpoint", "legacy_endpoint", NULL, NULL, "root_port",
		"upstream_port", "downstream_port", "pcie_to_pci_bridge",
		"pci_to_pcie_bridge", "rc_endpoint", "rc_event_collector", NULL,
	};

	(void)state;
	for (int type = 0; type < (int)(sizeof(names) / sizeof(names[0])); type++) {
		if (names[type])
			assert_string_equal(pa_pcie_type_name(type), names[type]);
		else
			assert_null(pa_pcie_type_name(type));
	}
	assert_null(pa_pcie_type_name(-1));
	assert_null(pa_pcie_type_name(0xff));
}

static void domain_type_names(void **state)
{
	(void)state;
	assert_null(pa_domain_type_name(0));
	assert_string_equal(pa_domain_type_name(PCIEAUDIT_DOMAIN_BLOCKED), "blocked");
	assert_string_equal(pa_domain_type_name(PCIEAUDIT_DOMAIN_IDENTITY), "identity");
	assert_string_equal(pa_domain_type_name(PCIEAUDIT_DOMAIN_UNMANAGED), "unmanaged");
	assert_string_equal(pa_domain_type_name(PCIEAUDIT_DOMAIN_DMA), "DMA");
	assert_string_equal(pa_domain_type_name(PCIEAUDIT_DOMAIN_DMA_FQ), "DMA-FQ");
	assert_string_equal(pa_domain_type_name(PCIEAUDIT_DOMAIN_UNKNOWN), "unknown");
	assert_string_equal(pa_domain_type_name(PCIEAUDIT_DOMAIN_SVA), "unknown");
	assert_string_equal(pa_domain_type_name(PCIEAUDIT_DOMAIN_PLATFORM), "unknown");
	assert_string_equal(pa_domain_type_name(PCIEAUDIT_DOMAIN_NESTED), "unknown");
	assert_string_equal(pa_domain_type_name(1000), "unknown");
}

static void other_enum_names(void **state)
{
	(void)state;
	assert_string_equal(pa_source_name(PCIEAUDIT_SOURCE_KERNEL), "kernel");
	assert_string_equal(pa_source_name(PCIEAUDIT_SOURCE_DERIVED), "derived");
	assert_null(pa_source_name(0));
	assert_null(pa_source_name(3));
	assert_string_equal(pa_iommu_mode_name(PCIEAUDIT_IOMMU_MODE_PASSTHROUGH),
			    "passthrough");
	assert_string_equal(pa_iommu_mode_name(PCIEAUDIT_IOMMU_MODE_TRANSLATED),
			    "translated");
	assert_null(pa_iommu_mode_name(PCIEAUDIT_IOMMU_MODE_UNKNOWN));
	assert_null(pa_iommu_mode_name(0));
	assert_string_equal(pa_iommu_strict_name(PCIEAUDIT_IOMMU_STRICT_STRICT),
			    "strict");
	assert_string_equal(pa_iommu_strict_name(PCIEAUDIT_IOMMU_STRICT_LAZY), "lazy");
	assert_null(pa_iommu_strict_name(PCIEAUDIT_IOMMU_STRICT_UNKNOWN));
	assert_null(pa_iommu_strict_name(77));
}

static void feature_names(void **state)
{
	static const char *const names[PA_NFEATURES] = {
		"p2pdma", "iommu_api", "iommu_present", "pci_iov", "pci_ats",
	};

	(void)state;
	for (unsigned int i = 0; i < PA_NFEATURES; i++) {
		assert_string_equal(pa_feature_names[i].name, names[i]);
		assert_int_equal(pa_feature_names[i].bit, 1u << i);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(acs_names_match_lspci),
		cmocka_unit_test(acs_format),
		cmocka_unit_test(acs_flag_bits),
		cmocka_unit_test(speed_table),
		cmocka_unit_test(link_full_speed),
		cmocka_unit_test(link_downgrades),
		cmocka_unit_test(link_target_hardwired_zero),
		cmocka_unit_test(link_down_is_not_downgraded),
		cmocka_unit_test(link_unknown_speeds),
		cmocka_unit_test(speed_text),
		cmocka_unit_test(pcie_type_names),
		cmocka_unit_test(domain_type_names),
		cmocka_unit_test(other_enum_names),
		cmocka_unit_test(feature_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
