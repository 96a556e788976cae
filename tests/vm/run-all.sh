#!/bin/bash
# run-all.sh [--no-build] [--list] [--matrix | --all-kernels | --kernel K] [TOPOLOGY...]
#
# Builds the module and the CLI, runs the oracle's self-test, then boots every
# test topology (or the ones named) and prints a summary. Exit status is
# non-zero when anything failed or was skipped. A topology boots its own
# kernel: TOPO_KERNEL (a test kernel of tests/kernels/, or one of Debian's
# kernels of tests/kernels/debian-kernels.list), else the installed one.
# Every kernel and its pcieaudit.ko are fetched or built first (cached in
# $PCIEAUDIT_CACHE, default /var/cache/pcieaudit), --no-build or not.
#   --no-build     use the pcieaudit.ko and user/pcieaudit-cli already built
#   --list         print the topologies as a Markdown table and exit
#   --kernel K     boot K instead (stock: the installed Debian kernel)
#   --matrix       also the runs of tests/vm/matrix (make check), without
#                  the topologies marked TOPO_WHEN=kernels
#   --all-kernels  also every topology on the installed kernel and on every
#                  Debian kernel whose build options meet its TOPO_NEEDS
#                  (make check-kernels)
# Guests run PCIEAUDIT_VM_JOBS at a time (default: the number of cores).
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

BUILD=1
LIST=0
MODE=own
KERNEL_ARG=
while [[ $# -gt 0 ]]; do
	case $1 in
	--no-build) BUILD=0; shift ;;
	--list) LIST=1; shift ;;
	--kernel) MODE=one; KERNEL_ARG=$2; shift 2 ;;
	--matrix) MODE=matrix; shift ;;
	--all-kernels) MODE=all; shift ;;
	-h | --help) sed -n '2,19s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
done

# topo_field FILE VAR: a variable of a topology file, read in a subshell so
# that topologies cannot leak into each other (arrays come one item a line).
topo_field() {
	# shellcheck source=/dev/null disable=SC2034
	(TOPO_TEST=1 && . "$1" && eval "printf '%s\\n' \"\${$2[@]:-}\"")
}

