// SPDX-License-Identifier: GPL-2.0
/* exporter: Prometheus /metrics, collected in the background from the
 * source the options name and served from memory (exporter.c). */
#include "cli.h"

#include "exporter.h"

int pa_cmd_exporter(const struct pa_cli_opts *opts, struct pa_error *e)
{
	struct pa_exporter_opts o = {
		.listen = opts->listen, .input = opts->input, .sysfs = opts->sysfs,
		.lspci = opts->lspci, .interval = opts->interval,
	};

	(void)e;	/* it reports as it runs, for as long as it runs */
	return pa_exporter_run(&o);
}
