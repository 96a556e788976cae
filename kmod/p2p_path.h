/* SPDX-License-Identifier: GPL-2.0 */
/* pcieaudit's own P2P DMA path analysis, following the running kernel's. */
#ifndef _PCIEAUDIT_P2P_PATH_H
#define _PCIEAUDIT_P2P_PATH_H

#include <linux/pci.h>

struct pcieaudit_p2p {
	struct pci_dev *provider;
	struct pci_dev *client;
	struct pci_dev *common;	/* NULL when there is none; not referenced */
	u32 map;		/* enum pcieaudit_p2p_map */
	u32 path;		/* enum pcieaudit_p2p_path */
	u32 host_rule;		/* enum pcieaudit_p2p_host_rule */
	u32 length;		/* hops, as the kernel counts them */
	int distance;		/* the kernel's answer: -1 when not supported */
	bool kernel_warns;	/* the kernel would warn even without verbose */
};

typedef int (*pcieaudit_p2p_visit_t)(struct pci_dev *pdev, void *ctx);

void pcieaudit_p2p_analyse(struct pci_dev *provider, struct pci_dev *client,
			   struct pcieaudit_p2p *p);
int pcieaudit_p2p_for_each_hop(const struct pcieaudit_p2p *p, bool client,
			       pcieaudit_p2p_visit_t fn, void *ctx);
int pcieaudit_p2p_for_each_redirect(const struct pcieaudit_p2p *p,
				    pcieaudit_p2p_visit_t fn, void *ctx);

struct pci_dev *pcieaudit_p2p_host_bridge_dev(struct pci_dev *pdev);
void pcieaudit_p2p_rules(char *buf, size_t len);
bool pcieaudit_p2p_whitelisted(struct pci_dev *a, struct pci_dev *b,
			       bool *warns);

#endif /* _PCIEAUDIT_P2P_PATH_H */
