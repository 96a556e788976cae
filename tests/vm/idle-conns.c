// SPDX-License-Identifier: GPL-2.0
/*
 * idle-conns N PORT: opens N TCP connections to 127.0.0.1:PORT, prints how
 * many connected, and holds them idle, sending nothing, until killed. One
 * process opens them all within milliseconds: the exporter drops a
 * connection idle for 5 s, and 300 shell pipelines take longer than that
 * to start under TCG (guest-exporter.sh).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int n, ok = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: idle-conns N PORT\n");
		return 2;
	}
	n = atoi(argv[1]);
	a.sin_port = htons((unsigned short)atoi(argv[2]));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	for (int i = 0; i < n; i++) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		if (fd >= 0 && !connect(fd, (struct sockaddr *)&a, sizeof(a)))
			ok++;
	}
	printf("%d\n", ok);
	fflush(stdout);
	for (;;)
		pause();
}
