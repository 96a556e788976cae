/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's integer types, for kmod/ files that are pure arithmetic
 * (mon_history.c) compiled in the unit tests; force-included there. */
#ifndef PA_TEST_KERNEL_TYPES_H
#define PA_TEST_KERNEL_TYPES_H

#include <stdbool.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#endif /* PA_TEST_KERNEL_TYPES_H */
