// SPDX-License-Identifier: GPL-2.0
/*
 * group-probe: a PCIEAUDIT_CMD_GROUP_GET dump as the first request of a
 * fresh socket, as a script would send it. The kernel builds a
 * dump's first part at sendmsg() time, before any recvmsg() has told it
 * the reader's buffer, so that part is NLMSG_GOODSIZE: a group larger than
 * that must go on in later messages, never end the dump. Judges nothing;
 * the host compares the members with sysfs.
 *
 * Output, one line each:
 *   group <id> member <bdf>
 *   group <id> other <n>
 *   messages <n> parts <n> rc <errno or 0>
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <linux/pcieaudit.h>

#define ATTR_OK(a, end) ((char *)(a) + sizeof(struct nlattr) <= (char *)(end) && \
			 (a)->nla_len >= sizeof(struct nlattr) && \
			 (char *)(a) + (a)->nla_len <= (char *)(end))
#define ATTR_NEXT(a) ((struct nlattr *)((char *)(a) + NLA_ALIGN((a)->nla_len)))
#define ATTR_DATA(a) ((void *)((char *)(a) + NLA_HDRLEN))

static int sock_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("netlink socket");
		exit(1);
	}
	return fd;
}

static void sock_send(int fd, uint16_t type, uint16_t flags, uint8_t cmd,
		      const void *attrs, size_t len)
{
	char buf[256];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct genlmsghdr *g = NLMSG_DATA(nlh);

	memset(buf, 0, sizeof(buf));
	nlh->nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN + len);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = 1;
	g->cmd = cmd;
	g->version = 1;
	memcpy((char *)g + GENL_HDRLEN, attrs, len);
	if (send(fd, buf, nlh->nlmsg_len, 0) < 0) {
		perror("send");
		exit(1);
	}
}

/* The family's id, on a socket of its own that is then closed. */
static uint16_t family_id(void)
{
	char req[64] = { 0 }, buf[8192];
	struct nlattr *a = (struct nlattr *)req;
	int fd = sock_open();
	ssize_t n;

	a->nla_type = CTRL_ATTR_FAMILY_NAME;
	a->nla_len = NLA_HDRLEN + sizeof(PCIEAUDIT_FAMILY_NAME);
	memcpy(ATTR_DATA(a), PCIEAUDIT_FAMILY_NAME, sizeof(PCIEAUDIT_FAMILY_NAME));
	sock_send(fd, GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY, req, NLA_ALIGN(a->nla_len));
	n = recv(fd, buf, sizeof(buf), 0);
	close(fd);
	if (n > 0) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
		char *end = buf + n;

		if (nlh->nlmsg_type != NLMSG_ERROR) {
			for (a = (struct nlattr *)((char *)NLMSG_DATA(nlh) + GENL_HDRLEN);
			     ATTR_OK(a, end); a = ATTR_NEXT(a))
				if (a->nla_type == CTRL_ATTR_FAMILY_ID)
					return *(uint16_t *)ATTR_DATA(a);
		}
	}
	fprintf(stderr, "group-probe: no family %s\n", PCIEAUDIT_FAMILY_NAME);
	exit(1);
}

static void print_addr(uint32_t id, struct nlattr *nest)
{
	char *end = (char *)nest + nest->nla_len;
	uint32_t dom = 0, bus = 0, devfn = 0;
	struct nlattr *a;

	for (a = ATTR_DATA(nest); ATTR_OK(a, end); a = ATTR_NEXT(a)) {
		if (a->nla_type == PCIEAUDIT_A_ADDR_DOMAIN)
			dom = *(uint32_t *)ATTR_DATA(a);
		else if (a->nla_type == PCIEAUDIT_A_ADDR_BUS)
			bus = *(uint8_t *)ATTR_DATA(a);
		else if (a->nla_type == PCIEAUDIT_A_ADDR_DEVFN)
			devfn = *(uint8_t *)ATTR_DATA(a);
	}
	printf("group %u member %04x:%02x:%02x.%x\n", id, dom, bus, devfn >> 3,
	       devfn & 7);
}

int main(void)
{
	/*
	 * A page, as many C clients take (getpagesize()): recvmsg() raises the
	 * kernel's later parts to it, the first is NLMSG_GOODSIZE.
	 */
	static char buf[4096];
	unsigned int messages = 0, parts = 0;
	uint16_t fam = family_id();
	int fd = sock_open(), rc = 0;

	sock_send(fd, fam, NLM_F_DUMP, PCIEAUDIT_CMD_GROUP_GET, NULL, 0);
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nlh;
		int len = (int)n;

		if (n < 0) {
			rc = errno;
			break;
		}
		parts++;
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, len);
		     nlh = NLMSG_NEXT(nlh, len)) {
			char *end = (char *)nlh + nlh->nlmsg_len;
			uint32_t id = 0;
			struct nlattr *a;

			if (nlh->nlmsg_type == NLMSG_DONE) {
				rc = -*(int *)NLMSG_DATA(nlh);
				goto out;
			}
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				rc = -((struct nlmsgerr *)NLMSG_DATA(nlh))->error;
				goto out;
			}
			messages++;
			a = (struct nlattr *)((char *)NLMSG_DATA(nlh) + GENL_HDRLEN);
			for (; ATTR_OK(a, end); a = ATTR_NEXT(a)) {
				if (a->nla_type == PCIEAUDIT_A_GROUP_ID)
					id = *(uint32_t *)ATTR_DATA(a);
				else if ((a->nla_type & NLA_TYPE_MASK) == PCIEAUDIT_A_GROUP_MEMBER)
					print_addr(id, a);
				else if (a->nla_type == PCIEAUDIT_A_GROUP_OTHER_MEMBERS)
					printf("group %u other %u\n", id,
					       *(uint32_t *)ATTR_DATA(a));
			}
		}
	}
out:
	printf("messages %u parts %u rc %d\n", messages, parts, rc);
	close(fd);
	return 0;
}
