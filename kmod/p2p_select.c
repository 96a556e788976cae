// SPDX-License-Identifier: GPL-2.0
/*
 * PCIEAUDIT_CMD_P2P_GET dumps: which functions a request's selectors name,
 * and the table of them kept for a dump of addresses only.
 */
#include <linux/pci.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <linux/pcieaudit.h>

#include "netlink_internal.h"
#include "p2p_select.h"
#include "pci_walk.h"
#include "policy_gen.h"

/*
 * The selectors were validated in .start (or, where .start has no extack,
 * in the first .dumpit call, before any walk): each nest holds its policy's
 * attributes, all present and of the right size, so they are read in
 * place. Parsing them again for every function, selector and walk was
 * most of a pair dump's time (docs/performance.md). The last of repeated
 * attributes wins, as in nla_parse_nested(). A nest missing a part has no
 * key and matches nothing.
 */
static bool addr_key(const struct nlattr *nest, u64 *key)
{
	const struct nlattr *a;
	u32 domain = U32_MAX;
	int bus = -1, devfn = -1;
	int rem;

	nla_for_each_nested(a, nest, rem) {
		switch (nla_type(a)) {
		case PCIEAUDIT_A_ADDR_DOMAIN:
			domain = nla_get_u32(a);
			break;
		case PCIEAUDIT_A_ADDR_BUS:
			bus = nla_get_u8(a);
			break;
		case PCIEAUDIT_A_ADDR_DEVFN:
			devfn = nla_get_u8(a);
			break;
		}
	}
	if (domain > INT_MAX || bus < 0 || devfn < 0)
		return false;
	*key = pcieaudit_key(domain, bus, devfn);
	return true;
}

static bool addr_matches(const struct nlattr *nest, struct pci_dev *pdev)
{
	u64 key;

	return addr_key(nest, &key) && key == pcieaudit_dev_key(pdev);
}

static bool class_matches(const struct nlattr *nest, struct pci_dev *pdev)
{
	const struct nlattr *a;
	u32 value = 0, mask = 0;
	int rem;

	nla_for_each_nested(a, nest, rem) {
		if (nla_type(a) == PCIEAUDIT_A_CLASS_VALUE)
			value = nla_get_u32(a);
		else if (nla_type(a) == PCIEAUDIT_A_CLASS_MASK)
			mask = nla_get_u32(a);
	}
	return (pdev->class & mask) == (value & mask);
}

/**
 * pcieaudit_p2p_selected - whether a selection holds a function
 * @pdev: the function
 * @data: the struct pcieaudit_p2p_selection
 *
 * Return: true when a selector matches, or without selectors, when @pdev
 * has no subordinate bus.
 */
bool pcieaudit_p2p_selected(struct pci_dev *pdev, const void *data)
{
	const struct pcieaudit_p2p_selection *sel = data;
	const struct nlattr *attr;
	int rem;

	if (!sel->any)
		return !pdev->subordinate;
	nlmsg_for_each_attr(attr, sel->nlh, GENL_HDRLEN, rem) {
		if ((nla_type(attr) == PCIEAUDIT_A_P2P_SELECT_DEV &&
		     addr_matches(attr, pdev)) ||
		    (nla_type(attr) == PCIEAUDIT_A_P2P_SELECT_CLASS &&
		     class_matches(attr, pdev)))
			return true;
	}
	return false;
}

/**
 * pcieaudit_p2p_table_keys - fill a table with the keys a request selects
 * @t: the table
 * @nlh: the request
 * @skip_classes: ignore class selectors rather than give up on them
 *
 * Return: true with the selected keys sorted, without repeats; false when
 * there are more than the table holds, or class selectors unless
 * @skip_classes.
 */
bool pcieaudit_p2p_table_keys(struct pcieaudit_p2p_table *t,
			      const struct nlmsghdr *nlh, bool skip_classes)
{
	const struct nlattr *attr;
	unsigned int i;
	int rem;
	u64 key;

	t->n = 0;
	nlmsg_for_each_attr(attr, nlh, GENL_HDRLEN, rem) {
		if (nla_type(attr) == PCIEAUDIT_A_P2P_SELECT_CLASS &&
		    !skip_classes)
			return false;
		if (nla_type(attr) != PCIEAUDIT_A_P2P_SELECT_DEV ||
		    !addr_key(attr, &key))
			continue;
		for (i = t->n; i > 0 && t->key[i - 1] > key; i--)
			;
		if (i > 0 && t->key[i - 1] == key)
			continue;
		if (t->n == PCIEAUDIT_P2P_MAX_CLIENTS)
			return false;
		memmove(&t->key[i + 1], &t->key[i], (t->n - i) * sizeof(key));
		t->key[i] = key;
		t->n++;
	}
	return true;
}

