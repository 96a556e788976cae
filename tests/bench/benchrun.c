// SPDX-License-Identifier: GPL-2.0
/*
 * benchrun: runs one command with its standard output in a file and prints
 * what it cost, measured from outside: wall time on the monotonic clock,
 * user and system CPU time and peak RSS from wait4()'s rusage.
 *
 *   benchrun OUTFILE COMMAND [ARG...]
 *
 * Prints one line: "wall_us user_us sys_us maxrss_kib status", where status
 * is the exit status, or 128 + the signal that ended it. Exits 2 on a
 * usage error and 3 when the command could not be run at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>

static long long us_of(const struct timeval *tv)
{
	return (long long)tv->tv_sec * 1000000 + tv->tv_usec;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	int status, out, rc;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: benchrun OUTFILE COMMAND [ARG...]\n");
		return 2;
	}
	out = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		fprintf(stderr, "benchrun: %s: %s\n", argv[1], strerror(errno));
		return 3;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		perror("benchrun: fork");
		return 3;
	}
	if (pid == 0) {
		if (dup2(out, STDOUT_FILENO) < 0)
			_exit(127);
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	close(out);
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("benchrun: wait4");
			return 3;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	printf("%lld %lld %lld %ld %d\n",
	       (long long)(t1.tv_sec - t0.tv_sec) * 1000000 +
	       (t1.tv_nsec - t0.tv_nsec) / 1000,
	       us_of(&ru.ru_utime), us_of(&ru.ru_stime), ru.ru_maxrss, rc);
	return 0;
}
