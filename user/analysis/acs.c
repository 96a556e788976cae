// SPDX-License-Identifier: GPL-2.0
#include "acs.h"

#include <stdio.h>

const char *const pa_acs_flag_names[PA_ACS_NFLAGS] = {
	"SrcValid",	/* Source Validation */
	"TransBlk",	/* Translation Blocking */
	"ReqRedir",	/* P2P Request Redirect */
	"CmpltRedir",	/* P2P Completion Redirect */
	"UpstreamFwd",	/* Upstream Forwarding */
	"EgressCtrl",	/* P2P Egress Control */
	"DirectTrans",	/* Direct Translated P2P */
};

bool pa_acs_flag(uint16_t reg, unsigned int bit)
{
	return bit < PA_ACS_NFLAGS && (reg >> bit & 1);
}

void pa_acs_format(uint16_t reg, char buf[PA_ACS_TEXT_LEN])
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned int bit = 0; bit < PA_ACS_NFLAGS; bit++)
		len += (size_t)snprintf(buf + len, PA_ACS_TEXT_LEN - len, "%s%s%c",
					bit ? " " : "", pa_acs_flag_names[bit],
					pa_acs_flag(reg, bit) ? '+' : '-');
}
