#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# packaging/systemd's units, on the host (no systemd as PID 1 needed):
# systemd-analyze verify on both, with ExecStart= pointed at the built CLI;
# systemd-analyze security --offline on the service, whose exposure must
# stay at or below MAX_EXPOSURE (systemd's own scale, 0 best, 10 worst);
# and socket activation as the .socket does it: systemd-socket-activate
# holds the port and passes it as LISTEN_FDS, and a scrape through it must
# answer with the fixture's series (the exporter binds nothing itself).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cli=$top/user/pcieaudit-cli
fixture=$top/../shared/fixtures/h200-vm-guest
max_exposure=${MAX_EXPOSURE:-2.5}
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "systemd-test: FAILED: $*" >&2; exit 1; }

cp "$top"/packaging/systemd/pcieaudit-exporter.{service,socket} "$tmp/"
sed -i "s|^ExecStart=/usr/sbin/pcieaudit-cli|ExecStart=$cli|" "$tmp/pcieaudit-exporter.service"
out=$(cd "$tmp" && systemd-analyze verify --man=no pcieaudit-exporter.socket pcieaudit-exporter.service 2>&1) ||
	fail "systemd-analyze verify: $out"
[ -z "$out" ] || fail "systemd-analyze verify warns: $out"

out=$(systemd-analyze security --offline=yes --no-pager "$tmp/pcieaudit-exporter.service" 2>&1) ||
	fail "systemd-analyze security: $out"
score=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' <<<"$out")
[ -n "$score" ] || fail "systemd-analyze security printed no exposure level: $out"
awk -v s="$score" -v m="$max_exposure" 'BEGIN { exit !(s <= m) }' ||
	fail "exposure $score above $max_exposure"
echo "systemd-test: verify clean; systemd-analyze security --offline: exposure $score (at most $max_exposure)"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
systemd-socket-activate -l "127.0.0.1:$port" \
	"$cli" exporter --sysfs "$fixture" 2>"$tmp/err" &
pid=$!
body=
for _ in $(seq 1 100); do
	if body=$(curl -fsS --max-time 5 "http://127.0.0.1:$port/metrics" 2>/dev/null); then
		break
	fi
	sleep 0.2
done
grep -q '^pcieaudit_up 1$' <<<"$body" || fail "no pcieaudit_up 1 through the passed socket: $(cat "$tmp/err")"
grep -q 'on the socket systemd passed' "$tmp/err" || fail "the exporter did not say it took the passed socket: $(cat "$tmp/err")"
kill "$pid"
wait "$pid" || fail "exporter exit status $? after SIGTERM"
pid=
echo "systemd-test: socket activation ok"
