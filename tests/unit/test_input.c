// SPDX-License-Identifier: GPL-2.0
/*
 * Incomplete and odd input to --sysfs, as real captures come (issue 16,
 * findings 1-5): 64-byte config is refused, 256 bytes leave ACS unknown
 * and acs-redirect INFO rather than PASS, all ones is no device, a
 * trailing '/' or a missing bridge changes no tree silently, and the host
 * bridge comes from the pciDDDD:BB path. Each builds a fixture directory
 * (devices/<bdf>/config and sysfs_path) as a converter would.
 */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "bdf.h"
#include "check.h"
#include "policy.h"
#include "sysfs_model.h"
#include "sysread.h"
#include "text_out.h"
#include "topo.h"

static char root[64];

static void put16(uint8_t *c, unsigned int pos, uint16_t v)
{
	c[pos] = v & 0xff;
	c[pos + 1] = v >> 8;
}

/* A PCIe function of type type: a bridge (header 1) or an endpoint, with
 * an x16 Gen4 link and, at 0x100, ACS with every redirect off. */
static void pcie_config(uint8_t *c, uint16_t vendor, uint16_t device,
			uint32_t class, int type)
{
	bool bridge = type == PCI_EXP_TYPE_ROOT_PORT ||
		      type == PCI_EXP_TYPE_UPSTREAM ||
		      type == PCI_EXP_TYPE_DOWNSTREAM;

	memset(c, 0, 4096);
	put16(c, PCI_VENDOR_ID, vendor);
	put16(c, PCI_DEVICE_ID, device);
	put16(c, PCI_CLASS_DEVICE, (uint16_t)(class >> 8));
	c[PCI_CLASS_PROG] = class & 0xff;
	c[PCI_HEADER_TYPE] = bridge ? PCI_HEADER_TYPE_BRIDGE : 0;
	put16(c, PCI_STATUS, PCI_STATUS_CAP_LIST);
	c[PCI_CAPABILITY_LIST] = 0x60;
	c[0x60] = PCI_CAP_ID_EXP;
	put16(c, 0x60 + PCI_EXP_FLAGS, (uint16_t)(2 | type << 4));
	put16(c, 0x60 + PCI_EXP_LNKCAP, TEST_LINK(4, 16));
	put16(c, 0x60 + PCI_EXP_LNKSTA, TEST_LINK(4, 16));
	if (bridge) {
		/* ACS with SrcValid, ReqRedir, CmpltRedir, UpstreamFwd. */
		put16(c, 0x100, PCI_EXT_CAP_ID_ACS);
		put16(c, 0x102, 1);
		put16(c, 0x100 + PCI_ACS_CAP, 0x1d);
	}
}

static void make_root(void)
{
	char path[128];

	strcpy(root, "/tmp/pa-input-XXXXXX");
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/devices", root);
	assert_int_equal(mkdir(path, 0755), 0);
}

static void remove_root(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static void put_file(const char *bdf, const char *name, const void *data,
		     size_t len)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/devices/%s", root, bdf);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/devices/%s/%s", root, bdf, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

/* One function: its config, len bytes of it, and its sysfs path. */
static void put_dev(const char *bdf, const uint8_t *config, size_t len,
		    const char *sysfs_path)
{
	put_file(bdf, "config", config, len);
	put_file(bdf, "sysfs_path", sysfs_path, strlen(sysfs_path));
}

static int load(struct pa_report *rep)
{
	char what[512];
	struct pa_sysfs s;
	int err = pa_sysfs_read(root, &s, what, sizeof(what));

	if (err)
		return err;
	err = pa_sysfs_model(&s, rep);
	pa_sysfs_clear(&s);
	return err;
}

static const struct pa_device *find(const struct pa_report *rep,
				    const char *bdf)
{
	struct pa_addr a;

	assert_int_equal(pa_bdf_parse(bdf, &a), 0);
	return pa_report_find(rep, &a);
}

/* The text report, for what a user reads. */
static char *report_text(const struct pa_report *rep)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(pa_text_report(f, rep), 0);
	fclose(f);
	return buf;
}

