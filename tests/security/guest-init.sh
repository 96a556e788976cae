#!/bin/sh
# shellcheck shell=dash
# /init of the security suite's guest (busybox ash, debug kernel): the
# privilege model, configuration space before and after every operation,
# and the netlink fuzzer (nlfuzz.c). It judges nothing: it records, and
# check.py on the host decides. Failures here are recorded, never fatal,
# so the host always gets a payload.
#
# Kernel command line: pa_nlfuzz_count=N pa_nlfuzz_seed=S (0: pick one),
# pa_hp_cycles=N (hot-plug cycles of the function below pa_hp_port, each
# asked of the host's QMP driver on the console, as tests/monitor does).

# shellcheck disable=SC1091 # tests/vm/guest-lib.sh, installed by build-initramfs.sh
. /lib/pcieaudit/guest-lib.sh
guest_mount debugfs

CLI=/usr/bin/pcieaudit-cli
KO=/lib/pcieaudit/pcieaudit.ko
T="timeout 60"
COUNT=10000
SEED=0
HP_CYCLES=0
HP_PORT=
read -r CMDLINE </proc/cmdline
for arg in $CMDLINE; do
	case $arg in
	pa_nlfuzz_count=*) COUNT=${arg#pa_nlfuzz_count=} ;;
	pa_nlfuzz_seed=*) SEED=${arg#pa_nlfuzz_seed=} ;;
	pa_hp_cycles=*) HP_CYCLES=${arg#pa_hp_cycles=} ;;
	pa_hp_port=*) HP_PORT=${arg#pa_hp_port=} ;;
	esac
done
[ "$SEED" = 0 ] && SEED=$(od -An -N6 -tu8 /dev/urandom | tr -d ' ')

R=/tmp/results
mkdir -p "$R"
log() { echo "[guest] $*"; }
fact() { echo "$1=$2" >>"$R/facts.txt"; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }
now() { date -u +%Y-%m-%dT%H:%M:%S; }

fact kernel "$(uname -r)"
fact seed "$SEED"
fact count "$COUNT"
fact kmemleak "$([ -w /sys/kernel/debug/kmemleak ] && echo 1 || echo 0)"
fact kasan "$(grep -c ' kasan_report$' /proc/kallsyms)"
fact lockdep "$(grep -c ' lockdep_init$' /proc/kallsyms)"

# Drivers are built in; they probed at boot. Everything that writes
# configuration space on purpose (driver probe) is over before the baseline.
# config_snap DIR: every function's configuration space as root (4096 bytes
# for PCIe), one line "BDF SIZE HEX".
config_snap() {
	mkdir -p "$1"
	for d in /sys/bus/pci/devices/*; do
		printf '%s %s ' "${d##*/}" "$(wc -c <"$d/config")"
		od -An -tx1 -v "$d/config" | tr -d ' \n'
		echo
	done >"$1/config.hex"
}

# Baseline: three snapshots without any operation in between; what differs
# among them is volatile (status bits a device sets on its own).
config_snap "$R/config/base0"
sleep 2
config_snap "$R/config/base1"
sleep 2
config_snap "$R/config/base2"

if [ ! -x $CLI ] || [ ! -f $KO ]; then
	log "pcieaudit-cli or pcieaudit.ko missing"
	fact artifacts missing
