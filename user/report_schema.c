// SPDX-License-Identifier: GPL-2.0
#include "report_schema.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>

#include "abi_names.h"
#include "acs.h"
#include "aer_json.h"
#include "bdf.h"
#include "dev_caps_json.h"
#include "link.h"
#include "link_history.h"

void pa_json_add(json_object *obj, const char *key, json_object *value)
{
	json_object_object_add_ex(obj, key, value,
				  JSON_C_OBJECT_ADD_KEY_IS_NEW |
				  JSON_C_OBJECT_ADD_CONSTANT_KEY);
}

/* ---- values the tables cannot say: written from the model -------------- */

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
	if (!json_object_is_type(v, json_type_object))
		return pa_json_bad(in, p, "expected object, found %s",
				   pa_json_type_name(v));
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
	json_object *holder = json_object_new_object();
	int err;

	(void)top;
	if (!holder)
		return -ENOMEM;
	/* The list reader wants the member: lend v to a one-key object. */
	json_object_object_add(holder, f->key, json_object_get(v));
	err = pa_json_bdf_list(in, holder, path, f->key, true, &list);
	json_object_put(holder);
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

static json_object *history_write(const void *base, const void *top)
{
	const struct pa_device *d = base;

	(void)top;
	return d->has_history ? pa_history_json(&d->history) : NULL;
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

static const struct pa_schema_field info_fields[] = {
	{ "module_version", STR(struct pa_info, module_version) },
	{ "kernel_release", STR(struct pa_info, kernel_release) },
	{ "p2p_rules", STR(struct pa_info, p2p_rules) },
	{ "features", .kind = PA_S_CUSTOM, .write = features_json,
	  .read = features_read },
	{ "iommu_default_mode", ENUM(struct pa_info, iommu_def_mode,
				    pa_iommu_mode_name, pa_iommu_mode_value) },
	{ "iommu_strict", ENUM(struct pa_info, iommu_strict,
			       pa_iommu_strict_name, pa_iommu_strict_value) },
	{ "device_count", U(struct pa_info, device_count, 0, UINT32_MAX) },
	{ "group_count", U(struct pa_info, group_count, 0, UINT32_MAX) },
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
	  .read = pcie_type_read },
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
	{ "numa_node", .kind = PA_S_INT, AT(DEV, numa_node), .min = -1,
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
	/* false: a PCIe function without its extended space (lspci -xxx):
	 * acs null is then unknown. */
	{ "extended_config_read", .kind = PA_S_NOT_BOOL,
	  AT(DEV, no_extended_config) },
	{ "acs", .kind = PA_S_OBJECT, AT(DEV, acs), HAS(DEV, has_acs),
	  .sub = &acs_schema },
	{ "link", .kind = PA_S_OBJECT, AT(DEV, link), HAS(DEV, has_link),
	  .sub = &link_schema },
	{ "iommu", .kind = PA_S_OBJECT, AT(DEV, iommu), HAS(DEV, has_iommu),
	  .sub = &iommu_schema },
	{ "ats", .kind = PA_S_CUSTOM, .write = pa_ats_json, .read = pa_ats_read },
	{ "pcie_device", .kind = PA_S_CUSTOM, .write = pa_pcie_device_json,
	  .read = pa_pcie_device_read },
	{ "bars", .kind = PA_S_CUSTOM, .write = pa_bars_json,
	  .read = pa_bars_read },
	/* From NVML or KFD where a caller set it; null: unknown. */
	{ "mem_bytes", .kind = PA_S_NONZERO, AT(DEV, mem_bytes), .min = 1,
	  .max = INT64_MAX },
	{ "aer", .kind = PA_S_CUSTOM, .write = aer_write, .read = aer_read },
	/* The module's sampler; not read back (check has no rule on it). */
	{ "link_history", .kind = PA_S_DERIVED, .write = history_write },
};

const struct pa_schema pa_device_schema = { device_fields, NUM(device_fields) };

static const struct pa_schema_field group_fields[] = {
	{ "id", U(struct pa_group, id, 0, UINT32_MAX), .required = true },
	{ "devices", .kind = PA_S_CUSTOM, .write = members_json,
	  .read = members_read, .required = true },
	{ "other_members", U(struct pa_group, other_members, 0, UINT32_MAX) },
};

const struct pa_schema pa_group_schema = { group_fields, NUM(group_fields) };

#define HOST struct pa_host

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
};

