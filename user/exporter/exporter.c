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
#include <netinet/in.h>

#include "errors.h"
#include "exitcodes.h"
#include "exporter_collect.h"
#include "fileio.h"
#include "listen_addr.h"
#include "mhd_dl.h"
#include "privdrop.h"
#include "web_auth.h"
#include "web_config.h"
#include "web_tls.h"

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

/* --web-config: what every request goes through, read once at start. */
static struct pa_web_config web;
static struct pa_web_auth web_auth;
static struct pa_web_tls web_tls;
static struct pa_gnutls gnutls;

/* The realm of the 401's WWW-Authenticate (libmicrohttpd sends one). */
#define REALM "pcieaudit"

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

/* http_server_config.headers, on every response. */
static void add_headers(struct MHD_Response *r)
{
	for (size_t i = 0; i < web.nheaders; i++)
		mhd.add_response_header(r, web.headers[i].name, web.headers[i].value);
}

static enum MHD_Result reply_type(struct MHD_Connection *conn,
				  unsigned int status, const char *text,
				  const char *type)
{
	struct MHD_Response *r = mhd.create_response_from_buffer(
		strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	add_headers(r);
	mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		mhd.add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	if (status == MHD_HTTP_TOO_MANY_REQUESTS)
		mhd.add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, "1");
	if (status == MHD_HTTP_UNAUTHORIZED)
		ret = mhd.queue_basic_auth_fail_response(conn, REALM, r);
	else
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
	add_headers(r);
	mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
	ret = mhd.queue_response(conn, MHD_HTTP_OK, r);
	mhd.destroy_response(r);
	return ret;
}

/* The request's basic auth, parsed by libmicrohttpd, against the users. */
static enum pa_web_auth_verdict authorized(struct MHD_Connection *conn)
{
	char *pass = NULL;
	char *user = mhd.basic_auth_get_username_password(conn, &pass);
	enum pa_web_auth_verdict ok = user && pass ?
		pa_web_auth_check(&web_auth, user, pass) : PA_WEB_AUTH_DENIED;

	if (pass) {
		explicit_bzero(pass, strlen(pass));
		mhd.free(pass);
	}
	if (user)
		mhd.free(user);
	return ok;
}

/* A new connection: its TLS session gets the client certificate policy
 * before the handshake starts. */
static void notify(void *cls, struct MHD_Connection *conn, void **socket_ctx,
		   enum MHD_ConnectionNotificationCode code)
{
	const union MHD_ConnectionInfo *info;

	(void)cls;
	(void)socket_ctx;
	if (code != MHD_CONNECTION_NOTIFY_STARTED)
		return;
	info = mhd.get_connection_info(conn, MHD_CONNECTION_INFO_GNUTLS_SESSION);
	if (info)
		pa_web_tls_session(&web_tls, info->tls_session);
}

/*
 * --web-config: parsed, and its TLS files loaded by GnuTLS as libmicrohttpd
 * will load them, before anything listens. An exit code.
 */
static int web_setup(const char *path)
{
	char why[1024];
	size_t len;
	char *text;
	int rc;

	rc = pa_read_file(path, PA_WEB_PEM_MAX, &text, &len);
	if (rc) {
		fprintf(stderr, "%s: cannot read --web-config %s: %s\n", PA_PROG, path,
			rc == -EFBIG ? "larger than 1 MiB" : strerror(-rc));
		return rc == -ENOMEM ? PA_EXIT_RUNTIME : PA_EXIT_BAD_INPUT;
	}
	rc = pa_web_config_parse(path, text, len, &web, why, sizeof(why));
	free(text);
	if (!rc && web.tls) {
		if (pa_gnutls_open(&gnutls, why, sizeof(why))) {
			fprintf(stderr, "%s: --web-config's TLS needs GnuTLS (%s): %s\n",
				PA_PROG, PA_GNUTLS_LIB, why);
			return PA_EXIT_RUNTIME;
		}
		rc = pa_web_tls_load(&web_tls, &web, &gnutls, why, sizeof(why));
	}
	if (rc) {
		fprintf(stderr, "%s: invalid --web-config %s: %s\n", PA_PROG, path, why);
		return rc == -ENOMEM ? PA_EXIT_RUNTIME : PA_EXIT_BAD_INPUT;
	}
	rc = pa_web_auth_init(&web_auth, &web, why, sizeof(why));
	if (rc == -EINVAL) {
		fprintf(stderr, "%s: invalid --web-config %s: %s\n", PA_PROG, path, why);
		return PA_EXIT_BAD_INPUT;
	}
	if (rc) {
		fprintf(stderr, "%s: --web-config's basic_auth_users need libcrypt (%s): %s\n",
			PA_PROG, PA_CRYPT_LIB, why);
		return PA_EXIT_RUNTIME;
	}
	return PA_EXIT_OK;
}

