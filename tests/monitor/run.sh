#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/monitor/run.sh [--kernel KERNEL]: the monitor VM test. Boots
# monitor.sh through tests/vm/run-topology.sh and, beside it, qmp-driver.py,
# which hot-unplugs and replugs the guest's e1000e when the guest asks.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/vm/lib.sh
. "$top/tests/vm/lib.sh"
args=()
name=monitor
if [[ ${1:-} == --kernel ]]; then
	args=(--kernel "$2")
	name+=@$2
fi
PA_QMP_SOCKET=$(mktemp -u /tmp/pcieaudit-qmp.XXXXXX)
export PA_QMP_SOCKET
res=$OUT_DIR/$name
rm -f "$res/console.log"
python3 "$top/tests/monitor/qmp-driver.py" "$PA_QMP_SOCKET" "$res/console.log" \
	"$OUT_DIR/$name.qmp.log" &
driver=$!
rc=0
"$top/tests/vm/run-topology.sh" "${args[@]}" "$top/tests/monitor/monitor.sh" || rc=$?
kill "$driver" 2>/dev/null || true
wait "$driver" 2>/dev/null || true
rm -f "$PA_QMP_SOCKET"
exit $rc
