// SPDX-License-Identifier: GPL-2.0
/* memfd_create() */
#define _GNU_SOURCE
#include "pcinames.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <pci/pci.h>

#include "errors.h"
#include "exitcodes.h"
#include "fileio.h"

/* Names are decoration: a missing or broken pci.ids must stay silent. */
static void quiet(char *msg, ...)
{
	(void)msg;
}

/* libpci calls this only when it cannot go on (out of memory) and requires
 * that it not return; its prototype carries the GNU attribute, and clang
 * does not take _Noreturn for it. */
__attribute__((noreturn, format(printf, 1, 2)))
static void die(char *msg, ...)
{
	va_list ap;

	fprintf(stderr, "%s: libpci: ", PA_PROG);
	va_start(ap, msg);
	vfprintf(stderr, msg, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(PA_EXIT_RUNTIME);
}

/* Lookup flags: name only (NULL instead of a number when unknown). */
#define NAME_ONLY PCI_LOOKUP_NO_NUMBERS

static char *dup_name(const char *name)
{
	return name ? strdup(name) : NULL;
}

/*
 * libpci keeps the names it found, not the ones it did not: each miss
 * (QEMU's and many vendors' IDs) asks the udev hwdb again, and where
 * hwdb.bin is absent (containers, initramfs) that is five failed open()
 * per lookup, most of the report's time on 1000+ functions. Functions
 * of one device, VFs and the ports of one switch share their IDs, so a
 * small table of the answers given, misses included, catches them.
 */
#define NAME_SLOTS 32

struct known_name {
	bool valid;
	uint32_t key;
	char *name;	/* NULL: libpci has none */
};

struct name_cache {
	struct pci_access *pacc;
	struct known_name vendor[NAME_SLOTS], device[NAME_SLOTS],
			  class[NAME_SLOTS];
};

/* id2 is read only for device lookups; a varargs call ignores it else. */
static char *lookup(struct name_cache *nc, struct known_name *table,
		    uint32_t key, int flags, int id1, int id2)
{
	/* Fibonacci hashing: the top 5 bits of key times 2^32 / phi. */
	struct known_name *last = &table[(uint32_t)(key * 2654435761u) >> 27];
	char buf[256];

	if (!last->valid || last->key != key) {
		free(last->name);
		last->name = dup_name(pci_lookup_name(nc->pacc, buf, sizeof(buf),
						      flags, id1, id2));
		last->key = key;
		last->valid = true;
	}
	return dup_name(last->name);
}

static void fill_one(struct name_cache *nc, struct pa_device *dev,
		     bool classes)
{
	dev->vendor_name = lookup(nc, nc->vendor, dev->vendor,
				  PCI_LOOKUP_VENDOR | NAME_ONLY, dev->vendor, 0);
	dev->device_name = lookup(nc, nc->device,
				  (uint32_t)dev->vendor << 16 | dev->device,
				  PCI_LOOKUP_DEVICE | NAME_ONLY,
				  dev->vendor, dev->device);
	/* Class and subclass; the programming interface is too fine here. */
	if (classes)
		dev->class_name = lookup(nc, nc->class, dev->class >> 8,
					 PCI_LOOKUP_CLASS | NAME_ONLY,
					 dev->class >> 8, 0);
}

/* libpci's id_hex(): exactly n hex digits, then a space or a tab. */
static int id_hex(const char *p, const char *end, int n)
{
	int v = 0;

	if (end - p <= n)
		return -1;
	for (int i = 0; i < n; i++, p++) {
		int c = *p;

		if (c >= '0' && c <= '9')
			v = v * 16 + c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			v = v * 16 + (c | 0x20) - 'a' + 10;
		else
			return -1;
	}
	return *p == ' ' || *p == '\t' ? v : -1;
}

/*
 * The IDs the devices have, each once and sorted: pci.ids has some 2,300
 * vendor lines and Intel alone 3,000 device lines, and asking all 1,032
 * functions of a large machine at each took most of a report's names.
 */
struct wanted {
	uint32_t *vendor, *device, *class;	/* vendor; vendor<<16|device;
						 * base<<8|sub, and base<<8|0xff
						 * for the base class alone */
	size_t nvendor, ndevice, nclass;
};

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorts v[0..n) and drops repeats; returns how many are left. */
static size_t sort_unique(uint32_t *v, size_t n)
{
	size_t k = 0;

	qsort(v, n, sizeof(*v), cmp_u32);
	for (size_t i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

static bool wanted_init(struct wanted *w, const struct pa_device *devs,
			size_t n)
{
	*w = (struct wanted){ .vendor = calloc(n + 1, sizeof(uint32_t)),
			      .device = calloc(n + 1, sizeof(uint32_t)),
			      .class = calloc(2 * n + 1, sizeof(uint32_t)) };
	if (!w->vendor || !w->device || !w->class)
		return false;
	for (size_t i = 0; i < n; i++) {
		w->vendor[i] = devs[i].vendor;
		w->device[i] = (uint32_t)devs[i].vendor << 16 | devs[i].device;
		w->class[2 * i] = devs[i].class >> 8 & 0xffff;
		w->class[2 * i + 1] = (devs[i].class >> 16) << 8 | 0xff;
	}
	w->nvendor = sort_unique(w->vendor, n);
	w->ndevice = sort_unique(w->device, n);
	w->nclass = sort_unique(w->class, 2 * n);
	return true;
}

static void wanted_clear(struct wanted *w)
{
	free(w->vendor);
	free(w->device);
	free(w->class);
}

static bool has(const uint32_t *v, size_t n, uint32_t key)
{
	return bsearch(&key, v, n, sizeof(*v), cmp_u32) != NULL;
}

static bool wanted_vendor(const struct wanted *w, int v)
{
	return has(w->vendor, w->nvendor, (uint32_t)v);
}

static bool wanted_device(const struct wanted *w, int v, int d)
{
	return has(w->device, w->ndevice, (uint32_t)v << 16 | (uint32_t)d);
}

/* A base class (sub -1), or a base class and subclass. */
static bool wanted_class(const struct wanted *w, int c, int sub)
{
	return has(w->class, w->nclass,
		   (uint32_t)c << 8 | (sub < 0 ? 0xff : (uint32_t)sub));
}

/*
 * The lines of pci.ids that name these devices, as libpci's parser finds
 * them: a vendor's line and its devices' (one tab), a class's and its
 * subclasses'. Written to out for libpci to read instead of the whole
 * file, whose 1.3 MB libpci parses into a hash on its first lookup: most
 * of a report's time on a small machine. What the subset lacks the whole
 * file lacks too, so libpci still asks the udev hwdb for it.
 */
static void subset(const char *text, size_t len, const struct wanted *w,
		   bool classes, FILE *out)
{
	const char *p = text, *end = text + len;
	enum { OTHER, VENDOR, CLASS } top = OTHER;
	int id = -1;
	bool keep = false;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *q = p;
		int nest, sub;

		eol = eol ? eol : end;
		while (q < eol && *q == '\t')
			q++;
		nest = (int)(q - p);
		if (q == eol || *q == '#' || *q == ' ') {
			p = eol + 1;
			continue;
		}
		if (!nest) {
			top = OTHER;
			keep = false;
			if (q[0] == 'C' && eol - q > 1 && q[1] == ' ') {
				id = id_hex(q + 2, eol, 2);
				top = CLASS;
				keep = classes && id >= 0 &&
				       wanted_class(w, id, -1);
			} else if (!(q[0] >= 'A' && q[0] <= 'Z' && eol - q > 1 &&
				     q[1] == ' ')) {
				id = id_hex(q, eol, 4);
				top = VENDOR;
				keep = id >= 0 && wanted_vendor(w, id);
			}
			if (keep)
				fwrite(p, 1, (size_t)(eol - p) + (eol < end), out);
		} else if (nest == 1 && keep) {
			sub = id_hex(q, eol, top == CLASS ? 2 : 4);
			if (sub >= 0 && (top == CLASS ?
					 wanted_class(w, id, sub) :
					 wanted_device(w, id, sub)))
				fwrite(p, 1, (size_t)(eol - p) + (eol < end), out);
		}
		p = eol + 1;
	}
}

/* Points libpci at the subset of its own list, in a memory file; false
 * where that cannot be (a gzip list, no memfd), and libpci reads its own. */
static bool use_subset(struct pci_access *pacc, const struct pa_device *devs,
		       size_t n, bool classes)
{
	char *name = pacc->id_file_name, path[64];
	size_t nlen = name ? strlen(name) : 0;
	int fd = name ? open(name, O_RDONLY | O_CLOEXEC) : -1;
	struct stat st;
	void *text = MAP_FAILED;
	FILE *out = NULL;
	struct wanted w;
	int mfd = -1;
	bool ok = false;

	/* libpci's pci_open(): "pci.ids.gz", else the name without ".gz". */
	if (fd < 0 && nlen > 3 && !strcmp(name + nlen - 3, ".gz")) {
		char plain[4096];

		snprintf(plain, sizeof(plain), "%.*s", (int)(nlen - 3), name);
		fd = open(plain, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0 || fstat(fd, &st) || st.st_size < 2)
		goto out;
	text = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (text == MAP_FAILED || !memcmp(text, "\x1f\x8b", 2))
		goto out;
	mfd = memfd_create("pci.ids", MFD_CLOEXEC);
	out = mfd < 0 ? NULL : fdopen(dup(mfd), "w");
	if (!out)
		goto out;
	if (!wanted_init(&w, devs, n)) {
		wanted_clear(&w);
		fclose(out);
		goto out;
	}
	subset(text, (size_t)st.st_size, &w, classes, out);
	wanted_clear(&w);
	if (fclose(out))
		goto out;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", mfd);
	if (access(path, R_OK))
		goto out;
	name = strdup(path);
	if (!name)
		goto out;
	/* libpci frees it; the descriptor stays open until the process ends. */
	pci_set_name_list_path(pacc, name, 1);
	mfd = -1;
	ok = true;
out:
	if (text != MAP_FAILED)
		munmap(text, (size_t)st.st_size);
	if (fd >= 0)
		close(fd);
	if (mfd >= 0)
		close(mfd);
	return ok;
}

/* Where libudev looks for its hwdb (systemd 252's list). */
bool pa_names_hwdb_present(void)
{
	static const char *const paths[] = {
		"/etc/systemd/hwdb/hwdb.bin", "/etc/udev/hwdb.bin",
		"/usr/lib/systemd/hwdb/hwdb.bin", "/lib/systemd/hwdb/hwdb.bin",
		"/lib/udev/hwdb.bin",
	};

	if (getenv("SYSTEMD_HWDB_BIN"))
		return true;
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (!access(paths[i], F_OK))
			return true;
	return false;
}

void pa_names_fill(struct pa_device *devices, size_t count, bool classes)
{
	/* Without pci_init(): that probes config space access methods, which
	 * name lookups do not need, and fails fatally where none works. */
	struct name_cache nc = { .pacc = pci_alloc() };

	if (!nc.pacc)
		return;
	nc.pacc->error = die;
	nc.pacc->warning = quiet;
	nc.pacc->debug = quiet;
	if (!pa_names_hwdb_present())
		pci_set_param(nc.pacc, "hwdb.disable", "1");
	use_subset(nc.pacc, devices, count, classes);
	for (size_t i = 0; i < count; i++)
		fill_one(&nc, &devices[i], classes);
	for (size_t i = 0; i < NAME_SLOTS; i++) {
		free(nc.vendor[i].name);
		free(nc.device[i].name);
		free(nc.class[i].name);
	}
	pci_cleanup(nc.pacc);
}

/* ---- Ids from names ------------------------------------------------------ */

/* One name of pci.ids: a vendor (device -1), a vendor's device, or a
 * class and subclass (vendor -1). */
struct rev_name {
	int vendor, device;
	const char *name;	/* into text */
};

struct pa_names_rev {
	char *text;		/* pci.ids, its names NUL-terminated in place */
	struct rev_name *v;
	size_t n;
	bool read;
};

/* pci.ids is read once a process, on the first lookup, and kept: a
 * fuzzer's or a fleet run's every input would read it again. */
static struct pa_names_rev shared;

struct pa_names_rev *pa_names_rev_open(void)
{
	return &shared;
}

void pa_names_rev_close(struct pa_names_rev *r)
{
	(void)r;
}

static bool hexn(const char *p, size_t n, int *v)
{
	char buf[8], *end;

	if (n >= sizeof(buf))
		return false;
	memcpy(buf, p, n);
	buf[n] = '\0';
	*v = (int)strtol(buf, &end, 16);
	return end == buf + n;
}

static int rev_add(struct pa_names_rev *r, int vendor, int device,
		   const char *name)
{
	struct rev_name *more;

	if (!(r->n & (r->n + 1)) || !r->v) {
		more = realloc(r->v, (2 * r->n + 2) * sizeof(*more));
		if (!more)
			return -1;
		r->v = more;
	}
	r->v[r->n++] = (struct rev_name){ vendor, device, name };
	return 0;
}

/*
 * pci.ids, where libpci finds it (gzipped or not), walked once: "vvvv
 * name", "\tdddd  name" below it; "C cc  name", "\tss  name" below it.
 * Subsystems ("\t\t") are left out. The names lspci prints are the same
 * database's (or udev's hwdb, built from it).
 */
static void rev_read(struct pa_names_rev *r)
{
	struct pci_access *pacc = pci_alloc();
	int vendor = -1, cls = -1, id;
	char why[64], path[4096], *line, *next, *end;
	size_t len = 0, n;

	r->read = true;
	if (!pacc)
		return;
	/* libpci names pci.ids.gz and falls back to pci.ids: so do we. */
	snprintf(path, sizeof(path), "%s", pacc->id_file_name ? pacc->id_file_name : "");
	pci_cleanup(pacc);
	if (pa_read_file_gz(path, 64u << 20, &r->text, &len, why, sizeof(why))) {
		r->text = NULL;
		n = strlen(path);
		if (n > 3 && !strcmp(path + n - 3, ".gz")) {
			path[n - 3] = '\0';
			if (pa_read_file_gz(path, 64u << 20, &r->text, &len, why,
					    sizeof(why)))
				r->text = NULL;
		}
	}
	end = r->text ? r->text + len : NULL;
	for (line = r->text; line && line < end; line = next) {
		next = memchr(line, '\n', (size_t)(end - line));
		if (next)
			*next++ = '\0';
		else
			next = end;
		if (line[0] == '#' || !line[0] || (line[0] == '\t' && line[1] == '\t'))
			continue;
		if (line[0] == 'C' && line[1] == ' ' && hexn(line + 2, 2, &cls) &&
		    line[4] == ' ') {
			vendor = -1;
			continue;
		}
		if (line[0] != '\t' && hexn(line, 4, &id) && line[4] == ' ') {
			vendor = id;
			cls = -1;
			if (rev_add(r, vendor, -1, line + 6))
				return;
		} else if (line[0] == '\t' && vendor >= 0 && hexn(line + 1, 4, &id) &&
			   line[5] == ' ') {
			if (rev_add(r, vendor, id, line + 7))
				return;
		} else if (line[0] == '\t' && cls >= 0 && hexn(line + 1, 2, &id) &&
			   line[3] == ' ') {
			if (rev_add(r, -1, cls << 8 | id, line + 5))
				return;
		}
	}
}

/* "Device 2230", as lspci spells an id its database lacks. */
static bool numbered(const char *s, const char *word, int digits, int *id)
{
	size_t n = strlen(word);

	return !strncmp(s, word, n) && strlen(s + n) == (size_t)digits &&
	       hexn(s + n, (size_t)digits, id);
}

/* The one device of vendor named name: -1 for none, -2 for several (a
 * chipset's UHCI controllers share a name), which leave it unknown. */
static int device_named(const struct pa_names_rev *r, int vendor,
			const char *name)
{
	int found = -1, id;

	if (numbered(name, "Device ", 4, &id))
		return id;
	for (size_t i = 0; i < r->n && found != -2; i++)
		if (r->v[i].vendor == vendor && r->v[i].device >= 0 &&
		    !strcmp(r->v[i].name, name))
			found = found == -1 ? r->v[i].device : -2;
	return found;
}

bool pa_names_rev_ids(void *arg, const char *names, uint16_t *vendor,
		      uint16_t *device)
{
	struct pa_names_rev *r = arg;
	int v = -1, d = -1, a, b;
	size_t best = 0;

	if (sscanf(names, "Device %4x:%4x", &a, &b) == 2) {
		*vendor = (uint16_t)a;
		*device = (uint16_t)b;
		return true;
	}
	if (!r->read)
		rev_read(r);
	/* The longest vendor name the text starts with, then the rest; a
	 * name two vendors share (Red Hat's 1af4 and 1b36) counts only
	 * where one of them has the device. */
	for (size_t i = 0; i < r->n; i++) {
		size_t len = strlen(r->v[i].name);

		if (r->v[i].device < 0 && r->v[i].vendor >= 0 && len > best &&
		    !strncmp(names, r->v[i].name, len) &&
		    (names[len] == ' ' || names[len] == '\0'))
			best = len;
	}
	for (size_t i = 0; best && i < r->n; i++) {
		const char *rest = names + best;
		int dev;

		if (r->v[i].device >= 0 || r->v[i].vendor < 0 ||
		    strlen(r->v[i].name) != best ||
		    strncmp(names, r->v[i].name, best))
			continue;
		rest += *rest == ' ';
		dev = device_named(r, r->v[i].vendor, rest);
		if (dev == -1)
			continue;
		if (dev == -2 || d >= 0)
			return false;
		v = r->v[i].vendor;
		d = dev;
	}
	if (d < 0)
		return false;
	*vendor = (uint16_t)v;
	*device = (uint16_t)d;
	return true;
}

bool pa_names_rev_class(void *arg, const char *name, uint16_t *class)
{
	struct pa_names_rev *r = arg;
	int c;

	if (numbered(name, "Class ", 4, &c)) {
		*class = (uint16_t)c;
		return true;
	}
	if (!r->read)
		rev_read(r);
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].vendor < 0 && !strcmp(r->v[i].name, name)) {
			*class = (uint16_t)r->v[i].device;
			return true;
		}
	return false;
}
