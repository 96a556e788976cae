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
#include "lspci_vvv.h"
#include "pcinames.h"

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
	v[s->n] = (struct pa_sysfs_dev){ .reset_file = -1 };
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

/* The facts lspci -v printed, moved onto d. */
static void take(struct pa_lspci_facts *f, struct pa_sysfs_dev *d)
{
	pa_lspci_plain_regions(f, d->config, d->config_len);
	d->driver = f->driver;
	d->attrs[PA_ATTR_NUMA_NODE] = f->numa_node;
	d->iommu_group = f->iommu_group;
	f->driver = f->numa_node = f->iommu_group = NULL;
	d->bar_sizes_known = f->bar_sizes_known;
	for (int b = 0; b < PA_MAX_BARS; b++) {
		d->bar_size[b] = (struct pa_sysfs_bar){
			.size = f->bar_size[b],
			.unassigned = f->bar_unassigned[b],
			.has_start = f->bar_place[b].has_start,
			.start = f->bar_place[b].start,
			.flags = f->bar_place[b].flags,
		};
	}
}

/*
 * Whether the ids lspci -n printed for d differ from d's configuration
 * space: text read apart from the bytes (a sosreport's lspci -nnvv) may
 * have been taken at another time. A VF's ids read all ones in its
 * configuration space; lspci takes them from sysfs.
 */
static bool ids_differ(const struct pa_lspci_facts *f,
		       const struct pa_sysfs_dev *d)
{
	const uint8_t *c = d->config;
	unsigned int vendor, device;

	if (!f->has_ids || d->config_len < 12)
		return false;
	vendor = (unsigned int)c[0] | (unsigned int)c[1] << 8;
	device = (unsigned int)c[2] | (unsigned int)c[3] << 8;
	if (vendor == 0xffff && device == 0xffff) {
		vendor = f->vendor;
		device = f->device;
	}
	return vendor != f->vendor || device != f->device ||
	       ((unsigned int)c[11] << 8 | c[10]) != f->class ||
	       (f->revision >= 0 && c[8] != f->revision);
}

static int disagree(const struct pa_lspci_facts *f,
		    const struct pa_sysfs_dev *d, const char *text,
		    struct pa_warnings *w)
{
	const uint8_t *c = d->config;

	return pa_warn(w, "%s: %s shows %04x:%04x class %04x, its configuration space %02x%02x:%02x%02x class %02x%02x rev %02x (the text taken at another time?): the configuration space is used, and the text's driver, NUMA node, IOMMU group and BAR sizes are not",
		       d->name, text, f->vendor, f->device, f->class, c[1],
		       c[0], c[3], c[2], c[11], c[10], c[8]);
}

/*
 * Moves the facts lspci -v printed onto the function they belong to.
 * text names the file the facts came from apart from the configuration
 * space (a sosreport's), or is NULL when each function's facts and hex
 * came together. With text, the two are held against each other, and a
 * function that only one of them shows is warned about.
 */
static int apply_facts(struct pa_lspci_text *t, struct pa_sysfs *s,
		       const char *text, struct pa_warnings *w)
{
	bool *seen = calloc(s->n + 1, sizeof(*seen));
	int err = seen ? 0 : -ENOMEM;

	for (size_t i = 0; !err && i < t->nfacts; i++) {
		struct pa_lspci_facts *f = &t->facts[i];
		size_t k = 0;

		while (k < s->n && strcmp(s->devs[k].name, f->bdf))
			k++;
		if (k == s->n) {
			if (text)
				err = pa_warn(w, "%s: %s shows it, but the configuration space has no such function (removed since?): left out",
					      f->bdf, text);
			continue;
		}
		seen[k] = true;
		if (text && ids_differ(f, &s->devs[k])) {
			s->devs[k].driver_unknown = true;
			err = disagree(f, &s->devs[k], text, w);
			continue;
		}
		take(f, &s->devs[k]);
	}
	for (size_t k = 0; !err && text && k < s->n; k++) {
		if (seen[k])
			continue;
		s->devs[k].driver_unknown = true;
		err = pa_warn(w, "%s: not in %s: its driver, NUMA node, IOMMU group and BAR sizes are unknown",
			      s->devs[k].name, text);
	}
	free(seen);
	return err;
}

/* Plain lspci -vvv text: each function's configuration space rebuilt
 * from it (lspci_vvv.h), ids from the names where -n's are absent. */
