// SPDX-License-Identifier: GPL-2.0
/* JSON output: render the fixture, parse it back with json-c, check the
 * schema's names, types and values. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include <linux/pcieaudit.h>

#include "json_out.h"

static int render_report(FILE *f, const void *rep)
{
	return pa_json_report(f, rep);
}

static int render_info(FILE *f, const void *info)
{
	return pa_json_info(f, info);
}

struct doc {
	char *text;
	json_object *root;
};

static int setup(void **state)
{
	struct doc *doc = calloc(1, sizeof(*doc));
	struct pa_report rep;
	int ret;

	assert_non_null(doc);
	test_fixture_report(&rep);
	doc->text = test_render(render_report, &rep, &ret);
	pa_report_clear(&rep);
	assert_int_equal(ret, 0);
	doc->root = json_tokener_parse(doc->text);
	assert_non_null(doc->root);
	*state = doc;
	return 0;
}

static int teardown(void **state)
{
	struct doc *doc = *state;

	json_object_put(doc->root);
	free(doc->text);
	free(doc);
	return 0;
}

/* The member at key, which must exist (possibly as JSON null). */
static json_object *get(json_object *obj, const char *key)
{
	json_object *value = NULL;

	if (!json_object_object_get_ex(obj, key, &value))
		fail_msg("missing key \"%s\"", key);
	return value;
}

static void check_null(json_object *obj, const char *key)
{
	if (get(obj, key) != NULL)
		fail_msg("\"%s\" should be null", key);
}

static void check_int(json_object *obj, const char *key, int64_t want)
{
	json_object *v = get(obj, key);

	assert_true(json_object_is_type(v, json_type_int));
	assert_int_equal(json_object_get_int64(v), want);
}

static void check_double(json_object *obj, const char *key, double want)
{
	json_object *v = get(obj, key);

	assert_true(json_object_is_type(v, json_type_double));
	assert_true(json_object_get_double(v) == want);
}

static void check_string(json_object *obj, const char *key, const char *want)
{
	json_object *v = get(obj, key);

	assert_true(json_object_is_type(v, json_type_string));
	assert_string_equal(json_object_get_string(v), want);
}

static void check_bool(json_object *obj, const char *key, bool want)
{
	json_object *v = get(obj, key);

	assert_true(json_object_is_type(v, json_type_boolean));
	assert_int_equal(json_object_get_boolean(v), want);
}

/* The keys of obj, in order, must be exactly keys. */
static void check_keys(json_object *obj, const char *const *keys, size_t n)
{
	size_t i = 0;

	json_object_object_foreach(obj, key, value) {
		(void)value;
		assert_true(i < n);
		assert_string_equal(key, keys[i]);
		i++;
	}
	assert_int_equal(i, n);
}

static json_object *device(void **state, size_t i)
{
	struct doc *doc = *state;
	json_object *devices = get(doc->root, "devices");

	assert_true(i < json_object_array_length(devices));
	return json_object_array_get_idx(devices, i);
}

static void top_level(void **state)
{
	static const char *const keys[] = {
		"schema_version", "info", "devices", "groups", "p2p", "host",
	};
	struct doc *doc = *state;

	check_keys(doc->root, keys, 6);
	/* The fixture did not ask for P2P answers or host facts. */
	check_null(doc->root, "p2p");
	check_null(doc->root, "host");
	check_int(doc->root, "schema_version", 1);
	assert_int_equal(json_object_array_length(get(doc->root, "devices")), 4);
}

static void info(void **state)
{
	static const char *const keys[] = {
		"module_version", "kernel_release", "p2p_rules", "features",
		"iommu_default_mode", "iommu_strict", "device_count", "group_count",
	};
	static const char *const feature_keys[] = {
		"p2pdma", "iommu_api", "iommu_present", "pci_iov", "pci_ats",
	};
	struct doc *doc = *state;
	json_object *in = get(doc->root, "info");
	json_object *features = get(in, "features");

	check_keys(in, keys, 8);
	check_string(in, "module_version", "0.1.0");
	check_string(in, "kernel_release", "6.1.0-test");
	check_string(in, "p2p_rules", "Linux 6.1");
	check_keys(features, feature_keys, 5);
	check_bool(features, "p2pdma", true);
	check_bool(features, "iommu_present", true);
	check_bool(features, "pci_iov", false);
	check_string(in, "iommu_default_mode", "translated");
	check_string(in, "iommu_strict", "lazy");
	check_int(in, "device_count", 4);
	check_int(in, "group_count", 2);
}

