/* SPDX-License-Identifier: GPL-2.0 */
/* Vendor, device and class names from the PCI ID database, via libpci. */
#ifndef PA_PCINAMES_H
#define PA_PCINAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/*
 * The other way, for lspci text printed without -n: ids from lspci's
 * names as this host's pci.ids spells them ("NVIDIA Corporation GA102GL
 * [RTX A6000]", "Device 1234:0001", "VGA compatible controller", "Class
 * 0c80"). A name this database lacks (a newer pci.ids, udev's hwdb) gives
 * false: the ids stay unknown. The two lookups match struct
 * pa_vvv_names; arg is what pa_names_rev_open() returned. pci.ids is
 * read on the first lookup and kept for the process.
 */
struct pa_names_rev;
struct pa_names_rev *pa_names_rev_open(void);
bool pa_names_rev_ids(void *arg, const char *names, uint16_t *vendor,
		      uint16_t *device);
bool pa_names_rev_class(void *arg, const char *name, uint16_t *class);
void pa_names_rev_close(struct pa_names_rev *r);

#endif /* PA_PCINAMES_H */
