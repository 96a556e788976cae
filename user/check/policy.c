// SPDX-License-Identifier: GPL-2.0
#include "policy.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include <linux/pcieaudit.h>

#include "abi_names.h"
#include "bdf.h"
#include "topo.h"
#include "yaml_doc.h"

struct ctx {
	struct pa_yaml y;
	struct pa_policy *p;
	struct pa_inventory *inv;
	const char *what;	/* "policy", "inventory" */
};

static int expect(struct ctx *c, const yaml_node_t *n, yaml_node_type_t type,
		  const char *what)
{
	return n->type == type ? 0 :
	       pa_yaml_bad(&c->y, n, "expected %s, found %s", what,
			   pa_yaml_kind(n));
}

/* A scalar, checked for a NUL byte inside (libyaml counts its length). */
static int scalar(struct ctx *c, const yaml_node_t *n, const char *what,
		  const char **out)
{
	int err = expect(c, n, YAML_SCALAR_NODE, what);

	if (err)
		return err;
	*out = pa_yaml_text(n);
	if (pa_yaml_has_nul(n))
		return pa_yaml_bad(&c->y, n, "%s contains a NUL byte", what);
	return 0;
}

/* ---- Keys ---------------------------------------------------------------- */

typedef int (*value_fn)(struct ctx *c, yaml_node_t *value, void *arg);

struct key {
	const char *name;
	value_fn fn;
};

static void key_list(char *buf, size_t len, const struct key *keys, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? ", " : "", keys[i].name);
}

/* Calls each key's function on its value; unknown and repeated keys are
 * errors, at the key. */
static int mapping(struct ctx *c, yaml_node_t *map, const char *what,
		   const struct key *keys, size_t nkeys, void *arg)
{
	int err = expect(c, map, YAML_MAPPING_NODE, "a mapping");
	yaml_node_pair_t *pair;
	char names[256];

	for (pair = map->data.mapping.pairs.start;
	     !err && pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = yaml_document_get_node(c->y.doc, pair->key);
		yaml_node_t *v = yaml_document_get_node(c->y.doc, pair->value);
		const char *name;
		size_t i;

		err = pa_yaml_key(&c->y, map, pair, "", &name);
		for (i = 0; !err && i < nkeys && strcmp(keys[i].name, name); i++)
			;
		if (!err && i == nkeys) {
			key_list(names, sizeof(names), keys, nkeys);
			err = pa_yaml_bad(&c->y, k, "unknown key '%s' in %s (expected %s)",
				  name, what, names);
		}
		if (!err)
			err = keys[i].fn(c, v, arg);
	}
	return err;
}

/* ---- Device selectors ---------------------------------------------------- */

/* "0x" and 1 to max hex digits; *digits gets how many. */
static bool hex(const char *s, unsigned int max, uint32_t *v, unsigned int *digits)
{
	char *end;

	if (strncmp(s, "0x", 2) && strncmp(s, "0X", 2))
		return false;
	*digits = (unsigned int)strspn(s + 2, "0123456789abcdefABCDEF");
	if (!*digits || *digits > max || s[2 + *digits])
		return false;
	*v = (uint32_t)strtoul(s + 2, &end, 16);
	return true;
}

static int match_class(struct ctx *c, yaml_node_t *n, void *arg)
{
	static const char *const kinds[] = {
		[PA_KIND_GPU] = "gpu", [PA_KIND_ACC] = "accelerator",
		[PA_KIND_NIC] = "nic", [PA_KIND_NVME] = "nvme",
	};
	struct pa_match *m = arg;
	unsigned int digits;
	const char *s;
	int err = scalar(c, n, "a class", &s);

	for (int k = 0; !err && k < PA_KIND_OTHER; k++)
		if (!strcmp(s, kinds[k])) {
			m->kind = k;
			return 0;
		}
	if (!err && (!hex(s, 6, &m->class_value, &digits) || digits % 2))
		err = pa_yaml_bad(&c->y, n, "bad class '%s' (expected gpu, accelerator, nic, nvme, or a class code 0xBB, 0xBBSS or 0xBBSSPP)",
			  s);
	if (err)
		return err;
	/* 0x03 is a base class, 0x0302 a subclass, 0x030200 a full code. */
	m->has_class = true;
	m->class_mask = 0xffffff & ~(0xffffffu >> (digits * 4));
	m->class_value <<= 24 - digits * 4;
	return 0;
}

