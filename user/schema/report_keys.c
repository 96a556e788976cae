// SPDX-License-Identifier: GPL-2.0
/*
 * The report's keys: the schema tables of info, a device (with its acs,
 * link and iommu), a group and the host, in output order, and the few
 * values that need code to convert. A P2P pair's table is in p2p_json.c;
 * ats, pcie_device and bars are in dev_caps_json.c.
 */
#include "report_schema.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <linux/pcieaudit.h>

#include "abi_names.h"
#include "acs.h"
#include "aer_json.h"
#include "bdf.h"
#include "dev_caps_json.h"
#include "link.h"
#include "link_history.h"

/* ---- values that need code ----------------------------------------------- */

static json_object *pcie_type_json(const void *base, const void *top)
{
	const struct pa_device *d = base;
	const char *name = pa_pcie_type_name(d->pcie_type);

	(void)top;
	return name ? json_object_new_string(name) : NULL;
}

static int pcie_type_read(struct pa_json_in *in, const struct pa_schema_field *f,
			  json_object *v, const char *path, void *base, void *top)
{
	struct pa_device *d = base;
	char p[PA_JSON_PATH_LEN];
	const char *s;
	int err;

	(void)top;
	pa_json_path(p, path, f->key);
	err = pa_json_string_value(in, v, p, &s);
	if (err)
		return err;
	d->pcie_type = pa_pcie_type_value(s);
	d->flags |= PCIEAUDIT_DEV_F_PCIE;
	return d->pcie_type < 0 ? pa_json_bad(in, p, "unknown value \"%s\"", s) : 0;
}

static json_object *features_json(const void *base, const void *top)
{
	const struct pa_info *info = base;
	json_object *obj = json_object_new_object();

	(void)top;
	for (size_t i = 0; i < PA_NFEATURES; i++)
		pa_json_add(obj, pa_feature_names[i].name, json_object_new_boolean(
			(info->features & pa_feature_names[i].bit) != 0));
	return obj;
}

static int features_read(struct pa_json_in *in, const struct pa_schema_field *f,
			 json_object *v, const char *path, void *base, void *top)
{
	struct pa_info *info = base;
	char p[PA_JSON_PATH_LEN];
	int err = 0;

	(void)top;
	pa_json_path(p, path, f->key);
	for (size_t i = 0; !err && i < PA_NFEATURES; i++) {
		int on;

		err = pa_json_tribool(in, v, p, pa_feature_names[i].name, &on);
		info->features |= on == 1 ? pa_feature_names[i].bit : 0;
	}
	return err;
}

static json_object *acs_flags_json(uint16_t reg)
{
	json_object *obj = json_object_new_object();

	for (unsigned int bit = 0; bit < PA_ACS_NFLAGS; bit++)
		pa_json_add(obj, pa_acs_flag_names[bit],
			    json_object_new_boolean(pa_acs_flag(reg, bit)));
	return obj;
}

static json_object *acs_cap_flags(const void *base, const void *top)
{
	(void)top;
	return acs_flags_json(((const struct pa_acs *)base)->cap);
}

static json_object *acs_ctrl_flags(const void *base, const void *top)
{
	(void)top;
	return acs_flags_json(((const struct pa_acs *)base)->ctrl);
}

/* The link's state as lspci judges it: the device decides (link.h). */
static struct pa_link_state link_state(const void *top)
{
	struct pa_link_state st;

	pa_device_link_state(top, &st);
	return st;
}

static json_object *speed_or_null(double gts)
{
	return gts > 0 ? json_object_new_double(gts) : NULL;
}

static json_object *link_speed(const void *base, const void *top)
{
	(void)base;
	return speed_or_null(link_state(top).speed);
}

static json_object *link_width(const void *base, const void *top)
{
	(void)base;
	return json_object_new_int64(link_state(top).width);
}

static json_object *link_max_speed(const void *base, const void *top)
{
	(void)base;
	return speed_or_null(link_state(top).max_speed);
}