static int read_vvv(const char *text, size_t len, struct pa_sysfs *s,
		    size_t *bare)
{
	struct pa_names_rev *rev = pa_names_rev_open();
	struct pa_vvv_names names = { pa_names_rev_ids, pa_names_rev_class, rev };
	struct pa_vvv v;
	int err = pa_vvv_parse(text, len, rev ? &names : NULL, &v);

	pa_names_rev_close(rev);
	if (err)
		return err;
	*bare = v.bare_headers;
	for (size_t i = 0; !err && i < v.n; i++) {
		err = add(s, v.v[i].bdf, v.v[i].config, v.v[i].len);
		if (!err) {
			s->devs[s->n - 1].caps_hidden = v.v[i].caps_hidden;
			s->devs[s->n - 1].ids_unknown = !v.v[i].ids_known;
			s->devs[s->n - 1].class_unknown = !v.v[i].class_known;
		}
	}
	pa_vvv_clear(&v);
	return err;
}

/* What the file held when it holds no function: for the refusal. */
static void found(char *what, size_t whatlen, size_t bare,
		  const struct pa_lspci_tree *tree)
{
	size_t n = strlen(what);

	if (bare)
		n += (size_t)snprintf(what + n, whatlen - n,
				      " (it holds %zu function line%s without hex rows or lspci -v blocks below them: lspci or lspci -nn output",
				      bare, bare == 1 ? "" : "s");
	if (tree->n && n < whatlen)
		n += (size_t)snprintf(what + n, whatlen - n, "%s an lspci -t drawing of %zu functions",
				      bare ? ", and" : " (it holds", tree->n);
	if ((bare || tree->n) && n < whatlen)
		snprintf(what + n, whatlen - n, ")");
}

