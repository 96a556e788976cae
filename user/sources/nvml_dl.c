// SPDX-License-Identifier: GPL-2.0
/*
 * libnvidia-ml.so.1, opened at run time: the CLI has no build or package
 * dependency on NVIDIA's driver and behaves the same where it is absent.
 * Thin: symbol lookups and calls; nvml_links.c makes sense of answers.
 */
#include "nvml.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NVML_LIB "libnvidia-ml.so.1"

/* nvmlPciInfo_t as nvml.h has it since the _v3 calls. */
struct nvml_pci_info {
	char bus_id_legacy[16];
	unsigned int domain, bus, device, pci_device_id, pci_subsystem_id;
	char bus_id[PA_NVML_BUSID_LEN];
};

typedef void *nvml_device;

/* nvmlMemory_t (version 1): bytes. */
struct nvml_memory {
	unsigned long long total, free, used;
};

struct nvml {
	void *lib;
	int (*init)(void);
	int (*count)(unsigned int *n);
	int (*handle)(unsigned int i, nvml_device *d);
	int (*pci)(nvml_device d, struct nvml_pci_info *p);
	int (*state)(nvml_device d, unsigned int link, int *active);
	int (*remote)(nvml_device d, unsigned int link, struct nvml_pci_info *p);
	int (*remote_type)(nvml_device d, unsigned int link, int *type);
	int (*memory)(nvml_device d, struct nvml_memory *mem);
	const char *(*error)(int rc);
	int (*driver_version)(char *buf, unsigned int len);
	char version[96];
};

static int op_count(void *ctx, unsigned int *n)
{
	return ((struct nvml *)ctx)->count(n);
}

static int op_bus_id(void *ctx, unsigned int dev, char *buf)
{
	struct nvml *m = ctx;
	struct nvml_pci_info p = { 0 };
	nvml_device d;
	int rc = m->handle(dev, &d);

	if (!rc)
		rc = m->pci(d, &p);
	if (!rc)
		memcpy(buf, p.bus_id, PA_NVML_BUSID_LEN);
	return rc;
}

static int op_link_state(void *ctx, unsigned int dev, unsigned int link,
			 int *active)
{
	struct nvml *m = ctx;
	nvml_device d;
	int rc = m->handle(dev, &d);

	return rc ? rc : m->state(d, link, active);
}

static int op_link_remote(void *ctx, unsigned int dev, unsigned int link,
			  char *buf)
{
	struct nvml *m = ctx;
	struct nvml_pci_info p = { 0 };
	nvml_device d;
	int rc = m->handle(dev, &d);

	if (!rc)
		rc = m->remote(d, link, &p);
	if (!rc)
		memcpy(buf, p.bus_id, PA_NVML_BUSID_LEN);
	return rc;
}

static int op_link_remote_type(void *ctx, unsigned int dev, unsigned int link,
			       int *type)
{
	struct nvml *m = ctx;
	nvml_device d;
	int rc = m->handle(dev, &d);

	return rc ? rc : m->remote_type(d, link, type);
}

static int op_memory(void *ctx, unsigned int dev, uint64_t *bytes)
{
	struct nvml *m = ctx;
	struct nvml_memory mem = { 0 };
	nvml_device d;
	int rc = m->handle(dev, &d);

	if (!rc)
		rc = m->memory(d, &mem);
	if (!rc)
		*bytes = mem.total;
	return rc;
}

static const char *op_error(void *ctx, int rc)
{
	const char *s = ((struct nvml *)ctx)->error(rc);

	return s ? s : "unknown NVML error";
}

/* dlsym() returns an object pointer; POSIX lets it convert. */
#define LOOKUP(m, field, name) \
	(*(void **)&(m)->field = dlsym((m)->lib, name)) != NULL

