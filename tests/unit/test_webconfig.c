// SPDX-License-Identifier: GPL-2.0
/*
 * exporter --web-config's parser (web_config.c) and basic auth (web_auth.c):
 * every key read, every refusal with its place and the key it names; bcrypt
 * hashes made by htpasswd -nbBC 4 (APR's bcrypt, not libcrypt's).
 * tests/exporter/webconfig-test.py drives TLS and HTTP through curl.
 */
#include "testutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web_auth.h"
#include "web_config.h"

/* htpasswd -nbBC 4 "" s3cret, and "" other. */
#define HASH_S3CRET "$2y$04$MLRNsuDp68AKpC4HXDMG/uRoGx1jfN6kPNe.BZXZ9uoOZudz31LBG"
#define HASH_OTHER "$2y$04$b77asgfwFWaoPLNYE7ot2ODUX8DqrYvEZTr1Y/Xer9ZECBrB/YVwK"

static int parse(const char *text, struct pa_web_config *w, char *err, size_t len)
{
	return pa_web_config_parse("/etc/pcieaudit/web.yml", text, strlen(text), w,
				   err, len);
}

static void full(void **state)
{
	static const char text[] =
		"tls_server_config:\n"
		"  cert_file: server.crt\n"
		"  key_file: /abs/server.key\n"
		"  client_ca_file: sub/ca.crt\n"
		"  client_auth_type: RequireAndVerifyClientCert\n"
		"  min_version: TLS13\n"
		"  max_version: TLS13\n"
		"http_server_config:\n"
		"  http2: false\n"
		"  headers:\n"
		"    X-Frame-Options: sameorigin\n"
		"    X-Content-Type-Options: nosniff\n"
		"    Strict-Transport-Security: max-age=31536000\n"
		"    X-XSS-Protection: ''\n"
		"basic_auth_users:\n"
		"  alice: " HASH_S3CRET "\n"
		"  bob: '" HASH_OTHER "'\n";
	struct pa_web_config w;
	char err[512], prio[96];

	(void)state;
	assert_int_equal(parse(text, &w, err, sizeof(err)), 0);
	assert_true(w.tls);
	assert_string_equal(w.cert_file, "/etc/pcieaudit/server.crt");
	assert_string_equal(w.key_file, "/abs/server.key");
	assert_string_equal(w.client_ca_file, "/etc/pcieaudit/sub/ca.crt");
	assert_null(w.cert);
	assert_int_equal(w.client_auth, PA_CLIENT_REQUIRE_VERIFY);
	assert_int_equal(w.min_version, PA_TLS13);
	assert_false(w.http2);
	/* The blank one is left unset. */
	assert_int_equal(w.nheaders, 3);
	assert_string_equal(w.headers[0].name, "X-Frame-Options");
	assert_string_equal(w.headers[0].value, "sameorigin");
	assert_string_equal(w.headers[2].value, "max-age=31536000");
	assert_int_equal(w.nusers, 2);
	assert_string_equal(w.users[1].name, "bob");
	assert_string_equal(w.users[1].value, HASH_OTHER);
	pa_web_priorities(&w, prio, sizeof(prio));
	assert_string_equal(prio, "NORMAL:-VERS-ALL:+VERS-TLS1.3");
	pa_web_config_clear(&w);
}

static void defaults(void **state)
{
	static const char *const texts[] = {
		"", "# nothing\n", "tls_server_config:\nhttp_server_config: ~\n"
		"basic_auth_users: {}\n",
	};
	struct pa_web_config w;
	char err[512], prio[96];

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		assert_int_equal(parse(texts[i], &w, err, sizeof(err)), 0);
		assert_false(w.tls);
		assert_true(w.http2);
		assert_int_equal(w.nusers, 0);
		assert_int_equal(w.nheaders, 0);
		assert_int_equal(w.min_version, PA_TLS12);
		assert_int_equal(w.max_version, PA_TLS13);
		pa_web_priorities(&w, prio, sizeof(prio));
		assert_string_equal(prio, "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2");
		pa_web_config_clear(&w);
	}
	/* Inline PEM, and exporter-toolkit's older name of RequireAnyClientCert. */
	assert_int_equal(parse("tls_server_config:\n  cert: |\n    PEM\n  key: K\n"
			       "  client_auth_type: RequireClientCert\n  min_version: TLS10\n",
			       &w, err, sizeof(err)), 0);
	assert_string_equal(w.cert, "PEM\n");
	assert_string_equal(w.key, "K");
	assert_int_equal(w.client_auth, PA_CLIENT_REQUIRE_ANY);
	pa_web_priorities(&w, prio, sizeof(prio));
	assert_string_equal(prio, "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:+VERS-TLS1.1:+VERS-TLS1.0");
	pa_web_config_clear(&w);
}

