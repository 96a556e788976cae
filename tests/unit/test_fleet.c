// SPDX-License-Identifier: GPL-2.0
/*
 * Fleet outputs: the node_exporter textfile (checked by promtool), the NFD
 * features.d file, and their atomic replacement.
 */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "check.h"
#include "check_out.h"
#include "fileio.h"
#include "snapshot.h"

/* The check keeps pointers to its report and policy. */
struct run {
	struct pa_report rep;
	struct pa_policy pol;
	struct pa_check c;
};

static void check_file(const char *file, struct run *r)
{
	char path[128], err[512];
	size_t len;
	char *text;

	snprintf(path, sizeof(path), SNAPSHOTS "/%s", file);
	assert_int_equal(pa_read_file(path, 1 << 20, &text, &len), 0);
	if (pa_snapshot_parse(file, text, len, &r->rep, err, sizeof(err)))
		fail_msg("%s", err);
	free(text);
	pa_policy_default(&r->pol);
	assert_int_equal(pa_check_run(&r->rep, &r->pol, &r->c), 0);
}

static void release(struct run *r)
{
	pa_check_clear(&r->c);
	pa_report_clear(&r->rep);
}

static int render_prometheus(FILE *f, const void *arg)
{
	const struct run *r = arg;

	return pa_check_prometheus(f, &r->rep, &r->c);
}

static int render_nfd(FILE *f, const void *arg)
{
	const struct run *r = arg;

	return pa_check_nfd(f, &r->rep, &r->c);
}

static void contains(const char *text, const char *part)
{
	if (!strstr(text, part))
		fail_msg("output lacks \"%s\":\n%s", part, text);
}

static void prometheus_lines(void **state)
{
	struct run r;
	char *text;
	int ret;

	(void)state;
	check_file("gpudirect-fail.json", &r);
	text = test_render(render_prometheus, &r, &ret);
	assert_int_equal(ret, 0);
	contains(text, "# HELP pcieaudit_check_status ");
	contains(text, "# TYPE pcieaudit_check_status gauge\npcieaudit_check_status 2\n");
	contains(text, "pcieaudit_profile_status{profile=\"gpudirect\"} 2\n");
	contains(text, "pcieaudit_profile_status{profile=\"vfio\"} 0\n");
	contains(text, "pcieaudit_profile_status{profile=\"baseline\"} 1\n");
	contains(text, "pcieaudit_check_findings{profile=\"gpudirect\",severity=\"fail\"} 1\n");
	contains(text, "pcieaudit_check_findings{profile=\"gpudirect\",severity=\"warn\"} 6\n");
	contains(text, "pcieaudit_check_findings{profile=\"vfio\",severity=\"info\"} 0\n");
	contains(text, "pcieaudit_rule_status{id=\"gpudirect.acs-redirect\",profile=\"gpudirect\"} 2\n");
	contains(text, "pcieaudit_finding{id=\"gpudirect.acs-redirect\",profile=\"gpudirect\",severity=\"fail\",devices=\"0000:03:00.0,0000:04:00.0,0000:02:00.0,0000:02:01.0\"} 1\n");
	contains(text, "pcieaudit_link_downgraded{bdf=\"0000:04:00.0\"} 1\n");
	contains(text, "pcieaudit_link_downgraded{bdf=\"0000:03:00.0\"} 0\n");
	/* The port above a link does not speak for it. */
	assert_null(strstr(text, "pcieaudit_link_downgraded{bdf=\"0000:02:01.0\"}"));
	free(text);
	release(&r);
}

/* A collector refuses a file with a series twice. */
static void prometheus_no_duplicate_series(void **state)
{
	struct run r;
	char *text, *first;
	int ret;

	(void)state;
	check_file("baseline-pass.json", &r);
	pa_check_add(&r.c, PA_BL_PCI_NOACS, 0, NULL, 0, (struct pa_remedy){ 0 }, "a");
	pa_check_add(&r.c, PA_BL_PCI_NOACS, 0, NULL, 0, (struct pa_remedy){ 0 }, "b");
	text = test_render(render_prometheus, &r, &ret);
	first = strstr(text, "pcieaudit_finding{id=\"baseline.pci-noacs\"");
	assert_non_null(first);
	assert_null(strstr(first + 1, "pcieaudit_finding{id=\"baseline.pci-noacs\""));
	free(text);
	release(&r);
}

