// SPDX-License-Identifier: GPL-2.0
#include "web_config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "yaml_doc.h"

struct ctx {
	struct pa_yaml y;
	struct pa_web_config *w;
	const char *section;	/* "tls_server_config", ... for messages */
};

/* A string value: a scalar, neither null nor empty, without NUL. */
static int string(struct ctx *c, const yaml_node_t *n, const char *key,
		  const char **out)
{
	if (n->type != YAML_SCALAR_NODE)
		return pa_yaml_bad(&c->y, n, "%s.%s: expected a string, found %s",
			   c->section, key, pa_yaml_kind(n));
	if (pa_yaml_null(n))
		return pa_yaml_bad(&c->y, n, "%s.%s: empty", c->section, key);
	if (pa_yaml_has_nul(n))
		return pa_yaml_bad(&c->y, n, "%s.%s: contains a NUL byte", c->section, key);
	*out = pa_yaml_text(n);
	return 0;
}

static int dup(struct ctx *c, const yaml_node_t *n, const char *s, char **out)
{
	(void)n;
	(void)c;
	free(*out);
	*out = strdup(s);
	return *out ? 0 : -ENOMEM;
}

/* ---- Keys ---------------------------------------------------------------- */

typedef int (*value_fn)(struct ctx *c, yaml_node_t *v, const char *key);

struct key {
	const char *name;
	value_fn fn;	/* NULL: exporter-toolkit's, not supported here */
};

/*
 * A section: a mapping (or null, for none of its keys). Unknown and
 * repeated keys are refused at the key, with the known ones named.
 */
static int mapping(struct ctx *c, yaml_node_t *map, const struct key *keys,
		   size_t nkeys)
{
	yaml_node_pair_t *pair;
	char names[512], prefix[64];
	int err = 0;

	if (pa_yaml_null(map))
		return 0;
	if (map->type != YAML_MAPPING_NODE)
		return pa_yaml_bad(&c->y, map, "%s: expected a mapping, found %s", c->section,
			   pa_yaml_kind(map));
	for (pair = map->data.mapping.pairs.start;
	     !err && pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = yaml_document_get_node(c->y.doc, pair->key);
		yaml_node_t *v = yaml_document_get_node(c->y.doc, pair->value);
		const char *name;
		size_t i, used = 0;

		snprintf(prefix, sizeof(prefix), "%s: ", c->section);
		err = pa_yaml_key(&c->y, map, pair, prefix, &name);
		if (err)
			return err;
		for (i = 0; i < nkeys && strcmp(keys[i].name, name); i++)
			;
		if (i == nkeys) {
			names[0] = '\0';
			for (size_t j = 0; j < nkeys && used < sizeof(names); j++)
				if (keys[j].fn)
					used += (size_t)snprintf(names + used, sizeof(names) - used,
								 "%s%s", used ? ", " : "", keys[j].name);
			return pa_yaml_bad(&c->y, k, "%s: unknown key '%s' (expected %s)",
				   c->section, name, names);
		}
		if (!keys[i].fn)
			return pa_yaml_bad(&c->y, k, "%s%s%s: exporter-toolkit's, but pcieaudit does not support it (docs/monitoring.md, \"Web configuration\")",
				   c->section[0] == 't' && c->section[1] == 'h' ? "" : c->section,
				   c->section[0] == 't' && c->section[1] == 'h' ? "" : ".", name);
		err = keys[i].fn(c, v, name);
	}
	return err;
}

/* ---- tls_server_config --------------------------------------------------- */

/* A file name, relative to the configuration file's directory. */
static int tls_file(struct ctx *c, yaml_node_t *v, const char *key, char **out)
{
	const char *s, *slash = strrchr(c->y.name, '/');
	int err = string(c, v, key, &s);
	size_t dir = slash ? (size_t)(slash - c->y.name) + 1 : 0;

	if (err)
		return err;
	c->w->tls = true;
	free(*out);
	*out = malloc(dir + strlen(s) + 1);
	if (!*out)
		return -ENOMEM;
	if (s[0] == '/')
		dir = 0;
	memcpy(*out, c->y.name, dir);
	strcpy(*out + dir, s);
	return 0;
}

