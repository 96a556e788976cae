// SPDX-License-Identifier: GPL-2.0
#include "load.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aer_read.h"
#include "bdf.h"
#include "errors.h"
#include "exitcodes.h"
#include "fabric_read.h"
#include "fetch.h"
#include "fileio.h"
#include "iommu_sysfs.h"
#include "lspci_model.h"
#include "lspci_read.h"
#include "nl.h"
#include "p2p_infer.h"
#include "snapshot.h"
#include "sysread.h"
#include "topo.h"

__attribute__((format(printf, 3, 4)))
static int fail(struct pa_load_error *e, int exit, const char *fmt, ...)
{
	size_t n = (size_t)snprintf(e->msg, sizeof(e->msg), "%s: ", PA_PROG);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg + n, sizeof(e->msg) - n - 1, fmt, ap);
	va_end(ap);
	strcat(e->msg, "\n");
	e->exit = exit;
	return exit;
}

/* The module's errors, worded as for every other command. */
static int module_fail(struct pa_load_error *e, int err,
		       const struct pa_errinfo *ei)
{
	FILE *f = fmemopen(e->msg, sizeof(e->msg), "w");

	if (f) {
		pa_print_error(f, err, ei);
		fclose(f);
	}
	e->exit = pa_exit_code(err);
	return e->exit;
}

/* The JSON report's "p2p": pairs among the devices topo shows by default.
 * A module older than P2P support leaves it null rather than failing. */
static int fetch_pairs(struct pa_nl *nl, struct pa_report *rep,
		       struct pa_errinfo *ei)
{
	struct pa_topo topo;
	int err = pa_topo_select(rep, PA_SELECT_DEFAULT, NULL, 0, &topo, NULL);

	if (err)
		return err;
	err = pa_fetch_topo_pairs(nl, &topo, rep);
	pa_topo_clear(&topo);
	if (err == -EOPNOTSUPP) {
		ei->op = NULL;
		ei->kernel_msg[0] = '\0';
		err = 0;
	}
	return err;
}

static int from_module(const struct pa_load *l, struct pa_report *rep,
		       struct pa_load_error *e)
{
	struct pa_errinfo ei = { 0 };
	char bdf[PA_BDF_LEN];
	struct pa_nl *nl;
	int err;

	*rep = (struct pa_report){ 0 };
	if (l->only) {
		pa_bdf_format(l->only, bdf);
		ei.bdf = bdf;
	}
	err = pa_nl_open(&nl, &ei);
	if (err)
		return module_fail(e, err, &ei);
	err = pa_fetch_report(nl, l->only, rep);
	/* The module no longer reads default domains or IOMMU instances. */
	if (!err)
		err = pa_iommu_sysfs_fill("/sys", rep);
	if (!err && l->pairs && !l->only)
		err = fetch_pairs(nl, rep, &ei);
	pa_nl_close(nl);
	if (err) {
		pa_report_clear(rep);
		return module_fail(e, err, &ei);
	}
	return 0;
}

static int from_snapshot(const char *path, struct pa_report *rep,
			 struct pa_load_error *e)
{
	const char *name = strcmp(path, "-") ? path : "standard input";
	char err_text[512];
	size_t len;
	char *text;
	int err = pa_read_file(path, PA_SNAPSHOT_MAX, &text, &len);

	*rep = (struct pa_report){ 0 };
	if (err == -EFBIG)
		return fail(e, PA_EXIT_BAD_INPUT, "%s: larger than %u MiB",
			    name, PA_SNAPSHOT_MAX >> 20);
	if (err)
		return fail(e, PA_EXIT_BAD_INPUT, "cannot read %s: %s", name,
			    strerror(-err));
	err = pa_snapshot_parse(name, text, len, rep, err_text, sizeof(err_text));
	free(text);
	if (err == -ENOMEM)
		return fail(e, PA_EXIT_RUNTIME, "%s", err_text);
	if (err)
		return fail(e, PA_EXIT_BAD_INPUT, "%s", err_text);
	return 0;
}

static int from_sysfs(const struct pa_load *l, struct pa_report *rep,
		      struct pa_load_error *e)
{
	struct pa_sysfs s;
	char what[512];
	int err = pa_sysfs_read(l->sysfs, &s, what, sizeof(what));

	*rep = (struct pa_report){ 0 };
	if (err == -ENOENT)
		return fail(e, PA_EXIT_BAD_INPUT, "no PCI functions under %s: expected %s/bus/pci/devices (a sysfs mount) or %s/devices/<bdf>/ (a fixture)",
			    l->sysfs, l->sysfs, l->sysfs);
	if (err == -EACCES)
		return fail(e, PA_EXIT_PERMISSION, "reading %s stops at 64 bytes: extended configuration space needs root",
			    what);
	if (err == -ENODATA)
		return fail(e, PA_EXIT_BAD_INPUT, "%s is missing or shorter than 256 bytes (a copy made without root?): capabilities, link and ACS would all read as absent; copy it as root",
			    what);
	if (err)
		return fail(e, PA_EXIT_RUNTIME, "reading %s failed: %s", what,
			    strerror(-err));
	err = pa_sysfs_model(&s, rep);
	pa_sysfs_clear(&s);
	return err ? fail(e, PA_EXIT_RUNTIME, "%s", strerror(-err)) : 0;
}

