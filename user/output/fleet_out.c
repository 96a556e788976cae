// SPDX-License-Identifier: GPL-2.0
#include "fleet_out.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <json-c/json.h>
#include <linux/pcieaudit.h>

#include "abi_names.h"
#include "json_out.h"
#include "link.h"
#include "topo.h"

static unsigned int vendor_of(uint64_t m)
{
	return (unsigned int)(m >> 40) & 0xffff;
}

static unsigned int device_of(uint64_t m)
{
	return (unsigned int)(m >> 24) & 0xffff;
}

static unsigned int class_of(uint64_t m)
{
	return (unsigned int)m & 0xffffff;
}

static const char *noun(uint64_t m)
{
	static const char *const kinds[PA_NKINDS] = {
		[PA_KIND_GPU] = "GPU", [PA_KIND_ACC] = "accelerator",
		[PA_KIND_NIC] = "NIC", [PA_KIND_NVME] = "NVMe drive",
	};
	enum pa_kind k = pa_class_kind(class_of(m));

	if (k != PA_KIND_OTHER)
		return kinds[k];
	return class_of(m) >> 16 == 0x06 ? "bridge" : "function";
}

/* "16GT/s x8", "unknown", "none". */
static void value_text(uint32_t attr, uint64_t v, char *buf, size_t len)
{
	char speed[PA_SPEED_TEXT_LEN];

	if (v == PA_FLEET_UNKNOWN && attr != PA_FLEET_MODEL) {
		snprintf(buf, len, "unknown");
		return;
	}
	switch (attr) {
	case PA_FLEET_LINK:
		if (!v) {
			snprintf(buf, len, "none");
			break;
		}
		pa_link_format_speed(pa_link_speed_gts(v & 0xf), speed);
		snprintf(buf, len, "%s x%u", speed, (unsigned int)(v >> 4) & 0x3f);
		break;
	case PA_FLEET_ACS:
		if (v)
			snprintf(buf, len, "0x%04x", (unsigned int)v & 0xffff);
		else
			snprintf(buf, len, "none");
		break;
	case PA_FLEET_IOMMU: {
		const char *m = v == 2 ? "off" :
				pa_iommu_mode_name((uint32_t)v & 0xf);

		snprintf(buf, len, "%s", m ? m : "unknown");
		break;
	}
	default:
		if (v == PA_FLEET_ABSENT)
			snprintf(buf, len, "none");
		else
			snprintf(buf, len, "%s %04x:%04x", noun(v), vendor_of(v),
				 device_of(v));
	}
}

static const char *const attr_names[PA_FLEET_NATTRS] = {
	[PA_FLEET_MODEL] = "model", [PA_FLEET_LINK] = "link",
	[PA_FLEET_ACS] = "acs", [PA_FLEET_IOMMU] = "iommu",
};

/* What a difference is: missing, extra, moved (with where from: *from),
 * model, link, acs, iommu. */
static const char *what_of(const struct pa_fleet_group *g, size_t i,
			   const struct pa_fleet_diff **from)
{
	const struct pa_fleet_diff *d = &g->out[i];
	uint64_t major = g->slots[d->slot].major[d->attr];

	*from = NULL;
	if (d->attr != PA_FLEET_MODEL)
		return attr_names[d->attr];
	if (d->value != PA_FLEET_ABSENT && major != PA_FLEET_ABSENT)
		return "model";
	/* The same model missing elsewhere on this host: it moved. */
	for (size_t k = 0; k < g->nout; k++) {
		const struct pa_fleet_diff *o = &g->out[k];

		if (o->host != d->host || o->attr != PA_FLEET_MODEL || o->folded)
			continue;
		if (d->value == PA_FLEET_ABSENT && o->value == major)
			return "moved-from";
		if (d->value != PA_FLEET_ABSENT && o->value == PA_FLEET_ABSENT &&
		    g->slots[o->slot].major[PA_FLEET_MODEL] == d->value) {
			*from = o;
			return "moved";
		}
	}
	return d->value == PA_FLEET_ABSENT ? "missing" : "extra";
}