static int tls_inline(struct ctx *c, yaml_node_t *v, const char *key, char **out)
{
	const char *s;
	int err = string(c, v, key, &s);

	if (err)
		return err;
	c->w->tls = true;
	return dup(c, v, s, out);
}

static int tls_cert_file(struct ctx *c, yaml_node_t *v, const char *key)
{
	return tls_file(c, v, key, &c->w->cert_file);
}

static int tls_key_file(struct ctx *c, yaml_node_t *v, const char *key)
{
	return tls_file(c, v, key, &c->w->key_file);
}

static int tls_ca_file(struct ctx *c, yaml_node_t *v, const char *key)
{
	return tls_file(c, v, key, &c->w->client_ca_file);
}

static int tls_cert(struct ctx *c, yaml_node_t *v, const char *key)
{
	return tls_inline(c, v, key, &c->w->cert);
}

static int tls_key(struct ctx *c, yaml_node_t *v, const char *key)
{
	return tls_inline(c, v, key, &c->w->key);
}

static int tls_ca(struct ctx *c, yaml_node_t *v, const char *key)
{
	return tls_inline(c, v, key, &c->w->client_ca);
}

static const char *const auth_names[] = {
	[PA_CLIENT_NO_CERT] = "NoClientCert",
	[PA_CLIENT_REQUEST] = "RequestClientCert",
	[PA_CLIENT_REQUIRE_ANY] = "RequireAnyClientCert",
	[PA_CLIENT_VERIFY_IF_GIVEN] = "VerifyClientCertIfGiven",
	[PA_CLIENT_REQUIRE_VERIFY] = "RequireAndVerifyClientCert",
};

const char *pa_web_client_auth_name(enum pa_client_auth a)
{
	return auth_names[a];
}

static int tls_client_auth(struct ctx *c, yaml_node_t *v, const char *key)
{
	const char *s;
	int err = string(c, v, key, &s);

	if (err)
		return err;
	c->w->tls = true;
	/* RequireClientCert: exporter-toolkit's older name. */
	if (!strcmp(s, "RequireClientCert")) {
		c->w->client_auth = PA_CLIENT_REQUIRE_ANY;
		return 0;
	}
	for (size_t i = 0; i < sizeof(auth_names) / sizeof(auth_names[0]); i++)
		if (!strcmp(s, auth_names[i])) {
			c->w->client_auth = (enum pa_client_auth)i;
			return 0;
		}
	return pa_yaml_bad(&c->y, v, "%s.%s: unknown '%s' (expected NoClientCert, RequestClientCert, RequireAnyClientCert, VerifyClientCertIfGiven or RequireAndVerifyClientCert)",
		   c->section, key, s);
}

static int tls_version(struct ctx *c, yaml_node_t *v, const char *key)
{
	static const char *const names[] = { "TLS10", "TLS11", "TLS12", "TLS13" };
	const char *s;
	int err = string(c, v, key, &s);

	if (err)
		return err;
	c->w->tls = true;
	for (int i = 0; i < 4; i++)
		if (!strcmp(s, names[i])) {
			*(key[1] == 'i' ? &c->w->min_version : &c->w->max_version) =
				(enum pa_tls_version)(PA_TLS10 + i);
			return 0;
		}
	return pa_yaml_bad(&c->y, v, "%s.%s: unknown TLS version '%s' (expected TLS10, TLS11, TLS12 or TLS13)",
		   c->section, key, s);
}

static int tls_section(struct ctx *c, yaml_node_t *v, const char *key)
{
	static const struct key keys[] = {
		{ "cert_file", tls_cert_file }, { "key_file", tls_key_file },
		{ "client_auth_type", tls_client_auth },
		{ "client_ca_file", tls_ca_file }, { "min_version", tls_version },
		{ "max_version", tls_version }, { "cert", tls_cert },
		{ "key", tls_key }, { "client_ca", tls_ca },
		{ "cipher_suites", NULL }, { "curve_preferences", NULL },
		{ "prefer_server_cipher_suites", NULL },
		{ "client_allowed_sans", NULL },
	};

	c->section = key;
	return mapping(c, v, keys, sizeof(keys) / sizeof(keys[0]));
}

