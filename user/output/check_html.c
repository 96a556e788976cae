// SPDX-License-Identifier: GPL-2.0
/* check --format html: one page to attach to a ticket. */
#include "check_out.h"

#include <errno.h>
#include <string.h>

#include "abi_names.h"
#include "bdf.h"
#include "rules.h"

/* Printable, no web font, no script: the page reads the same on paper. */
static const char style[] =
	"body{font-family:'DejaVu Sans',Arial,sans-serif;font-size:14px;"
	"margin:1.5em;color:#111;max-width:1400px}"
	"h1{font-size:1.4em}h2{font-size:1.15em;border-bottom:1px solid #999;"
	"margin-top:1.5em}"
	"table{border-collapse:collapse;margin:.5em 0}"
	"td,th{border:1px solid #bbb;padding:2px 6px;text-align:left;"
	"vertical-align:top}"
	".verdict-fail,.sev-fail .sev{color:#b00000;font-weight:bold}"
	".verdict-warn,.sev-warn .sev{color:#a05a00;font-weight:bold}"
	".verdict-pass{color:#1b7e5a;font-weight:bold}"
	".sev-info .sev{color:#2050a0}"
	".finding{border:1px solid #ccc;border-left:6px solid #999;margin:.6em 0;"
	"padding:.4em .8em;page-break-inside:avoid}"
	".finding.sev-fail{border-left-color:#b00000}"
	".finding.sev-warn{border-left-color:#d08000}"
	".finding.sev-info{border-left-color:#2050a0}"
	"pre{white-space:pre-wrap;background:#f4f4f4;padding:.3em .5em;margin:.3em 0}"
	".matrix td{font-family:'DejaVu Sans Mono',monospace;text-align:center}"
	"#picture svg{max-width:100%;height:auto}"
	"@media print{body{margin:0;font-size:11px}#picture svg{max-width:100%}"
	"h2{page-break-after:avoid}.finding{border-left-width:3px}}";

/* Text escaped for HTML, controls but tab and newline dropped. */
static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			if (c >= 0x20 || c == '\n' || c == '\t')
				fputc(c, f);
		}
	}
}

static void row(FILE *f, const char *key, const char *value)
{
	fprintf(f, "<tr><th>%s</th><td>", key);
	esc(f, value ? value : "unknown");
	fputs("</td></tr>\n", f);
}

static void host_facts(FILE *f, const struct pa_report *rep, const char *source)
{
	char n[32];

	fputs("<section id=\"host\"><h2>Host</h2>\n<table class=\"host\">\n", f);
	row(f, "source", source);
	row(f, "kernel", rep->info.kernel_release);
	row(f, "module", rep->info.module_version);
	row(f, "IOMMU default mode", rep->info.iommu_unknown ? NULL :
	    pa_iommu_mode_name(rep->info.iommu_def_mode));
	snprintf(n, sizeof(n), "%zu", rep->ndevices);
	row(f, "PCI functions", n);
	snprintf(n, sizeof(n), "%zu", rep->ngroups);
	row(f, "IOMMU groups", rep->ngroups ? n : NULL);
	if (rep->has_host) {
		row(f, "CPU", rep->host.cpu_vendor);
		snprintf(n, sizeof(n), "%d", rep->host.numa_nodes);
		row(f, "NUMA nodes", rep->host.numa_nodes > 0 ? n : NULL);
		row(f, "kernel command line", rep->host.cmdline);
	}
	fputs("</table>\n", f);
	for (size_t i = 0; i < rep->warnings.n; i++) {
		fputs("<p class=\"input-warning\">input: ", f);
		esc(f, rep->warnings.text[i]);
		fputs("</p>\n", f);
	}
	fputs("</section>\n", f);
}

static void summary(FILE *f, const struct pa_check *c)
{
	fputs("<section id=\"summary\"><h2>Verdict</h2>\n<table class=\"summary\">"
	      "<tr><th>profile</th><th>verdict</th></tr>\n", f);
	for (unsigned int p = 0; p < PA_NPROFILES; p++) {
		const char *v;

		if (!c->profiles[p])
			continue;
		v = pa_check_profile_verdict(c, p);
		fprintf(f, "<tr><td>%s</td><td class=\"verdict-%s\">%s</td></tr>\n",
			pa_profile_name(p), v, v);
	}
	fputs("</table></section>\n", f);
}

/* Graphviz's document without its XML prolog: an svg element inline. */
static void picture(FILE *f, const char *svg, const char *why)
{
	const char *start = svg ? strstr(svg, "<svg") : NULL;

	fputs("<section id=\"picture\"><h2>Fabric</h2>\n", f);
	if (start) {
		fputs(start, f);
	} else {
		fputs("<p class=\"unknown\">The fabric is not drawn: ", f);
		esc(f, why ? why : "no picture");
		fputs("</p>\n", f);
	}
	fputs("</section>\n", f);
}

