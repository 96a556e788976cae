/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ATS, PCIe Device Control and BAR facts of a pa_device decoded into what
 * rules and outputs need. Pure.
 */
#ifndef PA_DEV_CAPS_H
#define PA_DEV_CAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* Whether a fact is known and what it is. */
enum pa_tristate {
	PA_UNKNOWN,
	PA_NO,
	PA_YES,
};

/* ATS capability present; unknown without the facts or when unreadable. */
enum pa_tristate pa_ats_capable(const struct pa_device *d);
/* ATS Control Enable (PCIe Base 6.0 §10.5.1.3); PA_NO when not capable. */
enum pa_tristate pa_ats_enabled(const struct pa_device *d);

/* Device Control fields (PCIe Base 6.0 §7.5.3.4) and Device Capabilities'
 * Max_Payload_Size Supported (§7.5.3.3), in bytes; 0 when unknown. */
unsigned int pa_mps_bytes(const struct pa_device *d);
unsigned int pa_mps_supported_bytes(const struct pa_device *d);
unsigned int pa_mrrs_bytes(const struct pa_device *d);
/* Enable Relaxed Ordering (Device Control bit 4). */
enum pa_tristate pa_relaxed_ordering(const struct pa_device *d);

/* A resizable BAR's current size in bytes (Control bits 13:8: 2^n MB),
 * 0 when not resizable. */
uint64_t pa_rebar_current(const struct pa_bar *b);
/* The sizes its Capability register offers (bit n+4: 2^n MB, n 0-27),
 * largest first into out; returns how many, at most max. */
size_t pa_rebar_supported(const struct pa_bar *b, uint64_t *out, size_t max);
/* The largest size it offers, 0 when not resizable. */
uint64_t pa_rebar_largest(const struct pa_bar *b);

/* The largest prefetchable memory BAR, or NULL. */
const struct pa_bar *pa_largest_prefetch_bar(const struct pa_device *d);

/* "256M", "16G", "4K" for sizes that are powers of two, else bytes. */
#define PA_SIZE_TEXT_LEN 24
void pa_size_format(uint64_t bytes, char buf[PA_SIZE_TEXT_LEN]);

#endif /* PA_DEV_CAPS_H */
