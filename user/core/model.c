// SPDX-License-Identifier: GPL-2.0
#include "model.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>

#include "fabric.h"

int pa_addr_cmp(const struct pa_addr *a, const struct pa_addr *b)
{
	if (a->domain != b->domain)
		return a->domain < b->domain ? -1 : 1;
	if (a->bus != b->bus)
		return a->bus < b->bus ? -1 : 1;
	if (a->devfn != b->devfn)
		return a->devfn < b->devfn ? -1 : 1;
	return 0;
}

bool pa_addr_eq(const struct pa_addr *a, const struct pa_addr *b)
{
	return pa_addr_cmp(a, b) == 0;
}

bool pa_addr_same_slot(const struct pa_addr *a, const struct pa_addr *b)
{
	return a->domain == b->domain && a->bus == b->bus &&
	       a->devfn >> 3 == b->devfn >> 3;
}

void pa_device_clear(struct pa_device *dev)
{
	free(dev->driver);
	free(dev->iommu.instance);
	free(dev->vendor_name);
	free(dev->device_name);
	free(dev->class_name);
	free(dev->pt.reset_method);
	*dev = (struct pa_device){ .pcie_type = -1, .numa_node = -1 };
}

void pa_passthru_init(struct pa_passthru *pt)
{
	free(pt->reset_method);
	*pt = (struct pa_passthru){ .known = true, .reset_file = -1,
				    .no_soft_reset = -1, .af_flr = -1,
				    .sysfs_num_vfs = -1,
				    .vf_bars_assigned = -1 };
}

void pa_group_clear(struct pa_group *group)
{
	free(group->members);
	*group = (struct pa_group){ 0 };
}

bool pa_info_iommu_not_built(const struct pa_info *info)
{
	return info->module_version &&
	       !(info->features & PCIEAUDIT_F_IOMMU_API);
}

uint32_t pa_p2p_agreement_of(const struct pa_p2p_pair *p)
{
	if (!p->has_kernel_distance)
		return 0;
	return p->kernel_distance == p->distance ? PCIEAUDIT_P2P_AGREE :
						   PCIEAUDIT_P2P_DISAGREE;
}

uint32_t pa_p2p_verdict_map(const struct pa_p2p_pair *p)
{
	if (p->agreement != PCIEAUDIT_P2P_DISAGREE || !p->has_kernel_distance)
		return p->map;
	if (p->kernel_distance < 0)
		return PCIEAUDIT_P2P_MAP_NOT_SUPPORTED;
	if (p->map == PCIEAUDIT_P2P_MAP_NOT_SUPPORTED)
		return PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE;
	return p->map;
}

void pa_info_clear(struct pa_info *info)
{
	free(info->module_version);
	free(info->kernel_release);
	free(info->p2p_rules);
	*info = (struct pa_info){ 0 };
}

void pa_host_clear(struct pa_host *host)
{
	free(host->cmdline);
	free(host->cpu_vendor);
	free(host->iommu_table);
	free(host->intremap_how);
	free(host->vfio_pci_ids);
	*host = (struct pa_host){ .numa_nodes = -1, .cpu_family = -1,
				  .hypervisor = -1 };
}

void pa_report_clear_devices(struct pa_report *rep)
{
	for (size_t i = 0; i < rep->ndevices; i++)
		pa_device_clear(&rep->devices[i]);
	free(rep->devices);
	rep->devices = NULL;
	rep->ndevices = 0;
}

void pa_report_clear_groups(struct pa_report *rep)
{
	for (size_t i = 0; i < rep->ngroups; i++)
		pa_group_clear(&rep->groups[i]);
	free(rep->groups);
	rep->groups = NULL;
	rep->ngroups = 0;
}

void pa_report_clear(struct pa_report *rep)
{
	pa_info_clear(&rep->info);
	pa_report_clear_devices(rep);
	pa_report_clear_groups(rep);
	pa_p2p_clear(&rep->p2p);
	rep->has_p2p = false;
	pa_host_clear(&rep->host);
	rep->has_host = false;
	if (rep->fabric)
		pa_fabric_clear(rep->fabric);
	free(rep->fabric);
	rep->fabric = NULL;
	pa_warnings_clear(&rep->warnings);
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	const char *name, *reason;
} caps_hidden[] = {
	[PA_CAPS_NOT_PRINTED] = { "not_printed",
		"lspci -v printed no registers (lspci -vv or -vvv does)" },
	[PA_CAPS_ACCESS_DENIED] = { "access_denied",
		"lspci printed its capabilities as <access denied> (run it as root)" },
};

