// SPDX-License-Identifier: GPL-2.0
/* What the commands share: the source the options name, the warnings of
 * its input, and the last step of output. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "check.h"
#include "policy.h"
#include "fileio.h"

bool pa_cli_offline(const struct pa_cli_opts *opts)
{
	return opts->input || opts->sysfs || opts->lspci;
}

struct pa_load pa_cli_load(const struct pa_cli_opts *opts)
{
	return (struct pa_load){
		.input = opts->input, .sysfs = opts->sysfs,
		.lspci = opts->lspci,
	};
}

int pa_cli_load_report(const struct pa_load *l, struct pa_report *rep,
		       struct pa_error *e)
{
	int rc = pa_load_report(l, rep, e);

	for (size_t i = 0; i < rep->warnings.n; i++)
		fprintf(stderr, "%s: warning: %s\n", PA_PROG, rep->warnings.text[i]);
	if (rc)
		pa_report_clear(rep);
	return rc;
}

int pa_cli_finish_output(int err, struct pa_error *e)
{
	if (fflush(stdout) || ferror(stdout))
		err = err ? err : -EIO;
	if (err)
		return pa_error_errno(e, err, &(struct pa_errinfo){
			.op = "writing the output" });
	return PA_EXIT_OK;
}

int pa_cli_write_file(const char *path, int (*render)(FILE *f, const void *arg),
		      const void *arg, struct pa_error *e)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int err = f ? render(f, arg) : -ENOMEM;

	if (f && fclose(f) && !err)
		err = -ENOMEM;
	if (!err)
		err = pa_write_atomic(path, text, len);
	free(text);
	if (err)
		return pa_error_set(e, PA_EXIT_RUNTIME, "cannot write %s: %s",
				    path, strerror(-err));
	return PA_EXIT_OK;
}

const char *pa_cli_source_name(const struct pa_cli_opts *opts, char *buf,
			       size_t len)
{
	if (opts->input)
		snprintf(buf, len, "%s", strcmp(opts->input, "-") ?
			 opts->input : "standard input");
	else if (opts->sysfs)
		snprintf(buf, len, "sysfs %s", opts->sysfs);
	else if (opts->lspci)
		snprintf(buf, len, "lspci dump %s", opts->lspci);
	else
		snprintf(buf, len, "the module");
	return buf;
}

/* The golden host's snapshot, or the inventory, that --expect names:
 * a JSON document (its first byte '{', gzip or not) is a snapshot,
 * loaded as --input would be; anything else an inventory. */
int pa_cli_read_expect(const char *path, struct pa_cli_expect *x,
		       struct pa_error *e)
{
	char why[512];
	size_t len;
	char *text;
	const char *p;
	int rc;

	*x = (struct pa_cli_expect){ .ex = { .name = path } };
	if (!strcmp(path, "-"))
		return pa_error_usage(e, "--expect reads a file, not standard input");
	rc = pa_read_file_gz(path, PA_SNAPSHOT_MAX, &text, &len, why, sizeof(why));
	if (rc)
		return pa_error_set(e, PA_EXIT_BAD_INPUT, "cannot read --expect %s: %s",
				    path, rc == -EBADMSG ? why : rc == -EFBIG ?
				    "larger than 64 MiB" : strerror(-rc));
	for (p = text; *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'; p++)
		;
	if (*p == '{') {
		struct pa_policy pol;
		struct pa_load l = { .input = path, .pairs = PA_PAIRS_DEFAULT,
				     .policy = &pol };

		/* The pairs gpudirect judges, as this host's get them. */
		pa_policy_default(&pol);
		free(text);
		rc = pa_load_report(&l, &x->golden, e);
		if (rc) {
			pa_report_clear(&x->golden);
			return rc;
		}
		x->ex.golden = &x->golden;
		return PA_EXIT_OK;
	}
	rc = pa_inventory_parse(path, text, len, &x->inv, why, sizeof(why));
	free(text);
	if (rc)
		return pa_error_set(e, rc == -ENOMEM ? PA_EXIT_RUNTIME : PA_EXIT_BAD_INPUT,
				    "%s", why);
	x->ex.inv = &x->inv;
	return PA_EXIT_OK;
}

void pa_cli_clear_expect(struct pa_cli_expect *x)
{
	pa_report_clear(&x->golden);
	pa_inventory_clear(&x->inv);
}
