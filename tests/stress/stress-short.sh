# shellcheck shell=bash disable=SC2034
# Sourced by tests/vm/run-topology.sh (make stress-short, part of make
# check): stress.sh with fewer cycles, to stay within a few minutes.
# shellcheck source=tests/stress/stress.sh
. "$(dirname "${BASH_SOURCE[0]}")/stress.sh"
TOPO_DESC="${TOPO_DESC%%;*}; 20 hot-plug cycles, 10 VFIO/SR-IOV cycles, 10 reloads, short failslab"
STRESS_PARAMS="pa_cycles=20 pa_vfio_cycles=10 pa_reloads=10 pa_sweep=150 pa_fsrand=8 pa_cli_window=1600 pa_cli_step=80 pa_cli_skb=8"
TOPO_CMDLINE="intel_iommu=on intremap=off loglevel=5 $STRESS_KERNEL $STRESS_PARAMS $STRESS_TOPO"
TOPO_CHECK=(python3 "$STRESS_DIR/check.py" --min-cycles 20 --min-reloads 10 --min-vfio-cycles 10)
TOPO_TIMEOUT=1200
