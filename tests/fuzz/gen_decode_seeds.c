// SPDX-License-Identifier: GPL-2.0
/*
 * Writes fuzz_decode's seed corpus into the directory argv[1]: replies as
 * the module sends them, built with libnl the way tests/unit/test_decode.c
 * builds them, so that the fuzzer starts from messages that decode rather
 * than from noise libnl rejects in its first check. Each file is what one
 * recvmsg() could return: one or more messages back to back.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/genl/genl.h>
#include <linux/pcieaudit.h>
#include <linux/pci_regs.h>

static const char *dir;
static unsigned char stream[1 << 16];
static size_t used;

static void die(const char *what)
{
	fprintf(stderr, "gen_decode_seeds: %s\n", what);
	exit(1);
}

/* Appends msg to the stream and frees it. */
static void add(struct nl_msg *msg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	size_t len = NLMSG_ALIGN(nlh->nlmsg_len);

	if (len > sizeof(stream) - used)
		die("stream too long");
	memcpy(stream + used, nlh, len);
	used += len;
	nlmsg_free(msg);
}

static void save(const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(stream, 1, used, f) != used || fclose(f))
		die(path);
	used = 0;
}

static struct nl_msg *genl(uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	/* The family id is dynamic; the decoder never looks at it. */
	if (!msg || !genlmsg_put(msg, 0, 1, 0x20, 0, flags, cmd,
				 PCIEAUDIT_FAMILY_VERSION))
		die("out of memory");
	return msg;
}

static void put_addr(struct nl_msg *msg, int type, uint32_t domain,
		     uint8_t bus, uint8_t devfn)
{
	struct nlattr *nest = nla_nest_start(msg, type | NLA_F_NESTED);

	nla_put_u32(msg, PCIEAUDIT_A_ADDR_DOMAIN, domain);
	nla_put_u8(msg, PCIEAUDIT_A_ADDR_BUS, bus);
	nla_put_u8(msg, PCIEAUDIT_A_ADDR_DEVFN, devfn);
	nla_nest_end(msg, nest);
}

static struct nl_msg *info(void)
{
	struct nl_msg *msg = genl(PCIEAUDIT_CMD_INFO_GET, 0);

	nla_put_string(msg, PCIEAUDIT_A_INFO_MODULE_VERSION, "0.1.0");
	nla_put_string(msg, PCIEAUDIT_A_INFO_KERNEL_RELEASE, "6.1.0-28-amd64");
	nla_put_u32(msg, PCIEAUDIT_A_INFO_FEATURES, 0x7);
	nla_put_u32(msg, PCIEAUDIT_A_INFO_IOMMU_DEF_MODE,
		    PCIEAUDIT_IOMMU_MODE_TRANSLATED);
	nla_put_u32(msg, PCIEAUDIT_A_INFO_IOMMU_STRICT,
		    PCIEAUDIT_IOMMU_STRICT_LAZY);
	nla_put_u32(msg, PCIEAUDIT_A_INFO_DEVICE_COUNT, 4);
	nla_put_u32(msg, PCIEAUDIT_A_INFO_GROUP_COUNT, 2);
	return msg;
}

struct dev {
	uint8_t bus, devfn;
	int up_bus;		/* -1: on a root bus */
	uint32_t class;
	uint8_t type;		/* PCI_EXP_TYPE_* */
	uint16_t vendor, acs_ctrl;
	uint32_t group;
	const char *driver;
};

/* A device with every attribute the ABI defines for one. */
static struct nl_msg *device(const struct dev *d)
{
	struct nl_msg *msg = genl(PCIEAUDIT_CMD_DEV_GET, NLM_F_MULTI);
	struct nlattr *nest;

