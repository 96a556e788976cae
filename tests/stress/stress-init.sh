#!/bin/sh
# shellcheck shell=dash
# /init of the stress test (busybox ash, debug kernel). Like guest-init.sh it
# judges nothing: it drives pcieaudit.ko through hot-plug, reloads and
# failed allocations while dumps run, writes what happened to logs, and
# ships them to the host, where check.py judges them with the console log.
# Parameters (kernel command line):
#   pa_cycles=N pa_reloads=N   hot-plug cycles, rmmod/insmod cycles
#   pa_sweep=N                 fail-nth sweep bound per dump kind
#   pa_fsrand=S                seconds of random failslab under the dumpers
#   pa_cli_window=N pa_cli_step=N  fail-nth sweep of the CLI's last N
#                              allocations, every STEP-th
#   pa_cli_skb=N               N CLI runs with one skb head allocation failed
#   pa_ep=BDF pa_sw=BDF pa_pf=BDF pa_vfs=N   what the cycles remove
#   pa_vfio_cycles=N           VFIO/SR-IOV cycles (phase 1b)
#   pa_reset=BDF               reset in a loop through phases 1 and 1b

# shellcheck disable=SC1091 # tests/vm/guest-lib.sh, installed by build-initramfs.sh
. /lib/pcieaudit/guest-lib.sh
guest_mount debugfs

CLI=/usr/bin/pcieaudit-cli
KO=/lib/pcieaudit/pcieaudit.ko
SD=/usr/bin/stress-dump
F=/sys/kernel/debug/failslab
KM=/sys/kernel/debug/kmemleak

CYCLES=30 RELOADS=10 SWEEP=100 FSRAND=10 CLI_WINDOW=0 CLI_STEP=1 CLI_SKB=0
EP='' SW='' PF='' VFS=2 SCENARIO=stress VFIO_CYCLES=0 RESET=''
read -r CMDLINE </proc/cmdline
for arg in $CMDLINE; do
	case $arg in
	pa_scenario=*) SCENARIO=${arg#*=} ;;
	pa_cycles=*) CYCLES=${arg#*=} ;;
	pa_reloads=*) RELOADS=${arg#*=} ;;
	pa_sweep=*) SWEEP=${arg#*=} ;;
	pa_fsrand=*) FSRAND=${arg#*=} ;;
	pa_cli_window=*) CLI_WINDOW=${arg#*=} ;;
	pa_cli_step=*) CLI_STEP=${arg#*=} ;;
	pa_cli_skb=*) CLI_SKB=${arg#*=} ;;
	pa_ep=*) EP=${arg#*=} ;;
	pa_sw=*) SW=${arg#*=} ;;
	pa_pf=*) PF=${arg#*=} ;;
	pa_vfs=*) VFS=${arg#*=} ;;
	pa_vfio_cycles=*) VFIO_CYCLES=${arg#*=} ;;
	pa_reset=*) RESET=${arg#*=} ;;
	esac
done

R=/tmp/results
mkdir -p "$R"
log() { echo "[stress] $*"; }
fact() { echo "$1=$2" >>"$R/facts.txt"; }
uptime_s() { read -r up _ </proc/uptime; echo "$up"; }
phase() { fact "phase_$1" "$(uptime_s)"; log "phase $1 at $(uptime_s) s"; }

fact scenario "$SCENARIO"
fact kernel "$(uname -r)"
fact cmdline "$CMDLINE"
for v in CYCLES RELOADS SWEEP FSRAND CLI_WINDOW CLI_STEP CLI_SKB EP SW PF VFS VFIO_CYCLES; do
	eval "fact want_$v \"\$$v\""
done
zcat /proc/config.gz 2>/dev/null | grep -E '^CONFIG_(KASAN|KASAN_GENERIC|KASAN_INLINE|UBSAN|UBSAN_BOUNDS|UBSAN_SHIFT|PROVE_LOCKING|PROVE_RCU|DEBUG_ATOMIC_SLEEP|DEBUG_KMEMLEAK|FAILSLAB|FAULT_INJECTION|PCI_P2PDMA|PCI_IOV|HOTPLUG_PCI_PCIE)=' >"$R/config.txt"
phase boot_done

# SR-IOV VFs without drivers (QEMU's NVMe VFs are offline until provisioned).
echo 0 >"/sys/bus/pci/devices/$PF/sriov_drivers_autoprobe"
echo "$VFS" >"/sys/bus/pci/devices/$PF/sriov_numvfs"
# Functions that come back after a rescan stay without a driver: the run is
# about pcieaudit, not about e1000e or pciehp re-initialising hardware.
echo 0 >/sys/bus/pci/drivers_autoprobe

# Independent record of the topology: every function, its IOMMU group,
# parent, and whether it is a bridge (P2P dumps leave those out).
for d in /sys/bus/pci/devices/*; do
	g=-
	[ -L "$d/iommu_group" ] && g=$(basename "$(readlink -f "$d/iommu_group")")
	br=-
	[ -d "$d/pci_bus" ] && br=bridge
	echo "${d##*/} $g $(basename "$(readlink -f "$d/..")") $br"
