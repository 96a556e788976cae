/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libmicrohttpd, opened at run time by the exporter: the other commands
 * never load it, nor GnuTLS and the eight libraries GnuTLS brings.
 */
#ifndef PA_MHD_DL_H
#define PA_MHD_DL_H

#include <stddef.h>
#include <crypt.h>
#include <microhttpd.h>
#include <gnutls/gnutls.h>

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
	__typeof__(&MHD_get_connection_info) get_connection_info;
	__typeof__(&MHD_basic_auth_get_username_password) basic_auth_get_username_password;
	__typeof__(&MHD_queue_basic_auth_fail_response) queue_basic_auth_fail_response;
	__typeof__(&MHD_free) free;
	__typeof__(&MHD_is_feature_supported) is_feature_supported;
};

/* Fills m; -1 with why (dlerror's words) when the library or a symbol is
 * missing. The library stays loaded until the process ends. */
int pa_mhd_open(struct pa_mhd *m, char *why, size_t whylen);

/* GnuTLS, which libmicrohttpd links: the web configuration's certificate,
 * key and client CAs checked at start, client certificates verified. */
#ifndef PA_GNUTLS_LIB
#define PA_GNUTLS_LIB "libgnutls.so.30"
#endif

struct pa_gnutls {
	__typeof__(&gnutls_certificate_allocate_credentials) certificate_allocate_credentials;
	__typeof__(&gnutls_certificate_free_credentials) certificate_free_credentials;
	__typeof__(&gnutls_certificate_set_x509_key_mem2) certificate_set_x509_key_mem2;
	__typeof__(&gnutls_certificate_set_x509_trust_mem) certificate_set_x509_trust_mem;
	__typeof__(&gnutls_priority_init) priority_init;
	__typeof__(&gnutls_priority_deinit) priority_deinit;
	__typeof__(&gnutls_strerror) strerror;
	__typeof__(&gnutls_certificate_server_set_request) certificate_server_set_request;
	__typeof__(&gnutls_session_set_verify_function) session_set_verify_function;
	__typeof__(&gnutls_certificate_verify_peers2) certificate_verify_peers2;
	__typeof__(&gnutls_certificate_get_peers) certificate_get_peers;
};

/* Fills g as pa_mhd_open() fills m. */
int pa_gnutls_open(struct pa_gnutls *g, char *why, size_t whylen);

/* libcrypt (libxcrypt), for basic_auth_users' bcrypt: opened only when
 * the web configuration has users, so no other command maps it. */
#ifndef PA_CRYPT_LIB
#define PA_CRYPT_LIB "libcrypt.so.1"
#endif

struct pa_crypt {
	__typeof__(&crypt_rn) crypt_rn;
	__typeof__(&crypt_checksalt) crypt_checksalt;
};

int pa_crypt_open(struct pa_crypt *c, char *why, size_t whylen);

#endif /* PA_MHD_DL_H */
