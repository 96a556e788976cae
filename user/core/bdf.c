// SPDX-License-Identifier: GPL-2.0
#include "bdf.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Reads 1 to max_digits hex digits; strtoul() would also take signs, "0x"
 * and leading blanks, none of which belong in a BDF. */
static const char *parse_hex(const char *s, unsigned int max_digits,
			     uint32_t *value)
{
	unsigned int n;
	int d;

	*value = 0;
	for (n = 0; n < max_digits && (d = hex_digit(s[n])) >= 0; n++)
		*value = *value * 16 + (uint32_t)d;
	return n ? s + n : NULL;
}

static const char *expect(const char *s, char c)
{
	return s && *s == c ? s + 1 : NULL;
}

int pa_bdf_parse(const char *text, struct pa_addr *addr)
{
	const char *s = text;
	uint32_t domain = 0, bus, dev, fn;

	if (strchr(text, ':') != strrchr(text, ':')) {
		s = expect(parse_hex(s, 8, &domain), ':');
		if (!s)
			return -EINVAL;
	}
	s = expect(parse_hex(s, 2, &bus), ':');
	s = s ? expect(parse_hex(s, 2, &dev), '.') : NULL;
	s = s ? parse_hex(s, 1, &fn) : NULL;
	if (!s || *s || dev > 0x1f || fn > 7)
		return -EINVAL;

	addr->domain = domain;
	addr->bus = (uint8_t)bus;
	addr->devfn = (uint8_t)(dev << 3 | fn);
	return 0;
}

/* "%04x:%02x:%02x.%x" by hand: loading a snapshot formats every
 * function's address, and snprintf was 10% of check --input. */
void pa_bdf_format(const struct pa_addr *addr, char buf[PA_BDF_LEN])
{
	static const char hex[] = "0123456789abcdef";
	unsigned int digits = 4, dev = addr->devfn >> 3;
	char *p = buf;

	while (digits < 8 && addr->domain >> (4 * digits))
		digits++;
	while (digits--)
		*p++ = hex[(addr->domain >> (4 * digits)) & 0xf];
	*p++ = ':';
	*p++ = hex[addr->bus >> 4];
	*p++ = hex[addr->bus & 0xf];
	*p++ = ':';
	*p++ = hex[dev >> 4];
	*p++ = hex[dev & 0xf];
	*p++ = '.';
	*p++ = hex[addr->devfn & 7];
	*p = '\0';
}
