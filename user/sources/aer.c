// SPDX-License-Identifier: GPL-2.0
#include "aer.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const file_names[PA_AER_NFILES] = {
	[PA_AER_DEV_COR] = "aer_dev_correctable",
	[PA_AER_DEV_NONFATAL] = "aer_dev_nonfatal",
	[PA_AER_DEV_FATAL] = "aer_dev_fatal",
	[PA_AER_RP_COR] = "aer_rootport_total_err_cor",
	[PA_AER_RP_NONFATAL] = "aer_rootport_total_err_nonfatal",
	[PA_AER_RP_FATAL] = "aer_rootport_total_err_fatal",
};

/* The line drivers/pci/pcie/aer.c ends each aer_dev_* file with. */
static const char *const total_names[] = {
	[PA_AER_DEV_COR] = "TOTAL_ERR_COR",
	[PA_AER_DEV_NONFATAL] = "TOTAL_ERR_NONFATAL",
	[PA_AER_DEV_FATAL] = "TOTAL_ERR_FATAL",
};

const char *pa_aer_file_name(enum pa_aer_file file)
{
	return file < PA_AER_NFILES ? file_names[file] : NULL;
}

/* A decimal count at *p, then blanks; advances *p. */
static int count(const char **p, uint64_t *v)
{
	char *end;

	if (**p < '0' || **p > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(*p, &end, 10);
	if (errno)
		return -EINVAL;
	*p = end;
	while (**p == ' ' || **p == '\t')
		(*p)++;
	return 0;
}

static int parse_one_number(const char *text, uint64_t *total)
{
	const char *p = text;

	if (count(&p, total))
		return -EINVAL;
	return *p == '\0' || (*p == '\n' && p[1] == '\0') ? 0 : -EINVAL;
}

static int parse_lines(enum pa_aer_file file, const char *text,
		       uint64_t *total)
{
	const char *p = text;
	uint64_t sum = 0, v;
	bool lines = false;

	while (*p) {
		const char *name = p;
		size_t nlen = strcspn(p, " \t\n");

		if (!nlen || p[nlen] == '\n' || p[nlen] == '\0')
			return -EINVAL;
		p += nlen;
		while (*p == ' ' || *p == '\t')
			p++;
		if (count(&p, &v) || (*p != '\n' && *p != '\0'))
			return -EINVAL;
		if (*p)
			p++;
		lines = true;
		if (strlen(total_names[file]) == nlen &&
		    !strncmp(name, total_names[file], nlen)) {
			*total = v;
			return 0;
		}
		if (sum + v < sum)
			return -EINVAL;
		sum += v;
	}
	if (!lines)
		return -EINVAL;
	*total = sum;
	return 0;
}

int pa_aer_parse(enum pa_aer_file file, const char *text, uint64_t *total)
{
	if (file >= PA_AER_NFILES || !text)
		return -EINVAL;
	if (file >= PA_AER_RP_COR)
		return parse_one_number(text, total);
	return parse_lines(file, text, total);
}

void pa_aer_set_unknown(struct pa_aer *aer, const char *fmt, ...)
{
	va_list ap;

	*aer = (struct pa_aer){ .state = PA_AER_UNKNOWN };
	va_start(ap, fmt);
	vsnprintf(aer->reason, sizeof(aer->reason), fmt, ap);
	va_end(ap);
}

bool pa_aer_cor_delta(const struct pa_aer *prev, const struct pa_aer *now,
		      uint64_t *delta)
{
	if (prev->state != PA_AER_KNOWN || now->state != PA_AER_KNOWN ||
	    now->cor < prev->cor)
		return false;
	*delta = now->cor - prev->cor;
	return true;
}

void pa_aer_format(const struct pa_aer *aer, char *buf, size_t len)
{
	int n;

	if (aer->state == PA_AER_UNKNOWN) {
		snprintf(buf, len, "unknown (%s)", aer->reason);
		return;
	}
	if (aer->state != PA_AER_KNOWN) {
		snprintf(buf, len, "%s", "");
		return;
	}
	n = snprintf(buf, len, "correctable %" PRIu64 ", nonfatal %" PRIu64
		     ", fatal %" PRIu64, aer->cor, aer->nonfatal, aer->fatal);
	if (aer->has_rootport && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n,
			 "; received as root port: correctable %" PRIu64
			 ", nonfatal %" PRIu64 ", fatal %" PRIu64,
			 aer->rp_cor, aer->rp_nonfatal, aer->rp_fatal);
}
