// SPDX-License-Identifier: GPL-2.0
#include "snapshot.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include <linux/pcieaudit.h>

#include "abi_names.h"
#include "acs.h"
#include "aer_json.h"
#include "bdf.h"
#include "fabric_json.h"
#include "json_out.h"

/* Room for the deepest path, "p2p[a=...,b=...].redirect". */
#define PATH_LEN 96

/* path.key into out; a path too long to hold is cut, never overrun. */
static const char *subpath(char out[PATH_LEN], const char *path,
			   const char *key)
{
	if (snprintf(out, PATH_LEN, "%s%s%s", path, *path ? "." : "", key) >=
	    PATH_LEN)
		out[PATH_LEN - 1] = '\0';
	return out;
}

struct ctx {
	const char *name;
	char *err;
	size_t errlen;
	struct pa_report *rep;
};

__attribute__((format(printf, 3, 4)))
static int bad(struct ctx *c, const char *path, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	n = (size_t)snprintf(c->err, c->errlen, "%s: %s: ", c->name, path);
	if (n < c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err + n, c->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static const char *type_name(json_object *v)
{
	return v ? json_type_to_name(json_object_get_type(v)) : "null";
}

/* Member key of obj: required ones must be there and not null; optional
 * ones give NULL for absent and null alike. */
static int member(struct ctx *c, json_object *obj, const char *path,
		  const char *key, bool required, json_type type,
		  json_object **out)
{
	char p[PATH_LEN];

	*out = NULL;
	subpath(p, path, key);
	if (!json_object_object_get_ex(obj, key, out) || !*out) {
		*out = NULL;
		return required ? bad(c, p, "missing (required)") : 0;
	}
	if (!json_object_is_type(*out, type))
		return bad(c, p, "expected %s, found %s",
			   json_type_to_name(type), type_name(*out));
	return 0;
}

static int integer(struct ctx *c, json_object *obj, const char *path,
		   const char *key, bool required, int64_t min, int64_t max,
		   bool *present, int64_t *value)
{
	json_object *v;
	int err = member(c, obj, path, key, required, json_type_int, &v);
	char p[PATH_LEN];

	if (present)
		*present = v != NULL;
	if (err || !v)
		return err;
	errno = 0;
	*value = json_object_get_int64(v);
	/* json-c saturates numbers past int64 and flags them with ERANGE. */
	if (errno || *value < min || *value > max) {
		subpath(p, path, key);
		return bad(c, p, "%s out of range %lld..%lld",
			   json_object_to_json_string(v), (long long)min,
			   (long long)max);
	}
	return 0;
}

/* Unsigned members; *dst keeps its value when the member is absent. */
static int u32_member(struct ctx *c, json_object *obj, const char *path,
		      const char *key, bool required, uint32_t max,
		      uint32_t *dst)
{
	int64_t v = *dst;
	int err = integer(c, obj, path, key, required, 0, max, NULL, &v);

	*dst = (uint32_t)v;
	return err;
}

static int u16_member(struct ctx *c, json_object *obj, const char *path,
		      const char *key, bool required, uint16_t max,
		      uint16_t *dst)
{
	uint32_t v = *dst;
	int err = u32_member(c, obj, path, key, required, max, &v);

	*dst = (uint16_t)v;
	return err;
}

static int u8_member(struct ctx *c, json_object *obj, const char *path,
		     const char *key, bool required, uint8_t max, uint8_t *dst)
{
	uint32_t v = *dst;
	int err = u32_member(c, obj, path, key, required, max, &v);

	*dst = (uint8_t)v;
	return err;
}

static int boolean(struct ctx *c, json_object *obj, const char *path,
		   const char *key, bool *value)
{
	json_object *v;
	int err = member(c, obj, path, key, false, json_type_boolean, &v);

	*value = v && json_object_get_boolean(v);
	return err;
}

/* A string member; *value stays NULL when absent or null. */
static int string(struct ctx *c, json_object *obj, const char *path,
		  const char *key, bool required, const char **value)
{
	json_object *v;
	int err = member(c, obj, path, key, required, json_type_string, &v);
	char p[PATH_LEN];

	*value = NULL;
	if (err || !v)
		return err;
	*value = json_object_get_string(v);
	if (strlen(*value) != (size_t)json_object_get_string_len(v)) {
		subpath(p, path, key);
		return bad(c, p, "contains a NUL byte");
	}
	return 0;
}

static int dup_string(struct ctx *c, json_object *obj, const char *path,
		      const char *key, char **out)
{
	const char *s;
	int err = string(c, obj, path, key, false, &s);

	*out = NULL;
	if (err || !s)
		return err;
	*out = strdup(s);
	return *out ? 0 : -ENOMEM;
}

/* An enum spelling; a string the table does not know is an error. */
static int spelling(struct ctx *c, json_object *obj, const char *path,
		    const char *key, uint32_t (*value_of)(const char *),
		    uint32_t *value)
{
	const char *s;
	int err = string(c, obj, path, key, false, &s);
	char p[PATH_LEN];

	*value = 0;
	if (err || !s)
		return err;
	*value = value_of(s);
	if (*value)
		return 0;
	subpath(p, path, key);
	return bad(c, p, "unknown value \"%s\"", s);
}

static int bdf_string(struct ctx *c, const char *path, const char *s,
		      struct pa_addr *addr)
{
	if (pa_bdf_parse(s, addr))
		return bad(c, path, "invalid PCI address \"%s\"", s);
	return 0;
}

static int bdf_member(struct ctx *c, json_object *obj, const char *path,
		      const char *key, bool required, bool *present,
		      struct pa_addr *addr)
{
	const char *s;
	char p[PATH_LEN];
	int err = string(c, obj, path, key, required, &s);

	if (present)
		*present = s != NULL;
	if (err || !s)
		return err;
	subpath(p, path, key);
	return bdf_string(c, p, s, addr);
}

/* ---- info and host ------------------------------------------------------- */

static int parse_features(struct ctx *c, json_object *info, uint32_t *out)
{
	json_object *f;
	int err = member(c, info, "info", "features", false, json_type_object, &f);

	*out = 0;
	for (size_t i = 0; !err && f && i < PA_NFEATURES; i++) {
		bool on;

		err = boolean(c, f, "info.features", pa_feature_names[i].name, &on);
		*out |= on ? pa_feature_names[i].bit : 0;
	}
	return err;
}

static int parse_info(struct ctx *c, json_object *root)
{
	struct pa_info *in = &c->rep->info;
	json_object *info;
	int err = member(c, root, "", "info", true, json_type_object, &info);

	if (!err)
		err = dup_string(c, info, "info", "module_version",
				 &in->module_version);
	if (!err)
		err = dup_string(c, info, "info", "kernel_release",
				 &in->kernel_release);
	if (!err)
		err = dup_string(c, info, "info", "p2p_rules", &in->p2p_rules);
	if (!err)
		err = parse_features(c, info, &in->features);
	if (!err)
		err = spelling(c, info, "info", "iommu_default_mode",
			       pa_iommu_mode_value, &in->iommu_def_mode);
	if (!err)
		err = spelling(c, info, "info", "iommu_strict",
			       pa_iommu_strict_value, &in->iommu_strict);
	if (!err)
		err = u32_member(c, info, "info", "device_count", false, UINT32_MAX, &in->device_count);
	if (!err)
		err = u32_member(c, info, "info", "group_count", false, UINT32_MAX, &in->group_count);
	return err;
}

static int optional_int(struct ctx *c, json_object *obj, const char *path,
			const char *key, int64_t min, int64_t max, int *out)
{
	bool present = false;
	int64_t v = -1;
	int err = integer(c, obj, path, key, false, min, max, &present, &v);

	*out = present ? (int)v : -1;
	return err;
}

/* true 1, false 0, absent or null -1. */
static int optional_bool(struct ctx *c, json_object *obj, const char *path,
			 const char *key, int *out)
{
	json_object *v;
	int err = member(c, obj, path, key, false, json_type_boolean, &v);

	*out = v ? json_object_get_boolean(v) : -1;
	return err;
}

static int parse_host(struct ctx *c, json_object *root)
{
	struct pa_host *h = &c->rep->host;
	json_object *host;
	int err = member(c, root, "", "host", false, json_type_object, &host);

	pa_host_clear(h);
	c->rep->has_host = host != NULL;
	if (err || !host)
		return err;
	err = spelling(c, host, "host", "source", pa_host_source_value,
		       &h->source);
	if (!err)
		err = dup_string(c, host, "host", "cmdline", &h->cmdline);
	if (!err)
		err = optional_int(c, host, "host", "numa_nodes", 1, 65536,
				   &h->numa_nodes);
	if (!err)
		err = dup_string(c, host, "host", "cpu_vendor", &h->cpu_vendor);
	if (!err)
		err = optional_int(c, host, "host", "cpu_family", 0, 65535,
				   &h->cpu_family);
	if (!err)
		err = optional_bool(c, host, "host", "hypervisor", &h->hypervisor);
	if (!err)
		err = dup_string(c, host, "host", "iommu_table", &h->iommu_table);
	return err;
}

/* ---- devices ------------------------------------------------------------- */

static int parse_acs(struct ctx *c, json_object *obj, const char *path,
		     struct pa_device *d)
{
	json_object *acs;
	char p[PATH_LEN];
	int64_t v = 0;
	int err = member(c, obj, path, "acs", false, json_type_object, &acs);

	d->has_acs = acs != NULL;
	if (err || !acs)
		return err;
	subpath(p, path, "acs");
	err = u16_member(c, acs, p, "pos", false, 0xfff, &d->acs.pos);
	if (!err)
		err = u16_member(c, acs, p, "cap", true, 0xffff, &d->acs.cap);
	if (!err)
		err = u16_member(c, acs, p, "ctrl", true, 0xffff, &d->acs.ctrl);
	if (!err)
		err = integer(c, acs, p, "ctrl_at_load", false, 0, 0xffff,
			      &d->acs.has_ctrl_at_load, &v);
	d->acs.ctrl_at_load = (uint16_t)v;
	return err;
}

static int parse_link(struct ctx *c, json_object *obj, const char *path,
		      struct pa_device *d)
{
	json_object *link;
	char p[PATH_LEN];
	int64_t v = 0;
	int err = member(c, obj, path, "link", false, json_type_object, &link);

	d->has_link = link != NULL;
	if (err || !link)
		return err;
	subpath(p, path, "link");
	err = u32_member(c, link, p, "lnkcap", true, UINT32_MAX, &d->link.lnkcap);
	if (!err)
		err = u16_member(c, link, p, "lnksta", true, 0xffff, &d->link.lnksta);
	if (!err)
		err = integer(c, link, p, "lnkctl2", false, 0, 0xffff,
			      &d->link.has_lnkctl2, &v);
	d->link.lnkctl2 = (uint16_t)v;
	return err;
}

static int parse_iommu(struct ctx *c, json_object *obj, const char *path,
		       struct pa_device *d)
{
	struct pa_iommu *io = &d->iommu;
	json_object *iommu;
	char p[PATH_LEN];
	int err = member(c, obj, path, "iommu", false, json_type_object, &iommu);

	d->has_iommu = iommu != NULL;
	if (err || !iommu)
		return err;
	subpath(p, path, "iommu");
	err = u32_member(c, iommu, p, "group", true, UINT32_MAX, &io->group);
	if (!err)
		err = spelling(c, iommu, p, "domain", pa_domain_type_value,
			       &io->domain);
	if (!err)
		err = spelling(c, iommu, p, "default_domain",
			       pa_domain_type_value, &io->def_domain);
	if (!err)
		err = spelling(c, iommu, p, "default_domain_source",
			       pa_source_value, &io->def_domain_source);
	if (!err)
		err = dup_string(c, iommu, p, "instance", &io->instance);
	if (!err)
		err = spelling(c, iommu, p, "dma_owner", pa_dma_owner_value,
			       &io->dma_owner);
	return err;
}

static int parse_pcie_type(struct ctx *c, json_object *obj, const char *path,
			   struct pa_device *d)
{
	const char *s;
	char p[PATH_LEN];
	int err = string(c, obj, path, "pcie_type", false, &s);

	if (err || !s)
		return err;
	d->pcie_type = pa_pcie_type_value(s);
	d->flags |= PCIEAUDIT_DEV_F_PCIE;
	subpath(p, path, "pcie_type");
	return d->pcie_type < 0 ? bad(c, p, "unknown value \"%s\"", s) : 0;
}

static int parse_flags(struct ctx *c, json_object *obj, const char *path,
		       struct pa_device *d)
{
	static const struct {
		const char *key;
		uint32_t flag;
	} flags[] = {
		{ "multifunction", PCIEAUDIT_DEV_F_MULTIFUNCTION },
		{ "virtfn", PCIEAUDIT_DEV_F_VIRTFN },
		{ "physfn", PCIEAUDIT_DEV_F_PHYSFN },
		{ "bridge", PCIEAUDIT_DEV_F_BRIDGE },
		{ "disconnected", PCIEAUDIT_DEV_F_DISCONNECTED },
	};
	int err = 0;

	for (size_t i = 0; !err && i < sizeof(flags) / sizeof(flags[0]); i++) {
		bool on;

		err = boolean(c, obj, path, flags[i].key, &on);
		d->flags |= on ? flags[i].flag : 0;
	}
	return err;
}

static int parse_ids(struct ctx *c, json_object *obj, const char *path,
		     struct pa_device *d)
{
	int err = u16_member(c, obj, path, "vendor", true, 0xffff, &d->vendor);

	if (!err)
		err = u16_member(c, obj, path, "device", true, 0xffff, &d->device);
	if (!err)
		err = u16_member(c, obj, path, "subsystem_vendor", false, 0xffff, &d->subsys_vendor);
	if (!err)
		err = u16_member(c, obj, path, "subsystem_device", false, 0xffff, &d->subsys_device);
	if (!err)
		err = u32_member(c, obj, path, "class", true, 0xffffff, &d->class);
	if (!err)
		err = u8_member(c, obj, path, "revision", false, 0xff, &d->revision);
	return err;
}

static int parse_links_up(struct ctx *c, json_object *obj, const char *path,
			  struct pa_device *d)
{
	int64_t v = -1;
	bool present = false;
	int err = bdf_member(c, obj, path, "upstream", false, &d->has_upstream,
			     &d->upstream);

	if (!err)
		err = bdf_member(c, obj, path, "pf", false, &d->has_pf, &d->pf);
	if (!err)
		err = integer(c, obj, path, "secondary_bus", false, 0, 0xff,
			      &d->has_secondary_bus, &v);
	d->secondary_bus = (uint8_t)v;
	if (!err)
		err = integer(c, obj, path, "numa_node", false, -1, 65535,
			      &present, &v);
	d->numa_node = present ? (int32_t)v : -1;
	return err;
}

/* Both keys are newer than the first snapshots: absent means a power
 * state not known and registers that were readable. */
static int parse_power(struct ctx *c, json_object *obj, const char *path,
		       struct pa_device *d)
{
	int readable;
	int err = spelling(c, obj, path, "power_state", pa_power_state_value,
			   &d->power_state);

	if (!err)
		err = optional_bool(c, obj, path, "config_readable", &readable);
	d->config_unreadable = (!err && readable == 0) ||
			       (d->flags & PCIEAUDIT_DEV_F_DISCONNECTED);
	if (!err)
		err = optional_bool(c, obj, path, "extended_config_read", &readable);
	d->no_extended_config = !err && readable == 0;
	return err;
}

/* Newer than the first snapshots: absent reads as not read. */
static int parse_aer(struct ctx *c, json_object *obj, const char *path,
		     struct pa_device *d)
{
	const char *problem = "";
	json_object *v = NULL;

	json_object_object_get_ex(obj, "aer", &v);
	if (pa_aer_json_parse(v, &d->aer, &problem))
		return bad(c, path, "%s", problem);
	return 0;
}

static int element(struct ctx *c, json_object *array, size_t i,
		   const char *path, json_type type, json_object **out,
		   char p[PATH_LEN]);

/* ---- ATS, device control, BARs: decoded in the JSON, re-encoded here --- */

/* n for bytes == unit << n, -1 when bytes is not such a power of two. */
static int log2_of(int64_t bytes, int64_t unit, int max)
{
	for (int n = 0; n <= max; n++)
		if (bytes == unit << n)
			return n;
	return -1;
}

static int size_code(struct ctx *c, json_object *obj, const char *path,
		     const char *key, unsigned int shift, uint32_t *reg)
{
	bool present = false;
	int64_t v = 0;
	int n, err = integer(c, obj, path, key, false, 128, 4096, &present, &v);
	char p[PATH_LEN];

	if (err || !present)
		return err;
	n = log2_of(v, 128, 5);
	if (n < 0) {
		subpath(p, path, key);
		return bad(c, p, "%lld is not a payload size (128 to 4096)",
			   (long long)v);
	}
	*reg |= (uint32_t)n << shift;
	return 0;
}

static int parse_ats(struct ctx *c, json_object *obj, const char *path,
		     struct pa_device *d)
{
	json_object *ats;
	char p[PATH_LEN];
	int capable = -1, enabled = -1;
	int err = member(c, obj, path, "ats", false, json_type_object, &ats);

	if (err || !ats)
		return err;
	subpath(p, path, "ats");
	err = optional_bool(c, ats, p, "capable", &capable);
	if (!err)
		err = optional_bool(c, ats, p, "enabled", &enabled);
	d->caps_known = true;
	d->has_ats = capable == 1;
	d->ats_ctrl = enabled == 1 ? 0x8000 : 0;
	return err;
}

static int parse_pcie_device(struct ctx *c, json_object *obj,
			     const char *path, struct pa_device *d)
{
	json_object *pd;
	char p[PATH_LEN];
	uint32_t devctl = 0, devcap = 0;
	int ro = -1;
	int err = member(c, obj, path, "pcie_device", false, json_type_object, &pd);

	if (err || !pd)
		return err;
	subpath(p, path, "pcie_device");
	err = size_code(c, pd, p, "mps", 5, &devctl);
	if (!err)
		err = size_code(c, pd, p, "mps_supported", 0, &devcap);
	if (!err)
		err = size_code(c, pd, p, "mrrs", 12, &devctl);
	if (!err)
		err = optional_bool(c, pd, p, "relaxed_ordering", &ro);
	d->caps_known = true;
	d->has_expdev = true;
	d->devcap = devcap;
	d->devctl = (uint16_t)(devctl | (ro == 1 ? 0x10 : 0));
	return err;
}

static int parse_rebar(struct ctx *c, json_object *obj, const char *path,
		       struct pa_bar *b)
{
	json_object *rb, *sizes, *item;
	char p[PATH_LEN], q[PATH_LEN], r[PATH_LEN];
	bool present = false;
	int64_t cur = 0;
	int n, err = member(c, obj, path, "resizable", false, json_type_object, &rb);

	if (err || !rb)
		return err;
	subpath(p, path, "resizable");
	err = integer(c, rb, p, "current", false, 1, INT64_MAX, &present, &cur);
	if (!err && present && (n = log2_of(cur, 1 << 20, 63)) >= 0)
		b->rebar_ctrl = (uint32_t)n << 8 | b->index;
	else if (!err && present)
		return bad(c, p, "current size not a power of two of at least 1M");
	if (!err)
		err = member(c, rb, p, "supported", true, json_type_array, &sizes);
	subpath(q, p, "supported");
	for (size_t i = 0; !err && i < json_object_array_length(sizes); i++) {
		err = element(c, sizes, i, q, json_type_int, &item, r);
		n = err ? -1 : log2_of(json_object_get_int64(item), 1 << 20, 27);
		if (!err && n < 0)
			err = bad(c, r, "not a resizable BAR size (1M to 128T)");
		if (!err)
			b->rebar_cap |= 1u << (n + 4);
	}
	b->resizable = true;
	return err;
}

static int parse_bar(struct ctx *c, json_object *obj, const char *path,
		     struct pa_bar *b)
{
	const char *type = NULL;
	bool pf = false, m64 = false, assigned = false;
	int64_t size = 0;
	int err = u8_member(c, obj, path, "index", true, PA_MAX_BARS - 1, &b->index);

	if (!err)
		err = integer(c, obj, path, "size", true, 1, INT64_MAX, NULL, &size);
	if (!err)
		err = string(c, obj, path, "type", true, &type);
	if (!err && strcmp(type, "io") && strcmp(type, "mem"))
		err = bad(c, path, "type \"%s\" is neither io nor mem", type);
	if (!err)
		err = boolean(c, obj, path, "prefetchable", &pf);
	if (!err)
		err = boolean(c, obj, path, "mem64", &m64);
	if (!err)
		err = boolean(c, obj, path, "assigned", &assigned);
	if (err)
		return err;
	b->size = (uint64_t)size;
	b->flags = (!strcmp(type, "io") ? PCIEAUDIT_BAR_F_IO : PCIEAUDIT_BAR_F_MEM) |
		   (pf ? PCIEAUDIT_BAR_F_PREFETCH : 0) |
		   (m64 ? PCIEAUDIT_BAR_F_MEM64 : 0) |
		   (assigned ? 0 : PCIEAUDIT_BAR_F_UNASSIGNED);
	return parse_rebar(c, obj, path, b);
}

/* Keys newer than the first snapshots: absent, the facts are unknown. */
static int parse_caps(struct ctx *c, json_object *obj, const char *path,
		      struct pa_device *d)
{
	json_object *bars, *item;
	char p[PATH_LEN], q[PATH_LEN];
	bool present = false;
	int64_t mem = 0;
	int err = parse_ats(c, obj, path, d);

	if (!err)
		err = parse_pcie_device(c, obj, path, d);
	if (!err)
		err = member(c, obj, path, "bars", false, json_type_array, &bars);
	/* Registers without BARs: an offline source that had no sizes. */
	d->bars_unknown = !err && d->caps_known && !bars;
	if (!err && bars) {
		d->caps_known = true;
		subpath(q, path, "bars");
		if (json_object_array_length(bars) > PA_MAX_BARS)
			return bad(c, q, "more than %d BARs", PA_MAX_BARS);
	}
	for (size_t i = 0; !err && bars && i < json_object_array_length(bars); i++) {
		err = element(c, bars, i, q, json_type_object, &item, p);
		if (!err)
			err = parse_bar(c, item, p, &d->bars[d->nbars++]);
	}
	if (!err)
		err = integer(c, obj, path, "mem_bytes", false, 1, INT64_MAX,
			      &present, &mem);
	d->mem_bytes = present ? (uint64_t)mem : 0;
	return err;
}

static int parse_device(struct ctx *c, json_object *obj, const char *path,
			struct pa_device *d)
{
	int err = bdf_member(c, obj, path, "bdf", true, NULL, &d->addr);

	if (!err)
		err = parse_ids(c, obj, path, d);
	if (!err)
		err = parse_pcie_type(c, obj, path, d);
	if (!err)
		err = parse_flags(c, obj, path, d);
	if (!err)
		err = parse_links_up(c, obj, path, d);
	if (!err)
		err = dup_string(c, obj, path, "driver", &d->driver);
	if (!err)
		err = dup_string(c, obj, path, "vendor_name", &d->vendor_name);
	if (!err)
		err = dup_string(c, obj, path, "device_name", &d->device_name);
	if (!err)
		err = parse_power(c, obj, path, d);
	if (!err)
		err = parse_acs(c, obj, path, d);
	if (!err)
		err = parse_link(c, obj, path, d);
	if (!err)
		err = parse_iommu(c, obj, path, d);
	if (!err)
		err = parse_caps(c, obj, path, d);
	if (!err)
		err = parse_aer(c, obj, path, d);
	return err;
}

static int element(struct ctx *c, json_object *array, size_t i,
		   const char *path, json_type type, json_object **out,
		   char p[PATH_LEN])
{
	snprintf(p, PATH_LEN, "%s[%zu]", path, i);
	*out = json_object_array_get_idx(array, i);
	if (!json_object_is_type(*out, type))
		return bad(c, p, "expected %s, found %s",
			   json_type_to_name(type), type_name(*out));
	return 0;
}

static int parse_devices(struct ctx *c, json_object *root)
{
	json_object *devices, *obj;
	char p[PATH_LEN];
	int err = member(c, root, "", "devices", true, json_type_array, &devices);

	for (size_t i = 0; !err && i < json_object_array_length(devices); i++) {
		struct pa_device d = { .pcie_type = -1, .numa_node = -1 };

		err = element(c, devices, i, "devices", json_type_object, &obj, p);
		if (!err)
			err = parse_device(c, obj, p, &d);
		if (!err)
			err = pa_report_add_device(c->rep, &d);
		pa_device_clear(&d);
	}
	return err;
}

/* ---- groups and pairs ---------------------------------------------------- */

static int bdf_list(struct ctx *c, json_object *obj, const char *path,
		    const char *key, bool required, struct pa_addr_list *list)
{
	json_object *array, *item;
	char p[PATH_LEN], q[PATH_LEN];
	struct pa_addr addr;
	int err = member(c, obj, path, key, required, json_type_array, &array);

	subpath(q, path, key);
	for (size_t i = 0; !err && array && i < json_object_array_length(array); i++) {
		err = element(c, array, i, q, json_type_string, &item, p);
		if (!err)
			err = bdf_string(c, p, json_object_get_string(item), &addr);
		if (!err)
			err = pa_addr_list_add(list, &addr);
	}
	return err;
}

static int parse_group(struct ctx *c, json_object *obj, const char *path,
		       struct pa_group *g)
{
	struct pa_addr_list members = { 0 };
	int err = u32_member(c, obj, path, "id", true, UINT32_MAX, &g->id);

	if (!err)
		err = u32_member(c, obj, path, "other_members", false, UINT32_MAX, &g->other_members);
	if (!err)
		err = bdf_list(c, obj, path, "devices", true, &members);
	g->members = members.addrs;
	g->nmembers = members.n;
	return err;
}

static int parse_groups(struct ctx *c, json_object *root)
{
	json_object *groups, *obj;
	char p[PATH_LEN];
	int err = member(c, root, "", "groups", false, json_type_array, &groups);

	if (!err && !groups)
		return pa_report_groups_from_devices(c->rep);
	for (size_t i = 0; !err && i < json_object_array_length(groups); i++) {
		struct pa_group g = { 0 };

		err = element(c, groups, i, "groups", json_type_object, &obj, p);
		if (!err)
			err = parse_group(c, obj, p, &g);
		if (!err)
			err = pa_report_add_group(c->rep, &g);
		pa_group_clear(&g);
	}
	return err;
}

static int parse_verdicts(struct ctx *c, json_object *obj, const char *path,
			  struct pa_p2p_pair *p)
{
	int64_t v = 0;
	int err = spelling(c, obj, path, "kernel_status",
			   pa_p2p_kernel_status_value, &p->kernel_status);

	if (!err)
		err = integer(c, obj, path, "kernel_distance", false, -1,
			      INT32_MAX, &p->has_kernel_distance, &v);
	p->kernel_distance = (int32_t)v;
	v = -1;
	if (!err)
		err = integer(c, obj, path, "distance", false, -1, INT32_MAX,
			      NULL, &v);
	p->distance = (int32_t)v;
	if (!err)
		err = spelling(c, obj, path, "agreement",
			       pa_p2p_agreement_value, &p->agreement);
	/* Older snapshots: the same comparison the module makes. */
	if (!err && (!p->agreement || !p->has_kernel_distance))
		p->agreement = pa_p2p_agreement_of(p);
	if (!err)
		err = u32_member(c, obj, path, "path_length", false, UINT32_MAX, &p->path_length);
	if (!err)
		err = spelling(c, obj, path, "map", pa_p2p_map_value, &p->map);
	if (!err)
		err = spelling(c, obj, path, "path", pa_p2p_path_value, &p->path);
	if (!err)
		err = spelling(c, obj, path, "host_rule", pa_p2p_host_rule_value,
			       &p->host_rule);
	return err;
}

static int parse_pair(struct ctx *c, json_object *obj, const char *path,
		      struct pa_p2p_pair *p)
{
	int err = bdf_member(c, obj, path, "a", true, NULL, &p->provider);

	if (!err)
		err = bdf_member(c, obj, path, "b", true, NULL, &p->client);
	if (!err)
		err = parse_verdicts(c, obj, path, p);
	if (!err)
		err = bdf_member(c, obj, path, "common", false, &p->has_common,
				 &p->common);
	if (!err)
		err = bdf_list(c, obj, path, "hops_a", false, &p->hops_provider);
	if (!err)
		err = bdf_list(c, obj, path, "hops_b", false, &p->hops_client);
	if (!err)
		err = bdf_list(c, obj, path, "redirect", false, &p->redirect);
	return err;
}

static int parse_pairs(struct ctx *c, json_object *root)
{
	json_object *pairs, *obj;
	char p[PATH_LEN];
	int err = member(c, root, "", "p2p", false, json_type_array, &pairs);

	c->rep->has_p2p = pairs != NULL;
	for (size_t i = 0; !err && pairs && i < json_object_array_length(pairs); i++) {
		struct pa_p2p one = { .npairs = 1 };
		struct pa_p2p_pair pair = { 0 };

		err = element(c, pairs, i, "p2p", json_type_object, &obj, p);
		if (!err)
			err = parse_pair(c, obj, p, &pair);
		one.pairs = &pair;
		/* take() moves the pair by value, then frees the array. */
		if (!err) {
			one.pairs = malloc(sizeof(pair));
			err = one.pairs ? 0 : -ENOMEM;
		}
		if (!err) {
			one.pairs[0] = pair;
			pair = (struct pa_p2p_pair){ 0 };
			err = pa_p2p_take(&c->rep->p2p, &one);
			pa_p2p_clear(&one);
		}
		pa_p2p_pair_clear(&pair);
	}
	return err;
}

/* ---- consistency --------------------------------------------------------- */

/*
 * Checks run on the sorted report, with binary searches, so that a huge
 * or hostile snapshot costs n log n rather than n squared; locations name
 * the device by its BDF.
 */
static int cmp_device_key(const void *key, const void *elem)
{
	const struct pa_device *d = elem;

	return pa_addr_cmp(key, &d->addr);
}

static const struct pa_device *find(const struct pa_report *rep,
				    const struct pa_addr *a)
{
	return rep->ndevices ? bsearch(a, rep->devices, rep->ndevices,
				       sizeof(*rep->devices), cmp_device_key) :
			       NULL;
}

static int known(struct ctx *c, const char *path, const char *what,
		 const struct pa_addr *a)
{
	char bdf[PA_BDF_LEN];

	if (find(c->rep, a))
		return 0;
	pa_bdf_format(a, bdf);
	return bad(c, path, "%s %s is not in devices", what, bdf);
}

static int check_devices(struct ctx *c)
{
	const struct pa_report *rep = c->rep;
	char p[PATH_LEN], bdf[PA_BDF_LEN];
	int err = 0;

	for (size_t i = 0; !err && i < rep->ndevices; i++) {
		const struct pa_device *d = &rep->devices[i];

		pa_bdf_format(&d->addr, bdf);
		snprintf(p, sizeof(p), "devices[bdf=%s]", bdf);
		if (i && pa_addr_eq(&rep->devices[i - 1].addr, &d->addr))
			return bad(c, p, "listed twice");
		if (d->has_upstream)
			err = known(c, p, "upstream", &d->upstream);
		if (!err && d->has_pf)
			err = known(c, p, "pf", &d->pf);
	}
	return err;
}

/* Upstream links must end at a root bus. Marks: 0 unseen, 1 on the walk
 * in progress, 2 known to end well. */
static int check_cycles(struct ctx *c)
{
	const struct pa_report *rep = c->rep;
	unsigned char *mark = calloc(rep->ndevices + 1, 1);
	char p[PATH_LEN], bdf[PA_BDF_LEN];
	int err = 0;

	if (!mark)
		return -ENOMEM;
	for (size_t i = 0; !err && i < rep->ndevices; i++) {
		const struct pa_device *d = &rep->devices[i];

		for (; d && !mark[d - rep->devices]; d = d->has_upstream ?
		     find(rep, &d->upstream) : NULL)
			mark[d - rep->devices] = 1;
		if (d && mark[d - rep->devices] == 1) {
			pa_bdf_format(&d->addr, bdf);
			snprintf(p, sizeof(p), "devices[bdf=%s].upstream", bdf);
			err = bad(c, p, "upstream links form a cycle");
		}
		for (d = &rep->devices[i]; d && mark[d - rep->devices] == 1;
		     d = d->has_upstream ? find(rep, &d->upstream) : NULL)
			mark[d - rep->devices] = 2;
	}
	free(mark);
	return err;
}

static bool lists(const struct pa_group *g, const struct pa_addr *a)
{
	for (size_t i = 0; i < g->nmembers; i++)
		if (pa_addr_eq(&g->members[i], a))
			return true;
	return false;
}

static int cmp_group_key(const void *key, const void *elem)
{
	const uint32_t *id = key;
	const struct pa_group *g = elem;

	return *id < g->id ? -1 : *id > g->id;
}

/* Group members may lie outside devices (report BDF keeps one device and
 * its whole group), but each device's group must list it. */
static int check_groups(struct ctx *c)
{
	const struct pa_report *rep = c->rep;
	char p[PATH_LEN], bdf[PA_BDF_LEN];

	for (size_t i = 1; i < rep->ngroups; i++) {
		if (rep->groups[i - 1].id != rep->groups[i].id)
			continue;
		snprintf(p, sizeof(p), "groups[id=%u]", rep->groups[i].id);
		return bad(c, p, "listed twice");
	}
	for (size_t i = 0; i < rep->ndevices; i++) {
		const struct pa_device *d = &rep->devices[i];
		const struct pa_group *g;

		if (!d->has_iommu)
			continue;
		g = rep->ngroups ? bsearch(&d->iommu.group, rep->groups,
					   rep->ngroups, sizeof(*g),
					   cmp_group_key) : NULL;
		pa_bdf_format(&d->addr, bdf);
		snprintf(p, sizeof(p), "devices[bdf=%s].iommu.group", bdf);
		if (!g || !lists(g, &d->addr))
			return bad(c, p, "group %u in groups does not list this device",
				   d->iommu.group);
	}
	return 0;
}

static int check_list(struct ctx *c, const char *path, const char *what,
		      const struct pa_addr_list *list)
{
	int err = 0;

	for (size_t i = 0; !err && i < list->n; i++)
		err = known(c, path, what, &list->addrs[i]);
	return err;
}

static int check_pair(struct ctx *c, const struct pa_p2p_pair *pr)
{
	char p[PATH_LEN], a[PA_BDF_LEN], b[PA_BDF_LEN];
	int err;

	pa_bdf_format(&pr->provider, a);
	pa_bdf_format(&pr->client, b);
	snprintf(p, sizeof(p), "p2p[a=%s,b=%s]", a, b);
	err = known(c, p, "a", &pr->provider);
	if (!err)
		err = known(c, p, "b", &pr->client);
	if (!err && pr->has_common)
		err = known(c, p, "common", &pr->common);
	if (!err)
		err = check_list(c, p, "hop", &pr->hops_provider);
	if (!err)
		err = check_list(c, p, "hop", &pr->hops_client);
	if (!err)
		err = check_list(c, p, "redirect", &pr->redirect);
	return err;
}

static int check_pairs(struct ctx *c)
{
	const struct pa_p2p *p2p = &c->rep->p2p;
	char p[PATH_LEN], a[PA_BDF_LEN], b[PA_BDF_LEN];
	int err = 0;

	for (size_t i = 0; !err && i < p2p->npairs; i++) {
		const struct pa_p2p_pair *pr = &p2p->pairs[i];

		err = check_pair(c, pr);
		if (err || !i || !pa_addr_eq(&pr[-1].provider, &pr->provider) ||
		    !pa_addr_eq(&pr[-1].client, &pr->client))
			continue;
		pa_bdf_format(&pr->provider, a);
		pa_bdf_format(&pr->client, b);
		snprintf(p, sizeof(p), "p2p[a=%s,b=%s]", a, b);
		err = bad(c, p, "listed twice");
	}
	return err;
}

/* ---- the document -------------------------------------------------------- */

/* 1-based line and column of byte offset end. */
static void position(const char *text, size_t end, size_t *line, size_t *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < end; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static int syntax_error(struct ctx *c, const char *text, size_t end,
			const char *problem)
{
	size_t line, col;

	position(text, end, &line, &col);
	snprintf(c->err, c->errlen, "%s:%zu:%zu: invalid JSON: %s", c->name,
		 line, col, problem);
	return -EINVAL;
}

static bool blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr(" \t\r\n", s[i]))
			return false;
	return true;
}

static int tokenize(struct ctx *c, const char *text, size_t len,
		    json_object **root)
{
	json_tokener *tok = json_tokener_new();
	enum json_tokener_error jerr;
	size_t end;

	*root = NULL;
	if (!tok)
		return -ENOMEM;
	/* The terminating NUL goes in too: it ends a document that ends in a
	 * number or literal. A NUL inside ends it early, which the trailing
	 * check below catches. */
	if (len < INT32_MAX)
		*root = json_tokener_parse_ex(tok, text, (int)len + 1);
	jerr = len < INT32_MAX ? json_tokener_get_error(tok) :
				 json_tokener_error_size;
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (jerr == json_tokener_continue || jerr == json_tokener_error_parse_eof)
		return syntax_error(c, text, len, "unexpected end of input (truncated?)");
	if (jerr != json_tokener_success)
		return syntax_error(c, text, end < len ? end : len,
				    json_tokener_error_desc(jerr));
	if (end < len && !blank(text + end, len - end)) {
		json_object_put(*root);
		*root = NULL;
		return syntax_error(c, text, end, "unexpected data after the document");
	}
	return 0;
}

/* NVLink, XGMI and GPUDirect software, as report --json wrote them. */
static int parse_fabric(struct ctx *c, json_object *root)
{
	json_object *f;
	char why[256];
	int err = member(c, root, "", "fabric", false, json_type_object, &f);

	if (err || !f)
		return err;
	err = pa_fabric_parse_json(f, &c->rep->fabric, why, sizeof(why));
	return err == -EINVAL ? bad(c, "fabric", "%s", why) : err;
}

static int parse_root(struct ctx *c, json_object *root)
{
	int64_t version = 0;
	int err;

	if (!json_object_is_type(root, json_type_object))
		return bad(c, "(top level)", "expected object, found %s",
			   type_name(root));
	err = integer(c, root, "", "schema_version", true, 0, INT32_MAX, NULL,
		      &version);
	if (!err && version != PA_JSON_SCHEMA_VERSION)
		return bad(c, "schema_version", "%lld is not supported (this CLI reads %d)",
			   (long long)version, PA_JSON_SCHEMA_VERSION);
	if (!err)
		err = parse_info(c, root);
	if (!err)
		err = parse_devices(c, root);
	if (!err)
		err = parse_groups(c, root);
	if (!err)
		err = parse_pairs(c, root);
	if (!err)
		err = parse_host(c, root);
	if (!err)
		err = parse_fabric(c, root);
	if (err)
		return err;
	/* An lspci dump never shows the IOMMU: its absence is unknown. */
	c->rep->info.iommu_unknown = c->rep->has_host &&
				     c->rep->host.source == PA_SOURCE_LSPCI;
	pa_report_sort(c->rep);
	pa_p2p_sort(&c->rep->p2p);
	err = check_devices(c);
	if (!err)
		err = check_cycles(c);
	if (!err)
		err = check_groups(c);
	if (!err)
		err = check_pairs(c);
	return err;
}

int pa_snapshot_parse(const char *name, const char *text, size_t len,
		      struct pa_report *rep, char *err, size_t errlen)
{
	struct ctx c = { name, err, errlen, rep };
	json_object *root = NULL;
	int ret;

	*rep = (struct pa_report){ 0 };
	pa_host_clear(&rep->host);
	err[0] = '\0';
	ret = tokenize(&c, text, len, &root);
	if (!ret)
		ret = parse_root(&c, root);
	json_object_put(root);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", name);
	if (ret)
		pa_report_clear(rep);
	return ret;
}
