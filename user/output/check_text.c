// SPDX-License-Identifier: GPL-2.0
#include "check_out.h"

#include <errno.h>
#include <string.h>

#include "bdf.h"

/* Messages wrap at this column, continued under their text. */
#define WIDTH	78
#define INDENT	"        "

enum tag { TAG_PASS, TAG_INFO, TAG_WARN, TAG_FAIL, TAG_SKIP, NTAGS };

static const struct {
	const char *word;
	const char *colour;
} tags[NTAGS] = {
	[TAG_PASS] = { "PASS", "\033[32m" },
	[TAG_INFO] = { "INFO", "\033[36m" },
	[TAG_WARN] = { "WARN", "\033[1;33m" },
	[TAG_FAIL] = { "FAIL", "\033[1;31m" },
	[TAG_SKIP] = { "SKIP", "\033[2m" },
};

static enum tag tag_of(enum pa_severity sev)
{
	return sev == PA_SEV_FAIL ? TAG_FAIL : sev == PA_SEV_WARN ? TAG_WARN :
	       sev == PA_SEV_INFO ? TAG_INFO : TAG_PASS;
}

static void print_tag(FILE *f, enum tag t, bool colour, const char *after)
{
	if (colour)
		fprintf(f, "%s%s\033[0m%s", tags[t].colour, tags[t].word, after);
	else
		fprintf(f, "%s%s", tags[t].word, after);
}

/* Word-wraps text from column col; continuation lines start at INDENT. */
static void wrap(FILE *f, const char *text, size_t col)
{
	while (*text) {
		size_t word = strcspn(text, " ");

		if (col > strlen(INDENT) && col + 1 + word > WIDTH) {
			fprintf(f, "\n" INDENT);
			col = strlen(INDENT);
		} else if (col > strlen(INDENT)) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)word, text);
		col += word;
		text += word;
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

static const char *remedy_label(enum pa_remedy_kind kind)
{
	switch (kind) {
	case PA_REMEDY_CMDLINE_ADD:
		return "add to the kernel command line";
	case PA_REMEDY_CMDLINE_REMOVE:
		return "remove from the kernel command line";
	case PA_REMEDY_MODULE_PARAM:
		return "module parameter";
	case PA_REMEDY_BIOS:
		return "firmware setup";
	case PA_REMEDY_HYPERVISOR:
		return "hypervisor";
	case PA_REMEDY_HARDWARE:
		return "hardware";
	case PA_REMEDY_KERNEL:
		return "kernel";
	default:
		return "command";
	}
}

static void print_finding(FILE *f, const struct pa_finding *fd, bool colour)
{
	fprintf(f, "  ");
	print_tag(f, tag_of(fd->severity), colour, "  ");
	fprintf(f, "%s:", pa_rules[fd->rule].id);
	wrap(f, fd->message, 8 + strlen(pa_rules[fd->rule].id) + 1);
	if (!fd->remedy)
		return;
	/* The remedy's text is exact: it is never wrapped. */
	fprintf(f, INDENT "remedy (%s):\n" INDENT "  %s\n",
		remedy_label(fd->remedy_kind), fd->remedy);
}

/* One block for the findings of a group: the shared cause, then each
 * member on a line of its own, then the shared remedy. */
static void print_group(FILE *f, const struct pa_check *c, size_t first,
			size_t n, bool colour)
{
	const struct pa_finding *fd = &c->findings[first];

	fprintf(f, "  ");
	print_tag(f, tag_of(fd->severity), colour, "  ");
	fprintf(f, "%s:", pa_rules[fd->rule].id);
	wrap(f, fd->group, 8 + strlen(pa_rules[fd->rule].id) + 1);
	fprintf(f, INDENT "%zu of them:\n", n);
	for (size_t i = first; i < c->nfindings; i++)
		if (pa_finding_same_group(fd, &c->findings[i]))
			fprintf(f, INDENT "  %s\n", c->findings[i].member);
	if (fd->remedy)
		fprintf(f, INDENT "remedy (%s):\n" INDENT "  %s\n",
			remedy_label(fd->remedy_kind), fd->remedy);
}

