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
		.web_config = opts->web_config, .user = opts->user,
	};
	struct pa_cli_expect x = { 0 };
	int rc;

	/* Refused at start, never a server whose every collection fails. */
	if (opts->expect) {
		rc = pa_cli_read_expect(opts->expect, &x, e);
		if (rc) {
			pa_cli_clear_expect(&x);
			return rc;
		}
		o.expect = &x.ex;
	}
	/* Otherwise it reports as it runs, for as long as it runs. */
	rc = pa_exporter_run(&o);
	pa_cli_clear_expect(&x);
	return rc;
}
