/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The web configuration's TLS, for libmicrohttpd's GnuTLS support: the
 * certificate, key and client CAs read and checked by GnuTLS at start (a
 * key that does not match, a file that cannot be read: refused before
 * listening), and each connection's client certificate policy.
 */
#ifndef PA_WEB_TLS_H
#define PA_WEB_TLS_H

#include <stddef.h>

#include "mhd_dl.h"
#include "web_config.h"

struct pa_web_tls {
	char *cert, *key, *ca;		/* PEM, NUL-terminated; ca may be NULL */
	char priorities[96];		/* MHD_OPTION_HTTPS_PRIORITIES */
	enum pa_client_auth auth;
	const struct pa_gnutls *g;
};

/* Certificates and keys larger than this are refused. */
#define PA_WEB_PEM_MAX (1u << 20)

/*
 * Reads w's files (or takes its inline PEM) and has GnuTLS load them as
 * libmicrohttpd will. 0, or -EINVAL with err naming the key and the file,
 * -ENOMEM. pa_web_tls_clear() after, either way.
 */
int pa_web_tls_load(struct pa_web_tls *t, const struct pa_web_config *w,
		    const struct pa_gnutls *g, char *err, size_t errlen);
void pa_web_tls_clear(struct pa_web_tls *t);

/*
 * A new connection's GnuTLS session (MHD_CONNECTION_INFO_GNUTLS_SESSION):
 * asks for a client certificate or requires one, and for the Verify types
 * checks it against the client CAs during the handshake, which fails for
 * one that does not verify. t must outlive every connection.
 */
void pa_web_tls_session(const struct pa_web_tls *t, void *session);

#endif /* PA_WEB_TLS_H */
