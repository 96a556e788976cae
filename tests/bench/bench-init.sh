#!/bin/sh
# shellcheck shell=dash
# /init of the benchmark initramfs (busybox ash). Measures, within this one
# boot, what each way of collecting the PCI facts costs, and ships the raw
# figures to the host (tests/bench/analyze.py computes the medians). It
# judges nothing; anything that fails is recorded and the payload still goes.
#
# Kernel command line: pa_rounds=N (default 5), pa_variants=a,b,... (default
# all), pa_profile=0 to skip perf and strace, pa_monitor_s=N (default 30)
# for the sampler's quiet window, pa_scrapes=N (default 30), pa_monitor=0 to
# skip the sampler and exporter phases.

# shellcheck disable=SC1091 # tests/vm/guest-lib.sh, installed by build-initramfs.sh
. /lib/pcieaudit/guest-lib.sh
guest_mount

CLI=/usr/bin/pcieaudit-cli
KO=/lib/pcieaudit/pcieaudit.ko
R=/tmp/results
O=/tmp/out
mkdir -p "$R" "$O"

ROUNDS=5
VARIANTS="report lspci scrape clisysfs topo text exec"
PROFILE=1
MONITOR=1
MONITOR_S=30
SCRAPES=30
SCENARIO=unknown
read -r CMDLINE </proc/cmdline
for arg in $CMDLINE; do
	case $arg in
	pa_scenario=*) SCENARIO=${arg#pa_scenario=} ;;
	pa_rounds=*) ROUNDS=${arg#pa_rounds=} ;;
	pa_variants=*) VARIANTS=$(echo "${arg#pa_variants=}" | tr , ' ') ;;
	pa_profile=*) PROFILE=${arg#pa_profile=} ;;
	pa_monitor=*) MONITOR=${arg#pa_monitor=} ;;
	pa_monitor_s=*) MONITOR_S=${arg#pa_monitor_s=} ;;
	pa_scrapes=*) SCRAPES=${arg#pa_scrapes=} ;;
	esac
done

log() { echo "[bench] $*"; }

# The image has no /etc/ld.so.cache, so every dynamic binary would search
# each library through all hwcaps directories (hundreds of failed opens per
# run, measured); a real system has the cache, so build it.
printf '/lib/x86_64-linux-gnu\n/usr/lib/x86_64-linux-gnu\n' >/etc/ld.so.conf
ldconfig 2>/dev/null
fact() { echo "$1=$2" >>"$R/facts.txt"; }
up() { cut -d' ' -f1 /proc/uptime; }

fact scenario "$SCENARIO"
fact kernel "$(uname -r)"
fact p2pdma_kallsyms "$(grep -c ' pci_p2pdma_distance_many$' /proc/kallsyms)"
fact boot_uptime "$(up)"
fact clocksource "$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
# Times are the guest's CLOCK_MONOTONIC; under TCG its rate rests on the
# TSC calibration of this boot, kept here to compare boots.
fact tsc "$(dmesg | sed -n 's/.*tsc: \(Detected\|Refined TSC clocksource calibration:\) //p' | tr '\n' ' ')"

# NVMe PFs need their driver for sriov_numvfs; VFs stay unprobed (QEMU's
# VFs are offline until provisioned; probing them only times out).
modprobe nvme 2>/dev/null
for d in /sys/bus/pci/devices/*; do
	[ -r "$d/sriov_totalvfs" ] || continue
	total=$(cat "$d/sriov_totalvfs")
	[ "$total" -gt 0 ] || continue
	# The driver binds asynchronously.
	i=0
	while [ ! -e "$d/driver" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	echo 0 >"$d/sriov_drivers_autoprobe"
	echo "$total" >"$d/sriov_numvfs" || fact "sriov_failed_${d##*/}" "$total"
done
fact vfs_enabled_uptime "$(up)"

