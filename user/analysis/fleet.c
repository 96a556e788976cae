// SPDX-License-Identifier: GPL-2.0
#include "fleet.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>

#include "slot.h"

static void *grow(void *v, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return v;
	while (n < need)
		n *= 2;
	p = realloc(v, n * size);
	if (p)
		*cap = n;
	return p;
}

static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The kind of host: its bridges where they sit, and the set of models of
 * everything else (a missing GPU or a moved NIC leave both alone). */
static int fingerprint(const struct pa_report *rep, char **paths, uint64_t *fp)
{
	char **keys = calloc(rep->ndevices + 1, sizeof(*keys));
	size_t n = 0;
	uint64_t h = 0xcbf29ce484222325ull;
	int err = keys ? 0 : -ENOMEM;

	for (size_t i = 0; !err && i < rep->ndevices; i++) {
		const struct pa_device *d = &rep->devices[i];
		char buf[PA_SLOT_PATH_LEN + 40];
		bool bridge = d->flags & PCIEAUDIT_DEV_F_BRIDGE;

		if (!paths[i])
			continue;
		snprintf(buf, sizeof(buf), "%s %04x:%04x:%06x", bridge ? paths[i] : "",
			 d->vendor, d->device, d->class);
		keys[n] = strdup(buf);
		if (!keys[n++])
			err = -ENOMEM;
	}
	if (!err) {
		qsort(keys, n, sizeof(*keys), str_cmp);
		for (size_t i = 0; i < n; i++)
			if (!i || strcmp(keys[i], keys[i - 1]))
				h = fnv(h, keys[i], strlen(keys[i]) + 1);
	}
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	*fp = h;
	return err;
}

static void values(const struct pa_report *rep, const struct pa_device *d,
		   uint64_t v[PA_FLEET_NATTRS])
{
	v[PA_FLEET_MODEL] = (uint64_t)d->vendor << 40 | (uint64_t)d->device << 24 |
			    d->class;
	v[PA_FLEET_LINK] = 0;
	if (pa_device_link_unknown(d))
		v[PA_FLEET_LINK] = PA_FLEET_UNKNOWN;
	else if (pa_slot_reports_link(rep, d))
		v[PA_FLEET_LINK] = 0x10000 | (d->link.lnksta & 0x3ff);
	v[PA_FLEET_ACS] = pa_device_acs_unknown(d) ? PA_FLEET_UNKNOWN :
			  d->has_acs ? 0x10000u | d->acs.ctrl : 0;
	v[PA_FLEET_IOMMU] = 0;
}

static uint64_t iommu_value(const struct pa_report *rep)
{
	if (rep->info.iommu_unknown)
		return PA_FLEET_UNKNOWN;
	if (!(rep->info.features & PCIEAUDIT_F_IOMMU_PRESENT) && !rep->ngroups)
		return 2;
	return 0x10 | rep->info.iommu_def_mode;
}

static size_t hash_str(const char *s)
{
	return (size_t)fnv(0xcbf29ce484222325ull, s, strlen(s));
}

static int rehash(struct pa_fleet_group *g)
{
	size_t size = g->tabsize ? g->tabsize * 2 : 1024;
	uint32_t *t = calloc(size, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t s = 0; s < g->nslots; s++) {
		size_t h = hash_str(g->slots[s].path) & (size - 1);

		while (t[h])
			h = (h + 1) & (size - 1);
		t[h] = (uint32_t)s + 1;
	}
	free(g->table);
	g->table = t;
	g->tabsize = size;
	return 0;
}

/* The slot of path, or -1. */
static long slot_by_path(struct pa_fleet_group *g, const char *path)
{
	size_t h;

	for (h = hash_str(path) & (g->tabsize - 1); g->table[h];
	     h = (h + 1) & (g->tabsize - 1))
		if (!strcmp(g->slots[g->table[h] - 1].path, path))
			return g->table[h] - 1;
	return -1;
}