static bool warned(const struct pa_report *rep, const char *bdf,
		   const char *what)
{
	for (size_t i = 0; i < rep->warnings.n; i++)
		if (strstr(rep->warnings.text[i], bdf) &&
		    strstr(rep->warnings.text[i], what))
			return true;
	return false;
}

#define P0 "pci0000:00"
#define RP P0 "/0000:00:01.0"
#define USP RP "/0000:01:00.0"
#define DSP1 USP "/0000:02:00.0"
#define DSP2 USP "/0000:02:01.0"

/* Finding 1: hwloc-style copies made without root hold 64 bytes. */
static void config_64_refused(void **state)
{
	struct pa_report rep;
	char what[512];
	struct pa_sysfs s;
	uint8_t c[4096];

	(void)state;
	make_root();
	pcie_config(c, 0x10b5, 0x9797, 0x060400, PCI_EXP_TYPE_UPSTREAM);
	put_dev("0000:01:00.0", c, 64, USP);
	assert_int_equal(pa_sysfs_read(root, &s, what, sizeof(what)), -ENODATA);
	assert_non_null(strstr(what, "0000:01:00.0/config"));
	assert_int_equal(load(&rep), -ENODATA);
	remove_root();
}

/* A PEX switch with two GPUs, every function in count bytes. */
static void put_switch(size_t count)
{
	uint8_t c[4096];

	pcie_config(c, 0x8086, 0x347a, 0x060400, PCI_EXP_TYPE_ROOT_PORT);
	put_dev("0000:00:01.0", c, count, RP);
	pcie_config(c, 0x10b5, 0x8747, 0x060400, PCI_EXP_TYPE_UPSTREAM);
	put_dev("0000:01:00.0", c, count, USP);
	pcie_config(c, 0x10b5, 0x8747, 0x060400, PCI_EXP_TYPE_DOWNSTREAM);
	put_dev("0000:02:00.0", c, count, DSP1);
	put_dev("0000:02:01.0", c, count, DSP2);
	pcie_config(c, 0x10de, 0x20b5, 0x030200, PCI_EXP_TYPE_ENDPOINT);
	put_dev("0000:03:00.0", c, count, DSP1 "/0000:03:00.0");
	put_dev("0000:04:00.0", c, count, DSP2 "/0000:04:00.0");
}

static enum pa_severity acs_redirect_verdict(struct pa_report *rep,
					     enum pa_rule_state *state)
{
	struct pa_policy pol;
	struct pa_check c;
	enum pa_severity worst;

	pa_policy_default(&pol);
	for (int p = 0; p < PA_NPROFILES; p++)
		pol.profiles[p] = p == PA_PROFILE_GPUDIRECT;
	assert_int_equal(test_check_run(rep, &pol, &c), 0);
	worst = pa_check_rule_worst(&c, PA_GD_ACS_REDIRECT);
	*state = c.state[PA_GD_ACS_REDIRECT];
	pa_check_clear(&c);
	pa_policy_clear(&pol);
	return worst;
}

/* Finding 2: lspci -xxx holds no extended space, where ACS lives. */
static void config_256_acs_unknown(void **state)
{
	struct pa_report rep;
	enum pa_rule_state st;
	char *text;

	(void)state;
	make_root();
	put_switch(256);
	assert_int_equal(load(&rep), 0);
	text = report_text(&rep);
	assert_null(strstr(text, "ACS: none"));
	assert_non_null(strstr(text, "ACS: unknown: no extended configuration space"));
	free(text);
	assert_true(warned(&rep, "0000:02:00.0", "ACS is unknown"));
	/* Never PASS: whether the ports redirect is not known. */
	assert_int_equal(acs_redirect_verdict(&rep, &st), PA_SEV_INFO);
	assert_int_equal(st, PA_RULE_RAN);
	pa_report_clear(&rep);
	remove_root();
}

/* The same machine in full: ACS is read, and no port redirects. */
static void config_4096_acs_known(void **state)
{
	struct pa_report rep;
	enum pa_rule_state st;
	char *text;

	(void)state;
	make_root();
	put_switch(4096);
	assert_int_equal(load(&rep), 0);
	assert_int_equal(rep.warnings.n, 0);
	assert_true(find(&rep, "0000:02:00.0")->has_acs);
	text = report_text(&rep);
	assert_null(strstr(text, "ACS: unknown"));
	free(text);
	assert_int_equal(acs_redirect_verdict(&rep, &st), 0);
	assert_int_equal(st, PA_RULE_RAN);
	pa_report_clear(&rep);
	remove_root();
}

