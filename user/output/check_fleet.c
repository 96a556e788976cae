// SPDX-License-Identifier: GPL-2.0
/*
 * Fleet outputs: a node_exporter textfile and a Node Feature Discovery
 * features.d file. Both are read by collectors that reject the whole file
 * for one bad line, so every value is escaped or from a fixed vocabulary.
 */
#include "check_out.h"

#include <errno.h>
#include <string.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "abi_names.h"
#include "bdf.h"
#include "link.h"

/* 0 pass (info too), 1 warn, 2 fail. */
static int status_value(enum pa_severity worst)
{
	return worst == PA_SEV_FAIL ? 2 : worst == PA_SEV_WARN ? 1 : 0;
}

static void family(FILE *f, const char *name, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* A label value: backslash, double quote and newline escaped. */
static void label_value(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fprintf(f, "\\n");
		else
			fputc(*s, f);
	}
}

static void devices_label(FILE *f, const struct pa_addr_list *devs)
{
	char bdf[PA_BDF_LEN];

	for (size_t i = 0; i < devs->n; i++) {
		pa_bdf_format(&devs->addrs[i], bdf);
		fprintf(f, "%s%s", i ? "," : "", bdf);
	}
}

static bool same_series(const struct pa_finding *a, const struct pa_finding *b)
{
	if (a->rule != b->rule || a->severity != b->severity ||
	    a->devices.n != b->devices.n)
		return false;
	for (size_t i = 0; i < a->devices.n; i++)
		if (!pa_addr_eq(&a->devices.addrs[i], &b->devices.addrs[i]))
			return false;
	return true;
}

/* A collector refuses a file with a series twice: findings that differ
 * only in their message share one. */
static bool seen_before(const struct pa_check *c, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (same_series(&c->findings[j], &c->findings[i]))
			return true;
	return false;
}

static void findings(FILE *f, const struct pa_check *c)
{
	family(f, "pcieaudit_finding",
	       "One series per finding of the last check, always 1.");
	for (size_t i = 0; i < c->nfindings; i++) {
		const struct pa_finding *fd = &c->findings[i];

		if (seen_before(c, i))
			continue;
		fprintf(f, "pcieaudit_finding{id=\"%s\",profile=\"%s\",severity=\"%s\",devices=\"",
			pa_rules[fd->rule].id,
			pa_profile_name(pa_rules[fd->rule].profile),
			pa_severity_name(fd->severity));
		devices_label(f, &fd->devices);
		fprintf(f, "\"} 1\n");
	}
}

static void counts(FILE *f, const struct pa_check *c)
{
	family(f, "pcieaudit_check_findings",
	       "Findings of the last check, by profile and severity.");
	for (int p = 0; p < PA_NPROFILES; p++) {
		for (int s = PA_SEV_FAIL; c->profiles[p] && s >= PA_SEV_INFO; s--) {
			size_t n = 0;

			for (size_t i = 0; i < c->nfindings; i++)
				n += (int)pa_rules[c->findings[i].rule].profile == p &&
				     (int)c->findings[i].severity == s;
			fprintf(f, "pcieaudit_check_findings{profile=\"%s\",severity=\"%s\"} %zu\n",
				pa_profile_name(p), pa_severity_name(s), n);
		}
	}
}

static void statuses(FILE *f, const struct pa_check *c)
{
	family(f, "pcieaudit_check_status",
	       "Verdict of the last check over the profiles run: 0 pass, 1 warn, 2 fail.");
	/* Nothing judged is no pass: the series is left out, as for rules. */
	if (!pa_check_profile_skipped(c, PA_NPROFILES))
		fprintf(f, "pcieaudit_check_status %d\n",
			status_value(pa_check_profile_worst(c, PA_NPROFILES)));
	family(f, "pcieaudit_profile_status",
	       "Verdict of the last check per profile: 0 pass, 1 warn, 2 fail.");
	for (int p = 0; p < PA_NPROFILES; p++)
		if (c->profiles[p] && !pa_check_profile_skipped(c, p))
			fprintf(f, "pcieaudit_profile_status{profile=\"%s\"} %d\n",
				pa_profile_name(p),
				status_value(pa_check_profile_worst(c, p)));
	family(f, "pcieaudit_rule_status",
	       "Verdict per rule checked (skipped ones left out): 0 pass, 1 warn, 2 fail.");
	for (int r = 0; r < PA_NRULES; r++)
		if (c->state[r] == PA_RULE_RAN)
			fprintf(f, "pcieaudit_rule_status{id=\"%s\",profile=\"%s\"} %d\n",
				pa_rules[r].id,
				pa_profile_name(pa_rules[r].profile),
				status_value(pa_check_rule_worst(c, r)));
}

static void links(FILE *f, const struct pa_report *rep)
{
	char bdf[PA_BDF_LEN];

	family(f, "pcieaudit_link_downgraded",
	       "1 when a function's link trained below what both its ends support.");
	for (size_t i = 0; i < rep->ndevices; i++) {
		const struct pa_device *d = &rep->devices[i];
		unsigned int width;
		bool speed_only, below;
		double speed;

		/* The lower end of each link speaks for it. */
		if (!d->has_link || (d->flags & PCIEAUDIT_DEV_F_VIRTFN) ||
		    d->pcie_type == PCI_EXP_TYPE_ROOT_PORT ||
		    d->pcie_type == PCI_EXP_TYPE_DOWNSTREAM)
			continue;
		below = pa_link_below(rep, d, &speed, &width, &speed_only);
		pa_bdf_format(&d->addr, bdf);
		fprintf(f, "pcieaudit_link_downgraded{bdf=\"");
		label_value(f, bdf);
		fprintf(f, "\"} %d\n", below);
	}
}

int pa_check_prometheus(FILE *f, const struct pa_report *rep,
			const struct pa_check *c)
{
	statuses(f, c);
	counts(f, c);
	findings(f, c);
	links(f, rep);
	return ferror(f) ? -EIO : 0;
}

int pa_check_nfd(FILE *f, const struct pa_report *rep,
		 const struct pa_check *c)
{
	const char *mode = pa_iommu_mode_name(rep->info.iommu_def_mode);

	fprintf(f, "# Written by pcieaudit-cli check; replaced on each run.\n");
	for (int p = 0; p < PA_NPROFILES; p++)
		if (c->profiles[p])
			fprintf(f, "pcieaudit.%s=%s\n", pa_profile_name(p),
				pa_check_profile_verdict(c, p));
	fprintf(f, "pcieaudit.status=%s\n",
		pa_check_profile_verdict(c, PA_NPROFILES));
	fprintf(f, "pcieaudit.iommu-mode=%s\n", !pa_check_iommu_on(rep) ? "off" :
		mode ? mode : "unknown");
	return ferror(f) ? -EIO : 0;
}
