// SPDX-License-Identifier: GPL-2.0
#include "p2p_text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>

#include "acs.h"
#include "acs_direction_text.h"
#include "bdf.h"
#include "fabric.h"
#include "link.h"
#include "p2p_infer.h"
#include "p2p_path.h"
#include "remedy.h"
#include "text_out.h"

/* Labels take a column of their own; details and continued lines start
 * after it. */
#define LABEL_WIDTH	12
#define INDENT		"            "

/* "vvvv:dddd and vvvv:dddd" plus NUL. */
#define HOST_BRIDGES_LEN 32

static int status(FILE *f)
{
	return ferror(f) ? -EIO : 0;
}

static void label(FILE *f, const char *text)
{
	fprintf(f, "%-*s", LABEL_WIDTH, text);
}

static bool in_list(const struct pa_addr_list *list, const struct pa_addr *a)
{
	for (size_t i = 0; i < list->n; i++)
		if (pa_addr_eq(&list->addrs[i], a))
			return true;
	return false;
}

/* "a", "a and b", "a, b and c". */
static void print_bdfs(FILE *f, const struct pa_addr_list *list)
{
	char bdf[PA_BDF_LEN];

	for (size_t i = 0; i < list->n; i++) {
		pa_bdf_format(&list->addrs[i], bdf);
		fprintf(f, "%s%s", !i ? "" : i + 1 == list->n ? " and " : ", ",
			bdf);
	}
}

/* ---- The path ------------------------------------------------------------ */

struct path_print {
	FILE *f;
	const struct pa_report *rep;
	const struct pa_p2p_pair *pair;
};

static const char *const role_names[] = {
	[PA_STEP_PROVIDER]	= "provider",
	[PA_STEP_UP]		= "up",
	[PA_STEP_COMMON]	= "common",
	[PA_STEP_ROOT_COMPLEX]	= "common",
	[PA_STEP_DOWN]		= "down",
	[PA_STEP_CLIENT]	= "client",
};

static void print_acs_ctl(FILE *f, const struct pa_device *dev, bool redirects)
{
	char flags[PA_ACS_TEXT_LEN];

	if (pa_device_acs_unknown(dev)) {
		fprintf(f, INDENT "ACS: unknown: %s\n", pa_device_acs_unknown(dev));
		return;
	}
	if (!dev->has_acs) {
		fprintf(f, INDENT "ACS: none\n");
		return;
	}
	pa_acs_format(dev->acs.ctrl, flags);
	fprintf(f, INDENT "ACSCtl: %s%s\n", flags, redirects ? " REDIRECTS" : "");
}

static void print_step(const struct pa_addr *addr, enum pa_step_role role,
		       void *arg)
{
	const struct path_print *pp = arg;
	const struct pa_device *dev;
	char bdf[PA_BDF_LEN];
	bool redirects;

	label(pp->f, role_names[role]);
	if (!addr) {
		fprintf(pp->f, "none: crosses the root complex\n");
		return;
	}
	dev = pa_report_find(pp->rep, addr);
	if (!dev) {
		pa_bdf_format(addr, bdf);
		fprintf(pp->f, "%s (not in the device report)\n", bdf);
		return;
	}
	pa_text_device_line(pp->f, dev);
	/* ACS only matters where traffic is forwarded: in bridges, and in
	 * any function the module names as redirecting. */
	redirects = in_list(&pp->pair->redirect, addr);
	if ((dev->flags & PCIEAUDIT_DEV_F_BRIDGE) || redirects)
		print_acs_ctl(pp->f, dev, redirects);
	/* The common bridge's own link leads further up: traffic between
	 * its ports never crosses it. */
	pa_text_link(pp->f, INDENT, dev,
		     role == PA_STEP_COMMON ? "leads up, off this path" : NULL);
}

/* ---- The verdicts -------------------------------------------------------- */

