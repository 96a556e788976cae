// SPDX-License-Identifier: GPL-2.0
/*
 * Direction-aware ACS against expectations worked out by hand from the
 * PCIe Base Specification 6.0, §6.12 (Access Control Services):
 *  - P2P Request Redirect (R, bit 2) and P2P Egress Control (E, bit 5)
 *    act on requests entering at a root or switch downstream port
 *    (§6.12.1.1, §6.12.1.2): the requester's side of the path;
 *  - P2P Completion Redirect (C, bit 3) acts on read completions entering
 *    at such a port: the completer's side;
 *  - Direct Translated P2P (T, bit 6) routes translated requests directly
 *    despite R and E (§6.12.3); only a requester with ATS on sends them.
 * config_acs strings are MSB first: T E U C R B V (bit 6 to bit 0), as in
 * the kernel's Documentation/admin-guide/kernel-parameters.txt.
 *
 * The machine: GPU 03:00.0 below downstream port 02:00.0, NIC 04:00.0
 * below 02:01.0, both below upstream port 01:00.0 of a switch.
 */
#include <string.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "testutil.h"
#include "acs_direction.h"
#include "check.h"

/* The values the rdma_topo strings give where unchanged bits are 0. */
#define ACS_XX110X1 (PCI_ACS_SV | PCI_ACS_CR | PCI_ACS_UF)	/* NIC's port */
#define ACS_XX101X1 (PCI_ACS_SV | PCI_ACS_RR | PCI_ACS_UF)	/* GPU's port */
#define ACS_1X111X1 (PCI_ACS_SV | PCI_ACS_RR | PCI_ACS_CR | PCI_ACS_UF | \
		     PCI_ACS_DT)
#define ACS_KERNEL  (PCI_ACS_SV | PCI_ACS_RR | PCI_ACS_CR | PCI_ACS_UF)

static const struct pa_addr gpu = { 0, 3, 0 }, nic = { 0, 4, 0 };
static const struct pa_addr gpu_dsp = { 0, 2, 0 }, nic_dsp = { 0, 2, 0x08 };

static void machine(struct pa_report *rep, uint16_t gpu_port,
		    uint16_t nic_port, bool gpu_ats)
{
	const uint32_t x16 = TEST_LINK(4, 16);

	*rep = (struct pa_report){ 0 };
	rep->info.kernel_release = strdup("6.15.0-1-amd64");
	test_add_dev(rep, &(struct test_dev){ .bus = 0, .devfn = 0x08,
		.up_bus = -1, .class = 0x060400,
		.pcie_type = PCI_EXP_TYPE_ROOT_PORT, .lnkcap = x16,
		.lnksta = x16, .has_acs = true, .acs_ctrl = ACS_KERNEL });
	test_add_dev(rep, &(struct test_dev){ .bus = 1, .up_bus = 0,
		.up_devfn = 0x08, .class = 0x060400,
		.pcie_type = PCI_EXP_TYPE_UPSTREAM, .lnkcap = x16, .lnksta = x16 });
	test_add_dev(rep, &(struct test_dev){ .bus = 2, .up_bus = 1,
		.class = 0x060400, .pcie_type = PCI_EXP_TYPE_DOWNSTREAM,
		.lnkcap = x16, .lnksta = x16, .has_acs = true,
		.acs_ctrl = gpu_port });
	test_add_dev(rep, &(struct test_dev){ .bus = 2, .devfn = 0x08,
		.up_bus = 1, .class = 0x060400,
		.pcie_type = PCI_EXP_TYPE_DOWNSTREAM, .lnkcap = x16,
		.lnksta = x16, .has_acs = true, .acs_ctrl = nic_port });
	test_add_dev(rep, &(struct test_dev){ .bus = 3, .up_bus = 2,
		.class = 0x030200, .pcie_type = PCI_EXP_TYPE_ENDPOINT,
		.lnkcap = x16, .lnksta = x16 });
	test_add_dev(rep, &(struct test_dev){ .bus = 4, .up_bus = 2,
		.up_devfn = 0x08, .class = 0x020000,
		.pcie_type = PCI_EXP_TYPE_ENDPOINT, .lnkcap = x16,
		.lnksta = x16 });
	pa_report_sort(rep);
	/* The module's facts: the GPU's ATS as asked, the NIC without. */
	for (size_t i = 0; i < rep->ndevices; i++) {
		struct pa_device *d = &rep->devices[i];

		d->caps_known = true;
		d->has_expdev = true;
		if (pa_addr_eq(&d->addr, &gpu) && gpu_ats) {
			d->has_ats = true;
			d->ats_ctrl = 0x8000;
		}
	}
	test_add_pair(rep, gpu, nic, PCIEAUDIT_P2P_MAP_THRU_HOST_BRIDGE,
		      PCIEAUDIT_P2P_PATH_ACS_REDIRECT, PCIEAUDIT_P2P_HOST_CPU);
}