/* The majority's functions, by model: "8 GPU 10de:2330, ...". */
static void majority_models(FILE *f, const struct pa_fleet_group *g,
			    json_object *arr)
{
	uint64_t seen[64];
	size_t nseen = 0, functions = 0;

	for (size_t s = 1; s < g->nslots; s++)
		functions += g->slots[s].major[PA_FLEET_MODEL] != PA_FLEET_ABSENT;
	if (f)
		fprintf(f, "%zu functions", functions);
	for (size_t s = 1; s < g->nslots; s++) {
		uint64_t m = g->slots[s].major[PA_FLEET_MODEL];
		size_t n = 0;
		bool dup = false;

		if (m == PA_FLEET_ABSENT || pa_class_kind(class_of(m)) == PA_KIND_OTHER)
			continue;
		for (size_t k = 0; k < nseen && !dup; k++)
			dup = seen[k] == m;
		if (dup || nseen == 64)
			continue;
		seen[nseen++] = m;
		for (size_t t = s; t < g->nslots; t++)
			n += g->slots[t].major[PA_FLEET_MODEL] == m;
		if (f)
			fprintf(f, ", %zu %s %04x:%04x", n, noun(m), vendor_of(m),
				device_of(m));
		if (arr) {
			json_object *o = json_object_new_object();

			json_object_object_add(o, "vendor", json_object_new_int((int)vendor_of(m)));
			json_object_object_add(o, "device", json_object_new_int((int)device_of(m)));
			json_object_object_add(o, "class", json_object_new_int((int)class_of(m)));
			json_object_object_add(o, "count", json_object_new_int((int)n));
			json_object_array_add(arr, o);
		}
	}
}

static void diff_text(FILE *f, const struct pa_fleet_group *g, size_t i)
{
	const struct pa_fleet_diff *d = &g->out[i], *from;
	const struct pa_fleet_slot *s = &g->slots[d->slot];
	const char *what = what_of(g, i, &from);
	char v[64], m[64];

	value_text(d->attr, d->value, v, sizeof(v));
	value_text(d->attr, s->major[d->attr], m, sizeof(m));
	if (!strcmp(what, "missing"))
		fprintf(f, "%s missing at %s", m, s->path);
	else if (!strcmp(what, "extra"))
		fprintf(f, "extra %s at %s", v, s->path);
	else if (!strcmp(what, "moved"))
		fprintf(f, "%s moved to %s from %s", v, s->path,
			g->slots[from->slot].path);
	else if (!strcmp(what, "model"))
		fprintf(f, "%s at %s, the majority's %s", v, s->path, m);
	else if (d->attr == PA_FLEET_IOMMU)
		fprintf(f, "IOMMU %s, the majority's %s", v, m);
	else
		fprintf(f, "%s %s at %s, the majority's %s",
			d->attr == PA_FLEET_LINK ? "link" : "ACS control", v,
			s->path, m);
}

static bool shown(const struct pa_fleet_group *g, size_t i)
{
	const struct pa_fleet_diff *from;

	return !g->out[i].folded && strcmp(what_of(g, i, &from), "moved-from");
}

int pa_fleet_text(FILE *f, const struct pa_fleet *fl)
{
	size_t outliers = 0;

	for (size_t k = 0; k < fl->ngroups; k++)
		outliers += fl->groups[k].noutliers;
	fprintf(f, "%zu hosts, %zu kind%s, %zu differ%s from their kind's majority\n",
		fl->nhosts, fl->ngroups, fl->ngroups == 1 ? "" : "s", outliers,
		outliers == 1 ? "s" : "");
	for (size_t k = 0; k < fl->ngroups; k++) {
		const struct pa_fleet_group *g = &fl->groups[k];
		char iommu[32];

		value_text(PA_FLEET_IOMMU, g->slots[0].major[PA_FLEET_IOMMU], iommu,
			   sizeof(iommu));
		fprintf(f, "\nkind %zu (%016" PRIx64 "): %zu host%s\n  majority: ", k + 1,
			g->fingerprint, g->nhosts, g->nhosts == 1 ? "" : "s");
		majority_models(f, g, NULL);
		fprintf(f, "; IOMMU %s\n", iommu);
		bool any = false;

		for (size_t i = 0; i < g->nout; i++) {
			if (!i || g->out[i].host != g->out[i - 1].host) {
				fprintf(f, "  %s: ", fl->names[g->out[i].host]);
				any = false;
			}
			if (shown(g, i)) {
				fputs(any ? "; " : "", f);
				diff_text(f, g, i);
				any = true;
			}
			if (i + 1 == g->nout || g->out[i + 1].host != g->out[i].host)
				fputc('\n', f);
		}
		fprintf(f, "  %zu host%s as the majority\n", g->nhosts - g->noutliers,
			g->nhosts - g->noutliers == 1 ? "" : "s");
	}
	return ferror(f) ? -EIO : 0;
}

