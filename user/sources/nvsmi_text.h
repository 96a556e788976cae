/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `nvidia-smi -q` text, as nvidia-bug-report.log holds it: each GPU's
 * framebuffer size, which NVML gives the live CLI (mem_bytes) and the BAR
 * rule needs. Pure: text in, a list out.
 */
#ifndef PA_NVSMI_TEXT_H
#define PA_NVSMI_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "bdf.h"

struct pa_nvsmi_gpu {
	char bdf[PA_BDF_LEN];		/* "DDDD:BB:DD.F" */
	uint64_t fb_bytes;		/* "FB Memory Usage" Total */
};

struct pa_nvsmi {
	struct pa_nvsmi_gpu *v;
	size_t n;
};

/*
 * Every "GPU DDDDDDDD:BB:DD.F" block of nvidia-smi -q in text (quoted,
 * indented or not) with the Total of its "FB Memory Usage" in MiB. A GPU
 * whose block has none is left out. 0 or -ENOMEM.
 */
int pa_nvsmi_parse(const char *text, size_t len, struct pa_nvsmi *out);
void pa_nvsmi_clear(struct pa_nvsmi *s);

#endif /* PA_NVSMI_TEXT_H */