static int id16(struct ctx *c, yaml_node_t *n, const char *what, uint16_t *out)
{
	unsigned int digits;
	uint32_t v;
	const char *s;
	int err = scalar(c, n, what, &s);

	if (!err && !hex(s, 4, &v, &digits))
		err = pa_yaml_bad(&c->y, n, "bad %s '%s' (expected a hex id such as 0x10de)",
			  what, s);
	if (!err)
		*out = (uint16_t)v;
	return err;
}

static int match_vendor(struct ctx *c, yaml_node_t *n, void *arg)
{
	struct pa_match *m = arg;

	m->has_vendor = true;
	return id16(c, n, "vendor", &m->vendor);
}

static int match_device(struct ctx *c, yaml_node_t *n, void *arg)
{
	struct pa_match *m = arg;

	m->has_device = true;
	return id16(c, n, "device", &m->device);
}

static int match_bdf(struct ctx *c, yaml_node_t *n, void *arg)
{
	struct pa_match *m = arg;
	const char *s;
	int err = scalar(c, n, "a PCI address", &s);

	if (!err && pa_bdf_parse(s, &m->bdf))
		err = pa_yaml_bad(&c->y, n, "bad PCI address '%s' (expected DDDD:BB:DD.F or BB:DD.F)",
			  s);
	m->has_bdf = !err;
	return err;
}

static int match_driver(struct ctx *c, yaml_node_t *n, void *arg)
{
	struct pa_match *m = arg;
	const char *s;
	int err = scalar(c, n, "a driver name", &s);

	if (!err && !*s)
		err = pa_yaml_bad(&c->y, n, "empty driver name");
	if (!err) {
		free(m->driver);
		m->driver = strdup(s);
		err = m->driver ? 0 : -ENOMEM;
	}
	return err;
}

static const struct key match_keys[] = {
	{ "class", match_class }, { "vendor", match_vendor },
	{ "device", match_device }, { "bdf", match_bdf },
	{ "driver", match_driver },
};

static int matches(struct ctx *c, yaml_node_t *list, struct pa_match **out,
		   size_t *n)
{
	int err = expect(c, list, YAML_SEQUENCE_NODE, "a list of device selectors");
	yaml_node_item_t *item;

	for (item = list->data.sequence.items.start;
	     !err && item < list->data.sequence.items.top; item++) {
		yaml_node_t *node = yaml_document_get_node(c->y.doc, *item);
		struct pa_match m = { .kind = -1 }, *v;

		err = mapping(c, node, "a device selector", match_keys,
			      sizeof(match_keys) / sizeof(match_keys[0]), &m);
		if (!err && node->data.mapping.pairs.start ==
			    node->data.mapping.pairs.top)
			err = pa_yaml_bad(&c->y, node, "empty device selector");
		v = err ? NULL : realloc(*out, (*n + 1) * sizeof(*v));
		if (!err && !v)
			err = -ENOMEM;
		if (err) {
			free(m.driver);
			break;
		}
		*out = v;
		v[(*n)++] = m;
	}
	return err;
}

static int top_select(struct ctx *c, yaml_node_t *n, void *arg)
{
	(void)arg;
	return matches(c, n, &c->p->select, &c->p->nselect);
}

static int top_exclude(struct ctx *c, yaml_node_t *n, void *arg)
{
	(void)arg;
	return matches(c, n, &c->p->exclude, &c->p->nexclude);
}

/* ---- Profiles, rules, thresholds ----------------------------------------- */

static int one_profile(struct ctx *c, yaml_node_t *n, bool *profiles)
{
	const char *s;
	int err = scalar(c, n, "a profile name", &s), p;

	if (err)
		return err;
	p = pa_profile_lookup(s);
	if (p < 0)
		return pa_yaml_bad(&c->y, n, "unknown profile '%s' (expected gpudirect, vfio, baseline or expect)",
			   s);
	profiles[p] = true;
	return 0;
}

