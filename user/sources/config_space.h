/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A function's raw configuration space, as sysfs "config" gives it, into
 * the registers the module would report. Pure: bytes in, fields out.
 */
#ifndef PA_CONFIG_SPACE_H
#define PA_CONFIG_SPACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

struct pa_config {
	bool valid;		/* at least the 64-byte header was there */
	/* The header read all ones: D3cold or gone, not a device. */
	bool all_ones;
	/* A PCIe function given without its extended space (256 bytes or
	 * fewer): ACS and SR-IOV unknown. */
	bool no_extended;
	uint16_t vendor, device;
	uint32_t class;
	uint8_t revision;
	uint16_t subsys_vendor, subsys_device;
	bool multifunction;	/* header type bit 7 */
	bool bridge;		/* header type 1 or 2: has a subordinate bus */
	bool has_secondary_bus;
	uint8_t secondary_bus;
	int pcie_type;		/* PCI_EXP_TYPE_*, -1 without a PCIe capability */
	bool has_link;
	struct pa_link link;
	bool has_acs;
	struct pa_acs acs;
	bool sriov;		/* has an SR-IOV capability */
	/* ATS Capability and Control (extended space), as the module's
	 * PCIEAUDIT_A_ATS_* */
	bool has_ats;
	uint16_t ats_cap, ats_ctrl;
	/* Device Capabilities and Control of the PCIe capability. */
	bool has_expdev;
	uint32_t devcap;
	uint16_t devctl;
	/* The standard BARs' registers: type and place, never size (that
	 * takes the kernel's resource, or lspci -v's "[size=]"). */
	unsigned int nbar_regs;	/* 6 for a type 0 header, 2 for type 1 */
	struct pa_config_bar {
		bool upper;	/* the high half of the 64-bit BAR before */
		uint32_t flags;	/* PCIEAUDIT_BAR_F_IO, _MEM, _PREFETCH, _MEM64 */
		uint64_t address;
	} bar_regs[PA_MAX_BARS];
	/* Resizable BAR entries: capability and control by BAR index. */
	bool rebar[PA_MAX_BARS];
	uint32_t rebar_cap[PA_MAX_BARS], rebar_ctrl[PA_MAX_BARS];
	/* Device Capabilities 2 and Control 2 (capability version 2). */
	bool has_devcap2;
	uint32_t devcap2;
	uint16_t devctl2;
	/* PM: PMCSR's No_Soft_Reset; -1 without a PM capability. */
	int no_soft_reset;
	/* Advanced Features capability's FLR; -1 without the capability. */
	int af_flr;
	/* The SR-IOV capability's registers (sriov above). */
	uint16_t total_vfs, initial_vfs, num_vfs, vf_offset, vf_stride;
	/* The VF BAR registers' type and place, as bar_regs. */
	struct pa_config_bar vf_bar_regs[PA_MAX_BARS];
};

/* PMCSR's No_Soft_Reset, and the Advanced Features capability's FLR. */
int pa_config_no_soft_reset(uint16_t pmcsr);
int pa_config_af_flr(uint8_t af_cap);

/* The six VF BAR registers' bytes (little-endian, as in configuration
 * space) into their type and place. */
void pa_config_decode_vf_bars(const uint8_t regs[4 * PA_MAX_BARS],
			      struct pa_config_bar out[PA_MAX_BARS]);

/* Offset of capability id in the standard list, 0 when absent. */
unsigned int pa_config_find_cap(const uint8_t *cfg, size_t len, uint8_t id);

/*
 * Offset of extended capability id, 0 when absent. Like the kernel's
 * pci_find_next_ext_capability(), the walk follows each header's next
 * pointer, past entries whose ID is 0: hypervisors hide capabilities that
 * way but keep the chain. It stops at an all-zero or all-ones header, a
 * pointer below 0x100 or outside len, and after as many steps as headers
 * fit, so a loop in the chain ends too.
 */
unsigned int pa_config_find_ext_cap(const uint8_t *cfg, size_t len,
				    uint16_t id);

void pa_config_parse(const uint8_t *cfg, size_t len, struct pa_config *out);

/*
 * Asked to make cfg[pos, pos + n) hold the function's bytes, n > 0 and
 * pos + n <= len, before the parser reads them.
 */
typedef void pa_config_fetch_fn(void *ctx, unsigned int pos, unsigned int n);

/*
 * pa_config_parse() over a buffer of len bytes that fetch fills as the
 * parser goes: it asks for the ranges it decodes and reads nothing else,
 * so pa_config_parse() over the same buffer afterwards reads only bytes
 * fetched and gives the same answer. A fetch that fails leaves its bytes
 * as they were; the caller, which knows, then reads the whole space.
 */
void pa_config_parse_fetch(const uint8_t *cfg, size_t len,
			   pa_config_fetch_fn *fetch, void *ctx,
			   struct pa_config *out);

#endif /* PA_CONFIG_SPACE_H */
