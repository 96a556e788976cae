/* SPDX-License-Identifier: GPL-2.0 */
/* PCI addresses as text, in the kernel's pci_name() format. */
#ifndef PA_BDF_H
#define PA_BDF_H

#include "model.h"

/* "ffffffff:ff:1f.7" plus NUL: domains above 0xffff exist (Intel VMD). */
#define PA_BDF_LEN 17

/*
 * Parses "DDDD:BB:DD.F" (domain of 1 to 8 hex digits) or "BB:DD.F" (domain
 * 0). Bus and device take 1 or 2 hex digits, the function one digit 0-7.
 * Returns 0, or -EINVAL for anything else, including trailing characters.
 */
int pa_bdf_parse(const char *text, struct pa_addr *addr);

/* Writes "dddd:bb:dd.f", as the kernel's pci_name() does. */
void pa_bdf_format(const struct pa_addr *addr, char buf[PA_BDF_LEN]);

#endif /* PA_BDF_H */
