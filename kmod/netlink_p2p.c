// SPDX-License-Identifier: GPL-2.0
/*
 * PCIEAUDIT_CMD_P2P_GET: the kernel's P2P DMA verdict and pcieaudit's own
 * path analysis, for a provider and its clients (do) or for every ordered
 * pair of a selection (dump).
 */
#include <linux/pci.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <linux/pcieaudit.h>

#include "netlink_internal.h"
#include "p2p_kernel.h"
#include "p2p_path.h"
#include "p2p_select.h"
#include "pci_walk.h"

struct list_ctx {
	struct sk_buff *skb;
	int type;
};

static int put_listed(struct pci_dev *pdev, void *data)
{
	struct list_ctx *ctx = data;

	return pcieaudit_nl_put_addr(ctx->skb, ctx->type, pdev);
}

static int put_host_bridge(struct sk_buff *skb, int type, struct pci_dev *pdev)
{
	struct pci_dev *root = pcieaudit_p2p_host_bridge_dev(pdev);

	if (!root)
		return 0;
	return nla_put_u32(skb, type, (u32)root->vendor << 16 | root->device);
}

/* Room put_pair_kernel() needs. */
#define PAIR_KERNEL_ROOM	(3 * nla_total_size(sizeof(u32)))

/*
 * The kernel's answer in a pair nest; kdist is used when status says so.
 * Where the kernel answered, its answer is the verdict, and whether
 * pcieaudit's own analysis agrees is said, never left to the reader.
 */
static int put_pair_kernel(struct sk_buff *skb, const struct pcieaudit_p2p *p,
			   u32 status, int kdist)
{
	if (nla_put_u32(skb, PCIEAUDIT_A_PAIR_KERNEL_STATUS, status))
		return -EMSGSIZE;
	if (status != PCIEAUDIT_P2P_KERNEL_ANSWERED)
		return 0;
	if (nla_put_s32(skb, PCIEAUDIT_A_PAIR_KERNEL_DISTANCE, kdist) ||
	    nla_put_u32(skb, PCIEAUDIT_A_PAIR_AGREEMENT,
			kdist == p->distance ? PCIEAUDIT_P2P_AGREE :
			PCIEAUDIT_P2P_DISAGREE))
		return -EMSGSIZE;
	return 0;
}

/* The client and pcieaudit's own analysis in a pair nest. */
static int put_pair_own(struct sk_buff *skb, const struct pcieaudit_p2p *p)
{
	struct list_ctx hops_p = { skb, PCIEAUDIT_A_PAIR_HOP_PROVIDER };
	struct list_ctx hops_c = { skb, PCIEAUDIT_A_PAIR_HOP_CLIENT };
	struct list_ctx redir = { skb, PCIEAUDIT_A_PAIR_REDIRECT };

	if (pcieaudit_nl_put_addr(skb, PCIEAUDIT_A_PAIR_CLIENT, p->client) ||
	    nla_put_s32(skb, PCIEAUDIT_A_PAIR_DISTANCE, p->distance) ||
	    nla_put_u32(skb, PCIEAUDIT_A_PAIR_PATH_LENGTH, p->length) ||
	    nla_put_u32(skb, PCIEAUDIT_A_PAIR_MAP, p->map) ||
	    nla_put_u32(skb, PCIEAUDIT_A_PAIR_PATH, p->path) ||
	    nla_put_u32(skb, PCIEAUDIT_A_PAIR_HOST_RULE, p->host_rule) ||
	    (p->common &&
	     pcieaudit_nl_put_addr(skb, PCIEAUDIT_A_PAIR_COMMON, p->common)) ||
	    pcieaudit_p2p_for_each_hop(p, false, put_listed, &hops_p) ||
	    pcieaudit_p2p_for_each_hop(p, true, put_listed, &hops_c) ||
	    pcieaudit_p2p_for_each_redirect(p, put_listed, &redir) ||
	    put_host_bridge(skb, PCIEAUDIT_A_PAIR_HOST_BRIDGE_PROVIDER,
			    p->provider) ||
	    put_host_bridge(skb, PCIEAUDIT_A_PAIR_HOST_BRIDGE_CLIENT,
			    p->client))
		return -EMSGSIZE;
	return 0;
}

