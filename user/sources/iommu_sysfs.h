/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IOMMU facts only the kernel's sysfs ABI has, added to a report the
 * module gave: the module may not read default domains or IOMMU instances
 * (private IOMMU core state), sysfs shows both.
 */
#ifndef PA_IOMMU_SYSFS_H
#define PA_IOMMU_SYSFS_H

#include "model.h"

/*
 * For each function in an IOMMU group whose default domain the report lacks:
 * root/kernel/iommu_groups/N/type (source "kernel"), read once a group; for
 * each lacking an instance: the instance whose root/class/iommu/NAME/devices
 * lists it, or without that folder the name root/bus/pci/devices/BDF/iommu
 * links to. What cannot be read stays unknown. Then the IOMMU's strictness,
 * if the report lacks it, from those types. Returns 0 or -ENOMEM.
 */
int pa_iommu_sysfs_fill(const char *root, struct pa_report *rep);

#endif /* PA_IOMMU_SYSFS_H */
