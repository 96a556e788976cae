/* SPDX-License-Identifier: GPL-2.0 */
/* ACS Capability and Control registers: both use bits 0..6 alike. */
#ifndef PA_ACS_H
#define PA_ACS_H

#include <stdbool.h>
#include <stdint.h>

#define PA_ACS_NFLAGS 7

/* Longest pa_acs_format() result, every flag spelled out, plus NUL. */
#define PA_ACS_TEXT_LEN 80

/* Bit i's name, spelled as lspci spells it: SrcValid ... DirectTrans. */
extern const char *const pa_acs_flag_names[PA_ACS_NFLAGS];

bool pa_acs_flag(uint16_t reg, unsigned int bit);

/* "SrcValid+ TransBlk- ReqRedir+ ...", as lspci -vv prints ACSCap/ACSCtl. */
void pa_acs_format(uint16_t reg, char buf[PA_ACS_TEXT_LEN]);

#endif /* PA_ACS_H */
