// SPDX-License-Identifier: GPL-2.0
#include "lspci_tree.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * lspci draws a bus's functions one a line after the first, each below
 * the '+' of its first sibling as "+-DD.F", the last as "\-DD.F"; a lone
 * function follows its bus as "--DD.F". Which bus a continued line is on
 * is thus told by the column of its '+' or '\': that column is remembered
 * for each bus with siblings. Columns past this many are not followed.
 */
#define COLUMNS 1024

struct bus {
	bool set;
	unsigned int domain, number;
	char bridge[PA_BDF_LEN];	/* "" for a root bus */
};

struct parser {
	struct bus at[COLUMNS];
	bool drawing;			/* the previous line was part of one */
	struct pa_lspci_tree *out;
};

static int hexval(char c)
{
	return isdigit((unsigned char)c) ? c - '0' :
	       isxdigit((unsigned char)c) ? tolower((unsigned char)c) - 'a' + 10 : -1;
}

/* n hex digits at p[i..], within len; -1 if not. */
static long hexn(const char *p, size_t len, size_t i, size_t n)
{
	long v = 0;

	if (i + n > len)
		return -1;
	for (size_t k = 0; k < n; k++) {
		int d = hexval(p[i + k]);

		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static int add(struct pa_lspci_tree *t, const struct bus *b, unsigned int dev,
	       unsigned int fn, char bdf[PA_BDF_LEN])
{
	struct pa_lspci_edge *v = realloc(t->v, (t->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	t->v = v;
	snprintf(bdf, PA_BDF_LEN, "%04x:%02x:%02x.%u", b->domain & 0xffff,
		 b->number & 0xff, dev, fn);
	memcpy(v[t->n].bdf, bdf, PA_BDF_LEN);
	memcpy(v[t->n].parent, b->bridge, PA_BDF_LEN);
	v[t->n].secondary = v[t->n].subordinate = -1;
	t->n++;
	return 0;
}

/*
 * From p[i], just past a bus's "]": its dashes, then "+-" for the first of
 * several functions (remembered at that column), or its lone function, or
 * nothing. Then each function, and the bus behind it if it is a bridge.
 * 1 when the line was a drawing's, 0 when not, -ENOMEM.
 */
static int walk(struct parser *ps, const char *p, size_t len, size_t i,
		struct bus b)
{
	char bdf[PA_BDF_LEN];
	long dev, lo, hi;

	for (;;) {
		while (i < len && p[i] == '-')
			i++;
		if (i >= len || isspace((unsigned char)p[i]))
			return 1;	/* a bus with nothing on it */
		if (p[i] == '+' && i + 1 < len && p[i + 1] == '-') {
			if (i < COLUMNS)
				ps->at[i] = b;
			i += 2;
		}
		dev = hexn(p, len, i, 2);
		if (dev < 0 || dev > 0x1f || i + 3 >= len || p[i + 2] != '.' ||
		    p[i + 3] < '0' || p[i + 3] > '7')
			return 0;
		if (add(ps->out, &b, (unsigned int)dev, (unsigned int)(p[i + 3] - '0'), bdf))
			return -ENOMEM;
		i += 4;
		/* A bridge: "-[SS]" or "-[SS-UU]", then its bus. */
		if (i + 1 >= len || p[i] != '-' || p[i + 1] != '[')
			return 1;	/* its name, if -tv, or the end */
		lo = hi = hexn(p, len, i + 2, 2);
		if (lo < 0)
			return 0;
		i += 4;
		if (i < len && p[i] == '-' && hexn(p, len, i + 1, 2) >= 0) {
			hi = hexn(p, len, i + 1, 2);
			i += 3;
		}
		if (i >= len || p[i] != ']')
			return 0;
		i++;
		ps->out->v[ps->out->n - 1].secondary = (int)lo;
		ps->out->v[ps->out->n - 1].subordinate = (int)hi;
		memcpy(b.bridge, bdf, PA_BDF_LEN);
		b.number = (unsigned int)lo;
	}
}

/* A root bus, "[DDDD:BB]" or, from older lspci, "[BB]", at p[i]. */
static int root(struct parser *ps, const char *p, size_t len, size_t i)
{
	struct bus b = { .set = true };
	long d = hexn(p, len, i + 1, 4), bus;

	if (d >= 0 && i + 5 < len && p[i + 5] == ':') {
		bus = hexn(p, len, i + 6, 2);
		i += 8;
	} else {
		d = 0;
		bus = hexn(p, len, i + 1, 2);
		i += 3;
	}
	if (bus < 0 || i >= len || p[i] != ']')
		return 0;
	b.domain = (unsigned int)d;
	b.number = (unsigned int)bus;
	return walk(ps, p, len, i + 1, b);
}

/* One line, mail quoting gone. 1 if it belongs to a drawing. */
static int line(struct parser *ps, const char *p, size_t len)
{
	size_t i = 0;
	struct bus b = { 0 };

	while (i < len && (p[i] == ' ' || p[i] == '|'))
		i++;
	/* A drawing starts "-[" (one root bus) or "-+-[" (several). */
	if (i + 1 < len && p[i] == '-' && (p[i + 1] == '[' || p[i + 1] == '+'))
		i++;
	else if (!ps->drawing)
		return 0;
	if (i + 1 < len && (p[i] == '+' || p[i] == '\\') && p[i + 1] == '-') {
		if (i < COLUMNS)
			b = ps->at[i];
		i += 2;
	}
	if (i < len && p[i] == '[')
		return root(ps, p, len, i);
	if (!b.set)
		return 0;
	/* A sibling: its bus's walk goes on from here, without the dashes. */
	return walk(ps, p, len, i, b);
}

int pa_lspci_tree_parse(const char *text, size_t len, struct pa_lspci_tree *out)
{
	struct parser *ps = calloc(1, sizeof(*ps));
	const char *p = text, *end = text + len;
	int r = 0;

	*out = (struct pa_lspci_tree){ 0 };
	if (!ps)
		return -ENOMEM;
	ps->out = out;
	while (p < end && r >= 0) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *le = eol ? eol : end;
		const char *s = p;

		while (s < le && *s == '>')
			s += s + 1 < le && s[1] == ' ' ? 2 : 1;
		if (le > s && le[-1] == '\r')
			le--;
		r = line(ps, s, (size_t)(le - s));
		if (r == 0 && ps->drawing)
			memset(ps->at, 0, sizeof(ps->at));
		ps->drawing = r > 0;
		p = eol ? eol + 1 : end;
	}
	free(ps);
	if (r < 0)
		pa_lspci_tree_clear(out);
	return r < 0 ? r : 0;
}

void pa_lspci_tree_clear(struct pa_lspci_tree *t)
{
	free(t->v);
	*t = (struct pa_lspci_tree){ 0 };
}

/* Where the drawing puts bdf, or NULL. */
static const struct pa_lspci_edge *drawn(const struct pa_lspci_tree *t,
					 const char *bdf)
{
	for (size_t k = 0; k < t->n; k++)
		if (!strcmp(t->v[k].bdf, bdf))
			return &t->v[k];
	return NULL;
}

static bool in_input(const struct pa_sysfs *s, const char *bdf)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->devs[i].name, bdf))
			return true;
	return false;
}

