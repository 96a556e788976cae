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

/* n for bytes == unit << n, -1 when bytes is not such a power of two; n
 * stops short of overflowing int64_t. */
static int log2_of(int64_t bytes, int64_t unit, int max)
{
	for (int n = 0; n <= max && unit <= INT64_MAX >> n; n++)
		if (bytes == unit << n)
			return n;
	return -1;
}

/* ---- ATS: capable false when the function has none ---------------------- */

bool pa_ats_known(const void *dev)
{
	return pa_ats_capable(dev) != PA_UNKNOWN;
}

/* ats or pcie_device without bars: an offline source had registers but
 * no BAR sizes. bars, read after both, says otherwise (pa_bars_found). */
void pa_caps_found(void *dev)
{
	struct pa_device *d = dev;

	if (!d->caps_known)
		d->bars_unknown = true;
	d->caps_known = true;
}

static json_object *ats_capable(const void *base, const void *top)
{
	(void)top;
	return tristate_value(pa_ats_capable(base));
}

static json_object *ats_enabled(const void *base, const void *top)
{
	(void)top;
	return tristate_value(pa_ats_enabled(base));
}

static int ats_capable_read(struct pa_json_in *in, const struct pa_schema_field *f,
			    json_object *v, const char *path, void *base, void *top)
{
	(void)in, (void)f, (void)path, (void)top;
	((struct pa_device *)base)->has_ats = json_object_get_boolean(v);
	return 0;
}

static int ats_enabled_read(struct pa_json_in *in, const struct pa_schema_field *f,
			    json_object *v, const char *path, void *base, void *top)
{
	(void)in, (void)f, (void)path, (void)top;
	((struct pa_device *)base)->ats_ctrl = json_object_get_boolean(v) ? 0x8000 : 0;
	return 0;
}

static const struct pa_schema_field ats_fields[] = {
	{ "capable", .kind = PA_S_CUSTOM, .write = ats_capable,
	  .read = ats_capable_read, .type = json_type_boolean },
	/* The ATS Control register's Enable bit. */
	{ "enabled", .kind = PA_S_CUSTOM, .write = ats_enabled,
	  .read = ats_enabled_read, .type = json_type_boolean },
};

const struct pa_schema pa_ats_schema = {
	ats_fields, sizeof(ats_fields) / sizeof(ats_fields[0])
};

/* ---- Device Capabilities and Control, in bytes -------------------------- */

bool pa_pcie_device_known(const void *dev)
{
	return pa_relaxed_ordering(dev) != PA_UNKNOWN;
}

void pa_pcie_device_found(void *dev)
{
	pa_caps_found(dev);
	((struct pa_device *)dev)->has_expdev = true;
}

static json_object *mps(const void *base, const void *top)
{
	(void)top;
	return bytes_or_null(pa_mps_bytes(base));
}

static json_object *mps_supported(const void *base, const void *top)
{
	(void)top;
	return bytes_or_null(pa_mps_supported_bytes(base));
}

static json_object *mrrs(const void *base, const void *top)
{
	(void)top;
	return bytes_or_null(pa_mrrs_bytes(base));
}

static json_object *relaxed_ordering(const void *base, const void *top)
{
	(void)top;
	return tristate_value(pa_relaxed_ordering(base));
}

/* A payload size in bytes into its 3-bit code at shift in *reg. */
static int size_code(struct pa_json_in *in, const struct pa_schema_field *f,
		     json_object *v, const char *path, unsigned int shift,
		     uint32_t *reg)
{
	char p[PA_JSON_PATH_LEN];
	int64_t bytes = 0;
	int n, err;

	pa_json_path(p, path, f->key);
	err = pa_json_int_value(in, v, p, 128, 4096, &bytes);
	if (err)
		return err;
	n = log2_of(bytes, 128, 5);
	if (n < 0)
		return pa_json_bad(in, p, "%lld is not a payload size (128 to 4096)",
				   (long long)bytes);
	*reg |= (uint32_t)n << shift;
	return 0;
}

