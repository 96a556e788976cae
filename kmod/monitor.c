// SPDX-License-Identifier: GPL-2.0
/*
 * Link health over time. Every PCI function is tracked from module load or
 * hot-add until its removal: a bus notifier on pci_bus_type reports
 * additions and removals, and a delayed work samples link state every
 * monitor_interval_ms and ACS control every monitor_acs_interval_ms. Changes
 * become PCIEAUDIT_CMD_MON_EVENT messages on the "monitor" multicast group
 * and feed each function's link history (mon_history.c), which DEV_GET
 * replies carry. monitor_interval_ms=0 loads none of it.
 *
 * The cost is one configuration read per link, not per function: a link's
 * state lives in both ends' LnkSta, and only the downstream end (a Root
 * Port or Switch Downstream Port) reports Data Link Layer Link Active and
 * the bandwidth-management bits. So each pass reads the LnkSta of every
 * such port, and of every function with link registers and no such port
 * above it; the functions below a port ("followers") are read only in a
 * pass where their port's LnkSta changed, or where they have no value yet.
 * ACS control changes only by configuration writes and is read less often.
 * Each pass's duration and reads are counted in debugfs (pcieaudit/monitor).
 *
 * Built like the PCI core's own poller, pci_pme_list_scan():
 * - No lock of ours is held across a configuration read. A pass takes what
 *   to read under mon_lock, reads unlocked, and commits under mon_lock.
 *   Entries are freed only by the work (mon_wq is ordered), so a pass may
 *   keep pointers to them across the unlocked reads; a removal marks its
 *   entry gone and waits only for a read of that very function to end, as
 *   kernfs waits for a sysfs reader of a file being removed.
 * - Nothing is woken and no link is forced out of a low-power state
 *   (quiet_read.c): a function is read only when it and the bridge above it are active for
 *   runtime PM (a reference held across the read) and in D0, and when no
 *   link between it and the root complex has ASPM enabled. A function
 *   whose config access the kernel blocks (a reset, an SR-IOV change) is
 *   skipped rather than waited for, up to a minute. A function not read
 *   says why in its history, and accrues no time there.
 * - mon_wq is freezable: nothing runs between the freezing of tasks before
 *   a system suspend and their thawing after resume.
 * - The bus notifier makes no configuration read: it records the function
 *   and queues the work, which reads it.
 * - Where the kernel has the pci_hp_event and pcie_link_event tracepoints
 *   (mon_trace.c), their probes name a port ("a hint"); the work reads it
 *   at once, and the events of that read name the tracepoint as their
 *   source. The sampler still reads every link.
 *
 * Locking: mon_lock (a mutex) guards the table, the lists, the histories
 * and the event sequence; never held across a configuration read.
 * mon_read_lock (a spinlock) orders a removal against the one read in
 * flight. mon_hints.lock (raw: the probes run in hard interrupt context,
 * and on older PREEMPT_RT kernels with preemption off) guards the hints.
 * Each entry holds a reference to its pci_dev until the work frees it.
 */
#include <linux/debugfs.h>
#include <linux/hashtable.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/pcieaudit.h>

#include "config_read.h"
#include "mon_history.h"
#include "mon_trace.h"
#include "monitor.h"
#include "netlink.h"
#include "quiet_read.h"
#include "removal_fence.h"

static unsigned int monitor_interval_ms = 1000;
module_param(monitor_interval_ms, uint, 0444);
MODULE_PARM_DESC(monitor_interval_ms,
		 "LnkSta sampling interval in ms (0: no monitor at all, minimum 10)");

static unsigned int monitor_acs_interval_ms = 10000;
module_param(monitor_acs_interval_ms, uint, 0444);
MODULE_PARM_DESC(monitor_acs_interval_ms,
		 "ACS control sampling interval in ms (never shorter than monitor_interval_ms)");

/* LnkSta bits that make a link event; Link Training comes and goes. */
#define LNKSTA_WATCHED	(PCI_EXP_LNKSTA_CLS | PCI_EXP_LNKSTA_NLW | \
			 PCI_EXP_LNKSTA_DLLLA | PCI_EXP_LNKSTA_LBMS | \
			 PCI_EXP_LNKSTA_LABS)

