/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generic netlink conversation with the pcieaudit module: socket, family
 * lookup, version check, do and dump requests. The only code that sends or
 * receives; it knows nothing about the family's attributes.
 */
#ifndef PA_NL_H
#define PA_NL_H

#include <stddef.h>
#include <stdint.h>

#include "errors.h"

struct nl_msg;
struct pa_nl;

/* A dump interrupted by hotplug (NLM_F_DUMP_INTR) is restarted this often
 * before giving up with -EINTR. */
#define PA_NL_DUMP_RETRIES 3

struct pa_nl_reply {
	const char *what;	/* names the request in error messages */
	/* Called for each reply message; returns 0 or a negative errno,
	 * which ends the request. */
	int (*msg)(struct nl_msg *msg, void *arg);
	/* Dumps only: called before a restart, to drop what the interrupted
	 * attempt delivered. */
	void (*restart)(void *arg);
	void *arg;
};

/* A request's attributes, added again to each attempt of a dump. */
struct pa_nl_attrs {
	size_t len;		/* bytes they need at most, headers included */
	/* Returns 0 or a negative errno. */
	int (*put)(struct nl_msg *msg, const void *arg);
	const void *arg;
};

/*
 * Connects and looks the family up. Returns 0, -ENOENT when the family is
 * not registered (module not loaded), -EPROTONOSUPPORT when its version is
 * not PCIEAUDIT_FAMILY_VERSION, or another negative errno. Details of later
 * failures (the kernel's version, its extended ack message, the failed
 * request) go to *ei, which must outlive the handle.
 */
int pa_nl_open(struct pa_nl **nlp, struct pa_errinfo *ei);
void pa_nl_close(struct pa_nl *nl);

/*
 * pa_nl_open() in two steps, for a socket kept across many reports: the
 * module asks its capabilities of whoever opened the socket and of no one
 * else (kmod/netlink.c, pcieaudit_nl_perm()), so the exporter connects
 * while it holds them and keeps using the socket once it has dropped them.
 * pa_nl_connect() needs no module; 0 or a negative errno.
 */
int pa_nl_connect(struct pa_nl **nlp);

/*
 * Before each report on such a socket: drops whatever an earlier request
 * left queued, then looks the family up again (the module may have been
 * loaded, reloaded or unloaded since). Returns as pa_nl_open(); *ei then
 * takes the details until the next pa_nl_lookup().
 */
int pa_nl_lookup(struct pa_nl *nl, struct pa_errinfo *ei);

/* A do request for cmd, to add attributes to; NULL when out of memory. */
struct nl_msg *pa_nl_request(const struct pa_nl *nl, uint8_t cmd);

/* Sends req (the caller still owns it) and hands the reply to reply->msg. */
int pa_nl_do(struct pa_nl *nl, struct nl_msg *req,
	     const struct pa_nl_reply *reply);

/* Dumps cmd, restarting when the kernel flags the dump inconsistent. attrs
 * is NULL for a dump request without attributes. */
int pa_nl_dump(struct pa_nl *nl, uint8_t cmd, const struct pa_nl_attrs *attrs,
	       const struct pa_nl_reply *reply);

/* A negative libnl error code (-NLE_*) as a negative errno. */
int pa_nl_errno(int nle_err);

#endif /* PA_NL_H */
