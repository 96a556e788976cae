// SPDX-License-Identifier: GPL-2.0
/*
 * pcieaudit-cli: reports what the pcieaudit kernel module sees of PCIe ACS,
 * IOMMU groups and domains, and link training. This file is the command
 * table and the option parser; each command is a cmd_*.c (cli.h), and
 * every failure comes back here as one struct pa_error to print.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/pcieaudit.h>

#include "bdf.h"
#include "cli.h"
#include "errors.h"
#include "exitcodes.h"
#include "json_out.h"
#include "listen_addr.h"

#ifndef PA_VERSION
#define PA_VERSION "0.1"
#endif

/* Which options a command takes, besides --json and --help. */
#define OPT_ALL		(1u << 0)	/* --all */
#define OPT_SOURCE	(1u << 1)	/* --input, --sysfs, --lspci */
#define OPT_CHECK	(1u << 2)	/* --policy, --profile, --format, ... */
#define OPT_NCCL	(1u << 3)	/* --nccl-xml */
#define OPT_LISTEN	(1u << 4)	/* --listen */
#define OPT_FILES	(1u << 5)	/* file arguments, not BDFs */
#define OPT_EXIT	(1u << 6)	/* --exit-codes */
#define OPT_EXPECT	(1u << 7)	/* --expect */
#define OPT_NVML	(1u << 8)	/* --nvml */

struct command {
	const char *name;
	pa_cmd_fn *fn;
	const char *args;
	const char *help;
	size_t min_bdfs, max_bdfs;
	unsigned int opts;
	const char *details;	/* more for the command's --help, or NULL */
};