static json_object *diff_object(const struct pa_fleet_group *g, size_t i)
{
	const struct pa_fleet_diff *d = &g->out[i], *from;
	const struct pa_fleet_slot *s = &g->slots[d->slot];
	json_object *o = json_object_new_object();
	const char *what = what_of(g, i, &from);
	char v[64], m[64];

	value_text(d->attr, d->value, v, sizeof(v));
	value_text(d->attr, s->major[d->attr], m, sizeof(m));
	json_object_object_add(o, "what", json_object_new_string(what));
	json_object_object_add(o, "slot", d->attr == PA_FLEET_IOMMU ? NULL :
			       json_object_new_string(s->path));
	json_object_object_add(o, "from", from ? json_object_new_string(
				g->slots[from->slot].path) : NULL);
	json_object_object_add(o, "value", json_object_new_string(v));
	json_object_object_add(o, "majority", json_object_new_string(m));
	return o;
}

int pa_fleet_json(FILE *f, const struct pa_fleet *fl)
{
	json_object *root = json_object_new_object();
	json_object *groups = json_object_new_array();
	size_t outliers = 0;

	for (size_t k = 0; k < fl->ngroups; k++) {
		const struct pa_fleet_group *g = &fl->groups[k];
		json_object *grp = json_object_new_object();
		json_object *maj = json_object_new_object();
		json_object *models = json_object_new_array();
		json_object *hosts = json_object_new_array();
		json_object *host = NULL, *diffs = NULL;
		char fp[17], iommu[32];
		size_t functions = 0;

		for (size_t s = 1; s < g->nslots; s++)
			functions += g->slots[s].major[PA_FLEET_MODEL] != PA_FLEET_ABSENT;
		snprintf(fp, sizeof(fp), "%016" PRIx64, g->fingerprint);
		value_text(PA_FLEET_IOMMU, g->slots[0].major[PA_FLEET_IOMMU], iommu,
			   sizeof(iommu));
		majority_models(NULL, g, models);
		json_object_object_add(maj, "functions", json_object_new_int((int)functions));
		json_object_object_add(maj, "models", models);
		json_object_object_add(maj, "iommu", json_object_new_string(iommu));
		for (size_t i = 0; i < g->nout; i++) {
			if (!i || g->out[i].host != g->out[i - 1].host) {
				host = json_object_new_object();
				diffs = json_object_new_array();
				json_object_object_add(host, "host", json_object_new_string(
					fl->names[g->out[i].host]));
				json_object_object_add(host, "differences", diffs);
				json_object_array_add(hosts, host);
			}
			if (shown(g, i))
				json_object_array_add(diffs, diff_object(g, i));
		}
		outliers += g->noutliers;
		json_object_object_add(grp, "kind", json_object_new_int((int)k + 1));
		json_object_object_add(grp, "fingerprint", json_object_new_string(fp));
		json_object_object_add(grp, "hosts", json_object_new_int((int)g->nhosts));
		json_object_object_add(grp, "majority", maj);
		json_object_object_add(grp, "outliers", hosts);
		json_object_array_add(groups, grp);
	}
	json_object_object_add(root, "schema_version", json_object_new_int(PA_JSON_SCHEMA_VERSION));
	json_object_object_add(root, "hosts", json_object_new_int((int)fl->nhosts));
	json_object_object_add(root, "outliers", json_object_new_int((int)outliers));
	json_object_object_add(root, "groups", groups);
	return pa_json_print(f, root);
}