	put_addr(msg, PCIEAUDIT_A_DEV_ADDR, 0, d->bus, d->devfn);
	nla_put_string(msg, PCIEAUDIT_A_DEV_NAME, "0000:00:00.0");
	nla_put_u16(msg, PCIEAUDIT_A_DEV_VENDOR, d->vendor);
	nla_put_u16(msg, PCIEAUDIT_A_DEV_DEVICE, 0x2330);
	nla_put_u16(msg, PCIEAUDIT_A_DEV_SUBSYS_VENDOR, d->vendor);
	nla_put_u16(msg, PCIEAUDIT_A_DEV_SUBSYS_DEVICE, 0x16c1);
	nla_put_u32(msg, PCIEAUDIT_A_DEV_CLASS, d->class);
	nla_put_u8(msg, PCIEAUDIT_A_DEV_REVISION, 0xa1);
	nla_put_u32(msg, PCIEAUDIT_A_DEV_FLAGS, PCIEAUDIT_DEV_F_PCIE |
		    (d->class >> 8 == 0x0604 ? PCIEAUDIT_DEV_F_BRIDGE : 0));
	nla_put_u8(msg, PCIEAUDIT_A_DEV_PCIE_TYPE, d->type);
	if (d->up_bus >= 0)
		put_addr(msg, PCIEAUDIT_A_DEV_UPSTREAM, 0, (uint8_t)d->up_bus, 0);
	if (d->driver)
		nla_put_string(msg, PCIEAUDIT_A_DEV_DRIVER, d->driver);
	nla_put_s32(msg, PCIEAUDIT_A_DEV_NUMA_NODE, 0);
	nla_put_u32(msg, PCIEAUDIT_A_DEV_POWER_STATE, PCIEAUDIT_POWER_D0);
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_ACS | NLA_F_NESTED);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_POS, 0x2a0);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_CAP, 0x5f);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_CTRL, d->acs_ctrl);
	nla_put_u16(msg, PCIEAUDIT_A_ACS_CTRL_AT_LOAD, 0x1d);
	nla_nest_end(msg, nest);
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_LINK | NLA_F_NESTED);
	nla_put_u32(msg, PCIEAUDIT_A_LINK_LNKCAP, 4 | 16 << 4);
	nla_put_u16(msg, PCIEAUDIT_A_LINK_LNKSTA, 3 | 8 << 4);
	nla_put_u32(msg, PCIEAUDIT_A_LINK_LNKCAP2, 0x3e);
	nla_put_u16(msg, PCIEAUDIT_A_LINK_LNKCTL2, 0x4);
	nla_nest_end(msg, nest);
	nest = nla_nest_start(msg, PCIEAUDIT_A_DEV_IOMMU | NLA_F_NESTED);
	nla_put_u32(msg, PCIEAUDIT_A_IOMMU_GROUP, d->group);
	nla_put_u32(msg, PCIEAUDIT_A_IOMMU_DOMAIN, PCIEAUDIT_DOMAIN_DMA_FQ);
	nla_put_u32(msg, PCIEAUDIT_A_IOMMU_DEF_DOMAIN, PCIEAUDIT_DOMAIN_DMA_FQ);
	nla_put_u32(msg, PCIEAUDIT_A_IOMMU_DEF_DOMAIN_SOURCE, 1);
	nla_put_string(msg, PCIEAUDIT_A_IOMMU_INSTANCE, "dmar0");
	nla_nest_end(msg, nest);
	if (d->class >> 8 == 0x0604)
		nla_put_u8(msg, PCIEAUDIT_A_DEV_SECONDARY_BUS,
			   (uint8_t)(d->bus + 1));
	return msg;
}

static struct nl_msg *group(uint32_t id, uint8_t bus)
{
	struct nl_msg *msg = genl(PCIEAUDIT_CMD_GROUP_GET, NLM_F_MULTI);

	nla_put_u32(msg, PCIEAUDIT_A_GROUP_ID, id);
	put_addr(msg, PCIEAUDIT_A_GROUP_MEMBER, 0, bus, 0);
	put_addr(msg, PCIEAUDIT_A_GROUP_MEMBER, 0, bus, 1);
	nla_put_u32(msg, PCIEAUDIT_A_GROUP_OTHER_MEMBERS, 1);
	return msg;
}

/* A do reply for provider 03:00.0 (the GPU) and clients 03:00.1 (the NIC
 * beside it, redirected at the downstream port above both) and 81:00.0
 * (behind another root port, not in the device seeds). */
static struct nl_msg *p2p(void)
{
	struct nl_msg *msg = genl(PCIEAUDIT_CMD_P2P_GET, 0);
	struct nlattr *nest;

	put_addr(msg, PCIEAUDIT_A_P2P_PROVIDER, 0, 3, 0);
	nla_put_s32(msg, PCIEAUDIT_A_P2P_KERNEL_DISTANCE, 8);
	nest = nla_nest_start(msg, PCIEAUDIT_A_P2P_PAIR | NLA_F_NESTED);
	put_addr(msg, PCIEAUDIT_A_PAIR_CLIENT, 0, 3, 1);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_KERNEL_STATUS,
		    PCIEAUDIT_P2P_KERNEL_ANSWERED);
	nla_put_s32(msg, PCIEAUDIT_A_PAIR_KERNEL_DISTANCE, 2);
	nla_put_s32(msg, PCIEAUDIT_A_PAIR_DISTANCE, 2);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_PATH_LENGTH, 2);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_MAP, PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_PATH, PCIEAUDIT_P2P_PATH_ACS_REDIRECT);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_HOST_RULE, PCIEAUDIT_P2P_HOST_CPU);
	put_addr(msg, PCIEAUDIT_A_PAIR_COMMON, 0, 2, 0x08);
	put_addr(msg, PCIEAUDIT_A_PAIR_HOP_PROVIDER, 0, 3, 0);
	put_addr(msg, PCIEAUDIT_A_PAIR_HOP_CLIENT, 0, 3, 1);
	put_addr(msg, PCIEAUDIT_A_PAIR_REDIRECT, 0, 2, 0x08);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_HOST_BRIDGE_PROVIDER, 0x80863c00);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_HOST_BRIDGE_CLIENT, 0x80863c00);
	nla_nest_end(msg, nest);
	nest = nla_nest_start(msg, PCIEAUDIT_A_P2P_PAIR | NLA_F_NESTED);
	put_addr(msg, PCIEAUDIT_A_PAIR_CLIENT, 0, 0x81, 0);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_KERNEL_STATUS,
		    PCIEAUDIT_P2P_KERNEL_WITHHELD_LOG);
	nla_put_s32(msg, PCIEAUDIT_A_PAIR_DISTANCE, -1);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_PATH_LENGTH, 3);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_MAP, PCIEAUDIT_P2P_MAP_NOT_SUPPORTED);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_PATH,
		    PCIEAUDIT_P2P_PATH_NO_COMMON_UPSTREAM);
	nla_put_u32(msg, PCIEAUDIT_A_PAIR_HOST_RULE, PCIEAUDIT_P2P_HOST_REFUSED);
	put_addr(msg, PCIEAUDIT_A_PAIR_HOP_PROVIDER, 0, 3, 0);
	put_addr(msg, PCIEAUDIT_A_PAIR_HOP_PROVIDER, 0, 2, 0x08);
	put_addr(msg, PCIEAUDIT_A_PAIR_HOP_CLIENT, 0, 0x81, 0);
	nla_nest_end(msg, nest);
	return msg;
}

