/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Plain `lspci -vv` or `-vvv` text, without hex (with or without -nn, -D,
 * -tv; whole or a few -s blocks; quoted or indented): each function's
 * configuration space rebuilt from what lspci decoded, so that the rest
 * of --lspci reads it as it reads a dump. Pure: text in, bytes out.
 *
 * Rebuilt, at the offsets lspci printed: the header (ids and class from
 * -n's or -nn's numbers, else from the names, through *names; revision,
 * prog-if, subsystem, header type, the bridges' "Bus:" numbers, each
 * "Region N:"'s type and address); the PCI Express capability (its type
 * and version, DevCap's and DevCtl's MaxPayload, MaxReadReq and RlxdOrd,
 * LnkCap's, LnkSta's and LnkCtl2's speeds and widths); and in extended
 * space, chained as printed, Access Control Services (ACSCap, ACSCtl),
 * ATS (ATSCap, ATSCtl), SR-IOV and Resizable BAR. Every other capability
 * keeps its place in the chain with ID 0, which readers step over.
 *
 * A fact lspci did not print stays unknown: a PCIe function without an
 * extended capability in the text is given 256 bytes (its ACS unknown,
 * as lspci -xxx's); `Capabilities: <access denied>` (lspci run without
 * root) marks the function's capabilities hidden.
 */
#ifndef PA_LSPCI_VVV_H
#define PA_LSPCI_VVV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PA_VVV_CONFIG	4096

struct pa_vvv_fn {
	char bdf[24];			/* "DDDD:BB:DD.F" */
	uint8_t config[PA_VVV_CONFIG];
	size_t len;			/* 4096, or 256 without extended space */
	bool caps_hidden;		/* "Capabilities: <access denied>" */
	bool ids_known;			/* from -n's numbers, or the names */
	bool class_known;		/* the same, for the class code */
};

struct pa_vvv {
	struct pa_vvv_fn *v;
	size_t n;
	/* Header lines seen with neither hex nor -v lines below them
	 * (lspci, lspci -nn): for the refusal's message. */
	size_t bare_headers;
};

/*
 * Ids from lspci's names where -n's numbers are absent: vendor and device
 * from "Vendor Device" as pci.ids spells them, the class code from its
 * name. Each returns false when it cannot tell. NULL: names are not read.
 */
struct pa_vvv_names {
	bool (*ids)(void *arg, const char *names, uint16_t *vendor,
		    uint16_t *device);
	bool (*class_code)(void *arg, const char *name, uint16_t *class);
	void *arg;
};

/*
 * Every function of text that lspci -v printed with capability or region
 * lines (or <access denied>) and no hex rows. A function given twice
 * keeps its first block. 0 or -ENOMEM; pa_vvv_clear() frees *out.
 */
int pa_vvv_parse(const char *text, size_t len, const struct pa_vvv_names *names,
		 struct pa_vvv *out);
void pa_vvv_clear(struct pa_vvv *v);

#endif /* PA_LSPCI_VVV_H */
