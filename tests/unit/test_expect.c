// SPDX-License-Identifier: GPL-2.0
/*
 * check --expect: a golden host's snapshot against mutated copies of itself
 * (a GPU removed with the later bus numbers shifted, a NIC moved to another
 * root port, a link downgraded, ACS control changed on one port, the IOMMU
 * mode changed), each found once with its rule and slot path; the golden
 * against itself finds nothing; another kind of host is one finding; what
 * the source cannot read is SKIP. The oracle is the mutation itself. And
 * the inventory format: its checks and its refusals, with their place.
 */
#include "testutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>

#include "bdf.h"
#include "check.h"
#include "errors.h"
#include "fileio.h"
#include "load.h"
#include "policy.h"
#include "slot.h"
#include "snapshot.h"

static void load(const char *file, struct pa_report *rep)
{
	test_load_snapshot(file, rep);
}

static struct pa_device *find(struct pa_report *rep, const char *bdf)
{
	struct pa_addr a;

	assert_int_equal(pa_bdf_parse(bdf, &a), 0);
	return (struct pa_device *)pa_report_find(rep, &a);
}

/* ---- Mutations ------------------------------------------------------------ */

/* Bus numbers shift up to the next host bridge's root bus: the firmware
 * fixes those (ACPI _BBN). */
static uint8_t next_root;

static void shift(struct pa_addr *a, uint8_t gone)
{
	if (a->bus > gone && a->bus < next_root)
		a->bus--;
}

static void shift_list(struct pa_addr_list *l, uint8_t gone)
{
	for (size_t i = 0; i < l->n; i++)
		shift(&l->addrs[i], gone);
}

/* Removes the function and, as a BIOS renumbering would, moves every later
 * bus number one down: functions, links between them, groups and pairs. */
static void remove_shifted(struct pa_report *rep, const char *bdf)
{
	struct pa_device *d = find(rep, bdf);
	size_t i = (size_t)(d - rep->devices), k = 0;
	uint8_t gone = d->addr.bus;
	struct pa_addr addr = d->addr;

	next_root = 0xff;
	for (size_t j = 0; j < rep->ndevices; j++)
		if (!rep->devices[j].has_upstream && rep->devices[j].addr.bus > gone &&
		    rep->devices[j].addr.bus < next_root)
			next_root = rep->devices[j].addr.bus;
	pa_device_clear(d);
	memmove(d, d + 1, (rep->ndevices - i - 1) * sizeof(*d));
	rep->ndevices--;
	for (i = 0; i < rep->ndevices; i++) {
		d = &rep->devices[i];
		shift(&d->addr, gone);
		shift(&d->upstream, gone);
		shift(&d->pf, gone);
		if (d->has_secondary_bus && d->secondary_bus > gone &&
		    d->secondary_bus < next_root)
			d->secondary_bus--;
	}
	for (i = 0; i < rep->ngroups; i++)
		for (size_t m = 0; m < rep->groups[i].nmembers; m++)
			shift(&rep->groups[i].members[m], gone);
	for (i = 0; i < rep->p2p.npairs; i++) {
		struct pa_p2p_pair *p = &rep->p2p.pairs[i];

		if (pa_addr_eq(&p->provider, &addr) || pa_addr_eq(&p->client, &addr)) {
			pa_p2p_pair_clear(p);
			continue;
		}
		shift(&p->provider, gone);
		shift(&p->client, gone);
		shift(&p->common, gone);
		shift_list(&p->hops_provider, gone);
		shift_list(&p->hops_client, gone);
		shift_list(&p->redirect, gone);
		rep->p2p.pairs[k++] = *p;
	}
	rep->p2p.npairs = k;
	pa_report_sort(rep);
	pa_p2p_sort(&rep->p2p);
}

/* ---- Running the expect profile ------------------------------------------ */

struct want {
	enum pa_rule_id rule;
	const char *text;	/* in the message: the slot path, a BDF */
	enum pa_severity severity;	/* 0: the rule's */
};

static void run_expect(const struct pa_report *golden,
		       const struct pa_inventory *inv,
		       const struct pa_report *cur, struct pa_check *c)
{
	static struct pa_policy pol;
	static struct pa_expect ex;

	pa_policy_default(&pol);
	for (int p = 0; p < PA_NPROFILES; p++)
		pol.profiles[p] = p == PA_PROFILE_EXPECT;
	ex = (struct pa_expect){ .name = "golden.json", .golden = golden, .inv = inv };
	pol.expect = &ex;
	assert_int_equal(pa_check_run(cur, &pol, c), 0);
}

