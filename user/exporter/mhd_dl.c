// SPDX-License-Identifier: GPL-2.0
/* Thin: the libraries' symbols, looked up once. */
#include "mhd_dl.h"

#include <dlfcn.h>
#include <stdio.h>

/* Looks names up in lib into out[], in order: 0 or -1 with why. out is a
 * struct of the calls in the names' order: POSIX makes a void * from
 * dlsym() convertible to a function's. */
static int lookup(const char *lib, const char *const *names, size_t n,
		  void **out, char *why, size_t whylen)
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		snprintf(why, whylen, "%s", dlerror());
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!(out[i] = dlsym(h, names[i]))) {
			snprintf(why, whylen, "%s", dlerror());
			return -1;
		}
	return 0;
}

int pa_mhd_open(struct pa_mhd *m, char *why, size_t whylen)
{
	static const char *const names[] = {
		"MHD_start_daemon", "MHD_stop_daemon",
		"MHD_create_response_from_buffer", "MHD_add_response_header",
		"MHD_queue_response", "MHD_destroy_response",
		"MHD_get_connection_info", "MHD_basic_auth_get_username_password",
		"MHD_queue_basic_auth_fail_response", "MHD_free",
		"MHD_is_feature_supported",
	};

	_Static_assert(sizeof(names) / sizeof(names[0]) == sizeof(*m) / sizeof(void *),
		       "a name for every call");
	return lookup(PA_MHD_LIB, names, sizeof(names) / sizeof(names[0]),
		      (void **)m, why, whylen);
}

int pa_gnutls_open(struct pa_gnutls *g, char *why, size_t whylen)
{
	static const char *const names[] = {
		"gnutls_certificate_allocate_credentials",
		"gnutls_certificate_free_credentials",
		"gnutls_certificate_set_x509_key_mem2",
		"gnutls_certificate_set_x509_trust_mem",
		"gnutls_priority_init", "gnutls_priority_deinit", "gnutls_strerror",
		"gnutls_certificate_server_set_request",
		"gnutls_session_set_verify_function",
		"gnutls_certificate_verify_peers2", "gnutls_certificate_get_peers",
	};

	_Static_assert(sizeof(names) / sizeof(names[0]) == sizeof(*g) / sizeof(void *),
		       "a name for every call");
	return lookup(PA_GNUTLS_LIB, names, sizeof(names) / sizeof(names[0]),
		      (void **)g, why, whylen);
}

int pa_crypt_open(struct pa_crypt *c, char *why, size_t whylen)
{
	static const char *const names[] = { "crypt_rn", "crypt_checksalt" };

	_Static_assert(sizeof(names) / sizeof(names[0]) == sizeof(*c) / sizeof(void *),
		       "a name for every call");
	return lookup(PA_CRYPT_LIB, names, sizeof(names) / sizeof(names[0]),
		      (void **)c, why, whylen);
}
