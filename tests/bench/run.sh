#!/bin/bash
# run.sh [NAME...]: the benchmark (make bench). Not a test: nothing here
# passes or fails on speed; it fails only when a run is unusable (see
# analyze.py). Boots each bench machine in turn (default: topo-64, topo-256,
# topo-1024 on the stock Debian kernel, then topo-256-p2pdma and
# topo-1024-p2pdma on the P2PDMA test kernel), each measuring every variant
# interleaved within its one boot, then json-size.py on the host (compact
# against --pretty JSON), and writes the tables to
# tests/vm/out/bench-summary.md, with start-up against lspci on the host
# (startup.py).
# BENCH_CMDLINE adds guest options (pa_rounds=N, pa_profile=0, ...).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=${PCIEAUDIT_VM_OUT:-$ROOT/tests/vm/out}
NAMES=("$@")
[[ ${#NAMES[@]} -gt 0 ]] || NAMES=(topo-64 topo-256 topo-1024 topo-256-p2pdma topo-1024-p2pdma)

# The payload markers of tests/vm/lib.sh.
BEGIN='=====PCIEAUDIT-PAYLOAD-BEGIN-7f3a9c====='
END='=====PCIEAUDIT-PAYLOAD-END-7f3a9c====='
dirs=()
rc=0
for n in "${NAMES[@]}"; do
	[[ -f $HERE/$n.sh ]] || { echo "run.sh: no $HERE/$n.sh" >&2; exit 2; }
	# One VM at a time; the machine's other jobs still add noise, which
	# the interleaved rounds spread over all variants alike.
	if ! nice -n 5 "$ROOT/tests/vm/run-topology.sh" "$HERE/$n.sh"; then
		# With 1000+ devices QEMU takes minutes to exit after the guest
		# powered off, and the harness then reports a timeout: a complete
		# payload is still a complete run.
		res=$OUT/$n
		if [[ ! -d $res/results ]] && grep -q "^$END" "$res/payload.txt" 2>/dev/null; then
			sed -n "/^$BEGIN/,/^$END/{/^=====/d;p}" "$res/payload.txt" | tr -d '\r' |
				base64 -d | tar -xzmf - -C "$res"
			python3 "$HERE/analyze.py" --check "$res/results" || rc=1
		else
			rc=1
		fi
	fi
	[[ -f $OUT/$n/results/times.tsv ]] && dirs+=("$OUT/$n/results")
done
[[ ${#dirs[@]} -gt 0 ]] || exit 1
python3 "$HERE/analyze.py" --summary "${dirs[@]}" >"$OUT/bench-summary.md" || rc=1
# On the host, no VM: what compact JSON saves against --pretty.
{ echo; echo "## JSON layout (host, --sysfs fixture)"; echo
  nice -n 5 python3 "$HERE/json-size.py"; } >>"$OUT/bench-summary.md" || rc=1
if [[ ${BENCH_HOST_SCRAPE:-1} == 1 ]]; then
	{
		echo
		echo "Exporter on the host, --sysfs fixtures (tests/bench/exporter-scrape.py N 20):"
		echo
		for n in 64 256 1024; do
			nice -n 5 python3 "$HERE/exporter-scrape.py" "$n" 20 || rc=1
		done
	} >>"$OUT/bench-summary.md"
fi
# On the host: fleet over 1,000 generated snapshots, under 10 s and 64 MiB
# (docs/performance.md, issue 25).
{ echo; echo "## fleet (host, tests/fleet/fleet-test.py --bench)"; echo
  nice -n 5 python3 "$ROOT/tests/fleet/fleet-test.py" "$ROOT/user/pcieaudit-cli" --bench; } \
	>>"$OUT/bench-summary.md" || rc=1
# On the host: what --expect adds to check, over a 300-function snapshot
# and over /sys, paired runs (expect-cost.py, docs/performance.md).
{ echo; echo "## check --expect's cost (host, tests/bench/expect-cost.py)"; echo
  nice -n 5 python3 "$HERE/expect-cost.py" --runs "${BENCH_EXPECT_RUNS:-50}"; } \
	>>"$OUT/bench-summary.md" || rc=1
# On the host, without the module: start-up against lspci -vvv, paired
# runs (startup.py, docs/performance.md).
if [[ ${BENCH_HOST_STARTUP:-1} == 1 ]]; then
	{ echo; echo "## Start-up without the module (host, --sysfs /sys, tests/bench/startup.py)"; echo
	  nice -n 5 python3 "$HERE/startup.py" --runs "${BENCH_STARTUP_RUNS:-100}"; } >>"$OUT/bench-summary.md" || rc=1
fi
cat "$OUT/bench-summary.md"
echo "run.sh: tables in ${OUT#"$ROOT"/}/bench-summary.md"
exit $rc
