// SPDX-License-Identifier: GPL-2.0
#include "exporter.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <microhttpd.h>

#include "check.h"
#include "check_out.h"
#include "errors.h"
#include "exitcodes.h"
#include "listen_addr.h"
#include "load.h"
#include "metrics.h"
#include "policy.h"

/* Scrapers share one collector at a time: each scrape asks the module for
 * the whole tree, and the CLI's libraries keep process-wide state. */
static pthread_mutex_t collect_lock = PTHREAD_MUTEX_INITIALIZER;

/* Enough threads for several Prometheus servers and a curl; a stuck
 * client is dropped after the timeout. */
#define THREADS		4
#define MAX_CONNECTIONS	64
#define TIMEOUT_S	10

static const char content_type[] = "text/plain; version=0.0.4; charset=utf-8";

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
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

char *pa_exporter_collect(const struct pa_exporter_opts *o, size_t *len,
			  char *load_msg, size_t msglen)
{
	struct pa_policy pol;
	const struct pa_load l = {
		.input = o->input, .sysfs = o->sysfs, .lspci = o->lspci,
		.pairs = PA_PAIRS_DEFAULT, .host = true, .policy = &pol,
	};
	double start = now_s();
	struct pa_error e;
	struct pa_report rep;
	char *body = NULL;
	int up = 0, err = 0;
	FILE *f;

	f = open_memstream(&body, len);
	if (!f)
		return NULL;
	if (load_msg && msglen)
		load_msg[0] = '\0';
	pa_policy_default(&pol);
	if (pa_load_report(&l, &rep, &e)) {
		if (load_msg && msglen)
			pa_error_format(&e, load_msg, msglen);
	} else {
		up = 1;
		err = write_report(f, &rep, &pol);
	}
	pa_report_clear(&rep);
	pa_policy_clear(&pol);
	if (!err)
		err = pa_metrics_scrape(f, up, now_s() - start);
	if (fclose(f) || err) {
		free(body);
		return NULL;
	}
	return body;
}

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned int status,
			     const char *text)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(
		strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				"text/plain; charset=utf-8");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* The last load error printed, so a module that stays unloaded is logged
 * once, not at every scrape. */
static char last_msg[1024];

static enum MHD_Result serve_metrics(struct MHD_Connection *conn,
				     const struct pa_exporter_opts *o)
{
	struct MHD_Response *r;
	char msg[sizeof(last_msg)];
	enum MHD_Result ret;
	size_t len = 0;
	char *body;

	pthread_mutex_lock(&collect_lock);
	body = pa_exporter_collect(o, &len, msg, sizeof(msg));
	if (strcmp(msg, last_msg)) {
		if (msg[0])
			fputs(msg, stderr);
		memcpy(last_msg, msg, sizeof(msg));
	}
	pthread_mutex_unlock(&collect_lock);
	if (!body)
		return reply(conn, MHD_HTTP_INTERNAL_SERVER_ERROR,
			     "out of memory\n");
	r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
	ret = MHD_queue_response(conn, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn,
			      const char *url, const char *method,
			      const char *version, const char *upload_data,
			      size_t *upload_data_size, void **req_cls)
{
	static int first_call;
	bool get = !strcmp(method, MHD_HTTP_METHOD_GET);
	bool head = !strcmp(method, MHD_HTTP_METHOD_HEAD);

	(void)version;
	(void)upload_data;
	/* The first call only announces the request; answer on the second,
	 * once any body (ignored) has been read. */
	if (!*req_cls) {
		*req_cls = &first_call;
		return MHD_YES;
	}
	if (*upload_data_size) {
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (!get && !head)
		return reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
			     "only GET and HEAD\n");
	if (!strcmp(url, "/metrics"))
		return serve_metrics(conn, cls);
	if (!strcmp(url, "/"))
		return reply(conn, MHD_HTTP_OK,
			     "pcieaudit exporter: metrics at /metrics\n");
	return reply(conn, MHD_HTTP_NOT_FOUND, "not found; try /metrics\n");
}

int pa_exporter_run(const struct pa_exporter_opts *o)
{
	const char *listen = o->listen ? o->listen : PA_LISTEN_DEFAULT;
	struct sockaddr_storage ss;
	struct MHD_Daemon *d;
	/* No MHD_USE_ERROR_LOG: any client could fill the log. */
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL;
	sigset_t sigs, old;
	socklen_t slen;
	int sig;

	if (pa_listen_parse(listen, &ss, &slen)) {
		fprintf(stderr, "%s: invalid --listen '%s': expected ADDR:PORT, [ADDR6]:PORT or localhost:PORT with a numeric address (see '%s exporter --help')\n",
			PA_PROG, listen, PA_PROG);
		return PA_EXIT_USAGE;
	}
	if (ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	/* Threads MHD starts inherit the mask: only this one takes signals. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);
	signal(SIGPIPE, SIG_IGN);
	d = MHD_start_daemon(flags, 0, NULL, NULL, handle, (void *)o,
			     MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
			     MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)THREADS,
			     MHD_OPTION_CONNECTION_LIMIT, (unsigned int)MAX_CONNECTIONS,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)TIMEOUT_S,
			     MHD_OPTION_END);
	if (!d) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		fprintf(stderr, "%s: cannot listen on %s: %s\n", PA_PROG, listen,
			strerror(errno ? errno : EADDRINUSE));
		return PA_EXIT_RUNTIME;
	}
	fprintf(stderr, "%s: exporter listening on http://%s/metrics\n",
		PA_PROG, listen);
	while (sigwait(&sigs, &sig))
		;
	MHD_stop_daemon(d);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	fprintf(stderr, "%s: exporter stopped (%s)\n", PA_PROG,
		sig == SIGINT ? "SIGINT" : "SIGTERM");
	return PA_EXIT_OK;
}
