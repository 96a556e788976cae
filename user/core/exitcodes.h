/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exit codes of pcieaudit-cli. Scripts rely on them; never renumber.
 *
 *   0  success; for check: no warning or failure (info findings allowed)
 *   1  check: at least one finding of severity fail
 *   2  usage error: unknown command or option, malformed BDF
 *   3  runtime error: any other failure, from the kernel or locally
 *   4  kernel module not loaded: generic netlink family "pcieaudit" absent
 *   5  permission denied: the kernel answered EPERM/EACCES (needs root, or
 *      CAP_SYS_ADMIN and CAP_NET_ADMIN)
 *   6  ABI mismatch: the module's family version differs from the one this
 *      CLI was built for (PCIEAUDIT_FAMILY_VERSION)
 *   7  no such device: the kernel answered ENODEV for the requested BDF
 *   8  check: warnings, and no failure
 *   9  bad input: a policy file or snapshot that cannot be read or is
 *      malformed; the message names the file and the place in it
 */
#ifndef PA_EXITCODES_H
#define PA_EXITCODES_H

enum pa_exit {
	PA_EXIT_OK		= 0,
	PA_EXIT_FINDING		= 1,
	PA_EXIT_USAGE		= 2,
	PA_EXIT_RUNTIME		= 3,
	PA_EXIT_NO_MODULE	= 4,
	PA_EXIT_PERMISSION	= 5,
	PA_EXIT_ABI		= 6,
	PA_EXIT_NO_DEVICE	= 7,
	PA_EXIT_WARNINGS	= 8,
	PA_EXIT_BAD_INPUT	= 9,
};

#endif /* PA_EXITCODES_H */
