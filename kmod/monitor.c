// SPDX-License-Identifier: GPL-2.0
/*
 * Link health over time. Every PCI function is tracked from module load or
 * hot-add until its removal: a bus notifier on pci_bus_type reports
 * additions and removals, and a delayed work samples link state every
 * monitor_interval_ms and ACS control every monitor_acs_interval_ms. Changes
 * become PCIEAUDIT_CMD_MON_EVENT messages on the "monitor" multicast group
 * and feed each function's link history, which DEV_GET replies carry.
 *
 * The cost is one configuration read per link, not per function: a link's
 * state lives in both ends' LnkSta, and only the downstream end (a Root
 * Port or Switch Downstream Port) reports Data Link Layer Link Active and
 * the bandwidth-management bits (the kernel's bwctrl serves those ports
 * alone, too). So each pass reads the LnkSta of every such port, and of
 * every function with link registers and no such port above it; the
 * functions below a port ("followers": endpoints, their other functions,
 * VFs, switch upstream ports) are read only in a pass where their port's
 * LnkSta changed. ACS control changes only by configuration writes and is
 * read less often. Each pass's duration and reads are counted and shown in
 * debugfs (pcieaudit/monitor), so the cost is measured, not assumed.
 *
 * Read-only and as careful as dev_facts.c: only pci_user_read_config_word(),
 * which waits out a reset and never wakes the function; a function the
 * kernel has in D3cold or disconnected is not read at all, and a read of
 * all ones is no sample. Where the kernel has the pci_hp_event and
 * pcie_link_event tracepoints (mon_trace.c), their probes name a port
 * ("a hint"); the port's LnkSta is read at once, and the events of that read
 * name the tracepoint as their source. The sampler still reads every link,
 * so a change the kernel does not trace is seen all the same.
 *
 * Locking: mon_lock guards the table and the event sequence. The bus
 * notifier runs under pci_lock_rescan_remove() and DEV_GET dumps hold it
 * too, so mon_lock always nests inside it. Each entry holds a reference to
 * its pci_dev, dropped when the notifier sees the removal or at exit.
 */
#include <linux/debugfs.h>
#include <linux/hashtable.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/pcieaudit.h>

#include "config_read.h"
#include "mon_trace.h"
#include "monitor.h"
#include "netlink_internal.h"

static unsigned int monitor_interval_ms = 1000;
module_param(monitor_interval_ms, uint, 0444);
MODULE_PARM_DESC(monitor_interval_ms,
		 "LnkSta sampling interval in ms (0: off, minimum 10)");

static unsigned int monitor_acs_interval_ms = 10000;
module_param(monitor_acs_interval_ms, uint, 0444);
MODULE_PARM_DESC(monitor_acs_interval_ms,
		 "ACS control sampling interval in ms (never shorter than monitor_interval_ms)");

/* LnkSta bits that make a link event; Link Training comes and goes. */
#define LNKSTA_WATCHED	(PCI_EXP_LNKSTA_CLS | PCI_EXP_LNKSTA_NLW | \
			 PCI_EXP_LNKSTA_DLLLA | PCI_EXP_LNKSTA_LBMS | \
			 PCI_EXP_LNKSTA_LABS)
/* What counts as a transition of the link itself. */
#define LNKSTA_STATE	(PCI_EXP_LNKSTA_CLS | PCI_EXP_LNKSTA_NLW | \
			 PCI_EXP_LNKSTA_DLLLA)

struct mon_dev {
	struct hlist_node node;		/* in mon_table */
	struct pci_dev *pdev;		/* referenced */
	/* In mon_direct, or in its leader's followers; empty without link_pos. */
	struct list_head link_node;
	struct mon_dev *leader;		/* the port whose link this is, or NULL */
	struct list_head followers;	/* functions whose link this port is */
	u16 link_pos;			/* 0: no link registers */
	u16 acs_pos;			/* 0: no ACS */
	bool have_lnksta, have_acs;
	u16 lnksta, acs_ctrl;
	u32 lnkcap;
	u8 want_speed, want_width;	/* the lower LnkCap of both ends */
	u8 hint_source;			/* a tracepoint named it; 0: none */
	/* history */
	u64 since_ns, last_change_ns, transitions, below_ns;
	ktime_t last_sample;
	bool below, seen_up;
	u8 min_speed, min_width;
};

