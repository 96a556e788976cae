// SPDX-License-Identifier: GPL-2.0
#include "fabric_json.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bdf.h"

static void add(json_object *obj, const char *key, json_object *value)
{
	json_object_object_add_ex(obj, key, value,
				  JSON_C_OBJECT_ADD_KEY_IS_NEW |
				  JSON_C_OBJECT_ADD_CONSTANT_KEY);
}

static json_object *bdf(const struct pa_addr *addr)
{
	char buf[PA_BDF_LEN];

	pa_bdf_format(addr, buf);
	return json_object_new_string(buf);
}

static json_object *tristate(int v)
{
	return v < 0 ? NULL : json_object_new_boolean(v);
}

static json_object *source(const struct pa_source *s)
{
	json_object *obj = json_object_new_object();

	add(obj, "state", json_object_new_string(pa_source_state_name(s->state)));
	add(obj, "detail", s->detail ? json_object_new_string(s->detail) : NULL);
	return obj;
}

static const char *mem_source(uint32_t type)
{
	return type == PA_ACCEL_NVLINK ? "nvml" : "kfd";
}

static json_object *mems_array(const struct pa_fabric *f)
{
	json_object *array = json_object_new_array();

	for (size_t i = 0; i < f->nmems; i++) {
		json_object *o = json_object_new_object();

		add(o, "bdf", bdf(&f->mems[i].addr));
		add(o, "memory_bytes", json_object_new_int64((int64_t)f->mems[i].bytes));
		add(o, "source", json_object_new_string(mem_source(f->mems[i].type)));
		json_object_array_add(array, o);
	}
	return array;
}

json_object *pa_fabric_json(const struct pa_fabric *f)
{
	json_object *obj = json_object_new_object();
	json_object *links = json_object_new_array();
	json_object *sources = json_object_new_object();
	json_object *sw = json_object_new_object();

	for (size_t i = 0; i < f->nlinks; i++) {
		const struct pa_accel_link *l = &f->links[i];
		json_object *o = json_object_new_object();

		add(o, "a", bdf(&l->a));
		add(o, "b", bdf(&l->b));
		add(o, "type", json_object_new_string(pa_accel_type_key(l->type)));
		add(o, "count", json_object_new_int((int)l->count));
		json_object_array_add(links, o);
	}
	add(obj, "links", links);
	add(obj, "gpus", mems_array(f));
	add(sources, "nvml", source(&f->nvml));
	add(sources, "kfd", source(&f->kfd));
	add(obj, "sources", sources);
	add(sw, "nvidia_loaded", tristate(f->sw.nvidia_loaded));
	add(sw, "nvidia_open", tristate(f->sw.nvidia_open));
	add(sw, "peermem_loaded", tristate(f->sw.peermem_loaded));
	add(sw, "dmabuf_core", tristate(f->sw.dmabuf_core));
	add(sw, "nvidia_version", f->sw.nvidia_version ?
	    json_object_new_string(f->sw.nvidia_version) : NULL);
	add(obj, "software", sw);
	return obj;
}

