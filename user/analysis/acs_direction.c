// SPDX-License-Identifier: GPL-2.0
#include "acs_direction.h"

#include <errno.h>
#include <string.h>
#include <linux/pci_regs.h>

const char *pa_tlp_kind_name(enum pa_tlp_kind kind)
{
	static const char *const names[PA_TLP_NKINDS] = {
		[PA_TLP_REQUEST] = "requests",
		[PA_TLP_TRANSLATED] = "translated requests",
		[PA_TLP_COMPLETION] = "completions",
	};

	return kind < PA_TLP_NKINDS ? names[kind] : "?";
}

/* ACS P2P controls live in root ports and switch downstream ports
 * (§6.12.1.1, §6.12.1.2). */
static bool acs_port(const struct pa_device *d)
{
	return d && (d->pcie_type == PCI_EXP_TYPE_ROOT_PORT ||
		     d->pcie_type == PCI_EXP_TYPE_DOWNSTREAM);
}

/* The ports of one side, from the endpoint up; the hop lists may name the
 * endpoint itself and never name the common bridge. A hop the report does
 * not hold is kept: its ACS is unknown. */
static int side_ports(const struct pa_report *rep,
		      const struct pa_addr_list *hops,
		      const struct pa_addr *self, struct pa_addr_list *out)
{
	for (size_t i = 0; i < hops->n; i++) {
		const struct pa_device *d = pa_report_find(rep, &hops->addrs[i]);

		if (pa_addr_eq(&hops->addrs[i], self) || (d && !acs_port(d)))
			continue;
		if (pa_addr_list_add(out, &hops->addrs[i]))
			return -ENOMEM;
	}
	return 0;
}

/* The ACS control of a port: false when unknown. No capability reads as
 * no control bits set. */
static bool port_ctrl(const struct pa_report *rep, const struct pa_addr *a,
		      uint16_t *ctrl)
{
	const struct pa_device *d = pa_report_find(rep, a);

	if (!d || pa_device_acs_unknown(d))
		return false;
	*ctrl = d->has_acs ? d->acs.ctrl : 0;
	return true;
}

/* The first port of list whose control has any of bits set, unless it
 * also has one of spare; PA_UNKNOWN when an unknown port comes first. */
static void fate(const struct pa_report *rep, const struct pa_addr_list *list,
		 uint16_t bits, uint16_t spare, struct pa_tlp_fate *out)
{
	out->redirected = PA_NO;
	for (size_t i = 0; i < list->n; i++) {
		uint16_t ctrl;

		if (!port_ctrl(rep, &list->addrs[i], &ctrl)) {
			out->redirected = PA_UNKNOWN;
			out->port = list->addrs[i];
			return;
		}
		if ((ctrl & bits) && !(ctrl & spare)) {
			out->redirected = PA_YES;
			out->port = list->addrs[i];
			out->bits = ctrl & bits;
			return;
		}
	}
}

static enum pa_tristate direct(enum pa_tristate redirected)
{
	return redirected == PA_UNKNOWN ? PA_UNKNOWN :
	       redirected == PA_YES ? PA_NO : PA_YES;
}

int pa_acs_direction(const struct pa_report *rep, const struct pa_p2p_pair *p,
		     bool from_client, struct pa_acs_direction *out)
{
	const struct pa_addr_list *rh = from_client ? &p->hops_client : &p->hops_provider;
	const struct pa_addr_list *ch = from_client ? &p->hops_provider : &p->hops_client;
	const struct pa_device *req;
	enum pa_tristate plain, translated;
	int err;

	memset(out, 0, sizeof(*out));
	out->requester = from_client ? p->client : p->provider;
	out->completer = from_client ? p->provider : p->client;
	err = side_ports(rep, rh, &out->requester, &out->req_ports);
	if (!err)
		err = side_ports(rep, ch, &out->completer, &out->cpl_ports);
	if (err) {
		pa_acs_direction_clear(out);
		return err;
	}
	fate(rep, &out->req_ports, PCI_ACS_RR | PCI_ACS_EC, 0,
	     &out->tlp[PA_TLP_REQUEST]);
	fate(rep, &out->req_ports, PCI_ACS_RR | PCI_ACS_EC, PCI_ACS_DT,
	     &out->tlp[PA_TLP_TRANSLATED]);
	fate(rep, &out->cpl_ports, PCI_ACS_CR, 0, &out->tlp[PA_TLP_COMPLETION]);

	req = pa_report_find(rep, &out->requester);
	out->requester_ats = req ? pa_ats_enabled(req) : PA_UNKNOWN;
	plain = direct(out->tlp[PA_TLP_REQUEST].redirected);
	translated = direct(out->tlp[PA_TLP_TRANSLATED].redirected);
	if (plain == PA_YES) {
		out->peer_to_peer = PA_YES;
	} else if (translated == PA_YES && out->requester_ats == PA_YES) {
		out->peer_to_peer = PA_YES;
		out->by_translation = true;
	} else if (plain == PA_UNKNOWN ||
		   (translated != PA_NO && out->requester_ats != PA_NO)) {
		/* Unknown ports, or DirectTrans with ATS state unknown. */
		out->peer_to_peer = PA_UNKNOWN;
	} else {
		out->peer_to_peer = PA_NO;
	}
	return 0;
}

void pa_acs_direction_clear(struct pa_acs_direction *d)
{
	pa_addr_list_clear(&d->req_ports);
	pa_addr_list_clear(&d->cpl_ports);
}

void pa_acs_intent_bits(enum pa_acs_intent intent, bool req_side,
			bool cpl_side, uint16_t ctrl, char bits[8])
{
	/* Index 0 is bit 6 (T), index 6 is bit 0 (V). */
	if (intent == PA_ACS_INTENT_VM_ATS) {
		memcpy(bits, "1x111x1", 8);
		return;
	}
	if (req_side && cpl_side)
		memcpy(bits, "xx100x1", 8);
	else if (req_side)
		memcpy(bits, "xx110x1", 8);
	else
		memcpy(bits, "xx101x1", 8);
	if (req_side && (ctrl & PCI_ACS_EC))
		bits[1] = '0';
}
