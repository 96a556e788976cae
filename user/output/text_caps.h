/* SPDX-License-Identifier: GPL-2.0 */
/* The report's lines for ATS, Device Control and BARs of one function. */
#ifndef PA_TEXT_CAPS_H
#define PA_TEXT_CAPS_H

#include <stdio.h>

#include "model.h"

/*
 * "Device: MPS 256 (max 512), MRRS 512, RlxdOrd+, ATS+"
 * "BARs: 0 16M mem; 1 256M mem pref 64-bit, resizable 4M-8G; 2 4K UNASSIGNED"
 * Nothing when the module did not report them; "unknown" when the
 * registers read all ones.
 */
void pa_text_caps(FILE *f, const char *indent, const struct pa_device *dev);

#endif /* PA_TEXT_CAPS_H */
