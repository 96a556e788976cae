// SPDX-License-Identifier: GPL-2.0
/* topo: the P2P matrix of the selected devices, and on request the same
 * fabric as an NCCL topology file or drawn as SVG. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>

#include "draw.h"
#include "exitcodes.h"
#include "json_out.h"
#include "nccl_xml.h"
#include "p2p_text.h"
#include "topo.h"

struct nccl_arg {
	const struct pa_cli_opts *opts;
	const struct pa_report *rep;
};

static int render_nccl(FILE *f, const void *arg)
{
	const struct nccl_arg *a = arg;
	struct pa_nccl_host h = { .family = -1, .model = -1 };
	int err;

	/* A snapshot's CPU is its host's, not this one's; a dump has none. */
	if (a->opts->input || a->opts->lspci)
		err = pa_nccl_host_from(&a->rep->host, &h);
	else
		err = pa_nccl_host_read(a->opts->sysfs ? a->opts->sysfs : "/sys",
					&h);
	if (!err)
		err = pa_nccl_xml(f, a->rep, &h);
	pa_nccl_host_clear(&h);
	return err;
}

struct svg_arg {
	const char *svg;
	size_t len;
};

static int render_svg(FILE *f, const void *arg)
{
	const struct svg_arg *a = arg;

	return fwrite(a->svg, 1, a->len, f) == a->len ? 0 : -EIO;
}

/* topo --svg FILE: the fabric of the selection, drawn. */
static int write_svg(const struct pa_cli_opts *opts, const struct pa_report *rep,
		     const struct pa_topo *topo, struct pa_error *e)
{
	struct svg_arg a;
	char title[320], src[300];
	char *svg;
	int rc;

	snprintf(title, sizeof(title), "pcieaudit: %s",
		 pa_cli_source_name(opts, src, sizeof(src)));
	rc = pa_draw_svg(rep, topo, title, &svg, &a.len, e);
	if (rc)
		return rc;
	a.svg = svg;
	rc = pa_cli_write_file(opts->svg, render_svg, &a, e);
	free(svg);
	return rc;
}

static enum pa_select selection(const struct pa_cli_opts *opts)
{
	if (opts->all)
		return PA_SELECT_ALL;
	return opts->nbdfs ? PA_SELECT_LIST : PA_SELECT_DEFAULT;
}

int pa_cmd_topo(const struct pa_cli_opts *opts, struct pa_error *e)
{
	struct pa_load l = pa_cli_load(opts);
	struct pa_topo topo = { 0 };
	struct pa_report rep;
	int err, rc = PA_EXIT_OK;

	l.pairs = PA_PAIRS_TOPO;
	l.select = selection(opts);
	l.bdfs = opts->bdfs;
	l.nbdfs = opts->nbdfs;
	l.host = true;
	l.names = true;
	l.class_names = !opts->json;
	if (pa_cli_load_report(&l, &rep, e))
		return e->exit;
	/* The load found every listed address: only memory can fail. */
	err = pa_topo_select(&rep, l.select, l.bdfs, l.nbdfs, &topo, NULL);
	if (err)
		rc = pa_error_errno(e, err, &(struct pa_errinfo){ .op = "topo" });
	/* The file first: a failure leaves standard output empty. */
	if (!rc && opts->nccl_xml)
		rc = pa_cli_write_file(opts->nccl_xml, render_nccl,
				       &(struct nccl_arg){ opts, &rep }, e);
	if (!rc && opts->svg)
		rc = write_svg(opts, &rep, &topo, e);
	if (!rc)
		rc = pa_cli_finish_output(opts->json ?
					  pa_json_topo(stdout, &rep, &topo) :
					  pa_text_topo(stdout, &rep, &topo), e);
	pa_topo_clear(&topo);
	pa_report_clear(&rep);
	return rc;
}
