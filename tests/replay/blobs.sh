# shellcheck shell=bash disable=SC2034
# Sourced by tests/vm/run-topology.sh for a topology with TOPO_REPLAY=WHEN
# (check: a vm-test topology's 7.3 boot; kernels: tests/replay/replay.sh):
# pa_replay.ko for TOPO_KERNEL (build.sh, cached; run-all.sh builds it before
# any boot), guest-replay.sh and a blob per machine of machines.txt's WHEN
# go into the image (TOPO_BINS); a machine whose capture is absent (the
# shared logs, ../shared) is skipped here with a message, as compare.py
# skips it. REPLAY_CHECK judges the guest's results.
REPLAY_DIR=$REPO_ROOT/tests/replay
REPLAY_OUT=$OUT_DIR/replay-blobs-$NAME
rm -rf "$REPLAY_OUT"
mkdir -p "$REPLAY_OUT"
REPLAY_KO=$("$REPLAY_DIR/build.sh" "$TOPO_KERNEL") || die "pa_replay.ko for $TOPO_KERNEL failed"
TOPO_BINS+=("$REPLAY_KO" "$REPLAY_DIR/guest-replay.sh")
REPLAY_LIST=$(python3 "$REPLAY_DIR/compare.py" --list "$TOPO_REPLAY") || die "machines.txt unreadable"
REPLAY_N=0
while read -r m path pairs acs; do
	[[ -n $m ]] || continue
	if [[ $path == - ]]; then
		log "$NAME: replay of $m skipped: its capture is absent (../shared not here)"
		continue
	fi
	python3 "$REPLAY_DIR/mkblob.py" "$path" "$REPLAY_OUT/$m.parb" >/dev/null || die "mkblob.py $m failed"
	TOPO_BINS+=("$REPLAY_OUT/$m.parb")
	if [[ $pairs == bridged ]]; then
		: >"$REPLAY_OUT/$m.bridged"
		TOPO_BINS+=("$REPLAY_OUT/$m.bridged")
	fi
	# acs=: the kernel configures that port's ACS as it enumerates the domain.
	[[ $acs == - ]] || TOPO_CMDLINE+=" $acs"
	REPLAY_N=$((REPLAY_N + 1))
done <<<"$REPLAY_LIST"
log "$NAME: replaying $REPLAY_N machines of tests/replay/machines.txt ($TOPO_REPLAY) after the guest's own work"
REPLAY_CHECK=(python3 "$REPLAY_DIR/compare.py" --cli "$CLI_BIN" --when "$TOPO_REPLAY")
