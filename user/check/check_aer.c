// SPDX-License-Identifier: GPL-2.0
/*
 * baseline.aer-rising: correctable AER errors that rose between two
 * observations of the host, the earlier a report --json given to check
 * --previous. One observation cannot tell rising from old: without the
 * earlier one the rule is skipped.
 */
#include <inttypes.h>
#include <stdio.h>

#include "aer.h"
#include "bdf.h"
#include "check.h"

void pa_check_aer(struct pa_check *c)
{
	const struct pa_report *rep = c->rep, *prev = rep->previous;
	size_t compared = 0, unknown = 0;

	if (!prev) {
		pa_check_skip(c, PA_BL_AER_RISING,
			      "needs two observations: pass --previous with an earlier report --json of this host");
		return;
	}
	for (size_t i = 0; i < rep->ndevices; i++) {
		const struct pa_device *d = &rep->devices[i], *p;
		char bdf[PA_BDF_LEN], types[400], by_type[404];
		uint64_t delta;

		if (d->aer.state == PA_AER_NOT_READ ||
		    !pa_check_selects(c, PA_PROFILE_BASELINE, d))
			continue;
		p = pa_report_find(prev, &d->addr);
		if (!p || !pa_aer_cor_delta(&p->aer, &d->aer, &delta)) {
			unknown++;
			continue;
		}
		compared++;
		if (!delta)
			continue;
		pa_bdf_format(&d->addr, bdf);
		/* By type where both reports have them (sysfs, snapshots
		 * since types were kept): RxErr and BadTLP point at the
		 * signal, Timeout and Rollover at replays. */
		if (pa_aer_type_rises(&p->aer, &d->aer, PA_AER_SEV_COR, types,
				      sizeof(types)))
			snprintf(by_type, sizeof(by_type), ": %s", types);
		else
			by_type[0] = '\0';
		pa_check_add(c, PA_BL_AER_RISING, 0, &d->addr, 1,
			     (struct pa_remedy){ PA_REMEDY_HARDWARE,
			     "reseat the card; check the slot, the riser and the cable; watch it with pcieaudit-cli monitor" },
			     "%s %s logged %" PRIu64 " correctable AER error%s since the earlier report%s (%" PRIu64 " now)",
			     pa_check_noun(d), bdf, delta, delta == 1 ? "" : "s",
			     by_type, d->aer.cor);
	}
	if (!compared && unknown) {
		pa_check_skip(c, PA_BL_AER_RISING,
			      "no device's correctable AER count is known in both reports (%zu unknown)",
			      unknown);
		return;
	}
	if (unknown)
		pa_check_note(c, PA_BL_AER_RISING, "%zu device%s compared, %zu unknown",
			      compared, compared == 1 ? "" : "s", unknown);
	else
		pa_check_note(c, PA_BL_AER_RISING, "%zu device%s compared",
			      compared, compared == 1 ? "" : "s");
}
