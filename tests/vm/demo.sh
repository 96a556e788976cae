#!/bin/bash
# demo.sh [--no-build] [TOPOLOGY]
#
# Builds pcieaudit.ko and pcieaudit-cli, boots the emulated GPU server
# (topologies/gpu-server.sh, or TOPOLOGY) under QEMU TCG, and prints the
# `pcieaudit-cli report` the guest produced. Only the report goes to stdout;
# progress, and the oracle's verdict on the same run, go to stderr.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

BUILD=1
if [[ ${1:-} == --no-build ]]; then
	BUILD=0
	shift
fi
NAME=${1:-gpu-server}

KVER=$(detect_kver)
export KVER
if [[ $BUILD == 1 ]]; then
	log "building pcieaudit.ko (for $KVER) and pcieaudit-cli"
	mkdir -p "$OUT_DIR"
	if ! make -C "$REPO_ROOT" module KVER="$KVER" cli >"$OUT_DIR/build.log" 2>&1; then
		tail -n 40 "$OUT_DIR/build.log" >&2
		die "build failed (full log: ${OUT_DIR#"$REPO_ROOT"/}/build.log)"
	fi
fi
have_artifacts || die "pcieaudit.ko or user/pcieaudit-cli missing"

log "booting the '$NAME' machine under QEMU (TCG; about 15-30 s)"
rc=0
# The test harness does the boot; its chatter goes to stderr.
# Demo mode: the snapshot, reports and checks, not vm-test's other work.
PCIEAUDIT_VM_DEMO=1 "$VM_DIR/run-topology.sh" "$NAME" >&2 || rc=$?

RES=$OUT_DIR/$NAME/results
REPORT=$RES/report.txt
if [[ ! -s $REPORT ]]; then
	[[ -f $RES/report-text.err ]] && cat "$RES/report-text.err" >&2
	die "the guest produced no report (see ${OUT_DIR#"$REPO_ROOT"/}/$NAME/console.log)"
fi
text_rc=$(sed -n 's/^text_report_rc=//p' "$RES/facts.txt")
if [[ $text_rc != 0 ]]; then
	cat "$RES/report-text.err" >&2
	die "pcieaudit-cli report exited $text_rc in the guest"
fi

printf '\n' >&2
# As the guest printed it, minus any carriage returns from the console path.
tr -d '\r' <"$REPORT"
printf '\n' >&2
if [[ $rc == 0 ]]; then
	log "oracle: the report above matches lspci/sysfs for every function"
else
	log "WARNING: the oracle found differences in this run (see above)"
fi
exit "$rc"
