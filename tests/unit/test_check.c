// SPDX-License-Identifier: GPL-2.0
/*
 * check's rules against hand-built snapshots of real topologies
 * (tests/fixtures/snapshots, described in its README.md) and the H200 VM
 * guest fixture: exactly the findings expected, in order, with their devices
 * and remedies.
 */
#include "testutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "acs_param.h"
#include "bdf.h"
#include "check.h"
#include "check_out.h"
#include "exitcodes.h"
#include "fileio.h"
#include "json_out.h"
#include "remedy.h"
#include "snapshot.h"
#include "sysfs_model.h"
#include "sysread.h"

#ifndef FIXTURES
#define FIXTURES "../../../shared/fixtures"
#endif

#define H200 FIXTURES "/h200-vm-guest"

struct want {
	enum pa_rule_id rule;
	enum pa_severity sev;
	const char *devices;	/* BDFs, blank-separated, in order */
	const char *remedy;	/* NULL: not checked */
};

#define GD(p)	(1u << PA_PROFILE_GPUDIRECT)
#define ALL	((1u << PA_NPROFILES) - 1)
#define VFIO	(1u << PA_PROFILE_VFIO)
#define BASE	(1u << PA_PROFILE_BASELINE)

static void load(const char *file, struct pa_report *rep)
{
	test_load_snapshot(file, rep);
}

static void only(struct pa_policy *pol, unsigned int profiles)
{
	for (int p = 0; p < PA_NPROFILES; p++)
		pol->profiles[p] = profiles >> p & 1;
}

static void devices_text(const struct pa_finding *f, char *buf, size_t len)
{
	size_t used = 0;
	char bdf[PA_BDF_LEN];

	buf[0] = '\0';
	for (size_t i = 0; i < f->devices.n && used < len; i++) {
		pa_bdf_format(&f->devices.addrs[i], bdf);
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? " " : "", bdf + 5);
	}
}

/* Each finding, as "rule sev devices", for failure messages. */
static void dump(const struct pa_check *c)
{
	char devs[256];

	for (size_t i = 0; i < c->nfindings; i++) {
		devices_text(&c->findings[i], devs, sizeof(devs));
		print_message("  %s %s [%s]\n", pa_rules[c->findings[i].rule].id,
			      pa_severity_name(c->findings[i].severity), devs);
	}
}

static void expect(const struct pa_check *c, const struct want *w, size_t n)
{
	char devs[256];

	if (c->nfindings != n) {
		dump(c);
		fail_msg("%zu findings, want %zu", c->nfindings, n);
	}
	for (size_t i = 0; i < n; i++) {
		const struct pa_finding *f = &c->findings[i];

		devices_text(f, devs, sizeof(devs));
		if (f->rule != w[i].rule || f->severity != w[i].sev ||
		    strcmp(devs, w[i].devices)) {
			dump(c);
			fail_msg("finding %zu: %s %s [%s], want %s %s [%s]", i,
				 pa_rules[f->rule].id, pa_severity_name(f->severity),
				 devs, pa_rules[w[i].rule].id,
				 pa_severity_name(w[i].sev), w[i].devices);
		}
		if (w[i].remedy)
			assert_string_equal(f->remedy ? f->remedy : "(none)",
					    w[i].remedy);
	}
}

