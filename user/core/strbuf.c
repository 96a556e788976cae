// SPDX-License-Identifier: GPL-2.0
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "bdf.h"

static bool reserve(struct pa_sb *sb, size_t more)
{
	size_t cap = sb->cap ? sb->cap : 64;
	char *s;

	if (sb->oom)
		return false;
	while (cap < sb->len + more + 1)
		cap *= 2;
	if (cap == sb->cap)
		return true;
	s = realloc(sb->s, cap);
	if (!s) {
		sb->oom = true;
		return false;
	}
	sb->s = s;
	sb->cap = cap;
	return true;
}

void pa_sb_printf(struct pa_sb *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !reserve(sb, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void pa_sb_bdfs(struct pa_sb *sb, const struct pa_addr *addrs, size_t n)
{
	char bdf[PA_BDF_LEN];

	for (size_t i = 0; i < n; i++) {
		pa_bdf_format(&addrs[i], bdf);
		pa_sb_printf(sb, "%s%s", !i ? "" : i + 1 == n ? " and " : ", ",
			     bdf);
	}
}

char *pa_sb_take(struct pa_sb *sb)
{
	char *s = sb->oom ? NULL : sb->s;

	if (!s && !sb->oom)
		s = calloc(1, 1);
	if (sb->oom)
		free(sb->s);
	*sb = (struct pa_sb){ 0 };
	return s;
}

void pa_sb_clear(struct pa_sb *sb)
{
	free(sb->s);
	*sb = (struct pa_sb){ 0 };
}
