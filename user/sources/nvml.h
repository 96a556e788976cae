/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NVLink from NVIDIA's management library, behind a small table of
 * operations: nvml_dl.c fills it from libnvidia-ml.so.1, loaded at run
 * time (no build or package dependency), tests fill it with fakes.
 */
#ifndef PA_NVML_H
#define PA_NVML_H

#include <stddef.h>
#include <stdint.h>

#include "fabric.h"

/* NVML_NVLINK_MAX_LINKS of nvml.h: Hopper and Blackwell have 18. */
#define PA_NVML_MAX_LINKS	18
/* NVML's return codes that matter here (nvmlReturn_t). */
#define PA_NVML_SUCCESS		0
#define PA_NVML_NOT_SUPPORTED	3
/* nvmlIntNvLinkDeviceType_t. */
#define PA_NVML_REMOTE_GPU	0
#define PA_NVML_REMOTE_SWITCH	2
/* "00000000:00:06.0" and room: NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE. */
#define PA_NVML_BUSID_LEN	32

/* Each returns an nvmlReturn_t: PA_NVML_SUCCESS or an error. */
struct pa_nvml_ops {
	void *ctx;
	int (*count)(void *ctx, unsigned int *n);
	int (*bus_id)(void *ctx, unsigned int dev, char *buf);
	/* *active is 1 when the link is up. */
	int (*link_state)(void *ctx, unsigned int dev, unsigned int link,
			  int *active);
	int (*link_remote)(void *ctx, unsigned int dev, unsigned int link,
			   char *buf);
	/* nvmlDeviceGetNvLinkRemoteDeviceType (R470 and later): *type is
	 * PA_NVML_REMOTE_*. May be NULL: far ends that are no GPU of NVML's
	 * then count as switches. */
	int (*link_remote_type)(void *ctx, unsigned int dev, unsigned int link,
				int *type);
	/* nvmlDeviceGetMemoryInfo's total, in bytes. May be NULL. */
	int (*memory)(void *ctx, unsigned int dev, uint64_t *bytes);
	const char *(*error)(void *ctx, int rc);
	const char *version;	/* the driver's, or NULL */
};

/*
 * The NVLinks among NVML's GPUs, into f->links, each GPU's memory size
 * into f->mems where NVML gives it, and f->nvml's state:
 * READ (links complete, maybe none) or FAILED (the device list could not
 * be read). A link whose state or far end NVML does not give is left out,
 * as NCCL leaves it out; so is one to a GPU NVML does not list (hidden
 * from this host or container). Links to an NVSwitch join every pair of GPUs
 * that reach a switch, with the smaller of their counts (nvidia-smi shows
 * NV18 between the GPUs of an HGX H200 board). Returns 0 or -ENOMEM.
 */
int pa_nvml_collect(const struct pa_nvml_ops *ops, struct pa_fabric *f);

/*
 * Loads libnvidia-ml.so.1 (or $PCIEAUDIT_NVML_LIB) and fills f from it,
 * unless $PCIEAUDIT_NO_NVML is set and not "0". Without the library the
 * state is ABSENT, with the loader's reason; a library that fails to
 * initialise (no driver loaded) is FAILED. Returns 0 or -ENOMEM.
 */
int pa_nvml_read(struct pa_fabric *f);

#endif /* PA_NVML_H */
