/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The path of a P2P pair, function by function, and its narrowest link.
 * Pure: reads a pair and the device report, writes nothing.
 */
#ifndef PA_P2P_PATH_H
#define PA_P2P_PATH_H

#include <stdbool.h>

#include "model.h"

enum pa_step_role {
	PA_STEP_PROVIDER,
	PA_STEP_UP,		/* a bridge above the provider */
	PA_STEP_COMMON,		/* the common upstream bridge */
	PA_STEP_ROOT_COMPLEX,	/* no common bridge: no address */
	PA_STEP_DOWN,		/* a bridge above the client */
	PA_STEP_CLIENT,
};

/* Called once per step; addr is NULL for PA_STEP_ROOT_COMPLEX. */
typedef void (*pa_step_fn)(const struct pa_addr *addr, enum pa_step_role role,
			   void *arg);

/*
 * Walks the path in travel order: the provider, its hops up, the common
 * bridge (or the root complex), the client's hops down, the client. The
 * hop lists may or may not name the endpoints themselves; each function is
 * visited once either way, and the same function twice (provider ==
 * client) is one PA_STEP_PROVIDER.
 */
void pa_path_walk(const struct pa_p2p_pair *pair, pa_step_fn fn, void *arg);

struct pa_bottleneck {
	bool found;		/* some link on the path has a known rate */
	double gbps;		/* the narrowest, GB/s per direction */
	struct pa_addr link;	/* the function whose LnkSta reports it */
	double ends_gbps;	/* the faster end's LnkCap, 0 if unknown */
	struct pa_addr faster_end;
	bool trap;		/* gbps below half of ends_gbps */
};

/*
 * The narrowest link as trained (LnkSta) among the provider's and client's
 * own links and the links of every hop bridge; the common bridge's link is
 * not on the path, it leads further up. Of equal links the one met first
 * going up from the provider, then up from the client, is named: a link by
 * the function below it. A function missing from the report, without link
 * registers or with its link down is left out.
 */
void pa_path_bottleneck(const struct pa_report *rep,
			const struct pa_p2p_pair *pair, struct pa_bottleneck *b);

#endif /* PA_P2P_PATH_H */
