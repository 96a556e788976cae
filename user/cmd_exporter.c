// SPDX-License-Identifier: GPL-2.0
/* exporter: Prometheus /metrics, each scrape loaded afresh from the source
 * the options name (exporter.c). */
#include "cli.h"

#include "exporter.h"

int pa_cmd_exporter(const struct pa_cli_opts *opts, struct pa_error *e)
{
	const struct pa_exporter_opts o = {
		.listen = opts->listen, .input = opts->input, .sysfs = opts->sysfs,
		.lspci = opts->lspci,
	};

	(void)e;	/* it reports as it runs, for as long as it runs */
	return pa_exporter_run(&o);
}
