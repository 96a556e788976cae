# shellcheck shell=bash disable=SC2034
# Sourced by tests/vm/run-topology.sh: Debian's 7.3 kernel (P2PDMA on, no
# IOMMU) replaying the corpus machines of machines.txt with pa_replay.ko;
# compare.py judges the results against the captures and the offline CLI.
REPLAY_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOPO_DESC="replay of real corpus machines in the 7.3 kernel"
TOPO_KERNEL=7.3
TOPO_INIT=$REPLAY_DIR/init.sh
TOPO_MEM=1024
TOPO_TIMEOUT=300
TOPO_CMDLINE="log_buf_len=4M"
REPLAY_OUT=${OUT_DIR:?}/replay-blobs
rm -rf "$REPLAY_OUT"
mkdir -p "$REPLAY_OUT"
TOPO_BINS=("$("$REPLAY_DIR/build.sh" "$TOPO_KERNEL")" "$REPLAY_DIR/guest-replay.sh")
while read -r m; do
	[[ -z $m || $m == \#* ]] && continue
	python3 "$REPLAY_DIR/mkblob.py" "$REPLAY_DIR/../fixtures/lspci/$m.lspci" "$REPLAY_OUT/$m.parb" >/dev/null ||
		die "mkblob.py $m failed"
	TOPO_BINS+=("$REPLAY_OUT/$m.parb")
done <"$REPLAY_DIR/machines.txt"
TOPO_CHECK=(python3 "$REPLAY_DIR/compare.py" --cli "$CLI_BIN")