static int from_lspci(const struct pa_load *l, struct pa_report *rep,
		      struct pa_load_error *e)
{
	struct pa_lspci_extra extra;
	struct pa_sysfs s;
	char what[512];
	int err = pa_lspci_read(l->lspci, &s, &extra, what, sizeof(what));

	*rep = (struct pa_report){ 0 };
	if (err == -ENOENT)
		return fail(e, PA_EXIT_BAD_INPUT, "no PCI function in %s: expected lspci -xxxx output (lspci -vvvxxxx, -D or not, quoted or not) or a sosreport directory with proc/bus/pci",
			    what);
	if (err == -EFBIG)
		return fail(e, PA_EXIT_BAD_INPUT, "%s: larger than %u MiB", what,
			    PA_LSPCI_MAX >> 20);
	if (err == -EINVAL)
		return fail(e, PA_EXIT_BAD_INPUT, "%s: libpci could not read the dump", what);
	if (err == -EBADMSG)
		return fail(e, PA_EXIT_BAD_INPUT, "%s (gzip -t checks the file)",
			    what);
	if (err)
		return fail(e, err == -ENOMEM ? PA_EXIT_RUNTIME : PA_EXIT_BAD_INPUT,
			    "cannot read %s: %s", what, strerror(-err));
	/* A filtered capture's missing bridges, from lspci -t's drawing. */
	err = pa_lspci_tree_fill(&extra.tree, &s);
	if (!err)
		err = pa_lspci_model(&s, rep, what, sizeof(what));
	pa_sysfs_clear(&s);
	if (!err) {
		err = pa_lspci_tree_check(&extra.tree, rep);
		if (err)
			pa_report_clear(rep);
	}
	pa_lspci_tree_clear(&extra.tree);
	/* nvidia-smi -q's framebuffer: what NVML gives the live CLI. */
	for (size_t i = 0; !err && i < extra.gpus.n; i++) {
		struct pa_addr a;
		struct pa_device *d;

		if (!pa_bdf_parse(extra.gpus.v[i].bdf, &a) &&
		    (d = (struct pa_device *)pa_report_find(rep, &a)))
			d->mem_bytes = extra.gpus.v[i].fb_bytes;
	}
	pa_nvsmi_clear(&extra.gpus);
	if (err) {
		free(extra.cmdline);
		if (err == -ENODATA)
			return fail(e, PA_EXIT_BAD_INPUT, "%s: %s, not its capabilities (lspci -x, or lspci run without root): link and ACS would read as absent; capture lspci -xxxx as root",
				    l->lspci, what);
		return fail(e, PA_EXIT_RUNTIME, "%s", strerror(-err));
	}
	rep->info.iommu_unknown = !extra.iommu_known;
	for (size_t i = 0; i < rep->ndevices; i++)
		rep->devices[i].driver_unknown |= !extra.drivers_known;
	/* Unknown host facts are -1, not 0. */
	pa_host_clear(&rep->host);
	rep->host.cmdline = extra.cmdline;
	return 0;
}

/* Without the module, pcieaudit's own path analysis answers. */
static int infer_pairs(struct pa_report *rep)
{
	struct pa_topo topo;
	struct pa_addr *addrs = NULL;
	int err = pa_topo_select(rep, PA_SELECT_DEFAULT, NULL, 0, &topo, NULL);

	if (!err)
		err = pa_topo_addrs(&topo, &addrs);
	if (!err)
		err = pa_p2p_fill(rep, addrs, topo.n);
	rep->has_p2p = !err;
	free(addrs);
	pa_topo_clear(&topo);
	return err;
}

int pa_load_report(const struct pa_load *l, struct pa_report *rep,
		   struct pa_load_error *e)
{
	int rc, err = 0;

	if (l->input)
		return from_snapshot(l->input, rep, e);
	if (l->lspci) {
		rc = from_lspci(l, rep, e);
		if (rc)
			return rc;
		/* Of the host, only a sosreport's command line is known. */
		rep->host.source = PA_SOURCE_LSPCI;
		rep->has_host = true;
		err = l->pairs ? infer_pairs(rep) : 0;
		if (err) {
			pa_report_clear(rep);
			return fail(e, PA_EXIT_RUNTIME, "%s", strerror(-err));
		}
		return 0;
	}
	rc = l->sysfs ? from_sysfs(l, rep, e) : from_module(l, rep, e);
	if (rc)
		return rc;
	pa_aer_read(l->sysfs ? l->sysfs : "/sys", rep);
	if (l->sysfs && l->pairs)
		err = infer_pairs(rep);
	if (!err && l->host) {
		err = pa_host_read(l->sysfs ? l->sysfs : "/sys", &rep->host);
		rep->host.source = l->sysfs ? PA_SOURCE_SYSFS : PA_SOURCE_MODULE;
		rep->has_host = true;
	}
	if (!err && (l->host || l->fabric))
		err = pa_fabric_read(l->sysfs ? l->sysfs : "/sys", rep);
	if (err) {
		pa_report_clear(rep);
		return fail(e, PA_EXIT_RUNTIME, "%s", strerror(-err));
	}
	return 0;
}
