#!/bin/bash
# run-topology.sh [--timeout SECONDS] [--kernel KERNEL] NAME|PATH.sh
#
# Boots topologies/NAME.sh under QEMU TCG with the test initramfs, pulls the
# guest's results out of the ttyS1 payload into out/NAME/results/ and runs the
# oracle on them. Exit status: 0 pass, 1 fail, 77 skipped (module or CLI not
# built; set PCIEAUDIT_VM_ALLOW_MISSING=1 to boot and check the independent
# data anyway). A topology with TOPO_KERNEL=KERNEL boots that kernel (a test
# kernel of tests/kernels/, or one of Debian's, see lib.sh), fetched or built
# and cached first, with a pcieaudit.ko built for it; --kernel overrides it
# ("stock" is the installed Debian kernel), and the results then go to
# out/NAME@KERNEL/.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

TIMEOUT=${PCIEAUDIT_VM_TIMEOUT:-}
KERNEL_OVERRIDE=
while [[ $# -gt 0 ]]; do
	case $1 in
	--timeout) TIMEOUT=$2; shift 2 ;;
	--kernel) KERNEL_OVERRIDE=$2; shift 2 ;;
	-h | --help) sed -n '2,9s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
done
if [[ $# -ne 1 ]]; then
	names=("$VM_DIR"/topologies/*.sh)
	names=("${names[@]##*/}")
	die "usage: $0 [--timeout S] NAME (one of: ${names[*]%.sh})"
fi
# A bare name is one of topologies/; a path is a suite's own topology file
# (tests/stress, ...), which may also set:
#   TOPO_INIT     guest /init instead of guest-init.sh
#   TOPO_PROGS    C programs compiled into the image (build-initramfs --prog)
#   TOPO_BINS     host binaries copied into the image (--bin)
#   TOPO_CHECK    host command judging out/NAME/results instead of oracle.py
#                 (run with the results directory as its last argument)
#   TOPO_TIMEOUT  seconds before QEMU is killed (default 180)
#   TOPO_SMP      guest CPUs (default 1)
# and any topology TOPO_REPLAY=WHEN: the guest then also replays the real
# machines of tests/replay/machines.txt marked WHEN (tests/replay/blobs.sh),
# after its own work, and tests/replay/compare.py judges them after the
# oracle (or TOPO_CHECK); on the topology's own kernel only (the stored
# verdicts are its), not with --kernel.
if [[ $1 == */* ]]; then
	TOPO=$(realpath "$1")
	NAME=$(basename "$TOPO" .sh)
else
	NAME=$1
	TOPO=$VM_DIR/topologies/$NAME.sh
fi
[[ -f $TOPO ]] || die "no topology $TOPO"

TOPO_DESC='' TOPO_CMDLINE='' TOPO_EXPECT=() TOPO_ARGS=() TOPO_MEM=768 TOPO_CPU=qemu64 TOPO_KERNEL=''
TOPO_INIT='' TOPO_PROGS=() TOPO_BINS=() TOPO_CHECK=() TOPO_TIMEOUT='' TOPO_SMP=1 TOPO_REPLAY=''
# shellcheck source=/dev/null
. "$TOPO"
if [[ -n $KERNEL_OVERRIDE ]]; then
	if [[ -n $TOPO_REPLAY && $KERNEL_OVERRIDE != "$TOPO_KERNEL" ]]; then
		log "$NAME@$KERNEL_OVERRIDE: no replay of real machines (their stored verdicts are ${TOPO_KERNEL:-stock}'s)"
		TOPO_REPLAY=
	fi
	TOPO_KERNEL=$KERNEL_OVERRIDE
	[[ $TOPO_KERNEL == stock ]] && TOPO_KERNEL=
	NAME+=@$KERNEL_OVERRIDE
fi
[[ -n $TIMEOUT ]] || TIMEOUT=${TOPO_TIMEOUT:-180}
REPLAY_CHECK=()
IMG_ARGS=()
if [[ -n $TOPO_REPLAY ]]; then
	# shellcheck source-path=SCRIPTDIR source=../replay/blobs.sh
	. "$REPO_ROOT/tests/replay/blobs.sh"
	IMG_ARGS+=(--tag replay)
fi
[[ -z $TOPO_INIT ]] || IMG_ARGS+=(--init "$TOPO_INIT")
for p in "${TOPO_PROGS[@]}"; do IMG_ARGS+=(--prog "$p"); done
for b in "${TOPO_BINS[@]}"; do IMG_ARGS+=(--bin "$b"); done

command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing (qemu-system-x86)"
EXTRA_CMDLINE=
if [[ -n $TOPO_KERNEL ]]; then
	# A test kernel: its own module build and initramfs. The bigger log
	# buffer holds the verbose P2P explanations; timestamps as Debian's.
	KDIR=$(kernel_tree "$TOPO_KERNEL")
	KERNEL=$(kernel_image "$TOPO_KERNEL" "$KDIR")
	KVER=$(cat "$KDIR/kernelrelease")
	MODULE_KO=$(module_for "$TOPO_KERNEL" "$KDIR")
	EXTRA_CMDLINE="log_buf_len=4M printk.time=1"
fi

ALLOW_MISSING=${PCIEAUDIT_VM_ALLOW_MISSING:-0}
# PCIEAUDIT_VM_DEMO=1 (tests/vm/demo.sh): the guest's demo mode (pa_demo=1
# in guest-init.sh), judged by the oracle as such.
[[ ${PCIEAUDIT_VM_DEMO:-0} == 1 ]] && TOPO_CMDLINE+=" pa_demo=1"
if ! have_artifacts; then
	if [[ $ALLOW_MISSING != 1 ]]; then
		log "SKIP $NAME: ${MODULE_KO#"$REPO_ROOT"/} or ${CLI_BIN#"$REPO_ROOT"/} not built (make module cli)"
		exit 77
	fi
	log "$NAME: artifacts missing; checking the independent data only"
fi

if [[ -n $TOPO_KERNEL ]]; then
	IMG=$("$VM_DIR/build-initramfs.sh" --kernel "$TOPO_KERNEL" --kernel-dir "$KDIR" --module "$MODULE_KO" "${IMG_ARGS[@]}")
else
	KVER=$(detect_kver)
	export KVER
	KERNEL=/boot/vmlinuz-$KVER
	[[ -r $KERNEL ]] || die "cannot read $KERNEL"
	IMG=$("$VM_DIR/build-initramfs.sh" "${IMG_ARGS[@]}")
fi

RES=$OUT_DIR/$NAME
rm -rf "$RES"
mkdir -p "$RES"

# Console (kernel log, guest messages) on ttyS0 and the payload alone on
# ttyS1, each to its own file, so kernel messages cannot corrupt the base64.
# TCG only: KVM is not usable on the CI hosts. panic=-1 + -no-reboot turn a
# guest panic into an immediate QEMU exit instead of a hang. no_timer_check:
# on a loaded host a TCG vCPU can miss the boot-time IO-APIC timer test, and
# with VT-d's interrupt remapping the kernel then panics ("timer doesn't work
# through Interrupt-remapped IO-APIC"), as a CI run on a busy host did.
# shellcheck disable=SC2054 # commas belong to QEMU's option syntax
QEMU=(qemu-system-x86_64
	-machine q35,accel=tcg -cpu "$TOPO_CPU" -smp "$TOPO_SMP" -m "$TOPO_MEM"
	-nodefaults -nographic -no-reboot -monitor none
	-serial "file:$RES/console.log" -serial "file:$RES/payload.txt"
	-kernel "$KERNEL" -initrd "$IMG"
	# No option ROMs: iPXE on every NIC only slows the firmware down.
	-global e1000e.romfile= -global e1000.romfile= -global virtio-net-pci.romfile=
	-append "console=ttyS0 panic=-1 no_timer_check loglevel=6 pa_scenario=$NAME ${EXTRA_CMDLINE:+$EXTRA_CMDLINE }$TOPO_CMDLINE"
	"${TOPO_ARGS[@]}")
printf '%q ' "${QEMU[@]}" >"$RES/qemu.cmd"
echo >>"$RES/qemu.cmd"

# run_qemu: boots the guest once; sets rc to QEMU's exit status.
run_qemu() {
	rm -f "$RES/console.log" "$RES/payload.txt" "$RES"/core*
	rc=0
	# A core file, so that a crash of QEMU itself names the function
	# (qemu_crash_report); the guest's memory makes it large, and it is
	# deleted once read.
	(cd "$RES" && ulimit -c unlimited && exec timeout -k 10 "$TIMEOUT" "${QEMU[@]}") \
		</dev/null >"$RES/qemu.log" 2>&1 &
	qemu_job=$!
	# With 1000+ devices QEMU takes a quarter of an hour to tear them down
	# after the guest powered off (make bench). Once the payload is complete
	# and the guest is down, nothing more is needed from it: stop it
	# without teardown.
	while kill -0 "$qemu_job" 2>/dev/null; do
		if grep -q "^$PAYLOAD_END" "$RES/payload.txt" 2>/dev/null &&
			grep -q 'reboot: Power down' "$RES/console.log" 2>/dev/null; then
			sleep 5
			pkill -KILL -P "$qemu_job" 2>/dev/null || true
			wait "$qemu_job" 2>/dev/null || true
			qemu_job=
			break
		fi
		sleep 1
	done
	[[ -z $qemu_job ]] || wait "$qemu_job" || rc=$?
}

# qemu_crash_report: the faulting function of a QEMU that died of a signal,
# from its core file (gdb prints the exported symbol nearest the fault).
qemu_crash_report() {
	local core
	core=$(find "$RES" -maxdepth 1 -name 'core*' -type f | head -n 1)
	if [[ -n $core ]] && command -v gdb >/dev/null; then
		gdb -q -batch -ex 'info threads' -ex bt "$(command -v "${QEMU[0]}")" "$core" 2>/dev/null |
			grep -E '^(#|\*|Program terminated)' | head -n 20 >"$RES/qemu-crash.txt" || true
	fi
	rm -f "$RES"/core*
	sed 's/^/[vm]   /' "$RES/qemu-crash.txt" 2>/dev/null >&2 || true
}

# boot_again WHY: keeps the first console, records why, boots once more.
boot_again() {
	mv "$RES/console.log" "$RES/console-crashed.log" 2>/dev/null || true
	retried=$1
	echo "$retried" >"$RES/qemu-retried"
	run_qemu
}

log "$NAME: booting $KVER ($TOPO_DESC)"
start=$SECONDS
retried=
run_qemu
# QEMU 7.2's multi-threaded TCG can itself crash (SIGSEGV in
# memory_region_dispatch_write on a NULL region) when one vCPU remaps BARs
# while the other runs MMIO, as the stress run's hot-plug does on purpose.
# That is the emulator's fault, not the guest's: a guest failure is a panic
# or a splat, never a signal in QEMU. Such a crash is shown with its stack
# and the guest is booted once more; a second crash fails the test.
if ((rc > 128 && rc != 137)); then
	log "$NAME: QEMU itself died of signal $((rc - 128)) (an emulator fault); booting once more"
	qemu_crash_report
	boot_again "QEMU died of signal $((rc - 128)) on the first boot"
fi
# Likewise a guest kernel that panicked before our module said a word
# (its first load always logs "pcieaudit: loading out-of-tree module"):
# nothing of ours had run. A CI run saw Debian's 7.3 take an int3 Oops in
# enqueue_timer during its early boot (pnp init) under multi-threaded TCG.
if [[ -z $retried ]] && ! grep -q "^$PAYLOAD_END" "$RES/payload.txt" 2>/dev/null &&
	grep -q 'Kernel panic' "$RES/console.log" 2>/dev/null &&
	! grep -q 'pcieaudit:' "$RES/console.log"; then
	log "$NAME: the guest kernel panicked before our module loaded; booting once more"
	grep -m 2 -E 'Oops|BUG:|Kernel panic' "$RES/console.log" | sed 's/^/[vm]   /' >&2 || true
	boot_again "the guest kernel panicked before our module loaded, on the first boot"
fi
elapsed=$((SECONDS - start))
echo "$elapsed" >"$RES/boot_seconds"

fail() {
	log "FAIL $NAME: $*"
	log "--- last lines of ${RES#"$REPO_ROOT"/}/console.log ---"
	tail -n 30 "$RES/console.log" >&2 || true
	log "--- ${RES#"$REPO_ROOT"/}/qemu.log ---"
	grep -v 'has no peer' "$RES/qemu.log" >&2 || true
	exit 1
}
[[ $rc -eq 124 || $rc -eq 137 ]] && fail "QEMU timed out after ${TIMEOUT}s"
[[ $rc -eq 0 ]] || fail "QEMU exited with $rc"

# Extract the payload; a missing end marker means the guest died mid-send.
if ! grep -q "^$PAYLOAD_END" "$RES/payload.txt"; then
	fail "no complete payload on ttyS1"
fi
sed -n "/^$PAYLOAD_BEGIN/,/^$PAYLOAD_END/{/^=====/d;p}" "$RES/payload.txt" | tr -d '\r' |
	base64 -d | tar -xzmf - -C "$RES" || fail "payload does not decode"
log "$NAME: guest finished in ${elapsed}s"
# The kernel's build options, for the oracle's check of info.features.
if [[ -n $TOPO_KERNEL ]]; then
	cp "$(kernel_config "$TOPO_KERNEL" "$KDIR")" "$RES/results/kernel.config"
elif [[ -r /boot/config-$KVER ]]; then
	cp "/boot/config-$KVER" "$RES/results/kernel.config"
fi

# replay_check: the replayed machines (TOPO_REPLAY) judged, after the
# topology's own check passed.
replay_check() {
	[[ ${#REPLAY_CHECK[@]} -gt 0 ]] || return 0
	if "${REPLAY_CHECK[@]}" "$RES/results" >"$RES/replay.txt" 2>&1; then
		cat "$RES/replay.txt"
		return 0
	fi
	cat "$RES/replay.txt" >&2
	log "FAIL $NAME: compare.py rejected the replayed machines (results in ${RES#"$REPO_ROOT"/}/results/replay)"
	exit 1
}

if [[ ${#TOPO_CHECK[@]} -gt 0 ]]; then
	if "${TOPO_CHECK[@]}" "$RES/results" >"$RES/oracle.txt" 2>&1; then
		cat "$RES/oracle.txt"
		replay_check
		log "PASS $NAME (${elapsed}s${retried:+; $retried})"
		exit 0
	fi
	cat "$RES/oracle.txt" >&2
	log "FAIL $NAME: ${TOPO_CHECK[0]##*/} rejected the results in ${RES#"$REPO_ROOT"/}/results"
	exit 1
fi

ORACLE_ARGS=(--results "$RES/results")
for e in "${TOPO_EXPECT[@]}"; do ORACLE_ARGS+=(--expect "$e"); done
[[ $ALLOW_MISSING == 1 ]] && ORACLE_ARGS+=(--allow-missing)
if python3 "$VM_DIR/oracle.py" "${ORACLE_ARGS[@]}" >"$RES/oracle.txt" 2>&1; then
	cat "$RES/oracle.txt"
	if ! have_artifacts; then
		log "SKIP $NAME: independent data consistent; module/CLI not tested"
		exit 77
	fi
	replay_check
	log "PASS $NAME (${elapsed}s${retried:+; $retried})"
	exit 0
fi
cat "$RES/oracle.txt" >&2
log "FAIL $NAME: oracle found differences (results in ${RES#"$REPO_ROOT"/}/results)"
exit 1
