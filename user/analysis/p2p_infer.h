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
 * whitelist follows the running kernel and is left to the module.
 */
#ifndef PA_P2P_INFER_H
#define PA_P2P_INFER_H

#include <stddef.h>

#include "model.h"

/* The pair a (provider) to b (client); 0 or -ENOMEM. */
int pa_p2p_infer(const struct pa_report *rep, const struct pa_addr *a,
		 const struct pa_addr *b, struct pa_p2p_pair *pair);

/* Adds every ordered pair of distinct devs that rep->p2p lacks, and
 * leaves rep->p2p sorted; 0 or -ENOMEM. */
int pa_p2p_fill(struct pa_report *rep, const struct pa_addr *devs, size_t n);

#endif /* PA_P2P_INFER_H */