/* The direction from requester to completer of the pair (gpu, nic). */
static void direction(const struct pa_report *rep, bool from_nic,
		      struct pa_acs_direction *d)
{
	assert_int_equal(pa_acs_direction(rep, &rep->p2p.pairs[0], from_nic, d), 0);
	assert_true(pa_addr_eq(&d->requester, from_nic ? &nic : &gpu));
}

static void expect_fate(const struct pa_tlp_fate *t, enum pa_tristate r,
			const struct pa_addr *port, uint16_t bits)
{
	assert_int_equal(t->redirected, r);
	if (r == PA_YES) {
		assert_true(pa_addr_eq(&t->port, port));
		assert_int_equal(t->bits, bits);
	}
}

/* rdma_topo bare metal: the NIC's DMA into the GPU goes across the switch;
 * the GPU's own requests towards the NIC are redirected at its port. */
static void asymmetric(void **state)
{
	struct pa_acs_direction d;
	struct pa_report rep;

	(void)state;
	machine(&rep, ACS_XX101X1, ACS_XX110X1, false);
	direction(&rep, true, &d);		/* NIC -> GPU */
	expect_fate(&d.tlp[PA_TLP_REQUEST], PA_NO, NULL, 0);
	expect_fate(&d.tlp[PA_TLP_COMPLETION], PA_NO, NULL, 0);
	assert_int_equal(d.peer_to_peer, PA_YES);
	assert_false(d.by_translation);
	pa_acs_direction_clear(&d);
	direction(&rep, false, &d);		/* GPU -> NIC */
	expect_fate(&d.tlp[PA_TLP_REQUEST], PA_YES, &gpu_dsp, PCI_ACS_RR);
	expect_fate(&d.tlp[PA_TLP_COMPLETION], PA_YES, &nic_dsp, PCI_ACS_CR);
	assert_int_equal(d.peer_to_peer, PA_NO);
	pa_acs_direction_clear(&d);
	pa_report_clear(&rep);
}

/* The same strings swapped: the other direction passes. */
static void asymmetric_swapped(void **state)
{
	struct pa_acs_direction d;
	struct pa_report rep;

	(void)state;
	machine(&rep, ACS_XX110X1, ACS_XX101X1, false);
	direction(&rep, true, &d);
	assert_int_equal(d.peer_to_peer, PA_NO);
	expect_fate(&d.tlp[PA_TLP_REQUEST], PA_YES, &nic_dsp, PCI_ACS_RR);
	pa_acs_direction_clear(&d);
	direction(&rep, false, &d);
	assert_int_equal(d.peer_to_peer, PA_YES);
	pa_acs_direction_clear(&d);
	pa_report_clear(&rep);
}

/* rdma_topo in VMs, "1x111x1" on both ports: translated requests of a
 * requester with ATS on go across; untranslated ones, and any from a
 * requester without ATS, are redirected; completions are redirected. */
