#!/bin/sh
# shellcheck shell=dash
# /init of the pcieaudit test initramfs (busybox ash). It never judges
# anything itself: it only exercises the module and the CLI, records what they
# and the independent sources (lspci, sysfs) say, and ships it all to the host
# over ttyS1, where tests/vm/oracle.py does the comparing. Anything that fails
# here is recorded, never fatal, so the host always gets a payload to judge.

# shellcheck disable=SC1091 # tests/vm/guest-lib.sh, installed by build-initramfs.sh
. /lib/pcieaudit/guest-lib.sh
guest_mount

CLI=/usr/bin/pcieaudit-cli
KO=/lib/pcieaudit/pcieaudit.ko
# Bound every CLI call so that a hang still leaves us a payload to ship
# well within the host's 180 s (seven calls, each normally well under a second).
T="timeout 15"
# The P2P matrix has one kernel call per pair, each explained on the console.
TP="timeout 60"

SCENARIO=unknown
VFIO_BDF=
REMOVE_BDF=
P2P_DO=
ACS_SET=
ACS_DIR=
PLAN_BDF=
LIGHT=
VFIO_IDS=
# pa_demo=1 (make demo): the module's snapshot, the reports and the checks
# only; the P2P probes, the ACS changes, error paths, power states, resets,
# VFIO and dump tests of make vm-test are skipped, and the oracle judges
# what is left.
DEMO=0
read -r CMDLINE </proc/cmdline
for arg in $CMDLINE; do
	case $arg in
	pa_scenario=*) SCENARIO=${arg#pa_scenario=} ;;
	pa_vfio=*) VFIO_BDF=${arg#pa_vfio=} ;;
	pa_vfio_plan=*) PLAN_BDF=${arg#pa_vfio_plan=} ;;
	pa_vfio_attach=*) ATTACH_BDF=${arg#pa_vfio_attach=} ;;
	pa_remove=*) REMOVE_BDF=${arg#pa_remove=} ;;
	pa_explain=*) EXPLAIN=${arg#pa_explain=} ;;
	pa_p2p_do=*) P2P_DO=${arg#pa_p2p_do=} ;;
	pa_acs_set=*) ACS_SET=${arg#pa_acs_set=} ;;
	pa_acs_dir=*) ACS_DIR=${arg#pa_acs_dir=} ;;
	pa_light=*) LIGHT=${arg#pa_light=} ;;
	pa_demo=*) DEMO=${arg#pa_demo=} ;;
	vfio-pci.ids=* | vfio_pci.ids=*) VFIO_IDS=${arg#*=} ;;
	esac
done

R=/tmp/results
mkdir -p "$R"

log() { echo "[guest] $*"; }

# key=value facts about the run, read by the oracle.
fact() { echo "$1=$2" >>"$R/facts.txt"; }

fact scenario "$SCENARIO"
fact kernel "$(uname -r)"
fact cmdline "$CMDLINE"
fact demo "$DEMO"
# What decides P2P DMA besides the topology, from the kernel itself: the CPU
# (AMD Zen allows it through the root complex) and whether the kernel has
# P2PDMA (a real pci_p2pdma_distance_many(), not the header's stub).
fact cpu_vendor "$(sed -n 's/^vendor_id[[:space:]]*: //p' /proc/cpuinfo | head -n1)"
fact cpu_family "$(sed -n 's/^cpu family[[:space:]]*: //p' /proc/cpuinfo | head -n1)"
fact p2pdma_kallsyms "$(grep -c ' pci_p2pdma_distance_many$' /proc/kallsyms)"

# The kernel log is cut into pieces (read and cleared), so that the oracle
# can tell which step made the kernel say what; dmesg.txt joins them.
mkdir -p "$R/klog"
KLOG_N=0
klog() {
	KLOG_N=$((KLOG_N + 1))
	dmesg -c >"$R/klog/$KLOG_N-$1.txt"
}

# pa_light=expect: the second boot of check --expect's VM test
# (topologies/gpu-server-expect.sh), kept light: no drivers, no P2P, ACS,
# reset or D3hot steps. The module, this boot's report --json, each
# function's device path and ids from sysfs (what expect-check.py derives
# the expected findings from) and, with the first boot's snapshot passed in
# over fw_cfg, check --expect against the module itself.
if [ "$LIGHT" = expect ]; then
	[ -f /lib/pcieaudit/deps ] && while read -r m; do modprobe "$m"; done </lib/pcieaudit/deps
	insmod /lib/pcieaudit/pcieaudit.ko >"$R/insmod.out" 2>&1
	fact insmod_rc $?
	$T /usr/bin/pcieaudit-cli report --json >"$R/report.json" 2>"$R/report.err"
	echo $? >"$R/report.rc"
	for d in /sys/bus/pci/devices/*; do
		printf '%s\t%s\t%s\t%s\t%s\n' "${d##*/}" "$(readlink -f "$d")" \
			"$(cat "$d/vendor")" "$(cat "$d/device")" "$(cat "$d/class")"
	done >"$R/paths.tsv"
	modprobe -q qemu_fw_cfg
	G=/sys/firmware/qemu_fw_cfg/by_name/opt/pcieaudit/golden/raw
	if [ -r $G ]; then
		cat $G >/tmp/golden.json
		$T /usr/bin/pcieaudit-cli check --profile expect --format json \
			--expect /tmp/golden.json >"$R/check-guest.json" 2>"$R/check-guest.err"
		echo $? >"$R/check-guest.rc"
	fi
	# The exporter with the module, as nobody (--user, issue 26): its
	# /proc status (every thread) and a scrape, judged on the host
	# against sysfs (paths.tsv) by expect-check.py.
	E=$R/exporter
	mkdir -p $E
	fact exporter_start "$(cut -d' ' -f1 /proc/uptime)"
	ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
	/usr/bin/pcieaudit-cli exporter --listen 127.0.0.1:9862 --user nobody \
		--interval 3600 2>"$E/exporter.err" &
	EP=$!
	i=0
	while [ $i -lt 60 ]; do
		wget -q -O "$E/metrics.txt" http://127.0.0.1:9862/metrics 2>/dev/null &&
			grep -q '^pcieaudit_up ' "$E/metrics.txt" && break
		sleep 0.25
		i=$((i + 1))
	done
	# shellcheck source=tests/vm/guest-exporter.sh
	. /lib/pcieaudit/guest-exporter.sh
	exporter_idle
	exporter_malformed
	exporter_tls
	cat /proc/$EP/status >"$E/status.txt" 2>&1
	for t in /proc/$EP/task/*; do
		grep -E '^(Uid|CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs):' "$t/status" |
			tr '\n' ' '
		echo
	done >"$E/tasks.txt"
	kill $EP
	wait $EP
	echo $? >"$E/exporter.rc"
	fact exporter_end "$(cut -d' ' -f1 /proc/uptime)"
	guest_ship
fi

# Load drivers the way udev would: by each function's modalias. A function
# without a matching module simply stays unbound (driver: null in the JSON).
for d in /sys/bus/pci/devices/*; do
	modprobe -q "$(cat "$d/modalias")" 2>/dev/null || true
done

# vfio-pci.ids=: vfio-pci loads after the host drivers, as from an
# initramfs without a softdep: a named device a host driver took stays
# with it (vfio.ids-not-bound), an unclaimed one goes to vfio-pci.
if [ -n "$VFIO_IDS" ]; then
	modprobe vfio-pci "ids=$VFIO_IDS"
	fact vfio_ids_modprobe_rc $?
fi
lsmod >"$R/lsmod.txt" 2>&1

# SR-IOV: enable up to two VFs on every PF that offers them, so that virtfn,
# physfn and pf are exercised. Drivers are kept off the VFs: QEMU's NVMe VFs
# are offline until provisioned, and probing them only times out.
for d in /sys/bus/pci/devices/*; do
	[ -r "$d/sriov_totalvfs" ] || continue
	total=$(cat "$d/sriov_totalvfs")
	[ "$total" -gt 0 ] || continue
	n=2
	[ "$total" -lt 2 ] && n=$total
	echo 0 >"$d/sriov_drivers_autoprobe"
	if echo "$n" >"$d/sriov_numvfs"; then
		fact "sriov_${d##*/}" "$n"
	else
		fact "sriov_${d##*/}" failed
	fi
