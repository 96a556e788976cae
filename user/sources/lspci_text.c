// SPDX-License-Identifier: GPL-2.0
#include "lspci_text.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>

#define CONFIG_MAX	4096
#define LINE_BYTES	16
#define NLINES		(CONFIG_MAX / LINE_BYTES)

struct function {
	unsigned int domain, bus, dev, fn;
	uint8_t bytes[CONFIG_MAX];
	bool have[NLINES];	/* which hex lines were given */
	char *driver, *numa_node, *iommu_group;
	/* lspci -n's or -nn's ids on the header line. */
	bool has_ids;
	uint16_t vendor, device, class;
	int revision;		/* -1: the header printed none */
	bool verbose;
	uint64_t bar_size[6];
	bool bar_unassigned[6];
	struct pa_lspci_place bar_place[6];
	bool region_without_size;
	/* lspci -v's regions, "Memory at ..." without "Region N:": in BAR
	 * order, their numbers left to the configuration space. */
	size_t nplain;
	uint64_t plain_size[6];
	bool plain_unassigned[6];
	struct pa_lspci_place plain_place[6];
	bool plain_without_size;
	/* Past the first "Capabilities:" line: Region lines there are an
	 * SR-IOV capability's VF BARs, not the function's. */
	bool in_caps;
};

struct functions {
	struct function *v;
	size_t n;
};

/* Mail quoting and indentation: "> > ", tabs, spaces. */
const char *pa_lspci_unquote(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '>'))
		p++;
	return p;
}

/* Up to max hex digits, at least min; the count, or 0. */
static size_t hex(const char *p, const char *end, size_t min, size_t max,
		  unsigned int *v)
{
	size_t n = 0;

	*v = 0;
	while (p + n < end && n < max && isxdigit((unsigned char)p[n])) {
		*v = *v << 4 | (unsigned int)(isdigit((unsigned char)p[n]) ?
			p[n] - '0' : (tolower((unsigned char)p[n]) - 'a' + 10));
		n++;
	}
	return n >= min && !(p + n < end && isxdigit((unsigned char)p[n])) ? n : 0;
}

/* "[DDDD:]BB:DD.F" and a blank or the end: lspci's first column. */
static bool header(const char *p, const char *end, struct function *f)
{
	unsigned int a, b, d;
	size_t n = hex(p, end, 2, 8, &a);

	f->domain = 0;
	if (n > 2 || (n == 2 && p + 2 < end && p[2] == ':' && p + 5 < end &&
		      p[5] == ':')) {
		if (n < 4 || p + n >= end || p[n] != ':')
			return false;
		f->domain = a;
		p += n + 1;
		n = hex(p, end, 2, 2, &a);
	}
	if (n != 2 || p + 2 >= end || p[2] != ':')
		return false;
	p += 3;
	if (!hex(p, end, 2, 2, &b) || b > 0x1f || p + 2 >= end || p[2] != '.')
		return false;
	p += 3;
	if (p >= end || *p < '0' || *p > '7')
		return false;
	d = (unsigned int)(*p - '0');
	p++;
	if (p < end && *p != ' ' && *p != '\t')
		return false;
	f->bus = a;
	f->dev = b;
	f->fn = d;
	return true;
}

const char *pa_lspci_within(const char *p, const char *end, const char *needle)
{
	size_t n = strlen(needle);

	for (; p + n <= end; p++)
		if (!memcmp(p, needle, n))
			return p;
	return NULL;
}

/* Past a header's first column: its first blank. */
static const char *past_bdf(const char *p, const char *end)
{
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	return p;
}

/* "[hhhh:hhhh]" at p: lspci -nn's vendor and device. */
static bool bracket_ids(const char *p, const char *end, unsigned int *v,
			unsigned int *d)
{
	return end - p >= 11 && p[0] == '[' && hex(p + 1, end, 4, 4, v) &&
	       p[5] == ':' && hex(p + 6, end, 4, 4, d) && p[10] == ']';
}

/*
 * The rest of a header line: lspci -nn's "Class [cccc]: Name [vvvv:dddd]
 * (rev rr)" or lspci -n's "cccc: vvvv:dddd (rev rr)"; without -n, the
 * names alone, and the ids stay unknown.
 */