static void print_kernel_verdict(FILE *f, const struct pa_p2p_pair *p)
{
	label(f, "kernel:");
	switch (p->kernel_status) {
	case PCIEAUDIT_P2P_KERNEL_ANSWERED:
		if (p->kernel_distance < 0)
			fprintf(f, "refused (pci_p2pdma_distance() answered %d)\n",
				p->kernel_distance);
		else
			fprintf(f, "distance %d (pci_p2pdma_distance())\n",
				p->kernel_distance);
		break;
	case PCIEAUDIT_P2P_KERNEL_NOT_BUILT:
		fprintf(f, "no answer: kernel built without CONFIG_PCI_P2PDMA\n");
		break;
	case PCIEAUDIT_P2P_KERNEL_WITHHELD_LOG:
		fprintf(f, "withheld: asking would make the kernel warn in its log, which it already did %d times in the last minute\n",
			PCIEAUDIT_P2P_KERNEL_LOG_BURST);
		break;
	case PCIEAUDIT_P2P_KERNEL_WITHHELD_UNSAFE:
		fprintf(f, "withheld: the provider has P2P memory, and this kernel would allocate under rcu_read_lock() (fixed in 6.9)\n");
		break;
	case 0:
		/* Not asked: a snapshot, sysfs or an lspci dump. */
		fprintf(f, "no answer: not asked (no module)\n");
		break;
	default:
		fprintf(f, "unknown answer (status %u)\n", p->kernel_status);
		break;
	}
}

/* "unknown: ACS of X unknown (why): ..." where that leaves the verdict
 * open; false otherwise. */
static bool acs_unknown(FILE *f, const struct pa_report *rep,
			const struct pa_p2p_pair *p)
{
	const struct pa_device *d;
	char bdf[PA_BDF_LEN];
	struct pa_addr at;

	if (!pa_p2p_acs_unknown_at(rep, p, &at))
		return false;
	d = pa_report_find(rep, &at);
	pa_bdf_format(&at, bdf);
	fprintf(f, "unknown: the ACS of %s is unknown (%s): direct, or through the host bridge if it redirects",
		bdf, d ? pa_device_acs_unknown(d) : "not in the report");
	return true;
}

/*
 * pcieaudit's own verdict. Where the kernel answered, that answer is the
 * verdict and this one explains it, or says plainly that it cannot; where
 * the kernel did not, this one is the verdict, and says whose rules it
 * models.
 */
static void print_map(FILE *f, const struct pa_report *rep,
		      const struct pa_p2p_pair *p)
{
	const char *rules = rep->info.p2p_rules;

	label(f, "pcieaudit:");
	switch (p->map) {
	case PCIEAUDIT_P2P_MAP_BUS_ADDR:
		fprintf(f, "direct (bus address), distance %d", p->distance);
		break;
	case PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE:
		fprintf(f, "through the host bridge, distance %d", p->distance);
		break;
	case PCIEAUDIT_P2P_MAP_NOT_SUPPORTED:
		fprintf(f, "not supported");
		break;
	case 0:
		if (acs_unknown(f, rep, p))
			break;
		fprintf(f, "unknown: through the root complex, which only the CPU and the kernel's host bridge whitelist decide; distance %d",
			p->distance);
		break;
	default:
		fprintf(f, "unknown map type %u, distance %d", p->map,
			p->distance);
		break;
	}
	if (!p->has_kernel_distance && rules)
		fprintf(f, " (the verdict, modelled on %s's rules)", rules);
	fputc('\n', f);
	if (p->agreement == PCIEAUDIT_P2P_DISAGREE)
		fprintf(f, INDENT "DISAGREES with the kernel, whose answer is the verdict: pcieaudit models %s's rules, and this kernel's differ\n",
			rules ? rules : "another kernel");
}

static void print_path_kind(FILE *f, const struct pa_report *rep,
			    const struct pa_p2p_pair *p)
{
	char common[PA_BDF_LEN] = "?", bdf[PA_BDF_LEN];
	struct pa_addr at;

	if (p->has_common)
		pa_bdf_format(&p->common, common);
	fprintf(f, INDENT "path: ");
	switch (p->path) {
	case PCIEAUDIT_P2P_PATH_COMMON_UPSTREAM:
		fprintf(f, "below common upstream bridge %s\n", common);
		break;
	case PCIEAUDIT_P2P_PATH_ACS_REDIRECT:
		fprintf(f, "below common upstream bridge %s, but ACS redirects at ",
			common);
		print_bdfs(f, &p->redirect);
		fputc('\n', f);
		break;
	case PCIEAUDIT_P2P_PATH_NO_COMMON_UPSTREAM:
		fprintf(f, "no common upstream bridge: crosses the root complex\n");
		break;
	case 0:
		if (pa_p2p_acs_unknown_at(rep, p, &at)) {
			pa_bdf_format(&at, bdf);
			fprintf(f, "below common upstream bridge %s; whether ACS redirects is unknown from %s on\n",
				common, bdf);
			break;
		}
		fprintf(f, "unknown\n");
		break;
	default:
		fprintf(f, "unknown path kind %u\n", p->path);
		break;
	}
}

