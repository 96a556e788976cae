/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading JSON documents: json-c's tokenizer and typed getters that name
 * what is wrong and where ("<name>: devices[3].link.lnkcap: expected int,
 * found string"). Pure: nothing here knows the report's keys; those are in
 * report_schema.h.
 */
#ifndef PA_JSON_IN_H
#define PA_JSON_IN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

#include "model.h"

/* Room for the deepest path, "p2p[a=...,b=...].redirect". */
#define PA_JSON_PATH_LEN 96

/* Where problems are written: err holds "<name>: <path>: <problem>". */
struct pa_json_in {
	const char *name;
	char *err;
	size_t errlen;
};

/* Writes the problem at path to in->err; returns -EINVAL. */
__attribute__((format(printf, 3, 4)))
int pa_json_bad(struct pa_json_in *in, const char *path, const char *fmt, ...);

/* path.key into out; a path too long to hold is cut, never overrun. */
const char *pa_json_path(char out[PA_JSON_PATH_LEN], const char *path,
			 const char *key);

/* json-c's name of v's type, "null" for NULL. */
const char *pa_json_type_name(json_object *v);

/* Parses text (len bytes, NUL at text[len]) into *root, which the caller
 * puts; a syntax error is "<name>:<line>:<column>: invalid JSON: ...". */
int pa_json_tokenize(struct pa_json_in *in, const char *text, size_t len,
		     json_object **root);

/*
 * Member key of obj. Required ones must be there and not null; optional
 * ones give *out NULL for absent and null alike. A present member of
 * another type than type is an error.
 */
int pa_json_member(struct pa_json_in *in, json_object *obj, const char *path,
		   const char *key, bool required, json_type type,
		   json_object **out);

/* Element i of array, of type type; p gets its path "path[i]". */
int pa_json_element(struct pa_json_in *in, json_object *array, size_t i,
		    const char *path, json_type type, json_object **out,
		    char p[PA_JSON_PATH_LEN]);

/* v (at path, not NULL) as an integer in min..max. */
int pa_json_int_value(struct pa_json_in *in, json_object *v, const char *path,
		      int64_t min, int64_t max, int64_t *value);

/* v (at path, not NULL) as a string without NUL bytes inside. */
int pa_json_string_value(struct pa_json_in *in, json_object *v,
			 const char *path, const char **value);

/* An integer member in min..max; *present says whether it was there
 * (present may be NULL) and *value is left alone when it was not. */
int pa_json_int(struct pa_json_in *in, json_object *obj, const char *path,
		const char *key, bool required, int64_t min, int64_t max,
		bool *present, int64_t *value);

/* true 1, false 0, absent or null -1. */
int pa_json_tribool(struct pa_json_in *in, json_object *obj, const char *path,
		    const char *key, int *out);

/* A string member; *value NULL when absent or null. NUL bytes inside
 * are refused: C strings could not hold them. */
int pa_json_string(struct pa_json_in *in, json_object *obj, const char *path,
		   const char *key, bool required, const char **value);

/* A PCI address in the kernel's format, s being at path. */
int pa_json_bdf_text(struct pa_json_in *in, const char *path, const char *s,
		     struct pa_addr *addr);

/* array (at path) of PCI addresses, appended to list. */
int pa_json_bdf_array(struct pa_json_in *in, json_object *array,
		      const char *path, struct pa_addr_list *list);

/* A list of PCI addresses; absent or null leaves list empty. */
int pa_json_bdf_list(struct pa_json_in *in, json_object *obj, const char *path,
		     const char *key, bool required, struct pa_addr_list *list);

#endif /* PA_JSON_IN_H */
