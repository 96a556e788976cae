// SPDX-License-Identifier: GPL-2.0
#include "host.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A decimal of at most 5 digits: node and CPU numbers are small. */
static const char *number(const char *s, long *v)
{
	const char *start = s;

	*v = 0;
	while (isdigit((unsigned char)*s) && s - start < 5)
		*v = *v * 10 + (*s++ - '0');
	return s > start && !isdigit((unsigned char)*s) ? s : NULL;
}

int pa_node_list_count(const char *text)
{
	const char *s = text;
	long count = 0, lo, hi;

	while (s && *s && *s != '\n') {
		s = number(s, &lo);
		hi = lo;
		if (s && *s == '-')
			s = number(s + 1, &hi);
		if (!s || hi < lo)
			return -1;
		count += hi - lo + 1;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -1;
	}
	return s && count ? (int)count : -1;
}

const char *pa_text_field(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n))
		return NULL;
	line += n;
	while (*line == ' ' || *line == '\t')
		line++;
	if (*line != ':')
		return NULL;
	line++;
	while (*line == ' ' || *line == '\t')
		line++;
	return line;
}

/* Whether the blank-separated list holds word. */
static bool has_word(const char *list, size_t len, const char *word)
{
	size_t n = strlen(word);

	for (const char *w = list; w < list + len; w += strcspn(w, " \n") + 1)
		if (!strncmp(w, word, n) && (w[n] == ' ' || w[n] == '\n' || !w[n]))
			return true;
	return false;
}

int pa_cpuinfo_parse(const char *text, struct pa_host *host)
{
	const char *line = text, *v;
	long fam;

	/* The first processor's block ends at the first empty line. */
	while (*line && *line != '\n') {
		size_t len = strcspn(line, "\n");

		if (!host->cpu_vendor &&
		    (v = pa_text_field(line, "vendor_id"))) {
			host->cpu_vendor = strndup(v, len - (size_t)(v - line));
			if (!host->cpu_vendor)
				return -ENOMEM;
		} else if ((v = pa_text_field(line, "cpu family")) &&
			   number(v, &fam)) {
			host->cpu_family = (int)fam;
		} else if ((v = pa_text_field(line, "flags"))) {
			host->hypervisor = has_word(v, len - (size_t)(v - line),
						    "hypervisor");
		}
		line += len;
		line += *line == '\n';
	}
	return 0;
}
