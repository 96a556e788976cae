/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exporter --web-config FILE: prometheus/exporter-toolkit's web
 * configuration (TLS, basic auth, response headers), as node_exporter
 * takes it. Pure: YAML text in (libyaml), configuration out; the files it
 * names are read by web_tls.c. docs/monitoring.md ("Web configuration")
 * lists the keys and what differs from exporter-toolkit.
 */
#ifndef PA_WEB_CONFIG_H
#define PA_WEB_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

/* tls_server_config.client_auth_type, as Go's tls.ClientAuthType. */
enum pa_client_auth {
	PA_CLIENT_NO_CERT,		/* NoClientCert (the default) */
	PA_CLIENT_REQUEST,		/* RequestClientCert */
	PA_CLIENT_REQUIRE_ANY,		/* RequireAnyClientCert */
	PA_CLIENT_VERIFY_IF_GIVEN,	/* VerifyClientCertIfGiven */
	PA_CLIENT_REQUIRE_VERIFY,	/* RequireAndVerifyClientCert */
};

/* min_version, max_version: TLS10 to TLS13, in order. */
enum pa_tls_version { PA_TLS10 = 10, PA_TLS11, PA_TLS12, PA_TLS13 };

struct pa_web_pair {
	char *name;
	char *value;
};

struct pa_web_config {
	bool tls;		/* some tls_server_config key given */
	/* Files, resolved against the configuration file's directory as
	 * exporter-toolkit does; NULL where the inline PEM (cert, key,
	 * client_ca) or nothing was given. */
	char *cert_file, *key_file, *client_ca_file;
	char *cert, *key, *client_ca;
	enum pa_client_auth client_auth;
	enum pa_tls_version min_version, max_version;
	bool http2;		/* accepted; libmicrohttpd serves HTTP/1.1 */
	struct pa_web_pair *users;	/* name, bcrypt hash */
	size_t nusers;
	struct pa_web_pair *headers;	/* set, non-blank values only */
	size_t nheaders;
};

/*
 * Parses a web configuration. name is the file's path, for messages and
 * for relative file names. Returns 0, -EINVAL with err holding
 * "<name>:<line>:<column>: <problem>" (the problem names the key), or
 * -ENOMEM. *w is cleared on failure.
 */
int pa_web_config_parse(const char *name, const char *text, size_t len,
			struct pa_web_config *w, char *err, size_t errlen);
void pa_web_config_clear(struct pa_web_config *w);

/* Whether hash is a bcrypt hash ($2a$, $2b$ or $2y$, cost 04 to 31, 53
 * characters of salt and digest) that libcrypt accepts. */
bool pa_web_bcrypt_ok(const char *hash);

/* GnuTLS's priority string for the versions: NORMAL, the others off. */
void pa_web_priorities(const struct pa_web_config *w, char *buf, size_t len);

/* The client auth type's name, as the file spells it. */
const char *pa_web_client_auth_name(enum pa_client_auth a);

#endif /* PA_WEB_CONFIG_H */
