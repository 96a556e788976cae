/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Errors are negative errno values throughout. This maps them to exit codes
 * and to the single line pcieaudit-cli prints. Conventions:
 *   -ENOENT           the "pcieaudit" family is not registered
 *   -EPROTONOSUPPORT  the family's version is not PCIEAUDIT_FAMILY_VERSION
 *   -EBADMSG          a reply did not match the ABI
 *   -EINTR            a dump kept being interrupted by hotplug
 *   -EOPNOTSUPP       the module predates the command (commands are added
 *                     without a new family version)
 * anything else is passed on as the kernel or libc reported it.
 */
#ifndef PA_ERRORS_H
#define PA_ERRORS_H

#include <stddef.h>
#include <stdio.h>

#define PA_PROG "pcieaudit-cli"

/* What makes an error message specific; each part is optional. */
struct pa_errinfo {
	const char *op;			/* what failed, e.g. "device dump" */
	const char *bdf;		/* device the user asked for */
	unsigned int kernel_version;	/* family version the kernel reported */
	/* -ENOENT although the module is loaded: the family is registered in
	 * the initial network namespace only, and this is another one. */
	int other_netns;
	/* -ENOENT from the kernel's EPROTONOSUPPORT: netlink_dump_start()
	 * could not pin the module, which is on its way out (rmmod). */
	int module_going;
	char kernel_msg[256];		/* kernel's extended ack text, or "" */
};

/*
 * The one error every stage (load, analyse, render) and the option parser
 * report through: the exit code the README documents, and what the user
 * reads. main prints it once, as "pcieaudit-cli: MSG (HINT)".
 */
struct pa_error {
	int exit;			/* enum pa_exit; PA_EXIT_OK: none */
	char msg[1024];			/* one line, no prefix, no newline */
	char hint[128];			/* what to read next, or "" */
};

/* Sets *e to exit code exit and the message; returns exit. */
__attribute__((format(printf, 3, 4)))
int pa_error_set(struct pa_error *e, int exit, const char *fmt, ...);

/* Sets *e for err (negative errno) as pa_print_error() words it; returns
 * its exit code. */
int pa_error_errno(struct pa_error *e, int err, const struct pa_errinfo *ei);

/* A usage error (exit 2), pointing at the help. */
__attribute__((format(printf, 2, 3)))
int pa_error_usage(struct pa_error *e, const char *fmt, ...);

/* "pcieaudit-cli: MSG (HINT)\n" into buf (truncated to len). */
void pa_error_format(const struct pa_error *e, char *buf, size_t len);

/* Writes e as pa_error_format() does; returns e->exit. */
int pa_error_print(FILE *f, const struct pa_error *e);

/* --exit-codes: how check's and fleet's exit codes reach health checkers. */
enum pa_exit_style {
	PA_EXIT_STYLE_PCIEAUDIT,	/* exitcodes.h as it is */
	PA_EXIT_STYLE_NAGIOS,		/* 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN */
	PA_EXIT_STYLE_NPD,		/* Node Problem Detector: 0 OK, 1 problem,
					 * 3 (any other) unknown */
};

/* The style of that name, or -1. */
int pa_exit_style_lookup(const char *name);

/* rc (exitcodes.h) as style says it: findings of severity fail are
 * CRITICAL (npd: problem), warnings WARNING (npd: problem), every error
 * UNKNOWN. */
int pa_exit_style_map(int style, int rc);

/* enum pa_exit for a negative errno; 0 gives PA_EXIT_OK. */
int pa_exit_code(int err);

/* Writes "pcieaudit-cli: <message>\n" for err (negative errno). */
void pa_print_error(FILE *f, int err, const struct pa_errinfo *ei);

#endif /* PA_ERRORS_H */
