/* SPDX-License-Identifier: GPL-2.0 */
/* PCIe link registers decoded into speeds, widths and a downgrade verdict. */
#ifndef PA_LINK_H
#define PA_LINK_H

#include <stdbool.h>

#include "model.h"

/* "unknown" or "2.5GT/s" plus NUL, with room for any double %g prints. */
#define PA_SPEED_TEXT_LEN 24

/* Speeds in GT/s; 0 stands for an encoding this code does not know, and for
 * target_speed also for an absent Link Control 2 register. */
struct pa_link_state {
	double speed;
	double max_speed;
	double target_speed;
	unsigned int width;
	unsigned int max_width;
	bool downgraded;
};

/*
 * GT/s for a speed encoding as found in LnkCap, LnkSta and LnkCtl2 bits 3:0
 * (1 = 2.5, 2 = 5, 3 = 8, 4 = 16, 5 = 32, 6 = 64), or 0 when unknown.
 */
double pa_link_speed_gts(unsigned int encoding);

void pa_link_decode(const struct pa_link *regs, struct pa_link_state *state);

/*
 * dev's link as lspci judges it: a root port, a downstream port and a
 * PCI-to-PCIe bridge are never downgraded, since the partner below decides
 * what the link can do (it reports the link); Link Control 2 of an
 * endpoint other than function 0 is reserved, so no target speed.
 */
void pa_device_link_state(const struct pa_device *dev,
			  struct pa_link_state *state);

/*
 * Usable bandwidth of a link in GB/s per direction: GT/s times the line
 * code's efficiency (8b/10b at 2.5 and 5 GT/s, 128b/130b from 8 GT/s) times
 * lanes, over 8 bits. TLP and flow-control overhead is left out: it depends
 * on payload sizes, and comparing links does not need it. 0 for an unknown
 * speed.
 */
double pa_link_gbps(double gts, unsigned int width);

/* "2.5GT/s", "16GT/s", or "unknown" for 0. */
void pa_link_format_speed(double gts, char buf[PA_SPEED_TEXT_LEN]);

/*
 * Whether d's link trained below what both its ends support: d's own
 * capability and that of the port above it. Ports below which a link
 * starts (root and downstream ports) and VFs answer false: the function
 * at the lower end reports the link; so do functions other than their
 * device's function 0 (pa_link_owner()). *want_speed and *want_width
 * get the best both ends support; *speed_only whether only the speed is
 * lower.
 */
bool pa_link_below(const struct pa_report *rep, const struct pa_device *d,
		   double *want_speed, unsigned int *want_width,
		   bool *speed_only);

/* The function that speaks for d's link: function 0 of its device, which
 * shares one link with the others (a GPU's audio and USB functions), when
 * the report has it; d otherwise. */
const struct pa_device *pa_link_owner(const struct pa_report *rep,
				      const struct pa_device *d);

#endif /* PA_LINK_H */