/* Runs the profiles over a fixture and checks findings and exit code. */
static void check_fixture(const char *file, unsigned int profiles,
			  const struct want *w, size_t n, int exit)
{
	struct pa_policy pol;
	struct pa_report rep;
	struct pa_check c;

	load(file, &rep);
	pa_policy_default(&pol);
	only(&pol, profiles);
	assert_int_equal(test_check_run(&rep, &pol, &c), 0);
	expect(&c, w, n);
	assert_int_equal(pa_check_exit_code(&c), exit);
	pa_check_clear(&c);
	pa_report_clear(&rep);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ACS redirect on the switch between an A100 and a ConnectX-6, the NIC's
 * link at Gen3 x8, a second GPU on the other socket, VT-d translating. */
static void gpudirect_fail(void **state)
{
	static const struct want w[] = {
		{ PA_GD_ACS_REDIRECT, PA_SEV_FAIL,
		  "03:00.0 04:00.0 02:00.0 02:01.0",
		  "pci=disable_acs_redir=0000:02:00.0;0000:02:01.0" },
		{ PA_GD_P2P_HOST_BRIDGE, PA_SEV_INFO, "03:00.0 81:00.0", NULL },
		{ PA_GD_P2P_HOST_BRIDGE, PA_SEV_INFO, "81:00.0 04:00.0", NULL },
		{ PA_GD_NUMA_REMOTE, PA_SEV_WARN, "03:00.0 81:00.0", NULL },
		{ PA_GD_NUMA_REMOTE, PA_SEV_WARN, "81:00.0 04:00.0", NULL },
		{ PA_GD_LINK_DOWNGRADED, PA_SEV_WARN, "04:00.0", NULL },
		{ PA_GD_BANDWIDTH_TRAP, PA_SEV_WARN, "03:00.0 04:00.0", NULL },
		{ PA_GD_BANDWIDTH_TRAP, PA_SEV_WARN, "81:00.0 04:00.0", NULL },
		{ PA_GD_IOMMU_TRANSLATED, PA_SEV_WARN, "", "iommu=pt" },
	};

	(void)state;
	check_fixture("gpudirect-fail.json", GD(), w, N(w), PA_EXIT_FINDING);
}

/* GPU, NIC and NVMe below one switch without redirection, passthrough;
 * no p2p[] in the snapshot: the userspace path analysis answers. */
static void gpudirect_pass(void **state)
{
	(void)state;
	check_fixture("gpudirect-pass.json", GD(), NULL, 0, PA_EXIT_OK);
}

/* Audio function on a host driver, PCH root ports without ACS, and a
 * switch port whose ReqRedir and CmpltRedir were cleared after boot. */
static void vfio_fail(void **state)
{
	static const struct want w[] = {
		{ PA_VFIO_GROUP_SHARED, PA_SEV_FAIL, "02:00.0 03:00.0", NULL },
		{ PA_VFIO_GROUP_SHARED, PA_SEV_FAIL, "03:00.0 02:00.0", NULL },
		{ PA_VFIO_GROUP_NOT_VIABLE, PA_SEV_FAIL, "01:00.0 01:00.1",
		  "vfio-pci.ids=10de:1aef" },
		{ PA_VFIO_ACS_MISSING, PA_SEV_FAIL, "00:1c.0 02:00.0", NULL },
		{ PA_VFIO_ACS_MISSING, PA_SEV_FAIL, "00:1c.4 03:00.0", NULL },
		{ PA_VFIO_ACS_MISSING, PA_SEV_FAIL, "05:08.0 06:00.0", NULL },
		{ PA_VFIO_GROUP_OVERCLAIMS, PA_SEV_FAIL, "06:00.0 05:08.0", NULL },
		{ PA_VFIO_ACS_CHANGED, PA_SEV_FAIL, "05:08.0", NULL },
		{ PA_VFIO_NOT_OPENED, PA_SEV_INFO, "01:00.0", NULL },
	};

	(void)state;
	check_fixture("vfio-fail.json", VFIO, w, N(w), PA_EXIT_FINDING);
}

/* A port whose registers read all ones (D3cold): its ACS is unknown, not
 * missing, and moving hardware is not the remedy. */
static void unreadable_port(void **state)
{
	const struct pa_addr port = { 0, 0, 0x1c << 3 };
	struct pa_policy pol;
	struct pa_report rep;
	struct pa_check c;
	struct pa_device *d;
	bool seen = false;

	(void)state;
	load("vfio-fail.json", &rep);
	d = (struct pa_device *)pa_report_find(&rep, &port);
	assert_non_null(d);
	d->config_unreadable = true;
	d->has_acs = d->has_link = false;
	pa_policy_default(&pol);
	only(&pol, VFIO);
	assert_int_equal(test_check_run(&rep, &pol, &c), 0);
	/* Unknown is not missing: no finding names the port, and the rule
	 * says what it could not judge. */
	for (size_t i = 0; i < c.nfindings; i++) {
		const struct pa_finding *f = &c.findings[i];

		if (f->rule == PA_VFIO_ACS_MISSING && pa_addr_eq(&f->devices.addrs[0], &port))
			seen = true;
	}
	assert_false(seen);
	assert_non_null(c.note[PA_VFIO_ACS_MISSING]);
	assert_non_null(strstr(c.note[PA_VFIO_ACS_MISSING], "ACS unknown at 0000:00:1c.0"));
	assert_non_null(strstr(c.note[PA_VFIO_ACS_MISSING], "not readable"));
	pa_check_clear(&c);
	pa_report_clear(&rep);
}

/* pcie_acs_override=downstream,multifunction on Proxmox: groups finer
 * than ACS, each explained by the parameter. */
static void vfio_override(void **state)
{
	static const char *const override = "pcie_acs_override=downstream,multifunction";
	const struct want w[] = {
		{ PA_VFIO_IOMMU_PASSTHROUGH, PA_SEV_WARN, "", "iommu=pt" },
		{ PA_VFIO_ACS_MISSING, PA_SEV_FAIL, "03:04.0 04:00.0 04:00.1", NULL },
		{ PA_VFIO_ACS_MISSING, PA_SEV_FAIL, "03:08.0 05:00.0", NULL },
		{ PA_VFIO_GROUP_OVERCLAIMS, PA_SEV_FAIL, "04:00.0 03:04.0 04:00.1",
		  override },
		{ PA_VFIO_GROUP_OVERCLAIMS, PA_SEV_FAIL, "04:00.1 03:04.0 04:00.0",
		  override },
		{ PA_VFIO_GROUP_OVERCLAIMS, PA_SEV_FAIL, "05:00.0 03:08.0", override },
		{ PA_VFIO_GROUP_OVERCLAIMS, PA_SEV_FAIL, "06:00.0 06:00.1", override },
		{ PA_VFIO_GROUP_OVERCLAIMS, PA_SEV_FAIL, "06:00.1 06:00.0", override },
		{ PA_BL_AMD_IOMMU_ON, PA_SEV_WARN, "", "amd_iommu=on" },
		{ PA_BL_ACS_OVERRIDE, PA_SEV_WARN, "", override },
	};

	(void)state;
	check_fixture("vfio-override.json", VFIO | BASE, w, N(w),
		      PA_EXIT_FINDING);
}

static void vfio_pass(void **state)
{
	(void)state;
	check_fixture("vfio-pass.json", VFIO | BASE, NULL, 0, PA_EXIT_OK);
}

/* No NUMA locality on two nodes, a GPU at x8, and amd_iommu=on,
 * pci=noacs and intel_iommu=on on an AMD host. */
static void baseline_amd_fail(void **state)
{
	static const struct want w[] = {
		{ PA_BL_LINK_DOWNGRADED, PA_SEV_WARN, "01:00.0", NULL },
		{ PA_BL_NUMA_UNKNOWN, PA_SEV_WARN, "01:00.0 81:00.0", NULL },
		{ PA_BL_AMD_IOMMU_ON, PA_SEV_WARN, "", "amd_iommu=on" },
		{ PA_BL_PCI_NOACS, PA_SEV_WARN, "", "pci=noacs,realloc" },
		{ PA_BL_IOMMU_PARAM_VENDOR, PA_SEV_WARN, "", "intel_iommu=on" },
	};

	(void)state;
	check_fixture("baseline-amd-fail.json", BASE, w, N(w), PA_EXIT_WARNINGS);
}

/* VT-d off by intel_iommu=off beside iommu=pt; an idle GPU at 2.5GT/s. */
static void baseline_intel_fail(void **state)
{
	static const struct want w[] = {
		{ PA_BL_IOMMU_OFF, PA_SEV_WARN, "", "intel_iommu=off" },
		{ PA_BL_LINK_DOWNGRADED, PA_SEV_INFO, "01:00.0", NULL },
		{ PA_BL_IOMMU_PARAMS_CONFLICT, PA_SEV_WARN, "", "iommu=pt" },
	};
	static const struct want vfio[] = {
		{ PA_VFIO_IOMMU_OFF, PA_SEV_FAIL, "", "intel_iommu=off" },
	};

	(void)state;
	check_fixture("baseline-intel-fail.json", BASE, w, N(w),
		      PA_EXIT_WARNINGS);
	check_fixture("baseline-intel-fail.json", VFIO, vfio, N(vfio),
		      PA_EXIT_FINDING);
}

static void baseline_pass(void **state)
{
	(void)state;
	check_fixture("baseline-pass.json", BASE, NULL, 0, PA_EXIT_OK);
}


/* ---- baseline.acs-param-effect ------------------------------------------ */

#define ACS_FIXED_KERNEL "boot a kernel with commit 9cf8a952d57b (\"PCI/ACS: Fix 'pci=config_acs=' parameter\"): Linux 6.15 or later, or the stable releases 6.12.23, 6.13.11, 6.14.2 and later"
#define REWRITTEN "reboot, after removing what rewrote ACS (a setpci call in a boot script or tuning tool)"

static void replace(char **field, const char *value)
{
	free(*field);
	*field = value ? strdup(value) : NULL;
	if (value)
		assert_non_null(*field);
}

/* Baseline over a fixture, its kernel release and command line replaced
 * where given; the caller clears both. */
static void acs_run(const char *file, const char *release,
		    const char *cmdline, struct pa_report *rep,
		    struct pa_check *c)
{
	static struct pa_policy pol;

	load(file, rep);
	if (release)
		replace(&rep->info.kernel_release, release);
	if (cmdline)
		replace(&rep->host.cmdline, strcmp(cmdline, "-") ? cmdline : NULL);
	pa_policy_default(&pol);
	only(&pol, BASE);
	assert_int_equal(test_check_run(rep, &pol, c), 0);
}

/* The only finding of the rule, or the n-th. */
static const struct pa_finding *acs_finding(const struct pa_check *c, size_t n)
{
	for (size_t i = 0; i < c->nfindings; i++)
		if (c->findings[i].rule == PA_BL_ACS_PARAM_EFFECT && !n--)
			return &c->findings[i];
	dump(c);
	fail_msg("no such acs-param-effect finding");
	return NULL;
}

static void assert_has(const char *text, const char *part)
{
	if (!strstr(text, part))
		fail_msg("\"%s\" lacks \"%s\"", text, part);
}

static void acs_done(struct pa_check *c, struct pa_report *rep)
{
	pa_check_clear(c);
	pa_report_clear(rep);
}

/* pci=disable_acs_redir= on a 6.12 kernel with the fix: both switch ports
 * have ReqRedir and CmpltRedir off. */
static void acs_param_pass(void **state)
{
	static const struct want w[] = {
		{ PA_BL_LINK_DOWNGRADED, PA_SEV_WARN, "04:00.0", NULL },
	};
	struct pa_report rep;
	struct pa_check c;

	(void)state;
	check_fixture("acs-param-pass.json", BASE, w, N(w), PA_EXIT_WARNINGS);
	acs_run("acs-param-pass.json", NULL, NULL, &rep, &c);
	assert_int_equal(c.state[PA_BL_ACS_PARAM_EFFECT], PA_RULE_RAN);
	assert_string_equal(c.note[PA_BL_ACS_PARAM_EFFECT], "2 of 2 devices as asked");
	acs_done(&c, &rep);
}

/* config_acs naming two ports on 6.12.12: the second was never parsed. */
static void acs_param_6_12_fail(void **state)
{
	static const struct want w[] = {
		{ PA_BL_LINK_DOWNGRADED, PA_SEV_WARN, "04:00.0", NULL },
		{ PA_BL_ACS_PARAM_EFFECT, PA_SEV_FAIL, "02:01.0", ACS_FIXED_KERNEL },
	};
	const struct pa_finding *f;
	struct pa_report rep;
	struct pa_check c;

	(void)state;
	check_fixture("acs-param-6.12-fail.json", BASE, w, N(w), PA_EXIT_FINDING);
	acs_run("acs-param-6.12-fail.json", NULL, NULL, &rep, &c);
	f = acs_finding(&c, 0);
	assert_int_equal(f->remedy_kind, PA_REMEDY_KERNEL);
	assert_string_equal(f->message,
		"pci=config_acs=x0x00xx@0000:02:00.0;x0x00xx@0000:02:01.0 did not take effect on switch downstream port 0000:02:01.0: "
		"ReqRedir and CmpltRedir still on, which it asks off (entry 2, x0x00xx@0000:02:01.0). "
		"Likely cause: this kernel (6.12.12+bpo-amd64) lacks commit 9cf8a952d57b: a pci=config_acs= naming several devices "
		"fails to parse after the first (\"PCI: Can't parse ACS command line parameter\"), so this device was not configured; "
		"name one device only, or boot a kernel with the fix");
	acs_done(&c, &rep);

	/* A distribution's 6.12.0: the fix may be backported or not. */
	acs_run("acs-param-6.12-fail.json", "6.12.0-55.el10.x86_64", NULL, &rep, &c);
	f = acs_finding(&c, 0);
	assert_string_equal(f->remedy, ACS_FIXED_KERNEL);
	assert_has(f->message, "Likely cause, unless this kernel (6.12.0-55.el10.x86_64) carries commit 9cf8a952d57b (its release does not tell)");
	acs_done(&c, &rep);

	/* 6.12.23 has the fix: the port was rewritten after boot. */
	acs_run("acs-param-6.12-fail.json", "6.12.23", NULL, &rep, &c);
	f = acs_finding(&c, 0);
	assert_string_equal(f->remedy, REWRITTEN);
	assert_has(f->message, "This kernel (6.12.23) applies the parameter as written");
	acs_done(&c, &rep);

	/* One device on a kernel without the fix: the bits come from the
	 * firmware; if they are still on, that is why. */
	acs_run("acs-param-6.12-fail.json", NULL, "pci=disable_acs_redir=0000:02:01.0",
		&rep, &c);
	f = acs_finding(&c, 0);
	assert_string_equal(f->remedy, ACS_FIXED_KERNEL);
	assert_has(f->message, "lacks commit 9cf8a952d57b: the bits the parameter clears are copied from the firmware's setting instead");
	acs_done(&c, &rep);
}

/* config_acs on 6.1, which has no such parameter. */
static void acs_param_old_kernel(void **state)
{
	static const struct want w[] = {
		{ PA_BL_LINK_DOWNGRADED, PA_SEV_WARN, "04:00.0", NULL },
		{ PA_BL_ACS_PARAM_EFFECT, PA_SEV_FAIL, "02:00.0 02:01.0",
		  "pci=disable_acs_redir=0000:02:00.0;0000:02:01.0" },
	};
	const struct pa_finding *f;
	struct pa_report rep;
	struct pa_check c;

	(void)state;
	check_fixture("acs-param-old-kernel.json", BASE, w, N(w), PA_EXIT_FINDING);
	acs_run("acs-param-old-kernel.json", NULL, NULL, &rep, &c);
	f = acs_finding(&c, 0);
	assert_int_equal(f->remedy_kind, PA_REMEDY_CMDLINE_ADD);
	assert_has(f->message, "this kernel (6.1.0-27-amd64) has no pci=config_acs= (it came with Linux 6.11)");
	acs_done(&c, &rep);

	/* Flags other than redirect bits: no disable_acs_redir equivalent. */
	acs_run("acs-param-old-kernel.json", NULL, "pci=config_acs=1x1x1x1@0000:02:00.0",
		&rep, &c);
	f = acs_finding(&c, 0);
	assert_int_equal(f->remedy_kind, PA_REMEDY_KERNEL);
	acs_done(&c, &rep);

	/* disable_acs_redir before 4.19. */
	acs_run("acs-param-old-kernel.json", "4.14.0-3-amd64",
		"pci=disable_acs_redir=0000:02:00.0", &rep, &c);
	f = acs_finding(&c, 0);
	assert_has(f->message, "this kernel (4.14.0-3-amd64) has no pci=disable_acs_redir= (it came with Linux 4.19)");
	acs_done(&c, &rep);
}

/* A device the report lacks, a malformed device, malformed flags. */
static void acs_param_malformed(void **state)
{
	static const struct want w[] = {
		{ PA_BL_LINK_DOWNGRADED, PA_SEV_WARN, "04:00.0", NULL },
		{ PA_BL_ACS_PARAM_EFFECT, PA_SEV_WARN, "", "(none)" },
		{ PA_BL_ACS_PARAM_EFFECT, PA_SEV_FAIL, "", "(none)" },
		{ PA_BL_ACS_PARAM_EFFECT, PA_SEV_FAIL, "", "(none)" },
	};
	struct pa_report rep;
	struct pa_check c;

	(void)state;
	check_fixture("acs-param-malformed.json", BASE, w, N(w), PA_EXIT_FINDING);
	acs_run("acs-param-malformed.json", NULL, NULL, &rep, &c);
	assert_string_equal(acs_finding(&c, 0)->message,
		"pci=disable_acs_redir=0000:02:00.0;0000:09:00.0;02:01 names 0000:09:00.0, which this report does not have: "
		"a mistyped address, or a device absent at boot. Nothing is checked for it");
	assert_has(acs_finding(&c, 1)->message,
		   "pci=disable_acs_redir=0000:02:00.0;0000:09:00.0;02:01: entry 3 (\"02:01\") is malformed: not a PCI address. "
		   "The kernel stops reading the parameter there");
	assert_has(acs_finding(&c, 2)->message,
		   "pci=config_acs=x0x00yx@0000:02:01.0: entry 1 (\"x0x00yx@0000:02:01.0\") is malformed: a flag is not 0, 1 or x.");
	acs_done(&c, &rep);

	/* After a malformed entry, the kernel configured nothing. */
	acs_run("acs-param-malformed.json", NULL,
		"pci=disable_acs_redir=0000:02:00.0;02-01;0000:02:01.0", &rep, &c);
	assert_has(acs_finding(&c, 1)->message,
		   "The kernel stopped reading the parameter at its malformed entry 2, before this one");
	assert_int_equal(acs_finding(&c, 1)->devices.n, 1);
	acs_done(&c, &rep);
}

/* SKIP, never PASS, when there is nothing to check. */
static void acs_param_skips(void **state)
{
	static const struct {
		const char *cmdline, *note;
	} cases[] = {
		{ "ro quiet", "no pci=disable_acs_redir= or pci=config_acs= on the kernel command line" },
		{ "-", "the kernel command line is unknown" },
		{ "pci=disable_acs_redir=0000:03:00.0",
		  "no device named has a known ACS control: 0000:03:00.0 has no ACS capability" },
		{ "pci=disable_acs_redir=00:01.0/00.0/00.0",
		  "no device named has a known ACS control: 00:01.0/00.0/00.0 is a bridge path, not resolved here" },
	};
	struct pa_report rep;
	struct pa_check c;

	(void)state;
	for (size_t i = 0; i < N(cases); i++) {
		acs_run("acs-param-pass.json", NULL, cases[i].cmdline, &rep, &c);
		assert_int_equal(c.state[PA_BL_ACS_PARAM_EFFECT], PA_RULE_SKIPPED);
		assert_string_equal(c.note[PA_BL_ACS_PARAM_EFFECT], cases[i].note);
		assert_int_equal(pa_check_rule_worst(&c, PA_BL_ACS_PARAM_EFFECT), 0);
		acs_done(&c, &rep);
	}
	/* pci:0:0 matches every function: root ports keep their redirect
	 * bits, endpoints have no ACS. */
	acs_run("acs-param-pass.json", NULL,
		"pci=realloc pci=disable_acs_redir=0000:09:00.0 pci=noaer,disable_acs_redir=pci:0:0",
		&rep, &c);
	assert_int_equal(acs_finding(&c, 0)->devices.addrs[0].bus, 0x00);
	assert_int_equal(acs_finding(&c, 1)->devices.addrs[0].bus, 0x80);
	assert_int_equal(pa_check_rule_worst(&c, PA_BL_ACS_PARAM_EFFECT), PA_SEV_FAIL);
	/* The two ports and baseline.link-downgraded's NIC. */
	assert_int_equal(c.nfindings, 3);
	assert_string_equal(c.note[PA_BL_ACS_PARAM_EFFECT],
		"2 of 4 devices as asked; not checked: 4 functions matching pci:0:0 without ACS capability");
	acs_done(&c, &rep);
}

/* Malformed parameter values parse into BAD entries, never a crash. */
static void acs_param_parse(void **state)
{
	static const struct {
		enum pa_acs_param param;
		const char *value;
		size_t n;
		enum pa_acs_spec kind;	/* of the last entry */
		const char *error;
	} cases[] = {
		{ PA_ACS_PARAM_DISABLE_ACS_REDIR, "", 0, 0, NULL },
		{ PA_ACS_PARAM_DISABLE_ACS_REDIR, ";", 1, PA_ACS_SPEC_BAD, "no device" },
		{ PA_ACS_PARAM_DISABLE_ACS_REDIR, "0000:02:00.0;", 1, PA_ACS_SPEC_BDF, NULL },
		{ PA_ACS_PARAM_DISABLE_ACS_REDIR, "0000:02:00.0;;", 2, PA_ACS_SPEC_BAD, "no device" },
		{ PA_ACS_PARAM_DISABLE_ACS_REDIR, "0000:02:00.8", 1, PA_ACS_SPEC_BAD, "not a PCI address" },
		{ PA_ACS_PARAM_DISABLE_ACS_REDIR, "ffffffff:ff:1f.7", 1, PA_ACS_SPEC_BDF, NULL },
		{ PA_ACS_PARAM_DISABLE_ACS_REDIR, "pci:10de", 1, PA_ACS_SPEC_BAD,
		  "not pci:<vendor>:<device>[:<subvendor>:<subdevice>] in hex" },
		{ PA_ACS_PARAM_DISABLE_ACS_REDIR, "pci:10de:2330:1:2:3", 1, PA_ACS_SPEC_BAD,
		  "not pci:<vendor>:<device>[:<subvendor>:<subdevice>] in hex" },
		{ PA_ACS_PARAM_DISABLE_ACS_REDIR, "pci:1ffff:0", 1, PA_ACS_SPEC_BAD,
		  "not pci:<vendor>:<device>[:<subvendor>:<subdevice>] in hex" },
		{ PA_ACS_PARAM_DISABLE_ACS_REDIR, "pci:10de:2330:10de:16c1", 1, PA_ACS_SPEC_IDS, NULL },
		{ PA_ACS_PARAM_CONFIG_ACS, "0000:02:00.0", 1, PA_ACS_SPEC_BAD,
		  "no '@': config_acs entries are <flags>@<device>" },
		{ PA_ACS_PARAM_CONFIG_ACS, "@0000:02:00.0", 1, PA_ACS_SPEC_BAD, "no flags before '@'" },
		{ PA_ACS_PARAM_CONFIG_ACS, "xxxxxxx@0000:02:00.0", 1, PA_ACS_SPEC_BAD,
		  "every flag is x: it changes nothing" },
		{ PA_ACS_PARAM_CONFIG_ACS, "0xxxxxxx@0000:02:00.0", 1, PA_ACS_SPEC_BAD,
		  "a 0 or 1 left of bit 6 (DirectTrans): there are 7 flags" },
		{ PA_ACS_PARAM_CONFIG_ACS, "x0x00xx@", 1, PA_ACS_SPEC_BAD, "no device" },
		{ PA_ACS_PARAM_CONFIG_ACS, "x0x00xx@0000:02:00.0@1", 1, PA_ACS_SPEC_BAD, "not a PCI address" },
		{ PA_ACS_PARAM_CONFIG_ACS, "x0x00xx@pci:0:0;1x@00:01.0/00.0", 2, PA_ACS_SPEC_PATH, NULL },
	};
	struct pa_acs_request r;
	char *junk;

	(void)state;
	for (size_t i = 0; i < N(cases); i++) {
		assert_int_equal(pa_acs_request_parse(cases[i].param, cases[i].value, &r), 0);
		if (r.n != cases[i].n)
			fail_msg("\"%s\": %zu entries, want %zu", cases[i].value, r.n, cases[i].n);
		if (r.n) {
			const struct pa_acs_entry *e = &r.entries[r.n - 1];

			if (e->kind != cases[i].kind)
				fail_msg("\"%s\": kind %d, want %d", cases[i].value, e->kind, cases[i].kind);
			if (cases[i].error)
				assert_string_equal(e->error, cases[i].error);
		}
		pa_acs_request_clear(&r);
	}
	/* x0x00xx: ReqRedir, CmpltRedir, EgressCtrl off, nothing on. */
	assert_int_equal(pa_acs_request_parse(PA_ACS_PARAM_CONFIG_ACS, "x0x00xx@0000:02:00.0;1111111@02:01.0", &r), 0);
	assert_int_equal(r.entries[0].mask, PCI_ACS_RR | PCI_ACS_CR | PCI_ACS_EC);
	assert_int_equal(r.entries[0].want, 0);
	assert_int_equal(r.entries[1].mask, 0x7f);
	assert_int_equal(r.entries[1].want, 0x7f);
	assert_int_equal(r.entries[1].addr.bus, 2);
	pa_acs_request_clear(&r);

	/* 64 KiB of separators, at-signs and flags. */
	junk = malloc(65537);
	assert_non_null(junk);
	for (size_t i = 0; i < 65536; i++)
		junk[i] = "@;x01:./pci"[i * 7 % 11];
	junk[65536] = '\0';
	for (int p = PA_ACS_PARAM_DISABLE_ACS_REDIR; p <= PA_ACS_PARAM_CONFIG_ACS; p++) {
		assert_int_equal(pa_acs_request_parse((enum pa_acs_param)p, junk, &r), 0);
		pa_acs_request_clear(&r);
	}
	free(junk);
}

/* The last disable_acs_redir= of all pci= parameters is the kernel's. */
static void acs_param_find(void **state)
{
	struct pa_cmdline cl;
	struct pa_acs_request r;

	(void)state;
	assert_int_equal(pa_cmdline_parse("pci=disable_acs_redir=0000:01:00.0 ro "
					  "pci=realloc,disable_acs_redir=0000:02:00.0,noats "
					  "pci=config_acs=x0x00xx@02:01.0", &cl), 0);
	assert_int_equal(pa_acs_request_find(&cl, PA_ACS_PARAM_DISABLE_ACS_REDIR, &r), 1);
	assert_string_equal(r.value, "0000:02:00.0");
	assert_int_equal(r.n, 1);
	pa_acs_request_clear(&r);
	assert_int_equal(pa_acs_request_find(&cl, PA_ACS_PARAM_CONFIG_ACS, &r), 1);
	assert_string_equal(r.value, "x0x00xx@02:01.0");
	pa_acs_request_clear(&r);
	pa_cmdline_clear(&cl);
	assert_int_equal(pa_cmdline_parse("pci=noacs", &cl), 0);
	assert_int_equal(pa_acs_request_find(&cl, PA_ACS_PARAM_CONFIG_ACS, &r), 0);
	pa_cmdline_clear(&cl);
}

/* Which kernels run the parameters as written. */
static void acs_param_kernels(void **state)
{
	static const struct {
		const char *release;
		enum pa_acs_param_state redir, config;
	} cases[] = {
		{ NULL, PA_ACS_PARAM_UNKNOWN, PA_ACS_PARAM_UNKNOWN },
		{ "vmlinuz", PA_ACS_PARAM_UNKNOWN, PA_ACS_PARAM_UNKNOWN },
		{ "4.14.0-3-amd64", PA_ACS_PARAM_ABSENT, PA_ACS_PARAM_ABSENT },
		{ "4.19.0-27-amd64", PA_ACS_PARAM_WORKS, PA_ACS_PARAM_ABSENT },
		{ "6.1.0-27-amd64", PA_ACS_PARAM_WORKS, PA_ACS_PARAM_ABSENT },
		{ "6.10.14", PA_ACS_PARAM_WORKS, PA_ACS_PARAM_ABSENT },
		{ "6.11.0-1-amd64", PA_ACS_PARAM_BROKEN, PA_ACS_PARAM_BROKEN },
		{ "6.11.11", PA_ACS_PARAM_BROKEN, PA_ACS_PARAM_BROKEN },
		{ "6.12.0-55.el10.x86_64", PA_ACS_PARAM_UNKNOWN, PA_ACS_PARAM_UNKNOWN },
		{ "6.12", PA_ACS_PARAM_UNKNOWN, PA_ACS_PARAM_UNKNOWN },
		{ "6.12.22+deb13-amd64", PA_ACS_PARAM_BROKEN, PA_ACS_PARAM_BROKEN },
		{ "6.12.23", PA_ACS_PARAM_WORKS, PA_ACS_PARAM_WORKS },
		{ "6.12.117+deb13-amd64", PA_ACS_PARAM_WORKS, PA_ACS_PARAM_WORKS },
		{ "6.13.10", PA_ACS_PARAM_BROKEN, PA_ACS_PARAM_BROKEN },
		{ "6.13.11", PA_ACS_PARAM_WORKS, PA_ACS_PARAM_WORKS },
		{ "6.14.0-15-generic", PA_ACS_PARAM_UNKNOWN, PA_ACS_PARAM_UNKNOWN },
		{ "6.14.1-arch1-1", PA_ACS_PARAM_BROKEN, PA_ACS_PARAM_BROKEN },
		{ "6.14.2", PA_ACS_PARAM_WORKS, PA_ACS_PARAM_WORKS },
		{ "6.15.0-rc1", PA_ACS_PARAM_WORKS, PA_ACS_PARAM_WORKS },
		{ "7.3.4+deb13-amd64", PA_ACS_PARAM_WORKS, PA_ACS_PARAM_WORKS },
	};

	(void)state;
	for (size_t i = 0; i < N(cases); i++) {
		if (pa_acs_param_state(cases[i].release, PA_ACS_PARAM_DISABLE_ACS_REDIR) != cases[i].redir ||
		    pa_acs_param_state(cases[i].release, PA_ACS_PARAM_CONFIG_ACS) != cases[i].config)
			fail_msg("%s: wrong state", cases[i].release ? cases[i].release : "(null)");
	}
}

/* Where the kernel formed its groups from ACS alone, the recomputed groups
 * agree: nothing over-claims. */
static void groups_agree_with_acs(void **state)
{
	static const char *const files[] = {
		"gpudirect-fail.json", "gpudirect-pass.json", "vfio-pass.json",
		"baseline-amd-fail.json", "baseline-pass.json",
		"acs-param-pass.json", "acs-param-6.12-fail.json",
		"acs-param-old-kernel.json", "acs-param-malformed.json",
	};
	struct pa_policy pol;

	(void)state;
	pa_policy_default(&pol);
	only(&pol, VFIO);
	for (size_t i = 0; i < N(files); i++) {
		struct pa_report rep;
		struct pa_check c;

		load(files[i], &rep);
		assert_int_equal(test_check_run(&rep, &pol, &c), 0);
		assert_int_equal(c.state[PA_VFIO_GROUP_OVERCLAIMS], PA_RULE_RAN);
		if (pa_check_rule_worst(&c, PA_VFIO_GROUP_OVERCLAIMS))
			fail_msg("%s: groups finer than ACS", files[i]);
		pa_check_clear(&c);
		pa_report_clear(&rep);
	}
}

/* ---- Policy effects ------------------------------------------------------ */

static void run_with(const char *file, const struct pa_policy *pol,
		     struct pa_check *c, struct pa_report *rep)
{
	load(file, rep);
	assert_int_equal(test_check_run(rep, pol, c), 0);
}

static size_t count(const struct pa_check *c, enum pa_rule_id rule)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nfindings; i++)
		n += c->findings[i].rule == rule;
	return n;
}

