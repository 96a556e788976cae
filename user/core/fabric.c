// SPDX-License-Identifier: GPL-2.0
#include "fabric.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pa_fabric_init(struct pa_fabric *f)
{
	*f = (struct pa_fabric){ 0 };
	f->sw = (struct pa_gpu_sw){ -1, -1, -1, -1, NULL };
}

void pa_fabric_clear(struct pa_fabric *f)
{
	free(f->nvml.detail);
	free(f->kfd.detail);
	free(f->links);
	free(f->mems);
	free(f->sw.nvidia_version);
	pa_fabric_init(f);
}

const struct pa_accel_link *pa_fabric_find(const struct pa_fabric *f,
					   const struct pa_addr *x,
					   const struct pa_addr *y)
{
	for (size_t i = 0; i < f->nlinks; i++) {
		const struct pa_accel_link *l = &f->links[i];

		if ((pa_addr_eq(&l->a, x) && pa_addr_eq(&l->b, y)) ||
		    (pa_addr_eq(&l->a, y) && pa_addr_eq(&l->b, x)))
			return l;
	}
	return NULL;
}

int pa_fabric_add(struct pa_fabric *f, const struct pa_addr *x,
		  const struct pa_addr *y, uint32_t type, uint32_t count)
{
	struct pa_accel_link *l;
	bool swap = pa_addr_cmp(x, y) > 0;

	if (pa_addr_eq(x, y) || !count)
		return 0;
	l = (struct pa_accel_link *)pa_fabric_find(f, x, y);
	if (l && l->type == type) {
		l->count += count;
		return 0;
	}
	l = realloc(f->links, (f->nlinks + 1) * sizeof(*l));
	if (!l)
		return -ENOMEM;
	f->links = l;
	f->links[f->nlinks++] = (struct pa_accel_link){
		swap ? *y : *x, swap ? *x : *y, type, count,
	};
	return 0;
}

int pa_fabric_add_mem(struct pa_fabric *f, const struct pa_addr *gpu,
		      uint64_t bytes, uint32_t source)
{
	struct pa_gpu_mem *m;

	for (size_t i = 0; i < f->nmems; i++)
		if (pa_addr_eq(&f->mems[i].addr, gpu)) {
			f->mems[i].bytes = bytes;
			f->mems[i].type = source;
			return 0;
		}
	m = realloc(f->mems, (f->nmems + 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	f->mems = m;
	f->mems[f->nmems++] = (struct pa_gpu_mem){ *gpu, bytes, source };
	return 0;
}

uint64_t pa_fabric_mem(const struct pa_fabric *f, const struct pa_addr *gpu)
{
	for (size_t i = 0; i < f->nmems; i++)
		if (pa_addr_eq(&f->mems[i].addr, gpu))
			return f->mems[i].bytes;
	return 0;
}

const char *pa_accel_type_key(uint32_t type)
{
	return type == PA_ACCEL_NVLINK ? "nvlink" :
	       type == PA_ACCEL_XGMI ? "xgmi" : "unknown";
}

const char *pa_accel_type_name(uint32_t type)
{
	return type == PA_ACCEL_NVLINK ? "NVLink" :
	       type == PA_ACCEL_XGMI ? "XGMI" : "unknown";
}

void pa_accel_cell(const struct pa_accel_link *l, char *buf, size_t len)
{
	/* nvidia-smi topo -m: "NV#", a bonded set of # NVLinks; amd-smi
	 * names the link type alone. */
	if (l->type == PA_ACCEL_NVLINK)
		snprintf(buf, len, "NV%u", l->count);
	else
		snprintf(buf, len, "%s", pa_accel_type_name(l->type));
}

const char *pa_source_state_name(uint32_t state)
{
	static const char *const names[] = {
		[PA_SRC_NOT_READ] = "not-read", [PA_SRC_READ] = "read",
		[PA_SRC_ABSENT] = "absent", [PA_SRC_DISABLED] = "disabled",
		[PA_SRC_FAILED] = "failed",
	};

	return state < sizeof(names) / sizeof(names[0]) ? names[state] : "?";
}

int pa_source_set(struct pa_source *s, uint32_t state, const char *detail)
{
	free(s->detail);
	s->state = state;
	s->detail = detail ? strdup(detail) : NULL;
	return detail && !s->detail ? -ENOMEM : 0;
}