else
	fact artifacts present
	# Leaks from boot are not ours: mark what kmemleak knows as seen.
	if [ -w /sys/kernel/debug/kmemleak ]; then
		echo scan >/sys/kernel/debug/kmemleak
		echo clear >/sys/kernel/debug/kmemleak
	fi
	# 100 ms sampling, of ACS control too (its default is 10 s since the
	# sampler reads one LnkSta per link): the ACS changes below are 300 ms
	# apart. With the 10 s default a run saw no ACS event at all, once.
	insmod $KO monitor_interval_ms=100 monitor_acs_interval_ms=100 >"$R/insmod.out" 2>&1
	fact insmod_rc $?

	# ---- subscribers to the monitor group, for the whole run ---------
	# 4 sockets, 2 of them with the smallest receive buffer (ENOBUFS),
	# and one joining and leaving; they stay through rmmod.
	M=$R/monitor
	mkdir -p "$M"
	nlfuzz --listen --out "$M" --sockets 4 --small 2 --seed "$SEED" >"$R/listen.out" 2>&1 &
	LISTENER=$!
	wait_path "$M/ready" 20
	fact listen_ready $((1 - $?))

	# ---- privileges --------------------------------------------------
	P=$R/priv
	mkdir -p "$P"
	$T $CLI report >"$P/root.out" 2>&1
	echo $? >"$P/root.rc"
	nlfuzz --privcheck >"$P/root-ops.txt" 2>&1
	# Joining the monitor group: root, nobody, root of a user namespace.
	nlfuzz --joincheck >"$P/root-join.txt" 2>&1
	su -s /bin/sh -c "nlfuzz --joincheck" nobody >"$P/nobody-join.txt" 2>&1
	unshare -Ur nlfuzz --joincheck >"$P/userns-join.txt" 2>&1
	FID=$(sed -n 's/^family_id //p' "$P/root-ops.txt")
	# The module asks the socket's opener alone: root's socket after its
	# process became nobody without capabilities (the exporter's --user),
	# a socket opened without effective capabilities with root sending,
	# and a membership joined as root across the same drop.
	nlfuzz --privcheck --drop >"$P/drop-ops.txt" 2>&1
	nlfuzz --privcheck --opened-unpriv >"$P/opened-unpriv-ops.txt" 2>&1
	nlfuzz --joincheck --drop >"$P/drop-join.txt" 2>&1
	# An unprivileged user: nobody, without any capability.
	$T su -s /bin/sh -c "$CLI report" nobody >"$P/nobody.out" 2>&1
	echo $? >"$P/nobody.rc"
	su -s /bin/sh -c "nlfuzz --privcheck" nobody >"$P/nobody-ops.txt" 2>&1
	su -s /bin/sh -c "id" nobody >"$P/nobody-id.txt" 2>&1
	# Every fuzzed request as nobody must be refused: by the core's checks
	# of the message, or by the module (EPERM, its extack message).
	mkdir -p "$P/fuzz-nobody"
	chmod 777 "$P/fuzz-nobody"
	$T su -s /bin/sh -c "nlfuzz --unpriv --count 1000 --seed $SEED --out $P/fuzz-nobody" \
		nobody >"$P/fuzz-nobody.out" 2>&1
	echo $? >"$P/fuzz-nobody.rc"
	# Root of a new user namespace (full capabilities there, none in the
	# initial one), still in the initial network namespace.
	$T unshare -Ur $CLI report >"$P/userns.out" 2>&1
	echo $? >"$P/userns.rc"
	unshare -Ur nlfuzz --privcheck >"$P/userns-ops.txt" 2>&1
	unshare -Ur id >"$P/userns-id.txt" 2>&1
	# The same from nobody, as a rootless container would.
	$T su -s /bin/sh -c "unshare -Ur $CLI report" nobody >"$P/nobody-userns.out" 2>&1
	echo $? >"$P/nobody-userns.rc"
	# Root in a new network namespace: the family is not there; requests
	# sent to its id from the initial namespace find nothing either.
	$T unshare -n $CLI report >"$P/netns.out" 2>&1
	echo $? >"$P/netns.rc"
	unshare -n nlfuzz --privcheck --family-id "${FID:-0}" >"$P/netns-ops.txt" 2>&1

	# ---- every operation of the CLI, as root -------------------------
	O=$R/ops
	mkdir -p "$O"
	first=
	second=
	for d in /sys/bus/pci/devices/*; do
		[ -d "$d/pci_bus" ] && continue
		if [ -z "$first" ]; then first=${d##*/}; elif [ -z "$second" ]; then second=${d##*/}; fi
	done
	n=0
	for c in "info" "report" "report --json" "topo" "topo --all --json" "p2p $first $second" \
		"report $first" "check --profile gpudirect" "check --profile vfio" \
		"check --profile baseline --format json"; do
		n=$((n + 1))
		# shellcheck disable=SC2086 # a command line, split on purpose
		$T $CLI $c >"$O/$n.out" 2>&1
		echo "$n $? $c" >>"$O/rc.txt"
	done
	$T p2p-probe dump --quiet >"$O/p2p-probe.out" 2>&1
	echo "p2p-probe $?" >>"$O/rc.txt"
	$T dump-probe >"$O/dump-probe.out" 2>&1
	echo "dump-probe $?" >>"$O/rc.txt"

	# ---- the fuzzer --------------------------------------------------
	mkdir -p "$R/nlfuzz"
	# While it fuzzes, ACS Source Validation of a root port is toggled
	# every 300 ms (the test's own write, restored after): ACS events for
	# the subscribers, the sampler running beside the requests.
	ACS_PORT=0000:00:02.0
	ACS0=$(setpci -s $ACS_PORT ECAP_ACS+6.w 2>/dev/null)
	fact acs_port "$ACS_PORT"
	fact acs_orig "$ACS0"
	TOGGLER=
	if [ -n "$ACS0" ]; then
		ACS1=$(printf '%04x' $((0x$ACS0 ^ 1)))
		fact acs_toggled "$ACS1"
		(
			n=0
			while [ ! -e /tmp/acs-stop ]; do
				setpci -s $ACS_PORT ECAP_ACS+6.w="$ACS1"
				sleep 0.3
				setpci -s $ACS_PORT ECAP_ACS+6.w="$ACS0"
				sleep 0.3
				n=$((n + 2))
				echo $n >/tmp/acs-writes
			done
		) &
		TOGGLER=$!
	fi
	fact fuzz_start "$(uptime_s)"
	log "nlfuzz: $COUNT messages, seed $SEED"
	nlfuzz --seed "$SEED" --count "$COUNT" --out "$R/nlfuzz" >"$R/nlfuzz.out" 2>&1
	fact nlfuzz_rc $?
	fact fuzz_end "$(uptime_s)"
	tail -n 3 "$R/nlfuzz.out"
	if [ -n "$TOGGLER" ]; then
		touch /tmp/acs-stop
		wait $TOGGLER
		setpci -s $ACS_PORT ECAP_ACS+6.w="$ACS0"
		fact acs_writes "$(cat /tmp/acs-writes 2>/dev/null || echo 0)"
	fi

	config_snap "$R/config/after"

	# ---- hot-plug under the subscribers (after the snapshot: replugging
	# assigns resources anew) --------------------------------------------
	EP=
	if [ -n "$HP_PORT" ]; then
		# The function below the port, not its port services (pcie001).
		for d in /sys/bus/pci/devices/"$HP_PORT"/0000:??:??.?; do
			[ -e "$d/config" ] && EP=${d##*/} && break
		done
	fi
	fact hp_ep "$EP"
	fact hp_port "$HP_PORT"
	fact hp_cycles_asked "$HP_CYCLES"
	fact hp_start "$(uptime_s)"
	c=0
	done_cycles=0
	while [ $c -lt "$HP_CYCLES" ] && [ -n "$EP" ]; do
		c=$((c + 1))
		echo "PA-MON-REQUEST unplug $c@$(now) "
		wait_path "/sys/bus/pci/devices/$EP" 60 gone || break
		sleep 1
		echo "PA-MON-REQUEST plug $c@$(now) "
		wait_path "/sys/bus/pci/devices/$EP" 60 || break
		sleep 2
		done_cycles=$c
	done
	fact hp_cycles "$done_cycles"
	fact hp_end "$(uptime_s)"

	# rmmod with the subscribers attached: they see nlctrl's notice of
	# the family's removal and end by themselves.
	# After rmmod, so that what only the module's own data still pointed
	# to counts too. kmemleak reports an object unreferenced for 5 s or
	# more and unchanged since the previous scan: two scans.
	rmmod pcieaudit >"$R/rmmod.out" 2>&1
	fact rmmod_rc $?
	i=0
	while kill -0 $LISTENER 2>/dev/null && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 $LISTENER 2>/dev/null; then
		fact listen_self_exit 0
		kill -TERM $LISTENER
	else
		fact listen_self_exit 1
	fi
	wait $LISTENER
	fact listen_rc $?
	tail -n 6 "$R/listen.out"
	if [ -w /sys/kernel/debug/kmemleak ]; then
		echo scan >/sys/kernel/debug/kmemleak
		sleep 5
		echo scan >/sys/kernel/debug/kmemleak
		cat /sys/kernel/debug/kmemleak >"$R/kmemleak.txt"
	fi
	fact leak_scan_end "$(uptime_s)"
fi

dmesg >"$R/dmesg.txt"
fact finished 1

# Ship the results: the host cuts the base64 out between the markers.
guest_ship
