/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The GPU fabric beside PCIe: accelerator links (NVLink from NVML, XGMI
 * from the kernel's KFD topology) and the GPUDirect software of the host
 * (nvidia-peermem, dma-buf). Pure: filled by nvml_links.c, kfd.c and
 * gpu_sw_read.c, read by topo, check and the outputs.
 */
#ifndef PA_FABRIC_H
#define PA_FABRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

enum pa_accel_type {
	PA_ACCEL_NVLINK = 1,
	PA_ACCEL_XGMI,
};

/* Links between two functions, a below b in address order. */
struct pa_accel_link {
	struct pa_addr a, b;
	uint32_t type;			/* enum pa_accel_type */
	uint32_t count;			/* links bonded between them */
};

/*
 * Whether a source of links was read. "Unknown is not none": a source
 * that could not be read leaves its links unknown, with the reason.
 */
enum pa_source_state {
	PA_SRC_NOT_READ = 0,	/* not asked: a snapshot, a fixture */
	PA_SRC_READ,		/* read: its links are all there are */
	PA_SRC_ABSENT,		/* not on this host: no such links */
	PA_SRC_DISABLED,	/* turned off (PCIEAUDIT_NO_NVML) */
	PA_SRC_FAILED,		/* present but unreadable: links unknown */
};

struct pa_source {
	uint32_t state;		/* enum pa_source_state */
	char *detail;		/* version or reason; may be NULL */
};

/* Facts about GPUDirect software; -1 when unknown. */
struct pa_gpu_sw {
	int peermem_loaded;	/* nvidia_peermem in the module list */
	int nvidia_loaded;	/* nvidia (the GPU driver) loaded */
	int nvidia_open;	/* the open kernel module flavour */
	int dmabuf_core;	/* the kernel exports dma_buf_export */
	char *nvidia_version;	/* the driver's version line; NULL unknown */
};

/* A GPU's memory as its driver reports it: for BAR checks (a BAR smaller
 * than the memory limits GPUDirect registration). */
struct pa_gpu_mem {
	struct pa_addr addr;
	uint64_t bytes;
	uint32_t type;			/* the source: enum pa_accel_type */
};

struct pa_fabric {
	struct pa_source nvml;
	struct pa_source kfd;
	struct pa_accel_link *links;
	size_t nlinks;
	struct pa_gpu_mem *mems;
	size_t nmems;
	struct pa_gpu_sw sw;
};

void pa_fabric_init(struct pa_fabric *f);
void pa_fabric_clear(struct pa_fabric *f);

/* Adds count links of a type between x and y, merging with one already
 * listed. Returns 0 or -ENOMEM; a link of a function to itself is ignored. */
int pa_fabric_add(struct pa_fabric *f, const struct pa_addr *x,
		  const struct pa_addr *y, uint32_t type, uint32_t count);

/* Records a GPU's memory size (source NVML: PA_ACCEL_NVLINK, KFD:
 * PA_ACCEL_XGMI); 0 or -ENOMEM. A second size for one GPU replaces the
 * first. */
int pa_fabric_add_mem(struct pa_fabric *f, const struct pa_addr *gpu,
		      uint64_t bytes, uint32_t source);

/* A GPU's memory size in bytes, 0 when no source gave it. */
uint64_t pa_fabric_mem(const struct pa_fabric *f, const struct pa_addr *gpu);

/* The links between x and y (either order), or NULL. */
const struct pa_accel_link *pa_fabric_find(const struct pa_fabric *f,
					   const struct pa_addr *x,
					   const struct pa_addr *y);

/* "nvlink", "xgmi": JSON; "NVLink", "XGMI": text. */
const char *pa_accel_type_key(uint32_t type);
const char *pa_accel_type_name(uint32_t type);

/* The matrix cell as nvidia-smi and amd-smi write it: "NV18", "XGMI". */
void pa_accel_cell(const struct pa_accel_link *l, char *buf, size_t len);

/* "read", "absent", ...; also the JSON spelling. */
const char *pa_source_state_name(uint32_t state);

int pa_source_set(struct pa_source *s, uint32_t state, const char *detail);

#endif /* PA_FABRIC_H */
