// SPDX-License-Identifier: GPL-2.0
#include "report_schema.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bdf.h"

void pa_json_add(json_object *obj, const char *key, json_object *value)
{
	json_object_object_add_ex(obj, key, value,
				  JSON_C_OBJECT_ADD_KEY_IS_NEW |
				  JSON_C_OBJECT_ADD_CONSTANT_KEY);
}

static json_object *bdf_json(const struct pa_addr *addr)
{
	char buf[PA_BDF_LEN];

	pa_bdf_format(addr, buf);
	return json_object_new_string(buf);
}

/* ---- writing ------------------------------------------------------------- */

static uint64_t get_uint(const void *p, size_t size)
{
	switch (size) {
	case 1: return *(const uint8_t *)p;
	case 2: return *(const uint16_t *)p;
	case 4: return *(const uint32_t *)p;
	default: return *(const uint64_t *)p;
	}
}

static void set_uint(void *p, size_t size, uint64_t v)
{
	switch (size) {
	case 1: *(uint8_t *)p = (uint8_t)v; break;
	case 2: *(uint16_t *)p = (uint16_t)v; break;
	case 4: *(uint32_t *)p = (uint32_t)v; break;
	default: *(uint64_t *)p = v; break;
	}
}

/* A bus as "DDDD:BB". */
static void bus_text(const struct pa_addr *a, char buf[16])
{
	snprintf(buf, 16, "%04x:%02x", a->domain, a->bus);
}

static json_object *bus_json(const struct pa_addr *a)
{
	char buf[16];

	bus_text(a, buf);
	return json_object_new_string(buf);
}

static json_object *bdf_list_json(const struct pa_addr_list *list)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < list->n; i++)
		json_object_array_add(arr, bdf_json(&list->addrs[i]));
	return arr;
}

static json_object *array_json(const struct pa_schema_field *f,
			       const char *base, const void *top)
{
	json_object *arr = json_object_new_array();
	size_t n = *(const size_t *)(base + f->count);

	for (size_t i = 0; i < n; i++)
		json_object_array_add(arr, pa_schema_write(f->sub,
			base + f->off + i * f->elem, top));
	return arr;
}

static json_object *value_json(const struct pa_schema_field *f,
			       const char *base, const void *top)
{
	const void *p = base + f->off;
	const char *s;
	int i;

	if (f->has && !*(const bool *)(base + f->has - 1))
		return NULL;
	if (f->present && !f->present(base))
		return NULL;
	switch (f->kind) {
	case PA_S_UINT:
		return json_object_new_int64((int64_t)get_uint(p, f->size));
	case PA_S_INT:
		return json_object_new_int(*(const int32_t *)p);
	case PA_S_INT_OR_NULL:
		i = *(const int *)p;
		return i >= 0 ? json_object_new_int(i) : NULL;
	case PA_S_TRIBOOL:
		i = *(const int *)p;
		return i >= 0 ? json_object_new_boolean(i) : NULL;
	case PA_S_NOT_BOOL:
		return json_object_new_boolean(!*(const bool *)p);
	case PA_S_FLAG:
		return json_object_new_boolean((*(const uint32_t *)p & f->flag) != 0);
	case PA_S_NOT_FLAG:
		return json_object_new_boolean(!(*(const uint32_t *)p & f->flag));
	case PA_S_NONZERO:
		return *(const uint64_t *)p ?
			json_object_new_int64((int64_t)*(const uint64_t *)p) : NULL;
	case PA_S_STRING:
		s = *(char *const *)p;
		return s ? json_object_new_string(s) : NULL;
	case PA_S_BDF:
		return bdf_json(p);
	case PA_S_BUS:
		return bus_json(p);
	case PA_S_BDF_LIST:
		return bdf_list_json(p);
	case PA_S_ENUM:
		s = f->name(*(const uint32_t *)p);
		return s ? json_object_new_string(s) : NULL;
	case PA_S_OBJECT:
		return pa_schema_write(f->sub, p, top);
	case PA_S_ARRAY:
		return array_json(f, base, top);
	case PA_S_CUSTOM:
	case PA_S_DERIVED:
		return f->write(base, top);
	}
	return NULL;
}

