// SPDX-License-Identifier: GPL-2.0
/*
 * monitor's events from a fake kernel: the MON_EVENT messages the module
 * sends, built here attribute by attribute, decoded and printed. QEMU
 * cannot change a link's speed or width, nor set LBMS or LABS; these cover
 * what the VM test (tests/monitor) cannot.
 */
#include "testutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "link_history.h"
#include "aer.h"
#include "monitor_event.h"

/* LnkCap with DLLLA reporting, 16GT/s x16. */
#define CAP (TEST_LINK(4, 16) | PCI_EXP_LNKCAP_DLLLARC)
#define UP(speed, width) (TEST_LINK(speed, width) | PCI_EXP_LNKSTA_DLLLA)

static struct nl_msg *event(uint32_t kind, uint32_t source, uint64_t seq,
			    bool link, uint16_t old, uint16_t now)
{
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_MON_EVENT, 0, 0);

	/* 2026-12-01T11:30:02.417Z */
	nla_put_u64(msg, PCIEAUDIT_A_MON_SEQ, seq);
	nla_put_u64(msg, PCIEAUDIT_A_MON_TIME_NS, 1796124602417000000ull);
	nla_put_u32(msg, PCIEAUDIT_A_MON_EVENT, kind);
	nla_put_u32(msg, PCIEAUDIT_A_MON_SOURCE, source);
	test_put_addr(msg, PCIEAUDIT_A_MON_ADDR, 0, 0x41, 0x00);
	if (link) {
		nla_put_u32(msg, PCIEAUDIT_A_MON_LNKCAP, CAP);
		nla_put_u16(msg, PCIEAUDIT_A_MON_LNKSTA_OLD, old);
		nla_put_u16(msg, PCIEAUDIT_A_MON_LNKSTA, now);
	} else if (kind == PCIEAUDIT_MON_ACS) {
		nla_put_u16(msg, PCIEAUDIT_A_MON_ACS_CTRL_OLD, old);
		nla_put_u16(msg, PCIEAUDIT_A_MON_ACS_CTRL, now);
	}
	return msg;
}

static char *line(struct nl_msg *msg, bool json)
{
	struct pa_mon_event ev;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	assert_int_equal(pa_mon_decode(msg, &ev), 0);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	pa_mon_print(f, &ev, json);
	fclose(f);
	nlmsg_free(msg);
	return buf;
}

static void expect(struct nl_msg *msg, bool json, const char *want)
{
	char *got = line(msg, json);

	assert_string_equal(got, want);
	free(got);
}

static void link_events(void **state)
{
	(void)state;
	/* Speed down: the Gen1 fallback of NVIDIA/open-gpu-kernel-modules#1010. */
	expect(event(PCIEAUDIT_MON_LINK, PCIEAUDIT_MON_SRC_SAMPLER, 7, true,
		     UP(4, 16), UP(1, 16)), false,
	       "2026-12-01T11:30:02.417Z 0000:41:00.0 link up 2.5GT/s x16 (was up 16GT/s x16) [sampler] seq 7\n");
	/* Width down, with the bandwidth-change bits set by the port. */
	expect(event(PCIEAUDIT_MON_LINK, PCIEAUDIT_MON_SRC_SAMPLER, 8, true,
		     UP(4, 16), UP(4, 8) | PCI_EXP_LNKSTA_LBMS | PCI_EXP_LNKSTA_LABS),
	       false,
	       "2026-12-01T11:30:02.417Z 0000:41:00.0 link up 16GT/s x8 LBMS LABS (was up 16GT/s x16) [sampler] seq 8\n");
	/* DLLLA drops: down whatever the stale speed and width say. */
	expect(event(PCIEAUDIT_MON_LINK, PCIEAUDIT_MON_SRC_SAMPLER, 9, true,
		     UP(4, 16), TEST_LINK(4, 16)), false,
	       "2026-12-01T11:30:02.417Z 0000:41:00.0 link down (was up 16GT/s x16) [sampler] seq 9\n");
	expect(event(PCIEAUDIT_MON_LINK, PCIEAUDIT_MON_SRC_SAMPLER, 10, true,
		     UP(4, 16), UP(2, 4) | PCI_EXP_LNKSTA_LBMS), true,
	       "{\"time\":\"2026-12-01T11:30:02.417Z\",\"seq\":10,\"event\":\"link\","
	       "\"source\":\"sampler\",\"bdf\":\"0000:41:00.0\","
	       "\"link\":{\"up\":true,\"speed_gts\":5.0,\"width\":4,\"lbms\":true,\"labs\":false},"
	       "\"was\":{\"up\":true,\"speed_gts\":16.0,\"width\":16,\"lbms\":false,\"labs\":false},"
	       "\"lnksta\":\"0x6042\",\"lnksta_was\":\"0x2104\"}\n");
}

