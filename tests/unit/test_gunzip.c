// SPDX-License-Identifier: GPL-2.0
/*
 * gzip input (nvidia-bug-report.log.gz, gzipped sosreport files): what
 * zlib's own writer (gzopen/gzwrite, not the reader under test) makes
 * comes back byte for byte, several members too; cut short, corrupt or
 * followed by garbage it is refused with -EBADMSG, never read in part;
 * a bomb stops at the limit; --lspci reads a .gz as the plain file.
 */
#include "testutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <sys/stat.h>
#include <linux/pci_regs.h>

#include "fileio.h"
#include "gunzip.h"
#include "lspci_read.h"

#define CORPUS	"../fixtures/lspci"

/* data as zlib's gzip writer compresses it, appended to path. */
static void gz_append(const char *path, const void *data, size_t len)
{
	gzFile g = gzopen(path, "ab9");

	assert_non_null(g);
	assert_int_equal(gzwrite(g, data, (unsigned int)len), (int)len);
	assert_int_equal(gzclose(g), Z_OK);
}

static void slurp(const char *path, char **buf, size_t *len)
{
	assert_int_equal(pa_read_file(path, 64u << 20, buf, len), 0);
}

static char tmp[] = "/tmp/pa-gz-XXXXXX";

static void fresh(void)
{
	int fd;

	strcpy(tmp, "/tmp/pa-gz-XXXXXX");
	fd = mkstemp(tmp);
	assert_true(fd >= 0);
	close(fd);
}

/* Two members: gzip -d gives both, one after the other. */
static void members(void **state)
{
	static const char a[] = "first member\n", b[] = "second member\n";
	char *gz, *out, why[128];
	size_t gzlen, outlen;

	(void)state;
	fresh();
	gz_append(tmp, a, strlen(a));
	gz_append(tmp, b, strlen(b));
	slurp(tmp, &gz, &gzlen);
	assert_true(pa_is_gzip(gz, gzlen));
	assert_int_equal(pa_gunzip(gz, gzlen, 1024, &out, &outlen, why,
				   sizeof(why)), 0);
	assert_int_equal(outlen, strlen(a) + strlen(b));
	assert_string_equal(out, "first member\nsecond member\n");
	free(out);
	free(gz);
	unlink(tmp);
}

/* Every prefix of a real capture's gzip is refused whole, never read in
 * part: a truncated nvidia-bug-report.log.gz must not look complete. */
static void every_cut(void **state)
{
	char *plain, *gz, *out, why[128];
	size_t plen, gzlen, outlen;

	(void)state;
	slurp(CORPUS "/n1sdp-pex8749-xxx.lspci", &plain, &plen);
	fresh();
	gz_append(tmp, plain, plen);
	slurp(tmp, &gz, &gzlen);
	assert_int_equal(pa_gunzip(gz, gzlen, 1u << 20, &out, &outlen, why,
				   sizeof(why)), 0);
	assert_int_equal(outlen, plen);
	assert_memory_equal(out, plain, plen);
	free(out);
	for (size_t cut = 2; cut < gzlen; cut++) {
		out = (char *)1;
		assert_int_equal(pa_gunzip(gz, cut, 1u << 20, &out, &outlen,
					   why, sizeof(why)), -EBADMSG);
		assert_null(out);
		assert_true(why[0]);
	}
	free(gz);
	free(plain);
	unlink(tmp);
}

/* A flipped byte in the deflate data or the CRC; bytes that are not gzip
 * after the end. Zero padding after the end is allowed, as gzip does. */
static void corrupt(void **state)
{
	static const char text[] = "00:00.0 Host bridge: Intel Corporation\n";
	char *gz, *out, why[128], *more;
	size_t gzlen, outlen;

	(void)state;
	fresh();
	gz_append(tmp, text, strlen(text));
	slurp(tmp, &gz, &gzlen);
	gz[gzlen - 6] ^= 0x55;		/* CRC32 */
	assert_int_equal(pa_gunzip(gz, gzlen, 1024, &out, &outlen, why,
				   sizeof(why)), -EBADMSG);
	gz[gzlen - 6] ^= 0x55;
	more = calloc(1, gzlen + 8);
	assert_non_null(more);
	memcpy(more, gz, gzlen);
	assert_int_equal(pa_gunzip(more, gzlen + 8, 1024, &out, &outlen, why,
				   sizeof(why)), 0);
	assert_string_equal(out, text);
	free(out);
	memcpy(more + gzlen, "garbage", 7);
	assert_int_equal(pa_gunzip(more, gzlen + 8, 1024, &out, &outlen, why,
				   sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "not gzip"));
	free(more);
	free(gz);
	unlink(tmp);
}