/* The sampler's own cost, for debugfs: passes of mon_sample_work(). */
struct mon_stats {
	u64 passes, pass_ns, max_pass_ns, last_pass_ns;
	u64 lnksta_reads, acs_reads;
	u32 last_lnksta_reads, last_acs_reads;
	/* hints taken; read nothing new; matched no tracked port */
	u64 hints, hints_stale, hints_unmatched;
};

/* A port a tracepoint named; the probe cannot look it up, so its address. */
struct mon_hint {
	int domain;			/* -1: the probe could not tell */
	u8 bus, devfn, source;
};

/*
 * Hints wait here for mon_hint_work. Taken in any context, bwctrl's hard
 * interrupt included, hence a spinlock and a fixed array. A hint that finds
 * the array full is dropped and counted: the sampler's next pass reads the
 * port anyway.
 */
#define MON_HINTS	16
struct mon_hint_queue {
	spinlock_t lock;		/* guards the rest; taken with irqs off */
	unsigned int len;
	struct mon_hint hint[MON_HINTS];
	u64 received[PCIEAUDIT_MON_SRC_PCIE_LINK_EVENT + 1];	/* by source */
	u64 dropped;
};

/* Reads made by one pass; NULL outside passes (notifier, first sample). */
struct mon_pass {
	u32 lnksta_reads, acs_reads;
};

static DEFINE_MUTEX(mon_lock);
static struct mon_hint_queue mon_hints = {
	.lock = __SPIN_LOCK_UNLOCKED(mon_hints.lock),
};

static DEFINE_HASHTABLE(mon_table, 10);
static LIST_HEAD(mon_direct);		/* link read every pass */
static struct mon_stats mon_stats;
static ktime_t mon_next_acs;
static struct dentry *mon_debugfs;
static u64 mon_seq;
static bool mon_stopping;
static void mon_sample_work(struct work_struct *work);
static DECLARE_DELAYED_WORK(mon_work, mon_sample_work);
static void mon_hint_work_fn(struct work_struct *work);
static DECLARE_WORK(mon_hint_work, mon_hint_work_fn);

const struct genl_multicast_group pcieaudit_mcgrps[1] = {
	PCIEAUDIT_MCGRP_INIT(PCIEAUDIT_MCGRP_MONITOR),
};

/* Not read: gone, or powered off, where a read would mean nothing. */
static bool mon_readable(struct pci_dev *pdev)
{
	return !pci_dev_is_disconnected(pdev) &&
	       READ_ONCE(pdev->current_state) != PCI_D3cold;
}

static struct mon_dev *mon_find(struct pci_dev *pdev)
{
	struct mon_dev *m;

	hash_for_each_possible(mon_table, m, node, (unsigned long)pdev)
		if (m->pdev == pdev)
			return m;
	return NULL;
}

static u64 mon_now_ns(void)
{
	return ktime_get_real_ns();
}

