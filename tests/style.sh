#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Style gates: user/'s includes go down its layers (tests/layers.py, whose
# selftest plants a wrong-way include first); checkpatch --strict and sparse
# must both be silent, and the module must build without a single compiler
# warning (W=1).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
kver=${KVER:-$("$top/tests/kernel-version.sh")}
cache=$top/build/checkpatch
src=/usr/src/linux-source-6.1.tar.xz

if [ ! -x "$cache/scripts/checkpatch.pl" ]; then
	echo "style: extracting checkpatch.pl from $src"
	mkdir -p "$cache"
	tar -C "$cache" --strip-components=1 -xf "$src" \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
fi

fail=0
cd "$top"
python3 tests/layers.py --selftest || fail=1
python3 tests/layers.py || fail=1
for f in kmod/*.c kmod/*.h include/uapi/linux/pcieaudit.h tests/replay/*.c; do
	# --terse prints one line per finding and nothing for a clean file.
	if ! out=$("$cache/scripts/checkpatch.pl" --strict --no-tree --terse \
			--show-types -f "$f") || [ -n "$out" ]; then
		echo "$out"
		fail=1
	fi
done

# Force a full rebuild so sparse and the compiler see every file.
make -s -C "/lib/modules/$kver/build" M="$top" clean >/dev/null
log=$(make -C "/lib/modules/$kver/build" M="$top" C=2 W=1 modules 2>&1)
if grep -Ei 'warning|error' <<<"$log"; then
	fail=1
fi

if [ "$fail" -ne 0 ]; then
	echo "style: FAILED"
	exit 1
fi
echo "style: layers, checkpatch --strict, sparse and W=1 clean"
