#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/security/run-nlfuzz.sh: the security suite's VM (nlfuzz.sh) through
# tests/vm/run-topology.sh, with tests/monitor/qmp-driver.py beside it to
# hot-unplug and replug the NVMe hp1 on rp3 when the guest asks.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/vm/lib.sh
. "$top/tests/vm/lib.sh"
PA_QMP_SOCKET=$(mktemp -u /tmp/pcieaudit-qmp.XXXXXX)
# shellcheck disable=SC2089,SC2090 # JSON for qmp-driver.py, not shell words
PA_QMP_DEVICE='{"driver": "nvme", "bus": "rp3", "id": "hp1", "serial": "fz0002"}'
# shellcheck disable=SC2090
export PA_QMP_SOCKET PA_QMP_DEVICE
# check.py's oracle for who may join the monitor group: the guest kernel's
# own genetlink.h (GENL_MCAST_CAP_SYS_ADMIN or not).
PA_GENL_HEADER=$(kernel_tree debug)/source/include/net/genetlink.h
export PA_GENL_HEADER
res=$OUT_DIR/nlfuzz
mkdir -p "$res"
rm -f "$res/console.log"
python3 "$top/tests/monitor/qmp-driver.py" "$PA_QMP_SOCKET" "$res/console.log" \
	"$OUT_DIR/nlfuzz.qmp.log" &
driver=$!
rc=0
"$top/tests/vm/run-topology.sh" "$top/tests/security/nlfuzz.sh" || rc=$?
kill "$driver" 2>/dev/null || true
wait "$driver" 2>/dev/null || true
rm -f "$PA_QMP_SOCKET"
exit $rc
