// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the input is a snapshot file, as check --input and
 * report --input read it (load.c's from_snapshot). A snapshot comes from
 * another machine, so it is untrusted: whatever the reader accepts goes on
 * to report's printers and to every check profile and output, as main.c
 * sends it, and none of them may crash on it either.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "check_out.h"
#include "fleet.h"
#include "fleet_out.h"
#include "slot.h"
#include "json_out.h"
#include "policy.h"
#include "snapshot.h"
#include "text_out.h"

static FILE *out;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	out = fopen("/dev/null", "w");
	return out ? 0 : -1;
}

static void check(struct pa_report *rep, bool all_pairs)
{
	struct pa_policy pol;
	struct pa_check c;

	pa_policy_default(&pol);
	pol.all_pairs = all_pairs;
	if (!pa_check_infer_pairs(rep, &pol) &&
	    !pa_check_run(rep, &pol, &c)) {
		pa_check_text(out, rep, &c, "fuzz.json", true);
		pa_check_json(out, &c, "fuzz.json");
		pa_check_prometheus(out, rep, &c);
		pa_check_nfd(out, rep, &c);
		(void)pa_check_exit_code(&c);
	}
	pa_check_clear(&c);
}

static int str_cmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;

	return x && y ? strcmp(x, y) : (x != NULL) - (y != NULL);
}

static bool unique_paths(const struct pa_report *rep)
{
	char **paths, **sorted;
	bool unique = true;

	if (pa_slot_paths(rep, &paths))
		return false;
	sorted = calloc(rep->ndevices + 1, sizeof(*sorted));
	if (sorted) {
		memcpy(sorted, paths, rep->ndevices * sizeof(*sorted));
		qsort(sorted, rep->ndevices, sizeof(*sorted), str_cmp);
		for (size_t i = 1; i < rep->ndevices && unique; i++)
			unique = !sorted[i] || !sorted[i - 1] ||
				 strcmp(sorted[i], sorted[i - 1]);
	}
	unique &= sorted != NULL;
	free(sorted);
	pa_slot_paths_free(paths, rep->ndevices);
	return unique;
}

/* The snapshot as its own golden host (the expect profile must find
 * nothing and crash on no topology), and as a fleet of two hosts. */
static void expect_and_fleet(const struct pa_report *rep)
{
	struct pa_expect ex = { .name = "fuzz.json", .golden = rep };
	struct pa_fleet fl = { 0 };
	struct pa_policy pol;
	struct pa_check c;

	pa_policy_default(&pol);
	for (int p = 0; p < PA_NPROFILES; p++)
		pol.profiles[p] = p == PA_PROFILE_EXPECT;
	pol.expect = &ex;
	if (!pa_check_run(rep, &pol, &c)) {
		/* A golden against itself finds nothing, unless two functions
		 * share a slot path (a corrupt tree: an upstream on another
		 * bus), which matches them crosswise. */
		if (c.nfindings && unique_paths(rep))
			abort();
		pa_check_text(out, rep, &c, "fuzz.json", false);
		pa_check_clear(&c);
	}
	if (!pa_fleet_add(&fl, "a", rep) && !pa_fleet_add(&fl, "b", rep) &&
	    !pa_fleet_finish(&fl)) {
		pa_fleet_text(out, &fl);
		pa_fleet_json(out, &fl);
	}
	pa_fleet_clear(&fl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* pa_snapshot_parse() wants text[len] to be a NUL, as pa_read_file()
	 * leaves it. */
	char *text = malloc(size + 1);
	struct pa_report rep;
	char err[512];
	int ret;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	ret = pa_snapshot_parse("fuzz.json", text, size, &rep, err, sizeof(err));
	free(text);
	/* snapshot.h's contract: a message, and nothing left behind. */
	if (ret && (!err[0] || rep.ndevices || rep.devices || rep.ngroups ||
		    rep.p2p.npairs))
		abort();
	if (ret)
		return 0;
	pa_text_report(out, &rep);
	pa_json_report(out, &rep);
	/* Both of gpudirect's pair modes, chosen by a bit of the input that
	 * a JSON document does not care about, so the seeds stay valid. */
	check(&rep, size & 1);
	expect_and_fleet(&rep);
	pa_report_clear(&rep);
	return 0;
}
