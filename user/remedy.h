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
