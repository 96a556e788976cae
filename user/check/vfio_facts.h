/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The VFIO facts check's vfio rules and vfio-plan share, judged from the
 * report and the kernel command line: interrupt remapping, a function's
 * reset methods, SR-IOV's need for ARI, a BAR's placement, vfio-pci.ids=.
 * Pure.
 */
#ifndef PA_VFIO_FACTS_H
#define PA_VFIO_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "check.h"

struct pa_vfio_intremap {
	uint32_t state;			/* enum pa_intremap */
	const char *how;		/* the evidence, or why unknown */
	const struct pa_param *off;	/* intremap=off or nointremap */
	uint32_t allow_unsafe;		/* enum pa_intremap */
	char buf[160];
};

/* The host's interrupt remapping: what the source read, else the kernel
 * command line's intremap=off. */
void pa_vfio_intremap_state(const struct pa_check *c,
			    struct pa_vfio_intremap *ir);

enum pa_vfio_reset_kind {
	PA_VFIO_RESET_UNKNOWN,
	PA_VFIO_RESET_OK,		/* FLR, PM, AF, device-specific, ACPI */
	PA_VFIO_RESET_BUS,		/* a bus reset of its group's alone */
	PA_VFIO_RESET_BUS_SHARED,	/* a bus reset others outside share */
	PA_VFIO_RESET_NONE,
};

struct pa_vfio_reset {
	enum pa_vfio_reset_kind kind;
	char methods[96];		/* "flr bus", or how it was derived */
	struct pa_addr_list sharing;	/* BUS_SHARED: the others */
};

/* 0 or -ENOMEM; r->sharing is the caller's to clear. */
int pa_vfio_reset_of(const struct pa_report *rep, const struct pa_device *d,
		     struct pa_vfio_reset *r);

/* Whether d's VFs reach past device 0's functions, so that the port above
 * needs ARI Forwarding; *last is the last VF's bus << 8 | devfn offset. */
bool pa_vfio_sriov_needs_ari(const struct pa_device *d, unsigned int *last);

/* Large: at least this much is a prefetchable BAR that wants 64-bit space. */
#define PA_VFIO_LARGE_BAR	(256ull << 20)

enum pa_vfio_bar_place {
	PA_VFIO_BAR_SMALL,		/* not a large 64-bit prefetchable BAR */
	PA_VFIO_BAR_ABOVE,
	PA_VFIO_BAR_BELOW,
	PA_VFIO_BAR_FAILED,		/* unassigned */
	PA_VFIO_BAR_UNKNOWN,		/* large, place not in the input */
};

enum pa_vfio_bar_place pa_vfio_bar_place(const struct pa_bar *b);

#define PA_VFIO_MAX_IDS 64

/* vfio-pci.ids= and the vfio_pci module's ids: vendor:device[:subvendor
 * [:subdevice]], 0xffffffff any. */
struct pa_vfio_ids {
	bool known;			/* the command line was in the input */
	size_t n;
	struct pa_vfio_id {
		uint32_t vendor, device, subvendor, subdevice;
	} id[PA_VFIO_MAX_IDS];
	const char *text;		/* the parameter as written */
	char *owned;			/* text, when built here */
};

int pa_vfio_ids_get(const struct pa_check *c, struct pa_vfio_ids *ids);
bool pa_vfio_ids_match(const struct pa_vfio_ids *ids,
		       const struct pa_device *d);
void pa_vfio_ids_clear(struct pa_vfio_ids *ids);

/* vfio.interrupt-remapping and the rest of check_vfio_host.c, from
 * pa_check_vfio() once an IOMMU is known to be on. */
void pa_check_vfio_host(struct pa_check *c);

#endif /* PA_VFIO_FACTS_H */
