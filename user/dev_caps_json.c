// SPDX-License-Identifier: GPL-2.0
#include "dev_caps_json.h"

#include <string.h>
#include <linux/pcieaudit.h>

#include "dev_caps.h"

static json_object *tristate_value(enum pa_tristate t)
{
	return t == PA_UNKNOWN ? NULL : json_object_new_boolean(t == PA_YES);
}

static json_object *bytes_or_null(uint64_t bytes)
{
	return bytes ? json_object_new_int64((int64_t)bytes) : NULL;
}

/* Checks that v has type; p gets the member's path. */
static int typed(struct pa_json_in *in, const struct pa_schema_field *f,
		 json_object *v, const char *path, json_type type,
		 char p[PA_JSON_PATH_LEN])
{
	pa_json_path(p, path, f->key);
	if (json_object_is_type(v, type))
		return 0;
	return pa_json_bad(in, p, "expected %s, found %s",
			   json_type_to_name(type), pa_json_type_name(v));
}

/* n for bytes == unit << n, -1 when bytes is not such a power of two. */
static int log2_of(int64_t bytes, int64_t unit, int max)
{
	for (int n = 0; n <= max; n++)
		if (bytes == unit << n)
			return n;
	return -1;
}

/* ---- ATS: null when unknown; capable false when the function has none --- */

json_object *pa_ats_json(const void *base, const void *top)
{
	const struct pa_device *dev = base;
	json_object *obj;

	(void)top;
	if (pa_ats_capable(dev) == PA_UNKNOWN)
		return NULL;
	obj = json_object_new_object();
	pa_json_add(obj, "capable", tristate_value(pa_ats_capable(dev)));
	pa_json_add(obj, "enabled", tristate_value(pa_ats_enabled(dev)));
	return obj;
}

int pa_ats_read(struct pa_json_in *in, const struct pa_schema_field *f,
		json_object *v, const char *path, void *base, void *top)
{
	struct pa_device *d = base;
	char p[PA_JSON_PATH_LEN];
	int capable = -1, enabled = -1;
	int err = typed(in, f, v, path, json_type_object, p);

	(void)top;
	if (err)
		return err;
	err = pa_json_tribool(in, v, p, "capable", &capable);
	if (!err)
		err = pa_json_tribool(in, v, p, "enabled", &enabled);
	d->caps_known = true;
	d->has_ats = capable == 1;
	d->ats_ctrl = enabled == 1 ? 0x8000 : 0;
	return err;
}

/* ---- Device Capabilities and Control ------------------------------------ */

json_object *pa_pcie_device_json(const void *base, const void *top)
{
	const struct pa_device *dev = base;
	json_object *obj;

	(void)top;
	if (pa_relaxed_ordering(dev) == PA_UNKNOWN)
		return NULL;
	obj = json_object_new_object();
	pa_json_add(obj, "mps", bytes_or_null(pa_mps_bytes(dev)));
	pa_json_add(obj, "mps_supported", bytes_or_null(pa_mps_supported_bytes(dev)));
	pa_json_add(obj, "mrrs", bytes_or_null(pa_mrrs_bytes(dev)));
	pa_json_add(obj, "relaxed_ordering", tristate_value(pa_relaxed_ordering(dev)));
	return obj;
}

/* A payload size in bytes into its 3-bit code at shift in *reg. */
static int size_code(struct pa_json_in *in, json_object *obj, const char *path,
		     const char *key, unsigned int shift, uint32_t *reg)
{
	bool present = false;
	int64_t v = 0;
	int n, err = pa_json_int(in, obj, path, key, false, 128, 4096, &present, &v);
	char p[PA_JSON_PATH_LEN];

	if (err || !present)
		return err;
	n = log2_of(v, 128, 5);
	if (n < 0)
		return pa_json_bad(in, pa_json_path(p, path, key),
				   "%lld is not a payload size (128 to 4096)",
				   (long long)v);
	*reg |= (uint32_t)n << shift;
	return 0;
}

int pa_pcie_device_read(struct pa_json_in *in, const struct pa_schema_field *f,
			json_object *v, const char *path, void *base, void *top)
{
	struct pa_device *d = base;
	char p[PA_JSON_PATH_LEN];
	uint32_t devctl = 0, devcap = 0;
	int ro = -1;
	int err = typed(in, f, v, path, json_type_object, p);

	(void)top;
	if (err)
		return err;
	err = size_code(in, v, p, "mps", 5, &devctl);
	if (!err)
		err = size_code(in, v, p, "mps_supported", 0, &devcap);
	if (!err)
		err = size_code(in, v, p, "mrrs", 12, &devctl);
	if (!err)
		err = pa_json_tribool(in, v, p, "relaxed_ordering", &ro);
	d->caps_known = true;
	d->has_expdev = true;
	d->devcap = devcap;
	d->devctl = (uint16_t)(devctl | (ro == 1 ? 0x10 : 0));
	return err;
}

/* ---- BARs: null when the module does not report them; [] for none ------- */

static json_object *rebar_object(const struct pa_bar *b)
{
	json_object *obj = json_object_new_object();
	json_object *sizes = json_object_new_array();
	uint64_t sup[28];
	size_t n = pa_rebar_supported(b, sup, 28);

	for (size_t i = 0; i < n; i++)
		json_object_array_add(sizes, json_object_new_int64((int64_t)sup[i]));
	pa_json_add(obj, "current", bytes_or_null(pa_rebar_current(b)));
	pa_json_add(obj, "supported", sizes);
	return obj;
}

