// SPDX-License-Identifier: GPL-2.0
/*
 * dump-probe: drives a PCIEAUDIT_CMD_DEV_GET dump one part at a time, so
 * the VM test can check that dumps resume by key across parts and flag
 * hot-plug in between. It judges nothing itself; the host's oracle compares
 * its output with sysfs.
 *
 *   dump-probe [--remove BDF[,BDF...]]
 *
 * Each recvmsg() returns one dump part, at most a page. The kernel builds the next part at
 * the end of the recvmsg() that drained the previous one, so a removal made
 * after part 1 shows from part 3 on.
 *
 * Output, one line each:
 *   dev <bdf> part <n> intr <0|1>
 *   removed <bdf> after-part 1
 *   done parts <n> rc <errno or 0>
 *
 * rc is the errno of an NLMSG_ERROR, or the one NLMSG_DONE carries (a dump
 * its first part refused).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include <linux/pcieaudit.h>

/* Removes each function of a comma-separated list through sysfs. */
static void remove_functions(const char *list)
{
	char *copy = strdup(list), *save = NULL;

	for (char *bdf = strtok_r(copy, ",", &save); bdf;
	     bdf = strtok_r(NULL, ",", &save)) {
		char path[128];
		FILE *f;

		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/remove", bdf);
		f = fopen(path, "w");
		if (!f || fputs("1", f) < 0 || fclose(f)) {
			perror(path);
			exit(1);
		}
		printf("removed %s after-part 1\n", bdf);
	}
	free(copy);
}

static void print_dev(struct nlmsghdr *nlh, int part)
{
	struct nlattr *tb[PCIEAUDIT_A_DEV_MAX + 1];
	struct nlattr *addr[PCIEAUDIT_A_ADDR_MAX + 1];

	if (genlmsg_parse(nlh, 0, tb, PCIEAUDIT_A_DEV_MAX, NULL) ||
	    !tb[PCIEAUDIT_A_DEV_ADDR] ||
	    nla_parse_nested(addr, PCIEAUDIT_A_ADDR_MAX,
			     tb[PCIEAUDIT_A_DEV_ADDR], NULL) ||
	    !addr[PCIEAUDIT_A_ADDR_DOMAIN] || !addr[PCIEAUDIT_A_ADDR_BUS] ||
	    !addr[PCIEAUDIT_A_ADDR_DEVFN]) {
		printf("malformed part %d\n", part);
		return;
	}
	uint8_t devfn = nla_get_u8(addr[PCIEAUDIT_A_ADDR_DEVFN]);

	printf("dev %04x:%02x:%02x.%d part %d intr %d\n",
	       nla_get_u32(addr[PCIEAUDIT_A_ADDR_DOMAIN]),
	       nla_get_u8(addr[PCIEAUDIT_A_ADDR_BUS]), devfn >> 3, devfn & 7,
	       part, !!(nlh->nlmsg_flags & NLM_F_DUMP_INTR));
}

int main(int argc, char **argv)
{
	const char *remove = argc == 3 && !strcmp(argv[1], "--remove") ?
			     argv[2] : NULL;
	struct sockaddr_nl peer;
	struct nl_sock *sk;
	unsigned char *buf;
	int family, part = 0, rc = 0, n = 0;
	bool done = false;

	/*
	 * The kernel sizes dump parts after the largest buffer a socket has
	 * read with, and resolving the family reads with a large one: dump
	 * on a fresh socket.
	 */
	sk = nl_socket_alloc();
	if (!sk || genl_connect(sk))
		return 1;
	family = genl_ctrl_resolve(sk, PCIEAUDIT_FAMILY_NAME);
	nl_socket_free(sk);
	if (family < 0) {
		fprintf(stderr, "family: %s\n", nl_geterror(family));
		return 1;
	}
	sk = nl_socket_alloc();
	if (!sk || genl_connect(sk))
		return 1;
	/*
	 * One part per recvmsg(): no peeking, and a page-sized buffer, because
	 * the kernel sizes later parts after the largest buffer it has seen.
	 */
	nl_socket_disable_msg_peek(sk);
	nl_socket_set_msg_buf_size(sk, 4096);
	if (genl_send_simple(sk, family, PCIEAUDIT_CMD_DEV_GET,
			     PCIEAUDIT_FAMILY_VERSION, NLM_F_DUMP) < 0)
		return 1;

	while (!done && (n = nl_recv(sk, &peer, &buf, NULL)) > 0) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;

		part++;
		for (; nlmsg_ok(nlh, n); nlh = nlmsg_next(nlh, &n)) {
			if (nlh->nlmsg_type == NLMSG_DONE) {
				if (nlmsg_datalen(nlh) >= (int)sizeof(int))
					rc = -*(int *)nlmsg_data(nlh);
				done = true;
			} else if (nlh->nlmsg_type == NLMSG_ERROR) {
				rc = -((struct nlmsgerr *)nlmsg_data(nlh))->error;
				done = true;
			} else if (nlh->nlmsg_type == family) {
				print_dev(nlh, part);
			}
		}
		free(buf);
		if (part == 1 && remove)
			remove_functions(remove);
	}
	if (n < 0) {
		fprintf(stderr, "recv: %s\n", nl_geterror(n));
		rc = -n;
	}
	printf("done parts %d rc %d\n", part, rc);
	nl_socket_free(sk);
	return 0;
}