struct mon_dev {
	struct hlist_node node;		/* in mon_table until removal */
	struct pci_dev *pdev;		/* referenced until freed */
	/* In mon_direct, or in its leader's followers; empty without link_pos. */
	struct list_head link_node;
	struct mon_dev *leader;		/* the port whose link this is, or NULL */
	struct list_head followers;	/* functions whose link this port is */
	/* In mon_pending until its first read, then in mon_dead once removed. */
	struct list_head work_node;
	u16 link_pos;			/* 0: no link registers */
	u16 acs_pos;			/* 0: no ACS */
	u32 lnkcap;			/* valid with have_lnkcap */
	u16 acs_ctrl;
	bool have_lnkcap, have_acs, announced, gone;
	bool announced_read;		/* mon_first_reads(): queued once */
	u8 hint_source;			/* a tracepoint named it; 0: none */
	struct mon_history hist;
};

/* The sampler's own cost, for debugfs: passes of mon_sample_work(). */
struct mon_stats {
	u64 passes, pass_ns, max_pass_ns, last_pass_ns;
	u64 lnksta_reads, acs_reads, lnkcap_reads;
	u32 last_lnksta_reads, last_acs_reads;
	/* hints taken; read nothing new; matched no tracked port */
	u64 hints, hints_stale, hints_unmatched;
	u64 skipped[PCIEAUDIT_HIST_SKIP_MAX + 1];	/* reads not made, by why */
};

/* A port a tracepoint named; the probe cannot look it up, so its address. */
struct mon_hint {
	int domain;			/* -1: the probe could not tell */
	u8 bus, devfn, source;
};

/*
 * Hints wait here for mon_kick_work. Taken in any context, bwctrl's hard
 * interrupt included, hence a raw spinlock and a fixed array. A hint that
 * finds the array full is dropped and counted: the next pass reads the
 * port anyway.
 */
#define MON_HINTS	16
struct mon_hint_queue {
	raw_spinlock_t lock;		/* guards the rest; taken with irqs off */
	unsigned int len;
	struct mon_hint hint[MON_HINTS];
	u64 received[PCIEAUDIT_MON_SRC_PCIE_LINK_EVENT + 1];	/* by source */
	u64 dropped;
};

/* What a read is for. */
enum mon_what {
	MON_LNKSTA,
	MON_ACS,
	MON_LNKCAP,		/* a function's first read: its LnkCap */
};

/* One configuration read of a pass: taken locked, made unlocked. */
struct mon_read {
	struct mon_dev *m;
	u8 what;		/* enum mon_what */
	u8 source;		/* a follower's: its port's; 0: its own */
	u32 skip;		/* enum pcieaudit_hist_skip; 0: read */
	u32 val;
};

/* The reads of one step, in the work only (mon_wq is ordered). */
struct mon_batch {
	struct mon_read *r;
	unsigned int n, cap;
};

static DEFINE_MUTEX(mon_lock);
static DEFINE_SPINLOCK(mon_read_lock);
static DECLARE_WAIT_QUEUE_HEAD(mon_read_wq);
static struct mon_dev *mon_reading;	/* mon_read_lock; its read in flight */
static struct mon_hint_queue mon_hints = {
	.lock = __RAW_SPIN_LOCK_UNLOCKED(mon_hints.lock),
};

static DEFINE_HASHTABLE(mon_table, 10);
static LIST_HEAD(mon_direct);		/* link read every pass */
static LIST_HEAD(mon_pending);		/* added; first read due */
static LIST_HEAD(mon_dead);		/* removed; the work frees them */
static unsigned int mon_tracked;
static struct mon_stats mon_stats;
static ktime_t mon_next_acs;
static struct dentry *mon_debugfs;
static u64 mon_seq;
static bool mon_stopping;
static struct workqueue_struct *mon_wq;
static struct mon_batch mon_batch, mon_next;	/* a step, its followers */
static void mon_sample_work(struct work_struct *work);
static DECLARE_DELAYED_WORK(mon_work, mon_sample_work);
static void mon_kick_work_fn(struct work_struct *work);
static DECLARE_WORK(mon_kick_work, mon_kick_work_fn);

static struct mon_dev *mon_find(struct pci_dev *pdev)
{
	struct mon_dev *m;

	hash_for_each_possible(mon_table, m, node, (unsigned long)pdev)
		if (m->pdev == pdev)
			return m;
	return NULL;
}

static u64 mon_real_ns(void)
{
	return ktime_get_real_ns();
}

