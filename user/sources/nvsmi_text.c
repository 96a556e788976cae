// SPDX-License-Identifier: GPL-2.0
#include "nvsmi_text.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A line, without mail quoting and indentation, NUL-terminated. */
static void line_at(const char *p, const char *end, char *buf, size_t size)
{
	size_t n = 0;

	while (p < end && (*p == '>' || *p == ' ' || *p == '\t'))
		p++;
	while (p < end && *p != '\n' && *p != '\r' && n + 1 < size)
		buf[n++] = *p++;
	buf[n] = '\0';
}

/* "GPU 00000000:01:00.0": nvidia-smi prints 8 digits of domain. */
static bool gpu_header(const char *l, char bdf[PA_BDF_LEN])
{
	unsigned int dom, bus, dev, fn;
	int n = 0;

	if (sscanf(l, "GPU %8x:%2x:%2x.%1u%n", &dom, &bus, &dev, &fn, &n) != 4 ||
	    l[n] || dom > 0xffff || dev > 0x1f || fn > 7)
		return false;
	snprintf(bdf, PA_BDF_LEN, "%04x:%02x:%02x.%u", dom, bus, dev, fn);
	return true;
}

/* "Total : 4096 MiB" */
static bool total_mib(const char *l, uint64_t *bytes)
{
	unsigned long long mib;
	int n = 0;

	if (sscanf(l, "Total : %llu MiB%n", &mib, &n) != 1 || !n ||
	    mib > (1ULL << 40))
		return false;
	*bytes = (uint64_t)mib << 20;
	return true;
}

int pa_nvsmi_parse(const char *text, size_t len, struct pa_nvsmi *out)
{
	const char *p = text, *end = text + len;
	char l[256], bdf[PA_BDF_LEN] = "";
	bool in_fb = false;

	*out = (struct pa_nvsmi){ 0 };
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		uint64_t bytes;

		line_at(p, eol ? eol : end, l, sizeof(l));
		/* "Total    : 4096 MiB": the columns' blanks, squeezed. */
		for (char *s = l, *d = l;; s++) {
			if (!(*s == ' ' && d > l && d[-1] == ' '))
				*d++ = *s;
			if (!*s)
				break;
		}
		if (gpu_header(l, bdf)) {
			in_fb = false;
		} else if (!strcmp(l, "FB Memory Usage")) {
			in_fb = *bdf != '\0';
		} else if (in_fb && total_mib(l, &bytes)) {
			struct pa_nvsmi_gpu *v = realloc(out->v, (out->n + 1) * sizeof(*v));

			if (!v) {
				pa_nvsmi_clear(out);
				return -ENOMEM;
			}
			out->v = v;
			memcpy(v[out->n].bdf, bdf, PA_BDF_LEN);
			v[out->n++].fb_bytes = bytes;
			in_fb = false;
			bdf[0] = '\0';
		}
		p = eol ? eol + 1 : end;
	}
	return 0;
}

void pa_nvsmi_clear(struct pa_nvsmi *s)
{
	free(s->v);
	*s = (struct pa_nvsmi){ 0 };
}
