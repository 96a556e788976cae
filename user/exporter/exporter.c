// SPDX-License-Identifier: GPL-2.0
#include "exporter.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include "errors.h"
#include "exitcodes.h"
#include "exporter_collect.h"
#include "listen_addr.h"
#include "mhd_dl.h"

/*
 * Enough threads for several Prometheus servers and a curl. One local
 * process must not hide the host from monitoring: connections are many
 * (each an epoll entry, not a thread), and one that says nothing for
 * TIMEOUT_S is dropped. A scrape is served from memory, so a few seconds
 * are plenty. The per-address limit keeps one remote host from taking
 * every slot, yet stays high: local scrapers and local idlers share
 * 127.0.0.1, and a low one would let 300 idle local connections lock out
 * a local Prometheus (docs/monitoring.md, "Slow and idle clients").
 */
#define THREADS		4
#define MAX_CONNECTIONS	4096
#define PER_IP_CONNECTIONS	1024
#define TIMEOUT_S	5
/* Descriptors kept back from connections: the module's socket, sysfs. */
#define FD_RESERVE	64
/* sd_listen_fds(3): the first socket systemd passes. */
#define LISTEN_FDS_START	3

static const char content_type[] = "text/plain; version=0.0.4; charset=utf-8";

/* libmicrohttpd's calls, opened when the exporter starts. */
static struct pa_mhd mhd;

int pa_exporter_parse_interval(const char *text, double *seconds)
{
	char *end;
	double v;

	/* strtod() alone would take " 1", "inf" and "0x10". */
	if (!isdigit((unsigned char)text[0]) || strpbrk(text, "xX"))
		return -EINVAL;
	errno = 0;
	v = strtod(text, &end);
	if (errno || end == text || *end || !(v >= PA_EXPORTER_INTERVAL_MIN_S) ||
	    v > PA_EXPORTER_INTERVAL_MAX_S)
		return -EINVAL;
	*seconds = v;
	return 0;
}

/* The landing page, as node_exporter's: a name and a link. */
static const char landing[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\">"
	"<title>pcieaudit exporter</title></head>\n<body>\n<h1>pcieaudit exporter</h1>\n"
	"<p>PCIe links, AER counters and check's findings for Prometheus.</p>\n"
	"<p><a href=\"metrics\">Metrics</a></p>\n</body>\n</html>\n";

static enum MHD_Result reply_type(struct MHD_Connection *conn,
				  unsigned int status, const char *text,
				  const char *type)
{
	struct MHD_Response *r = mhd.create_response_from_buffer(
		strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		mhd.add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = mhd.queue_response(conn, status, r);
	mhd.destroy_response(r);
	return ret;
}

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned int status,
			     const char *text)
{
	return reply_type(conn, status, text, "text/plain; charset=utf-8");
}

static enum MHD_Result serve_metrics(struct MHD_Connection *conn,
				     struct pa_collector *c)
{
	struct MHD_Response *r;
	enum MHD_Result ret;
	size_t len = 0;
	char *body;

	body = pa_collector_body(c, &len);
	if (!body)
		return reply(conn, MHD_HTTP_INTERNAL_SERVER_ERROR,
			     "out of memory\n");
	r = mhd.create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
	ret = mhd.queue_response(conn, MHD_HTTP_OK, r);
	mhd.destroy_response(r);
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
		return reply_type(conn, MHD_HTTP_OK, landing, "text/html; charset=utf-8");
	return reply(conn, MHD_HTTP_NOT_FOUND, "not found; try /metrics\n");
}

/*
 * Connections the descriptor limit allows: the soft limit is raised to the
 * hard one as far as MAX_CONNECTIONS needs; fewer connections where the
 * hard limit is lower.
 */
static unsigned int connection_limit(void)
{
	rlim_t want = MAX_CONNECTIONS + FD_RESERVE;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return MAX_CONNECTIONS / 16;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
		rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > want ?
			      want : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want)
		return rl.rlim_cur > 2 * FD_RESERVE ?
		       (unsigned int)(rl.rlim_cur - FD_RESERVE) : FD_RESERVE;
	return MAX_CONNECTIONS;
}

/*
 * A listening socket systemd passed (sd_listen_fds(3)'s protocol:
 * LISTEN_PID is this process, LISTEN_FDS counts from fd 3), or -1. The
 * variables are removed so that nothing this process starts takes them.
 */
