// SPDX-License-Identifier: GPL-2.0
#include "load.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aer_read.h"
#include "bdf.h"
#include "check.h"
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
#include "passthru.h"
#include "pcinames.h"
#include "snapshot.h"
#include "sysread.h"
#include "topo.h"

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

/* Names the address the report lacks of a and b, or both when that cannot
 * tell. */
static const char *absent_bdf(const struct pa_report *rep,
			      const struct pa_addr *a, const struct pa_addr *b,
			      char buf[2 * PA_BDF_LEN + 4])
{
	char x[PA_BDF_LEN], y[PA_BDF_LEN];
	bool has_a = pa_report_find(rep, a) != NULL;
	bool has_b = pa_report_find(rep, b) != NULL;

	pa_bdf_format(a, x);
	pa_bdf_format(b, y);
	if (has_a != has_b)
		snprintf(buf, 2 * PA_BDF_LEN + 4, "%s", has_a ? y : x);
	else
		snprintf(buf, 2 * PA_BDF_LEN + 4, "%s or %s", x, y);
	return buf;
}

/* Topo's matrix, the kernel's verdicts: the devices it selects, then the
 * pairs among them. */
static int module_topo(struct pa_nl *nl, const struct pa_load *l,
		       struct pa_report *rep, struct pa_errinfo *ei,
		       char bdf[PA_BDF_LEN])
{
	struct pa_topo topo = { 0 };
	size_t missing = 0;
	int err = pa_fetch_devices(nl, rep);

	if (err)
		return err;
	err = pa_topo_select(rep, l->select, l->bdfs, l->nbdfs, &topo,
			     &missing);
	if (err == -ENODEV) {
		pa_bdf_format(&l->bdfs[missing], bdf);
		ei->bdf = bdf;
	}
	if (!err)
		err = pa_fetch_topo_pairs(nl, &topo, rep);
	pa_topo_clear(&topo);
	return err;
}

/* One pair, the kernel's verdict; the devices first: the path's bridges
 * are explained from them. */
static int module_one(struct pa_nl *nl, const struct pa_load *l,
		      struct pa_report *rep, struct pa_errinfo *ei,
		      char which[2 * PA_BDF_LEN + 4])
{
	int err = pa_fetch_devices(nl, rep);

	if (!err)
		err = pa_fetch_p2p(nl, &l->bdfs[0], &l->bdfs[1], 1, &rep->p2p);
	if (err == -ENODEV)
		ei->bdf = absent_bdf(rep, &l->bdfs[0], &l->bdfs[1], which);
	rep->has_p2p = !err;
	return err;
}

static int from_module(const struct pa_load *l, struct pa_report *rep,
		       struct pa_error *e)
{
	char which[2 * PA_BDF_LEN + 4];
	struct pa_errinfo ei = { 0 };
	struct pa_nl *nl;
	int err;

	*rep = (struct pa_report){ 0 };
	if (l->only) {
		pa_bdf_format(l->only, which);
		ei.bdf = which;
	}
	nl = l->nl;
	err = nl ? pa_nl_lookup(nl, &ei) : pa_nl_open(&nl, &ei);
	if (err)
		return pa_error_errno(e, err, &ei);
	if (l->pairs == PA_PAIRS_TOPO) {
		err = module_topo(nl, l, rep, &ei, which);
	} else if (l->pairs == PA_PAIRS_ONE) {
		err = module_one(nl, l, rep, &ei, which);
	} else {
		err = pa_fetch_report(nl, l->only, rep);
		/* The module no longer reads default domains or IOMMU
		 * instances. */
		if (!err)
			err = pa_iommu_sysfs_fill("/sys", rep);
		if (!err && l->pairs == PA_PAIRS_DEFAULT && !l->only)
			err = fetch_pairs(nl, rep, &ei);
	}
	if (nl != l->nl)
		pa_nl_close(nl);
	/* NVLink or XGMI between them, which the path is then not used for. */
	if (!err && (l->pairs == PA_PAIRS_TOPO || l->pairs == PA_PAIRS_ONE))
		err = pa_fabric_read("/sys", rep, !l->no_nvml);
	if (err) {
		pa_report_clear(rep);
		return pa_error_errno(e, err, &ei);
	}
	return 0;
}