/* Finding 3: a function in D3cold reads all ones: no device type. */
static void config_all_ones(void **state)
{
	const struct pa_device *d;
	struct pa_report rep;
	uint8_t c[4096];
	char *text;

	(void)state;
	make_root();
	memset(c, 0xff, sizeof(c));
	put_dev("0000:00:02.0", c, sizeof(c), P0 "/0000:00:02.0");
	put_file("0000:00:02.0", "vendor", "0x10de\n", 7);
	assert_int_equal(load(&rep), 0);
	d = find(&rep, "0000:00:02.0");
	assert_non_null(d);
	assert_true(d->config_unreadable);
	assert_false(d->flags & PCIEAUDIT_DEV_F_MULTIFUNCTION);
	assert_int_equal(d->vendor, 0x10de);
	text = report_text(&rep);
	assert_null(strstr(text, "PCI Device"));
	assert_null(strstr(text, "ACS: none"));
	assert_null(strstr(text, "Link: none"));
	free(text);
	assert_true(warned(&rep, "0000:00:02.0", "all ones"));
	pa_report_clear(&rep);
	remove_root();
}

/* Finding 4: "cp -r" and converters leave a trailing '/'. */
static void trailing_slash(void **state)
{
	const struct pa_device *d;
	struct pa_report rep;
	char up[PA_BDF_LEN];
	uint8_t c[4096];

	(void)state;
	make_root();
	pcie_config(c, 0x8086, 0x347a, 0x060400, PCI_EXP_TYPE_ROOT_PORT);
	put_dev("0000:00:01.0", c, sizeof(c), RP "/");
	pcie_config(c, 0x10de, 0x20b5, 0x030200, PCI_EXP_TYPE_ENDPOINT);
	put_dev("0000:01:00.0", c, sizeof(c), RP "/0000:01:00.0/");
	assert_int_equal(load(&rep), 0);
	d = find(&rep, "0000:01:00.0");
	assert_true(d->has_upstream);
	pa_bdf_format(&d->upstream, up);
	assert_string_equal(up, "0000:00:01.0");
	assert_false(find(&rep, "0000:00:01.0")->has_upstream);
	assert_true(warned(&rep, "0000:01:00.0", "ends in '/'"));
	pa_report_clear(&rep);
	remove_root();
}

/* Finding 5: bridges missing from the input are named, and two GPUs
 * below one host bridge stay PHB, not SYS. */
static void missing_bridges(void **state)
{
	struct pa_p2p_pair pair = { 0 };
	struct pa_report rep;
	uint8_t c[4096];

	(void)state;
	make_root();
	pcie_config(c, 0x10de, 0x20b5, 0x030200, PCI_EXP_TYPE_ENDPOINT);
	put_dev("0000:03:00.0", c, sizeof(c), DSP1 "/0000:03:00.0");
	pcie_config(c, 0x10de, 0x20b5, 0x030200, PCI_EXP_TYPE_ENDPOINT);
	put_dev("0000:41:00.0", c, sizeof(c),
		"pci0000:00/0000:00:03.0/0000:41:00.0");
	assert_int_equal(load(&rep), 0);
	assert_true(warned(&rep, "0000:03:00.0", "0000:02:00.0 is not in the input"));
	assert_true(warned(&rep, "0000:41:00.0", "0000:00:03.0 is not in the input"));
	assert_int_equal(pa_bdf_parse("0000:03:00.0", &pair.provider), 0);
	assert_int_equal(pa_bdf_parse("0000:41:00.0", &pair.client), 0);
	assert_int_equal(pa_legend_of(&rep, &pair), PA_LEGEND_PHB);
	pa_report_clear(&rep);
	remove_root();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(config_64_refused),
		cmocka_unit_test(config_256_acs_unknown),
		cmocka_unit_test(config_4096_acs_known),
		cmocka_unit_test(config_all_ones),
		cmocka_unit_test(trailing_slash),
		cmocka_unit_test(missing_bridges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
