#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Starts building the test kernels that `make check` needs (debug, for
# stress-short and nlfuzz) in the background, at low priority, and returns
# at once. A cold build is 20-30 CPU-minutes that would
# otherwise wait for their first user; this way they overlap the steps that
# mostly wait on the network and the disk (fetching Debian's kernels,
# debootstrap, DKMS, packaging). build-kernel.sh's lock makes each later
# caller wait for a build in progress, or build it itself if this one
# failed, so nothing here can make a test pass or fail.
#
#   tests/kernels/prebuild.sh FLAVOUR...
#
# The log is $PCIEAUDIT_CACHE/prebuild.log (default /var/cache/pcieaudit).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PCIEAUDIT_CACHE=${PCIEAUDIT_CACHE:-/var/cache/pcieaudit}
mkdir -p "$PCIEAUDIT_CACHE"
LOG=$PCIEAUDIT_CACHE/prebuild.log
(
	for f in "$@"; do
		"$HERE/build-kernel.sh" "$f" || echo "prebuild: $f failed; its first user builds it" >&2
	done
) </dev/null >"$LOG" 2>&1 &
disown
echo "prebuild: building the $* kernel(s) in the background (log: $LOG)"
