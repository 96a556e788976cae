// SPDX-License-Identifier: GPL-2.0
#include "pcinames.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pci/pci.h>

#include "errors.h"
#include "exitcodes.h"

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

static void fill_one(struct name_cache *nc, struct pa_device *dev)
{
	dev->vendor_name = lookup(nc, nc->vendor, dev->vendor,
				  PCI_LOOKUP_VENDOR | NAME_ONLY, dev->vendor, 0);
	dev->device_name = lookup(nc, nc->device,
				  (uint32_t)dev->vendor << 16 | dev->device,
				  PCI_LOOKUP_DEVICE | NAME_ONLY,
				  dev->vendor, dev->device);
	/* Class and subclass; the programming interface is too fine here. */
	dev->class_name = lookup(nc, nc->class, dev->class >> 8,
				 PCI_LOOKUP_CLASS | NAME_ONLY, dev->class >> 8, 0);
}

void pa_names_fill(struct pa_device *devices, size_t count)
{
	/* Without pci_init(): that probes config space access methods, which
	 * name lookups do not need, and fails fatally where none works. */
	struct name_cache nc = { .pacc = pci_alloc() };

	if (!nc.pacc)
		return;
	nc.pacc->error = die;
	nc.pacc->warning = quiet;
	nc.pacc->debug = quiet;
	for (size_t i = 0; i < count; i++)
		fill_one(&nc, &devices[i]);
	for (size_t i = 0; i < NAME_SLOTS; i++) {
		free(nc.vendor[i].name);
		free(nc.device[i].name);
		free(nc.class[i].name);
	}
	pci_cleanup(nc.pacc);
}

/* ---- Ids from names ------------------------------------------------------ */

#define REV_FLAGS (NAME_ONLY | PCI_LOOKUP_NO_HWDB)

struct rev_device {
	uint16_t vendor;
	char *name;		/* the device part of lspci's "Vendor Device" */
	int device;		/* -1: none has that name */
};

struct pa_names_rev {
	struct pci_access *pacc;
	char **vendor;		/* by id, NULL where pci.ids has none */
	char **class;		/* by class and subclass */
	struct rev_device *devices;
	size_t ndevices;
};

struct pa_names_rev *pa_names_rev_open(void)
{
	struct pa_names_rev *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->pacc = pci_alloc();
	if (!r->pacc) {
		free(r);
		return NULL;
	}
	r->pacc->error = die;
	r->pacc->warning = quiet;
	r->pacc->debug = quiet;
	return r;
}

void pa_names_rev_close(struct pa_names_rev *r)
{
	if (!r)
		return;
	for (size_t i = 0; r->vendor && i < 0x10000; i++)
		free(r->vendor[i]);
	for (size_t i = 0; r->class && i < 0x10000; i++)
		free(r->class[i]);
	for (size_t i = 0; i < r->ndevices; i++)
		free(r->devices[i].name);
	free(r->vendor);
	free(r->class);
	free(r->devices);
	pci_cleanup(r->pacc);
	free(r);
}

/* Every name of one kind, by id, once. */
static char **table_of(struct pa_names_rev *r, int kind)
{
	char buf[256], **t = calloc(0x10000, sizeof(*t));

	for (unsigned int id = 0; t && id < 0x10000; id++) {
		const char *n = pci_lookup_name(r->pacc, buf, sizeof(buf),
						kind | REV_FLAGS, (int)id, 0);

		t[id] = n ? strdup(n) : NULL;
	}
	return t;
}

/* "Device 2230", as lspci spells an id its database lacks. */
static bool numbered(const char *s, const char *word, unsigned int *id)
{
	size_t n = strlen(word);
	char *end;
	unsigned long v;

	if (strncmp(s, word, n) || strlen(s + n) != 4)
		return false;
	v = strtoul(s + n, &end, 16);
	if (*end)
		return false;
	*id = (unsigned int)v;
	return true;
}

static int device_named(struct pa_names_rev *r, uint16_t vendor,
			const char *name)
{
	struct rev_device *more;
	char buf[256];
	int found = -1;

	for (size_t i = 0; i < r->ndevices; i++)
		if (r->devices[i].vendor == vendor &&
		    !strcmp(r->devices[i].name, name))
			return r->devices[i].device;
	/* Two devices of one name (a chipset's UHCI controllers) give
	 * neither: ids are unknown, not guessed. */
	for (unsigned int d = 0; d < 0x10000 && found != -2; d++) {
		const char *n = pci_lookup_name(r->pacc, buf, sizeof(buf),
						PCI_LOOKUP_DEVICE | REV_FLAGS,
						vendor, (int)d);

		if (n && !strcmp(n, name))
			found = found == -1 ? (int)d : -2;
	}
	if (found == -2)
		found = -1;
	more = realloc(r->devices, (r->ndevices + 1) * sizeof(*more));
	if (more) {
		r->devices = more;
		more[r->ndevices] = (struct rev_device){ vendor, strdup(name), found };
		r->ndevices += more[r->ndevices].name != NULL;
	}
	return found;
}

bool pa_names_rev_ids(void *arg, const char *names, uint16_t *vendor,
		      uint16_t *device)
{
	struct pa_names_rev *r = arg;
	unsigned int v = 0, d;
	size_t best = 0;
	int found = -1;

	if (sscanf(names, "Device %4x:%4x", &v, &d) == 2) {
		*vendor = (uint16_t)v;
		*device = (uint16_t)d;
		return true;
	}
	if (!r->vendor)
		r->vendor = table_of(r, PCI_LOOKUP_VENDOR);
	if (!r->vendor)
		return false;
	/* The longest vendor name the text starts with, then the rest; a
	 * name two vendors share (Red Hat's 1af4 and 1b36) counts only
	 * where one of them has the device. */
	for (unsigned int id = 0; id < 0x10000; id++) {
		const char *n = r->vendor[id];
		size_t len = n ? strlen(n) : 0;

		if (len > best && !strncmp(names, n, len) &&
		    (names[len] == ' ' || names[len] == '\0'))
			best = len;
	}
	for (unsigned int id = 0; best && id < 0x10000 && found != -2; id++) {
		const char *n = r->vendor[id], *rest = names + best;
		int dev;

		if (!n || strlen(n) != best || strncmp(names, n, best))
			continue;
		rest += *rest == ' ';
		dev = numbered(rest, "Device ", &d) ? (int)d :
		      device_named(r, (uint16_t)id, rest);
		if (dev < 0)
			continue;
		if (found != -1) {
			found = -2;
			break;
		}
		found = dev;
		v = id;
	}
	if (found < 0)
		return false;
	*vendor = (uint16_t)v;
	*device = (uint16_t)found;
	return true;
}

bool pa_names_rev_class(void *arg, const char *name, uint16_t *class)
{
	struct pa_names_rev *r = arg;
	unsigned int c;

	if (numbered(name, "Class ", &c)) {
		*class = (uint16_t)c;
		return true;
	}
	if (!r->class)
		r->class = table_of(r, PCI_LOOKUP_CLASS);
	for (unsigned int id = 0; r->class && id < 0x10000; id++)
		if (r->class[id] && !strcmp(r->class[id], name)) {
			*class = (uint16_t)id;
			return true;
		}
	return false;
}
