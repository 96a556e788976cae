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

int pa_kernel_version(const char *release, unsigned int *major,
		      unsigned int *minor)
{
	const char *s = release ? parse_number(release, major) : NULL;

	if (!s || *s != '.' || !parse_number(s + 1, minor))
		return -EINVAL;
	return 0;
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