const struct pa_schema pa_host_schema = { host_fields, NUM(host_fields) };

/* ---- writing ------------------------------------------------------------- */

static uint64_t get_uint(const void *p, size_t size)
{
	switch (size) {
	case 1: return *(const uint8_t *)p;
	case 2: return *(const uint16_t *)p;
	case 4: return *(const uint32_t *)p;
	default: return *(const uint64_t *)p;
	}
}

static void set_uint(void *p, size_t size, uint64_t v)
{
	switch (size) {
	case 1: *(uint8_t *)p = (uint8_t)v; break;
	case 2: *(uint16_t *)p = (uint16_t)v; break;
	case 4: *(uint32_t *)p = (uint32_t)v; break;
	default: *(uint64_t *)p = v; break;
	}
}

static json_object *bus_json(const struct pa_addr *a)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%04x:%02x", a->domain, a->bus);
	return json_object_new_string(buf);
}

static json_object *bdf_list_json(const struct pa_addr_list *list)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < list->n; i++)
		json_object_array_add(arr, bdf_json(&list->addrs[i]));
	return arr;
}

static json_object *value_json(const struct pa_schema_field *f,
			       const char *base, const void *top)
{
	const void *p = base + f->off;
	const char *s;
	int i;

	if (f->has && !*(const bool *)(base + f->has - 1))
		return NULL;
	switch (f->kind) {
	case PA_S_UINT:
		return json_object_new_int64((int64_t)get_uint(p, f->size));
	case PA_S_INT:
		return json_object_new_int(*(const int32_t *)p);
	case PA_S_INT_OR_NULL:
		i = *(const int *)p;
		return i >= 0 ? json_object_new_int(i) : NULL;
	case PA_S_TRIBOOL:
		i = *(const int *)p;
		return i >= 0 ? json_object_new_boolean(i) : NULL;
	case PA_S_BOOL:
		return json_object_new_boolean(*(const bool *)p);
	case PA_S_NOT_BOOL:
		return json_object_new_boolean(!*(const bool *)p);
	case PA_S_FLAG:
		return json_object_new_boolean((*(const uint32_t *)p & f->flag) != 0);
	case PA_S_NONZERO:
		return *(const uint64_t *)p ?
			json_object_new_int64((int64_t)*(const uint64_t *)p) : NULL;
	case PA_S_STRING:
		s = *(char *const *)p;
		return s ? json_object_new_string(s) : NULL;
	case PA_S_BDF:
		return bdf_json(p);
	case PA_S_BUS:
		return bus_json(p);
	case PA_S_BDF_LIST:
		return bdf_list_json(p);
	case PA_S_ENUM:
		s = f->name(*(const uint32_t *)p);
		return s ? json_object_new_string(s) : NULL;
	case PA_S_OBJECT:
		return pa_schema_write(f->sub, p, top);
	case PA_S_CUSTOM:
	case PA_S_DERIVED:
		return f->write(base, top);
	}
	return NULL;
}

json_object *pa_schema_write(const struct pa_schema *s, const void *base,
			     const void *top)
{
	json_object *obj = json_object_new_object();

	for (size_t i = 0; i < s->n; i++)
		pa_json_add(obj, s->fields[i].key,
			    value_json(&s->fields[i], base, top));
	return obj;
}

/* ---- reading ------------------------------------------------------------- */

static json_type json_type_of(enum pa_schema_kind kind)
{
	switch (kind) {
	case PA_S_UINT:
	case PA_S_INT:
	case PA_S_INT_OR_NULL:
	case PA_S_NONZERO:
		return json_type_int;
	case PA_S_TRIBOOL:
	case PA_S_BOOL:
	case PA_S_NOT_BOOL:
	case PA_S_FLAG:
		return json_type_boolean;
	case PA_S_STRING:
	case PA_S_BDF:
	case PA_S_BUS:
	case PA_S_ENUM:
		return json_type_string;
	case PA_S_OBJECT:
		return json_type_object;
	case PA_S_BDF_LIST:
		return json_type_array;
	default:
		return json_type_null;	/* PA_S_CUSTOM: the converter checks */
	}
}

/* What null or an absent key leaves in the model. */
static void set_absent(const struct pa_schema_field *f, void *p)
{
	switch (f->kind) {
	case PA_S_INT:
		*(int32_t *)p = -1;
		break;
	case PA_S_INT_OR_NULL:
	case PA_S_TRIBOOL:
		*(int *)p = -1;
		break;
	default:
		break;		/* the struct's zero */
	}
}

