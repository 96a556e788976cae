// SPDX-License-Identifier: GPL-2.0
/* The report model's lookups: by address, before and after sorting, on a
 * machine larger than one growth step; pair lists that grow by thousands;
 * and the name lookups that libpci
 * does not remember (misses), with libpci replaced by a counting fake;
 * and the hand-written formatters of addresses and JSON paths, held to
 * snprintf's output. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <pci/pci.h>

#include "bdf.h"
#include "json_in.h"
#include "pcinames.h"

/* 1000 functions: 125 slots of 8, handed in from the last to the first. */
#define NFUNCS 1000

static struct pa_addr nth(size_t i)
{
	return (struct pa_addr){ .domain = (uint32_t)(i / 500),
				 .bus = (uint8_t)(i / 8 % 64),
				 .devfn = (uint8_t)(i % 8 | i % 500 / 8 / 64 << 3) };
}

static void fill(struct pa_report *rep)
{
	for (size_t i = NFUNCS; i-- > 0;) {
		struct pa_device d = { .addr = nth(i), .pcie_type = -1,
				       .numa_node = (int)i };

		assert_int_equal(pa_report_add_device(rep, &d), 0);
	}
	assert_int_equal(rep->ndevices, NFUNCS);
}

static void check_all(const struct pa_report *rep)
{
	for (size_t i = 0; i < NFUNCS; i++) {
		struct pa_addr a = nth(i);
		const struct pa_device *d = pa_report_find(rep, &a);

		assert_non_null(d);
		assert_int_equal(d->numa_node, (int)i);
	}
}

static void find_unsorted_then_sorted(void **state)
{
	struct pa_report rep = { 0 };
	struct pa_addr absent[] = {
		{ 0, 63, 0xff }, { 1, 0, 0xf8 }, { 2, 0, 0 }, { 0xffff, 0xff, 0xff },
	};

	(void)state;
	fill(&rep);
	assert_false(rep.devices_sorted);
	check_all(&rep);
	pa_report_sort(&rep);
	assert_true(rep.devices_sorted);
	for (size_t i = 1; i < rep.ndevices; i++)
		assert_true(pa_addr_cmp(&rep.devices[i - 1].addr,
					&rep.devices[i].addr) < 0);
	check_all(&rep);
	for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
		assert_null(pa_report_find(&rep, &absent[i]));
	/* An append may break the order: lookups go linear again. */
	struct pa_device extra = { .addr = { 0, 0, 0xff }, .pcie_type = -1,
				   .numa_node = -1 };
	assert_int_equal(pa_report_add_device(&rep, &extra), 0);
	assert_false(rep.devices_sorted);
	assert_non_null(pa_report_find(&rep, &(struct pa_addr){ 0, 0, 0xff }));
	check_all(&rep);
	pa_report_clear(&rep);
}

static struct pa_p2p_pair pair_to(unsigned int i)
{
	struct pa_p2p_pair p = { .provider = nth(i), .client = nth(i + 1),
				 .distance = (int)i };

	assert_int_equal(pa_addr_list_add(&p.hops_provider, &p.provider), 0);
	return p;
}

/* Thousands of pairs one at a time, lists joined, and a list whose array
 * was set by hand (no recorded room) grown safely. */
