#!/bin/sh
# shellcheck shell=dash
# /init of the safety test (busybox ash): the module with its monitor off
# (0), then at a 100 ms sampler through (1) a GROUP_GET dump of a 161-member group as a fresh socket's
# first request, (2) an endpoint and its Root Port runtime-suspended, between
# marker reads that QEMU's trace shows, (3) resets of an NVMe function in a
# loop while dumps and a rescan run, (4) a system suspend (pm_test=devices)
# under ftrace. Judges nothing: check.py does, on the host.
# shellcheck disable=SC1091 # tests/vm/guest-lib.sh, installed by build-initramfs.sh
. /lib/pcieaudit/guest-lib.sh
guest_mount debugfs

CLI=/usr/bin/pcieaudit-cli
KO=/lib/pcieaudit/pcieaudit.ko
RPM='' RPM_PORT='' RESET=''
read -r CMDLINE </proc/cmdline
for arg in $CMDLINE; do
	case $arg in
	pa_rpm=*) RPM=${arg#*=} ;;
	pa_rpm_port=*) RPM_PORT=${arg#*=} ;;
	pa_reset=*) RESET=${arg#*=} ;;
	esac
done
R=/tmp/results
mkdir -p "$R"
fact() { echo "$1=$2" >>"$R/facts.txt"; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }
# A marker for QEMU's trace: a read of the host bridge at OFFSET, which
# nothing else reads at run time.
marker() { setpci -s 0000:00:00.0 "$1.l" >/dev/null; }
status() { cat "/sys/bus/pci/devices/$1/power/runtime_status" 2>/dev/null; }
wait_status() {
	i=0
	while [ $i -lt 100 ]; do
		[ "$(status "$1")" = "$2" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
stats() { cat /sys/kernel/debug/pcieaudit/monitor >"$R/$1" 2>&1; }
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null

fact kernel "$(uname -r)"
fact rpm_bdf "$RPM"
fact rpm_port_bdf "$RPM_PORT"
fact functions "$(ls /sys/bus/pci/devices | wc -l)"
fact reset_method "$(cat "/sys/bus/pci/devices/$RESET/reset_method" 2>/dev/null)"
lspci -D -vvv -s "$RPM_PORT" >"$R/port.lspci" 2>&1

# 0. Off means off: with monitor_interval_ms=0 the load reads no LnkCap
# (window O, QEMU's trace), and there is no sampler nor link history.
marker 0x58
insmod $KO monitor_interval_ms=0
fact off_insmod_rc $?
sleep 1
marker 0x5c
[ -e /sys/kernel/debug/pcieaudit/monitor ] && fact off_debugfs present || fact off_debugfs absent
$CLI report --json >"$R/report-off.json" 2>"$R/report-off.err"
fact off_report_rc $?
rmmod pcieaudit

insmod $KO monitor_interval_ms=100 monitor_acs_interval_ms=100
fact insmod_rc $?

# 1. The large group, dumped first thing on a fresh socket; sysfs's groups.
group-probe >"$R/group-probe.txt" 2>&1
fact group_probe_rc $?
for g in /sys/kernel/iommu_groups/*; do
	for d in "$g"/devices/*; do
		echo "${g##*/} ${d##*/}"
	done
done >"$R/sysfs-groups.txt"
$CLI report --json >"$R/report.json" 2>"$R/report.err"
fact report_rc $?

# 2. Runtime PM. Window A: all active, the module reads the port.
marker 0x48
sleep 1
marker 0x4c
echo auto >"/sys/bus/pci/devices/$RPM/power/control"
wait_status "$RPM" suspended
fact rpm_endpoint "$(status "$RPM")"
wait_status "$RPM_PORT" suspended
fact rpm_port "$(status "$RPM_PORT")"
# Five passes, so that the sampler has met both suspended before the report.
sleep 0.5
stats stats-suspended-before.txt
$CLI report --json >"$R/report-suspended-1.json" 2>"$R/report-suspended-1.err"
# Window B: both suspended; nothing of ours may read them.
marker 0x50
sleep 2
marker 0x54
stats stats-suspended-after.txt
fact rpm_port_after "$(status "$RPM_PORT")"
$CLI report --json >"$R/report-suspended-2.json" 2>"$R/report-suspended-2.err"
echo on >"/sys/bus/pci/devices/$RPM/power/control"
wait_status "$RPM" active

# 3. Resets in a loop (config access blocked for each one's duration)
# while dumps and a rescan run; their latencies.
stats stats-reset-before.txt
(
	end=$(($(cut -d. -f1 /proc/uptime) + 8))
	n=0
	while [ "$(cut -d. -f1 /proc/uptime)" -lt $end ]; do
		echo 1 >"/sys/bus/pci/devices/$RESET/reset" 2>/dev/null && n=$((n + 1))
	done
	echo "$n" >"$R/resets.txt"
) &
RP=$!
sleep 0.5
i=0
while [ $i -lt 5 ]; do
	t0=$(uptime_s)
	$CLI report --json >/dev/null 2>>"$R/report-reset.err"
	rc=$?
	t1=$(uptime_s)
	echo "dump rc $rc seconds $(echo "$t1 $t0" | awk '{printf "%.2f", $1 - $2}')" >>"$R/latencies.txt"
	i=$((i + 1))
done
t0=$(uptime_s)
echo 1 >"/sys/bus/pci/devices/$RPM/remove"
echo 1 >/sys/bus/pci/rescan
t1=$(uptime_s)
echo "rescan rc $([ -e "/sys/bus/pci/devices/$RPM" ] && echo 0 || echo 1) seconds $(echo "$t1 $t0" | awk '{printf "%.2f", $1 - $2}')" >>"$R/latencies.txt"
wait $RP
stats stats-reset-after.txt

# 4. A system suspend, pm_test stopping after the devices' suspend; the
# module's functions and the PM phases under ftrace.
if echo ':mod:pcieaudit' >$T/set_ftrace_filter 2>/dev/null; then
	echo 1 >$T/events/power/suspend_resume/enable
	echo function >$T/current_tracer
	echo 1 >$T/tracing_on
	sleep 1
	echo devices >/sys/power/pm_test
	echo freeze >/sys/power/state
	fact suspend_rc $?
	sleep 1
	echo 0 >$T/tracing_on
	cat $T/trace >"$R/suspend-trace.txt"
	echo nop >$T/current_tracer
	echo >$T/set_ftrace_filter
	echo 0 >$T/events/power/suspend_resume/enable
	echo none >/sys/power/pm_test
	fact ftrace present
else
	fact ftrace absent
fi
$CLI report --json >"$R/report-resumed.json" 2>"$R/report-resumed.err"
fact report_resumed_rc $?
stats stats-end.txt

rmmod pcieaudit
fact rmmod_rc $?
dmesg >"$R/dmesg.txt"
fact finished 1
guest_ship
