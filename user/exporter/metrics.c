// SPDX-License-Identifier: GPL-2.0
#include "metrics.h"

#include <errno.h>
#include <inttypes.h>
#include <linux/pci_regs.h>

#include "aer.h"
#include "bdf.h"
#include "link.h"
#include "slot.h"

static void family(FILE *f, const char *name, const char *type,
		   const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A label value: backslash, double quote and newline escaped. */
static void label_value(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

typedef void (*series_fn)(FILE *f, const char *name, const char *bdf,
			  const struct pa_device *d);

static void each_device(FILE *f, const struct pa_report *rep,
			const char *name, series_fn fn)
{
	char bdf[PA_BDF_LEN];

	for (size_t i = 0; i < rep->ndevices; i++) {
		pa_bdf_format(&rep->devices[i].addr, bdf);
		fn(f, name, bdf, &rep->devices[i]);
	}
}

static void speed(FILE *f, const char *name, const char *bdf,
		  const struct pa_device *d)
{
	struct pa_link_state st;

	if (!d->has_link)
		return;
	pa_link_decode(&d->link, &st);
	/* 0 is an encoding this CLI does not know: no sample, not a 0. */
	if (st.speed > 0)
		fprintf(f, "%s{bdf=\"%s\"} %g\n", name, bdf, st.speed);
}

static void max_speed(FILE *f, const char *name, const char *bdf,
		      const struct pa_device *d)
{
	struct pa_link_state st;

	if (!d->has_link)
		return;
	pa_link_decode(&d->link, &st);
	if (st.max_speed > 0)
		fprintf(f, "%s{bdf=\"%s\"} %g\n", name, bdf, st.max_speed);
}

static void width(FILE *f, const char *name, const char *bdf,
		  const struct pa_device *d)
{
	struct pa_link_state st;

	if (!d->has_link)
		return;
	pa_link_decode(&d->link, &st);
	fprintf(f, "%s{bdf=\"%s\"} %u\n", name, bdf, st.width);
}

static void max_width(FILE *f, const char *name, const char *bdf,
		      const struct pa_device *d)
{
	struct pa_link_state st;

	if (!d->has_link)
		return;
	pa_link_decode(&d->link, &st);
	fprintf(f, "%s{bdf=\"%s\"} %u\n", name, bdf, st.max_width);
}

/* DLLLA means something only where LnkCap's reporting bit says so. */
static void active(FILE *f, const char *name, const char *bdf,
		   const struct pa_device *d)
{
	if (!d->has_link || !(d->link.lnkcap & PCI_EXP_LNKCAP_DLLLARC))
		return;
	fprintf(f, "%s{bdf=\"%s\"} %d\n", name, bdf,
		!!(d->link.lnksta & PCI_EXP_LNKSTA_DLLLA));
}

static void transitions(FILE *f, const char *name, const char *bdf,
			const struct pa_device *d)
{
	if (d->has_history)
		fprintf(f, "%s{bdf=\"%s\"} %" PRIu64 "\n", name, bdf,
			d->history.transitions);
}

static void below(FILE *f, const char *name, const char *bdf,
		  const struct pa_device *d)
{
	if (d->has_history)
		fprintf(f, "%s{bdf=\"%s\"} %.3f\n", name, bdf,
			(double)d->history.below_ns / 1e9);
}

static void slowest(FILE *f, const char *name, const char *bdf,
		    const struct pa_device *d)
{
	double gts;

	if (!d->has_history || !d->history.has_min)
		return;
	gts = pa_link_speed_gts(d->history.min_speed);
	if (gts > 0)
		fprintf(f, "%s{bdf=\"%s\"} %g\n", name, bdf, gts);
}

static void narrowest(FILE *f, const char *name, const char *bdf,
		      const struct pa_device *d)
{
	if (d->has_history && d->history.has_min)
		fprintf(f, "%s{bdf=\"%s\"} %u\n", name, bdf,
			d->history.min_width);
}

static void last_change(FILE *f, const char *name, const char *bdf,
			const struct pa_device *d)
{
	if (d->has_history && d->history.last_change_ns)
		fprintf(f, "%s{bdf=\"%s\"} %.3f\n", name, bdf,
			(double)d->history.last_change_ns / 1e9);
}

static void aer_cor(FILE *f, const char *name, const char *bdf,
		    const struct pa_device *d)
{
	if (d->aer.state == PA_AER_KNOWN)
		fprintf(f, "%s{bdf=\"%s\"} %" PRIu64 "\n", name, bdf, d->aer.cor);
}

static void aer_nonfatal(FILE *f, const char *name, const char *bdf,
			 const struct pa_device *d)
{
	if (d->aer.state == PA_AER_KNOWN)
		fprintf(f, "%s{bdf=\"%s\"} %" PRIu64 "\n", name, bdf,
			d->aer.nonfatal);
}

static void aer_fatal(FILE *f, const char *name, const char *bdf,
		      const struct pa_device *d)
{
	if (d->aer.state == PA_AER_KNOWN)
		fprintf(f, "%s{bdf=\"%s\"} %" PRIu64 "\n", name, bdf, d->aer.fatal);
}

static void aer_rootport(FILE *f, const char *name, const char *bdf,
			 const struct pa_device *d)
{
	if (d->aer.state != PA_AER_KNOWN || !d->aer.has_rootport)
		return;
	fprintf(f, "%s{bdf=\"%s\",severity=\"correctable\"} %" PRIu64 "\n",
		name, bdf, d->aer.rp_cor);
	fprintf(f, "%s{bdf=\"%s\",severity=\"nonfatal\"} %" PRIu64 "\n",
		name, bdf, d->aer.rp_nonfatal);
	fprintf(f, "%s{bdf=\"%s\",severity=\"fatal\"} %" PRIu64 "\n",
		name, bdf, d->aer.rp_fatal);
}

/* Every line of aer_dev_* but the TOTAL one, zero counts too: a series
 * there from the start is one that increase() sees rise. */
static void aer_types(FILE *f, const char *name, const char *bdf,
		      const struct pa_device *d)
{
	if (d->aer.state != PA_AER_KNOWN)
		return;
	for (size_t i = 0; i < d->aer.ntypes; i++) {
		const struct pa_aer_type *t = &d->aer.types[i];

		fprintf(f, "%s{bdf=\"%s\",severity=\"%s\",type=\"", name, bdf,
			pa_aer_severity_name(t->severity));
		label_value(f, t->name);
		fprintf(f, "\"} %" PRIu64 "\n", t->count);
	}
}

static void aer_unknown_names(FILE *f, const char *name, const char *bdf,
			      const struct pa_device *d)
{
	if (d->aer.state == PA_AER_KNOWN && d->aer.unknown_names)
		fprintf(f, "%s{bdf=\"%s\"} %zu\n", name, bdf, d->aer.unknown_names);
}

static void aer_unknown(FILE *f, const char *name, const char *bdf,
			const struct pa_device *d)
{
	if (d->aer.state != PA_AER_UNKNOWN)
		return;
	fprintf(f, "%s{bdf=\"%s\",reason=\"", name, bdf);
	label_value(f, d->aer.reason);
	fputs("\"} 1\n", f);
}

static const struct {
	const char *name, *type, *help;
	series_fn fn;
} families[] = {
	{ "pcieaudit_link_speed_gts", "gauge",
	  "Current link speed in GT/s (LnkSta).", speed },
	{ "pcieaudit_link_width", "gauge",
	  "Current negotiated link width in lanes (LnkSta), 0 when down.", width },
	{ "pcieaudit_link_max_speed_gts", "gauge",
	  "The function's maximum link speed in GT/s (LnkCap).", max_speed },
	{ "pcieaudit_link_max_width", "gauge",
	  "The function's maximum link width in lanes (LnkCap).", max_width },
	{ "pcieaudit_link_active", "gauge",
	  "Data Link Layer Link Active (LnkSta), where LnkCap says it is reported.",
	  active },
	{ "pcieaudit_link_transitions_total", "counter",
	  "Link speed, width or DLLLA changes the module sampled since it began tracking the function.",
	  transitions },
	{ "pcieaudit_link_below_capability_seconds_total", "counter",
	  "Time the link was up below what both its ends support, since tracking began.",
	  below },
	{ "pcieaudit_link_slowest_speed_gts", "gauge",
	  "The slowest speed the link was sampled at while up, since tracking began.",
	  slowest },
	{ "pcieaudit_link_narrowest_width", "gauge",
	  "The narrowest width the link was sampled at while up, since tracking began.",
	  narrowest },
	{ "pcieaudit_link_last_change_timestamp_seconds", "gauge",
	  "When the module last sampled a link transition (Unix time).",
	  last_change },
	{ "pcieaudit_aer_correctable_errors_total", "counter",
	  "Correctable AER errors since boot (sysfs aer_dev_correctable).", aer_cor },
	{ "pcieaudit_aer_nonfatal_errors_total", "counter",
	  "Non-fatal uncorrectable AER errors since boot (aer_dev_nonfatal).",
	  aer_nonfatal },
	{ "pcieaudit_aer_fatal_errors_total", "counter",
	  "Fatal uncorrectable AER errors since boot (aer_dev_fatal).", aer_fatal },
	{ "pcieaudit_aer_rootport_errors_total", "counter",
	  "AER error messages a root port received (aer_rootport_total_err_*).",
	  aer_rootport },
	{ "pcieaudit_aer_errors_total", "counter",
	  "AER errors since boot by severity and type, as the kernel names them (aer_dev_*).",
	  aer_types },
	{ "pcieaudit_aer_unknown_types", "gauge",
	  "Lines of aer_dev_* whose error name this pcieaudit does not know (kept in pcieaudit_aer_errors_total).",
	  aer_unknown_names },
	{ "pcieaudit_aer_unknown", "gauge",
	  "1 for a PCIe function whose AER counters cannot be read, with the reason.",
	  aer_unknown },
};

/*
 * What a function is, as labels to join on (Prometheus's _info pattern):
 * IDs in hex as lspci -n prints them, the driver ("" unbound, "(unknown)"
 * where the source cannot tell), the slot path (slot.h; "" for a virtual
 * function), the NUMA node ("" unknown).
 */
static int device_info(FILE *f, const struct pa_report *rep)
{
	char bdf[PA_BDF_LEN];
	char **paths = NULL;

	if (rep->ndevices && pa_slot_paths(rep, &paths))
		return -ENOMEM;
	family(f, "pcieaudit_device_info", "gauge",
	       "1 for every PCI function, labelled with its IDs, driver, slot path and NUMA node.");
	for (size_t i = 0; i < rep->ndevices; i++) {
		const struct pa_device *d = &rep->devices[i];

		pa_bdf_format(&d->addr, bdf);
		fprintf(f, "pcieaudit_device_info{bdf=\"%s\",vendor=\"%04x\",device=\"%04x\",class=\"%06x\",driver=\"",
			bdf, d->vendor, d->device, d->class & 0xffffff);
		label_value(f, d->driver ? d->driver :
			    d->driver_unknown ? "(unknown)" : "");
		fputs("\",slot=\"", f);
		label_value(f, paths[i] ? paths[i] : "");
		if (d->numa_node >= 0)
			fprintf(f, "\",numa_node=\"%d\"} 1\n", d->numa_node);
		else
			fputs("\",numa_node=\"\"} 1\n", f);
	}
	if (paths)
		pa_slot_paths_free(paths, rep->ndevices);
	return 0;
}

int pa_metrics_devices(FILE *f, const struct pa_report *rep)
{
	if (device_info(f, rep))
		return -ENOMEM;
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		family(f, families[i].name, families[i].type, families[i].help);
		each_device(f, rep, families[i].name, families[i].fn);
	}
	return ferror(f) ? -EIO : 0;
}

int pa_metrics_collector(FILE *f, const struct pa_collect_stats *st)
{
	static const char *const trigger[PA_COLLECT_TRIGGERS] = {
		[PA_COLLECT_START] = "start",
		[PA_COLLECT_INTERVAL] = "interval",
		[PA_COLLECT_EVENT] = "event",
	};

	family(f, "pcieaudit_up", "gauge",
	       "1 when the module (or sysfs) answered the last collection, else 0.");
	fprintf(f, "pcieaudit_up %d\n", st->up);
	family(f, "pcieaudit_collect_timestamp_seconds", "gauge",
	       "When the last collection ended, in seconds since the epoch; scrapes serve it from memory.");
	fprintf(f, "pcieaudit_collect_timestamp_seconds %.3f\n", st->timestamp);
	family(f, "pcieaudit_collect_duration_seconds", "gauge",
	       "Time the last collection took, in seconds.");
	fprintf(f, "pcieaudit_collect_duration_seconds %.6f\n", st->duration);
	family(f, "pcieaudit_collections_total", "counter",
	       "Collections since the exporter started, by what triggered them.");
	for (int i = 0; i < PA_COLLECT_TRIGGERS; i++)
		fprintf(f, "pcieaudit_collections_total{trigger=\"%s\"} %llu\n",
			trigger[i], st->total[i]);
	family(f, "pcieaudit_collect_errors_total", "counter",
	       "Collections that failed: the module (or sysfs) did not answer, or memory ran short.");
	fprintf(f, "pcieaudit_collect_errors_total %llu\n", st->errors);
	return ferror(f) ? -EIO : 0;
}