/* ---- http_server_config -------------------------------------------------- */

static int http2(struct ctx *c, yaml_node_t *v, const char *key)
{
	static const char *const yes[] = { "true", "True", "TRUE" };
	static const char *const no[] = { "false", "False", "FALSE" };

	if (v->type == YAML_SCALAR_NODE && v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
		for (int i = 0; i < 3; i++)
			if (!strcmp(pa_yaml_text(v), yes[i]) || !strcmp(pa_yaml_text(v), no[i])) {
				c->w->http2 = pa_yaml_text(v)[0] == 't' || pa_yaml_text(v)[0] == 'T';
				return 0;
			}
	return pa_yaml_bad(&c->y, v, "%s.%s: expected true or false", c->section, key);
}

/* exporter-toolkit's extraHTTPHeaders: the only ones it sets, and the
 * values it allows where it names them. */
static const struct {
	const char *name;
	const char *values[2];
} header_names[] = {
	{ "Strict-Transport-Security", { NULL } },
	{ "X-Content-Type-Options", { "nosniff" } },
	{ "X-Frame-Options", { "deny", "sameorigin" } },
	{ "X-XSS-Protection", { NULL } },
	{ "Content-Security-Policy", { NULL } },
};

#define NHEADER_NAMES (sizeof(header_names) / sizeof(header_names[0]))

static int headers(struct ctx *c, yaml_node_t *map, const char *key)
{
	yaml_node_pair_t *pair;

	if (pa_yaml_null(map))
		return 0;
	if (map->type != YAML_MAPPING_NODE)
		return pa_yaml_bad(&c->y, map, "%s.%s: expected a mapping, found %s", c->section,
			   key, pa_yaml_kind(map));
	for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = yaml_document_get_node(c->y.doc, pair->key);
		yaml_node_t *v = yaml_document_get_node(c->y.doc, pair->value);
		struct pa_web_pair *h;
		const char *name, *value = "";
		size_t i;

		if (k->type != YAML_SCALAR_NODE)
			return pa_yaml_bad(&c->y, k, "%s.%s: a header's name must be a string",
				   c->section, key);
		name = pa_yaml_text(k);
		for (i = 0; i < NHEADER_NAMES && strcmp(header_names[i].name, name); i++)
			;
		if (i == NHEADER_NAMES)
			return pa_yaml_bad(&c->y, k, "%s.%s: header '%s' cannot be set (exporter-toolkit's list: Strict-Transport-Security, X-Content-Type-Options, X-Frame-Options, X-XSS-Protection, Content-Security-Policy)",
				   c->section, key, name);
		for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < pair; q++)
			if (!strcmp(pa_yaml_text(yaml_document_get_node(c->y.doc, q->key)), name))
				return pa_yaml_bad(&c->y, k, "%s.%s: duplicate header '%s'", c->section,
					   key, name);
		if (v->type != YAML_SCALAR_NODE)
			return pa_yaml_bad(&c->y, v, "%s.%s.%s: expected a string, found %s",
				   c->section, key, name, pa_yaml_kind(v));
		if (!pa_yaml_null(v))
			value = pa_yaml_text(v);
		if (strlen(value) != v->data.scalar.length && !pa_yaml_null(v))
			return pa_yaml_bad(&c->y, v, "%s.%s.%s: contains a NUL byte", c->section, key, name);
		if (strpbrk(value, "\r\n"))
			return pa_yaml_bad(&c->y, v, "%s.%s.%s: a line break in a header's value",
				   c->section, key, name);
		/* Blank: unset, as exporter-toolkit's documentation says. */
		if (!value[0])
			continue;
		if (header_names[i].values[0] && strcmp(value, header_names[i].values[0]) &&
		    (!header_names[i].values[1] || strcmp(value, header_names[i].values[1])))
			return pa_yaml_bad(&c->y, v, "%s.%s.%s: '%s' is not allowed (expected %s%s%s)",
				   c->section, key, name, value, header_names[i].values[0],
				   header_names[i].values[1] ? " or " : "",
				   header_names[i].values[1] ? header_names[i].values[1] : "");
		h = realloc(c->w->headers, (c->w->nheaders + 1) * sizeof(*h));
		if (!h)
			return -ENOMEM;
		c->w->headers = h;
		h = &h[c->w->nheaders];
		*h = (struct pa_web_pair){ strdup(name), strdup(value) };
		c->w->nheaders++;
		if (!h->name || !h->value)
			return -ENOMEM;
	}
	return 0;
}