/* 64 MiB of zeros in a few tens of KiB: stopped at max, not inflated. */
static void bomb(void **state)
{
	size_t chunk = 1u << 20, gzlen, outlen;
	char *zeros = calloc(1, chunk), *gz, *out, why[128];

	(void)state;
	assert_non_null(zeros);
	fresh();
	for (int i = 0; i < 64; i++)
		gz_append(tmp, zeros, chunk);
	slurp(tmp, &gz, &gzlen);
	assert_true(gzlen < (1u << 20));
	assert_int_equal(pa_gunzip(gz, gzlen, 4u << 20, &out, &outlen, why,
				   sizeof(why)), -EFBIG);
	free(gz);
	/* Exactly max bytes is not too many; one more is. */
	fresh();
	gz_append(tmp, zeros, 4096);
	slurp(tmp, &gz, &gzlen);
	assert_int_equal(pa_gunzip(gz, gzlen, 4096, &out, &outlen, why,
				   sizeof(why)), 0);
	assert_int_equal(outlen, 4096);
	free(out);
	assert_int_equal(pa_gunzip(gz, gzlen, 4095, &out, &outlen, why,
				   sizeof(why)), -EFBIG);
	free(gz);
	free(zeros);
	unlink(tmp);
}

/* --lspci FILE.gz: the same functions and bytes as the plain file, told
 * by the magic, whatever the name. */
static void lspci_gz(void **state)
{
	struct pa_lspci_extra e1, e2;
	struct pa_sysfs plain, gz;
	char *text, what[512];
	size_t len;

	(void)state;
	slurp(CORPUS "/asus-p6t6.lspci", &text, &len);
	fresh();
	gz_append(tmp, text, len);
	free(text);
	assert_int_equal(pa_lspci_read(CORPUS "/asus-p6t6.lspci", &plain, &e1,
				       what, sizeof(what)), 0);
	assert_int_equal(pa_lspci_read(tmp, &gz, &e2, what, sizeof(what)), 0);
	assert_int_equal(gz.n, plain.n);
	assert_true(plain.n > 50);
	for (size_t i = 0; i < plain.n; i++) {
		assert_string_equal(gz.devs[i].name, plain.devs[i].name);
		assert_int_equal(gz.devs[i].config_len, plain.devs[i].config_len);
		assert_memory_equal(gz.devs[i].config, plain.devs[i].config,
				    plain.devs[i].config_len);
	}
	assert_int_equal(e2.tree.n, e1.tree.n);
	pa_sysfs_clear(&plain);
	pa_sysfs_clear(&gz);
	pa_lspci_tree_clear(&e1.tree);
	pa_lspci_tree_clear(&e2.tree);
	/* Cut short: refused, and what says so. */
	assert_int_equal(truncate(tmp, 100), 0);
	assert_int_equal(pa_lspci_read(tmp, &gz, &e2, what, sizeof(what)),
			 -EBADMSG);
	assert_non_null(strstr(what, "gzip"));
	unlink(tmp);
}

/* A sosreport copy whose proc/bus/pci files were gzipped one by one. */
static void sosreport_gz(void **state)
{
	char root[] = "/tmp/pa-sosgz-XXXXXX", path[256], what[256], cmd[300];
	uint8_t c[4096] = { 0x86, 0x80, 0x01, 0x34 };
	struct pa_lspci_extra extra;
	struct pa_sysfs s;
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/proc/bus/pci/00", root);
	assert_int_equal(system(cmd), 0);
	c[PCI_HEADER_TYPE] = PCI_HEADER_TYPE_BRIDGE;
	snprintf(path, sizeof(path), "%s/proc/bus/pci/00/01.0", root);
	gz_append(path, c, sizeof(c));
	snprintf(path, sizeof(path), "%s/proc/cmdline", root);
	gz_append(path, "ro iommu=pt\n", 12);
	assert_int_equal(pa_lspci_read(root, &s, &extra, what, sizeof(what)), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.devs[0].config_len, 4096);
	assert_memory_equal(s.devs[0].config, c, 4096);
	assert_string_equal(extra.cmdline, "ro iommu=pt");
	pa_sysfs_clear(&s);
	free(extra.cmdline);
	pa_lspci_tree_clear(&extra.tree);
	/* Its CRC and length cut off. */
	snprintf(path, sizeof(path), "%s/proc/bus/pci/00/01.0", root);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(truncate(path, st.st_size - 5), 0);
	assert_int_equal(pa_lspci_read(root, &s, &extra, what, sizeof(what)),
			 -EBADMSG);
	assert_non_null(strstr(what, "01.0"));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(members),
		cmocka_unit_test(every_cut),
		cmocka_unit_test(corrupt),
		cmocka_unit_test(bomb),
		cmocka_unit_test(lspci_gz),
		cmocka_unit_test(sosreport_gz),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
