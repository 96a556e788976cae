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
#include "aer_json.h"
#include "bdf.h"
#include "dev_caps.h"
#include "fabric_json.h"
#include "link.h"
#include "link_history.h"
#include "p2p_path.h"
#include "topo.h"

/* json-c stores a NULL value as JSON null, which the schema uses for every
 * absent value. Every key here is a literal or a static name, and each
 * object gets each key once: json-c need neither copy nor look it up
 * (that was a fifth of the JSON's cost at 1000+ functions). */
static void add(json_object *obj, const char *key, json_object *value)
{
	json_object_object_add_ex(obj, key, value,
				  JSON_C_OBJECT_ADD_KEY_IS_NEW |
				  JSON_C_OBJECT_ADD_CONSTANT_KEY);
}

static json_object *string_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static json_object *uint_value(uint32_t v)
{
	return json_object_new_int64(v);
}

static json_object *bdf_value(const struct pa_addr *addr)
{
	char buf[PA_BDF_LEN];

	pa_bdf_format(addr, buf);
	return json_object_new_string(buf);
}

static json_object *speed_or_null(double gts)
{
	return gts > 0 ? json_object_new_double(gts) : NULL;
}

static json_object *features_object(uint32_t features)
{
	json_object *obj = json_object_new_object();

	for (size_t i = 0; i < PA_NFEATURES; i++)
		add(obj, pa_feature_names[i].name,
		    json_object_new_boolean((features & pa_feature_names[i].bit) != 0));
	return obj;
}

static json_object *info_object(const struct pa_info *info)
{
	json_object *obj = json_object_new_object();

	add(obj, "module_version", string_or_null(info->module_version));
	add(obj, "kernel_release", string_or_null(info->kernel_release));
	add(obj, "p2p_rules", string_or_null(info->p2p_rules));
	add(obj, "features", features_object(info->features));
	add(obj, "iommu_default_mode",
	    string_or_null(pa_iommu_mode_name(info->iommu_def_mode)));
	add(obj, "iommu_strict",
	    string_or_null(pa_iommu_strict_name(info->iommu_strict)));
	add(obj, "device_count", uint_value(info->device_count));
	add(obj, "group_count", uint_value(info->group_count));
	return obj;
}

static json_object *acs_flags_object(uint16_t reg)
{
	json_object *obj = json_object_new_object();

	for (unsigned int bit = 0; bit < PA_ACS_NFLAGS; bit++)
		add(obj, pa_acs_flag_names[bit],
		    json_object_new_boolean(pa_acs_flag(reg, bit)));
	return obj;
}

static json_object *acs_object(const struct pa_acs *acs)
{
	json_object *obj = json_object_new_object();

	add(obj, "pos", uint_value(acs->pos));
	add(obj, "cap", uint_value(acs->cap));
	add(obj, "ctrl", uint_value(acs->ctrl));
	add(obj, "cap_flags", acs_flags_object(acs->cap));
	add(obj, "ctrl_flags", acs_flags_object(acs->ctrl));
	add(obj, "ctrl_at_load", acs->has_ctrl_at_load ?
	    uint_value(acs->ctrl_at_load) : NULL);
	return obj;
}

static json_object *link_object(const struct pa_device *dev)
{
	const struct pa_link *link = &dev->link;
	json_object *obj = json_object_new_object();
	struct pa_link_state st;

	pa_device_link_state(dev, &st);
	add(obj, "speed", speed_or_null(st.speed));
	add(obj, "width", uint_value(st.width));
	add(obj, "max_speed", speed_or_null(st.max_speed));
	add(obj, "max_width", uint_value(st.max_width));
	add(obj, "target_speed", speed_or_null(st.target_speed));
	add(obj, "downgraded", json_object_new_boolean(st.downgraded));
	add(obj, "lnkcap", uint_value(link->lnkcap));
	add(obj, "lnksta", uint_value(link->lnksta));
	add(obj, "lnkctl2", link->has_lnkctl2 ? uint_value(link->lnkctl2) : NULL);
	return obj;
}

static json_object *iommu_object(const struct pa_iommu *iommu)
{
	json_object *obj = json_object_new_object();

	add(obj, "group", uint_value(iommu->group));
	add(obj, "default_domain",
	    string_or_null(pa_domain_type_name(iommu->def_domain)));
	add(obj, "default_domain_source",
	    string_or_null(pa_source_name(iommu->def_domain_source)));
	add(obj, "domain", string_or_null(pa_domain_type_name(iommu->domain)));
	add(obj, "instance", string_or_null(iommu->instance));
	add(obj, "dma_owner", string_or_null(pa_dma_owner_name(iommu->dma_owner)));
	return obj;
}