/* promtool from Debian's prometheus package; make check installs it. */
static void promtool_accepts(void **state)
{
	static const char *const files[] = {
		"gpudirect-fail.json", "vfio-fail.json", "vfio-pass.json",
		"baseline-intel-fail.json",
	};
	char path[] = "/tmp/pa-prom-XXXXXX", cmd[128];

	(void)state;
	if (system("command -v promtool >/dev/null 2>&1")) {
		print_message("SKIPPED: promtool is not installed (Debian package prometheus; make check installs it)\n");
		skip();
	}
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct run r;
		char *text;
		int fd, ret;

		check_file(files[i], &r);
		text = test_render(render_prometheus, &r, &ret);
		fd = mkstemp(path);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
		close(fd);
		snprintf(cmd, sizeof(cmd), "promtool check metrics < %s", path);
		ret = system(cmd);
		unlink(path);
		strcpy(path, "/tmp/pa-prom-XXXXXX");
		if (!WIFEXITED(ret) || WEXITSTATUS(ret))
			fail_msg("promtool rejects the output for %s:\n%s", files[i], text);
		free(text);
		release(&r);
	}
}

static void nfd_labels(void **state)
{
	struct run r;
	char *text;
	int ret;

	(void)state;
	check_file("vfio-fail.json", &r);
	text = test_render(render_nfd, &r, &ret);
	assert_int_equal(ret, 0);
	assert_string_equal(text,
		"# Written by pcieaudit-cli check; replaced on each run.\n"
		"pcieaudit.gpudirect=fail\n"
		"pcieaudit.vfio=fail\n"
		"pcieaudit.baseline=pass\n"
		"pcieaudit.status=fail\n"
		"pcieaudit.iommu-mode=translated\n");
	free(text);
	release(&r);

	check_file("baseline-intel-fail.json", &r);
	text = test_render(render_nfd, &r, &ret);
	contains(text, "pcieaudit.iommu-mode=off\n");
	free(text);
	release(&r);
}

/* ---- Atomic replacement -------------------------------------------------- */

static char dir[64];

static size_t entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static char *slurp(const char *path)
{
	size_t len;
	char *text;

	assert_int_equal(pa_read_file(path, 1 << 20, &text, &len), 0);
	return text;
}

static void atomic_write(void **state)
{
	char path[128], sub[128];
	struct stat before, after;
	char *text;

	(void)state;
	strcpy(dir, "/tmp/pa-nfd-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/pcieaudit", dir);

	assert_int_equal(pa_write_atomic(path, "a=1\n", 4), 0);
	text = slurp(path);
	assert_string_equal(text, "a=1\n");
	free(text);
	assert_int_equal(stat(path, &before), 0);
	assert_int_equal(before.st_mode & 0777, 0644);

	/* Replaced by a rename: a new inode, the old one never rewritten. */
	assert_int_equal(pa_write_atomic(path, "a=2\nb=3\n", 8), 0);
	assert_int_equal(stat(path, &after), 0);
	assert_true(after.st_ino != before.st_ino);
	text = slurp(path);
	assert_string_equal(text, "a=2\nb=3\n");
	free(text);
	/* No temporary file is left behind. */
	assert_int_equal(entries(), 1);

	/* Failures leave the old file and nothing else. */
	snprintf(sub, sizeof(sub), "%s/missing/file", dir);
	assert_int_equal(pa_write_atomic(sub, "x", 1), -ENOENT);
	snprintf(sub, sizeof(sub), "%s/adir", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_true(pa_write_atomic(sub, "x", 1) < 0);
	assert_int_equal(entries(), 2);
	text = slurp(path);
	assert_string_equal(text, "a=2\nb=3\n");
	free(text);

	/* A name without a directory lands in the current one. */
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(pa_write_atomic("here", "h", 1), 0);
	assert_int_equal(entries(), 3);
	assert_int_equal(chdir("/"), 0);
	snprintf(sub, sizeof(sub), "rm -rf '%s'", dir);
	assert_int_equal(system(sub), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(prometheus_lines),
		cmocka_unit_test(prometheus_no_duplicate_series),
		cmocka_unit_test(promtool_accepts),
		cmocka_unit_test(nfd_labels),
		cmocka_unit_test(atomic_write),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