json_object *pa_bars_json(const void *base, const void *top)
{
	const struct pa_device *dev = base;
	json_object *arr;

	(void)top;
	if (!dev->caps_known)
		return NULL;
	arr = json_object_new_array();
	for (size_t i = 0; i < dev->nbars; i++) {
		const struct pa_bar *b = &dev->bars[i];
		json_object *obj = json_object_new_object();

		pa_json_add(obj, "index", json_object_new_int64(b->index));
		pa_json_add(obj, "size", json_object_new_int64((int64_t)b->size));
		pa_json_add(obj, "type", json_object_new_string(
			b->flags & PCIEAUDIT_BAR_F_IO ? "io" : "mem"));
		pa_json_add(obj, "prefetchable", json_object_new_boolean(
			b->flags & PCIEAUDIT_BAR_F_PREFETCH));
		pa_json_add(obj, "mem64", json_object_new_boolean(
			b->flags & PCIEAUDIT_BAR_F_MEM64));
		pa_json_add(obj, "assigned", json_object_new_boolean(
			!(b->flags & PCIEAUDIT_BAR_F_UNASSIGNED)));
		pa_json_add(obj, "resizable", b->resizable ? rebar_object(b) : NULL);
		json_object_array_add(arr, obj);
	}
	return arr;
}

static int parse_rebar(struct pa_json_in *in, json_object *obj,
		       const char *path, struct pa_bar *b)
{
	json_object *rb, *sizes, *item;
	char p[PA_JSON_PATH_LEN], q[PA_JSON_PATH_LEN], r[PA_JSON_PATH_LEN];
	bool present = false;
	int64_t cur = 0;
	int n, err = pa_json_member(in, obj, path, "resizable", false,
				    json_type_object, &rb);

	if (err || !rb)
		return err;
	pa_json_path(p, path, "resizable");
	err = pa_json_int(in, rb, p, "current", false, 1, INT64_MAX, &present, &cur);
	if (!err && present && (n = log2_of(cur, 1 << 20, 63)) >= 0)
		b->rebar_ctrl = (uint32_t)n << 8 | b->index;
	else if (!err && present)
		return pa_json_bad(in, p, "current size not a power of two of at least 1M");
	if (!err)
		err = pa_json_member(in, rb, p, "supported", true, json_type_array,
				     &sizes);
	pa_json_path(q, p, "supported");
	for (size_t i = 0; !err && i < json_object_array_length(sizes); i++) {
		err = pa_json_element(in, sizes, i, q, json_type_int, &item, r);
		n = err ? -1 : log2_of(json_object_get_int64(item), 1 << 20, 27);
		if (!err && n < 0)
			err = pa_json_bad(in, r, "not a resizable BAR size (1M to 128T)");
		if (!err)
			b->rebar_cap |= 1u << (n + 4);
	}
	b->resizable = true;
	return err;
}

static int parse_bar(struct pa_json_in *in, json_object *obj, const char *path,
		     struct pa_bar *b)
{
	const char *type = NULL;
	int pf = -1, m64 = -1, assigned = -1;
	int64_t index = 0, size = 0;
	int err = pa_json_int(in, obj, path, "index", true, 0, PA_MAX_BARS - 1,
			      NULL, &index);

	b->index = (uint8_t)index;
	if (!err)
		err = pa_json_int(in, obj, path, "size", true, 1, INT64_MAX, NULL,
				  &size);
	if (!err)
		err = pa_json_string(in, obj, path, "type", true, &type);
	if (!err && strcmp(type, "io") && strcmp(type, "mem"))
		err = pa_json_bad(in, path, "type \"%s\" is neither io nor mem", type);
	if (!err)
		err = pa_json_tribool(in, obj, path, "prefetchable", &pf);
	if (!err)
		err = pa_json_tribool(in, obj, path, "mem64", &m64);
	if (!err)
		err = pa_json_tribool(in, obj, path, "assigned", &assigned);
	if (err)
		return err;
	b->size = (uint64_t)size;
	b->flags = (!strcmp(type, "io") ? PCIEAUDIT_BAR_F_IO : PCIEAUDIT_BAR_F_MEM) |
		   (pf == 1 ? PCIEAUDIT_BAR_F_PREFETCH : 0) |
		   (m64 == 1 ? PCIEAUDIT_BAR_F_MEM64 : 0) |
		   (assigned == 1 ? 0 : PCIEAUDIT_BAR_F_UNASSIGNED);
	return parse_rebar(in, obj, path, b);
}

int pa_bars_read(struct pa_json_in *in, const struct pa_schema_field *f,
		 json_object *v, const char *path, void *base, void *top)
{
	struct pa_device *d = base;
	char p[PA_JSON_PATH_LEN], q[PA_JSON_PATH_LEN];
	json_object *item;
	int err = typed(in, f, v, path, json_type_array, q);

	(void)top;
	if (err)
		return err;
	d->caps_known = true;
	if (json_object_array_length(v) > PA_MAX_BARS)
		return pa_json_bad(in, q, "more than %d BARs", PA_MAX_BARS);
	for (size_t i = 0; !err && i < json_object_array_length(v); i++) {
		err = pa_json_element(in, v, i, q, json_type_object, &item, p);
		if (!err)
			err = parse_bar(in, item, p, &d->bars[d->nbars++]);
	}
	return err;
}
