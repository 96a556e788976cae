// SPDX-License-Identifier: GPL-2.0
#include "cmdline.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* next_arg(): a quote toggles quoting anywhere in the word. */
static size_t word_length(const char *s)
{
	bool quoted = false;
	size_t i;

	for (i = 0; s[i] && (quoted || !isspace((unsigned char)s[i])); i++)
		if (s[i] == '"')
			quoted = !quoted;
	return i;
}

/* Drops the quotes next_arg() drops: around the whole word, or around the
 * value after '='. */
static void strip_quotes(char *s)
{
	size_t n = strlen(s);

	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		memmove(s, s + 1, n - 2);
		s[n - 2] = '\0';
	}
}

static int add_param(struct pa_cmdline *cl, const char *word, size_t len)
{
	struct pa_param p = { .text = strndup(word, len) };
	struct pa_param *v;
	char *eq;

	if (!p.text)
		return -ENOMEM;
	p.name = strdup(p.text);
	if (!p.name)
		goto oom;
	strip_quotes(p.name);
	eq = strchr(p.name, '=');
	if (eq) {
		*eq = '\0';
		p.value = strdup(eq + 1);
		if (!p.value)
			goto oom;
		strip_quotes(p.value);
	}
	for (char *c = p.name; *c; c++)
		if (*c == '-')
			*c = '_';
	v = realloc(cl->params, (cl->n + 1) * sizeof(*v));
	if (!v)
		goto oom;
	cl->params = v;
	v[cl->n++] = p;
	return 0;
oom:
	free(p.text);
	free(p.name);
	free(p.value);
	return -ENOMEM;
}

int pa_cmdline_parse(const char *text, struct pa_cmdline *cl)
{
	*cl = (struct pa_cmdline){ 0 };
	while (*text) {
		size_t len;
		int err;

		while (isspace((unsigned char)*text))
			text++;
		len = word_length(text);
		if (!len)
			break;
		/* Everything after a bare "--" belongs to init. */
		if (len == 2 && !strncmp(text, "--", 2))
			break;
		err = add_param(cl, text, len);
		if (err) {
			pa_cmdline_clear(cl);
			return err;
		}
		text += len;
	}
	return 0;
}

void pa_cmdline_clear(struct pa_cmdline *cl)
{
	for (size_t i = 0; i < cl->n; i++) {
		free(cl->params[i].name);
		free(cl->params[i].value);
		free(cl->params[i].text);
	}
	free(cl->params);
	*cl = (struct pa_cmdline){ 0 };
}

const struct pa_param *pa_cmdline_last(const struct pa_cmdline *cl,
				       const char *name)
{
	for (size_t i = cl->n; i-- > 0;)
		if (!strcmp(cl->params[i].name, name))
			return &cl->params[i];
	return NULL;
}

static bool lists_option(const char *value, const char *option)
{
	size_t n = strlen(option);

	while (value && *value) {
		size_t len = strcspn(value, ",");

		if (len >= n && !strncmp(value, option, n) &&
		    (len == n || value[n] == '='))
			return true;
		value += len;
		value += *value == ',';
	}
	return false;
}

const struct pa_param *pa_cmdline_option(const struct pa_cmdline *cl,
					 const char *name, const char *option)
{
	for (size_t i = 0; i < cl->n; i++)
		if (!strcmp(cl->params[i].name, name) &&
		    lists_option(cl->params[i].value, option))
			return &cl->params[i];
	return NULL;
}

bool pa_cmdline_true(const char *value)
{
	/* A bare boolean parameter sets it. */
	if (!value)
		return true;
	/* kstrtobool(): 1, y, t or on, in either case. */
	if (value[0] && strchr("1yYtT", value[0]))
		return true;
	return (value[0] == 'o' || value[0] == 'O') &&
	       (value[1] == 'n' || value[1] == 'N');
}

bool pa_param_iommu_acs(const struct pa_param *p)
{
	static const char *const names[] = {
		"iommu", "intel_iommu", "amd_iommu", "pcie_acs_override",
	};
	static const char *const pci[] = {
		"noacs", "disable_acs_redir", "config_acs", "noats",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(p->name, names[i]))
			return true;
	if (!strncmp(p->name, "iommu.", 6))
		return true;
	for (size_t i = 0; !strcmp(p->name, "pci") && i < sizeof(pci) / sizeof(pci[0]); i++)
		if (lists_option(p->value, pci[i]))
			return true;
	return false;
}
