// SPDX-License-Identifier: GPL-2.0
/* Thin: the library's symbols, looked up once. */
#include "mhd_dl.h"

#include <dlfcn.h>
#include <stdio.h>

int pa_mhd_open(struct pa_mhd *m, char *why, size_t whylen)
{
	static const char *const names[] = {
		"MHD_start_daemon", "MHD_stop_daemon",
		"MHD_create_response_from_buffer", "MHD_add_response_header",
		"MHD_queue_response", "MHD_destroy_response",
	};
	void *sym[sizeof(names) / sizeof(names[0])];
	void *lib = dlopen(PA_MHD_LIB, RTLD_NOW | RTLD_LOCAL);

	for (size_t i = 0; lib && i < sizeof(names) / sizeof(names[0]); i++)
		if (!(sym[i] = dlsym(lib, names[i]))) {
			snprintf(why, whylen, "%s", dlerror());
			return -1;
		}
	if (!lib) {
		snprintf(why, whylen, "%s", dlerror());
		return -1;
	}
	/* POSIX makes a void * from dlsym() convertible to a function's. */
	*(void **)&m->start_daemon = sym[0];
	*(void **)&m->stop_daemon = sym[1];
	*(void **)&m->create_response_from_buffer = sym[2];
	*(void **)&m->add_response_header = sym[3];
	*(void **)&m->queue_response = sym[4];
	*(void **)&m->destroy_response = sym[5];
	return 0;
}