done

# ---- independent snapshots -------------------------------------------------

# One line per fact, "BDF<TAB>key<TAB>value", straight from sysfs.
dump_sysfs() {
	for d in /sys/bus/pci/devices/*; do
		b=${d##*/}
		for f in vendor device class subsystem_vendor subsystem_device revision numa_node; do
			if [ -r "$d/$f" ]; then
				printf '%s\t%s\t%s\n' "$b" "$f" "$(cat "$d/$f")"
			fi
		done
		for l in driver iommu_group iommu; do
			if [ -L "$d/$l" ]; then
				v=$(readlink -f "$d/$l")
				printf '%s\t%s\t%s\n' "$b" "$l" "${v##*/}"
			fi
		done
		p=$(readlink -f "$d")
		# The device path: host bridge, then every PCI ancestor.
		printf '%s\t%s\t%s\n' "$b" realpath "$p"
		p=${p%/*}
		printf '%s\t%s\t%s\n' "$b" parent "${p##*/}"
		# Header type; bit 7 is the multifunction bit.
		printf '%s\t%s\t%s\n' "$b" hdr_type \
			"$(dd if="$d/config" bs=1 skip=14 count=1 2>/dev/null | od -An -tx1 | tr -d ' \n')"
		# A bridge with a subordinate bus has it as pci_bus/DDDD:BB.
		for sb in "$d"/pci_bus/*; do
			[ -e "$sb" ] && printf '%s\t%s\t%s\n' "$b" subordinate "${sb##*/}"
		done
		[ -L "$d/physfn" ] && printf '%s\t%s\t%s\n' "$b" physfn "$(basename "$(readlink -f "$d/physfn")")"
		[ -r "$d/sriov_numvfs" ] && printf '%s\t%s\t%s\n' "$b" sriov_numvfs "$(cat "$d/sriov_numvfs")"
		[ -r "$d/sriov_totalvfs" ] && printf '%s\t%s\t%s\n' "$b" sriov_totalvfs "$(cat "$d/sriov_totalvfs")"
		# The kernel makes reset (and reset_method) visible only where it
		# has a reset method for the function (pci_reset_supported()).
		[ -e "$d/reset" ] && printf '%s\t%s\t%s\n' "$b" reset yes
		[ -r "$d/reset_method" ] && printf '%s\t%s\t%s\n' "$b" reset_method "$(cat "$d/reset_method")"
		# The standard BARs' "start end flags" lines, ';'-joined.
		printf '%s\t%s\t%s\n' "$b" resource "$(head -n 6 "$d/resource" | tr '\n' ';')"
		# The VF BARs' lines (7-12 from 0, after the ROM's) of a kernel
		# with CONFIG_PCI_IOV, ';'-joined; empty where the file has none.
		# Read by the shell itself: no process per function.
		ds_i=0 ds_iov=
		while read -r ds_line; do
			[ $ds_i -ge 7 ] && [ $ds_i -le 12 ] && ds_iov="$ds_iov$ds_line;"
			ds_i=$((ds_i + 1))
		done <"$d/resource"
		printf '%s\t%s\t%s\n' "$b" resource_iov "$ds_iov"
		# The kernel's AER counters exist where it handles AER for the
		# function (aer_dev_correctable): yes or no, and each file's
		# TOTAL_ERR_* line as its own key.
		if [ -e "$d/aer_dev_correctable" ]; then
			printf '%s\t%s\t%s\n' "$b" aer yes
			for f in correctable nonfatal fatal; do
				[ -r "$d/aer_dev_$f" ] || continue
				while read -r ds_k ds_v; do
					case $ds_k in
					TOTAL_ERR_*) printf '%s\t%s\t%s\n' "$b" "aer_$ds_k" "$ds_v" ;;
					esac
				done <"$d/aer_dev_$f"
			done
		else
			printf '%s\t%s\t%s\n' "$b" aer no
		fi
		# Runtime PM allowed ("auto"): the function may be suspended when
		# the report reads it, which then leaves its VFIO facts unread.
		if [ -r "$d/power/control" ]; then
			read -r ds_pc <"$d/power/control"
			printf '%s\t%s\t%s\n' "$b" power_control "$ds_pc"
		fi
	done
}