static void refused(void **state)
{
	/* The document, and what the message must hold: place and key. */
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "tls_server_config:\n  cert_file: a\n  cert_fil: b\n", ":3:3: tls_server_config: unknown key 'cert_fil'" },
		{ "basic_auth_user: {}\n", ":1:1: the web configuration: unknown key 'basic_auth_user'" },
		{ "rate_limit:\n  burst: 1\n", ":1:1: rate_limit: exporter-toolkit's, but pcieaudit does not support it" },
		{ "tls_server_config:\n  cipher_suites: []\n", "tls_server_config.cipher_suites: exporter-toolkit's" },
		{ "tls_server_config:\n  curve_preferences: []\n", "curve_preferences: exporter-toolkit's" },
		{ "tls_server_config:\n  client_allowed_sans: [a]\n", "client_allowed_sans: exporter-toolkit's" },
		{ "tls_server_config:\n  prefer_server_cipher_suites: true\n", "prefer_server_cipher_suites: exporter-toolkit's" },
		{ "- a\n", ":1:1: the web configuration: expected a mapping, found a list" },
		{ "tls_server_config: yes\n", "tls_server_config: expected a mapping, found a scalar" },
		{ "tls_server_config:\n  cert_file: [a]\n", ":2:14: tls_server_config.cert_file: expected a string, found a list" },
		{ "tls_server_config:\n  cert_file:\n  key_file: k\n", "tls_server_config.cert_file: empty" },
		{ "tls_server_config:\n  cert_file: \"a\\0b\"\n", "cert_file: contains a NUL byte" },
		{ "tls_server_config:\n  cert_file: a\n  cert_file: b\n", ":3:3: tls_server_config: duplicate key 'cert_file'" },
		{ "tls_server_config:\n  cert_file: 'a\n", ": YAML: " },
		{ "tls_server_config: [\n", ": YAML: " },
		{ "a: 1\n---\nb: 2\n", "unknown key 'a'" },
		{ "{}\n---\nb: 2\n", ":3:1: a second YAML document" },
		{ "tls_server_config:\n  key_file: k\n", "tls_server_config: missing cert_file (or cert)" },
		{ "tls_server_config:\n  cert_file: c\n", "tls_server_config: missing key_file (or key)" },
		{ "tls_server_config:\n  min_version: TLS12\n", "missing cert_file" },
		{ "tls_server_config:\n  cert_file: c\n  cert: c\n  key: k\n", "cert_file and cert both given" },
		{ "tls_server_config:\n  cert: c\n  key_file: k\n  key: k\n", "key_file and key both given" },
		{ "tls_server_config:\n  cert: c\n  key: k\n  client_ca_file: a\n  client_ca: a\n  client_auth_type: RequireAndVerifyClientCert\n", "client_ca_file and client_ca both given" },
		{ "tls_server_config:\n  cert: c\n  key: k\n  client_ca_file: a\n", "client CAs configured without a client_auth_type" },
		{ "tls_server_config:\n  cert: c\n  key: k\n  client_auth_type: VerifyClientCertIfGiven\n", "VerifyClientCertIfGiven needs client_ca_file" },
		{ "tls_server_config:\n  cert: c\n  key: k\n  client_auth_type: RequireAndVerifyClientCert\n", "RequireAndVerifyClientCert needs client_ca_file" },
		{ "tls_server_config:\n  cert: c\n  key: k\n  client_auth_type: requireandverifyclientcert\n", ":4:21: tls_server_config.client_auth_type: unknown 'requireandverifyclientcert'" },
		{ "tls_server_config:\n  cert: c\n  key: k\n  min_version: TLS1.2\n", "tls_server_config.min_version: unknown TLS version 'TLS1.2'" },
		{ "tls_server_config:\n  cert: c\n  key: k\n  max_version: SSL30\n", "tls_server_config.max_version: unknown TLS version" },
		{ "tls_server_config:\n  cert: c\n  key: k\n  min_version: TLS13\n  max_version: TLS11\n", "min_version TLS13 is above max_version TLS11" },
		{ "http_server_config:\n  http2: 'true'\n", "http_server_config.http2: expected true or false" },
		{ "http_server_config:\n  http2: yes\n", "http_server_config.http2: expected true or false" },
		{ "http_server_config:\n  http3: true\n", "http_server_config: unknown key 'http3' (expected http2, headers)" },
		{ "http_server_config:\n  headers: [a]\n", "http_server_config.headers: expected a mapping, found a list" },
		{ "http_server_config:\n  headers:\n    Content-Type: text/html\n", ":3:5: http_server_config.headers: header 'Content-Type' cannot be set" },
		{ "http_server_config:\n  headers:\n    Authorization: x\n", "header 'Authorization' cannot be set" },
		{ "http_server_config:\n  headers:\n    x-frame-options: deny\n", "header 'x-frame-options' cannot be set" },
		{ "http_server_config:\n  headers:\n    X-Frame-Options: allow\n", "X-Frame-Options: 'allow' is not allowed (expected deny or sameorigin)" },
		{ "http_server_config:\n  headers:\n    X-Content-Type-Options: sniff\n", "X-Content-Type-Options: 'sniff' is not allowed (expected nosniff)" },
		{ "http_server_config:\n  headers:\n    X-XSS-Protection: [1]\n", "X-XSS-Protection: expected a string, found a list" },
		{ "http_server_config:\n  headers:\n    X-XSS-Protection: \"1\\r\\nSet-Cookie: a\"\n", "a line break in a header's value" },
		{ "http_server_config:\n  headers:\n    X-XSS-Protection: 1\n    X-XSS-Protection: 0\n", "duplicate header 'X-XSS-Protection'" },
		{ "basic_auth_users: [alice]\n", "basic_auth_users: expected a mapping of user names to bcrypt hashes, found a list" },
		{ "basic_auth_users:\n  alice: s3cret\n", ":2:10: basic_auth_users.alice: not a bcrypt hash" },
		{ "basic_auth_users:\n  alice:\n", "basic_auth_users.alice: empty" },
		{ "basic_auth_users:\n  alice: [a]\n", "basic_auth_users.alice: expected a string" },
		{ "basic_auth_users:\n  'a:b': " HASH_S3CRET "\n", "user name 'a:b' contains ':'" },
		{ "basic_auth_users:\n  ~: " HASH_S3CRET "\n", "a user name must be a non-empty string" },
		{ "basic_auth_users:\n  alice: " HASH_S3CRET "\n  alice: " HASH_OTHER "\n", ":3:3: basic_auth_users: duplicate user 'alice'" },
	};
	struct pa_web_config w;
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = parse(cases[i].text, &w, err, sizeof(err));

		if (rc != -EINVAL || !strstr(err, cases[i].want) ||
		    strncmp(err, "/etc/pcieaudit/web.yml:", 23))
			fail_msg("case %zu (%s): rc %d, '%s', want '%s'", i, cases[i].text,
				 rc, err, cases[i].want);
		/* Cleared on failure: nothing to free, the defaults. */
		assert_null(w.users);
		assert_null(w.headers);
		assert_null(w.cert_file);
		assert_false(w.tls);
	}
}