static void direct_translated(void **state)
{
	struct pa_acs_direction d;
	struct pa_report rep;

	(void)state;
	machine(&rep, ACS_1X111X1, ACS_1X111X1, true);
	direction(&rep, false, &d);		/* GPU (ATS on) -> NIC */
	expect_fate(&d.tlp[PA_TLP_REQUEST], PA_YES, &gpu_dsp, PCI_ACS_RR);
	expect_fate(&d.tlp[PA_TLP_TRANSLATED], PA_NO, NULL, 0);
	expect_fate(&d.tlp[PA_TLP_COMPLETION], PA_YES, &nic_dsp, PCI_ACS_CR);
	assert_int_equal(d.requester_ats, PA_YES);
	assert_int_equal(d.peer_to_peer, PA_YES);
	assert_true(d.by_translation);
	pa_acs_direction_clear(&d);
	direction(&rep, true, &d);		/* NIC (no ATS) -> GPU */
	expect_fate(&d.tlp[PA_TLP_TRANSLATED], PA_NO, NULL, 0);
	assert_int_equal(d.requester_ats, PA_NO);
	assert_int_equal(d.peer_to_peer, PA_NO);
	pa_acs_direction_clear(&d);
	pa_report_clear(&rep);
}

/* Egress Control alone: blocked or redirected, the vector is not read. */
static void egress_control(void **state)
{
	struct pa_acs_direction d;
	struct pa_report rep;

	(void)state;
	machine(&rep, 0, PCI_ACS_EC, false);
	direction(&rep, true, &d);
	expect_fate(&d.tlp[PA_TLP_REQUEST], PA_YES, &nic_dsp, PCI_ACS_EC);
	assert_int_equal(d.peer_to_peer, PA_NO);
	pa_acs_direction_clear(&d);
	direction(&rep, false, &d);
	assert_int_equal(d.peer_to_peer, PA_YES);
	pa_acs_direction_clear(&d);
	pa_report_clear(&rep);
}

/* A port whose registers read all ones: unknown, never peer to peer. */
static void unknown_port(void **state)
{
	struct pa_acs_direction d;
	struct pa_report rep;

	(void)state;
	machine(&rep, 0, 0, false);
	for (size_t i = 0; i < rep.ndevices; i++)
		if (pa_addr_eq(&rep.devices[i].addr, &nic_dsp))
			rep.devices[i].config_unreadable = true;
	direction(&rep, true, &d);
	assert_int_equal(d.tlp[PA_TLP_REQUEST].redirected, PA_UNKNOWN);
	assert_int_equal(d.peer_to_peer, PA_UNKNOWN);
	pa_acs_direction_clear(&d);
	pa_report_clear(&rep);
}

static void intent_bits(void **state)
{
	char b[8];

	(void)state;
	pa_acs_intent_bits(PA_ACS_INTENT_BARE_METAL, true, false, 0, b);
	assert_string_equal(b, "xx110x1");
	pa_acs_intent_bits(PA_ACS_INTENT_BARE_METAL, false, true, 0, b);
	assert_string_equal(b, "xx101x1");
	pa_acs_intent_bits(PA_ACS_INTENT_BARE_METAL, true, true, 0, b);
	assert_string_equal(b, "xx100x1");
	pa_acs_intent_bits(PA_ACS_INTENT_BARE_METAL, true, false, PCI_ACS_EC, b);
	assert_string_equal(b, "x0110x1");
	pa_acs_intent_bits(PA_ACS_INTENT_VM_ATS, true, true, 0, b);
	assert_string_equal(b, "1x111x1");
}

static const struct pa_finding *only(const struct pa_check *c,
				     enum pa_rule_id rule)
{
	const struct pa_finding *found = NULL;

	for (size_t i = 0; i < c->nfindings; i++)
		if (c->findings[i].rule == rule) {
			assert_null(found);
			found = &c->findings[i];
		}
	return found;
}

