// SPDX-License-Identifier: GPL-2.0
#include "exporter_collect.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netlink/msg.h>

#include "check.h"
#include "check_out.h"
#include "exitcodes.h"
#include "load.h"
#include "metrics.h"
#include "mon_socket.h"
#include "nl.h"
#include "policy.h"

/* Events only wake the collector; a small buffer is enough, and an
 * overflow (ENOBUFS) is itself a reason to collect. */
#define RCVBUF (64 << 10)

struct pa_collector {
	const struct pa_exporter_opts *o;
	pthread_t thread;
	int stop[2];			/* a pipe: a byte stops the thread */
	pthread_mutex_t lock;		/* guards body, len and st */
	char *body;
	size_t len;
	struct pa_collect_stats st;
	/* The thread's own. */
	char last_msg[1024];		/* the load error last printed */
	struct nl_sock *sk;		/* NULL: not listening (yet) */
	int family;
	bool event, gone;
	bool join_refused;		/* logged once */
	/* The module's socket, opened before the drop; NULL: not the source. */
	struct pa_nl *nl;
	double event_at;		/* when the first pending event came */
};

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double max_d(double a, double b)
{
	return a > b ? a : b;
}

static double min_d(double a, double b)
{
	return a < b ? a : b;
}

static int write_report(FILE *f, const struct pa_report *rep,
			const struct pa_policy *pol)
{
	struct pa_check c;
	int err = pa_check_run(rep, pol, &c);

	if (!err) {
		err = pa_metrics_devices(f, rep);
		if (!err)
			err = pa_check_prometheus(f, rep, &c);
		pa_check_clear(&c);
	}
	return err;
}

/* pa_exporter_collect() on nl, where not NULL; *code gets the load's exit
 * code (0 when loaded). */
static char *collect_body(const struct pa_exporter_opts *o, struct pa_nl *nl,
			  size_t *len, int *up, int *code, char *load_msg,
			  size_t msglen)
{
	struct pa_policy pol;
	const struct pa_load l = {
		.input = o->input, .sysfs = o->sysfs, .lspci = o->lspci,
		.pairs = PA_PAIRS_DEFAULT, .host = true, .policy = &pol,
		.nl = nl,
	};
	struct pa_error e;
	struct pa_report rep;
	char *body = NULL;
	int err = 0;
	FILE *f;

	*up = 0;
	*code = 0;
	f = open_memstream(&body, len);
	if (!f)
		return NULL;
	if (load_msg && msglen)
		load_msg[0] = '\0';
	pa_policy_default(&pol);
	/* --expect: the expect profile too, its findings as any other's. */
	if (o->expect) {
		pol.expect = o->expect;
		pol.profiles[PA_PROFILE_EXPECT] = true;
	}
	*code = pa_load_report(&l, &rep, &e);
	if (*code) {
		if (load_msg && msglen)
			pa_error_format(&e, load_msg, msglen);
	} else {
		*up = 1;
		err = write_report(f, &rep, &pol);
	}
	pa_report_clear(&rep);
	pa_policy_clear(&pol);
	if (fclose(f) || err) {
		free(body);
		return NULL;
	}
	return body;
}

char *pa_exporter_collect(const struct pa_exporter_opts *o, size_t *len,
			  int *up, char *load_msg, size_t msglen)
{
	int code;

	return collect_body(o, NULL, len, up, &code, load_msg, msglen);
}

static bool from_module(const struct pa_exporter_opts *o)
{
	return !o->input && !o->sysfs && !o->lspci;
}

static int on_msg(struct nl_msg *msg, void *arg)
{
	struct pa_collector *c = arg;

	if (pa_mon_family_removed(msg)) {
		c->gone = true;
		return NL_STOP;
	}
	if (nlmsg_hdr(msg)->nlmsg_type == c->family)
		c->event = true;
	return NL_OK;
}