static void other_events(void **state)
{
	(void)state;
	expect(event(PCIEAUDIT_MON_ADDED, PCIEAUDIT_MON_SRC_BUS_NOTIFIER, 1,
		     false, 0, 0), false,
	       "2026-12-01T11:30:02.417Z 0000:41:00.0 added [bus-notifier] seq 1\n");
	expect(event(PCIEAUDIT_MON_REMOVED, PCIEAUDIT_MON_SRC_BUS_NOTIFIER, 2,
		     false, 0, 0), true,
	       "{\"time\":\"2026-12-01T11:30:02.417Z\",\"seq\":2,\"event\":\"removed\","
	       "\"source\":\"bus-notifier\",\"bdf\":\"0000:41:00.0\"}\n");
	expect(event(PCIEAUDIT_MON_ACS, PCIEAUDIT_MON_SRC_SAMPLER, 3, false,
		     0x1d, 0x1c), false,
	       "2026-12-01T11:30:02.417Z 0000:41:00.0 acs-changed ctrl 0x001c (was 0x001d) [sampler] seq 3\n");
	/* Where the kernel's tracepoints prompted the read. */
	expect(event(PCIEAUDIT_MON_LINK, PCIEAUDIT_MON_SRC_PCI_HP_EVENT, 5, true,
		     TEST_LINK(1, 1), UP(1, 1)), false,
	       "2026-12-01T11:30:02.417Z 0000:41:00.0 link up 2.5GT/s x1 (was down) [pci_hp_event] seq 5\n");
	expect(event(PCIEAUDIT_MON_LINK, PCIEAUDIT_MON_SRC_PCIE_LINK_EVENT, 6,
		     false, 0, 0), true,
	       "{\"time\":\"2026-12-01T11:30:02.417Z\",\"seq\":6,\"event\":\"link\","
	       "\"source\":\"pcie_link_event\",\"bdf\":\"0000:41:00.0\"}\n");
	/* A kernel without GENL_MCAST_CAP_SYS_ADMIN sends no registers. */
	expect(event(PCIEAUDIT_MON_LINK, PCIEAUDIT_MON_SRC_SAMPLER, 4, false,
		     0, 0), false,
	       "2026-12-01T11:30:02.417Z 0000:41:00.0 link [sampler] seq 4\n");
}

static void malformed(void **state)
{
	struct pa_mon_event ev;
	struct nl_msg *msg = test_genl_msg(PCIEAUDIT_CMD_MON_EVENT, 0, 0);

	(void)state;
	/* No address. */
	nla_put_u64(msg, PCIEAUDIT_A_MON_SEQ, 1);
	nla_put_u64(msg, PCIEAUDIT_A_MON_TIME_NS, 1);
	nla_put_u32(msg, PCIEAUDIT_A_MON_EVENT, PCIEAUDIT_MON_ADDED);
	nla_put_u32(msg, PCIEAUDIT_A_MON_SOURCE, PCIEAUDIT_MON_SRC_BUS_NOTIFIER);
	assert_int_equal(pa_mon_decode(msg, &ev), -EBADMSG);
	nlmsg_free(msg);
	/* A 32-bit sequence number. */
	msg = test_genl_msg(PCIEAUDIT_CMD_MON_EVENT, 0, 0);
	nla_put_u32(msg, PCIEAUDIT_A_MON_SEQ, 1);
	assert_int_equal(pa_mon_decode(msg, &ev), -EBADMSG);
	nlmsg_free(msg);
}

static void resync(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	pa_mon_print_resync(f, 1796124602417000000ull, "ENOBUFS", false);
	pa_mon_print_resync(f, 1796124602417000000ull, "ENOBUFS", true);
	fclose(f);
	assert_string_equal(buf,
		"2026-12-01T11:30:02.417Z resync: events were lost (ENOBUFS); 'pcieaudit-cli report' shows the state now\n"
		"{\"time\":\"2026-12-01T11:30:02.417Z\",\"event\":\"resync\",\"reason\":\"ENOBUFS\"}\n");
	free(buf);
}

