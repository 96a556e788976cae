/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report without the module: what sysfs and raw configuration space
 * show of each function, turned into the same model the module's answers
 * fill. Pure: sysread.c reads the files, this only parses their text.
 *
 * What sysfs cannot show stays unknown: the attached IOMMU domain (only
 * the group's default type is there), the ACS control at boot, and the
 * kernel's P2P verdict.
 */
#ifndef PA_SYSFS_MODEL_H
#define PA_SYSFS_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

enum pa_sysfs_attr {
	PA_ATTR_VENDOR,
	PA_ATTR_DEVICE,
	PA_ATTR_CLASS,
	PA_ATTR_SUBSYS_VENDOR,
	PA_ATTR_SUBSYS_DEVICE,
	PA_ATTR_REVISION,
	PA_ATTR_NUMA_NODE,
	PA_NATTRS
};

/* The attribute files' names, as sysfs spells them. */
extern const char *const pa_sysfs_attr_names[PA_NATTRS];

/*
 * One BAR as the kernel placed it: a line of sysfs's resource file, or
 * what lspci -v printed of it (from that file, where lspci read sysfs).
 * The kernel's answer, where the source has it, wins over the BAR
 * registers: a VF's read 0 (SR-IOV: its BARs are the PF's VF BARs plus
 * the VF's share), and only the kernel says where it put them.
 */
struct pa_sysfs_bar {
	uint64_t size;		/* 0: none */
	/* IORESOURCE_UNSET; lspci's <unassigned> or <ignored> */
	bool unassigned;
	bool has_start;		/* false: the source gave no place */
	uint64_t start;
	/* PCIEAUDIT_BAR_F_IO, _MEM, _PREFETCH, _MEM64 as the kernel's
	 * resource (or lspci's "(64-bit, prefetchable)") says; 0 when the
	 * source gave no type: the registers' then. */
	uint32_t flags;
};

/*
 * The six BARs of a resource file's text ("0x%016llx 0x%016llx 0x%016llx"
 * a line, drivers/pci/pci-sysfs.c resource_show()): sizes, starts and
 * types. False, out undefined, when a line of the six is missing or
 * malformed.
 */
bool pa_sysfs_resource_bars(const char *text, struct pa_sysfs_bar *out);

/* One function's files; every string is NULL when the file was absent. */
struct pa_sysfs_dev {
	char *name;		/* the directory's name: the BDF */
	char *path;		/* below /sys/devices: "pci0000:00/0000:00:01.0/..." */
	uint8_t *config;
	size_t config_len;
	char *attrs[PA_NATTRS];
	char *driver;		/* bound driver's name */
	char *physfn;		/* a VF's PF, as a BDF */
	char *iommu_group;	/* the group's number */
	char *iommu_type;	/* the group's default domain type: "DMA-FQ" */
	/* BAR sizes as the source gives them: lspci -v's "[size=]" (lspci
	 * never prints them for a dump, -F), set here with bar_sizes_known;
	 * or sysfs's resource file, as text. Without either they are unknown:
	 * configuration space holds a BAR's type, not its size. */
	bool bar_sizes_known;
	struct pa_sysfs_bar bar_size[PA_MAX_BARS];
	char *resource;
	/* For VFIO: reset_method (5.15+), whether "reset" exists (-1: the
	 * source cannot tell), sriov_numvfs. */
	char *reset_method;
	int reset_file;
	char *sriov_numvfs;
	/* The source cannot tell this function's driver (a sosreport whose
	 * lspci -v text lacks it, or shows another device there). */
	bool driver_unknown;
	/* Not in the input: a bridge lspci -t drew above a function that is
	 * (lspci_tree.c). No config; its bus range is the drawing's. */
	bool placeholder;
	uint8_t secondary, subordinate;
	/* Rebuilt from lspci text (lspci_vvv.h) whose capabilities lspci did
	 * not print: "<access denied>", or -v without -vv's registers. */
	bool caps_hidden;
	/* Rebuilt from names this host's pci.ids does not tell apart: the
	 * vendor and device ids are not the function's. */
	bool ids_unknown;
	bool class_unknown;	/* likewise its class code */
};

struct pa_sysfs {
	struct pa_sysfs_dev *devs;
	size_t n;
	char *kernel_release;	/* NULL when not the running host */
	/* A copy that holds neither kernel/iommu_groups nor any function's
	 * iommu_group link cannot tell "no IOMMU" from "not copied". */
	bool iommu_unknown;
};

void pa_sysfs_clear(struct pa_sysfs *s);

/*
 * Info, devices and groups, sorted; no P2P pairs and no host facts.
 * Entries whose name is not a BDF are skipped. 0 or -ENOMEM.
 */
int pa_sysfs_model(const struct pa_sysfs *s, struct pa_report *rep);

/*
 * The IOMMU's invalidation policy from the default domains' types the
 * report holds (sysfs's): DMA-FQ is lazy; DMA is strict only on a kernel
 * that has DMA-FQ. Leaves rep->info.iommu_strict alone when no function
 * has a translated default domain.
 */
void pa_derive_iommu_strict(struct pa_report *rep);

#endif /* PA_SYSFS_MODEL_H */
