/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DEV_GET attributes for ATS, PCIe device control and BARs into a
 * pa_device. Pure, as decode.h.
 */
#ifndef PA_DECODE_CAPS_H
#define PA_DECODE_CAPS_H

#include "model.h"

struct nlattr;

/*
 * head/len: the message's attribute chain, for the repeated BAR nests;
 * ats and expdev: those nests or NULL. 0 or -EBADMSG, d untouched then.
 */
int pa_decode_device_caps(struct nlattr *head, int len, struct nlattr *ats,
			  struct nlattr *expdev, struct pa_device *d);

#endif /* PA_DECODE_CAPS_H */