static bool lookup_all(struct nvml *m)
{
	return LOOKUP(m, init, "nvmlInit_v2") &&
	       LOOKUP(m, count, "nvmlDeviceGetCount_v2") &&
	       LOOKUP(m, handle, "nvmlDeviceGetHandleByIndex_v2") &&
	       LOOKUP(m, pci, "nvmlDeviceGetPciInfo_v3") &&
	       LOOKUP(m, state, "nvmlDeviceGetNvLinkState") &&
	       LOOKUP(m, remote, "nvmlDeviceGetNvLinkRemotePciInfo_v2") &&
	       LOOKUP(m, error, "nvmlErrorString") &&
	       LOOKUP(m, driver_version, "nvmlSystemGetDriverVersion");
}

static bool disabled(void)
{
	const char *v = getenv("PCIEAUDIT_NO_NVML");

	return v && *v && strcmp(v, "0");
}

/*
 * NVML, once loaded and initialised, stays so until the process ends:
 * nvmlShutdown() is never called. It only releases what the process's exit
 * releases anyway (the driver's file descriptors and the library's memory),
 * and on the H200 it took 9.5 ms, half of what NVML costs a command and more
 * than the rest of a report. A process that reads the fabric again (the
 * exporter, one collection at a time) reuses the first initialisation
 * rather than paying nvmlInit's 10.8 ms each time. Not thread-safe: the
 * CLI's pipeline and the exporter's one polling thread call it one at a
 * time. A load that fails is retried on the next call (a driver loaded
 * since). The first library that initialises serves the process.
 */
static struct nvml live;

/* Loads and initialises NVML into live; 1 when it is ready, else 0 with
 * f->nvml set (or -ENOMEM). */
static int load(const char *name, struct pa_fabric *f)
{
	const char *lib = name && *name ? name : NVML_LIB;
	struct nvml m = { 0 };
	char why[256];
	int rc, err;

	m.lib = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!m.lib) {
		const char *e = dlerror();

		return pa_source_set(&f->nvml, PA_SRC_ABSENT,
				     e ? e : "cannot load " NVML_LIB);
	}
	/* Optional, NULL where absent: drivers before R470 lack the remote
	 * type. */
	*(void **)&m.remote_type = dlsym(m.lib,
					 "nvmlDeviceGetNvLinkRemoteDeviceType");
	*(void **)&m.memory = dlsym(m.lib, "nvmlDeviceGetMemoryInfo");
	if (!lookup_all(&m)) {
		snprintf(why, sizeof(why), "%s lacks an NVML call this CLI needs",
			 lib);
		err = pa_source_set(&f->nvml, PA_SRC_FAILED, why);
		dlclose(m.lib);
		return err;
	}
	rc = m.init();
	if (rc) {
		snprintf(why, sizeof(why), "nvmlInit: %s", op_error(&m, rc));
		err = pa_source_set(&f->nvml, PA_SRC_FAILED, why);
		dlclose(m.lib);
		return err;
	}
	if (m.driver_version(m.version, sizeof(m.version)))
		m.version[0] = '\0';
	m.version[sizeof(m.version) - 1] = '\0';
	/* Kept for the process's life: no nvmlShutdown(), no dlclose(). */
	live = m;
	return 1;
}

int pa_nvml_read(struct pa_fabric *f)
{
	struct pa_nvml_ops ops = {
		&live, op_count, op_bus_id, op_link_state, op_link_remote, NULL,
		NULL, op_error, NULL,
	};
	int rc;

	if (disabled())
		return pa_source_set(&f->nvml, PA_SRC_DISABLED,
				     "PCIEAUDIT_NO_NVML is set");
	if (!live.lib) {
		rc = load(getenv("PCIEAUDIT_NVML_LIB"), f);
		if (rc <= 0)
			return rc;
	}
	if (live.remote_type)
		ops.link_remote_type = op_link_remote_type;
	if (live.memory)
		ops.memory = op_memory;
	if (live.version[0])
		ops.version = live.version;
	return pa_nvml_collect(&ops, f);
}
