/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the gpudirect profile's files: check_gpudirect.c chooses the
 * pairs and checks paths, check_gpudirect_acs.c judges ACS by direction,
 * check_gpudirect_dev.c the devices' BARs, MPS, MRRS and relaxed ordering.
 */
#ifndef PA_CHECK_GPUDIRECT_H
#define PA_CHECK_GPUDIRECT_H

#include "check.h"
#include "strbuf.h"

struct gd {
	struct pa_check *c;
	const struct pa_report *rep;
	const struct pa_device **partners;	/* accelerators among them */
	size_t npartners;
	const struct pa_p2p_pair **pairs;	/* chosen, in report order */
	size_t npairs;
	size_t joined;				/* pairs on NVLink or XGMI */
};

bool pa_gd_accelerator(const struct pa_device *d);

/* "GPU 0000:03:00.0 and NIC 0000:04:00.0" */
void pa_gd_pair_names(struct pa_sb *sb, const struct gd *g,
		      const struct pa_p2p_pair *p);

/* A finding about a pair: its devices, then more; msg is consumed. */
void pa_gd_add_pair_finding(struct gd *g, enum pa_rule_id rule,
			    enum pa_severity sev, const struct pa_p2p_pair *p,
			    const struct pa_addr_list *more,
			    struct pa_remedy remedy, struct pa_sb *msg);

/* gpudirect.acs-redirect and gpudirect.acs-p2pdma over the chosen pairs. */
void pa_gd_check_acs(struct gd *g);

/* gpudirect.bar-small, mps-mismatch, relaxed-ordering. */
void pa_gd_check_devices(struct gd *g);

#endif /* PA_CHECK_GPUDIRECT_H */