static json_object *flag_value(const struct pa_device *dev, uint32_t flag)
{
	return json_object_new_boolean((dev->flags & flag) != 0);
}

static void add_identity(json_object *obj, const struct pa_device *dev)
{
	add(obj, "bdf", bdf_value(&dev->addr));
	add(obj, "domain", uint_value(dev->addr.domain));
	add(obj, "bus", uint_value(dev->addr.bus));
	add(obj, "devfn", uint_value(dev->addr.devfn));
	add(obj, "vendor", uint_value(dev->vendor));
	add(obj, "device", uint_value(dev->device));
	add(obj, "subsystem_vendor", uint_value(dev->subsys_vendor));
	add(obj, "subsystem_device", uint_value(dev->subsys_device));
	add(obj, "class", uint_value(dev->class));
	add(obj, "revision", uint_value(dev->revision));
	add(obj, "vendor_name", string_or_null(dev->vendor_name));
	add(obj, "device_name", string_or_null(dev->device_name));
	add(obj, "pcie_type", string_or_null(pa_pcie_type_name(dev->pcie_type)));
}

static void add_topology(json_object *obj, const struct pa_device *dev)
{
	add(obj, "multifunction", flag_value(dev, PCIEAUDIT_DEV_F_MULTIFUNCTION));
	add(obj, "virtfn", flag_value(dev, PCIEAUDIT_DEV_F_VIRTFN));
	add(obj, "physfn", flag_value(dev, PCIEAUDIT_DEV_F_PHYSFN));
	add(obj, "bridge", flag_value(dev, PCIEAUDIT_DEV_F_BRIDGE));
	add(obj, "disconnected", flag_value(dev, PCIEAUDIT_DEV_F_DISCONNECTED));
	add(obj, "pf", dev->has_pf ? bdf_value(&dev->pf) : NULL);
	add(obj, "secondary_bus",
	    dev->has_secondary_bus ? uint_value(dev->secondary_bus) : NULL);
	add(obj, "upstream", dev->has_upstream ? bdf_value(&dev->upstream) : NULL);
	add(obj, "numa_node", json_object_new_int(dev->numa_node));
	add(obj, "driver", string_or_null(dev->driver));
}

static json_object *tristate_value(enum pa_tristate t)
{
	return t == PA_UNKNOWN ? NULL : json_object_new_boolean(t == PA_YES);
}

static json_object *bytes_or_null(uint64_t bytes)
{
	return bytes ? json_object_new_int64((int64_t)bytes) : NULL;
}

/* null when unknown; capable false when the function has no ATS. */
static json_object *ats_object(const struct pa_device *dev)
{
	json_object *obj;

	if (pa_ats_capable(dev) == PA_UNKNOWN)
		return NULL;
	obj = json_object_new_object();
	add(obj, "capable", tristate_value(pa_ats_capable(dev)));
	add(obj, "enabled", tristate_value(pa_ats_enabled(dev)));
	return obj;
}

static json_object *pcie_device_object(const struct pa_device *dev)
{
	json_object *obj;

	if (pa_relaxed_ordering(dev) == PA_UNKNOWN)
		return NULL;
	obj = json_object_new_object();
	add(obj, "mps", bytes_or_null(pa_mps_bytes(dev)));
	add(obj, "mps_supported", bytes_or_null(pa_mps_supported_bytes(dev)));
	add(obj, "mrrs", bytes_or_null(pa_mrrs_bytes(dev)));
	add(obj, "relaxed_ordering", tristate_value(pa_relaxed_ordering(dev)));
	return obj;
}

static json_object *rebar_object(const struct pa_bar *b)
{
	json_object *obj = json_object_new_object();
	json_object *sizes = json_object_new_array();
	uint64_t sup[28];
	size_t n = pa_rebar_supported(b, sup, 28);

	for (size_t i = 0; i < n; i++)
		json_object_array_add(sizes, json_object_new_int64((int64_t)sup[i]));
	add(obj, "current", bytes_or_null(pa_rebar_current(b)));
	add(obj, "supported", sizes);
	return obj;
}

