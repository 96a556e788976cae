// SPDX-License-Identifier: GPL-2.0
/* The files behind the GPUDirect software facts. Thin. */
#include "gpu_sw.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "fileio.h"

#define TEXT_MAX (1u << 20)
/* A kernel configuration is 100 to 300 KiB. */
#define KCONFIG_MAX (4u << 20)

static char *read_text(const char *path)
{
	char *text = NULL;
	size_t len;

	return pa_read_file(path, TEXT_MAX, &text, &len) ? NULL : text;
}

/*
 * kallsyms runs to megabytes, and the kernel formats every line it reads:
 * 60% of a --json report's time on the H200 when read 1 KiB at a time.
 * Read in large blocks, stopping at the first match; a line split across
 * two blocks is joined.
 */
static int scan_kallsyms(const char *path)
{
	enum { BLOCK = 256 * 1024, LINE = 512 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf;
	size_t kept = 0;
	int found = 0;

	if (fd < 0)
		return -1;
	buf = malloc(BLOCK + LINE + 1);
	if (!buf) {
		close(fd);
		return -1;
	}
	while (!found) {
		ssize_t r = read(fd, buf + kept, BLOCK);
		char *line = buf, *nl;

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		buf[kept + (size_t)r] = '\0';
		while (!found && (nl = strchr(line, '\n'))) {
			*nl = '\0';
			found = pa_gpu_sw_kallsyms_line(line);
			line = nl + 1;
		}
		/* The unfinished line's tail, at most a line's length. */
		kept = strlen(line);
		if (kept > LINE)
			kept = 0;
		memmove(buf, line, kept);
	}
	if (!found && kept) {
		buf[kept] = '\0';
		found = pa_gpu_sw_kallsyms_line(buf);
	}
	free(buf);
	close(fd);
	return found;
}

/* The running kernel's configuration says whether it has the dma-buf
 * core, for a few hundred KiB rather than kallsyms' megabytes; -1 when
 * neither file answers (perf and bpftool look in the same two places). */
static int kconfig_dmabuf(void)
{
	char path[PATH_MAX], why[128], *text;
	struct utsname u;
	size_t len;
	int v = -1;

	if (!uname(&u)) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		if (!pa_read_file_gz(path, KCONFIG_MAX, &text, &len, why,
				     sizeof(why))) {
			v = pa_gpu_sw_kconfig_dmabuf(text);
			free(text);
		}
	}
	if (v < 0 && !pa_read_file_gz("/proc/config.gz", KCONFIG_MAX, &text,
				      &len, why, sizeof(why))) {
		v = pa_gpu_sw_kconfig_dmabuf(text);
		free(text);
	}
	return v;
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
	sw->dmabuf_core = live ? kconfig_dmabuf() : -1;
	if (sw->dmabuf_core < 0)
		sw->dmabuf_core = scan_kallsyms(live ? "/proc/kallsyms" : path);
	return err;
}