static void pairs_grow(void **state)
{
	struct pa_p2p all = { 0 }, more = { 0 }, by_hand = { 0 };
	struct pa_p2p_pair p;

	(void)state;
	for (unsigned int i = 0; i < 997; i++) {
		p = pair_to(i);
		assert_int_equal(pa_p2p_add(&all, &p), 0);
		assert_null(p.hops_provider.addrs);
	}
	for (unsigned int i = 997; i < 1000; i++) {
		p = pair_to(i);
		assert_int_equal(pa_p2p_add(&more, &p), 0);
	}
	assert_int_equal(pa_p2p_take(&all, &more), 0);
	assert_int_equal(more.npairs, 0);
	assert_null(more.pairs);
	assert_int_equal(all.npairs, 1000);
	assert_true(all.cap >= 1000);
	for (unsigned int i = 0; i < 1000; i++) {
		assert_int_equal(all.pairs[i].distance, (int)i);
		assert_true(pa_addr_eq(&all.pairs[i].hops_provider.addrs[0],
				       &all.pairs[i].provider));
	}
	by_hand.pairs = calloc(1, sizeof(*by_hand.pairs));
	assert_non_null(by_hand.pairs);
	by_hand.pairs[0] = pair_to(5000);
	by_hand.npairs = 1;
	p = pair_to(5001);
	assert_int_equal(pa_p2p_add(&by_hand, &p), 0);
	assert_int_equal(by_hand.npairs, 2);
	assert_int_equal(by_hand.pairs[1].distance, 5001);
	assert_int_equal(pa_p2p_take(&all, &by_hand), 0);
	assert_int_equal(all.npairs, 1002);
	pa_p2p_clear(&all);
	assert_int_equal(all.cap, 0);
}

/* The fake libpci: vendor 0x1af4 and device 0x1af4:0x1044 are known, class
 * 0x0604 too; everything else is a miss. Every call is counted. */
static unsigned int calls[3];

char *__wrap_pci_lookup_name(struct pci_access *a, char *buf, int size,
			     int flags, ...);
char *__wrap_pci_lookup_name(struct pci_access *a, char *buf, int size,
			     int flags, ...)
{
	va_list ap;
	int id1, id2;
	const char *name = NULL;

	(void)a;
	va_start(ap, flags);
	id1 = va_arg(ap, int);
	id2 = va_arg(ap, int);
	va_end(ap);
	if (flags & PCI_LOOKUP_VENDOR) {
		calls[0]++;
		name = id1 == 0x1af4 ? "Red Hat, Inc." : NULL;
	} else if (flags & PCI_LOOKUP_DEVICE) {
		calls[1]++;
		name = id1 == 0x1af4 && id2 == 0x1044 ? "Virtio RNG" : NULL;
	} else if (flags & PCI_LOOKUP_CLASS) {
		calls[2]++;
		name = id1 == 0x0604 ? "PCI bridge" : NULL;
	}
	if (!name)
		return NULL;
	snprintf(buf, (size_t)size, "%s", name);
	return buf;
}

static void expect_name(const char *got, const char *want)
{
	if (!want)
		assert_null(got);
	else
		assert_string_equal(got, want);
}

static void names_once_per_id(void **state)
{
	/* Bridges, 8-function endpoints and unknown devices interleaved, the
	 * way a switch tile lays them out, and 3 distinct IDs of each kind. */
	static const struct { uint16_t v, d; uint32_t cls; } kinds[] = {
		{ 0x1b36, 0x000c, 0x060400 },	/* unknown vendor, bridge */
		{ 0x1af4, 0x1044, 0x00ff00 },	/* known, unknown class */
		{ 0x1af4, 0x9999, 0x010802 },	/* known vendor only */
	};
	/* On the heap: 300 devices of 4 KiB overflow valgrind's stack. */
	struct pa_device *devs = calloc(300, sizeof(*devs));

	(void)state;
	assert_non_null(devs);
	memset(calls, 0, sizeof(calls));
	for (size_t i = 0; i < 300; i++) {
		size_t k = i % 10 == 0 ? 0 : i % 10 < 9 ? 1 : 2;

		devs[i] = (struct pa_device){ .vendor = kinds[k].v,
					      .device = kinds[k].d,
					      .class = kinds[k].cls };
	}
	pa_names_fill(devs, 300, true);
	assert_int_equal(calls[0], 2);	/* vendors 0x1b36, 0x1af4 */
	assert_int_equal(calls[1], 3);
	assert_int_equal(calls[2], 3);
	for (size_t i = 0; i < 300; i++) {
		size_t k = i % 10 == 0 ? 0 : i % 10 < 9 ? 1 : 2;

		expect_name(devs[i].vendor_name, k ? "Red Hat, Inc." : NULL);
		expect_name(devs[i].device_name, k == 1 ? "Virtio RNG" : NULL);
		expect_name(devs[i].class_name, k == 0 ? "PCI bridge" : NULL);
		pa_device_clear(&devs[i]);
	}
	free(devs);
}