/* A list of names, or one name. */
static int top_profiles(struct ctx *c, yaml_node_t *n, void *arg)
{
	bool profiles[PA_NPROFILES] = { false };
	yaml_node_item_t *item;
	int err = 0;

	(void)arg;
	if (n->type == YAML_SCALAR_NODE) {
		err = one_profile(c, n, profiles);
	} else {
		err = expect(c, n, YAML_SEQUENCE_NODE, "a list of profiles");
		for (item = n->data.sequence.items.start;
		     !err && item < n->data.sequence.items.top; item++)
			err = one_profile(c, yaml_document_get_node(c->y.doc, *item),
					  profiles);
	}
	if (!err)
		memcpy(c->p->profiles, profiles, sizeof(profiles));
	return err;
}

/* on/true/yes: the default severity; off/false/no: off; or a severity. */
static int rule_state(struct ctx *c, yaml_node_t *n, const char *id, int *state)
{
	static const char *const on[] = { "on", "true", "yes" };
	static const char *const off[] = { "off", "false", "no" };
	const char *s;
	int err = scalar(c, n, "a rule setting", &s);

	for (size_t i = 0; !err && i < 3; i++) {
		if (!strcmp(s, on[i])) {
			*state = PA_RULE_DEFAULT;
			return 0;
		}
		if (!strcmp(s, off[i])) {
			*state = PA_RULE_OFF;
			return 0;
		}
	}
	if (!err && !(*state = (int)pa_severity_lookup(s)))
		err = pa_yaml_bad(&c->y, n, "bad severity '%s' for rule %s (expected fail, warn, info, on or off)",
			  s, id);
	return err;
}

static int top_rules(struct ctx *c, yaml_node_t *map, void *arg)
{
	int err = expect(c, map, YAML_MAPPING_NODE, "a mapping of rule ids");
	yaml_node_pair_t *pair;

	(void)arg;
	for (pair = map->data.mapping.pairs.start;
	     !err && pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = yaml_document_get_node(c->y.doc, pair->key);
		const char *id;
		int r;

		err = scalar(c, k, "a rule id", &id);
		if (err)
			break;
		r = pa_rule_lookup(id);
		if (r < 0)
			err = pa_yaml_bad(&c->y, k, "unknown rule '%s' (pcieaudit-cli check --rules lists them)",
				  id);
		else
			err = rule_state(c, yaml_document_get_node(c->y.doc, pair->value),
					 id, &c->p->rules[r]);
	}
	return err;
}

static int trap_ratio(struct ctx *c, yaml_node_t *n, void *arg)
{
	const char *s;
	char *end;
	double v;
	int err = scalar(c, n, "a number", &s);

	(void)arg;
	if (err)
		return err;
	v = strtod(s, &end);
	if (end == s || *end || !isfinite(v) || v <= 0 || v > 1)
		return pa_yaml_bad(&c->y, n, "bad bandwidth_trap_ratio '%s' (expected a number above 0 and at most 1)",
			   s);
	c->p->trap_ratio = v;
	return 0;
}

static int top_thresholds(struct ctx *c, yaml_node_t *n, void *arg)
{
	static const struct key keys[] = {
		{ "bandwidth_trap_ratio", trap_ratio },
	};

	return mapping(c, n, "thresholds", keys, 1, arg);
}

static int top_pairs(struct ctx *c, yaml_node_t *n, void *arg)
{
	const char *s;
	int err = scalar(c, n, "nearest or all", &s);

	(void)arg;
	if (!err && strcmp(s, "nearest") && strcmp(s, "all"))
		err = pa_yaml_bad(&c->y, n, "bad gpudirect_pairs '%s' (expected nearest or all)", s);
	if (!err)
		c->p->all_pairs = !strcmp(s, "all");
	return err;
}

static int top_version(struct ctx *c, yaml_node_t *n, void *arg)
{
	const char *s;
	int err = scalar(c, n, "a version", &s);
	bool *seen = arg;

	if (!err && strcmp(s, "1"))
		err = pa_yaml_bad(&c->y, n, "unsupported version '%s' (this pcieaudit-cli reads version 1)",
			  s);
	*seen = !err;
	return err;
}

/* ---- The document -------------------------------------------------------- */