/* null when the source does not give BARs; [] when there are none. */
static json_object *bars_array(const struct pa_device *dev)
{
	json_object *arr;

	if (!dev->caps_known || dev->bars_unknown)
		return NULL;
	arr = json_object_new_array();
	for (size_t i = 0; i < dev->nbars; i++) {
		const struct pa_bar *b = &dev->bars[i];
		json_object *obj = json_object_new_object();

		add(obj, "index", uint_value(b->index));
		add(obj, "size", json_object_new_int64((int64_t)b->size));
		add(obj, "type", json_object_new_string(
			b->flags & PCIEAUDIT_BAR_F_IO ? "io" : "mem"));
		add(obj, "prefetchable", json_object_new_boolean(
			b->flags & PCIEAUDIT_BAR_F_PREFETCH));
		add(obj, "mem64", json_object_new_boolean(
			b->flags & PCIEAUDIT_BAR_F_MEM64));
		add(obj, "assigned", json_object_new_boolean(
			!(b->flags & PCIEAUDIT_BAR_F_UNASSIGNED)));
		add(obj, "resizable", b->resizable ? rebar_object(b) : NULL);
		json_object_array_add(arr, obj);
	}
	return arr;
}

static json_object *device_object(const struct pa_device *dev)
{
	json_object *obj = json_object_new_object();

	add_identity(obj, dev);
	add_topology(obj, dev);
	add(obj, "power_state",
	    string_or_null(pa_power_state_name(dev->power_state)));
	/* When false, acs and link are null because they are unknown. */
	add(obj, "config_readable",
	    json_object_new_boolean(!dev->config_unreadable));
	/* When false, acs null is unknown: the input lacked extended space. */
	add(obj, "extended_config_read",
	    json_object_new_boolean(!dev->no_extended_config));
	add(obj, "acs", dev->has_acs ? acs_object(&dev->acs) : NULL);
	add(obj, "link", dev->has_link ? link_object(dev) : NULL);
	add(obj, "iommu", dev->has_iommu ? iommu_object(&dev->iommu) : NULL);
	add(obj, "ats", ats_object(dev));
	add(obj, "pcie_device", pcie_device_object(dev));
	add(obj, "bars", bars_array(dev));
	/* From NVML or KFD where a caller set it; null: unknown. */
	add(obj, "mem_bytes", bytes_or_null(dev->mem_bytes));
	add(obj, "aer", pa_aer_json(&dev->aer));
	add(obj, "link_history",
	    dev->has_history ? pa_history_json(&dev->history) : NULL);
	return obj;
}

static json_object *group_object(const struct pa_group *group)
{
	json_object *obj = json_object_new_object();
	json_object *members = json_object_new_array();

	for (size_t i = 0; i < group->nmembers; i++)
		json_object_array_add(members, bdf_value(&group->members[i]));
	add(obj, "id", uint_value(group->id));
	add(obj, "devices", members);
	add(obj, "other_members", uint_value(group->other_members));
	return obj;
}

static json_object *devices_array(const struct pa_report *rep)
{
	json_object *array = json_object_new_array();

	for (size_t i = 0; i < rep->ndevices; i++)
		json_object_array_add(array, device_object(&rep->devices[i]));
	return array;
}

static json_object *groups_array(const struct pa_report *rep)
{
	json_object *array = json_object_new_array();

	for (size_t i = 0; i < rep->ngroups; i++)
		json_object_array_add(array, group_object(&rep->groups[i]));
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
	add(obj, "gbps", gbps_value(b->gbps));
	add(obj, "link", bdf_value(&b->link));
	return obj;
}

static void add_verdicts(json_object *obj, const struct pa_report *rep,
			 const struct pa_p2p_pair *pair)
{
	add(obj, "kernel_distance", pair->has_kernel_distance ?
	    json_object_new_int(pair->kernel_distance) : NULL);
	add(obj, "kernel_status",
	    string_or_null(pa_p2p_kernel_status_name(pair->kernel_status)));
	add(obj, "agreement",
	    string_or_null(pa_p2p_agreement_name(pair->agreement)));
	/* Without the kernel's answer, pcieaudit's model is the verdict. */
	add(obj, "modelled_on", pair->has_kernel_distance ? NULL :
	    string_or_null(rep->info.p2p_rules));
	add(obj, "distance", json_object_new_int(pair->distance));
	add(obj, "path_length", uint_value(pair->path_length));
	add(obj, "map", string_or_null(pa_p2p_map_name(pair->map)));
	add(obj, "path", string_or_null(pa_p2p_path_name(pair->path)));
	add(obj, "host_rule",
	    string_or_null(pa_p2p_host_rule_name(pair->host_rule)));
}