static void device_keys(void **state)
{
	static const char *const keys[] = {
		"bdf", "domain", "bus", "devfn", "vendor", "device",
		"subsystem_vendor", "subsystem_device", "class", "revision",
		"vendor_name", "device_name", "pcie_type", "multifunction",
		"virtfn", "physfn", "bridge", "disconnected", "pf",
		"secondary_bus", "upstream", "root_bus", "numa_node", "driver",
		"driver_known", "power_state", "config_readable", "config_captured",
		"extended_config_read", "capabilities_hidden", "acs", "link", "iommu",
		"ats", "pcie_device", "bars", "passthrough", "mem_bytes",
		"aer", "link_history",
	};

	for (size_t i = 0; i < 4; i++)
		check_keys(device(state, i), keys, sizeof(keys) / sizeof(keys[0]));
}

/* The PF's registers as the fixture sets them, decoded by hand. */
static void device_caps(void **state)
{
	json_object *d = device(state, 2);
	json_object *ats = get(d, "ats"), *pd = get(d, "pcie_device");
	json_object *bars = get(d, "bars"), *bar1, *rebar, *sup;

	check_bool(ats, "capable", true);
	check_bool(ats, "enabled", true);
	check_int(pd, "mps", 256);
	check_int(pd, "mps_supported", 512);
	check_int(pd, "mrrs", 512);
	check_bool(pd, "relaxed_ordering", true);
	assert_int_equal(json_object_array_length(bars), 2);
	check_int(json_object_array_get_idx(bars, 0), "size", 16 << 20);
	bar1 = json_object_array_get_idx(bars, 1);
	check_int(bar1, "index", 1);
	check_bool(bar1, "prefetchable", true);
	check_bool(bar1, "assigned", true);
	rebar = get(bar1, "resizable");
	check_int(rebar, "current", 256 << 20);
	sup = get(rebar, "supported");
	/* Capability bits 6-17: 4M ... 8G, largest first. */
	assert_int_equal(json_object_array_length(sup), 12);
	assert_true(json_object_get_int64(json_object_array_get_idx(sup, 0)) ==
		    (int64_t)8 << 30);
	assert_true(json_object_get_int64(json_object_array_get_idx(sup, 11)) ==
		    (int64_t)4 << 20);
	assert_true(json_object_is_type(get(d, "mem_bytes"), json_type_null));
	/* The VF: no facts from the module, so unknown rather than none. */
	d = device(state, 3);
	assert_true(json_object_is_type(get(d, "ats"), json_type_null));
	assert_true(json_object_is_type(get(d, "bars"), json_type_null));
}

static void sorted_by_address(void **state)
{
	static const char *const bdfs[] = {
		"0000:00:00.0", "0000:00:01.0", "0000:01:00.0", "0000:01:00.2",
	};

	for (size_t i = 0; i < 4; i++)
		check_string(device(state, i), "bdf", bdfs[i]);
}