static json_object *link_max_width(const void *base, const void *top)
{
	(void)base;
	return json_object_new_int64(link_state(top).max_width);
}

static json_object *link_target_speed(const void *base, const void *top)
{
	(void)base;
	return speed_or_null(link_state(top).target_speed);
}

static json_object *link_downgraded(const void *base, const void *top)
{
	(void)base;
	return json_object_new_boolean(link_state(top).downgraded);
}

static json_object *bdf_json(const struct pa_addr *addr)
{
	char buf[PA_BDF_LEN];

	pa_bdf_format(addr, buf);
	return json_object_new_string(buf);
}

static json_object *dev_domain(const void *base, const void *top)
{
	(void)top;
	return json_object_new_int64(((const struct pa_device *)base)->addr.domain);
}

static json_object *dev_bus(const void *base, const void *top)
{
	(void)top;
	return json_object_new_int64(((const struct pa_device *)base)->addr.bus);
}

static json_object *dev_devfn(const void *base, const void *top)
{
	(void)top;
	return json_object_new_int64(((const struct pa_device *)base)->addr.devfn);
}

static json_object *members_json(const void *base, const void *top)
{
	const struct pa_group *g = base;
	json_object *arr = json_object_new_array();

	(void)top;
	for (size_t i = 0; i < g->nmembers; i++)
		json_object_array_add(arr, bdf_json(&g->members[i]));
	return arr;
}

static int members_read(struct pa_json_in *in, const struct pa_schema_field *f,
			json_object *v, const char *path, void *base, void *top)
{
	struct pa_group *g = base;
	struct pa_addr_list list = { 0 };
	char p[PA_JSON_PATH_LEN];
	int err;

	(void)top;
	err = pa_json_bdf_array(in, v, pa_json_path(p, path, f->key), &list);
	g->members = list.addrs;
	g->nmembers = list.n;
	return err;
}

static json_object *aer_write(const void *base, const void *top)
{
	(void)top;
	return pa_aer_json(&((const struct pa_device *)base)->aer);
}

static int aer_read(struct pa_json_in *in, const struct pa_schema_field *f,
		    json_object *v, const char *path, void *base, void *top)
{
	const char *problem = "";

	(void)f;
	(void)top;
	if (pa_aer_json_parse(v, &((struct pa_device *)base)->aer, &problem))
		return pa_json_bad(in, path, "%s", problem);
	return 0;
}

/* ---- the link history: times to the millisecond, speeds in GT/s -------- */

static json_object *time_json(uint64_t ns)
{
	char buf[PA_TIME_LEN];

	pa_format_time_ns(ns, buf);
	return json_object_new_string(buf);
}

static int time_read(struct pa_json_in *in, const struct pa_schema_field *f,
		     json_object *v, const char *path, uint64_t *ns)
{
	char p[PA_JSON_PATH_LEN];
	const char *s;
	int err;

	pa_json_path(p, path, f->key);
	err = pa_json_string_value(in, v, p, &s);
	if (!err && pa_parse_time_ns(s, ns))
		err = pa_json_bad(in, p, "\"%s\" is not a time as YYYY-MM-DDTHH:MM:SS.mmmZ", s);
	return err;
}

static json_object *since_json(const void *base, const void *top)
{
	(void)top;
	return time_json(((const struct pa_link_history *)base)->since_ns);
}

static int since_read(struct pa_json_in *in, const struct pa_schema_field *f,
		      json_object *v, const char *path, void *base, void *top)
{
	(void)top;
	return time_read(in, f, v, path, &((struct pa_link_history *)base)->since_ns);
}

static json_object *last_change_json(const void *base, const void *top)
{
	const struct pa_link_history *h = base;

	(void)top;
	return h->last_change_ns ? time_json(h->last_change_ns) : NULL;
}