/* vfio.not-opened judges by the group's DMA ownership when the module
 * says it, by the attached domain when only that is known (older modules
 * and snapshots), and is SKIP when neither is: unknown is not "opened". */
static void not_opened_by_ownership(void **state)
{
	static const uint32_t owners[] = {
		PCIEAUDIT_DMA_OWNER_UNCLAIMED, PCIEAUDIT_DMA_OWNER_CLAIMED, 0,
	};
	const struct pa_addr ep = { 0, 1, 0 };
	struct pa_policy pol;
	struct pa_report rep;
	struct pa_check c;

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		struct pa_device *d;

		load("vfio-fail.json", &rep);
		d = (struct pa_device *)pa_report_find(&rep, &ep);
		assert_non_null(d);
		assert_string_equal(d->driver, "vfio-pci");
		for (size_t k = 0; k < rep.ndevices; k++) {
			rep.devices[k].iommu.dma_owner = owners[i];
			rep.devices[k].iommu.domain = 0;
		}
		pa_policy_default(&pol);
		only(&pol, VFIO);
		assert_int_equal(test_check_run(&rep, &pol, &c), 0);
		assert_int_equal(count(&c, PA_VFIO_NOT_OPENED) > 0, i == 0);
		assert_int_equal(c.state[PA_VFIO_NOT_OPENED],
				 i == 2 ? PA_RULE_SKIPPED : PA_RULE_RAN);
		pa_check_clear(&c);
		pa_report_clear(&rep);
	}
}