# "GROUP<TAB>type<TAB>T" and "GROUP<TAB>member<TAB>NAME<TAB>SUBSYSTEM".
dump_groups() {
	[ -d /sys/kernel/iommu_groups ] || return 0
	for g in /sys/kernel/iommu_groups/*; do
		[ -d "$g" ] || continue
		n=${g##*/}
		[ -r "$g/type" ] && printf '%s\t%s\t%s\n' "$n" type "$(cat "$g/type")"
		for m in "$g"/devices/*; do
			[ -e "$m" ] || continue
			s=$(readlink -f "$m/subsystem")
			printf '%s\t%s\t%s\t%s\n' "$n" member "${m##*/}" "${s##*/}"
		done
	done
}

# Raw configuration space of every function, as hex bytes, for the oracle's
# register-level cross-checks.
dump_config() {
	for d in /sys/bus/pci/devices/*; do
		printf '%s ' "${d##*/}"
		od -An -tx1 -v "$d/config" | tr -d ' \n'
		echo
	done
}

# snapshot DIR [WRAPPER]: everything the oracle compares, taken back to
# back; WRAPPER (a command prefix) runs the JSON report.
snapshot() {
	mkdir -p "$1"
	if [ $HAVE = 1 ]; then
		# shellcheck disable=SC2086 # $2 is a command prefix, split on purpose
		$T $2 $CLI report --json >"$1/report.json" 2>"$1/report.err"
		echo $? >"$1/report.rc"
	fi
	lspci -D -vvv >"$1/lspci.txt" 2>"$1/lspci.err"
	lspci -D -mm >"$1/lspci-mm.txt" 2>>"$1/lspci.err"
	dump_sysfs >"$1/sysfs.tsv"
	dump_groups >"$1/groups.tsv"
	dump_config >"$1/config.hex"
}

