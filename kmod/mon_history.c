// SPDX-License-Identifier: GPL-2.0
/*
 * The link-history rules (docs/monitoring.md), on register values alone:
 *
 * - The target is the lower Max Link Speed and Max Link Width of both ends
 *   of the link, so a Gen5 Root Port with a Gen4 endpoint is not "below"
 *   at Gen4. Where the other end's LnkCap is unknown, the function's own.
 * - The link is up when Data Link Layer Link Active says so, on a function
 *   that reports it (LnkCap's DLLLARC); the spec leaves the width undefined
 *   while a link is down, so only without DLLLARC does a non-zero width
 *   mean up.
 * - Time counts only between two samples that both read the link: a
 *   function not read (suspended, blocked, gone) accrues nothing, and the
 *   time it was not read is counted apart.
 */
#include <linux/pci_regs.h>

#include "mon_history.h"

/* What counts as a transition of the link itself. */
#define LNKSTA_STATE	(PCI_EXP_LNKSTA_CLS | PCI_EXP_LNKSTA_NLW | \
			 PCI_EXP_LNKSTA_DLLLA)

static u8 lnkcap_speed(u32 lnkcap)
{
	return lnkcap & PCI_EXP_LNKCAP_SLS;
}

static u8 lnkcap_width(u32 lnkcap)
{
	return (lnkcap & PCI_EXP_LNKCAP_MLW) >> 4;
}

static u8 lower(u8 a, u8 b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	return a < b ? a : b;
}

/**
 * mon_hist_init - an empty history
 * @h: the history
 * @real_ns: CLOCK_REALTIME now: when tracking starts
 */
void mon_hist_init(struct mon_history *h, u64 real_ns)
{
	*h = (struct mon_history){ .since_ns = real_ns };
}

/**
 * mon_hist_set_caps - the link's targets from both ends' Link Capabilities
 * @h: the history
 * @lnkcap: the function's LnkCap; 0: unknown
 * @other_lnkcap: LnkCap of the link's other end; 0: unknown or none
 */
void mon_hist_set_caps(struct mon_history *h, u32 lnkcap, u32 other_lnkcap)
{
	h->want_speed = lower(lnkcap_speed(lnkcap), lnkcap_speed(other_lnkcap));
	h->want_width = lower(lnkcap_width(lnkcap), lnkcap_width(other_lnkcap));
	h->dlllarc = lnkcap & PCI_EXP_LNKCAP_DLLLARC;
}

/**
 * mon_hist_up - whether a LnkSta value says the link is up
 * @h: the history, for whether the function reports DLLLA
 * @lnksta: the register
 *
 * Return: true when up.
 */
bool mon_hist_up(const struct mon_history *h, u16 lnksta)
{
	if (h->dlllarc)
		return lnksta & PCI_EXP_LNKSTA_DLLLA;
	return lnksta & PCI_EXP_LNKSTA_NLW;
}

/* Ends a period of not reading: its time is counted apart. */
static void end_skip(struct mon_history *h, u64 mono_ns)
{
	if (h->skip_since && mono_ns > h->skip_since)
		h->unsampled_ns += mono_ns - h->skip_since;
	h->skip_since = 0;
	h->skip_reason = 0;
}

/**
 * mon_hist_read - a sample that read the link
 * @h: the history
 * @mono_ns: CLOCK_MONOTONIC now
 * @real_ns: CLOCK_REALTIME now, for the transition's time
 * @lnksta: the value read
 *
 * Return: true when this is a transition (not on the first value read).
 */
bool mon_hist_read(struct mon_history *h, u64 mono_ns, u64 real_ns,
		   u16 lnksta)
{
	u8 speed = lnksta & PCI_EXP_LNKSTA_CLS;
	u8 width = (lnksta & PCI_EXP_LNKSTA_NLW) >> PCI_EXP_LNKSTA_NLW_SHIFT;
	bool transition = false;

	end_skip(h, mono_ns);
	if (h->below && h->last_read && mono_ns > h->last_read)
		h->below_ns += mono_ns - h->last_read;
	h->last_read = mono_ns;
	if (h->have_lnksta && ((h->lnksta ^ lnksta) & LNKSTA_STATE)) {
		h->transitions++;
		h->last_change_ns = real_ns;
		transition = true;
	}
	h->lnksta = lnksta;
	h->have_lnksta = true;
	h->below = false;
	if (!mon_hist_up(h, lnksta))
		return transition;
	if (!h->seen_up || speed < h->min_speed)
		h->min_speed = speed;
	if (!h->seen_up || width < h->min_width)
		h->min_width = width;
	h->seen_up = true;
	h->below = (h->want_speed && speed < h->want_speed) ||
		   (h->want_width && width < h->want_width);
	return transition;
}

/**
 * mon_hist_skip - a sample that did not read the link
 * @h: the history
 * @mono_ns: CLOCK_MONOTONIC now
 * @reason: enum pcieaudit_hist_skip, non-zero
 *
 * Nothing accrues until the next read, which starts a new period.
 */
void mon_hist_skip(struct mon_history *h, u64 mono_ns, u32 reason)
{
	if (!h->skip_since)
		h->skip_since = mono_ns ? mono_ns : 1;
	h->skip_reason = reason;
	h->last_read = 0;
}

/**
 * mon_hist_settle - bring the counters up to now, for a report
 * @h: the history
 * @mono_ns: CLOCK_MONOTONIC now
 *
 * A link read at its last sample has been in that state since, as far as
 * the sampler knows, until the next sample says otherwise; reports count
 * that time as the next sample would. A link not read counts as unsampled.
 */
void mon_hist_settle(struct mon_history *h, u64 mono_ns)
{
	u32 reason = h->skip_reason;

	if (h->skip_since) {
		end_skip(h, mono_ns);
		h->skip_since = mono_ns ? mono_ns : 1;
		h->skip_reason = reason;
		return;
	}
	if (h->below && h->last_read && mono_ns > h->last_read)
		h->below_ns += mono_ns - h->last_read;
	if (h->last_read)
		h->last_read = mono_ns;
}