static int from_snapshot(const char *path, struct pa_report *rep,
			 struct pa_error *e)
{
	const char *name = strcmp(path, "-") ? path : "standard input";
	char err_text[512], why[256];
	size_t len;
	char *text;
	/* Fleets keep their snapshots gzipped. */
	int err = pa_read_file_gz(path, PA_SNAPSHOT_MAX, &text, &len, why,
				  sizeof(why));

	*rep = (struct pa_report){ 0 };
	if (err == -EFBIG)
		return pa_error_set(e, PA_EXIT_BAD_INPUT, "%s: larger than %u MiB",
				    name, PA_SNAPSHOT_MAX >> 20);
	if (err == -EBADMSG)
		return pa_error_set(e, PA_EXIT_BAD_INPUT, "%s: %s (gzip -t checks the file)",
				    name, why);
	if (err)
		return pa_error_set(e, PA_EXIT_BAD_INPUT, "cannot read %s: %s", name,
				    strerror(-err));
	err = pa_snapshot_parse(name, text, len, rep, err_text, sizeof(err_text));
	free(text);
	if (err == -ENOMEM)
		return pa_error_set(e, PA_EXIT_RUNTIME, "%s", err_text);
	if (err)
		return pa_error_set(e, PA_EXIT_BAD_INPUT, "%s", err_text);
	return 0;
}

static int from_sysfs(const struct pa_load *l, struct pa_report *rep,
		      struct pa_error *e)
{
	struct pa_sysfs s;
	char what[512];
	int err = pa_sysfs_read(l->sysfs, &s, what, sizeof(what));

	*rep = (struct pa_report){ 0 };
	if (err == -ENOENT)
		return pa_error_set(e, PA_EXIT_BAD_INPUT, "no PCI functions under %s: expected %s/bus/pci/devices (a sysfs mount) or %s/devices/<bdf>/ (a fixture)",
				    l->sysfs, l->sysfs, l->sysfs);
	if (err == -EACCES)
		return pa_error_set(e, PA_EXIT_PERMISSION, "reading %s stops at 64 bytes: extended configuration space needs root",
				    what);
	if (err == -ENODATA)
		return pa_error_set(e, PA_EXIT_BAD_INPUT, "%s is missing or shorter than 256 bytes (a copy made without root?): capabilities, link and ACS would all read as absent; copy it as root",
				    what);
	if (err)
		return pa_error_set(e, PA_EXIT_RUNTIME, "reading %s failed: %s", what,
				    strerror(-err));
	err = pa_sysfs_model(&s, rep);
	rep->info.iommu_unknown = s.iommu_unknown;
	pa_sysfs_clear(&s);
	return err ? pa_error_set(e, PA_EXIT_RUNTIME, "%s", strerror(-err)) : 0;
}

static int from_lspci(const struct pa_load *l, struct pa_report *rep,
		      struct pa_error *e)
{
	struct pa_lspci_extra extra;
	struct pa_sysfs s;
	char what[512];
	int err = pa_lspci_read(l->lspci, &s, &extra, what, sizeof(what));