/* Each direction as the PCIe ACS rules route it, beside the kernel's
 * P2PDMA verdict above, which is the rule for in-kernel P2PDMA users. */
static int print_directions(FILE *f, const struct pa_report *rep,
			    const struct pa_p2p_pair *p)
{
	for (int back = 0; back < 2; back++) {
		char req[PA_BDF_LEN], cpl[PA_BDF_LEN];
		struct pa_acs_direction d;
		struct pa_sb sb = { 0 };
		char *text;

		if (pa_acs_direction(rep, p, back, &d))
			return -ENOMEM;
		pa_bdf_format(&d.requester, req);
		pa_bdf_format(&d.completer, cpl);
		label(f, back ? "" : "ACS:");
		fprintf(f, "%s -> %s: %s\n", req, cpl, pa_acs_direction_verdict(&d));
		pa_acs_direction_text(&sb, &d);
		text = pa_sb_take(&sb);
		pa_acs_direction_clear(&d);
		if (!text)
			return -ENOMEM;
		fprintf(f, INDENT "  %s\n", text);
		free(text);
	}
	return 0;
}

static void format_id(bool has, uint32_t id, char *buf, size_t size)
{
	if (has)
		snprintf(buf, size, "%04x:%04x", id >> 16, id & 0xffff);
	else
		snprintf(buf, size, "(none)");
}

/* The ids the kernel's whitelist matches: one, or both when they differ. */
static void format_host_bridges(const struct pa_p2p_pair *p,
				char buf[HOST_BRIDGES_LEN])
{
	char a[12], b[12];

	format_id(p->has_host_bridge_provider, p->host_bridge_provider, a,
		  sizeof(a));
	format_id(p->has_host_bridge_client, p->host_bridge_client, b,
		  sizeof(b));
	if (!strcmp(a, b))
		snprintf(buf, HOST_BRIDGES_LEN, "%s", a);
	else
		snprintf(buf, HOST_BRIDGES_LEN, "%s and %s", a, b);
}

static void print_host_rule(FILE *f, const struct pa_p2p_pair *p)
{
	char ids[HOST_BRIDGES_LEN];

	format_host_bridges(p, ids);
	fprintf(f, INDENT "host rule: ");
	switch (p->host_rule) {
	case PCIEAUDIT_P2P_HOST_NOT_NEEDED:
		fprintf(f, "not needed: the path stays below a common bridge\n");
		break;
	case PCIEAUDIT_P2P_HOST_CPU:
		fprintf(f, "allowed: AMD Zen CPU\n");
		break;
	case PCIEAUDIT_P2P_HOST_WHITELIST:
		fprintf(f, "allowed: whitelisted host bridge %s\n", ids);
		break;
	case PCIEAUDIT_P2P_HOST_REFUSED:
		fprintf(f, "refused: not an AMD Zen CPU, host bridge %s not whitelisted\n",
			ids);
		break;
	case 0:
		if (p->has_common && !p->path)
			fprintf(f, "unknown: needed only where ACS redirects\n");
		else
			fprintf(f, "unknown: the CPU or the kernel's whitelist is not in the input\n");
		break;
	default:
		fprintf(f, "unknown rule %u\n", p->host_rule);
		break;
	}
}

static void print_legend(FILE *f, const struct pa_report *rep,
			 const struct pa_p2p_pair *p)
{
	enum pa_legend legend = pa_legend_of(rep, p);

	const struct pa_accel_link *l = rep->fabric ?
		pa_fabric_find(rep->fabric, &p->provider, &p->client) : NULL;

	label(f, "topology:");
	fprintf(f, "%s (%s)\n", pa_legend_name(legend),
		pa_legend_meaning(legend));
	if (!l)
		return;
	label(f, "links:");
	fprintf(f, "%u %s link%s join them: their P2P traffic takes those, not this PCIe path\n",
		l->count, pa_accel_type_name(l->type), l->count == 1 ? "" : "s");
}

/* ---- The narrowest link -------------------------------------------------- */