static void policy_rules(void **state)
{
	struct pa_policy pol;
	struct pa_report rep;
	struct pa_check c;

	(void)state;
	pa_policy_default(&pol);
	only(&pol, VFIO);
	pol.rules[PA_VFIO_NOT_OPENED] = PA_RULE_OFF;
	pol.rules[PA_VFIO_ACS_MISSING] = PA_SEV_WARN;
	pol.rules[PA_VFIO_ACS_CHANGED] = PA_SEV_INFO;
	run_with("vfio-fail.json", &pol, &c, &rep);
	assert_int_equal(c.state[PA_VFIO_NOT_OPENED], PA_RULE_NOT_RUN);
	assert_int_equal(count(&c, PA_VFIO_NOT_OPENED), 0);
	assert_int_equal(count(&c, PA_VFIO_ACS_MISSING), 3);
	assert_int_equal(pa_check_rule_worst(&c, PA_VFIO_ACS_MISSING), PA_SEV_WARN);
	assert_int_equal(pa_check_rule_worst(&c, PA_VFIO_ACS_CHANGED), PA_SEV_INFO);
	pa_check_clear(&c);
	pa_report_clear(&rep);
}

static void policy_selection(void **state)
{
	struct pa_match gpu = { .kind = -1, .has_bdf = true,
				.bdf = { 0, 0x06, 0x00 } };
	struct pa_match nvme = { .kind = -1, .has_class = true,
				 .class_value = 0x010802, .class_mask = 0xffffff };
	struct pa_policy pol;
	struct pa_report rep;
	struct pa_check c;

	(void)state;
	pa_policy_default(&pol);
	only(&pol, VFIO);
	pol.select = &gpu;
	pol.nselect = 1;
	run_with("vfio-fail.json", &pol, &c, &rep);
	/* Only 06:00.0 is a candidate; the ACS change is host-wide. */
	assert_int_equal(count(&c, PA_VFIO_GROUP_SHARED), 0);
	assert_int_equal(count(&c, PA_VFIO_ACS_MISSING), 1);
	assert_int_equal(count(&c, PA_VFIO_GROUP_OVERCLAIMS), 1);
	assert_int_equal(count(&c, PA_VFIO_ACS_CHANGED), 1);
	assert_string_equal(c.note[PA_VFIO_GROUP_SHARED], "1 device checked");
	pa_check_clear(&c);
	pa_report_clear(&rep);

	pol.select = NULL;
	pol.nselect = 0;
	pol.exclude = &nvme;
	pol.nexclude = 1;
	run_with("vfio-fail.json", &pol, &c, &rep);
	/* The NIC still shares with the drive; the drive is not checked. */
	assert_int_equal(count(&c, PA_VFIO_GROUP_SHARED), 1);
	assert_int_equal(count(&c, PA_VFIO_ACS_MISSING), 2);
	pa_check_clear(&c);
	pa_report_clear(&rep);
}

