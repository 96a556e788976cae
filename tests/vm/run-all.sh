#!/bin/bash
# run-all.sh [--no-build] [--list] [TOPOLOGY...]
#
# Builds the module and the CLI, runs the oracle's self-test, then boots every
# test topology (or the ones named) and prints a summary. Exit status is
# non-zero when anything failed or was skipped. Topologies with TOPO_KERNEL
# need that test kernel (tests/kernels/, cached in $PCIEAUDIT_CACHE, default
# /var/cache/pcieaudit) and pcieaudit.ko built for it (out/kmod-FLAVOUR/),
# both made here first when missing or stale, --no-build or not.
#   --no-build  use the pcieaudit.ko and user/pcieaudit-cli already built
#   --list      print the topologies as a Markdown table and exit
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

BUILD=1
LIST=0
while [[ $# -gt 0 ]]; do
	case $1 in
	--no-build) BUILD=0; shift ;;
	--list) LIST=1; shift ;;
	-h | --help) sed -n '2,9s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
done

# topo_field FILE VAR: a variable of a topology file, read in a subshell so
# that topologies cannot leak into each other.
topo_field() {
	# shellcheck source=/dev/null disable=SC2034
	(TOPO_TEST=1 && . "$1" && printf '%s\n' "${!2:-}")
}

if [[ $# -gt 0 ]]; then
	NAMES=("$@")
else
	NAMES=()
	for f in "$VM_DIR"/topologies/*.sh; do
		# TOPO_TEST=0 marks a demo-only topology.
		[[ $(topo_field "$f" TOPO_TEST) == 0 && $LIST == 0 ]] && continue
		NAMES+=("$(basename "$f" .sh)")
	done
fi

if [[ $LIST == 1 ]]; then
	echo "| topology | kernel command line | what it covers |"
	echo "|---|---|---|"
	for n in "${NAMES[@]}"; do
		f=$VM_DIR/topologies/$n.sh
		cmdline=$(topo_field "$f" TOPO_CMDLINE)
		# shellcheck disable=SC2016 # literal Markdown backquotes
		printf '| `%s` | %s | %s |\n' "$n" "${cmdline:+\`$cmdline\`}" "$(topo_field "$f" TOPO_DESC)"
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

# Test kernels and their modules before any boot, so that a cold kernel
# build (minutes) is not billed to a topology and a broken one stops here.
declare -A FLAVOUR
for n in "${NAMES[@]}"; do
	FLAVOUR[$n]=$(topo_field "$VM_DIR/topologies/$n.sh" TOPO_KERNEL)
done
for f in $(printf '%s\n' "${FLAVOUR[@]}" | sed '/^$/d' | sort -u); do
	s=$SECONDS
	kdir=$(kernel_tree "$f")
	module_for "$f" "$kdir" >/dev/null
	log "test kernel $f: $(cat "$kdir/kernelrelease") and its pcieaudit.ko ready in $((SECONDS - s))s"
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

for n in "${NAMES[@]}"; do
	s=$SECONDS
	rc=0
	"$VM_DIR/run-topology.sh" "$n" || rc=$?
	SECS[$n]=$((SECONDS - s))
	case $rc in
	0) RESULT[$n]=PASS ;;
	77) RESULT[$n]=SKIP; FAILED=1 ;;
	*) RESULT[$n]=FAIL; FAILED=1 ;;
	esac
done

echo
echo "VM test summary (kernel $KVER unless named, $((SECONDS - t0))s in all):"
for n in oracle-selftest "${NAMES[@]}"; do
	printf '  %-4s  %-16s %4ss  %s\n' "${RESULT[$n]}" "$n" "${SECS[$n]}" "${FLAVOUR[$n]:-}"
done
if [[ $FAILED != 0 ]]; then
	echo "VM tests FAILED (details above; results under ${OUT_DIR#"$REPO_ROOT"/}/<topology>/)"
	exit 1
fi
echo "VM tests passed"