# "name expected actual" per error-path check.
errpath() {
	echo "$1 $2 $3" >>"$R/errpaths.txt"
}

# ---- the run ----------------------------------------------------------------

HAVE=1
if [ ! -x $CLI ] || [ ! -f $KO ]; then
	# Still collect the independent data so the host side can be exercised.
	log "pcieaudit-cli or pcieaudit.ko missing from the initramfs"
	fact artifacts missing
	HAVE=0
else
	fact artifacts present
	# Before the module is loaded the family does not exist: exit 4.
	$T $CLI report >"$R/notloaded.out" 2>&1
	errpath module_not_loaded 4 $?

	if [ -f /lib/pcieaudit/deps ]; then
		while read -r m; do modprobe "$m"; done </lib/pcieaudit/deps
	fi
	insmod $KO >"$R/insmod.out" 2>&1
	rc=$?
	fact insmod_rc $rc
	log "insmod pcieaudit.ko: rc=$rc"
fi

# P2P DMA (p2p-probe.c), first thing after insmod, so that the kernel log's
# allowance for warnings (a minute's) is not yet used up by the CLI's
# reports; with its own sysfs and configuration snapshot. First every
# ordered pair with the kernel's verdict explained in its log (verbose).
# Then without verbose, as normal use would ask: a do request (pa_p2p_do=
# PROVIDER,CLIENT,...) and the whole matrix again, during which the kernel's
# whitelist warnings must stay within pcieaudit's bound. Last, one verbose do
# request per function with all the others as clients, whose
# pci_p2pdma_distance_many() must be the sum of the pairs. Each step's kernel
# log is kept apart.
# pa_acs_set=BDF=CTRL[,BDF=CTRL...]: ACS Control values written first, for
# redirects no IOMMU had the kernel set.
for a in $(echo "$ACS_SET" | tr , ' '); do
	setpci -s "${a%%=*}" ECAP_ACS+6.w="${a#*=}"
	fact "acs_set_${a%%=*}" "$(setpci -s "${a%%=*}" ECAP_ACS+6.w)"
done
if [ $HAVE = 1 ] && [ "$DEMO" = 0 ]; then
	P=$R/p2p
	mkdir -p "$P"
	dump_sysfs >"$P/sysfs.tsv"
	dump_config >"$P/config.hex"
	ends=
	for d in /sys/bus/pci/devices/*; do
		[ -d "$d/pci_bus" ] || ends="$ends ${d##*/}"
	done
	klog before-p2p
	read -r up _ </proc/uptime
	fact p2p_start "$up"
	$TP p2p-probe dump >"$P/dump-verbose.txt" 2>&1
	klog p2p-verbose
	read -r up _ </proc/uptime
	fact p2p_quiet_start "$up"
	if [ -n "$P2P_DO" ]; then
		# shellcheck disable=SC2046 # a list of BDFs, split on purpose
		$TP p2p-probe "do" --quiet $(echo "$P2P_DO" | tr , ' ') >"$P/do-quiet.txt" 2>&1
	fi
	$TP p2p-probe dump --quiet >"$P/dump-quiet.txt" 2>&1
	read -r up _ </proc/uptime
	fact p2p_quiet_end "$up"
	klog p2p-quiet
	# shellcheck disable=SC2086 # a list of BDFs, split on purpose
	$TP p2p-probe do-each $ends >"$P/do-verbose.txt" 2>&1
	read -r up _ </proc/uptime
	fact p2p_end "$up"
	klog p2p-do
	# The same pairs, selected by address (the CLI's request): the
	# module's other dump path. The kernel's cached verdicts log little.
	# shellcheck disable=SC2086 # a list of BDFs, split on purpose
	$TP p2p-probe dump $ends >"$P/dump-select.txt" 2>&1
	klog p2p-select
	log "p2p: $(grep -c '^pair' "$P/dump-verbose.txt") pairs"
fi

