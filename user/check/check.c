// SPDX-License-Identifier: GPL-2.0
#include "check.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "exitcodes.h"
#include "link.h"
#include "p2p_infer.h"
#include "strbuf.h"
#include "topo.h"

const char *pa_remedy_kind_name(enum pa_remedy_kind kind)
{
	static const char *const names[] = {
		[PA_REMEDY_CMDLINE_ADD]		= "cmdline-add",
		[PA_REMEDY_CMDLINE_REMOVE]	= "cmdline-remove",
		[PA_REMEDY_MODULE_PARAM]	= "module-param",
		[PA_REMEDY_BIOS]		= "bios",
		[PA_REMEDY_HYPERVISOR]		= "hypervisor",
		[PA_REMEDY_HARDWARE]		= "hardware",
		[PA_REMEDY_COMMAND]		= "command",
		[PA_REMEDY_KERNEL]		= "kernel",
	};

	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : NULL;
}

static char *vformat(const char *fmt, va_list ap)
{
	char *s = NULL;
	va_list copy;
	int n;

	va_copy(copy, ap);
	n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n >= 0 && (s = malloc((size_t)n + 1)))
		vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

static enum pa_severity effective(const struct pa_check *c,
				  enum pa_rule_id rule, enum pa_severity sev)
{
	int set = c->policy->rules[rule];

	if (set > 0)
		return (enum pa_severity)set;
	return sev ? sev : pa_rules[rule].severity;
}

void pa_check_add(struct pa_check *c, enum pa_rule_id rule,
		  enum pa_severity severity, const struct pa_addr *devs,
		  size_t ndevs, struct pa_remedy remedy, const char *fmt, ...)
{
	struct pa_finding f = {
		.rule = rule, .severity = effective(c, rule, severity),
		.remedy_kind = remedy.text ? remedy.kind : PA_REMEDY_NONE,
	};
	struct pa_finding *v;
	va_list ap;
	int err = 0;

	if (c->err || c->state[rule] != PA_RULE_RAN)
		return;
	va_start(ap, fmt);
	f.message = vformat(fmt, ap);
	va_end(ap);
	if (remedy.text)
		f.remedy = strdup(remedy.text);
	for (size_t i = 0; !err && i < ndevs; i++)
		err = pa_addr_list_add(&f.devices, &devs[i]);
	v = realloc(c->findings, (c->nfindings + 1) * sizeof(*v));
	if (err || !v || !f.message || (remedy.text && !f.remedy)) {
		if (v)
			c->findings = v;
		free(f.message);
		free(f.remedy);
		pa_addr_list_clear(&f.devices);
		c->err = -ENOMEM;
		return;
	}
	c->findings = v;
	v[c->nfindings++] = f;
}

void pa_check_group_last(struct pa_check *c, size_t nfindings_before,
			 const char *group, const char *member)
{
	struct pa_finding *f;

	if (c->err || c->nfindings != nfindings_before + 1)
		return;
	f = &c->findings[c->nfindings - 1];
	f->group = strdup(group);
	f->member = strdup(member);
	if (!f->group || !f->member) {
		free(f->group);
		free(f->member);
		f->group = f->member = NULL;
		c->err = -ENOMEM;
	}
}