static void header_ids(const char *p, const char *end, struct function *f)
{
	unsigned int c, v, d, r;
	const char *q;

	f->has_ids = false;
	f->revision = -1;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (hex(p, end, 4, 4, &c) && end - p >= 15 && p[4] == ':' &&
	    p[5] == ' ' && hex(p + 6, end, 4, 4, &v) && p[10] == ':' &&
	    hex(p + 11, end, 4, 4, &d)) {
		f->has_ids = true;
		q = p + 15;
	} else {
		q = pa_lspci_within(p, end, "]: ");
		if (!q || q - p < 5 || q[-5] != '[' ||
		    !hex(q - 4, end, 4, 4, &c))
			return;
		for (q += 3; q < end && !f->has_ids; q++)
			f->has_ids = bracket_ids(q, end, &v, &d);
	}
	if (!f->has_ids)
		return;
	f->class = (uint16_t)c;
	f->vendor = (uint16_t)v;
	f->device = (uint16_t)d;
	q = pa_lspci_within(q, end, "(rev ");
	if (q && hex(q + 5, end, 2, 2, &r) && q + 7 < end && q[7] == ')')
		f->revision = (int)r;
}

/* "OO: xx xx ...": offset and up to 16 bytes, nothing else. */
static bool hex_line(const char *p, const char *end, struct function *f)
{
	uint8_t bytes[LINE_BYTES];
	unsigned int off, v;
	size_t n = hex(p, end, 2, 3, &off), count = 0;

	if (!n || off % LINE_BYTES || off >= CONFIG_MAX || p + n >= end ||
	    p[n] != ':')
		return false;
	p += n + 1;
	while (p < end && *p == ' ' && count < LINE_BYTES &&
	       hex(p + 1, end, 2, 2, &v)) {
		bytes[count++] = (uint8_t)v;
		p += 3;
	}
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p != end || count != LINE_BYTES)
		return false;
	memcpy(f->bytes + off, bytes, LINE_BYTES);
	f->have[off / LINE_BYTES] = true;
	return true;
}

/* Bytes from offset 0 up to the first line missing. */
static size_t length(const struct function *f)
{
	size_t i = 0;

	while (i < NLINES && f->have[i])
		i++;
	return i * LINE_BYTES;
}

static void function_clear(struct function *f)
{
	free(f->driver);
	free(f->numa_node);
	free(f->iommu_group);
	memset(f, 0, sizeof(*f));
}

/* "Label: value" of lspci -v, the value up to the end of the line: old
 * kernels' driver names hold blanks ("HDA Intel"). */
static int fact(const char *p, const char *end, const char *label, char **to)
{
	size_t n = strlen(label), len;

	if ((size_t)(end - p) <= n || memcmp(p, label, n))
		return 0;
	p += n;
	while (p < end && *p == ' ')
		p++;
	len = (size_t)(end - p);
	while (len && isspace((unsigned char)p[len - 1]))
		len--;
	if (!len)
		return 0;
	free(*to);
	*to = strndup(p, len);
	return *to ? 1 : -ENOMEM;
}

/* "[size=16M]": lspci's show_size(), a number and K, M, G or T. */
static uint64_t size_of(const char *p, const char *end)
{
	static const char units[] = "KMGT";
	uint64_t v = 0;
	const char *u;

	while (p < end && isdigit((unsigned char)*p) && v < (1ULL << 40))
		v = v * 10 + (uint64_t)(*p++ - '0');
	if (p < end && *p && (u = strchr(units, *p)))
		v <<= 10 * (u - units + 1);
	return v;
}

/* The address and type of a region line (pa_lspci_place): lspci prints
 * the address with at least 8 hex digits (4 for I/O), without 0x. */
static void region_place(const char *p, const char *end,
			 struct pa_lspci_place *out)
{
	const char *at;
	uint64_t v = 0;
	size_t n = 0;

	*out = (struct pa_lspci_place){ 0 };
	at = pa_lspci_within(p, end, "I/O ports at ");
	if (at) {
		out->flags = PCIEAUDIT_BAR_F_IO;
		at += strlen("I/O ports at ");
	} else {
		at = pa_lspci_within(p, end, "Memory at ");
		if (!at)
			return;
		out->flags = PCIEAUDIT_BAR_F_MEM;
		if (pa_lspci_within(p, end, "(64-bit, "))
			out->flags |= PCIEAUDIT_BAR_F_MEM64;
		if (pa_lspci_within(p, end, ", prefetchable)"))
			out->flags |= PCIEAUDIT_BAR_F_PREFETCH;
		at += strlen("Memory at ");
	}
	while (at + n < end && n < 16 && isxdigit((unsigned char)at[n])) {
		v = v << 4 | (uint64_t)(isdigit((unsigned char)at[n]) ?
			at[n] - '0' : tolower((unsigned char)at[n]) - 'a' + 10);
		n++;
	}
	out->has_start = n && (at + n == end || at[n] == ' ');
	out->start = out->has_start ? v : 0;
}

