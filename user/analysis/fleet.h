/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fleet: many hosts' reports, one at a time, grouped by kind; per group the
 * majority configuration and every host that differs from it. Pure, and
 * streaming: a report is compared with its group's first host as it is
 * added and only the differences are kept, so memory holds the groups'
 * slots and those differences, never the reports.
 */
#ifndef PA_FLEET_H
#define PA_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* What is compared at each slot path (slot.h); the IOMMU at slot 0, the
 * host's own. */
enum pa_fleet_attr {
	PA_FLEET_MODEL,		/* vendor << 40 | device << 24 | class */
	PA_FLEET_LINK,		/* 0x10000 | LnkSta bits 9:0, of the function
				 * that reports the link; 0: none */
	PA_FLEET_ACS,		/* 0x10000 | ACS control; 0: no ACS */
	PA_FLEET_IOMMU,		/* 0x10 | enum pcieaudit_iommu_mode; 2 off */
	PA_FLEET_NATTRS
};

/* MODEL: no function at that slot. */
#define PA_FLEET_ABSENT UINT64_MAX
/* LINK, ACS, IOMMU: the source could not read it. */
#define PA_FLEET_UNKNOWN 1

struct pa_fleet_slot {
	char *path;			/* "host" for slot 0 */
	uint64_t first[PA_FLEET_NATTRS];	/* the group's first host */
	uint64_t major[PA_FLEET_NATTRS];	/* pa_fleet_finish()'s */
	uint32_t stamp;
};

/* A host's value where it is not its group's first host's; after
 * pa_fleet_finish(), where it is not the majority's. */
struct pa_fleet_diff {
	uint32_t host;			/* index into pa_fleet.names */
	uint32_t slot;
	uint32_t attr;			/* enum pa_fleet_attr */
	bool folded;			/* a missing or extra function below or
					 * beside another one: that one speaks */
	uint64_t value;
};

struct pa_fleet_group {
	uint64_t fingerprint;
	uint32_t *hosts;
	size_t nhosts, caphosts;
	struct pa_fleet_slot *slots;
	size_t nslots, capslots;
	uint32_t *table;		/* open addressing: slot + 1 */
	size_t tabsize;
	struct pa_fleet_diff *diffs;
	size_t ndiffs, capdiffs;
	/* After pa_fleet_finish(): by host, then slot. */
	struct pa_fleet_diff *out;
	size_t nout;
	size_t noutliers;		/* hosts with a difference */
};

struct pa_fleet {
	char **names;
	size_t nhosts, capnames;
	struct pa_fleet_group *groups;
	size_t ngroups, capgroups;
	uint32_t serial;
};

/* Adds a host's report under name (copied); 0 or -ENOMEM. */
int pa_fleet_add(struct pa_fleet *f, const char *name,
		 const struct pa_report *rep);

/* Each group's majority and who differs from it; 0 or -ENOMEM. */
int pa_fleet_finish(struct pa_fleet *f);

void pa_fleet_clear(struct pa_fleet *f);

#endif /* PA_FLEET_H */
