// SPDX-License-Identifier: GPL-2.0
#include "json_out.h"

#include <errno.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include <linux/pcieaudit.h>

#include "abi_names.h"
#include "bdf.h"
#include "cmdline.h"
#include "fabric_json.h"
#include "p2p_json.h"
#include "report_schema.h"
#include "topo.h"

static json_object *bdf_value(const struct pa_addr *addr)
{
	char buf[PA_BDF_LEN];

	pa_bdf_format(addr, buf);
	return json_object_new_string(buf);
}

static json_object *devices_array(const struct pa_report *rep)
{
	json_object *array = json_object_new_array();

	for (size_t i = 0; i < rep->ndevices; i++)
		json_object_array_add(array, pa_schema_write(&pa_device_schema,
			&rep->devices[i], &rep->devices[i]));
	return array;
}

static json_object *groups_array(const struct pa_report *rep)
{
	json_object *array = json_object_new_array();

	for (size_t i = 0; i < rep->ngroups; i++)
		json_object_array_add(array, pa_schema_write(&pa_group_schema,
			&rep->groups[i], &rep->groups[i]));
	return array;
}

static json_object *p2p_array(const struct pa_report *rep)
{
	json_object *array = json_object_new_array();

	for (size_t i = 0; i < rep->p2p.npairs; i++)
		json_object_array_add(array,
				      pa_p2p_pair_json(rep, &rep->p2p.pairs[i]));
	return array;
}

static json_object *topo_devices(const struct pa_topo *topo)
{
	json_object *array = json_object_new_array();

	for (size_t i = 0; i < topo->n; i++) {
		json_object *obj = json_object_new_object();

		pa_json_add(obj, "label", json_object_new_string(topo->devs[i].label));
		pa_json_add(obj, "bdf", bdf_value(&topo->devs[i].dev->addr));
		json_object_array_add(array, obj);
	}
	return array;
}

static json_object *topo_matrix(const struct pa_report *rep,
				const struct pa_topo *topo)
{
	json_object *rows = json_object_new_array();
	char cell[PA_CELL_LEN];

	for (size_t i = 0; i < topo->n; i++) {
		json_object *row = json_object_new_array();

		for (size_t j = 0; j < topo->n; j++) {
			pa_topo_cell(rep, &topo->devs[i].dev->addr,
				     &topo->devs[j].dev->addr, cell);
			json_object_array_add(row, json_object_new_string(cell));
		}
		json_object_array_add(rows, row);
	}
	return rows;
}

static json_object *document(const struct pa_info *info)
{
	json_object *root = json_object_new_object();

	pa_json_add(root, "schema_version", json_object_new_int(PA_JSON_SCHEMA_VERSION));
	pa_json_add(root, "info", pa_schema_write(&pa_info_schema, info, info));
	return root;
}

static bool pretty;

void pa_json_set_pretty(bool on)
{
	pretty = on;
}

#define COMPACT (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

int pa_json_print(FILE *f, json_object *root)
{
	const char *text = json_object_to_json_string_ext(root,
		pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			 JSON_C_TO_STRING_NOSLASHESCAPE : COMPACT);
	int err = 0;

	if (!text)
		err = -ENOMEM;
	else if (fprintf(f, "%s\n", text) < 0)
		err = -EIO;
	json_object_put(root);
	return err;
}

/* Prints one value compactly ("null" for NULL), then frees it. */
static int put_value(FILE *f, json_object *value)
{
	const char *text = json_object_to_json_string_ext(value, COMPACT);
	int err = !text ? -ENOMEM : fputs(text, f) < 0 ? -EIO : 0;

	json_object_put(value);
	return err;
}

/* Prints n elements of size bytes at base as a JSON array, one at a time. */
static int put_array(FILE *f, const struct pa_schema *schema, const void *base,
		     size_t size, size_t n)
{
	int err = 0;

	fputc('[', f);
	for (size_t i = 0; !err && i < n; i++) {
		const void *elem = (const char *)base + i * size;

		if (i)
			fputc(',', f);
		err = pa_schema_put(f, schema, elem, elem);
	}
	fputc(']', f);
	return err;
}

/*
 * The compact report, one device, group or pair at a time: a json-c tree of
 * the whole machine took about 20 KiB a function (25 MiB at 1032), a tree
 * per element takes one. The bytes are those of the tree's
 * JSON_C_TO_STRING_PLAIN: members in the same order, no spaces.
 */
static int stream_report(FILE *f, const struct pa_report *rep)
{
	json_object *head = document(&rep->info);
	const char *text = json_object_to_json_string_ext(head, COMPACT);
	int err = 0;
	size_t i;

	if (!text) {
		json_object_put(head);
		return -ENOMEM;
	}
	/* {"schema_version":..,"info":{..}} without its closing brace. */
	fwrite(text, 1, strlen(text) - 1, f);
	json_object_put(head);
	fputs(",\"devices\":", f);
	err = put_array(f, &pa_device_schema, rep->devices, sizeof(*rep->devices),
			rep->ndevices);
	fputs(",\"groups\":", f);
	if (!err)
		err = put_array(f, &pa_group_schema, rep->groups,
				sizeof(*rep->groups), rep->ngroups);
	fputs(",\"p2p\":", f);
	if (!err && rep->has_p2p) {
		fputc('[', f);
		for (i = 0; !err && i < rep->p2p.npairs; i++) {
			if (i)
				fputc(',', f);
			err = pa_p2p_pair_put(f, rep, &rep->p2p.pairs[i]);
		}
		fputc(']', f);
	} else {
		fputs("null", f);
	}
	fputs(",\"host\":", f);
	if (!err)
		err = put_value(f, rep->has_host ?
			pa_schema_write(&pa_host_schema, &rep->host, &rep->host) : NULL);
	if (!err && rep->fabric) {
		fputs(",\"fabric\":", f);
		err = put_value(f, pa_fabric_json(rep->fabric));
	}
	fputs("}\n", f);
	return err ? err : ferror(f) ? -EIO : 0;
}

