// SPDX-License-Identifier: GPL-2.0
/* info: the module's and kernel's versions, features and IOMMU mode; the
 * module alone knows them. */
#include "cli.h"

#include "fetch.h"
#include "json_out.h"
#include "nl.h"
#include "text_out.h"

int pa_cmd_info(const struct pa_cli_opts *opts, struct pa_error *e)
{
	struct pa_errinfo ei = { 0 };
	struct pa_info info = { 0 };
	struct pa_nl *nl;
	int err;

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
