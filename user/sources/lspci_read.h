/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reads behind --lspci: a file of `lspci -xxxx` output (a bug report,
 * a mail, an nvidia-bug-report log, gzipped or not), or a sosreport
 * directory (its binary proc/bus/pci configuration space, lspci -nnvv's
 * and -tv's text under sos_commands/pci, and proc/cmdline, each file
 * gzipped or not). Thin: files in,
 * bytes out; the hex goes through libpci's dump reader, as `lspci -F`
 * reads it, and lspci_model.c makes the report.
 */
#ifndef PA_LSPCI_READ_H
#define PA_LSPCI_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "lspci_tree.h"
#include "nvsmi_text.h"
#include "sysfs_model.h"

/* The biggest file read: nvidia-bug-report logs run to tens of MiB. */
#define PA_LSPCI_MAX (256u << 20)

/* What the input showed besides configuration space. */
struct pa_lspci_extra {
	char *cmdline;		/* a sosreport's proc/cmdline, or NULL */
	/* A sosreport's uname -a release (sos_commands/kernel/uname_-a), or
	 * NULL. */
	char *kernel_release;
	/* A sosreport's proc/interrupts and kernel log (sos_commands/kernel/
	 * dmesg), for interrupt remapping; NULL when absent. */
	char *interrupts, *dmesg;
	bool drivers_known;	/* lspci -v's text came along */
	/* No hex: configuration space rebuilt from lspci -vv's text
	 * (lspci_vvv.h). */
	bool from_text;
	bool iommu_known;	/* lspci -v named IOMMU groups */
	struct pa_lspci_tree tree;	/* lspci -t's drawing, if the file has one */
	/* nvidia-smi -q's framebuffer sizes (an nvidia-bug-report log);
	 * pa_nvsmi_clear() frees them. */
	struct pa_nvsmi gpus;
	/* A sosreport's lspci -v file read ("sos_commands/pci/lspci_-nnvv"),
	 * or NULL: static, not freed. */
	const char *text;
	/* Where that text and proc/bus/pci disagree, each function named;
	 * pa_warnings_clear() frees them. */
	struct pa_warnings warnings;
};

/*
 * Fills s with one entry per function: name (the BDF), config, and where
 * lspci -v printed them its driver, NUMA node and IOMMU group; the rest
 * stays NULL: unknown. A sosreport's lspci -v text is held against its
 * configuration space: where they show different ids, or one a function
 * the other lacks, the configuration space wins, the function's facts
 * stay unknown (driver_unknown) and extra->warnings names it. Any file may be gzip (nvidia-bug-report.log.gz):
 * told by its magic bytes. Returns 0, -ENOENT when path holds no function
 * at all, -EFBIG, -EINVAL when libpci rejects the dump, -EBADMSG for gzip
 * data that is corrupt or cut short, or another negative errno; *what
 * then names the file (and, for -EBADMSG, what zlib found).
 */
int pa_lspci_read(const char *path, struct pa_sysfs *s,
		  struct pa_lspci_extra *extra, char *what, size_t whatlen);

#endif /* PA_LSPCI_READ_H */
