// SPDX-License-Identifier: GPL-2.0
#include "isolation.h"

#include <errno.h>
#include <stdlib.h>
#include <linux/pcieaudit.h>

uint16_t pa_acs_req_missing(const struct pa_device *dev, uint16_t ctrl)
{
	/* "Features missing from the capability field can therefore be
	 * assumed as hard-wired enabled" (pci_acs_flags_enabled()). */
	if (!dev->has_acs)
		return PA_ACS_REQ;
	return PA_ACS_REQ & dev->acs.cap & ~ctrl;
}

bool pa_is_pci_bridge(const struct pa_device *dev)
{
	if (dev->pcie_type < 0)
		return (dev->flags & PCIEAUDIT_DEV_F_BRIDGE) != 0;
	return dev->pcie_type == PCI_EXP_TYPE_PCI_BRIDGE ||
	       dev->pcie_type == PCI_EXP_TYPE_PCIE_BRIDGE;
}

bool pa_acs_isolates(const struct pa_device *dev, uint16_t ctrl)
{
	if (dev->pcie_type < 0)
		return false;
	switch (dev->pcie_type) {
	case PCI_EXP_TYPE_PCIE_BRIDGE:
	case PCI_EXP_TYPE_PCI_BRIDGE:
	case PCI_EXP_TYPE_RC_EC:
		return false;
	case PCI_EXP_TYPE_DOWNSTREAM:
	case PCI_EXP_TYPE_ROOT_PORT:
		return !pa_acs_req_missing(dev, ctrl);
	case PCI_EXP_TYPE_ENDPOINT:
	case PCI_EXP_TYPE_UPSTREAM:
	case PCI_EXP_TYPE_LEG_END:
	case PCI_EXP_TYPE_RC_END:
		if (!(dev->flags & PCIEAUDIT_DEV_F_MULTIFUNCTION))
			return true;
		return !pa_acs_req_missing(dev, ctrl);
	default:
		return true;
	}
}

static size_t index_of(const struct pa_report *rep, const struct pa_device *d)
{
	return (size_t)(d - rep->devices);
}

/* pci_acs_path_enabled(from, NULL, REQ_ACS_FLAGS); bounded by the number
 * of devices, in case upstream links form a cycle. */
static bool path_isolates(const struct pa_report *rep,
			  const struct pa_device *from)
{
	for (size_t steps = 0; from && steps <= rep->ndevices;
	     steps++, from = pa_report_upstream(rep, from))
		if (!pa_acs_isolates(from, from->acs.ctrl))
			return false;
	return true;
}

/* The function whose group d joins, or d itself. */
static const struct pa_device *joins(const struct pa_report *rep,
				     const struct pa_device *d)
{
	const struct pa_device *b = pa_report_upstream(rep, d);

	/* pci_for_each_dma_alias(): the nearest aliasing bridge first. */
	for (size_t steps = 0; b && steps <= rep->ndevices;
	     steps++, b = pa_report_upstream(rep, b))
		if (pa_is_pci_bridge(b))
			return b;
	b = pa_report_upstream(rep, d);
	return b && !path_isolates(rep, b) ? b : d;
}

static size_t root_of(struct pa_isolation *iso, size_t i)
{
	while (iso->parent[i] != i) {
		iso->parent[i] = iso->parent[iso->parent[i]];
		i = iso->parent[i];
	}
	return i;
}

static void unite(struct pa_isolation *iso, size_t i, size_t j)
{
	iso->parent[root_of(iso, i)] = root_of(iso, j);
}

/* get_pci_function_alias_group(): functions of one slot without ACS. */
static void unite_functions(const struct pa_report *rep,
			    struct pa_isolation *iso, size_t i)
{
	const struct pa_device *d = &rep->devices[i];

	if (!(d->flags & PCIEAUDIT_DEV_F_MULTIFUNCTION) ||
	    pa_acs_isolates(d, d->acs.ctrl))
		return;
	for (size_t j = 0; j < rep->ndevices; j++) {
		const struct pa_device *s = &rep->devices[j];

		if (j != i && pa_addr_same_slot(&d->addr, &s->addr) &&
		    !pa_acs_isolates(s, s->acs.ctrl))
			unite(iso, i, j);
	}
}

int pa_isolation_compute(const struct pa_report *rep, struct pa_isolation *iso)
{
	iso->n = rep->ndevices;
	iso->parent = calloc(rep->ndevices + 1, sizeof(*iso->parent));
	if (!iso->parent)
		return -ENOMEM;
	for (size_t i = 0; i < rep->ndevices; i++)
		iso->parent[i] = i;
	for (size_t i = 0; i < rep->ndevices; i++) {
		const struct pa_device *d = &rep->devices[i];
		const struct pa_device *j = joins(rep, d);

		if (j != d)
			unite(iso, i, index_of(rep, j));
		else
			unite_functions(rep, iso, i);
	}
	return 0;
}

bool pa_isolation_together(struct pa_isolation *iso, size_t i, size_t j)
{
	return i < iso->n && j < iso->n && root_of(iso, i) == root_of(iso, j);
}

void pa_isolation_clear(struct pa_isolation *iso)
{
	free(iso->parent);
	*iso = (struct pa_isolation){ 0 };
}

int pa_isolation_culprits(const struct pa_report *rep, size_t i,
			  struct pa_addr_list *list)
{
	const struct pa_device *d = &rep->devices[i];
	const struct pa_device *b = pa_report_upstream(rep, d);
	int err = 0;

	for (size_t steps = 0; !err && b && steps <= rep->ndevices;
	     steps++, b = pa_report_upstream(rep, b))
		if (!pa_acs_isolates(b, b->acs.ctrl))
			err = pa_addr_list_add(list, &b->addr);
	if (!err && (d->flags & PCIEAUDIT_DEV_F_MULTIFUNCTION) &&
	    !pa_acs_isolates(d, d->acs.ctrl))
		err = pa_addr_list_add(list, &d->addr);
	return err;
}
