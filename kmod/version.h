/* SPDX-License-Identifier: GPL-2.0 */
/* Fallback version; the Makefile and dkms-install substitute the real one. */
#ifndef PCIEAUDIT_VERSION
#define PCIEAUDIT_VERSION "0.1.0"
#endif
