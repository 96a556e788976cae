// SPDX-License-Identifier: GPL-2.0
/* check: the profiles' rules over a report, rendered as text, JSON, a
 * node_exporter textfile, an NFD features file or an HTML page. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "check_out.h"
#include "draw.h"
#include "exitcodes.h"
#include "fileio.h"
#include "load.h"
#include "policy.h"
#include "rules.h"
#include "topo.h"

/* The biggest policy file read. */
#define POLICY_MAX (1u << 20)

static const char *const format_names[PA_NFORMATS] = {
	[PA_FORMAT_TEXT] = "text", [PA_FORMAT_JSON] = "json",
	[PA_FORMAT_PROMETHEUS] = "prometheus", [PA_FORMAT_NFD] = "nfd",
	[PA_FORMAT_HTML] = "html",
};

enum pa_format pa_format_lookup(const char *name)
{
	int f;

	for (f = 0; f < PA_NFORMATS && strcmp(name, format_names[f]); f++)
		;
	return (enum pa_format)f;
}

static int print_rules(struct pa_error *e)
{
	for (int r = 0; r < PA_NRULES; r++)
		printf("%-31s %-5s %s\n%31s       %s.\n", pa_rules[r].id,
		       pa_severity_name(pa_rules[r].severity), pa_rules[r].what,
		       "", pa_rules[r].why);
	return pa_cli_finish_output(0, e);
}

static int read_policy(const char *path, struct pa_policy *pol,
		       struct pa_error *e)
{
	char why[512];
	size_t len;
	char *text;
	int rc = pa_read_file(path, POLICY_MAX, &text, &len);

	if (rc)
		return pa_error_set(e, PA_EXIT_BAD_INPUT,
				    "cannot read policy %s: %s", path,
				    rc == -EFBIG ? "larger than 1 MiB" : strerror(-rc));
	rc = pa_policy_parse(path, text, len, pol, why, sizeof(why));
	free(text);
	if (!rc)
		return PA_EXIT_OK;
	return pa_error_set(e, rc == -ENOMEM ? PA_EXIT_RUNTIME : PA_EXIT_BAD_INPUT,
			    "%s", why);
}

/* --profile overrides the policy's profiles. */
static int select_profiles(const char *list, struct pa_policy *pol,
			   struct pa_error *e)
{
	char *copy, *name, *save = NULL;
	bool want[PA_NPROFILES] = { false };
	int rc = PA_EXIT_OK, p;

	if (!list)
		return PA_EXIT_OK;
	copy = strdup(list);
	if (!copy)
		return pa_error_errno(e, -ENOMEM, &(struct pa_errinfo){ 0 });
	for (name = strtok_r(copy, ",", &save); name && rc == PA_EXIT_OK;
	     name = strtok_r(NULL, ",", &save)) {
		p = pa_profile_lookup(name);
		if (p < 0)
			rc = pa_error_usage(e, "unknown profile '%s' (expected gpudirect, vfio, baseline or expect)",
					    name);
		else
			want[p] = true;
	}
	free(copy);
	if (rc == PA_EXIT_OK && !memchr(want, true, sizeof(want)))
		rc = pa_error_usage(e, "--profile names no profile");
	if (rc == PA_EXIT_OK)
		memcpy(pol->profiles, want, sizeof(want));
	return rc;
}

static enum pa_format format_of(const struct pa_cli_opts *opts)
{
	if (opts->format)
		return pa_format_lookup(opts->format);
	return opts->json ? PA_FORMAT_JSON : PA_FORMAT_TEXT;
}

/* Colour only for a person: a terminal, and NO_COLOR unset or empty. */
static bool want_colour(const struct pa_cli_opts *opts)
{
	const char *no = getenv("NO_COLOR"), *term = getenv("TERM");

	return !opts->no_color && !opts->output && isatty(STDOUT_FILENO) &&
	       (!no || !*no) && (!term || strcmp(term, "dumb"));
}

struct rendering {
	const struct pa_cli_opts *opts;
	const struct pa_report *rep;
	const struct pa_check *c;
};

/* The page: the fabric of topo's default devices drawn; without Graphviz
 * the page says why it has no picture. */
