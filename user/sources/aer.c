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

/*
 * The names drivers/pci/pcie/aer.c gives the bits, every kernel from 5.10
 * to 7.3 together (aer_correctable_error_string[],
 * aer_uncorrectable_error_string[]; stable kernels gained DMWrReqBlocked
 * to TLPXlatBlocked in 2025). Bits without a name print as
 * "dev_cor_errs_bit[N]" and are the kernel's too.
 */
static const char *const cor_names[] = {
	"RxErr", "BadTLP", "BadDLLP", "Rollover", "Timeout", "NonFatalErr",
	"CorrIntErr", "HeaderOF",
};

static const char *const uncor_names[] = {
	"Undefined", "DLP", "SDES", "TLP", "FCP", "CmpltTO", "CmpltAbrt",
	"UnxCmplt", "RxOF", "MalfTLP", "ECRC", "UnsupReq", "ACSViol",
	"UncorrIntErr", "BlockedTLP", "AtomicOpBlocked", "TLPBlockedErr",
	"PoisonTLPBlocked", "DMWrReqBlocked", "IDECheck", "MisIDETLP",
	"PCRC_CHECK", "TLPXlatBlocked",
};

static const char *const bit_prefix[PA_AER_NSEV] = {
	[PA_AER_SEV_COR] = "dev_cor_errs_bit[",
	[PA_AER_SEV_NONFATAL] = "dev_nonfatal_errs_bit[",
	[PA_AER_SEV_FATAL] = "dev_fatal_errs_bit[",
};

static const char *const severity_names[PA_AER_NSEV] = {
	[PA_AER_SEV_COR] = "correctable",
	[PA_AER_SEV_NONFATAL] = "nonfatal",
	[PA_AER_SEV_FATAL] = "fatal",
};

const char *pa_aer_severity_name(unsigned int sev)
{
	return sev < PA_AER_NSEV ? severity_names[sev] : NULL;
}

bool pa_aer_name_known(unsigned int sev, const char *name)
{
	const char *const *names = sev == PA_AER_SEV_COR ? cor_names : uncor_names;
	size_t n = sev == PA_AER_SEV_COR ? sizeof(cor_names) / sizeof(cor_names[0]) :
		   sizeof(uncor_names) / sizeof(uncor_names[0]);
	size_t plen;

	if (sev >= PA_AER_NSEV)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	plen = strlen(bit_prefix[sev]);
	if (strncmp(name, bit_prefix[sev], plen))
		return false;
	name += plen;
	if (*name < '0' || *name > '9')
		return false;
	while (*name >= '0' && *name <= '9')
		name++;
	return !strcmp(name, "]");
}

/* Keeps one line's type in aer (NULL: nothing kept). */
static void keep_type(struct pa_aer *aer, unsigned int sev, const char *name,
		      size_t nlen, uint64_t v)
{
	struct pa_aer_type *t;
	bool cut = false;

	if (!aer)
		return;
	if (aer->ntypes >= PA_AER_MAX_TYPES) {
		aer->unknown_names++;
		return;
	}
	t = &aer->types[aer->ntypes++];
	if (nlen >= sizeof(t->name)) {
		nlen = sizeof(t->name) - 1;
		cut = true;
	}
	memcpy(t->name, name, nlen);
	t->name[nlen] = '\0';
	t->severity = (uint8_t)sev;
	t->count = v;
	/* A name cut short is not the kernel's any more. */
	t->known = !cut && pa_aer_name_known(sev, t->name);
	if (!t->known)
		aer->unknown_names++;
}

static int parse_lines(enum pa_aer_file file, const char *text,
		       uint64_t *total, struct pa_aer *aer, size_t *bad_line)
{
	const char *p = text;
	uint64_t sum = 0, v;
	size_t line = 0;
	bool lines = false;

	while (*p) {
		const char *name = p;
		size_t nlen = strcspn(p, " \t\n");

		*bad_line = ++line;
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
			*bad_line = 0;
			return 0;
		}
		if (sum + v < sum)
			return -EINVAL;
		sum += v;
		keep_type(aer, (unsigned int)file, name, nlen, v);
	}
	if (!lines) {
		*bad_line = 1;
		return -EINVAL;
	}
	*bad_line = 0;
	*total = sum;
	return 0;
}

