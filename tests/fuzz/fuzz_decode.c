// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the input is what one recvmsg() on the pcieaudit
 * socket returned. It is cut into messages as libnl's nl_recvmsgs() cuts
 * it (nlmsg_ok/nlmsg_next), and each message is copied with nlmsg_convert()
 * into an nl_msg of exactly its own length, as libnl does, so that ASan
 * sees any read past it. Every message then goes to every reply decoder
 * (the command byte is not trusted by the CLI either: fetch.c picks the
 * decoder by request), to the NLMSG_DONE and extended-ack readers nl.c
 * calls, and what decodes is collected into a report the way fetch.c
 * does, printed the way report and p2p print it, and checked the way
 * check checks it. Unlike a snapshot, nothing checks a module's report
 * for consistency (duplicate functions, upstream cycles, groups that do
 * not list their devices) before the rules see it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/msg.h>

#include "check.h"
#include "check_out.h"
#include "decode.h"
#include "json_out.h"
#include "model.h"
#include "p2p_text.h"
#include "text_out.h"

static FILE *out;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* Output is only run for its reads; /dev/null keeps it cheap. */
	out = fopen("/dev/null", "w");
	return out ? 0 : -1;
}

/* fetch.c's on_info, on_device, on_group and on_p2p, in one. */
static void decode_one(struct nl_msg *msg, struct pa_report *rep)
{
	struct pa_info info;
	struct pa_device dev;
	struct pa_group group;
	struct pa_p2p p2p;
	char kernel_msg[256];

	if (!pa_decode_info(msg, &info)) {
		pa_info_clear(&rep->info);
		rep->info = info;
	}
	if (!pa_decode_device(msg, &dev) && pa_report_add_device(rep, &dev))
		pa_device_clear(&dev);
	if (!pa_decode_group(msg, &group) && pa_report_add_group(rep, &group))
		pa_group_clear(&group);
	if (!pa_decode_p2p(msg, &p2p)) {
		if (p2p.has_kernel_distance) {
			rep->p2p.has_kernel_distance = true;
			rep->p2p.kernel_distance = p2p.kernel_distance;
		}
		pa_p2p_take(&rep->p2p, &p2p);
		pa_p2p_clear(&p2p);
		rep->has_p2p = true;
	}
	/* nl.c's on_finish and on_error; both ignore the type themselves. */
	(void)pa_decode_done_error(nlmsg_hdr(msg));
	pa_decode_extack(nlmsg_hdr(msg), kernel_msg, sizeof(kernel_msg));
}

/* check as cmd_check runs it; host facts come from /proc and /sys, not the
 * module, so they are a fixed host's. */
static void check(struct pa_report *rep)
{
	struct pa_policy pol;
	struct pa_check c;

	rep->has_host = true;
	rep->host = (struct pa_host){
		.source = PA_SOURCE_MODULE,
		.cmdline = strdup("BOOT_IMAGE=/vmlinuz intel_iommu=on iommu=pt"),
		.numa_nodes = 2, .cpu_vendor = strdup("GenuineIntel"),
		.cpu_family = 6, .hypervisor = 0, .iommu_table = strdup("DMAR"),
	};
	pa_policy_default(&pol);
	if (!pa_check_infer_pairs(rep, &pol) &&
	    !pa_check_run(rep, &pol, &c)) {
		pa_check_text(out, rep, &c, "the module", false);
		pa_check_prometheus(out, rep, &c);
	}
	pa_check_clear(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* libFuzzer's buffer is a heap block of its own: aligned for the
	 * header, and ASan guards its end. */
	struct nlmsghdr *nlh = (struct nlmsghdr *)(uintptr_t)data;
	int rem = size > 1 << 20 ? 1 << 20 : (int)size;
	struct pa_report rep = { 0 };

	for (; nlmsg_ok(nlh, rem); nlh = nlmsg_next(nlh, &rem)) {
		struct nl_msg *msg = nlmsg_convert(nlh);

		if (!msg)
			continue;
		decode_one(msg, &rep);
		nlmsg_free(msg);
	}
	/* pa_fetch_report's ending, then report, report --json and p2p;
	 * fetch.c fails every command whose info request failed. */
	pa_report_sort(&rep);
	pa_p2p_sort(&rep.p2p);
	if (rep.info.module_version) {
		pa_text_report(out, &rep);
		pa_json_report(out, &rep);
	}
	if (rep.info.module_version && rep.p2p.npairs) {
		pa_text_p2p(out, &rep, &rep.p2p.pairs[0]);
		pa_json_p2p(out, &rep);
	}
	if (rep.info.module_version)
		check(&rep);
	pa_report_clear(&rep);
	return 0;
}
