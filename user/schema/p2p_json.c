// SPDX-License-Identifier: GPL-2.0
#include "p2p_json.h"

#include <stdio.h>
#include <stdlib.h>

#include "abi_names.h"
#include "acs.h"
#include "acs_direction.h"
#include "bdf.h"
#include "p2p_path.h"
#include "topo.h"

/* What a pair's derived facts are computed from, once per pair. */
struct view {
	const struct pa_report *rep;
	const struct pa_p2p_pair *pair;
	struct pa_bottleneck bottleneck;
};

static json_object *bdf_json(const struct pa_addr *addr)
{
	char buf[PA_BDF_LEN];

	pa_bdf_format(addr, buf);
	return json_object_new_string(buf);
}

static json_object *bdf_list_json(const struct pa_addr_list *list)
{
	json_object *array = json_object_new_array();

	for (size_t i = 0; i < list->n; i++)
		json_object_array_add(array, bdf_json(&list->addrs[i]));
	return array;
}

static json_object *tristate_value(enum pa_tristate t)
{
	return t == PA_UNKNOWN ? NULL : json_object_new_boolean(t == PA_YES);
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
	pa_json_add(obj, "link", bdf_json(&b->link));
	return obj;
}

static json_object *tlp_fate_object(const struct pa_tlp_fate *t)
{
	json_object *obj = json_object_new_object();

	pa_json_add(obj, "redirected", tristate_value(t->redirected));
	pa_json_add(obj, "port", t->redirected == PA_NO ? NULL : bdf_json(&t->port));
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
		pa_json_add(obj, "requester", bdf_json(&d.requester));
		pa_json_add(obj, "completer", bdf_json(&d.completer));
		pa_json_add(obj, "request_ports", bdf_list_json(&d.req_ports));
		pa_json_add(obj, "completion_ports", bdf_list_json(&d.cpl_ports));
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

/* Without the kernel's answer, pcieaudit's model is the verdict. */
static json_object *modelled_on(const void *base, const void *top)
{
	const struct pa_p2p_pair *pair = base;
	const struct view *v = top;
	const char *rules = v->rep->info.p2p_rules;

	return pair->has_kernel_distance || !rules ? NULL :
		json_object_new_string(rules);
}

static json_object *directions(const void *base, const void *top)
{
	const struct view *v = top;

	return directions_array(v->rep, base);
}

static json_object *legend(const void *base, const void *top)
{
	const struct view *v = top;

	return json_object_new_string(pa_legend_name(pa_legend_of(v->rep, base)));
}

static json_object *bottleneck(const void *base, const void *top)
{
	(void)base;
	return bottleneck_object(&((const struct view *)top)->bottleneck);
}

static json_object *bandwidth_trap(const void *base, const void *top)
{
	(void)base;
	return json_object_new_boolean(((const struct view *)top)->bottleneck.trap);
}

#define PAIR struct pa_p2p_pair
#define AT(field) .off = offsetof(PAIR, field)
#define HAS(field) .has = offsetof(PAIR, field) + 1
#define ENUM(field, n, v) .kind = PA_S_ENUM, AT(field), .name = (n), .value = (v)

static const struct pa_schema_field pair_fields[] = {
	{ "a", .kind = PA_S_BDF, AT(provider), .required = true },
	{ "b", .kind = PA_S_BDF, AT(client), .required = true },
	/* pci_p2pdma_distance(): -1 the kernel refuses; null, not asked. */
	{ "kernel_distance", .kind = PA_S_INT, AT(kernel_distance), .min = -1,
	  .max = INT32_MAX, HAS(has_kernel_distance) },
	{ "kernel_status", ENUM(kernel_status, pa_p2p_kernel_status_name,
				pa_p2p_kernel_status_value) },
	{ "agreement", ENUM(agreement, pa_p2p_agreement_name,
			    pa_p2p_agreement_value) },
	{ "modelled_on", .kind = PA_S_DERIVED, .write = modelled_on },
	{ "distance", .kind = PA_S_INT, AT(distance), .min = -1,
	  .max = INT32_MAX },
	{ "path_length", .kind = PA_S_UINT, AT(path_length),
	  .size = sizeof(uint32_t), .max = UINT32_MAX },
	{ "map", ENUM(map, pa_p2p_map_name, pa_p2p_map_value) },
	{ "path", ENUM(path, pa_p2p_path_name, pa_p2p_path_value) },
	{ "host_rule", ENUM(host_rule, pa_p2p_host_rule_name,
			    pa_p2p_host_rule_value) },
	{ "common", .kind = PA_S_BDF, AT(common), HAS(has_common) },
	{ "hops_a", .kind = PA_S_BDF_LIST, AT(hops_provider) },
	{ "hops_b", .kind = PA_S_BDF_LIST, AT(hops_client) },
	{ "redirect", .kind = PA_S_BDF_LIST, AT(redirect) },
	{ "directions", .kind = PA_S_DERIVED, .write = directions },
	{ "legend", .kind = PA_S_DERIVED, .write = legend },
	{ "bottleneck", .kind = PA_S_DERIVED, .write = bottleneck },
	{ "bandwidth_trap", .kind = PA_S_DERIVED, .write = bandwidth_trap },
};

static const struct pa_schema pa_p2p_pair_schema = {
	pair_fields, sizeof(pair_fields) / sizeof(pair_fields[0])
};

json_object *pa_p2p_pair_json(const struct pa_report *rep,
			      const struct pa_p2p_pair *pair)
{
	struct view v = { .rep = rep, .pair = pair };

	pa_path_bottleneck(rep, pair, &v.bottleneck);
	return pa_schema_write(&pa_p2p_pair_schema, pair, &v);
}

int pa_p2p_pair_put(FILE *f, const struct pa_report *rep,
		    const struct pa_p2p_pair *pair)
{
	struct view v = { .rep = rep, .pair = pair };

	pa_path_bottleneck(rep, pair, &v.bottleneck);
	return pa_schema_put(f, &pa_p2p_pair_schema, pair, &v);
}

int pa_p2p_pair_read(struct pa_json_in *in, json_object *obj,
		     const char *path, struct pa_p2p_pair *pair)
{
	int err = pa_schema_read(in, &pa_p2p_pair_schema, obj, path, pair, pair);

	/* Older snapshots: the same comparison the module makes. */
	if (!err && (!pair->agreement || !pair->has_kernel_distance))
		pair->agreement = pa_p2p_agreement_of(pair);
	return err;
}
