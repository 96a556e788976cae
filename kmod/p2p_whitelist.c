// SPDX-License-Identifier: GPL-2.0
/*
 * The host bridges drivers/pci/p2pdma.c trusts with P2P DMA through the root
 * complex. The kernel's table is private and grows with each release, so
 * this copy follows the kernel pcieaudit is built for. Verified against
 * v6.1's source; other versions follow the upstream changes named below.
 */
#include <linux/pci.h>

#include "p2p_path.h"

#define REQ_SAME_HOST_BRIDGE	BIT(0)
#define ANY_DEVICE		(-1)

static const struct {
	unsigned short vendor;
	int device;
	unsigned int flags;
} whitelist[] = {
	/* Intel Xeon E5/Core i7 */
	{ PCI_VENDOR_ID_INTEL, 0x3c00, REQ_SAME_HOST_BRIDGE },
	{ PCI_VENDOR_ID_INTEL, 0x3c01, REQ_SAME_HOST_BRIDGE },
	/* Intel Xeon E7 v3/Xeon E5 v3/Core i7 */
	{ PCI_VENDOR_ID_INTEL, 0x2f00, REQ_SAME_HOST_BRIDGE },
	{ PCI_VENDOR_ID_INTEL, 0x2f01, REQ_SAME_HOST_BRIDGE },
	/* Intel SkyLake-E */
	{ PCI_VENDOR_ID_INTEL, 0x2030, 0 },
	{ PCI_VENDOR_ID_INTEL, 0x2031, 0 },
	{ PCI_VENDOR_ID_INTEL, 0x2032, 0 },
	{ PCI_VENDOR_ID_INTEL, 0x2033, 0 },
	{ PCI_VENDOR_ID_INTEL, 0x2020, 0 },
#if PCIEAUDIT_KVER >= 518
	/* "PCI/P2PDMA: Add Intel 3rd Gen Intel Xeon Scalable Processors" */
	{ PCI_VENDOR_ID_INTEL, 0x09a2, 0 },
#endif
#if PCIEAUDIT_KVER >= 701
	/* "PCI/P2PDMA: Allow wildcard Device IDs in host bridge list" */
	{ 0x1ae0 /* Google */, ANY_DEVICE, 0 },
#endif
#if PCIEAUDIT_KVER >= 702
	/* Intel DSA, IAA and QAT accelerators on the root bus */
	{ PCI_VENDOR_ID_INTEL, 0x0b25, 0 },
	{ PCI_VENDOR_ID_INTEL, 0x0cfe, 0 },
	{ PCI_VENDOR_ID_INTEL, 0x11fb, 0 },
	{ PCI_VENDOR_ID_INTEL, 0x1212, 0 },
	{ PCI_VENDOR_ID_INTEL, 0x1216, 0 },
	{ PCI_VENDOR_ID_INTEL, 0x4940, 0 },
	{ PCI_VENDOR_ID_INTEL, 0x4942, 0 },
	{ PCI_VENDOR_ID_INTEL, 0x4944, 0 },
	{ PCI_VENDOR_ID_INTEL, 0x4946, 0 },
	{ PCI_VENDOR_ID_INTEL, 0x4948, 0 },
#endif
#if PCIEAUDIT_KVER >= 703
	/* "PCI/P2PDMA: Add Zhaoxin host bridges to allowlist" */
	{ 0x1d17, 0x1003, REQ_SAME_HOST_BRIDGE },
	{ 0x1d17, 0x1005, REQ_SAME_HOST_BRIDGE },
	{ 0x1d17, 0x1006, REQ_SAME_HOST_BRIDGE },
	{ 0x1d17, 0x1007, REQ_SAME_HOST_BRIDGE },
	{ 0x1d17, 0x1008, 0 },
#endif
};

/**
 * pcieaudit_p2p_host_bridge_dev - the function the whitelist is matched on
 * @pdev: a function below the host bridge, referenced by the caller
 *
 * As p2pdma.c's pci_host_bridge_dev(): the first function on the host
 * bridge's root bus, if it is 00.0 or a Root Port. The caller's reference
 * keeps it at the head of the list, so no lock is taken, as in the kernel.
 *
 * Return: the function, or NULL.
 */
struct pci_dev *pcieaudit_p2p_host_bridge_dev(struct pci_dev *pdev)
{
	struct pci_host_bridge *host = pcieaudit_find_host_bridge(pdev->bus);
	struct pci_dev *root;

	root = list_first_entry_or_null(&host->bus->devices, struct pci_dev,
					bus_list);
	if (!root)
		return NULL;
	if (root->devfn == PCI_DEVFN(0, 0) ||
	    pci_pcie_type(root) == PCI_EXP_TYPE_ROOT_PORT)
		return root;
	return NULL;
}

/*
 * As __host_bridge_whitelist(); *warns is set where the kernel would print
 * "Host bridge not in P2PDMA whitelist".
 */
static bool host_whitelisted(struct pci_dev *root, bool same_host_bridge,
			     bool *warns)
{
	unsigned int i;

	if (!root)
		return false;
	for (i = 0; i < ARRAY_SIZE(whitelist); i++) {
		if (root->vendor != whitelist[i].vendor ||
		    (whitelist[i].device != ANY_DEVICE &&
		     root->device != whitelist[i].device))
			continue;
		return !(whitelist[i].flags & REQ_SAME_HOST_BRIDGE) ||
		       same_host_bridge;
	}
	*warns = true;
	return false;
}

/**
 * pcieaudit_p2p_whitelisted - the kernel's host_bridge_whitelist()
 * @a: provider
 * @b: client
 * @warns: set when the kernel, asked to warn, would print for this pair
 *
 * Return: true when P2P DMA through these host bridges is allowed.
 */
bool pcieaudit_p2p_whitelisted(struct pci_dev *a, struct pci_dev *b,
			       bool *warns)
{
	struct pci_dev *root_a = pcieaudit_p2p_host_bridge_dev(a);
	struct pci_dev *root_b = pcieaudit_p2p_host_bridge_dev(b);

	*warns = false;
	if (pcieaudit_find_host_bridge(a->bus) == pcieaudit_find_host_bridge(b->bus))
		return host_whitelisted(root_a, true, warns);
	return host_whitelisted(root_a, false, warns) &&
	       host_whitelisted(root_b, false, warns);
}
