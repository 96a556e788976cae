// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: plain lspci -vvv text, pasted without hex (with or
 * without -nn, cut short, quoted, mixed with anything). Each function's
 * configuration space is rebuilt (lspci_vvv.c), read back by the parser
 * a dump's bytes take (config_space.c), then the model and the text and
 * JSON reports are made from it, as --lspci does. Ids from names go
 * through a stub lookup: pci.ids is the host's, and slow to walk.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_space.h"
#include "json_out.h"
#include "lspci_model.h"
#include "lspci_vvv.h"
#include "text_out.h"

static FILE *out;

static bool stub_ids(void *arg, const char *names, uint16_t *vendor,
		     uint16_t *device)
{
	(void)arg;
	if (strncmp(names, "NVIDIA Corporation ", 19))
		return false;
	*vendor = 0x10de;
	*device = (uint16_t)strlen(names);
	return true;
}

static bool stub_class(void *arg, const char *name, uint16_t *class)
{
	(void)arg;
	*class = strcmp(name, "PCI bridge") ? 0x0300 : 0x0604;
	return true;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	out = fopen("/dev/null", "w");
	return out ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct pa_vvv_names names = { stub_ids, stub_class, NULL };
	struct pa_sysfs s = { 0 };
	struct pa_report rep;
	struct pa_config c;
	struct pa_vvv v;
	char what[256];

	if (pa_vvv_parse((const char *)data, size, size & 1 ? &names : NULL, &v))
		return 0;
	s.devs = calloc(v.n + 1, sizeof(*s.devs));
	if (!s.devs)
		abort();
	for (size_t i = 0; i < v.n; i++) {
		struct pa_sysfs_dev *d = &s.devs[s.n++];

		pa_config_parse(v.v[i].config, v.v[i].len, &c);
		d->name = strdup(v.v[i].bdf);
		d->config = malloc(v.v[i].len);
		if (!d->name || !d->config)
			abort();
		memcpy(d->config, v.v[i].config, v.v[i].len);
		d->config_len = v.v[i].len;
		d->caps_hidden = v.v[i].caps_hidden;
		d->ids_unknown = !v.v[i].ids_known;
		d->class_unknown = !v.v[i].class_known;
	}
	pa_vvv_clear(&v);
	if (!pa_lspci_model(&s, &rep, what, sizeof(what))) {
		pa_text_report(out, &rep);
		pa_json_report(out, &rep);
		pa_report_clear(&rep);
	}
	pa_sysfs_clear(&s);
	return 0;
}
