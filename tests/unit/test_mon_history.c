// SPDX-License-Identifier: GPL-2.0
/* The module's link-history rules (kmod/mon_history.c) on recorded register
 * sequences: each case is what the hardware showed, sample by sample. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "kernel_types.h"
#include "../../kmod/mon_history.h"

#define S	1000000000ull		/* ns */
/* LnkCap: speed code, width, and whether DLLLA is reported. */
#define CAP(speed, width, dll) ((speed) | ((width) << 4) | \
				((dll) ? PCI_EXP_LNKCAP_DLLLARC : 0))
/* LnkSta: speed code, width, Data Link Layer Link Active. */
#define STA(speed, width, up) ((speed) | ((width) << 4) | \
			       ((up) ? PCI_EXP_LNKSTA_DLLLA : 0))

/* A Gen5 x16 Root Port with a Gen4 x16 GPU: Gen4 x16 is all the link can
 * do, so it is never below (the port's own LnkCap alone said "below"). */
static void target_is_lower_of_both_ends(void **state)
{
	struct mon_history h;

	(void)state;
	mon_hist_init(&h, 100);
	mon_hist_set_caps(&h, CAP(5, 16, 1), CAP(4, 16, 0));
	assert_int_equal(h.want_speed, 4);
	assert_int_equal(h.want_width, 16);
	mon_hist_read(&h, 1 * S, 0, STA(4, 16, 1));
	mon_hist_read(&h, 11 * S, 0, STA(4, 16, 1));
	assert_false(h.below);
	assert_int_equal(h.below_ns, 0);
	/* Trained at x8: below, for the time between the two reads. */
	mon_hist_read(&h, 12 * S, 0, STA(4, 8, 1));
	mon_hist_read(&h, 15 * S, 0, STA(4, 8, 1));
	assert_true(h.below);
	assert_int_equal(h.below_ns, 3 * S);
	/* The other end unknown (no function below yet): the port's own. */
	mon_hist_set_caps(&h, CAP(5, 16, 1), 0);
	assert_int_equal(h.want_speed, 5);
}

/* A port with DLLLARC: a non-zero width with DLLLA clear is a link down
 * (the width is undefined then), and its return is a transition. */
static void up_from_dllla_where_reported(void **state)
{
	struct mon_history h;

	(void)state;
	mon_hist_init(&h, 0);
	mon_hist_set_caps(&h, CAP(3, 4, 1), CAP(3, 4, 0));
	assert_false(mon_hist_up(&h, STA(1, 1, 0)));
	assert_true(mon_hist_up(&h, STA(1, 1, 1)));
	assert_false(mon_hist_read(&h, 1 * S, 0, STA(1, 1, 0)));
	assert_false(h.seen_up);		/* a down link's width is no sample */
	assert_false(h.below);
	mon_hist_read(&h, 2 * S, 0, STA(1, 1, 0));
	assert_int_equal(h.below_ns, 0);
	assert_true(mon_hist_read(&h, 3 * S, 777, STA(3, 4, 1)));
	assert_int_equal(h.transitions, 1);
	assert_int_equal(h.last_change_ns, 777);
	assert_true(h.seen_up);
	assert_int_equal(h.min_speed, 3);
	assert_int_equal(h.min_width, 4);

	/* Without DLLLARC (an endpoint), a non-zero width means up. */
	mon_hist_init(&h, 0);
	mon_hist_set_caps(&h, CAP(3, 4, 0), 0);
	assert_true(mon_hist_up(&h, STA(1, 1, 0)));
	assert_false(mon_hist_up(&h, STA(1, 0, 0)));
}

/* A link below capability, then suspended (not read) for 10 s, then read
 * again: the 10 s are unsampled, none of them below. */
static void no_time_while_not_read(void **state)
{
	struct mon_history h;

	(void)state;
	mon_hist_init(&h, 0);
	mon_hist_set_caps(&h, CAP(4, 16, 1), CAP(4, 16, 0));
	mon_hist_read(&h, 1 * S, 0, STA(4, 8, 1));
	mon_hist_read(&h, 2 * S, 0, STA(4, 8, 1));
	assert_int_equal(h.below_ns, 1 * S);
	mon_hist_skip(&h, 3 * S, PCIEAUDIT_HIST_SKIP_SUSPENDED);
	mon_hist_skip(&h, 8 * S, PCIEAUDIT_HIST_SKIP_SUSPENDED);
	assert_int_equal(h.skip_reason, PCIEAUDIT_HIST_SKIP_SUSPENDED);
	/* A report meanwhile: the gap so far is unsampled, the reason kept. */
	mon_hist_settle(&h, 9 * S);
	assert_int_equal(h.unsampled_ns, 6 * S);
	assert_int_equal(h.below_ns, 1 * S);
	assert_int_equal(h.skip_reason, PCIEAUDIT_HIST_SKIP_SUSPENDED);
	mon_hist_read(&h, 13 * S, 0, STA(4, 8, 1));
	assert_int_equal(h.below_ns, 1 * S);
	assert_int_equal(h.unsampled_ns, 10 * S);
	assert_int_equal(h.skip_reason, 0);
	mon_hist_read(&h, 14 * S, 0, STA(4, 8, 1));
	assert_int_equal(h.below_ns, 2 * S);
	/* A report half a second after a read counts the half second. */
	mon_hist_settle(&h, 14 * S + S / 2);
	assert_int_equal(h.below_ns, 2 * S + S / 2);
	mon_hist_read(&h, 15 * S, 0, STA(4, 16, 1));
	assert_int_equal(h.below_ns, 3 * S);
	assert_false(h.below);
}

/* Link Training and the bandwidth bits are no transition of the link. */
static void transitions_are_speed_width_and_dllla(void **state)
{
	struct mon_history h;

	(void)state;
	mon_hist_init(&h, 0);
	mon_hist_set_caps(&h, CAP(2, 1, 1), 0);
	mon_hist_read(&h, 1, 0, STA(1, 1, 1));
	assert_false(mon_hist_read(&h, 2, 0, STA(1, 1, 1) | PCI_EXP_LNKSTA_LT));
	assert_false(mon_hist_read(&h, 3, 0, STA(1, 1, 1) | PCI_EXP_LNKSTA_LBMS));
	assert_true(mon_hist_read(&h, 4, 0, STA(2, 1, 1)));
	assert_int_equal(h.transitions, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(target_is_lower_of_both_ends),
		cmocka_unit_test(up_from_dllla_where_reported),
		cmocka_unit_test(no_time_while_not_read),
		cmocka_unit_test(transitions_are_speed_width_and_dllla),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