	*rep = (struct pa_report){ 0 };
	if (err == -ENOENT)
		return pa_error_set(e, PA_EXIT_BAD_INPUT, "no PCI function in %s: expected lspci -vvv output (as root, -nn for the ids; with -tv or not) or lspci -xxxx's hex (lspci -vvvxxxx, -D or not, quoted or not), or a sosreport directory with proc/bus/pci",
				    what);
	if (err == -EFBIG)
		return pa_error_set(e, PA_EXIT_BAD_INPUT, "%s: larger than %u MiB", what,
				    PA_LSPCI_MAX >> 20);
	if (err == -EINVAL)
		return pa_error_set(e, PA_EXIT_BAD_INPUT, "%s: libpci could not read the dump", what);
	if (err == -EBADMSG)
		return pa_error_set(e, PA_EXIT_BAD_INPUT, "%s (gzip -t checks the file)",
				    what);
	if (err)
		return pa_error_set(e, err == -ENOMEM ? PA_EXIT_RUNTIME : PA_EXIT_BAD_INPUT,
				    "cannot read %s: %s", what, strerror(-err));
	/* A filtered capture's missing bridges, from lspci -t's drawing. */
	err = pa_lspci_tree_fill(&extra.tree, &s);
	if (!err)
		err = pa_lspci_model(&s, rep, what, sizeof(what));
	pa_sysfs_clear(&s);
	/* A sosreport's text against its configuration space. */
	if (!err)
		err = pa_warnings_move(&rep->warnings, &extra.warnings);
	pa_warnings_clear(&extra.warnings);
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
		free(extra.kernel_release);
		free(extra.interrupts);
		free(extra.dmesg);
		if (err == -ENODATA)
			return pa_error_set(e, PA_EXIT_BAD_INPUT, "%s: %s, not its capabilities (lspci -x, or lspci run without root): link and ACS would read as absent; capture lspci -xxxx as root",
					    l->lspci, what);
		return pa_error_set(e, PA_EXIT_RUNTIME, "%s", strerror(-err));
	}
	rep->info.iommu_unknown = !extra.iommu_known;
	for (size_t i = 0; i < rep->ndevices; i++)
		rep->devices[i].driver_unknown |= !extra.drivers_known;
	/* Unknown host facts are -1, not 0. */
	pa_host_clear(&rep->host);
	rep->host.cmdline = extra.cmdline;
	/* A sosreport's uname -a: the rules that depend on the release. */
	rep->info.kernel_release = extra.kernel_release;
	/* Its interrupts and kernel log: interrupt remapping. */
	err = extra.interrupts ?
	      pa_intremap_from_interrupts(extra.interrupts, &rep->host) : 0;
	if (!err && !rep->host.intremap && extra.dmesg)
		err = pa_intremap_from_dmesg(extra.dmesg, &rep->host);
	free(extra.interrupts);
	free(extra.dmesg);
	if (err)
		return pa_error_set(e, PA_EXIT_RUNTIME, "%s", strerror(-err));
	return 0;
}

/* Without the module, pcieaudit's own path analysis answers: pairs among
 * topo's default devices. */
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

/* A file's or sysfs's report, before any pairs. */
static int from_offline(const struct pa_load *l, struct pa_report *rep,
			struct pa_error *e)
{
	int rc, err = 0;

	if (l->input)
		return from_snapshot(l->input, rep, e);
	if (l->lspci) {
		rc = from_lspci(l, rep, e);
		/* Of the host, only a sosreport's command line is known. */
		if (!rc) {
			rep->host.source = PA_SOURCE_LSPCI;
			rep->has_host = true;
		}
		return rc;
	}
	rc = from_sysfs(l, rep, e);
	if (rc)
		return rc;
	pa_aer_read(l->sysfs, rep);
	if (l->host) {
		err = pa_host_read(l->sysfs, &rep->host);
		rep->host.source = PA_SOURCE_SYSFS;
		rep->has_host = true;
	}
	if (!err && l->host)
		err = pa_fabric_read(l->sysfs, rep, !l->no_nvml);
	return err ? pa_error_set(e, PA_EXIT_RUNTIME, "%s", strerror(-err)) : 0;
}

/* Topo's selection, its pairs answered: a snapshot's kept, the rest
 * inferred. */
static int offline_topo(const struct pa_load *l, struct pa_report *rep,
			struct pa_error *e)
{
	struct pa_topo topo = { 0 };
	struct pa_addr *addrs = NULL;
	char bdf[PA_BDF_LEN];
	size_t missing = 0;
	int err = pa_topo_select(rep, l->select, l->bdfs, l->nbdfs, &topo,
				 &missing);

	if (err == -ENODEV) {
		pa_bdf_format(&l->bdfs[missing], bdf);
		return pa_error_set(e, PA_EXIT_NO_DEVICE,
				    "no function %s in the input", bdf);
	}
	if (!err)
		err = pa_topo_addrs(&topo, &addrs);
	if (!err)
		err = pa_p2p_fill(rep, addrs, topo.n);
	free(addrs);
	pa_topo_clear(&topo);
	rep->has_p2p = !err;
	if (err)
		return pa_error_errno(e, err, &(struct pa_errinfo){ .op = "topo" });
	return 0;
}