json_object *pa_schema_write(const struct pa_schema *s, const void *base,
			     const void *top)
{
	json_object *obj = json_object_new_object();

	for (size_t i = 0; i < s->n; i++)
		pa_json_add(obj, s->fields[i].key,
			    value_json(&s->fields[i], base, top));
	return obj;
}

/* ---- streaming ----------------------------------------------------------- */

/*
 * The same bytes as json-c's JSON_C_TO_STRING_PLAIN |
 * JSON_C_TO_STRING_NOSLASHESCAPE of pa_schema_write(), straight to the
 * stream: building a json-c object per member and serializing it took
 * most of report --json's user time at 1,000+ functions. What json-c
 * would escape, and every custom member, json-c still writes.
 */
#define PUT_COMPACT (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

static int put_json(FILE *f, json_object *v)
{
	const char *text;
	int err = 0;

	if (!v)
		return fputs("null", f) < 0 ? -EIO : 0;
	text = json_object_to_json_string_ext(v, PUT_COMPACT);
	if (!text)
		err = -ENOMEM;
	else if (fputs(text, f) < 0)
		err = -EIO;
	json_object_put(v);
	return err;
}

/* As json-c's "%" PRId64. */
static void put_int(FILE *f, int64_t v)
{
	char buf[24], *p = buf + sizeof(buf);
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), f);
}

/* A string json-c would write as it is: no control character, quote or
 * backslash (NOSLASHESCAPE leaves '/' alone). */
static bool plain_string(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == '"' || *s == '\\')
			return false;
	return true;
}

static int put_string(FILE *f, const char *s)
{
	if (!s)
		return fputs("null", f) < 0 ? -EIO : 0;
	if (!plain_string(s))
		return put_json(f, json_object_new_string(s));
	fputc('"', f);
	fputs(s, f);
	fputc('"', f);
	return 0;
}

static int put_bdf(FILE *f, const struct pa_addr *addr)
{
	char buf[PA_BDF_LEN];

	pa_bdf_format(addr, buf);
	return put_string(f, buf);
}

static int put_bool(FILE *f, bool v)
{
	return fputs(v ? "true" : "false", f) < 0 ? -EIO : 0;
}

static int put_value(FILE *out, const struct pa_schema_field *f, const char *base,
		     const void *top)
{
	const void *p = base + f->off;
	const struct pa_addr_list *list;
	char buf[16];
	int i, err = 0;
	size_t n;

	if ((f->has && !*(const bool *)(base + f->has - 1)) ||
	    (f->present && !f->present(base)))
		return put_string(out, NULL);
	switch (f->kind) {
	case PA_S_UINT:
		put_int(out, (int64_t)get_uint(p, f->size));
		return 0;
	case PA_S_INT:
		put_int(out, *(const int32_t *)p);
		return 0;
	case PA_S_INT_OR_NULL:
		i = *(const int *)p;
		if (i < 0)
			return put_string(out, NULL);
		put_int(out, i);
		return 0;
	case PA_S_TRIBOOL:
		i = *(const int *)p;
		return i < 0 ? put_string(out, NULL) : put_bool(out, i);
	case PA_S_NOT_BOOL:
		return put_bool(out, !*(const bool *)p);
	case PA_S_FLAG:
		return put_bool(out, (*(const uint32_t *)p & f->flag) != 0);
	case PA_S_NOT_FLAG:
		return put_bool(out, !(*(const uint32_t *)p & f->flag));
	case PA_S_NONZERO:
		if (!*(const uint64_t *)p)
			return put_string(out, NULL);
		put_int(out, (int64_t)*(const uint64_t *)p);
		return 0;
	case PA_S_STRING:
		return put_string(out, *(char *const *)p);
	case PA_S_BDF:
		return put_bdf(out, p);
	case PA_S_BUS:
		bus_text(p, buf);
		return put_string(out, buf);
	case PA_S_BDF_LIST:
		list = p;
		fputc('[', out);
		for (size_t k = 0; !err && k < list->n; k++) {
			if (k)
				fputc(',', out);
			err = put_bdf(out, &list->addrs[k]);
		}
		fputc(']', out);
		return err;
	case PA_S_ENUM:
		return put_string(out, f->name(*(const uint32_t *)p));
	case PA_S_OBJECT:
		return pa_schema_put(out, f->sub, p, top);
	case PA_S_ARRAY:
		n = *(const size_t *)(base + f->count);
		fputc('[', out);
		for (size_t k = 0; !err && k < n; k++) {
			if (k)
				fputc(',', out);
			err = pa_schema_put(out, f->sub,
					    base + f->off + k * f->elem, top);
		}
		fputc(']', out);
		return err;
	case PA_S_CUSTOM:
	case PA_S_DERIVED:
		return put_json(out, f->write(base, top));
	}
	return put_string(out, NULL);
}

