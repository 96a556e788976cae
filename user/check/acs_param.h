/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pci=disable_acs_redir= and pci=config_acs= read back from the kernel
 * command line, as drivers/pci/pci.c reads them: pci_setup() splits the
 * pci= value at ',', the last disable_acs_redir= (config_acs=) wins, and
 * its value is a ';'-separated list of devices, each "<flags>@" first for
 * config_acs. A device is written as pci_dev_str_match() reads it:
 * "[<domain>:]<bus>:<dev>.<fn>[/<dev>.<fn>]*" or
 * "pci:<vendor>:<device>[:<subvendor>:<subdevice>]" (0 matches any).
 * Pure: strings only.
 */
#ifndef PA_ACS_PARAM_H
#define PA_ACS_PARAM_H

#include <stddef.h>
#include <stdint.h>

#include "cmdline.h"
#include "model.h"
#include "remedy.h"

enum pa_acs_spec {
	PA_ACS_SPEC_BDF,	/* addr */
	PA_ACS_SPEC_IDS,	/* ids */
	PA_ACS_SPEC_PATH,	/* "00:01.0/00.0": not resolved here */
	PA_ACS_SPEC_BAD,	/* error says why */
};

struct pa_acs_entry {
	char *text;		/* the entry as written */
	enum pa_acs_spec kind;
	const char *error;	/* PA_ACS_SPEC_BAD: why, a static string */
	uint16_t mask;		/* the control bits the entry sets */
	uint16_t want;		/* their values */
	struct pa_addr addr;
	uint16_t ids[4];	/* vendor, device, subvendor, subdevice */
};

struct pa_acs_request {
	enum pa_acs_param param;
	const struct pa_param *where;	/* the pci= word that holds it */
	char *value;			/* after "disable_acs_redir=" */
	struct pa_acs_entry *entries;
	size_t n;
};

/*
 * The parameter the kernel applies, parsed into r: 1 when the command
 * line has it, 0 when not (r is then empty), -ENOMEM.
 */
int pa_acs_request_find(const struct pa_cmdline *cl, enum pa_acs_param param,
			struct pa_acs_request *r);

/* Parses value into entries; 0 or -ENOMEM. Malformed entries are kept as
 * PA_ACS_SPEC_BAD. */
int pa_acs_request_parse(enum pa_acs_param param, const char *value,
			 struct pa_acs_request *r);
void pa_acs_request_clear(struct pa_acs_request *r);

/* Whether an IDS entry matches the device, 0 ids matching any. */
bool pa_acs_entry_matches(const struct pa_acs_entry *e,
			  const struct pa_device *d);

#endif /* PA_ACS_PARAM_H */
