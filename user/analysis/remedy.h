/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel command-line parameters that stop ACS from redirecting P2P
 * traffic, spelled as the kernel parses them. Pure: strings only.
 */
#ifndef PA_REMEDY_H
#define PA_REMEDY_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/pci_regs.h>

#include "model.h"

/* The control bits that send P2P traffic up to the root complex, which
 * pci=disable_acs_redir= clears: ReqRedir, CmpltRedir, EgressCtrl. */
#define PA_ACS_REDIRECT_BITS (PCI_ACS_RR | PCI_ACS_CR | PCI_ACS_EC)

/* Parses "major.minor" at the start of a kernel release such as
 * "6.1.0-57-amd64". Returns 0 or -EINVAL. */
int pa_kernel_version(const char *release, unsigned int *major,
		      unsigned int *minor);

/* pci=config_acs= exists from Linux 6.11 on; false when release is NULL or
 * cannot be parsed, so that no unknown parameter is suggested. */
bool pa_kernel_has_config_acs(const char *release);
/* Whether the kernel names lazy DMA domains "DMA-FQ" (v5.15). Before it a
 * "DMA" domain may be strict or lazy. False when release is NULL or cannot
 * be parsed. */
bool pa_kernel_has_dma_fq(const char *release);

/*
 * The two ACS parameters remedies suggest and baseline.acs-param-effect
 * verifies. pci=disable_acs_redir= exists from Linux 4.19, pci=config_acs=
 * from 6.11. The 6.11 rework (47c8846a49ba) broke both until commit
 * 9cf8a952d57b ("PCI/ACS: Fix 'pci=config_acs=' parameter"): in 6.15, and
 * in the stable releases 6.12.23, 6.13.11 and 6.14.2; 6.11 reached its end
 * of life without it. Without the fix, the bits a parameter clears are
 * copied from the firmware's setting instead (still set wherever the
 * firmware set them), and a config_acs naming several devices fails to
 * parse after the first ("PCI: Can't parse ACS command line parameter").
 */
enum pa_acs_param {
	PA_ACS_PARAM_DISABLE_ACS_REDIR,
	PA_ACS_PARAM_CONFIG_ACS,
};

#define PA_ACS_FIX_COMMIT "9cf8a952d57b"

/* What a kernel release does with one of them. */
enum pa_acs_param_state {
	/* No release, one that cannot be parsed, or 6.12-6.14 with stable
	 * sublevel 0 (distributions number their kernels 6.12.0-55.el10 or
	 * 6.14.0-15-generic whatever they backported): the fix may or not
	 * be there. */
	PA_ACS_PARAM_UNKNOWN,
	PA_ACS_PARAM_ABSENT,	/* older than the parameter */
	PA_ACS_PARAM_BROKEN,	/* 6.11, or a 6.12-6.14 stable before the fix */
	PA_ACS_PARAM_WORKS,
};

enum pa_acs_param_state pa_acs_param_state(const char *release,
					   enum pa_acs_param param);

/* "pci=disable_acs_redir=" or "pci=config_acs=". */
const char *pa_acs_param_name(enum pa_acs_param param);

/* One sentence: the kernels on which the parameter works as written. */
const char *pa_acs_param_range(enum pa_acs_param param);

/*
 * One sentence on the running kernel (release may be NULL) for a remedy
 * that suggests the parameter naming ndevices devices: whether it works
 * there, and if not, a form that does or what to do instead. buf gets it.
 */
const char *pa_acs_param_on_kernel(const char *release, enum pa_acs_param param,
				   size_t ndevices, char *buf, size_t len);

/* 7 flags and a NUL. */
#define PA_ACS_BITS_LEN 8

/*
 * config_acs flags that force the control bits in clear off and leave the
 * others: bit 6 (DirectTrans) leftmost, bit 0 (SrcValid) rightmost, '0'
 * for off, 'x' for unchanged. PA_ACS_REDIRECT_BITS gives "x0x00xx".
 */
void pa_config_acs_bits(uint16_t clear, char bits[PA_ACS_BITS_LEN]);

/* "pci=disable_acs_redir=0000:02:00.0;0000:02:01.0", in list order; NULL
 * when out of memory. The caller frees it. */
char *pa_remedy_disable_acs_redir(const struct pa_addr_list *devs);

/* "pci=config_acs=x0x00xx@0000:02:00.0;x0x00xx@0000:02:01.0": one
 * parameter, since a second pci=config_acs= would replace the first. NULL
 * when out of memory. The caller frees it. */
char *pa_remedy_config_acs(const struct pa_addr_list *devs);

#endif /* PA_REMEDY_H */
