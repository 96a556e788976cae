// SPDX-License-Identifier: GPL-2.0
/*
 * pcieaudit-cli: reports what the pcieaudit kernel module sees of PCIe ACS,
 * IOMMU groups and domains, and link training.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/pcieaudit.h>

#include "bdf.h"
#include "check.h"
#include "check_out.h"
#include "errors.h"
#include "exitcodes.h"
#include "exporter.h"
#include "fabric_read.h"
#include "fetch.h"
#include "fileio.h"
#include "json_out.h"
#include "listen_addr.h"
#include "load.h"
#include "monitor.h"
#include "nccl_xml.h"
#include "nl.h"
#include "p2p_infer.h"
#include "p2p_text.h"
#include "pcinames.h"
#include "policy.h"
#include "text_out.h"
#include "topo.h"

#ifndef PA_VERSION
#define PA_VERSION "0.1"
#endif

/* More than a matrix can show legibly. */
#define MAX_BDFS 64

/* The biggest policy file read. */
#define POLICY_MAX (1u << 20)

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_PROMETHEUS, FORMAT_NFD, NFORMATS };

static const char *const format_names[NFORMATS] = {
	[FORMAT_TEXT] = "text", [FORMAT_JSON] = "json",
	[FORMAT_PROMETHEUS] = "prometheus", [FORMAT_NFD] = "nfd",
};

struct options {
	bool json;
	bool pretty;			/* --pretty: indented JSON */
	bool all;			/* topo --all */
	size_t nbdfs;
	struct pa_addr bdfs[MAX_BDFS];
	/* report, p2p, topo and check: where the report comes from */
	const char *input;
	const char *sysfs;
	const char *lspci;
	/* topo */
	const char *nccl_xml;
	/* check */
	const char *policy;
	const char *profiles;
	const char *format;
	const char *output;
	const char *previous;		/* check --previous */
	const char *listen;		/* exporter --listen */
	bool no_color;
	bool rules;
};

/* Which options a command takes, besides --json and --help. */
#define OPT_ALL		(1u << 0)	/* --all */
#define OPT_SOURCE	(1u << 1)	/* --input, --sysfs, --lspci */
#define OPT_CHECK	(1u << 2)	/* --policy, --profile, --format, ... */
#define OPT_NCCL	(1u << 3)	/* --nccl-xml */
#define OPT_LISTEN	(1u << 4)	/* --listen */

struct command {
	const char *name;
	int (*fn)(const struct options *opts);
	const char *args;
	const char *help;
	size_t min_bdfs, max_bdfs;
	unsigned int opts;
	const char *details;	/* more for the command's --help, or NULL */
};

static int cmd_report(const struct options *opts);
static int cmd_info(const struct options *opts);
static int cmd_p2p(const struct options *opts);
static int cmd_topo(const struct options *opts);
static int cmd_check(const struct options *opts);
static int cmd_exporter(const struct options *opts);
static int cmd_monitor(const struct options *opts);

