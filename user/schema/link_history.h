/* SPDX-License-Identifier: GPL-2.0 */
/* A link's history (PCIEAUDIT_A_DEV_LINK_HISTORY) for people and scripts. */
#ifndef PA_LINK_HISTORY_H
#define PA_LINK_HISTORY_H

#include <stddef.h>

#include "model.h"

/* "3 transitions since 2026-12-01T10:00:00Z, last 2026-...; 12.5 s below
 * capability; slowest 2.5GT/s, narrowest x1 (sampled every 1000 ms)". */
void pa_history_format(const struct pa_link_history *h, char *buf, size_t len);

/* RFC 3339 UTC with milliseconds, as monitor prints its timestamps. */
#define PA_TIME_LEN 80
void pa_format_time_ns(uint64_t ns, char buf[PA_TIME_LEN]);

/* The time pa_format_time_ns() wrote back into *ns (to the millisecond);
 * 0, or -EINVAL for any other text. */
int pa_parse_time_ns(const char *s, uint64_t *ns);

/* The LnkSta speed encoding of gts (2.5 ... 64.0), 0 for none. */
uint8_t pa_link_speed_code(double gts);

#endif /* PA_LINK_HISTORY_H */