static int last_change_read(struct pa_json_in *in, const struct pa_schema_field *f,
			    json_object *v, const char *path, void *base, void *top)
{
	(void)top;
	return time_read(in, f, v, path,
			 &((struct pa_link_history *)base)->last_change_ns);
}

/* A duration in ns, as seconds. */
static int seconds_read(struct pa_json_in *in, const struct pa_schema_field *f,
			json_object *v, const char *path, uint64_t *ns)
{
	char p[PA_JSON_PATH_LEN];
	double secs;

	pa_json_path(p, path, f->key);
	if (!json_object_is_type(v, json_type_double) &&
	    !json_object_is_type(v, json_type_int))
		return pa_json_bad(in, p, "expected a number, found %s",
				   pa_json_type_name(v));
	secs = json_object_get_double(v);
	if (!(secs >= 0 && secs < 1.8e10))	/* NaN too; 570 years */
		return pa_json_bad(in, p, "%s out of range", json_object_to_json_string(v));
	*ns = (uint64_t)(secs * 1e9 + 0.5);
	return 0;
}

static json_object *below_json(const void *base, const void *top)
{
	(void)top;
	return json_object_new_double(
		(double)((const struct pa_link_history *)base)->below_ns / 1e9);
}

static int below_read(struct pa_json_in *in, const struct pa_schema_field *f,
		      json_object *v, const char *path, void *base, void *top)
{
	(void)top;
	return seconds_read(in, f, v, path,
			    &((struct pa_link_history *)base)->below_ns);
}

static json_object *unsampled_json(const void *base, const void *top)
{
	(void)top;
	return json_object_new_double(
		(double)((const struct pa_link_history *)base)->unsampled_ns / 1e9);
}

static int unsampled_read(struct pa_json_in *in, const struct pa_schema_field *f,
			  json_object *v, const char *path, void *base, void *top)
{
	(void)top;
	return seconds_read(in, f, v, path,
			    &((struct pa_link_history *)base)->unsampled_ns);
}

static json_object *slowest_json(const void *base, const void *top)
{
	double gts = pa_link_speed_gts(((const struct pa_link_history *)base)->min_speed);

	(void)top;
	return gts > 0 ? json_object_new_double(gts) : NULL;
}

static int slowest_read(struct pa_json_in *in, const struct pa_schema_field *f,
			json_object *v, const char *path, void *base, void *top)
{
	struct pa_link_history *h = base;
	char p[PA_JSON_PATH_LEN];

	(void)top;
	pa_json_path(p, path, f->key);
	h->min_speed = json_object_is_type(v, json_type_double) ||
		       json_object_is_type(v, json_type_int) ?
		       pa_link_speed_code(json_object_get_double(v)) : 0;
	if (!h->min_speed)
		return pa_json_bad(in, p, "%s is not a PCIe link speed in GT/s",
				   json_object_to_json_string(v));
	return 0;
}

/* ---- the tables ---------------------------------------------------------- */

#define AT(type, field) .off = offsetof(type, field)
#define HAS(type, field) .has = offsetof(type, field) + 1
#define U(type, field, lo, hi) .kind = PA_S_UINT, AT(type, field), \
	.size = sizeof(((type *)0)->field), .min = (lo), .max = (hi)
#define ENUM(type, field, n, v) .kind = PA_S_ENUM, AT(type, field), \
	.name = (n), .value = (v)
#define STR(type, field) .kind = PA_S_STRING, AT(type, field)
#define NUM(n) (sizeof(n) / sizeof((n)[0]))

/* group_count is null where the source cannot see IOMMU groups (an lspci
 * dump, a sysfs copy without kernel/iommu_groups): unknown, not 0. */
static bool groups_known(const void *base)
{
	return !((const struct pa_info *)base)->iommu_unknown;
}

static void groups_found(void *base)
{
	((struct pa_info *)base)->iommu_unknown = false;
}

