// SPDX-License-Identifier: GPL-2.0
#include "lspci_vvv.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pci_regs.h>

#include "lspci_text.h"

#define STD_SIZE	256
#define CLASS_CARDBUS	0x0607
#define MAX_EXT		96	/* (4096 - 256) / 40: more than fit */

enum cap_kind { CAP_NONE, CAP_EXP, CAP_ACS, CAP_ATS, CAP_REBAR, CAP_OTHER };

struct block {
	struct pa_vvv_fn f;
	bool open;
	bool hex;		/* hex rows: the dump reader's, not ours */
	bool verbose;		/* a line of lspci -v's below the header */
	bool closed;		/* past the blank line that ends the block */
	bool in_caps;		/* past the first "Capabilities:" line */
	bool regs;		/* a register line of -vv (DevCap:, LnkCap:, ...) */
	bool exp;		/* a PCI Express capability */
	unsigned int exp_pos;
	enum cap_kind kind;	/* of the capability being read */
	unsigned int cap_pos;
	char label[16];		/* the last "Label:" seen */
	unsigned int ext_pos[MAX_EXT];
	uint16_t ext_id[MAX_EXT];
	uint8_t ext_ver[MAX_EXT];
	size_t next;
	unsigned int rebar_entries;
};

static void put16(uint8_t *c, unsigned int pos, uint16_t v)
{
	c[pos] = (uint8_t)v;
	c[pos + 1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *c, unsigned int pos, uint32_t v)
{
	put16(c, pos, (uint16_t)v);
	put16(c, pos + 2, (uint16_t)(v >> 16));
}

static uint16_t get16(const uint8_t *c, unsigned int pos)
{
	return (uint16_t)(c[pos] | c[pos + 1] << 8);
}

static uint32_t get32(const uint8_t *c, unsigned int pos)
{
	return get16(c, pos) | (uint32_t)get16(c, pos + 2) << 16;
}

static bool starts(const char *p, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(end - p) >= n && !memcmp(p, prefix, n);
}

/* Digits in base at p, up to end; false without one. */
static bool number(const char *p, const char *end, int base, unsigned long *v)
{
	char buf[24];
	size_t n = 0;
	char *stop;

	while (p + n < end && n < sizeof(buf) - 1 &&
	       (base == 16 ? isxdigit((unsigned char)p[n]) :
			     isdigit((unsigned char)p[n])))
		n++;
	if (!n)
		return false;
	memcpy(buf, p, n);
	buf[n] = '\0';
	*v = strtoul(buf, &stop, base);
	return true;
}

/* The number after label within the line, in base. */
static bool after(const char *p, const char *end, const char *label, int base,
		  unsigned long *v)
{
	const char *at = pa_lspci_within(p, end, label);

	return at && number(at + strlen(label), end, base, v);
}

/* "+" or "-" after token (a whole word): 1, 0, or -1 when absent. */
static int flag(const char *p, const char *end, const char *token)
{
	size_t n = strlen(token);

	for (const char *at = p; (at = pa_lspci_within(at, end, token)); at += n) {
		if (at > p && !isspace((unsigned char)at[-1]) && at[-1] != ',' &&
		    at[-1] != ':')
			continue;
		if (at + n < end && (at[n] == '+' || at[n] == '-'))
			return at[n] == '+';
	}
	return -1;
}

/* LnkCap's, LnkSta's and LnkCtl2's speed: the encoding of
 * PCI_EXP_LNKCAP_SLS; 0 for unknown. */
static unsigned int speed_code(const char *p, const char *end)
{
	static const char *const speeds[] = {
		"2.5GT/s", "5GT/s", "8GT/s", "16GT/s", "32GT/s", "64GT/s",
	};

	for (size_t i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++)
		if (starts(p, end, speeds[i]))
			return (unsigned int)i + 1;
	return 0;
}

static unsigned int speed_after(const char *p, const char *end,
				const char *label)
{
	const char *at = pa_lspci_within(p, end, label);

	return at ? speed_code(at + strlen(label), end) : 0;
}

/* "128 bytes" as the register's encoding: log2(bytes) - 7. */
static bool payload(const char *p, const char *end, const char *label,
		    unsigned int *code)
{
	unsigned long bytes;

	if (!after(p, end, label, 10, &bytes) || bytes < 128 || bytes > 4096 ||
	    (bytes & (bytes - 1)))
		return false;
	for (*code = 0; (128ul << *code) < bytes; (*code)++)
		;
	return true;
}

static void set_bits(uint8_t *c, unsigned int pos, uint16_t mask, int on)
{
	if (on > 0)
		put16(c, pos, get16(c, pos) | mask);
}

/* ---- PCI Express ---------------------------------------------------------- */

static const struct {
	const char *name;
	int type;
} exp_types[] = {
	{ "Root Complex Integrated Endpoint", PCI_EXP_TYPE_RC_END },
	{ "Root Complex Event Collector", PCI_EXP_TYPE_RC_EC },
	{ "Legacy Endpoint", PCI_EXP_TYPE_LEG_END },
	{ "Endpoint", PCI_EXP_TYPE_ENDPOINT },
	{ "Root Port", PCI_EXP_TYPE_ROOT_PORT },
	{ "Upstream Port", PCI_EXP_TYPE_UPSTREAM },
	{ "Downstream Port", PCI_EXP_TYPE_DOWNSTREAM },
	{ "PCI-Express to PCI/PCI-X Bridge", PCI_EXP_TYPE_PCI_BRIDGE },
	{ "PCI/PCI-X to PCI-Express Bridge", PCI_EXP_TYPE_PCIE_BRIDGE },
};

/* "Express (v2) Root Port (Slot+), MSI 00" at pos. */
static void exp_cap(struct block *b, unsigned int pos, const char *p,
		    const char *end)
{
	unsigned long ver = 1;
	int type = -1;

	p += strlen("Express");
	while (p < end && *p == ' ')
		p++;
	if (starts(p, end, "(v"))
		number(p + 2, end, 10, &ver);
	for (size_t i = 0; i < sizeof(exp_types) / sizeof(exp_types[0]); i++)
		if (pa_lspci_within(p, end, exp_types[i].name)) {
			type = exp_types[i].type;
			break;
		}
	if (type < 0 || pos + PCI_EXP_LNKSTA + 2 > STD_SIZE)
		return;
	b->exp = true;
	b->exp_pos = pos;
	b->f.config[pos] = PCI_CAP_ID_EXP;
	put16(b->f.config, pos + PCI_EXP_FLAGS,
	      (uint16_t)((ver & PCI_EXP_FLAGS_VERS) | (unsigned int)type << 4));
}

static void exp_line(struct block *b, const char *p, const char *end)
{
	uint8_t *c = b->f.config;
	unsigned int pos = b->exp_pos, code;
	unsigned long width;

	if (!strcmp(b->label, "DevCap") && payload(p, end, "MaxPayload ", &code))
		put32(c, pos + PCI_EXP_DEVCAP,
		      (get32(c, pos + PCI_EXP_DEVCAP) & ~7u) | code);
	if (!strcmp(b->label, "DevCtl")) {
		static const struct { const char *name; uint16_t bit; } bits[] = {
			{ "CorrErr", PCI_EXP_DEVCTL_CERE },
			{ "NonFatalErr", PCI_EXP_DEVCTL_NFERE },
			{ "FatalErr", PCI_EXP_DEVCTL_FERE },
			{ "UnsupReq", PCI_EXP_DEVCTL_URRE },
			{ "RlxdOrd", PCI_EXP_DEVCTL_RELAX_EN },
			{ "ExtTag", PCI_EXP_DEVCTL_EXT_TAG },
			{ "PhantFunc", PCI_EXP_DEVCTL_PHANTOM },
			{ "AuxPwr", PCI_EXP_DEVCTL_AUX_PME },
			{ "NoSnoop", PCI_EXP_DEVCTL_NOSNOOP_EN },
		};
		uint16_t v;

		for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
			set_bits(c, pos + PCI_EXP_DEVCTL, bits[i].bit,
				 flag(p, end, bits[i].name));
		v = get16(c, pos + PCI_EXP_DEVCTL);
		if (payload(p, end, "MaxPayload ", &code))
			v = (uint16_t)((v & ~PCI_EXP_DEVCTL_PAYLOAD) | code << 5);
		if (payload(p, end, "MaxReadReq ", &code))
			v = (uint16_t)((v & ~PCI_EXP_DEVCTL_READRQ) | code << 12);
		put16(c, pos + PCI_EXP_DEVCTL, v);
	}
	if (!strcmp(b->label, "LnkCap") && starts(p, end, "LnkCap:")) {
		uint32_t v = speed_after(p, end, "Speed ");

		if (after(p, end, "Width x", 10, &width))
			v |= (uint32_t)(width & 0x3f) << 4;
		put32(c, pos + PCI_EXP_LNKCAP, v);
	}
	if (!strcmp(b->label, "LnkSta") && starts(p, end, "LnkSta:")) {
		uint16_t v = (uint16_t)speed_after(p, end, "Speed ");

		if (after(p, end, "Width x", 10, &width))
			v |= (uint16_t)((width & 0x3f) << 4);
		put16(c, pos + PCI_EXP_LNKSTA, v);
	}
	if (!strcmp(b->label, "LnkCtl2") && starts(p, end, "LnkCtl2:") &&
	    pos + PCI_EXP_LNKCTL2 + 2 <= STD_SIZE)
		put16(c, pos + PCI_EXP_LNKCTL2,
		      (uint16_t)speed_after(p, end, "Target Link Speed: "));
}

/* ---- Extended capabilities ----------------------------------------------- */

static const struct {
	const char *name;
	uint16_t id;
	enum cap_kind kind;
} ext_names[] = {
	{ "Access Control Services", PCI_EXT_CAP_ID_ACS, CAP_ACS },
	{ "Address Translation Service", PCI_EXT_CAP_ID_ATS, CAP_ATS },
	{ "Single Root I/O Virtualization", PCI_EXT_CAP_ID_SRIOV, CAP_OTHER },
	{ "Physical Resizable BAR", PCI_EXT_CAP_ID_REBAR, CAP_REBAR },
};

static void ext_cap(struct block *b, unsigned int pos, unsigned long ver,
		    const char *p, const char *end)
{
	size_t i;

	b->kind = CAP_OTHER;
	/* Written as pos > limit: pos + 8 would wrap for a pos near UINT_MAX. */
	if (b->next == MAX_EXT || pos > PA_VVV_CONFIG - 8)
		return;
	b->ext_pos[b->next] = pos;
	b->ext_ver[b->next] = (uint8_t)(ver & 0xf);
	b->ext_id[b->next] = 0;
	for (i = 0; i < sizeof(ext_names) / sizeof(ext_names[0]); i++)
		if (starts(p, end, ext_names[i].name)) {
			b->ext_id[b->next] = ext_names[i].id;
			b->kind = ext_names[i].kind;
			break;
		}
	b->next++;
	b->cap_pos = pos;
	b->rebar_entries = 0;
}

static uint16_t acs_bits(const char *p, const char *end)
{
	static const char *const names[] = {
		"SrcValid", "TransBlk", "ReqRedir", "CmpltRedir", "UpstreamFwd",
		"EgressCtrl", "DirectTrans",
	};
	uint16_t v = 0;

	for (unsigned int i = 0; i < 7; i++)
		if (flag(p, end, names[i]) > 0)
			v |= (uint16_t)(1u << i);
	return v;
}

/* "16MB", "1GB", ... as log2 of the size in MB; -1 otherwise. */
static int rebar_size(const char *p, const char *end)
{
	static const char units[] = "MGTP";
	unsigned long v;
	const char *u;
	int n = 0;

	if (!number(p, end, 10, &v) || !v || (v & (v - 1)))
		return -1;
	while (p < end && isdigit((unsigned char)*p))
		p++;
	if (p + 1 >= end || p[1] != 'B' || !(u = memchr(units, *p, 4)))
		return -1;
	while ((1ul << n) < v)
		n++;
	n += 10 * (int)(u - units);
	return n < 44 ? n : -1;
}

/* "BAR 0: current size: 16MB, supported: 16MB 32MB 64MB" */
static void rebar_line(struct block *b, const char *p, const char *end)
{
	unsigned int at = b->cap_pos + 8 * b->rebar_entries;
	unsigned long bar;
	const char *s;
	uint32_t cap = 0, ctrl;
	int n;

	if (!starts(p, end, "BAR ") || !number(p + 4, end, 10, &bar) ||
	    bar > 5 || at > PA_VVV_CONFIG - PCI_REBAR_CTRL - 4)
		return;
	s = pa_lspci_within(p, end, "current size: ");
	n = s ? rebar_size(s + 14, end) : -1;
	ctrl = (uint32_t)bar | (n >= 0 ? (uint32_t)n << 8 : 0);
	s = pa_lspci_within(p, end, "supported: ");
	for (s = s ? s + 11 : end; s < end; s++)
		if ((s[-1] == ' ' || s[-1] == ':') &&
		    (n = rebar_size(s, end)) >= 0 && n < 28)
			cap |= 1u << (n + 4);
	put32(b->f.config, at + PCI_REBAR_CAP, cap);
	put32(b->f.config, at + PCI_REBAR_CTRL, ctrl);
	b->rebar_entries++;
	/* The first entry's control names how many there are. */
	ctrl = get32(b->f.config, b->cap_pos + PCI_REBAR_CTRL);
	ctrl = (ctrl & ~PCI_REBAR_CTRL_NBAR_MASK) |
	       (b->rebar_entries << PCI_REBAR_CTRL_NBAR_SHIFT);
	put32(b->f.config, b->cap_pos + PCI_REBAR_CTRL, ctrl);
}

static void ext_line(struct block *b, const char *p, const char *end)
{
	uint8_t *c = b->f.config;
	unsigned int pos = b->cap_pos;
	unsigned long v;

	switch (b->kind) {
	case CAP_ACS:
		if (starts(p, end, "ACSCap:"))
			put16(c, pos + PCI_ACS_CAP, acs_bits(p, end));
		else if (starts(p, end, "ACSCtl:"))
			put16(c, pos + PCI_ACS_CTRL, acs_bits(p, end));
		break;
	case CAP_ATS:
		if (starts(p, end, "ATSCap:")) {
			v = 0;
			after(p, end, "Invalidate Queue Depth: ", 16, &v);
			put16(c, pos + PCI_ATS_CAP, (uint16_t)((v & 0x1f) |
			      (flag(p, end, "Page Aligned Request") > 0 ? 0x20 : 0)));
		} else if (starts(p, end, "ATSCtl:")) {
			v = 0;
			after(p, end, "Smallest Translation Unit: ", 16, &v);
			put16(c, pos + PCI_ATS_CTRL, (uint16_t)((v & 0x1f) |
			      (flag(p, end, "Enable") > 0 ? PCI_ATS_CTRL_ENABLE : 0)));
		}
		break;
	case CAP_REBAR:
		rebar_line(b, p, end);
		break;
	default:
		break;
	}
}

/* ---- The header ---------------------------------------------------------- */

/* "Region 0: Memory at fde44000 (32-bit, non-prefetchable) [size=16K]",
 * "Region 4: I/O ports at c000", "... Memory at <unassigned> (64-bit,
 * prefetchable)"; a VF's "[virtual]" BARs read 0 in its registers. */
static void region(struct block *b, const char *p, const char *end)
{
	unsigned long n, addr = 0;
	const char *at;
	uint32_t lo;
	bool io;

	if (!number(p + 7, end, 10, &n) || n > 5)
		return;
	if (pa_lspci_within(p, end, "[virtual]"))
		return;
	io = pa_lspci_within(p, end, "I/O ports at ") != NULL;
	at = pa_lspci_within(p, end, io ? "I/O ports at " : "Memory at ");
	if (!at)
		return;
	at += strlen(io ? "I/O ports at " : "Memory at ");
	if (*at != '<')
		number(at, end, 16, &addr);
	if (io) {
		put32(b->f.config, PCI_BASE_ADDRESS_0 + 4 * (unsigned int)n,
		      (uint32_t)(addr & PCI_BASE_ADDRESS_IO_MASK) | 1);
		return;
	}
	lo = (uint32_t)addr & PCI_BASE_ADDRESS_MEM_MASK;
	if (pa_lspci_within(p, end, "64-bit"))
		lo |= PCI_BASE_ADDRESS_MEM_TYPE_64;
	if (pa_lspci_within(p, end, ", prefetchable"))
		lo |= PCI_BASE_ADDRESS_MEM_PREFETCH;
	put32(b->f.config, PCI_BASE_ADDRESS_0 + 4 * (unsigned int)n, lo);
	if ((lo & PCI_BASE_ADDRESS_MEM_TYPE_64) && n < 5)
		put32(b->f.config, PCI_BASE_ADDRESS_0 + 4 * (unsigned int)n + 4,
		      (uint32_t)((unsigned long long)addr >> 32));
}

/* "Bus: primary=00, secondary=01, subordinate=08, sec-latency=0" */
static void bus_line(struct block *b, const char *p, const char *end)
{
	unsigned long v;

	b->f.config[PCI_HEADER_TYPE] = (b->f.config[PCI_HEADER_TYPE] & 0x80) |
		(get16(b->f.config, PCI_CLASS_DEVICE) == CLASS_CARDBUS ?
		 PCI_HEADER_TYPE_CARDBUS : PCI_HEADER_TYPE_BRIDGE);
	if (after(p, end, "primary=", 16, &v))
		b->f.config[PCI_PRIMARY_BUS] = (uint8_t)v;
	if (after(p, end, "secondary=", 16, &v))
		b->f.config[PCI_SECONDARY_BUS] = (uint8_t)v;
	if (after(p, end, "subordinate=", 16, &v))
		b->f.config[PCI_SUBORDINATE_BUS] = (uint8_t)v;
}

/* "[vvvv:dddd]" anywhere in the line: lspci -nn's ids. */
static bool bracket_ids(const char *p, const char *end, uint16_t *v,
			uint16_t *d)
{
	unsigned long a, b;

	for (; p + 11 <= end; p++)
		if (p[0] == '[' && p[5] == ':' && p[10] == ']' &&
		    number(p + 1, p + 5, 16, &a) && number(p + 6, p + 10, 16, &b) &&
		    isxdigit((unsigned char)p[4]) && isxdigit((unsigned char)p[9])) {
			*v = (uint16_t)a;
			*d = (uint16_t)b;
			return true;
		}
	return false;
}

/* "Subsystem: Name [vvvv:dddd]", or lspci -n's "Subsystem: vvvv:dddd". */
static void subsystem(struct block *b, const char *p, const char *end)
{
	uint16_t v = 0, d = 0;
	unsigned long a, c;

	p += strlen("Subsystem:");
	while (p < end && *p == ' ')
		p++;
	if (!bracket_ids(p, end, &v, &d)) {
		if (end - p == 9 && p[4] == ':' && number(p, p + 4, 16, &a) &&
		    number(p + 5, end, 16, &c)) {
			v = (uint16_t)a;
			d = (uint16_t)c;
		} else {
			/* Names only: pci.ids names subsystems by the
			 * device's ids, which a name does not give back. */
			return;
		}
	}
	if ((b->f.config[PCI_HEADER_TYPE] & 0x7f) == PCI_HEADER_TYPE_NORMAL) {
		put16(b->f.config, PCI_SUBSYSTEM_VENDOR_ID, v);
		put16(b->f.config, PCI_SUBSYSTEM_ID, d);
	}
}

/* Without -n: the names lspci printed, "Class name: Vendor Device (rev
 * rr) (prog-if pp [...])", looked up. */
static bool ids_from_names(const char *p, const char *end,
			   const struct pa_vvv_names *names, uint16_t *class,
			   uint16_t *vendor, uint16_t *device)
{
	const char *colon = pa_lspci_within(p, end, ": "), *stop;
	char buf[256];
	size_t n;

	*class = 0xffff;	/* unknown, until a name gives it */
	while (p < end && *p == ' ')
		p++;
	if (!names || !names->ids || !names->class_code || !colon)
		return false;
	n = (size_t)(colon - p) < sizeof(buf) ? (size_t)(colon - p) :
	    sizeof(buf) - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	if (!names->class_code(names->arg, buf, class))
		*class = 0xffff;
	p = colon + 2;
	stop = pa_lspci_within(p, end, " (rev ");
	if (!stop)
		stop = pa_lspci_within(p, end, " (prog-if ");
	if (!stop)
		stop = end;
	n = (size_t)(stop - p) < sizeof(buf) ? (size_t)(stop - p) :
	    sizeof(buf) - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return names->ids(names->arg, buf, vendor, device);
}

static void start(struct block *b, const struct pa_lspci_head *h,
		  const char *end, const struct pa_vvv_names *names)
{
	uint8_t *c = b->f.config;
	uint16_t class = h->class, vendor = h->vendor, device = h->device;
	unsigned long prog = 0;
	const char *at;

	memset(b, 0, sizeof(*b));
	b->open = true;
	snprintf(b->f.bdf, sizeof(b->f.bdf), "%04x:%02x:%02x.%u", h->domain,
		 h->bus, h->dev, h->fn);
	b->f.ids_known = h->has_ids ||
			 ids_from_names(h->rest, end, names, &class, &vendor,
					&device);
	b->f.class_known = h->has_ids || class != 0xffff;
	if (!b->f.ids_known)
		vendor = device = 0;
	put16(c, PCI_VENDOR_ID, vendor);
	put16(c, PCI_DEVICE_ID, device);
	put16(c, PCI_CLASS_DEVICE, class);
	c[PCI_REVISION_ID] = h->revision > 0 ? (uint8_t)h->revision : 0;
	/* lspci prints a revision only when it is not 0. */
	at = pa_lspci_within(h->rest, end, " (rev ");
	if (at && number(at + 6, end, 16, &prog))
		c[PCI_REVISION_ID] = (uint8_t)prog;
	prog = 0;
	at = pa_lspci_within(h->rest, end, "(prog-if ");
	if (at && number(at + 9, end, 16, &prog))
		c[PCI_CLASS_PROG] = (uint8_t)prog;
}

/* The extended capabilities in a chain, in the order printed. */
static void chain(struct block *b)
{
	for (size_t i = 0; i < b->next; i++) {
		unsigned int next = i + 1 < b->next ? b->ext_pos[i + 1] : 0;

		put32(b->f.config, b->ext_pos[i], b->ext_id[i] |
		      (uint32_t)b->ext_ver[i] << 16 | (uint32_t)next << 20);
	}
}

/* The block is done: kept when lspci -v's text says enough. */
static int finish(struct block *b, struct pa_vvv *out)
{
	struct pa_vvv_fn *more;

	if (!b->open)
		return 0;
	b->open = false;
	if (b->hex)
		return 0;
	if (!b->verbose) {
		out->bare_headers++;
		return 0;
	}
	for (size_t i = 0; i < out->n; i++)
		if (!strcmp(out->v[i].bdf, b->f.bdf))
			return 0;
	if (b->exp) {
		b->f.config[PCI_CAPABILITY_LIST] = (uint8_t)b->exp_pos;
		put16(b->f.config, PCI_STATUS, PCI_STATUS_CAP_LIST);
	}
	chain(b);
	b->f.len = b->next ? PA_VVV_CONFIG : STD_SIZE;
	/* lspci -v (one v) names the capabilities, not their registers. */
	if (b->exp && !b->regs && !b->f.caps_hidden)
		b->f.caps_hidden = true;
	more = realloc(out->v, (out->n + 1) * sizeof(*more));
	if (!more)
		return -ENOMEM;
	out->v = more;
	out->v[out->n++] = b->f;
	return 0;
}

/* "Label:" at the start of a line: its name, for the lines that follow. */
static void take_label(struct block *b, const char *p, const char *end)
{
	size_t n = 0;

	while (p + n < end && n < sizeof(b->label) - 1 &&
	       isalnum((unsigned char)p[n]))
		n++;
	if (!n || p + n >= end || p[n] != ':')
		return;
	memcpy(b->label, p, n);
	b->label[n] = '\0';
	if (!strcmp(b->label, "DevCap") || !strcmp(b->label, "LnkCap") ||
	    !strcmp(b->label, "ACSCap") || !strcmp(b->label, "ATSCap"))
		b->regs = true;
}

/* "Capabilities: [54] Express ..." or "[148 v1] Access Control ..." */
static void cap_line(struct block *b, const char *p, const char *end)
{
	unsigned long pos, ver = 0;
	const char *q;

	b->in_caps = true;
	b->kind = CAP_NONE;
	p += strlen("Capabilities:");
	while (p < end && *p == ' ')
		p++;
	if (starts(p, end, "<access denied>")) {
		b->f.caps_hidden = true;
		return;
	}
	if (p >= end || *p != '[' || !number(p + 1, end, 16, &pos))
		return;
	q = memchr(p, ']', (size_t)(end - p));
	if (!q)
		return;
	if (pa_lspci_within(p, q, " v"))
		number(pa_lspci_within(p, q, " v") + 2, q, 10, &ver);
	for (q++; q < end && *q == ' '; q++)
		;
	/* A position past the configuration space is no capability. */
	if (pos >= PA_VVV_CONFIG)
		return;
	if (pos >= STD_SIZE) {
		ext_cap(b, (unsigned int)pos, ver, q, end);
		return;
	}
	if (starts(q, end, "Express") && pos >= 0x40 && !b->exp) {
		exp_cap(b, (unsigned int)pos, q, end);
		if (b->exp)
			b->kind = CAP_EXP;
	}
}

/* The lines lspci -v prints first below a header. */
static bool verbose_label(const char *p, const char *end)
{
	static const char *const labels[] = {
		"Subsystem:", "Flags:", "Control:", "Status:", "Latency:",
		"Interrupt:", "Region ", "Memory at ", "I/O ports at ",
		"Expansion ROM", "Bus:", "Capabilities:", "Kernel driver in use:",
		"Kernel modules:", "NUMA node:", "IOMMU group:", "Physical Slot:",
		"DeviceName:", "Device tree node:",
	};

	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		if (starts(p, end, labels[i]))
			return true;
	return false;
}

static void line(struct block *b, const char *p, const char *end)
{
	if (pa_lspci_hex_row(p, end)) {
		b->hex = true;
		return;
	}
	/* lspci ends each function's block with a blank line: what follows
	 * (another command's output, a drawing) is not the function's. */
	if (p == end) {
		b->closed = true;
		return;
	}
	if (b->closed)
		return;
	if (!b->verbose)
		b->verbose = verbose_label(p, end);
	if (!b->verbose)
		return;
	if (starts(p, end, "Capabilities:")) {
		cap_line(b, p, end);
		return;
	}
	take_label(b, p, end);
	if (!b->in_caps) {
		if (starts(p, end, "Region "))
			region(b, p, end);
		else if (starts(p, end, "Bus: "))
			bus_line(b, p, end);
		else if (starts(p, end, "Subsystem:"))
			subsystem(b, p, end);
		return;
	}
	if (b->kind == CAP_EXP)
		exp_line(b, p, end);
	else if (b->kind != CAP_NONE)
		ext_line(b, p, end);
}

/* lspci does not print the header type's multifunction bit: function 0
 * of a slot with more functions has it, as the kernel needs to probe
 * them; other functions' bits are not read, and left clear, as most
 * hardware and QEMU leave them. */
static void multifunction(struct pa_vvv *out)
{
	for (size_t i = 0; i < out->n; i++)
		for (size_t j = 0; j < out->n; j++)
			if (i != j && !strncmp(out->v[i].bdf, out->v[j].bdf, 10) &&
			    out->v[i].bdf[11] == '0')
				out->v[i].config[PCI_HEADER_TYPE] |= 0x80;
}

int pa_vvv_parse(const char *text, size_t len, const struct pa_vvv_names *names,
		 struct pa_vvv *out)
{
	struct block *b = calloc(1, sizeof(*b));
	const char *p = text, *end = text + len;
	int err = b ? 0 : -ENOMEM;

	*out = (struct pa_vvv){ 0 };
	while (!err && p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *line_end = eol ? eol : end;
		const char *s = pa_lspci_unquote(p, line_end);
		struct pa_lspci_head h;

		while (line_end > s && isspace((unsigned char)line_end[-1]))
			line_end--;
		if (pa_lspci_head(s, line_end, &h)) {
			err = finish(b, out);
			if (!err)
				start(b, &h, line_end, names);
		} else if (b->open) {
			line(b, s, line_end);
		}
		p = eol ? eol + 1 : end;
	}
	if (!err)
		err = finish(b, out);
	free(b);
	if (err)
		pa_vvv_clear(out);
	else
		multifunction(out);
	return err;
}

void pa_vvv_clear(struct pa_vvv *v)
{
	free(v->v);
	*v = (struct pa_vvv){ 0 };
}