/* The pair a -> b alone: a snapshot's, or inferred when it has none. */
static int offline_one(const struct pa_load *l, struct pa_report *rep,
		       struct pa_error *e)
{
	const struct pa_addr *a = &l->bdfs[0], *b = &l->bdfs[1];
	struct pa_p2p_pair pair = { 0 };
	char which[2 * PA_BDF_LEN + 4];
	struct pa_p2p *p2p = &rep->p2p;
	size_t i;
	int err = 0;

	if (!pa_report_find(rep, a) || !pa_report_find(rep, b))
		return pa_error_set(e, PA_EXIT_NO_DEVICE,
				    "no function %s in the input",
				    absent_bdf(rep, a, b, which));
	for (i = 0; i < p2p->npairs; i++)
		if (pa_addr_eq(&p2p->pairs[i].provider, a) &&
		    pa_addr_eq(&p2p->pairs[i].client, b))
			break;
	if (i < p2p->npairs) {
		pair = p2p->pairs[i];
		p2p->pairs[i] = (struct pa_p2p_pair){ 0 };
	} else {
		err = pa_p2p_infer(rep, a, b, &pair);
	}
	pa_p2p_clear(p2p);
	if (!err)
		err = pa_p2p_add(p2p, &pair);
	if (err)
		pa_p2p_pair_clear(&pair);
	rep->has_p2p = !err;
	if (err)
		return pa_error_errno(e, err, &(struct pa_errinfo){ .op = "p2p" });
	return 0;
}

/* The pairs the command asked for, where the source did not answer. */
static int offline_pairs(const struct pa_load *l, struct pa_report *rep,
			 struct pa_error *e)
{
	int err = 0;

	switch (l->pairs) {
	case PA_PAIRS_TOPO:
		return offline_topo(l, rep, e);
	case PA_PAIRS_ONE:
		return offline_one(l, rep, e);
	case PA_PAIRS_DEFAULT:
		/* A snapshot's pairs are the module's answers, kept as
		 * they are. */
		if (!l->input)
			err = infer_pairs(rep);
		break;
	default:
		break;
	}
	return err ? pa_error_set(e, PA_EXIT_RUNTIME, "%s", strerror(-err)) : 0;
}

/* On failure, the report keeps only what the input's reader warned of. */
static int failed(struct pa_report *rep, int rc)
{
	struct pa_warnings w = rep->warnings;

	rep->warnings = (struct pa_warnings){ 0 };
	pa_report_clear(rep);
	*rep = (struct pa_report){ .warnings = w };
	return rc;
}

int pa_load_report(const struct pa_load *l, struct pa_report *rep,
		   struct pa_error *e)
{
	bool offline = l->input || l->sysfs || l->lspci;
	int rc, err = 0;

	*e = (struct pa_error){ 0 };
	if (!offline) {
		rc = from_module(l, rep, e);
		if (!rc && l->pairs != PA_PAIRS_TOPO && l->pairs != PA_PAIRS_ONE) {
			pa_aer_read("/sys", rep);
			if (l->host) {
				err = pa_host_read("/sys", &rep->host);
				rep->host.source = PA_SOURCE_MODULE;
				rep->has_host = true;
			}
			if (!err && l->host)
				err = pa_passthru_read("/sys", rep);
			if (!err && l->host)
				err = pa_fabric_read("/sys", rep, !l->no_nvml);
			if (err)
				rc = pa_error_set(e, PA_EXIT_RUNTIME, "%s",
						  strerror(-err));
		}
	} else {
		rc = from_offline(l, rep, e);
		if (!rc)
			rc = offline_pairs(l, rep, e);
	}
	if (!rc && l->names && !l->input)
		pa_names_fill(rep->devices, rep->ndevices, l->class_names);
	if (!rc && l->policy) {
		err = pa_check_infer_pairs(rep, l->policy);
		if (err)
			rc = pa_error_set(e, PA_EXIT_RUNTIME, "%s", strerror(-err));
	}
	/* Whatever answered, unknown ACS on the way is never direct. */
	if (!rc)
		pa_p2p_settle_unknown(rep);
	return rc ? failed(rep, rc) : 0;
}
