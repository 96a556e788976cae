// SPDX-License-Identifier: GPL-2.0
/*
 * report -> JSON -> snapshot read, field by field: every fact of the model
 * that a snapshot carries must come back as it was, for real inputs (the
 * lspci corpus under tests/fixtures/lspci and the H200 guest's sysfs copy).
 * The oracle is the in-memory model the source built, not any JSON text.
 */
#include "testutil.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exitcodes.h"
#include "json_out.h"
#include "load.h"
#include "snapshot.h"

#ifndef FIXTURES
#define FIXTURES "../../../shared/fixtures"
#endif
/* Relative to tests/unit, where the suites run. */
#define CORPUS "../fixtures/lspci"

/* What differed, "dev 0000:00:01.0: root_bus; ..."; the test prints it all. */
struct diff {
	char text[8192];
	size_t n;
	unsigned int count;
	size_t devices, pairs;		/* compared */
};

__attribute__((format(printf, 2, 3)))
static void note(struct diff *d, const char *fmt, ...)
{
	va_list ap;

	d->count++;
	if (d->n >= sizeof(d->text))
		return;
	va_start(ap, fmt);
	d->n += (size_t)vsnprintf(d->text + d->n, sizeof(d->text) - d->n, fmt, ap);
	va_end(ap);
	if (d->n >= sizeof(d->text))
		d->n = sizeof(d->text);
}

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

