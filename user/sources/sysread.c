// SPDX-License-Identifier: GPL-2.0
#include "sysread.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <linux/pcieaudit.h>

#include "config_space.h"
#include "bdf.h"
#include "host.h"
#include "passthru.h"

/* Configuration space, and more than any attribute or cpuinfo needs. */
#define CONFIG_MAX	4096
#define TEXT_MAX	(256 * 1024)
/* Standard configuration space: the capability list lives in it. */
#define PA_CONFIG_MIN	256

/* What read_at() allocates first: a sysfs attribute is at most a page. */
#define READ_CHUNK	4096

/*
 * The file at dirfd/name, NUL-terminated, in a buffer of its size; NULL when
 * unreadable. The buffer grows as the file does, up to max: a first
 * allocation of max (256 KiB for text) cost 2.4 GB of address space and an
 * mmap() per file at 1024 functions.
 */
static char *read_at(int dirfd, const char *name, size_t max, size_t *len,
		     off_t *size)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	size_t n = 0, cap = max < READ_CHUNK ? max : READ_CHUNK;
	struct stat st;
	char *buf, *grown;
	ssize_t r;

	if (fd < 0)
		return NULL;
	buf = malloc(cap + 1);
	if (buf && size)
		*size = fstat(fd, &st) ? 0 : st.st_size;
	while (buf && n < max) {
		if (n == cap) {
			cap = cap * 2 < max ? cap * 2 : max;
			grown = realloc(buf, cap + 1);
			if (!grown) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = grown;
		}
		r = read(fd, buf + n, cap - n);
		if (r == 0)
			break;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			buf = NULL;
			break;
		}
		n += (size_t)r;
	}
	close(fd);
	if (buf) {
		buf[n] = '\0';
		if (len)
			*len = n;
		/* Shrinking cannot fail in a way that loses the data. */
		grown = realloc(buf, n + 1);
		if (grown)
			buf = grown;
	}
	return buf;
}

static char *text_at(int dirfd, const char *name)
{
	return read_at(dirfd, name, TEXT_MAX, NULL, NULL);
}

/* A sysfs attribute, whose show() fills one read of a page: an open, a
 * read and a close, where read_at() reads once more to see the end. */
static char *attr_at(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	char buf[4096 + 1];
	ssize_t n;

	if (fd < 0)
		return NULL;
	do
		n = read(fd, buf, sizeof(buf) - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0)
		return NULL;
	/* A full buffer may have more behind it. */
	if ((size_t)n == sizeof(buf) - 1)
		return text_at(dirfd, name);
	buf[n] = '\0';
	return strdup(buf);
}

/* The last component of the link at dirfd/name, or, when it is a plain
 * file, its contents: fixtures store driver names as files. */
static char *name_at(int dirfd, const char *name)
{
	char target[PATH_MAX];
	ssize_t n = readlinkat(dirfd, name, target, sizeof(target) - 1);
	const char *base;

	if (n < 0)
		return errno == EINVAL ? text_at(dirfd, name) : NULL;
	target[n] = '\0';
	base = strrchr(target, '/');
	return strdup(base ? base + 1 : target);
}

/* A link's target below ".../devices/", as sysfs_path files hold it. */
static char *path_of_link(int dirfd, const char *name)
{
	char target[PATH_MAX];
	ssize_t n = readlinkat(dirfd, name, target, sizeof(target) - 1);
	const char *p;

	if (n < 0)
		return NULL;
	target[n] = '\0';
	p = strstr(target, "devices/");
	return strdup(p ? p + strlen("devices/") : target);
}

/* A configuration file read in the pieces the parser asks for. */
struct config_reader {
	int fd;
	uint8_t *buf;
	uint32_t have[CONFIG_MAX / 4 / 32];	/* a bit per dword read */
	bool failed;
	bool past_header;	/* read beyond what unprivileged readers get */
};

/* Reads [pos, pos + n), widened to whole dwords, as the kernel reads. */
static void fetch_config(void *ctx, unsigned int pos, unsigned int n)
{
	struct config_reader *r = ctx;
	unsigned int first = pos / 4, last = (pos + n - 1) / 4;

	for (unsigned int dw = first; dw <= last && !r->failed; dw++) {
		unsigned int run = dw;
		ssize_t got;

		if (r->have[dw / 32] & 1u << dw % 32)
			continue;
		while (run + 1 <= last && !(r->have[(run + 1) / 32] & 1u << (run + 1) % 32))
			run++;
		got = pread(r->fd, r->buf + 4 * dw, 4 * (run - dw + 1), 4 * dw);
		if (got != (ssize_t)(4 * (run - dw + 1))) {
			r->failed = true;
			return;
		}
		r->past_header |= 4 * (run + 1) > 128;
		for (; dw <= run; dw++)
			r->have[dw / 32] |= 1u << dw % 32;
		dw = run;
	}
}