static int mps_read(struct pa_json_in *in, const struct pa_schema_field *f,
		    json_object *v, const char *path, void *base, void *top)
{
	struct pa_device *d = base;
	uint32_t reg = d->devctl;
	int err = size_code(in, f, v, path, 5, &reg);

	(void)top;
	d->devctl = (uint16_t)reg;
	return err;
}

static int mps_supported_read(struct pa_json_in *in,
			      const struct pa_schema_field *f, json_object *v,
			      const char *path, void *base, void *top)
{
	(void)top;
	return size_code(in, f, v, path, 0, &((struct pa_device *)base)->devcap);
}

static int mrrs_read(struct pa_json_in *in, const struct pa_schema_field *f,
		     json_object *v, const char *path, void *base, void *top)
{
	struct pa_device *d = base;
	uint32_t reg = d->devctl;
	int err = size_code(in, f, v, path, 12, &reg);

	(void)top;
	d->devctl = (uint16_t)reg;
	return err;
}

static int relaxed_ordering_read(struct pa_json_in *in,
				 const struct pa_schema_field *f, json_object *v,
				 const char *path, void *base, void *top)
{
	(void)in, (void)f, (void)path, (void)top;
	if (json_object_get_boolean(v))
		((struct pa_device *)base)->devctl |= 0x10;
	return 0;
}

static const struct pa_schema_field pcie_device_fields[] = {
	/* Max_Payload_Size, bytes */
	{ "mps", .kind = PA_S_CUSTOM, .write = mps, .read = mps_read,
	  .type = json_type_int },
	{ "mps_supported", .kind = PA_S_CUSTOM, .write = mps_supported,
	  .read = mps_supported_read, .type = json_type_int },
	/* Max_Read_Request_Size, bytes */
	{ "mrrs", .kind = PA_S_CUSTOM, .write = mrrs, .read = mrrs_read,
	  .type = json_type_int },
	/* Enable Relaxed Ordering */
	{ "relaxed_ordering", .kind = PA_S_CUSTOM, .write = relaxed_ordering,
	  .read = relaxed_ordering_read, .type = json_type_boolean },
};

const struct pa_schema pa_pcie_device_schema = {
	pcie_device_fields,
	sizeof(pcie_device_fields) / sizeof(pcie_device_fields[0])
};

/* ---- BARs: null when the source does not give them; [] for none -------- */

bool pa_bars_known(const void *dev)
{
	const struct pa_device *d = dev;

	return d->caps_known && !d->bars_unknown;
}

void pa_bars_found(void *dev)
{
	((struct pa_device *)dev)->caps_known = true;
	((struct pa_device *)dev)->bars_unknown = false;
}

static json_object *bar_type(const void *base, const void *top)
{
	(void)top;
	return json_object_new_string(((const struct pa_bar *)base)->flags &
				      PCIEAUDIT_BAR_F_IO ? "io" : "mem");
}

static int bar_type_read(struct pa_json_in *in, const struct pa_schema_field *f,
			 json_object *v, const char *path, void *base, void *top)
{
	struct pa_bar *b = base;
	char p[PA_JSON_PATH_LEN];
	const char *s;
	int err;

	(void)top;
	pa_json_path(p, path, f->key);
	err = pa_json_string_value(in, v, p, &s);
	if (!err && strcmp(s, "io") && strcmp(s, "mem"))
		err = pa_json_bad(in, p, "\"%s\" is neither io nor mem", s);
	if (!err)
		b->flags |= !strcmp(s, "io") ? PCIEAUDIT_BAR_F_IO : PCIEAUDIT_BAR_F_MEM;
	return err;
}

static bool rebar_known(const void *base)
{
	return ((const struct pa_bar *)base)->resizable;
}

static void rebar_found(void *base)
{
	((struct pa_bar *)base)->resizable = true;
}

static json_object *rebar_current(const void *base, const void *top)
{
	(void)top;
	return bytes_or_null(pa_rebar_current(base));
}

