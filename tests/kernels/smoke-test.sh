#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Smoke test of a test kernel flavour:
#
#   tests/kernels/smoke-test.sh p2pdma|debug
#
# Builds the kernel (cached), builds pcieaudit.ko (and the CLI, if its
# libraries are installed) against it in a scratch copy of the repository, so
# the repository's own build outputs stay untouched; must be warning-free.
# Then boots it under QEMU TCG (never KVM) twice, q35 + intel-iommu with
# -cpu qemu64 and q35 + amd-iommu with -cpu EPYC, and checks what the guest
# (smoke-init.sh) reports: P2PDMA present, nvme and e1000e bound, IOMMU groups,
# ttyS1, lspci -vvv (dynamic glibc binary), insmod/rmmod; for the debug flavour
# also that KASAN, lockdep, kmemleak are active and the log has no splat.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$HERE/../.." && pwd)
FLAVOUR=${1:?usage: $0 p2pdma|debug}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-180}

log() { printf '[smoke] %s\n' "$*" >&2; }
die() { printf '[smoke] ERROR: %s\n' "$*" >&2; exit 1; }

command -v busybox >/dev/null || die "busybox missing (busybox-static)"
for t in qemu-system-x86_64 cpio gzip lspci; do
	command -v "$t" >/dev/null || die "$t missing"
done

KDIR=$("$HERE/build-kernel.sh" "$FLAVOUR" | tail -n1)
KREL=$(cat "$KDIR/kernelrelease")