/*
 * The bytes the model decodes, where the file's size is what a full read
 * gives (sysfs's config holds the function's whole space for root): 4 KiB
 * of a GPU took 21 ms in a VM, where every read traps. Unread bytes stay
 * zero, and the model's parser reads none of them. False when the short
 * way cannot tell: a short or failed read, an odd size.
 */
static bool read_config_sparse(int fd, struct pa_sysfs_dev *d)
{
	struct config_reader r = { .fd = fd };
	struct pa_config c;
	struct stat st;

	if (fstat(fd, &st) || st.st_size < PA_CONFIG_MIN || st.st_size % 4)
		return false;
	d->config_len = st.st_size < CONFIG_MAX ? (size_t)st.st_size : CONFIG_MAX;
	r.buf = calloc(1, d->config_len + 1);
	if (!r.buf)
		return false;
	pa_config_parse_fetch(r.buf, d->config_len, fetch_config, &r, &c);
	/* Unprivileged readers get 64 bytes (128 of a CardBus bridge) of a
	 * larger file: a read past them proves root's view. */
	if (!r.past_header)
		fetch_config(&r, PA_CONFIG_MIN - 4, 4);
	if (r.failed) {
		free(r.buf);
		return false;
	}
	d->config = r.buf;
	return true;
}

static int read_config(int devfd, struct pa_sysfs_dev *d)
{
	int fd = openat(devfd, "config", O_RDONLY | O_CLOEXEC);
	bool sparse = fd >= 0 && read_config_sparse(fd, d);
	off_t size = 0;
	char *buf;

	if (fd >= 0)
		close(fd);
	if (sparse)
		return 0;
	buf = read_at(devfd, "config", CONFIG_MAX, &d->config_len, &size);
	d->config = (uint8_t *)buf;
	/* Unprivileged readers get the first 64 bytes of a larger file. */
	if (buf && d->config_len == 64 && size > 64)
		return -EACCES;
	/* A copy made without root holds the 64-byte header alone: every
	 * capability would read as absent. Refused, as the live case. */
	if (!buf || d->config_len < PA_CONFIG_MIN)
		return -ENODATA;
	return 0;
}

/* Whether sysfs's write-only "reset" is there: a copy may leave it out,
 * and absent is then unknown (-1). */
static int reset_file_at(int dirfd, const char *name, bool fixture)
{
	return !faccessat(dirfd, name, F_OK, 0) ? 1 : fixture ? -1 : 0;
}

/* The files of a function's VFIO facts besides configuration space. */
static void read_vfio_files(int fd, bool fixture, struct pa_sysfs_dev *d)
{
	d->resource = text_at(fd, "resource");
	d->reset_method = text_at(fd, "reset_method");
	d->reset_file = reset_file_at(fd, "reset", fixture);
	d->sriov_numvfs = text_at(fd, "sriov_numvfs");
}

