// SPDX-License-Identifier: GPL-2.0
/*
 * P2P DMA path analysis, step for step as calc_map_type_and_dist() in
 * drivers/pci/p2pdma.c, which is static and keeps the map type and the
 * redirecting bridges to itself:
 *
 *            common upstream bridge (C)
 *             /                  \
 *          hop ...             hop ...
 *           /                      \
 *      provider (P)             client (Q)
 *
 * Walking up from P, the first bridge that is also above Q (or Q itself)
 * is C, and the distance is the hops P..C plus Q..C. Every function from P
 * up to and including C, then from Q up to but excluding C, whose ACS
 * control has RR, CR or EC set redirects the traffic to the root complex.
 * Without C, the distance counts both chains up to the root bus. A path
 * through the root complex is allowed on AMD Zen CPUs or between
 * whitelisted host bridges; otherwise the kernel refuses P2P DMA.
 *
 * pci_upstream_bridge() maps a VF to its PF, as in the kernel. No
 * references are taken on bridges: the caller's references on P and Q pin
 * their ancestors.
 */
#include <linux/pci.h>
#include <linux/pcieaudit.h>

#include "p2p_path.h"

/*
 * As pci_bridge_has_acs_redir(): a failed read (all ones) counts too. The
 * read waits while a reset blocks configuration access, rather than read
 * the port mid-reset.
 */
static bool acs_redirects(struct pci_dev *pdev)
{
	u16 pos = pcieaudit_acs_pos(pdev);
	u16 ctrl = 0;

	if (!pos)
		return false;
	if (pci_user_read_config_word(pdev, pos + PCI_ACS_CTRL, &ctrl))
		ctrl = 0xffff;
	return ctrl & (PCI_ACS_RR | PCI_ACS_CR | PCI_ACS_EC);
}

static bool is_above(struct pci_dev *a, struct pci_dev *b, u32 *dist_b)
{
	for (*dist_b = 0; b; b = pci_upstream_bridge(b), (*dist_b)++)
		if (a == b)
			return true;
	return false;
}

/**
 * pcieaudit_p2p_analyse - how the kernel would map P2P DMA between two
 *	functions
 * @provider: referenced by the caller
 * @client: referenced by the caller
 * @p: filled in
 */
void pcieaudit_p2p_analyse(struct pci_dev *provider, struct pci_dev *client,
			   struct pcieaudit_p2p *p)
{
	struct pci_dev *a;
	u32 dist_a = 0, dist_b = 0;
	bool redirect = false;

	memset(p, 0, sizeof(*p));
	p->provider = provider;
	p->client = client;

	for (a = provider; a; a = pci_upstream_bridge(a), dist_a++) {
		redirect |= acs_redirects(a);
		if (is_above(a, client, &dist_b)) {
			p->common = a;
			break;
		}
	}
	p->length = dist_a + dist_b;

	if (p->common) {
		struct pci_dev *bb;

		for (bb = client; bb != p->common; bb = pci_upstream_bridge(bb))
			redirect |= acs_redirects(bb);
		if (!redirect) {
			p->path = PCIEAUDIT_P2P_PATH_COMMON_UPSTREAM;
			p->map = PCIEAUDIT_P2P_MAP_BUS_ADDR;
			p->host_rule = PCIEAUDIT_P2P_HOST_NOT_NEEDED;
			p->distance = p->length;
			return;
		}
		p->path = PCIEAUDIT_P2P_PATH_ACS_REDIRECT;
	} else {
		/* Provider-side redirects do not matter here, as in the kernel. */
		redirect = false;
		p->path = PCIEAUDIT_P2P_PATH_NO_COMMON_UPSTREAM;
	}

	p->map = PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE;
	if (pcieaudit_cpu_supports_p2pdma()) {
		p->host_rule = PCIEAUDIT_P2P_HOST_CPU;
	} else {
		bool warns;

		if (pcieaudit_p2p_whitelisted(provider, client, &warns)) {
			p->host_rule = PCIEAUDIT_P2P_HOST_WHITELIST;
		} else {
			p->host_rule = PCIEAUDIT_P2P_HOST_REFUSED;
			p->map = PCIEAUDIT_P2P_MAP_NOT_SUPPORTED;
		}
		/*
		 * The kernel passes acs_redirects as the whitelist's warn,
		 * on kernels that have the warning at all.
		 */
		p->kernel_warns = PCIEAUDIT_P2PDMA_WARNS_QUIETLY &&
				  redirect && warns;
	}
	p->distance = p->map == PCIEAUDIT_P2P_MAP_NOT_SUPPORTED ? -1 : p->length;
}

/**
 * pcieaudit_p2p_for_each_hop - the functions on one side of the path
 * @p: an analysed pair
 * @client: the client's side rather than the provider's
 * @fn: called for each function, from the end point up, excluding the
 *	common upstream bridge; a non-zero return stops the walk
 * @ctx: passed to @fn
 *
 * Return: the first non-zero value @fn returned, or 0.
 */
int pcieaudit_p2p_for_each_hop(const struct pcieaudit_p2p *p, bool client,
			       pcieaudit_p2p_visit_t fn, void *ctx)
{
	struct pci_dev *d = client ? p->client : p->provider;
	int ret;

	for (; d && d != p->common; d = pci_upstream_bridge(d)) {
		ret = fn(d, ctx);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * pcieaudit_p2p_for_each_redirect - the functions whose ACS redirects
 * @p: an analysed pair with a common upstream bridge
 * @fn: called in the order of the kernel's pci=disable_acs_redir= hint
 * @ctx: passed to @fn
 *
 * Return: the first non-zero value @fn returned, or 0.
 */
int pcieaudit_p2p_for_each_redirect(const struct pcieaudit_p2p *p,
				    pcieaudit_p2p_visit_t fn, void *ctx)
{
	struct pci_dev *d;
	int ret;

	if (!p->common)
		return 0;
	for (d = p->provider; d; d = pci_upstream_bridge(d)) {
		if (acs_redirects(d)) {
			ret = fn(d, ctx);
			if (ret)
				return ret;
		}
		if (d == p->common)
			break;
	}
	for (d = p->client; d != p->common; d = pci_upstream_bridge(d)) {
		if (acs_redirects(d)) {
			ret = fn(d, ctx);
			if (ret)
				return ret;
		}
	}
	return 0;
}