int pa_aer_parse_types(enum pa_aer_file file, const char *text,
		       uint64_t *total, struct pa_aer *aer, size_t *bad_line)
{
	size_t dummy;

	if (!bad_line)
		bad_line = &dummy;
	*bad_line = 0;
	if (file >= PA_AER_NFILES || !text)
		return -EINVAL;
	if (file >= PA_AER_RP_COR)
		return parse_one_number(text, total);
	return parse_lines(file, text, total, aer, bad_line);
}

int pa_aer_parse(enum pa_aer_file file, const char *text, uint64_t *total)
{
	return pa_aer_parse_types(file, text, total, NULL, NULL);
}

const struct pa_aer_type *pa_aer_find_type(const struct pa_aer *aer,
					   unsigned int sev, const char *name)
{
	for (size_t i = 0; i < aer->ntypes; i++)
		if (aer->types[i].severity == sev &&
		    !strcmp(aer->types[i].name, name))
			return &aer->types[i];
	return NULL;
}

/* Appends to buf at *off, never past len. */
static void append(char *buf, size_t len, size_t *off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void append(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (*off + 1 >= len)
		return;
	va_start(ap, fmt);
	w = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (w > 0)
		*off += (size_t)w;
	if (*off >= len)
		*off = len - 1;
}

bool pa_aer_type_rise(const struct pa_aer *prev, const struct pa_aer_type *t,
		      uint64_t *delta)
{
	const struct pa_aer_type *p = pa_aer_find_type(prev, t->severity, t->name);
	uint64_t was = p ? p->count : 0;

	/* A type the earlier reading lacked rose from 0 only where that
	 * reading had types at all (an unnamed bit appears with its first
	 * error). */
	if ((!p && !prev->ntypes) || t->count <= was)
		return false;
	*delta = t->count - was;
	return true;
}

size_t pa_aer_type_rises(const struct pa_aer *prev, const struct pa_aer *now,
			 unsigned int sev, char *buf, size_t len)
{
	size_t n = 0, off = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < now->ntypes; i++) {
		const struct pa_aer_type *t = &now->types[i];
		uint64_t d;

		if (t->severity != sev || !pa_aer_type_rise(prev, t, &d))
			continue;
		n++;
		append(buf, len, &off, "%s%s +%" PRIu64, n > 1 ? ", " : "",
		       t->name, d);
	}
	return n;
}

size_t pa_aer_format_types(const struct pa_aer *aer, unsigned int sev,
			   char *buf, size_t len)
{
	size_t n = 0, off = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < aer->ntypes; i++) {
		const struct pa_aer_type *t = &aer->types[i];

		if (t->severity != sev || !t->count)
			continue;
		n++;
		append(buf, len, &off, "%s%s %" PRIu64 "%s", n > 1 ? ", " : "",
		       t->name, t->count, t->known ? "" : " (name unknown to pcieaudit)");
	}
	return n;
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
	const uint64_t totals[PA_AER_NSEV] = { aer->cor, aer->nonfatal, aer->fatal };
	char types[512];
	size_t off = 0;

	if (!len)
		return;
	buf[0] = '\0';
	if (aer->state == PA_AER_UNKNOWN) {
		snprintf(buf, len, "unknown (%s)", aer->reason);
		return;
	}
	if (aer->state != PA_AER_KNOWN)
		return;
	for (unsigned int sev = 0; sev < PA_AER_NSEV; sev++) {
		append(buf, len, &off, "%s%s %" PRIu64, sev ? ", " : "",
		       pa_aer_severity_name(sev), totals[sev]);
		if (pa_aer_format_types(aer, sev, types, sizeof(types)))
			append(buf, len, &off, " (%s)", types);
	}
	if (aer->has_rootport)
		append(buf, len, &off,
		       "; received as root port: correctable %" PRIu64
		       ", nonfatal %" PRIu64 ", fatal %" PRIu64,
		       aer->rp_cor, aer->rp_nonfatal, aer->rp_fatal);
}