static void root_port(void **state)
{
	json_object *d = device(state, 1);
	json_object *acs = get(d, "acs");
	json_object *link = get(d, "link");

	check_int(d, "domain", 0);
	check_int(d, "bus", 0);
	check_int(d, "devfn", 8);
	check_int(d, "vendor", 0x8086);
	check_int(d, "subsystem_vendor", 0x17aa);
	check_int(d, "subsystem_device", 0x2233);
	check_int(d, "class", 0x060400);
	check_int(d, "revision", 7);
	check_string(d, "vendor_name", "Intel Corporation");
	check_string(d, "pcie_type", "root_port");
	check_bool(d, "bridge", true);
	check_bool(d, "multifunction", false);
	check_int(d, "secondary_bus", 1);
	check_null(d, "upstream");
	check_null(d, "pf");
	check_int(d, "numa_node", 0);
	check_string(d, "driver", "pcieport");

	assert_true(json_object_is_type(acs, json_type_object));
	check_int(acs, "pos", 0x220);
	check_int(acs, "cap", 0x5f);
	check_int(acs, "ctrl", 0x1d);
	check_bool(get(acs, "cap_flags"), "EgressCtrl", false);
	check_bool(get(acs, "cap_flags"), "DirectTrans", true);
	check_bool(get(acs, "ctrl_flags"), "SrcValid", true);
	check_bool(get(acs, "ctrl_flags"), "TransBlk", false);
	check_bool(get(acs, "ctrl_flags"), "UpstreamFwd", true);
	/* A module before ACS tracking, as the fixture's. */
	check_null(acs, "ctrl_at_load");

	check_double(link, "speed", 16);
	check_double(link, "max_speed", 16);
	check_double(link, "target_speed", 16);
	check_int(link, "width", 16);
	check_bool(link, "downgraded", false);
	check_int(link, "lnkcap", 0x4 | 16 << 4);
	check_int(link, "lnkctl2", 0x4);
}

static void compact_is_pretty(void **state)
{
	struct pa_report rep;

	(void)state;
	test_fixture_report(&rep);
	rep.has_host = true;
	rep.host = (struct pa_host){
		.source = PA_SOURCE_MODULE, .cmdline = strdup("ro \"quiet\" x=\\ y"),
		.numa_nodes = 2, .cpu_vendor = NULL, .cpu_family = -1,
	};
	test_json_compact_is_pretty(&rep);
	/* Strings json-c escapes, written by json-c in the stream too. */
	free(rep.devices[0].driver);
	rep.devices[0].driver = strdup("a\"b\\c\x01/d");
	free(rep.devices[1].vendor_name);
	rep.devices[1].vendor_name = strdup("Vendor / \u00e9");
	test_json_compact_is_pretty(&rep);
	rep.has_p2p = false;
	test_json_compact_is_pretty(&rep);
	pa_report_clear(&rep);
	memset(&rep, 0, sizeof(rep));
	test_json_compact_is_pretty(&rep);
}

/* Host facts and the ACS control at load, which check needs. */
static void host_and_acs_at_load(void **state)
{
	struct pa_report rep;
	json_object *root, *host;
	char *text;
	int ret;

	(void)state;
	test_fixture_report(&rep);
	rep.devices[1].acs.has_ctrl_at_load = true;
	rep.devices[1].acs.ctrl_at_load = 0x1f;
	rep.has_host = true;
	rep.host = (struct pa_host){
		.source = PA_SOURCE_MODULE, .cmdline = strdup("ro quiet"),
		.numa_nodes = 2, .cpu_vendor = NULL, .cpu_family = -1,
	};
	text = test_render(render_report, &rep, &ret);
	pa_report_clear(&rep);
	assert_int_equal(ret, 0);
	root = json_tokener_parse(text);
	assert_non_null(root);
	check_int(get(json_object_array_get_idx(get(root, "devices"), 1), "acs"),
		  "ctrl_at_load", 0x1f);
	host = get(root, "host");
	check_string(host, "source", "module");
	check_string(host, "cmdline", "ro quiet");
	check_int(host, "numa_nodes", 2);
	check_null(host, "cpu_vendor");
	check_null(host, "cpu_family");
	json_object_put(root);
	free(text);
}

static void acs_flag_keys(void **state)
{
	static const char *const keys[] = {
		"SrcValid", "TransBlk", "ReqRedir", "CmpltRedir", "UpstreamFwd",
		"EgressCtrl", "DirectTrans",
	};
	json_object *acs = get(device(state, 1), "acs");

	check_keys(get(acs, "cap_flags"), keys, 7);
	check_keys(get(acs, "ctrl_flags"), keys, 7);
}

