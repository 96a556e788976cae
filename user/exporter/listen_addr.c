// SPDX-License-Identifier: GPL-2.0
#include "listen_addr.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>

static int parse_port(const char *s, in_port_t *port)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 1 || v > 65535)
		return -EINVAL;
	*port = htons((uint16_t)v);
	return 0;
}

int pa_listen_parse(const char *s, struct sockaddr_storage *ss,
		    socklen_t *len)
{
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *in4 = (struct sockaddr_in *)ss;
	char host[INET6_ADDRSTRLEN + 1];
	const char *colon;
	size_t n;

	memset(ss, 0, sizeof(*ss));
	if (s[0] == '[') {
		const char *close = strchr(s, ']');

		if (!close || close[1] != ':')
			return -EINVAL;
		n = (size_t)(close - s - 1);
		if (!n || n >= sizeof(host))
			return -EINVAL;
		memcpy(host, s + 1, n);
		host[n] = '\0';
		in6->sin6_family = AF_INET6;
		*len = sizeof(*in6);
		if (inet_pton(AF_INET6, host, &in6->sin6_addr) != 1)
			return -EINVAL;
		return parse_port(close + 2, &in6->sin6_port);
	}
	colon = strrchr(s, ':');
	if (!colon || strchr(s, ':') != colon)
		return -EINVAL;
	n = (size_t)(colon - s);
	if (!n || n >= sizeof(host))
		return -EINVAL;
	memcpy(host, s, n);
	host[n] = '\0';
	if (!strcmp(host, "localhost"))
		strcpy(host, "127.0.0.1");
	in4->sin_family = AF_INET;
	*len = sizeof(*in4);
	if (inet_pton(AF_INET, host, &in4->sin_addr) != 1)
		return -EINVAL;
	return parse_port(colon + 1, &in4->sin_port);
}