insmod $KO >"$R/insmod.out" 2>&1
fact insmod_rc $?
# count GLOB...: how many of the paths exist.
count() {
	n=0
	for p in "$@"; do [ -e "$p" ] && n=$((n + 1)); done
	echo $n
}
nfun=$(count /sys/bus/pci/devices/*)
fact functions "$nfun"
fact bridges "$(count /sys/bus/pci/devices/*/pci_bus)"
fact vfs "$(count /sys/bus/pci/devices/*/physfn)"
fact groups "$(count /sys/kernel/iommu_groups/*)"
log "$nfun PCI functions"

# 64 endpoints for the P2P matrix, spread evenly over all functions without
# a subordinate bus (multifunction endpoints, PFs and VFs on every node).
for d in /sys/bus/pci/devices/*; do
	[ -d "$d/pci_bus" ] || echo "${d##*/}"
done >"$R/endpoints.txt"
nend=$(wc -l <"$R/endpoints.txt")
step=$((nend / 64))
[ $step -ge 1 ] || step=1
awk -v s=$step 'NR % s == 1 % s && n < 64 { print; n++ }' "$R/endpoints.txt" >"$R/selected.txt"
SEL=$(tr '\n' ' ' <"$R/selected.txt")
fact selected "$(wc -l <"$R/selected.txt")"

# shellcheck disable=SC2086 # $SEL is a list of BDFs, split on purpose
run() {
	case $1 in
	report) benchrun "$O/$1" $CLI report --json ;;
	lspci) benchrun "$O/$1" lspci -vvv ;;
	scrape) benchrun "$O/$1" scrape ;;
	clisysfs) benchrun "$O/$1" $CLI report --json --sysfs /sys ;;
	topo) benchrun "$O/$1" $CLI topo $SEL ;;
	# The same facts without JSON, and the floor of any CLI run.
	text) benchrun "$O/$1" $CLI report ;;
	exec) benchrun "$O/$1" $CLI --version ;;
	# The same floor for lspci: what any dynamically linked run costs.
	lspciexec) benchrun "$O/$1" lspci --version ;;
	# The floor of report with the module: its netlink requests, every
	# reply read and thrown away (the kernel's dump and the transfers).
	dump) benchrun "$O/$1" nldump ;;
	esac
}

# Round 0 warms caches (pci.ids, the binaries) and is not counted. Each
# round starts the variant list at another place, so that slow drift of
# the host (other jobs share its cores) spreads over all variants alike.
nvar=$(echo "$VARIANTS" | wc -w)
fact bench_start "$(up)"
r=0
while [ $r -le "$ROUNDS" ]; do
	i=0
	while [ $i -lt "$nvar" ]; do
		k=$(( (i + r) % nvar + 1 ))
		v=$(echo "$VARIANTS" | cut -d' ' -f$k)
		printf '%s\t%s\t%s\n' "$r" "$v" "$(run "$v")" >>"$R/times.tsv"
		i=$((i + 1))
	done
	log "round $r done at $(up)"
	r=$((r + 1))
done
fact bench_end "$(up)"

# The sampler's cost, from the module's own accounting (debugfs
# pcieaudit/monitor, kmod/monitor.c): a quiet window at the default
# interval (one pass a second, ACS control every 10 s), nothing else
# running. Its passes' time over the window is its CPU share (an upper
# bound: a pass's wall time).
STATS=/sys/kernel/debug/pcieaudit/monitor
if [ "$MONITOR" = 1 ]; then
	mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
	sleep 2
	cat $STATS >"$R/monitor-before.txt" 2>&1
	fact monitor_start "$(up)"
	sleep "$MONITOR_S"
	fact monitor_end "$(up)"
	cat $STATS >"$R/monitor-after.txt" 2>&1
	log "sampler window done at $(up)"
fi