/* "DDDD:BB", read as the BDF "DDDD:BB:00.0" is: the same digits, domains
 * past ffff (VMD) included. */
static int bus_read(struct pa_json_in *in, const char *path, const char *s,
		    struct pa_addr *a)
{
	char bdf[32];

	if (strchr(s, ':') != strrchr(s, ':') || !strchr(s, ':') ||
	    (size_t)snprintf(bdf, sizeof(bdf), "%s:00.0", s) >= sizeof(bdf) ||
	    pa_bdf_parse(bdf, a))
		return pa_json_bad(in, path, "invalid PCI bus \"%s\"", s);
	return 0;
}

static int value_read(struct pa_json_in *in, const struct pa_schema_field *f,
		      json_object *obj, json_object *v, const char *path,
		      char *base, void *top)
{
	char p[PA_JSON_PATH_LEN];
	void *dst = base + f->off;
	const char *s = NULL;
	int64_t n = 0;
	int err = 0;

	pa_json_path(p, path, f->key);
	switch (f->kind) {
	case PA_S_UINT:
	case PA_S_INT:
	case PA_S_INT_OR_NULL:
	case PA_S_NONZERO:
		err = pa_json_int_value(in, v, p, f->min, f->max, &n);
		if (err)
			break;
		if (f->kind == PA_S_UINT)
			set_uint(dst, f->size, (uint64_t)n);
		else if (f->kind == PA_S_INT)
			*(int32_t *)dst = (int32_t)n;
		else if (f->kind == PA_S_INT_OR_NULL)
			*(int *)dst = (int)n;
		else
			*(uint64_t *)dst = (uint64_t)n;
		break;
	case PA_S_TRIBOOL:
		*(int *)dst = json_object_get_boolean(v);
		break;
	case PA_S_BOOL:
		*(bool *)dst = json_object_get_boolean(v);
		break;
	case PA_S_NOT_BOOL:
		*(bool *)dst = !json_object_get_boolean(v);
		break;
	case PA_S_FLAG:
		if (json_object_get_boolean(v))
			*(uint32_t *)dst |= f->flag;
		break;
	case PA_S_STRING:
	case PA_S_BDF:
	case PA_S_BUS:
	case PA_S_ENUM:
		err = pa_json_string_value(in, v, p, &s);
		if (err)
			break;
		if (f->kind == PA_S_STRING) {
			*(char **)dst = strdup(s);
			err = *(char **)dst ? 0 : -ENOMEM;
		} else if (f->kind == PA_S_BDF) {
			err = pa_json_bdf_text(in, p, s, dst);
		} else if (f->kind == PA_S_BUS) {
			err = bus_read(in, p, s, dst);
		} else {
			*(uint32_t *)dst = f->value(s);
			if (!*(uint32_t *)dst)
				err = pa_json_bad(in, p, "unknown value \"%s\"", s);
		}
		break;
	case PA_S_BDF_LIST:
		err = pa_json_bdf_list(in, obj, path, f->key, false, dst);
		break;
	case PA_S_OBJECT:
		err = pa_schema_read(in, f->sub, v, p, dst, top);
		break;
	case PA_S_CUSTOM:
		err = f->read(in, f, v, path, base, top);
		break;
	case PA_S_DERIVED:
		break;
	}
	return err;
}

int pa_schema_read(struct pa_json_in *in, const struct pa_schema *s,
		   json_object *obj, const char *path, void *base, void *top)
{
	int err = 0;

	for (size_t i = 0; !err && i < s->n; i++) {
		const struct pa_schema_field *f = &s->fields[i];
		char *b = base, p[PA_JSON_PATH_LEN];
		json_object *v;

		if (f->kind == PA_S_DERIVED)
			continue;
		if (f->kind == PA_S_CUSTOM) {
			/* The converter checks the type. */
			if (!json_object_object_get_ex(obj, f->key, &v))
				v = NULL;
			if (!v && f->required)
				err = pa_json_bad(in, pa_json_path(p, path, f->key),
						  "missing (required)");
		} else {
			err = pa_json_member(in, obj, path, f->key, f->required,
					     json_type_of(f->kind), &v);
		}
		if (err)
			break;
		if (f->has)
			*(bool *)(b + f->has - 1) = v != NULL;
		if (v)
			err = value_read(in, f, obj, v, path, b, top);
		else
			set_absent(f, b + f->off);
	}
	return err;
}
