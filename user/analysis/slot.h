/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a function sits, whatever its bus number: its slot path, the
 * device.function numbers from the host bridge down as sysfs nests them
 * ("pci0000:00/01.0/00.0"). Bus numbers shift when a device before them
 * vanishes; the path does not. And the matching of one report's functions
 * to another's by slot path, vendor, device and class, with the functions
 * that moved told apart from the missing and the extra. Pure.
 */
#ifndef PA_SLOT_H
#define PA_SLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

/* Room for a slot path of any depth PCIe allows (a root bus, 32 hops). */
#define PA_SLOT_PATH_LEN 200

/* The slot path of every function of rep, in its order; a virtual
 * function's is NULL (their number is the driver's setting, not the
 * hardware's). 0 or -ENOMEM; pa_slot_paths_free() frees it. */
int pa_slot_paths(const struct pa_report *rep, char ***paths);
void pa_slot_paths_free(char **paths, size_t n);

/* How a golden function was found on the other report. */
enum pa_slot_how {
	PA_SLOT_SKIPPED,	/* a virtual function: not compared */
	PA_SLOT_MISSING,	/* not there */
	PA_SLOT_SAME,		/* same slot path, vendor, device, class */
	PA_SLOT_MOVED,		/* the same model at another slot path */
	PA_SLOT_MOVED_ALONG,	/* moved with the function above it, or with
				 * its device's function 0 */
};

struct pa_slot_match {
	size_t ng, nc;
	char **gpath, **cpath;
	long *g2c;		/* index into the other report, or -1 */
	long *c2g;
	enum pa_slot_how *how;	/* per golden function */
	size_t compared;	/* golden functions not skipped */
	size_t found;		/* SAME, MOVED or MOVED_ALONG */
};

/*
 * Matches golden's functions to cur's: first by slot path and model (a
 * bridge a filtered capture only drew, config_not_captured, matches by
 * its place alone and is never missing or extra), then
 * what is left by model alone, each golden function to the free one of
 * cur whose slot path shares the longest prefix with its own; functions
 * below one that moved, and the other functions of its device, follow it.
 * 0 or -ENOMEM.
 */
int pa_slot_match(const struct pa_report *golden, const struct pa_report *cur,
		  struct pa_slot_match *m);
void pa_slot_match_clear(struct pa_slot_match *m);

/* Whether golden function g is the top of what is unmatched around it:
 * neither the function above it nor its device's function 0 is unmatched
 * too (those speak for it). cur: the same for the other report's c. */
bool pa_slot_top_missing(const struct pa_report *golden,
			 const struct pa_slot_match *m, size_t g);
bool pa_slot_top_extra(const struct pa_report *cur,
		       const struct pa_slot_match *m, size_t c);

/* How many unmatched functions the top one at i speaks for, itself
 * excluded (its subtree and its device's other functions). */
size_t pa_slot_folded_missing(const struct pa_report *golden,
			      const struct pa_slot_match *m, size_t g);
size_t pa_slot_folded_extra(const struct pa_report *cur,
			    const struct pa_slot_match *m, size_t c);

/* Whether d is the function that reports its link, the one compared: not
 * a root or downstream port (they see the link below from above), not a
 * VF, not a function other than 0 of a device whose function 0 has the
 * link (they share it). */
bool pa_slot_reports_link(const struct pa_report *rep,
			  const struct pa_device *d);

#endif /* PA_SLOT_H */