/* "Region N: Memory at ... [size=S]": the BAR's size, or that the line
 * had none (lspci -F, which cannot size BARs); its place. */
static bool region_line(const char *p, const char *end, struct function *f)
{
	const char *at;
	unsigned int n;

	if (end - p < 9 || memcmp(p, "Region ", 7) ||
	    !isdigit((unsigned char)p[7]) || p[8] != ':')
		return false;
	n = (unsigned int)(p[7] - '0');
	if (n >= 6)
		return true;
	f->verbose = true;
	region_place(p, end, &f->bar_place[n]);
	at = pa_lspci_within(p, end, "[size=");
	if (!at) {
		f->region_without_size = true;
		return true;
	}
	f->bar_size[n] = size_of(at + 6, end);
	f->bar_unassigned[n] = pa_lspci_within(p, end, "<unassigned>") ||
			       pa_lspci_within(p, end, "<ignored>");
	return true;
}

/* lspci -v's "Memory at ... [size=S]" or "I/O ports at ...", which
 * -vv prefixes with "Region N: ". */
static bool plain_region_line(const char *p, const char *end,
			      struct function *f)
{
	static const char *const marks[] = { "Memory at ", "I/O ports at " };
	const char *at;
	size_t i;

	for (i = 0; i < 2; i++)
		if ((size_t)(end - p) > strlen(marks[i]) &&
		    !memcmp(p, marks[i], strlen(marks[i])))
			break;
	if (i == 2)
		return false;
	f->verbose = true;
	if (f->nplain == 6) {
		f->plain_without_size = true;	/* more than a function has */
		return true;
	}
	at = pa_lspci_within(p, end, "[size=");
	if (!at)
		f->plain_without_size = true;
	else
		f->plain_size[f->nplain] = size_of(at + 6, end);
	f->plain_unassigned[f->nplain] = pa_lspci_within(p, end, "<unassigned>") ||
					 pa_lspci_within(p, end, "<ignored>");
	region_place(p, end, &f->plain_place[f->nplain]);
	f->nplain++;
	return true;
}

/* "..., NUMA node 0" or "..., IOMMU group 12" in lspci -v's Flags line. */
static int flag_fact(const char *p, const char *end, const char *label,
		     char **to)
{
	const char *at = pa_lspci_within(p, end, label);
	size_t n = 0;

	if (!at)
		return 0;
	at += strlen(label);
	while (at + n < end && isdigit((unsigned char)at[n]))
		n++;
	if (!n)
		return 0;
	free(*to);
	*to = strndup(at, n);
	return *to ? 0 : -ENOMEM;
}

/* lspci -v's "Flags:" line: the NUMA node and IOMMU group -vv prints on
 * lines of their own. */
static int flags_line(const char *p, const char *end, struct function *f)
{
	int err;

	if (end - p < 6 || memcmp(p, "Flags:", 6))
		return 0;
	err = flag_fact(p, end, " NUMA node ", &f->numa_node);
	if (!err)
		err = flag_fact(p, end, " IOMMU group ", &f->iommu_group);
	return err;
}

/* The text lspci -v prints between a header and the hex. */
static int verbose_line(const char *p, const char *end, struct function *f)
{
	static const char *const marks[] = {
		"Flags:", "Control:", "Kernel modules:", "Subsystem:",
	};
	int r;

	if (end - p >= 13 && !memcmp(p, "Capabilities:", 13))
		f->in_caps = true;
	if (!f->in_caps &&
	    (region_line(p, end, f) || plain_region_line(p, end, f)))
		return 0;
	r = flags_line(p, end, f);
	if (r < 0)
		return r;
	r = fact(p, end, "Kernel driver in use:", &f->driver);
	if (!r)
		r = fact(p, end, "NUMA node:", &f->numa_node);
	if (!r)
		r = fact(p, end, "IOMMU group:", &f->iommu_group);
	/* The text is not NUL-terminated: compare within the line only. */
	for (size_t i = 0; !r && i < sizeof(marks) / sizeof(marks[0]); i++)
		r = (size_t)(end - p) >= strlen(marks[i]) &&
		    !memcmp(p, marks[i], strlen(marks[i]));
	if (r > 0)
		f->verbose = true;
	return r < 0 ? r : 0;
}

