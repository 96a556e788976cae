// SPDX-License-Identifier: GPL-2.0
#include "vfio_plan_out.h"

#include <errno.h>
#include <stdio.h>
#include <json-c/json.h>
#include <linux/pcieaudit.h>

#include "abi_names.h"
#include "bdf.h"
#include "json_out.h"

static const char *const reset_kinds[] = {
	[PA_VFIO_RESET_UNKNOWN] = "unknown",
	[PA_VFIO_RESET_OK] = "own",
	[PA_VFIO_RESET_BUS] = "bus",
	[PA_VFIO_RESET_BUS_SHARED] = "bus-shared",
	[PA_VFIO_RESET_NONE] = "none",
};

static const char *intremap_text(uint32_t v)
{
	return v == PA_INTREMAP_ON ? "on" : v == PA_INTREMAP_OFF ? "off" : NULL;
}

/* Without IOMMU groups the plan cannot know who must go too. */
static const char *verdict(const struct pa_vfio_plan *p)
{
	if (!p->worst && p->c->rep->info.iommu_unknown)
		return "skip";
	return pa_check_verdict(p->worst);
}

static void sriov_text(FILE *f, const struct pa_device *d)
{
	const struct pa_passthru *pt = &d->pt;

	if (!pt->known || !pt->has_sriov)
		return;
	fprintf(f, "      SR-IOV: %u VFs, %u enabled, VF BARs %s\n", pt->total_vfs,
		pt->sysfs_num_vfs >= 0 ? (unsigned int)pt->sysfs_num_vfs : pt->num_vfs,
		pt->vf_bars_assigned < 0 ? "unknown" :
		pt->vf_bars_assigned ? "assigned" : "without space");
}

static void bars_text(FILE *f, const struct pa_device *d)
{
	for (size_t i = 0; i < d->nbars; i++) {
		const struct pa_bar *b = &d->bars[i];

		if (pa_vfio_bar_place(b) == PA_VFIO_BAR_SMALL)
			continue;
		fprintf(f, "      BAR %u: %llu MiB 64-bit prefetchable, %s\n", b->index,
			(unsigned long long)(b->size >> 20),
			b->flags & PCIEAUDIT_BAR_F_UNASSIGNED ? "no space" :
			b->has_start ? (b->start >= (1ull << 32) ? "above 4 GiB" :
					"below 4 GiB") : "place unknown");
	}
}

int pa_vfio_plan_text(FILE *f, const struct pa_report *rep,
		      const struct pa_vfio_plan *p)
{
	char bdf[PA_BDF_LEN];
	const char *mode = pa_iommu_mode_name(rep->info.iommu_def_mode);

	fprintf(f, "IOMMU: %s; interrupt remapping: %s (%s)\n",
		rep->info.iommu_unknown ? "unknown" : mode ? mode : "off",
		intremap_text(p->ir.state) ? intremap_text(p->ir.state) : "unknown",
		p->ir.how);
	fprintf(f, "\nIOMMU groups: ");
	for (size_t i = 0; i < p->ngroups; i++)
		fprintf(f, "%s%u", i ? ", " : "", p->groups[i]);
	fprintf(f, "%s\ndevices that go to the guest:\n", p->ngroups ? "" : "none");
	for (size_t i = 0; i < p->ndevs; i++) {
		const struct pa_vfio_plan_dev *v = &p->devs[i];
		char group[24] = "no IOMMU group";

		if (v->d->has_iommu)
			snprintf(group, sizeof(group), "group %u", v->d->iommu.group);
		pa_bdf_format(&v->d->addr, bdf);
		fprintf(f, "  %s %04x:%04x %s, %s, driver %s%s\n", bdf,
			v->d->vendor, v->d->device, pa_check_noun(v->d), group,
			v->d->driver_unknown ? "unknown" : v->d->driver ? v->d->driver : "none",
			v->asked ? "" : " (in the same group: must go too)");
		fprintf(f, "      reset: %s (%s)\n", reset_kinds[v->reset.kind],
			v->reset.methods);
		sriov_text(f, v->d);
		bars_text(f, v->d);
	}
	fprintf(f, "\nblockers:%s\n", p->nblockers ? "" : " none");
	for (size_t i = 0; i < p->nblockers; i++) {
		const struct pa_finding *b = p->blockers[i];

		fprintf(f, "  %s %s: %s\n", pa_severity_name(b->severity),
			pa_rules[b->rule].id, b->message);
		if (b->remedy)
			fprintf(f, "      remedy: %s\n", b->remedy);
	}
	for (int r = 0, any = 0; r < PA_NRULES; r++)
		if (pa_rules[r].profile == PA_PROFILE_VFIO &&
		    p->c->state[r] == PA_RULE_SKIPPED)
			fprintf(f, "%s  %s: %s\n", any++ ? "" : "\nnot judged:\n",
				pa_rules[r].id, p->c->note[r] ? p->c->note[r] : "");
	fprintf(f, "\nsteps:\n");
	for (size_t i = 0; i < p->nsteps; i++)
		fprintf(f, "%zu. %s:\n%s\n", i + 1, p->steps[i].what, p->steps[i].text);
	fprintf(f, "verdict: %s\n", verdict(p));
	return ferror(f) ? -EIO : 0;
}

