// SPDX-License-Identifier: GPL-2.0
/*
 * The host bridges drivers/pci/p2pdma.c trusts with P2P DMA through the root
 * complex, and how it finds the function it matches them on. The kernel's
 * table is private, so this is a copy of the one in the kernel pcieaudit is
 * built for: every entry and rule below names the upstream commit that
 * brought it. Where a header of the target kernel shows whether the commit
 * is there (a stable backport included), Kbuild probes for it; where no
 * header does, the version decides, and the comment says so.
 *
 * Released kernels only. Queued in pci/next after v7.3-rc1, so v7.4
 * material at the earliest, and left out until a release has them:
 *   f7c220404700 ("PCI/P2PDMA: Add Zhaoxin host bridges to allowlist"),
 *     1d17:1003, 1005, 1006, 1007 (same host bridge) and 1d17:1008;
 *   the Alibaba Yitian 710 host bridge entry;
 *   b9964341607f, which warns about unlisted host bridges only when
 *     verbose (PCIEAUDIT_P2PDMA_WARNS_QUIETLY models released kernels).
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
	/*
	 * 494d63b0d5d0 ("PCI/P2PDMA: Whitelist some Intel host bridges",
	 * v5.2): Xeon E5/Core i7 and Xeon E7 v3/E5 v3/Core i7. In every
	 * kernel pcieaudit builds for.
	 */
	{ PCI_VENDOR_ID_INTEL, 0x3c00, REQ_SAME_HOST_BRIDGE },
	{ PCI_VENDOR_ID_INTEL, 0x3c01, REQ_SAME_HOST_BRIDGE },
	{ PCI_VENDOR_ID_INTEL, 0x2f00, REQ_SAME_HOST_BRIDGE },
	{ PCI_VENDOR_ID_INTEL, 0x2f01, REQ_SAME_HOST_BRIDGE },
	/*
	 * Intel SkyLake-E: 0x2030 (and 0x2020) from bc123a515cb7
	 * ("PCI/P2PDMA: Add Intel SkyLake-E to the whitelist", v5.6);
	 * 0x2031-0x2033 from 7b94b53db34f ("PCI/P2PDMA: Add Intel Sky Lake-E
	 * Root Ports B, C, D to the whitelist", before v5.10). In every
	 * kernel pcieaudit builds for.
	 */
	{ PCI_VENDOR_ID_INTEL, 0x2030, 0 },
	{ PCI_VENDOR_ID_INTEL, 0x2031, 0 },
	{ PCI_VENDOR_ID_INTEL, 0x2032, 0 },
	{ PCI_VENDOR_ID_INTEL, 0x2033, 0 },
	{ PCI_VENDOR_ID_INTEL, 0x2020, 0 },
#if PCIEAUDIT_KVER >= 518
	/*
	 * feaea1fe8b36 ("PCI/P2PDMA: Add Intel 3rd Gen Intel Xeon Scalable
	 * Processors to whitelist", v5.18). Version-gated: it adds no
	 * header definition to probe for.
	 */
	{ PCI_VENDOR_ID_INTEL, 0x09a2, 0 },
#endif
#if PCIEAUDIT_KVER >= 701
	/*
	 * 1a1f96e3e2a8 ("PCI/P2PDMA: Allow wildcard Device IDs in host bridge
	 * list") and 70cf146a674c (Google, any device), v7.1. Version-gated:
	 * they add no header definition to probe for.
	 */
	{ 0x1ae0 /* Google */, ANY_DEVICE, 0 },
#endif
#ifdef PCIEAUDIT_HAVE_P2PDMA_INTEL_ACCEL
	/*
	 * 0ba76b19fd4c ("PCI/P2PDMA: Add Intel QAT, DSA and IAA ...", v7.2,
	 * Cc: stable, in 7.1.3): DSA_SPR0, IAX_SPR0, DSA_GNRD, DSA_DMR,
	 * IAA_DMR, QAT_4XXX, QAT_401XX, QAT_402XX, QAT_420XX, QAT_6XXX.
	 * The same commit moved PCI_DEVICE_ID_INTEL_DSA_GNRD, _DSA_DMR and
	 * _IAA_DMR into <linux/pci_ids.h>; Kbuild looks for them there, so
	 * a stable backport counts, whatever the version.
	 */
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
	/*
	 * 894a78088fc3 (NVIDIA Vera Rubin host bridges, v7.3). Version-gated:
	 * it adds no header definition to probe for.
	 */
	{ PCI_VENDOR_ID_NVIDIA, 0x2f95, 0 },
	{ PCI_VENDOR_ID_NVIDIA, 0x2f96, 0 },
	{ PCI_VENDOR_ID_NVIDIA, 0x2f97, 0 },
	{ PCI_VENDOR_ID_NVIDIA, 0x2f98, 0 },
#endif
};

/*
 * The rules this copy follows, for userspace: the target kernel's
 * major.minor, and the header-probed entries that a stable backport may
 * have brought to an older one.
 */
#ifdef PCIEAUDIT_HAVE_P2PDMA_INTEL_ACCEL
#define BACKPORTS	(PCIEAUDIT_KVER < 702 ? " + 0ba76b19fd4c" : "")
#else
#define BACKPORTS	""
#endif

/**
 * pcieaudit_p2p_rules - the kernel whose P2PDMA rules pcieaudit models
 * @buf: filled in with "Linux X.Y", followed by the backported entries the
 *	target's headers showed
 * @len: size of @buf
 */
void pcieaudit_p2p_rules(char *buf, size_t len)
{
	snprintf(buf, len, "Linux %d.%d%s", PCIEAUDIT_KVER / 100,
		 PCIEAUDIT_KVER % 100, BACKPORTS);
}

/**
 * pcieaudit_p2p_host_bridge_dev - the function the whitelist is matched on
 * @pdev: a function below the host bridge, referenced by the caller
 *
 * As p2pdma.c's pci_host_bridge_dev(): the first function on the host
 * bridge's root bus, if it is 00.0, from 3ec0c3ec2d92 ("PCI/P2PDMA: Avoid
 * pci_get_slot(), which may sleep", v5.14, in 5.10.y stable as well). From
 * 1af7c26c59eb (v5.19) a Root Port at any devfn counts too; version-gated,
 * as no header shows it. The caller's reference keeps it at the head of the
 * list, so no lock is taken, as in the kernel.
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
	if (root->devfn == PCI_DEVFN(0, 0))
		return root;
	if (PCIEAUDIT_KVER >= 519 &&
	    pci_pcie_type(root) == PCI_EXP_TYPE_ROOT_PORT)
		return root;
	return NULL;
}

/*
 * As __host_bridge_whitelist(); *warns is set where the kernel would print
 * "Host bridge not in P2PDMA whitelist" (the caller decides whether this
 * kernel prints it at all).
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