static bool same(const struct function *a, const struct function *b)
{
	return a->domain == b->domain && a->bus == b->bus &&
	       a->dev == b->dev && a->fn == b->fn;
}

/* Keeps f unless the same function came with as many bytes before (and
 * lspci -v's text, if f has it); f is left empty either way. */
static int commit(struct functions *fs, struct function *f)
{
	struct function *more;

	/* Neither hex nor lspci -v's text: a line that only looked like a
	 * header. */
	if (!length(f) && !f->verbose && !f->has_ids) {
		function_clear(f);
		return 0;
	}
	for (size_t i = 0; i < fs->n; i++) {
		if (!same(&fs->v[i], f))
			continue;
		/* The longer dump; of none, the one with lspci -v's text
		 * (lspci -nn's list comes before -vvv's blocks in a log). */
		if (length(f) > length(&fs->v[i]) ||
		    (length(f) == length(&fs->v[i]) && f->verbose &&
		     !fs->v[i].verbose)) {
			function_clear(&fs->v[i]);
			fs->v[i] = *f;
			memset(f, 0, sizeof(*f));
		}
		function_clear(f);
		return 0;
	}
	more = realloc(fs->v, (fs->n + 1) * sizeof(*more));
	if (!more) {
		function_clear(f);
		return -ENOMEM;
	}
	fs->v = more;
	fs->v[fs->n++] = *f;
	memset(f, 0, sizeof(*f));
	return 0;
}

static int write_out(const struct functions *fs, char **out)
{
	size_t len = 0;
	FILE *m = open_memstream(out, &len);

	if (!m)
		return -ENOMEM;
	for (size_t i = 0; i < fs->n; i++) {
		const struct function *f = &fs->v[i];
		size_t n = length(f);

		if (!n)
			continue;
		fprintf(m, "%04x:%02x:%02x.%u function\n", f->domain, f->bus,
			f->dev, f->fn);
		for (size_t off = 0; off < n; off += LINE_BYTES) {
			fprintf(m, off < 0x100 ? "%02zx:" : "%03zx:", off);
			for (size_t k = 0; k < LINE_BYTES; k++)
				fprintf(m, " %02x", f->bytes[off + k]);
			fputc('\n', m);
		}
		fputc('\n', m);
	}
	return fclose(m) ? -ENOMEM : 0;
}

/* The facts of each function, in the dump's order. */
static int take_facts(struct functions *fs, struct pa_lspci_text *out)
{
	out->facts = calloc(fs->n + 1, sizeof(*out->facts));
	if (!out->facts)
		return -ENOMEM;
	for (size_t i = 0; i < fs->n; i++) {
		struct function *f = &fs->v[i];
		struct pa_lspci_facts *t = &out->facts[i];

		snprintf(t->bdf, sizeof(t->bdf), "%04x:%02x:%02x.%u",
			 f->domain, f->bus, f->dev, f->fn);
		t->driver = f->driver;
		t->numa_node = f->numa_node;
		t->iommu_group = f->iommu_group;
		f->driver = f->numa_node = f->iommu_group = NULL;
		t->has_dump = length(f) > 0;
		t->has_ids = f->has_ids;
		t->vendor = f->vendor;
		t->device = f->device;
		t->class = f->class;
		t->revision = f->revision;
		t->bar_sizes_known = f->verbose && !f->region_without_size &&
				     !f->nplain;
		t->nplain = f->plain_without_size ? 0 : f->nplain;
		memcpy(t->plain_size, f->plain_size, sizeof(t->plain_size));
		memcpy(t->plain_unassigned, f->plain_unassigned,
		       sizeof(t->plain_unassigned));
		memcpy(t->bar_size, f->bar_size, sizeof(t->bar_size));
		memcpy(t->bar_unassigned, f->bar_unassigned,
		       sizeof(t->bar_unassigned));
		memcpy(t->bar_place, f->bar_place, sizeof(t->bar_place));
		memcpy(t->plain_place, f->plain_place, sizeof(t->plain_place));
		out->verbose |= f->verbose;
		out->iommu_groups |= t->iommu_group != NULL;
	}
	return 0;
}

