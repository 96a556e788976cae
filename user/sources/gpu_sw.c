// SPDX-License-Identifier: GPL-2.0
#include "gpu_sw.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool module_listed(const char *text, const char *name)
{
	size_t n = strlen(name);

	for (const char *line = text; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		if (!strncmp(line, name, n) && line[n] == ' ')
			return true;
	return false;
}

void pa_gpu_sw_modules(const char *text, struct pa_gpu_sw *sw)
{
	if (!text)
		return;
	sw->nvidia_loaded = module_listed(text, "nvidia");
	sw->peermem_loaded = module_listed(text, "nvidia_peermem");
}

int pa_gpu_sw_nvidia_version(const char *text, struct pa_gpu_sw *sw)
{
	size_t n;

	if (!text || !*text)
		return 0;
	n = strcspn(text, "\n");
	free(sw->nvidia_version);
	sw->nvidia_version = strndup(text, n);
	if (!sw->nvidia_version)
		return -ENOMEM;
	/* "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580..." */
	sw->nvidia_open = strstr(sw->nvidia_version, "Open Kernel Module") != NULL;
	return 0;
}

bool pa_gpu_sw_kallsyms_line(const char *line)
{
	/* "ffffffff81234560 T dma_buf_export", maybe "\t[module]" after. */
	const char *s = strstr(line, " dma_buf_export");

	return s && (s[15] == '\n' || s[15] == '\0' || s[15] == '\t' ||
		     s[15] == ' ');
}

int pa_gpu_sw_kconfig_dmabuf(const char *text)
{
	static const char opt[] = "CONFIG_DMA_SHARED_BUFFER";
	bool any = false;

	for (const char *line = text; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		any |= !strncmp(line, "CONFIG_", 7);
		if (!strncmp(line, opt, sizeof(opt) - 1) &&
		    line[sizeof(opt) - 1] == '=')
			/* A bool: "=y"; anything else is left to kallsyms. */
			return line[sizeof(opt)] == 'y' ? 1 : -1;
		if (!strncmp(line, "# ", 2) &&
		    !strncmp(line + 2, opt, sizeof(opt) - 1) &&
		    !strncmp(line + 1 + sizeof(opt), " is not set", 11))
			return 0;
	}
	/* Kconfig writes nothing for an invisible bool that is off. */
	return any ? 0 : -1;
}
