# shellcheck shell=dash
# Sourced by a guest /init (busybox ash: tests/replay/init.sh, or
# tests/vm/guest-init.sh after its own work): replay_run DIR replays every
# blob the image holds (build-initramfs.sh --bin puts pa_replay.ko, the blobs
# NAME.parb, NAME.bridged where machines.txt says pairs=bridged, and this
# file in /usr/bin) and records, per machine in
# DIR/NAME/: what insmod and rmmod said, the replayed functions, lspci
# -vvv -xxxx, p2p-probe's pairs (pcieaudit.ko's verdict beside the
# kernel's own pci_p2pdma_distance_many()), the CLI's JSON report and topo,
# and the kernel log. It judges nothing: tests/replay/compare.py does.
replay_run() {
	mkdir -p /lib/firmware/pcieaudit-replay
	cp /usr/bin/*.parb /lib/firmware/pcieaudit-replay/ 2>/dev/null || return 0
	for blob in /lib/firmware/pcieaudit-replay/*.parb; do
		n=${blob##*/}
		n=${n%.parb}
		D=$1/$n
		mkdir -p "$D"
		dmesg -c >"$D/dmesg-before.txt"
		read -r t0 _ </proc/uptime
		insmod /usr/bin/pa_replay.ko "firmware=pcieaudit-replay/$n.parb" >"$D/insmod.out" 2>&1
		echo $? >"$D/insmod.rc"
		ends=
		: >"$D/functions.txt"
		for d in /sys/bus/pci/devices/01[0-9a-f][0-9a-f]:*; do
			[ -e "$d" ] || continue
			echo "${d##*/}" >>"$D/functions.txt"
			[ -d "$d/pci_bus" ] && continue
			# pairs=bridged: not the functions on a root bus.
			if [ -e "/usr/bin/$n.bridged" ]; then
				p=$(readlink -f "$d")
				p=${p%/*}
				case ${p##*/} in pci*) continue ;; esac
			fi
			ends="$ends ${d##*/}"
		done
		lspci -D -vvv -xxxx >"$D/lspci.txt" 2>&1
		if [ -n "$ends" ]; then
			# shellcheck disable=SC2086 # a list of BDFs, split on purpose
			timeout 120 p2p-probe dump --quiet $ends >"$D/p2p.txt" 2>&1
		fi
		timeout 30 pcieaudit-cli --json report >"$D/report.json" 2>"$D/report.err"
		timeout 60 pcieaudit-cli topo --all --json >"$D/topo.json" 2>"$D/topo.err"
		dmesg -c >"$D/dmesg.txt"
		rmmod pa_replay >"$D/rmmod.out" 2>&1
		echo $? >"$D/rmmod.rc"
		ls /sys/bus/pci/devices >"$D/after.txt"
		dmesg -c >"$D/dmesg-rmmod.txt"
		read -r t1 _ </proc/uptime
		echo "$t0 $t1" >"$D/uptime.txt"
		echo "[guest] replay $n: $(wc -l <"$D/functions.txt") functions, insmod $(cat "$D/insmod.rc"), rmmod $(cat "$D/rmmod.rc")"
	done
}