done >"$R/universe.txt"
lspci -D -nn >"$R/lspci.txt" 2>&1
log "$(wc -l <"$R/universe.txt") functions"

# Leaks from before the module are not the module's; forget them.
if [ -w $KM ]; then
	echo scan >$KM
	echo clear >$KM
fi
dmesg >"$R/dmesg-boot.txt"

# A sampler ten times the default's pace, so that its passes meet the
# hot-plug, the resets and the dumps often.
insmod $KO monitor_interval_ms=100 monitor_acs_interval_ms=200
fact insmod_rc $?

# ---- the dumpers -------------------------------------------------------------

STOP=/tmp/stop
start_dumpers() {	# $1: log suffix, $2: extra option
	rm -f $STOP
	DPIDS=
	for k in dev group p2p mix; do
		# shellcheck disable=SC2086 # $2 is an optional flag
		$SD loop $k "$R/dump-$k-$1.log" $STOP $2 &
		DPIDS="$DPIDS $!"
	done
	cli_loop "$R/cli-$1.log" &
	DPIDS="$DPIDS $!"
}
stop_dumpers() {
	touch $STOP
	for p in $DPIDS; do wait "$p"; done
}
# The CLI as operators run it; its exit code and first message each time.
cli_loop() {
	while [ ! -e $STOP ]; do
		t0=$(uptime_s)
		timeout 120 $CLI report --json >/tmp/cli.json 2>/tmp/cli.err
		rc=$?
		[ $rc = 0 ] && cp /tmp/cli.json "$1.last.json"
		echo "C $t0 $(uptime_s) $rc $(head -n1 /tmp/cli.err)" >>"$1"
	done
}

# ---- 0. P2P dump resuming from a provider removed between parts ---------------
timeout 600 $SD resume "$R/resume.log" "$SW" "$PF" "$VFS"
fact resume_rc $?

# ---- 1. hot-plug under load ---------------------------------------------------
# Four monitor listeners from here to the reload phase's first rmmod, which
# must end each with exit 4 (check.py: no event lost without a resync line).
MPIDS=
for i in 1 2 3 4; do
	$CLI monitor --json >"$R/monitor-$i.jsonl" 2>"$R/monitor-$i.err" &
	MPIDS="$MPIDS $!"
done
sleep 3
# Resets block the function's config access for each one's duration; the
# sampler must skip it, never stall hot-plug or the dumps behind it.
RESETS_PID=
if [ -n "$RESET" ]; then
	(
		n=0
		while [ ! -e /tmp/stop-resets ]; do
			echo 1 >"/sys/bus/pci/devices/$RESET/reset" 2>/dev/null && n=$((n + 1))
			sleep 0.2
		done
		echo "$n" >"$R/resets.txt"
	) &
	RESETS_PID=$!
