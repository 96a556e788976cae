/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `lspci -xxxx` output as people hand it over: with or without -D, mixed
 * with -vvv, quoted in mail ("> ", "> > "), indented in a bug report or
 * embedded in an nvidia-bug-report log among other commands' output.
 * Pure: the text in, the dump as `lspci -F` reads it out (a header line
 * per function, then its hex lines, a blank line), so that libpci parses
 * the bytes exactly as lspci does.
 */
#ifndef PA_LSPCI_TEXT_H
#define PA_LSPCI_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Where lspci -v said a region sits, and its type, as show_bases()
 * prints them: "Memory at f6000000 (64-bit, prefetchable) [virtual]",
 * "I/O ports at e000 [disabled]". Reading sysfs, lspci prints the
 * kernel's resource: its start and flags, a VF's too ("[virtual]": the
 * VF's registers read 0). No start for "<unassigned>", "<ignored>" and
 * "<broken-64-bit-slot>".
 */
struct pa_lspci_place {
	bool has_start;
	uint64_t start;
	uint32_t flags;		/* PCIEAUDIT_BAR_F_IO, _MEM, _PREFETCH, _MEM64 */
};

/* What lspci -v prints of a function beside its registers. */
struct pa_lspci_facts {
	char bdf[24];		/* "DDDD:BB:DD.F" */
	bool has_dump;		/* its hex lines are in dump */
	/* lspci -n's or -nn's ids on its header line (a sosreport's
	 * lspci -nnvv), to hold against configuration space read apart. */
	bool has_ids;
	uint16_t vendor, device;
	uint16_t class;		/* base class and subclass */
	int revision;		/* -1: not printed */
	char *driver;		/* "Kernel driver in use:", NULL if absent */
	char *numa_node;	/* "NUMA node:", NULL if absent */
	char *iommu_group;	/* "IOMMU group:", NULL if absent */
	/* lspci -v's "Region N: ... [size=S]": every BAR's size, when the
	 * function came with -v text and no Region line lacked a size (lspci
	 * -F prints none); unassigned for "<unassigned>" or "<ignored>". */
	bool bar_sizes_known;
	uint64_t bar_size[6];
	bool bar_unassigned[6];
	struct pa_lspci_place bar_place[6];
	/* lspci -v's form, "Memory at ... [size=S]" without "Region N:":
	 * nplain regions in BAR order, which the configuration space numbers
	 * (pa_lspci_plain_regions()); 0 when none, or one lacked a size. */
	size_t nplain;
	uint64_t plain_size[6];
	bool plain_unassigned[6];
	struct pa_lspci_place plain_place[6];
};

struct pa_lspci_text {
	char *dump;		/* for libpci: NUL-terminated */
	size_t nfunctions;	/* functions with hex lines */
	/* One per function the text shows, with hex lines or only lspci
	 * -v's (a sosreport's lspci -nnvv): nfacts of them. */
	struct pa_lspci_facts *facts;
	size_t nfacts;
	/* Some function came with lspci -v's text: where its driver line is
	 * missing, it has none. Without, drivers are unknown. */
	bool verbose;
	bool iommu_groups;	/* some function names its IOMMU group */
};

/*
 * Keeps each function's header line and the hex lines that follow it,
 * whatever else lies between, and the facts above; strips quoting and
 * indentation; adds the domain 0000 where lspci left it out. A function
 * given twice (two dumps in one log) keeps its longer dump. Functions of
 * lspci -v text without hex lines keep their facts, not in dump. 0 or -ENOMEM;
 * pa_lspci_text_clear() frees *out.
 */
int pa_lspci_normalise(const char *text, size_t len, struct pa_lspci_text *out);
void pa_lspci_text_clear(struct pa_lspci_text *t);

/* needle within [p, end), or NULL: the text is not NUL-terminated. */
const char *pa_lspci_within(const char *p, const char *end, const char *needle);

/* Past mail quoting and indentation ("> > ", tabs, blanks). */
const char *pa_lspci_unquote(const char *p, const char *end);

/* A function's header line, unquoted: its address, and -n's or -nn's ids
 * where printed; rest is past the address. */
struct pa_lspci_head {
	unsigned int domain, bus, dev, fn;
	bool has_ids;
	uint16_t vendor, device, class;
	int revision;		/* -1: not printed */
	const char *rest;
};
bool pa_lspci_head(const char *p, const char *end, struct pa_lspci_head *h);

/* "OO: xx xx ...", one of lspci -x's rows. */
bool pa_lspci_hex_row(const char *p, const char *end);

/*
 * Numbers f's plain regions by the BARs of config (len bytes) as lspci
 * -v walked them: each BAR whose register is not zero, a 64-bit memory
 * BAR taking two. Sets bar_size[], bar_unassigned[], bar_place[] and
 * bar_sizes_known
 * when the count matches; false, and f untouched, when it does not.
 */
bool pa_lspci_plain_regions(struct pa_lspci_facts *f, const uint8_t *config,
			    size_t len);

#endif /* PA_LSPCI_TEXT_H */