static const struct pa_schema_field info_fields[] = {
	{ "module_version", STR(struct pa_info, module_version) },
	{ "kernel_release", STR(struct pa_info, kernel_release) },
	{ "p2p_rules", STR(struct pa_info, p2p_rules) },
	{ "features", .kind = PA_S_CUSTOM, .write = features_json,
	  .read = features_read, .type = json_type_object },
	{ "iommu_default_mode", ENUM(struct pa_info, iommu_def_mode,
				    pa_iommu_mode_name, pa_iommu_mode_value) },
	{ "iommu_strict", ENUM(struct pa_info, iommu_strict,
			       pa_iommu_strict_name, pa_iommu_strict_value) },
	{ "device_count", U(struct pa_info, device_count, 0, UINT32_MAX) },
	{ "group_count", U(struct pa_info, group_count, 0, UINT32_MAX),
	  .present = groups_known, .found = groups_found },
};

const struct pa_schema pa_info_schema = { info_fields, NUM(info_fields) };

static const struct pa_schema_field acs_fields[] = {
	{ "pos", U(struct pa_acs, pos, 0, 0xfff) },
	{ "cap", U(struct pa_acs, cap, 0, 0xffff), .required = true },
	{ "ctrl", U(struct pa_acs, ctrl, 0, 0xffff), .required = true },
	{ "cap_flags", .kind = PA_S_DERIVED, .write = acs_cap_flags },
	{ "ctrl_flags", .kind = PA_S_DERIVED, .write = acs_ctrl_flags },
	/* ACS control when the module loaded: older modules, sysfs: null. */
	{ "ctrl_at_load", U(struct pa_acs, ctrl_at_load, 0, 0xffff),
	  HAS(struct pa_acs, has_ctrl_at_load) },
};

static const struct pa_schema acs_schema = { acs_fields, NUM(acs_fields) };

static const struct pa_schema_field link_fields[] = {
	{ "speed", .kind = PA_S_DERIVED, .write = link_speed },
	{ "width", .kind = PA_S_DERIVED, .write = link_width },
	{ "max_speed", .kind = PA_S_DERIVED, .write = link_max_speed },
	{ "max_width", .kind = PA_S_DERIVED, .write = link_max_width },
	{ "target_speed", .kind = PA_S_DERIVED, .write = link_target_speed },
	{ "downgraded", .kind = PA_S_DERIVED, .write = link_downgraded },
	{ "lnkcap", U(struct pa_link, lnkcap, 0, UINT32_MAX), .required = true },
	{ "lnksta", U(struct pa_link, lnksta, 0, 0xffff), .required = true },
	{ "lnkctl2", U(struct pa_link, lnkctl2, 0, 0xffff),
	  HAS(struct pa_link, has_lnkctl2) },
};

static const struct pa_schema link_schema = { link_fields, NUM(link_fields) };

static const struct pa_schema_field iommu_fields[] = {
	{ "group", U(struct pa_iommu, group, 0, UINT32_MAX), .required = true },
	{ "default_domain", ENUM(struct pa_iommu, def_domain,
				pa_domain_type_name, pa_domain_type_value) },
	{ "default_domain_source", ENUM(struct pa_iommu, def_domain_source,
				       pa_source_name, pa_source_value) },
	{ "domain", ENUM(struct pa_iommu, domain, pa_domain_type_name,
			 pa_domain_type_value) },
	{ "instance", STR(struct pa_iommu, instance) },
	{ "dma_owner", ENUM(struct pa_iommu, dma_owner, pa_dma_owner_name,
			    pa_dma_owner_value) },
};

static const struct pa_schema iommu_schema = { iommu_fields, NUM(iommu_fields) };

#define HIST struct pa_link_history

