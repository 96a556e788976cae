/* SPDX-License-Identifier: GPL-2.0 */
/* Vendor, device and class names from the PCI ID database, via libpci. */
#ifndef PA_PCINAMES_H
#define PA_PCINAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

/*
 * Sets vendor_name and device_name of each device, and class_name when
 * classes is true. A name the database lacks, or a database that cannot be
 * read, leaves it NULL. libpci reads only the lines of pci.ids that name
 * these devices; the udev hwdb answers what pci.ids lacks, as before.
 */
void pa_names_fill(struct pa_device *devices, size_t count, bool classes);

/*
 * Whether the udev hwdb is there. Without one, pa_names_fill() tells
 * libpci not to ask it: libpci would ask for every name pci.ids lacks and
 * leak a udev context each time (containers, chroots).
 */
bool pa_names_hwdb_present(void);

#endif /* PA_PCINAMES_H */
