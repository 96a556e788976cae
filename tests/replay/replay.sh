# shellcheck shell=bash disable=SC2034
# Sourced by tests/vm/run-topology.sh (make replay-test, in make
# check-kernels): Debian's 7.3 kernel (P2PDMA on, no IOMMU) replaying the
# machines of machines.txt marked `kernels` with pa_replay.ko in a boot of
# their own (blobs.sh); compare.py judges the results against the captures,
# the kernel's stored verdicts and the offline CLI. The `check` machines
# replay in vm-test's p2p-noiommu boot (make check).
REPLAY_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOPO_DESC="replay of real corpus machines in the 7.3 kernel"
TOPO_KERNEL=7.3
TOPO_INIT=$REPLAY_DIR/init.sh
TOPO_MEM=1024
TOPO_TIMEOUT=300
TOPO_CMDLINE="log_buf_len=4M"
TOPO_REPLAY=kernels
# init.sh's own part: pcieaudit.ko loaded (the replay's pairs need it).
# shellcheck disable=SC2016 # $1 is the inner shell's
TOPO_CHECK=(sh -c 'rc=$(cat "$1/insmod.rc"); echo "pcieaudit.ko: insmod rc $rc"; [ "$rc" = 0 ]' sh)
