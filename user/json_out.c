// SPDX-License-Identifier: GPL-2.0
#include "json_out.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <json-c/json.h>
#include <linux/pcieaudit.h>

#include "abi_names.h"
#include "acs.h"
#include "acs_direction.h"
#include "bdf.h"
#include "fabric_json.h"
#include "p2p_path.h"
#include "report_schema.h"
#include "topo.h"

static json_object *string_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static json_object *uint_value(uint32_t v)
{
	return json_object_new_int64(v);
}

static json_object *tristate_value(enum pa_tristate t)
{
	return t == PA_UNKNOWN ? NULL : json_object_new_boolean(t == PA_YES);
}

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

static json_object *bdf_array(const struct pa_addr_list *list)
{
	json_object *array = json_object_new_array();

	for (size_t i = 0; i < list->n; i++)
		json_object_array_add(array, bdf_value(&list->addrs[i]));
	return array;
}

/* Rounded to 0.01 GB/s, and printed so: 7.88, not 7.8769230769230765. */
static json_object *gbps_value(double gbps)
{
	char text[32];

	snprintf(text, sizeof(text), "%.2f", gbps);
	return json_object_new_double_s(strtod(text, NULL), text);
}

static json_object *bottleneck_object(const struct pa_bottleneck *b)
{
	json_object *obj;

	if (!b->found)
		return NULL;
	obj = json_object_new_object();
	pa_json_add(obj, "gbps", gbps_value(b->gbps));
	pa_json_add(obj, "link", bdf_value(&b->link));
	return obj;
}

static void add_verdicts(json_object *obj, const struct pa_report *rep,
			 const struct pa_p2p_pair *pair)
{
	pa_json_add(obj, "kernel_distance", pair->has_kernel_distance ?
	    json_object_new_int(pair->kernel_distance) : NULL);
	pa_json_add(obj, "kernel_status",
	    string_or_null(pa_p2p_kernel_status_name(pair->kernel_status)));
	pa_json_add(obj, "agreement",
	    string_or_null(pa_p2p_agreement_name(pair->agreement)));
	/* Without the kernel's answer, pcieaudit's model is the verdict. */
	pa_json_add(obj, "modelled_on", pair->has_kernel_distance ? NULL :
	    string_or_null(rep->info.p2p_rules));
	pa_json_add(obj, "distance", json_object_new_int(pair->distance));
	pa_json_add(obj, "path_length", uint_value(pair->path_length));
	pa_json_add(obj, "map", string_or_null(pa_p2p_map_name(pair->map)));
	pa_json_add(obj, "path", string_or_null(pa_p2p_path_name(pair->path)));
	pa_json_add(obj, "host_rule",
	    string_or_null(pa_p2p_host_rule_name(pair->host_rule)));
}

static json_object *tlp_fate_object(const struct pa_tlp_fate *t)
{
	json_object *obj = json_object_new_object();

	pa_json_add(obj, "redirected", tristate_value(t->redirected));
	pa_json_add(obj, "port", t->redirected == PA_NO ? NULL : bdf_value(&t->port));
	if (t->redirected == PA_YES) {
		json_object *why = json_object_new_array();

		for (unsigned int bit = 0; bit < PA_ACS_NFLAGS; bit++)
			if (pa_acs_flag(t->bits, bit))
				json_object_array_add(why, json_object_new_string(
					pa_acs_flag_names[bit]));
		pa_json_add(obj, "by", why);
	} else {
		pa_json_add(obj, "by", NULL);
	}
	return obj;
}

/* Both directions of a pair, as the PCIe ACS rules route them
 * (acs_direction.h); null where the report cannot tell. */
static json_object *directions_array(const struct pa_report *rep,
				     const struct pa_p2p_pair *pair)
{
	json_object *arr = json_object_new_array();

	for (int back = 0; back < 2; back++) {
		struct pa_acs_direction d;
		json_object *obj;

		if (pa_acs_direction(rep, pair, back, &d))
			continue;
		obj = json_object_new_object();
		pa_json_add(obj, "requester", bdf_value(&d.requester));
		pa_json_add(obj, "completer", bdf_value(&d.completer));
		pa_json_add(obj, "request_ports", bdf_array(&d.req_ports));
		pa_json_add(obj, "completion_ports", bdf_array(&d.cpl_ports));
		pa_json_add(obj, "requests", tlp_fate_object(&d.tlp[PA_TLP_REQUEST]));
		pa_json_add(obj, "translated_requests",
		    tlp_fate_object(&d.tlp[PA_TLP_TRANSLATED]));
		pa_json_add(obj, "completions", tlp_fate_object(&d.tlp[PA_TLP_COMPLETION]));
		pa_json_add(obj, "requester_ats", tristate_value(d.requester_ats));
		pa_json_add(obj, "peer_to_peer", tristate_value(d.peer_to_peer));
		pa_json_add(obj, "by_translation", json_object_new_boolean(d.by_translation));
		json_object_array_add(arr, obj);
		pa_acs_direction_clear(&d);
	}
	return arr;
}

static json_object *pair_object(const struct pa_report *rep,
				const struct pa_p2p_pair *pair)
{
	json_object *obj = json_object_new_object();
	struct pa_bottleneck b;

	pa_path_bottleneck(rep, pair, &b);
	pa_json_add(obj, "a", bdf_value(&pair->provider));
	pa_json_add(obj, "b", bdf_value(&pair->client));
	add_verdicts(obj, rep, pair);
	pa_json_add(obj, "common", pair->has_common ? bdf_value(&pair->common) : NULL);
	pa_json_add(obj, "hops_a", bdf_array(&pair->hops_provider));
	pa_json_add(obj, "hops_b", bdf_array(&pair->hops_client));
	pa_json_add(obj, "redirect", bdf_array(&pair->redirect));
	pa_json_add(obj, "directions", directions_array(rep, pair));
	pa_json_add(obj, "legend", json_object_new_string(
		pa_legend_name(pa_legend_of(rep, pair))));
	pa_json_add(obj, "bottleneck", bottleneck_object(&b));
	pa_json_add(obj, "bandwidth_trap", json_object_new_boolean(b.trap));
	return obj;
}

static json_object *p2p_array(const struct pa_report *rep)
{
	json_object *array = json_object_new_array();

	for (size_t i = 0; i < rep->p2p.npairs; i++)
		json_object_array_add(array,
				      pair_object(rep, &rep->p2p.pairs[i]));
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