snapshot "$R/snap1"
if [ $HAVE = 1 ]; then
	$T $CLI report >"$R/report.txt" 2>"$R/report-text.err"
	fact text_report_rc $?
	# Policy verdicts per profile, before the ACS change below; the oracle
	# holds them against what the topology is built to pass or fail.
	# Human views, kept with the results for the docs (pa_explain=A,B).
	$T $CLI topo >"$R/topo.txt" 2>&1
	if [ -n "$EXPLAIN" ]; then
		$T $CLI p2p "${EXPLAIN%,*}" "${EXPLAIN#*,}" >"$R/p2p-explain.txt" 2>&1
	fi
	for prof in gpudirect vfio baseline; do
		$T $CLI check --profile $prof --format json >"$R/check-$prof.json" 2>"$R/check-$prof.err"
		echo $? >"$R/check-$prof.rc"
		$T $CLI check --profile $prof --no-color >"$R/check-$prof.txt" 2>&1
	done
fi

# Runtime change: flip one ACS control bit of the first root port that has
# ACS; the module must report the live register, not a cached copy.
target=
[ "$DEMO" = 1 ] || for d in /sys/bus/pci/devices/*; do
	b=${d##*/}
	flags=$(setpci -s "$b" CAP_EXP+2.w 2>/dev/null) || continue
	[ $(((0x$flags >> 4) & 0xf)) -eq 4 ] || continue
	acscap=$(setpci -s "$b" ECAP_ACS+4.w 2>/dev/null) || continue
	target=$b
	break
done
if [ -n "$target" ]; then
	old=$(setpci -s "$target" ECAP_ACS+6.w)
	# ReqRedir (bit 2) when the port implements it, else its lowest
	# implemented bit: a bit outside the capability would not stick.
	bit=4
	[ $((0x$acscap & bit)) -ne 0 ] || bit=$((0x$acscap & -0x$acscap))
	new=$(printf '%04x' $((0x$old ^ bit)))
	setpci -s "$target" ECAP_ACS+6.w="$new"
	readback=$(setpci -s "$target" ECAP_ACS+6.w)
	printf 'bdf=%s\nold=%s\nnew=%s\nreadback=%s\n' "$target" "$old" "$new" "$readback" >"$R/acs_change.txt"
	log "ACS ctrl of $target: $old -> $readback"
	snapshot "$R/snap2"
else
	[ "$DEMO" = 1 ] || log "no root port with ACS; runtime-change check not applicable"
fi