static int add_placeholder(struct pa_sysfs *s, const struct pa_lspci_edge *e)
{
	struct pa_sysfs_dev *v = realloc(s->devs, (s->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	s->devs = v;
	v[s->n] = (struct pa_sysfs_dev){
		.name = strdup(e->bdf),
		.placeholder = true,
		.secondary = (uint8_t)e->secondary,
		.subordinate = (uint8_t)e->subordinate,
	};
	return v[s->n++].name ? 0 : -ENOMEM;
}

int pa_lspci_tree_fill(const struct pa_lspci_tree *t, struct pa_sysfs *s)
{
	size_t n = s->n;

	for (size_t i = 0; i < n; i++) {
		const struct pa_lspci_edge *e = drawn(t, s->devs[i].name);

		/* Up the drawing; as many steps as edges, as it may loop. */
		for (size_t step = 0; e && *e->parent && step < t->n; step++) {
			const struct pa_lspci_edge *up = drawn(t, e->parent);

			/* A parent that is drawn as a bridge, or none. */
			if (!up || up->secondary < 0)
				break;
			if (!in_input(s, up->bdf) && add_placeholder(s, up))
				return -ENOMEM;
			e = up;
		}
	}
	return 0;
}

int pa_lspci_tree_check(const struct pa_lspci_tree *t, struct pa_report *rep)
{
	char bdf[PA_BDF_LEN], up[PA_BDF_LEN];

	for (size_t i = 0; i < rep->ndevices; i++) {
		const struct pa_device *d = &rep->devices[i];
		const struct pa_device *u = pa_report_upstream(rep, d);

		pa_bdf_format(&d->addr, bdf);
		if (u)
			pa_bdf_format(&u->addr, up);
		else
			up[0] = '\0';
		for (size_t k = 0; k < t->n; k++) {
			const struct pa_lspci_edge *e = &t->v[k];

			if (strcmp(e->bdf, bdf) || !strcmp(e->parent, up))
				continue;
			if (pa_warn(&rep->warnings, "%s: lspci -t draws it %s%s, the bridges' bus numbers put it %s%s: the capture's parts disagree",
				    bdf, *e->parent ? "below " : "on a root bus",
				    e->parent, *up ? "below " : "on a root bus", up))
				return -ENOMEM;
			break;
		}
	}
	return 0;
}