static void endpoint(void **state)
{
	json_object *d = device(state, 2);
	json_object *link = get(d, "link");
	json_object *iommu = get(d, "iommu");

	check_null(d, "acs");
	check_string(d, "upstream", "0000:00:01.0");
	check_null(d, "secondary_bus");
	/* -1 is unknown: null, as the schema says. */
	check_null(d, "numa_node");
	check_bool(d, "physfn", true);
	check_bool(d, "multifunction", true);
	check_string(d, "pcie_type", "endpoint");

	check_double(link, "speed", 2.5);
	check_double(link, "max_speed", 8);
	check_null(link, "target_speed");
	check_int(link, "width", 8);
	check_int(link, "max_width", 16);
	check_bool(link, "downgraded", true);
	check_null(link, "lnkctl2");

	check_int(iommu, "group", 1);
	check_string(iommu, "domain", "unmanaged");
	check_string(iommu, "default_domain", "DMA-FQ");
	check_string(iommu, "default_domain_source", "derived");
	check_null(iommu, "instance");
	check_null(iommu, "dma_owner");
}

static void virtual_function(void **state)
{
	json_object *d = device(state, 3);

	check_bool(d, "virtfn", true);
	check_string(d, "pf", "0000:01:00.0");
	check_null(d, "vendor_name");
	check_null(d, "device_name");
	check_null(d, "driver");
	check_null(d, "acs");
	check_null(d, "link");
	check_null(d, "iommu");
}

static void conventional_pci(void **state)
{
	json_object *d = device(state, 0);

	check_null(d, "pcie_type");
	check_null(d, "link");
	check_string(get(d, "iommu"), "instance", "dmar0");
	check_string(get(d, "iommu"), "default_domain_source", "kernel");
	check_string(get(d, "iommu"), "dma_owner", "unclaimed");
}

static void groups(void **state)
{
	struct doc *doc = *state;
	json_object *groups = get(doc->root, "groups");
	json_object *g;

	assert_int_equal(json_object_array_length(groups), 2);
	g = json_object_array_get_idx(groups, 0);
	check_int(g, "id", 0);
	check_int(g, "other_members", 0);
	g = json_object_array_get_idx(groups, 1);
	check_int(g, "id", 1);
	check_int(g, "other_members", 1);
	assert_int_equal(json_object_array_length(get(g, "devices")), 2);
	assert_string_equal(json_object_get_string(
		json_object_array_get_idx(get(g, "devices"), 0)), "0000:00:01.0");
	assert_string_equal(json_object_get_string(
		json_object_array_get_idx(get(g, "devices"), 1)), "0000:01:00.0");
}

/* The documented serialization: speeds always with a fraction. */
static void speed_text(void **state)
{
	struct doc *doc = *state;

	assert_non_null(strstr(doc->text, "\"speed\":2.5,"));
	assert_non_null(strstr(doc->text, "\"speed\":16.0,"));
	assert_non_null(strstr(doc->text, "\"max_speed\":8.0,"));
}

/* Compact by default, as iproute2: one line, no blanks outside strings;
 * --pretty indents the same document. */
static void layout(void **state)
{
	struct doc *doc = *state;
	struct pa_report rep;
	json_object *back;
	char *pretty;
	int ret;

	(void)state;
	assert_non_null(strchr(doc->text, '\n'));
	assert_ptr_equal(strchr(doc->text, '\n'), doc->text + strlen(doc->text) - 1);
	assert_null(strstr(doc->text, "\": "));
	assert_null(strstr(doc->text, ", "));
	test_fixture_report(&rep);
	pa_json_set_pretty(true);
	pretty = test_render(render_report, &rep, &ret);
	pa_json_set_pretty(false);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(pretty, "\n  \"info\": {\n"));
	assert_non_null(strstr(pretty, "\"speed\": 2.5,"));
	back = json_tokener_parse(pretty);
	assert_non_null(back);
	assert_true(json_object_equal(back, doc->root));
	json_object_put(back);
	free(pretty);
	pa_report_clear(&rep);
}