__attribute__((format(printf, 3, 4)))
static int bad(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* A member that is absent or null gives NULL; another type is an error. */
static int get(json_object *obj, const char *key, json_type type,
	       json_object **out, char *why, size_t len, const char *path)
{
	if (!json_object_object_get_ex(obj, key, out) || !*out) {
		*out = NULL;
		return 0;
	}
	if (!json_object_is_type(*out, type))
		return bad(why, len, "%s%s: expected %s", path, key,
			   json_type_to_name(type));
	return 0;
}

static int parse_link(json_object *o, size_t i, struct pa_fabric *f,
		      char *why, size_t len)
{
	json_object *a, *b, *type, *count;
	struct pa_addr x, y;
	uint32_t t;
	char path[32];
	int64_t n;
	int err;

	snprintf(path, sizeof(path), "links[%zu].", i);
	if (!json_object_is_type(o, json_type_object))
		return bad(why, len, "links[%zu]: expected object", i);
	err = get(o, "a", json_type_string, &a, why, len, path);
	if (!err)
		err = get(o, "b", json_type_string, &b, why, len, path);
	if (!err)
		err = get(o, "type", json_type_string, &type, why, len, path);
	if (!err)
		err = get(o, "count", json_type_int, &count, why, len, path);
	if (err)
		return err;
	if (!a || !b || pa_bdf_parse(json_object_get_string(a), &x) ||
	    pa_bdf_parse(json_object_get_string(b), &y))
		return bad(why, len, "%sa, %sb: expected PCI addresses", path, path);
	if (!type)
		return bad(why, len, "%stype: missing (required)", path);
	if (!strcmp(json_object_get_string(type), "nvlink"))
		t = PA_ACCEL_NVLINK;
	else if (!strcmp(json_object_get_string(type), "xgmi"))
		t = PA_ACCEL_XGMI;
	else
		return bad(why, len, "%stype: expected nvlink or xgmi", path);
	n = count ? json_object_get_int64(count) : 0;
	if (n < 1 || n > 1024)
		return bad(why, len, "%scount: expected 1 to 1024", path);
	return pa_fabric_add(f, &x, &y, t, (uint32_t)n);
}

static int parse_mem(json_object *o, size_t i, struct pa_fabric *f,
		     char *why, size_t len)
{
	json_object *b, *bytes, *src;
	struct pa_addr a;
	char path[32];
	int64_t n;
	int err;

	snprintf(path, sizeof(path), "gpus[%zu].", i);
	if (!json_object_is_type(o, json_type_object))
		return bad(why, len, "gpus[%zu]: expected object", i);
	err = get(o, "bdf", json_type_string, &b, why, len, path);
	if (!err)
		err = get(o, "memory_bytes", json_type_int, &bytes, why, len, path);
	if (!err)
		err = get(o, "source", json_type_string, &src, why, len, path);
	if (err)
		return err;
	if (!b || pa_bdf_parse(json_object_get_string(b), &a))
		return bad(why, len, "%sbdf: expected a PCI address", path);
	n = bytes ? json_object_get_int64(bytes) : 0;
	if (n < 1)
		return bad(why, len, "%smemory_bytes: expected a positive number", path);
	if (!src || (strcmp(json_object_get_string(src), "nvml") &&
		     strcmp(json_object_get_string(src), "kfd")))
		return bad(why, len, "%ssource: expected nvml or kfd", path);
	return pa_fabric_add_mem(f, &a, (uint64_t)n,
				 strcmp(json_object_get_string(src), "nvml") ?
				 PA_ACCEL_XGMI : PA_ACCEL_NVLINK);
}

static int parse_source(json_object *sources, const char *key,
			struct pa_source *s, char *why, size_t len)
{
	json_object *o, *state, *detail;
	uint32_t st;
	int err = get(sources, key, json_type_object, &o, why, len, "sources.");

	if (err || !o)
		return err;
	err = get(o, "state", json_type_string, &state, why, len, "sources.");
	if (!err)
		err = get(o, "detail", json_type_string, &detail, why, len, "sources.");
	if (err)
		return err;
	for (st = PA_SRC_NOT_READ; st <= PA_SRC_FAILED; st++)
		if (state && !strcmp(json_object_get_string(state),
				     pa_source_state_name(st)))
			break;
	if (st > PA_SRC_FAILED)
		return bad(why, len, "sources.%s.state: unknown", key);
	return pa_source_set(s, st, detail ? json_object_get_string(detail) : NULL);
}

static int parse_tristate(json_object *sw, const char *key, int *v,
			  char *why, size_t len)
{
	json_object *o;
	int err = get(sw, key, json_type_boolean, &o, why, len, "software.");

	*v = o ? json_object_get_boolean(o) : -1;
	return err;
}

static int parse_software(json_object *obj, struct pa_gpu_sw *sw, char *why,
			  size_t len)
{
	json_object *o, *ver;
	int err = get(obj, "software", json_type_object, &o, why, len, "");

	if (err || !o)
		return err;
	err = parse_tristate(o, "nvidia_loaded", &sw->nvidia_loaded, why, len);
	if (!err)
		err = parse_tristate(o, "nvidia_open", &sw->nvidia_open, why, len);
	if (!err)
		err = parse_tristate(o, "peermem_loaded", &sw->peermem_loaded, why, len);
	if (!err)
		err = parse_tristate(o, "dmabuf_core", &sw->dmabuf_core, why, len);
	if (!err)
		err = get(o, "nvidia_version", json_type_string, &ver, why, len,
			  "software.");
	if (!err && ver) {
		sw->nvidia_version = strdup(json_object_get_string(ver));
		if (!sw->nvidia_version)
			err = -ENOMEM;
	}
	return err;
}

int pa_fabric_parse_json(json_object *obj, struct pa_fabric **out, char *why,
			 size_t len)
{
	struct pa_fabric *f = malloc(sizeof(*f));
	json_object *links, *gpus, *sources;
	int err;

	*out = NULL;
	if (!f)
		return -ENOMEM;
	pa_fabric_init(f);
	err = get(obj, "links", json_type_array, &links, why, len, "");
	for (size_t i = 0; !err && links && i < json_object_array_length(links); i++)
		err = parse_link(json_object_array_get_idx(links, i), i, f, why, len);
	if (!err)
		err = get(obj, "gpus", json_type_array, &gpus, why, len, "");
	for (size_t i = 0; !err && gpus && i < json_object_array_length(gpus); i++)
		err = parse_mem(json_object_array_get_idx(gpus, i), i, f, why, len);
	if (!err)
		err = get(obj, "sources", json_type_object, &sources, why, len, "");
	if (!err && sources)
		err = parse_source(sources, "nvml", &f->nvml, why, len);
	if (!err && sources)
		err = parse_source(sources, "kfd", &f->kfd, why, len);
	if (!err)
		err = parse_software(obj, &f->sw, why, len);
	if (err) {
		pa_fabric_clear(f);
		free(f);
		return err;
	}
	*out = f;
	return 0;
}
