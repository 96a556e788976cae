/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fleet's outputs: per group of hosts of one kind, the majority's
 * configuration and each host that differs, with where and how. Pure;
 * each returns 0 or -EIO.
 */
#ifndef PA_FLEET_OUT_H
#define PA_FLEET_OUT_H

#include <stdio.h>

#include "fleet.h"

int pa_fleet_text(FILE *f, const struct pa_fleet *fl);

/* {"schema_version", "hosts", "outliers", "groups": [{"kind", "fingerprint",
 * "hosts", "majority", "outliers": [{"host", "differences"}]}]};
 * docs/json-schema.md. */
int pa_fleet_json(FILE *f, const struct pa_fleet *fl);

#endif /* PA_FLEET_OUT_H */
