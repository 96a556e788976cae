/* SPDX-License-Identifier: GPL-2.0 */
/* One direction's ACS analysis in words, for p2p and check. Pure. */
#ifndef PA_ACS_DIRECTION_TEXT_H
#define PA_ACS_DIRECTION_TEXT_H

#include "acs_direction.h"
#include "strbuf.h"

/*
 * "requests redirected at 0000:00:02.0 (ReqRedir); translated requests go
 * direct (DirectTrans), but the requester's ATS is off; completions go
 * direct": what happens to each kind of TLP, without the endpoints.
 */
void pa_acs_direction_text(struct pa_sb *sb, const struct pa_acs_direction *d);

/* "peer to peer", "peer to peer by translation (DirectTrans)", "through
 * the root complex", "unknown". */
const char *pa_acs_direction_verdict(const struct pa_acs_direction *d);

#endif /* PA_ACS_DIRECTION_TEXT_H */