static u64 mon_mono_ns(void)
{
	return ktime_get_ns();
}

/* Multicasts one event; listeners or not, the sequence advances. */
static void mon_emit(struct mon_dev *m, u32 event, u32 source, u16 old)
{
	struct pcieaudit_mon_msg ev = {
		.seq = ++mon_seq, .time_ns = mon_real_ns(), .event = event,
		.source = source, .pdev = m->pdev,
	};

	lockdep_assert_held(&mon_lock);
	if (event == PCIEAUDIT_MON_LINK) {
		ev.lnkcap = m->lnkcap;
		ev.lnksta_old = old;
		ev.lnksta = m->hist.lnksta;
	} else if (event == PCIEAUDIT_MON_ACS) {
		ev.acs_ctrl_old = old;
		ev.acs_ctrl = m->acs_ctrl;
	}
	pcieaudit_nl_mon_event(&ev);
}

/*
 * One read for the work, unlocked, through pcieaudit_quiet_read(); a
 * removal of the function waits for it (mon_untrack()'s caller).
 */
static u32 mon_cfg_read(struct mon_dev *m, int pos, int size, u32 *val)
{
	u32 skip;

	spin_lock(&mon_read_lock);
	skip = m->gone ? PCIEAUDIT_HIST_SKIP_UNREADABLE : 0;
	if (!skip)
		mon_reading = m;
	spin_unlock(&mon_read_lock);
	if (skip)
		return skip;
	skip = pcieaudit_quiet_read(m->pdev, pos, size, val);
	spin_lock(&mon_read_lock);
	mon_reading = NULL;
	spin_unlock(&mon_read_lock);
	wake_up_all(&mon_read_wq);
	return skip;
}

/* Room for @n reads; called in the work without mon_lock. */
static void mon_batch_reserve(struct mon_batch *b, unsigned int n)
{
	struct mon_read *r;

	b->n = 0;
	if (n <= b->cap)
		return;
	r = kvmalloc_array(n, sizeof(*r), GFP_KERNEL);
	if (!r)
		return;		/* the old room serves; the rest waits a pass */
	kvfree(b->r);
	b->r = r;
	b->cap = n;
}

static void mon_batch_add_from(struct mon_batch *b, struct mon_dev *m,
			       u8 what, u8 source)
{
	if (b->n < b->cap)
		b->r[b->n++] = (struct mon_read){
			.m = m, .what = what, .source = source,
		};
}

static void mon_batch_add(struct mon_batch *b, struct mon_dev *m, u8 what)
{
	mon_batch_add_from(b, m, what, 0);
}

static void mon_batch_read(struct mon_batch *b)
{
	struct mon_read *r;
	unsigned int i;

	for (i = 0; i < b->n; i++) {
		r = &b->r[i];
		switch (r->what) {
		case MON_LNKSTA:
			r->skip = mon_cfg_read(r->m, r->m->link_pos + PCI_EXP_LNKSTA,
					       2, &r->val);
			break;
		case MON_ACS:
			r->skip = mon_cfg_read(r->m, r->m->acs_pos + PCI_ACS_CTRL,
					       2, &r->val);
			break;
		case MON_LNKCAP:
			r->skip = mon_cfg_read(r->m, r->m->link_pos + PCI_EXP_LNKCAP,
					       4, &r->val);
			break;
		}
		cond_resched();
	}
}

/* The link's targets, from both ends' LnkCap as far as they are known. */
static void mon_set_targets(struct mon_dev *m)
{
	struct mon_dev *f;

	if (m->leader) {
		mon_hist_set_caps(&m->hist, m->lnkcap, m->leader->lnkcap);
		return;
	}
	/* A port: its link's other end is the first function below it. */
	f = list_first_entry_or_null(&m->followers, struct mon_dev, link_node);
	mon_hist_set_caps(&m->hist, m->lnkcap, f ? f->lnkcap : 0);
}

/* A function's LnkCap is known: the targets of its link's both ends. */
static void mon_caps_known(struct mon_dev *m)
{
	struct mon_dev *f;

	mon_set_targets(m);
	if (m->leader)
		mon_set_targets(m->leader);
	list_for_each_entry(f, &m->followers, link_node)
		mon_set_targets(f);
}