fi
phase hotplug_start
start_dumpers hotplug
timeout 3000 $SD hotplug "$R/hotplug.log" "$CYCLES" "$EP" "$SW" "$PF" "$VFS"
fact hotplug_rc $?
stop_dumpers
phase hotplug_end

# ---- 1b. VFIO and SR-IOV under load ---------------------------------------------
# What the IOMMU reads must survive (issue 13, finding 2): each cycle enables
# the PF's VFs from the PF side (sriov_numvfs, the PF driver's
# sriov_configure), binds VF 0 to vfio-pci, opens its group, attaches it to
# a type1 container and detaches and closes it again (vfio-hold), unbinds
# it, and disables the VFs, while the four dumpers and the CLI run. The VFs
# may be absent at any moment of the phase: one window covers them all.
vfio_cycle() {	# $1: cycle number; prints OK or FAIL with the step
	echo "$VFS" >"$P/sriov_numvfs" || { echo "FAIL $1 enable"; return; }
	vf=$(basename "$(readlink -f "$P/virtfn0")")
	echo vfio-pci >"/sys/bus/pci/devices/$vf/driver_override"
	echo "$vf" >/sys/bus/pci/drivers/vfio-pci/bind || { echo "FAIL $1 bind $vf"; return; }
	g=$(basename "$(readlink -f "/sys/bus/pci/devices/$vf/iommu_group")")
	vfio-hold "$g" true >>"$R/vfio-hold.err" 2>&1 || { echo "FAIL $1 hold $vf group $g rc $?"; return; }
	echo "$vf" >/sys/bus/pci/drivers/vfio-pci/unbind || { echo "FAIL $1 unbind $vf"; return; }
	echo 0 >"$P/sriov_numvfs" || { echo "FAIL $1 disable"; return; }
	echo "OK $1 $vf $g"
}
# After a failed step, so that the next cycle starts from no VFs.
vfio_reset() {
	[ -e "$P/virtfn0/driver" ] && readlink -f "$P/virtfn0" | sed 's,.*/,,' \
		>/sys/bus/pci/drivers/vfio-pci/unbind
	echo 0 >"$P/sriov_numvfs"
}
if [ "$VFIO_CYCLES" -gt 0 ]; then
	P=/sys/bus/pci/devices/$PF
	vfs=
	for l in "$P"/virtfn*; do
		vfs=${vfs:+$vfs,}$(basename "$(readlink -f "$l")")
	done
	phase vfio_start
	t0=$(sed 's/ .*//; s/\.//' /proc/uptime)
	start_dumpers vfio
	echo 0 >"$P/sriov_numvfs"
	i=1
	while [ $i -le "$VFIO_CYCLES" ]; do
		res=$(vfio_cycle $i)
		echo "$res" >>"$R/vfio.log"
		case $res in FAIL*) vfio_reset 2>/dev/null ;; esac
		i=$((i + 1))
	done
	echo "$VFS" >"$P/sriov_numvfs"
	stop_dumpers
	t1=$(sed 's/ .*//; s/\.//' /proc/uptime)
	# /proc/uptime is CLOCK_BOOTTIME in centiseconds here; dumps stamp ns.
	echo "W ${t0}0000000 $((t1 + 1))0000000 vfio $vfs" >>"$R/vfio.log"
	phase vfio_end
fi
if [ -n "$RESETS_PID" ]; then
	touch /tmp/stop-resets
	wait "$RESETS_PID"
	fact resets "$(cat "$R/resets.txt" 2>/dev/null)"
	cat /sys/kernel/debug/pcieaudit/monitor >"$R/sampler-after-resets.txt" 2>&1
fi

# ---- 2. rmmod/insmod under load -----------------------------------------------
phase reload_start
start_dumpers reload
timeout 3000 $SD reload "$R/reload.log" "$RELOADS" $KO
fact reload_rc $?
stop_dumpers
i=1
for p in $MPIDS; do
	wait "$p"
	fact "monitor_rc_$i" $?
	i=$((i + 1))
done
phase reload_end
lsmod | grep -q '^pcieaudit' || insmod $KO

