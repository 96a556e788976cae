// SPDX-License-Identifier: GPL-2.0
/*
 * pcieaudit-cli: reports what the pcieaudit kernel module sees of PCIe ACS,
 * IOMMU groups and domains, and link training.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>

#include "bdf.h"
#include "errors.h"
#include "exitcodes.h"
#include "fetch.h"
#include "json_out.h"
#include "nl.h"
#include "p2p_text.h"
#include "pcinames.h"
#include "text_out.h"
#include "topo.h"

#ifndef PA_VERSION
#define PA_VERSION "0.1"
#endif

/* More than a matrix can show legibly. */
#define MAX_BDFS 64

struct options {
	bool json;
	bool all;			/* topo --all */
	size_t nbdfs;
	struct pa_addr bdfs[MAX_BDFS];
};

struct command {
	const char *name;
	int (*fn)(const struct options *opts);
	const char *args;
	const char *help;
	size_t min_bdfs, max_bdfs;
	bool takes_all;
	const char *details;	/* more for the command's --help, or NULL */
};

static int cmd_report(const struct options *opts);
static int cmd_info(const struct options *opts);
static int cmd_p2p(const struct options *opts);
static int cmd_topo(const struct options *opts);

static const struct command commands[] = {
	{ "report", cmd_report, "[--json] [BDF]",
	  "PCI tree with ACS, link and IOMMU state", 0, 1, false,
	  "With a BDF (DDDD:BB:DD.F or BB:DD.F, domain 0000), only that\n"
	  "function and the IOMMU group holding it. The JSON of a full report\n"
	  "also holds the P2P pairs among the devices 'topo' shows.\n" },
	{ "info", cmd_info, "[--json]",
	  "module and kernel versions, features, IOMMU mode", 0, 0, false,
	  NULL },
	{ "p2p", cmd_p2p, "[--json] A B",
	  "P2P DMA from A to B: path, verdicts, remedy", 2, 2, false,
	  "A is the provider (the DMA target's memory), B the client; each is\n"
	  "DDDD:BB:DD.F or BB:DD.F (domain 0000). Shows the path hop by hop\n"
	  "with each bridge's ACS control and link, the kernel's and pcieaudit's\n"
	  "verdicts, the narrowest link and, when P2P is not direct, the remedy.\n"
	  "Exits 0 whenever the module answered, whatever the verdict.\n" },
	{ "topo", cmd_topo, "[--json] [--all | BDF...]",
	  "P2P topology matrix, nvidia-smi legend", 0, MAX_BDFS, true,
	  "By default GPUs and accelerators, NICs (InfiniBand too) and NVMe\n"
	  "drives, VFs left out; --all takes every function without a\n"
	  "subordinate bus, BDFs the functions named (at most 64). Cells read\n"
	  "as in 'nvidia-smi topo -m' (X, PIX, PXB, PHB, NODE, SYS), marked with\n"
	  "pcieaudit's P2P verdict and bandwidth traps; a legend follows.\n" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void print_usage(FILE *f)
{
	fprintf(f, "Usage: %s [--json] <command> [<args>]\n"
		"       %s --version | --help\n\n"
		"Audits PCIe ACS, IOMMU groups and domains, and link training,\n"
		"as the pcieaudit kernel module reports them.\n\nCommands:\n",
		PA_PROG, PA_PROG);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-6s %-26s %s\n", commands[i].name,
			commands[i].args, commands[i].help);
	fprintf(f, "\nOptions:\n"
		"  --json         print JSON (schema_version %d) instead of text\n"
		"  -h, --help     show this help, or a command's after the command\n"
		"  --all          topo: every function, not just GPUs, NICs, NVMe\n"
		"  -V, --version  show the version\n\n"
		"BDF, A and B are DDDD:BB:DD.F or BB:DD.F (domain 0000).\n"
		"Exit status: 0 ok, 2 usage error, 3 error, 4 module not loaded,\n"
		"5 permission denied, 6 ABI version mismatch, 7 no such device.\n"
		"p2p and topo exit 0 whenever they got an answer, whatever it says.\n",
		PA_JSON_SCHEMA_VERSION);
}

static void print_command_usage(FILE *f, const struct command *cmd)
{
	fprintf(f, "Usage: %s %s %s\n\n%s.\n", PA_PROG, cmd->name, cmd->args,
		cmd->help);
	if (cmd->details)
		fputs(cmd->details, f);
}

static int print_version(void)
{
	printf("%s %s (netlink family %s version %d)\n", PA_PROG, PA_VERSION,
	       PCIEAUDIT_FAMILY_NAME, PCIEAUDIT_FAMILY_VERSION);
	return PA_EXIT_OK;
}

__attribute__((format(printf, 1, 2)))
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", PA_PROG);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see '%s --help')\n", PA_PROG);
	return PA_EXIT_USAGE;
}

static int fail(int err, const struct pa_errinfo *ei)
{
	pa_print_error(stderr, err, ei);
	return pa_exit_code(err);
}