static int http_section(struct ctx *c, yaml_node_t *v, const char *key)
{
	static const struct key keys[] = {
		{ "http2", http2 }, { "headers", headers },
	};

	c->section = key;
	return mapping(c, v, keys, sizeof(keys) / sizeof(keys[0]));
}

/* ---- basic_auth_users ---------------------------------------------------- */

bool pa_web_bcrypt_ok(const char *hash)
{
	static const char b64[] =
		"./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	int cost;

	/* $2x$NN$ and 22 characters of salt, 31 of digest: 60 in all. */
	if (strlen(hash) != 60 || strncmp(hash, "$2", 2) || !strchr("aby", hash[2]) ||
	    hash[3] != '$' || hash[4] < '0' || hash[4] > '9' || hash[5] < '0' ||
	    hash[5] > '9' || hash[6] != '$' || strspn(hash + 7, b64) != 53)
		return false;
	cost = (hash[4] - '0') * 10 + hash[5] - '0';
	/* libcrypt's own word on the setting comes at start
	 * (pa_web_auth_init): only the exporter maps libcrypt. */
	return cost >= 4 && cost <= 31;
}

static int users(struct ctx *c, yaml_node_t *map, const char *key)
{
	yaml_node_pair_t *pair;

	c->section = key;
	if (pa_yaml_null(map))
		return 0;
	if (map->type != YAML_MAPPING_NODE)
		return pa_yaml_bad(&c->y, map, "%s: expected a mapping of user names to bcrypt hashes, found %s",
			   key, pa_yaml_kind(map));
	for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = yaml_document_get_node(c->y.doc, pair->key);
		yaml_node_t *v = yaml_document_get_node(c->y.doc, pair->value);
		struct pa_web_pair *u;
		const char *name, *hash;
		int err;

		if (k->type != YAML_SCALAR_NODE || pa_yaml_null(k) ||
		    strlen(pa_yaml_text(k)) != k->data.scalar.length)
			return pa_yaml_bad(&c->y, k, "%s: a user name must be a non-empty string", key);
		name = pa_yaml_text(k);
		/* Basic auth's user-pass is user ":" pass. */
		if (strchr(name, ':'))
			return pa_yaml_bad(&c->y, k, "%s: user name '%s' contains ':', which basic auth cannot send",
				   key, name);
		for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < pair; q++)
			if (!strcmp(pa_yaml_text(yaml_document_get_node(c->y.doc, q->key)), name))
				return pa_yaml_bad(&c->y, k, "%s: duplicate user '%s'", key, name);
		err = string(c, v, name, &hash);
		if (err)
			return err;
		if (!pa_web_bcrypt_ok(hash))
			return pa_yaml_bad(&c->y, v, "%s.%s: not a bcrypt hash ($2y$, $2b$ or $2a$, cost 04 to 31, 60 characters; htpasswd -nBC 10 \"\" makes one)",
				   key, name);
		u = realloc(c->w->users, (c->w->nusers + 1) * sizeof(*u));
		if (!u)
			return -ENOMEM;
		c->w->users = u;
		u = &u[c->w->nusers];
		*u = (struct pa_web_pair){ strdup(name), strdup(hash) };
		c->w->nusers++;
		if (!u->name || !u->value)
			return -ENOMEM;
	}
	return 0;
}

/* ---- The document -------------------------------------------------------- */

