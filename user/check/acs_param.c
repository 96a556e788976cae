// SPDX-License-Identifier: GPL-2.0
#include "acs_param.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pci_regs.h>

#include "acs.h"
#include "bdf.h"

static const char *option_name(enum pa_acs_param param)
{
	return param == PA_ACS_PARAM_CONFIG_ACS ? "config_acs=" :
	       "disable_acs_redir=";
}

int pa_acs_request_find(const struct pa_cmdline *cl, enum pa_acs_param param,
			struct pa_acs_request *r)
{
	const char *name = option_name(param), *found = NULL;
	const struct pa_param *where = NULL;
	size_t nlen = strlen(name), flen = 0;
	char *value;
	int err;

	*r = (struct pa_acs_request){ .param = param };
	/* Every pci= is parsed in turn; the last option wins. */
	for (size_t i = 0; i < cl->n; i++) {
		const char *v = cl->params[i].value;

		if (strcmp(cl->params[i].name, "pci") || !v)
			continue;
		while (*v) {
			size_t len = strcspn(v, ",");

			if (len >= nlen && !strncmp(v, name, nlen)) {
				found = v + nlen;
				flen = len - nlen;
				where = &cl->params[i];
			}
			v += len;
			v += *v == ',';
		}
	}
	if (!found)
		return 0;
	value = strndup(found, flen);
	if (!value)
		return -ENOMEM;
	err = pa_acs_request_parse(param, value, r);
	free(value);
	if (err)
		return err;
	r->where = where;
	return 1;
}

/* Up to 4 hex digits, at least one. */
static const char *parse_id(const char *s, uint16_t *id)
{
	unsigned int v = 0;
	int n = 0;

	while (isxdigit((unsigned char)s[n]) && n < 5) {
		v = v * 16 + (unsigned int)(isdigit((unsigned char)s[n]) ?
			s[n] - '0' : tolower((unsigned char)s[n]) - 'a' + 10);
		n++;
	}
	if (!n || n > 4)
		return NULL;
	*id = (uint16_t)v;
	return s + n;
}

static void parse_device(struct pa_acs_entry *e, const char *spec)
{
	if (!*spec) {
		e->kind = PA_ACS_SPEC_BAD;
		e->error = "no device";
	} else if (!strncmp(spec, "pci:", 4)) {
		const char *s = spec + 4;
		int n = 0;

		while (n < 4 && (s = parse_id(s, &e->ids[n]))) {
			n++;
			if (*s != ':')
				break;
			s++;
		}
		e->kind = PA_ACS_SPEC_IDS;
		if (!s || *s || (n != 2 && n != 4)) {
			e->kind = PA_ACS_SPEC_BAD;
			e->error = "not pci:<vendor>:<device>[:<subvendor>:<subdevice>] in hex";
		}
	} else if (strchr(spec, '/')) {
		e->kind = PA_ACS_SPEC_PATH;
	} else if (pa_bdf_parse(spec, &e->addr)) {
		e->kind = PA_ACS_SPEC_BAD;
		e->error = "not a PCI address";
	} else {
		e->kind = PA_ACS_SPEC_BDF;
	}
}

/* config_acs flags: bit 0 rightmost; '0' off, '1' on, 'x' unchanged. */
static const char *parse_flags(struct pa_acs_entry *e, const char *flags,
			       size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char ch = flags[len - 1 - i];
		unsigned int bit = 1u << (i < 16 ? i : 15);

		if (ch == 'x' || ch == 'X')
			continue;
		if (ch != '0' && ch != '1')
			return "a flag is not 0, 1 or x";
		if (i >= PA_ACS_NFLAGS)
			return "a 0 or 1 left of bit 6 (DirectTrans): there are 7 flags";
		e->mask |= (uint16_t)bit;
		if (ch == '1')
			e->want |= (uint16_t)bit;
	}
	if (!len)
		return "no flags before '@'";
	if (!e->mask)
		return "every flag is x: it changes nothing";
	return NULL;
}

static void parse_entry(enum pa_acs_param param, struct pa_acs_entry *e)
{
	const char *spec = e->text;

	if (param == PA_ACS_PARAM_CONFIG_ACS) {
		const char *at = strchr(e->text, '@');

		if (!at) {
			e->kind = PA_ACS_SPEC_BAD;
			e->error = "no '@': config_acs entries are <flags>@<device>";
			return;
		}
		e->error = parse_flags(e, e->text, (size_t)(at - e->text));
		if (e->error) {
			e->kind = PA_ACS_SPEC_BAD;
			return;
		}
		spec = at + 1;
	} else {
		e->mask = PA_ACS_REDIRECT_BITS;
		e->want = 0;
	}
	parse_device(e, spec);
}

int pa_acs_request_parse(enum pa_acs_param param, const char *value,
			 struct pa_acs_request *r)
{
	*r = (struct pa_acs_request){ .param = param, .value = strdup(value) };
	if (!r->value)
		return -ENOMEM;
	/* The kernel stops at the end; a trailing ';' adds nothing. */
	while (*value) {
		size_t len = strcspn(value, ";");
		struct pa_acs_entry *v = realloc(r->entries,
						 (r->n + 1) * sizeof(*v));

		if (!v) {
			pa_acs_request_clear(r);
			return -ENOMEM;
		}
		r->entries = v;
		v[r->n] = (struct pa_acs_entry){ .text = strndup(value, len) };
		if (!v[r->n].text) {
			pa_acs_request_clear(r);
			return -ENOMEM;
		}
		parse_entry(param, &v[r->n++]);
		value += len;
		value += *value == ';';
	}
	return 0;
}

void pa_acs_request_clear(struct pa_acs_request *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->entries[i].text);
	free(r->entries);
	free(r->value);
	*r = (struct pa_acs_request){ 0 };
}

bool pa_acs_entry_matches(const struct pa_acs_entry *e,
			  const struct pa_device *d)
{
	const uint16_t have[4] = { d->vendor, d->device, d->subsys_vendor,
				   d->subsys_device };

	if (e->kind != PA_ACS_SPEC_IDS)
		return false;
	for (int i = 0; i < 4; i++)
		if (e->ids[i] && e->ids[i] != have[i])
			return false;
	return true;
}