static json_object *tlp_fate_object(const struct pa_tlp_fate *t)
{
	json_object *obj = json_object_new_object();

	add(obj, "redirected", tristate_value(t->redirected));
	add(obj, "port", t->redirected == PA_NO ? NULL : bdf_value(&t->port));
	if (t->redirected == PA_YES) {
		json_object *why = json_object_new_array();

		for (unsigned int bit = 0; bit < PA_ACS_NFLAGS; bit++)
			if (pa_acs_flag(t->bits, bit))
				json_object_array_add(why, json_object_new_string(
					pa_acs_flag_names[bit]));
		add(obj, "by", why);
	} else {
		add(obj, "by", NULL);
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
		add(obj, "requester", bdf_value(&d.requester));
		add(obj, "completer", bdf_value(&d.completer));
		add(obj, "request_ports", bdf_array(&d.req_ports));
		add(obj, "completion_ports", bdf_array(&d.cpl_ports));
		add(obj, "requests", tlp_fate_object(&d.tlp[PA_TLP_REQUEST]));
		add(obj, "translated_requests",
		    tlp_fate_object(&d.tlp[PA_TLP_TRANSLATED]));
		add(obj, "completions", tlp_fate_object(&d.tlp[PA_TLP_COMPLETION]));
		add(obj, "requester_ats", tristate_value(d.requester_ats));
		add(obj, "peer_to_peer", tristate_value(d.peer_to_peer));
		add(obj, "by_translation", json_object_new_boolean(d.by_translation));
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
	add(obj, "a", bdf_value(&pair->provider));
	add(obj, "b", bdf_value(&pair->client));
	add_verdicts(obj, rep, pair);
	add(obj, "common", pair->has_common ? bdf_value(&pair->common) : NULL);
	add(obj, "hops_a", bdf_array(&pair->hops_provider));
	add(obj, "hops_b", bdf_array(&pair->hops_client));
	add(obj, "redirect", bdf_array(&pair->redirect));
	add(obj, "directions", directions_array(rep, pair));
	add(obj, "legend", json_object_new_string(
		pa_legend_name(pa_legend_of(rep, pair))));
	add(obj, "bottleneck", bottleneck_object(&b));
	add(obj, "bandwidth_trap", json_object_new_boolean(b.trap));
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

		add(obj, "label", json_object_new_string(topo->devs[i].label));
		add(obj, "bdf", bdf_value(&topo->devs[i].dev->addr));
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

static json_object *int_or_null(int v)
{
	return v >= 0 ? json_object_new_int(v) : NULL;
}

static json_object *host_object(const struct pa_host *host)
{
	json_object *obj = json_object_new_object();

	add(obj, "source", string_or_null(pa_host_source_name(host->source)));
	add(obj, "cmdline", string_or_null(host->cmdline));
	add(obj, "numa_nodes", int_or_null(host->numa_nodes));
	add(obj, "cpu_vendor", string_or_null(host->cpu_vendor));
	add(obj, "cpu_family", int_or_null(host->cpu_family));
	add(obj, "hypervisor", host->hypervisor < 0 ? NULL :
	    json_object_new_boolean(host->hypervisor));
	add(obj, "iommu_table", string_or_null(host->iommu_table));
	return obj;
}

static json_object *document(const struct pa_info *info)
{
	json_object *root = json_object_new_object();

	add(root, "schema_version", json_object_new_int(PA_JSON_SCHEMA_VERSION));
	add(root, "info", info_object(info));
	return root;
}

/* Prints and frees root. */
static int print_document(FILE *f, json_object *root)
{
	const char *text = json_object_to_json_string_ext(root,
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
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

	add(root, "devices", devices_array(rep));
	add(root, "groups", groups_array(rep));
	add(root, "p2p", rep->has_p2p ? p2p_array(rep) : NULL);
	add(root, "host", rep->has_host ? host_object(&rep->host) : NULL);
	if (rep->fabric)
		add(root, "fabric", pa_fabric_json(rep->fabric));
	return print_document(f, root);
}

int pa_json_p2p(FILE *f, const struct pa_report *rep)
{
	json_object *root = document(&rep->info);

	add(root, "p2p", p2p_array(rep));
	if (rep->fabric)
		add(root, "fabric", pa_fabric_json(rep->fabric));
	return print_document(f, root);
}

int pa_json_topo(FILE *f, const struct pa_report *rep,
		 const struct pa_topo *topo)
{
	json_object *root = document(&rep->info);

	add(root, "devices", topo_devices(topo));
	add(root, "matrix", topo_matrix(rep, topo));
	add(root, "p2p", p2p_array(rep));
	if (rep->fabric)
		add(root, "fabric", pa_fabric_json(rep->fabric));
	return print_document(f, root);
}

int pa_json_info(FILE *f, const struct pa_info *info)
{
	return print_document(f, document(info));
}
