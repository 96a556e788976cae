// SPDX-License-Identifier: GPL-2.0
/* fleet: many hosts' snapshots, one at a time, grouped by kind; who differs
 * from the majority of their kind. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "exitcodes.h"
#include "fileio.h"
#include "fleet.h"
#include "fleet_out.h"

/* One snapshot through the load step, into the fleet; then freed. */
static int add_host(struct pa_fleet *fl, const char *path, const char *name,
		    struct pa_error *e)
{
	const struct pa_load l = { .input = path, .pairs = PA_PAIRS_NONE };
	struct pa_report rep;
	int rc = pa_load_report(&l, &rep, e), err;

	if (rc) {
		pa_report_clear(&rep);
		return rc;
	}
	err = pa_fleet_add(fl, name, &rep);
	pa_report_clear(&rep);
	return err ? pa_error_errno(e, err, &(struct pa_errinfo){ .op = "fleet" }) :
	       PA_EXIT_OK;
}

static int add_dir(struct pa_fleet *fl, const char *dir, struct pa_error *e)
{
	char **names, *path;
	size_t n;
	int rc = PA_EXIT_OK, err = pa_list_snapshots(dir, &names, &n);

	if (err)
		return pa_error_set(e, PA_EXIT_BAD_INPUT, "cannot read directory %s: %s",
				    dir, strerror(-err));
	if (!n)
		rc = pa_error_set(e, PA_EXIT_BAD_INPUT, "%s holds no *.json or *.json.gz snapshot",
				  dir);
	for (size_t i = 0; rc == PA_EXIT_OK && i < n; i++) {
		size_t len = strlen(dir) + strlen(names[i]) + 2;

		path = malloc(len);
		if (!path) {
			rc = pa_error_errno(e, -ENOMEM, &(struct pa_errinfo){ 0 });
			break;
		}
		snprintf(path, len, "%s/%s", dir, names[i]);
		rc = add_host(fl, path, names[i], e);
		free(path);
	}
	pa_names_free(names, n);
	return rc;
}

static int render(FILE *f, const struct pa_cli_opts *opts,
		  const struct pa_fleet *fl)
{
	return opts->json ? pa_fleet_json(f, fl) : pa_fleet_text(f, fl);
}

int pa_cmd_fleet(const struct pa_cli_opts *opts, struct pa_error *e)
{
	struct pa_fleet fl = { 0 };
	size_t outliers = 0;
	int rc = PA_EXIT_OK, err;

	for (size_t i = 0; rc == PA_EXIT_OK && i < opts->nfiles; i++) {
		struct stat st;
		const char *p = opts->files[i];

		if (!strcmp(p, "-"))
			rc = pa_error_usage(e, "fleet reads files, not standard input");
		else if (!stat(p, &st) && S_ISDIR(st.st_mode))
			rc = add_dir(&fl, p, e);
		else
			rc = add_host(&fl, p, p, e);
	}
	if (rc == PA_EXIT_OK && (err = pa_fleet_finish(&fl)))
		rc = pa_error_errno(e, err, &(struct pa_errinfo){ .op = "fleet" });
	if (rc == PA_EXIT_OK) {
		rc = pa_cli_finish_output(render(stdout, opts, &fl), e);
		for (size_t k = 0; k < fl.ngroups; k++)
			outliers += fl.groups[k].noutliers;
		if (rc == PA_EXIT_OK && outliers)
			rc = PA_EXIT_FINDING;
	}
	pa_fleet_clear(&fl);
	return rc;
}