/* Whether finding i belongs to a group printed at an earlier finding. */
static bool grouped_before(const struct pa_check *c, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (pa_finding_same_group(&c->findings[j], &c->findings[i]))
			return true;
	return false;
}

static size_t group_size(const struct pa_check *c, size_t i)
{
	size_t n = 0;

	for (size_t j = i; j < c->nfindings; j++)
		n += pa_finding_same_group(&c->findings[i], &c->findings[j]);
	return n;
}

static void print_rule(FILE *f, const struct pa_check *c, enum pa_rule_id r,
		       bool colour)
{
	bool found = false;

	for (size_t i = 0; i < c->nfindings; i++) {
		size_t n;

		if (c->findings[i].rule != r || grouped_before(c, i))
			continue;
		n = group_size(c, i);
		if (n > 1)
			print_group(f, c, i, n, colour);
		else
			print_finding(f, &c->findings[i], colour);
		found = true;
	}
	if (found || c->state[r] == PA_RULE_NOT_RUN)
		return;
	fprintf(f, "  ");
	print_tag(f, c->state[r] == PA_RULE_SKIPPED ? TAG_SKIP : TAG_PASS,
		  colour, "  ");
	fprintf(f, "%s", pa_rules[r].id);
	if (c->note[r])
		fprintf(f, " (%s)", c->note[r]);
	fputc('\n', f);
}

static void print_header(FILE *f, const struct pa_report *rep,
			 const char *source)
{
	const struct pa_info *in = &rep->info;

	fprintf(f, "pcieaudit check of %s: kernel %s, %u PCI functions, ",
		source, in->kernel_release ? in->kernel_release : "unknown",
		(unsigned int)rep->ndevices);
	if (in->iommu_unknown)
		fprintf(f, "IOMMU groups unknown\n");
	else
		fprintf(f, "%u IOMMU groups\n", (unsigned int)rep->ngroups);
}

static void print_summary(FILE *f, const struct pa_check *c, bool colour)
{
	size_t count[NTAGS] = { 0 };
	const char *sep = "";

	for (size_t i = 0; i < c->nfindings; i++)
		count[tag_of(c->findings[i].severity)]++;
	for (int r = 0; r < PA_NRULES; r++) {
		if (c->state[r] == PA_RULE_SKIPPED)
			count[TAG_SKIP]++;
		else if (c->state[r] == PA_RULE_RAN && !pa_check_rule_worst(c, r))
			count[TAG_PASS]++;
	}
	fprintf(f, "\nsummary:");
	for (int p = 0; p < PA_NPROFILES; p++) {
		enum pa_severity worst = pa_check_profile_worst(c, p);

		if (!c->profiles[p])
			continue;
		fprintf(f, "%s %s ", sep, pa_profile_name(p));
		/* Info findings pass; a profile with every rule skipped does not. */
		print_tag(f, pa_check_profile_skipped(c, p) ? TAG_SKIP :
			  worst == PA_SEV_INFO ? TAG_PASS : tag_of(worst),
			  colour, "");
		sep = ",";
	}
	fprintf(f, "; %zu failed, %zu warning%s, %zu info, %zu passed, %zu skipped\n",
		count[TAG_FAIL], count[TAG_WARN], count[TAG_WARN] == 1 ? "" : "s",
		count[TAG_INFO], count[TAG_PASS], count[TAG_SKIP]);
}

int pa_check_text(FILE *f, const struct pa_report *rep,
		  const struct pa_check *c, const char *source, bool colour)
{
	print_header(f, rep, source);
	for (int p = 0; p < PA_NPROFILES; p++) {
		if (!c->profiles[p])
			continue;
		fprintf(f, "\n%s\n", pa_profile_name(p));
		for (int r = 0; r < PA_NRULES; r++)
			if ((int)pa_rules[r].profile == p)
				print_rule(f, c, r, colour);
	}
	print_summary(f, c, colour);
	return ferror(f) ? -EIO : 0;
}
