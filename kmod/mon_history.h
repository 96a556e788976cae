/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A link's history from its LnkSta samples: pure arithmetic on register
 * values and times, without the PCI core, so that tests/unit runs it on
 * recorded register sequences (test_mon_history.c).
 */
#ifndef _PCIEAUDIT_MON_HISTORY_H
#define _PCIEAUDIT_MON_HISTORY_H

#include <linux/types.h>

/**
 * struct mon_history - what the sampler saw of one function's link
 * @since_ns: CLOCK_REALTIME when tracking started
 * @last_change_ns: CLOCK_REALTIME of the last transition; 0: none
 * @transitions: samples whose speed, width or link-up state changed
 * @below_ns: time up below @want_speed or @want_width, counted only
 *	between two consecutive samples that both read the link
 * @unsampled_ns: time the link was not read (closed periods only)
 * @last_read: CLOCK_MONOTONIC of the last sample that read the link;
 *	0 after one that did not, so no time accrues across the gap
 * @skip_since: CLOCK_MONOTONIC since when the link has not been read; 0
 *	while it is
 * @skip_reason: enum pcieaudit_hist_skip of the latest sample; 0: read
 * @lnksta: the last LnkSta read, valid with @have_lnksta
 * @want_speed: the lower Max Link Speed of both ends; 0: unknown
 * @want_width: the lower Max Link Width of both ends; 0: unknown
 * @dlllarc: the function reports Data Link Layer Link Active
 * @have_lnksta: @lnksta holds a read value
 * @below: the last sample was up and below the targets
 * @seen_up: @min_speed and @min_width hold a sample taken while up
 * @min_speed: the slowest speed seen up (LnkSta encoding)
 * @min_width: the narrowest width seen up
 */
struct mon_history {
	u64 since_ns, last_change_ns, transitions, below_ns, unsampled_ns;
	u64 last_read, skip_since;
	u32 skip_reason;
	u16 lnksta;
	u8 want_speed, want_width;
	bool dlllarc, have_lnksta, below, seen_up;
	u8 min_speed, min_width;
};

void mon_hist_init(struct mon_history *h, u64 real_ns);
void mon_hist_set_caps(struct mon_history *h, u32 lnkcap, u32 other_lnkcap);
bool mon_hist_up(const struct mon_history *h, u16 lnksta);
bool mon_hist_read(struct mon_history *h, u64 mono_ns, u64 real_ns,
		   u16 lnksta);
void mon_hist_skip(struct mon_history *h, u64 mono_ns, u32 reason);
void mon_hist_settle(struct mon_history *h, u64 mono_ns);

#endif /* _PCIEAUDIT_MON_HISTORY_H */
