// SPDX-License-Identifier: GPL-2.0
#include "passthru.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>

/* sysfs's resource file: the six BARs, the ROM, then the six VF BARs of
 * a kernel with CONFIG_PCI_IOV (PCI_IOV_RESOURCES). */
#define RES_IOV_FIRST	7
#define RES_MEM		0x00000200	/* IORESOURCE_MEM */
#define RES_UNSET	0x20000000	/* IORESOURCE_UNSET */

struct res_line {
	unsigned long long start, end, flags;
};

/* Line n of the resource file; false when there is none. */
static bool res_line(const char *text, unsigned int n, struct res_line *out)
{
	const char *p = text;

	for (unsigned int i = 0; p && i < n; i++) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return p && sscanf(p, "%llx %llx %llx", &out->start, &out->end,
			   &out->flags) == 3;
}

/*
 * Whether the VF BARs have space. With the kernel's resources: a VF BAR
 * the registers declare (memory type bits set, or an address) whose
 * resource is empty or unset did not get its space (the kernel clears a
 * resource it failed to assign). Without them, from the registers alone:
 * a 64-bit VF BAR at address 0 was never placed.
 */
static void vf_bars(const struct pa_config *c, const struct pa_vf_res *res,
		    struct pa_passthru *pt)
{
	pt->vf_bars_assigned = 1;
	for (unsigned int i = 0; i < PA_MAX_BARS; i++) {
		const struct pa_config_bar *b = &c->vf_bar_regs[i];
		bool declared = !b->upper && (b->address ||
			(b->flags & (PCIEAUDIT_BAR_F_MEM64 | PCIEAUDIT_BAR_F_PREFETCH)));

		if (res && res[i].sized) {
			pt->vf_bar_sizes_mask |= 1u << i;
			if (res[i].unset)
				pt->vf_bars_assigned = 0;
			continue;
		}
		if (declared && (res || !b->address))
			pt->vf_bars_assigned = 0;
	}
}

/* The resource file's VF BAR lines; false when it has none (a kernel
 * without CONFIG_PCI_IOV, or no file). */
static bool vf_res_of(const char *resource, struct pa_vf_res *res)
{
	struct res_line l;

	if (!resource || !res_line(resource, RES_IOV_FIRST + 5, &l))
		return false;
	for (unsigned int i = 0; i < PA_MAX_BARS; i++) {
		res[i] = (struct pa_vf_res){ 0 };
		if (res_line(resource, RES_IOV_FIRST + i, &l) &&
		    (l.flags & RES_MEM) && l.end > l.start) {
			res[i].sized = true;
			res[i].unset = l.flags & RES_UNSET;
		}
	}
	return true;
}

static int dup_line(const char *text, char **out)
{
	*out = strndup(text, strcspn(text, "\n"));
	return *out ? 0 : -ENOMEM;
}

int pa_passthru_reset(const char *reset_method, int reset_file,
		      struct pa_passthru *pt)
{
	free(pt->reset_method);
	pt->reset_method = NULL;
	pt->reset_file = reset_method ? 1 : reset_file;
	return reset_method ? dup_line(reset_method, &pt->reset_method) : 0;
}

void pa_passthru_set(const struct pa_config *c, const struct pa_vf_res *vf_res,
		     int num_vfs, struct pa_passthru *pt)
{
	pa_passthru_init(pt);
	pt->no_soft_reset = c->no_soft_reset;
	pt->af_flr = c->af_flr;
	pt->has_devcap2 = c->has_devcap2;
	pt->devcap2 = c->devcap2;
	pt->devctl2 = c->devctl2;
	pt->has_sriov = c->sriov && !c->no_extended;
	if (pt->has_sriov) {
		pt->total_vfs = c->total_vfs;
		pt->initial_vfs = c->initial_vfs;
		pt->num_vfs = c->num_vfs;
		pt->vf_offset = c->vf_offset;
		pt->vf_stride = c->vf_stride;
		vf_bars(c, vf_res, pt);
		pt->sysfs_num_vfs = num_vfs;
	}
}

