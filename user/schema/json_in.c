// SPDX-License-Identifier: GPL-2.0
#include "json_in.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bdf.h"

int pa_json_bad(struct pa_json_in *in, const char *path, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	n = (size_t)snprintf(in->err, in->errlen, "%s: %s: ", in->name, path);
	if (n < in->errlen) {
		va_start(ap, fmt);
		vsnprintf(in->err + n, in->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Appends s at *n, cut at PA_JSON_PATH_LEN - 1 as snprintf would. By
 * hand: a path is made for every value a snapshot holds, and snprintf's
 * were 45% of loading one (check --expect loads two). */
static void path_put(char out[PA_JSON_PATH_LEN], size_t *n, const char *s,
		     size_t len)
{
	if (len > PA_JSON_PATH_LEN - 1 - *n)
		len = PA_JSON_PATH_LEN - 1 - *n;
	memcpy(out + *n, s, len);
	*n += len;
	out[*n] = '\0';
}

const char *pa_json_path(char out[PA_JSON_PATH_LEN], const char *path,
			 const char *key)
{
	size_t n = 0;

	out[0] = '\0';
	path_put(out, &n, path, strlen(path));
	if (*path)
		path_put(out, &n, ".", 1);
	path_put(out, &n, key, strlen(key));
	return out;
}

const char *pa_json_type_name(json_object *v)
{
	return v ? json_type_to_name(json_object_get_type(v)) : "null";
}

/* ---- the tokenizer ------------------------------------------------------- */

/* 1-based line and column of byte offset end. */
static void position(const char *text, size_t end, size_t *line, size_t *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < end; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static int syntax_error(struct pa_json_in *in, const char *text, size_t end,
			const char *problem)
{
	size_t line, col;

	position(text, end, &line, &col);
	snprintf(in->err, in->errlen, "%s:%zu:%zu: invalid JSON: %s", in->name,
		 line, col, problem);
	return -EINVAL;
}

static bool blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr(" \t\r\n", s[i]))
			return false;
	return true;
}

int pa_json_tokenize(struct pa_json_in *in, const char *text, size_t len,
		     json_object **root)
{
	json_tokener *tok = json_tokener_new();
	enum json_tokener_error jerr;
	size_t end;

	*root = NULL;
	if (!tok)
		return -ENOMEM;
	/* The terminating NUL goes in too: it ends a document that ends in a
	 * number or literal. A NUL inside ends it early, which the trailing
	 * check below catches. */
	if (len < INT32_MAX)
		*root = json_tokener_parse_ex(tok, text, (int)len + 1);
	jerr = len < INT32_MAX ? json_tokener_get_error(tok) :
				 json_tokener_error_size;
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (jerr == json_tokener_continue || jerr == json_tokener_error_parse_eof)
		return syntax_error(in, text, len, "unexpected end of input (truncated?)");
	if (jerr != json_tokener_success)
		return syntax_error(in, text, end < len ? end : len,
				    json_tokener_error_desc(jerr));
	if (end < len && !blank(text + end, len - end)) {
		json_object_put(*root);
		*root = NULL;
		return syntax_error(in, text, end, "unexpected data after the document");
	}
	return 0;
}

/* ---- typed getters ------------------------------------------------------- */

int pa_json_member(struct pa_json_in *in, json_object *obj, const char *path,
		   const char *key, bool required, json_type type,
		   json_object **out)
{
	char p[PA_JSON_PATH_LEN];

	*out = NULL;
	if (!json_object_object_get_ex(obj, key, out) || !*out) {
		*out = NULL;
		return required ? pa_json_bad(in, pa_json_path(p, path, key),
					      "missing (required)") : 0;
	}
	if (!json_object_is_type(*out, type))
		return pa_json_bad(in, pa_json_path(p, path, key),
				   "expected %s, found %s",
				   json_type_to_name(type), pa_json_type_name(*out));
	return 0;
}

int pa_json_element(struct pa_json_in *in, json_object *array, size_t i,
		    const char *path, json_type type, json_object **out,
		    char p[PA_JSON_PATH_LEN])
{
	char num[24];
	size_t n = 0, k = sizeof(num), j = i;

	num[--k] = ']';
	do
		num[--k] = (char)('0' + j % 10);
	while ((j /= 10) && k > 1);
	num[--k] = '[';
	p[0] = '\0';
	path_put(p, &n, path, strlen(path));
	path_put(p, &n, num + k, sizeof(num) - k);
	*out = json_object_array_get_idx(array, i);
	if (!json_object_is_type(*out, type))
		return pa_json_bad(in, p, "expected %s, found %s",
				   json_type_to_name(type), pa_json_type_name(*out));
	return 0;
}

int pa_json_int_value(struct pa_json_in *in, json_object *v, const char *path,
		      int64_t min, int64_t max, int64_t *value)
{
	int64_t n;

	errno = 0;
	n = json_object_get_int64(v);
	/* json-c saturates numbers past int64 and flags them with ERANGE. */
	if (errno || n < min || n > max)
		return pa_json_bad(in, path, "%s out of range %lld..%lld",
				   json_object_to_json_string(v), (long long)min,
				   (long long)max);
	*value = n;
	return 0;
}

int pa_json_int(struct pa_json_in *in, json_object *obj, const char *path,
		const char *key, bool required, int64_t min, int64_t max,
		bool *present, int64_t *value)
{
	json_object *v;
	char p[PA_JSON_PATH_LEN];
	int err = pa_json_member(in, obj, path, key, required, json_type_int, &v);

	if (present)
		*present = v != NULL;
	if (err || !v)
		return err;
	return pa_json_int_value(in, v, pa_json_path(p, path, key), min, max,
				 value);
}

int pa_json_tribool(struct pa_json_in *in, json_object *obj, const char *path,
		    const char *key, int *out)
{
	json_object *v;
	int err = pa_json_member(in, obj, path, key, false, json_type_boolean, &v);

	*out = v ? json_object_get_boolean(v) : -1;
	return err;
}

int pa_json_string_value(struct pa_json_in *in, json_object *v,
			 const char *path, const char **value)
{
	*value = json_object_get_string(v);
	if (strlen(*value) != (size_t)json_object_get_string_len(v))
		return pa_json_bad(in, path, "contains a NUL byte");
	return 0;
}

int pa_json_string(struct pa_json_in *in, json_object *obj, const char *path,
		   const char *key, bool required, const char **value)
{
	json_object *v;
	char p[PA_JSON_PATH_LEN];
	int err = pa_json_member(in, obj, path, key, required, json_type_string, &v);

	*value = NULL;
	if (err || !v)
		return err;
	return pa_json_string_value(in, v, pa_json_path(p, path, key), value);
}

int pa_json_bdf_text(struct pa_json_in *in, const char *path, const char *s,
		     struct pa_addr *addr)
{
	if (pa_bdf_parse(s, addr))
		return pa_json_bad(in, path, "invalid PCI address \"%s\"", s);
	return 0;
}

int pa_json_bdf_array(struct pa_json_in *in, json_object *array,
		      const char *path, struct pa_addr_list *list)
{
	char p[PA_JSON_PATH_LEN];
	struct pa_addr addr;
	json_object *item;
	int err = 0;

	for (size_t i = 0; !err && i < json_object_array_length(array); i++) {
		err = pa_json_element(in, array, i, path, json_type_string, &item, p);
		if (!err)
			err = pa_json_bdf_text(in, p, json_object_get_string(item),
					       &addr);
		if (!err)
			err = pa_addr_list_add(list, &addr);
	}
	return err;
}

int pa_json_bdf_list(struct pa_json_in *in, json_object *obj, const char *path,
		     const char *key, bool required, struct pa_addr_list *list)
{
	json_object *array;
	char q[PA_JSON_PATH_LEN];
	int err = pa_json_member(in, obj, path, key, required, json_type_array,
				 &array);

	if (err || !array)
		return err;
	return pa_json_bdf_array(in, array, pa_json_path(q, path, key), list);
}