# Direction-aware ACS (pa_acs_dir=GPU,NIC,GPU_PORT,NIC_PORT): NVIDIA
# rdma_topo's settings written into the two ports' ACS Control with setpci
# (the module never writes), then the pair's p2p JSON, lspci and sysfs, for
# the oracle's own reading of the PCIe ACS rules. "asym": "xx101x1" on the
# GPU's port, "xx110x1" on the NIC's (bare metal); "dt": "1x111x1" on both
# (VMs with ATS). The ports get their values back afterwards.
acs_apply() {
	v=$((0x$(setpci -s "$1" ECAP_ACS+6.w)))
	i=6
	for c in $(echo "$2" | sed 's/./& /g'); do
		case $c in
		1) v=$((v | (1 << i))) ;;
		0) v=$((v & ~(1 << i))) ;;
		esac
		i=$((i - 1))
	done
	setpci -s "$1" ECAP_ACS+6.w="$(printf '%04x' "$v")"
}
if [ $HAVE = 1 ] && [ -n "$ACS_DIR" ] && [ "$DEMO" = 0 ]; then
	# shellcheck disable=SC2046 # four BDFs, split on purpose
	set -- $(echo "$ACS_DIR" | tr , ' ')
	acs_gpu=$1 acs_nic=$2 acs_gport=$3 acs_nport=$4
	acs_gsave=$(setpci -s "$acs_gport" ECAP_ACS+6.w)
	acs_nsave=$(setpci -s "$acs_nport" ECAP_ACS+6.w)
	for run in asym:xx101x1:xx110x1 dt:1x111x1:1x111x1; do
		name=${run%%:*} rest=${run#*:}
		acs_apply "$acs_gport" "${rest%:*}"
		acs_apply "$acs_nport" "${rest#*:}"
		A=$R/acsdir/$name
		mkdir -p "$A"
		printf 'gpu=%s\nnic=%s\ngpu_port=%s\nnic_port=%s\ngpu_bits=%s\nnic_bits=%s\ngpu_ctrl=%s\nnic_ctrl=%s\n' \
			"$acs_gpu" "$acs_nic" "$acs_gport" "$acs_nport" "${rest%:*}" "${rest#*:}" \
			"$(setpci -s "$acs_gport" ECAP_ACS+6.w)" "$(setpci -s "$acs_nport" ECAP_ACS+6.w)" >"$A/facts.txt"
		lspci -D -vvv >"$A/lspci.txt" 2>&1
		dump_sysfs >"$A/sysfs.tsv"
		$T $CLI p2p --json "$acs_gpu" "$acs_nic" >"$A/p2p.json" 2>"$A/p2p.err"
		echo $? >"$A/p2p.rc"
		$T $CLI p2p "$acs_gpu" "$acs_nic" >"$A/p2p.txt" 2>&1
	done
	setpci -s "$acs_gport" ECAP_ACS+6.w="$acs_gsave"
	setpci -s "$acs_nport" ECAP_ACS+6.w="$acs_nsave"
	log "acs directions: $(ls "$R/acsdir" | tr '\n' ' ')"
fi

if [ $HAVE = 1 ] && [ "$DEMO" = 0 ]; then
	$T $CLI report 0000:7f:1f.7 >"$R/nonexistent.out" 2>&1
	errpath nonexistent_bdf 7 $?
	# Unprivileged: nobody lacks CAP_NET_ADMIN.
	$T su -s /bin/sh -c "$CLI report" nobody >"$R/unprivileged.out" 2>&1
	errpath unprivileged 5 $?
	su -s /bin/sh -c id nobody >"$R/unprivileged-id.out" 2>&1
	# Root without CAP_SYS_ADMIN but with CAP_NET_ADMIN when it opens its
	# socket: sysfs needs CAP_SYS_ADMIN for config space beyond 64 bytes,
	# so the module refuses too. The shell's capabilities go to
	# no-sys-admin-caps.out.
	$T capsh --drop=cap_sys_admin --shell=/bin/sh -- -c \
		"grep ^Cap /proc/self/status >$R/no-sys-admin-caps.out; exec $CLI report" \
		>"$R/no-sys-admin.out" 2>&1
	errpath no_sys_admin 5 $?
	# A device dump the same way, refused before its first function: in
	# .start, or before 6.2 (no extack there) in its first part. EPERM is 1.
	$T capsh --drop=cap_sys_admin --shell=/bin/sh -- -c "exec dump-probe" \
		>"$R/no-sys-admin-dump.txt" 2>&1
	errpath no_sys_admin_dump 1 \
		"$(sed -n 's/^done parts [0-9]* rc \([0-9]*\)$/\1/p' "$R/no-sys-admin-dump.txt")"
	errpath no_sys_admin_dump_devs 0 "$(grep -c '^dev ' "$R/no-sys-admin-dump.txt")"
fi

# Power states and resets, on one endpoint with a PM capability (not the
# VFIO one): its driver is unbound first, so nothing else touches it.
# PMCSR's power-state bits set to 3 (D3hot) with setpci: snapshot "d3hot",
# whose report must say D3hot where lspci's PM Status line says D3; then D0
# again. Then the function is reset (sysfs reset, whatever method the kernel
# picks) in a loop while JSON reports run, none of which may show its
# registers as all ones: the module's reads wait out each reset.
pm_target=
[ "$DEMO" = 1 ] || for d in /sys/bus/pci/devices/*; do
	b=${d##*/}
	[ "$b" = "$VFIO_BDF" ] && continue
	[ -L "$d/physfn" ] && continue
	flags=$(setpci -s "$b" CAP_EXP+2.w 2>/dev/null) || continue
	[ $(((0x$flags >> 4) & 0xf)) -eq 0 ] || continue
	setpci -s "$b" CAP_PM+4.w >/dev/null 2>&1 || continue
	pm_target=$b
	break