# ---- 3. failed allocations during dumps -----------------------------------------
phase failslab_start
# GFP_KERNEL allocations are the ones dumps make; by default failslab skips them.
echo N >$F/ignore-gfp-wait
echo 0 >$F/verbose
# Every allocation of one dump in turn (fail-nth), each kind.
for k in dev group p2p; do
	timeout 900 $SD sweep $k "$R/sweep-$k.log" "$SWEEP"
	fact "sweep_${k}_rc" $?
done
phase failslab_sweep_end
# Random failures (10%) in the dumpers' netlink calls, all kinds at once.
echo Y >$F/task-filter
echo 10 >$F/probability
echo 1 >$F/interval
echo -1 >$F/times
rm -f $STOP
DPIDS=
for k in dev group p2p mix; do
	$SD loop $k "$R/dump-$k-failslab.log" $STOP --failslab &
	DPIDS="$DPIDS $!"
done
sleep "$FSRAND"
stop_dumpers
echo 0 >$F/probability
echo N >$F/task-filter
phase failslab_random_end
# The CLI with its Nth allocation failed, for each STEP-th N of the last
# WINDOW of its allocations (counted first; the earlier ones are the exec's
# and the loader's). A report that claims success must still be whole:
# check.py compares each with sysfs (nothing is hot-plugged now).
if [ "$CLI_WINDOW" -gt 0 ]; then
	mkdir -p "$R/cli-failnth"
	timeout 1200 $SD clisweep "$R/cli-failnth.log" "$R/cli-failnth" \
		"$CLI_WINDOW" "$CLI_STEP" $CLI report --json
	fact clisweep_rc $?
fi
# The CLI again, now with only socket buffer heads failing (cache-filter),
# so that the exec is never hit: each run has one of them fail, the
# interval-th (the count runs on across runs). The cache's failslab flag
# is read-only before 6.4: slub_debug=A,skbuff_head_cache sets it.
SKB=/sys/kernel/slab/skbuff_head_cache/failslab
if [ "$CLI_SKB" -gt 0 ] && [ "$(cat $SKB 2>/dev/null)" = 1 ]; then
	mkdir -p "$R/cli-failnth"
	echo Y >$F/cache-filter
	echo Y >$F/task-filter
	echo 100 >$F/probability
	i=1
	while [ $i -le "$CLI_SKB" ]; do
		echo $i >$F/interval
		echo 1 >$F/times
		timeout 60 sh -c "echo 1 >/proc/self/make-it-fail && exec $CLI report --json" \
			>/tmp/cli.json 2>/tmp/cli.err
		rc=$?
		[ $rc = 0 ] && cp /tmp/cli.json "$R/cli-failnth/skb-$i.json"
		echo "K $i $rc $(head -n1 /tmp/cli.err)" >>"$R/cli-failnth.log"
		i=$((i + 1))
	done
	echo 0 >$F/probability
	echo N >$F/task-filter
	echo N >$F/cache-filter
	fact cli_skb_runs "$CLI_SKB"
fi
echo Y >$F/ignore-gfp-wait
phase failslab_end

# ---- 4. still answering afterwards, then leaks ----------------------------------
start_dumpers after
sleep 5
stop_dumpers
$CLI report --json >"$R/final.json" 2>"$R/final.err"
fact final_rc $?
phase after_end

i=0
while ! rmmod pcieaudit 2>/dev/null && [ $i -lt 100 ]; do
	i=$((i + 1))
	sleep 0.1
done
if lsmod | grep -q '^pcieaudit'; then
	fact final_rmmod failed
else
	fact final_rmmod ok
fi
if [ -w $KM ]; then
	# kmemleak reports objects only once they are 5 s old; scan twice.
	echo scan >$KM
	sleep 6
	echo scan >$KM
	cat $KM >"$R/kmemleak.txt"
	fact kmemleak present
else
	fact kmemleak absent
fi
phase end
dmesg >"$R/dmesg.txt"
fact finished 1

# Ship the results: the host cuts the base64 out between the markers.
guest_ship
