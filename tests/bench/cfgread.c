// SPDX-License-Identifier: GPL-2.0
/*
 * cfgread: what one configuration read of LnkSta costs on this machine,
 * through the same kernel path as the module's sampler
 * (pci_user_read_config_word(), which sysfs's config file calls), for
 * every PCIe function with link registers. Grounds the sampler's estimate
 * on real hardware; the module's own accounting (debugfs
 * pcieaudit/monitor) measures it in the bench guests.
 *
 *   cfgread [N]     (N reads per function, default 2000; needs root)
 *
 * One line per function: "BDF type ns_per_read floor_ns", where floor_ns
 * is a pread() at the end of the file, which sysfs answers without
 * touching the device (the syscall's own cost, to subtract).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The PCI Express capability's offset, or 0. */
static int pcie_cap(const uint8_t *cfg, size_t len)
{
	int pos, n = 0;

	if (len < 64 || !(cfg[6] & 0x10))
		return 0;
	for (pos = cfg[0x34] & ~3; pos >= 0x40 && pos + 1 < (int)len && n < 48; n++) {
		if (cfg[pos] == 0x10)
			return pos;
		pos = cfg[pos + 1] & ~3;
	}
	return 0;
}

static double per_read(int fd, off_t off, int n)
{
	uint16_t v;
	long long t = now_ns();

	for (int i = 0; i < n; i++)
		if (pread(fd, &v, 2, off) < 0)
			return -1;
	return (double)(now_ns() - t) / n;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *de;

	if (!d || n <= 0)
		return 2;
	while ((de = readdir(d))) {
		char path[512];
		uint8_t cfg[256];
		struct stat st;
		ssize_t len;
		int fd, cap, type;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/config", de->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		len = pread(fd, cfg, sizeof(cfg), 0);
		cap = len > 0 ? pcie_cap(cfg, (size_t)len) : 0;
		if (!cap || fstat(fd, &st)) {
			close(fd);
			continue;
		}
		type = (cfg[cap + 2] >> 4) & 0xf;
		/* Types with link registers (pcie_cap_has_lnkctl()). */
		if (type == 9 || type == 10) {
			close(fd);
			continue;
		}
		printf("%s %d %.0f %.0f\n", de->d_name, type, per_read(fd, cap + 0x12, n),
		       per_read(fd, st.st_size, n));
		close(fd);
	}
	closedir(d);
	return 0;
}