static const struct pa_schema_field history_fields[] = {
	{ "since", .kind = PA_S_CUSTOM, .write = since_json, .read = since_read,
	  .type = json_type_string, .required = true },
	{ "transitions", U(HIST, transitions, 0, INT64_MAX) },
	{ "below_capability_seconds", .kind = PA_S_CUSTOM, .write = below_json,
	  .read = below_read },
	/* The slowest and narrowest the link was seen up at: null, never. */
	{ "slowest_gts", .kind = PA_S_CUSTOM, .write = slowest_json,
	  .read = slowest_read, HAS(HIST, has_min) },
	{ "narrowest_width", U(HIST, min_width, 0, 32), HAS(HIST, has_min) },
	{ "last_change", .kind = PA_S_CUSTOM, .write = last_change_json,
	  .read = last_change_read, .type = json_type_string },
	{ "interval_ms", U(HIST, interval_ms, 0, UINT32_MAX) },
	/* Older snapshots have neither: 0 s, and read at the last sample. */
	{ "unsampled_seconds", .kind = PA_S_CUSTOM, .write = unsampled_json,
	  .read = unsampled_read },
	/* Why the latest sample did not read the link; null when it did. */
	{ "not_sampled", ENUM(HIST, skip, pa_hist_skip_name, pa_hist_skip_value) },
};

static const struct pa_schema history_schema = {
	history_fields, NUM(history_fields)
};

#define PT struct pa_passthru
#define TRI(type, field) .kind = PA_S_TRIBOOL, AT(type, field)

/* The SR-IOV capability's registers and sysfs's view of the VFs. */
static const struct pa_schema_field sriov_fields[] = {
	{ "total_vfs", U(PT, total_vfs, 0, 0xffff), .required = true },
	{ "initial_vfs", U(PT, initial_vfs, 0, 0xffff) },
	{ "num_vfs", U(PT, num_vfs, 0, 0xffff) },
	{ "vf_offset", U(PT, vf_offset, 0, 0xffff) },
	{ "vf_stride", U(PT, vf_stride, 0, 0xffff) },
	/* sysfs sriov_numvfs; null when not read */
	{ "sysfs_num_vfs", .kind = PA_S_INT_OR_NULL, AT(PT, sysfs_num_vfs),
	  .min = -1, .max = 0xffff },
	/* false: a VF BAR got no address space; null: unknown */
	{ "vf_bars_assigned", TRI(PT, vf_bars_assigned) },
	{ "vf_bars_sized", U(PT, vf_bar_sizes_mask, 0, 0x3f) },
};

static const struct pa_schema sriov_schema = { sriov_fields, NUM(sriov_fields) };

static const struct pa_schema_field passthru_fields[] = {
	/* sysfs reset_method (5.15+), "" for none; null: not there */
	{ "reset_method", STR(PT, reset_method) },
	/* sysfs reset exists; null: unknown */
	{ "reset_file", TRI(PT, reset_file) },
	{ "pm_no_soft_reset", TRI(PT, no_soft_reset) },
	{ "af_flr", TRI(PT, af_flr) },
	{ "devcap2", U(PT, devcap2, 0, UINT32_MAX), HAS(PT, has_devcap2) },
	{ "devctl2", U(PT, devctl2, 0, 0xffff), HAS(PT, has_devcap2) },
	{ "sriov", .kind = PA_S_OBJECT, .off = 0, HAS(PT, has_sriov),
	  .sub = &sriov_schema },
};

static const struct pa_schema passthru_schema = {
	passthru_fields, NUM(passthru_fields)
};

#define DEV struct pa_device
#define FLAG(f) .kind = PA_S_FLAG, AT(DEV, flags), .flag = (f)