static void listen_close(struct pa_collector *c)
{
	nl_socket_free(c->sk);
	c->sk = NULL;
}

/* Where the module is loaded and not listened to yet: listen. A module
 * loaded later is found at the next collection. */
static void listen_open(struct pa_collector *c)
{
	int err;

	if (c->sk || !from_module(c->o))
		return;
	err = pa_mon_socket_open(&c->sk, &c->family, RCVBUF, on_msg, c);
	if (err)
		c->sk = NULL;
	/* Since 6.7 (and in 6.1.y, 6.6.y) the kernel lets only CAP_SYS_ADMIN
	 * join the group: after the drop, a module loaded or reloaded
	 * later is collected every --interval only. */
	if (err == -EPERM && c->o->dropped && !c->join_refused) {
		fprintf(stderr, "%s: the module's monitor group refused %s (joining needs CAP_SYS_ADMIN, dropped since start): collecting every %g s only, without events, until the exporter is restarted\n",
			PA_PROG, c->o->user_name, c->o->interval_s);
		c->join_refused = true;
	}
}

/* Reads what is queued; any event, a loss, the module's removal or a
 * broken socket all ask for a collection. */
static void listen_drain(struct pa_collector *c)
{
	int err;

	for (;;) {
		err = nl_recvmsgs_default(c->sk);
		if (c->gone || (err < 0 && err != -NLE_AGAIN && err != -NLE_NOMEM)) {
			listen_close(c);
			c->gone = false;
			c->event = true;
			return;
		}
		if (err == -NLE_AGAIN)
			return;
		if (err == -NLE_NOMEM)	/* ENOBUFS: events were lost */
			c->event = true;
	}
}

static void collect(struct pa_collector *c, enum pa_collect_trigger why)
{
	char msg[sizeof(c->last_msg)];
	double start = clock_s(CLOCK_MONOTONIC), took;
	size_t len = 0;
	char *body;
	int up, code;

	body = collect_body(c->o, c->nl, &len, &up, &code, msg, sizeof(msg));
	took = clock_s(CLOCK_MONOTONIC) - start;
	if (!body)
		msg[0] = '\0';
	/* A module that asks the sending task too refuses every request
	 * once the exporter has dropped its privileges. */
	if (code == PA_EXIT_PERMISSION && c->o->dropped && c->nl &&
	    strlen(msg) + 1 < sizeof(msg))
		snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg),
			 "%s: the exporter dropped its privileges after opening its socket (--user): this version's pcieaudit.ko asks the socket's opener alone, an older one the sending task too; load this version's module, or run with --user root\n",
			 PA_PROG);
	if (strcmp(msg, c->last_msg)) {
		/* A module that stays unloaded is logged once. */
		if (msg[0])
			fputs(msg, stderr);
		memcpy(c->last_msg, msg, sizeof(msg));
	}
	pthread_mutex_lock(&c->lock);
	c->st.total[why]++;
	if (!body || !up)
		c->st.errors++;
	/* Out of memory: the previous body stays, and so does its age. */
	if (body) {
		free(c->body);
		c->body = body;
		c->len = len;
		c->st.up = up;
		c->st.timestamp = clock_s(CLOCK_REALTIME);
		c->st.duration = took;
	}
	pthread_mutex_unlock(&c->lock);
}