static void policy_trap_ratio(void **state)
{
	struct pa_policy pol;
	struct pa_report rep;
	struct pa_check c;

	(void)state;
	pa_policy_default(&pol);
	only(&pol, GD());
	/* 7.88 of 31.51 GB/s is 25%: a ratio of 0.2 lets it pass. */
	pol.trap_ratio = 0.2;
	run_with("gpudirect-fail.json", &pol, &c, &rep);
	assert_int_equal(count(&c, PA_GD_BANDWIDTH_TRAP), 0);
	pa_check_clear(&c);
	pa_report_clear(&rep);
}

/* A GPU with a NIC below its own switch and one on another root port:
 * the nearest is checked, or both with gpudirect_pairs: all. */
static void nearest_or_all_pairs(void **state)
{
	static const struct test_dev devs[] = {
		{ 0, 0x00, 0x08, -1, 0, 0x060400, PCI_EXP_TYPE_ROOT_PORT, 0,
		  TEST_LINK(4, 16), TEST_LINK(4, 16), true, 0x1d, 0 },
		{ 0, 0x01, 0x00, 0x00, 0x08, 0x060400, PCI_EXP_TYPE_UPSTREAM, 0,
		  TEST_LINK(4, 16), TEST_LINK(4, 16), false, 0, 0 },
		{ 0, 0x02, 0x00, 0x01, 0x00, 0x060400, PCI_EXP_TYPE_DOWNSTREAM, 0,
		  TEST_LINK(4, 16), TEST_LINK(4, 16), true, 0x11, 0 },
		{ 0, 0x02, 0x08, 0x01, 0x00, 0x060400, PCI_EXP_TYPE_DOWNSTREAM, 0,
		  TEST_LINK(4, 16), TEST_LINK(4, 16), true, 0x11, 0 },
		{ 0, 0x03, 0x00, 0x02, 0x00, 0x030200, PCI_EXP_TYPE_ENDPOINT, 0,
		  TEST_LINK(4, 16), TEST_LINK(4, 16), false, 0, 0 },
		{ 0, 0x04, 0x00, 0x02, 0x08, 0x020000, PCI_EXP_TYPE_ENDPOINT, 0,
		  TEST_LINK(4, 16), TEST_LINK(4, 16), false, 0, 0 },
		{ 0, 0x00, 0x10, -1, 0, 0x060400, PCI_EXP_TYPE_ROOT_PORT, 0,
		  TEST_LINK(4, 16), TEST_LINK(4, 16), true, 0x1d, 0 },
		{ 0, 0x05, 0x00, 0x00, 0x10, 0x020000, PCI_EXP_TYPE_ENDPOINT, 0,
		  TEST_LINK(4, 16), TEST_LINK(4, 16), false, 0, 0 },
	};
	struct pa_policy pol;
	struct pa_report rep = { 0 };
	struct pa_check c;

	(void)state;
	for (size_t i = 0; i < N(devs); i++)
		test_add_dev(&rep, &devs[i]);
	pa_report_sort(&rep);
	pa_policy_default(&pol);
	only(&pol, GD());
	assert_int_equal(test_check_run(&rep, &pol, &c), 0);
	/* Below the switch, direct: no pair finding at all. */
	assert_int_equal(c.nfindings, 0);
	assert_string_equal(c.note[PA_GD_ACS_REDIRECT], "1 pair checked");
	pa_check_clear(&c);

	pol.all_pairs = true;
	assert_int_equal(test_check_run(&rep, &pol, &c), 0);
	assert_string_equal(c.note[PA_GD_ACS_REDIRECT], "2 pairs checked");
	/* No host facts: the root complex's verdict is unknown. */
	assert_int_equal(count(&c, PA_GD_P2P_UNKNOWN), 1);
	pa_check_clear(&c);
	pa_report_clear(&rep);
}