static void print_rate(FILE *f, const struct pa_report *rep,
		       const struct pa_addr *addr)
{
	const struct pa_device *dev = pa_report_find(rep, addr);
	char speed[PA_SPEED_TEXT_LEN], max[PA_SPEED_TEXT_LEN];
	struct pa_link_state st;

	if (!dev || !dev->has_link)
		return;
	pa_device_link_state(dev, &st);
	pa_link_format_speed(st.speed, speed);
	pa_link_format_speed(st.max_speed, max);
	fprintf(f, " (%s x%u, max %s x%u%s)", speed, st.width, max,
		st.max_width, st.downgraded ? ", DOWNGRADED" : "");
}

static void print_bandwidth(FILE *f, const struct pa_report *rep,
			    const struct pa_p2p_pair *p)
{
	char bdf[PA_BDF_LEN];
	struct pa_bottleneck b;

	pa_path_bottleneck(rep, p, &b);
	label(f, "bandwidth:");
	if (!b.found) {
		fprintf(f, "unknown: no link on the path reports its rate\n");
		return;
	}
	pa_bdf_format(&b.link, bdf);
	fprintf(f, "%.2f GB/s per direction, narrowest at %s", b.gbps, bdf);
	print_rate(f, rep, &b.link);
	fputc('\n', f);
	if (!b.trap)
		return;
	pa_bdf_format(&b.faster_end, bdf);
	fprintf(f, INDENT "BANDWIDTH TRAP: under half of the %.2f GB/s %s is capable of\n",
		b.ends_gbps, bdf);
}

/* ---- The remedy ---------------------------------------------------------- */

