/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The only reads of /sys and /proc: PCI functions for the no-module mode
 * and the host facts check needs. Thin: files in, text out; parsing is in
 * sysfs_model.c and host.c.
 */
#ifndef PA_SYSREAD_H
#define PA_SYSREAD_H

#include <stddef.h>

#include "model.h"
#include "sysfs_model.h"

/*
 * Reads every PCI function below root, in either layout:
 *   - a sysfs mount: root/bus/pci/devices/<bdf>, links into root/devices,
 *     with driver, physfn and iommu_group as links;
 *   - a fixture: root/devices/<bdf>/ holding the same attribute files, a
 *     sysfs_path file (the path below /sys/devices) and driver, physfn and
 *     iommu_group as links or as files holding the name.
 * The kernel release is read only when root is the running host's /sys.
 * Returns 0, -ENOENT when root holds neither layout, -EACCES when
 * configuration space reads stop at 64 bytes (unprivileged), -ENODATA
 * when a copy's config file is missing or shorter than 256 bytes, or another
 * negative errno; *what then names the file.
 */
int pa_sysfs_read(const char *root, struct pa_sysfs *s, char *what,
		  size_t whatlen);

/*
 * Host facts: the kernel command line, the first CPU's vendor, family and
 * hypervisor flag, the online NUMA nodes, and the ACPI table describing an
 * IOMMU (root/firmware/acpi/tables, where present). For the running host (root "/sys") from
 * /proc/cmdline, /proc/cpuinfo and /sys/devices/system/node/online; for a
 * copy, from root/cmdline, root/cpuinfo and root/devices/system/node/online
 * (or root/node_online) where present. What cannot be read stays unknown.
 * Returns 0 or -ENOMEM.
 */
int pa_host_read(const char *root, struct pa_host *host);

/*
 * The VFIO facts sysfs and configuration space give that the module does
 * not (reset methods, SR-IOV, DevCap2, BAR places) onto rep's devices,
 * for a report the module answered. What cannot be read stays unknown.
 * 0 or -ENOMEM.
 */
int pa_passthru_read(const char *root, struct pa_report *rep);

/* Whether root is the running host's /sys. */
bool pa_sysfs_is_live(const char *root);

#endif /* PA_SYSREAD_H */
