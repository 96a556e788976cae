// SPDX-License-Identifier: GPL-2.0
/* vfio-plan: what giving the named devices to one guest takes, and the
 * steps in order (vfio_plan.h). */
#include "cli.h"

#include "exitcodes.h"
#include "vfio_plan_run.h"

int pa_cmd_vfio_plan(const struct pa_cli_opts *opts, struct pa_error *e)
{
	struct pa_load l = pa_cli_load(opts);
	int rc = pa_vfio_plan_run(&l, opts->bdfs, opts->nbdfs, opts->json,
				  stdout, e);

	if (rc == PA_EXIT_OK || rc == PA_EXIT_FINDING || rc == PA_EXIT_WARNINGS) {
		int out = pa_cli_finish_output(0, e);

		return out ? out : rc;
	}
	return rc;
}
