// SPDX-License-Identifier: GPL-2.0
/*
 * The snapshot document: its top level and arrays. Keys of info, devices,
 * groups and host come from report_schema.c, a pair's from p2p_json.c,
 * the typed getters from json_in.c, and what must hold together from
 * snapshot_check.c.
 */
#include "snapshot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>

#include "fabric_json.h"
#include "json_in.h"
#include "p2p_json.h"
#include "report_schema.h"
#include "snapshot_check.h"

static int parse_info(struct pa_json_in *in, json_object *root,
		      struct pa_report *rep)
{
	json_object *info;
	int err = pa_json_member(in, root, "", "info", true, json_type_object,
				 &info);

	/* Until group_count says otherwise (null: unknown). */
	rep->info.iommu_unknown = true;
	if (!err)
		err = pa_schema_read(in, &pa_info_schema, info, "info",
				     &rep->info, &rep->info);
	return err;
}

static int parse_host(struct pa_json_in *in, json_object *root,
		      struct pa_report *rep)
{
	json_object *host;
	int err = pa_json_member(in, root, "", "host", false, json_type_object,
				 &host);

	pa_host_clear(&rep->host);
	rep->has_host = host != NULL;
	if (err || !host)
		return err;
	return pa_schema_read(in, &pa_host_schema, host, "host", &rep->host,
			      &rep->host);
}

static int parse_device(struct pa_json_in *in, json_object *obj,
			const char *path, struct pa_device *d)
{
	int err = pa_schema_read(in, &pa_device_schema, obj, path, d, d);

	/* Snapshots older than config_readable: a disconnected function's
	 * registers were not readable either. */
	if (d->flags & PCIEAUDIT_DEV_F_DISCONNECTED)
		d->config_unreadable = true;
	return err;
}

static int parse_devices(struct pa_json_in *in, json_object *root,
			 struct pa_report *rep)
{
	json_object *devices, *obj;
	char p[PA_JSON_PATH_LEN];
	int err = pa_json_member(in, root, "", "devices", true, json_type_array,
				 &devices);

	for (size_t i = 0; !err && i < json_object_array_length(devices); i++) {
		struct pa_device d = { .pcie_type = -1, .numa_node = -1 };

		err = pa_json_element(in, devices, i, "devices", json_type_object,
				      &obj, p);
		if (!err)
			err = parse_device(in, obj, p, &d);
		if (!err)
			err = pa_report_add_device(rep, &d);
		pa_device_clear(&d);
	}
	return err;
}

static int parse_groups(struct pa_json_in *in, json_object *root,
			struct pa_report *rep)
{
	json_object *groups, *obj;
	char p[PA_JSON_PATH_LEN];
	int err = pa_json_member(in, root, "", "groups", false, json_type_array,
				 &groups);

	if (!err && !groups)
		return pa_report_groups_from_devices(rep);
	for (size_t i = 0; !err && i < json_object_array_length(groups); i++) {
		struct pa_group g = { 0 };

		err = pa_json_element(in, groups, i, "groups", json_type_object,
				      &obj, p);
		if (!err)
			err = pa_schema_read(in, &pa_group_schema, obj, p, &g, &g);
		if (!err)
			err = pa_report_add_group(rep, &g);
		pa_group_clear(&g);
	}
	return err;
}

/* ---- pairs --------------------------------------------------------------- */

static int parse_pairs(struct pa_json_in *in, json_object *root,
		       struct pa_report *rep)
{
	json_object *pairs, *obj;
	char p[PA_JSON_PATH_LEN];
	int err = pa_json_member(in, root, "", "p2p", false, json_type_array,
				 &pairs);

	rep->has_p2p = pairs != NULL;
	for (size_t i = 0; !err && pairs && i < json_object_array_length(pairs); i++) {
		struct pa_p2p_pair *pair = calloc(1, sizeof(*pair));
		struct pa_p2p one = { .pairs = pair, .npairs = 1 };

		if (!pair)
			return -ENOMEM;
		err = pa_json_element(in, pairs, i, "p2p", json_type_object, &obj, p);
		if (!err)
			err = pa_p2p_pair_read(in, obj, p, pair);
		/* take() moves the pair by value, then frees the array. */
		if (!err)
			err = pa_p2p_take(&rep->p2p, &one);
		pa_p2p_clear(&one);
	}
	return err;
}

/* ---- the document -------------------------------------------------------- */

/* NVLink, XGMI and GPUDirect software, as report --json wrote them. */
static int parse_fabric(struct pa_json_in *in, json_object *root,
			struct pa_report *rep)
{
	json_object *f;
	char why[256];
	int err = pa_json_member(in, root, "", "fabric", false, json_type_object,
				 &f);

	if (err || !f)
		return err;
	err = pa_fabric_parse_json(f, &rep->fabric, why, sizeof(why));
	return err == -EINVAL ? pa_json_bad(in, "fabric", "%s", why) : err;
}

static int parse_root(struct pa_json_in *in, json_object *root,
		      struct pa_report *rep)
{
	int64_t version = 0;
	int err;

	if (!json_object_is_type(root, json_type_object))
		return pa_json_bad(in, "(top level)", "expected object, found %s",
				   pa_json_type_name(root));
	err = pa_json_int(in, root, "", "schema_version", true, 0, INT32_MAX,
			  NULL, &version);
	if (!err && version != PA_JSON_SCHEMA_VERSION)
		return pa_json_bad(in, "schema_version",
				   "%lld is not supported (this CLI reads %d)",
				   (long long)version, PA_JSON_SCHEMA_VERSION);
	if (!err)
		err = parse_info(in, root, rep);
	if (!err)
		err = parse_devices(in, root, rep);
	if (!err)
		err = parse_groups(in, root, rep);
	if (!err)
		err = parse_pairs(in, root, rep);
	if (!err)
		err = parse_host(in, root, rep);
	if (!err)
		err = parse_fabric(in, root, rep);
	if (err)
		return err;
	/* Snapshots from before group_count could be null wrote 0 for an
	 * lspci dump, which never shows the IOMMU without its -v text. */
	rep->info.iommu_unknown |= rep->has_host &&
				   rep->host.source == PA_SOURCE_LSPCI &&
				   !rep->info.group_count;
	pa_report_sort(rep);
	pa_p2p_sort(&rep->p2p);
	return pa_snapshot_check(in, rep);
}

int pa_snapshot_parse(const char *name, const char *text, size_t len,
		      struct pa_report *rep, char *err, size_t errlen)
{
	struct pa_json_in in = { name, err, errlen };
	json_object *root = NULL;
	int ret;

	*rep = (struct pa_report){ 0 };
	pa_host_clear(&rep->host);
	err[0] = '\0';
	ret = pa_json_tokenize(&in, text, len, &root);
	if (!ret)
		ret = parse_root(&in, root, rep);
	json_object_put(root);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", name);
	if (ret)
		pa_report_clear(rep);
	return ret;
}
