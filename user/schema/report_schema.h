/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report's JSON keys, each spelled once: one table per object says the
 * key, its JSON type, where its value lives in the model, when it is null
 * (the model's has_* flag, a present() test, or a value meaning unknown)
 * and whether a snapshot must have it. json_out.c writes from the tables
 * and snapshot.c reads with them, so the two cannot drift apart. The
 * tables: report_keys.c (info, device with acs, link and iommu, group,
 * host), dev_caps_json.c (ats, pcie_device, bars), p2p_json.c (a pair).
 *
 * Table order is output order. Reading ignores keys a table lacks (newer
 * writers) and takes an absent key as null (older writers); a value that
 * is there must have the table's type and range.
 */
#ifndef PA_REPORT_SCHEMA_H
#define PA_REPORT_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>

#include "json_in.h"
#include "model.h"

/* "schema_version" of every JSON document written (report --json is the
 * snapshot snapshot.c reads back). */
#define PA_JSON_SCHEMA_VERSION 1

enum pa_schema_kind {
	PA_S_UINT,	/* unsigned integer of size bytes, in min..max */
	PA_S_INT,	/* int32_t in min..max, written always; absent: -1 */
	PA_S_INT_OR_NULL, /* int: negative is unknown, written null */
	PA_S_TRIBOOL,	/* int: -1 null, 0 false, 1 true */
	PA_S_NOT_BOOL,	/* bool written negated: absent reads false */
	PA_S_FLAG,	/* bit flag of a uint32_t */
	PA_S_NOT_FLAG,	/* bit flag of a uint32_t, written negated */
	PA_S_NONZERO,	/* uint64_t, 0 (unknown) written null */
	PA_S_STRING,	/* char *, NULL written null */
	PA_S_BDF,	/* struct pa_addr as "DDDD:BB:DD.F" */
	PA_S_BUS,	/* struct pa_addr of a bus as "DDDD:BB" */
	PA_S_BDF_LIST,	/* struct pa_addr_list as an array of BDFs */
	PA_S_ENUM,	/* uint32_t spelled by name() and value(); 0 null */
	PA_S_OBJECT,	/* a struct the sub table describes */
	PA_S_ARRAY,	/* count (a size_t) structs of elem bytes, up to max */
	PA_S_CUSTOM,	/* write() and read() convert the value */
	PA_S_DERIVED,	/* write() computes it from the model; not read */
};

struct pa_schema;

struct pa_schema_field {
	const char *key;
	enum pa_schema_kind kind;
	size_t off;		/* of the value in the table's struct */
	size_t size;		/* PA_S_UINT: of the value */
	/* 1 + the offset of the bool saying the value is there (has_acs,
	 * has_upstream): false is written null, null reads false. 0: none. */
	size_t has;
	bool required;		/* a snapshot without it is refused */
	int64_t min, max;	/* integers */
	uint32_t flag;		/* PA_S_FLAG, PA_S_NOT_FLAG */
	const char *(*name)(uint32_t value);	/* PA_S_ENUM */
	uint32_t (*value)(const char *name);	/* PA_S_ENUM: 0 unknown */
	const struct pa_schema *sub;		/* PA_S_OBJECT, PA_S_ARRAY */
	size_t count, elem;			/* PA_S_ARRAY: offset, size */
	/* Whether the value is known, where a has_* flag does not say:
	 * false is written null. base is the table's struct. */
	bool (*present)(const void *base);
	/* Reading found the value (not null): what that says. */
	void (*found)(void *base);
	/* PA_S_CUSTOM and PA_S_DERIVED: the value, NULL for null, from
	 * the table's struct at base inside top (the device, or base). */
	json_object *(*write)(const void *base, const void *top);
	/* PA_S_CUSTOM: v is the member's value, never null, of type type
	 * (json_type_null: any); path is the object's, for pa_json_bad(). */
	json_type type;
	int (*read)(struct pa_json_in *in, const struct pa_schema_field *f,
		    json_object *v, const char *path, void *base, void *top);
};

struct pa_schema {
	const struct pa_schema_field *fields;
	size_t n;
};

/* struct pa_info, pa_device, pa_group and pa_host (report_keys.c); top
 * is the struct itself. ats, pcie_device and bars: dev_caps_json.h; a P2P
 * pair: p2p_json.h. */
extern const struct pa_schema pa_info_schema;
extern const struct pa_schema pa_device_schema;
extern const struct pa_schema pa_group_schema;
extern const struct pa_schema pa_host_schema;

/* The object s describes, of the struct at base (top: see write()). */
json_object *pa_schema_write(const struct pa_schema *s, const void *base,
			     const void *top);

/* The same object written to f as compact JSON (json-c's
 * JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE bytes) without
 * building it; 0, -ENOMEM or -EIO. */
int pa_schema_put(FILE *f, const struct pa_schema *s, const void *base,
		  const void *top);

/* Fills the struct at base from obj, at path; 0, -EINVAL (in says why) or
 * -ENOMEM. Strings are copies the struct's clear function frees. */
int pa_schema_read(struct pa_json_in *in, const struct pa_schema *s,
		   json_object *obj, const char *path, void *base, void *top);

/* Adds key to obj; keys are static and each is added once, so json-c
 * need neither copy nor look it up (a fifth of the cost at 1000+
 * functions). A NULL value is JSON null. */
void pa_json_add(json_object *obj, const char *key, json_object *value);

#endif /* PA_REPORT_SCHEMA_H */