/* The BAR Size field, with the BAR's index below it (index first). */
static int rebar_current_read(struct pa_json_in *in,
			      const struct pa_schema_field *f, json_object *v,
			      const char *path, void *base, void *top)
{
	struct pa_bar *b = base;
	char p[PA_JSON_PATH_LEN];
	int64_t bytes = 0;
	int n, err;

	(void)top;
	pa_json_path(p, path, f->key);
	err = pa_json_int_value(in, v, p, 1, INT64_MAX, &bytes);
	if (err)
		return err;
	n = log2_of(bytes, 1 << 20, 63);
	if (n < 0)
		return pa_json_bad(in, p, "not a power of two of at least 1M");
	b->rebar_ctrl = (uint32_t)n << 8 | b->index;
	return 0;
}

/* Largest first, as the sizes the capability lists. */
static json_object *rebar_supported(const void *base, const void *top)
{
	json_object *sizes = json_object_new_array();
	uint64_t sup[28];
	size_t n = pa_rebar_supported(base, sup, 28);

	(void)top;
	for (size_t i = 0; i < n; i++)
		json_object_array_add(sizes, json_object_new_int64((int64_t)sup[i]));
	return sizes;
}

static int rebar_supported_read(struct pa_json_in *in,
				const struct pa_schema_field *f, json_object *v,
				const char *path, void *base, void *top)
{
	struct pa_bar *b = base;
	char p[PA_JSON_PATH_LEN], r[PA_JSON_PATH_LEN];
	json_object *item;
	int n, err = 0;

	(void)top;
	pa_json_path(p, path, f->key);
	for (size_t i = 0; !err && i < json_object_array_length(v); i++) {
		err = pa_json_element(in, v, i, p, json_type_int, &item, r);
		n = err ? -1 : log2_of(json_object_get_int64(item), 1 << 20, 27);
		if (!err && n < 0)
			err = pa_json_bad(in, r, "not a resizable BAR size (1M to 128T)");
		if (!err)
			b->rebar_cap |= 1u << (n + 4);
	}
	return err;
}

static const struct pa_schema_field rebar_fields[] = {
	{ "current", .kind = PA_S_CUSTOM, .write = rebar_current,
	  .read = rebar_current_read, .type = json_type_int },
	{ "supported", .kind = PA_S_CUSTOM, .write = rebar_supported,
	  .read = rebar_supported_read, .type = json_type_array,
	  .required = true },
};

static const struct pa_schema rebar_schema = {
	rebar_fields, sizeof(rebar_fields) / sizeof(rebar_fields[0])
};

#define BAR struct pa_bar
#define BAR_FLAG(k, f) .kind = (k), .off = offsetof(BAR, flags), .flag = (f)

static const struct pa_schema_field bar_fields[] = {
	{ "index", .kind = PA_S_UINT, .off = offsetof(BAR, index),
	  .size = sizeof(uint8_t), .max = PA_MAX_BARS - 1, .required = true },
	/* bytes, the kernel's resource */
	{ "size", .kind = PA_S_UINT, .off = offsetof(BAR, size),
	  .size = sizeof(uint64_t), .min = 1, .max = INT64_MAX, .required = true },
	{ "type", .kind = PA_S_CUSTOM, .write = bar_type, .read = bar_type_read,
	  .type = json_type_string, .required = true },
	{ "prefetchable", BAR_FLAG(PA_S_FLAG, PCIEAUDIT_BAR_F_PREFETCH) },
	{ "mem64", BAR_FLAG(PA_S_FLAG, PCIEAUDIT_BAR_F_MEM64) },
	/* false: no address range (assignment failed) */
	{ "assigned", BAR_FLAG(PA_S_NOT_FLAG, PCIEAUDIT_BAR_F_UNASSIGNED) },
	/* Its address, where the source gives it (not the module). */
	{ "start", .kind = PA_S_UINT, .off = offsetof(BAR, start),
	  .size = sizeof(uint64_t), .max = INT64_MAX,
	  .has = offsetof(BAR, has_start) + 1 },
	{ "resizable", .kind = PA_S_OBJECT, .sub = &rebar_schema,
	  .present = rebar_known, .found = rebar_found },
};

const struct pa_schema pa_bar_schema = {
	bar_fields, sizeof(bar_fields) / sizeof(bar_fields[0])
};
