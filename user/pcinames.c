// SPDX-License-Identifier: GPL-2.0
#include "pcinames.h"

#include <stdarg.h>
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

static void fill_one(struct pci_access *pacc, struct pa_device *dev)
{
	char buf[256];

	dev->vendor_name = dup_name(pci_lookup_name(pacc, buf, sizeof(buf),
		PCI_LOOKUP_VENDOR | NAME_ONLY, dev->vendor));
	dev->device_name = dup_name(pci_lookup_name(pacc, buf, sizeof(buf),
		PCI_LOOKUP_DEVICE | NAME_ONLY, dev->vendor, dev->device));
	/* Class and subclass; the programming interface is too fine here. */
	dev->class_name = dup_name(pci_lookup_name(pacc, buf, sizeof(buf),
		PCI_LOOKUP_CLASS | NAME_ONLY, dev->class >> 8));
}

void pa_names_fill(struct pa_device *devices, size_t count)
{
	/* Without pci_init(): that probes config space access methods, which
	 * name lookups do not need, and fails fatally where none works. */
	struct pci_access *pacc = pci_alloc();

	if (!pacc)
		return;
	pacc->error = die;
	pacc->warning = quiet;
	pacc->debug = quiet;
	for (size_t i = 0; i < count; i++)
		fill_one(pacc, &devices[i]);
	pci_cleanup(pacc);
}