/* Where the kernel answered, its verdict decides the finding, also when
 * pcieaudit's copy of its rules says otherwise. */
static void kernel_verdict_decides(void **state)
{
	static const struct test_dev devs[] = {
		{ 0, 0x00, 0x08, -1, 0, 0x060400, PCI_EXP_TYPE_ROOT_PORT, 0,
		  TEST_LINK(4, 16), TEST_LINK(4, 16), true, 0x1d, 0 },
		{ 0, 0x03, 0x00, 0x00, 0x08, 0x030200, PCI_EXP_TYPE_ENDPOINT, 0,
		  TEST_LINK(4, 16), TEST_LINK(4, 16), false, 0, 0 },
		{ 0, 0x00, 0x10, -1, 0, 0x060400, PCI_EXP_TYPE_ROOT_PORT, 0,
		  TEST_LINK(4, 16), TEST_LINK(4, 16), true, 0x1d, 0 },
		{ 0, 0x05, 0x00, 0x00, 0x10, 0x020000, PCI_EXP_TYPE_ENDPOINT, 0,
		  TEST_LINK(4, 16), TEST_LINK(4, 16), false, 0, 0 },
	};
	const struct pa_addr gpu = { 0, 0x03, 0 }, nic = { 0, 0x05, 0 };
	struct pa_p2p_pair *p;
	struct pa_policy pol;
	struct pa_report rep = { 0 };
	struct pa_check c;

	(void)state;
	for (size_t i = 0; i < N(devs); i++)
		test_add_dev(&rep, &devs[i]);
	pa_report_sort(&rep);
	test_add_pair(&rep, gpu, nic, PCIEAUDIT_P2P_MAP_NOT_SUPPORTED,
		      PCIEAUDIT_P2P_PATH_NO_COMMON_UPSTREAM,
		      PCIEAUDIT_P2P_HOST_REFUSED);
	rep.has_p2p = true;
	p = (struct pa_p2p_pair *)pa_p2p_find(&rep.p2p, &gpu, &nic);
	pa_policy_default(&pol);
	only(&pol, GD());

	/* Both refuse. */
	assert_int_equal(test_check_run(&rep, &pol, &c), 0);
	assert_int_equal(count(&c, PA_GD_P2P_REFUSED), 1);
	assert_int_equal(count(&c, PA_GD_P2P_HOST_BRIDGE), 0);
	pa_check_clear(&c);

	/* The kernel allows it (a host bridge the copy lacks). */
	p->kernel_distance = 4;
	p->agreement = pa_p2p_agreement_of(p);
	assert_int_equal(test_check_run(&rep, &pol, &c), 0);
	assert_int_equal(count(&c, PA_GD_P2P_REFUSED), 0);
	assert_int_equal(count(&c, PA_GD_P2P_HOST_BRIDGE), 1);
	pa_check_clear(&c);
	pa_report_clear(&rep);
}

/* ---- The H200 VM guest --------------------------------------------------- */

/* A flat root bus without IOMMU: P2P verdicts unknown without the
 * module, VFIO impossible, the IOMMU off; no host facts in the fixture. */
