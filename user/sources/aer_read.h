/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The only reads of AER counters: sysfs's aer_dev_* and
 * aer_rootport_total_err_* files of each PCIe function. Thin: files in,
 * aer.c parses.
 */
#ifndef PA_AER_READ_H
#define PA_AER_READ_H

#include "model.h"

/*
 * Fills dev->aer for every PCIe function of rep from root: a sysfs mount
 * (root/bus/pci/devices/<bdf>/) or a fixture (root/devices/<bdf>/). What
 * cannot be read is marked unknown with the reason; conventional PCI
 * functions stay PA_AER_NOT_READ. Never fails.
 */
void pa_aer_read(const char *root, struct pa_report *rep);

#endif /* PA_AER_READ_H */
