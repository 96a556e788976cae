# shellcheck shell=bash disable=SC2034
# Sourced by run-topology.sh: 16 tiles of 64 functions without SR-IOV
# (multifunction endpoints instead of VFs, no hot-plug slots), the machine
# that boots in minutes under TCG (gen-topology.sh, docs/performance.md).
BENCH_TILES=16
BENCH_SRIOV=0
# shellcheck source-path=SCRIPTDIR source=gen-topology.sh
. "$(dirname "${BASH_SOURCE[0]}")/gen-topology.sh"
