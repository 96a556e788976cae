#!/bin/sh
# shellcheck shell=dash
# /init of the second boot of `check --expect`'s VM test (topologies/
# gpu-server-expect.sh), kept light: no drivers, no ACS runs, resets or
# D3hot. The module is loaded, then come this boot's report --json and the
# sysfs facts expect-check.py derives the expected findings from (each
# function's device path and ids), and, when the host passed the first
# boot's snapshot in (fw_cfg opt/pcieaudit/golden), check --expect against
# the module itself. Judges nothing: expect-check.py does, on the host.
# shellcheck disable=SC1091 # tests/vm/guest-lib.sh, installed by build-initramfs.sh
. /lib/pcieaudit/guest-lib.sh
guest_mount

CLI=/usr/bin/pcieaudit-cli
R=/tmp/results
mkdir -p "$R"
if [ -f /lib/pcieaudit/deps ]; then
	while read -r m; do modprobe "$m"; done </lib/pcieaudit/deps
fi
insmod /lib/pcieaudit/pcieaudit.ko >"$R/insmod.out" 2>&1
echo "insmod_rc=$?" >"$R/facts.txt"
echo "kernel=$(uname -r)" >>"$R/facts.txt"
timeout 30 $CLI report --json >"$R/report.json" 2>"$R/report.err"
echo $? >"$R/report.rc"
# BDF, device path, vendor, device, class: sysfs's own view.
for d in /sys/bus/pci/devices/*; do
	printf '%s\t%s\t%s\t%s\t%s\n' "${d##*/}" "$(readlink -f "$d")" \
		"$(cat "$d/vendor")" "$(cat "$d/device")" "$(cat "$d/class")"
done >"$R/paths.tsv"
G=/sys/firmware/qemu_fw_cfg/by_name/opt/pcieaudit/golden/raw
modprobe -q qemu_fw_cfg 2>/dev/null
if [ -r $G ]; then
	cat $G >/tmp/golden.json
	timeout 30 $CLI check --profile expect --format json --expect /tmp/golden.json \
		>"$R/check-guest.json" 2>"$R/check-guest.err"
	echo $? >"$R/check-guest.rc"
fi
guest_ship
