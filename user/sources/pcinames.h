/* SPDX-License-Identifier: GPL-2.0 */
/* Vendor, device and class names from the PCI ID database, via libpci. */
#ifndef PA_PCINAMES_H
#define PA_PCINAMES_H

#include <stddef.h>

#include "model.h"

/*
 * Sets vendor_name, device_name and class_name of each device. A name the
 * database lacks, or a database that cannot be read, leaves it NULL.
 */
void pa_names_fill(struct pa_device *devices, size_t count);

#endif /* PA_PCINAMES_H */
