// SPDX-License-Identifier: GPL-2.0
/* info: the module's and kernel's versions, features and IOMMU mode. The
 * module knows them all; a snapshot what it recorded; sysfs and lspci
 * what they show, the rest unknown with why. */
#include "cli.h"

#include <string.h>
#include <sys/stat.h>

#include "fetch.h"
#include "json_out.h"
#include "nl.h"
#include "text_out.h"

/* What the source named by opts can tell of rep's info. */
static struct pa_info_source source_of(const struct pa_cli_opts *opts,
				       const struct pa_report *rep)
{
	struct pa_info_source src = {
		.cmdline = rep->has_host ? rep->host.cmdline : NULL,
	};
	struct stat st;

	if (opts->input) {
		/* As recorded: a snapshot of the module's knows it all. */
		bool module = rep->info.module_version != NULL;

		src.kind = "snapshot";
		src.path = strcmp(opts->input, "-") ? opts->input : "standard input";
		src.why = "not recorded in the snapshot";
		src.module_known = module;
		src.kernel_known = true;
		src.features_known = module;
		src.iommu_mode_known = module ||
			(rep->host.source == PA_SOURCE_SYSFS && !rep->info.iommu_unknown);
		src.groups_known = !rep->info.iommu_unknown;
	} else if (opts->sysfs) {
		src.kind = "sysfs";
		src.path = opts->sysfs;
		src.why = "not in sysfs: read without the module";
		src.kernel_known = true;
		src.iommu_mode_known = true;
		src.groups_known = true;
	} else {
		bool sos = !stat(opts->lspci, &st) && S_ISDIR(st.st_mode);

		src.kind = sos ? "sosreport" : "lspci";
		src.path = opts->lspci;
		src.why = sos ? "not in a sosreport's PCI files" :
				"not in an lspci capture";
		src.kernel_known = sos;	/* sos_commands/kernel/uname_-a */
		src.groups_known = !rep->info.iommu_unknown;
	}
	return src;
}

/* A snapshot's, sysfs's or an lspci capture's info, through the pipeline
 * every command reads them with. */
static int offline_info(const struct pa_cli_opts *opts, struct pa_error *e)
{
	struct pa_load l = pa_cli_load(opts);
	struct pa_info_source src;
	struct pa_report rep;
	int rc, err;

	l.host = true;
	rc = pa_cli_load_report(&l, &rep, e);
	if (rc)
		return rc;
	src = source_of(opts, &rep);
	err = opts->json ? pa_json_info_source(stdout, &rep.info, &src)
			 : pa_text_info_source(stdout, &rep.info, &src);
	pa_report_clear(&rep);
	return pa_cli_finish_output(err, e);
}

int pa_cmd_info(const struct pa_cli_opts *opts, struct pa_error *e)
{
	struct pa_errinfo ei = { 0 };
	struct pa_info info = { 0 };
	struct pa_nl *nl;
	int err;

	if (pa_cli_offline(opts))
		return offline_info(opts, e);
	err = pa_nl_open(&nl, &ei);
	if (err)
		return pa_error_errno(e, err, &ei);
	err = pa_fetch_info(nl, &info);
	pa_nl_close(nl);
	if (err)
		return pa_error_errno(e, err, &ei);
	err = opts->json ? pa_json_info(stdout, &info)
			 : pa_text_info(stdout, &info);
	pa_info_clear(&info);
	return pa_cli_finish_output(err, e);
}
