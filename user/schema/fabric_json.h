/* SPDX-License-Identifier: GPL-2.0 */
/* The fabric as JSON: accelerator links with type and count, sources. */
#ifndef PA_FABRIC_JSON_H
#define PA_FABRIC_JSON_H

#include <json-c/json.h>

#include "fabric.h"

/*
 * {"links": [{"a", "b", "type": "nvlink"|"xgmi", "count"}],
 *  "sources": {"nvml": {"state", "detail"}, "kfd": {...}},
 *  "gpus": [{"bdf", "memory_bytes", "source": "nvml"|"kfd"}],
 *  "software": {"nvidia_loaded", "nvidia_open", "peermem_loaded",
 *               "dmabuf_core", "nvidia_version"}}: null for unknown.
 */
json_object *pa_fabric_json(const struct pa_fabric *f);

/*
 * The other way, for snapshots: *out is allocated and filled from obj, as
 * pa_fabric_json() writes it. Returns 0, -ENOMEM, or -EINVAL with why
 * naming the member ("links[1].type: expected nvlink or xgmi").
 */
int pa_fabric_parse_json(json_object *obj, struct pa_fabric **out, char *why,
			 size_t len);

#endif /* PA_FABRIC_JSON_H */