int pa_json_report(FILE *f, const struct pa_report *rep)
{
	json_object *root;
	int err, locking;

	if (!pretty) {
		/* Tens of thousands of small writes, from this thread alone:
		 * without the stream's lock taken for each. */
		locking = __fsetlocking(f, FSETLOCKING_BYCALLER);
		err = stream_report(f, rep);
		__fsetlocking(f, locking);
		return err;
	}
	root = document(&rep->info);

	pa_json_add(root, "devices", devices_array(rep));
	pa_json_add(root, "groups", groups_array(rep));
	pa_json_add(root, "p2p", rep->has_p2p ? p2p_array(rep) : NULL);
	pa_json_add(root, "host", rep->has_host ?
	    pa_schema_write(&pa_host_schema, &rep->host, &rep->host) : NULL);
	if (rep->fabric)
		pa_json_add(root, "fabric", pa_fabric_json(rep->fabric));
	return pa_json_print(f, root);
}

int pa_json_p2p(FILE *f, const struct pa_report *rep)
{
	json_object *root = document(&rep->info);

	pa_json_add(root, "p2p", p2p_array(rep));
	if (rep->fabric)
		pa_json_add(root, "fabric", pa_fabric_json(rep->fabric));
	return pa_json_print(f, root);
}

int pa_json_topo(FILE *f, const struct pa_report *rep,
		 const struct pa_topo *topo)
{
	json_object *root = document(&rep->info);

	pa_json_add(root, "devices", topo_devices(topo));
	pa_json_add(root, "matrix", topo_matrix(rep, topo));
	pa_json_add(root, "p2p", p2p_array(rep));
	if (rep->fabric)
		pa_json_add(root, "fabric", pa_fabric_json(rep->fabric));
	return pa_json_print(f, root);
}

int pa_json_info(FILE *f, const struct pa_info *info)
{
	return pa_json_print(f, document(info));
}

/* The kernel command line's IOMMU and ACS parameters, as written; NULL
 * without a command line. */
static json_object *iommu_params(const char *cmdline)
{
	struct pa_cmdline cl = { 0 };
	json_object *array;

	if (!cmdline || pa_cmdline_parse(cmdline, &cl))
		return NULL;
	array = json_object_new_array();
	for (size_t i = 0; i < cl.n; i++)
		if (pa_param_iommu_acs(&cl.params[i]))
			json_object_array_add(array,
				json_object_new_string(cl.params[i].text));
	pa_cmdline_clear(&cl);
	return array;
}

/* key null in info, and why in unknown. */
static void unknown(json_object *info, json_object *why, const char *key,
		    const char *reason)
{
	json_object_object_add(info, key, NULL);
	pa_json_add(why, key, json_object_new_string(reason));
}

int pa_json_info_source(FILE *f, const struct pa_info *info,
			const struct pa_info_source *src)
{
	json_object *root = document(info), *source = json_object_new_object();
	json_object *why = json_object_new_object(), *in = NULL;
	json_object *params = iommu_params(src->cmdline);

	json_object_object_get_ex(root, "info", &in);
	pa_json_add(source, "kind", json_object_new_string(src->kind));
	pa_json_add(source, "path", json_object_new_string(src->path));
	pa_json_add(root, "source", source);
	if (!src->module_known) {
		unknown(in, why, "module_version", src->why);
		unknown(in, why, "p2p_rules", src->why);
	}
	if (!src->kernel_known || !info->kernel_release)
		unknown(in, why, "kernel_release", src->why);
	/* sysfs: whether an IOMMU is there (groups), not the module's build. */
	if (!src->features_known && src->iommu_mode_known) {
		json_object *features = json_object_new_object();

		pa_json_add(features, "iommu_present", json_object_new_boolean(
			(info->features & PCIEAUDIT_F_IOMMU_PRESENT) != 0));
		json_object_object_add(in, "features", features);
		pa_json_add(why, "features", json_object_new_string(src->why));
	} else if (!src->features_known) {
		unknown(in, why, "features", src->why);
	}
	if (!src->iommu_mode_known) {
		unknown(in, why, "iommu_default_mode", src->why);
		unknown(in, why, "iommu_strict", src->why);
	}
	if (!src->groups_known)
		unknown(in, why, "group_count", src->why);
	if (!params)
		pa_json_add(why, "iommu_params", json_object_new_string(
			src->cmdline ? "out of memory" :
				       "no kernel command line in the input"));
	pa_json_add(root, "iommu_params", params);
	pa_json_add(root, "unknown", why);
	return pa_json_print(f, root);
}
