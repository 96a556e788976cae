// SPDX-License-Identifier: GPL-2.0
#include "acs_direction_text.h"

#include "acs.h"
#include "bdf.h"

#include <linux/pci_regs.h>

static void bit_names(struct pa_sb *sb, uint16_t bits)
{
	const char *sep = "";

	for (unsigned int bit = 0; bit < PA_ACS_NFLAGS; bit++) {
		if (!pa_acs_flag(bits, bit))
			continue;
		pa_sb_printf(sb, "%s%s", sep, pa_acs_flag_names[bit]);
		sep = ", ";
	}
}

static void fate_text(struct pa_sb *sb, enum pa_tlp_kind kind,
		      const struct pa_tlp_fate *t)
{
	char bdf[PA_BDF_LEN];

	pa_bdf_format(&t->port, bdf);
	pa_sb_printf(sb, "%s ", pa_tlp_kind_name(kind));
	switch (t->redirected) {
	case PA_YES:
		pa_sb_printf(sb, "%s at %s (",
			     t->bits & PCI_ACS_EC && !(t->bits & ~PCI_ACS_EC) ?
			     "blocked or redirected" : "redirected", bdf);
		bit_names(sb, t->bits);
		pa_sb_printf(sb, ")");
		break;
	case PA_NO:
		pa_sb_printf(sb, "go direct");
		break;
	default:
		pa_sb_printf(sb, "unknown (ACS of %s unknown)", bdf);
		break;
	}
}

static bool same_fate(const struct pa_tlp_fate *a, const struct pa_tlp_fate *b)
{
	return a->redirected == b->redirected && a->bits == b->bits &&
	       (a->redirected == PA_NO || pa_addr_eq(&a->port, &b->port));
}

void pa_acs_direction_text(struct pa_sb *sb, const struct pa_acs_direction *d)
{
	/* Without DirectTrans on the way, both kinds of request fare alike. */
	if (same_fate(&d->tlp[PA_TLP_REQUEST], &d->tlp[PA_TLP_TRANSLATED])) {
		pa_sb_printf(sb, "translated or not, ");
		fate_text(sb, PA_TLP_REQUEST, &d->tlp[PA_TLP_REQUEST]);
	} else {
		fate_text(sb, PA_TLP_REQUEST, &d->tlp[PA_TLP_REQUEST]);
		pa_sb_printf(sb, "; ");
		fate_text(sb, PA_TLP_TRANSLATED, &d->tlp[PA_TLP_TRANSLATED]);
		if (d->requester_ats == PA_NO)
			pa_sb_printf(sb, ", but the requester's ATS is off");
		else if (d->requester_ats == PA_UNKNOWN)
			pa_sb_printf(sb, ", if the requester's ATS is on (unknown)");
	}
	pa_sb_printf(sb, "; ");
	fate_text(sb, PA_TLP_COMPLETION, &d->tlp[PA_TLP_COMPLETION]);
}

const char *pa_acs_direction_verdict(const struct pa_acs_direction *d)
{
	switch (d->peer_to_peer) {
	case PA_YES:
		return d->by_translation ?
		       "peer to peer for translated requests (DirectTrans, ATS on)" :
		       "peer to peer";
	case PA_NO:
		return "through the root complex";
	default:
		return "unknown";
	}
}
