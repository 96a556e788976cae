/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PA_YAML_DOC_H
#define PA_YAML_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

/*
 * One YAML document read with libyaml, for the files a user writes by
 * hand (policies, inventories, --web-config), and its refusals as
 * "FILE:LINE:COLUMN: message", where an editor jumps to.
 */
struct pa_yaml {
	const char *name;	/* the file, as the user named it */
	char *err;
	size_t errlen;
	yaml_document_t *doc;	/* while pa_yaml_load() calls back */
};

/* Writes the message at the node's place; returns -EINVAL. */
__attribute__((format(printf, 3, 4)))
int pa_yaml_bad(const struct pa_yaml *y, const yaml_node_t *at,
		const char *fmt, ...);

/* "a scalar", "a list", "a mapping" or "nothing", for messages. */
const char *pa_yaml_kind(const yaml_node_t *n);

/* A scalar's text (NUL-terminated by libyaml). */
const char *pa_yaml_text(const yaml_node_t *n);

/* YAML's null: ~, null or nothing, unquoted. */
bool pa_yaml_null(const yaml_node_t *n);

/* A scalar with a NUL byte inside, which C strings would cut short. */
bool pa_yaml_has_nul(const yaml_node_t *n);

/*
 * The key of a mapping's pair as a string, refused (prefix, then the
 * reason, at the key) when it is no string, holds a NUL byte or repeats
 * an earlier key of the mapping: libyaml keeps repeated keys.
 */
int pa_yaml_key(const struct pa_yaml *y, const yaml_node_t *map,
		const yaml_node_pair_t *pair, const char *prefix,
		const char **name);

/*
 * Loads the one document of text and calls fn with its root (NULL for an
 * empty stream). A syntax error is refused with libyaml's problem; a second
 * document, which would be silently ignored, as "a second YAML document;
 * ONE is one" (ONE: "a policy", ...).
 */
int pa_yaml_load(struct pa_yaml *y, const char *text, size_t len,
		 const char *one,
		 int (*fn)(void *arg, yaml_node_t *root), void *arg);

#endif