/* Output errors surface late, at the flush (a full disk, a closed pipe). */
static int finish_output(int err)
{
	const struct pa_errinfo ei = { .op = "writing the output" };

	if (fflush(stdout) || ferror(stdout))
		err = err ? err : -EIO;
	return err ? fail(err, &ei) : PA_EXIT_OK;
}

/* The P2P pairs among topo's devices, into rep->p2p. */
static int fetch_pairs(struct pa_nl *nl, const struct pa_topo *topo,
		       struct pa_report *rep)
{
	struct pa_p2p_select sel = { 0 };
	struct pa_addr *addrs;
	int err = pa_topo_addrs(topo, &addrs);

	if (err)
		return err;
	sel.devs = addrs;
	/* One device makes no pair; none must not become "select all". */
	sel.ndevs = topo->n > 1 ? topo->n : 0;
	err = pa_fetch_p2p_dump(nl, &sel, &rep->p2p);
	free(addrs);
	rep->has_p2p = !err;
	return err;
}

/* The JSON report's "p2p": pairs among the devices topo shows by default.
 * A module older than P2P support leaves it null rather than failing the
 * whole report. */
static int fetch_report_pairs(struct pa_nl *nl, struct pa_report *rep,
			      struct pa_errinfo *ei)
{
	struct pa_topo topo;
	int err = pa_topo_select(rep, PA_SELECT_DEFAULT, NULL, 0, &topo, NULL);

	if (err)
		return err;
	err = fetch_pairs(nl, &topo, rep);
	pa_topo_clear(&topo);
	if (err == -EOPNOTSUPP) {
		ei->op = NULL;
		ei->kernel_msg[0] = '\0';
		err = 0;
	}
	return err;
}

static int cmd_report(const struct options *opts)
{
	const struct pa_addr *only = opts->nbdfs ? &opts->bdfs[0] : NULL;
	struct pa_errinfo ei = { 0 };
	struct pa_report rep;
	char bdf[PA_BDF_LEN];
	struct pa_nl *nl;
	int err;

	if (only) {
		pa_bdf_format(only, bdf);
		ei.bdf = bdf;
	}
	err = pa_nl_open(&nl, &ei);
	if (err)
		return fail(err, &ei);
	err = pa_fetch_report(nl, only, &rep);
	if (!err && opts->json && !only)
		err = fetch_report_pairs(nl, &rep, &ei);
	pa_nl_close(nl);
	if (err) {
		pa_report_clear(&rep);
		return fail(err, &ei);
	}

	pa_names_fill(rep.devices, rep.ndevices);
	err = opts->json ? pa_json_report(stdout, &rep)
			 : pa_text_report(stdout, &rep);
	pa_report_clear(&rep);
	return finish_output(err);
}

static int cmd_info(const struct options *opts)
{
	struct pa_errinfo ei = { 0 };
	struct pa_info info = { 0 };
	struct pa_nl *nl;
	int err;

	err = pa_nl_open(&nl, &ei);
	if (err)
		return fail(err, &ei);
	err = pa_fetch_info(nl, &info);
	pa_nl_close(nl);
	if (err)
		return fail(err, &ei);

	err = opts->json ? pa_json_info(stdout, &info)
			 : pa_text_info(stdout, &info);
	pa_info_clear(&info);
	return finish_output(err);
}

/* Names the address the kernel found nothing at: the one missing from the
 * device report, or both when that cannot tell. */
static const char *absent_bdf(const struct pa_report *rep,
			      const struct pa_addr *a, const struct pa_addr *b,
			      char buf[2 * PA_BDF_LEN + 4])
{
	char x[PA_BDF_LEN], y[PA_BDF_LEN];
	bool has_a = pa_report_find(rep, a) != NULL;
	bool has_b = pa_report_find(rep, b) != NULL;

	pa_bdf_format(a, x);
	pa_bdf_format(b, y);
	if (has_a != has_b)
		snprintf(buf, 2 * PA_BDF_LEN + 4, "%s", has_a ? y : x);
	else
		snprintf(buf, 2 * PA_BDF_LEN + 4, "%s or %s", x, y);
	return buf;
}

static int cmd_p2p(const struct options *opts)
{
	const struct pa_addr *a = &opts->bdfs[0], *b = &opts->bdfs[1];
	char which[2 * PA_BDF_LEN + 4];
	struct pa_errinfo ei = { 0 };
	struct pa_report rep;
	struct pa_nl *nl;
	int err;

	err = pa_nl_open(&nl, &ei);
	if (err)
		return fail(err, &ei);
	/* The devices first: the path's bridges are explained from them. */
	err = pa_fetch_devices(nl, &rep);
	if (!err)
		err = pa_fetch_p2p(nl, a, b, 1, &rep.p2p);
	pa_nl_close(nl);
	if (err == -ENODEV)
		ei.bdf = absent_bdf(&rep, a, b, which);
	if (err) {
		pa_report_clear(&rep);
		return fail(err, &ei);
	}
	rep.has_p2p = true;
	pa_names_fill(rep.devices, rep.ndevices);
	err = opts->json ? pa_json_p2p(stdout, &rep)
			 : pa_text_p2p(stdout, &rep, &rep.p2p.pairs[0]);
	pa_report_clear(&rep);
	return finish_output(err);
}

