/* SPDX-License-Identifier: GPL-2.0 */
/*
 * AER counters: the text of sysfs's aer_dev_correctable, aer_dev_nonfatal,
 * aer_dev_fatal and a root port's aer_rootport_total_err_* parsed into
 * struct pa_aer, and compared between two observations. Pure: aer_read.c
 * reads the files.
 */
#ifndef PA_AER_H
#define PA_AER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* Which of a device's files a text came from. */
enum pa_aer_file {
	PA_AER_DEV_COR,
	PA_AER_DEV_NONFATAL,
	PA_AER_DEV_FATAL,
	PA_AER_RP_COR,
	PA_AER_RP_NONFATAL,
	PA_AER_RP_FATAL,
	PA_AER_NFILES
};

/* The sysfs attribute's name, "aer_dev_correctable" ... */
const char *pa_aer_file_name(enum pa_aer_file file);

/*
 * The total a file's text holds. aer_dev_* hold "NAME COUNT" lines ending
 * with TOTAL_ERR_COR, TOTAL_ERR_NONFATAL or TOTAL_ERR_FATAL; without that
 * line the counts are summed. aer_rootport_total_err_* hold one number.
 * 0, or -EINVAL for text that is neither.
 */
int pa_aer_parse(enum pa_aer_file file, const char *text, uint64_t *total);

/*
 * pa_aer_parse(), keeping each "NAME COUNT" line but the TOTAL one in
 * aer->types (aer may be NULL; a root port file keeps none). On -EINVAL,
 * *bad_line (may be NULL) is the 1-based line that is not "NAME COUNT".
 */
int pa_aer_parse_types(enum pa_aer_file file, const char *text,
		       uint64_t *total, struct pa_aer *aer, size_t *bad_line);

/* "correctable", "nonfatal", "fatal"; NULL past PA_AER_NSEV. */
const char *pa_aer_severity_name(unsigned int sev);

/* Whether name is one the kernel prints for that severity: a name of its
 * tables, or its "dev_cor_errs_bit[N]" for a bit without a name. */
bool pa_aer_name_known(unsigned int sev, const char *name);

/* The type of that severity and name; NULL when aer has none. */
const struct pa_aer_type *pa_aer_find_type(const struct pa_aer *aer,
					   unsigned int sev, const char *name);

/* Whether type t of a reading rose since prev, and by how much (*delta). */
bool pa_aer_type_rise(const struct pa_aer *prev, const struct pa_aer_type *t,
		      uint64_t *delta);

/*
 * The types of severity sev that rose from prev to now, as "BadTLP +3,
 * RxErr +1" in buf; returns how many. A type prev lacks counts from 0
 * where prev has types at all.
 */
size_t pa_aer_type_rises(const struct pa_aer *prev, const struct pa_aer *now,
			 unsigned int sev, char *buf, size_t len);

/* The non-zero types of severity sev as "RxErr 2, BadTLP 5"; how many. */
size_t pa_aer_format_types(const struct pa_aer *aer, unsigned int sev,
			   char *buf, size_t len);

/* Marks aer unknown with a reason (printf-style, truncated to fit). */
__attribute__((format(printf, 2, 3)))
void pa_aer_set_unknown(struct pa_aer *aer, const char *fmt, ...);

/*
 * How many correctable errors dev gained since prev: both must be known
 * and prev not above now (counters reset at boot: a drop is a reboot and
 * tells nothing). Returns whether the delta is meaningful.
 */
bool pa_aer_cor_delta(const struct pa_aer *prev, const struct pa_aer *now,
		      uint64_t *delta);

/* "correctable 3, nonfatal 0, fatal 0 (root port received: ...)" or
 * "unknown (reason)"; "" when not read. */
void pa_aer_format(const struct pa_aer *aer, char *buf, size_t len);

#endif /* PA_AER_H */
