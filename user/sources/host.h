/* SPDX-License-Identifier: GPL-2.0 */
/* Host facts from the text of /proc and /sys files. Pure: no I/O. */
#ifndef PA_HOST_H
#define PA_HOST_H

/* Nodes in a sysfs node list such as "0-1,4\n" (3); -1 when malformed. */
int pa_node_list_count(const char *text);

#include "model.h"

/* The value of "key<blanks>: value" (cpuinfo's lines) if line starts with
 * key, its blanks skipped; NULL otherwise. */
const char *pa_text_field(const char *line, const char *key);

/*
 * The vendor_id, cpu family and hypervisor flag of the first processor in
 * /proc/cpuinfo text, into host's cpu_vendor (strdup()ed), cpu_family and
 * hypervisor; what is absent stays as it was. Returns 0 or -ENOMEM.
 */
int pa_cpuinfo_parse(const char *text, struct pa_host *host);

#endif /* PA_HOST_H */