static void web_clear(void)
{
	pa_web_auth_clear(&web_auth);
	pa_web_tls_clear(&web_tls);
	pa_web_config_clear(&web);
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
	/* basic_auth_users: every path and method, as exporter-toolkit. */
	switch (web.nusers ? authorized(conn) : PA_WEB_AUTH_OK) {
	case PA_WEB_AUTH_OK:
		break;
	case PA_WEB_AUTH_BUSY:
		return reply(conn, MHD_HTTP_TOO_MANY_REQUESTS,
			     "another password is being checked; retry\n");
	default:
		return reply(conn, MHD_HTTP_UNAUTHORIZED, "Unauthorized\n");
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

/*
 * The listening socket, bound before the privileges go (a port below 1024
 * needs CAP_NET_BIND_SERVICE) and handed to libmicrohttpd, whose threads
 * start only after the drop. As libmicrohttpd binds: SO_REUSEADDR, and an
 * IPv6 address for IPv6 alone. -errno.
 */
static int listen_socket(const struct sockaddr_storage *ss, socklen_t slen)
{
	int fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int one = 1, err;

	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    (ss->ss_family == AF_INET6 &&
	     setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one))) ||
	    bind(fd, (const struct sockaddr *)ss, slen) ||
	    listen(fd, SOMAXCONN)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

/*
 * --user: after every socket is open and before any thread starts
 * (privdrop.h). A file source is read at every collection: it must be
 * readable by the user. An exit code.
 */
static int drop_privileges(struct pa_exporter_opts *o,
			   const struct pa_privdrop *p)
{
	const char *file = o->input && strcmp(o->input, "-") ? o->input : o->lspci;
	char why[256];
	int err;

	if (!p->drop) {
		if (o->sysfs && geteuid() == 0)
			fprintf(stderr, "%s: --sysfs reads configuration space past 64 bytes, which sysfs gives root alone: the exporter keeps root's privileges\n",
				PA_PROG);
		else if (geteuid() == 0)
			fprintf(stderr, "%s: --user %s: the exporter keeps root's privileges\n",
				PA_PROG, p->name);
		return PA_EXIT_OK;
	}
	err = pa_privdrop_apply(p, why, sizeof(why));
	if (err) {
		fprintf(stderr, "%s: cannot drop privileges to %s: %s\n", PA_PROG,
			p->name, why);
		return PA_EXIT_RUNTIME;
	}
	o->dropped = true;
	o->user_name = p->name;
	if (file && access(file, R_OK)) {
		fprintf(stderr, "%s: %s is not readable by %s, whom the exporter runs as (--user): %s\n",
			PA_PROG, file, p->name, strerror(errno));
		return PA_EXIT_BAD_INPUT;
	}
	fprintf(stderr, "%s: running as %s, without capabilities and with no_new_privs%s\n",
		PA_PROG, p->name,
		!o->input && !o->lspci ? "; the module's sockets were opened before" : "");
	return PA_EXIT_OK;
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
	bool own_fd;
	struct MHD_OptionItem opts[16];
	struct pa_privdrop priv;
	size_t nopts = 0;
	sigset_t sigs, old;
	socklen_t slen;
	char why[512];
	int sig, err, rc;

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
	rc = pa_privdrop_plan(geteuid(), o->user, o->sysfs, &priv, why, sizeof(why));
	if (rc) {
		fprintf(stderr, "%s: %s (see '%s exporter --help')\n", PA_PROG, why, PA_PROG);
		return rc;
	}
	pa_web_config_clear(&web);
	if (o->web_config) {
		rc = web_setup(o->web_config);
		if (rc) {
			web_clear();
			return rc;
		}
	}
	if (pa_mhd_open(&mhd, why, sizeof(why))) {
		fprintf(stderr, "%s: the exporter needs libmicrohttpd (%s, Debian's libmicrohttpd12): %s\n",
			PA_PROG, PA_MHD_LIB, why);
		web_clear();
		return PA_EXIT_RUNTIME;
	}
	if (web.tls && mhd.is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
		fprintf(stderr, "%s: --web-config asks for TLS, which this libmicrohttpd was built without\n",
			PA_PROG);
		web_clear();
		return PA_EXIT_RUNTIME;
	}
	/* With a socket from systemd, --listen is the unit's business. */
	own_fd = listen_fd < 0;
	if (own_fd) {
		listen_fd = listen_socket(&ss, slen);
		if (listen_fd < 0) {
			fprintf(stderr, "%s: cannot listen on %s: %s\n", PA_PROG, listen,
				strerror(-listen_fd));
			web_clear();
			return PA_EXIT_RUNTIME;
		}
	}
	/* Threads MHD starts inherit the mask: only this one takes signals. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);
	signal(SIGPIPE, SIG_IGN);
	/* Every socket open, then the privileges go, then the threads. */
	err = pa_collector_open(&c, o);
	rc = err ? PA_EXIT_RUNTIME : drop_privileges(o, &priv);
	if (!rc) {
		err = pa_collector_run(c);
		rc = err ? PA_EXIT_RUNTIME : PA_EXIT_OK;
	}
	if (rc) {
		pa_collector_stop(c);
		web_clear();
		if (own_fd)
			close(listen_fd);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (err)
			fprintf(stderr, "%s: cannot start collecting: %s\n", PA_PROG,
				strerror(-err));
		return rc;
	}
#define OPT(o, v, p) (opts[nopts++] = (struct MHD_OptionItem){ (o), (intptr_t)(v), (p) })
	OPT(MHD_OPTION_LISTEN_SOCKET, listen_fd, NULL);
	OPT(MHD_OPTION_THREAD_POOL_SIZE, THREADS, NULL);
	OPT(MHD_OPTION_CONNECTION_LIMIT, conns, NULL);
	OPT(MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip, NULL);
	OPT(MHD_OPTION_CONNECTION_TIMEOUT, TIMEOUT_S, NULL);
	if (web.tls) {
		flags |= MHD_USE_TLS;
		OPT(MHD_OPTION_HTTPS_MEM_CERT, 0, web_tls.cert);
		OPT(MHD_OPTION_HTTPS_MEM_KEY, 0, web_tls.key);
		OPT(MHD_OPTION_HTTPS_PRIORITIES, 0, web_tls.priorities);
		if (web_tls.ca)
			OPT(MHD_OPTION_HTTPS_MEM_TRUST, 0, web_tls.ca);
		OPT(MHD_OPTION_NOTIFY_CONNECTION, (void *)notify, NULL);
	}
	OPT(MHD_OPTION_END, 0, NULL);
#undef OPT
	d = mhd.start_daemon(flags, 0, NULL, NULL, handle, c,
			     MHD_OPTION_ARRAY, opts, MHD_OPTION_END);
	if (!d) {
		err = errno;
		pa_collector_stop(c);
		web_clear();
		if (own_fd)
			close(listen_fd);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		fprintf(stderr, "%s: cannot serve on %s: %s\n", PA_PROG, listen,
			strerror(err ? err : EIO));
		return PA_EXIT_RUNTIME;
	}
	if (!own_fd)
		fprintf(stderr, "%s: exporter serving /metrics on the socket systemd passed (collecting every %g s)\n",
			PA_PROG, o->interval_s);
	else
		fprintf(stderr, "%s: exporter listening on %s://%s/metrics (collecting every %g s)\n",
			PA_PROG, web.tls ? "https" : "http", listen, o->interval_s);
	while (sigwait(&sigs, &sig))
		;
	mhd.stop_daemon(d);
	pa_collector_stop(c);
	web_clear();
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	fprintf(stderr, "%s: exporter stopped (%s)\n", PA_PROG,
		sig == SIGINT ? "SIGINT" : "SIGTERM");
	return PA_EXIT_OK;
}