static void expect_findings(const struct pa_check *c, const struct want *w,
			    size_t n)
{
	for (size_t i = 0; i < c->nfindings; i++)
		print_message("  %s: %s\n", pa_rules[c->findings[i].rule].id,
			      c->findings[i].message);
	assert_int_equal(c->nfindings, n);
	for (size_t i = 0; i < n; i++) {
		const struct pa_finding *f = &c->findings[i];

		assert_string_equal(pa_rules[f->rule].id, pa_rules[w[i].rule].id);
		if (!strstr(f->message, w[i].text))
			fail_msg("%s: '%s' lacks '%s'", pa_rules[f->rule].id,
				 f->message, w[i].text);
		assert_int_equal(f->severity, w[i].severity ? w[i].severity :
				 pa_rules[w[i].rule].severity);
	}
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* A golden mutated by fn, checked against the unmutated one. */
static void mutated(const char *file, void (*fn)(struct pa_report *),
		    const struct want *w, size_t n)
{
	struct pa_report golden = { 0 }, cur = { 0 };
	struct pa_check c;

	load(file, &golden);
	load(file, &cur);
	fn(&cur);
	run_expect(&golden, NULL, &cur, &c);
	expect_findings(&c, w, n);
	pa_check_clear(&c);
	pa_report_clear(&golden);
	pa_report_clear(&cur);
}

static void lose_gpu_03(struct pa_report *rep)
{
	/* The first GPU: the NIC at 04:00.0 becomes 03:00.0. */
	remove_shifted(rep, "0000:03:00.0");
}

static void nothing(struct pa_report *rep)
{
	(void)rep;
}

static void golden_against_itself(void **state)
{
	static const char *const files[] = {
		"gpudirect-fail.json", "gpudirect-pass.json", "vfio-fail.json",
		"vfio-override.json", "baseline-amd-fail.json", "acs-param-pass.json",
	};

	(void)state;
	for (size_t i = 0; i < N(files); i++)
		mutated(files[i], nothing, NULL, 0);
}

static void gpu_removed_buses_shifted(void **state)
{
	static const struct want w[] = {
		{ PA_EX_DEVICE_MISSING, "pci0000:00/01.0/00.0/00.0/00.0 (0000:03:00.0 on the golden host)", 0 },
	};

	(void)state;
	mutated("gpudirect-fail.json", lose_gpu_03, w, N(w));
}

static void move_nic(struct pa_report *rep)
{
	/* From the switch below 00:01.0 to root port 80:01.0, beside the
	 * second GPU. */
	struct pa_device *nic = find(rep, "0000:04:00.0");

	nic->addr = (struct pa_addr){ 0, 0x81, 0x08 };
	nic->upstream = (struct pa_addr){ 0, 0x80, 0x08 };
	pa_report_sort(rep);
}

static void nic_moved(void **state)
{
	static const struct want w[] = {
		{ PA_EX_MOVED, "sits at pci0000:80/01.0/01.0 (0000:81:01.0), on the golden host at pci0000:00/01.0/00.0/01.0/00.0 (0000:04:00.0)", 0 },
	};

	(void)state;
	mutated("gpudirect-fail.json", move_nic, w, N(w));
}

static void narrow_gpu(struct pa_report *rep)
{
	struct pa_device *gpu = find(rep, "0000:81:00.0");

	gpu->link.lnksta = (uint16_t)((gpu->link.lnksta & ~0x3f0) | 8 << 4);
}

static void slow_gpu(struct pa_report *rep)
{
	find(rep, "0000:81:00.0")->link.lnksta = 0x101;	/* 2.5GT/s x16 */
}

static void link_downgraded(void **state)
{
	static const struct want w[] = {
		{ PA_EX_LINK_BELOW, "GPU 0000:81:00.0 at pci0000:80/01.0/00.0 trained 16GT/s x8, below the golden host's 16GT/s x16", 0 },
	};
	/* Slower, not narrower: an idle GPU, info. */
	static const struct want idle[] = {
		{ PA_EX_LINK_BELOW, "trained 2.5GT/s x16", PA_SEV_INFO },
	};

	(void)state;
	mutated("gpudirect-fail.json", narrow_gpu, w, N(w));
	mutated("gpudirect-fail.json", slow_gpu, idle, N(idle));
}

static void acs_off(struct pa_report *rep)
{
	find(rep, "0000:02:01.0")->acs.ctrl = 0x11;
}

static void acs_changed(void **state)
{
	static const struct want w[] = {
		{ PA_EX_ACS_DIFFERS, "switch downstream port 0000:02:01.0 at pci0000:00/01.0/00.0/01.0: ACS control 0x0011, the golden host's 0x001d", 0 },
	};

	(void)state;
	mutated("gpudirect-fail.json", acs_off, w, N(w));
}

/* The NIC moved in beside the second GPU, into its IOMMU group: the move
 * is the one finding, not also the group the GPU now shares (as below a
 * switch whose ports group with their endpoints, the VM test's case). */
static void move_nic_into_gpu_group(struct pa_report *rep)
{
	struct pa_device *nic = find(rep, "0000:04:00.0");

	nic->iommu.group = find(rep, "0000:81:00.0")->iommu.group;
	move_nic(rep);
}

static void nic_moved_into_a_group(void **state)
{
	static const struct want w[] = {
		{ PA_EX_MOVED, "sits at pci0000:80/01.0/01.0 (0000:81:01.0), on the golden host at pci0000:00/01.0/00.0/01.0/00.0 (0000:04:00.0)", 0 },
	};

	(void)state;
	mutated("gpudirect-fail.json", move_nic_into_gpu_group, w, N(w));
}

static void passthrough(struct pa_report *rep)
{
	rep->info.iommu_def_mode = PCIEAUDIT_IOMMU_MODE_PASSTHROUGH;
}

static void iommu_changed(void **state)
{
	static const struct want w[] = {
		{ PA_EX_IOMMU_DIFFERS, "IOMMU default domains: passthrough, the golden host's translated", 0 },
	};

	(void)state;
	mutated("gpudirect-fail.json", passthrough, w, N(w));
}

/* The acceptance: a GPU lost and the NIC slower, both named. */
static void lost_gpu_slow_nic(struct pa_report *rep)
{
	remove_shifted(rep, "0000:81:00.0");
	find(rep, "0000:04:00.0")->link.lnksta = 0x42;	/* 5GT/s x4 */
}

static void gpu_lost_and_nic_slower(void **state)
{
	static const struct want w[] = {
		{ PA_EX_DEVICE_MISSING, "GPU 10de:20b5 (class 030200) expected at pci0000:80/01.0/00.0 (0000:81:00.0 on the golden host) is missing", 0 },
		{ PA_EX_LINK_BELOW, "NIC 0000:04:00.0 at pci0000:00/01.0/00.0/01.0/00.0 trained 5GT/s x4, below the golden host's 8GT/s x8", 0 },
	};

	(void)state;
	mutated("gpudirect-fail.json", lost_gpu_slow_nic, w, N(w));
}

/* A golden of another kind of host: one finding, the rest skipped. */
static void other_kind(void **state)
{
	struct pa_report golden = { 0 }, cur = { 0 };
	static const struct want w[] = {
		{ PA_EX_DEVICE_MISSING, "is another kind of host", 0 },
	};
	struct pa_check c;

	(void)state;
	load("vfio-fail.json", &golden);
	load("gpudirect-fail.json", &cur);
	run_expect(&golden, NULL, &cur, &c);
	expect_findings(&c, w, N(w));
	assert_int_equal(c.state[PA_EX_LINK_BELOW], PA_RULE_SKIPPED);
	pa_check_clear(&c);
	pa_report_clear(&golden);
	pa_report_clear(&cur);
}

static void unreadable(struct pa_report *rep)
{
	/* An lspci capture: no IOMMU; a GPU in D3cold: no link, no ACS. */
	struct pa_device *d = find(rep, "0000:81:00.0");

	rep->info.iommu_unknown = true;
	d->config_unreadable = true;
	d->has_link = false;
}

/* Unknown is not none: an expectation about what the source could not
 * read is SKIP with the reason, never PASS. */
static void unknown_is_skip(void **state)
{
	struct pa_report golden = { 0 }, cur = { 0 };
	struct pa_check c;

	(void)state;
	load("gpudirect-fail.json", &golden);
	load("gpudirect-fail.json", &cur);
	unreadable(&cur);
	run_expect(&golden, NULL, &cur, &c);
	expect_findings(&c, NULL, 0);
	assert_int_equal(c.state[PA_EX_IOMMU_DIFFERS], PA_RULE_SKIPPED);
	assert_int_equal(c.state[PA_EX_LINK_BELOW], PA_RULE_SKIPPED);
	assert_non_null(strstr(c.note[PA_EX_LINK_BELOW], "1 of 4 expected links unknown"));
	assert_true(pa_check_profile_worst(&c, PA_PROFILE_EXPECT) == 0);
	pa_check_clear(&c);
	pa_report_clear(&golden);
	pa_report_clear(&cur);
}

/* The lspci corpus through the load step: golden and a copy with its
 * first endpoint gone. */
static void corpus_capture(void **state)
{
	const struct pa_load l = {
		.lspci = GPU_FIXTURES "/lspci/qemu-p2p-switch.lspci",
		.pairs = PA_PAIRS_DEFAULT,
	};
	struct pa_report golden, cur;
	struct pa_error e;
	struct pa_check c;
	char **paths, want[PA_SLOT_PATH_LEN + 8];
	size_t victim = 0;

	(void)state;
	assert_int_equal(pa_load_report(&l, &golden, &e), 0);
	assert_int_equal(pa_load_report(&l, &cur, &e), 0);
	/* The last endpoint, so that no bus number after it shifts here. */
	for (size_t i = 0; i < cur.ndevices; i++)
		if (!(cur.devices[i].flags & PCIEAUDIT_DEV_F_BRIDGE) &&
		    cur.devices[i].addr.bus)
			victim = i;
	assert_int_equal(pa_slot_paths(&golden, &paths), 0);
	snprintf(want, sizeof(want), "expected at %s (", paths[victim]);
	pa_slot_paths_free(paths, golden.ndevices);
	{
		char bdf[PA_BDF_LEN];
		const struct want w[] = { { PA_EX_DEVICE_MISSING, want, 0 } };

		pa_bdf_format(&cur.devices[victim].addr, bdf);
		remove_shifted(&cur, bdf);
		run_expect(&golden, NULL, &cur, &c);
		expect_findings(&c, w, 1);
	}
	/* lspci has no IOMMU: SKIP, not PASS. */
	assert_int_equal(c.state[PA_EX_IOMMU_DIFFERS], PA_RULE_SKIPPED);
	pa_check_clear(&c);
	pa_report_clear(&golden);
	pa_report_clear(&cur);
}

/* A filtered capture (lspci -d) against the whole machine's: what it left
 * out is unknown, not missing; the bridges lspci -t only drew match by
 * their place. */
static void filtered_capture(void **state)
{
	const struct pa_load whole = {
		.lspci = GPU_FIXTURES "/lspci/n1sdp-pex8749-xxx.lspci",
	};
	const struct pa_load part = {
		.lspci = GPU_FIXTURES "/lspci/n1sdp-pex8749-xxx-filtered-tv.lspci",
	};
	struct pa_report golden, cur;
	struct pa_error e;
	struct pa_check c;

	(void)state;
	assert_int_equal(pa_load_report(&whole, &golden, &e), 0);
	assert_int_equal(pa_load_report(&part, &cur, &e), 0);
	run_expect(&golden, NULL, &cur, &c);
	expect_findings(&c, NULL, 0);
	assert_int_equal(c.state[PA_EX_DEVICE_MISSING], PA_RULE_SKIPPED);
	assert_non_null(strstr(c.note[PA_EX_DEVICE_MISSING], "filtered"));
	assert_int_equal(c.state[PA_EX_DEVICE_EXTRA], PA_RULE_RAN);
	pa_check_clear(&c);
	pa_report_clear(&golden);
	pa_report_clear(&cur);
}

/* ---- Inventories ----------------------------------------------------------- */

static void parse_ok(const char *text, struct pa_inventory *inv)
{
	char err[512];

	if (pa_inventory_parse("inv.yaml", text, strlen(text), inv, err, sizeof(err)))
		fail_msg("%s", err);
}

static void inventory(void **state)
{
	static const char text[] =
		"version: 1\n"
		"devices:\n"
		"  - class: gpu\n"
		"    count: 2\n"
		"    link: { speed: 16, width: x16 }\n"
		"  - class: nic\n"
		"    count: 1\n"
		"    link: { speed: 16, width: 16 }\n"
		"    acs: redirect-off\n"
		"iommu:\n"
		"  mode: passthrough\n"
		"p2p:\n"
		"  gpu-nic: bus-addr\n";
	static const struct want w[] = {
		{ PA_EX_DEVICE_MISSING, "2 GPU expected (inventory line 3), 1 found", 0 },
		{ PA_EX_LINK_BELOW, "NIC 0000:04:00.0 at pci0000:00/01.0/00.0/01.0/00.0 trained 8GT/s x8, below the inventory's 16GT/s x16 (line 6)", 0 },
		{ PA_EX_ACS_DIFFERS, "switch downstream port 0000:02:01.0 above 0000:04:00.0: ACS control 0x001d, the inventory asks redirect-off", 0 },
		{ PA_EX_ACS_DIFFERS, "root port 0000:00:01.0 above 0000:04:00.0", 0 },
		{ PA_EX_IOMMU_DIFFERS, "translated, the inventory's passthrough", 0 },
		{ PA_EX_P2P_DIFFERS, "P2P 0000:03:00.0 -> 0000:04:00.0: host-bridge, the inventory's gpu-nic is bus-addr", 0 },
		{ PA_EX_P2P_DIFFERS, "P2P 0000:04:00.0 -> 0000:03:00.0", 0 },
	};
	struct pa_report rep = { 0 };
	struct pa_inventory inv;
	struct pa_check c;

	(void)state;
	parse_ok(text, &inv);
	load("gpudirect-fail.json", &rep);
	remove_shifted(&rep, "0000:81:00.0");
	run_expect(NULL, &inv, &rep, &c);
	expect_findings(&c, w, N(w));
	assert_int_equal(c.state[PA_EX_MOVED], PA_RULE_SKIPPED);
	pa_check_clear(&c);
	pa_report_clear(&rep);
	pa_inventory_clear(&inv);
}

static void inventory_refused(void **state)
{
	static const struct {
		const char *text, *err;
	} cases[] = {
		{ "version: 1\ndevices:\n  - class: gpu\n    cnt: 8\n",
		  "inv.yaml:4:5: unknown key 'cnt' in an inventory device (expected class, vendor, device, count, link, acs)" },
		{ "version: 1\ndevices:\n  - class: gpu\n    link: { width: x3 }\n",
		  "inv.yaml:4:20: bad width 'x3' (expected x1, x2, x4, x8, x12, x16 or x32)" },
		{ "version: 1\ndevices:\n  - class: gpu\n    count: -1\n",
		  "inv.yaml:4:12: bad count '-1' (expected a whole number from 0 to 65536)" },
		{ "version: 1\ndevices:\n  - class: gpu\n    count: [8]\n",
		  "inv.yaml:4:12: expected a count, found a list" },
		{ "version: 1\ndevices:\n  - class: gpu\n    link: { speed: 20 }\n",
		  "inv.yaml:4:20: bad speed '20' (expected GT/s: 2.5, 5, 8, 16, 32 or 64)" },
		{ "version: 1\ndevices:\n  - count: 8\n",
		  "inv.yaml:3:5: an inventory device needs class, vendor or device" },
		{ "version: 1\niommu: { mode: on }\n",
		  "inv.yaml:2:16: bad IOMMU mode 'on' (expected translated, passthrough or off)" },
		{ "devices: []\n", "inv.yaml:1:1: missing 'version: 1'" },
		{ "", "inv.yaml:1:1: empty inventory" },
		{ "version: 1\n---\nversion: 1\n", "inv.yaml:3:1: a second YAML document; an inventory is one" },
	};
	struct pa_inventory inv;
	char err[512];

	(void)state;
	for (size_t i = 0; i < N(cases); i++) {
		int rc = pa_inventory_parse("inv.yaml", cases[i].text,
					    strlen(cases[i].text), &inv, err, sizeof(err));

		assert_int_equal(rc, -EINVAL);
		if (strncmp(err, cases[i].err, strlen(cases[i].err)))
			fail_msg("case %zu: '%s', want '%s'", i, err, cases[i].err);
		assert_null(inv.devices);
	}
}

/* The example in docs/pcieaudit-inventory.example.yaml parses. */
static void inventory_example(void **state)
{
	struct pa_inventory inv;
	char err[512], *text;
	size_t len;

	(void)state;
	assert_int_equal(pa_read_file("../../docs/pcieaudit-inventory.example.yaml",
				      1 << 20, &text, &len), 0);
	if (pa_inventory_parse("example", text, len, &inv, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(inv.ndevices >= 2);
	free(text);
	pa_inventory_clear(&inv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(golden_against_itself),
		cmocka_unit_test(gpu_removed_buses_shifted),
		cmocka_unit_test(nic_moved),
		cmocka_unit_test(nic_moved_into_a_group),
		cmocka_unit_test(link_downgraded),
		cmocka_unit_test(acs_changed),
		cmocka_unit_test(iommu_changed),
		cmocka_unit_test(gpu_lost_and_nic_slower),
		cmocka_unit_test(other_kind),
		cmocka_unit_test(unknown_is_skip),
		cmocka_unit_test(corpus_capture),
		cmocka_unit_test(filtered_capture),
		cmocka_unit_test(inventory),
		cmocka_unit_test(inventory_refused),
		cmocka_unit_test(inventory_example),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