done
fact d3hot_bdf "${pm_target:-none}"
if [ $HAVE = 1 ] && [ -n "$pm_target" ]; then
	# Not $d: the snapshot helpers loop over it.
	pm_dev=/sys/bus/pci/devices/$pm_target
	pm_driver=
	if [ -L "$pm_dev/driver" ]; then
		pm_driver=$(basename "$(readlink -f "$pm_dev/driver")")
		echo "$pm_target" >"$pm_dev/driver/unbind"
	fi
	fact d3hot_driver "${pm_driver:-none}"
	fact d3hot_pmcsr_before "$(setpci -s "$pm_target" CAP_PM+4.w)"
	setpci -s "$pm_target" CAP_PM+4.w=0003:0003
	fact d3hot_pmcsr "$(setpci -s "$pm_target" CAP_PM+4.w)"
	snapshot "$R/d3hot"
	$T $CLI report >"$R/d3hot/report.txt" 2>&1
	setpci -s "$pm_target" CAP_PM+4.w=0000:0003
	fact d3hot_pmcsr_after "$(setpci -s "$pm_target" CAP_PM+4.w)"
	log "D3hot: $pm_target (driver ${pm_driver:-none}) report rc $(cat "$R/d3hot/report.rc")"

	# The reset loop runs in the background, at least 20 resets and on
	# until the reports are done; at least 3 reports run, more while the
	# first 20 resets last (the "twenty" mark), 40 at most. Neither side's
	# speed (a fast FLR, a slow report on a loaded host) can leave the
	# reports outside the resets. (Until 2026-12 the reports waited for
	# the loop's end, which waits for them: always 40 reports, 20 s of
	# every guest.)
	fact reset_bdf "${pm_dev##*/}"
	[ -r "$pm_dev/reset_method" ] && fact reset_method "$(cat "$pm_dev/reset_method")"
	mkdir -p "$R/reset"
	(
		i=0 ok=0
		while [ $i -lt 20 ] || { [ ! -e "$R/reset/stop" ] && [ $i -lt 400 ]; }; do
			i=$((i + 1))
			echo 1 2>/dev/null >"$pm_dev/reset" && ok=$((ok + 1))
			[ $i -eq 20 ] && : >"$R/reset/twenty"
		done
		echo "$ok" >"$R/reset/resets-ok"
	) &
	reset_pid=$!
	n=0
	while [ $n -lt 3 ] || { [ $n -lt 40 ] && [ ! -e "$R/reset/twenty" ]; }; do
		n=$((n + 1))
		$T $CLI report --json >"$R/reset/report-$n.json" 2>"$R/reset/report-$n.err"
		echo $? >"$R/reset/report-$n.rc"
	done
	: >"$R/reset/stop"
	wait $reset_pid
	fact reset_reports $n
	fact reset_ok "$(cat "$R/reset/resets-ok" 2>/dev/null)"
	if [ -n "$pm_driver" ]; then
		echo "$pm_target" >"/sys/bus/pci/drivers/$pm_driver/bind" 2>/dev/null
		fact d3hot_rebound "$(basename "$(readlink -f "$pm_dev/driver" 2>/dev/null)")"
	fi
	log "reset: $pm_target: $(cat "$R/reset/resets-ok" 2>/dev/null) resets, $n reports"
fi

