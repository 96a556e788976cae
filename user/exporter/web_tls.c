// SPDX-License-Identifier: GPL-2.0
/* Thin: files read, GnuTLS's calls. */
#include "web_tls.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"

/* The one configuration this process serves, for the verify callback. */
static const struct pa_web_tls *active;

static int pem(const char *file, const char *inline_pem, const char *key,
	       char **out, char *err, size_t errlen)
{
	size_t len;
	int rc;

	if (!file) {
		*out = strdup(inline_pem);
		return *out ? 0 : -ENOMEM;
	}
	rc = pa_read_file(file, PA_WEB_PEM_MAX, out, &len);
	if (rc == -ENOMEM)
		return rc;
	if (rc) {
		snprintf(err, errlen, "tls_server_config.%s: cannot read %s: %s", key,
			 file, rc == -EFBIG ? "larger than 1 MiB" : strerror(-rc));
		return -EINVAL;
	}
	if (strlen(*out) != len) {
		snprintf(err, errlen, "tls_server_config.%s: %s is not PEM (a NUL byte)",
			 key, file);
		return -EINVAL;
	}
	return 0;
}

int pa_web_tls_load(struct pa_web_tls *t, const struct pa_web_config *w,
		    const struct pa_gnutls *g, char *err, size_t errlen)
{
	gnutls_certificate_credentials_t cred;
	gnutls_priority_t prio;
	gnutls_datum_t c, k;
	const char *errpos;
	int rc;

	*t = (struct pa_web_tls){ .auth = w->client_auth, .g = g };
	pa_web_priorities(w, t->priorities, sizeof(t->priorities));
	rc = pem(w->cert_file, w->cert, w->cert_file ? "cert_file" : "cert",
		 &t->cert, err, errlen);
	if (!rc)
		rc = pem(w->key_file, w->key, w->key_file ? "key_file" : "key",
			 &t->key, err, errlen);
	if (!rc && (w->client_ca_file || w->client_ca))
		rc = pem(w->client_ca_file, w->client_ca,
			 w->client_ca_file ? "client_ca_file" : "client_ca",
			 &t->ca, err, errlen);
	if (rc)
		return rc;
	if (g->certificate_allocate_credentials(&cred) < 0)
		return -ENOMEM;
	c = (gnutls_datum_t){ (unsigned char *)t->cert, (unsigned int)strlen(t->cert) };
	k = (gnutls_datum_t){ (unsigned char *)t->key, (unsigned int)strlen(t->key) };
	/* What MHD_start_daemon() will do with them; GnuTLS also checks
	 * that the key is the certificate's. */
	rc = g->certificate_set_x509_key_mem2(cred, &c, &k, GNUTLS_X509_FMT_PEM, NULL, 0);
	if (rc < 0) {
		snprintf(err, errlen, "tls_server_config: the certificate (%s) and key (%s): %s",
			 w->cert_file ? w->cert_file : "cert", w->key_file ? w->key_file : "key",
			 g->strerror(rc));
		rc = -EINVAL;
	} else if (t->ca) {
		gnutls_datum_t a = { (unsigned char *)t->ca, (unsigned int)strlen(t->ca) };

		rc = g->certificate_set_x509_trust_mem(cred, &a, GNUTLS_X509_FMT_PEM);
		if (rc <= 0) {
			snprintf(err, errlen, "tls_server_config: client CAs (%s): %s",
				 w->client_ca_file ? w->client_ca_file : "client_ca",
				 rc < 0 ? g->strerror(rc) : "no certificate in it");
			rc = -EINVAL;
		} else {
			rc = 0;
		}
	} else {
		rc = 0;
	}
	g->certificate_free_credentials(cred);
	if (!rc && g->priority_init(&prio, t->priorities, &errpos) < 0) {
		snprintf(err, errlen, "tls_server_config: GnuTLS refuses the versions (%s)",
			 t->priorities);
		rc = -EINVAL;
	} else if (!rc) {
		g->priority_deinit(prio);
	}
	return rc;
}

void pa_web_tls_clear(struct pa_web_tls *t)
{
	if (t->key)
		explicit_bzero(t->key, strlen(t->key));
	free(t->cert);
	free(t->key);
	free(t->ca);
	*t = (struct pa_web_tls){ 0 };
}

/* In the handshake, once the client's certificate (or none) is in. */
static int verify_peer(gnutls_session_t s)
{
	const struct pa_gnutls *g = active->g;
	unsigned int n = 0, status = 0;

	if (!g->certificate_get_peers(s, &n) || !n)
		return active->auth == PA_CLIENT_REQUIRE_VERIFY ? -1 : 0;
	if (g->certificate_verify_peers2(s, &status) < 0 || status)
		return -1;
	return 0;
}

void pa_web_tls_session(const struct pa_web_tls *t, void *session)
{
	gnutls_session_t s = session;

	active = t;
	if (!s || t->auth == PA_CLIENT_NO_CERT)
		return;
	t->g->certificate_server_set_request(s, t->auth == PA_CLIENT_REQUEST ||
					     t->auth == PA_CLIENT_VERIFY_IF_GIVEN ?
					     GNUTLS_CERT_REQUEST : GNUTLS_CERT_REQUIRE);
	if (t->auth == PA_CLIENT_VERIFY_IF_GIVEN || t->auth == PA_CLIENT_REQUIRE_VERIFY)
		t->g->session_set_verify_function(s, verify_peer);
}