void pa_lspci_text_clear(struct pa_lspci_text *t)
{
	for (size_t i = 0; t->facts && i < t->nfacts; i++) {
		free(t->facts[i].driver);
		free(t->facts[i].numa_node);
		free(t->facts[i].iommu_group);
	}
	free(t->facts);
	free(t->dump);
	*t = (struct pa_lspci_text){ 0 };
}

int pa_lspci_normalise(const char *text, size_t len, struct pa_lspci_text *out)
{
	struct functions fs = { 0 };
	struct function *cur = calloc(1, sizeof(*cur));
	const char *p = text, *end = text + len;
	bool open = false;
	int err = cur ? 0 : -ENOMEM;

	*out = (struct pa_lspci_text){ 0 };
	while (!err && p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *line_end = eol ? eol : end;
		const char *s = pa_lspci_unquote(p, line_end);
		struct function h;

		if (line_end > s && line_end[-1] == '\r')
			line_end--;
		if (header(s, line_end, &h)) {
			if (open)
				err = commit(&fs, cur);
			cur->domain = h.domain;
			cur->bus = h.bus;
			cur->dev = h.dev;
			cur->fn = h.fn;
			header_ids(past_bdf(s, line_end), line_end, cur);
			open = true;
		} else if (open && !hex_line(s, line_end, cur)) {
			err = verbose_line(s, line_end, cur);
		}
		p = eol ? eol + 1 : end;
	}
	if (!err && open)
		err = commit(&fs, cur);
	if (!err)
		err = write_out(&fs, &out->dump);
	for (size_t i = 0; i < fs.n; i++)
		out->nfunctions += length(&fs.v[i]) > 0;
	if (!err)
		err = take_facts(&fs, out);
	if (!err)
		out->nfacts = fs.n;
	for (size_t i = 0; i < fs.n; i++)
		function_clear(&fs.v[i]);
	if (cur)
		function_clear(cur);
	free(cur);
	free(fs.v);
	if (err)
		pa_lspci_text_clear(out);
	return err;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

bool pa_lspci_plain_regions(struct pa_lspci_facts *f, const uint8_t *config,
			    size_t len)
{
	int type = len >= 64 ? config[0x0e] & 0x7f : -1;
	size_t bars = type == 0 ? 6 : type == 1 ? 2 : 0, k = 0;
	int index[6];

	if (!f->nplain || !bars)
		return false;
	for (size_t i = 0; i < bars; i++) {
		uint32_t flg = le32(config + 0x10 + 4 * i);

		if (flg == 0xffffffff)
			flg = 0;
		if (!flg)
			continue;
		if (k == 6)
			return false;
		index[k++] = (int)i;
		/* A 64-bit memory BAR: its upper half is no region. */
		if (!(flg & 1) && (flg & 6) == 4)
			i++;
	}
	if (k != f->nplain)
		return false;
	memset(f->bar_size, 0, sizeof(f->bar_size));
	memset(f->bar_unassigned, 0, sizeof(f->bar_unassigned));
	memset(f->bar_place, 0, sizeof(f->bar_place));
	for (size_t r = 0; r < k; r++) {
		f->bar_size[index[r]] = f->plain_size[r];
		f->bar_unassigned[index[r]] = f->plain_unassigned[r];
		f->bar_place[index[r]] = f->plain_place[r];
	}
	f->bar_sizes_known = true;
	return true;
}

bool pa_lspci_head(const char *p, const char *end, struct pa_lspci_head *h)
{
	struct function f = { 0 };

	if (!header(p, end, &f))
		return false;
	header_ids(past_bdf(p, end), end, &f);
	*h = (struct pa_lspci_head){
		.domain = f.domain, .bus = f.bus, .dev = f.dev, .fn = f.fn,
		.has_ids = f.has_ids, .vendor = f.vendor, .device = f.device,
		.class = f.class, .revision = f.revision,
		.rest = past_bdf(p, end),
	};
	return true;
}

bool pa_lspci_hex_row(const char *p, const char *end)
{
	struct function f = { 0 };

	return hex_line(p, end, &f);
}
