// SPDX-License-Identifier: GPL-2.0
/* The files behind the GPUDirect software facts. Thin. */
#include "gpu_sw.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "fileio.h"

#define TEXT_MAX (1u << 20)

static char *read_text(const char *path)
{
	char *text = NULL;
	size_t len;

	return pa_read_file(path, TEXT_MAX, &text, &len) ? NULL : text;
}

/* kallsyms runs to megabytes: scanned line by line, never held. */
static int scan_kallsyms(const char *path)
{
	char line[512];
	FILE *f = fopen(path, "re");
	int found = 0;

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f))
		found = pa_gpu_sw_kallsyms_line(line);
	fclose(f);
	return found;
}

int pa_gpu_sw_read(const char *root, bool live, struct pa_gpu_sw *sw)
{
	char path[PATH_MAX];
	char *text;
	int err;

	snprintf(path, sizeof(path), "%s/modules", root);
	text = read_text(live ? "/proc/modules" : path);
	pa_gpu_sw_modules(text, sw);
	free(text);
	snprintf(path, sizeof(path), "%s/nvidia_version", root);
	text = read_text(live ? "/proc/driver/nvidia/version" : path);
	err = pa_gpu_sw_nvidia_version(text, sw);
	free(text);
	snprintf(path, sizeof(path), "%s/kallsyms", root);
	sw->dmabuf_core = scan_kallsyms(live ? "/proc/kallsyms" : path);
	return err;
}