/* The slot of path, added (absent on every host so far) when new. */
static long slot_of(struct pa_fleet_group *g, const char *path)
{
	struct pa_fleet_slot *v;
	long known;
	size_t h;

	if ((g->nslots + 1) * 2 > g->tabsize && rehash(g))
		return -1;
	known = slot_by_path(g, path);
	if (known >= 0)
		return known;
	for (h = hash_str(path) & (g->tabsize - 1); g->table[h];
	     h = (h + 1) & (g->tabsize - 1))
		;
	v = grow(g->slots, &g->capslots, g->nslots + 1, sizeof(*v));
	if (!v)
		return -1;
	g->slots = v;
	v[g->nslots] = (struct pa_fleet_slot){ .path = strdup(path) };
	if (!v[g->nslots].path)
		return -1;
	v[g->nslots].first[PA_FLEET_MODEL] = PA_FLEET_ABSENT;
	g->table[h] = (uint32_t)++g->nslots;
	return (long)g->nslots - 1;
}

static int add_diff(struct pa_fleet_group *g, uint32_t host, uint32_t slot,
		    uint32_t attr, uint64_t value)
{
	struct pa_fleet_diff *v = grow(g->diffs, &g->capdiffs, g->ndiffs + 1,
				       sizeof(*v));

	if (!v)
		return -ENOMEM;
	g->diffs = v;
	v[g->ndiffs++] = (struct pa_fleet_diff){ host, slot, attr, false, value };
	return 0;
}

static struct pa_fleet_group *group_of(struct pa_fleet *f, uint64_t fp)
{
	struct pa_fleet_group *v;

	for (size_t i = 0; i < f->ngroups; i++)
		if (f->groups[i].fingerprint == fp)
			return &f->groups[i];
	v = grow(f->groups, &f->capgroups, f->ngroups + 1, sizeof(*v));
	if (!v)
		return NULL;
	f->groups = v;
	v[f->ngroups] = (struct pa_fleet_group){ .fingerprint = fp };
	/* Slot 0: the host's own facts. */
	if (slot_of(&v[f->ngroups], "host") != 0)
		return NULL;
	return &v[f->ngroups++];
}

/* One slot's values against the group's first host's. */
static int compare(struct pa_fleet_group *g, uint32_t host, long s,
		   const uint64_t v[PA_FLEET_NATTRS], bool first)
{
	struct pa_fleet_slot *slot = &g->slots[s];
	int err = 0;

	for (uint32_t a = 0; !err && a < PA_FLEET_NATTRS; a++) {
		if (first)
			slot->first[a] = v[a];
		else if (v[a] != slot->first[a])
			err = add_diff(g, host, (uint32_t)s, a, v[a]);
	}
	return err;
}

int pa_fleet_add(struct pa_fleet *f, const char *name,
		 const struct pa_report *rep)
{
	struct pa_fleet_group *g;
	uint32_t *hv, host = (uint32_t)f->nhosts;
	char **paths, **names;
	uint64_t fp, v[PA_FLEET_NATTRS] = { 0 };
	bool first;
	int err = pa_slot_paths(rep, &paths);

	if (err)
		return err;
	err = fingerprint(rep, paths, &fp);
	names = err ? NULL : grow(f->names, &f->capnames, f->nhosts + 1, sizeof(*names));
	if (names)
		f->names = names;
	g = names ? group_of(f, fp) : NULL;
	hv = g ? grow(g->hosts, &g->caphosts, g->nhosts + 1, sizeof(*hv)) : NULL;
	if (!hv || !(f->names[f->nhosts] = strdup(name))) {
		pa_slot_paths_free(paths, rep->ndevices);
		return -ENOMEM;
	}
	f->nhosts++;
	g->hosts = hv;
	hv[g->nhosts++] = host;
	first = g->nhosts == 1;
	f->serial++;
	v[PA_FLEET_IOMMU] = iommu_value(rep);
	v[PA_FLEET_MODEL] = 0;
	err = compare(g, host, 0, v, first);
	g->slots[0].stamp = f->serial;
	for (size_t i = 0; !err && i < rep->ndevices; i++) {
		long s;

		if (!paths[i])
			continue;
		s = slot_of(g, paths[i]);
		if (s < 0) {
			err = -ENOMEM;
			break;
		}
		if (g->slots[s].stamp == f->serial)
			continue;
		g->slots[s].stamp = f->serial;
		values(rep, &rep->devices[i], v);
		err = compare(g, host, s, v, first);
	}
	/* The first host's slots this one lacks. */
	for (size_t s = 1; !err && !first && s < g->nslots; s++) {
		const uint64_t absent[PA_FLEET_NATTRS] = { PA_FLEET_ABSENT };

		if (g->slots[s].stamp != f->serial)
			err = compare(g, host, (long)s, absent, false);
	}
	pa_slot_paths_free(paths, rep->ndevices);
	return err;
}

