#!/bin/sh
# shellcheck shell=dash
# /init of the monitor test (busybox ash). Runs pcieaudit-cli monitor (text
# and JSON, two listeners) while the host hot-unplugs and replugs pa_ep
# through QMP when asked on the console ("PA-MON-REQUEST unplug|plug"),
# changes ACS control of pa_port with setpci, then removes the module under
# the listeners. Judges nothing: check.py does, on the host.
# shellcheck disable=SC1091 # tests/vm/guest-lib.sh, installed by build-initramfs.sh
. /lib/pcieaudit/guest-lib.sh
guest_mount

CLI=/usr/bin/pcieaudit-cli
KO=/lib/pcieaudit/pcieaudit.ko
EP='' PORT=''
read -r CMDLINE </proc/cmdline
for arg in $CMDLINE; do
	case $arg in
	pa_ep=*) EP=${arg#*=} ;;
	pa_port=*) PORT=${arg#*=} ;;
	esac
done
R=/tmp/results
mkdir -p "$R"
fact() { echo "$1=$2" >>"$R/facts.txt"; }
now() { date -u +%Y-%m-%dT%H:%M:%S; }
# scrape_until FILE PATTERN present|absent: scrapes the exporter every 0.5 s
# for up to 15 s until its body has (or lacks) PATTERN; the last body stays.
scrape_until() {
	i=0
	while [ $i -lt 30 ]; do
		wget -q -O "$1" http://127.0.0.1:9862/metrics 2>/dev/null
		if grep -q "$2" "$1"; then
			[ "$3" = present ] && return 0
		else
			[ "$3" = absent ] && return 0
		fi
		sleep 0.5
		i=$((i + 1))
	done
	return 1
}

fact kernel "$(uname -r)"
fact cmdline "$CMDLINE"
# The function stays without a driver: pciehp and the link are the subject.
echo 0 >/sys/bus/pci/drivers_autoprobe
# The kernel's own record of its link tracepoints, where it has them: the
# oracle for the module's hints (tracefs, not the module).
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
for tp in pci_hp_event pcie_link_event; do
	if [ -e $T/events/pci/$tp/enable ] && echo 1 >$T/events/pci/$tp/enable; then
		fact "tracefs_$tp" present
	else
		fact "tracefs_$tp" absent
	fi
done
# ACS control is read every 10 s by default; the test's setpci lasts 1 s.
insmod $KO monitor_interval_ms=50 monitor_acs_interval_ms=100
fact insmod_rc $?
$CLI monitor >"$R/monitor.txt" 2>"$R/monitor.err" &
P1=$!
$CLI monitor --json >"$R/monitor.jsonl" 2>"$R/monitor-json.err" &
P2=$!
# The exporter with an interval longer than the test: only the module's
# events can make its body follow the hot-plug and the rmmod.
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
# The guest's own clock (CLOCK_BOOTTIME, as the exporter's CLOCK_MONOTONIC
# without suspend) beside each scrape: check.py tells a clock that jumped
# an hour from an exporter that collected early.
fact exporter_start_uptime "$(cut -d' ' -f1 /proc/uptime)"
$CLI exporter --interval 3600 --listen 127.0.0.1:9862 2>"$R/exporter.err" &
PE=$!
sleep 2
lspci -D -vvv -s "$PORT" >"$R/port-before.txt" 2>&1
scrape_until "$R/exporter-before.txt" "bdf=\"$EP\"" present
fact exporter_before_rc $?

# 1. hot-unplug: the host's device_del presses the attention button; pciehp
# removes the function after 5 s and powers the slot off.
echo "PA-MON-REQUEST unplug $(now)"
wait_path "/sys/bus/pci/devices/$EP" 60 gone
fact unplug_rc $?
sleep 2
lspci -D -vvv -s "$PORT" >"$R/port-unplugged.txt" 2>&1
scrape_until "$R/exporter-unplugged.txt" "bdf=\"$EP\"" absent
fact exporter_unplugged_rc $?
# 2. replug
echo "PA-MON-REQUEST plug $(now)"
wait_path "/sys/bus/pci/devices/$EP" 60
fact plug_rc $?
sleep 2
scrape_until "$R/exporter-plugged.txt" "bdf=\"$EP\"" present
fact exporter_plugged_rc $?
fact exporter_plugged_uptime "$(cut -d' ' -f1 /proc/uptime)"

# 3. ACS control of the port, changed and restored by setpci (the test's
# write, never the module's): Source Validation toggled.
ACS=$(setpci -s "$PORT" ECAP_ACS+6.w 2>/dev/null)
fact acs_before "$ACS"
if [ -n "$ACS" ]; then
	NEW=$(printf '%04x' $((0x$ACS ^ 1)))
	setpci -s "$PORT" ECAP_ACS+6.w="$NEW"
	fact acs_set "$NEW"
	sleep 1
	setpci -s "$PORT" ECAP_ACS+6.w="$ACS"
	sleep 1
fi
$CLI report --json >"$R/report.json" 2>"$R/report.err"
fact report_rc $?
# Before the function_graph tracer below empties the buffer.
grep -E 'pci_hp_event|pcie_link_event' $T/trace >"$R/kernel-trace.txt" 2>/dev/null
for tp in pci_hp_event pcie_link_event; do
	[ -e $T/events/pci/$tp/enable ] && echo 0 >$T/events/pci/$tp/enable
done

# The sampler's cost: each pass's duration from the function_graph tracer
# (depth 1), with the interval at 50 ms, for 3 s.
if [ -w $T/set_graph_function ] && echo mon_sample_work >$T/set_graph_function 2>/dev/null; then
	echo 1 >$T/max_graph_depth
	echo function_graph >$T/current_tracer
	sleep 3
	# Stopped before it is read: changing the tracer empties the buffer.
	echo 0 >$T/tracing_on
	grep mon_sample_work $T/trace >"$R/sample-trace.txt"
	echo nop >$T/current_tracer
	echo 1 >$T/tracing_on
fi
fact functions "$(ls /sys/bus/pci/devices | wc -l)"
# The module's own accounting of the same passes.
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
cat /sys/kernel/debug/pcieaudit/monitor >"$R/sampler-stats.txt" 2>&1

# 4. rmmod while both listeners run: each must exit 4.
rmmod pcieaudit
fact rmmod_rc $?
wait $P1
fact monitor_rc $?
wait $P2
fact monitor_json_rc $?
scrape_until "$R/exporter-rmmod.txt" "^pcieaudit_up 0" present
fact exporter_rmmod_rc $?
kill -TERM $PE
wait $PE
fact exporter_rc $?

# 5. A listener stopped by SIGTERM exits 0.
insmod $KO
$CLI monitor >/dev/null 2>"$R/monitor-term.err" &
P3=$!
sleep 3
kill -TERM $P3
wait $P3
fact monitor_term_rc $?
rmmod pcieaudit
dmesg >"$R/dmesg.txt"
fact finished 1
guest_ship