static void bcrypt_hashes(void **state)
{
	char h[64];

	(void)state;
	assert_true(pa_web_bcrypt_ok(HASH_S3CRET));
	strcpy(h, HASH_S3CRET);
	h[2] = 'b';
	assert_true(pa_web_bcrypt_ok(h));
	h[2] = 'a';
	assert_true(pa_web_bcrypt_ok(h));
	h[2] = 'x';			/* a version exporter-toolkit refuses */
	assert_false(pa_web_bcrypt_ok(h));
	strcpy(h, HASH_S3CRET);
	memcpy(h + 4, "03", 2);		/* cost below 4 */
	assert_false(pa_web_bcrypt_ok(h));
	memcpy(h + 4, "32", 2);		/* above 31 */
	assert_false(pa_web_bcrypt_ok(h));
	strcpy(h, HASH_S3CRET);
	h[59] = '\0';			/* one short */
	assert_false(pa_web_bcrypt_ok(h));
	strcpy(h, HASH_S3CRET);
	strcat(h, "A");			/* one long */
	assert_false(pa_web_bcrypt_ok(h));
	strcpy(h, HASH_S3CRET);
	h[30] = '+';			/* not bcrypt's base64 */
	assert_false(pa_web_bcrypt_ok(h));
	assert_false(pa_web_bcrypt_ok("$6$salt$abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRS"));
	assert_false(pa_web_bcrypt_ok(""));
}