/* Multicasts one event; listeners or not, the sequence advances. */
static void mon_emit(struct pci_dev *pdev, u32 event, u32 source,
		     const struct mon_dev *m, u16 old_lnksta, u16 old_acs)
{
	struct sk_buff *skb;
	void *hdr;

	mon_seq++;
	if (!genl_has_listeners(&pcieaudit_family, &init_net, 0))
		return;
	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return;
	hdr = genlmsg_put(skb, 0, 0, &pcieaudit_family, 0,
			  PCIEAUDIT_CMD_MON_EVENT);
	if (!hdr)
		goto err;
	if (nla_put_u64_64bit(skb, PCIEAUDIT_A_MON_SEQ, mon_seq,
			      PCIEAUDIT_A_MON_PAD) ||
	    nla_put_u64_64bit(skb, PCIEAUDIT_A_MON_TIME_NS, mon_now_ns(),
			      PCIEAUDIT_A_MON_PAD) ||
	    nla_put_u32(skb, PCIEAUDIT_A_MON_EVENT, event) ||
	    nla_put_u32(skb, PCIEAUDIT_A_MON_SOURCE, source) ||
	    pcieaudit_nl_put_addr(skb, PCIEAUDIT_A_MON_ADDR, pdev))
		goto err;
	if (!PCIEAUDIT_MCGRP_PRIVILEGED)
		goto done;
	if (event == PCIEAUDIT_MON_LINK &&
	    (nla_put_u32(skb, PCIEAUDIT_A_MON_LNKCAP, m->lnkcap) ||
	     nla_put_u16(skb, PCIEAUDIT_A_MON_LNKSTA_OLD, old_lnksta) ||
	     nla_put_u16(skb, PCIEAUDIT_A_MON_LNKSTA, m->lnksta)))
		goto err;
	if (event == PCIEAUDIT_MON_ACS &&
	    (nla_put_u16(skb, PCIEAUDIT_A_MON_ACS_CTRL_OLD, old_acs) ||
	     nla_put_u16(skb, PCIEAUDIT_A_MON_ACS_CTRL, m->acs_ctrl)))
		goto err;
done:
	genlmsg_end(skb, hdr);
	/* -ESRCH: the last listener left meanwhile. */
	genlmsg_multicast(&pcieaudit_family, skb, 0, 0, GFP_KERNEL);
	return;
err:
	nlmsg_free(skb);
}

static bool lnksta_up(u16 lnksta)
{
	return lnksta & PCI_EXP_LNKSTA_NLW;
}

/* Adds the time since the previous sample to the history. */
static void mon_account(struct mon_dev *m, ktime_t now)
{
	if (m->below && m->last_sample)
		m->below_ns += ktime_to_ns(ktime_sub(now, m->last_sample));
	m->last_sample = now;
}

static void mon_note_lnksta(struct mon_dev *m, u16 lnksta)
{
	u8 speed = lnksta & PCI_EXP_LNKSTA_CLS;
	u8 width = (lnksta & PCI_EXP_LNKSTA_NLW) >> PCI_EXP_LNKSTA_NLW_SHIFT;

	m->below = false;
	if (!lnksta_up(lnksta))
		return;
	if (!m->seen_up || speed < m->min_speed)
		m->min_speed = speed;
	if (!m->seen_up || width < m->min_width)
		m->min_width = width;
	m->seen_up = true;
	m->below = (m->want_speed && speed < m->want_speed) ||
		   (m->want_width && width < m->want_width);
}

/*
 * Samples one function's LnkSta; emits what changed. Returns whether the
 * watched bits changed since the previous sample (not on the first).
 */
static bool mon_sample_link(struct mon_dev *m, struct mon_pass *pass,
			    u32 source)
{
	struct pci_dev *pdev = m->pdev;
	u16 val, old;

	mon_account(m, ktime_get());
	if (!m->link_pos || !mon_readable(pdev))
		return false;
	if (pass)
		pass->lnksta_reads++;
	if (!pcieaudit_read_word(pdev, m->link_pos + PCI_EXP_LNKSTA, &val))
		return false;
	old = m->lnksta;
	if (!m->have_lnksta) {
		m->lnksta = val;
		m->have_lnksta = true;
		mon_note_lnksta(m, val);
		return false;
	}
	if (!((old ^ val) & LNKSTA_WATCHED))
		return false;
	m->lnksta = val;
	if ((old ^ val) & LNKSTA_STATE) {
		m->transitions++;
		m->last_change_ns = mon_now_ns();
	}
	mon_note_lnksta(m, val);
	mon_emit(pdev, PCIEAUDIT_MON_LINK, source, m, old, 0);
	return true;
}