/* Word-wraps text at column 78, each line starting at INDENT. */
static void print_paragraph(FILE *f, const char *text)
{
	size_t col = 0;

	while (*text) {
		size_t word = strcspn(text, " ");

		if (col && col + 1 + word > 78 - strlen(INDENT)) {
			fputc('\n', f);
			col = 0;
		}
		fprintf(f, "%s%.*s", col ? " " : INDENT, (int)word, text);
		col += word + (col ? 1 : 0);
		text += word;
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

/* Where pci=disable_acs_redir= works, and whether on this kernel. */
static void print_acs_kernel(FILE *f, const struct pa_report *rep, size_t n)
{
	char kernel[600], text[1200];

	snprintf(text, sizeof(text), "(%s. %s.)",
		 pa_acs_param_range(PA_ACS_PARAM_DISABLE_ACS_REDIR),
		 pa_acs_param_on_kernel(rep->info.kernel_release,
					PA_ACS_PARAM_DISABLE_ACS_REDIR, n,
					kernel, sizeof(kernel)));
	print_paragraph(f, text);
}

/* pci=config_acs= only where it works as written: 6.11 to the stable
 * releases with the fix misparse it. */
static void print_config_acs(FILE *f, const struct pa_report *rep,
			     const char *param)
{
	char bits[PA_ACS_BITS_LEN];

	if (pa_acs_param_state(rep->info.kernel_release,
			       PA_ACS_PARAM_CONFIG_ACS) != PA_ACS_PARAM_WORKS)
		return;
	pa_config_acs_bits(PA_ACS_REDIRECT_BITS, bits);
	fprintf(f, INDENT "or, since this kernel has pci=config_acs= and the fix, with\n"
		INDENT "  %s\n"
		INDENT "(%s: flags DirectTrans EgressCtrl UpstreamFwd CmpltRedir ReqRedir\n"
		INDENT "TransBlk SrcValid, bit 6 to bit 0; 0 forces off, x leaves as is)\n",
		param, bits);
}

static void print_verify(FILE *f, const struct pa_p2p_pair *p)
{
	char a[PA_BDF_LEN], b[PA_BDF_LEN];

	pa_bdf_format(&p->provider, a);
	pa_bdf_format(&p->client, b);
	fprintf(f, INDENT "Verify afterwards with: pcieaudit-cli p2p %s %s\n", a, b);
}

static int print_acs_remedy(FILE *f, const struct pa_report *rep,
			    const struct pa_p2p_pair *p)
{
	char *redir = pa_remedy_disable_acs_redir(&p->redirect);
	char *config = pa_remedy_config_acs(&p->redirect);

	if (!redir || !config) {
		free(redir);
		free(config);
		return -ENOMEM;
	}
	label(f, "remedy:");
	fprintf(f, "ACS redirection on ");
	print_bdfs(f, &p->redirect);
	fprintf(f, " sends this traffic up\n"
		INDENT "to the root complex. To let it pass below the common bridge, boot with\n"
		INDENT "  %s\n", redir);
	print_acs_kernel(f, rep, p->redirect.n);
	print_config_acs(f, rep, config);
	fprintf(f, INDENT "Keep the value inside the quotes of GRUB_CMDLINE_LINUX: ';' ends a\n"
		INDENT "shell command. This weakens isolation between these devices: their\n"
		INDENT "P2P traffic no longer passes the IOMMU, so their IOMMU groups merge.\n"
		INDENT "The alternative is to turn ACS redirection off in the BIOS or\n"
		INDENT "firmware settings, where the platform offers it.\n");
	print_verify(f, p);
	free(redir);
	free(config);
	return 0;
}

static void print_root_remedy(FILE *f, const struct pa_p2p_pair *p)
{
	char ids[HOST_BRIDGES_LEN];

	label(f, "remedy:");
	if (p->host_rule != PCIEAUDIT_P2P_HOST_REFUSED) {
		fprintf(f, "P2P DMA works, but through the root complex. For direct P2P,\n"
			INDENT "place both devices under one PCIe switch.\n");
		return;
	}
	format_host_bridges(p, ids);
	fprintf(f, "no kernel parameter changes this. The devices share no upstream\n"
		INDENT "bridge, so their traffic must cross the root complex, which the\n"
		INDENT "kernel allows only on AMD Zen CPUs and on host bridges it whitelists;\n"
		INDENT "host bridge %s is not on the list. Place both devices under one\n"
		INDENT "PCIe switch or root port, or use a platform whose host bridge is\n"
		INDENT "whitelisted.\n", ids);
}

static int print_remedy(FILE *f, const struct pa_report *rep,
			const struct pa_p2p_pair *p)
{
	if (p->path == PCIEAUDIT_P2P_PATH_ACS_REDIRECT && p->redirect.n)
		return print_acs_remedy(f, rep, p);
	if (p->path == PCIEAUDIT_P2P_PATH_NO_COMMON_UPSTREAM) {
		print_root_remedy(f, p);
		return 0;
	}
	label(f, "remedy:");
	if (p->map == 0 && pa_p2p_acs_unknown_at(rep, p, &(struct pa_addr){ 0 })) {
		fprintf(f, "first read the ACS of every port on the path: as root, lspci -xxxx\n"
			INDENT "(4096 bytes of configuration space), or pcieaudit on the host itself\n");
		return 0;
	}
	fprintf(f, p->map == PCIEAUDIT_P2P_MAP_BUS_ADDR ?
		"none needed\n" : "none known\n");
	return 0;
}

int pa_text_p2p(FILE *f, const struct pa_report *rep,
		const struct pa_p2p_pair *pair)
{
	struct path_print pp = { f, rep, pair };
	char a[PA_BDF_LEN], b[PA_BDF_LEN];
	int err;

	pa_bdf_format(&pair->provider, a);
	pa_bdf_format(&pair->client, b);
	fprintf(f, "P2P DMA from %s (provider) to %s (client), path length %u\n\n",
		a, b, pair->path_length);
	pa_path_walk(pair, print_step, &pp);
	fputc('\n', f);
	print_kernel_verdict(f, pair);
	print_map(f, rep, pair);
	print_path_kind(f, rep, pair);
	print_host_rule(f, pair);
	err = print_directions(f, rep, pair);
	if (err)
		return err;
	print_legend(f, rep, pair);
	print_bandwidth(f, rep, pair);
	err = print_remedy(f, rep, pair);
	return err ? err : status(f);
}

/* ---- The matrix ---------------------------------------------------------- */

/* Pads to width, except at the end of a line: no trailing blanks. */
static void column(FILE *f, const char *text, int width, bool last)
{
	if (last)
		fprintf(f, "%s\n", text);
	else
		fprintf(f, "%-*s", width, text);
}

static int label_width(const struct pa_topo *t)
{
	size_t w = 0;

	for (size_t i = 0; i < t->n; i++)
		if (strlen(t->devs[i].label) > w)
			w = strlen(t->devs[i].label);
	return (int)w;
}

static void print_matrix(FILE *f, const struct pa_report *rep,
			 const struct pa_topo *t)
{
	int lw = label_width(t) + 2;
	/* Wide enough for the longest cell, "SYS-!", and a gap. */
	int cw = (lw > PA_CELL_LEN - 1 ? lw : PA_CELL_LEN - 1);
	char cell[PA_CELL_LEN];

	fprintf(f, "%-*s", lw, "");
	for (size_t j = 0; j < t->n; j++)
		column(f, t->devs[j].label, cw, j + 1 == t->n);
	for (size_t i = 0; i < t->n; i++) {
		fprintf(f, "%-*s", lw, t->devs[i].label);
		for (size_t j = 0; j < t->n; j++) {
			pa_topo_cell(rep, &t->devs[i].dev->addr,
				     &t->devs[j].dev->addr, cell);
			column(f, cell, cw, j + 1 == t->n);
		}
	}
}

static void print_devices(FILE *f, const struct pa_report *rep,
			  const struct pa_topo *t)
{
	int lw = label_width(t) + 2;
	struct pa_addr root;

	fprintf(f, "\nRows are providers, columns clients.\n\n");
	for (size_t i = 0; i < t->n; i++) {
		const struct pa_device *dev = t->devs[i].dev;

		fprintf(f, "%-*s", lw, t->devs[i].label);
		if (pa_host_bridge(rep, &dev->addr, &root))
			fprintf(f, "[%04x:%02x] ", root.domain, root.bus);
		else
			fprintf(f, "[unknown] ");
		pa_text_device_line(f, dev);
	}
}

/* Where accelerator links came from: "unknown is not none". */
static void print_source(FILE *f, const char *links, const char *from,
			 const struct pa_source *s)
{
	switch (s->state) {
	case PA_SRC_READ:
		fprintf(f, "%s: from %s%s%s%s\n", links, from,
			s->detail ? " (driver " : "", s->detail ? s->detail : "",
			s->detail ? ")" : "");
		break;
	case PA_SRC_ABSENT:
		fprintf(f, "%s: none (%s)\n", links, s->detail ? s->detail : from);
		break;
	default:
		fprintf(f, "%s: unknown, %s %s%s%s\n", links, from,
			pa_source_state_name(s->state), s->detail ? ": " : "",
			s->detail ? s->detail : "");
	}
}

static void print_topo_legend(FILE *f, const struct pa_report *rep)
{
	fprintf(f, "\nLegend:\n");
	for (int l = 0; l < PA_NLEGENDS; l++)
		fprintf(f, "  %-6s = %s\n", pa_legend_name(l),
			pa_legend_meaning(l));
	fprintf(f, "  NV#    = a bonded set of # NVLinks (instead of PCIe)\n"
		"  XGMI   = AMD XGMI links (instead of PCIe)\n");
	if (rep->fabric) {
		print_source(f, "NVLink", "NVML", &rep->fabric->nvml);
		print_source(f, "XGMI", "the KFD topology", &rep->fabric->kfd);
	}
	fprintf(f, "Marks after it, pcieaudit's P2P DMA verdict and the bandwidth:\n"
		"  (none) = direct P2P DMA, with bus addresses\n"
		"  %c      = through the host bridge (after PIX or PXB: ACS redirects it)\n"
		"  %c      = not supported: the kernel refuses\n"
		"  %c      = bandwidth trap: the narrowest link is under half of what\n"
		"           the faster device can do\n"
		"  %c      = no verdict: the path crosses the root complex, which the CPU\n"
		"           and the kernel's host bridge whitelist decide (not in the input)\n"
		"  %c      = no verdict: a function on the path has ACS unknown (256 bytes\n"
		"           of configuration space): direct, or redirected\n",
		PA_MARK_HOST_BRIDGE, PA_MARK_REFUSED, PA_MARK_TRAP,
		PA_MARK_UNKNOWN_MAP, PA_MARK_ACS_UNKNOWN);
	/* Only the module's dump leaves pairs unanswered. */
	if (rep->info.module_version)
		fprintf(f, "  %s      = no answer for this pair (devices changed meanwhile)\n",
			PA_CELL_NO_ANSWER);
	fprintf(f, "[dddd:bb] is a device's host bridge, its root bus.\n"
		"'pcieaudit-cli p2p A B' explains a pair: path, verdicts, remedy.\n");
}

int pa_text_topo(FILE *f, const struct pa_report *rep,
		 const struct pa_topo *topo)
{
	if (!topo->n) {
		fprintf(f, "No GPUs, accelerators, NICs or NVMe drives found; use --all or name BDFs.\n");
		return status(f);
	}
	print_matrix(f, rep, topo);
	print_devices(f, rep, topo);
	print_topo_legend(f, rep);
	return status(f);
}