static int parse_root(struct ctx *c, yaml_node_t *root)
{
	static const struct key keys[] = {
		{ "version", top_version }, { "profiles", top_profiles },
		{ "select", top_select }, { "exclude", top_exclude },
		{ "rules", top_rules }, { "thresholds", top_thresholds },
		{ "gpudirect_pairs", top_pairs },
	};
	bool version = false;
	int err;

	/* Only the version key uses arg; the others ignore it. */
	err = mapping(c, root, "the policy", keys, sizeof(keys) / sizeof(keys[0]),
		      &version);
	if (!err && !version)
		err = pa_yaml_bad(&c->y, root, "missing 'version: 1'");
	return err;
}

void pa_policy_default(struct pa_policy *p)
{
	*p = (struct pa_policy){ .trap_ratio = PA_TRAP_RATIO_DEFAULT };
	for (int i = 0; i < PA_NPROFILES; i++)
		p->profiles[i] = i != PA_PROFILE_EXPECT;
}

static void clear_matches(struct pa_match *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(m[i].driver);
	free(m);
}

void pa_policy_clear(struct pa_policy *p)
{
	clear_matches(p->select, p->nselect);
	clear_matches(p->exclude, p->nexclude);
	pa_policy_default(p);
}

/* The root of a policy or an inventory: a mapping, never empty. */
static int root_of(struct ctx *c, yaml_node_t *root,
		   int (*fn)(struct ctx *c, yaml_node_t *root))
{
	if (root)
		return fn(c, root);
	snprintf(c->y.err, c->y.errlen, "%s:1:1: empty %s (expected a mapping with 'version: 1')",
		 c->y.name, c->what);
	return -EINVAL;
}

static int policy_root(void *arg, yaml_node_t *root)
{
	return root_of(arg, root, parse_root);
}

int pa_policy_parse(const char *name, const char *text, size_t len,
		    struct pa_policy *p, char *err, size_t errlen)
{
	struct ctx c = { { name, err, errlen, NULL }, p, NULL, "policy" };
	int ret;

	pa_policy_default(p);
	ret = pa_yaml_load(&c.y, text, len, "a policy", policy_root, &c);
	if (ret)
		pa_policy_clear(p);
	return ret;
}

/* ---- Inventories ---------------------------------------------------------- */

static int inv_count(struct ctx *c, yaml_node_t *n, void *arg)
{
	struct pa_inv_device *d = arg;
	const char *s;
	char *end;
	long v;
	int err = scalar(c, n, "a count", &s);

	if (err)
		return err;
	v = strtol(s, &end, 10);
	if (end == s || *end || v < 0 || v > 65536)
		return pa_yaml_bad(&c->y, n, "bad count '%s' (expected a whole number from 0 to 65536)",
			   s);
	d->count = v;
	return 0;
}

static int link_speed(struct ctx *c, yaml_node_t *n, void *arg)
{
	static const double speeds[] = { 2.5, 5, 8, 16, 32, 64 };
	struct pa_inv_device *d = arg;
	const char *s;
	char *end;
	double v;
	int err = scalar(c, n, "a speed", &s);

	if (err)
		return err;
	v = strtod(s, &end);
	if (end != s && (!strcmp(end, "GT/s") || !strcmp(end, "GT")))
		end += strlen(end);
	for (size_t i = 0; end != s && !*end && i < 6; i++)
		if (v == speeds[i]) {
			d->speed = v;
			return 0;
		}
	return pa_yaml_bad(&c->y, n, "bad speed '%s' (expected GT/s: 2.5, 5, 8, 16, 32 or 64)", s);
}

static int link_width(struct ctx *c, yaml_node_t *n, void *arg)
{
	static const unsigned int widths[] = { 1, 2, 4, 8, 12, 16, 32 };
	struct pa_inv_device *d = arg;
	const char *s, *p;
	char *end;
	unsigned long v;
	int err = scalar(c, n, "a width", &s);

	if (err)
		return err;
	p = s[0] == 'x' || s[0] == 'X' ? s + 1 : s;
	v = *p >= '0' && *p <= '9' ? strtoul(p, &end, 10) : 0;
	for (size_t i = 0; v && !*end && i < 7; i++)
		if (v == widths[i]) {
			d->width = (unsigned int)v;
			return 0;
		}
	return pa_yaml_bad(&c->y, n, "bad width '%s' (expected x1, x2, x4, x8, x12, x16 or x32)", s);
}

