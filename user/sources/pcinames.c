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
