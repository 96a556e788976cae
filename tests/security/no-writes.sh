#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# no-writes.sh [--selftest] [MODULE.ko...]
#
# pcieaudit.ko must never write to hardware. Everything it calls outside
# itself is an undefined symbol of the .ko (nm -u), so a configuration
# space write, an MMIO mapping (needed before any writel()/iowrite*()) or
# a call that changes a device's state shows there by name; port I/O and
# MSR writes are instructions, found in the disassembly. Either fails.
# Default module: ./pcieaudit.ko, and each test-kernel build in
# tests/vm/out/kmod-*/. --selftest shows that planted symbols and
# instructions are caught and the module's real list is not.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)

# Anything that writes configuration space, maps MMIO, or changes a device,
# its driver binding or an IOMMU domain.
DENY='^(pci_write_config_|pci_bus_write_config_|pci_user_write_config_|pci_generic_config_write|pci_write_vpd|pci_cfg_access_|pcie_capability_(write|set|clear)|pcie_capability_clear_and_set|pci_(enable|disable)_|pcim_|pci_set_|pci_clear_|pci_intx|pci_reset_|__pci_reset_|pcie_reset_|pcie_flr|pci_restore_|pci_load_|pci_try_reset|pcie_set_|pci_sriov_|pci_iomap|pci_ioremap|pci_iounmap|iowrite|__iowrite|ioread.*_rep$|writel|writeq|writew|writeb|__raw_write|memset_io|memcpy_toio|ioremap|devm_ioremap|memremap|of_iomap|outb|outw|outl|pci_stop_and_remove|pci_remove_|pci_rescan_|pci_scan_|device_release_driver|device_attach|device_reprobe|driver_attach|iommu_attach_|iommu_detach_|iommu_map|iommu_unmap|iommu_group_claim|iommu_device_claim|pci_p2pdma_add_resource|pci_alloc_p2pmem|pci_p2pmem_publish|pci_free_irq|pci_alloc_irq|pci_request_|pci_release_)'
# Instructions that write ports or MSRs (objdump -d mnemonics).
INSNS='	(rep )?(out|outs[bwl]?|wrmsr|wrmsrns)( |$)'

fail=0

# check_symbols NAME: undefined symbols on stdin, one per line.
check_symbols() {
	local bad
	bad=$(grep -E "$DENY" | sed 's/^/  /' || true)
	if [[ -n $bad ]]; then
		printf 'no-writes: %s calls what writes to hardware:\n%s\n' "$1" "$bad"
		return 1
	fi
}

# check_insns NAME: objdump -d output on stdin.
check_insns() {
	local bad
	bad=$(grep -E "$INSNS" || true)
	if [[ -n $bad ]]; then
		printf 'no-writes: %s writes ports or MSRs itself:\n' "$1"
		head -n 5 <<<"$bad" | sed 's/^/  /'
		return 1
	fi
}

check_ko() {
	local ko=$1 syms n
	[[ -f $ko ]] || { echo "no-writes: $ko missing (make module)"; return 1; }
	syms=$(nm -u "$ko" | awk '{ print $2 }')
	n=$(wc -l <<<"$syms")
	check_symbols "$ko" <<<"$syms" || return 1
	objdump -d "$ko" | check_insns "$ko" || return 1
	echo "no-writes: ${ko#"$top"/}: $n undefined symbols, none writes to hardware; no port or MSR writes"
}

selftest() {
	local ko=$top/pcieaudit.ko syms s
	[[ -f $ko ]] || { echo "no-writes: $ko missing (make module)"; exit 1; }
	syms=$(nm -u "$ko" | awk '{ print $2 }')
	check_symbols real >/dev/null <<<"$syms" || { echo "no-writes selftest: FAIL: the real list is rejected"; exit 1; }
	for s in pci_write_config_word pci_bus_write_config_dword pci_user_write_config_byte \
		pcie_capability_write_word pcie_capability_clear_and_set_word pcie_capability_set_word \
		pci_enable_device pci_set_master pci_reset_function pci_iomap ioremap iowrite32 \
		__iowrite32_copy writel devm_ioremap_resource pci_enable_acs iommu_attach_device; do
		if printf '%s\n%s\n' "$syms" "$s" | check_symbols "planted $s" >/dev/null; then
			echo "no-writes selftest: FAIL: planted $s was not caught"
			exit 1
		fi
	done
	for s in $'  1c:\tee                   \tout    %al,(%dx)' \
		$'  2e:\t0f 30                \twrmsr' $'  30:\tf3 6e                \trep outsb %ds:(%rsi),(%dx)'; do
		if printf '%s\n' "$s" | check_insns planted >/dev/null; then
			echo "no-writes selftest: FAIL: planted instruction '$s' was not caught"
			exit 1
		fi
	done
	echo "no-writes selftest: the module's real list passes; 18 planted symbols and 3 instructions caught"
}

if [[ ${1:-} == --selftest ]]; then
	selftest
	exit 0
fi
if [[ $# -eq 0 ]]; then
	set -- "$top/pcieaudit.ko"
	for ko in "$top"/tests/vm/out/kmod-*/pcieaudit.ko; do
		[[ -f $ko ]] && set -- "$@" "$ko"
	done
fi
for ko in "$@"; do
	check_ko "$ko" || fail=1
done
exit "$fail"
