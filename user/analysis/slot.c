// SPDX-License-Identifier: GPL-2.0
#include "slot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "link.h"

static bool is_vf(const struct pa_device *d)
{
	return d->flags & PCIEAUDIT_DEV_F_VIRTFN;
}

static size_t index_of(const struct pa_report *rep, const struct pa_device *d)
{
	return (size_t)(d - rep->devices);
}

/* The path from the root bus down, written backwards then turned. */
static char *path_of(const struct pa_report *rep, const struct pa_device *d)
{
	uint8_t devfn[64];
	size_t n = 0, used;
	const struct pa_device *top = d, *up;
	char buf[PA_SLOT_PATH_LEN];

	devfn[n++] = d->addr.devfn;
	while ((up = pa_report_upstream(rep, top)) && n < sizeof(devfn) &&
	       n <= rep->ndevices) {
		devfn[n++] = up->addr.devfn;
		top = up;
	}
	used = (size_t)snprintf(buf, sizeof(buf), "pci%04x:%02x", top->addr.domain,
				top->addr.bus);
	/* "/dd.f" by hand: snprintf per hop was most of check --expect. */
	while (n-- && used + 6 < sizeof(buf)) {
		static const char hex[] = "0123456789abcdef";
		unsigned int dev = devfn[n] >> 3;

		buf[used++] = '/';
		buf[used++] = hex[dev >> 4];
		buf[used++] = hex[dev & 15];
		buf[used++] = '.';
		buf[used++] = hex[devfn[n] & 7];
	}
	buf[used] = '\0';
	return strdup(buf);
}

