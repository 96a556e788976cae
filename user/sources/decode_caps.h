/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DEV_GET attributes for ATS, PCIe device control and BARs into a
 * pa_device. Pure, as decode.h.
 */
#ifndef PA_DECODE_CAPS_H
#define PA_DECODE_CAPS_H

#include "model.h"

struct nlattr;
struct nla_policy;

/* The nests' policies, generated from the spec (decode.c has them). */
struct pa_caps_policies {
	const struct nla_policy *ats;
	const struct nla_policy *expdev;
	const struct nla_policy *bar;
	const struct nla_policy *passthru;
	const struct nla_policy *sriov;
	const struct nla_policy *vf_bar;
};

/*
 * head/len: the message's attribute chain, for the repeated BAR nests;
 * ats and expdev: those nests or NULL. 0 or -EBADMSG, with d partly
 * written then: pa_decode_device() clears it.
 */
int pa_decode_device_caps(struct nlattr *head, int len, struct nlattr *ats,
			  struct nlattr *expdev,
			  const struct pa_caps_policies *pol, struct pa_device *d);

/* The PASSTHRU nest (NULL: an older module) into d->pt. 0, -EBADMSG or
 * -ENOMEM, d untouched then. */
int pa_decode_device_passthru(struct nlattr *nest,
			      const struct pa_caps_policies *pol,
			      struct pa_device *d);

#endif /* PA_DECODE_CAPS_H */
