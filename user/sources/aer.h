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