static void auth(void **state)
{
	struct pa_web_config w;
	struct pa_web_auth a;
	char err[512];

	(void)state;
	assert_true(pa_web_equal("abc", "abc"));
	assert_false(pa_web_equal("abc", "abd"));
	assert_false(pa_web_equal("abc", "ab"));
	assert_false(pa_web_equal("", "a"));
	assert_int_equal(parse("basic_auth_users:\n  alice: " HASH_S3CRET "\n  bob: "
			       HASH_OTHER "\n", &w, err, sizeof(err)), 0);
	assert_int_equal(pa_web_auth_init(&a, &w, err, sizeof(err)), 0);
	assert_true(pa_web_auth_check(&a, "alice", "s3cret"));
	assert_true(pa_web_auth_check(&a, "alice", "s3cret"));	/* cached */
	assert_true(pa_web_auth_check(&a, "bob", "other"));
	assert_false(pa_web_auth_check(&a, "alice", "other"));	/* bob's */
	assert_false(pa_web_auth_check(&a, "bob", "s3cret"));
	assert_false(pa_web_auth_check(&a, "alice", "s3cre"));
	assert_false(pa_web_auth_check(&a, "alice", "s3cret "));
	assert_false(pa_web_auth_check(&a, "alice", ""));
	assert_false(pa_web_auth_check(&a, "carol", "s3cret"));	/* unknown */
	assert_false(pa_web_auth_check(&a, "Alice", "s3cret"));
	/* More passing pairs than the cache holds: still right. */
	for (int i = 0; i < PA_WEB_AUTH_CACHE + 2; i++)
		assert_true(pa_web_auth_check(&a, i % 2 ? "bob" : "alice",
					      i % 2 ? "other" : "s3cret"));
	assert_false(pa_web_auth_check(&a, "bob", "s3cret"));
	/* Another thread's bcrypt running: a cached pair still passes, any
	 * other is busy, not denied and not waited for. */
	pthread_mutex_lock(&a.bcrypt_lock);
	assert_int_equal(pa_web_auth_check(&a, "alice", "s3cret"), PA_WEB_AUTH_OK);
	assert_int_equal(pa_web_auth_check(&a, "alice", "guess"), PA_WEB_AUTH_BUSY);
	assert_int_equal(pa_web_auth_check(&a, "carol", "s3cret"), PA_WEB_AUTH_BUSY);
	pthread_mutex_unlock(&a.bcrypt_lock);
	assert_int_equal(pa_web_auth_check(&a, "alice", "guess"), PA_WEB_AUTH_DENIED);
	pa_web_auth_clear(&a);
	pa_web_config_clear(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(full),
		cmocka_unit_test(defaults),
		cmocka_unit_test(refused),
		cmocka_unit_test(bcrypt_hashes),
		cmocka_unit_test(auth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