/* libpci reads a dump from a file: the normalised text goes to one. */
static int read_text(const char *path, struct pa_sysfs *s,
		     struct pa_lspci_extra *extra, char *why, size_t whylen,
		     char *what, size_t whatlen)
{
	struct pa_lspci_text t;
	const char *dir = getenv("TMPDIR");
	char tmp[PATH_MAX], *text;
	size_t len, bare = 0;
	int fd, err = pa_read_file_gz(path, PA_LSPCI_MAX, &text, &len, why,
				      whylen);

	if (err)
		return err;
	err = pa_lspci_normalise(text, len, &t);
	if (!err) {
		err = pa_lspci_tree_parse(text, len, &extra->tree);
		if (!err)
			err = pa_nvsmi_parse(text, len, &extra->gpus);
		if (!err && !t.nfunctions)
			err = read_vvv(text, len, s, &bare);
		if (err)
			pa_lspci_text_clear(&t);
	}
	free(text);
	if (err)
		return err;
	if (!t.nfunctions && s->n) {
		extra->from_text = true;
		err = apply_facts(&t, s, NULL, &extra->warnings);
		extra->drivers_known = t.verbose;
		extra->iommu_known = t.iommu_groups;
		pa_lspci_text_clear(&t);
		return err;
	}
	if (!t.nfunctions) {
		found(what, whatlen, bare, &extra->tree);
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
		err = apply_facts(&t, s, NULL, &extra->warnings);
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

/* A whole text file of a sosreport, up to 4 MiB; NULL when absent. */
static char *read_whole(const char *dir, const char *name)
{
	char path[PATH_MAX], why[8], *text = NULL;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (pa_read_file_gz(path, 4u << 20, &text, &len, why, sizeof(why)))
		return NULL;
	return text;
}

/*
 * sos's pci plugin stores lspci's output as sos_commands/pci/lspci_<args>:
 * -nnvv in today's sos (sos/report/plugins/pci.py, with a top-level
 * "lspci" link to it), -nvv in older ones (sos/plugins/pci.py, plain
 * lspci at the top); -tv in both.
 */
static const char *const sos_verbose[] = {
	"sos_commands/pci/lspci_-nnvv", "sos_commands/pci/lspci_-nvv",
	"sos_commands/pci/lspci_-nnvvv", "sos_commands/pci/lspci_-vvv",
	"sos_commands/pci/lspci_-vv",
};
static const char *const sos_tree[] = {
	"sos_commands/pci/lspci_-tv", "sos_commands/pci/lspci_-nntv",
	"sos_commands/pci/lspci_-t",
};

/* root/name, gzipped or not; -ENOENT when absent. */
static int read_sos_file(const char *root, const char *name, char **text,
			 size_t *len, char *why, size_t whylen)
{
	char path[PATH_MAX];
	int err;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	err = pa_read_file_gz(path, PA_LSPCI_MAX, text, len, why, whylen);
	if (err == -EBADMSG)
		snprintf(why + strlen(why), whylen - strlen(why), " (%s)",
			 path);
	return err == -EBADMSG || err == -EFBIG || err == -ENOMEM ? err :
	       err ? -ENOENT : 0;
}

/* The first of sos's lspci -v files that shows a function, its facts
 * put on the functions of proc/bus/pci. */
static int sos_facts(const char *root, struct pa_sysfs *s,
		     struct pa_lspci_extra *extra, char *why, size_t whylen)
{
	struct pa_lspci_text t = { 0 };
	size_t i, len;
	char *text;
	int err = -ENOENT;

	for (i = 0; err == -ENOENT && i < sizeof(sos_verbose) / sizeof(sos_verbose[0]); i++) {
		err = read_sos_file(root, sos_verbose[i], &text, &len, why,
				    whylen);
		if (err)
			continue;
		err = pa_lspci_normalise(text, len, &t);
		free(text);
		if (!err && !t.nfacts) {
			pa_lspci_text_clear(&t);
			err = -ENOENT;
		}
	}
	if (err)
		return err == -ENOENT ? 0 : err;
	extra->drivers_known = t.verbose;
	extra->iommu_known = t.iommu_groups;
	extra->text = sos_verbose[i - 1];
	err = apply_facts(&t, s, extra->text, &extra->warnings);
	pa_lspci_text_clear(&t);
	return err;
}

/* lspci -tv's drawing, which places the bridges as lspci saw them. */
static int sos_drawing(const char *root, struct pa_lspci_extra *extra,
		       char *why, size_t whylen)
{
	size_t len;
	char *text;
	int err = -ENOENT;

	for (size_t i = 0; err == -ENOENT && i < sizeof(sos_tree) / sizeof(sos_tree[0]); i++)
		err = read_sos_file(root, sos_tree[i], &text, &len, why,
				    whylen);
	if (err)
		return err == -ENOENT ? 0 : err;
	err = pa_lspci_tree_parse(text, len, &extra->tree);
	free(text);
	return err;
}

/* uname -a's release, its third word ("Linux HOST RELEASE ..."), as sos's
 * kernel plugin stored it; NULL when absent. */
static char *sos_kernel_release(const char *root)
{
	static const char *const names[] = {
		"sos_commands/kernel/uname_-a", "uname",
	};
	char word[3][256], *line;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		line = read_small(root, names[i]);
		if (!line)
			continue;
		if (sscanf(line, "%255s %255s %255s", word[0], word[1],
			   word[2]) == 3 && !strcmp(word[0], "Linux")) {
			free(line);
			return strdup(word[2]);
		}
		free(line);
	}
	return NULL;
}

static int read_sosreport(const char *root, struct pa_sysfs *s,
			  struct pa_lspci_extra *extra, char *why,
			  size_t whylen)
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
		err = sos_facts(root, s, extra, why, whylen);
	if (!err)
		err = sos_drawing(root, extra, why, whylen);
	if (!err) {
		extra->cmdline = read_small(root, "proc/cmdline");
		extra->kernel_release = sos_kernel_release(root);
		extra->interrupts = read_whole(root, "proc/interrupts");
		extra->dmesg = read_whole(root, "sos_commands/kernel/dmesg");
	}
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
		err = read_sosreport(path, s, extra, why, sizeof(why));
	} else {
		err = read_text(path, s, extra, why, sizeof(why), what,
				whatlen);
	}
	/* Corrupt or truncated gzip: what says which file, and how. */
	if (err == -EBADMSG)
		snprintf(what, whatlen, "%s: gzip: %s", path, why);
	if (err) {
		pa_sysfs_clear(s);
		pa_lspci_tree_clear(&extra->tree);
		pa_nvsmi_clear(&extra->gpus);
		pa_warnings_clear(&extra->warnings);
		free(extra->cmdline);
		free(extra->kernel_release);
		free(extra->interrupts);
		free(extra->dmesg);
		*extra = (struct pa_lspci_extra){ 0 };
	}
	return err;
}