static int inv_link(struct ctx *c, yaml_node_t *n, void *arg)
{
	static const struct key keys[] = {
		{ "speed", link_speed }, { "width", link_width },
	};

	return mapping(c, n, "a link", keys, 2, arg);
}

static int inv_acs(struct ctx *c, yaml_node_t *n, void *arg)
{
	struct pa_inv_device *d = arg;
	const char *s;
	int err = scalar(c, n, "an ACS expectation", &s);

	if (!err && !strcmp(s, "redirect-off"))
		d->acs = PA_INV_ACS_REDIRECT_OFF;
	else if (!err && !strcmp(s, "isolating"))
		d->acs = PA_INV_ACS_ISOLATING;
	else if (!err)
		err = pa_yaml_bad(&c->y, n, "bad acs '%s' (expected redirect-off or isolating)", s);
	return err;
}

static int inv_match_key(struct ctx *c, yaml_node_t *n, void *arg,
			 value_fn fn)
{
	struct pa_inv_device *d = arg;

	return fn(c, n, &d->match);
}

static int inv_class(struct ctx *c, yaml_node_t *n, void *arg)
{
	return inv_match_key(c, n, arg, match_class);
}

static int inv_vendor(struct ctx *c, yaml_node_t *n, void *arg)
{
	return inv_match_key(c, n, arg, match_vendor);
}

static int inv_device(struct ctx *c, yaml_node_t *n, void *arg)
{
	return inv_match_key(c, n, arg, match_device);
}

static int inv_devices(struct ctx *c, yaml_node_t *list, void *arg)
{
	static const struct key keys[] = {
		{ "class", inv_class }, { "vendor", inv_vendor },
		{ "device", inv_device }, { "count", inv_count },
		{ "link", inv_link }, { "acs", inv_acs },
	};
	struct pa_inventory *inv = c->inv;
	int err = expect(c, list, YAML_SEQUENCE_NODE, "a list of devices");
	yaml_node_item_t *item;

	(void)arg;
	for (item = list->data.sequence.items.start;
	     !err && item < list->data.sequence.items.top; item++) {
		yaml_node_t *node = yaml_document_get_node(c->y.doc, *item);
		struct pa_inv_device d = { .match = { .kind = -1 }, .count = -1 }, *v;

		d.line = node->start_mark.line + 1;
		err = mapping(c, node, "an inventory device", keys,
			      sizeof(keys) / sizeof(keys[0]), &d);
		if (!err && d.match.kind < 0 && !d.match.has_class &&
		    !d.match.has_vendor && !d.match.has_device)
			err = pa_yaml_bad(&c->y, node, "an inventory device needs class, vendor or device");
		if (!err && d.count < 0 && !d.speed && !d.width && !d.acs)
			err = pa_yaml_bad(&c->y, node, "an inventory device needs count, link or acs");
		v = err ? NULL : realloc(inv->devices, (inv->ndevices + 1) * sizeof(*v));
		if (!err && !v)
			err = -ENOMEM;
		if (!err) {
			inv->devices = v;
			v[inv->ndevices++] = d;
		}
	}
	return err;
}

static int iommu_mode(struct ctx *c, yaml_node_t *n, void *arg)
{
	const char *s;
	int err = scalar(c, n, "an IOMMU mode", &s);

	(void)arg;
	if (!err && !strcmp(s, "translated"))
		c->inv->iommu_mode = PCIEAUDIT_IOMMU_MODE_TRANSLATED;
	else if (!err && !strcmp(s, "passthrough"))
		c->inv->iommu_mode = PCIEAUDIT_IOMMU_MODE_PASSTHROUGH;
	else if (!err && !strcmp(s, "off"))
		c->inv->iommu_mode = PA_INV_IOMMU_OFF;
	else if (!err)
		err = pa_yaml_bad(&c->y, n, "bad IOMMU mode '%s' (expected translated, passthrough or off)", s);
	return err;
}

static int boolean(struct ctx *c, yaml_node_t *n, const char *what, int *out)
{
	const char *s;
	int err = scalar(c, n, what, &s);

	if (!err && (!strcmp(s, "true") || !strcmp(s, "yes")))
		*out = 1;
	else if (!err && (!strcmp(s, "false") || !strcmp(s, "no")))
		*out = 0;
	else if (!err)
		err = pa_yaml_bad(&c->y, n, "bad %s '%s' (expected true or false)", what, s);
	return err;
}

