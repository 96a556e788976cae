// SPDX-License-Identifier: GPL-2.0
/*
 * scrape: the cheapest userspace way found to collect, without pcieaudit.ko,
 * the facts `pcieaudit-cli report --json` gets from the module: IDs and
 * class, PCIe type, link registers, ACS capability and control, SR-IOV
 * role, upstream bridge, secondary bus, driver, NUMA node, IOMMU group,
 * instance and domain type. The benchmark's fair baseline.
 *
 * Cheap by construction: one directory handle per function and *at()
 * calls relative to it; one 256-byte pread() of configuration space (header
 * and capability list), then 4-byte preads along the extended capability
 * list only; links read with readlinkat(); each IOMMU group's type read
 * once. No pci.ids lookup, no formatting beyond one TSV line per function
 * and per group.
 *
 *   scrape [SYSFS]     (default /sys)
 *
 * Output: "dev BDF vendor device svendor sdevice class rev hdr pcie_type
 * lnkcap lnksta lnkcap2 lnkctl2 acs_cap acs_ctrl sriov upstream pf secbus
 * driver numa group iommu" and "group ID type members".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_GROUPS 4096

struct group {
	char type[32];
	char members[64];	/* first member; the rest counted */
	int count;
	int seen;
};

static struct group groups[MAX_GROUPS];

static uint16_t rd16(const uint8_t *c, unsigned int off)
{
	return (uint16_t)(c[off] | c[off + 1] << 8);
}

static uint32_t rd32(const uint8_t *c, unsigned int off)
{
	return (uint32_t)rd16(c, off) | (uint32_t)rd16(c, off + 2) << 16;
}

/* The target of a link under dirfd, in buf; false when there is none. */
static bool read_link(int dirfd, const char *name, char *buf, size_t len)
{
	ssize_t n = readlinkat(dirfd, name, buf, len - 1);

	if (n < 0)
		return false;
	buf[n] = '\0';
	return true;
}

/* Last component of a link under dirfd, "-" when there is none. */
static const char *link_base(int dirfd, const char *name, char *buf,
			     size_t len)
{
	char *slash;

	if (!read_link(dirfd, name, buf, len))
		return "-";
	slash = strrchr(buf, '/');
	return slash ? slash + 1 : buf;
}

/* Parent component of the device's own link: its upstream bridge, or the
 * host bridge (pciDDDD:BB) for a root bus device. */
static const char *upstream(int devsdir, const char *name, char *buf,
			    size_t len)
{
	char *slash;

	if (!read_link(devsdir, name, buf, len) || !(slash = strrchr(buf, '/')))
		return "-";
	*slash = '\0';
	slash = strrchr(buf, '/');
	return slash ? slash + 1 : buf;
}

static void read_group_type(const char *sysfs, int id, struct group *g)
{
	char path[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/kernel/iommu_groups/%d/type", sysfs,
		 id);
	strcpy(g->type, "-");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, g->type, sizeof(g->type) - 1);
	close(fd);
	g->type[n > 0 ? n : 0] = '\0';
	g->type[strcspn(g->type, "\n")] = '\0';
}

static void one(const char *sysfs, int devsdir, const char *name)
{
	uint8_t c[256];
	char up[512], pf[512], drv[512], grp[512], mmu[512], numa[16] = "-";
	const char *grp_name;
	unsigned int pos, pcie = 0, acs_cap = 0, acs_ctrl = 0, sriov = 0;
	uint32_t lnkcap = 0, lnkcap2 = 0, hdr;
	uint16_t lnksta = 0, lnkctl2 = 0;
	int dir, fd, type = -1, secbus = -1, id;
	ssize_t n;

	dir = openat(devsdir, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return;
	memset(c, 0, sizeof(c));
	fd = openat(dir, "config", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (pread(fd, c, sizeof(c), 0) < 64)
			memset(c, 0, sizeof(c));
		/* Standard capabilities: only the PCIe one is needed. */
		for (pos = c[0x34] & ~3u; pos >= 0x40 && pos < 0xfc;
		     pos = c[pos + 1] & ~3u) {
			if (c[pos] == 0x10) {
				pcie = pos;
				break;
			}
		}
		if (pcie) {
			type = (rd16(c, pcie + 2) >> 4) & 0xf;
			lnkcap = rd32(c, pcie + 0x0c);
			lnksta = rd16(c, pcie + 0x12);
			if ((rd16(c, pcie + 2) & 0xf) > 1) {
				lnkcap2 = rd32(c, pcie + 0x2c);
				lnkctl2 = rd16(c, pcie + 0x30);
			}
			/* Extended capabilities: ACS (0x0d), SR-IOV (0x10). */
			for (pos = 0x100; pos; pos = (hdr >> 20) & 0xffc) {
				if (pread(fd, &hdr, 4, pos) != 4 || !hdr ||
				    hdr == 0xffffffff)
					break;
				if ((hdr & 0xffff) == 0x0d) {
					uint32_t v = 0;

					if (pread(fd, &v, 4, pos + 4) == 4) {
						acs_cap = v & 0xffff;
						acs_ctrl = v >> 16;
					}
				} else if ((hdr & 0xffff) == 0x10) {
					sriov = 1;
				}
				if (pos >= 0xffc)
					break;
			}
		}
		close(fd);
	}
	if ((c[0x0e] & 0x7f) == 1)
		secbus = c[0x19];
	fd = openat(dir, "numa_node", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, numa, sizeof(numa) - 1);
		numa[n > 0 ? n : 0] = '\0';
		numa[strcspn(numa, "\n")] = '\0';
		close(fd);
	}
	grp_name = link_base(dir, "iommu_group", grp, sizeof(grp));
	printf("dev\t%s\t%04x\t%04x\t%04x\t%04x\t%06x\t%02x\t%02x\t%d\t%08x\t%04x\t%08x\t%04x\t%04x\t%04x\t%u\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n",
	       name, rd16(c, 0), rd16(c, 2), rd16(c, 0x2c), rd16(c, 0x2e),
	       rd32(c, 8) >> 8, c[8], c[0x0e], type, lnkcap, lnksta, lnkcap2,
	       lnkctl2, acs_cap, acs_ctrl, sriov,
	       upstream(devsdir, name, up, sizeof(up)),
	       link_base(dir, "physfn", pf, sizeof(pf)), secbus,
	       link_base(dir, "driver", drv, sizeof(drv)), numa, grp_name,
	       link_base(dir, "iommu", mmu, sizeof(mmu)));
	close(dir);
	id = grp_name[0] == '-' ? -1 : atoi(grp_name);
	if (id >= 0 && id < MAX_GROUPS) {
		struct group *g = &groups[id];

		if (!g->seen) {
			g->seen = 1;
			read_group_type(sysfs, id, g);
			snprintf(g->members, sizeof(g->members), "%s", name);
		}
		g->count++;
	}
}

int main(int argc, char **argv)
{
	const char *sysfs = argc > 1 ? argv[1] : "/sys";
	char path[256];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/bus/pci/devices", sysfs);
	d = opendir(path);
	if (!d) {
		fprintf(stderr, "scrape: %s: %s\n", path, strerror(errno));
		return 1;
	}
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			one(sysfs, dirfd(d), de->d_name);
	closedir(d);
	for (int i = 0; i < MAX_GROUPS; i++)
		if (groups[i].seen)
			printf("group\t%d\t%s\t%s+%d\n", i, groups[i].type,
			       groups[i].members, groups[i].count - 1);
	return fflush(stdout) ? 1 : 0;
}