static void run(struct pa_report *rep, struct pa_check *c)
{
	struct pa_policy pol;

	pa_policy_default(&pol);
	for (int p = 0; p < PA_NPROFILES; p++)
		pol.profiles[p] = p == PA_PROFILE_GPUDIRECT;
	assert_int_equal(test_check_run(rep, &pol, c), 0);
}

/* The kernel's default on both ports: the NIC's DMA into the GPU fails;
 * the remedy is rdma_topo's pair of strings. */
static void check_kernel_default(void **state)
{
	const struct pa_finding *f;
	struct pa_report rep;
	struct pa_check c;

	(void)state;
	machine(&rep, ACS_KERNEL, ACS_KERNEL, false);
	run(&rep, &c);
	f = only(&c, PA_GD_ACS_REDIRECT);
	assert_non_null(f);
	assert_int_equal(f->severity, PA_SEV_FAIL);
	assert_string_equal(f->remedy,
			    "pci=config_acs=xx101x1@0000:02:00.0;xx110x1@0000:02:01.0");
	assert_non_null(strstr(f->message, "NIC 0000:04:00.0 -> GPU 0000:03:00.0: through the root complex"));
	assert_non_null(strstr(f->message, "The kernel's P2PDMA verdict, its rule for in-kernel P2PDMA users, maps it through the host bridge"));
	assert_null(only(&c, PA_GD_ACS_P2PDMA));
	pa_check_clear(&c);
	pa_report_clear(&rep);
}

/* rdma_topo's setting: no failure; the kernel's own rule, which sees
 * redirect on the path, is reported beside it as info. */
static void check_asymmetric_passes(void **state)
{
	const struct pa_finding *f;
	struct pa_report rep;
	struct pa_check c;

	(void)state;
	machine(&rep, ACS_XX101X1, ACS_XX110X1, false);
	run(&rep, &c);
	assert_null(only(&c, PA_GD_ACS_REDIRECT));
	f = only(&c, PA_GD_ACS_P2PDMA);
	assert_non_null(f);
	assert_int_equal(f->severity, PA_SEV_INFO);
	assert_non_null(strstr(f->message, "NIC 0000:04:00.0 -> GPU 0000:03:00.0: peer to peer"));
	pa_check_clear(&c);
	pa_report_clear(&rep);
	/* Swapped, the NIC's requests are redirected at its port. */
	machine(&rep, ACS_XX110X1, ACS_XX101X1, false);
	run(&rep, &c);
	assert_non_null(only(&c, PA_GD_ACS_REDIRECT));
	pa_check_clear(&c);
	pa_report_clear(&rep);
}

/* Before 6.11 there is no config_acs: the remedy falls back. */
static void check_old_kernel(void **state)
{
	const struct pa_finding *f;
	struct pa_report rep;
	struct pa_check c;

	(void)state;
	machine(&rep, ACS_KERNEL, ACS_KERNEL, false);
	free(rep.info.kernel_release);
	rep.info.kernel_release = strdup("6.1.0-27-amd64");
	run(&rep, &c);
	f = only(&c, PA_GD_ACS_REDIRECT);
	assert_non_null(f);
	assert_string_equal(f->remedy, "pci=disable_acs_redir=0000:02:00.0;0000:02:01.0");
	assert_non_null(strstr(f->message, "pci=config_acs=xx101x1@0000:02:00.0;xx110x1@0000:02:01.0"));
	pa_check_clear(&c);
	pa_report_clear(&rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(asymmetric),
		cmocka_unit_test(asymmetric_swapped),
		cmocka_unit_test(direct_translated),
		cmocka_unit_test(egress_control),
		cmocka_unit_test(unknown_port),
		cmocka_unit_test(intent_bits),
		cmocka_unit_test(check_kernel_default),
		cmocka_unit_test(check_asymmetric_passes),
		cmocka_unit_test(check_old_kernel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