static void *collector_main(void *arg)
{
	struct pa_collector *c = arg;
	double now = clock_s(CLOCK_MONOTONIC);
	double next = now + c->o->interval_s, last = now, wake;
	enum pa_collect_trigger why;

	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = c->stop[0], .events = POLLIN },
			{ .fd = c->sk ? nl_socket_get_fd(c->sk) : -1, .events = POLLIN },
		};
		bool had_event = c->event;

		wake = next;
		if (c->event)
			wake = min_d(wake, max_d(c->event_at + PA_EVENT_SETTLE_MS / 1e3,
						 last + PA_EVENT_GAP_MS / 1e3));
		now = clock_s(CLOCK_MONOTONIC);
		/* +1: a wake-up just before the due time would only poll again. */
		if (poll(pfd, 2, wake > now ? (int)((wake - now) * 1e3) + 1 : 0) < 0 &&
		    errno != EINTR)
			break;
		if (pfd[0].revents)
			break;
		if (c->sk && pfd[1].revents)
			listen_drain(c);
		now = clock_s(CLOCK_MONOTONIC);
		if (c->event && !had_event)
			c->event_at = now;
		if (now >= next)
			why = PA_COLLECT_INTERVAL;
		else if (c->event && now >= c->event_at + PA_EVENT_SETTLE_MS / 1e3 &&
			 now >= last + PA_EVENT_GAP_MS / 1e3)
			why = PA_COLLECT_EVENT;
		else
			continue;
		/* Events from here on ask for the next collection. */
		c->event = false;
		last = now;
		collect(c, why);
		listen_open(c);
		next = clock_s(CLOCK_MONOTONIC) + c->o->interval_s;
	}
	return NULL;
}

int pa_collector_open(struct pa_collector **cp,
		      const struct pa_exporter_opts *o)
{
	struct pa_collector *c = calloc(1, sizeof(*c));
	int err;

	*cp = NULL;
	if (!c)
		return -ENOMEM;
	c->o = o;
	c->thread = pthread_self();
	if (pipe(c->stop)) {
		err = -errno;
		free(c);
		return err;
	}
	fcntl(c->stop[0], F_SETFD, FD_CLOEXEC);
	fcntl(c->stop[1], F_SETFD, FD_CLOEXEC);
	pthread_mutex_init(&c->lock, NULL);
	/* The module's sockets, while the privileges last: the module asks
	 * them of the opener. Listening first: an event during the first
	 * collection is not lost. The module may come later. */
	if (from_module(o)) {
		err = pa_nl_connect(&c->nl);
		if (err) {
			pa_collector_stop(c);
			return err;
		}
	}
	listen_open(c);
	*cp = c;
	return 0;
}

int pa_collector_run(struct pa_collector *c)
{
	int err;

	collect(c, PA_COLLECT_START);
	err = -pthread_create(&c->thread, NULL, collector_main, c);
	if (err)
		c->thread = pthread_self();	/* none to join */
	return err;
}

int pa_collector_start(struct pa_collector **cp,
		       const struct pa_exporter_opts *o)
{
	int err = pa_collector_open(cp, o);

	if (!err)
		err = pa_collector_run(*cp);
	if (err && *cp) {
		pa_collector_stop(*cp);
		*cp = NULL;
	}
	return err;
}

char *pa_collector_body(struct pa_collector *c, size_t *len)
{
	char *tail = NULL, *out = NULL;
	size_t tlen = 0;
	FILE *f;
	int err;

	pthread_mutex_lock(&c->lock);
	f = open_memstream(&tail, &tlen);
	if (f) {
		err = pa_metrics_collector(f, &c->st);
		if (!fclose(f) && !err)
			out = malloc(c->len + tlen + 1);
	}
	if (out) {
		if (c->len)
			memcpy(out, c->body, c->len);
		memcpy(out + c->len, tail, tlen + 1);
		*len = c->len + tlen;
	}
	pthread_mutex_unlock(&c->lock);
	free(tail);
	return out;
}

void pa_collector_stop(struct pa_collector *c)
{
	if (!c)
		return;
	if (!pthread_equal(c->thread, pthread_self())) {
		if (write(c->stop[1], "", 1) != 1)
			perror("exporter: stopping the collector");
		pthread_join(c->thread, NULL);
	}
	close(c->stop[0]);
	close(c->stop[1]);
	if (c->sk)
		listen_close(c);
	pa_nl_close(c->nl);
	pthread_mutex_destroy(&c->lock);
	free(c->body);
	free(c);
}