static int render_html(FILE *f, const struct rendering *r, const char *source)
{
	struct pa_topo topo = { 0 };
	struct pa_error e = { 0 };
	char title[320], *svg = NULL;
	size_t len;
	int err = pa_topo_select(r->rep, PA_SELECT_DEFAULT, NULL, 0, &topo, NULL);

	if (err)
		return err;
	snprintf(title, sizeof(title), "pcieaudit: %s", source);
	if (pa_draw_svg(r->rep, &topo, title, &svg, &len, &e))
		svg = NULL;
	err = pa_check_html(f, r->rep, r->c, &topo, source, svg, e.msg);
	free(svg);
	pa_topo_clear(&topo);
	return err;
}

static int render(FILE *f, const void *arg)
{
	const struct rendering *r = arg;
	char source[300];

	pa_cli_source_name(r->opts, source, sizeof(source));
	switch (format_of(r->opts)) {
	case PA_FORMAT_JSON:
		return pa_check_json(f, r->c, source);
	case PA_FORMAT_PROMETHEUS:
		return pa_check_prometheus(f, r->rep, r->c);
	case PA_FORMAT_NFD:
		return pa_check_nfd(f, r->rep, r->c);
	case PA_FORMAT_HTML:
		return render_html(f, r, source);
	default:
		return pa_check_text(f, r->rep, r->c, source,
				     want_colour(r->opts));
	}
}

/* Loads the report, and the earlier one --previous names. */
static int load(const struct pa_cli_opts *opts, const struct pa_policy *pol,
		struct pa_report *rep, struct pa_report *prev,
		struct pa_error *e)
{
	struct pa_load l = pa_cli_load(opts);
	const struct pa_load lp = { .input = opts->previous };

	l.pairs = PA_PAIRS_DEFAULT;
	l.host = true;
	l.policy = pol;
	*prev = (struct pa_report){ 0 };
	if (opts->previous && pa_load_report(&lp, prev, e)) {
		pa_report_clear(prev);
		return e->exit;
	}
	if (pa_cli_load_report(&l, rep, e)) {
		pa_report_clear(prev);
		return e->exit;
	}
	rep->previous = opts->previous ? prev : NULL;
	return PA_EXIT_OK;
}

int pa_cmd_check(const struct pa_cli_opts *opts, struct pa_error *e)
{
	struct pa_report rep, prev;
	struct pa_cli_expect x = { 0 };
	struct pa_policy pol;
	struct pa_check c;
	int rc, err;

	if (opts->rules)
		return print_rules(e);
	pa_policy_default(&pol);
	rc = opts->policy ? read_policy(opts->policy, &pol, e) : PA_EXIT_OK;
	if (rc == PA_EXIT_OK)
		rc = select_profiles(opts->profiles, &pol, e);
	if (rc == PA_EXIT_OK && pol.profiles[PA_PROFILE_EXPECT] && !opts->expect &&
	    opts->profiles)
		rc = pa_error_usage(e, "the expect profile needs --expect FILE");
	if (rc == PA_EXIT_OK && opts->expect) {
		rc = pa_cli_read_expect(opts->expect, &x, e);
		pol.expect = &x.ex;
		pol.profiles[PA_PROFILE_EXPECT] = true;
	}
	if (rc == PA_EXIT_OK)
		rc = load(opts, &pol, &rep, &prev, e);
	if (rc != PA_EXIT_OK) {
		pa_cli_clear_expect(&x);
		pa_policy_clear(&pol);
		return rc;
	}
	err = pa_check_run(&rep, &pol, &c);
	if (err) {
		rc = pa_error_errno(e, err, &(struct pa_errinfo){ .op = "check" });
	} else {
		const struct rendering r = { opts, &rep, &c };

		rc = opts->output ?
		     pa_cli_write_file(opts->output, render, &r, e) :
		     pa_cli_finish_output(render(stdout, &r), e);
		if (rc == PA_EXIT_OK)
			rc = pa_check_exit_code(&c);
		pa_check_clear(&c);
	}
	pa_report_clear(&rep);
	pa_report_clear(&prev);
	pa_cli_clear_expect(&x);
	pa_policy_clear(&pol);
	return rc;
}
