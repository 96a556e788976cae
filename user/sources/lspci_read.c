// SPDX-License-Identifier: GPL-2.0
#include "lspci_read.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <pci/pci.h>

#include "fileio.h"
#include "lspci_text.h"

#define CONFIG_MAX	4096

/* libpci's error handler must not return: back to the reader instead. */
static jmp_buf libpci_failed;

static void PCI_NONRET die(char *msg, ...)
{
	(void)msg;
	longjmp(libpci_failed, 1);
}

static void quiet(char *msg, ...)
{
	(void)msg;
}

static int add(struct pa_sysfs *s, const char *name, const uint8_t *config,
	       size_t len)
{
	struct pa_sysfs_dev *v = realloc(s->devs, (s->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	s->devs = v;
	v[s->n] = (struct pa_sysfs_dev){ 0 };
	v[s->n].name = strdup(name);
	v[s->n].config = len ? malloc(len) : NULL;
	v[s->n].config_len = len;
	s->n++;
	if (!v[s->n - 1].name || (len && !v[s->n - 1].config))
		return -ENOMEM;
	if (len)
		memcpy(v[s->n - 1].config, config, len);
	return 0;
}

/* The most of configuration space libpci's dump holds for d: 4096, 256
 * or 64 bytes, as lspci -xxxx, -xxx and -x print them. */
static size_t dump_length(struct pci_dev *d, uint8_t *buf)
{
	static const int sizes[] = { CONFIG_MAX, 256, 64 };

	for (size_t i = 0; i < 3; i++)
		if (pci_read_block(d, 0, buf, sizes[i]))
			return (size_t)sizes[i];
	return 0;
}

/* Every function of the dump file at path, through libpci. */
static int read_dump(const char *path, struct pa_sysfs *s)
{
	struct pci_access *volatile pacc = pci_alloc();
	uint8_t buf[CONFIG_MAX];
	char name[32];
	int err = 0;

	if (!pacc)
		return -ENOMEM;
	pacc->error = die;
	pacc->warning = quiet;
	pacc->debug = quiet;
	pacc->method = PCI_ACCESS_DUMP;
	if (setjmp(libpci_failed)) {
		pci_cleanup(pacc);
		return -EINVAL;
	}
	pci_set_param(pacc, "dump.name", (char *)path);
	pci_init(pacc);
	pci_scan_bus(pacc);
	for (struct pci_dev *d = pacc->devices; d && !err; d = d->next) {
		size_t len = dump_length(d, buf);

		snprintf(name, sizeof(name), "%04x:%02x:%02x.%u",
			 (unsigned int)d->domain, d->bus, d->dev, d->func);
		err = add(s, name, buf, len);
	}
	pci_cleanup(pacc);
	return err;
}

/* Moves the facts lspci -v printed onto the function they belong to. */
static void apply_facts(struct pa_lspci_text *t, struct pa_sysfs *s)
{
	for (size_t i = 0; i < t->nfunctions; i++) {
		struct pa_lspci_facts *f = &t->facts[i];

		for (size_t k = 0; k < s->n; k++) {
			struct pa_sysfs_dev *d = &s->devs[k];

			if (strcmp(d->name, f->bdf))
				continue;
			d->driver = f->driver;
			d->attrs[PA_ATTR_NUMA_NODE] = f->numa_node;
			d->iommu_group = f->iommu_group;
			f->driver = f->numa_node = f->iommu_group = NULL;
			d->bar_sizes_known = f->bar_sizes_known;
			for (int b = 0; b < PA_MAX_BARS; b++) {
				d->bar_size[b].size = f->bar_size[b];
				d->bar_size[b].unassigned = f->bar_unassigned[b];
			}
			break;
		}
	}
}

/* libpci reads a dump from a file: the normalised text goes to one. */
static int read_text(const char *path, struct pa_sysfs *s,
		     struct pa_lspci_extra *extra, char *why, size_t whylen)
{
	struct pa_lspci_text t;
	const char *dir = getenv("TMPDIR");
	char tmp[PATH_MAX], *text;
	size_t len;
	int fd, err = pa_read_file_gz(path, PA_LSPCI_MAX, &text, &len, why,
				      whylen);

	if (err)
		return err;
	err = pa_lspci_normalise(text, len, &t);
	if (!err) {
		err = pa_lspci_tree_parse(text, len, &extra->tree);
		if (!err)
			err = pa_nvsmi_parse(text, len, &extra->gpus);
		if (err)
			pa_lspci_text_clear(&t);
	}
	free(text);
	if (err)
		return err;
	if (!t.nfunctions) {
		pa_lspci_text_clear(&t);
		return -ENOENT;
	}
	snprintf(tmp, sizeof(tmp), "%s/pcieaudit-lspci-XXXXXX",
		 dir && *dir ? dir : "/tmp");
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = -errno;
		pa_lspci_text_clear(&t);
		return err;
	}
	len = strlen(t.dump);
	err = write(fd, t.dump, len) == (ssize_t)len ? 0 : -EIO;
	close(fd);
	if (!err)
		err = read_dump(tmp, s);
	unlink(tmp);
	if (!err)
		apply_facts(&t, s);
	extra->drivers_known = t.verbose;
	extra->iommu_known = t.iommu_groups;
	pa_lspci_text_clear(&t);
	return err;
}

/* A sosreport's proc/bus/pci: "BB" or "DDDD:BB" folders of "DD.F" files
 * holding binary configuration space. */
static int read_proc_bus(const char *dir, int busdir, const char *bus_name,
			 struct pa_sysfs *s, char *why, size_t whylen)
{
	unsigned int domain = 0, bus, dev, fn;
	char name[32], path[PATH_MAX];
	struct dirent *e;
	int err = 0;
	DIR *d;

	if (sscanf(bus_name, "%x:%x", &domain, &bus) != 2 &&
	    (domain = 0, sscanf(bus_name, "%x", &bus) != 1))
		return 0;
	d = fdopendir(busdir);
	if (!d) {
		close(busdir);
		return -errno;
	}
	while (!err && (e = readdir(d))) {
		char *buf;
		size_t len;

		if (sscanf(e->d_name, "%x.%u", &dev, &fn) != 2 || dev > 0x1f ||
		    fn > 7)
			continue;
		if (snprintf(path, sizeof(path), "%s/%s/%s", dir, bus_name,
			     e->d_name) >= (int)sizeof(path))
			continue;
		/* A file of a gzipped copy, maybe. Past 4096 bytes is not
		 * configuration space: cut, as read() into 4096 bytes did. */
		err = pa_read_file_gz(path, 1u << 20, &buf, &len, why, whylen);
		if (err == -EBADMSG) {
			snprintf(why + strlen(why), whylen - strlen(why),
				 " (%s)", path);
			break;
		}
		if (err) {
			err = 0;
			continue;
		}
		snprintf(name, sizeof(name), "%04x:%02x:%02x.%u", domain,
			 bus & 0xff, dev, fn);
		err = add(s, name, (const uint8_t *)buf,
			  len < CONFIG_MAX ? len : CONFIG_MAX);
		free(buf);
	}
	closedir(d);
	return err;
}

static char *read_small(const char *dir, const char *name)
{
	char path[PATH_MAX], why[8], *text = NULL;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (pa_read_file_gz(path, 1u << 16, &text, &len, why, sizeof(why)))
		return NULL;
	text[strcspn(text, "\n")] = '\0';
	return text;
}

static int read_sosreport(const char *root, struct pa_sysfs *s, char **cmdline,
			  char *why, size_t whylen)
{
	char path[PATH_MAX];
	struct dirent *e;
	int err = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/proc/bus/pci", root);
	d = opendir(path);
	if (!d)
		return -ENOENT;
	while (!err && (e = readdir(d))) {
		int fd;

		if (e->d_name[0] == '.')
			continue;
		fd = openat(dirfd(d), e->d_name,
			    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0)
			err = read_proc_bus(path, fd, e->d_name, s, why, whylen);
	}
	closedir(d);
	if (!err && !s->n)
		err = -ENOENT;
	if (!err)
		*cmdline = read_small(root, "proc/cmdline");
	return err;
}

int pa_lspci_read(const char *path, struct pa_sysfs *s,
		  struct pa_lspci_extra *extra, char *what, size_t whatlen)
{
	char why[128];
	struct stat st;
	int err;

	*s = (struct pa_sysfs){ 0 };
	*extra = (struct pa_lspci_extra){ 0 };
	snprintf(what, whatlen, "%s", path);
	if (strcmp(path, "-") && stat(path, &st))
		return -errno;
	if (strcmp(path, "-") && S_ISDIR(st.st_mode)) {
		snprintf(what, whatlen, "%s/proc/bus/pci", path);
		err = read_sosreport(path, s, &extra->cmdline, why, sizeof(why));
	} else {
		err = read_text(path, s, extra, why, sizeof(why));
	}
	/* Corrupt or truncated gzip: what says which file, and how. */
	if (err == -EBADMSG)
		snprintf(what, whatlen, "%s: gzip: %s", path, why);
	if (err) {
		pa_sysfs_clear(s);
		pa_lspci_tree_clear(&extra->tree);
		pa_nvsmi_clear(&extra->gpus);
		free(extra->cmdline);
		*extra = (struct pa_lspci_extra){ 0 };
	}
	return err;
}