/* Samples one function's ACS control; emits a change. */
static void mon_sample_acs(struct mon_dev *m, struct mon_pass *pass)
{
	u16 val, old;

	if (!m->acs_pos || !mon_readable(m->pdev))
		return;
	if (pass)
		pass->acs_reads++;
	if (!pcieaudit_read_word(m->pdev, m->acs_pos + PCI_ACS_CTRL, &val))
		return;
	old = m->acs_ctrl;
	m->acs_ctrl = val;
	if (m->have_acs && old != val)
		mon_emit(m->pdev, PCIEAUDIT_MON_ACS, PCIEAUDIT_MON_SRC_SAMPLER,
			 m, 0, old);
	m->have_acs = true;
}

/*
 * Samples one function's link, its followers' where it changed, its ACS.
 * What a hinted port's read sees is the tracepoint's; a hint whose read
 * sees nothing new (the sampler was first, or no watched bit changed) is
 * counted as stale.
 */
static void mon_sample(struct mon_dev *m, struct mon_pass *pass, bool acs)
{
	u32 source = m->hint_source ?: PCIEAUDIT_MON_SRC_SAMPLER;
	struct mon_dev *f;

	if (mon_sample_link(m, pass, source))
		list_for_each_entry(f, &m->followers, link_node)
			mon_sample_link(f, pass, source);
	else if (m->hint_source)
		mon_stats.hints_stale++;
	m->hint_source = 0;
	if (acs)
		mon_sample_acs(m, pass);
}

static struct mon_dev *mon_find_port(int domain, u8 bus, u8 devfn)
{
	struct mon_dev *m;

	list_for_each_entry(m, &mon_direct, link_node)
		if (m->pdev->devfn == devfn && m->pdev->bus->number == bus &&
		    pci_domain_nr(m->pdev->bus) == domain)
			return m;
	return NULL;
}

/*
 * Marks the ports the queued hints name, and returns them in @ports (at
 * most MON_HINTS). Called before any read that may see their change, so
 * the change is the tracepoint's whichever read sees it first.
 */
static unsigned int mon_take_hints(struct mon_dev **ports)
{
	struct mon_hint hint[MON_HINTS];
	unsigned int i, len, n = 0;
	unsigned long flags;
	struct mon_dev *m;

	lockdep_assert_held(&mon_lock);
	spin_lock_irqsave(&mon_hints.lock, flags);
	len = mon_hints.len;
	memcpy(hint, mon_hints.hint, len * sizeof(hint[0]));
	mon_hints.len = 0;
	spin_unlock_irqrestore(&mon_hints.lock, flags);

	for (i = 0; i < len; i++) {
		mon_stats.hints++;
		m = hint[i].domain < 0 ? NULL :
		    mon_find_port(hint[i].domain, hint[i].bus, hint[i].devfn);
		if (!m) {
			mon_stats.hints_unmatched++;
			continue;
		}
		if (!m->hint_source)
			ports[n++] = m;
		m->hint_source = hint[i].source;
	}
	return n;
}

/* Reads the ports the queued hints name, outside the sampler's passes. */
static void mon_sample_hinted(void)
{
	struct mon_dev *ports[MON_HINTS];
	unsigned int i, n;

	n = mon_take_hints(ports);
	for (i = 0; i < n; i++)
		mon_sample(ports[i], NULL, false);
}

static void mon_hint_work_fn(struct work_struct *work)
{
	mutex_lock(&mon_lock);
	if (!mon_stopping && monitor_interval_ms)
		mon_sample_hinted();
	mutex_unlock(&mon_lock);
}