static int read_device(int devdir, const char *name, bool fixture,
		       struct pa_sysfs_dev *d)
{
	int fd = openat(devdir, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return -errno;
	d->name = strdup(name);
	d->path = fixture ? text_at(fd, "sysfs_path") : path_of_link(devdir, name);
	if (d->path)
		d->path[strcspn(d->path, "\n")] = '\0';
	err = read_config(fd, d);
	for (int a = 0; a < PA_NATTRS; a++)
		d->attrs[a] = text_at(fd, pa_sysfs_attr_names[a]);
	d->driver = name_at(fd, "driver");
	d->physfn = name_at(fd, "physfn");
	d->iommu_group = name_at(fd, "iommu_group");
	read_vfio_files(fd, fixture, d);
	d->iommu_type = text_at(fd, "iommu_group/type");
	if (!d->iommu_type)
		d->iommu_type = text_at(fd, "iommu_group_type");
	close(fd);
	return d->name ? err : -ENOMEM;
}

/*
 * Beside the module, only what pa_passthru_fill() and the BARs' places
 * need: configuration space, resource, reset_method, reset and
 * sriov_numvfs. The module gave the rest; read_device()'s other files
 * (seven attributes, three links, the group's type) cost some 30 system
 * calls a function, which doubled report --json at 1,032 functions.
 */
static int read_passthru_files(int devdir, const char *name, bool fixture,
			       struct pa_sysfs_dev *d)
{
	int fd = openat(devdir, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return -errno;
	err = read_config(fd, d);
	read_vfio_files(fd, fixture, d);
	close(fd);
	return err;
}

/* Opens the directory of functions; *fixture tells the layout. */
static int open_devices(const char *root, bool *fixture)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/bus/pci/devices", root);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	*fixture = fd < 0;
	if (fd < 0) {
		snprintf(path, sizeof(path), "%s/devices", root);
		fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	return fd < 0 ? -ENOENT : fd;
}

static int add_entry(struct pa_sysfs *s, int devdir, const char *name,
		     bool fixture)
{
	struct pa_sysfs_dev *v = realloc(s->devs, (s->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	s->devs = v;
	v[s->n] = (struct pa_sysfs_dev){ 0 };
	return read_device(devdir, name, fixture, &v[s->n++]);
}

bool pa_sysfs_is_live(const char *root)
{
	char real[PATH_MAX];

	return realpath(root, real) && !strcmp(real, "/sys");
}

static int read_release(struct pa_sysfs *s)
{
	struct utsname u;

	if (uname(&u))
		return 0;
	s->kernel_release = strdup(u.release);
	return s->kernel_release ? 0 : -ENOMEM;
}

/* The running kernel has kernel/iommu_groups wherever it has the IOMMU API;
 * a copy has it only if whoever made the copy took it. */
static bool has_iommu_groups(const char *root, const struct pa_sysfs *s)
{
	char path[PATH_MAX];
	struct stat st;

	for (size_t i = 0; i < s->n; i++)
		if (s->devs[i].iommu_group)
			return true;
	snprintf(path, sizeof(path), "%s/kernel/iommu_groups", root);
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int pa_sysfs_read(const char *root, struct pa_sysfs *s, char *what,
		  size_t whatlen)
{
	bool fixture, live = pa_sysfs_is_live(root);
	int devdir = open_devices(root, &fixture), err = 0;
	struct dirent *e;
	DIR *dir;

	*s = (struct pa_sysfs){ 0 };
	snprintf(what, whatlen, "%s", root);
	if (devdir < 0)
		return devdir;
	dir = fdopendir(dup(devdir));
	if (!dir) {
		close(devdir);
		return -errno;
	}
	while (!err && (e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		err = add_entry(s, devdir, e->d_name, fixture);
		if (err)
			snprintf(what, whatlen, "%s/%s/%s/config", root,
				 fixture ? "devices" : "bus/pci/devices",
				 e->d_name);
	}
	closedir(dir);
	close(devdir);
	if (!err && live)
		err = read_release(s);
	if (!err && !live)
		s->iommu_unknown = !has_iommu_groups(root, s);
	if (err)
		pa_sysfs_clear(s);
	return err;
}

/*
 * The module sends sizes, not places: each BAR's start from the resource
 * file, the kernel's placement; without it from the BAR register, except
 * a VF's, which reads 0 wherever the kernel put it (SR-IOV): unknown.
 */
static void bar_places(const struct pa_config *c, const char *resource,
		       struct pa_device *d)
{
	struct pa_sysfs_bar res[PA_MAX_BARS];
	bool with_res = resource && pa_sysfs_resource_bars(resource, res);
	unsigned int nregs = c ? c->nbar_regs : PA_MAX_BARS;
	/* The module flags a VF; its configuration space reads vendor 0xffff. */
	bool vf = (d->flags & PCIEAUDIT_DEV_F_VIRTFN) ||
		  (c && c->vendor == 0xffff);
	for (size_t i = 0; i < d->nbars; i++) {
		struct pa_bar *b = &d->bars[i];

		if (b->index >= nregs ||
		    (b->flags & PCIEAUDIT_BAR_F_UNASSIGNED))
			continue;
		if (with_res) {
			/* A line without a place (the BAR released since
			 * the module answered): unknown. */
			b->has_start = res[b->index].has_start;
			b->start = res[b->index].start;
		} else if (!vf && c) {
			b->has_start = true;
			b->start = c->bar_regs[b->index].address;
		}
	}
}

/* One function's VFIO facts onto d, from the files read_device() read. */
static int passthru_of(const struct pa_sysfs_dev *s, struct pa_device *d)
{
	struct pa_config c;
	int err;

	pa_config_parse(s->config, s->config_len, &c);
	if (!c.valid || c.all_ones)
		return 0;
	err = pa_passthru_fill(&c, s->resource, s->reset_method, s->reset_file,
			       s->sriov_numvfs, &d->pt);
	bar_places(&c, s->resource, d);
	return err;
}

/* power/runtime_status says the function sleeps, or is on its way in or
 * out of it; "active", "unsupported" (always on) or no file: awake. */
static bool runtime_suspended(int devdir, const char *bdf)
{
	char path[PA_BDF_LEN + 32];
	char *status;
	bool asleep;

	snprintf(path, sizeof(path), "%s/power/runtime_status", bdf);
	status = text_at(devdir, path);
	asleep = status && strncmp(status, "active", 6) &&
		 strncmp(status, "unsupported", 11);
	free(status);
	return asleep;
}

/*
 * The reset_method read for each of the module's keys: the kernel's
 * reset_method_show() spells the array the key packs, so functions with
 * one key read alike (a VF's siblings, a switch's ports), and one read
 * serves them all, where a read per function took three system calls.
 */
struct reset_texts {
	struct reset_text {
		uint64_t key;
		char *text;
	} *v;
	size_t n, cap;
};

static const struct reset_text *reset_text_of(const struct reset_texts *t,
					      uint64_t key)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].key == key)
			return &t->v[i];
	return NULL;
}

static void reset_text_add(struct reset_texts *t, uint64_t key,
			   const char *text)
{
	struct reset_text *v;
	char *copy = strdup(text);

	if (!copy)
		return;		/* only a cache: the next one reads again */
	if (t->n == t->cap) {
		v = realloc(t->v, (t->cap ? 2 * t->cap : 8) * sizeof(*v));
		if (!v) {
			free(copy);
			return;
		}
		t->v = v;
		t->cap = t->cap ? 2 * t->cap : 8;
	}
	t->v[t->n++] = (struct reset_text){ .key = key, .text = copy };
}

static void reset_texts_clear(struct reset_texts *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].text);
	free(t->v);
}

/*
 * A function whose registers, SR-IOV facts and BAR places the module sent:
 * only its reset methods, which the kernel names in sysfs alone. Neither
 * file touches the device. With no method the key is 0 and says nothing:
 * reset_method is then absent, or empty if all were disabled by hand.
 */
static int module_reset_read(int devdir, bool fixture, struct reset_texts *t,
			     struct pa_device *d)
{
	char path[PA_BDF_LEN + 16], bdf[PA_BDF_LEN];
	bool keyed = d->has_reset_key && d->reset_key;
	const struct reset_text *same;
	char *method;
	int reset_file, err;

