// SPDX-License-Identifier: GPL-2.0
#include "snapshot_check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "bdf.h"

/*
 * Checks run on the sorted report, with binary searches, so that a huge
 * or hostile snapshot costs n log n rather than n squared; locations name
 * the device by its BDF.
 */
static int cmp_device_key(const void *key, const void *elem)
{
	const struct pa_device *d = elem;

	return pa_addr_cmp(key, &d->addr);
}

static const struct pa_device *find(const struct pa_report *rep,
				    const struct pa_addr *a)
{
	return rep->ndevices ? bsearch(a, rep->devices, rep->ndevices,
				       sizeof(*rep->devices), cmp_device_key) :
			       NULL;
}

static int known(struct pa_json_in *in, const struct pa_report *rep, const char *path, const char *what,
		 const struct pa_addr *a)
{
	char bdf[PA_BDF_LEN];

	if (find(rep, a))
		return 0;
	pa_bdf_format(a, bdf);
	return pa_json_bad(in, path, "%s %s is not in devices", what, bdf);
}

static int check_devices(struct pa_json_in *in, const struct pa_report *rep)
{
	char p[PA_JSON_PATH_LEN], bdf[PA_BDF_LEN];
	int err = 0;

	for (size_t i = 0; !err && i < rep->ndevices; i++) {
		const struct pa_device *d = &rep->devices[i];

		pa_bdf_format(&d->addr, bdf);
		snprintf(p, sizeof(p), "devices[bdf=%s]", bdf);
		if (i && pa_addr_eq(&rep->devices[i - 1].addr, &d->addr))
			return pa_json_bad(in, p, "listed twice");
		if (d->has_upstream)
			err = known(in, rep, p, "upstream", &d->upstream);
		if (!err && d->has_pf)
			err = known(in, rep, p, "pf", &d->pf);
	}
	return err;
}

/* Upstream links must end at a root bus. Marks: 0 unseen, 1 on the walk
 * in progress, 2 known to end well. */
static int check_cycles(struct pa_json_in *in, const struct pa_report *rep)
{
	unsigned char *mark = calloc(rep->ndevices + 1, 1);
	char p[PA_JSON_PATH_LEN], bdf[PA_BDF_LEN];
	int err = 0;

	if (!mark)
		return -ENOMEM;
	for (size_t i = 0; !err && i < rep->ndevices; i++) {
		const struct pa_device *d = &rep->devices[i];

		for (; d && !mark[d - rep->devices]; d = d->has_upstream ?
		     find(rep, &d->upstream) : NULL)
			mark[d - rep->devices] = 1;
		if (d && mark[d - rep->devices] == 1) {
			pa_bdf_format(&d->addr, bdf);
			snprintf(p, sizeof(p), "devices[bdf=%s].upstream", bdf);
			err = pa_json_bad(in, p, "upstream links form a cycle");
		}
		for (d = &rep->devices[i]; d && mark[d - rep->devices] == 1;
		     d = d->has_upstream ? find(rep, &d->upstream) : NULL)
			mark[d - rep->devices] = 2;
	}
	free(mark);
	return err;
}

static bool lists(const struct pa_group *g, const struct pa_addr *a)
{
	for (size_t i = 0; i < g->nmembers; i++)
		if (pa_addr_eq(&g->members[i], a))
			return true;
	return false;
}

static int cmp_group_key(const void *key, const void *elem)
{
	const uint32_t *id = key;
	const struct pa_group *g = elem;

	return *id < g->id ? -1 : *id > g->id;
}

/* Group members may lie outside devices (report BDF keeps one device and
 * its whole group), but each device's group must list it. */
static int check_groups(struct pa_json_in *in, const struct pa_report *rep)
{
	char p[PA_JSON_PATH_LEN], bdf[PA_BDF_LEN];

	for (size_t i = 1; i < rep->ngroups; i++) {
		if (rep->groups[i - 1].id != rep->groups[i].id)
			continue;
		snprintf(p, sizeof(p), "groups[id=%u]", rep->groups[i].id);
		return pa_json_bad(in, p, "listed twice");
	}
	for (size_t i = 0; i < rep->ndevices; i++) {
		const struct pa_device *d = &rep->devices[i];
		const struct pa_group *g;

		if (!d->has_iommu)
			continue;
		g = rep->ngroups ? bsearch(&d->iommu.group, rep->groups,
					   rep->ngroups, sizeof(*g),
					   cmp_group_key) : NULL;
		pa_bdf_format(&d->addr, bdf);
		snprintf(p, sizeof(p), "devices[bdf=%s].iommu.group", bdf);
		if (!g || !lists(g, &d->addr))
			return pa_json_bad(in, p, "group %u in groups does not list this device",
				   d->iommu.group);
	}
	return 0;
}

static int check_list(struct pa_json_in *in, const struct pa_report *rep, const char *path, const char *what,
		      const struct pa_addr_list *list)
{
	int err = 0;

	for (size_t i = 0; !err && i < list->n; i++)
		err = known(in, rep, path, what, &list->addrs[i]);
	return err;
}

static int check_pair(struct pa_json_in *in, const struct pa_report *rep, const struct pa_p2p_pair *pr)
{
	char p[PA_JSON_PATH_LEN], a[PA_BDF_LEN], b[PA_BDF_LEN];
	int err;

	pa_bdf_format(&pr->provider, a);
	pa_bdf_format(&pr->client, b);
	snprintf(p, sizeof(p), "p2p[a=%s,b=%s]", a, b);
	err = known(in, rep, p, "a", &pr->provider);
	if (!err)
		err = known(in, rep, p, "b", &pr->client);
	if (!err && pr->has_common)
		err = known(in, rep, p, "common", &pr->common);
	if (!err)
		err = check_list(in, rep, p, "hop", &pr->hops_provider);
	if (!err)
		err = check_list(in, rep, p, "hop", &pr->hops_client);
	if (!err)
		err = check_list(in, rep, p, "redirect", &pr->redirect);
	return err;
}

static int check_pairs(struct pa_json_in *in, const struct pa_report *rep)
{
	const struct pa_p2p *p2p = &rep->p2p;
	char p[PA_JSON_PATH_LEN], a[PA_BDF_LEN], b[PA_BDF_LEN];
	int err = 0;

	for (size_t i = 0; !err && i < p2p->npairs; i++) {
		const struct pa_p2p_pair *pr = &p2p->pairs[i];

		err = check_pair(in, rep, pr);
		if (err || !i || !pa_addr_eq(&pr[-1].provider, &pr->provider) ||
		    !pa_addr_eq(&pr[-1].client, &pr->client))
			continue;
		pa_bdf_format(&pr->provider, a);
		pa_bdf_format(&pr->client, b);
		snprintf(p, sizeof(p), "p2p[a=%s,b=%s]", a, b);
		err = pa_json_bad(in, p, "listed twice");
	}
	return err;
}

int pa_snapshot_check(struct pa_json_in *in, const struct pa_report *rep)
{
	int err = check_devices(in, rep);

	if (!err)
		err = check_cycles(in, rep);
	if (!err)
		err = check_groups(in, rep);
	if (!err)
		err = check_pairs(in, rep);
	return err;
}
