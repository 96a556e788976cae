// SPDX-License-Identifier: GPL-2.0
#include "yaml_doc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int pa_yaml_bad(const struct pa_yaml *y, const yaml_node_t *at,
		const char *fmt, ...)
{
	size_t n;
	va_list ap;

	/* libyaml counts from 0; editors from 1. */
	n = (size_t)snprintf(y->err, y->errlen, "%s:%zu:%zu: ", y->name,
			     at->start_mark.line + 1, at->start_mark.column + 1);
	if (n < y->errlen) {
		va_start(ap, fmt);
		vsnprintf(y->err + n, y->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

const char *pa_yaml_kind(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SCALAR_NODE:
		return "a scalar";
	case YAML_SEQUENCE_NODE:
		return "a list";
	case YAML_MAPPING_NODE:
		return "a mapping";
	default:
		return "nothing";
	}
}

const char *pa_yaml_text(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

bool pa_yaml_null(const yaml_node_t *n)
{
	const char *s;

	if (n->type != YAML_SCALAR_NODE ||
	    n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	s = pa_yaml_text(n);
	return !n->data.scalar.length || !strcmp(s, "~") ||
	       !strcmp(s, "null") || !strcmp(s, "Null") || !strcmp(s, "NULL");
}

bool pa_yaml_has_nul(const yaml_node_t *n)
{
	return n->type == YAML_SCALAR_NODE &&
	       strlen(pa_yaml_text(n)) != n->data.scalar.length;
}

int pa_yaml_key(const struct pa_yaml *y, const yaml_node_t *map,
		const yaml_node_pair_t *pair, const char *prefix,
		const char **name)
{
	const yaml_node_t *k = yaml_document_get_node(y->doc, pair->key);

	if (k->type != YAML_SCALAR_NODE)
		return pa_yaml_bad(y, k, "%sexpected a key, found %s", prefix,
				   pa_yaml_kind(k));
	if (pa_yaml_has_nul(k))
		return pa_yaml_bad(y, k, "%sa key contains a NUL byte", prefix);
	*name = pa_yaml_text(k);
	for (const yaml_node_pair_t *q = map->data.mapping.pairs.start;
	     q < pair; q++) {
		const yaml_node_t *prev = yaml_document_get_node(y->doc, q->key);

		if (prev->type == YAML_SCALAR_NODE &&
		    !strcmp(pa_yaml_text(prev), *name))
			return pa_yaml_bad(y, k, "%sduplicate key '%s'", prefix,
					   *name);
	}
	return 0;
}

static int syntax_error(const struct pa_yaml *y, const yaml_parser_t *parser)
{
	const yaml_mark_t *m = &parser->problem_mark;

	snprintf(y->err, y->errlen, "%s:%zu:%zu: YAML: %s%s%s", y->name,
		 m->line + 1, m->column + 1,
		 parser->problem ? parser->problem : "malformed document",
		 parser->context ? " " : "", parser->context ? parser->context : "");
	return parser->error == YAML_MEMORY_ERROR ? -ENOMEM : -EINVAL;
}

static int single_document(const struct pa_yaml *y, yaml_parser_t *parser,
			   const char *one)
{
	yaml_document_t next;
	yaml_node_t *root;
	int err = 0;

	if (!yaml_parser_load(parser, &next))
		return syntax_error(y, parser);
	root = yaml_document_get_root_node(&next);
	if (root)
		err = pa_yaml_bad(y, root, "a second YAML document; %s is one",
				  one);
	yaml_document_delete(&next);
	return err;
}

int pa_yaml_load(struct pa_yaml *y, const char *text, size_t len,
		 const char *one,
		 int (*fn)(void *arg, yaml_node_t *root), void *arg)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	int ret;

	y->err[0] = '\0';
	if (!yaml_parser_initialize(&parser)) {
		snprintf(y->err, y->errlen, "%s: out of memory", y->name);
		return -ENOMEM;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		ret = syntax_error(y, &parser);
		yaml_parser_delete(&parser);
		return ret;
	}
	y->doc = &doc;
	ret = fn(arg, yaml_document_get_root_node(&doc));
	if (!ret)
		ret = single_document(y, &parser, one);
	y->doc = NULL;
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	if (ret == -ENOMEM && !y->err[0])
		snprintf(y->err, y->errlen, "%s: out of memory", y->name);
	return ret;
}