/* One PCIEAUDIT_A_P2P_PAIR nest; kdist is used when status says answered. */
static int put_pair(struct sk_buff *skb, const struct pcieaudit_p2p *p,
		    u32 status, int kdist)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, PCIEAUDIT_A_P2P_PAIR);
	if (!nest)
		return -EMSGSIZE;
	if (put_pair_own(skb, p) || put_pair_kernel(skb, p, status, kdist)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int count_listed(struct pci_dev *pdev, void *data)
{
	(*(unsigned int *)data)++;
	return 0;
}

/* Room put_pair() needs for @p, the kernel's answer included. */
static size_t pair_size(const struct pcieaudit_p2p *p)
{
	unsigned int addrs = p->common ? 2 : 1;	/* the client, the common */

	pcieaudit_p2p_for_each_hop(p, false, count_listed, &addrs);
	pcieaudit_p2p_for_each_hop(p, true, count_listed, &addrs);
	pcieaudit_p2p_for_each_redirect(p, count_listed, &addrs);
	return nla_total_size(0) + addrs * PCIEAUDIT_NL_ADDR_SIZE +
	       nla_total_size(sizeof(s32)) +	/* distance */
	       6 * nla_total_size(sizeof(u32)) + /* length to host bridges */
	       PAIR_KERNEL_ROOM;
}

/* The policy's mask has already refused unknown flags. */
static bool get_verbose(const struct nlattr *attr)
{
	return attr && (nla_get_u32(attr) & PCIEAUDIT_P2P_F_KERNEL_VERBOSE);
}

/* do: one provider, its clients */

struct p2p_request {
	struct pci_dev *provider;
	struct pci_dev *clients[PCIEAUDIT_P2P_MAX_CLIENTS];
	struct pcieaudit_p2p pairs[PCIEAUDIT_P2P_MAX_CLIENTS];
	u32 status[PCIEAUDIT_P2P_MAX_CLIENTS];
	int dist[PCIEAUDIT_P2P_MAX_CLIENTS];
	unsigned int n;
	bool verbose;
};

static void put_request_devs(struct p2p_request *req)
{
	pci_dev_put(req->provider);
	while (req->n)
		pci_dev_put(req->clients[--req->n]);
}

/* Looks up the provider and the clients, in request order. */
static int get_request_devs(struct genl_info *info, struct p2p_request *req)
{
	struct netlink_ext_ack *extack = info->extack;
	const struct nlattr *attr;
	struct pci_dev *pdev;
	int rem;

	pdev = pcieaudit_nl_get_dev(info->attrs[PCIEAUDIT_A_P2P_PROVIDER],
				    extack);
	if (IS_ERR(pdev))
		return PTR_ERR(pdev);
	req->provider = pdev;

	nlmsg_for_each_attr(attr, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(attr) != PCIEAUDIT_A_P2P_CLIENT)
			continue;
		if (req->n == PCIEAUDIT_P2P_MAX_CLIENTS) {
			NL_SET_ERR_MSG_ATTR(extack, attr, "too many clients");
			return -E2BIG;
		}
		pdev = pcieaudit_nl_get_dev(attr, extack);
		if (IS_ERR(pdev))
			return PTR_ERR(pdev);
		req->clients[req->n++] = pdev;
	}
	return 0;
}

/* Analyses every pair; returns the size of the reply. */
static size_t analyse_request(struct p2p_request *req)
{
	size_t size = PCIEAUDIT_NL_ADDR_SIZE + nla_total_size(sizeof(s32));
	unsigned int i;

	for (i = 0; i < req->n; i++) {
		pcieaudit_p2p_analyse(req->provider, req->clients[i],
				      &req->pairs[i]);
		size += pair_size(&req->pairs[i]);
	}
	return size;
}

