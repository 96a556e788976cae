// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own link notifications, where the kernel has them: the
 * pci_hp_event tracepoint (pciehp: link up or down, card present or not)
 * and pcie_link_event (bwctrl's interrupt, link retraining, a new bus),
 * both in include/trace/events/pci.h since after v6.12. A probe only names
 * the port to monitor.c, which reads its LnkSta at once and says that the
 * tracepoint prompted the read; the sampler stays the source of record.
 *
 * Neither tracepoint is exported to modules (no EXPORT_TRACEPOINT_SYMBOL),
 * so they are found by name with for_each_kernel_tracepoint() and attached
 * with tracepoint_probe_register(), both EXPORT_SYMBOL_GPL on every
 * supported kernel and the interface out-of-tree tracers use. The probes'
 * prototypes are the tracepoints' TP_PROTO; the header's
 * check_trace_callback_type_*() makes the compiler hold them to the headers
 * of the kernel this module is built for, which is the only kernel that
 * loads it. Both tracepoints are in vmlinux (drivers/pci/trace.c), so they
 * outlive the module.
 *
 * Context: the probes run where the tracepoints fire, bwctrl's hard
 * interrupt handler included: they take no sleeping lock and allocate
 * nothing (pcieaudit_monitor_hint()).
 */
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "mon_trace.h"
#include "monitor.h"

#if defined(CONFIG_TRACEPOINTS) && \
	(defined(PCIEAUDIT_HAVE_TP_PCI_HP_EVENT) || \
	 defined(PCIEAUDIT_HAVE_TP_PCIE_LINK_EVENT))
#include <trace/events/pci.h>

struct mon_tp {
	const char *name;
	void *probe;
	u32 source;
	struct tracepoint *tp;
	int err;			/* tracepoint_probe_register()'s */
	bool attached;
};

#ifdef PCIEAUDIT_HAVE_TP_PCI_HP_EVENT
/* pciehp passes pci_name() of the port: "DDDD:BB:DD.F". */
static void mon_trace_hp(void *data, const char *port_name, const char *slot,
			 const int event)
{
	unsigned int domain, bus, dev, fn;

	if (port_name && sscanf(port_name, "%x:%x:%x.%x", &domain, &bus, &dev,
				&fn) == 4 && bus < 256 && dev < 32 && fn < 8)
		pcieaudit_monitor_hint(domain, bus, PCI_DEVFN(dev, fn),
				       PCIEAUDIT_MON_SRC_PCI_HP_EVENT);
	else
		pcieaudit_monitor_hint(-1, 0, 0, PCIEAUDIT_MON_SRC_PCI_HP_EVENT);
}
#endif

#ifdef PCIEAUDIT_HAVE_TP_PCIE_LINK_EVENT
static void mon_trace_link(void *data, struct pci_bus *bus,
			   unsigned int reason, unsigned int width,
			   unsigned int status)
{
	struct pci_dev *port = bus ? bus->self : NULL;

	if (port)
		pcieaudit_monitor_hint(pci_domain_nr(port->bus),
				       port->bus->number, port->devfn,
				       PCIEAUDIT_MON_SRC_PCIE_LINK_EVENT);
	else
		pcieaudit_monitor_hint(-1, 0, 0,
				       PCIEAUDIT_MON_SRC_PCIE_LINK_EVENT);
}
#endif

static struct mon_tp mon_tps[] = {
#ifdef PCIEAUDIT_HAVE_TP_PCI_HP_EVENT
	{ "pci_hp_event", mon_trace_hp, PCIEAUDIT_MON_SRC_PCI_HP_EVENT },
#endif
#ifdef PCIEAUDIT_HAVE_TP_PCIE_LINK_EVENT
	{ "pcie_link_event", mon_trace_link, PCIEAUDIT_MON_SRC_PCIE_LINK_EVENT },
#endif
};

static void mon_trace_find(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mon_tps); i++)
		if (!mon_tps[i].tp && !strcmp(tp->name, mon_tps[i].name))
			mon_tps[i].tp = tp;
}

/**
 * pcieaudit_mon_trace_attach - attach to the tracepoints the kernel has
 *
 * A tracepoint that is missing, or that refuses the probe, leaves the
 * sampler alone to see its changes; debugfs says which.
 */
void pcieaudit_mon_trace_attach(void)
{
	unsigned int i;

	/* The compiler's check that the probes fit this kernel's TP_PROTO. */
#ifdef PCIEAUDIT_HAVE_TP_PCI_HP_EVENT
	check_trace_callback_type_pci_hp_event(mon_trace_hp);
#endif
#ifdef PCIEAUDIT_HAVE_TP_PCIE_LINK_EVENT
	check_trace_callback_type_pcie_link_event(mon_trace_link);
#endif

	for_each_kernel_tracepoint(mon_trace_find, NULL);
	for (i = 0; i < ARRAY_SIZE(mon_tps); i++) {
		struct mon_tp *t = &mon_tps[i];

		if (!t->tp)
			continue;
		t->err = tracepoint_probe_register(t->tp, t->probe, NULL);
		t->attached = !t->err;
	}
}

/**
 * pcieaudit_mon_trace_detach - detach every probe and wait for running ones
 *
 * Context: may sleep. After it returns no probe runs, so no new hint comes.
 */
void pcieaudit_mon_trace_detach(void)
{
	bool any = false;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mon_tps); i++) {
		struct mon_tp *t = &mon_tps[i];

		if (!t->attached)
			continue;
		tracepoint_probe_unregister(t->tp, t->probe, NULL);
		t->attached = false;
		any = true;
	}
	if (any)
		tracepoint_synchronize_unregister();
}

/**
 * pcieaudit_mon_trace_show - each tracepoint's state, for debugfs
 * @s: the seq_file
 */
void pcieaudit_mon_trace_show(struct seq_file *s)
{
	unsigned int i;

#ifndef PCIEAUDIT_HAVE_TP_PCI_HP_EVENT
	seq_puts(s, "trace_pci_hp_event absent\n");
#endif
#ifndef PCIEAUDIT_HAVE_TP_PCIE_LINK_EVENT
	seq_puts(s, "trace_pcie_link_event absent\n");
#endif
	for (i = 0; i < ARRAY_SIZE(mon_tps); i++) {
		const struct mon_tp *t = &mon_tps[i];

		if (t->attached)
			seq_printf(s, "trace_%s attached\n", t->name);
		else if (t->err)
			seq_printf(s, "trace_%s refused %d\n", t->name, t->err);
		else
			seq_printf(s, "trace_%s %s\n", t->name,
				   t->tp ? "detached" : "absent");
	}
}

#else /* no such tracepoints in this kernel's headers */

void pcieaudit_mon_trace_attach(void)
{
}

void pcieaudit_mon_trace_detach(void)
{
}

void pcieaudit_mon_trace_show(struct seq_file *s)
{
	seq_puts(s, "trace_pci_hp_event absent\ntrace_pcie_link_event absent\n");
}

#endif
