/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A device's "aer" member of report --json, written and read back:
 *   null                                  not read (conventional PCI, old)
 *   {"state": "unknown", "reason": "..."}
 *   {"state": "known", "correctable": N, "nonfatal": N, "fatal": N,
 *    "rootport": null | {"correctable": N, "nonfatal": N, "fatal": N},
 *    "types": {"correctable": {"RxErr": N, ...}, "nonfatal": {...},
 *              "fatal": {...}}}   (by type, where read; names kept as
 *                                  the kernel wrote them)
 * Pure.
 */
#ifndef PA_AER_JSON_H
#define PA_AER_JSON_H

#include <json-c/json.h>

#include "model.h"

/* The member's value; NULL (JSON null) when not read. */
json_object *pa_aer_json(const struct pa_aer *aer);

/*
 * Reads v (NULL for absent or null) into *aer. 0, or -EINVAL with
 * *problem naming what is wrong ("aer.correctable: expected ...").
 */
int pa_aer_json_parse(json_object *v, struct pa_aer *aer, const char **problem);

#endif /* PA_AER_JSON_H */