const char *pa_caps_hidden_reason(uint32_t why)
{
	return why < ARRAY_SIZE(caps_hidden) ? caps_hidden[why].reason : NULL;
}

const char *pa_caps_hidden_name(uint32_t why)
{
	return why < ARRAY_SIZE(caps_hidden) ? caps_hidden[why].name : NULL;
}

uint32_t pa_caps_hidden_value(const char *name)
{
	for (uint32_t i = 1; i < ARRAY_SIZE(caps_hidden); i++)
		if (!strcmp(caps_hidden[i].name, name))
			return i;
	return 0;
}

/* Why a bridge placed from lspci -t's drawing has no registers. */
#define NOT_CAPTURED	"not in the input (placed from lspci -t's drawing)"

/* A newer snapshot's reason this CLI cannot name is still a reason. */
static const char *caps_reason(uint32_t why)
{
	const char *r = pa_caps_hidden_reason(why);

	return r ? r : "the capture did not print the capabilities' registers";
}

const char *pa_device_acs_unknown(const struct pa_device *dev)
{
	if (dev->caps_unknown)
		return caps_reason(dev->caps_unknown);
	if (dev->config_not_captured)
		return NOT_CAPTURED;
	if (dev->config_unreadable)
		return "configuration space not readable now (D3cold or gone)";
	if (dev->no_extended_config && !dev->has_acs)
		return "no extended configuration space in the input";
	return NULL;
}

const char *pa_device_link_unknown(const struct pa_device *dev)
{
	if (dev->caps_unknown)
		return caps_reason(dev->caps_unknown);
	if (dev->config_not_captured)
		return NOT_CAPTURED;
	return dev->config_unreadable ?
	       "configuration space not readable now (D3cold or gone)" : NULL;
}

int pa_warn(struct pa_warnings *w, const char *fmt, ...)
{
	char **more = realloc(w->text, (w->n + 1) * sizeof(*more));
	va_list ap;
	int len;

	if (!more)
		return -ENOMEM;
	w->text = more;
	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	more[w->n] = len < 0 ? NULL : malloc((size_t)len + 1);
	if (!more[w->n])
		return -ENOMEM;
	va_start(ap, fmt);
	vsnprintf(more[w->n], (size_t)len + 1, fmt, ap);
	va_end(ap);
	w->n++;
	return 0;
}

int pa_warnings_move(struct pa_warnings *to, struct pa_warnings *from)
{
	char **more;

	if (!from->n)
		return 0;
	more = realloc(to->text, (to->n + from->n) * sizeof(*more));
	if (!more)
		return -ENOMEM;
	memcpy(more + to->n, from->text, from->n * sizeof(*more));
	to->text = more;
	to->n += from->n;
	free(from->text);
	*from = (struct pa_warnings){ 0 };
	return 0;
}

void pa_warnings_clear(struct pa_warnings *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->text[i]);
	free(w->text);
	*w = (struct pa_warnings){ 0 };
}

/* Room for one more element. Arrays only grow through here from empty, so
 * a count that is a power of two (or zero) is also the capacity: doubling
 * then keeps appends linear on hosts with thousands of functions. */
static void *grow(void *array, size_t count, size_t size)
{
	if (count && (count & (count - 1)))
		return array;
	return realloc(array, (count ? 2 * count : 1) * size);
}

int pa_report_add_device(struct pa_report *rep, struct pa_device *dev)
{
	struct pa_device *v = grow(rep->devices, rep->ndevices, sizeof(*v));

	if (!v)
		return -ENOMEM;
	rep->devices = v;
	v[rep->ndevices++] = *dev;
	rep->devices_sorted = false;
	*dev = (struct pa_device){ .pcie_type = -1, .numa_node = -1 };
	return 0;
}

struct pa_device *pa_report_new_device(struct pa_report *rep)
{
	struct pa_device *v = grow(rep->devices, rep->ndevices, sizeof(*v));

	if (!v)
		return NULL;
	rep->devices = v;
	rep->devices_sorted = false;
	v += rep->ndevices++;
	*v = (struct pa_device){ .pcie_type = -1, .numa_node = -1 };
	return v;
}

void pa_report_drop_last_device(struct pa_report *rep)
{
	if (rep->ndevices)
		pa_device_clear(&rep->devices[--rep->ndevices]);
}

