// SPDX-License-Identifier: GPL-2.0
#include "aer_read.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "aer.h"
#include "bdf.h"

/* aer_dev_correctable is about 300 bytes. */
#define AER_TEXT_MAX 4096

/*
 * The file at dirfd/name into buf; 0 or a negative errno. A read that
 * returns less than asked is the end: sysfs hands over an attribute's
 * whole text in the first read, as a regular file (a fixture) does, and
 * the read that would return 0 costs a system call per file, three or six
 * per function (tens of microseconds each in a VM).
 */
static int read_text(int dirfd, const char *name, char *buf, size_t len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	size_t n = 0, want;
	ssize_t r;

	if (fd < 0)
		return -errno;
	while (n < len - 1) {
		want = len - 1 - n;
		r = read(fd, buf + n, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			r = -errno;
			close(fd);
			return (int)r;
		}
		n += (size_t)r;
		if ((size_t)r < want)
			break;
	}
	close(fd);
	buf[n] = '\0';
	return 0;
}

/* One counter; on failure aer becomes unknown, saying which file. */
static int read_counter(int dirfd, enum pa_aer_file file, struct pa_aer *aer,
			uint64_t *total)
{
	const char *name = pa_aer_file_name(file);
	char text[AER_TEXT_MAX];
	int err = read_text(dirfd, name, text, sizeof(text));
	size_t line = 0;

	if (err == -ENOENT)
		pa_aer_set_unknown(aer, "no %s: no AER capability, AER left to the firmware, or pci=noaer",
				   name);
	else if (err)
		pa_aer_set_unknown(aer, "%s: %s", name, strerror(-err));
	else if ((err = pa_aer_parse_types(file, text, total, aer, &line)))
		pa_aer_set_unknown(aer, "%s: line %zu is not \"NAME COUNT\"", name,
				   line);
	return err;
}

static bool is_root_port(const struct pa_device *d)
{
	return d->pcie_type == PCI_EXP_TYPE_ROOT_PORT ||
	       d->pcie_type == PCI_EXP_TYPE_RC_EC;
}

static void read_device(int dirfd, struct pa_device *d)
{
	struct pa_aer aer = { .state = PA_AER_KNOWN };

	if (read_counter(dirfd, PA_AER_DEV_COR, &aer, &aer.cor) ||
	    read_counter(dirfd, PA_AER_DEV_NONFATAL, &aer, &aer.nonfatal) ||
	    read_counter(dirfd, PA_AER_DEV_FATAL, &aer, &aer.fatal)) {
		d->aer = aer;
		return;
	}
	/* Root ports only; all three or none. */
	if (is_root_port(d)) {
		struct pa_aer rp = aer;

		rp.has_rootport = true;
		if (!read_counter(dirfd, PA_AER_RP_COR, &rp, &rp.rp_cor) &&
		    !read_counter(dirfd, PA_AER_RP_NONFATAL, &rp, &rp.rp_nonfatal) &&
		    !read_counter(dirfd, PA_AER_RP_FATAL, &rp, &rp.rp_fatal))
			aer = rp;
	}
	d->aer = aer;
}

static int open_device_dir(const char *root, const struct pa_addr *addr)
{
	char bdf[PA_BDF_LEN], path[PATH_MAX];
	int fd;

	pa_bdf_format(addr, bdf);
	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s", root, bdf);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0 || errno != ENOENT)
		return fd;
	snprintf(path, sizeof(path), "%s/devices/%s", root, bdf);
	return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

#define NO_COUNTERS "the kernel keeps no AER counters for it: no AER " \
	"capability, AER left to the firmware, or pci=noaer"

void pa_aer_read(const char *root, struct pa_report *rep)
{
	/* A module that says where the kernel keeps counters saves opening
	 * the files of every function where it keeps none. */
	bool told = rep->info.features & PCIEAUDIT_F_PCIEAER;

	for (size_t i = 0; i < rep->ndevices; i++) {
		struct pa_device *d = &rep->devices[i];
		int fd;

		if (d->pcie_type < 0)
			continue;
		if (told && !(d->flags & PCIEAUDIT_DEV_F_AER_STATS)) {
			pa_aer_set_unknown(&d->aer, "%s", NO_COUNTERS);
			continue;
		}
		fd = open_device_dir(root, &d->addr);
		if (fd < 0) {
			pa_aer_set_unknown(&d->aer, "no sysfs directory: %s",
					   strerror(errno));
			continue;
		}
		read_device(fd, d);
		close(fd);
	}
}
