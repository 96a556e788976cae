// SPDX-License-Identifier: GPL-2.0
/* The NCCL file's host facts from cpuinfo text or a snapshot. Pure. */
#include "nccl_host.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"

int pa_nccl_cpuinfo(const char *text, struct pa_nccl_host *h)
{
	const char *v;

	h->family = h->model = -1;
	for (const char *line = text; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (*line == '\n')
			break;		/* the first processor only */
		if ((v = pa_text_field(line, "vendor_id")) && !h->vendor) {
			h->vendor = strndup(v, strcspn(v, "\n"));
			if (!h->vendor)
				return -ENOMEM;
		} else if ((v = pa_text_field(line, "cpu family"))) {
			h->family = atoi(v);
		} else if ((v = pa_text_field(line, "model"))) {
			h->model = atoi(v);
		}
	}
	return 0;
}

int pa_nccl_host_from(const struct pa_host *host, struct pa_nccl_host *h)
{
	pa_nccl_host_clear(h);
	h->family = host->cpu_family;
	if (!host->cpu_vendor)
		return 0;
	h->vendor = strdup(host->cpu_vendor);
	/* vendor_id is an x86 field. */
	h->arch = "x86_64";
	return h->vendor ? 0 : -ENOMEM;
}

void pa_nccl_host_clear(struct pa_nccl_host *h)
{
	for (size_t i = 0; i < h->nnodes; i++)
		free(h->cpumaps[i]);
	free(h->cpumaps);
	free(h->vendor);
	*h = (struct pa_nccl_host){ .family = -1, .model = -1 };
}
