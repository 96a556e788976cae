/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Direction-aware ACS: for one direction of a P2P pair (a requester and
 * the completer whose memory it reads or writes), which TLPs the ports on
 * the path send up to the root complex instead of across to the peer, and
 * where. Pure: reads a pair and the device report.
 *
 * The rules are the PCIe Base Specification's (6.0, §6.12 Access Control
 * Services), as they apply to the ports a TLP enters on its way:
 *  - ACS P2P Request Redirect (R, §6.12.1.1 root ports, §6.12.1.2 switch
 *    downstream ports; control bit 2): peer-to-peer requests received at
 *    the port are redirected upstream. It applies where requests enter the
 *    path: the requester's side.
 *  - ACS P2P Egress Control (E, bit 5): requests received at the port for
 *    the ports its Egress Control Vector names are blocked, or redirected
 *    with R (§6.12.3). The vector is not read: E counts as not direct.
 *  - ACS Direct Translated P2P (T, bit 6, §6.12.1.2, §6.12.3): memory
 *    requests whose Address Type is Translated are routed directly despite
 *    R and E. Only a requester with ATS enabled issues them.
 *  - ACS P2P Completion Redirect (C, bit 3): read completions received at
 *    the port, with the Relaxed Ordering attribute clear, are redirected
 *    upstream. It applies where completions enter the path: the
 *    completer's side.
 * Upstream Forwarding (U) and Source Validation (V) do not decide whether
 * a TLP goes across; the kernel's pci_p2pdma rule is another question and
 * is kept apart (gpudirect.acs-p2pdma).
 */
#ifndef PA_ACS_DIRECTION_H
#define PA_ACS_DIRECTION_H

#include <stdbool.h>
#include <stdint.h>

#include "dev_caps.h"
#include "model.h"

enum pa_tlp_kind {
	PA_TLP_REQUEST,		/* untranslated memory requests */
	PA_TLP_TRANSLATED,	/* requests with AT = Translated (ATS) */
	PA_TLP_COMPLETION,	/* read completions back to the requester */
	PA_TLP_NKINDS,
};

/* "requests", "translated requests", "completions". */
const char *pa_tlp_kind_name(enum pa_tlp_kind kind);

struct pa_tlp_fate {
	/* PA_YES: sent up to the root complex (or blocked) at port;
	 * PA_UNKNOWN: a port on the way has unknown ACS control. */
	enum pa_tristate redirected;
	struct pa_addr port;
	uint16_t bits;		/* the ACS control bits that did it */
};

struct pa_acs_direction {
	struct pa_addr requester;
	struct pa_addr completer;
	/* The ports whose ACS controls apply: requests enter at req_ports
	 * (from the requester up), completions at cpl_ports (from the
	 * completer up). Root and switch downstream ports only. */
	struct pa_addr_list req_ports;
	struct pa_addr_list cpl_ports;
	struct pa_tlp_fate tlp[PA_TLP_NKINDS];
	enum pa_tristate requester_ats;	/* ATS enabled on the requester */
	/* The requester's writes and read requests reach the completer
	 * directly: untranslated ones, or translated ones where its ATS is
	 * on. Completions are reported but do not decide it. */
	enum pa_tristate peer_to_peer;
	bool by_translation;	/* peer_to_peer only thanks to DirectTrans */
};

/*
 * Analyses the direction from the pair's provider to its client (or the
 * other way round with from_client). 0 or -ENOMEM.
 */
int pa_acs_direction(const struct pa_report *rep, const struct pa_p2p_pair *p,
		     bool from_client, struct pa_acs_direction *out);
void pa_acs_direction_clear(struct pa_acs_direction *d);

/* What the ports are for, for the remedy. */
enum pa_acs_intent {
	PA_ACS_INTENT_BARE_METAL,	/* untranslated requests peer to peer */
	PA_ACS_INTENT_VM_ATS,		/* translated requests peer to peer,
					 * the rest redirected for isolation */
};

/*
 * The config_acs flags (bit 6 leftmost, 'x' unchanged) for a port on the
 * requester's side of a direction that must go peer to peer, on the
 * completer's side, or both, for the intent. Bare metal follows NVIDIA's
 * rdma_topo: "xx110x1" where requests enter (R off, C on), "xx101x1"
 * where completions enter (R on, C off), "xx100x1" for both; E is cleared
 * ("0") where ctrl has it on a requester's side, since it would block.
 * VM with ATS: "1x111x1", DirectTrans on and redirection kept.
 */
void pa_acs_intent_bits(enum pa_acs_intent intent, bool req_side,
			bool cpl_side, uint16_t ctrl, char bits[8]);

#endif /* PA_ACS_DIRECTION_H */