static json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static json_object *dev_json(const struct pa_vfio_plan_dev *v)
{
	json_object *o = json_object_new_object(), *sh = json_object_new_array();
	char bdf[PA_BDF_LEN];

	pa_bdf_format(&v->d->addr, bdf);
	json_object_object_add(o, "bdf", json_object_new_string(bdf));
	json_object_object_add(o, "asked", json_object_new_boolean(v->asked));
	json_object_object_add(o, "group", v->d->has_iommu ?
			       json_object_new_int64(v->d->iommu.group) : NULL);
	json_object_object_add(o, "driver", v->d->driver_unknown ? NULL :
			       str_or_null(v->d->driver));
	json_object_object_add(o, "reset", json_object_new_string(reset_kinds[v->reset.kind]));
	json_object_object_add(o, "reset_methods", json_object_new_string(v->reset.methods));
	for (size_t i = 0; i < v->reset.sharing.n; i++) {
		pa_bdf_format(&v->reset.sharing.addrs[i], bdf);
		json_object_array_add(sh, json_object_new_string(bdf));
	}
	json_object_object_add(o, "reset_shared_with", sh);
	json_object_object_add(o, "sriov_total_vfs", v->d->pt.known && v->d->pt.has_sriov ?
			       json_object_new_int(v->d->pt.total_vfs) : NULL);
	return o;
}

int pa_vfio_plan_json(FILE *f, const struct pa_report *rep,
		      const struct pa_vfio_plan *p)
{
	json_object *root = json_object_new_object();
	json_object *devs = json_object_new_array(), *groups = json_object_new_array();
	json_object *blockers = json_object_new_array(), *steps = json_object_new_array();

	json_object_object_add(root, "iommu_mode", rep->info.iommu_unknown ? NULL :
			       str_or_null(pa_iommu_mode_name(rep->info.iommu_def_mode)));
	json_object_object_add(root, "interrupt_remapping", str_or_null(intremap_text(p->ir.state)));
	json_object_object_add(root, "interrupt_remapping_source", str_or_null(p->ir.how));
	for (size_t i = 0; i < p->ngroups; i++)
		json_object_array_add(groups, json_object_new_int64(p->groups[i]));
	json_object_object_add(root, "groups", groups);
	for (size_t i = 0; i < p->ndevs; i++)
		json_object_array_add(devs, dev_json(&p->devs[i]));
	json_object_object_add(root, "devices", devs);
	for (size_t i = 0; i < p->nblockers; i++) {
		const struct pa_finding *b = p->blockers[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "rule", json_object_new_string(pa_rules[b->rule].id));
		json_object_object_add(o, "severity", json_object_new_string(pa_severity_name(b->severity)));
		json_object_object_add(o, "message", json_object_new_string(b->message));
		json_object_object_add(o, "remedy", str_or_null(b->remedy));
		json_object_array_add(blockers, o);
	}
	json_object_object_add(root, "blockers", blockers);
	{
		json_object *skipped = json_object_new_array();

		for (int r = 0; r < PA_NRULES; r++) {
			json_object *o;

			if (pa_rules[r].profile != PA_PROFILE_VFIO ||
			    p->c->state[r] != PA_RULE_SKIPPED)
				continue;
			o = json_object_new_object();
			json_object_object_add(o, "rule", json_object_new_string(pa_rules[r].id));
			json_object_object_add(o, "reason", str_or_null(p->c->note[r]));
			json_object_array_add(skipped, o);
		}
		json_object_object_add(root, "not_judged", skipped);
	}
	for (size_t i = 0; i < p->nsteps; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "kind", json_object_new_string(p->steps[i].kind));
		json_object_object_add(o, "what", json_object_new_string(p->steps[i].what));
		json_object_object_add(o, "text", json_object_new_string(p->steps[i].text));
		json_object_array_add(steps, o);
	}
	json_object_object_add(root, "steps", steps);
	json_object_object_add(root, "verdict", json_object_new_string(verdict(p)));
	return pa_json_print(f, root);
}
