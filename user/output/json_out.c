// SPDX-License-Identifier: GPL-2.0
#include "json_out.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <json-c/json.h>
#include <linux/pcieaudit.h>

#include "abi_names.h"
#include "bdf.h"
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

int pa_json_print(FILE *f, json_object *root)
{
	const char *text = json_object_to_json_string_ext(root,
		(pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED :
			  JSON_C_TO_STRING_PLAIN) |
		JSON_C_TO_STRING_NOSLASHESCAPE);
	int err = 0;

	if (!text)
		err = -ENOMEM;
	else if (fprintf(f, "%s\n", text) < 0)
		err = -EIO;
	json_object_put(root);
	return err;
}

int pa_json_report(FILE *f, const struct pa_report *rep)
{
	json_object *root = document(&rep->info);

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