#define SAME(field) \
	do { if (a->field != b->field) note(d, " %s", #field); } while (0)
#define SAME_STR(field) \
	do { if (!str_eq(a->field, b->field)) note(d, " %s", #field); } while (0)
#define SAME_ADDR(field) \
	do { if (!pa_addr_eq(&a->field, &b->field)) note(d, " %s", #field); } while (0)

static void same_bars(struct diff *d, const struct pa_device *a,
		      const struct pa_device *b)
{
	SAME(nbars);
	for (size_t i = 0; i < a->nbars && i < b->nbars; i++) {
		SAME(bars[i].index);
		SAME(bars[i].size);
		SAME(bars[i].flags);
		SAME(bars[i].resizable);
		SAME(bars[i].rebar_cap);
		SAME(bars[i].rebar_ctrl);
		SAME(bars[i].has_start);
		SAME(bars[i].start);
	}
}

/*
 * Every field of struct pa_device; a value behind a has_* flag only when
 * the flag says it is there (sources leave register bytes in it otherwise).
 * Not compared, because a snapshot holds
 * the decoded fact rather than the register: ats_cap (only "capable"),
 * devcap and devctl beyond MPS, MRRS and Relaxed Ordering; class_name is
 * looked up in pci.ids again. The link history (the module's sampler,
 * which neither corpus source has) keeps its times to the millisecond:
 * test_snapshot.c round_trip holds it.
 */
static void same_device(struct diff *d, const struct pa_device *a,
			const struct pa_device *b)
{
	SAME_ADDR(addr);
	SAME(vendor);
	SAME(device);
	SAME(subsys_vendor);
	SAME(subsys_device);
	SAME(class);
	SAME(revision);
	SAME(flags);
	SAME(pcie_type);
	SAME(numa_node);
	SAME_STR(driver);
	SAME(driver_unknown);
	SAME(has_upstream);
	if (a->has_upstream && b->has_upstream)
		SAME_ADDR(upstream);
	SAME(has_root_bus);
	if (a->has_root_bus && b->has_root_bus)
		SAME_ADDR(root_bus);
	SAME(has_pf);
	if (a->has_pf && b->has_pf)
		SAME_ADDR(pf);
	SAME(has_secondary_bus);
	if (a->has_secondary_bus && b->has_secondary_bus)
		SAME(secondary_bus);
	SAME(has_acs);
	if (a->has_acs && b->has_acs) {
		SAME(acs.pos);
		SAME(acs.cap);
		SAME(acs.ctrl);
		SAME(acs.has_ctrl_at_load);
		if (a->acs.has_ctrl_at_load)
			SAME(acs.ctrl_at_load);
	}
	SAME(has_link);
	if (a->has_link && b->has_link) {
		SAME(link.lnkcap);
		SAME(link.lnksta);
		SAME(link.has_lnkctl2);
		if (a->link.has_lnkctl2)
			SAME(link.lnkctl2);
	}
	SAME(has_iommu);
	if (a->has_iommu && b->has_iommu) {
		SAME(iommu.group);
		SAME(iommu.domain);
		SAME(iommu.def_domain);
		SAME(iommu.def_domain_source);
		SAME_STR(iommu.instance);
		SAME(iommu.dma_owner);
	}
	SAME(power_state);
	SAME(config_unreadable);
	SAME(config_not_captured);
	SAME(no_extended_config);
	SAME(caps_unknown);
	SAME(aer.state);
	SAME_STR(aer.reason);
	SAME(aer.cor);
	SAME(aer.nonfatal);
	SAME(aer.fatal);
	SAME(aer.has_rootport);
	SAME(aer.rp_cor);
	SAME(aer.rp_nonfatal);
	SAME(aer.rp_fatal);
	SAME(has_history);
	if (a->has_history && b->has_history) {
		SAME(history.since_ns);
		SAME(history.transitions);
		SAME(history.below_ns);
		SAME(history.last_change_ns);
		SAME(history.has_min);
		SAME(history.min_speed);
		SAME(history.min_width);
		SAME(history.interval_ms);
	}
	SAME(caps_known);
	SAME(has_ats);
	SAME(ats_ctrl);
	SAME(has_expdev);
	SAME(bars_unknown);
	same_bars(d, a, b);
	SAME(pt.known);
	SAME_STR(pt.reset_method);
	SAME(pt.reset_file);
	SAME(pt.no_soft_reset);
	SAME(pt.af_flr);
	SAME(pt.has_devcap2);
	SAME(pt.devcap2);
	SAME(pt.devctl2);
	SAME(pt.has_sriov);
	if (a->pt.has_sriov && b->pt.has_sriov) {
		SAME(pt.total_vfs);
		SAME(pt.num_vfs);
		SAME(pt.vf_offset);
		SAME(pt.vf_stride);
		SAME(pt.sysfs_num_vfs);
		SAME(pt.vf_bars_assigned);
		SAME(pt.vf_bar_sizes_mask);
	}
	SAME(mem_bytes);
	SAME_STR(vendor_name);
	SAME_STR(device_name);
}

static void same_host(struct diff *d, const struct pa_host *a,
		      const struct pa_host *b)
{
	SAME(source);
	SAME_STR(cmdline);
	SAME(numa_nodes);
	SAME_STR(cpu_vendor);
	SAME(cpu_family);
	SAME(hypervisor);
	SAME_STR(iommu_table);
	SAME(intremap);
	SAME_STR(intremap_how);
	SAME(allow_unsafe);
	SAME_STR(vfio_pci_ids);
}

static void same_info(struct diff *d, const struct pa_info *a,
		      const struct pa_info *b)
{
	SAME_STR(module_version);
	SAME_STR(kernel_release);
	SAME(features);
	SAME(iommu_def_mode);
	SAME(iommu_strict);
	SAME(device_count);
	SAME(group_count);
	SAME_STR(p2p_rules);
	SAME(iommu_unknown);
}

static void same_group(struct diff *d, const struct pa_group *a,
		       const struct pa_group *b)
{
	SAME(id);
	SAME(other_members);
	SAME(nmembers);
	for (size_t i = 0; i < a->nmembers && i < b->nmembers; i++)
		SAME_ADDR(members[i]);
}

static void same_list(struct diff *d, const char *what,
		      const struct pa_addr_list *a, const struct pa_addr_list *b)
{
	bool same = a->n == b->n;

	for (size_t i = 0; same && i < a->n; i++)
		same = pa_addr_eq(&a->addrs[i], &b->addrs[i]);
	if (!same)
		note(d, " %s", what);
}

/* Every field of a pair but the host bridges' IDs, which only the text
 * output shows (they are not in the JSON). */
static void same_pair(struct diff *d, const struct pa_p2p_pair *a,
		      const struct pa_p2p_pair *b)
{
	SAME_ADDR(provider);
	SAME_ADDR(client);
	SAME(kernel_status);
	SAME(has_kernel_distance);
	if (a->has_kernel_distance)
		SAME(kernel_distance);
	SAME(agreement);
	SAME(distance);
	SAME(path_length);
	SAME(map);
	SAME(path);
	SAME(host_rule);
	SAME(has_common);
	if (a->has_common && b->has_common)
		SAME_ADDR(common);
	same_list(d, "hops_provider", &a->hops_provider, &b->hops_provider);
	same_list(d, "hops_client", &a->hops_client, &b->hops_client);
	same_list(d, "redirect", &a->redirect, &b->redirect);
}

static void same_report(struct diff *d, const struct pa_report *a,
			const struct pa_report *b)
{
	char bdf[32];

	same_info(d, &a->info, &b->info);
	SAME(has_host);
	if (a->has_host && b->has_host)
		same_host(d, &a->host, &b->host);
	SAME(has_p2p);
	SAME(p2p.npairs);
	d->pairs += a->p2p.npairs;
	d->devices += a->ndevices;
	for (size_t i = 0; i < a->p2p.npairs && i < b->p2p.npairs; i++)
		same_pair(d, &a->p2p.pairs[i], &b->p2p.pairs[i]);
	SAME(ngroups);
	for (size_t i = 0; i < a->ngroups && i < b->ngroups; i++)
		same_group(d, &a->groups[i], &b->groups[i]);
	SAME(ndevices);
	for (size_t i = 0; i < a->ndevices && i < b->ndevices; i++) {
		unsigned int before = d->count;
		size_t at = d->n;

		snprintf(bdf, sizeof(bdf), "\n  %04x:%02x:%02x.%u:",
			 a->devices[i].addr.domain, a->devices[i].addr.bus,
			 a->devices[i].addr.devfn >> 3, a->devices[i].addr.devfn & 7);
		note(d, "%s", bdf);
		d->count--;
		same_device(d, &a->devices[i], &b->devices[i]);
		if (d->count == before)
			d->n = at;	/* nothing differed: drop the heading */
	}
	d->text[d->n < sizeof(d->text) ? d->n : sizeof(d->text) - 1] = '\0';
}

/* round_trip(): the source refused the input. */
#define REFUSED UINT_MAX

static int render(FILE *f, const void *rep)
{
	return pa_json_report(f, rep);
}

/* Loads what l names, writes it, reads it back and compares; returns the
 * number of differing fields, with *d saying which. */
static unsigned int round_trip(const struct pa_load *l, const char *name,
			       struct diff *d)
{
	struct pa_error e;
	struct pa_report rep, back;
	char err[512];
	char *text;
	int ret;

	*d = (struct diff){ .n = 0 };
	ret = pa_load_report(l, &rep, &e);
	if (ret)
		pa_report_clear(&rep);	/* the input's warnings */
	if (ret == PA_EXIT_BAD_INPUT)
		return REFUSED;
	if (ret)
		fail_msg("%s: %s", name, e.msg);
	text = test_render(render, &rep, &ret);
	assert_int_equal(ret, 0);
	if (pa_snapshot_parse(name, text, strlen(text), &back, err, sizeof(err)))
		fail_msg("%s", err);
	same_report(d, &rep, &back);
	pa_report_clear(&rep);
	pa_report_clear(&back);
	free(text);
	return d->count;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every capture of the corpus; those the CLI refuses (exit 9: 64-byte
 * config) have no report to write. */
static void corpus(void **state)
{
	char *names[256], path[512];
	size_t n = 0, devices = 0, pairs = 0;
	unsigned int bad = 0, refused = 0;
	struct dirent *e;
	DIR *dir = opendir(CORPUS);
	struct diff d;

	(void)state;
	assert_non_null(dir);
	while ((e = readdir(dir)) && n < 256) {
		size_t len = strlen(e->d_name);

		if (len > 6 && !strcmp(e->d_name + len - 6, ".lspci"))
			names[n++] = strdup(e->d_name);
	}
	closedir(dir);
	qsort(names, n, sizeof(names[0]), by_name);
	for (size_t i = 0; i < n; i++) {
		struct pa_load l = { .lspci = path, .pairs = PA_PAIRS_DEFAULT };
		unsigned int rc;

		snprintf(path, sizeof(path), "%s/%s", CORPUS, names[i]);
		rc = round_trip(&l, path, &d);
		if (rc == REFUSED) {
			print_message("%s: refused by the CLI, nothing to write\n",
				      names[i]);
			refused++;
		} else if (rc) {
			print_message("%s: %u fields differ: %s\n", names[i],
				      d.count, d.text);
			bad++;
		}
		devices += d.devices;
		pairs += d.pairs;
		free(names[i]);
	}
	print_message("%zu captures (%u refused), %zu functions, %zu P2P pairs compared\n",
		      n, refused, devices, pairs);
	assert_true(n >= 20);
	assert_int_equal(bad, 0);
}

static void sysfs_fixture(void **state)
{
	struct pa_load l = {
		.sysfs = FIXTURES "/h200-vm-guest", .pairs = PA_PAIRS_DEFAULT,
	};
	struct diff d;

	(void)state;
	if (access(FIXTURES "/h200-vm-guest/devices", R_OK)) {
		print_message("SKIPPED: %s is missing\n", l.sysfs);
		skip();
	}
	if (round_trip(&l, "h200-vm-guest sysfs", &d) == REFUSED)
		fail_msg("the H200 guest's sysfs copy was refused");
	if (d.count)
		fail_msg("%u fields differ: %s", d.count, d.text);
}

/* lspci -vvv text as a user without root gets it, and -v text: a snapshot
 * of it keeps why the capabilities are unknown. */
static void hidden_capabilities(void **state)
{
	static const char text[] =
		"0000:00:02.0 PCI bridge [0604]: Red Hat, Inc. QEMU PCIe Root port [1b36:000c]\n"
		"\tControl: I/O+ Mem+ BusMaster+\n"
		"\tCapabilities: <access denied>\n\n"
		"0000:01:00.0 Ethernet controller [0200]: Intel Corporation 82574L Gigabit Network Connection [8086:10d3]\n"
		"\tFlags: bus master, fast devsel, latency 0, IRQ 16\n"
		"\tCapabilities: [e0] Express Endpoint, MSI 00\n\n";
	char path[] = "/tmp/pa-round-trip-XXXXXX";
	struct pa_load l = { .lspci = path, .pairs = PA_PAIRS_DEFAULT };
	int fd = mkstemp(path);
	struct diff d;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
	close(fd);
	if (round_trip(&l, "lspci text without registers", &d))
		fail_msg("%u fields differ: %s", d.count, d.text);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(corpus),
		cmocka_unit_test(sysfs_fixture),
		cmocka_unit_test(hidden_capabilities),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