/* More distinct IDs than the table has slots: answers stay right. */
static void names_many_ids(void **state)
{
	struct pa_device *devs = calloc(512, sizeof(*devs));

	(void)state;
	assert_non_null(devs);
	memset(calls, 0, sizeof(calls));
	for (size_t i = 0; i < 512; i++)
		devs[i] = (struct pa_device){ .vendor = 0x1af4,
					      .device = (uint16_t)(0x1000 + i % 128),
					      .class = i % 2 ? 0x060400 : 0x020000 };
	pa_names_fill(devs, 512, true);
	assert_true(calls[1] >= 128);
	for (size_t i = 0; i < 512; i++) {
		expect_name(devs[i].vendor_name, "Red Hat, Inc.");
		expect_name(devs[i].device_name,
			    devs[i].device == 0x1044 ? "Virtio RNG" : NULL);
		expect_name(devs[i].class_name, i % 2 ? "PCI bridge" : NULL);
		pa_device_clear(&devs[i]);
	}
	free(devs);
}

/* pa_bdf_format as "%04x:%02x:%02x.%x", past ffff (VMD) too. */
static void bdf_format_as_snprintf(void **state)
{
	static const uint32_t domains[] = { 0, 1, 0xabc, 0xffff, 0x10000,
					    0x12345, 0xfffffff, 0xffffffff };
	char got[PA_BDF_LEN], want[32];

	(void)state;
	for (size_t d = 0; d < sizeof(domains) / sizeof(domains[0]); d++) {
		for (unsigned int bus = 0; bus < 256; bus += 17) {
			for (unsigned int devfn = 0; devfn < 256; devfn++) {
				struct pa_addr a = { domains[d], (uint8_t)bus,
						     (uint8_t)devfn };

				pa_bdf_format(&a, got);
				snprintf(want, sizeof(want), "%04x:%02x:%02x.%x",
					 a.domain, a.bus, a.devfn >> 3, a.devfn & 7);
				assert_string_equal(got, want);
			}
		}
	}
}

/* pa_json_path and pa_json_element's paths as snprintf, cut alike. */
static void json_paths_as_snprintf(void **state)
{
	static const size_t index[] = { 0, 7, 10, 99, 1000, 123456789 };
	char path[200], key[120], got[PA_JSON_PATH_LEN], want[400], why[200];
	struct pa_json_in in = { "t", why, sizeof(why) };
	json_object *array = json_object_new_array(), *out;

	(void)state;
	for (size_t i = 0; i <= 123; i++)
		json_object_array_add(array, json_object_new_int((int)i));
	for (size_t pl = 0; pl < sizeof(path) - 1; pl += 13) {
		memset(path, 'p', pl);
		path[pl] = '\0';
		for (size_t kl = 0; kl < sizeof(key) - 1; kl += 11) {
			memset(key, 'k', kl);
			key[kl] = '\0';
			pa_json_path(got, path, key);
			snprintf(want, sizeof(want), "%s%s%s", path, *path ? "." : "", key);
			want[PA_JSON_PATH_LEN - 1] = '\0';
			assert_string_equal(got, want);
		}
		for (size_t i = 0; i < sizeof(index) / sizeof(index[0]); i++) {
			assert_int_equal(pa_json_element(&in, array, index[i] % 124,
							 path, json_type_int, &out, got), 0);
			snprintf(want, sizeof(want), "%s[%zu]", path, index[i] % 124);
			want[PA_JSON_PATH_LEN - 1] = '\0';
			assert_string_equal(got, want);
		}
	}
	json_object_put(array);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(find_unsorted_then_sorted),
		cmocka_unit_test(pairs_grow),
		cmocka_unit_test(names_once_per_id),
		cmocka_unit_test(names_many_ids),
		cmocka_unit_test(bdf_format_as_snprintf),
		cmocka_unit_test(json_paths_as_snprintf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
