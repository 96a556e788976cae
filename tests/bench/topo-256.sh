# shellcheck shell=bash disable=SC2034
# Sourced by run-topology.sh: the bench machine with 4 tile(s) of 64 functions.
BENCH_TILES=4
# shellcheck source-path=SCRIPTDIR source=gen-topology.sh
. "$(dirname "${BASH_SOURCE[0]}")/gen-topology.sh"