int pa_report_add_group(struct pa_report *rep, struct pa_group *group)
{
	struct pa_group *v = grow(rep->groups, rep->ngroups, sizeof(*v));

	if (!v)
		return -ENOMEM;
	rep->groups = v;
	v[rep->ngroups++] = *group;
	*group = (struct pa_group){ 0 };
	return 0;
}

int pa_group_append(struct pa_group *to, struct pa_group *more)
{
	struct pa_addr *v;

	if (!more->nmembers) {
		v = to->members;
	} else {
		v = realloc(to->members,
			    (to->nmembers + more->nmembers) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		memcpy(v + to->nmembers, more->members,
		       more->nmembers * sizeof(*v));
	}
	to->members = v;
	to->nmembers += more->nmembers;
	to->other_members = more->other_members;
	pa_group_clear(more);
	return 0;
}

static int cmp_by_group(const void *a, const void *b)
{
	const struct pa_device *x = *(const struct pa_device *const *)a;
	const struct pa_device *y = *(const struct pa_device *const *)b;

	if (x->iommu.group != y->iommu.group)
		return x->iommu.group < y->iommu.group ? -1 : 1;
	return pa_addr_cmp(&x->addr, &y->addr);
}

/* Appends one group holding devs[0..n), which share a group number. */
static int add_group_of(struct pa_report *rep, const struct pa_device **devs,
			size_t n)
{
	struct pa_group g = { .id = devs[0]->iommu.group, .nmembers = n };
	int err;

	g.members = calloc(n, sizeof(*g.members));
	if (!g.members)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		g.members[i] = devs[i]->addr;
	err = pa_report_add_group(rep, &g);
	pa_group_clear(&g);
	return err;
}

int pa_report_groups_from_devices(struct pa_report *rep)
{
	const struct pa_device **in = calloc(rep->ndevices + 1, sizeof(*in));
	size_t n = 0, start = 0;
	int err = 0;

	if (!in)
		return -ENOMEM;
	for (size_t i = 0; i < rep->ndevices; i++)
		if (rep->devices[i].has_iommu)
			in[n++] = &rep->devices[i];
	/* Sorted by group, each group is one run: n log n, not n^2. */
	if (n)
		qsort(in, n, sizeof(*in), cmp_by_group);
	for (size_t i = 1; !err && i <= n; i++) {
		if (i < n && in[i]->iommu.group == in[start]->iommu.group)
			continue;
		err = add_group_of(rep, in + start, i - start);
		start = i;
	}
	free(in);
	return err;
}

static int cmp_device(const void *a, const void *b)
{
	const struct pa_device *x = a, *y = b;

	return pa_addr_cmp(&x->addr, &y->addr);
}

static int cmp_addr(const void *a, const void *b)
{
	return pa_addr_cmp(a, b);
}

static int cmp_group(const void *a, const void *b)
{
	const struct pa_group *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return 0;
}

void pa_report_sort(struct pa_report *rep)
{
	if (rep->ndevices)
		qsort(rep->devices, rep->ndevices, sizeof(*rep->devices), cmp_device);
	rep->devices_sorted = true;
	if (rep->ngroups)
		qsort(rep->groups, rep->ngroups, sizeof(*rep->groups), cmp_group);
	for (size_t i = 0; i < rep->ngroups; i++) {
		struct pa_group *g = &rep->groups[i];

		if (g->nmembers)
			qsort(g->members, g->nmembers, sizeof(*g->members), cmp_addr);
	}
}

const struct pa_group *pa_report_group_of(const struct pa_report *rep,
					  const struct pa_device *dev)
{
	for (size_t i = 0; dev->has_iommu && i < rep->ngroups; i++)
		if (rep->groups[i].id == dev->iommu.group)
			return &rep->groups[i];
	return NULL;
}

const struct pa_device *pa_report_find(const struct pa_report *rep,
				       const struct pa_addr *addr)
{
	size_t lo = 0, hi = rep->ndevices;

	/* Called per pair and per hop: a linear search was 9% of topo. */
	if (rep->devices_sorted) {
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			int c = pa_addr_cmp(&rep->devices[mid].addr, addr);

			if (!c)
				return &rep->devices[mid];
			if (c < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		return NULL;
	}
	for (size_t i = 0; i < rep->ndevices; i++)
		if (pa_addr_eq(&rep->devices[i].addr, addr))
			return &rep->devices[i];
	return NULL;
}

const struct pa_device *pa_report_upstream(const struct pa_report *rep,
					   const struct pa_device *dev)
{
	return dev->has_upstream ? pa_report_find(rep, &dev->upstream) : NULL;
}

static bool group_holds_reported_device(const struct pa_report *rep,
					const struct pa_group *g)
{
	for (size_t i = 0; i < g->nmembers; i++)
		if (pa_report_find(rep, &g->members[i]))
			return true;
	return false;
}

void pa_report_keep_groups_of_devices(struct pa_report *rep)
{
	size_t kept = 0;

	for (size_t i = 0; i < rep->ngroups; i++) {
		if (group_holds_reported_device(rep, &rep->groups[i]))
			rep->groups[kept++] = rep->groups[i];
		else
			pa_group_clear(&rep->groups[i]);
	}
	rep->ngroups = kept;
}

void pa_addr_list_clear(struct pa_addr_list *list)
{
	free(list->addrs);
	*list = (struct pa_addr_list){ 0 };
}

int pa_addr_list_add(struct pa_addr_list *list, const struct pa_addr *addr)
{
	struct pa_addr *v = grow(list->addrs, list->n, sizeof(*v));

	if (!v)
		return -ENOMEM;
	list->addrs = v;
	v[list->n++] = *addr;
	return 0;
}

void pa_p2p_pair_clear(struct pa_p2p_pair *pair)
{
	pa_addr_list_clear(&pair->hops_provider);
	pa_addr_list_clear(&pair->hops_client);
	pa_addr_list_clear(&pair->redirect);
	*pair = (struct pa_p2p_pair){ 0 };
}

void pa_p2p_clear(struct pa_p2p *p2p)
{
	for (size_t i = 0; i < p2p->npairs; i++)
		pa_p2p_pair_clear(&p2p->pairs[i]);
	free(p2p->pairs);
	*p2p = (struct pa_p2p){ 0 };
}

/* Room for n pairs; pairs set by hand (cap 0) are reallocated first. */
static int p2p_reserve(struct pa_p2p *p2p, size_t n)
{
	size_t cap = p2p->cap > p2p->npairs ? p2p->cap : p2p->npairs;
	struct pa_p2p_pair *v;

	if (n <= cap && p2p->cap)
		return 0;
	while (cap < n)
		cap = cap ? 2 * cap : 16;
	v = realloc(p2p->pairs, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	p2p->pairs = v;
	p2p->cap = cap;
	return 0;
}

int pa_p2p_add(struct pa_p2p *p2p, struct pa_p2p_pair *pair)
{
	if (p2p_reserve(p2p, p2p->npairs + 1))
		return -ENOMEM;
	p2p->pairs[p2p->npairs++] = *pair;
	*pair = (struct pa_p2p_pair){ 0 };
	return 0;
}

int pa_p2p_take(struct pa_p2p *to, struct pa_p2p *from)
{
	if (!from->npairs)
		return 0;
	if (p2p_reserve(to, to->npairs + from->npairs))
		return -ENOMEM;
	memcpy(to->pairs + to->npairs, from->pairs,
	       from->npairs * sizeof(*from->pairs));
	to->npairs += from->npairs;
	free(from->pairs);
	from->pairs = NULL;
	from->npairs = 0;
	from->cap = 0;
	return 0;
}

static int pair_key_cmp(const struct pa_addr *provider,
			const struct pa_addr *client,
			const struct pa_p2p_pair *pair)
{
	int c = pa_addr_cmp(provider, &pair->provider);

	return c ? c : pa_addr_cmp(client, &pair->client);
}

static int cmp_pair(const void *a, const void *b)
{
	const struct pa_p2p_pair *x = a;

	return pair_key_cmp(&x->provider, &x->client, b);
}

void pa_p2p_sort(struct pa_p2p *p2p)
{
	if (p2p->npairs)
		qsort(p2p->pairs, p2p->npairs, sizeof(*p2p->pairs), cmp_pair);
}

const struct pa_p2p_pair *pa_p2p_find(const struct pa_p2p *p2p,
				      const struct pa_addr *provider,
				      const struct pa_addr *client)
{
	size_t lo = 0, hi = p2p->npairs;

	/* A topology matrix looks up every cell: n^2 lookups in n^2 pairs. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = pair_key_cmp(provider, client, &p2p->pairs[mid]);

		if (!c)
			return &p2p->pairs[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}