# The exporter's scrape latency: the exporter collects in the background
# (every 10 s, and after monitor events) and a scrape serves the last
# collection from memory; httpget times SCRAPES scrapes one after another.
if [ "$MONITOR" = 1 ]; then
	# /init brings up no interface, loopback included.
	ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
	$CLI exporter --listen 127.0.0.1:9862 >/dev/null 2>"$R/exporter.err" &
	EXP=$!
	# It listens after its first collection (at 1024 functions under TCG
	# that includes the P2P matrix of some 370 NVMe functions).
	i=0
	until httpget 9862 / 1 /dev/null >/dev/null 2>&1 || [ $i -ge 600 ]; do
		sleep 0.5
		i=$((i + 1))
	done
	fact exporter_ready_uptime "$(up)"
	httpget 9862 /metrics "$SCRAPES" "$O/exporter-body.txt" >"$R/exporter-scrapes.txt"
	fact exporter_scrapes_rc $?
	# Then 40 more, 500 ms apart: over 20 s, background collections (every
	# 10 s) share the one CPU with some of them.
	httpget 9862 /metrics 40 "$O/exporter-body2.txt" 500 >"$R/exporter-scrapes-spread.txt"
	fact exporter_scrapes_spread_rc $?
	kill $EXP
	wait $EXP
	fact exporter_rc $?
	gzip -c "$O/exporter-body.txt" >"$R/exporter-body.gz"
	log "exporter scrapes done at $(up)"
fi
# The last output of each, for the host's sanity checks.
for v in $VARIANTS; do
	gzip -c "$O/$v" >"$R/out-$v.gz"
done
# What dump's total is made of: reads, messages and bytes of each request.
case " $VARIANTS " in
*" dump "*) nldump -v >/dev/null 2>"$R/nldump-requests.txt"; fact nldump_v_rc $? ;;
esac

# Where the time goes: sampled profiles (user and kernel) and syscall counts.
if [ "$PROFILE" = 1 ]; then
	mkdir -p "$R/prof"
	for v in $VARIANTS; do
		# shellcheck disable=SC2086 # $SEL is a list of BDFs
		case $v in
		report) set -- $CLI report --json ;;
		lspci) set -- lspci -vvv ;;
		scrape) set -- scrape ;;
		clisysfs) set -- $CLI report --json --sysfs /sys ;;
		topo) set -- $CLI topo $SEL ;;
		text) set -- $CLI report ;;
		exec | lspciexec | dump) continue ;;
		esac
		strace -c -f -o "$R/prof/strace-$v.txt" "$@" >/dev/null 2>&1
		strace -f -e trace=recvmsg,sendmsg,pread64,openat,readlink,readlinkat \
			-o "$O/trace-$v.txt" "$@" >/dev/null 2>&1
		# recvmsg sizes: one line per netlink read, its return value last.
		grep -c 'recvmsg' "$O/trace-$v.txt" >"$R/prof/recvmsg-$v.count"
		grep 'recvmsg' "$O/trace-$v.txt" | sed 's/.*= //' | sort -n | uniq -c |
			sort -rn | head -20 >"$R/prof/recvmsg-$v.sizes"
		# Flat profile of every variant; call graphs (DWARF unwinding, so
		# no frame pointers needed) for the CLI's own variants.
		perf record -q -e cpu-clock -F 1000 -o "$O/perf-$v.data" -- \
			sh -c 'for i in 1 2 3; do "$@" >/dev/null; done' sh "$@" \
			>"$R/prof/perf-$v.rec" 2>&1
		perf report -i "$O/perf-$v.data" --stdio --sort dso \
			>"$R/prof/perf-$v-dso.txt" 2>&1
		perf report -i "$O/perf-$v.data" --stdio --sort dso,sym \
			--percent-limit 0.5 >"$R/prof/perf-$v-sym.txt" 2>&1
		rm -f "$O/perf-$v.data"
		case $v in
		report | topo) ;;
		*) log "profiled $v"; continue ;;
		esac
		perf record -q -e cpu-clock -F 200 --call-graph dwarf,16384 \
			-o "$O/perf-$v-cg.data" -- "$@" >/dev/null 2>"$R/prof/perf-$v-cg.rec"
		perf report -i "$O/perf-$v-cg.data" --stdio --children -g none \
			--sort sym --percent-limit 1 >"$R/prof/perf-$v-children.txt" 2>&1
		rm -f "$O/perf-$v-cg.data"
		log "profiled $v"
	done
fi

dmesg >"$R/dmesg.txt"
fact finished 1

# Ship the results: the host cuts the base64 out between the markers.
guest_ship