/* The slot of @key, or -1. */
static int table_index(const struct pcieaudit_p2p_table *t, u64 key)
{
	unsigned int lo = 0, hi = t->n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (t->key[mid] == key)
			return mid;
		if (t->key[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int table_find(struct device *dev, void *data)
{
	struct pcieaudit_p2p_table *t = data;
	struct pci_dev *pdev = to_pci_dev(dev);
	int i = table_index(t, pcieaudit_dev_key(pdev));

	if (i >= 0 && !t->pdev[i])
		t->pdev[i] = pci_dev_get(pdev);
	return 0;
}

/**
 * pcieaudit_p2p_table_release - drop the table's references to functions
 * @t: the table
 */
void pcieaudit_p2p_table_release(struct pcieaudit_p2p_table *t)
{
	unsigned int i;

	for (i = 0; i < t->n; i++) {
		pci_dev_put(t->pdev[i]);
		t->pdev[i] = NULL;
	}
	t->resolved = false;
}

/**
 * pcieaudit_p2p_table_resolve - reference the table's functions present now
 * @t: the table, its keys filled
 *
 * Does nothing when no function was added or removed since the last time.
 * Call with pci_lock_rescan_remove() held.
 */
void pcieaudit_p2p_table_resolve(struct pcieaudit_p2p_table *t)
{
	u32 generation = pcieaudit_generation();

	if (t->resolved && t->generation == generation)
		return;
	pcieaudit_p2p_table_release(t);
	bus_for_each_dev(&pci_bus_type, NULL, t, table_find);
	t->generation = generation;
	t->resolved = true;
}

/*
 * Every function the selectors name exists. One walk of the bus for up to
 * PCIEAUDIT_P2P_MAX_CLIENTS of them; a lookup each beyond that.
 */
static int check_present(const struct nlmsghdr *nlh,
			 struct netlink_ext_ack *extack)
{
	struct pcieaudit_p2p_table *t = kzalloc(sizeof(*t), GFP_KERNEL);
	const struct nlattr *attr;
	struct pci_dev *pdev;
	int rem, i, err = 0;
	u64 key;

	if (!t)
		return -ENOMEM;
	pci_lock_rescan_remove();
	t->fast = pcieaudit_p2p_table_keys(t, nlh, true);
	if (t->fast)
		pcieaudit_p2p_table_resolve(t);
	nlmsg_for_each_attr(attr, nlh, GENL_HDRLEN, rem) {
		if (nla_type(attr) != PCIEAUDIT_A_P2P_SELECT_DEV)
			continue;
		if (t->fast) {
			/* The syntax was checked: the key is there. */
			i = addr_key(attr, &key) ? table_index(t, key) : -1;
			if (i >= 0 && t->pdev[i])
				continue;
			NL_SET_ERR_MSG_ATTR(extack, attr, "no such PCI function");
			err = -ENODEV;
			break;
		}
		pdev = pcieaudit_nl_get_dev(attr, extack);
		if (IS_ERR(pdev)) {
			err = PTR_ERR(pdev);
			break;
		}
		pci_dev_put(pdev);
	}
	pcieaudit_p2p_table_release(t);
	pci_unlock_rescan_remove();
	kfree(t);
	return err;
}

/**
 * pcieaudit_p2p_check_selectors - check a pair dump's selectors
 * @attrs: the request's attributes
 * @nlh: the request
 * @extack: for the user's error
 *
 * The nests passed their policies; here, the functions they name exist.
 *
 * Return: 0, or a negative errno with an extack message.
 */
int pcieaudit_p2p_check_selectors(struct nlattr **attrs,
				  const struct nlmsghdr *nlh,
				  struct netlink_ext_ack *extack)
{
	struct nlattr *tb[PCIEAUDIT_A_CLASS_MAX + 1];
	const struct nlattr *attr;
	bool any_dev = false;
	int rem, err;
	u64 key;

	if (attrs[PCIEAUDIT_A_P2P_PROVIDER] || attrs[PCIEAUDIT_A_P2P_CLIENT]) {
		NL_SET_ERR_MSG(extack, "a dump takes selectors; use a do request for a provider");
		return -EINVAL;
	}
	nlmsg_for_each_attr(attr, nlh, GENL_HDRLEN, rem) {
		switch (nla_type(attr)) {
		case PCIEAUDIT_A_P2P_SELECT_DEV:
			err = pcieaudit_nl_addr_key(attr, extack, &key);
			if (err)
				return err;
			any_dev = true;
			break;
		case PCIEAUDIT_A_P2P_SELECT_CLASS:
			err = nla_parse_nested(tb, PCIEAUDIT_A_CLASS_MAX, attr,
					       pcieaudit_class_nl_policy, extack);
			if (err)
				return err;
			if (NL_REQ_ATTR_CHECK(extack, attr, tb,
					      PCIEAUDIT_A_CLASS_VALUE) ||
			    NL_REQ_ATTR_CHECK(extack, attr, tb,
					      PCIEAUDIT_A_CLASS_MASK)) {
				NL_SET_ERR_MSG_ATTR(extack, attr,
						    "a class selector needs a value and a mask");
				return -EINVAL;
			}
			break;
		}
	}
	return any_dev ? check_present(nlh, extack) : 0;
}
