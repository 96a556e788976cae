/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IOMMU groups ACS supports: what the kernel's pci_device_group()
 * forms from the ACS control as read, without the kernel's device quirks
 * (drivers/pci/quirks.c) and DMA alias quirks. Comparing them with the
 * kernel's groups shows groups that claim isolation ACS does not give
 * (pcie_acs_override=, ACS changed after boot). Pure.
 *
 * The walk, for each function D:
 *   - behind a PCIe-to-PCI, PCI-to-PCIe or conventional PCI bridge, D
 *     shares the group of the nearest such bridge (requester IDs alias);
 *   - else, unless every function from the bridge above D up to the root
 *     bus isolates, D shares that bridge's group: everything below it;
 *   - else D starts a group, which a multifunction D without ACS shares
 *     with its slot's other functions without ACS.
 * A function isolates (pci_acs_enabled(REQ_ACS_FLAGS)) when it is a root
 * or downstream port whose ACS control has SrcValid, ReqRedir, CmpltRedir
 * and UpstreamFwd wherever its capability implements them; an endpoint or
 * upstream port isolates when single-function, or with the same ACS.
 * Conventional PCI, PCIe-to-PCI and PCI-to-PCIe bridges never do.
 */
#ifndef PA_ISOLATION_H
#define PA_ISOLATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/pci_regs.h>

#include "model.h"

/* REQ_ACS_FLAGS of drivers/iommu/iommu.c. */
#define PA_ACS_REQ (PCI_ACS_SV | PCI_ACS_RR | PCI_ACS_CR | PCI_ACS_UF)

/* The REQ flags a function's ACS, read as ctrl, leaves off among those
 * its capability implements; all of them without an ACS capability. */
uint16_t pa_acs_req_missing(const struct pa_device *dev, uint16_t ctrl);

/* pci_acs_enabled(dev, REQ_ACS_FLAGS), quirks aside, with ctrl as the
 * ACS control register. */
bool pa_acs_isolates(const struct pa_device *dev, uint16_t ctrl);

/* A bridge whose requester IDs alias everything behind it. */
bool pa_is_pci_bridge(const struct pa_device *dev);

/* The groups, as a union-find over rep->devices' indices. */
struct pa_isolation {
	size_t *parent;
	size_t n;
};

/* Groups from the live ACS control; 0 or -ENOMEM. */
int pa_isolation_compute(const struct pa_report *rep, struct pa_isolation *iso);

/* Whether devices i and j would share a group. */
bool pa_isolation_together(struct pa_isolation *iso, size_t i, size_t j);

void pa_isolation_clear(struct pa_isolation *iso);

/*
 * The functions that keep device i from a group of its own, from the
 * live control: every function above it that does not isolate, then i
 * itself when it is multifunction without ACS. Appended to list, nearest
 * first; 0 or -ENOMEM.
 */
int pa_isolation_culprits(const struct pa_report *rep, size_t i,
			  struct pa_addr_list *list);

#endif /* PA_ISOLATION_H */