static enum pa_select selection(const struct options *opts)
{
	if (opts->all)
		return PA_SELECT_ALL;
	return opts->nbdfs ? PA_SELECT_LIST : PA_SELECT_DEFAULT;
}

static int fetch_topo(struct pa_nl *nl, const struct options *opts,
		      struct pa_report *rep, struct pa_topo *topo,
		      struct pa_errinfo *ei, char bdf[PA_BDF_LEN])
{
	size_t missing = 0;
	int err = pa_fetch_devices(nl, rep);

	if (err)
		return err;
	err = pa_topo_select(rep, selection(opts), opts->bdfs, opts->nbdfs,
			     topo, &missing);
	if (err == -ENODEV) {
		pa_bdf_format(&opts->bdfs[missing], bdf);
		ei->bdf = bdf;
	}
	return err ? err : fetch_pairs(nl, topo, rep);
}

static int cmd_topo(const struct options *opts)
{
	struct pa_errinfo ei = { 0 };
	struct pa_topo topo = { 0 };
	char bdf[PA_BDF_LEN];
	struct pa_report rep;
	struct pa_nl *nl;
	int err;

	err = pa_nl_open(&nl, &ei);
	if (err)
		return fail(err, &ei);
	err = fetch_topo(nl, opts, &rep, &topo, &ei, bdf);
	pa_nl_close(nl);
	if (err) {
		pa_topo_clear(&topo);
		pa_report_clear(&rep);
		return fail(err, &ei);
	}
	pa_names_fill(rep.devices, rep.ndevices);
	err = opts->json ? pa_json_topo(stdout, &rep, &topo)
			 : pa_text_topo(stdout, &rep, &topo);
	pa_topo_clear(&topo);
	pa_report_clear(&rep);
	return finish_output(err);
}

static bool is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static int add_bdf(const struct command *cmd, const char *arg,
		   struct options *opts)
{
	if (opts->nbdfs == cmd->max_bdfs && cmd->max_bdfs == MAX_BDFS)
		return usage_error("too many PCI addresses for %s (at most %zu)",
				   cmd->name, cmd->max_bdfs);
	if (opts->nbdfs == cmd->max_bdfs)
		return usage_error("unexpected argument '%s' for %s", arg,
				   cmd->name);
	if (pa_bdf_parse(arg, &opts->bdfs[opts->nbdfs]))
		return usage_error("invalid PCI address '%s', expected DDDD:BB:DD.F or BB:DD.F",
				   arg);
	opts->nbdfs++;
	return PA_EXIT_OK;
}

/* Checks what the arguments add up to, once all are read. */
static int check_arguments(const struct command *cmd,
			   const struct options *opts)
{
	if (opts->all && opts->nbdfs)
		return usage_error("%s takes --all or PCI addresses, not both",
				   cmd->name);
	if (opts->nbdfs < cmd->min_bdfs)
		return usage_error("%s needs %zu PCI addresses: %s %s",
				   cmd->name, cmd->min_bdfs, cmd->name,
				   cmd->args);
	return PA_EXIT_OK;
}

/* Parses a command's own arguments, then runs it. */
static int run_command(const struct command *cmd, int argc, char **argv,
		       struct options *opts)
{
	int rc = PA_EXIT_OK;

	for (int i = 0; i < argc && rc == PA_EXIT_OK; i++) {
		const char *arg = argv[i];

		if (is_help(arg)) {
			print_command_usage(stdout, cmd);
			return PA_EXIT_OK;
		}
		if (!strcmp(arg, "--json"))
			opts->json = true;
		else if (!strcmp(arg, "--all") && cmd->takes_all)
			opts->all = true;
		else if (arg[0] == '-')
			rc = usage_error("unknown option '%s' for %s", arg,
					 cmd->name);
		else
			rc = add_bdf(cmd, arg, opts);
	}
	if (rc == PA_EXIT_OK)
		rc = check_arguments(cmd, opts);
	return rc == PA_EXIT_OK ? cmd->fn(opts) : rc;
}

int main(int argc, char **argv)
{
	struct options opts = { 0 };
	const struct command *cmd;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (is_help(argv[i])) {
			print_usage(stdout);
			return PA_EXIT_OK;
		}
		if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version"))
			return print_version();
		if (strcmp(argv[i], "--json"))
			return usage_error("unknown option '%s'", argv[i]);
		opts.json = true;
	}
	if (i == argc)
		return usage_error("no command given");
	cmd = find_command(argv[i]);
	if (!cmd)
		return usage_error("unknown command '%s'", argv[i]);
	return run_command(cmd, argc - i - 1, argv + i + 1, &opts);
}
