/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gzip input: nvidia-bug-report.sh writes nvidia-bug-report.log.gz, and
 * people gzip sosreport files and captures before attaching them. Pure:
 * bytes in, bytes out, through zlib. Input is told to be gzip by its magic
 * bytes, never by its name.
 */
#ifndef PA_GUNZIP_H
#define PA_GUNZIP_H

#include <stdbool.h>
#include <stddef.h>

/* The gzip magic, 1f 8b, at the start of buf. */
bool pa_is_gzip(const void *buf, size_t len);

/*
 * Inflates every gzip member of in (gzip -d does the same with
 * concatenated files), NUL-terminated into *out. Returns 0, -EFBIG when
 * the output would pass max bytes, -ENOMEM, or -EBADMSG when the data is
 * corrupt, truncated or followed by bytes that are not gzip: why then
 * says what zlib found.
 */
int pa_gunzip(const void *in, size_t len, size_t max, char **out,
	      size_t *outlen, char *why, size_t whylen);

#endif /* PA_GUNZIP_H */