static void finding(FILE *f, const struct pa_check *c, size_t i)
{
	const struct pa_finding *fd = &c->findings[i];
	const char *sev = pa_severity_name(fd->severity);
	char bdf[PA_BDF_LEN];

	fprintf(f, "<div class=\"finding sev-%s\" id=\"finding-%zu\" data-rule=\"%s\">\n"
		"<p><span class=\"sev\">%s</span> <code class=\"rule\">%s</code>: "
		"<span class=\"message\">", sev, i, pa_rules[fd->rule].id, sev,
		pa_rules[fd->rule].id);
	esc(f, fd->message);
	fputs("</span></p>\n", f);
	if (fd->devices.n) {
		fputs("<p class=\"devices\">devices:", f);
		for (size_t d = 0; d < fd->devices.n; d++) {
			pa_bdf_format(&fd->devices.addrs[d], bdf);
			fprintf(f, " <code class=\"bdf\">%s</code>", bdf);
		}
		fputs("</p>\n", f);
	}
	if (fd->remedy) {
		const char *kind = pa_remedy_kind_name(fd->remedy_kind);

		fprintf(f, "<p class=\"remedy-kind\">remedy%s%s:</p><pre class=\"remedy\">",
			kind ? ", " : "", kind ? kind : "");
		esc(f, fd->remedy);
		fputs("</pre>\n", f);
	}
	fputs("</div>\n", f);
}

static void findings(FILE *f, const struct pa_check *c)
{
	fputs("<section id=\"findings\"><h2>Findings</h2>\n", f);
	if (!c->nfindings)
		fputs("<p>No findings.</p>\n", f);
	for (size_t i = 0; i < c->nfindings; i++)
		finding(f, c, i);
	fputs("</section>\n<section id=\"rules\"><h2>Rules</h2>\n<table class=\"rules\">"
	      "<tr><th>rule</th><th>status</th><th>note</th></tr>\n", f);
	for (int r = 0; r < PA_NRULES; r++) {
		if (c->state[r] == PA_RULE_NOT_RUN)
			continue;
		fprintf(f, "<tr class=\"rule-%s\"><td><code>%s</code></td><td>%s</td><td>",
			pa_check_rule_status(c, r), pa_rules[r].id,
			pa_check_rule_status(c, r));
		esc(f, c->note[r]);
		fputs("</td></tr>\n", f);
	}
	fputs("</table></section>\n", f);
}

static void matrix(FILE *f, const struct pa_report *rep,
		   const struct pa_topo *topo)
{
	char cell[PA_CELL_LEN], bdf[PA_BDF_LEN];

	fputs("<section id=\"matrix\"><h2>Topology matrix</h2>\n", f);
	if (!topo->n) {
		fputs("<p>No GPU, accelerator, NIC or NVMe drive.</p></section>\n", f);
		return;
	}
	fputs("<table class=\"matrix\"><tr><th></th>", f);
	for (size_t j = 0; j < topo->n; j++)
		fprintf(f, "<th>%s</th>", topo->devs[j].label);
	fputs("</tr>\n", f);
	for (size_t i = 0; i < topo->n; i++) {
		fprintf(f, "<tr><th>%s</th>", topo->devs[i].label);
		for (size_t j = 0; j < topo->n; j++) {
			pa_topo_cell(rep, &topo->devs[i].dev->addr,
				     &topo->devs[j].dev->addr, cell);
			fputs("<td>", f);
			esc(f, cell);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<p>Rows are providers, columns clients; the legend is "
	      "topo's (<code>pcieaudit-cli topo --help</code>).</p>\n"
	      "<table class=\"devices\"><tr><th>label</th><th>function</th><th>device</th></tr>\n", f);
	for (size_t i = 0; i < topo->n; i++) {
		const struct pa_device *d = topo->devs[i].dev;

		pa_bdf_format(&d->addr, bdf);
		fprintf(f, "<tr><td>%s</td><td><code>%s</code></td><td>[%04x:%04x] ",
			topo->devs[i].label, bdf, d->vendor, d->device);
		esc(f, d->vendor_name);
		fputs(" ", f);
		esc(f, d->device_name);
		fputs("</td></tr>\n", f);
	}
	fputs("</table></section>\n", f);
}

int pa_check_html(FILE *f, const struct pa_report *rep,
		  const struct pa_check *c, const struct pa_topo *topo,
		  const char *source, const char *svg, const char *svg_why)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"generator\" content=\"pcieaudit\">\n<title>pcieaudit check: ", f);
	esc(f, source);
	fprintf(f, "</title>\n<style>%s</style>\n</head><body>\n<h1>pcieaudit check: ", style);
	esc(f, source);
	fputs("</h1>\n", f);
	summary(f, c);
	host_facts(f, rep, source);
	picture(f, svg, svg_why);
	findings(f, c);
	matrix(f, rep, topo);
	fputs("</body></html>\n", f);
	return ferror(f) ? -EIO : 0;
}