static int iommu_isolated(struct ctx *c, yaml_node_t *n, void *arg)
{
	(void)arg;
	return boolean(c, n, "isolated", &c->inv->isolated);
}

static int inv_iommu(struct ctx *c, yaml_node_t *n, void *arg)
{
	static const struct key keys[] = {
		{ "mode", iommu_mode }, { "isolated", iommu_isolated },
	};

	return mapping(c, n, "iommu", keys, 2, arg);
}

static int p2p_kind(struct ctx *c, yaml_node_t *n, enum pa_inv_pair which)
{
	const char *s;
	int err = scalar(c, n, "a P2P verdict", &s);

	for (uint32_t m = PCIEAUDIT_P2P_MAP_BUS_ADDR;
	     !err && m <= PCIEAUDIT_P2P_MAP_NOT_SUPPORTED; m++)
		if (!strcmp(s, pa_p2p_map_name(m))) {
			c->inv->p2p[which] = m;
			return 0;
		}
	return err ? err : pa_yaml_bad(&c->y, n, "bad P2P verdict '%s' (expected bus-addr, host-bridge or unsupported)",
			       s);
}

static int p2p_gpu_gpu(struct ctx *c, yaml_node_t *n, void *arg)
{
	(void)arg;
	return p2p_kind(c, n, PA_INV_GPU_GPU);
}

static int p2p_gpu_nic(struct ctx *c, yaml_node_t *n, void *arg)
{
	(void)arg;
	return p2p_kind(c, n, PA_INV_GPU_NIC);
}

static int p2p_gpu_nvme(struct ctx *c, yaml_node_t *n, void *arg)
{
	(void)arg;
	return p2p_kind(c, n, PA_INV_GPU_NVME);
}

static int inv_p2p(struct ctx *c, yaml_node_t *n, void *arg)
{
	static const struct key keys[] = {
		{ "gpu-gpu", p2p_gpu_gpu }, { "gpu-nic", p2p_gpu_nic },
		{ "gpu-nvme", p2p_gpu_nvme },
	};

	return mapping(c, n, "p2p", keys, 3, arg);
}

static int inventory_mapping(struct ctx *c, yaml_node_t *root)
{
	static const struct key keys[] = {
		{ "version", top_version }, { "devices", inv_devices },
		{ "iommu", inv_iommu }, { "p2p", inv_p2p },
	};
	bool version = false;
	int err = mapping(c, root, "the inventory", keys,
			  sizeof(keys) / sizeof(keys[0]), &version);

	if (!err && !version)
		err = pa_yaml_bad(&c->y, root, "missing 'version: 1'");
	return err;
}

static int inventory_root(void *arg, yaml_node_t *root)
{
	return root_of(arg, root, inventory_mapping);
}

void pa_inventory_clear(struct pa_inventory *inv)
{
	for (size_t i = 0; i < inv->ndevices; i++)
		free(inv->devices[i].match.driver);
	free(inv->devices);
	*inv = (struct pa_inventory){ .isolated = -1 };
}

int pa_inventory_parse(const char *name, const char *text, size_t len,
		       struct pa_inventory *inv, char *err, size_t errlen)
{
	struct pa_policy unused;
	struct ctx c = { { name, err, errlen, NULL }, &unused, inv, "inventory" };
	int ret;

	*inv = (struct pa_inventory){ .isolated = -1 };
	ret = pa_yaml_load(&c.y, text, len, "an inventory", inventory_root, &c);
	if (ret)
		pa_inventory_clear(inv);
	return ret;
}

bool pa_match_device(const struct pa_match *m, const struct pa_device *d)
{
	return (m->kind < 0 || pa_device_kind(d) == (enum pa_kind)m->kind) &&
	       (!m->has_class ||
		(d->class & m->class_mask) == (m->class_value & m->class_mask)) &&
	       (!m->has_vendor || d->vendor == m->vendor) &&
	       (!m->has_device || d->device == m->device) &&
	       (!m->has_bdf || pa_addr_eq(&d->addr, &m->bdf)) &&
	       (!m->driver || (d->driver && !strcmp(d->driver, m->driver)));
}
