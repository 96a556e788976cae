/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A growing string for messages built piece by piece. Out of memory is
 * sticky: later appends do nothing and pa_sb_take() returns NULL, so
 * builders check once at the end.
 */
#ifndef PA_STRBUF_H
#define PA_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

struct pa_sb {
	char *s;
	size_t len;
	size_t cap;
	bool oom;
};

__attribute__((format(printf, 2, 3)))
void pa_sb_printf(struct pa_sb *sb, const char *fmt, ...);

/* "a", "a and b", "a, b and c" of the addresses, in list order. */
void pa_sb_bdfs(struct pa_sb *sb, const struct pa_addr *addrs, size_t n);

/* The text (the caller frees it), or NULL when out of memory; the
 * builder is empty again either way. */
char *pa_sb_take(struct pa_sb *sb);

void pa_sb_clear(struct pa_sb *sb);

#endif /* PA_STRBUF_H */
