/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host's fabric in NCCL's topology file format (NCCL_TOPO_FILE), as
 * NCCL's src/graph/xml.cc builds it from sysfs: CPUs by NUMA node, PCI
 * switches, GPUs and NICs, link speeds and widths, NVLinks. For VFIO
 * guests, which see a flat fake topology, and to check what NCCL sees.
 */
#ifndef PA_NCCL_XML_H
#define PA_NCCL_XML_H

#include <stdio.h>

#include "model.h"
#include "nccl_host.h"

/*
 * Writes the file. A device's NCCL parent is the bridge two levels up (a
 * switch's upstream port; root and downstream ports are not nodes), or
 * the CPU of its NUMA node when the chain ends. link_speed is the lower
 * of the device's and its upstream port's maximum, link_width likewise;
 * where there is no upstream port (a device on a root bus) NCCL writes
 * width 0 and reads it as 16, this writes the device's own. Returns 0 or
 * -EIO.
 */
int pa_nccl_xml(FILE *f, const struct pa_report *rep,
		const struct pa_nccl_host *h);

#endif /* PA_NCCL_XML_H */