/* What exporter-toolkit checks once the keys are read, and a little more:
 * a configuration that could serve nothing is refused here. */
static int whole(struct ctx *c, yaml_node_t *root)
{
	struct pa_web_config *w = c->w;
	bool ca = w->client_ca_file || w->client_ca;

	c->section = "tls_server_config";
	if (!w->tls)
		return 0;
	if (w->cert_file && w->cert)
		return pa_yaml_bad(&c->y, root, "tls_server_config: cert_file and cert both given; give one");
	if (w->key_file && w->key)
		return pa_yaml_bad(&c->y, root, "tls_server_config: key_file and key both given; give one");
	if (w->client_ca_file && w->client_ca)
		return pa_yaml_bad(&c->y, root, "tls_server_config: client_ca_file and client_ca both given; give one");
	if (!w->cert_file && !w->cert)
		return pa_yaml_bad(&c->y, root, "tls_server_config: missing cert_file (or cert)");
	if (!w->key_file && !w->key)
		return pa_yaml_bad(&c->y, root, "tls_server_config: missing key_file (or key)");
	if (ca && w->client_auth == PA_CLIENT_NO_CERT)
		return pa_yaml_bad(&c->y, root, "tls_server_config: client CAs configured without a client_auth_type (VerifyClientCertIfGiven or RequireAndVerifyClientCert)");
	if (!ca && (w->client_auth == PA_CLIENT_VERIFY_IF_GIVEN ||
		    w->client_auth == PA_CLIENT_REQUIRE_VERIFY))
		return pa_yaml_bad(&c->y, root, "tls_server_config: client_auth_type %s needs client_ca_file (or client_ca): pcieaudit does not trust the system's CAs for clients",
			   pa_web_client_auth_name(w->client_auth));
	if (w->min_version > w->max_version)
		return pa_yaml_bad(&c->y, root, "tls_server_config: min_version TLS%d is above max_version TLS%d",
			   w->min_version, w->max_version);
	return 0;
}

static int parse_root(struct ctx *c, yaml_node_t *root)
{
	static const struct key keys[] = {
		{ "tls_server_config", tls_section },
		{ "http_server_config", http_section },
		{ "basic_auth_users", users },
		{ "rate_limit", NULL },
	};
	int err;

	c->section = "the web configuration";
	err = mapping(c, root, keys, sizeof(keys) / sizeof(keys[0]));
	return err ? err : whole(c, root);
}

void pa_web_config_clear(struct pa_web_config *w)
{
	free(w->cert_file);
	free(w->key_file);
	free(w->client_ca_file);
	free(w->cert);
	free(w->key);
	free(w->client_ca);
	for (size_t i = 0; i < w->nusers; i++) {
		free(w->users[i].name);
		free(w->users[i].value);
	}
	free(w->users);
	for (size_t i = 0; i < w->nheaders; i++) {
		free(w->headers[i].name);
		free(w->headers[i].value);
	}
	free(w->headers);
	*w = (struct pa_web_config){
		.min_version = PA_TLS12, .max_version = PA_TLS13, .http2 = true,
	};
}

/* An empty file: exporter-toolkit's "no TLS, no auth". */
static int web_root(void *arg, yaml_node_t *root)
{
	return root ? parse_root(arg, root) : 0;
}

int pa_web_config_parse(const char *name, const char *text, size_t len,
			struct pa_web_config *w, char *err, size_t errlen)
{
	struct ctx c = { { name, err, errlen, NULL }, w, "" };
	int ret;

	*w = (struct pa_web_config){ 0 };
	pa_web_config_clear(w);
	ret = pa_yaml_load(&c.y, text, len, "a web configuration", web_root, &c);
	if (ret)
		pa_web_config_clear(w);
	return ret;
}
void pa_web_priorities(const struct pa_web_config *w, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "NORMAL:-VERS-ALL");

	for (int v = w->max_version; v >= (int)w->min_version && used < len; v--)
		used += (size_t)snprintf(buf + used, len - used, ":+VERS-TLS1.%d",
					 v - PA_TLS10);
}