WORK=$(mktemp -d /tmp/pcieaudit-smoke.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# ---- module (and CLI) against the test kernel, in a scratch copy -------------

# HEAD by default: others may be midway through an edit in the work tree.
# SMOKE_WORKTREE=1 takes the work tree instead (tracked + untracked files).
mkdir "$WORK/repo"
if [[ ${SMOKE_WORKTREE:-0} == 1 ]]; then
	git -C "$REPO_ROOT" ls-files -co --exclude-standard -z |
		(cd "$REPO_ROOT" && xargs -0 cp --parents -t "$WORK/repo")
else
	git -C "$REPO_ROOT" archive HEAD | tar -x -C "$WORK/repo"
fi
make -C "$KDIR" M="$WORK/repo" modules >"$WORK/module.log" 2>&1 ||
	{ cat "$WORK/module.log" >&2; die "module build failed"; }
if grep -i 'warning' "$WORK/module.log" >&2; then
	die "module build against $KREL is not warning-free"
fi
log "pcieaudit.ko built against $KREL without warnings"
CLI=
if make -C "$WORK/repo/user" >"$WORK/cli.log" 2>&1; then
	CLI=$WORK/repo/user/pcieaudit-cli
else
	log "CLI not built (libraries missing?); skipping it"
fi

# ---- initramfs ---------------------------------------------------------------

R=$WORK/root
mkdir -p "$R"/{bin,dev,proc,sys,tmp,usr/bin,usr/share/misc}
cp "$(command -v busybox)" "$R/bin/busybox"
for a in $("$R/bin/busybox" --list); do
	[[ $a == busybox ]] || ln -sf busybox "$R/bin/$a"
done
BINS=("$(command -v lspci)")
[[ -n $CLI ]] && BINS+=("$CLI")
for b in "${BINS[@]}"; do
	cp -L "$b" "$R/usr/bin/"
	ldd "$b" | awk '/=> \// { print $3 } /^[[:space:]]*\/[^ ]+ \(/ { print $1 }'
done | sort -u | while read -r l; do
	mkdir -p "$R$(dirname "$l")"
	cp -L "$l" "$R$l"
done
for ids in /usr/share/misc/pci.ids /usr/share/hwdata/pci.ids; do
	[[ -r $ids ]] && { cp -L "$ids" "$R/usr/share/misc/pci.ids"; break; }
done
cp "$WORK/repo/pcieaudit.ko" "$R/pcieaudit.ko"
install -m 0755 "$HERE/smoke-init.sh" "$R/init"
(cd "$R" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -6 >"$WORK/initramfs.cpio.gz"

# ---- boots -------------------------------------------------------------------

MEM=768
[[ $FLAVOUR == debug ]] && MEM=1536 # KASAN shadow and kmemleak pools

FAILS=0
# boot NAME CPU CMDLINE QEMU-DEVICE-ARGS...
boot() {
	local name=$1 cpu=$2 cmdline=$3 con=$WORK/$1.console start rc=0
	shift 3
	log "$name: booting $KREL (-cpu $cpu $*)"
	start=$SECONDS
	# shellcheck disable=SC2054 # commas belong to QEMU's option syntax
	timeout -k 10 "$BOOT_TIMEOUT" nice -n 5 qemu-system-x86_64 \
		-machine q35,accel=tcg -cpu "$cpu" -smp 2 -m "$MEM" \
		-nodefaults -nographic -no-reboot -monitor none \
		-serial "file:$con.raw" -serial "file:$WORK/$name.ttyS1" \
		-kernel "$KDIR/bzImage" -initrd "$WORK/initramfs.cpio.gz" \
		-append "console=ttyS0 panic=-1 no_timer_check loglevel=6 printk.time=1 $cmdline" \
		-global e1000e.romfile= -global virtio-net-pci.romfile= \
		-device pcie-root-port,id=rp1,bus=pcie.0,addr=0x2.0,multifunction=on,chassis=1,port=1 \
		-device pcie-root-port,id=rp2,bus=pcie.0,addr=0x2.1,chassis=2,port=2 \
		-device pcie-root-port,id=rp3,bus=pcie.0,addr=0x2.2,chassis=3,port=3 \
		-device nvme,serial=smoke,bus=rp1 \
		-device e1000e,bus=rp2 \
		-device virtio-net-pci,bus=rp3 \
		"$@" </dev/null >"$WORK/$name.qemu" 2>&1 || rc=$?
	local secs=$((SECONDS - start))
	# The serial port writes CRLF.
	tr -d '\r' <"$con.raw" >"$con"
	if [[ -n ${SMOKE_LOG_DIR:-} ]]; then
		cp "$con" "$SMOKE_LOG_DIR/$FLAVOUR-$name.console"
	fi

	local bad=()
	want() {
		grep -qx "SMOKE $1" "$con" ||
			bad+=("want '$1', got '$(sed -n "s/^SMOKE ${1%%=*}=//p" "$con")'")
	}
	want "uname=$KREL"
	want "p2pdma_kallsyms=1"
	want "p2pdma_config=1"
	want "bound_nvme=1"
	want "bound_e1000e=1"
	want "ttyS1=ok"
	want "lspci_rc=0"
	want "insmod_rc=0"
	want "rmmod_rc=0"
	if [[ -n $CLI ]]; then want "cli_rc=0"; fi
	want "done"
	grep -q '^SMOKE iommu_groups=[1-9]' "$con" || bad+=("no IOMMU groups")
	grep -q 'smoke ttyS1' "$WORK/$name.ttyS1" || bad+=("nothing arrived on ttyS1")
	if [[ $FLAVOUR == debug ]]; then
		grep -q 'KernelAddressSanitizer initialized' "$con" || bad+=("KASAN not active")
		grep -q 'Lock dependency validator' "$con" || bad+=("lockdep not active")
		grep -q 'Kernel memory leak detector initialized' "$con" || bad+=("kmemleak not active")
		want "kmemleak_reports=0"
		want "failslab=yes"
	fi
	# Splats of any kind, in any flavour.
	if grep -nE 'BUG:|WARNING:|UBSAN:|KASAN:|possible (recursive|circular)|suspicious RCU|Call Trace:' "$con" >&2; then
		bad+=("kernel splat in the log")
	fi
	[[ $rc -eq 0 ]] || bad+=("qemu exit status $rc")

	if [[ ${#bad[@]} -gt 0 ]]; then
		printf '[smoke]   %s\n' "${bad[@]}" >&2
		tail -n 30 "$con" >&2
		log "FAIL $name ($secs s)"
		FAILS=$((FAILS + 1))
	else
		log "ok $name: $secs s, /init after $(sed -n 's/^SMOKE boot_uptime=//p' "$con") s," \
			"done after $(sed -n 's/^SMOKE uptime=//p' "$con") s," \
			"$(sed -n 's/^SMOKE iommu_groups=//p' "$con") IOMMU groups, lspci $(sed -n 's/^SMOKE lspci_lines=//p' "$con") lines"
	fi
}

# Debug flavour: without intremap=off, 6.1's own VT-d interrupt remapping
# (dmar_global_lock) and virtio-net's probe (cpu_hotplug_lock) make lockdep
# report a circular dependency at boot, after which lockdep is off for the
# rest of the boot, pcieaudit.ko included.
INTEL_CMDLINE="intel_iommu=on"
[[ $FLAVOUR == debug ]] && INTEL_CMDLINE+=" intremap=off"
# shellcheck disable=SC2054
boot intel qemu64 "$INTEL_CMDLINE" -device intel-iommu
# QEMU 7.2's AMD IOMMU under TCG: with interrupt remapping 6.1 panics
# ("timer doesn't work through Interrupt-remapped IO-APIC", as the switch-amd
# topology notes), and with DMA translation NVMe's admin queue times out;
# identity domains (iommu=pt) still give groups and the AMD-Vi driver.
# shellcheck disable=SC2054
boot amd EPYC "iommu=pt" -device amd-iommu,intremap=off

[[ $FAILS -eq 0 ]] || die "$FAILS boot(s) failed"
log "PASS $FLAVOUR ($KREL)"