static int diff_cmp(const void *x, const void *y)
{
	const struct pa_fleet_diff *a = x, *b = y;

	if (a->slot != b->slot)
		return a->slot < b->slot ? -1 : 1;
	if (a->attr != b->attr)
		return a->attr < b->attr ? -1 : 1;
	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	return a->host < b->host ? -1 : a->host > b->host;
}

static int out_cmp(const void *x, const void *y)
{
	const struct pa_fleet_diff *a = x, *b = y;

	if (a->host != b->host)
		return a->host < b->host ? -1 : 1;
	if (a->slot != b->slot)
		return a->slot < b->slot ? -1 : 1;
	return a->attr < b->attr ? -1 : a->attr > b->attr;
}

/* The majority of one (slot, attr) whose diffs are run[0..n). */
static uint64_t majority(const struct pa_fleet_group *g, const struct pa_fleet_diff *run,
			 size_t n, uint64_t first)
{
	uint64_t best = first;
	size_t best_n = g->nhosts - n;

	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && run[j].value == run[i].value; j++)
			;
		if (j - i > best_n) {
			best_n = j - i;
			best = run[i].value;
		}
	}
	return best;
}

static int add_out(struct pa_fleet_group *g, size_t *cap, uint32_t host,
		   uint32_t slot, uint32_t attr, uint64_t value)
{
	struct pa_fleet_diff *v = grow(g->out, cap, g->nout + 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	g->out = v;
	v[g->nout++] = (struct pa_fleet_diff){ host, slot, attr, false, value };
	return 0;
}

/* Where the host's function at slot is not the majority's model. */
static bool model_differs(const struct pa_fleet_group *g, uint32_t host,
			  uint32_t slot)
{
	const struct pa_fleet_diff key = { host, slot, PA_FLEET_MODEL, false, 0 };

	for (size_t i = 0; i < g->nout; i++)
		if (!out_cmp(&g->out[i], &key))
			return true;
	return false;
}

static bool out_has(const struct pa_fleet_group *g, uint32_t host, long slot,
		    uint64_t value)
{
	for (size_t i = 0; slot >= 0 && i < g->nout; i++)
		if (g->out[i].host == host && g->out[i].slot == (uint32_t)slot &&
		    g->out[i].attr == PA_FLEET_MODEL && g->out[i].value == value)
			return true;
	return false;
}

/* A missing (extra) function whose parent, or whose function 0, is
 * missing (extra) too is folded into it. */
static void fold(struct pa_fleet_group *g)
{
	char buf[PA_SLOT_PATH_LEN];

	for (size_t i = 0; i < g->nout; i++) {
		struct pa_fleet_diff *d = &g->out[i];
		const struct pa_fleet_slot *s = &g->slots[d->slot];
		bool missing = d->value == PA_FLEET_ABSENT;
		char *slash;
		size_t len;

		if (d->attr != PA_FLEET_MODEL ||
		    (!missing && s->major[PA_FLEET_MODEL] != PA_FLEET_ABSENT))
			continue;
		snprintf(buf, sizeof(buf), "%s", s->path);
		len = strlen(buf);
		if (len > 2 && buf[len - 1] != '0' && buf[len - 2] == '.') {
			buf[len - 1] = '0';
			if (missing ? out_has(g, d->host, slot_by_path(g, buf), PA_FLEET_ABSENT) :
			    (slot_by_path(g, buf) >= 0 &&
			     g->slots[slot_by_path(g, buf)].major[PA_FLEET_MODEL] == PA_FLEET_ABSENT &&
			     model_differs(g, d->host, (uint32_t)slot_by_path(g, buf)))) {
				d->folded = true;
				continue;
			}
			buf[len - 1] = s->path[len - 1];
		}
		slash = strrchr(buf, '/');
		if (!slash)
			continue;
		*slash = '\0';
		{
			long p = slot_by_path(g, buf);

			d->folded = p >= 0 && (missing ? out_has(g, d->host, p, PA_FLEET_ABSENT) :
				    g->slots[p].major[PA_FLEET_MODEL] == PA_FLEET_ABSENT &&
				    model_differs(g, d->host, (uint32_t)p));
		}
	}
}

static int finish_group(struct pa_fleet_group *g, size_t nnames)
{
	unsigned char *has = calloc(nnames + 1, 1);
	size_t cap = 0;
	int err = has ? 0 : -ENOMEM;

	if (g->ndiffs)
		qsort(g->diffs, g->ndiffs, sizeof(*g->diffs), diff_cmp);
	for (uint32_t pass = 0; pass < 2 && !err; pass++) {
		/* Models first: the other attributes only count where the
		 * model is the majority's. */
		size_t i = 0;

		for (uint32_t s = 0; s < g->nslots && !err; s++) {
			for (uint32_t a = 0; a < PA_FLEET_NATTRS && !err; a++) {
				size_t n = 0;
				uint64_t major;
				const struct pa_fleet_diff *run;

				while (i < g->ndiffs && (g->diffs[i].slot < s ||
				       (g->diffs[i].slot == s && g->diffs[i].attr < a)))
					i++;
				/* No differences at all: diffs is NULL. */
				run = g->diffs ? &g->diffs[i] : NULL;
				while (i + n < g->ndiffs && run[n].slot == s && run[n].attr == a)
					n++;
				if ((a == PA_FLEET_MODEL) != (pass == 0))
					continue;
				major = majority(g, run, n, g->slots[s].first[a]);
				g->slots[s].major[a] = major;
				memset(has, 0, nnames + 1);
				for (size_t k = 0; k < n && !err; k++) {
					has[run[k].host] = 1;
					if (run[k].value != major &&
					    (a == PA_FLEET_MODEL || !model_differs(g, run[k].host, s)))
						err = add_out(g, &cap, run[k].host, s, a, run[k].value);
				}
				if (major == g->slots[s].first[a])
					continue;
				for (size_t h = 0; h < g->nhosts && !err; h++)
					if (!has[g->hosts[h]] &&
					    (a == PA_FLEET_MODEL || !model_differs(g, g->hosts[h], s)))
						err = add_out(g, &cap, g->hosts[h], s, a,
							      g->slots[s].first[a]);
			}
		}
	}
	free(has);
	if (err)
		return err;
	fold(g);
	if (g->nout)
		qsort(g->out, g->nout, sizeof(*g->out), out_cmp);
	for (size_t i = 0; i < g->nout; i++)
		g->noutliers += !i || g->out[i].host != g->out[i - 1].host;
	/* The per-host differences are no longer needed. */
	free(g->diffs);
	g->diffs = NULL;
	g->ndiffs = g->capdiffs = 0;
	return 0;
}

int pa_fleet_finish(struct pa_fleet *f)
{
	int err = 0;

	for (size_t i = 0; !err && i < f->ngroups; i++)
		err = finish_group(&f->groups[i], f->nhosts);
	return err;
}

void pa_fleet_clear(struct pa_fleet *f)
{
	for (size_t i = 0; i < f->nhosts; i++)
		free(f->names[i]);
	free(f->names);
	for (size_t i = 0; i < f->ngroups; i++) {
		struct pa_fleet_group *g = &f->groups[i];

		for (size_t s = 0; s < g->nslots; s++)
			free(g->slots[s].path);
		free(g->slots);
		free(g->hosts);
		free(g->table);
		free(g->diffs);
		free(g->out);
	}
	free(f->groups);
	*f = (struct pa_fleet){ 0 };
}
