/* SPDX-License-Identifier: GPL-2.0 */
/* Human-readable P2P output: one pair's path and verdicts, and the
 * topology matrix. Pure: formats what it is given. */
#ifndef PA_P2P_TEXT_H
#define PA_P2P_TEXT_H

#include <stdio.h>

#include "model.h"
#include "topo.h"

/*
 * The path of pair hop by hop, with each bridge's ACS control and link,
 * the kernel's and pcieaudit's verdicts, the legend, the narrowest link
 * and, when P2P is not direct, the remedy. rep supplies the devices and
 * the kernel release. Returns 0 or a negative errno.
 */
int pa_text_p2p(FILE *f, const struct pa_report *rep,
		const struct pa_p2p_pair *pair);

/* The matrix over topo's devices from rep->p2p, the devices behind the
 * labels, and the legend. Returns 0 or a negative errno. */
int pa_text_topo(FILE *f, const struct pa_report *rep,
		 const struct pa_topo *topo);

#endif /* PA_P2P_TEXT_H */