int pa_passthru_fill(const struct pa_config *c, const char *resource,
		     const char *reset_method, int reset_file,
		     const char *numvfs, struct pa_passthru *pt)
{
	struct pa_vf_res res[PA_MAX_BARS];
	int num_vfs = -1;
	unsigned int n;

	if (numvfs && sscanf(numvfs, "%u", &n) == 1 && n <= 0xffff)
		num_vfs = (int)n;
	pa_passthru_set(c, vf_res_of(resource, res) ? res : NULL, num_vfs, pt);
	return pa_passthru_reset(reset_method, reset_file, pt);
}

static int set_intremap(struct pa_host *host, uint32_t state,
			const char *how, size_t len, const char *tail)
{
	size_t n = len + strlen(tail) + 1;
	char *text = malloc(n);

	if (!text)
		return -ENOMEM;
	snprintf(text, n, "%.*s%s", (int)len, how, tail);
	free(host->intremap_how);
	host->intremap_how = text;
	host->intremap = state;
	return 0;
}

/* The chip column: a word such as "IR-PCI-MSIX-0000:00:02.0" or
 * "IO-APIC". */
static bool word_at(const char *line, const char *end, const char *word,
		    const char **at)
{
	size_t n = strlen(word);

	for (const char *p = line; p + n <= end; p++)
		if ((p == line || p[-1] == ' ' || p[-1] == '\t') &&
		    !strncmp(p, word, n)) {
			*at = p;
			return true;
		}
	return false;
}

int pa_intremap_from_interrupts(const char *text, struct pa_host *host)
{
	const char *off_at = NULL, *off_end = NULL, *at;

	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');

		if (!end)
			end = line + strlen(line);
		if (word_at(line, end, "IR-", &at))
			return set_intremap(host, PA_INTREMAP_ON, at,
					    strcspn(at, " \t\n"),
					    " in /proc/interrupts");
		if (!off_at && (word_at(line, end, "PCI-MSI", &at) ||
				word_at(line, end, "PCI-MSIX", &at) ||
				word_at(line, end, "IO-APIC", &at))) {
			off_at = at;
			off_end = at + strcspn(at, " \t\n");
		}
		line = *end ? end + 1 : NULL;
	}
	if (!off_at)
		return 0;
	return set_intremap(host, PA_INTREMAP_OFF, off_at,
			    (size_t)(off_end - off_at),
			    " in /proc/interrupts, and no IR- chip");
}

int pa_intremap_from_dmesg(const char *text, struct pa_host *host)
{
	static const struct {
		const char *line;
		uint32_t state;
	} says[] = {
		{ "DMAR-IR: Enabled IRQ remapping", PA_INTREMAP_ON },
		{ "AMD-Vi: Interrupt remapping enabled", PA_INTREMAP_ON },
		{ "DMAR-IR: IRQ remapping was enabled", PA_INTREMAP_ON },
		{ "DMAR-IR: Not enabling", PA_INTREMAP_OFF },
		{ "x2apic: IRQ remapping doesn't support X2APIC mode", PA_INTREMAP_OFF },
	};

	for (size_t i = 0; i < sizeof(says) / sizeof(says[0]); i++) {
		const char *at = strstr(text, says[i].line);

		if (at)
			return set_intremap(host, says[i].state, at,
					    strcspn(at, "\n"), " (kernel log)");
	}
	return 0;
}

uint32_t pa_bool_param(const char *text)
{
	if (!text)
		return PA_INTREMAP_UNKNOWN;
	if (text[0] == 'Y' || text[0] == '1')
		return PA_INTREMAP_ON;
	if (text[0] == 'N' || text[0] == '0')
		return PA_INTREMAP_OFF;
	return PA_INTREMAP_UNKNOWN;
}