static int put_p2p_reply(struct sk_buff *msg, struct genl_info *info,
			 struct p2p_request *req)
{
	bool has_sum;
	unsigned int i;
	void *hdr;
	int sum;

	/* The kernel's answers first (p2p_kernel.c decides which to ask). */
	has_sum = pcieaudit_p2p_kernel_answers(req->provider, req->clients,
					       req->pairs, req->n, req->verbose,
					       req->status, req->dist, &sum);
	hdr = genlmsg_put_reply(msg, info, &pcieaudit_family, 0,
				PCIEAUDIT_CMD_P2P_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (pcieaudit_nl_put_addr(msg, PCIEAUDIT_A_P2P_PROVIDER, req->provider))
		goto err_cancel;
	if (has_sum && nla_put_s32(msg, PCIEAUDIT_A_P2P_KERNEL_DISTANCE, sum))
		goto err_cancel;
	for (i = 0; i < req->n; i++)
		if (put_pair(msg, &req->pairs[i], req->status[i], req->dist[i]))
			goto err_cancel;
	genlmsg_end(msg, hdr);
	return 0;

err_cancel:
	genlmsg_cancel(msg, hdr);
	return -EMSGSIZE;
}

/**
 * pcieaudit_nl_p2p_doit - a provider and its clients
 * @skb: request
 * @info: request attributes
 *
 * Return: 0 or a negative errno.
 */
int pcieaudit_nl_p2p_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg = NULL;
	struct p2p_request *req;
	int err;

	err = pcieaudit_nl_perm(skb, info->extack);
	if (err)
		return err;
	if (GENL_REQ_ATTR_CHECK(info, PCIEAUDIT_A_P2P_PROVIDER) ||
	    GENL_REQ_ATTR_CHECK(info, PCIEAUDIT_A_P2P_CLIENT)) {
		NL_SET_ERR_MSG(info->extack, "a do request needs a provider and a client");
		return -EINVAL;
	}
	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	req->verbose = get_verbose(info->attrs[PCIEAUDIT_A_P2P_FLAGS]);

	pci_lock_rescan_remove();
	err = get_request_devs(info, req);
	if (!err) {
		/* Sized from the analysis, then filled. */
		msg = genlmsg_new(analyse_request(req), GFP_KERNEL);
		err = msg ? put_p2p_reply(msg, info, req) : -ENOMEM;
	}
	put_request_devs(req);
	pci_unlock_rescan_remove();

	if (!err)
		err = genlmsg_reply(msg, info);
	else if (msg)
		nlmsg_free(msg);
	kfree(req);
	return err;
}

/* dump: every ordered pair of a selection */

/* A pair dump's permission, then its selectors. */
static int p2p_dump_check(struct netlink_callback *cb)
{
	struct nlattr **attrs = pcieaudit_dump_attrs(cb);
	int err;

	/* First: the selectors' checks tell which functions exist. */
	err = pcieaudit_nl_perm(cb->skb, cb->extack);
	if (err)
		return err;
	return pcieaudit_p2p_check_selectors(attrs, cb->nlh, cb->extack);
}

/**
 * pcieaudit_nl_p2p_start - check a pair dump's permission, selectors, flags
 * @cb: dump state
 *
 * Where .start has no extack, the first .dumpit call validates instead.
 *
 * Return: 0 or a negative errno.
 */
int pcieaudit_nl_p2p_start(struct netlink_callback *cb)
{
	return PCIEAUDIT_DUMP_START_EXTACK ? p2p_dump_check(cb) : 0;
}

