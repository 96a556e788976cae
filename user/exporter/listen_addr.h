/* SPDX-License-Identifier: GPL-2.0 */
/* The exporter's --listen ADDR:PORT, parsed. Pure. */
#ifndef PA_LISTEN_ADDR_H
#define PA_LISTEN_ADDR_H

#include <sys/socket.h>

/* Loopback only unless told otherwise: the metrics name the host's devices. */
#define PA_LISTEN_DEFAULT "127.0.0.1:9862"

/*
 * "192.0.2.1:9862", "[::1]:9862" or "localhost:9862" (127.0.0.1): numeric
 * addresses only, so nothing is resolved and the bind is what was asked.
 * Port 1-65535. 0 or -EINVAL.
 */
int pa_listen_parse(const char *s, struct sockaddr_storage *ss,
		    socklen_t *len);

#endif /* PA_LISTEN_ADDR_H */