int pa_schema_put(FILE *f, const struct pa_schema *s, const void *base,
		  const void *top)
{
	int err = 0;

	fputc('{', f);
	for (size_t i = 0; !err && i < s->n; i++) {
		if (i)
			fputc(',', f);
		/* Keys are this file's own constants: nothing to escape. */
		fputc('"', f);
		fputs(s->fields[i].key, f);
		fputs("\":", f);
		err = put_value(f, &s->fields[i], base, top);
	}
	fputc('}', f);
	return err ? err : ferror(f) ? -EIO : 0;
}

/* ---- reading ------------------------------------------------------------- */

static json_type json_type_of(enum pa_schema_kind kind)
{
	switch (kind) {
	case PA_S_UINT:
	case PA_S_INT:
	case PA_S_INT_OR_NULL:
	case PA_S_NONZERO:
		return json_type_int;
	case PA_S_TRIBOOL:
	case PA_S_NOT_BOOL:
	case PA_S_FLAG:
	case PA_S_NOT_FLAG:
		return json_type_boolean;
	case PA_S_STRING:
	case PA_S_BDF:
	case PA_S_BUS:
	case PA_S_ENUM:
		return json_type_string;
	case PA_S_OBJECT:
		return json_type_object;
	case PA_S_BDF_LIST:
	case PA_S_ARRAY:
		return json_type_array;
	default:
		return json_type_null;	/* PA_S_CUSTOM: the converter checks */
	}
}

/* What null or an absent key leaves in the model. */
static void set_absent(const struct pa_schema_field *f, void *p)
{
	switch (f->kind) {
	case PA_S_INT:
		*(int32_t *)p = -1;
		break;
	case PA_S_INT_OR_NULL:
	case PA_S_TRIBOOL:
		*(int *)p = -1;
		break;
	default:
		break;		/* the struct's zero */
	}
}

/* "DDDD:BB", read as the BDF "DDDD:BB:00.0" is: the same digits, domains
 * past ffff (VMD) included. */
static int bus_read(struct pa_json_in *in, const char *path, const char *s,
		    struct pa_addr *a)
{
	char bdf[32];

	if (strchr(s, ':') != strrchr(s, ':') || !strchr(s, ':') ||
	    (size_t)snprintf(bdf, sizeof(bdf), "%s:00.0", s) >= sizeof(bdf) ||
	    pa_bdf_parse(bdf, a))
		return pa_json_bad(in, path, "invalid PCI bus \"%s\"", s);
	return 0;
}

static int array_read(struct pa_json_in *in, const struct pa_schema_field *f,
		      json_object *v, const char *path, char *base, void *top)
{
	size_t *n = (size_t *)(base + f->count);
	char p[PA_JSON_PATH_LEN];
	json_object *item;
	int err = 0;

	if ((int64_t)json_object_array_length(v) > f->max)
		return pa_json_bad(in, path, "more than %lld entries",
				   (long long)f->max);
	for (size_t i = 0; !err && i < json_object_array_length(v); i++) {
		err = pa_json_element(in, v, i, path, json_type_object, &item, p);
		if (!err)
			err = pa_schema_read(in, f->sub, item, p,
					     base + f->off + i * f->elem, top);
		if (!err)
			(*n)++;
	}
	return err;
}

