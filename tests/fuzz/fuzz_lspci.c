// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the input is what --lspci reads, text someone pasted:
 * lspci -xxxx output, quoted, indented, cut short, mixed with anything,
 * or gzipped (a seed is an nvidia-bug-report.log.gz-like file).
 * It goes the whole way main.c's --lspci takes: the pre-processing, a
 * file for libpci's dump reader, the tree from bus numbers, held against
 * lspci -t's drawing when there is one, and the text and JSON reports.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_out.h"
#include "lspci_model.h"
#include "lspci_read.h"
#include "lspci_text.h"
#include "text_out.h"

static FILE *out;
/* libpci reads dumps from files: each input goes through this one. */
static char path[] = "/tmp/fuzz-lspci-XXXXXX";

static void remove_file(void)
{
	unlink(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd = mkstemp(path);

	(void)argc;
	(void)argv;
	out = fopen("/dev/null", "w");
	if (fd < 0 || !out)
		return -1;
	close(fd);
	atexit(remove_file);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pa_lspci_extra extra;
	struct pa_lspci_text t;
	struct pa_report rep;
	struct pa_sysfs s;
	char what[512];
	FILE *f;

	/* The pre-processing alone, on the bytes as given. */
	if (!pa_lspci_normalise((const char *)data, size, &t))
		pa_lspci_text_clear(&t);
	f = fopen(path, "w");
	if (!f)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
	if (pa_lspci_read(path, &s, &extra, what, sizeof(what)))
		return 0;
	if (!pa_lspci_tree_fill(&extra.tree, &s) &&
	    !pa_lspci_model(&s, &rep, what, sizeof(what))) {
		/* lspci -t's drawing, if any, against the bus numbers. */
		pa_lspci_tree_check(&extra.tree, &rep);
		pa_text_report(out, &rep);
		pa_json_report(out, &rep);
		pa_report_clear(&rep);
	}
	pa_sysfs_clear(&s);
	pa_lspci_tree_clear(&extra.tree);
	pa_nvsmi_clear(&extra.gpus);
	pa_warnings_clear(&extra.warnings);
	free(extra.cmdline);
	free(extra.kernel_release);
	return 0;
}
