/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What VFIO passthrough needs beyond isolation, from the text of sysfs
 * and /proc files and configuration space: a function's reset methods,
 * SR-IOV resources and Device Control 2; the host's interrupt remapping.
 * Pure: no I/O.
 */
#ifndef PA_PASSTHRU_H
#define PA_PASSTHRU_H

#include "config_space.h"
#include "model.h"

/* The kernel's resource for one VF BAR: sysfs resource's lines 7-12, or
 * the module's. */
struct pa_vf_res {
	bool sized;		/* a memory range of some size */
	bool unset;		/* which the kernel could not place */
};

/*
 * pt's registers and SR-IOV facts (its reset left unknown) from c's
 * reset and SR-IOV registers, the kernel's VF BAR resources (vf_res[6];
 * NULL: the source has none) and the VFs it enabled (-1 unknown).
 */
void pa_passthru_set(const struct pa_config *c, const struct pa_vf_res *vf_res,
		     int num_vfs, struct pa_passthru *pt);

/* pt's reset: sysfs reset_method (NULL: absent) and whether "reset"
 * exists (-1 unknown), which reset_method implies. 0 or -ENOMEM. */
int pa_passthru_reset(const char *reset_method, int reset_file,
		      struct pa_passthru *pt);

/*
 * pa_passthru_set() and pa_passthru_reset() from configuration space, sysfs's resource file (NULL: the source
 * has none), reset_method (NULL: absent), whether "reset" exists (-1
 * unknown) and sriov_numvfs (NULL: absent). 0 or -ENOMEM.
 */
int pa_passthru_fill(const struct pa_config *c, const char *resource,
		     const char *reset_method, int reset_file,
		     const char *numvfs, struct pa_passthru *pt);

/* Interrupt remapping from /proc/interrupts text: an "IR-" chip says on;
 * MSI or IO-APIC chips without one say off; neither tells nothing. Sets
 * host->intremap and intremap_how; 0 or -ENOMEM. */
int pa_intremap_from_interrupts(const char *text, struct pa_host *host);

/* From kernel log text (dmesg): the VT-d and AMD-Vi lines that say
 * interrupt remapping is enabled, or that it is disabled. Leaves host
 * alone where no line says. 0 or -ENOMEM. */
int pa_intremap_from_dmesg(const char *text, struct pa_host *host);

/* A bool module parameter's text ("Y\n", "N\n"): PA_INTREMAP_ON, _OFF,
 * or 0 when NULL or neither. */
uint32_t pa_bool_param(const char *text);

#endif /* PA_PASSTHRU_H */