static const struct pa_schema_field device_fields[] = {
	{ "bdf", .kind = PA_S_BDF, AT(DEV, addr), .required = true },
	/* The bdf's parts, for scripts; the bdf is what is read. */
	{ "domain", .kind = PA_S_DERIVED, .write = dev_domain },
	{ "bus", .kind = PA_S_DERIVED, .write = dev_bus },
	{ "devfn", .kind = PA_S_DERIVED, .write = dev_devfn },
	{ "vendor", U(DEV, vendor, 0, 0xffff), .required = true },
	{ "device", U(DEV, device, 0, 0xffff), .required = true },
	{ "subsystem_vendor", U(DEV, subsys_vendor, 0, 0xffff) },
	{ "subsystem_device", U(DEV, subsys_device, 0, 0xffff) },
	{ "class", U(DEV, class, 0, 0xffffff), .required = true },
	{ "revision", U(DEV, revision, 0, 0xff) },
	{ "vendor_name", STR(DEV, vendor_name) },
	{ "device_name", STR(DEV, device_name) },
	{ "pcie_type", .kind = PA_S_CUSTOM, .write = pcie_type_json,
	  .read = pcie_type_read, .type = json_type_string },
	{ "multifunction", FLAG(PCIEAUDIT_DEV_F_MULTIFUNCTION) },
	{ "virtfn", FLAG(PCIEAUDIT_DEV_F_VIRTFN) },
	{ "physfn", FLAG(PCIEAUDIT_DEV_F_PHYSFN) },
	{ "bridge", FLAG(PCIEAUDIT_DEV_F_BRIDGE) },
	{ "disconnected", FLAG(PCIEAUDIT_DEV_F_DISCONNECTED) },
	{ "pf", .kind = PA_S_BDF, AT(DEV, pf), HAS(DEV, has_pf) },
	{ "secondary_bus", U(DEV, secondary_bus, 0, 0xff),
	  HAS(DEV, has_secondary_bus) },
	{ "upstream", .kind = PA_S_BDF, AT(DEV, upstream), HAS(DEV, has_upstream) },
	/* The host bridge's root bus where the source names it (sysfs's
	 * pciDDDD:BB), even with bridges missing between. */
	{ "root_bus", .kind = PA_S_BUS, AT(DEV, root_bus), HAS(DEV, has_root_bus) },
	/* null when unknown (-1: the source gave none, or the kernel's
	 * NUMA_NO_NODE); older writers' -1 reads the same. */
	{ "numa_node", .kind = PA_S_INT_OR_NULL, AT(DEV, numa_node), .min = -1,
	  .max = 65535 },
	{ "driver", STR(DEV, driver) },
	/* false: the input cannot tell (lspci without -v); driver is then
	 * null as unknown, not as unbound. */
	{ "driver_known", .kind = PA_S_NOT_BOOL, AT(DEV, driver_unknown) },
	{ "power_state", ENUM(DEV, power_state, pa_power_state_name,
			      pa_power_state_value) },
	/* false: configuration space read all ones (D3cold, or gone): acs
	 * and link are then null as unknown. */
	{ "config_readable", .kind = PA_S_NOT_BOOL, AT(DEV, config_unreadable) },
	/* false: a bridge lspci -t drew that the capture lacks; only its
	 * address and bus range are known (config_readable is false too). */
	{ "config_captured", .kind = PA_S_NOT_BOOL, AT(DEV, config_not_captured) },
	/* false: a PCIe function without its extended space (lspci -xxx):
	 * acs null is then unknown. */
	{ "extended_config_read", .kind = PA_S_NOT_BOOL,
	  AT(DEV, no_extended_config) },
	/* null, or why lspci text left the capabilities unknown:
	 * "not_printed" (lspci -v), "access_denied" (not root). */
	{ "capabilities_hidden", ENUM(DEV, caps_unknown, pa_caps_hidden_name,
				      pa_caps_hidden_value) },
	{ "acs", .kind = PA_S_OBJECT, AT(DEV, acs), HAS(DEV, has_acs),
	  .sub = &acs_schema },
	{ "link", .kind = PA_S_OBJECT, AT(DEV, link), HAS(DEV, has_link),
	  .sub = &link_schema },
	{ "iommu", .kind = PA_S_OBJECT, AT(DEV, iommu), HAS(DEV, has_iommu),
	  .sub = &iommu_schema },
	/* ATS, Device Capabilities and Control, BARs: null when the source
	 * does not say (caps_known, bars_unknown). bars after the other two:
	 * its found() undoes what theirs assume. */
	{ "ats", .kind = PA_S_OBJECT, .sub = &pa_ats_schema,
	  .present = pa_ats_known, .found = pa_caps_found },
	{ "pcie_device", .kind = PA_S_OBJECT, .sub = &pa_pcie_device_schema,
	  .present = pa_pcie_device_known, .found = pa_pcie_device_found },
	{ "bars", .kind = PA_S_ARRAY, AT(DEV, bars), .count = offsetof(DEV, nbars),
	  .elem = sizeof(struct pa_bar), .max = PA_MAX_BARS,
	  .sub = &pa_bar_schema, .present = pa_bars_known,
	  .found = pa_bars_found },
	/* Reset, SR-IOV and DevCap2 for VFIO; null: not read. */
	{ "passthrough", .kind = PA_S_OBJECT, AT(DEV, pt), HAS(DEV, pt.known),
	  .sub = &passthru_schema },
	/* From NVML or KFD where a caller set it; null: unknown. */
	{ "mem_bytes", .kind = PA_S_NONZERO, AT(DEV, mem_bytes), .min = 1,
	  .max = INT64_MAX },
	{ "aer", .kind = PA_S_CUSTOM, .write = aer_write, .read = aer_read },
	/* The module's sampler since it began tracking the function. */
	{ "link_history", .kind = PA_S_OBJECT, AT(DEV, history),
	  HAS(DEV, has_history), .sub = &history_schema },
};