static int value_read(struct pa_json_in *in, const struct pa_schema_field *f,
		      json_object *v, const char *path, char *base, void *top)
{
	char p[PA_JSON_PATH_LEN];
	void *dst = base + f->off;
	const char *s = NULL;
	int64_t n = 0;
	int err = 0;

	pa_json_path(p, path, f->key);
	switch (f->kind) {
	case PA_S_UINT:
	case PA_S_INT:
	case PA_S_INT_OR_NULL:
	case PA_S_NONZERO:
		err = pa_json_int_value(in, v, p, f->min, f->max, &n);
		if (err)
			break;
		if (f->kind == PA_S_UINT)
			set_uint(dst, f->size, (uint64_t)n);
		else if (f->kind == PA_S_INT)
			*(int32_t *)dst = (int32_t)n;
		else if (f->kind == PA_S_INT_OR_NULL)
			*(int *)dst = (int)n;
		else
			*(uint64_t *)dst = (uint64_t)n;
		break;
	case PA_S_TRIBOOL:
		*(int *)dst = json_object_get_boolean(v);
		break;
	case PA_S_NOT_BOOL:
		*(bool *)dst = !json_object_get_boolean(v);
		break;
	case PA_S_FLAG:
	case PA_S_NOT_FLAG:
		if (json_object_get_boolean(v) == (f->kind == PA_S_FLAG))
			*(uint32_t *)dst |= f->flag;
		break;
	case PA_S_STRING:
	case PA_S_BDF:
	case PA_S_BUS:
	case PA_S_ENUM:
		err = pa_json_string_value(in, v, p, &s);
		if (err)
			break;
		if (f->kind == PA_S_STRING) {
			*(char **)dst = strdup(s);
			err = *(char **)dst ? 0 : -ENOMEM;
		} else if (f->kind == PA_S_BDF) {
			err = pa_json_bdf_text(in, p, s, dst);
		} else if (f->kind == PA_S_BUS) {
			err = bus_read(in, p, s, dst);
		} else {
			*(uint32_t *)dst = f->value(s);
			if (!*(uint32_t *)dst)
				err = pa_json_bad(in, p, "unknown value \"%s\"", s);
		}
		break;
	case PA_S_BDF_LIST:
		err = pa_json_bdf_array(in, v, p, dst);
		break;
	case PA_S_OBJECT:
		err = pa_schema_read(in, f->sub, v, p, dst, top);
		break;
	case PA_S_ARRAY:
		err = array_read(in, f, v, p, base, top);
		break;
	case PA_S_CUSTOM:
		err = f->read(in, f, v, path, base, top);
		break;
	case PA_S_DERIVED:
		break;
	}
	return err;
}

int pa_schema_read(struct pa_json_in *in, const struct pa_schema *s,
		   json_object *obj, const char *path, void *base, void *top)
{
	int err = 0;

	for (size_t i = 0; !err && i < s->n; i++) {
		const struct pa_schema_field *f = &s->fields[i];
		char *b = base, p[PA_JSON_PATH_LEN];
		json_object *v;

		if (f->kind == PA_S_DERIVED)
			continue;
		if (f->kind == PA_S_CUSTOM && f->type == json_type_null) {
			/* The converter checks the type. */
			if (!json_object_object_get_ex(obj, f->key, &v))
				v = NULL;
			if (!v && f->required)
				err = pa_json_bad(in, pa_json_path(p, path, f->key),
						  "missing (required)");
		} else {
			err = pa_json_member(in, obj, path, f->key, f->required,
					     f->kind == PA_S_CUSTOM ? f->type :
					     json_type_of(f->kind), &v);
		}
		if (err)
			break;
		if (f->has)
			*(bool *)(b + f->has - 1) = v != NULL;
		if (v)
			err = value_read(in, f, v, path, b, top);
		else
			set_absent(f, b + f->off);
		if (!err && v && f->found)
			f->found(b);
	}
	return err;
}
