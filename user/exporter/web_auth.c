// SPDX-License-Identifier: GPL-2.0
#include "web_auth.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pa_web_auth_init(struct pa_web_auth *a, const struct pa_web_config *w,
		     char *why, size_t whylen)
{
	*a = (struct pa_web_auth){ .w = w };
	pthread_mutex_init(&a->lock, NULL);
	pthread_mutex_init(&a->bcrypt_lock, NULL);
	if (!w->nusers)
		return 0;
	if (pa_crypt_open(&a->crypt, why, whylen))
		return -ENOENT;
	for (size_t u = 0; u < w->nusers; u++)
		if (a->crypt.crypt_checksalt(w->users[u].value) != CRYPT_SALT_OK) {
			snprintf(why, whylen, "basic_auth_users: %s: libcrypt refuses the hash's setting",
				 w->users[u].name);
			return -EINVAL;
		}
	return 0;
}

void pa_web_auth_clear(struct pa_web_auth *a)
{
	for (size_t i = 0; i < PA_WEB_AUTH_CACHE; i++)
		free(a->cache[i].pass);
	pthread_mutex_destroy(&a->lock);
	pthread_mutex_destroy(&a->bcrypt_lock);
	*a = (struct pa_web_auth){ 0 };
}

bool pa_web_equal(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	volatile unsigned char d = la != lb;

	for (size_t i = 0; i < la && i < lb; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return !d;
}

/* libcrypt's bcrypt of pass with hash as the setting, compared with hash. */
static bool bcrypt_matches(const struct pa_crypt *c, const char *pass,
			   const char *hash)
{
	struct crypt_data *data = calloc(1, sizeof(*data));
	const char *out;
	bool ok;

	if (!data)
		return false;
	out = c->crypt_rn(pass, hash, data, sizeof(*data));
	ok = out && pa_web_equal(out, hash);
	explicit_bzero(data, sizeof(*data));
	free(data);
	return ok;
}

enum pa_web_auth_verdict pa_web_auth_check(struct pa_web_auth *a,
					   const char *user, const char *pass)
{
	const struct pa_web_config *w = a->w;
	size_t u;
	bool ok, cached = false;

	if (!w->nusers)
		return PA_WEB_AUTH_DENIED;
	for (u = 0; u < w->nusers && strcmp(w->users[u].name, user); u++)
		;
	pthread_mutex_lock(&a->lock);
	for (size_t i = 0; u < w->nusers && i < PA_WEB_AUTH_CACHE; i++)
		if (a->cache[i].pass && a->cache[i].user == u &&
		    pa_web_equal(a->cache[i].pass, pass))
			cached = true;
	pthread_mutex_unlock(&a->lock);
	if (cached)
		return PA_WEB_AUTH_OK;
	/*
	 * An unknown user costs the first user's bcrypt: no user names
	 * guessed by timing. No lock is waited for: a thread kept here would
	 * keep the scrapes of its other connections waiting too.
	 */
	if (pthread_mutex_trylock(&a->bcrypt_lock))
		return PA_WEB_AUTH_BUSY;
	ok = bcrypt_matches(&a->crypt, pass, w->users[u < w->nusers ? u : 0].value) &&
	     u < w->nusers;
	pthread_mutex_unlock(&a->bcrypt_lock);
	if (ok) {
		char *copy = strdup(pass);

		pthread_mutex_lock(&a->lock);
		if (copy) {
			free(a->cache[a->next].pass);
			a->cache[a->next].pass = copy;
			a->cache[a->next].user = u;
			a->next = (a->next + 1) % PA_WEB_AUTH_CACHE;
		}
		pthread_mutex_unlock(&a->lock);
	}
	return ok ? PA_WEB_AUTH_OK : PA_WEB_AUTH_DENIED;
}
