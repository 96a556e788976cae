// SPDX-License-Identifier: GPL-2.0
#include "gunzip.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* windowBits for inflateInit2(): the largest window, gzip wrapper only. */
#define GZIP_WBITS	(15 + 16)

bool pa_is_gzip(const void *buf, size_t len)
{
	const uint8_t *b = buf;

	return len >= 2 && b[0] == 0x1f && b[1] == 0x8b;
}

/* Room for more output: double, from 64 KiB, up to one byte past max and
 * a NUL: output of exactly max bytes is then told from more than max. */
static int grow(char **buf, size_t *cap, size_t max)
{
	size_t c = *cap ? *cap * 2 : 1u << 16;
	char *v;

	if (c > max + 2)
		c = max + 2;
	v = realloc(*buf, c);
	if (!v)
		return -ENOMEM;
	*buf = v;
	*cap = c;
	return 0;
}

static int bad(char *why, size_t whylen, const char *what)
{
	snprintf(why, whylen, "%s", what);
	return -EBADMSG;
}

/* After a member's end: another member, zero padding, or garbage. */
static int next_member(z_stream *z, bool *more, char *why, size_t whylen)
{
	const uint8_t *rest = z->next_in;
	size_t left = z->avail_in;

	*more = false;
	if (pa_is_gzip(rest, left)) {
		*more = true;
		return inflateReset(z) == Z_OK ? 0 : -ENOMEM;
	}
	while (left && !*rest) {
		rest++;
		left--;
	}
	return left ? bad(why, whylen, "bytes that are not gzip follow the gzip data") : 0;
}

int pa_gunzip(const void *in, size_t len, size_t max, char **out,
	      size_t *outlen, char *why, size_t whylen)
{
	z_stream z = { 0 };
	size_t n = 0, cap = 0;
	char *buf = NULL;
	bool more = true;
	int zr, err = 0;

	*out = NULL;
	*outlen = 0;
	snprintf(why, whylen, "%s", "");
	/* zlib counts input in uInt: past 4 GiB is past any max anyway. */
	if (len > UINT32_MAX)
		return -EFBIG;
	if (inflateInit2(&z, GZIP_WBITS) != Z_OK)
		return -ENOMEM;
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)len;
	while (!err && more) {
		if (n > max) {
			err = -EFBIG;
			break;
		}
		if (n + 1 >= cap) {
			err = grow(&buf, &cap, max);
			if (err)
				break;
		}
		z.next_out = (Bytef *)buf + n;
		z.avail_out = (uInt)(cap - 1 - n);
		zr = inflate(&z, Z_NO_FLUSH);
		n = (size_t)((char *)z.next_out - buf);
		if (zr == Z_STREAM_END)
			err = next_member(&z, &more, why, whylen);
		else if (zr == Z_MEM_ERROR)
			err = -ENOMEM;
		else if (zr != Z_OK && zr != Z_BUF_ERROR)
			err = bad(why, whylen, z.msg ? z.msg : "corrupt gzip data");
		/* Output room was left, so no progress means no input. */
		else if (!z.avail_in && z.avail_out)
			err = bad(why, whylen, "truncated: the file ends inside the gzip stream");
	}
	inflateEnd(&z);
	if (!err && n > max)
		err = -EFBIG;
	if (!err && !buf)
		err = grow(&buf, &cap, max);
	if (err) {
		free(buf);
		return err;
	}
	buf[n] = '\0';
	*out = buf;
	*outlen = n;
	return 0;
}