# to_vfio BDF: BDF to vfio-pci (driver_override, unbind, drivers_probe);
# d its sysfs folder, group its IOMMU group.
to_vfio() {
	d=/sys/bus/pci/devices/$1
	modprobe vfio-pci
	modprobe vfio_iommu_type1
	echo vfio-pci >"$d/driver_override"
	[ -L "$d/driver" ] && echo "$1" >"$d/driver/unbind"
	echo "$1" >/sys/bus/pci/drivers_probe
	group=$(readlink -f "$d/iommu_group")
	group=${group##*/}
}

# VFIO ownership (pa_vfio=BDF): bind the function to vfio-pci and take one
# more snapshot while vfio-hold keeps its group in a type1 container, where
# the attached domain is unmanaged and no longer the default one. Last,
# because it takes the function away from its driver.
if [ $HAVE = 1 ] && [ -n "$VFIO_BDF" ] && [ "$DEMO" = 0 ]; then
	to_vfio "$VFIO_BDF"
	fact vfio_bdf "$VFIO_BDF"
	fact vfio_group "$group"
	fact vfio_driver "$(basename "$(readlink -f "$d/driver")")"
	snapshot "$R/vfio" "vfio-hold $group"
	log "vfio: $VFIO_BDF (group $group) held: report rc $(cat "$R/vfio/report.rc")"
fi

# Dumps across parts (dump-probe.c): once undisturbed, then with a function
# removed after the first part (pa_remove=BDF). Last but one, because the
# removal changes the topology.
if [ $HAVE = 1 ] && [ "$DEMO" = 0 ]; then
	dump_sysfs >"$R/dump-before.sysfs"
	$T dump-probe >"$R/dump-plain.txt" 2>&1
	if [ -n "$REMOVE_BDF" ]; then
		$T dump-probe --remove "$REMOVE_BDF" >"$R/dump-remove.txt" 2>&1
		dump_sysfs >"$R/dump-after.sysfs"
	fi
fi

# vfio-plan's steps, run as printed (pa_vfio_plan=BDF, a function whose
# group has other members), held to vfio's own verdict on the group
# (vfio-hold: 0 when VFIO_GROUP_GET_STATUS says viable and the group joins
# a type1 container, 104 when not viable). First only the lines for BDF
# itself: the kernel must then refuse the group, as the plan's "must go
# too" says; then every line of the step. Last, as it takes the group's
# functions from their drivers.
if [ $HAVE = 1 ] && [ -n "$PLAN_BDF" ] && [ "$DEMO" = 0 ]; then
	P=$R/vfio-plan
	mkdir -p "$P"
	group=$(readlink -f "/sys/bus/pci/devices/$PLAN_BDF/iommu_group")
	group=${group##*/}
	fact vfio_plan_group "$group"
	for m in $(ls "/sys/bus/pci/devices/$PLAN_BDF/iommu_group/devices"); do
		echo "$m $(cat "/sys/bus/pci/devices/$m/class")"
	done >"$P/members.txt"
	$T $CLI vfio-plan "$PLAN_BDF" >"$P/plan.txt" 2>"$P/plan.err"
	fact vfio_plan_rc $?
	$T $CLI vfio-plan --json "$PLAN_BDF" >"$P/plan.json" 2>>"$P/plan.err"
	fact vfio_plan_json_rc $?
	sed -n '/^1\. bind them to vfio-pci now:$/,/^$/p' "$P/plan.txt" |
		sed '1d;/^$/d' >"$P/steps.sh"
	grep -e '^modprobe ' -e "$PLAN_BDF" "$P/steps.sh" >"$P/steps-own.sh"
	modprobe vfio_iommu_type1
	sh -e "$P/steps-own.sh" >"$P/steps-own.out" 2>&1
	fact vfio_plan_own_steps_rc $?
	vfio-hold "$group" true >"$P/hold-own.out" 2>&1
	fact vfio_plan_own_hold_rc $?
	sh -e "$P/steps.sh" >"$P/steps.out" 2>&1
	fact vfio_plan_steps_rc $?
	while read -r m _; do
		echo "$m $(basename "$(readlink -f "/sys/bus/pci/devices/$m/driver" 2>/dev/null)")"
	done <"$P/members.txt" >"$P/drivers.txt"
	vfio-hold "$group" true >"$P/hold.out" 2>&1
	fact vfio_plan_hold_rc $?
	log "vfio-plan: $PLAN_BDF (group $group): plan rc $(grep '^vfio_plan_rc=' "$R/facts.txt"), hold after its steps $(grep '^vfio_plan_hold_rc=' "$R/facts.txt")"
fi

# vfio's own word on interrupt remapping (pa_vfio_attach=BDF, a function
# alone in its group): bind it to vfio-pci and attach its group to a type1
# container; vfio-hold exits 0 when attached, 107 when VFIO_SET_IOMMU says
# EPERM (vfio_iommu_type1: "No interrupt remapping support"), which
# oracle.py holds check's vfio.interrupt-remapping to. Last, as it takes
# the function from its driver.
if [ $HAVE = 1 ] && [ -n "$ATTACH_BDF" ] && [ "$DEMO" = 0 ]; then
	to_vfio "$ATTACH_BDF"
	fact vfio_attach_group "$group"
	fact vfio_attach_driver "$(basename "$(readlink -f "$d/driver")")"
	vfio-hold "$group" true >"$R/vfio-attach.out" 2>&1
	fact vfio_attach_rc $?
	fact vfio_attach_unsafe "$(cat /sys/module/vfio_iommu_type1/parameters/allow_unsafe_interrupts 2>/dev/null)"
	log "vfio-attach: $ATTACH_BDF (group ${group##*/}): vfio-hold $(grep '^vfio_attach_rc=' "$R/facts.txt")"
fi

# Kernel log last, so it covers everything above.
klog last
for n in $(seq 1 $KLOG_N); do
	cat "$R/klog/$n-"*.txt
done >"$R/dmesg.txt"
fact finished 1

# Real machines inside the kernel (a topology's TOPO_REPLAY: build-initramfs
# --bin put tests/replay/guest-replay.sh, pa_replay.ko and the blobs in
# /usr/bin), after all of the above, whose kernel log is already cut: each
# machine's PCI domain comes and goes with pa_replay.ko, its results under
# replay/ for tests/replay/compare.py.
if [ -f /usr/bin/guest-replay.sh ] && [ "$DEMO" = 0 ]; then
	read -r up _ </proc/uptime
	fact replay_start "$up"
	# shellcheck disable=SC1091 # copied by build-initramfs.sh --bin
	. /usr/bin/guest-replay.sh
	replay_run "$R/replay"
	read -r up _ </proc/uptime
	fact replay_end "$up"
fi

# Ship the results: the host cuts the base64 out between the markers.
guest_ship