static const struct command commands[] = {
	{ "report", pa_cmd_report, "[--json [--nvml]] [BDF]",
	  "PCI tree with ACS, link and IOMMU state", 0, 1, OPT_SOURCE | OPT_NVML,
	  "With a BDF (DDDD:BB:DD.F or BB:DD.F, domain 0000), only that\n"
	  "function and the IOMMU group holding it. The JSON of a full report\n"
	  "also holds the P2P pairs among the devices 'topo' shows and the\n"
	  "host's facts: it is the snapshot 'check --input' reads.\n\n"
	  "  --nvml        with --json: ask NVML too (NVLinks, GPU memory), as\n"
	  "                check and topo always do; without it the snapshot\n"
	  "                says NVML was not read, and check --input skips the\n"
	  "                rules that need it (loading NVML costs 17 ms or more)\n"
	  "  --input FILE  print a snapshot (report --json) instead, '-' for stdin\n"
	  "  --sysfs DIR   without the module: read sysfs and configuration\n"
	  "                space under DIR (/sys, or a fixture's directory)\n"
	  "  --lspci FILE  from lspci -xxxx output (-vvv, -D, quoted in mail,\n"
	  "                an nvidia-bug-report log) or a sosreport directory\n" },
	{ "info", pa_cmd_info, "[--json] [SOURCE]",
	  "module and kernel versions, features, IOMMU mode", 0, 0, OPT_SOURCE,
	  "SOURCE is --input FILE, --sysfs DIR or --lspci FILE, as for report:\n"
	  "a snapshot gives the info it recorded; sysfs and lspci what they\n"
	  "show (the kernel command line's IOMMU and ACS parameters where the\n"
	  "input has it), every other field unknown with the reason.\n" },
	{ "p2p", pa_cmd_p2p, "[--json] [SOURCE] A B",
	  "P2P DMA from A to B: path, verdicts, remedy", 2, 2, OPT_SOURCE,
	  "A is the provider (the DMA target's memory), B the client; each is\n"
	  "DDDD:BB:DD.F or BB:DD.F (domain 0000). Shows the path hop by hop\n"
	  "with each bridge's ACS control and link, the kernel's and pcieaudit's\n"
	  "verdicts, the narrowest link and, when P2P is not direct, the remedy.\n"
	  "Exits 0 whenever the module answered, whatever the verdict.\n"
	  "SOURCE is --input FILE, --sysfs DIR or --lspci FILE, as for report;\n"
	  "without the module, pcieaudit's own path analysis gives the verdict.\n" },
	{ "topo", pa_cmd_topo, "[SOURCE] [--all | BDF...]",
	  "P2P topology matrix, nvidia-smi legend", 0, PA_CLI_MAX_BDFS,
	  OPT_ALL | OPT_SOURCE | OPT_NCCL,
	  "By default GPUs and accelerators, NICs (InfiniBand too) and NVMe\n"
	  "drives, VFs left out; --all takes every function without a\n"
	  "subordinate bus, BDFs the functions named (at most 64). Cells read\n"
	  "as in 'nvidia-smi topo -m' (X, PIX, PXB, PHB, NODE, SYS, NV#) or\n"
	  "amd-smi (XGMI), marked with pcieaudit's P2P verdict and bandwidth\n"
	  "traps; a legend follows. NVLink comes from NVML (libnvidia-ml.so.1,\n"
	  "loaded at run time; PCIEAUDIT_NO_NVML=1 skips it), XGMI from the\n"
	  "kernel's KFD topology.\n"
	  "SOURCE is --input FILE, --sysfs DIR or --lspci FILE, as for report.\n\n"
	  "  --nccl-xml FILE  also write the fabric as an NCCL topology file\n"
	  "                   (NCCL_TOPO_FILE): CPUs, PCI switches, GPUs, NICs\n"
	  "  --svg FILE       also draw the fabric as SVG (Graphviz, libgvc6):\n"
	  "                   links, downgrades, ACS redirects, NVLink, XGMI\n" },
	{ "check", pa_cmd_check, "[options]",
	  "audit against the gpudirect, vfio and baseline profiles", 0, 0,
	  OPT_SOURCE | OPT_CHECK | OPT_EXPECT | OPT_EXIT,
	  "Prints PASS, WARN, FAIL, INFO and SKIP lines per rule, each finding\n"
	  "with its devices and remedy.\n\n"
	  "  --profile P[,P]  gpudirect, vfio, baseline (default: the policy's, or all)\n"
	  "  --policy FILE    a YAML policy: devices, rules, thresholds (docs/check.md)\n"
	  "  --input FILE     check a snapshot (report --json) instead, '-' for stdin\n"
	  "  --sysfs DIR      without the module: sysfs and configuration space\n"
	  "  --lspci FILE     from lspci -xxxx output or a sosreport directory\n"
	  "  --format F       text (default), json, prometheus (a node_exporter\n"
	  "                   textfile), nfd (a Node Feature Discovery features.d file),\n"
	  "                   html (one self-contained page with the fabric drawn)\n"
	  "  --json           the same as --format json\n"
	  "  --output FILE    write FILE atomically instead of standard output\n"
	  "  --previous FILE  an earlier report --json of this host: rules over\n"
	  "                   time (baseline.aer-rising) compare against it\n"
	  "  --expect FILE    what this host should be: a golden host's report\n"
	  "                   --json (gzip too) or a YAML inventory; runs the\n"
	  "                   expect profile (docs/check.md, \"Expectations\")\n"
	  "  --exit-codes S   pcieaudit (default), nagios (0 OK, 1 WARNING,\n"
	  "                   2 CRITICAL, 3 UNKNOWN) or npd (0 OK, 1 problem,\n"
	  "                   3 unknown: Node Problem Detector)\n"
	  "  --no-color       no colour (also NO_COLOR=1; off when not a terminal)\n"
	  "  --rules          list the rules and exit\n\n"
	  "Exit status: 0 clean (info findings allowed), 1 a failure, 8 warnings\n"
	  "only, 9 a bad policy, inventory or snapshot; 2-7 as for the other\n"
	  "commands (--exit-codes maps them).\n" },
	{ "vfio-plan", pa_cmd_vfio_plan, "[--json] [SOURCE] BDF...",
	  "what giving devices to one guest takes, and the steps", 1,
	  PA_CLI_MAX_BDFS, OPT_SOURCE,
	  "For the devices (DDDD:BB:DD.F or BB:DD.F) to pass to one guest: the\n"
	  "IOMMU groups they bring in and every other endpoint that must go too,\n"
	  "their drivers and reset methods, SR-IOV and BAR needs, the IOMMU's\n"
	  "mode and interrupt remapping; the vfio rules' findings that stand in\n"
	  "the way, each naming its rule; then the steps in order: kernel\n"
	  "parameters, binding to vfio-pci now (sysfs) and at boot (driverctl,\n"
	  "or vfio-pci.ids= with an initramfs softdep), libvirt <hostdev>\n"
	  "elements and QEMU -device vfio-pci lines.\n"
	  "SOURCE is --input FILE, --sysfs DIR or --lspci FILE, as for report.\n\n"
	  "Exit status as check's: 0 no blocker, 1 a failing one, 8 warnings\n"
	  "only; 7 a function not in the input; 2 a bridge, or a device whose\n"
	  "group a VFIO user holds.\n" },
	{ "fleet", pa_cmd_fleet, "[--json] SNAPSHOT... | DIR",
	  "hosts grouped by kind: each group's majority and who differs", 0, 0,
	  OPT_FILES | OPT_EXIT,
	  "Reads many hosts' report --json snapshots (files, gzip, or the\n"
	  "*.json and *.json.gz files of a directory), one at a time, and groups\n"
	  "the hosts by kind: a fingerprint of their bridges' slots and models\n"
	  "and of the models of their devices. Per group it prints the majority\n"
	  "configuration and every host that differs from it, and where: a\n"
	  "device missing, extra or moved, a link below, ACS control or the\n"
	  "IOMMU mode differing (docs/check.md, \"Fleets of snapshots\").\n\n"
	  "  --exit-codes S  pcieaudit, nagios or npd, as for check\n\n"
	  "Exit status: 0 no host differs, 1 some host differs, 9 a snapshot\n"
	  "that cannot be read (the message names it).\n" },
	{ "monitor", pa_cmd_monitor, "[--json]",
	  "follow link, ACS and hot-plug events as they happen", 0, 0, 0,
	  "One timestamped line per event (JSON lines with --json): a function\n"
	  "added or removed, a link's speed, width, DLLLA, LBMS or LABS changed,\n"
	  "ACS control changed; each names its source (bus-notifier, sampler,\n"
	  "or the kernel tracepoint that prompted the read: pci_hp_event,\n"
	  "pcie_link_event).\n"
	  "Lost events print a 'resync' line. Ends on SIGINT or SIGTERM (exit 0)\n"
	  "or when the module is unloaded (exit 4).\n" },
	{ "exporter", pa_cmd_exporter, "[--listen ADDR:PORT] [--interval SECONDS]",
	  "Prometheus /metrics: links, AER counters, check findings", 0, 0,
	  OPT_SOURCE | OPT_LISTEN | OPT_EXPECT,
	  "Serves http://ADDR:PORT/metrics until SIGINT or SIGTERM. A thread\n"
	  "reads the module and runs check's profiles (default policy) every\n"
	  "--interval, and within a second of a link, ACS or hot-plug event; a\n"
	  "scrape serves the last collection from memory, with its time\n"
	  "(pcieaudit_collect_timestamp_seconds). If the module is unloaded,\n"
	  "pcieaudit_up is 0.\n\n"
	  "  --listen ADDR:PORT  numeric IPv4, [IPv6] or localhost (default\n"
	  "                      " PA_LISTEN_DEFAULT ": loopback only)\n"
	  "  --web-config FILE   TLS, basic auth and headers in exporter-toolkit's\n"
	  "                      web configuration format (docs/monitoring.md);\n"
	  "                      exit 9, before listening, when it cannot be used\n"
	  "  --user NAME         started as root: once its sockets are open, run\n"
	  "                      as NAME (default nobody) without capabilities and\n"
	  "                      with no_new_privs; the module asks only the\n"
	  "                      socket's opener. --user root keeps root\n"
	  "  --interval SECONDS  collect this often (default 10, 0.1 to 86400)\n"
	  "  --input FILE        serve a snapshot (report --json) instead\n"
	  "  --sysfs DIR         without the module: sysfs and configuration space\n"
	  "                      (needs root past 64 bytes: keeps root's privileges)\n"
	  "  --lspci FILE        serve lspci -xxxx output instead\n"
	  "  --expect FILE       also run check's expect profile against a golden\n"
	  "                      host's report --json or a YAML inventory, read\n"
	  "                      once at start (exit 9 when it cannot be)\n" },
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
		fprintf(f, "  %-8s %-26s %s\n", commands[i].name,
			commands[i].args, commands[i].help);
	fprintf(f, "\nOptions:\n"
		"  --json         print JSON (schema_version %d) instead of text\n"
		"  --pretty       indent JSON (the default on a terminal only)\n"
		"  -h, --help     show this help, or a command's after the command\n"
		"  --all          topo: every function, not just GPUs, NICs, NVMe\n"
		"  -V, --version  show the version (also after a command)\n\n"
		"BDF, A and B are DDDD:BB:DD.F or BB:DD.F (domain 0000).\n"
		"Exit status: 0 ok, 2 usage error, 3 error, 4 module not loaded,\n"
		"5 permission denied, 6 ABI version mismatch, 7 no such device;\n"
		"check: 1 failures, 8 warnings only, 9 bad policy or snapshot;\n"
		"fleet: 1 some host differs. --exit-codes nagios|npd maps them.\n"
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

static bool is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

static bool is_version(const char *arg)
{
	return !strcmp(arg, "-V") || !strcmp(arg, "--version");
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static int add_bdf(const struct command *cmd, const char *arg,
		   struct pa_cli_opts *opts, struct pa_error *e)
{
	if (opts->nbdfs == cmd->max_bdfs && cmd->max_bdfs == PA_CLI_MAX_BDFS)
		return pa_error_usage(e, "too many PCI addresses for %s (at most %zu)",
				      cmd->name, cmd->max_bdfs);
	if (opts->nbdfs == cmd->max_bdfs)
		return pa_error_usage(e, "unexpected argument '%s' for %s", arg,
				      cmd->name);
	if (pa_bdf_parse(arg, &opts->bdfs[opts->nbdfs]))
		return pa_error_usage(e, "invalid PCI address '%s', expected DDDD:BB:DD.F or BB:DD.F",
				      arg);
	opts->nbdfs++;
	return PA_EXIT_OK;
}

/* Checks what the arguments add up to, once all are read. */
static int check_arguments(const struct command *cmd,
			   const struct pa_cli_opts *opts, struct pa_error *e)
{
	if (opts->all && opts->nbdfs)
		return pa_error_usage(e, "%s takes --all or PCI addresses, not both",
				      cmd->name);
	if (!!opts->input + !!opts->sysfs + !!opts->lspci > 1)
		return pa_error_usage(e, "%s takes one of --input, --sysfs and --lspci",
				      cmd->name);
	if (pa_cli_offline(opts) && opts->nbdfs && cmd->fn == pa_cmd_report)
		return pa_error_usage(e, "%s BDF reads the module only; --input, --sysfs and --lspci report every function",
				      cmd->name);
	if (opts->format && opts->json && strcmp(opts->format, "json"))
		return pa_error_usage(e, "--json and --format %s contradict each other",
				      opts->format);
	if (opts->nvml && !opts->json)
		return pa_error_usage(e, "--nvml adds NVML's facts to the JSON snapshot: %s --json --nvml",
				      cmd->name);
	if ((cmd->opts & OPT_FILES) && !opts->nfiles)
		return pa_error_usage(e, "%s needs snapshots: %s %s", cmd->name,
				      cmd->name, cmd->args);
	if (opts->nbdfs < cmd->min_bdfs)
		return pa_error_usage(e, "%s needs %zu PCI addresses: %s %s",
				      cmd->name, cmd->min_bdfs, cmd->name,
				      cmd->args);
	return PA_EXIT_OK;
}

/* Options that take a value, as "--name VALUE" or "--name=VALUE". */
static const struct {
	const char *name;
	unsigned int group;
	size_t offset;
} value_options[] = {
	{ "--input", OPT_SOURCE, offsetof(struct pa_cli_opts, input) },
	{ "--sysfs", OPT_SOURCE, offsetof(struct pa_cli_opts, sysfs) },
	{ "--lspci", OPT_SOURCE, offsetof(struct pa_cli_opts, lspci) },
	{ "--policy", OPT_CHECK, offsetof(struct pa_cli_opts, policy) },
	{ "--previous", OPT_CHECK, offsetof(struct pa_cli_opts, previous) },
	{ "--profile", OPT_CHECK, offsetof(struct pa_cli_opts, profiles) },
	{ "--format", OPT_CHECK, offsetof(struct pa_cli_opts, format) },
	{ "--output", OPT_CHECK, offsetof(struct pa_cli_opts, output) },
	{ "--nccl-xml", OPT_NCCL, offsetof(struct pa_cli_opts, nccl_xml) },
	{ "--svg", OPT_NCCL, offsetof(struct pa_cli_opts, svg) },
	{ "--listen", OPT_LISTEN, offsetof(struct pa_cli_opts, listen) },
	{ "--interval", OPT_LISTEN, offsetof(struct pa_cli_opts, interval) },
	{ "--expect", OPT_EXPECT, offsetof(struct pa_cli_opts, expect) },
	{ "--exit-codes", OPT_EXIT, offsetof(struct pa_cli_opts, exit_codes) },
	{ "--web-config", OPT_LISTEN, offsetof(struct pa_cli_opts, web_config) },
	{ "--user", OPT_LISTEN, offsetof(struct pa_cli_opts, user) },
};

#define NVALUE_OPTIONS (sizeof(value_options) / sizeof(value_options[0]))

/* Takes a value option at argv[*i]; -1 when arg is none of them. */
static int value_option(const struct command *cmd, int argc, char **argv,
			int *i, struct pa_cli_opts *opts, struct pa_error *e)
{
	const char *arg = argv[*i], *value;
	const char **slot;
	size_t n;

	for (size_t k = 0; k < NVALUE_OPTIONS; k++) {
		n = strlen(value_options[k].name);
		if (strncmp(arg, value_options[k].name, n) ||
		    (arg[n] && arg[n] != '=') || !(cmd->opts & value_options[k].group))
			continue;
		value = arg[n] ? arg + n + 1 : *i + 1 < argc ? argv[++*i] : NULL;
		if (!value || !*value)
			return pa_error_usage(e, "%s needs a value", value_options[k].name);
		slot = (const char **)((char *)opts + value_options[k].offset);
		if (*slot)
			return pa_error_usage(e, "%s given twice", value_options[k].name);
		*slot = value;
		if (slot == &opts->format && pa_format_lookup(value) == PA_NFORMATS)
			return pa_error_usage(e, "unknown format '%s' (expected text, json, prometheus, nfd or html)",
					      value);
		if (slot == &opts->exit_codes && pa_exit_style_lookup(value) < 0)
			return pa_error_usage(e, "unknown --exit-codes '%s' (expected pcieaudit, nagios or npd)",
					      value);
		return PA_EXIT_OK;
	}
	return -1;
}

/* --input, --sysfs or --lspci, with its value or not: a source, for a
 * command that takes none. */
static bool is_source(const char *arg)
{
	static const char *const names[] = { "--input", "--sysfs", "--lspci" };

	for (size_t k = 0; k < 3; k++) {
		size_t n = strlen(names[k]);

		if (!strncmp(arg, names[k], n) && (!arg[n] || arg[n] == '='))
			return true;
	}
	return false;
}

/* Parses a command's own arguments, then runs it. */
static int run_command(const struct command *cmd, int argc, char **argv,
		       struct pa_cli_opts *opts, struct pa_error *e)
{
	int rc = PA_EXIT_OK;

	for (int i = 0; i < argc && rc == PA_EXIT_OK; i++) {
		const char *arg = argv[i];
		int taken;

		if (is_help(arg)) {
			print_command_usage(stdout, cmd);
			return PA_EXIT_OK;
		}
		if (is_version(arg))
			return print_version();
		if (!strcmp(arg, "--json"))
			opts->json = true;
		else if (!strcmp(arg, "--pretty"))
			opts->pretty = true;
		else if (!strcmp(arg, "--all") && (cmd->opts & OPT_ALL))
			opts->all = true;
		else if (!strcmp(arg, "--no-color") && (cmd->opts & OPT_CHECK))
			opts->no_color = true;
		else if (!strcmp(arg, "--rules") && (cmd->opts & OPT_CHECK))
			opts->rules = true;
		else if (!strcmp(arg, "--nvml") && (cmd->opts & OPT_NVML))
			opts->nvml = true;
		else if ((taken = value_option(cmd, argc, argv, &i, opts, e)) >= 0)
			rc = taken;
		else if (is_source(arg))
			rc = pa_error_usage(e, "%s follows the running kernel's events as they happen: it cannot read %.7s (a snapshot, sysfs copy or lspci capture holds no events)",
					    cmd->name, arg);
		else if (arg[0] == '-' && strcmp(arg, "-"))
			rc = pa_error_usage(e, "unknown option '%s' for %s", arg,
					    cmd->name);
		else if (cmd->opts & OPT_FILES)
			opts->files[opts->nfiles++] = arg;
		else if (arg[0] == '-')
			rc = pa_error_usage(e, "unknown option '%s' for %s", arg,
					    cmd->name);
		else
			rc = add_bdf(cmd, arg, opts, e);
	}
	if (rc == PA_EXIT_OK)
		rc = check_arguments(cmd, opts, e);
	/* As iproute2: compact JSON for scripts and files. */
	pa_json_set_pretty(opts->pretty || isatty(STDOUT_FILENO));
	return rc == PA_EXIT_OK ? cmd->fn(opts, e) : rc;
}

/* The command line's command, run; its exit code. opts keeps what was
 * parsed, --exit-codes for main. */
static int run(int argc, char **argv, struct pa_cli_opts *o,
	       struct pa_error *e)
{
	struct pa_cli_opts opts = { 0 };
	const struct command *cmd;
	int i, rc;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (is_help(argv[i])) {
			print_usage(stdout);
			return PA_EXIT_OK;
		}
		if (is_version(argv[i]))
			return print_version();
		if (!strcmp(argv[i], "--pretty"))
			opts.pretty = true;
		else if (strcmp(argv[i], "--json"))
			return pa_error_usage(e, "unknown option '%s'", argv[i]);
		else
			opts.json = true;
	}
	if (i == argc)
		return pa_error_usage(e, "no command given");
	cmd = find_command(argv[i]);
	if (!cmd)
		return pa_error_usage(e, "unknown command '%s'", argv[i]);
	/* Room for every argument as a file (fleet). */
	if (cmd->opts & OPT_FILES) {
		opts.files = calloc((size_t)argc, sizeof(*opts.files));
		if (!opts.files)
			return pa_error_errno(e, -ENOMEM, &(struct pa_errinfo){ 0 });
	}
	rc = run_command(cmd, argc - i - 1, argv + i + 1, &opts, e);
	free(opts.files);
	opts.files = NULL;
	*o = opts;
	return rc;
}

int main(int argc, char **argv)
{
	struct pa_cli_opts opts = { 0 };
	struct pa_error e = { 0 };
	int rc = run(argc, argv, &opts, &e);

	/* Every failure, whichever step it came from, is told here, once. */
	if (e.exit)
		rc = pa_error_print(stderr, &e);
	return pa_exit_style_map(pa_exit_style_lookup(opts.exit_codes ?
				 opts.exit_codes : "pcieaudit"), rc);
}
