// SPDX-License-Identifier: GPL-2.0
/* monitor: the module's events as they happen; the module alone sends them. */
#include "cli.h"

#include "monitor.h"

int pa_cmd_monitor(const struct pa_cli_opts *opts, struct pa_error *e)
{
	(void)e;	/* it reports as it runs, for as long as it runs */
	return pa_monitor_run(opts->json);
}
