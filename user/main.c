// SPDX-License-Identifier: GPL-2.0
/*
 * pcieaudit-cli: reports what the pcieaudit kernel module sees of PCIe ACS,
 * IOMMU groups and domains, and link training.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <linux/pcieaudit.h>

#include "bdf.h"
#include "errors.h"
#include "exitcodes.h"
#include "fetch.h"
#include "json_out.h"
#include "nl.h"
#include "pcinames.h"
#include "text_out.h"

#ifndef PA_VERSION
#define PA_VERSION "0.1"
#endif

struct options {
	bool json;
	const char *bdf_text;	/* as given; NULL for every device */
	struct pa_addr bdf;
};

struct command {
	const char *name;
	int (*fn)(const struct options *opts);
	const char *args;
	const char *help;
	bool takes_bdf;
};

static int cmd_report(const struct options *opts);
static int cmd_info(const struct options *opts);

static const struct command commands[] = {
	{ "report", cmd_report, "[--json] [BDF]",
	  "PCI tree with ACS, link and IOMMU state", true },
	{ "info", cmd_info, "[--json]",
	  "module and kernel versions, features, IOMMU mode", false },
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
		fprintf(f, "  %-7s %-15s %s\n", commands[i].name,
			commands[i].args, commands[i].help);
	fprintf(f, "\nOptions:\n"
		"  --json         print JSON (schema_version %d) instead of text\n"
		"  -h, --help     show this help, or a command's after the command\n"
		"  -V, --version  show the version\n\n"
		"BDF is DDDD:BB:DD.F or BB:DD.F (domain 0000).\n"
		"Exit status: 0 ok, 2 usage error, 3 error, 4 module not loaded,\n"
		"5 permission denied, 6 ABI version mismatch, 7 no such device.\n",
		PA_JSON_SCHEMA_VERSION);
}

static void print_command_usage(FILE *f, const struct command *cmd)
{
	fprintf(f, "Usage: %s %s %s\n\n%s.\n", PA_PROG, cmd->name, cmd->args,
		cmd->help);
	if (cmd->takes_bdf)
		fprintf(f, "With a BDF (DDDD:BB:DD.F or BB:DD.F, domain 0000), only that\n"
			"function and the IOMMU group holding it.\n");
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

static int cmd_report(const struct options *opts)
{
	struct pa_errinfo ei = { 0 };
	struct pa_report rep;
	char bdf[PA_BDF_LEN];
	struct pa_nl *nl;
	int err;

	if (opts->bdf_text) {
		pa_bdf_format(&opts->bdf, bdf);
		ei.bdf = bdf;
	}
	err = pa_nl_open(&nl, &ei);
	if (err)
		return fail(err, &ei);
	err = pa_fetch_report(nl, opts->bdf_text ? &opts->bdf : NULL, &rep);
	pa_nl_close(nl);
	if (err)
		return fail(err, &ei);

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

/* Parses a command's own arguments, then runs it. */
static int run_command(const struct command *cmd, int argc, char **argv,
		       struct options *opts)
{
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i];

		if (is_help(arg)) {
			print_command_usage(stdout, cmd);
			return PA_EXIT_OK;
		}
		if (!strcmp(arg, "--json")) {
			opts->json = true;
		} else if (arg[0] == '-') {
			return usage_error("unknown option '%s' for %s", arg,
					   cmd->name);
		} else if (!cmd->takes_bdf || opts->bdf_text) {
			return usage_error("unexpected argument '%s' for %s",
					   arg, cmd->name);
		} else if (pa_bdf_parse(arg, &opts->bdf)) {
			return usage_error("invalid PCI address '%s', expected DDDD:BB:DD.F or BB:DD.F",
					   arg);
		} else {
			opts->bdf_text = arg;
		}
	}
	return cmd->fn(opts);
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