	if (!d->pt.known)
		return 0;
	same = keyed ? reset_text_of(t, d->reset_key) : NULL;
	if (same)
		return pa_passthru_reset(same->text, 1, &d->pt);
	pa_bdf_format(&d->addr, bdf);
	snprintf(path, sizeof(path), "%s/reset_method", bdf);
	method = attr_at(devdir, path);
	if (method && keyed)
		reset_text_add(t, d->reset_key, method);
	/* reset_method implies reset; only a kernel before 5.15 lacks it. */
	snprintf(path, sizeof(path), "%s/reset", bdf);
	reset_file = method ? 1 : reset_file_at(devdir, path, fixture);
	err = pa_passthru_reset(method, reset_file, &d->pt);
	free(method);
	return err;
}

int pa_passthru_read(const char *root, struct pa_report *rep)
{
	struct reset_texts texts = { 0 };
	bool fixture;
	int devdir = open_devices(root, &fixture), err = 0;

	if (devdir < 0)
		return 0;
	for (size_t i = 0; !err && i < rep->ndevices; i++) {
		struct pa_device *d = &rep->devices[i];
		struct pa_sysfs one = { 0 };
		struct pa_sysfs_dev *s;
		char bdf[PA_BDF_LEN];

		if (d->pt_from_module) {
			err = module_reset_read(devdir, fixture, &texts, d);
			continue;
		}
		s = calloc(1, sizeof(*s));
		if (!s) {
			err = -ENOMEM;
			break;
		}
		one.devs = s;
		one.n = 1;
		pa_bdf_format(&d->addr, bdf);
		/* A function gone since, or a copy without it: unknown. So is
		 * one runtime-suspended: reading its config file would wake it
		 * (and the bridges above), which the module's source never does. */
		if (fixture || !runtime_suspended(devdir, bdf)) {
			if (!read_passthru_files(devdir, bdf, fixture, s))
				err = passthru_of(s, d);
		} else {
			/* The BARs' places are the kernel's resources, read
			 * without touching the device; its registers stay
			 * unknown. */
			char path[PA_BDF_LEN + 16];

			snprintf(path, sizeof(path), "%s/resource", bdf);
			s->resource = text_at(devdir, path);
			bar_places(NULL, s->resource, d);
		}
		pa_sysfs_clear(&one);
	}
	reset_texts_clear(&texts);
	close(devdir);
	return err;
}

/* The first of the files that exists, read relative to root unless the
 * name is absolute. */
static char *first_text(const char *root, const char *const *names)
{
	char *text = NULL;
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	for (; !text && *names; names++)
		text = text_at(fd, *names);
	close(fd);
	return text;
}

/* Which ACPI table describes an IOMMU, where the tables can be listed. */
static int read_iommu_table(const char *root, struct pa_host *host)
{
	static const char *const tables[] = { "DMAR", "IVRS", "VIOT" };
	char path[PATH_MAX];
	const char *found = "none";
	int fd;

	snprintf(path, sizeof(path), "%s/firmware/acpi/tables", root);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	for (size_t i = 0; i < 3 && !strcmp(found, "none"); i++)
		if (!faccessat(fd, tables[i], F_OK, 0))
			found = tables[i];
	close(fd);
	host->iommu_table = strdup(found);
	return host->iommu_table ? 0 : -ENOMEM;
}

/* The kernel log of the running host (root, or dmesg_restrict off). */
static char *live_dmesg(void)
{
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf;

	if (len <= 0)
		return NULL;
	buf = malloc((size_t)len + 1);
	if (!buf)
		return NULL;
	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, len);
	if (len < 0) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

/*
 * What VFIO's type1 backend asks before it attaches a group: interrupt
 * remapping (/proc/interrupts' chips, else the kernel log) and its own
 * allow_unsafe_interrupts; and vfio_pci's ids where sysfs shows them.
 */
static int read_vfio_host(const char *root, bool live, struct pa_host *host)
{
	static const char *const live_irq[] = { "/proc/interrupts", NULL };
	static const char *const copy_irq[] = { "interrupts", NULL };
	static const char *const copy_log[] = { "dmesg", NULL };
	static const char *const unsafe[] = {
		"module/vfio_iommu_type1/parameters/allow_unsafe_interrupts", NULL,
	};
	static const char *const ids[] = {
		"module/vfio_pci/parameters/ids", NULL,
	};
	char *text = first_text(root, live ? live_irq : copy_irq);
	int err = 0;

	if (text)
		err = pa_intremap_from_interrupts(text, host);
	free(text);
	if (!err && !host->intremap) {
		text = live ? live_dmesg() : first_text(root, copy_log);
		if (text)
			err = pa_intremap_from_dmesg(text, host);
		free(text);
	}
	text = first_text(root, unsafe);
	host->allow_unsafe = pa_bool_param(text);
	free(text);
	host->vfio_pci_ids = first_text(root, ids);
	if (host->vfio_pci_ids)
		host->vfio_pci_ids[strcspn(host->vfio_pci_ids, "\n")] = '\0';
	return err;
}

int pa_host_read(const char *root, struct pa_host *host)
{
	static const char *const live_cmdline[] = { "/proc/cmdline", NULL };
	static const char *const live_cpuinfo[] = { "/proc/cpuinfo", NULL };
	static const char *const copy_cmdline[] = { "cmdline", NULL };
	static const char *const copy_cpuinfo[] = { "cpuinfo", NULL };
	static const char *const nodes[] = {
		"devices/system/node/online", "node_online", NULL,
	};
	bool live = pa_sysfs_is_live(root);
	char *cpuinfo, *online;
	int err = 0;

	pa_host_clear(host);
	host->cmdline = first_text(root, live ? live_cmdline : copy_cmdline);
	if (host->cmdline)
		host->cmdline[strcspn(host->cmdline, "\n")] = '\0';
	cpuinfo = first_text(root, live ? live_cpuinfo : copy_cpuinfo);
	if (cpuinfo)
		err = pa_cpuinfo_parse(cpuinfo, host);
	if (!err)
		err = read_iommu_table(root, host);
	if (!err)
		err = read_vfio_host(root, live, host);
	online = first_text(root, nodes);
	if (online)
		host->numa_nodes = pa_node_list_count(online);
	free(cpuinfo);
	free(online);
	return err;
}