static int put_pair_msg(struct sk_buff *skb, struct netlink_callback *cb,
			struct pci_dev *provider, struct pci_dev *client,
			bool verbose)
{
	struct pcieaudit_p2p p;
	struct nlattr *nest;
	int kdist = -1;
	u32 status;
	void *hdr;

	pcieaudit_p2p_analyse(provider, client, &p);
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &pcieaudit_family, NLM_F_MULTI,
			  PCIEAUDIT_CMD_P2P_GET);
	if (!hdr)
		return -EMSGSIZE;
	genl_dump_check_consistent(cb, hdr);
	if (pcieaudit_nl_put_addr(skb, PCIEAUDIT_A_P2P_PROVIDER, provider))
		goto err_cancel;
	nest = nla_nest_start(skb, PCIEAUDIT_A_P2P_PAIR);
	if (!nest || put_pair_own(skb, &p) ||
	    skb_tailroom(skb) < PAIR_KERNEL_ROOM)
		goto err_cancel;
	/*
	 * The kernel is asked only once the rest of the message is in place
	 * and its answer has room: a pair that does not fit is retried in the
	 * next part, and must not be asked about (and warned about) twice.
	 */
	status = pcieaudit_p2p_kernel_status(&p, verbose);
	if (status == PCIEAUDIT_P2P_KERNEL_ANSWERED)
		status = pcieaudit_p2p_kernel_ask(provider, &client, 1,
						  verbose, &kdist);
	if (put_pair_kernel(skb, &p, status, kdist))
		goto err_cancel;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;

err_cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * Pairs with @provider, from the client cursor on. Return: true when the
 * message buffer filled up; *next_client is where to resume.
 */
static bool dump_clients(struct sk_buff *skb, struct netlink_callback *cb,
			 struct pci_dev *provider, const struct pcieaudit_p2p_selection *sel,
			 struct pcieaudit_batch *b, bool verbose,
			 u64 *next_client)
{
	unsigned int i, n;
	bool full = false;

	do {
		pcieaudit_batch_collect(b, *next_client, pcieaudit_p2p_selected,
					sel);
		n = b->n;
		for (i = 0; i < n && !full; i++) {
			if (b->pdev[i] != provider)
				full = put_pair_msg(skb, cb, provider,
						    b->pdev[i], verbose) != 0;
			if (!full)
				*next_client = b->key[i] + 1;
		}
		pcieaudit_batch_release(b);
	} while (!full && n == PCIEAUDIT_BATCH);
	return full;
}

/* Pairs of an address table, from the cursors on; true when full. */
static bool dump_table(struct sk_buff *skb, struct netlink_callback *cb,
		       const struct pcieaudit_p2p_table *t, bool verbose,
		       u64 *next_provider, u64 *next_client)
{
	unsigned int i, j;
	bool full = false;

	for (i = 0; i < t->n && !full; i++) {
		if (t->key[i] < *next_provider || !t->pdev[i])
			continue;
		/* As in the general path: a removed provider's cursor. */
		if (t->key[i] != *next_provider)
			*next_client = 0;
		for (j = 0; j < t->n && !full; j++) {
			if (t->key[j] < *next_client || !t->pdev[j])
				continue;
			if (j != i)
				full = put_pair_msg(skb, cb, t->pdev[i],
						    t->pdev[j], verbose) != 0;
			if (!full)
				*next_client = t->key[j] + 1;
		}
		if (!full) {
			*next_provider = t->key[i] + 1;
			*next_client = 0;
		} else {
			*next_provider = t->key[i];
		}
	}
	return full;
}

