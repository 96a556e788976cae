// SPDX-License-Identifier: GPL-2.0
#include "link.h"

#include <stdio.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

/* Field positions shared by LnkCap, LnkSta and LnkCtl2 (speed only). */
#define SPEED_MASK	0xfu
#define WIDTH_SHIFT	4
#define WIDTH_MASK	0x3fu

static const double speed_gts[] = { 0, 2.5, 5, 8, 16, 32, 64 };

double pa_link_speed_gts(unsigned int encoding)
{
	if (encoding >= sizeof(speed_gts) / sizeof(speed_gts[0]))
		return 0;
	return speed_gts[encoding];
}

static unsigned int speed_field(uint32_t reg)
{
	return reg & SPEED_MASK;
}

static unsigned int width_field(uint32_t reg)
{
	return reg >> WIDTH_SHIFT & WIDTH_MASK;
}

void pa_link_decode(const struct pa_link *regs, struct pa_link_state *state)
{
	unsigned int speed = speed_field(regs->lnksta);
	unsigned int max_speed = speed_field(regs->lnkcap);
	unsigned int target = speed_field(regs->lnkctl2);

	state->speed = pa_link_speed_gts(speed);
	state->max_speed = pa_link_speed_gts(max_speed);
	/* A target hardwired to 0 means only 2.5GT/s is supported (PCIe r3.0). */
	state->target_speed = regs->has_lnkctl2 ?
		pa_link_speed_gts(target ? target : 1) : 0;
	state->width = width_field(regs->lnksta);
	state->max_width = width_field(regs->lnkcap);
	/*
	 * Encodings grow with speed, so comparing them also works for speeds
	 * newer than this table. A width of 0 means no link trained at all
	 * (an empty slot), which is not a degraded link.
	 */
	state->downgraded = state->width != 0 &&
		(speed < max_speed || state->width < state->max_width);
}

void pa_device_link_state(const struct pa_device *dev,
			  struct pa_link_state *state)
{
	pa_link_decode(&dev->link, state);
	switch (dev->pcie_type) {
	case PCI_EXP_TYPE_ROOT_PORT:
	case PCI_EXP_TYPE_DOWNSTREAM:
	case PCI_EXP_TYPE_PCIE_BRIDGE:
		state->downgraded = false;
		break;
	case PCI_EXP_TYPE_ENDPOINT:
	case PCI_EXP_TYPE_LEG_END:
		if (dev->addr.devfn)
			state->target_speed = 0;
		break;
	default:
		break;
	}
}

double pa_link_gbps(double gts, unsigned int width)
{
	/* PCIe 6.0's FLIT mode at 64 GT/s is within 4% of 128b/130b. */
	double efficiency = gts >= 8 ? 128.0 / 130.0 : 8.0 / 10.0;

	return gts * efficiency * width / 8;
}

void pa_link_format_speed(double gts, char buf[PA_SPEED_TEXT_LEN])
{
	if (gts > 0)
		snprintf(buf, PA_SPEED_TEXT_LEN, "%gGT/s", gts);
	else
		snprintf(buf, PA_SPEED_TEXT_LEN, "unknown");
}

const struct pa_device *pa_link_owner(const struct pa_report *rep,
				      const struct pa_device *d)
{
	struct pa_addr fn0 = { d->addr.domain, d->addr.bus, d->addr.devfn & ~7u };
	const struct pa_device *owner = pa_report_find(rep, &fn0);

	return owner && owner->has_link ? owner : d;
}

bool pa_link_below(const struct pa_report *rep, const struct pa_device *d,
		   double *want_speed, unsigned int *want_width,
		   bool *speed_only)
{
	const struct pa_device *p = pa_report_upstream(rep, d);
	struct pa_link_state me, up;
	bool slow, narrow;

	if (!d->has_link || (d->flags & PCIEAUDIT_DEV_F_VIRTFN) ||
	    d->pcie_type == PCI_EXP_TYPE_ROOT_PORT ||
	    d->pcie_type == PCI_EXP_TYPE_DOWNSTREAM ||
	    pa_link_owner(rep, d) != d)
		return false;
	pa_link_decode(&d->link, &me);
	if (!me.width)
		return false;
	*want_speed = me.max_speed;
	*want_width = me.max_width;
	/* A link trains to the best both ends can do, not d's alone. */
	if (p && p->has_link) {
		pa_link_decode(&p->link, &up);
		if (up.max_width && up.max_width < *want_width)
			*want_width = up.max_width;
		if (up.max_speed > 0 && up.max_speed < *want_speed)
			*want_speed = up.max_speed;
	}
	/* An encoding this CLI does not know (0) proves nothing. */
	slow = me.speed > 0 && me.speed < *want_speed;
	narrow = me.width < *want_width;
	*speed_only = slow && !narrow;
	return slow || narrow;
}