/**
 * pcieaudit_monitor_hint - a tracepoint saw something on a port
 * @domain: the port's PCI domain, or -1 where the tracepoint did not say
 * @bus: its bus number
 * @devfn: its device and function
 * @source: enum pcieaudit_mon_source, the tracepoint
 *
 * Context: any, hard interrupt included.
 */
void pcieaudit_monitor_hint(int domain, u8 bus, u8 devfn, u32 source)
{
	struct mon_hint *h;
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&mon_hints.lock, flags);
	if (source < ARRAY_SIZE(mon_hints.received))
		mon_hints.received[source]++;
	for (i = 0; i < mon_hints.len; i++) {
		h = &mon_hints.hint[i];
		if (h->domain == domain && h->bus == bus && h->devfn == devfn &&
		    h->source == source)
			goto queued;
	}
	if (mon_hints.len == MON_HINTS) {
		mon_hints.dropped++;
		goto queued;
	}
	mon_hints.hint[mon_hints.len++] = (struct mon_hint) {
		.domain = domain, .bus = bus, .devfn = devfn, .source = source,
	};
queued:
	spin_unlock_irqrestore(&mon_hints.lock, flags);
	queue_work(system_wq, &mon_hint_work);
}

/* The link's best: the lower LnkCap of the function and the port above. */
static void mon_read_caps(struct mon_dev *m)
{
	struct pci_dev *up = pci_upstream_bridge(m->pdev);
	u32 upcap;

	if (!mon_readable(m->pdev) ||
	    !pcieaudit_read_dword(m->pdev, m->link_pos + PCI_EXP_LNKCAP, &m->lnkcap)) {
		m->lnkcap = 0;
		return;
	}
	m->want_speed = m->lnkcap & PCI_EXP_LNKCAP_SLS;
	m->want_width = (m->lnkcap & PCI_EXP_LNKCAP_MLW) >> 4;
	switch (pci_pcie_type(m->pdev)) {
	case PCI_EXP_TYPE_ROOT_PORT:
	case PCI_EXP_TYPE_DOWNSTREAM:
		/* The other end is below; its function reports the link. */
		return;
	}
	if (!up || !pci_is_pcie(up) || !mon_readable(up) ||
	    !pcieaudit_read_dword(up, pci_pcie_cap(up) + PCI_EXP_LNKCAP, &upcap))
		return;
	m->want_speed = min_t(u8, m->want_speed, upcap & PCI_EXP_LNKCAP_SLS);
	m->want_width = min_t(u8, m->want_width,
			      (upcap & PCI_EXP_LNKCAP_MLW) >> 4);
}

/*
 * The tracked port that reports pdev's link: a Root Port or Switch
 * Downstream Port directly above it. NULL where there is none (a port
 * itself, a function on a root bus or below a PCI bridge), or where the
 * port is not tracked yet: such a function's LnkSta is read every pass.
 */
static struct mon_dev *mon_leader_of(struct pci_dev *pdev)
{
	struct pci_dev *up = pci_upstream_bridge(pdev);
	struct mon_dev *l;

	if (!up || !pci_is_pcie(up))
		return NULL;
	switch (pci_pcie_type(up)) {
	case PCI_EXP_TYPE_ROOT_PORT:
	case PCI_EXP_TYPE_DOWNSTREAM:
		break;
	default:
		return NULL;
	}
	l = mon_find(up);
	return l && l->link_pos ? l : NULL;
}

/* Starts tracking pdev; NULL when it is tracked already or memory is short. */
static struct mon_dev *mon_track(struct pci_dev *pdev)
{
	struct mon_dev *m;

