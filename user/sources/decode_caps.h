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
};

/*
 * head/len: the message's attribute chain, for the repeated BAR nests;
 * ats and expdev: those nests or NULL. 0 or -EBADMSG, d untouched then.
 */
int pa_decode_device_caps(struct nlattr *head, int len, struct nlattr *ats,
			  struct nlattr *expdev,
			  const struct pa_caps_policies *pol, struct pa_device *d);

#endif /* PA_DECODE_CAPS_H */
