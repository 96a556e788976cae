/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libmicrohttpd, opened at run time by the exporter: the other commands
 * never load it, nor GnuTLS and the eight libraries GnuTLS brings.
 */
#ifndef PA_MHD_DL_H
#define PA_MHD_DL_H

#include <stddef.h>
#include <microhttpd.h>

/* The soname Debian 12, Ubuntu and Fedora ship (libmicrohttpd12). */
#ifndef PA_MHD_LIB
#define PA_MHD_LIB "libmicrohttpd.so.12"
#endif

/* The calls the exporter makes, with the header's own types. */
struct pa_mhd {
	__typeof__(&MHD_start_daemon) start_daemon;
	__typeof__(&MHD_stop_daemon) stop_daemon;
	__typeof__(&MHD_create_response_from_buffer) create_response_from_buffer;
	__typeof__(&MHD_add_response_header) add_response_header;
	__typeof__(&MHD_queue_response) queue_response;
	__typeof__(&MHD_destroy_response) destroy_response;
};

/* Fills m; -1 with why (dlerror's words) when the library or a symbol is
 * missing. The library stays loaded until the process ends. */
int pa_mhd_open(struct pa_mhd *m, char *why, size_t whylen);

#endif /* PA_MHD_DL_H */