static void info_document(void **state)
{
	static const char *const keys[] = { "schema_version", "info" };
	struct pa_info in = { .features = 0, .iommu_def_mode = 0 };
	json_object *root;
	char *text;
	int ret;

	(void)state;
	text = test_render(render_info, &in, &ret);
	assert_int_equal(ret, 0);
	root = json_tokener_parse(text);
	assert_non_null(root);
	check_keys(root, keys, 2);
	check_null(get(root, "info"), "iommu_default_mode");
	check_null(get(root, "info"), "iommu_strict");
	check_null(get(root, "info"), "module_version");
	json_object_put(root);
	free(text);
}

/* A known state by name; unknown (D3cold) is null with config_readable
 * false, and then acs and link are null too: unknown, not "none". */
static void power_states(void **state)
{
	struct pa_report rep;
	json_object *root, *devs;
	char *text;
	int ret;

	(void)state;
	test_fixture_report(&rep);
	rep.devices[1].power_state = PCIEAUDIT_POWER_D0;
	rep.devices[2].power_state = PCIEAUDIT_POWER_D3HOT;
	rep.devices[3].power_state = PCIEAUDIT_POWER_UNKNOWN;
	rep.devices[3].config_unreadable = true;
	rep.devices[3].has_acs = rep.devices[3].has_link = false;
	text = test_render(render_report, &rep, &ret);
	pa_report_clear(&rep);
	assert_int_equal(ret, 0);
	root = json_tokener_parse(text);
	assert_non_null(root);
	devs = get(root, "devices");
	check_null(json_object_array_get_idx(devs, 0), "power_state");
	check_bool(json_object_array_get_idx(devs, 0), "config_readable", true);
	check_string(json_object_array_get_idx(devs, 1), "power_state", "D0");
	check_string(json_object_array_get_idx(devs, 2), "power_state", "D3hot");
	check_bool(json_object_array_get_idx(devs, 2), "config_readable", true);
	check_null(json_object_array_get_idx(devs, 3), "power_state");
	check_bool(json_object_array_get_idx(devs, 3), "config_readable", false);
	check_null(json_object_array_get_idx(devs, 3), "acs");
	check_null(json_object_array_get_idx(devs, 3), "link");
	json_object_put(root);
	free(text);
}

static void empty_report(void **state)
{
	struct pa_report rep = { 0 };
	json_object *root;
	char *text;
	int ret;

	(void)state;
	text = test_render(render_report, &rep, &ret);
	assert_int_equal(ret, 0);
	root = json_tokener_parse(text);
	assert_non_null(root);
	assert_true(json_object_is_type(get(root, "devices"), json_type_array));
	assert_int_equal(json_object_array_length(get(root, "devices")), 0);
	assert_int_equal(json_object_array_length(get(root, "groups")), 0);
	json_object_put(root);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(top_level, setup, teardown),
		cmocka_unit_test_setup_teardown(info, setup, teardown),
		cmocka_unit_test_setup_teardown(device_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(device_caps, setup, teardown),
		cmocka_unit_test_setup_teardown(sorted_by_address, setup, teardown),
		cmocka_unit_test_setup_teardown(root_port, setup, teardown),
		cmocka_unit_test_setup_teardown(acs_flag_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(endpoint, setup, teardown),
		cmocka_unit_test_setup_teardown(virtual_function, setup, teardown),
		cmocka_unit_test_setup_teardown(conventional_pci, setup, teardown),
		cmocka_unit_test_setup_teardown(groups, setup, teardown),
		cmocka_unit_test_setup_teardown(speed_text, setup, teardown),
		cmocka_unit_test_setup_teardown(layout, setup, teardown),
		cmocka_unit_test(info_document),
		cmocka_unit_test(host_and_acs_at_load),
		cmocka_unit_test(empty_report),
		cmocka_unit_test(compact_is_pretty),
		cmocka_unit_test(power_states),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
