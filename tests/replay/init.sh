#!/bin/sh
# shellcheck shell=dash
# /init of the replay guest (tests/replay/replay.sh): pcieaudit.ko loaded,
# then guest-replay.sh's replay of every corpus machine, then shipped.
# shellcheck disable=SC1091 # installed by build-initramfs.sh
. /lib/pcieaudit/guest-lib.sh
guest_mount
R=/tmp/results
mkdir -p "$R/replay"
uname -r >"$R/kernel.txt"
insmod /lib/pcieaudit/pcieaudit.ko >"$R/insmod.out" 2>&1
echo $? >"$R/insmod.rc"
# shellcheck disable=SC1091 # copied by build-initramfs.sh --bin
. /usr/bin/guest-replay.sh
replay_run "$R/replay"
dmesg >"$R/dmesg.txt"
guest_ship
