// SPDX-License-Identifier: GPL-2.0
/*
 * httpget: times GET requests against a local HTTP server, the way a
 * Prometheus scrape reaches the exporter, without a client's exec and
 * start-up cost in each figure.
 *
 *   httpget PORT PATH N OUTFILE [GAP_MS]
 *
 * Sends N requests one after another (GAP_MS apart, default 0), each on a
 * new connection to
 * 127.0.0.1:PORT ("GET PATH HTTP/1.0"), reads each reply to the end and
 * prints one line per request: "wall_us bytes status", the time from
 * connect() to the end of the reply on the monotonic clock. The last
 * reply's body goes to OUTFILE. Exit 0 when every reply said 200, 1
 * otherwise, 2 on a usage error.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* One request; the reply (headers and body) into *buf. The status or -1. */
static int get(int port, const char *path, char **buf, size_t *len)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	char req[512];
	size_t cap = *len ? *len : 65536, n = 0;
	int fd = socket(AF_INET, SOCK_STREAM, 0), status = -1;
	ssize_t r;

	if (fd < 0)
		return -1;
	snprintf(req, sizeof(req), "GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n", path);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    write(fd, req, strlen(req)) != (ssize_t)strlen(req))
		goto out;
	for (;;) {
		if (!*buf || n + 1 >= cap) {
			char *nb = realloc(*buf, cap *= 2);

			if (!nb)
				goto out;
			*buf = nb;
		}
		r = read(fd, *buf + n, cap - n - 1);
		if (r < 0)
			goto out;
		if (!r)
			break;
		n += (size_t)r;
	}
	(*buf)[n] = '\0';
	*len = n;
	if (sscanf(*buf, "HTTP/1.%*d %d", &status) != 1)
		status = -1;
out:
	close(fd);
	return status;
}

int main(int argc, char **argv)
{
	char *buf = NULL, *body;
	size_t len = 0;
	int port, n, gap, bad = 0;
	FILE *f;

	if (argc < 5 || argc > 6 || (port = atoi(argv[1])) <= 0 ||
	    (n = atoi(argv[3])) <= 0) {
		fprintf(stderr, "usage: httpget PORT PATH N OUTFILE [GAP_MS]\n");
		return 2;
	}
	gap = argc == 6 ? atoi(argv[5]) : 0;
	for (int i = 0; i < n; i++) {
		long long t;
		int status;

		if (i && gap > 0)
			usleep((useconds_t)gap * 1000);
		t = now_us();
		len = 0;
		status = get(port, argv[2], &buf, &len);
		printf("%lld %zu %d\n", now_us() - t, len, status);
		bad |= status != 200;
	}
	f = fopen(argv[4], "w");
	if (f && buf) {
		body = strstr(buf, "\r\n\r\n");
		fputs(body ? body + 4 : buf, f);
	}
	if (f)
		fclose(f);
	free(buf);
	return bad;
}
