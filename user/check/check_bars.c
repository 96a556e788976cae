// SPDX-License-Identifier: GPL-2.0
/* baseline.bar-unassigned: BARs the kernel found but could not place. */
#include <linux/pcieaudit.h>

#include "bdf.h"
#include "check.h"
#include "dev_caps.h"

void pa_check_bar_unassigned(struct pa_check *c)
{
	const struct pa_report *rep = c->rep;
	size_t known = 0, unknown = 0, found = 0;

	for (size_t i = 0; i < rep->ndevices; i++) {
		const struct pa_device *d = &rep->devices[i];
		char bdf[PA_BDF_LEN], size[PA_SIZE_TEXT_LEN];

		unknown += d->caps_known && d->bars_unknown;
		if (!d->caps_known || d->bars_unknown)
			continue;
		known++;
		for (size_t b = 0; b < d->nbars; b++) {
			const struct pa_bar *bar = &d->bars[b];

			if (!(bar->flags & PCIEAUDIT_BAR_F_UNASSIGNED))
				continue;
			pa_bdf_format(&d->addr, bdf);
			pa_size_format(bar->size, size);
			found++;
			pa_check_add(c, PA_BL_BAR_UNASSIGNED, 0, &d->addr, 1,
				     (struct pa_remedy){ PA_REMEDY_BIOS,
				     "enable Above 4G Decoding; or boot with pci=realloc" },
				     "%s %s: BAR%u (%s%s, %s) has no address range: the kernel could not fit it in the bridge windows above, and the device cannot use it",
				     pa_check_noun(d), bdf, bar->index,
				     bar->flags & PCIEAUDIT_BAR_F_IO ? "I/O" : "memory",
				     bar->flags & PCIEAUDIT_BAR_F_PREFETCH ? ", prefetchable" : "",
				     size);
		}
	}
	/* Some functions' BARs unknown: no finding is no pass. */
	if (!found && unknown)
		pa_check_skip(c, PA_BL_BAR_UNASSIGNED,
			      "BAR sizes of %zu functions are not in the input (lspci -xxxx without lspci -v's sizes, or a sysfs copy without resource files)",
			      unknown);
	else if (!known)
		pa_check_skip(c, PA_BL_BAR_UNASSIGNED,
			      "no BARs in the report (a module that predates them, or sysfs)");
}