int pa_slot_paths(const struct pa_report *rep, char ***paths)
{
	char **v = calloc(rep->ndevices + 1, sizeof(*v));

	*paths = v;
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < rep->ndevices; i++) {
		if (is_vf(&rep->devices[i]))
			continue;
		v[i] = path_of(rep, &rep->devices[i]);
		if (!v[i]) {
			pa_slot_paths_free(v, rep->ndevices);
			*paths = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}

void pa_slot_paths_free(char **paths, size_t n)
{
	for (size_t i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
}

static bool same_model(const struct pa_device *a, const struct pa_device *b)
{
	return a->vendor == b->vendor && a->device == b->device &&
	       a->class == b->class;
}

/* A bridge lspci -t drew above a filtered capture's functions: only its
 * place is known, so it matches whatever sits there. */
static bool same_place(const struct pa_device *a, const struct pa_device *b)
{
	return same_model(a, b) || a->config_not_captured || b->config_not_captured;
}

/* Sorted (path, index) of one report, for bisection. */
struct keyed {
	const char *path;
	size_t i;
};

static int keyed_cmp(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;

	return strcmp(a->path, b->path);
}

static size_t common_prefix(const char *a, const char *b)
{
	size_t n = 0;

	while (a[n] && a[n] == b[n])
		n++;
	return n;
}

/* Golden function g's device's function 0, or NULL (g is it, or absent). */
static const struct pa_device *fn0_of(const struct pa_report *rep,
				      const struct pa_device *d)
{
	struct pa_addr a = d->addr;

	if (!(a.devfn & 7))
		return NULL;
	a.devfn &= ~7u;
	return pa_report_find(rep, &a);
}

/* Where g's parent, or its function 0, moved: c must sit the same way
 * relative to it. */
static long follow(const struct pa_report *golden, const struct pa_report *cur,
		   const struct pa_slot_match *m, size_t g)
{
	const struct pa_device *gd = &golden->devices[g], *ref;
	struct pa_addr want;
	const struct pa_device *cd;
	size_t r;

	ref = fn0_of(golden, gd);
	if (ref && m->how[index_of(golden, ref)] >= PA_SLOT_MOVED) {
		r = index_of(golden, ref);
		want = cur->devices[m->g2c[r]].addr;
		want.devfn = (uint8_t)((want.devfn & ~7u) | (gd->addr.devfn & 7));
	} else if ((ref = pa_report_upstream(golden, gd)) &&
		   m->how[index_of(golden, ref)] >= PA_SLOT_MOVED) {
		const struct pa_device *cp;

		r = index_of(golden, ref);
		cp = &cur->devices[m->g2c[r]];
		if (!cp->has_secondary_bus)
			return -1;
		want = (struct pa_addr){ cp->addr.domain, cp->secondary_bus,
					 gd->addr.devfn };
	} else {
		return -1;
	}
	cd = pa_report_find(cur, &want);
	if (!cd || !same_model(cd, gd) || m->c2g[index_of(cur, cd)] >= 0 ||
	    !m->cpath[index_of(cur, cd)])
		return -1;
	return (long)index_of(cur, cd);
}

static void pair(struct pa_slot_match *m, size_t g, long c,
		 enum pa_slot_how how)
{
	m->g2c[g] = c;
	m->c2g[c] = (long)g;
	m->how[g] = how;
	m->found++;
}

/* What is left, by model: the free function with the longest common
 * path prefix, in golden's path order (parents before children). */
static int match_moved(const struct pa_report *golden,
		       const struct pa_report *cur, struct pa_slot_match *m)
{
	struct keyed *order = calloc(m->ng + 1, sizeof(*order));
	size_t n = 0;

	if (!order)
		return -ENOMEM;
	for (size_t g = 0; g < m->ng; g++)
		if (m->how[g] == PA_SLOT_MISSING)
			order[n++] = (struct keyed){ m->gpath[g], g };
	qsort(order, n, sizeof(*order), keyed_cmp);
	for (size_t k = 0; k < n; k++) {
		size_t g = order[k].i, best_len = 0;
		long c = follow(golden, cur, m, g), best = -1;

		if (c >= 0) {
			pair(m, g, c, PA_SLOT_MOVED_ALONG);
			continue;
		}
		for (size_t j = 0; j < m->nc; j++) {
			size_t len;

			if (m->c2g[j] >= 0 || !m->cpath[j] ||
			    golden->devices[g].config_not_captured ||
			    cur->devices[j].config_not_captured ||
			    !same_model(&golden->devices[g], &cur->devices[j]))
				continue;
			len = common_prefix(m->gpath[g], m->cpath[j]);
			if (best < 0 || len > best_len) {
				best = (long)j;
				best_len = len;
			}
		}
		if (best >= 0)
			pair(m, g, best, PA_SLOT_MOVED);
	}
	free(order);
	return 0;
}

int pa_slot_match(const struct pa_report *golden, const struct pa_report *cur,
		  struct pa_slot_match *m)
{
	struct keyed *byc = NULL;
	size_t n = 0;
	int err;

	*m = (struct pa_slot_match){ .ng = golden->ndevices, .nc = cur->ndevices };
	m->g2c = calloc(m->ng + 1, sizeof(*m->g2c));
	m->c2g = calloc(m->nc + 1, sizeof(*m->c2g));
	m->how = calloc(m->ng + 1, sizeof(*m->how));
	byc = calloc(m->nc + 1, sizeof(*byc));
	err = !m->g2c || !m->c2g || !m->how || !byc ? -ENOMEM : 0;
	if (!err)
		err = pa_slot_paths(golden, &m->gpath);
	if (!err)
		err = pa_slot_paths(cur, &m->cpath);
	if (err)
		goto out;
	for (size_t c = 0; c < m->nc; c++) {
		m->c2g[c] = -1;
		if (m->cpath[c])
			byc[n++] = (struct keyed){ m->cpath[c], c };
	}
	qsort(byc, n, sizeof(*byc), keyed_cmp);
	for (size_t g = 0; g < m->ng; g++) {
		struct keyed key = { m->gpath[g], 0 }, *hit;

		m->g2c[g] = -1;
		if (!m->gpath[g])
			continue;
		m->how[g] = PA_SLOT_MISSING;
		m->compared++;
		hit = bsearch(&key, byc, n, sizeof(*byc), keyed_cmp);
		if (hit && m->c2g[hit->i] < 0 &&
		    same_place(&golden->devices[g], &cur->devices[hit->i]))
			pair(m, g, (long)hit->i, PA_SLOT_SAME);
	}
	err = match_moved(golden, cur, m);
out:
	free(byc);
	if (err)
		pa_slot_match_clear(m);
	return err;
}

void pa_slot_match_clear(struct pa_slot_match *m)
{
	free(m->g2c);
	free(m->c2g);
	free(m->how);
	pa_slot_paths_free(m->gpath, m->ng);
	pa_slot_paths_free(m->cpath, m->nc);
	*m = (struct pa_slot_match){ 0 };
}

/* Unmatched on its side: golden (map g2c) or cur (c2g); VFs are never. */
static bool unmatched(const struct pa_report *rep, const long *map,
		      char **paths, const struct pa_device *d)
{
	size_t i;

	if (!d || d->config_not_captured)
		return false;
	i = index_of(rep, d);
	return paths[i] && map[i] < 0;
}

/* The unmatched function that speaks for unmatched i. */
static size_t top_of(const struct pa_report *rep, const long *map,
		     char **paths, size_t i)
{
	const struct pa_device *d = &rep->devices[i], *x;

	for (size_t steps = 0; steps <= rep->ndevices; steps++) {
		if ((x = fn0_of(rep, d)) && unmatched(rep, map, paths, x))
			d = x;
		else if ((x = pa_report_upstream(rep, d)) &&
			 unmatched(rep, map, paths, x))
			d = x;
		else
			break;
	}
	return index_of(rep, d);
}

static size_t folded(const struct pa_report *rep, const long *map,
		     char **paths, size_t top)
{
	size_t n = 0;

	for (size_t i = 0; i < rep->ndevices; i++)
		n += i != top && unmatched(rep, map, paths, &rep->devices[i]) &&
		     top_of(rep, map, paths, i) == top;
	return n;
}

bool pa_slot_top_missing(const struct pa_report *golden,
			 const struct pa_slot_match *m, size_t g)
{
	return unmatched(golden, m->g2c, m->gpath, &golden->devices[g]) &&
	       top_of(golden, m->g2c, m->gpath, g) == g;
}

bool pa_slot_top_extra(const struct pa_report *cur,
		       const struct pa_slot_match *m, size_t c)
{
	return unmatched(cur, m->c2g, m->cpath, &cur->devices[c]) &&
	       top_of(cur, m->c2g, m->cpath, c) == c;
}

size_t pa_slot_folded_missing(const struct pa_report *golden,
			      const struct pa_slot_match *m, size_t g)
{
	return folded(golden, m->g2c, m->gpath, g);
}

size_t pa_slot_folded_extra(const struct pa_report *cur,
			    const struct pa_slot_match *m, size_t c)
{
	return folded(cur, m->c2g, m->cpath, c);
}

bool pa_slot_reports_link(const struct pa_report *rep,
			  const struct pa_device *d)
{
	return d->has_link && !is_vf(d) &&
	       d->pcie_type != PCI_EXP_TYPE_ROOT_PORT &&
	       d->pcie_type != PCI_EXP_TYPE_DOWNSTREAM &&
	       pa_link_owner(rep, d) == d;
}
