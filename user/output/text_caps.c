// SPDX-License-Identifier: GPL-2.0
#include "text_caps.h"

#include <linux/pcieaudit.h>

#include "dev_caps.h"

static const char *sign(enum pa_tristate t)
{
	return t == PA_YES ? "+" : t == PA_NO ? "-" : "?";
}

static void print_device_line(FILE *f, const char *indent,
			      const struct pa_device *dev)
{
	enum pa_tristate ats = pa_ats_capable(dev);

	if (pa_relaxed_ordering(dev) == PA_UNKNOWN && ats == PA_UNKNOWN)
		return;
	fprintf(f, "%sDevice:", indent);
	if (pa_relaxed_ordering(dev) != PA_UNKNOWN)
		fprintf(f, " MPS %u (max %u), MRRS %u, RlxdOrd%s,",
			pa_mps_bytes(dev), pa_mps_supported_bytes(dev),
			pa_mrrs_bytes(dev), sign(pa_relaxed_ordering(dev)));
	if (ats == PA_YES)
		fprintf(f, " ATS%s\n", sign(pa_ats_enabled(dev)));
	else
		fprintf(f, " ATS: none\n");
}

static void print_bar(FILE *f, const struct pa_bar *b)
{
	char size[PA_SIZE_TEXT_LEN], lo[PA_SIZE_TEXT_LEN], hi[PA_SIZE_TEXT_LEN];
	uint64_t sup[28];
	size_t n;

	pa_size_format(b->size, size);
	fprintf(f, "%u %s %s%s%s", b->index, size,
		b->flags & PCIEAUDIT_BAR_F_IO ? "io" : "mem",
		b->flags & PCIEAUDIT_BAR_F_PREFETCH ? " pref" : "",
		b->flags & PCIEAUDIT_BAR_F_MEM64 ? " 64-bit" : "");
	n = pa_rebar_supported(b, sup, 28);
	if (n) {
		pa_size_format(sup[n - 1], lo);
		pa_size_format(sup[0], hi);
		fprintf(f, ", resizable %s-%s", lo, hi);
	}
	if (b->flags & PCIEAUDIT_BAR_F_UNASSIGNED)
		fprintf(f, " UNASSIGNED");
}

void pa_text_caps(FILE *f, const char *indent, const struct pa_device *dev)
{
	if (!dev->caps_known)
		return;
	if (dev->config_unreadable)
		fprintf(f, "%sDevice: unknown (registers unreadable)\n", indent);
	else
		print_device_line(f, indent, dev);
	if (dev->bars_unknown) {
		fprintf(f, "%sBARs: unknown (no sizes in the input)\n", indent);
		return;
	}
	if (!dev->nbars)
		return;
	fprintf(f, "%sBARs: ", indent);
	for (size_t i = 0; i < dev->nbars; i++) {
		if (i)
			fprintf(f, "; ");
		print_bar(f, &dev->bars[i]);
	}
	fputc('\n', f);
}