int pa_exporter_listen_fd(void)
{
	const char *pid = getenv("LISTEN_PID"), *n = getenv("LISTEN_FDS");
	int type = 0, fd = LISTEN_FDS_START;
	socklen_t len = sizeof(type);
	char *end;
	long v;

	if (!pid || !n)
		return -1;
	errno = 0;
	v = strtol(pid, &end, 10);
	if (errno || *end || v != (long)getpid())
		return -1;
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	v = strtol(n, &end, 10);
	if (*end || v < 1)
		return -1;
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) || type != SOCK_STREAM)
		return -2;
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	return fd;
}

int pa_exporter_run(struct pa_exporter_opts *o)
{
	const char *listen = o->listen ? o->listen : PA_LISTEN_DEFAULT;
	struct pa_collector *c;
	struct sockaddr_storage ss;
	struct MHD_Daemon *d;
	/* No MHD_USE_ERROR_LOG: any client could fill the log. */
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL;
	unsigned int conns = connection_limit();
	unsigned int per_ip = conns < PER_IP_CONNECTIONS ? conns : PER_IP_CONNECTIONS;
	int listen_fd = pa_exporter_listen_fd();
	sigset_t sigs, old;
	socklen_t slen;
	char why[256];
	int sig, err;

	if (listen_fd == -2) {
		fprintf(stderr, "%s: LISTEN_FDS names no stream socket at fd %d (socket activation: the .socket unit must have ListenStream=)\n",
			PA_PROG, LISTEN_FDS_START);
		return PA_EXIT_USAGE;
	}

	if (pa_listen_parse(listen, &ss, &slen)) {
		fprintf(stderr, "%s: invalid --listen '%s': expected ADDR:PORT, [ADDR6]:PORT or localhost:PORT with a numeric address (see '%s exporter --help')\n",
			PA_PROG, listen, PA_PROG);
		return PA_EXIT_USAGE;
	}
	o->interval_s = PA_EXPORTER_INTERVAL_DEFAULT_S;
	if (o->interval && pa_exporter_parse_interval(o->interval, &o->interval_s)) {
		fprintf(stderr, "%s: invalid --interval '%s': expected seconds from %g to %g (see '%s exporter --help')\n",
			PA_PROG, o->interval, PA_EXPORTER_INTERVAL_MIN_S,
			PA_EXPORTER_INTERVAL_MAX_S, PA_PROG);
		return PA_EXIT_USAGE;
	}
	if (pa_mhd_open(&mhd, why, sizeof(why))) {
		fprintf(stderr, "%s: the exporter needs libmicrohttpd (%s, Debian's libmicrohttpd12): %s\n",
			PA_PROG, PA_MHD_LIB, why);
		return PA_EXIT_RUNTIME;
	}
	if (listen_fd < 0 && ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	/* Threads MHD starts inherit the mask: only this one takes signals. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);
	signal(SIGPIPE, SIG_IGN);
	err = pa_collector_start(&c, o);
	if (err) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		fprintf(stderr, "%s: cannot start collecting: %s\n", PA_PROG,
			strerror(-err));
		return PA_EXIT_RUNTIME;
	}
	/* With a socket from systemd, --listen is the unit's business. */
	if (listen_fd >= 0)
		d = mhd.start_daemon(flags, 0, NULL, NULL, handle, c,
				     MHD_OPTION_LISTEN_SOCKET, listen_fd,
				     MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)THREADS,
				     MHD_OPTION_CONNECTION_LIMIT, conns,
				     MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip,
				     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)TIMEOUT_S,
				     MHD_OPTION_END);
	else
		d = mhd.start_daemon(flags, 0, NULL, NULL, handle, c,
				     MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
				     MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)THREADS,
				     MHD_OPTION_CONNECTION_LIMIT, conns,
				     MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip,
				     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)TIMEOUT_S,
				     MHD_OPTION_END);
	if (!d) {
		pa_collector_stop(c);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		fprintf(stderr, "%s: cannot listen on %s: %s\n", PA_PROG, listen,
			strerror(errno ? errno : EADDRINUSE));
		return PA_EXIT_RUNTIME;
	}
	if (listen_fd >= 0)
		fprintf(stderr, "%s: exporter serving /metrics on the socket systemd passed (collecting every %g s)\n",
			PA_PROG, o->interval_s);
	else
		fprintf(stderr, "%s: exporter listening on http://%s/metrics (collecting every %g s)\n",
			PA_PROG, listen, o->interval_s);
	while (sigwait(&sigs, &sig))
		;
	mhd.stop_daemon(d);
	pa_collector_stop(c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	fprintf(stderr, "%s: exporter stopped (%s)\n", PA_PROG,
		sig == SIGINT ? "SIGINT" : "SIGTERM");
	return PA_EXIT_OK;
}
