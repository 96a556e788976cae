/* SPDX-License-Identifier: GPL-2.0 */
/*
 * P2P pairs the module did not answer (no module, a module before P2P
 * support, a snapshot without p2p[], a device a policy adds), analysed in
 * userspace from the report's upstream links and live ACS control, as the
 * kernel's calc_map_type_and_dist() walks them. Pure.
 *
 * What userspace cannot know stays unknown (0): the kernel's own answer,
 * and the verdict for a path through the root complex unless the host's
 * CPU decides it (AMD family 17h or newer allows it); the host bridge
 * whitelist follows the running kernel and is left to the module. A
 * pair below a common bridge with a function on its path whose ACS is
 * unknown (256 bytes of configuration space, a bridge only lspci -t drew)
 * and none known to redirect is unknown too: map, path and host rule 0.
 */
#ifndef PA_P2P_INFER_H
#define PA_P2P_INFER_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

/* The pair a (provider) to b (client); 0 or -ENOMEM. */
int pa_p2p_infer(const struct pa_report *rep, const struct pa_addr *a,
		 const struct pa_addr *b, struct pa_p2p_pair *pair);

/*
 * The first function on p's path (the provider's side up, the common
 * bridge, the client's side) whose ACS is unknown, where that leaves the
 * verdict open: a common bridge and no function known to redirect. As
 * the kernel's calc_map_type_and_dist(), every function walked counts.
 */
bool pa_p2p_acs_unknown_at(const struct pa_report *rep,
			   const struct pa_p2p_pair *p, struct pa_addr *at);

/* Every pair of rep->p2p that the kernel did not answer and that claims
 * bus addresses across unknown ACS is made unknown: a snapshot's pairs
 * of an older writer, or a module's over a function gone silent. */
void pa_p2p_settle_unknown(struct pa_report *rep);

/* Adds every ordered pair of distinct devs that rep->p2p lacks, and
 * leaves rep->p2p sorted; 0 or -ENOMEM. */
int pa_p2p_fill(struct pa_report *rep, const struct pa_addr *devs, size_t n);

#endif /* PA_P2P_INFER_H */