/*
 * Commits one LnkSta read; emits what changed. Returns whether the watched
 * bits changed since the previous value (not on the first).
 */
static bool mon_commit_link(struct mon_dev *m, const struct mon_read *r,
			    u32 source, u64 mono)
{
	u16 old = m->hist.lnksta, val = r->val;
	bool had = m->hist.have_lnksta;

	if (r->skip) {
		mon_stats.skipped[r->skip]++;
		mon_hist_skip(&m->hist, mono, r->skip);
		return false;
	}
	mon_hist_read(&m->hist, mono, mon_real_ns(), val);
	if (!had || !((old ^ val) & LNKSTA_WATCHED))
		return false;
	mon_emit(m, PCIEAUDIT_MON_LINK, source, old);
	return true;
}

static void mon_commit_acs(struct mon_dev *m, const struct mon_read *r)
{
	u16 old = m->acs_ctrl;

	if (r->skip) {
		mon_stats.skipped[r->skip]++;
		return;
	}
	m->acs_ctrl = r->val;
	if (m->have_acs && old != m->acs_ctrl)
		mon_emit(m, PCIEAUDIT_MON_ACS, PCIEAUDIT_MON_SRC_SAMPLER, old);
	m->have_acs = true;
}

/*
 * Followers of a port whose read was committed: read again where the port
 * changed or where they have no value; carried where the port is as it was;
 * not read, for the port's reason, where the port was not read.
 */
static void mon_followers(struct mon_batch *next, struct mon_dev *l,
			  const struct mon_read *r, bool changed, u64 mono,
			  u32 source)
{
	struct mon_dev *f;

	list_for_each_entry(f, &l->followers, link_node) {
		if (r->skip)
			mon_hist_skip(&f->hist, mono, r->skip);
		else if (changed || !f->hist.have_lnksta || f->hist.skip_since)
			mon_batch_add_from(next, f, MON_LNKSTA, source);
		else
			mon_hist_read(&f->hist, mono, mon_real_ns(),
				      f->hist.lnksta);
	}
}

/* The source of a read's events: the tracepoint that named the port, if any. */
static u32 mon_source(struct mon_dev *m)
{
	return m->hint_source ?: PCIEAUDIT_MON_SRC_SAMPLER;
}

/*
 * Commits a step's reads. Where @next is given, the followers of the ports
 * read that must be read next go there.
 */
static void mon_batch_commit(struct mon_batch *b, struct mon_batch *next)
{
	u64 mono = mon_mono_ns();
	struct mon_read *r;
	struct mon_dev *m;
	unsigned int i;
	bool changed;
	u32 source;

	lockdep_assert_held(&mon_lock);
	for (i = 0; i < b->n; i++) {
		r = &b->r[i];
		m = r->m;
		if (m->gone)
			continue;
		switch (r->what) {
		case MON_ACS:
			mon_stats.acs_reads += !r->skip;
			mon_commit_acs(m, r);
			break;
		case MON_LNKCAP:
			/* Read once; a VF's LnkCap may well be 0. */
			if (r->skip)
				break;
			mon_stats.lnkcap_reads++;
			m->lnkcap = r->val;
			m->have_lnkcap = true;
			mon_caps_known(m);
			break;
		case MON_LNKSTA:
			mon_stats.lnksta_reads += !r->skip;
			source = r->source ?: mon_source(m);
			changed = mon_commit_link(m, r, source, mono);
			if (m->hint_source) {
				mon_stats.hints_stale += !changed;
				m->hint_source = 0;
			}
			if (next && !m->leader)
				mon_followers(next, m, r, changed, mono, source);
			break;
		}
	}
}

/*
 * One step: @b's reads, unlocked, then their commit under mon_lock; the
 * followers to read next go into @next where given.
 */