	if (mon_find(pdev))
		return NULL;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return NULL;
	m->pdev = pci_dev_get(pdev);
	m->since_ns = mon_now_ns();
	INIT_LIST_HEAD(&m->link_node);
	INIT_LIST_HEAD(&m->followers);
	if (pci_is_pcie(pdev) && pcieaudit_has_link_regs(pdev)) {
		m->link_pos = pci_pcie_cap(pdev);
		mon_read_caps(m);
		m->leader = mon_leader_of(pdev);
		list_add_tail(&m->link_node,
			      m->leader ? &m->leader->followers : &mon_direct);
	}
	m->acs_pos = pcieaudit_acs_pos(pdev);
	hash_add(mon_table, &m->node, (unsigned long)pdev);
	if (monitor_interval_ms)
		mon_sample(m, NULL, true);
	return m;
}

static void mon_untrack(struct mon_dev *m)
{
	struct mon_dev *f, *tmp;

	/*
	 * The kernel removes the functions below a port before the port;
	 * followers left (at exit) are read every pass until they go.
	 */
	list_for_each_entry_safe(f, tmp, &m->followers, link_node) {
		f->leader = NULL;
		list_move_tail(&f->link_node, &mon_direct);
	}
	list_del(&m->link_node);
	hash_del(&m->node);
	pci_dev_put(m->pdev);
	kfree(m);
}

static int mon_bus_notify(struct notifier_block *nb, unsigned long action,
			  void *data)
{
	struct pci_dev *pdev = to_pci_dev(data);
	struct pci_dev *up;
	struct mon_dev *m;

	if (action != BUS_NOTIFY_ADD_DEVICE && action != BUS_NOTIFY_DEL_DEVICE)
		return NOTIFY_DONE;
	mutex_lock(&mon_lock);
	if (mon_stopping)
		goto out;
	if (action == BUS_NOTIFY_ADD_DEVICE) {
		/*
		 * The port's link came up before the function could appear:
		 * sample it first, so its event comes first.
		 */
		up = pci_upstream_bridge(pdev);
		m = up ? mon_find(up) : NULL;
		if (m && monitor_interval_ms) {
			/* pciehp traced the link up before it scanned. */
			mon_sample_hinted();
			mon_sample(m, NULL, true);
		}
		if (mon_track(pdev))
			mon_emit(pdev, PCIEAUDIT_MON_ADDED,
				 PCIEAUDIT_MON_SRC_BUS_NOTIFIER, NULL, 0, 0);
	} else {
		m = mon_find(pdev);
		if (m) {
			mon_emit(pdev, PCIEAUDIT_MON_REMOVED,
				 PCIEAUDIT_MON_SRC_BUS_NOTIFIER, m, 0, 0);
			mon_untrack(m);
		}
	}
out:
	mutex_unlock(&mon_lock);
	return NOTIFY_OK;
}

static struct notifier_block mon_nb = {
	.notifier_call = mon_bus_notify,
};

static unsigned long mon_interval(void)
{
	return msecs_to_jiffies(max(monitor_interval_ms, 10U));
}

static ktime_t mon_acs_interval(void)
{
	return ms_to_ktime(max3(monitor_acs_interval_ms, monitor_interval_ms, 10U));
}

static void mon_count_pass(const struct mon_pass *pass, ktime_t start)
{
	u64 ns = ktime_to_ns(ktime_sub(ktime_get(), start));

	mon_stats.passes++;
	mon_stats.pass_ns += ns;
	mon_stats.last_pass_ns = ns;
	mon_stats.max_pass_ns = max(mon_stats.max_pass_ns, ns);
	mon_stats.lnksta_reads += pass->lnksta_reads;
	mon_stats.acs_reads += pass->acs_reads;
	mon_stats.last_lnksta_reads = pass->lnksta_reads;
	mon_stats.last_acs_reads = pass->acs_reads;
}

