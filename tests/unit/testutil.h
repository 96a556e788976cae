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

#include "model.h"

/* The family id the fake kernel answers with. */
#define TEST_FAMILY_ID 0x20

/* A pcieaudit genl message with no attributes yet. */
struct nl_msg *test_genl_msg(uint8_t cmd, uint32_t seq, int flags);

/* Appends a nest of PCIEAUDIT_A_ADDR_*. */
void test_put_addr(struct nl_msg *msg, int type, uint32_t domain, uint8_t bus,
		   uint8_t devfn);

/* A small host: host bridge, root port, endpoint PF below it and one of its
 * VFs; two IOMMU groups. Strings are heap-allocated like the real ones. */
void test_fixture_report(struct pa_report *rep);

/* Runs fn(arg) with f open on memory and returns what it wrote (free it). */
char *test_render(int (*fn)(FILE *f, const void *arg), const void *arg,
		  int *ret);

#endif /* PA_TESTUTIL_H */
