/* SPDX-License-Identifier: GPL-2.0 */
/* Asks the module for its state and collects the replies into the model. */
#ifndef PA_FETCH_H
#define PA_FETCH_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "nl.h"
#include "topo.h"

int pa_fetch_info(struct pa_nl *nl, struct pa_info *info);

/*
 * Module info, devices and IOMMU groups, sorted. With only set, just that
 * device (-ENODEV when the kernel has none there) and the groups holding it.
 * On failure *rep is left empty.
 */
int pa_fetch_report(struct pa_nl *nl, const struct pa_addr *only,
		    struct pa_report *rep);

/* Module info and every device, sorted; no groups. */
int pa_fetch_devices(struct pa_nl *nl, struct pa_report *rep);

/*
 * A P2P do request: provider and 1 to PCIEAUDIT_P2P_MAX_CLIENTS clients
 * (-EINVAL otherwise). The pairs come in client order. -ENODEV when the
 * kernel has no function at one of the addresses.
 */
int pa_fetch_p2p(struct pa_nl *nl, const struct pa_addr *provider,
		 const struct pa_addr *clients, size_t nclients,
		 struct pa_p2p *p2p);

/* Selects functions whose (class & mask) == (value & mask). */
struct pa_class_select {
	uint32_t value;
	uint32_t mask;
};

/* A function is selected when it matches any entry of either list. */
struct pa_p2p_select {
	const struct pa_addr *devs;
	size_t ndevs;
	const struct pa_class_select *classes;
	size_t nclasses;
};

/*
 * A P2P dump: every ordered pair of distinct selected functions, sorted by
 * (provider, client). Empty lists select nothing, so nothing is asked.
 */
int pa_fetch_p2p_dump(struct pa_nl *nl, const struct pa_p2p_select *sel,
		      struct pa_p2p *p2p);

/*
 * The P2P pairs among topo's devices, into rep->p2p (rep->has_p2p set on
 * success). Fewer than two devices make no pair and ask nothing.
 */
int pa_fetch_topo_pairs(struct pa_nl *nl, const struct pa_topo *topo,
			struct pa_report *rep);

#endif /* PA_FETCH_H */
