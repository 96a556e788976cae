/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's own P2P DMA verdict, asked within bounds. */
#ifndef _PCIEAUDIT_P2P_KERNEL_H
#define _PCIEAUDIT_P2P_KERNEL_H

#include <linux/pci.h>

#include "p2p_path.h"

u32 pcieaudit_p2p_kernel_status(const struct pcieaudit_p2p *p, bool verbose);
u32 pcieaudit_p2p_kernel_ask(struct pci_dev *provider,
			     struct pci_dev **clients, unsigned int n,
			     bool verbose, int *dist);
bool pcieaudit_p2p_kernel_answers(struct pci_dev *provider,
				  struct pci_dev **clients,
				  const struct pcieaudit_p2p *pairs,
				  unsigned int n, bool verbose, u32 *status,
				  int *dist, int *sum);

#endif /* _PCIEAUDIT_P2P_KERNEL_H */