static void h200_vm_guest(void **state)
{
	static const struct want w[] = {
		{ PA_GD_P2P_UNKNOWN, PA_SEV_INFO, "00:06.0 00:07.0", NULL },
		{ PA_GD_P2P_UNKNOWN, PA_SEV_INFO, "00:06.0 00:03.0", NULL },
		{ PA_GD_P2P_UNKNOWN, PA_SEV_INFO, "00:07.0 00:03.0", NULL },
		{ PA_VFIO_IOMMU_OFF, PA_SEV_FAIL, "", NULL },
		{ PA_BL_IOMMU_OFF, PA_SEV_WARN, "", NULL },
	};
	struct pa_policy pol;
	struct pa_report rep;
	struct pa_sysfs s;
	struct pa_check c;
	char what[256];

	(void)state;
	if (!test_have_guest())
		skip();
	assert_int_equal(pa_sysfs_read(H200, &s, what, sizeof(what)), 0);
	assert_int_equal(pa_sysfs_model(&s, &rep), 0);
	pa_sysfs_clear(&s);
	assert_int_equal(pa_host_read(H200, &rep.host), 0);
	rep.has_host = true;
	pa_policy_default(&pol);
	assert_int_equal(test_check_run(&rep, &pol, &c), 0);
	expect(&c, w, N(w));
	assert_int_equal(c.findings[3].remedy_kind, PA_REMEDY_BIOS);
	assert_int_equal(c.state[PA_BL_NUMA_UNKNOWN], PA_RULE_SKIPPED);
	assert_int_equal(c.state[PA_BL_PCI_NOACS], PA_RULE_SKIPPED);
	assert_int_equal(c.state[PA_GD_IOMMU_TRANSLATED], PA_RULE_RAN);
	assert_int_equal(pa_check_exit_code(&c), PA_EXIT_FINDING);
	pa_check_clear(&c);
	pa_report_clear(&rep);
}

/* ---- Turning the IOMMU on ------------------------------------------------- */

/* The remedy follows the host facts: a parameter that turns it off, VT-d
 * described but not enabled, a VM without a virtual IOMMU, the firmware. */
static void iommu_off_remedies(void **state)
{
	static const struct {
		const char *cmdline, *vendor, *table;
		int hypervisor;
		enum pa_remedy_kind kind;
		const char *remedy, *why;
		bool no_iommu_api;	/* the module says CONFIG_IOMMU_API is off */
	} cases[] = {
		{ "ro intel_iommu=off", "GenuineIntel", "DMAR", 0,
		  PA_REMEDY_CMDLINE_REMOVE, "intel_iommu=off", "a kernel parameter turns it off", false },
		{ "ro iommu=off", "AuthenticAMD", "IVRS", 0,
		  PA_REMEDY_CMDLINE_REMOVE, "iommu=off", "a kernel parameter turns it off", false },
		{ "ro", "GenuineIntel", "DMAR", 0,
		  PA_REMEDY_CMDLINE_ADD, "intel_iommu=on", "(ACPI DMAR table)", false },
		/* A vIOMMU in a VM is described as on bare metal. */
		{ "ro", "GenuineIntel", "DMAR", 1,
		  PA_REMEDY_CMDLINE_ADD, "intel_iommu=on", "(ACPI DMAR table)", false },
		{ "ro", "GenuineIntel", NULL, 0,
		  PA_REMEDY_CMDLINE_ADD, "intel_iommu=on", "Debian's", false },
		{ "ro", "GenuineIntel", "none", 1,
		  PA_REMEDY_HYPERVISOR, "give the VM a virtual IOMMU", "this VM has no virtual IOMMU", false },
		/* A VM without ACPI tables to list (Firecracker). */
		{ "ro", "GenuineIntel", NULL, 1,
		  PA_REMEDY_HYPERVISOR, "give the VM a virtual IOMMU", "this VM shows no virtual IOMMU", false },
		{ "ro", "GenuineIntel", "none", 0,
		  PA_REMEDY_BIOS, "enable Intel VT-d in the firmware setup", "the firmware describes none", false },
		{ "ro", "AuthenticAMD", "none", 0,
		  PA_REMEDY_BIOS, "enable the IOMMU (AMD-Vi) in the firmware setup", "the firmware describes none", false },
		{ "ro intel_iommu=on", "GenuineIntel", "DMAR", 0,
		  PA_REMEDY_BIOS, "enable Intel VT-d", "did not enable it", false },
		/* QEMU's default CPU is AMD's; the DMAR table still means VT-d. */
		{ "ro intel_iommu=on", "AuthenticAMD", "DMAR", 1,
		  PA_REMEDY_BIOS, "enable Intel VT-d", "(ACPI DMAR table)", false },
		/* No firmware setting or parameter helps a kernel without it. */
		{ "ro intel_iommu=on", "AuthenticAMD", "DMAR", 1,
		  PA_REMEDY_KERNEL, "boot a kernel built with CONFIG_IOMMU_API",
		  "built without IOMMU support", true },
		{ "ro", "GenuineIntel", "DMAR", 0,
		  PA_REMEDY_KERNEL, "boot a kernel built with CONFIG_IOMMU_API",
		  "built without IOMMU support", true },
	};
	struct pa_policy pol;

	(void)state;
	pa_policy_default(&pol);
	only(&pol, BASE);
	for (size_t i = 0; i < N(cases); i++) {
		struct pa_report rep = { .has_host = true };
		struct pa_check c;

		pa_host_clear(&rep.host);
		rep.host.cmdline = strdup(cases[i].cmdline);
		rep.host.cpu_vendor = strdup(cases[i].vendor);
		rep.host.iommu_table = cases[i].table ? strdup(cases[i].table) : NULL;
		rep.host.hypervisor = cases[i].hypervisor;
		if (cases[i].no_iommu_api) {
			rep.info.module_version = strdup("0.1.0");
			rep.info.features = PCIEAUDIT_F_PCI_IOV;
		}
		assert_int_equal(test_check_run(&rep, &pol, &c), 0);
		assert_int_equal(c.findings[0].rule, PA_BL_IOMMU_OFF);
		if (c.findings[0].remedy_kind != cases[i].kind ||
		    strncmp(c.findings[0].remedy, cases[i].remedy,
			    strlen(cases[i].remedy)) ||
		    !strstr(c.findings[0].message, cases[i].why))
			fail_msg("case %zu: %s: %s [%s]", i,
				 pa_remedy_kind_name(c.findings[0].remedy_kind),
				 c.findings[0].remedy, c.findings[0].message);
		pa_check_clear(&c);
		pa_report_clear(&rep);
	}
}

/* The ACPI table, not the CPU, says which IOMMU parameter works. */
static void vendor_param_follows_firmware(void **state)
{
	static const struct {
		const char *vendor, *table, *cmdline;
		bool warns;
	} cases[] = {
		/* QEMU's qemu64 CPU is AuthenticAMD, its intel-iommu gives DMAR. */
		{ "AuthenticAMD", "DMAR", "ro intel_iommu=on", false },
		{ "AuthenticAMD", "DMAR", "ro amd_iommu=off", true },
		{ "GenuineIntel", "IVRS", "ro amd_iommu=fullflush", false },
		{ "AuthenticAMD", NULL, "ro intel_iommu=on", true },
		{ "GenuineIntel", "none", "ro amd_iommu=off", true },
	};
	struct pa_policy pol;

	(void)state;
	pa_policy_default(&pol);
	only(&pol, BASE);
	for (size_t i = 0; i < N(cases); i++) {
		struct pa_report rep = { .has_host = true };
		struct pa_check c;
		bool warned = false;

		pa_host_clear(&rep.host);
		rep.host.cmdline = strdup(cases[i].cmdline);
		rep.host.cpu_vendor = strdup(cases[i].vendor);
		rep.host.iommu_table = cases[i].table ? strdup(cases[i].table) : NULL;
		assert_int_equal(test_check_run(&rep, &pol, &c), 0);
		for (size_t k = 0; k < c.nfindings; k++)
			warned |= c.findings[k].rule == PA_BL_IOMMU_PARAM_VENDOR;
		if (warned != cases[i].warns)
			fail_msg("case %zu: vendor warning %d", i, warned);
		pa_check_clear(&c);
		pa_report_clear(&rep);
	}
}

/* ---- Text output --------------------------------------------------------- */

