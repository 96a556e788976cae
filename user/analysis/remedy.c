// SPDX-License-Identifier: GPL-2.0
#include "remedy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acs.h"
#include "bdf.h"

static const char *parse_number(const char *s, unsigned int *value)
{
	const char *start = s;

	*value = 0;
	/* Release numbers are small; stop before any overflow. */
	while (*s >= '0' && *s <= '9' && s - start < 6)
		*value = *value * 10 + (unsigned int)(*s++ - '0');
	return s > start ? s : NULL;
}

/* "major.minor[.sublevel]..."; *sublevel 0 when not given. */
static int kernel_version3(const char *release, unsigned int *major,
			   unsigned int *minor, unsigned int *sublevel)
{
	const char *s = release ? parse_number(release, major) : NULL;

	*sublevel = 0;
	if (!s || *s != '.' || !(s = parse_number(s + 1, minor)))
		return -EINVAL;
	if (*s == '.' && !parse_number(s + 1, sublevel))
		*sublevel = 0;
	return 0;
}

int pa_kernel_version(const char *release, unsigned int *major,
		      unsigned int *minor)
{
	unsigned int sublevel;

	return kernel_version3(release, major, minor, &sublevel);
}

/* The first stable release of 6.12, 6.13 and 6.14 with 9cf8a952d57b. */
static const struct {
	unsigned int minor, sublevel;
} acs_fixed[] = { { 12, 23 }, { 13, 11 }, { 14, 2 } };

enum pa_acs_param_state pa_acs_param_state(const char *release,
					   enum pa_acs_param param)
{
	unsigned int major, minor, sub;
	unsigned long v;

	if (kernel_version3(release, &major, &minor, &sub))
		return PA_ACS_PARAM_UNKNOWN;
	v = (unsigned long)major << 16 | minor;
	if (v < (6ul << 16 | 11))
		return param == PA_ACS_PARAM_DISABLE_ACS_REDIR &&
		       v >= (4ul << 16 | 19) ? PA_ACS_PARAM_WORKS :
		       PA_ACS_PARAM_ABSENT;
	if (v == (6ul << 16 | 11))
		return PA_ACS_PARAM_BROKEN;
	for (size_t i = 0; i < sizeof(acs_fixed) / sizeof(acs_fixed[0]); i++) {
		if (v != (6ul << 16 | acs_fixed[i].minor))
			continue;
		if (!sub)
			return PA_ACS_PARAM_UNKNOWN;
		return sub >= acs_fixed[i].sublevel ? PA_ACS_PARAM_WORKS :
		       PA_ACS_PARAM_BROKEN;
	}
	return PA_ACS_PARAM_WORKS;
}

const char *pa_acs_param_name(enum pa_acs_param param)
{
	return param == PA_ACS_PARAM_CONFIG_ACS ? "pci=config_acs=" :
	       "pci=disable_acs_redir=";
}

#define FIXED_IN "commit " PA_ACS_FIX_COMMIT " (Linux 6.15 and later; stable 6.12.23, 6.13.11, 6.14.2 and later)"

const char *pa_acs_param_range(enum pa_acs_param param)
{
	if (param == PA_ACS_PARAM_CONFIG_ACS)
		return "pci=config_acs= exists from Linux 6.11 and works as written on kernels with " FIXED_IN;
	return "pci=disable_acs_redir= works as written on Linux 4.19 to 6.10 and on kernels with " FIXED_IN;
}

const char *pa_acs_param_on_kernel(const char *release, enum pa_acs_param param,
				   size_t ndevices, char *buf, size_t len)
{
	bool config = param == PA_ACS_PARAM_CONFIG_ACS;
	const char *what = config && ndevices > 1 ?
		"a pci=config_acs= naming several devices fails to parse after the first (\"PCI: Can't parse ACS command line parameter\"), and the bits it clears are copied from the firmware's setting" :
		"the bits it clears are copied from the firmware's setting instead, so they stay set wherever the firmware set them";
	const char *instead = config && ndevices > 1 ?
		"boot a kernel with the fix, or name one device only (a second pci=config_acs= replaces the first)" :
		"boot a kernel with the fix, or turn ACS redirection off in the firmware setup, whose setting it then copies";

	switch (pa_acs_param_state(release, param)) {
	case PA_ACS_PARAM_WORKS:
		snprintf(buf, len, "This kernel (%s) is one of them", release);
		break;
	case PA_ACS_PARAM_ABSENT:
		snprintf(buf, len, "This kernel (%s) does not have it (it came with Linux %s): boot a newer one",
			 release, config ? "6.11" : "4.19");
		break;
	case PA_ACS_PARAM_BROKEN:
		snprintf(buf, len, "This kernel (%s) lacks the fix: %s; %s",
			 release, what, instead);
		break;
	default:
		if (release)
			snprintf(buf, len, "Whether this kernel (%s) has the fix cannot be told from its release; without it, %s: check the kernel's changelog for \"PCI/ACS: Fix 'pci=config_acs=' parameter\", else %s",
				 release, what, instead);
		else
			snprintf(buf, len, "The running kernel's release is unknown; without the fix, %s: %s",
				 what, instead);
		break;
	}
	return buf;
}

bool pa_kernel_has_config_acs(const char *release)
{
	unsigned int major, minor;

	if (pa_kernel_version(release, &major, &minor))
		return false;
	return major > 6 || (major == 6 && minor >= 11);
}

bool pa_kernel_has_dma_fq(const char *release)
{
	unsigned int major, minor;

	if (pa_kernel_version(release, &major, &minor))
		return false;
	return major > 5 || (major == 5 && minor >= 15);
}

void pa_config_acs_bits(uint16_t clear, char bits[PA_ACS_BITS_LEN])
{
	for (unsigned int bit = 0; bit < PA_ACS_NFLAGS; bit++)
		bits[PA_ACS_NFLAGS - 1 - bit] = clear >> bit & 1 ? '0' : 'x';
	bits[PA_ACS_NFLAGS] = '\0';
}

/* "<prefix><flags>@<bdf>;<flags>@<bdf>...", flags NULL for none. */
static char *device_list(const char *prefix, const char *flags,
			 const struct pa_addr_list *devs)
{
	size_t each = PA_BDF_LEN + (flags ? PA_ACS_BITS_LEN + 1 : 0) + 1;
	size_t size = strlen(prefix) + devs->n * each + 1;
	char *text = malloc(size);
	size_t len;

	if (!text)
		return NULL;
	len = (size_t)snprintf(text, size, "%s", prefix);
	for (size_t i = 0; i < devs->n; i++) {
		char bdf[PA_BDF_LEN];

		pa_bdf_format(&devs->addrs[i], bdf);
		len += (size_t)snprintf(text + len, size - len, "%s%s%s%s",
					i ? ";" : "", flags ? flags : "",
					flags ? "@" : "", bdf);
	}
	return text;
}

char *pa_remedy_disable_acs_redir(const struct pa_addr_list *devs)
{
	return device_list("pci=disable_acs_redir=", NULL, devs);
}

char *pa_remedy_config_acs(const struct pa_addr_list *devs)
{
	char bits[PA_ACS_BITS_LEN];

	pa_config_acs_bits(PA_ACS_REDIRECT_BITS, bits);
	return device_list("pci=config_acs=", bits, devs);
}