/* The general path: any selection, walked in batches. */
static bool dump_walk(struct sk_buff *skb, struct netlink_callback *cb,
		      const struct pcieaudit_p2p_selection *sel, struct pcieaudit_batch *b,
		      struct pcieaudit_batch *clients, bool verbose,
		      u64 *next_provider, u64 *next_client)
{
	bool full = false;
	unsigned int i, n;

	do {
		pcieaudit_batch_collect(b, *next_provider,
					pcieaudit_p2p_selected, sel);
		n = b->n;
		for (i = 0; i < n && !full; i++) {
			/*
			 * The provider the last part stopped in was removed:
			 * its client cursor would skip this one's first pairs.
			 */
			if (b->key[i] != *next_provider)
				*next_client = 0;
			full = dump_clients(skb, cb, b->pdev[i], sel, clients,
					    verbose, next_client);
			if (!full) {
				*next_provider = b->key[i] + 1;
				*next_client = 0;
			} else {
				*next_provider = b->key[i];
			}
		}
		pcieaudit_batch_release(b);
	} while (!full && n == PCIEAUDIT_BATCH);
	return full;
}

/**
 * pcieaudit_nl_p2p_dumpit - the next ordered pairs of the selection
 * @skb: message buffer
 * @cb: dump state, in struct pcieaudit_dump_ctx
 *
 * Return: bytes written, 0 at the end, or a negative errno.
 */
int pcieaudit_nl_p2p_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct pcieaudit_dump_ctx *ctx = pcieaudit_dump_ctx(cb);
	struct nlattr **attrs = pcieaudit_dump_attrs(cb);
	struct pcieaudit_p2p_selection sel = {
		.nlh = cb->nlh,
		.any = attrs[PCIEAUDIT_A_P2P_SELECT_DEV] ||
		       attrs[PCIEAUDIT_A_P2P_SELECT_CLASS],
	};
	bool verbose = get_verbose(attrs[PCIEAUDIT_A_P2P_FLAGS]);
	struct pcieaudit_batch *providers = NULL, *clients = NULL;
	u64 next_provider = ctx->next, next_client = ctx->next_client;
	struct pcieaudit_p2p_table *t = ctx->table;
	bool full;

	if (ctx->state == PCIEAUDIT_DUMP_ENDED)
		return 0;
	if (ctx->state == PCIEAUDIT_DUMP_NEW) {
		int err = PCIEAUDIT_DUMP_START_EXTACK ? 0 : p2p_dump_check(cb);

		if (err)
			return err;
		ctx->state = PCIEAUDIT_DUMP_CHECKED;
	}

	/* Kept until pcieaudit_nl_p2p_done(); too large for the stack. */
	if (!t) {
		t = kzalloc(sizeof(*t), GFP_KERNEL);
		if (!t)
			return -ENOMEM;
		t->fast = sel.any && pcieaudit_p2p_table_keys(t, cb->nlh, false);
		ctx->table = t;
	}
	if (!t->fast) {
		providers = pcieaudit_batch_alloc();
		clients = pcieaudit_batch_alloc();
		if (!providers || !clients) {
			pcieaudit_batch_free(providers);
			pcieaudit_batch_free(clients);
			return -ENOMEM;
		}
	}

	pci_lock_rescan_remove();
	cb->seq = pcieaudit_generation();
	if (t->fast) {
		pcieaudit_p2p_table_resolve(t);
		full = dump_table(skb, cb, t, verbose, &next_provider,
				  &next_client);
	} else {
		full = dump_walk(skb, cb, &sel, providers, clients, verbose,
				 &next_provider, &next_client);
	}
	pci_unlock_rescan_remove();
	pcieaudit_batch_free(providers);
	pcieaudit_batch_free(clients);

	ctx->next = next_provider;
	ctx->next_client = next_client;
	if (!full)
		ctx->state = PCIEAUDIT_DUMP_ENDED;
	else if (!skb->len)
		return -EMSGSIZE;
	return skb->len;
}

/**
 * pcieaudit_nl_p2p_done - free a pair dump's address table
 * @cb: dump state
 *
 * Called once the dump ended or its socket closed, in process context.
 *
 * Return: 0.
 */
int pcieaudit_nl_p2p_done(struct netlink_callback *cb)
{
	struct pcieaudit_p2p_table *t = pcieaudit_dump_ctx(cb)->table;

	if (t) {
		pcieaudit_p2p_table_release(t);
		kfree(t);
	}
	return 0;
}