const struct pa_schema pa_device_schema = { device_fields, NUM(device_fields) };

static const struct pa_schema_field group_fields[] = {
	{ "id", U(struct pa_group, id, 0, UINT32_MAX), .required = true },
	{ "devices", .kind = PA_S_CUSTOM, .write = members_json,
	  .read = members_read, .type = json_type_array, .required = true },
	{ "other_members", U(struct pa_group, other_members, 0, UINT32_MAX) },
};

const struct pa_schema pa_group_schema = { group_fields, NUM(group_fields) };

#define HOST struct pa_host

static const char *intremap_name(uint32_t v)
{
	return v == PA_INTREMAP_ON ? "on" : v == PA_INTREMAP_OFF ? "off" : NULL;
}

static uint32_t intremap_value(const char *name)
{
	return !strcmp(name, "on") ? PA_INTREMAP_ON :
	       !strcmp(name, "off") ? PA_INTREMAP_OFF : PA_INTREMAP_UNKNOWN;
}

static const struct pa_schema_field host_fields[] = {
	{ "source", ENUM(HOST, source, pa_host_source_name, pa_host_source_value) },
	{ "cmdline", STR(HOST, cmdline) },
	{ "numa_nodes", .kind = PA_S_INT_OR_NULL, AT(HOST, numa_nodes), .min = 1,
	  .max = 65536 },
	{ "cpu_vendor", STR(HOST, cpu_vendor) },
	{ "cpu_family", .kind = PA_S_INT_OR_NULL, AT(HOST, cpu_family), .min = 0,
	  .max = 65535 },
	{ "hypervisor", .kind = PA_S_TRIBOOL, AT(HOST, hypervisor) },
	{ "iommu_table", STR(HOST, iommu_table) },
	{ "interrupt_remapping", ENUM(HOST, intremap, intremap_name,
				      intremap_value) },
	/* The /proc/interrupts chip or kernel log line that says so. */
	{ "interrupt_remapping_source", STR(HOST, intremap_how) },
	{ "allow_unsafe_interrupts", ENUM(HOST, allow_unsafe, intremap_name,
					  intremap_value) },
	{ "vfio_pci_ids", STR(HOST, vfio_pci_ids) },
};

const struct pa_schema pa_host_schema = { host_fields, NUM(host_fields) };
