#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/safety/run.sh [--kernel KERNEL]: the always-on safety VM test
# (safety.sh) through tests/vm/run-topology.sh, with QEMU tracing every
# configuration read into a file beside the results.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/vm/lib.sh
. "$top/tests/vm/lib.sh"
args=()
name=safety
if [[ ${1:-} == --kernel ]]; then
	args=(--kernel "$2")
	name+=@$2
fi
mkdir -p "$OUT_DIR"
PA_CFG_TRACE=$OUT_DIR/$name.cfgtrace
export PA_CFG_TRACE
rm -f "$PA_CFG_TRACE"
exec "$top/tests/vm/run-topology.sh" "${args[@]}" "$top/tests/safety/safety.sh"
