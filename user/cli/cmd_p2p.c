// SPDX-License-Identifier: GPL-2.0
/* p2p A B: the path from A to B hop by hop, the verdicts and the remedy. */
#include "cli.h"

#include "json_out.h"
#include "p2p_text.h"

int pa_cmd_p2p(const struct pa_cli_opts *opts, struct pa_error *e)
{
	struct pa_load l = pa_cli_load(opts);
	struct pa_report rep;
	int err;

	l.pairs = PA_PAIRS_ONE;
	l.bdfs = opts->bdfs;
	l.nbdfs = 2;
	l.host = true;
	l.names = true;
	l.class_names = !opts->json;
	if (pa_cli_load_report(&l, &rep, e))
		return e->exit;
	err = opts->json ? pa_json_p2p(stdout, &rep)
			 : pa_text_p2p(stdout, &rep, &rep.p2p.pairs[0]);
	pa_report_clear(&rep);
	return pa_cli_finish_output(err, e);
}