static void aer_deltas(void **state)
{
	const struct pa_addr a = { .bus = 0x41 };
	struct pa_aer p = { .state = PA_AER_KNOWN, .cor = 10, .nonfatal = 1 };
	struct pa_aer n = { .state = PA_AER_KNOWN, .cor = 13, .nonfatal = 1, .fatal = 0 };
	struct pa_aer u = { .state = PA_AER_UNKNOWN };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_true(pa_mon_print_aer(f, 1796124602417000000ull, &a, &p, &n, false));
	assert_true(pa_mon_print_aer(f, 1796124602417000000ull, &a, &p, &n, true));
	/* Nothing new, unknown, or lower (a reboot): no line. */
	assert_false(pa_mon_print_aer(f, 0, &a, &n, &n, false));
	assert_false(pa_mon_print_aer(f, 0, &a, &u, &n, false));
	assert_false(pa_mon_print_aer(f, 0, &a, &n, &p, false));
	fclose(f);
	assert_string_equal(buf,
		"2026-12-01T11:30:02.417Z 0000:41:00.0 aer correctable +3 nonfatal +0 fatal +0 (now 13, 1, 0) [sysfs]\n"
		"{\"time\":\"2026-12-01T11:30:02.417Z\",\"event\":\"aer\",\"source\":\"sysfs\","
		"\"bdf\":\"0000:41:00.0\",\"correctable\":3,\"nonfatal\":0,\"fatal\":0,"
		"\"correctable_total\":13,\"nonfatal_total\":1,\"fatal_total\":0}\n");
	free(buf);

	/* By type, as aer_dev_* name them: what rose, and by how much. */
	assert_int_equal(pa_aer_parse_types(PA_AER_DEV_COR, "RxErr 4\nBadTLP 6\nTOTAL_ERR_COR 10\n",
					    &p.cor, &p, NULL), 0);
	assert_int_equal(pa_aer_parse_types(PA_AER_DEV_COR, "RxErr 4\nBadTLP 9\nTOTAL_ERR_COR 13\n",
					    &n.cor, &n, NULL), 0);
	assert_int_equal(pa_aer_parse_types(PA_AER_DEV_NONFATAL, "CmpltTO 0\nTOTAL_ERR_NONFATAL 1\n",
					    &p.nonfatal, &p, NULL), 0);
	assert_int_equal(pa_aer_parse_types(PA_AER_DEV_NONFATAL, "CmpltTO 1\nTOTAL_ERR_NONFATAL 2\n",
					    &n.nonfatal, &n, NULL), 0);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_true(pa_mon_print_aer(f, 1796124602417000000ull, &a, &p, &n, false));
	assert_true(pa_mon_print_aer(f, 1796124602417000000ull, &a, &p, &n, true));
	fclose(f);
	assert_string_equal(buf,
		"2026-12-01T11:30:02.417Z 0000:41:00.0 aer correctable +3 nonfatal +1 fatal +0 (now 13, 2, 0) "
		"correctable: BadTLP +3 nonfatal: CmpltTO +1 [sysfs]\n"
		"{\"time\":\"2026-12-01T11:30:02.417Z\",\"event\":\"aer\",\"source\":\"sysfs\","
		"\"bdf\":\"0000:41:00.0\",\"correctable\":3,\"nonfatal\":1,\"fatal\":0,"
		"\"correctable_total\":13,\"nonfatal_total\":2,\"fatal_total\":0,"
		"\"types\":{\"correctable\":{\"BadTLP\":3},\"nonfatal\":{\"CmpltTO\":1},\"fatal\":{}}}\n");
	free(buf);
}

static void history_text(void **state)
{
	const struct pa_link_history h = {
		.since_ns = 1796124602417000000ull, .transitions = 1415,
		.below_ns = 12600000000000ull, .last_change_ns = 1796124722000000000ull,
		.has_min = true, .min_speed = 1, .min_width = 8, .interval_ms = 1000,
	};
	char buf[256];

	(void)state;
	pa_history_format(&h, buf, sizeof(buf));
	assert_string_equal(buf, "1415 transitions since 2026-12-01T11:30:02.417Z, last 2026-12-01T11:32:02.000Z; 12600.0 s below capability; slowest 2.5GT/s, narrowest x8 (sampled every 1000 ms)");
}

/* A link the sampler left unread: how long, and why now. */
static void history_text_not_sampled(void **state)
{
	const struct pa_link_history h = {
		.since_ns = 1796124602417000000ull, .interval_ms = 100,
		.unsampled_ns = 2500000000ull, .skip = PCIEAUDIT_HIST_SKIP_SUSPENDED,
	};
	char buf[256];

	(void)state;
	pa_history_format(&h, buf, sizeof(buf));
	assert_string_equal(buf, "0 transitions since 2026-12-01T11:30:02.417Z; 0.0 s below capability; 2.5 s not sampled; not sampled now (suspended, not woken) (sampled every 100 ms)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(link_events),
		cmocka_unit_test(other_events),
		cmocka_unit_test(malformed),
		cmocka_unit_test(resync),
		cmocka_unit_test(aer_deltas),
		cmocka_unit_test(history_text_not_sampled),
		cmocka_unit_test(history_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
