/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's pci_hp_event and pcie_link_event tracepoints, where it has them. */
#ifndef _PCIEAUDIT_MON_TRACE_H
#define _PCIEAUDIT_MON_TRACE_H

struct seq_file;

void pcieaudit_mon_trace_attach(void);
void pcieaudit_mon_trace_detach(void);
void pcieaudit_mon_trace_show(struct seq_file *s);

#endif /* _PCIEAUDIT_MON_TRACE_H */
