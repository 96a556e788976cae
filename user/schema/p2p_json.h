/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A P2P pair in report --json, p2p --json and topo --json, from its schema
 * table (report_schema.h): written with the facts derived for scripts
 * (legend, how ACS routes each direction, the narrowest link), read back
 * with only the module's own answers. Pure.
 */
#ifndef PA_P2P_JSON_H
#define PA_P2P_JSON_H

#include "report_schema.h"

/* The pair's object; rep is what its derived facts come from. */
/* The same pair written to f as compact JSON; 0, -ENOMEM or -EIO. */
int pa_p2p_pair_put(FILE *f, const struct pa_report *rep,
		    const struct pa_p2p_pair *pair);

json_object *pa_p2p_pair_json(const struct pa_report *rep,
			      const struct pa_p2p_pair *pair);

/* Fills *pair from obj at path: 0, -EINVAL (in says why) or -ENOMEM. */
int pa_p2p_pair_read(struct pa_json_in *in, json_object *obj,
		     const char *path, struct pa_p2p_pair *pair);

#endif /* PA_P2P_JSON_H */
