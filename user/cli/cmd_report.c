// SPDX-License-Identifier: GPL-2.0
/* report: the PCI tree with ACS, link and IOMMU state, as text or JSON. */
#include "cli.h"

#include "json_out.h"
#include "text_out.h"

int pa_cmd_report(const struct pa_cli_opts *opts, struct pa_error *e)
{
	struct pa_load l = pa_cli_load(opts);
	struct pa_report rep;
	int err;

	l.only = opts->nbdfs ? &opts->bdfs[0] : NULL;
	/* The JSON is the snapshot check --input reads: with pairs and the
	 * host's facts; NVML, which costs more than the rest, when asked. */
	l.pairs = opts->json ? PA_PAIRS_DEFAULT : PA_PAIRS_NONE;
	l.host = opts->json;
	l.no_nvml = !opts->nvml;
	l.names = true;
	l.class_names = !opts->json;
	if (pa_cli_load_report(&l, &rep, e))
		return e->exit;
	err = opts->json ? pa_json_report(stdout, &rep)
			 : pa_text_report(stdout, &rep);
	pa_report_clear(&rep);
	return pa_cli_finish_output(err, e);
}