if [[ $# -gt 0 ]]; then
	NAMES=("$@")
else
	NAMES=()
	for f in "$VM_DIR"/topologies/*.sh; do
		# TOPO_TEST=0 marks a demo-only topology.
		[[ $(topo_field "$f" TOPO_TEST) == 0 && $LIST == 0 ]] && continue
		# TOPO_WHEN=kernels: make check-kernels only (a kernel whose cold
		# build make check cannot afford).
		if [[ $MODE == matrix && $(topo_field "$f" TOPO_WHEN) == kernels ]]; then
			log "$(basename "$f" .sh): make check-kernels only (TOPO_WHEN=kernels)"
			continue
		fi
		NAMES+=("$(basename "$f" .sh)")
	done
fi

if [[ $LIST == 1 ]]; then
	echo "| topology | kernel | kernel command line | what it covers |"
	echo "|---|---|---|---|"
	for n in "${NAMES[@]}"; do
		f=$VM_DIR/topologies/$n.sh
		cmdline=$(topo_field "$f" TOPO_CMDLINE)
		kernel=$(topo_field "$f" TOPO_KERNEL)
		# shellcheck disable=SC2016 # literal Markdown backquotes
		printf '| `%s` | %s | %s | %s |\n' "$n" "${kernel:-stock}" "${cmdline:+\`$cmdline\`}" \
			"$(topo_field "$f" TOPO_DESC)"
	done
	exit 0
fi

t0=$SECONDS
mkdir -p "$OUT_DIR"
KVER=$(detect_kver)
export KVER
if [[ $BUILD == 1 ]]; then
	log "building pcieaudit.ko for $KVER and pcieaudit-cli"
	if ! make -C "$REPO_ROOT" module KVER="$KVER" cli >"$OUT_DIR/build.log" 2>&1; then
		tail -n 40 "$OUT_DIR/build.log" >&2
		die "build failed (full log: ${OUT_DIR#"$REPO_ROOT"/}/build.log)"
	fi
fi
have_artifacts || die "pcieaudit.ko or user/pcieaudit-cli missing after the build"

# RUNS: "TOPOLOGY KERNEL" pairs, KERNEL "-" for the topology's own.
own_kernel() { topo_field "$VM_DIR/topologies/$1.sh" TOPO_KERNEL; }
RUNS=()
for n in "${NAMES[@]}"; do
	[[ -f $VM_DIR/topologies/$n.sh ]] || die "no topology $n"
	if [[ $MODE == one ]]; then RUNS+=("$n $KERNEL_ARG"); else RUNS+=("$n -"); fi
done
named() { [[ " ${NAMES[*]} " == *" $1 "* ]]; }
# add_run TOPOLOGY KERNEL: once, and only for a topology asked for.
add_run() {
	named "$1" || return 0
	[[ " ${RUNS[*]/%/|} " == *" $1 $2| "* ]] || RUNS+=("$1 $2")
}
if [[ $MODE == matrix || $MODE == all ]]; then
	while read -r when k topos; do
		[[ $when == check || $MODE == all ]] || continue
		for n in $topos; do add_run "$n" "$k"; done
	done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$VM_DIR/matrix")
fi

# Kernels and their modules before any boot, so that a cold kernel build or
# download (minutes) is not billed to a topology and a broken one stops here.
declare -A KDIRS
prepare_kernel() {
	local k=$1 s=$SECONDS
	[[ $k == - || $k == stock || -n ${KDIRS[$k]:-} ]] && return 0
	KDIRS[$k]=$(kernel_tree "$k")
	module_for "$k" "${KDIRS[$k]}" >/dev/null
	log "kernel $k: $(cat "${KDIRS[$k]}/kernelrelease") and its pcieaudit.ko ready in $((SECONDS - s))s"
}
config_of() {
	if [[ $1 == stock ]]; then printf '/boot/config-%s\n' "$KVER"; else kernel_config "$1" "${KDIRS[$1]}"; fi
}
# needs_met TOPOLOGY KERNEL: the kernel's build options meet TOPO_NEEDS
# (CONFIG_X=y, or CONFIG_X=n for an option that is off).
needs_met() {
	local need cfg
	cfg=$(config_of "$2")
	while read -r need; do
		[[ -n $need ]] || continue
		case $need in
		*=n) ! grep -Eq "^${need%=n}=[ym]\$" "$cfg" || return 1 ;;
		*) grep -qx "$need" "$cfg" || return 1 ;;
		esac
	done < <(topo_field "$VM_DIR/topologies/$1.sh" TOPO_NEEDS)
}
if [[ $MODE == all ]]; then
	mapfile -t ALL_KERNELS < <(echo stock; "$REPO_ROOT/tests/kernels/debian-kernel.sh" --list)
	for k in "${ALL_KERNELS[@]}"; do prepare_kernel "$k"; done
	for n in "${NAMES[@]}"; do
		own=$(own_kernel "$n")
		# A second boot compares with its first, on its own kernel.
		[[ -z $(topo_field "$VM_DIR/topologies/$n.sh" TOPO_AFTER) ]] || continue
		for k in "${ALL_KERNELS[@]}"; do
			[[ $k == "${own:-stock}" ]] && continue
			if needs_met "$n" "$k"; then add_run "$n" "$k"; else log "$n on $k: skipped, its build options lack ${n}'s TOPO_NEEDS"; fi
		done
	done
fi
# TOPO_AFTER=TOPOLOGY: a run that reads another's results (its first boot)
# starts once that run has finished: last, so that no slot waits, with the
# other run added when it was not asked for.
declare -A AFTER=()
LATE=()
EARLY=()
for r in "${RUNS[@]}"; do
	a=$(topo_field "$VM_DIR/topologies/${r% *}.sh" TOPO_AFTER)
	if [[ -z $a ]]; then EARLY+=("$r"); continue; fi
	AFTER[$r]=$a
	LATE+=("$r")
done
RUNS=("${EARLY[@]}")
for r in "${LATE[@]}"; do
	[[ " ${RUNS[*]/%/|} " == *" ${AFTER[$r]} -| "* ]] || RUNS+=("${AFTER[$r]} -")
done
RUNS+=("${LATE[@]}")
for r in "${RUNS[@]}"; do
	k=${r#* }
	[[ $k == - ]] && k=$(own_kernel "${r% *}")
	prepare_kernel "${k:--}"
	# A topology replaying real machines (TOPO_REPLAY) on its own kernel:
	# pa_replay.ko too (tests/replay/build.sh, cached like the module).
	if [[ ${r#* } == - && -n $k && -n $(topo_field "$VM_DIR/topologies/${r% *}.sh" TOPO_REPLAY) ]]; then
		s=$SECONDS
		"$REPO_ROOT/tests/replay/build.sh" "$k" >/dev/null || die "pa_replay.ko for $k failed"
		log "kernel $k: pa_replay.ko (${r% *}'s TOPO_REPLAY) ready in $((SECONDS - s))s"
	fi
done

declare -A RESULT SECS
FAILED=0

log "oracle self-test"
s=$SECONDS
if python3 "$VM_DIR/oracle.py" --selftest >"$OUT_DIR/selftest.txt" 2>&1; then
	RESULT[oracle-selftest]=PASS
else
	cat "$OUT_DIR/selftest.txt" >&2
	RESULT[oracle-selftest]=FAIL
	FAILED=1
fi
SECS[oracle-selftest]=$((SECONDS - s))

"$VM_DIR/build-initramfs.sh" >/dev/null

# run_id TOPOLOGY KERNEL: the results directory's name, as run-topology.sh
# makes it.
run_id() { if [[ $2 == - ]]; then printf '%s\n' "$1"; else printf '%s@%s\n' "$1" "$2"; fi; }
# Each guest is one QEMU thread with one vCPU: run as many at once as there
# are cores (PCIEAUDIT_VM_JOBS), each logging to out/ID.log, printed whole
# when it ends so that runs do not interleave.
JOBS=${PCIEAUDIT_VM_JOBS:-$(nproc)}
declare -A PID_OF_RUN=()
finish() {	# finish PID RC: record the run that PID was
	local id=${PID_OF_RUN[$1]}
	cat "$OUT_DIR/$id.log"
	SECS[$id]=$((SECONDS - ${SECS[$id]}))
	case $2 in
	0) RESULT[$id]=PASS ;;
	77) RESULT[$id]=SKIP; FAILED=1 ;;
	*) RESULT[$id]=FAIL; FAILED=1 ;;
	esac
	unset "PID_OF_RUN[$1]"
}
reap_one() {
	local pid rc=0
	wait -n -p pid || rc=$?
	finish "$pid" "$rc"
}
for r in "${RUNS[@]}"; do
	n=${r% *} k=${r#* }
	id=$(run_id "$n" "$k")
	args=()
	[[ $k == - ]] || args=(--kernel "$k")
	while [[ ${#PID_OF_RUN[@]} -ge $JOBS ]]; do reap_one; done
	if [[ -n ${AFTER[$r]:-} ]]; then
		while [[ " ${PID_OF_RUN[*]} " == *" ${AFTER[$r]} "* ]]; do reap_one; done
	fi
	SECS[$id]=$SECONDS
	"$VM_DIR/run-topology.sh" "${args[@]}" "$n" >"$OUT_DIR/$id.log" 2>&1 &
	PID_OF_RUN[$!]=$id
done
while [[ ${#PID_OF_RUN[@]} -gt 0 ]]; do reap_one; done

# One line a run: the kernel that booted, and the oracle's own counts.
echo
echo "VM test summary ($((SECONDS - t0))s in all):"
printf '  %-4s  %-24s %5s  %-28s %s\n' result run secs kernel "oracle"
printf '  %-4s  %-24s %4ss\n' "${RESULT[oracle-selftest]}" oracle-selftest "${SECS[oracle-selftest]}"
for r in "${RUNS[@]}"; do
	id=$(run_id "${r% *}" "${r#* }")
	res=$OUT_DIR/$id
	counts=$(sed -n 's/^oracle: [^:]*: //p' "$res/oracle.txt" 2>/dev/null | paste -sd';' -)
	[[ -f $res/qemu-retried ]] && counts="$(cat "$res/qemu-retried"), booted again;$counts"
	printf '  %-4s  %-24s %4ss  %-28s %s\n' "${RESULT[$id]}" "$id" "${SECS[$id]}" \
		"$(sed -n 's/^kernel=//p' "$res/results/facts.txt" 2>/dev/null)" "$counts"
done | tee "$OUT_DIR/summary.txt"
if [[ $FAILED != 0 ]]; then
	echo "VM tests FAILED (details above; results under ${OUT_DIR#"$REPO_ROOT"/}/<topology>[@kernel]/)"
	exit 1
fi
echo "VM tests passed"
