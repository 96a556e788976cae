#!/bin/bash
# build.sh [KERNEL]: pa_replay.ko built against KERNEL (a name of
# tests/vm/lib.sh, default 7.3), printed as a path. Built in a copy under
# tests/vm/out/replay-KERNEL/, rebuilt when the source or the kernel changed;
# W=1, and a single warning fails it.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=../vm/lib.sh
. "$(dirname "$0")/../vm/lib.sh"
NAME=${1:-7.3}
KDIR=$(kernel_tree "$NAME")
SRC=$REPO_ROOT/tests/replay
DIR=$OUT_DIR/replay-$NAME
KEY=$(cat "$KDIR/kernelrelease" "$SRC/Kbuild" "$SRC/pa_replay.c" | sha256sum | cut -c1-16)
mkdir -p "$OUT_DIR"
(
	flock 9
	[[ -f $DIR/pa_replay.ko && $(cat "$DIR/.key" 2>/dev/null) == "$KEY" ]] && exit 0
	rm -rf "$DIR"
	mkdir -p "$DIR"
	cp "$SRC/Kbuild" "$SRC/pa_replay.c" "$DIR/"
	if ! kernel_make "$NAME" "$KDIR" "$DIR" W=1 modules >"$DIR.log" 2>&1; then
		tail -n 40 "$DIR.log" >&2
		die "pa_replay.ko does not build against $KDIR"
	fi
	if grep -i warning "$DIR.log" >&2; then
		die "pa_replay.ko builds with warnings against $KDIR"
	fi
	echo "$KEY" >"$DIR/.key"
) 9>"$OUT_DIR/replay-$NAME.lock" || exit 1
printf '%s\n' "$DIR/pa_replay.ko"