/* NLMSG_DONE of a dump that failed, with the kernel's extended ack. */
static struct nl_msg *done(int error, const char *text)
{
	struct nl_msg *msg = nlmsg_alloc_simple(NLMSG_DONE, NLM_F_MULTI |
						(text ? NLM_F_ACK_TLVS : 0));

	nlmsg_append(msg, &error, sizeof(error), NLMSG_ALIGNTO);
	if (text)
		nla_put_string(msg, NLMSGERR_ATTR_MSG, text);
	return msg;
}

/* NLMSG_ERROR echoing the request's payload, then the extended ack. */
static struct nl_msg *error(bool capped)
{
	struct nl_msg *req = genl(PCIEAUDIT_CMD_DEV_GET, 0);
	struct nl_msg *msg = nlmsg_alloc_simple(NLMSG_ERROR, NLM_F_ACK_TLVS |
						(capped ? NLM_F_CAPPED : 0));
	struct nlmsgerr e = { .error = -19 };

	put_addr(req, PCIEAUDIT_A_DEV_ADDR, 0, 0x99, 0);
	e.msg = *nlmsg_hdr(req);
	nlmsg_append(msg, &e, sizeof(e), NLMSG_ALIGNTO);
	if (!capped)
		nlmsg_append(msg, nlmsg_data(nlmsg_hdr(req)),
			     (size_t)nlmsg_datalen(nlmsg_hdr(req)), NLMSG_ALIGNTO);
	nla_put_u32(msg, NLMSGERR_ATTR_OFFS, 20);
	nla_put_string(msg, NLMSGERR_ATTR_MSG, "no PCI function there");
	nlmsg_free(req);
	return msg;
}

int main(int argc, char **argv)
{
	/* Root port, switch upstream and downstream ports, GPU, NIC. */
	static const struct dev devs[] = {
		{ 0x00, 0x08, -1, 0x060400, PCI_EXP_TYPE_ROOT_PORT, 0x8086, 0x1d, 1, "pcieport" },
		{ 0x01, 0x00, 0x00, 0x060400, PCI_EXP_TYPE_UPSTREAM, 0x10b5, 0, 1, "pcieport" },
		{ 0x02, 0x08, 0x01, 0x060400, PCI_EXP_TYPE_DOWNSTREAM, 0x10b5, 0x1d, 2, "pcieport" },
		{ 0x03, 0x00, 0x02, 0x030200, PCI_EXP_TYPE_ENDPOINT, 0x10de, 0, 2, "nvidia" },
		{ 0x03, 0x01, 0x02, 0x020700, PCI_EXP_TYPE_ENDPOINT, 0x15b3, 0, 2, NULL },
	};
	struct nl_msg *msg;

	if (argc != 2)
		die("usage: gen_decode_seeds DIR");
	dir = argv[1];
	add(info());
	save("info");
	add(device(&devs[3]));
	save("device");
	/* The smallest device reply: only the address. */
	msg = genl(PCIEAUDIT_CMD_DEV_GET, 0);
	put_addr(msg, PCIEAUDIT_A_DEV_ADDR, 0, 0, 0xf8);
	add(msg);
	save("device-minimal");
	add(group(2, 3));
	save("group");
	add(p2p());
	save("p2p");
	add(error(false));
	save("error");
	add(error(true));
	save("error-capped");
	add(done(-90, "device too big for a message"));
	save("done-error");
	/* What report reads, in one stream: info, a device dump, a group
	 * dump, then a P2P reply and the end of the dump. */
	add(info());
	for (size_t i = 0; i < sizeof(devs) / sizeof(devs[0]); i++)
		add(device(&devs[i]));
	add(group(1, 0));
	add(group(2, 3));
	add(p2p());
	add(done(0, NULL));
	save("report");
	return 0;
}