static void mon_sample_work(struct work_struct *work)
{
	struct mon_dev *ports[MON_HINTS];
	struct mon_pass pass = { 0 };
	struct mon_dev *m;
	unsigned int bkt;
	ktime_t start;
	bool acs;

	mutex_lock(&mon_lock);
	start = ktime_get();
	acs = ktime_compare(start, mon_next_acs) >= 0;
	if (acs)
		mon_next_acs = ktime_add(start, mon_acs_interval());
	mon_take_hints(ports);
	list_for_each_entry(m, &mon_direct, link_node) {
		mon_sample(m, &pass, false);
		cond_resched();
	}
	if (acs)
		hash_for_each(mon_table, bkt, m, node) {
			mon_sample_acs(m, &pass);
			cond_resched();
		}
	mon_count_pass(&pass, start);
	if (!mon_stopping)
		schedule_delayed_work(&mon_work, mon_interval());
	mutex_unlock(&mon_lock);
}

/* debugfs pcieaudit/monitor: the sampler's configuration, table and cost. */
static int mon_stats_show(struct seq_file *s, void *unused)
{
	unsigned int tracked = 0, direct = 0, followers = 0, acs = 0, bkt;
	struct mon_dev *m;

	mutex_lock(&mon_lock);
	hash_for_each(mon_table, bkt, m, node) {
		tracked++;
		acs += !!m->acs_pos;
		if (m->link_pos && m->leader)
			followers++;
		else if (m->link_pos)
			direct++;
	}
	seq_printf(s, "interval_ms %u\nacs_interval_ms %lld\n",
		   monitor_interval_ms ? max(monitor_interval_ms, 10U) : 0,
		   ktime_to_ms(mon_acs_interval()));
	seq_printf(s, "functions %u\nlink_every_pass %u\nlink_on_change %u\nacs %u\n",
		   tracked, direct, followers, acs);
	seq_printf(s, "passes %llu\npass_ns_total %llu\npass_ns_max %llu\npass_ns_last %llu\n",
		   mon_stats.passes, mon_stats.pass_ns, mon_stats.max_pass_ns,
		   mon_stats.last_pass_ns);
	seq_printf(s, "lnksta_reads %llu\nacs_reads %llu\nlast_lnksta_reads %u\nlast_acs_reads %u\n",
		   mon_stats.lnksta_reads, mon_stats.acs_reads,
		   mon_stats.last_lnksta_reads, mon_stats.last_acs_reads);
	pcieaudit_mon_trace_show(s);
	spin_lock_irq(&mon_hints.lock);
	seq_printf(s, "hints_pci_hp_event %llu\nhints_pcie_link_event %llu\nhints_dropped %llu\n",
		   mon_hints.received[PCIEAUDIT_MON_SRC_PCI_HP_EVENT],
		   mon_hints.received[PCIEAUDIT_MON_SRC_PCIE_LINK_EVENT],
		   mon_hints.dropped);
	spin_unlock_irq(&mon_hints.lock);
	seq_printf(s, "hints_taken %llu\nhints_stale %llu\nhints_unmatched %llu\n",
		   mon_stats.hints, mon_stats.hints_stale,
		   mon_stats.hints_unmatched);
	mutex_unlock(&mon_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mon_stats);

/**
 * pcieaudit_monitor_history_size - room pcieaudit_monitor_put_history() needs
 *
 * Return: the most bytes the link-history nest takes in a message.
 */
size_t pcieaudit_monitor_history_size(void)
{
	return nla_total_size(0) +			/* the nest */
	       4 * nla_total_size_64bit(sizeof(u64)) +	/* since to last change */
	       nla_total_size(sizeof(u32)) +		/* interval */
	       2 * nla_total_size(sizeof(u8));		/* slowest, narrowest */
}

/**
 * pcieaudit_monitor_put_history - a function's link history as a nest
 * @skb: message
 * @pdev: the function
 *
 * Context: may sleep (mon_lock).
 * Return: 0 (also when there is no history to report) or -EMSGSIZE.
 */
int pcieaudit_monitor_put_history(struct sk_buff *skb, struct pci_dev *pdev)
{
	struct nlattr *nest;
	struct mon_dev *m;
	int ret = 0;

	if (!monitor_interval_ms)
		return 0;
	mutex_lock(&mon_lock);
	m = mon_find(pdev);
	if (!m || !m->link_pos)
		goto out;
	mon_account(m, ktime_get());
	ret = -EMSGSIZE;
	nest = nla_nest_start(skb, PCIEAUDIT_A_DEV_LINK_HISTORY);
	if (!nest)
		goto out;
	if (nla_put_u64_64bit(skb, PCIEAUDIT_A_HIST_SINCE_NS, m->since_ns,
			      PCIEAUDIT_A_HIST_PAD) ||
	    nla_put_u64_64bit(skb, PCIEAUDIT_A_HIST_TRANSITIONS, m->transitions,
			      PCIEAUDIT_A_HIST_PAD) ||
	    nla_put_u64_64bit(skb, PCIEAUDIT_A_HIST_BELOW_NS, m->below_ns,
			      PCIEAUDIT_A_HIST_PAD) ||
	    nla_put_u32(skb, PCIEAUDIT_A_HIST_INTERVAL_MS,
			max(monitor_interval_ms, 10U)))
		goto cancel;
	if (m->seen_up &&
	    (nla_put_u8(skb, PCIEAUDIT_A_HIST_MIN_SPEED, m->min_speed) ||
	     nla_put_u8(skb, PCIEAUDIT_A_HIST_MIN_WIDTH, m->min_width)))
		goto cancel;
	if (m->last_change_ns &&
	    nla_put_u64_64bit(skb, PCIEAUDIT_A_HIST_LAST_CHANGE_NS,
			      m->last_change_ns, PCIEAUDIT_A_HIST_PAD))
		goto cancel;
	nla_nest_end(skb, nest);
	ret = 0;
	goto out;
cancel:
	nla_nest_cancel(skb, nest);
out:
	mutex_unlock(&mon_lock);
	return ret;
}

/**
 * pcieaudit_monitor_init - track every function and start sampling
 *
 * Context: after the family is registered: events may go out at once.
 * Return: 0 or a negative errno.
 */
int pcieaudit_monitor_init(void)
{
	struct pci_dev *pdev = NULL;
	int ret;

	/*
	 * First the notifier, then the walk: a function added in between is
	 * seen twice, and mon_track() takes it once.
	 */
	ret = bus_register_notifier(&pci_bus_type, &mon_nb);
	if (ret)
		return ret;
	pci_lock_rescan_remove();
	mutex_lock(&mon_lock);
	for_each_pci_dev(pdev)
		mon_track(pdev);
	mon_next_acs = ktime_add(ktime_get(), mon_acs_interval());
	mutex_unlock(&mon_lock);
	pci_unlock_rescan_remove();
	/* Errors ignored: debugfs is a window on the cost, not a function. */
	mon_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("monitor", 0400, mon_debugfs, NULL, &mon_stats_fops);
	if (monitor_interval_ms) {
		pcieaudit_mon_trace_attach();
		schedule_delayed_work(&mon_work, mon_interval());
	}
	return 0;
}

/**
 * pcieaudit_monitor_exit - stop sampling, drop every reference
 *
 * Context: before the family is unregistered.
 */
void pcieaudit_monitor_exit(void)
{
	struct hlist_node *tmp;
	struct mon_dev *m;
	unsigned int bkt;

	debugfs_remove_recursive(mon_debugfs);
	bus_unregister_notifier(&pci_bus_type, &mon_nb);
	/* No probe runs after this, so nothing queues mon_hint_work again. */
	pcieaudit_mon_trace_detach();
	mutex_lock(&mon_lock);
	mon_stopping = true;
	mutex_unlock(&mon_lock);
	cancel_work_sync(&mon_hint_work);
	cancel_delayed_work_sync(&mon_work);
	mutex_lock(&mon_lock);
	hash_for_each_safe(mon_table, bkt, tmp, m, node)
		mon_untrack(m);
	mutex_unlock(&mon_lock);
}
