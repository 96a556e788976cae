/* SPDX-License-Identifier: GPL-2.0 */
/*
 * AMD XGMI links from the kernel's KFD topology:
 * ROOT/class/kfd/kfd/topology/nodes/N/{properties,gpu_id,io_links/M/properties}.
 */
#ifndef PA_KFD_H
#define PA_KFD_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric.h"

/* io_link type of the kernel's CRAT table (kfd_crat.h). */
#define PA_KFD_IOLINK_XGMI	11

/* The value of "key value" lines in a KFD properties file; false when the
 * key is absent or its value not a number. Pure. */
bool pa_kfd_prop(const char *text, const char *key, uint64_t *value);

/*
 * Reads the XGMI links between GPU nodes below root (a sysfs mount or a
 * fixture holding class/kfd/...) into f, each GPU's memory (its
 * mem_banks' size_in_bytes) into f->mems, and f->kfd's state: ABSENT
 * without a KFD topology (amdgpu not loaded, or not an AMD host), READ
 * otherwise, FAILED when a node cannot be read. Returns 0 or -ENOMEM.
 */
int pa_kfd_read(const char *root, struct pa_fabric *f);

#endif /* PA_KFD_H */
