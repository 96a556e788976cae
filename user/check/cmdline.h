/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel command line split as the kernel splits it (lib/cmdline.c
 * next_arg() and parse_args()): blank-separated name[=value] words, double
 * quotes holding blanks, "--" ending the kernel's part. Pure: strings only.
 */
#ifndef PA_CMDLINE_H
#define PA_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

struct pa_param {
	char *name;		/* '-' spelled '_', as parameq() compares */
	char *value;		/* NULL for a bare word */
	char *text;		/* the word as written, for remedies */
};

struct pa_cmdline {
	struct pa_param *params;
	size_t n;
};

/* 0 or -ENOMEM. */
int pa_cmdline_parse(const char *text, struct pa_cmdline *cl);
void pa_cmdline_clear(struct pa_cmdline *cl);

/* The last name= parameter (the one the kernel keeps), or NULL. */
const struct pa_param *pa_cmdline_last(const struct pa_cmdline *cl,
				       const char *name);

/*
 * The first name= parameter whose comma-separated value lists option, or
 * NULL: pci=noacs,realloc lists noacs. Options are compared up to a '=' of
 * their own, so "disable_acs_redir" finds pci=disable_acs_redir=0000:01:00.0.
 */
const struct pa_param *pa_cmdline_option(const struct pa_cmdline *cl,
					 const char *name, const char *option);

/* Whether p sets up the IOMMU or ACS: iommu=, iommu.*=, intel_iommu=,
 * amd_iommu=, pcie_acs_override=, and pci= with noacs, disable_acs_redir,
 * config_acs or noats. */
bool pa_param_iommu_acs(const struct pa_param *p);

/* Whether a boolean parameter value reads as true, as kstrtobool(). */
bool pa_cmdline_true(const char *value);

#endif /* PA_CMDLINE_H */
