// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the input is a YAML policy file (check --policy), and
 * the same bytes as an inventory (check --expect FILE.yaml), which the
 * expect profile then judges the two snapshots against.
 * A policy that parses then selects devices and sets rules and thresholds,
 * so it is run, as main.c's cmd_check runs it, over snapshots of two real
 * topologies from the unit tests: a policy, however odd, must not crash
 * the rules either.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "check_out.h"
#include "fileio.h"
#include "policy.h"
#include "snapshot.h"

/* Set by the Makefile: tests/fixtures/snapshots. */
#ifndef FUZZ_DATA
#define FUZZ_DATA "../fixtures/snapshots"
#endif

static const char *const snapshot_names[] = {
	FUZZ_DATA "/gpudirect-fail.json",	/* a switch, P2P pairs, a trap */
	FUZZ_DATA "/vfio-fail.json",		/* vfio-pci, shared groups */
};
#define NSNAPSHOTS (sizeof(snapshot_names) / sizeof(snapshot_names[0]))

static FILE *out;
static char *snapshots[NSNAPSHOTS];
static size_t snapshot_lens[NSNAPSHOTS];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	out = fopen("/dev/null", "w");
	for (size_t i = 0; i < NSNAPSHOTS; i++)
		if (pa_read_file(snapshot_names[i], 1 << 20, &snapshots[i],
				 &snapshot_lens[i])) {
			fprintf(stderr, "fuzz_policy: cannot read %s\n",
				snapshot_names[i]);
			exit(1);
		}
	return out ? 0 : -1;
}

/* check's rules change the report (inferred pairs), so each run reads
 * the snapshot afresh. */
static void check(const struct pa_policy *pol, size_t i)
{
	struct pa_report rep;
	struct pa_check c;
	char err[512];

	if (pa_snapshot_parse(snapshot_names[i], snapshots[i], snapshot_lens[i],
			      &rep, err, sizeof(err)))
		abort();	/* a unit test fixture; never happens */
	for (size_t d = 0; d < rep.ndevices; d++) {
		for (size_t s = 0; s < pol->nselect; s++)
			(void)pa_match_device(&pol->select[s], &rep.devices[d]);
		for (size_t s = 0; s < pol->nexclude; s++)
			(void)pa_match_device(&pol->exclude[s], &rep.devices[d]);
	}
	if (!pa_check_infer_pairs(&rep, pol) &&
	    !pa_check_run(&rep, pol, &c)) {
		pa_check_text(out, &rep, &c, snapshot_names[i], false);
		pa_check_json(out, &c, snapshot_names[i]);
	}
	pa_check_clear(&c);
	pa_report_clear(&rep);
}

/* The same contract as a policy's; a parsed inventory is checked. */
static void inventory(const uint8_t *data, size_t size)
{
	struct pa_inventory inv;
	struct pa_policy pol;
	struct pa_expect ex = { .name = "fuzz.yaml", .inv = &inv };
	char err[512];
	int ret = pa_inventory_parse("fuzz.yaml", (const char *)data, size, &inv,
				     err, sizeof(err));

	if (ret && (strncmp(err, "fuzz.yaml:", 10) || inv.devices || inv.ndevices))
		abort();
	if (ret)
		return;
	pa_policy_default(&pol);
	for (int p = 0; p < PA_NPROFILES; p++)
		pol.profiles[p] = p == PA_PROFILE_EXPECT;
	pol.expect = &ex;
	for (size_t i = 0; i < NSNAPSHOTS; i++)
		check(&pol, i);
	pa_inventory_clear(&inv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pa_policy pol;
	char err[512];
	int ret;

	/* Unlike a snapshot, a policy is read by length: no NUL needed. */
	inventory(data, size);
	ret = pa_policy_parse("fuzz.yaml", (const char *)data, size, &pol, err,
			      sizeof(err));
	/* policy.h's contract: a message naming the file, and the defaults
	 * with nothing allocated. */
	if (ret && (strncmp(err, "fuzz.yaml:", 10) || pol.select || pol.nselect ||
		    pol.exclude || pol.nexclude))
		abort();
	if (ret)
		return 0;
	for (size_t i = 0; i < NSNAPSHOTS; i++)
		check(&pol, i);
	pa_policy_clear(&pol);
	return 0;
}
