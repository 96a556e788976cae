/* SPDX-License-Identifier: GPL-2.0 */
/* gpudirect's rules on the fabric beside PCIe: accelerator links and the
 * GPUDirect software (nvidia-peermem, dma-buf). Pure. */
#ifndef PA_CHECK_GPUDIRECT_SW_H
#define PA_CHECK_GPUDIRECT_SW_H

#include <stdbool.h>

#include "check.h"

/* The accelerator links joining a pair, or NULL. */
const struct pa_accel_link *pa_gd_accel_link(const struct pa_report *rep,
					     const struct pa_p2p_pair *p);

/* gpudirect.accel-link for a pair joined by links: judged on them. */
void pa_gd_accel_finding(struct pa_check *c, const struct pa_p2p_pair *p,
			 const struct pa_accel_link *l);

/* gpudirect.accel-link's PASS or SKIP line when no pair was joined. */
void pa_gd_accel_note(struct pa_check *c, size_t joined);

/* gpudirect.peermem-not-loaded and gpudirect.dmabuf-unavailable. */
void pa_gd_software(struct pa_check *c);

#endif /* PA_CHECK_GPUDIRECT_SW_H */
