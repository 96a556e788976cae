// SPDX-License-Identifier: GPL-2.0
#include "errors.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <linux/pcieaudit.h>

#include "exitcodes.h"

int pa_exit_code(int err)
{
	switch (-err) {
	case 0:
		return PA_EXIT_OK;
	case ENOENT:
		return PA_EXIT_NO_MODULE;
	case EPERM:
	case EACCES:
		return PA_EXIT_PERMISSION;
	case EPROTONOSUPPORT:
		return PA_EXIT_ABI;
	case ENODEV:
		return PA_EXIT_NO_DEVICE;
	default:
		return PA_EXIT_RUNTIME;
	}
}

static const char *op_or(const struct pa_errinfo *ei, const char *fallback)
{
	return ei->op ? ei->op : fallback;
}

static void print_message(FILE *f, int err, const struct pa_errinfo *ei)
{
	switch (-err) {
	case ENOENT:
		if (ei->other_netns) {
			fprintf(f, "the pcieaudit module is loaded, but its generic netlink family \"%s\" is not reachable from this network namespace: it serves the host's initial network namespace only; run %s there (a container needs the host network, e.g. docker --network host; or nsenter --net=/proc/1/ns/net)",
				PCIEAUDIT_FAMILY_NAME, PA_PROG);
			break;
		}
		if (ei->module_going) {
			fprintf(f, "the pcieaudit module was being unloaded: the kernel refused to start the %s",
				op_or(ei, "dump"));
			break;
		}
		/* The family is hidden from other network namespaces. */
		fprintf(f, "kernel module not loaded: generic netlink family \"%s\" not found; load it with 'modprobe pcieaudit' or install it via DKMS (see docs/install.md); containers need the host's network namespace",
			PCIEAUDIT_FAMILY_NAME);
		break;
	case EPERM:
	case EACCES:
		fprintf(f, "permission denied for the %s: run as root, or with CAP_SYS_ADMIN and CAP_NET_ADMIN",
			op_or(ei, "request"));
		break;
	case EPROTONOSUPPORT:
		fprintf(f, "ABI version mismatch: the loaded module speaks family version %u, this %s speaks version %d; install a module and CLI from the same release",
			ei->kernel_version, PA_PROG, PCIEAUDIT_FAMILY_VERSION);
		break;
	case ENODEV:
		if (ei->bdf)
			fprintf(f, "no such PCI device: %s", ei->bdf);
		else
			fprintf(f, "%s failed: no such device", op_or(ei, "request"));
		break;
	case EBADMSG:
		fprintf(f, "malformed reply from the kernel module to the %s; are module and CLI from the same release?",
			op_or(ei, "request"));
		break;
	case EINTR:
		fprintf(f, "PCI devices kept appearing or disappearing during the %s; try again",
			op_or(ei, "dump"));
		break;
	case EOPNOTSUPP:
		/* Commands are only ever added to the family, without a new
		 * version: an older module lacks the newer ones. */
		fprintf(f, "the loaded kernel module does not answer the %s: it is older than this %s; install a module from the same release",
			op_or(ei, "request"), PA_PROG);
		break;
	default:
		fprintf(f, "%s failed: %s", op_or(ei, "operation"), strerror(-err));
		break;
	}
}

int pa_error_set(struct pa_error *e, int exit, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	e->hint[0] = '\0';
	e->exit = exit;
	return exit;
}

int pa_error_usage(struct pa_error *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	snprintf(e->hint, sizeof(e->hint), "see '%s --help'", PA_PROG);
	e->exit = PA_EXIT_USAGE;
	return e->exit;
}

int pa_error_errno(struct pa_error *e, int err, const struct pa_errinfo *ei)
{
	/* One byte kept back: the text stays terminated if it fills the rest. */
	FILE *f = fmemopen(e->msg, sizeof(e->msg) - 1, "w");

	memset(e->msg, 0, sizeof(e->msg));
	if (f) {
		print_message(f, err, ei);
		if (ei->kernel_msg[0])
			fprintf(f, " (kernel: %s)", ei->kernel_msg);
		fclose(f);
	}
	e->hint[0] = '\0';
	e->exit = pa_exit_code(err);
	return e->exit;
}

void pa_error_format(const struct pa_error *e, char *buf, size_t len)
{
	if (e->hint[0])
		snprintf(buf, len, "%s: %s (%s)\n", PA_PROG, e->msg, e->hint);
	else
		snprintf(buf, len, "%s: %s\n", PA_PROG, e->msg);
}

int pa_error_print(FILE *f, const struct pa_error *e)
{
	fprintf(f, "%s: %s", PA_PROG, e->msg);
	if (e->hint[0])
		fprintf(f, " (%s)", e->hint);
	fputc('\n', f);
	return e->exit;
}

void pa_print_error(FILE *f, int err, const struct pa_errinfo *ei)
{
	struct pa_error e;

	pa_error_errno(&e, err, ei);
	pa_error_print(f, &e);
}

int pa_exit_style_lookup(const char *name)
{
	static const char *const names[] = { "pcieaudit", "nagios", "npd" };

	for (int i = 0; name && i < 3; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

int pa_exit_style_map(int style, int rc)
{
	if (style != PA_EXIT_STYLE_NAGIOS && style != PA_EXIT_STYLE_NPD)
		return rc;
	switch (rc) {
	case PA_EXIT_OK:
		return 0;
	case PA_EXIT_WARNINGS:
		return 1;
	case PA_EXIT_FINDING:
		return style == PA_EXIT_STYLE_NAGIOS ? 2 : 1;
	default:
		return 3;
	}
}
