// SPDX-License-Identifier: GPL-2.0
/*
 * pcieaudit-cli monitor: prints what the listening socket (mon_socket.c)
 * receives, and the AER counters' rises, which sysfs does not announce.
 */
#include "monitor.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/signalfd.h>
#include <linux/genetlink.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>
#include <netlink/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "aer_read.h"
#include "bdf.h"
#include "errors.h"
#include "exitcodes.h"
#include "mon_socket.h"
#include "monitor_event.h"
#include "nl.h"

/* Big enough for bursts of hot-plug events; ENOBUFS beyond. */
#define RCVBUF (1 << 20)
/* AER counters live in sysfs, without notifications: read them this often. */
#define AER_POLL_MS 5000

struct listener {
	bool json;
	int family;
	uint64_t next_seq;	/* 0: none seen yet */
	bool unloaded;
	struct pa_report aer;	/* the last AER reading; empty before one */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int on_msg(struct nl_msg *msg, void *arg)
{
	struct listener *l = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct pa_mon_event ev;
	char why[64];

	if (nlh->nlmsg_type == GENL_ID_CTRL) {
		if (pa_mon_family_removed(msg)) {
			l->unloaded = true;
			return NL_STOP;
		}
		return NL_SKIP;
	}
	if (nlh->nlmsg_type != l->family ||
	    ((struct genlmsghdr *)nlmsg_data(nlh))->cmd != PCIEAUDIT_CMD_MON_EVENT)
		return NL_SKIP;
	if (pa_mon_decode(msg, &ev)) {
		fprintf(stderr, "%s: a malformed event, skipped\n", PA_PROG);
		return NL_SKIP;
	}
	/* Sequence numbers count every event, also those sent while nobody
	 * listened: only a gap after the first one seen is a loss. */
	if (l->next_seq && ev.seq > l->next_seq) {
		snprintf(why, sizeof(why), "sequence gap: %llu missing",
			 (unsigned long long)(ev.seq - l->next_seq));
		pa_mon_print_resync(stdout, now_ns(), why, l->json);
	}
	l->next_seq = ev.seq + 1;
	pa_mon_print(stdout, &ev, l->json);
	fflush(stdout);
	return NL_OK;
}

/*
 * The functions sysfs lists, as a report of addresses alone: enough for
 * pa_aer_read(), and no request to the module, which the sampler already
 * watches. 0 or -ENOMEM.
 */
static int list_functions(struct pa_report *rep)
{
	DIR *dir = opendir("/sys/bus/pci/devices");
	struct dirent *de;
	int err = 0;

	*rep = (struct pa_report){ 0 };
	if (!dir)
		return 0;
	while (!err && (de = readdir(dir))) {
		struct pa_device d = { .pcie_type = PCI_EXP_TYPE_ENDPOINT,
				       .numa_node = -1 };

		if (pa_bdf_parse(de->d_name, &d.addr))
			continue;
		err = pa_report_add_device(rep, &d);
	}
	closedir(dir);
	if (!err)
		pa_report_sort(rep);
	return err;
}

/* Reads the AER counters of every function again and prints an "aer" line
 * for each whose counters rose since the previous reading. */
static void poll_aer(struct listener *l)
{
	struct pa_report now;
	bool printed = false;

	if (list_functions(&now)) {
		pa_report_clear(&now);
		return;
	}
	pa_aer_read("/sys", &now);
	for (size_t i = 0; i < now.ndevices && l->aer.ndevices; i++) {
		const struct pa_device *d = &now.devices[i];
		const struct pa_device *p = pa_report_find(&l->aer, &d->addr);

		if (p)
			printed |= pa_mon_print_aer(stdout, now_ns(), &d->addr,
						    &p->aer, &d->aer, l->json);
	}
	if (printed)
		fflush(stdout);
	pa_report_clear(&l->aer);
	l->aer = now;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static int signals_fd(sigset_t *old)
{
	sigset_t sigs;

	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigprocmask(SIG_BLOCK, &sigs, old);
	return signalfd(-1, &sigs, SFD_CLOEXEC);
}

/* Reads what is queued; 1 when the module went away, else 0 or -errno. */
static int drain(struct nl_sock *sk, struct listener *l)
{
	int err;

	for (;;) {
		err = nl_recvmsgs_default(sk);
		if (l->unloaded)
			return 1;
		if (err == -NLE_AGAIN)
			return 0;
		/* libnl reports the socket's ENOBUFS as out of memory. */
		if (err == -NLE_NOMEM) {
			pa_mon_print_resync(stdout, now_ns(), "ENOBUFS", l->json);
			fflush(stdout);
			l->next_seq = 0;
			continue;
		}
		if (err < 0)
			return pa_nl_errno(err);
	}
}

int pa_monitor_run(bool json)
{
	struct listener l = { .json = json };
	struct pa_errinfo ei = { 0 };
	struct pollfd pfd[2];
	struct nl_sock *sk;
	struct pa_nl *nl;
	uint64_t next_aer;
	sigset_t old;
	int err, rc = PA_EXIT_OK;

	/* Signals first: a SIGTERM during the setup still ends cleanly. */
	pfd[1] = (struct pollfd){ .fd = signals_fd(&old), .events = POLLIN };
	if (pfd[1].fd < 0)
		return PA_EXIT_RUNTIME;
	/* The same checks and messages as every command: loaded, version. */
	err = pa_nl_open(&nl, &ei);
	if (!err) {
		pa_nl_close(nl);
		err = pa_mon_socket_open(&sk, &l.family, RCVBUF, on_msg, &l);
	}
	if (err) {
		close(pfd[1].fd);
		sigprocmask(SIG_SETMASK, &old, NULL);
		pa_print_error(stderr, err, &ei);
		return pa_exit_code(err);
	}
	pfd[0] = (struct pollfd){ .fd = nl_socket_get_fd(sk), .events = POLLIN };
	poll_aer(&l);
	next_aer = mono_ms() + AER_POLL_MS;
	for (;;) {
		uint64_t t = mono_ms();
		int n;

		if (t >= next_aer) {
			poll_aer(&l);
			next_aer = t + AER_POLL_MS;
		}
		n = poll(pfd, 2, (int)(next_aer - t));
		if (n == 0)
			continue;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = PA_EXIT_RUNTIME;
			break;
		}
		if (pfd[1].revents) {
			struct signalfd_siginfo si;

			/* Taken off the queue, or it would kill us as soon
			 * as the mask is restored. */
			if (read(pfd[1].fd, &si, sizeof(si)) < 0)
				rc = PA_EXIT_RUNTIME;
			break;
		}
		err = drain(sk, &l);
		if (err == 1) {
			fprintf(stderr, "%s: the pcieaudit module was unloaded; monitoring ends\n",
				PA_PROG);
			rc = PA_EXIT_NO_MODULE;
			break;
		}
		if (err < 0) {
			pa_print_error(stderr, err, &ei);
			rc = pa_exit_code(err);
			break;
		}
	}
	close(pfd[1].fd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	nl_socket_free(sk);
	pa_report_clear(&l.aer);
	if (fflush(stdout) && rc == PA_EXIT_OK)
		rc = PA_EXIT_RUNTIME;
	return rc;
}