static void mon_step(struct mon_batch *b, struct mon_batch *next)
{
	mon_batch_read(b);
	mutex_lock(&mon_lock);
	mon_batch_commit(b, next);
	mutex_unlock(&mon_lock);
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
 * Marks the ports the queued hints name and adds their reads to @b.
 * Called before any read that may see their change, so the change is the
 * tracepoint's whichever read sees it first.
 */
static void mon_take_hints(struct mon_batch *b)
{
	struct mon_hint hint[MON_HINTS];
	unsigned int i, len;
	unsigned long flags;
	struct mon_dev *m;

	lockdep_assert_held(&mon_lock);
	raw_spin_lock_irqsave(&mon_hints.lock, flags);
	len = mon_hints.len;
	memcpy(hint, mon_hints.hint, len * sizeof(hint[0]));
	mon_hints.len = 0;
	raw_spin_unlock_irqrestore(&mon_hints.lock, flags);

	for (i = 0; i < len; i++) {
		mon_stats.hints++;
		m = hint[i].domain < 0 ? NULL :
		    mon_find_port(hint[i].domain, hint[i].bus, hint[i].devfn);
		if (!m) {
			mon_stats.hints_unmatched++;
			continue;
		}
		if (!m->hint_source && b)
			mon_batch_add(b, m, MON_LNKSTA);
		m->hint_source = hint[i].source;
	}
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

	raw_spin_lock_irqsave(&mon_hints.lock, flags);
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
	raw_spin_unlock_irqrestore(&mon_hints.lock, flags);
	/* queue_work() is safe in any context; the wq exists while probes do. */
	queue_work(mon_wq, &mon_kick_work);
}

/*
 * The tracked port that reports pdev's link: a Root Port or Switch
 * Downstream Port directly above it. NULL where there is none (a port
 * itself, a function on a root bus or below a PCI bridge), or where the
 * port is not tracked: such a function's LnkSta is read every pass.
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

/*
 * Starts tracking pdev, without reading it: its first reads are the
 * work's (mon_pending). NULL when tracked already or memory is short.
 */
static struct mon_dev *mon_track(struct pci_dev *pdev)
{
	struct mon_dev *m;

	lockdep_assert_held(&mon_lock);
	if (mon_find(pdev))
		return NULL;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return NULL;
	m->pdev = pci_dev_get(pdev);
	mon_hist_init(&m->hist, mon_real_ns());
	INIT_LIST_HEAD(&m->link_node);
	INIT_LIST_HEAD(&m->followers);
	if (pci_is_pcie(pdev) && pcieaudit_has_link_regs(pdev)) {
		m->link_pos = pci_pcie_cap(pdev);
		m->leader = mon_leader_of(pdev);
		list_add_tail(&m->link_node,
			      m->leader ? &m->leader->followers : &mon_direct);
	}
	m->acs_pos = pcieaudit_acs_pos(pdev);
	hash_add(mon_table, &m->node, (unsigned long)pdev);
	list_add_tail(&m->work_node, &mon_pending);
	mon_tracked++;
	return m;
}

/* Stops tracking; the work frees the entry once no read of it is in flight. */
static void mon_untrack(struct mon_dev *m)
{
	struct mon_dev *f, *tmp;

	lockdep_assert_held(&mon_lock);
	/*
	 * The kernel removes the functions below a port before the port;
	 * followers left are read every pass until they go.
	 */
	list_for_each_entry_safe(f, tmp, &m->followers, link_node) {
		f->leader = NULL;
		list_move_tail(&f->link_node, &mon_direct);
	}
	list_del_init(&m->link_node);
	hash_del(&m->node);
	spin_lock(&mon_read_lock);
	m->gone = true;
	spin_unlock(&mon_read_lock);
	/* Off mon_pending if its first read never came; onto mon_dead. */
	list_move_tail(&m->work_node, &mon_dead);
	mon_tracked--;
}

/* Frees the removed entries; in the work, between steps, and at exit. */
static void mon_free_dead(void)
{
	struct mon_dev *m, *tmp;
	LIST_HEAD(dead);

	mutex_lock(&mon_lock);
	list_splice_init(&mon_dead, &dead);
	mutex_unlock(&mon_lock);
	list_for_each_entry_safe(m, tmp, &dead, work_node) {
		pci_dev_put(m->pdev);
		kfree(m);
	}
}

static int mon_bus_notify(struct notifier_block *nb, unsigned long action,
			  void *data)
{
	struct pci_dev *pdev = to_pci_dev(data);
	struct mon_dev *m = NULL;

	if (action != BUS_NOTIFY_ADD_DEVICE && action != BUS_NOTIFY_DEL_DEVICE)
		return NOTIFY_DONE;
	mutex_lock(&mon_lock);
	if (mon_stopping)
		goto out;
	if (action == BUS_NOTIFY_ADD_DEVICE) {
		if (mon_track(pdev))
			queue_work(mon_wq, &mon_kick_work);
		goto out;
	}
	m = mon_find(pdev);
	if (!m)
		goto out;
	/* Removed before its first read: it was added all the same. */
	if (!m->announced)
		mon_emit(m, PCIEAUDIT_MON_ADDED, PCIEAUDIT_MON_SRC_BUS_NOTIFIER, 0);
	mon_emit(m, PCIEAUDIT_MON_REMOVED, PCIEAUDIT_MON_SRC_BUS_NOTIFIER, 0);
	mon_untrack(m);
	queue_work(mon_wq, &mon_kick_work);
out:
	mutex_unlock(&mon_lock);
	/* A read of this function in flight ends before device_del() goes on. */
	if (m)
		wait_event(mon_read_wq, READ_ONCE(mon_reading) != m);
	return NOTIFY_OK;
}

static struct notifier_block mon_nb = {
	.notifier_call = mon_bus_notify,
};

/*
 * The first reads of functions added: each one's LnkCap, then the ports
 * above them (whose link came up before the function could appear, so
 * their event comes first), then the functions' own LnkSta and ACS; then
 * the additions are announced.
 */
static void mon_first_reads(void)
{
	struct mon_batch *b = &mon_batch;
	struct mon_dev *m, *tmp;
	LIST_HEAD(fresh);
	unsigned int n;

	mutex_lock(&mon_lock);
	list_splice_init(&mon_pending, &fresh);
	n = 0;
	list_for_each_entry(m, &fresh, work_node)
		n++;
	mutex_unlock(&mon_lock);
	if (!n)
		return;

	/* Entries leave @fresh only for mon_dead, under mon_lock. */
	mon_batch_reserve(b, 4 * n + MON_HINTS);
	mutex_lock(&mon_lock);
	list_for_each_entry(m, &fresh, work_node)
		if (m->link_pos)
			mon_batch_add(b, m, MON_LNKCAP);
	mutex_unlock(&mon_lock);
	mon_step(b, NULL);
	mutex_lock(&mon_lock);
	b->n = 0;
	mon_take_hints(b);
	list_for_each_entry(m, &fresh, work_node)
		if (m->leader && !m->leader->hint_source &&
		    !m->leader->announced_read) {
			m->leader->announced_read = true;
			mon_batch_add(b, m->leader, MON_LNKSTA);
		}
	list_for_each_entry(m, &fresh, work_node)
		if (m->leader)
			m->leader->announced_read = false;
	mutex_unlock(&mon_lock);
	mon_step(b, NULL);
	/* The ports' own events; their followers are the fresh ones below. */
	mutex_lock(&mon_lock);
	b->n = 0;
	list_for_each_entry(m, &fresh, work_node) {
		if (m->link_pos)
			mon_batch_add(b, m, MON_LNKSTA);
		if (m->acs_pos)
			mon_batch_add(b, m, MON_ACS);
	}
	mutex_unlock(&mon_lock);
	mon_step(b, NULL);
	mutex_lock(&mon_lock);
	list_for_each_entry_safe(m, tmp, &fresh, work_node) {
		list_del_init(&m->work_node);
		if (!m->announced)
			mon_emit(m, PCIEAUDIT_MON_ADDED,
				 PCIEAUDIT_MON_SRC_BUS_NOTIFIER, 0);
		m->announced = true;
	}
	/* mon_untrack() moved the removed ones to mon_dead already. */
	mutex_unlock(&mon_lock);
}

/* Reads the ports the queued hints name, outside the sampler's passes. */
static void mon_hinted_reads(void)
{
	struct mon_batch *b = &mon_batch, *next = &mon_next;

	mon_batch_reserve(b, MON_HINTS);
	mon_batch_reserve(next, 64);
	mutex_lock(&mon_lock);
	mon_take_hints(b);
	mutex_unlock(&mon_lock);
	if (!b->n)
		return;
	mon_step(b, next);
	mon_step(next, NULL);
}

static void mon_kick_work_fn(struct work_struct *work)
{
	mon_first_reads();
	mon_hinted_reads();
	mon_free_dead();
}

static unsigned long mon_interval(void)
{
	return msecs_to_jiffies(max(monitor_interval_ms, 10U));
}

static ktime_t mon_acs_interval(void)
{
	return ms_to_ktime(max3(monitor_acs_interval_ms, monitor_interval_ms, 10U));
}

static void mon_count_pass(u64 start_ns, u64 lnksta_before, u64 acs_before)
{
	u64 ns = mon_mono_ns() - start_ns;

	mon_stats.passes++;
	mon_stats.pass_ns += ns;
	mon_stats.last_pass_ns = ns;
	mon_stats.max_pass_ns = max(mon_stats.max_pass_ns, ns);
	mon_stats.last_lnksta_reads = mon_stats.lnksta_reads - lnksta_before;
	mon_stats.last_acs_reads = mon_stats.acs_reads - acs_before;
}

/* One pass: hinted ports and every direct link, the ACS of all where due. */
static void mon_sample_work(struct work_struct *work)
{
	struct mon_batch *b = &mon_batch, *next = &mon_next;
	u64 start = mon_mono_ns(), lnksta_before, acs_before;
	struct mon_dev *m;
	unsigned int bkt, n;
	bool acs;

	mon_first_reads();
	mutex_lock(&mon_lock);
	n = 3 * mon_tracked + MON_HINTS;
	mutex_unlock(&mon_lock);
	mon_batch_reserve(b, n);
	mon_batch_reserve(next, n);

	mutex_lock(&mon_lock);
	lnksta_before = mon_stats.lnksta_reads;
	acs_before = mon_stats.acs_reads;
	acs = ktime_compare(ktime_get(), mon_next_acs) >= 0;
	if (acs)
		mon_next_acs = ktime_add(ktime_get(), mon_acs_interval());
	mon_take_hints(NULL);
	/* LnkCap first where it could not be read yet (suspended, say). */
	hash_for_each(mon_table, bkt, m, node)
		if (m->link_pos && !m->have_lnkcap && list_empty(&m->work_node))
			mon_batch_add(b, m, MON_LNKCAP);
	list_for_each_entry(m, &mon_direct, link_node)
		mon_batch_add(b, m, MON_LNKSTA);
	if (acs)
		hash_for_each(mon_table, bkt, m, node)
			if (m->acs_pos)
				mon_batch_add(b, m, MON_ACS);
	mutex_unlock(&mon_lock);

	mon_step(b, next);
	mon_step(next, NULL);
	mutex_lock(&mon_lock);
	mon_count_pass(start, lnksta_before, acs_before);
	if (!mon_stopping)
		queue_delayed_work(mon_wq, &mon_work, mon_interval());
	mutex_unlock(&mon_lock);
	mon_free_dead();
}

/* debugfs pcieaudit/monitor: the sampler's configuration, table and cost. */
static int mon_stats_show(struct seq_file *s, void *unused)
{
	static const char *const why[] = {
		[PCIEAUDIT_HIST_SKIP_SUSPENDED] = "suspended",
		[PCIEAUDIT_HIST_SKIP_ASPM] = "aspm",
		[PCIEAUDIT_HIST_SKIP_BLOCKED] = "blocked",
		[PCIEAUDIT_HIST_SKIP_UNREADABLE] = "unreadable",
	};
	unsigned int tracked = 0, direct = 0, followers = 0, acs = 0, bkt, i;
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
		   max(monitor_interval_ms, 10U),
		   ktime_to_ms(mon_acs_interval()));
	seq_printf(s, "functions %u\nlink_every_pass %u\nlink_on_change %u\nacs %u\n",
		   tracked, direct, followers, acs);
	seq_printf(s, "passes %llu\npass_ns_total %llu\npass_ns_max %llu\npass_ns_last %llu\n",
		   mon_stats.passes, mon_stats.pass_ns, mon_stats.max_pass_ns,
		   mon_stats.last_pass_ns);
	seq_printf(s, "lnksta_reads %llu\nacs_reads %llu\nlast_lnksta_reads %u\nlast_acs_reads %u\n",
		   mon_stats.lnksta_reads, mon_stats.acs_reads,
		   mon_stats.last_lnksta_reads, mon_stats.last_acs_reads);
	seq_printf(s, "lnkcap_reads %llu\n", mon_stats.lnkcap_reads);
	for (i = 1; i < ARRAY_SIZE(why); i++)
		seq_printf(s, "skipped_%s %llu\n", why[i], mon_stats.skipped[i]);
	pcieaudit_mon_trace_show(s);
	raw_spin_lock_irq(&mon_hints.lock);
	seq_printf(s, "hints_pci_hp_event %llu\nhints_pcie_link_event %llu\nhints_dropped %llu\n",
		   mon_hints.received[PCIEAUDIT_MON_SRC_PCI_HP_EVENT],
		   mon_hints.received[PCIEAUDIT_MON_SRC_PCIE_LINK_EVENT],
		   mon_hints.dropped);
	raw_spin_unlock_irq(&mon_hints.lock);
	seq_printf(s, "hints_taken %llu\nhints_stale %llu\nhints_unmatched %llu\n",
		   mon_stats.hints, mon_stats.hints_stale,
		   mon_stats.hints_unmatched);
	mutex_unlock(&mon_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mon_stats);

/**
 * pcieaudit_monitor_history - a function's link history, brought up to now
 * @pdev: the function
 * @h: filled in
 * @interval_ms: set to the sampling interval
 *
 * Context: may sleep (mon_lock).
 * Return: false where there is none: no monitor, not tracked, or no link
 * registers.
 */
bool pcieaudit_monitor_history(struct pci_dev *pdev, struct mon_history *h,
			       u32 *interval_ms)
{
	struct mon_dev *m;
	bool ret = false;

	if (!monitor_interval_ms)
		return false;
	mutex_lock(&mon_lock);
	m = mon_find(pdev);
	if (m && m->link_pos) {
		mon_hist_settle(&m->hist, mon_mono_ns());
		*h = m->hist;
		*interval_ms = max(monitor_interval_ms, 10U);
		ret = true;
	}
	mutex_unlock(&mon_lock);
	return ret;
}

/**
 * pcieaudit_monitor_init - track every function and start sampling
 *
 * With monitor_interval_ms=0 it does nothing: no notifier, no reference,
 * no read.
 *
 * Context: after the family is registered: events may go out at once.
 * Return: 0 or a negative errno.
 */
int pcieaudit_monitor_init(void)
{
	struct pci_dev *pdev = NULL;
	int ret;

	if (!monitor_interval_ms)
		return 0;
	/* Ordered: entries are freed only between its steps. Freezable. */
	mon_wq = alloc_ordered_workqueue("pcieaudit_mon", WQ_FREEZABLE);
	if (!mon_wq)
		return -ENOMEM;
	/*
	 * First the notifier, then the walk: a function added in between is
	 * seen twice, and mon_track() takes it once. The walk skips functions
	 * the removal fence has seen go, whose removal notice came before
	 * the notifier could take it.
	 */
	ret = bus_register_notifier(&pci_bus_type, &mon_nb);
	if (ret) {
		destroy_workqueue(mon_wq);
		return ret;
	}
	pci_lock_rescan_remove();
	mutex_lock(&mon_lock);
	for_each_pci_dev(pdev) {
		struct mon_dev *m;

		if (!pcieaudit_fence_present(&pdev->dev))
			continue;
		m = mon_track(pdev);
		/* It was there: its first reads announce nothing. */
		if (m)
			m->announced = true;
	}
	mon_next_acs = ktime_add(ktime_get(), mon_acs_interval());
	mutex_unlock(&mon_lock);
	pci_unlock_rescan_remove();
	/* Errors ignored: debugfs is a window on the cost, not a function. */
	mon_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("monitor", 0400, mon_debugfs, NULL, &mon_stats_fops);
	/* The first reads, in the work, before a report can ask. */
	queue_work(mon_wq, &mon_kick_work);
	flush_work(&mon_kick_work);
	pcieaudit_mon_trace_attach();
	queue_delayed_work(mon_wq, &mon_work, mon_interval());
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

	if (!mon_wq)
		return;
	debugfs_remove_recursive(mon_debugfs);
	bus_unregister_notifier(&pci_bus_type, &mon_nb);
	/* No probe runs after this, so nothing queues work again. */
	pcieaudit_mon_trace_detach();
	mutex_lock(&mon_lock);
	mon_stopping = true;
	mutex_unlock(&mon_lock);
	cancel_delayed_work_sync(&mon_work);
	destroy_workqueue(mon_wq);
	mutex_lock(&mon_lock);
	hash_for_each_safe(mon_table, bkt, tmp, m, node)
		mon_untrack(m);
	mutex_unlock(&mon_lock);
	mon_free_dead();
	kvfree(mon_batch.r);
	kvfree(mon_next.r);
}
