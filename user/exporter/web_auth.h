/* SPDX-License-Identifier: GPL-2.0 */
/*
 * basic_auth_users: a user and password checked against the bcrypt hashes
 * of the web configuration, by libcrypt (crypt_rn). As exporter-toolkit:
 * an unknown user costs a bcrypt too, one bcrypt runs at a time, and a
 * pair that passed is remembered so that a scrape costs no bcrypt. Unlike
 * Go's goroutines, libmicrohttpd's few threads would all queue behind a
 * flood of wrong passwords, and a cached scrape with them: a request that
 * finds a bcrypt running is turned away as busy instead of waiting.
 */
#ifndef PA_WEB_AUTH_H
#define PA_WEB_AUTH_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "mhd_dl.h"
#include "web_config.h"

#define PA_WEB_AUTH_CACHE 16

struct pa_web_auth {
	const struct pa_web_config *w;	/* not owned */
	struct pa_crypt crypt;		/* NULL calls: no users */
	pthread_mutex_t lock;		/* the cache: never held across a bcrypt */
	pthread_mutex_t bcrypt_lock;	/* one bcrypt at a time */
	struct {
		size_t user;		/* index in w->users */
		char *pass;		/* NULL: empty slot */
	} cache[PA_WEB_AUTH_CACHE];
	size_t next;			/* the slot replaced next */
};

/* Opens libcrypt when w has users, and asks it whether each hash's
 * setting is one it takes: 0, -ENOENT without libcrypt (dlerror's words
 * in why), -EINVAL naming the user whose hash it refuses. */
int pa_web_auth_init(struct pa_web_auth *a, const struct pa_web_config *w,
		     char *why, size_t whylen);
void pa_web_auth_clear(struct pa_web_auth *a);

enum pa_web_auth_verdict {
	PA_WEB_AUTH_DENIED,	/* no such user, or not its password */
	PA_WEB_AUTH_OK,
	PA_WEB_AUTH_BUSY,	/* not cached, and another bcrypt is running */
};

/* Whether user and pass are one of w's users and its password. */
enum pa_web_auth_verdict pa_web_auth_check(struct pa_web_auth *a,
					   const char *user, const char *pass);

/* Equal strings, in time that depends on their lengths alone. */
bool pa_web_equal(const char *a, const char *b);

#endif /* PA_WEB_AUTH_H */