static bool same_string(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

bool pa_finding_same_group(const struct pa_finding *a,
			   const struct pa_finding *b)
{
	return a->group && b->group && a->rule == b->rule &&
	       a->severity == b->severity && !strcmp(a->group, b->group) &&
	       a->remedy_kind == b->remedy_kind &&
	       same_string(a->remedy, b->remedy);
}

static void set_note(struct pa_check *c, enum pa_rule_id rule,
		     const char *fmt, va_list ap)
{
	free(c->note[rule]);
	c->note[rule] = vformat(fmt, ap);
	if (!c->note[rule])
		c->err = -ENOMEM;
}

void pa_check_skip(struct pa_check *c, enum pa_rule_id rule,
		   const char *fmt, ...)
{
	va_list ap;

	if (c->state[rule] != PA_RULE_RAN)
		return;
	c->state[rule] = PA_RULE_SKIPPED;
	va_start(ap, fmt);
	set_note(c, rule, fmt, ap);
	va_end(ap);
}

void pa_check_note(struct pa_check *c, enum pa_rule_id rule,
		   const char *fmt, ...)
{
	va_list ap;

	if (c->state[rule] != PA_RULE_RAN)
		return;
	va_start(ap, fmt);
	set_note(c, rule, fmt, ap);
	va_end(ap);
}

bool pa_check_vfio_driver(const char *driver)
{
	/* vfio-pci and its variant drivers (mlx5_vfio_pci, ...). */
	return driver && strstr(driver, "vfio");
}

static bool default_selects(enum pa_profile profile, const struct pa_device *d)
{
	bool topo = pa_topo_default_class(d->class) &&
		    !(d->flags & (PCIEAUDIT_DEV_F_VIRTFN | PCIEAUDIT_DEV_F_BRIDGE));

	switch (profile) {
	case PA_PROFILE_GPUDIRECT:
		return topo;
	case PA_PROFILE_VFIO:
		return topo || pa_check_vfio_driver(d->driver);
	default:
		return true;
	}
}

static bool policy_selects(const struct pa_policy *p,
			   enum pa_profile profile, const struct pa_device *dev)
{
	bool in = !p->nselect && default_selects(profile, dev);

	for (size_t i = 0; !in && i < p->nselect; i++)
		in = pa_match_device(&p->select[i], dev);
	for (size_t i = 0; in && i < p->nexclude; i++)
		in = !pa_match_device(&p->exclude[i], dev);
	return in;
}

bool pa_check_selects(const struct pa_check *c, enum pa_profile profile,
		      const struct pa_device *dev)
{
	return policy_selects(c->policy, profile, dev);
}

bool pa_check_gpudirect_partner(const struct pa_policy *policy,
				const struct pa_device *dev)
{
	return pa_device_kind(dev) != PA_KIND_OTHER &&
	       policy_selects(policy, PA_PROFILE_GPUDIRECT, dev);
}

const char *pa_check_noun(const struct pa_device *d)
{
	static const char *const kinds[PA_NKINDS] = {
		[PA_KIND_GPU] = "GPU", [PA_KIND_ACC] = "accelerator",
		[PA_KIND_NIC] = "NIC", [PA_KIND_NVME] = "NVMe drive",
	};
	enum pa_kind k = pa_device_kind(d);

	if (k != PA_KIND_OTHER && !(d->flags & PCIEAUDIT_DEV_F_BRIDGE))
		return kinds[k];
	switch (d->pcie_type) {
	case PCI_EXP_TYPE_ROOT_PORT:
		return "root port";
	case PCI_EXP_TYPE_UPSTREAM:
		return "switch upstream port";
	case PCI_EXP_TYPE_DOWNSTREAM:
		return "switch downstream port";
	case PCI_EXP_TYPE_PCI_BRIDGE:
		return "PCIe-to-PCI bridge";
	case PCI_EXP_TYPE_PCIE_BRIDGE:
		return "PCI-to-PCIe bridge";
	default:
		return d->flags & PCIEAUDIT_DEV_F_BRIDGE ? "bridge" : "function";
	}
}

bool pa_check_iommu_on(const struct pa_report *rep)
{
	return (rep->info.features & PCIEAUDIT_F_IOMMU_PRESENT) || rep->ngroups;
}

bool pa_check_cpu_is(const struct pa_report *rep, const char *vendor)
{
	return rep->has_host && rep->host.cpu_vendor &&
	       !strcmp(rep->host.cpu_vendor, vendor);
}

/* A parameter that turns the IOMMU off, as written, or NULL. */
static const struct pa_param *iommu_off_param(const struct pa_check *c)
{
	const struct pa_cmdline *cl = &c->cmdline;
	const struct pa_param *p = pa_cmdline_option(cl, "iommu", "off");

	if (!p && pa_check_cpu_is(c->rep, PA_CPU_INTEL))
		p = pa_cmdline_option(cl, "intel_iommu", "off");
	if (!p && !pa_check_cpu_is(c->rep, PA_CPU_INTEL))
		p = pa_cmdline_option(cl, "amd_iommu", "off");
	return p;
}

/* Whether the firmware's tables are known to describe no IOMMU. */
static bool no_iommu_table(const struct pa_report *rep)
{
	return rep->has_host && rep->host.iommu_table &&
	       !strcmp(rep->host.iommu_table, "none");
}

const char *pa_check_iommu_why(const struct pa_check *c)
{
	const struct pa_report *rep = c->rep;
	const char *table = rep->has_host ? rep->host.iommu_table : NULL;

	if (pa_info_iommu_not_built(&rep->info))
		return ": this kernel is built without IOMMU support (CONFIG_IOMMU_API is off), so no firmware setting or kernel parameter can turn it on";
	if (c->has_cmdline && iommu_off_param(c))
		return ": a kernel parameter turns it off";
	if (table && !strcmp(table, "DMAR"))
		return ": the firmware describes VT-d (ACPI DMAR table), but the kernel did not enable it; Debian's kernels need intel_iommu=on";
	if (table && strcmp(table, "none"))
		return ": the firmware describes one, but the kernel did not enable it";
	if (table && rep->host.hypervisor == 1)
		return ": this VM has no virtual IOMMU (no ACPI DMAR, IVRS or VIOT table)";
	if (rep->has_host && rep->host.hypervisor == 1)
		return ": this VM shows no virtual IOMMU";
	if (table)
		return ": the firmware describes none (no ACPI DMAR or IVRS table), so it is off or absent";
	if (pa_check_cpu_is(rep, PA_CPU_INTEL))
		return "; Intel VT-d needs intel_iommu=on on kernels built without CONFIG_INTEL_IOMMU_DEFAULT_ON, such as Debian's";
	return "";
}

struct pa_remedy pa_check_iommu_remedy(const struct pa_check *c,
				       char *buf, size_t len)
{
	const struct pa_report *rep = c->rep;
	const struct pa_param *off = c->has_cmdline ? iommu_off_param(c) : NULL;
	bool intel = pa_check_cpu_is(rep, PA_CPU_INTEL);
	bool vt_d = rep->has_host && rep->host.iommu_table &&
		    !strcmp(rep->host.iommu_table, "DMAR");
	bool ivrs = rep->has_host && rep->host.iommu_table &&
		    !strcmp(rep->host.iommu_table, "IVRS");
	bool vm = rep->has_host && rep->host.hypervisor == 1;

	if (pa_info_iommu_not_built(&rep->info)) {
		snprintf(buf, len, "boot a kernel built with CONFIG_IOMMU_API and the IOMMU driver (CONFIG_INTEL_IOMMU, CONFIG_AMD_IOMMU), such as Debian's linux-image-amd64");
		return (struct pa_remedy){ PA_REMEDY_KERNEL, buf };
	}
	if (off) {
		snprintf(buf, len, "%s", off->text);
		return (struct pa_remedy){ PA_REMEDY_CMDLINE_REMOVE, buf };
	}
	if ((vt_d || (intel && !vm && !no_iommu_table(rep))) &&
	    c->has_cmdline &&
	    !pa_cmdline_option(&c->cmdline, "intel_iommu", "on")) {
		snprintf(buf, len, "intel_iommu=on");
		return (struct pa_remedy){ PA_REMEDY_CMDLINE_ADD, buf };
	}
	/* A VM whose firmware describes no IOMMU, or describes nothing. */
	if (vm && (!rep->host.iommu_table || no_iommu_table(rep))) {
		snprintf(buf, len, "give the VM a virtual IOMMU (QEMU: -device intel-iommu,caching-mode=on or virtio-iommu-pci; in a cloud, an instance type that has one)");
		return (struct pa_remedy){ PA_REMEDY_HYPERVISOR, buf };
	}
	/* The firmware's table names the IOMMU; the CPU only hints at it. */
	if (vt_d || (intel && !ivrs))
		snprintf(buf, len, "enable Intel VT-d in the firmware setup");
	else if (ivrs || pa_check_cpu_is(rep, PA_CPU_AMD))
		snprintf(buf, len, "enable the IOMMU (AMD-Vi) in the firmware setup");
	else
		snprintf(buf, len, "enable VT-d or AMD-Vi (IOMMU) in the firmware setup; a VM needs a virtual IOMMU from its hypervisor");
	return (struct pa_remedy){ PA_REMEDY_BIOS, buf };
}

bool pa_check_link_idle(const struct pa_report *rep, const struct pa_device *d)
{
	const struct pa_device *owner = pa_link_owner(rep, d);
	unsigned int width;
	bool speed_only;
	double speed;

	return pa_device_kind(owner) == PA_KIND_GPU &&
	       pa_link_below(rep, owner, &speed, &width, &speed_only) &&
	       speed_only;
}

static void start_profile(struct pa_check *c, enum pa_profile profile)
{
	c->profiles[profile] = true;
	for (int r = 0; r < PA_NRULES; r++)
		if (pa_rules[r].profile == profile &&
		    c->policy->rules[r] != PA_RULE_OFF)
			c->state[r] = PA_RULE_RAN;
}

int pa_check_infer_pairs(struct pa_report *rep,
			 const struct pa_policy *policy)
{
	struct pa_addr *addrs;
	size_t n = 0;
	int err;

	/* expect compares the pairs gpudirect judges with a golden host's. */
	if (!policy->profiles[PA_PROFILE_GPUDIRECT] && !policy->expect)
		return 0;
	addrs = calloc(rep->ndevices + 1, sizeof(*addrs));
	if (!addrs)
		return -ENOMEM;
	for (size_t i = 0; i < rep->ndevices; i++)
		if (pa_check_gpudirect_partner(policy, &rep->devices[i]))
			addrs[n++] = rep->devices[i].addr;
	err = pa_p2p_fill(rep, addrs, n);
	free(addrs);
	return err;
}

/* By rule, in the table's order; within a rule, in the order found. */
static int order_findings(struct pa_check *c)
{
	struct pa_finding *v = calloc(c->nfindings + 1, sizeof(*v));
	size_t n = 0;

	if (!v)
		return -ENOMEM;
	for (int r = 0; r < PA_NRULES; r++)
		for (size_t i = 0; i < c->nfindings; i++)
			if (c->findings[i].rule == (enum pa_rule_id)r)
				v[n++] = c->findings[i];
	free(c->findings);
	c->findings = v;
	return 0;
}

int pa_check_run(const struct pa_report *rep, const struct pa_policy *policy,
		 struct pa_check *c)
{
	static void (*const run[PA_NPROFILES])(struct pa_check *) = {
		[PA_PROFILE_GPUDIRECT]	= pa_check_gpudirect,
		[PA_PROFILE_VFIO]	= pa_check_vfio,
		[PA_PROFILE_BASELINE]	= pa_check_baseline,
		[PA_PROFILE_EXPECT]	= pa_check_expect,
	};

	*c = (struct pa_check){ .policy = policy, .rep = rep };
	if (rep->has_host && rep->host.cmdline) {
		c->err = pa_cmdline_parse(rep->host.cmdline, &c->cmdline);
		c->has_cmdline = !c->err;
	}
	for (int p = 0; p < PA_NPROFILES && !c->err; p++) {
		if (!policy->profiles[p] ||
		    (p == PA_PROFILE_EXPECT && !policy->expect))
			continue;
		start_profile(c, p);
		run[p](c);
	}
	if (!c->err)
		c->err = order_findings(c);
	if (c->err) {
		int err = c->err;

		pa_check_clear(c);
		return err;
	}
	return 0;
}

void pa_check_clear(struct pa_check *c)
{
	for (size_t i = 0; i < c->nfindings; i++) {
		free(c->findings[i].message);
		free(c->findings[i].remedy);
		free(c->findings[i].group);
		free(c->findings[i].member);
		pa_addr_list_clear(&c->findings[i].devices);
	}
	free(c->findings);
	for (int r = 0; r < PA_NRULES; r++)
		free(c->note[r]);
	pa_cmdline_clear(&c->cmdline);
	*c = (struct pa_check){ 0 };
}

enum pa_severity pa_check_rule_worst(const struct pa_check *c,
				     enum pa_rule_id rule)
{
	enum pa_severity worst = 0;

	for (size_t i = 0; i < c->nfindings; i++)
		if (c->findings[i].rule == rule && c->findings[i].severity > worst)
			worst = c->findings[i].severity;
	return worst;
}

enum pa_severity pa_check_profile_worst(const struct pa_check *c,
					unsigned int profile)
{
	enum pa_severity worst = 0;

	for (size_t i = 0; i < c->nfindings; i++) {
		const struct pa_finding *f = &c->findings[i];

		if ((profile >= PA_NPROFILES ||
		     pa_rules[f->rule].profile == profile) && f->severity > worst)
			worst = f->severity;
	}
	return worst;
}

bool pa_check_profile_skipped(const struct pa_check *c, unsigned int profile)
{
	bool skipped = false;

	if (pa_check_profile_worst(c, profile))
		return false;
	for (int r = 0; r < PA_NRULES; r++) {
		if (profile < PA_NPROFILES && pa_rules[r].profile != profile)
			continue;
		if (c->state[r] == PA_RULE_RAN)
			return false;
		if (c->state[r] == PA_RULE_SKIPPED)
			skipped = true;
	}
	return skipped;
}

const char *pa_check_profile_verdict(const struct pa_check *c,
				     unsigned int profile)
{
	if (pa_check_profile_skipped(c, profile))
		return "skip";
	return pa_check_verdict(pa_check_profile_worst(c, profile));
}

const char *pa_check_verdict(enum pa_severity worst)
{
	return worst == PA_SEV_FAIL ? "fail" : worst == PA_SEV_WARN ? "warn" :
	       "pass";
}

int pa_check_exit_code(const struct pa_check *c)
{
	enum pa_severity worst = pa_check_profile_worst(c, PA_NPROFILES);

	return worst == PA_SEV_FAIL ? PA_EXIT_FINDING :
	       worst == PA_SEV_WARN ? PA_EXIT_WARNINGS : PA_EXIT_OK;
}