struct render {
	const struct pa_report *rep;
	const struct pa_check *c;
	bool colour;
};

static int render_text(FILE *f, const void *arg)
{
	const struct render *r = arg;

	return pa_check_text(f, r->rep, r->c, "baseline-intel-fail.json",
			     r->colour);
}

static const char text_snapshot[] =
"pcieaudit check of baseline-intel-fail.json: kernel 6.1.0-27-amd64, 3 PCI functions, 0 IOMMU groups\n"
"\n"
"baseline\n"
"  WARN  baseline.iommu-off: no IOMMU serves the PCI devices: a kernel\n"
"        parameter turns it off. There is no DMA isolation, and no VFIO\n"
"        remedy (remove from the kernel command line):\n"
"          intel_iommu=off\n"
"  INFO  baseline.link-downgraded: GPU 0000:01:00.0 trained 2.5GT/s x16 though\n"
"        both ends support 16GT/s x16; GPUs lower their link speed when idle,\n"
"        so check again under load\n"
"        remedy (hardware):\n"
"          reseat the card; check the slot, the riser and the firmware's PCIe speed setting\n"
"  PASS  baseline.numa-unknown (1 NUMA node)\n"
"  PASS  baseline.amd-iommu-on (6 parameters read)\n"
"  PASS  baseline.pci-noacs (6 parameters read)\n"
"  PASS  baseline.acs-override (6 parameters read)\n"
"  WARN  baseline.iommu-params-conflict: iommu=pt and intel_iommu=off are both\n"
"        on the kernel command line: passthrough needs an IOMMU, which the\n"
"        other turns off (drop that one instead to keep passthrough)\n"
"        remedy (remove from the kernel command line):\n"
"          iommu=pt\n"
"  PASS  baseline.iommu-param-vendor (6 parameters read)\n"
"  SKIP  baseline.acs-param-effect (no pci=disable_acs_redir= or pci=config_acs= on the kernel command line)\n"
"  SKIP  baseline.bar-unassigned (no BARs in the report (a module that predates them, or sysfs))\n"
"  SKIP  baseline.aer-rising (needs two observations: pass --previous with an earlier report --json of this host)\n"
"\n"
"summary: baseline WARN; 0 failed, 2 warnings, 1 info, 5 passed, 3 skipped\n";

static void text_output(void **state)
{
	struct pa_policy pol;
	struct pa_report rep;
	struct pa_check c;
	struct render r = { &rep, &c, false };
	char *text;
	int ret;

	(void)state;
	pa_policy_default(&pol);
	only(&pol, BASE);
	run_with("baseline-intel-fail.json", &pol, &c, &rep);
	text = test_render(render_text, &r, &ret);
	assert_int_equal(ret, 0);
	test_snapshot(text, text_snapshot, "check_text");
	assert_null(strchr(text, '\033'));
	free(text);

	r.colour = true;
	text = test_render(render_text, &r, &ret);
	assert_non_null(strstr(text, "\033[1;33mWARN\033[0m  baseline.iommu-off:"));
	assert_non_null(strstr(text, "\033[32mPASS\033[0m  baseline.numa-unknown"));
	free(text);
	pa_check_clear(&c);
	pa_report_clear(&rep);
}

/* A profile whose every rule was skipped found nothing because it could
 * judge nothing: its verdict is skip, never pass (lspci -xxx of a switch). */
static void all_skipped_is_no_pass(void **state)
{
	struct pa_report rep = { 0 };
	struct pa_check c = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	c.profiles[PA_PROFILE_GPUDIRECT] = true;
	c.profiles[PA_PROFILE_BASELINE] = true;
	for (int r = 0; r < PA_NRULES; r++)
		if (pa_rules[r].profile == PA_PROFILE_GPUDIRECT)
			c.state[r] = PA_RULE_SKIPPED;
		else if (pa_rules[r].profile == PA_PROFILE_BASELINE)
			c.state[r] = PA_RULE_RAN;
	assert_true(pa_check_profile_skipped(&c, PA_PROFILE_GPUDIRECT));
	assert_string_equal(pa_check_profile_verdict(&c, PA_PROFILE_GPUDIRECT), "skip");
	assert_false(pa_check_profile_skipped(&c, PA_PROFILE_BASELINE));
	assert_string_equal(pa_check_profile_verdict(&c, PA_PROFILE_BASELINE), "pass");
	assert_false(pa_check_profile_skipped(&c, PA_NPROFILES));
	assert_false(pa_check_profile_skipped(&c, PA_PROFILE_VFIO));

	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(pa_check_prometheus(f, &rep, &c), 0);
	fclose(f);
	assert_null(strstr(text, "pcieaudit_profile_status{profile=\"gpudirect\"}"));
	assert_non_null(strstr(text, "pcieaudit_profile_status{profile=\"baseline\"} 0"));
	free(text);

	for (int r = 0; r < PA_NRULES; r++)
		if (c.state[r] == PA_RULE_RAN)
			c.state[r] = PA_RULE_SKIPPED;
	assert_true(pa_check_profile_skipped(&c, PA_NPROFILES));
	assert_string_equal(pa_check_profile_verdict(&c, PA_NPROFILES), "skip");
}

static int render_report(FILE *f, const void *arg)
{
	return pa_json_report(f, arg);
}

/*
 * check only reads the report: the pairs gpudirect judges come with it
 * from the load, once. It used to add the pairs a snapshot lacked to the
 * report it was given, so that the same report, rendered after check,
 * was no longer the one loaded.
 */
static void check_leaves_report_unmodified(void **state)
{
	struct pa_report rep = { 0 };
	struct pa_policy pol;
	struct pa_check c;
	char *before, *after;
	int ret;

	(void)state;
	load("gpudirect-pass.json", &rep);	/* no p2p[]: none answered */
	pa_policy_default(&pol);
	only(&pol, GD());
	before = test_render(render_report, &rep, &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(pa_check_run(&rep, &pol, &c), 0);
	after = test_render(render_report, &rep, &ret);
	assert_int_equal(ret, 0);
	assert_string_equal(after, before);
	assert_int_equal(rep.p2p.npairs, 0);
	pa_check_clear(&c);
	free(after);

	/* The load's step adds them, before check and not in it. */
	assert_int_equal(pa_check_infer_pairs(&rep, &pol), 0);
	assert_true(rep.p2p.npairs > 0);
	free(before);
	pa_report_clear(&rep);
	pa_policy_clear(&pol);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gpudirect_fail),
		cmocka_unit_test(gpudirect_pass),
		cmocka_unit_test(vfio_fail),
		cmocka_unit_test(not_opened_by_ownership),
		cmocka_unit_test(unreadable_port),
		cmocka_unit_test(vfio_override),
		cmocka_unit_test(vfio_pass),
		cmocka_unit_test(baseline_amd_fail),
		cmocka_unit_test(baseline_intel_fail),
		cmocka_unit_test(baseline_pass),
		cmocka_unit_test(acs_param_pass),
		cmocka_unit_test(acs_param_6_12_fail),
		cmocka_unit_test(acs_param_old_kernel),
		cmocka_unit_test(acs_param_malformed),
		cmocka_unit_test(acs_param_skips),
		cmocka_unit_test(acs_param_parse),
		cmocka_unit_test(acs_param_find),
		cmocka_unit_test(acs_param_kernels),
		cmocka_unit_test(groups_agree_with_acs),
		cmocka_unit_test(policy_rules),
		cmocka_unit_test(policy_selection),
		cmocka_unit_test(policy_trap_ratio),
		cmocka_unit_test(nearest_or_all_pairs),
		cmocka_unit_test(kernel_verdict_decides),
		cmocka_unit_test(h200_vm_guest),
		cmocka_unit_test(iommu_off_remedies),
		cmocka_unit_test(vendor_param_follows_firmware),
		cmocka_unit_test(text_output),
		cmocka_unit_test(all_skipped_is_no_pass),
		cmocka_unit_test(check_leaves_report_unmodified),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
