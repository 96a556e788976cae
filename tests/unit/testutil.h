/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the unit tests: message builders, fixtures, capture. */
#ifndef PA_TESTUTIL_H
#define PA_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <netlink/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/genl/genl.h>

#include "check.h"
#include "model.h"
#include "policy.h"

/* The fixtures the tests read, relative to tests/unit, where they run
 * (tests/fixtures/README.md lists every kind). */
#define SNAPSHOTS "../fixtures/snapshots"
#define FABRIC_FIXTURES "../fixtures/fabric"

/* The H200 VM guest, beside the checkout in ../shared/fixtures: a fresh
 * clone lacks it. */
#ifndef FIXTURES
#define FIXTURES "../../../shared/fixtures"
#endif
#define TEST_H200_GUEST FIXTURES "/h200-vm-guest"

/* Whether the guest fixture is there; says SKIPPED when not (loud, never
 * a silent pass). The caller then calls skip(). */
bool test_have_guest(void);

/* The family id the fake kernel answers with. */
#define TEST_FAMILY_ID 0x20

/* A pcieaudit genl message with no attributes yet. */
struct nl_msg *test_genl_msg(uint8_t cmd, uint32_t seq, int flags);

/* Appends a nest of PCIEAUDIT_A_ADDR_*. */
void test_put_addr(struct nl_msg *msg, int type, uint32_t domain, uint8_t bus,
		   uint8_t devfn);

/* Reads the snapshot file of SNAPSHOTS into *rep; fails the test if it
 * does not parse. */
void test_load_snapshot(const char *file, struct pa_report *rep);

/* Little-endian stores into configuration space bytes. */
void test_put16(uint8_t *cfg, unsigned int pos, uint16_t v);
void test_put32(uint8_t *cfg, unsigned int pos, uint32_t v);

/* A small host: host bridge, root port, endpoint PF below it and one of its
 * VFs; two IOMMU groups. Strings are heap-allocated like the real ones. */
void test_fixture_report(struct pa_report *rep);

/*
 * What a command does with a loaded report: the pairs the policy's
 * gpudirect profile judges are inferred where rep lacks them (as
 * pa_load_report() does), then check runs over it, read-only.
 */
int test_check_run(struct pa_report *rep, const struct pa_policy *pol,
		   struct pa_check *c);

/* Link register values: speed encoding (1 = 2.5GT/s ... 4 = 16GT/s) and
 * width, as LnkCap and LnkSta hold them. */
#define TEST_LINK(speed, width) ((uint32_t)(speed) | (uint32_t)(width) << 4)

/* A function of a synthetic topology; up_bus < 0 for one on a root bus.
 * lnkcap 0 means no link registers. */
struct test_dev {
	uint32_t domain;
	uint8_t bus, devfn;
	int up_bus;
	uint8_t up_devfn;
	uint32_t class;
	int pcie_type;		/* PCI_EXP_TYPE_*, -1 conventional */
	int numa;
	uint32_t lnkcap;
	uint16_t lnksta;
	bool has_acs;
	uint16_t acs_ctrl;
	uint32_t flags;		/* besides BRIDGE, which pcie_type implies */
};

/* Appends the function; the upstream shares its domain. Its vendor is
 * 10de (NVIDIA: a matrix's GPUn) for display classes, else 1234. */
void test_add_dev(struct pa_report *rep, const struct test_dev *spec);

/*
 * Appends to rep->p2p the pair a -> b as the module would send it: the
 * nearest common upstream bridge and the hops below it on each side (each
 * list starts with the endpoint itself), or, without one, the hops up to
 * the root bus; path_length counts them all. The kernel answered with the
 * same distance, -1 when map is PCIEAUDIT_P2P_MAP_NOT_SUPPORTED. The
 * redirect list is left empty. rep->p2p is sorted again afterwards.
 */
void test_add_pair(struct pa_report *rep, struct pa_addr a, struct pa_addr b,
		   uint32_t map, uint32_t path, uint32_t host_rule);

/*
 * Fails unless text is want, naming the first line that differs (cmocka
 * cuts long strings short). With PA_SNAPSHOT_DIR set, the actual text is
 * also written to $PA_SNAPSHOT_DIR/<name>.txt, to review and adopt.
 */
void test_snapshot(const char *text, const char *want, const char *name);

/* Runs fn(arg) with f open on memory and returns what it wrote (free it). */
char *test_render(int (*fn)(FILE *f, const void *arg), const void *arg,
		  int *ret);
/* JSON text without the whitespace outside its strings (a newline is
 * kept at none): --pretty's output made comparable with the compact one. */
char *test_json_unspaced(const char *text);
/* The compact report is streamed (json_out.c), --pretty's is one tree:
 * asserts they are the same document, byte for byte but the spacing. */
void test_json_compact_is_pretty(const struct pa_report *rep);

#endif /* PA_TESTUTIL_H */
