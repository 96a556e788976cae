/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GPUDirect software facts: nvidia-peermem, the NVIDIA driver's flavour,
 * the kernel's dma-buf core. gpu_sw.c decodes text (pure); gpu_sw_read.c
 * reads the files.
 */
#ifndef PA_GPU_SW_H
#define PA_GPU_SW_H

#include <stdbool.h>

#include "fabric.h"

/* From /proc/modules text: whether nvidia and nvidia_peermem are loaded.
 * NULL text leaves both unknown. */
void pa_gpu_sw_modules(const char *text, struct pa_gpu_sw *sw);

/* From /proc/driver/nvidia/version text: the version line and whether it
 * is the open kernel module. Returns 0 or -ENOMEM. */
int pa_gpu_sw_nvidia_version(const char *text, struct pa_gpu_sw *sw);

/* Whether one /proc/kallsyms line names the dma-buf core's exporter. */
bool pa_gpu_sw_kallsyms_line(const char *line);

/*
 * Whether a kernel configuration (/boot/config-RELEASE, /proc/config.gz's
 * text) builds the dma-buf core, CONFIG_DMA_SHARED_BUFFER, a bool that
 * dma_buf_export comes with: 1, 0 (absent from a configuration, as
 * Kconfig leaves an invisible bool that is off), or -1 when the text is no
 * configuration or says something else.
 */
int pa_gpu_sw_kconfig_dmabuf(const char *text);

/*
 * Reads the facts for root: for the running host's /sys, /proc/modules,
 * /proc/driver/nvidia/version and the kernel's configuration
 * (/proc/kallsyms, read until dma_buf_export, only where neither
 * /boot/config-RELEASE nor /proc/config.gz answers); for a fixture,
 * root/modules, root/nvidia_version and root/kallsyms. What cannot be
 * read stays unknown. Returns 0 or -ENOMEM.
 */
int pa_gpu_sw_read(const char *root, bool live, struct pa_gpu_sw *sw);

#endif /* PA_GPU_SW_H */
