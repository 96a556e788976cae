// SPDX-License-Identifier: GPL-2.0
#include "dev_caps.h"

#include <inttypes.h>
#include <stdio.h>
#include <linux/pcieaudit.h>

#define ATS_CTRL_ENABLE		0x8000	/* ATS Control bit 15 */
#define DEVCAP_PAYLOAD		0x0007	/* Max_Payload_Size Supported */
#define DEVCTL_RELAX_EN		0x0010
#define DEVCTL_PAYLOAD		0x00e0	/* Max_Payload_Size, bits 7:5 */
#define DEVCTL_READRQ		0x7000	/* Max_Read_Request_Size, 14:12 */
#define REBAR_CTRL_SIZE		0x3f00	/* BAR Size, bits 13:8 */
#define MB			(1ULL << 20)

static bool registers_known(const struct pa_device *d)
{
	return d->caps_known && !d->config_unreadable;
}

enum pa_tristate pa_ats_capable(const struct pa_device *d)
{
	/* ATS is an extended capability: a 256-byte capture cannot say. */
	if (!registers_known(d) || (!d->has_ats && d->no_extended_config))
		return PA_UNKNOWN;
	return d->has_ats ? PA_YES : PA_NO;
}

enum pa_tristate pa_ats_enabled(const struct pa_device *d)
{
	enum pa_tristate cap = pa_ats_capable(d);

	if (cap != PA_YES)
		return cap;
	return d->ats_ctrl & ATS_CTRL_ENABLE ? PA_YES : PA_NO;
}

/* 128 << encoding, for the encodings 0-5 the spec defines. */
static unsigned int size_code(unsigned int code)
{
	return code <= 5 ? 128u << code : 0;
}

unsigned int pa_mps_bytes(const struct pa_device *d)
{
	return registers_known(d) && d->has_expdev ?
	       size_code((d->devctl & DEVCTL_PAYLOAD) >> 5) : 0;
}

unsigned int pa_mps_supported_bytes(const struct pa_device *d)
{
	return registers_known(d) && d->has_expdev ?
	       size_code(d->devcap & DEVCAP_PAYLOAD) : 0;
}

unsigned int pa_mrrs_bytes(const struct pa_device *d)
{
	return registers_known(d) && d->has_expdev ?
	       size_code((d->devctl & DEVCTL_READRQ) >> 12) : 0;
}

enum pa_tristate pa_relaxed_ordering(const struct pa_device *d)
{
	if (!registers_known(d) || !d->has_expdev)
		return PA_UNKNOWN;
	return d->devctl & DEVCTL_RELAX_EN ? PA_YES : PA_NO;
}

uint64_t pa_rebar_current(const struct pa_bar *b)
{
	return b->resizable ?
	       MB << ((b->rebar_ctrl & REBAR_CTRL_SIZE) >> 8) : 0;
}

size_t pa_rebar_supported(const struct pa_bar *b, uint64_t *out, size_t max)
{
	size_t n = 0;

	if (!b->resizable)
		return 0;
	for (int bit = 31; bit >= 4 && n < max; bit--)
		if (b->rebar_cap >> bit & 1)
			out[n++] = MB << (bit - 4);
	return n;
}

uint64_t pa_rebar_largest(const struct pa_bar *b)
{
	uint64_t top = 0;

	pa_rebar_supported(b, &top, 1);
	return top;
}

const struct pa_bar *pa_largest_prefetch_bar(const struct pa_device *d)
{
	const struct pa_bar *best = NULL;

	for (size_t i = 0; i < d->nbars; i++) {
		const struct pa_bar *b = &d->bars[i];

		if ((b->flags & PCIEAUDIT_BAR_F_MEM) &&
		    (b->flags & PCIEAUDIT_BAR_F_PREFETCH) &&
		    (!best || b->size > best->size))
			best = b;
	}
	return best;
}

void pa_size_format(uint64_t bytes, char buf[PA_SIZE_TEXT_LEN])
{
	static const char units[] = "KMGTPE";

	for (int u = 5; u >= 0; u--) {
		uint64_t unit = 1ULL << (10 * (u + 1));

		if (bytes >= unit && !(bytes % unit)) {
			snprintf(buf, PA_SIZE_TEXT_LEN, "%" PRIu64 "%c",
				 bytes / unit, units[u]);
			return;
		}
	}
	snprintf(buf, PA_SIZE_TEXT_LEN, "%" PRIu64, bytes);
}