static const struct command commands[] = {
	{ "report", cmd_report, "[--json] [BDF]",
	  "PCI tree with ACS, link and IOMMU state", 0, 1, OPT_SOURCE,
	  "With a BDF (DDDD:BB:DD.F or BB:DD.F, domain 0000), only that\n"
	  "function and the IOMMU group holding it. The JSON of a full report\n"
	  "also holds the P2P pairs among the devices 'topo' shows and the\n"
	  "host's facts: it is the snapshot 'check --input' reads.\n\n"
	  "  --input FILE  print a snapshot (report --json) instead, '-' for stdin\n"
	  "  --sysfs DIR   without the module: read sysfs and configuration\n"
	  "                space under DIR (/sys, or a fixture's directory)\n"
	  "  --lspci FILE  from lspci -xxxx output (-vvv, -D, quoted in mail,\n"
	  "                an nvidia-bug-report log) or a sosreport directory\n" },
	{ "info", cmd_info, "[--json]",
	  "module and kernel versions, features, IOMMU mode", 0, 0, 0,
	  NULL },
	{ "p2p", cmd_p2p, "[--json] [SOURCE] A B",
	  "P2P DMA from A to B: path, verdicts, remedy", 2, 2, OPT_SOURCE,
	  "A is the provider (the DMA target's memory), B the client; each is\n"
	  "DDDD:BB:DD.F or BB:DD.F (domain 0000). Shows the path hop by hop\n"
	  "with each bridge's ACS control and link, the kernel's and pcieaudit's\n"
	  "verdicts, the narrowest link and, when P2P is not direct, the remedy.\n"
	  "Exits 0 whenever the module answered, whatever the verdict.\n"
	  "SOURCE is --input FILE, --sysfs DIR or --lspci FILE, as for report;\n"
	  "without the module, pcieaudit's own path analysis gives the verdict.\n" },
	{ "topo", cmd_topo, "[SOURCE] [--all | BDF...]",
	  "P2P topology matrix, nvidia-smi legend", 0, MAX_BDFS,
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
	  "                   (NCCL_TOPO_FILE): CPUs, PCI switches, GPUs, NICs\n" },
	{ "check", cmd_check, "[options]",
	  "audit against the gpudirect, vfio and baseline profiles", 0, 0,
	  OPT_SOURCE | OPT_CHECK,
	  "Prints PASS, WARN, FAIL, INFO and SKIP lines per rule, each finding\n"
	  "with its devices and remedy.\n\n"
	  "  --profile P[,P]  gpudirect, vfio, baseline (default: the policy's, or all)\n"
	  "  --policy FILE    a YAML policy: devices, rules, thresholds (see README)\n"
	  "  --input FILE     check a snapshot (report --json) instead, '-' for stdin\n"
	  "  --sysfs DIR      without the module: sysfs and configuration space\n"
	  "  --lspci FILE     from lspci -xxxx output or a sosreport directory\n"
	  "  --format F       text (default), json, prometheus (a node_exporter\n"
	  "                   textfile), nfd (a Node Feature Discovery features.d file)\n"
	  "  --json           the same as --format json\n"
	  "  --output FILE    write FILE atomically instead of standard output\n"
	  "  --previous FILE  an earlier report --json of this host: rules over\n"
	  "                   time (baseline.aer-rising) compare against it\n"
	  "  --no-color       no colour (also NO_COLOR=1; off when not a terminal)\n"
	  "  --rules          list the rules and exit\n\n"
	  "Exit status: 0 clean (info findings allowed), 1 a failure, 8 warnings\n"
	  "only, 9 a bad policy or snapshot; 2-7 as for the other commands.\n" },
	{ "monitor", cmd_monitor, "[--json]",
	  "follow link, ACS and hot-plug events as they happen", 0, 0, 0,
	  "One timestamped line per event (JSON lines with --json): a function\n"
	  "added or removed, a link's speed, width, DLLLA, LBMS or LABS changed,\n"
	  "ACS control changed; each names its source (bus-notifier, sampler).\n"
	  "Lost events print a 'resync' line. Ends on SIGINT or SIGTERM (exit 0)\n"
	  "or when the module is unloaded (exit 4).\n" },
	{ "exporter", cmd_exporter, "[--listen ADDR:PORT]",
	  "Prometheus /metrics: links, AER counters, check findings", 0, 0,
	  OPT_SOURCE | OPT_LISTEN,
	  "Serves http://ADDR:PORT/metrics until SIGINT or SIGTERM. Each scrape\n"
	  "reads the module afresh and runs check's profiles (default policy).\n"
	  "If the module is unloaded, scrapes answer pcieaudit_up 0.\n\n"
	  "  --listen ADDR:PORT  numeric IPv4, [IPv6] or localhost (default\n"
	  "                      " PA_LISTEN_DEFAULT ": loopback only)\n"
	  "  --input FILE        serve a snapshot (report --json) instead\n"
	  "  --sysfs DIR         without the module: sysfs and configuration space\n"
	  "  --lspci FILE        serve lspci -xxxx output instead\n" },
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
		"check: 1 failures, 8 warnings only, 9 bad policy or snapshot.\n"
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

/* What the source found wrong in its input: on stderr, before the output,
 * so a report from broken input never reads as a clean one. */
static void print_warnings(const struct pa_report *rep)
{
	for (size_t i = 0; i < rep->warnings.n; i++)
		fprintf(stderr, "%s: warning: %s\n", PA_PROG, rep->warnings.text[i]);
}

/* A failed load's message is worded already. */
static int load_failed(const struct pa_load_error *e)
{
	fputs(e->msg, stderr);
	return e->exit;
}

static int cmd_report(const struct options *opts)
{
	const struct pa_load l = {
		.input = opts->input, .sysfs = opts->sysfs, .lspci = opts->lspci,
		.only = opts->nbdfs ? &opts->bdfs[0] : NULL,
		.pairs = opts->json, .host = opts->json,
	};
	struct pa_load_error e;
	struct pa_report rep;
	int err;

	if (pa_load_report(&l, &rep, &e))
		return load_failed(&e);
	print_warnings(&rep);
	/* A snapshot keeps the names of the host it was taken on. */
	if (!opts->input)
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

static bool offline(const struct options *opts)
{
	return opts->input || opts->sysfs || opts->lspci;
}

/* A report from a file or sysfs, as the module would send it. */
static int load_offline(const struct options *opts, struct pa_report *rep)
{
	const struct pa_load l = {
		.input = opts->input, .sysfs = opts->sysfs, .lspci = opts->lspci,
		.host = true,
	};
	struct pa_load_error e;

	if (pa_load_report(&l, rep, &e))
		return load_failed(&e);
	print_warnings(rep);
	if (!opts->input)
		pa_names_fill(rep->devices, rep->ndevices);
	return PA_EXIT_OK;
}

/* Keeps the pair a -> b of a snapshot's pairs, inferring it when absent;
 * 0 or -ENOMEM. */
static int keep_pair(struct pa_report *rep, const struct pa_addr *a,
		     const struct pa_addr *b)
{
	struct pa_p2p *p2p = &rep->p2p;
	struct pa_p2p_pair pair = { 0 };
	size_t i;
	int err;

	for (i = 0; i < p2p->npairs; i++)
		if (pa_addr_eq(&p2p->pairs[i].provider, a) &&
		    pa_addr_eq(&p2p->pairs[i].client, b))
			break;
	if (i < p2p->npairs) {
		pair = p2p->pairs[i];
		p2p->pairs[i] = (struct pa_p2p_pair){ 0 };
	} else {
		err = pa_p2p_infer(rep, a, b, &pair);
		if (err)
			return err;
	}
	pa_p2p_clear(p2p);
	err = pa_p2p_add(p2p, &pair);
	if (err)
		pa_p2p_pair_clear(&pair);
	rep->has_p2p = !err;
	return err;
}

static int p2p_offline(const struct options *opts)
{
	const struct pa_addr *a = &opts->bdfs[0], *b = &opts->bdfs[1];
	char which[2 * PA_BDF_LEN + 4];
	struct pa_report rep;
	int rc = load_offline(opts, &rep), err;

	if (rc)
		return rc;
	if (!pa_report_find(&rep, a) || !pa_report_find(&rep, b)) {
		fprintf(stderr, "%s: no function %s in the input\n", PA_PROG,
			absent_bdf(&rep, a, b, which));
		pa_report_clear(&rep);
		return PA_EXIT_NO_DEVICE;
	}
	err = keep_pair(&rep, a, b);
	if (!err)
		err = opts->json ? pa_json_p2p(stdout, &rep)
				 : pa_text_p2p(stdout, &rep, &rep.p2p.pairs[0]);
	pa_report_clear(&rep);
	return finish_output(err);
}

static int cmd_p2p(const struct options *opts)
{
	const struct pa_addr *a = &opts->bdfs[0], *b = &opts->bdfs[1];
	char which[2 * PA_BDF_LEN + 4];
	struct pa_errinfo ei = { 0 };
	struct pa_report rep;
	struct pa_nl *nl;
	int err;

	if (offline(opts))
		return p2p_offline(opts);
	err = pa_nl_open(&nl, &ei);
	if (err)
		return fail(err, &ei);
	/* The devices first: the path's bridges are explained from them. */
	err = pa_fetch_devices(nl, &rep);
	if (!err)
		err = pa_fetch_p2p(nl, a, b, 1, &rep.p2p);
	pa_nl_close(nl);
	/* NVLink or XGMI between them, which the path is then not used for. */
	if (!err)
		err = pa_fabric_read("/sys", &rep);
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
	if (!err)
		err = pa_fetch_topo_pairs(nl, topo, rep);
	return err ? err : pa_fabric_read("/sys", rep);
}

/* Without the module: a snapshot's pairs, or pcieaudit's own analysis. */
static int write_nccl_xml(const struct options *opts,
			  const struct pa_report *rep)
{
	struct pa_nccl_host h = { .family = -1, .model = -1 };
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int err;

	/* A snapshot's CPU is its host's, not this one's; a dump has none. */
	if (opts->input || opts->lspci)
		err = pa_nccl_host_from(&rep->host, &h);
	else
		err = pa_nccl_host_read(opts->sysfs ? opts->sysfs : "/sys", &h);

	f = err ? NULL : open_memstream(&text, &len);
	if (f) {
		err = pa_nccl_xml(f, rep, &h);
		if (fclose(f) && !err)
			err = -ENOMEM;
	} else if (!err) {
		err = -ENOMEM;
	}
	if (!err)
		err = pa_write_atomic(opts->nccl_xml, text, len);
	free(text);
	pa_nccl_host_clear(&h);
	if (err) {
		fprintf(stderr, "%s: cannot write %s: %s\n", PA_PROG,
			opts->nccl_xml, strerror(-err));
		return PA_EXIT_RUNTIME;
	}
	return PA_EXIT_OK;
}

/* The matrix from pcieaudit's own analysis, a snapshot's pairs kept. */
static int load_topo(const struct options *opts, struct pa_report *rep,
		     struct pa_topo *topo)
{
	struct pa_addr *addrs = NULL;
	char bdf[PA_BDF_LEN];
	size_t missing = 0;
	int rc = load_offline(opts, rep), err;

	if (rc)
		return rc;
	err = pa_topo_select(rep, selection(opts), opts->bdfs, opts->nbdfs,
			     topo, &missing);
	if (err == -ENODEV) {
		pa_bdf_format(&opts->bdfs[missing], bdf);
		fprintf(stderr, "%s: no function %s in the input\n", PA_PROG, bdf);
		pa_topo_clear(topo);
		pa_report_clear(rep);
		return PA_EXIT_NO_DEVICE;
	}
	if (!err)
		err = pa_topo_addrs(topo, &addrs);
	if (!err)
		err = pa_p2p_fill(rep, addrs, topo->n);
	free(addrs);
	rep->has_p2p = !err;
	if (err) {
		pa_topo_clear(topo);
		pa_report_clear(rep);
		return fail(err, &(struct pa_errinfo){ .op = "topo" });
	}
	return PA_EXIT_OK;
}

static int cmd_topo(const struct options *opts)
{
	struct pa_errinfo ei = { 0 };
	struct pa_topo topo = { 0 };
	char bdf[PA_BDF_LEN];
	struct pa_report rep;
	struct pa_nl *nl;
	int err = 0, rc = PA_EXIT_OK;

	if (offline(opts)) {
		rc = load_topo(opts, &rep, &topo);
		if (rc != PA_EXIT_OK)
			return rc;
	} else {
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
	}
	/* The file first: a failure leaves standard output empty. */
	if (opts->nccl_xml)
		rc = write_nccl_xml(opts, &rep);
	if (rc == PA_EXIT_OK)
		err = opts->json ? pa_json_topo(stdout, &rep, &topo)
				 : pa_text_topo(stdout, &rep, &topo);
	pa_topo_clear(&topo);
	pa_report_clear(&rep);
	return rc != PA_EXIT_OK ? rc : finish_output(err);
}

static int print_rules(void)
{
	for (int r = 0; r < PA_NRULES; r++)
		printf("%-31s %-5s %s\n%31s       %s.\n", pa_rules[r].id,
		       pa_severity_name(pa_rules[r].severity), pa_rules[r].what,
		       "", pa_rules[r].why);
	return finish_output(0);
}

static int read_policy(const char *path, struct pa_policy *pol)
{
	char err[512];
	size_t len;
	char *text;
	int rc = pa_read_file(path, POLICY_MAX, &text, &len);

	if (rc) {
		fprintf(stderr, "%s: cannot read policy %s: %s\n", PA_PROG, path,
			rc == -EFBIG ? "larger than 1 MiB" : strerror(-rc));
		return PA_EXIT_BAD_INPUT;
	}
	rc = pa_policy_parse(path, text, len, pol, err, sizeof(err));
	free(text);
	if (!rc)
		return PA_EXIT_OK;
	fprintf(stderr, "%s: %s\n", PA_PROG, err);
	return rc == -ENOMEM ? PA_EXIT_RUNTIME : PA_EXIT_BAD_INPUT;
}

/* --profile overrides the policy's profiles. */
static int select_profiles(const char *list, struct pa_policy *pol)
{
	char *copy, *name, *save = NULL;
	bool want[PA_NPROFILES] = { false };
	int rc = PA_EXIT_OK, p;

	if (!list)
		return PA_EXIT_OK;
	copy = strdup(list);
	if (!copy)
		return PA_EXIT_RUNTIME;
	for (name = strtok_r(copy, ",", &save); name && rc == PA_EXIT_OK;
	     name = strtok_r(NULL, ",", &save)) {
		p = pa_profile_lookup(name);
		if (p < 0)
			rc = usage_error("unknown profile '%s' (expected gpudirect, vfio or baseline)",
					 name);
		else
			want[p] = true;
	}
	free(copy);
	if (rc == PA_EXIT_OK && !memchr(want, true, sizeof(want)))
		rc = usage_error("--profile names no profile");
	if (rc == PA_EXIT_OK)
		memcpy(pol->profiles, want, sizeof(want));
	return rc;
}

/* NFORMATS for a name that is none of them. */
static enum format format_lookup(const char *name)
{
	int f;

	for (f = 0; f < NFORMATS && strcmp(name, format_names[f]); f++)
		;
	return (enum format)f;
}

static enum format format_of(const struct options *opts)
{
	if (opts->format)
		return format_lookup(opts->format);
	return opts->json ? FORMAT_JSON : FORMAT_TEXT;
}

/* Colour only for a person: a terminal, and NO_COLOR unset or empty. */
static bool want_colour(const struct options *opts)
{
	const char *no = getenv("NO_COLOR"), *term = getenv("TERM");

	return !opts->no_color && !opts->output && isatty(STDOUT_FILENO) &&
	       (!no || !*no) && (!term || strcmp(term, "dumb"));
}

static const char *source_of(const struct options *opts, char *buf,
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

static int render_check(FILE *f, const struct options *opts,
			const struct pa_report *rep, const struct pa_check *c)
{
	char source[300];

	source_of(opts, source, sizeof(source));
	switch (format_of(opts)) {
	case FORMAT_JSON:
		return pa_check_json(f, c, source);
	case FORMAT_PROMETHEUS:
		return pa_check_prometheus(f, rep, c);
	case FORMAT_NFD:
		return pa_check_nfd(f, rep, c);
	default:
		return pa_check_text(f, rep, c, source, want_colour(opts));
	}
}

/* Collectors must never see half a file: build it, then replace. */
static int write_check(const struct options *opts, const struct pa_report *rep,
		       const struct pa_check *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int err;

	if (!opts->output)
		return finish_output(render_check(stdout, opts, rep, c));
	f = open_memstream(&text, &len);
	if (!f)
		return fail(-ENOMEM, &(struct pa_errinfo){ .op = "formatting" });
	err = render_check(f, opts, rep, c);
	if (fclose(f) && !err)
		err = -ENOMEM;
	if (!err)
		err = pa_write_atomic(opts->output, text, len);
	free(text);
	if (err) {
		fprintf(stderr, "%s: cannot write %s: %s\n", PA_PROG,
			opts->output, strerror(-err));
		return PA_EXIT_RUNTIME;
	}
	return PA_EXIT_OK;
}

static int cmd_check(const struct options *opts)
{
	const struct pa_load l = {
		.input = opts->input, .sysfs = opts->sysfs, .lspci = opts->lspci,
		.pairs = true, .host = true,
	};
	const struct pa_load lp = { .input = opts->previous };
	struct pa_report rep, prev = { 0 };
	struct pa_load_error e;
	struct pa_policy pol;
	struct pa_check c;
	int rc;

	if (opts->rules)
		return print_rules();
	pa_policy_default(&pol);
	rc = opts->policy ? read_policy(opts->policy, &pol) : PA_EXIT_OK;
	if (rc == PA_EXIT_OK)
		rc = select_profiles(opts->profiles, &pol);
	if (rc == PA_EXIT_OK && opts->previous && pa_load_report(&lp, &prev, &e))
		rc = load_failed(&e);
	if (rc == PA_EXIT_OK && pa_load_report(&l, &rep, &e)) {
		rc = load_failed(&e);
		pa_report_clear(&prev);
	}
	if (rc != PA_EXIT_OK) {
		pa_policy_clear(&pol);
		return rc;
	}
	rep.previous = opts->previous ? &prev : NULL;
	print_warnings(&rep);
	rc = pa_check_run(&rep, &pol, &c);
	if (rc)
		rc = fail(rc, &(struct pa_errinfo){ .op = "check" });
	else
		rc = write_check(opts, &rep, &c);
	if (rc == PA_EXIT_OK)
		rc = pa_check_exit_code(&c);
	pa_check_clear(&c);
	pa_report_clear(&rep);
	pa_report_clear(&prev);
	pa_policy_clear(&pol);
	return rc;
}

static int cmd_monitor(const struct options *opts)
{
	return pa_monitor_run(opts->json);
}

static int cmd_exporter(const struct options *opts)
{
	const struct pa_exporter_opts o = {
		.listen = opts->listen, .input = opts->input, .sysfs = opts->sysfs,
		.lspci = opts->lspci,
	};

	return pa_exporter_run(&o);
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
	if (!!opts->input + !!opts->sysfs + !!opts->lspci > 1)
		return usage_error("%s takes one of --input, --sysfs and --lspci",
				   cmd->name);
	if (offline(opts) && opts->nbdfs && cmd->fn == cmd_report)
		return usage_error("%s BDF reads the module only; --input, --sysfs and --lspci report every function",
				   cmd->name);
	if (opts->format && opts->json && strcmp(opts->format, "json"))
		return usage_error("--json and --format %s contradict each other",
				   opts->format);
	if (opts->nbdfs < cmd->min_bdfs)
		return usage_error("%s needs %zu PCI addresses: %s %s",
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
	{ "--input", OPT_SOURCE, offsetof(struct options, input) },
	{ "--sysfs", OPT_SOURCE, offsetof(struct options, sysfs) },
	{ "--lspci", OPT_SOURCE, offsetof(struct options, lspci) },
	{ "--policy", OPT_CHECK, offsetof(struct options, policy) },
	{ "--previous", OPT_CHECK, offsetof(struct options, previous) },
	{ "--profile", OPT_CHECK, offsetof(struct options, profiles) },
	{ "--format", OPT_CHECK, offsetof(struct options, format) },
	{ "--output", OPT_CHECK, offsetof(struct options, output) },
	{ "--nccl-xml", OPT_NCCL, offsetof(struct options, nccl_xml) },
	{ "--listen", OPT_LISTEN, offsetof(struct options, listen) },
};

#define NVALUE_OPTIONS (sizeof(value_options) / sizeof(value_options[0]))

/* Takes a value option at argv[*i]; -1 when arg is none of them. */
static int value_option(const struct command *cmd, int argc, char **argv,
			int *i, struct options *opts)
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
			return usage_error("%s needs a value", value_options[k].name);
		slot = (const char **)((char *)opts + value_options[k].offset);
		if (*slot)
			return usage_error("%s given twice", value_options[k].name);
		*slot = value;
		if (slot == &opts->format && format_lookup(value) == NFORMATS)
			return usage_error("unknown format '%s' (expected text, json, prometheus or nfd)",
					   value);
		return PA_EXIT_OK;
	}
	return -1;
}

/* Parses a command's own arguments, then runs it. */
static int run_command(const struct command *cmd, int argc, char **argv,
		       struct options *opts)
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
		else if ((taken = value_option(cmd, argc, argv, &i, opts)) >= 0)
			rc = taken;
		else if (arg[0] == '-')
			rc = usage_error("unknown option '%s' for %s", arg,
					 cmd->name);
		else
			rc = add_bdf(cmd, arg, opts);
	}
	if (rc == PA_EXIT_OK)
		rc = check_arguments(cmd, opts);
	/* As iproute2: compact JSON for scripts and files. */
	pa_json_set_pretty(opts->pretty || isatty(STDOUT_FILENO));
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
		if (is_version(argv[i]))
			return print_version();
		if (!strcmp(argv[i], "--pretty"))
			opts.pretty = true;
		else if (strcmp(argv[i], "--json"))
			return usage_error("unknown option '%s'", argv[i]);
		else
			opts.json = true;
	}
	if (i == argc)
		return usage_error("no command given");
	cmd = find_command(argv[i]);
	if (!cmd)
		return usage_error("unknown command '%s'", argv[i]);
	return run_command(cmd, argc - i - 1, argv + i + 1, &opts);
}
