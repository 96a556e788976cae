# shellcheck shell=bash disable=SC2034,SC2054
# Sourced by tests/vm/run-topology.sh (make stress): pcieaudit.ko on the
# debug kernel (KASAN, UBSAN, lockdep, kmemleak, failslab) while 4 dumpers
# and the CLI run through hot-plug, VFIO bind/open/close with SR-IOV VF
# enable/disable, rmmod/insmod and failed allocations.
# stress-short.sh sources this file and shortens the run for make check.
STRESS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOPO_DESC="debug kernel, VT-d: a switch (NVMe, e1000e) below a root port, an SR-IOV NVMe PF with 2 VFs, an e1000e endpoint, an RCiEP; 200 hot-plug cycles, 200 VFIO/SR-IOV cycles, 50 reloads, failslab"
TOPO_KERNEL=debug
TOPO_MEM=2048
# Two vCPUs, so that dumps and hot-plug really run at the same time (the
# debug kernel is not preemptible).
TOPO_SMP=2
# loglevel=5: warnings and worse on the console; the rest is in dmesg.txt.
# Under TCG on a loaded host the kernel's own ACPI _DSM evaluation during a
# rescan once held a vCPU for over a minute: RCU stall reports stay on (a
# stall fails the run) but after 300 s rather than 21 s.
# slub_debug=A marks the one cache whose allocations the CLI phase fails.
# intremap=off leaves VFIO type1 without interrupt remapping, which it
# refuses (VFIO_SET_IOMMU: EPERM) unless told the guest is the whole world.
STRESS_KERNEL="rcupdate.rcu_cpu_stall_timeout=300 slub_debug=A,skbuff_head_cache vfio_iommu_type1.allow_unsafe_interrupts=1"
STRESS_PARAMS="pa_cycles=200 pa_vfio_cycles=200 pa_reloads=50 pa_sweep=400 pa_fsrand=60 pa_cli_window=1600 pa_cli_step=10 pa_cli_skb=40"
STRESS_TOPO="pa_ep=0000:06:00.0 pa_sw=0000:01:00.0 pa_pf=0000:05:00.0 pa_vfs=2 pa_reset=0000:07:00.0"
TOPO_CMDLINE="intel_iommu=on intremap=off loglevel=5 $STRESS_KERNEL $STRESS_PARAMS $STRESS_TOPO"
TOPO_INIT=$STRESS_DIR/stress-init.sh
TOPO_PROGS=("$STRESS_DIR/stress-dump.c")
TOPO_CHECK=(python3 "$STRESS_DIR/check.py" --min-cycles 200 --min-reloads 50 --min-vfio-cycles 200)
# A VFIO/SR-IOV cycle takes about 14 s of TCG (VF creation, vfio-pci
# probe and open, each with a function reset): phase 1b alone is ~47 min.
TOPO_TIMEOUT=7200
TOPO_ARGS=(
	-device intel-iommu
	-device pcie-root-port,id=rp1,bus=pcie.0,addr=0x2.0,multifunction=on,chassis=1,port=1
	-device pcie-root-port,id=rp2,bus=pcie.0,addr=0x2.1,chassis=2,port=2
	-device pcie-root-port,id=rp3,bus=pcie.0,addr=0x2.2,chassis=3,port=3
	# The switch whose upstream port is removed with its whole subtree.
	-device x3130-upstream,id=sw1,bus=rp1
	-device xio3130-downstream,id=sw1d1,bus=sw1,chassis=11,slot=1
	-device xio3130-downstream,id=sw1d2,bus=sw1,chassis=12,slot=2
	-device nvme,bus=sw1d1,serial=stress1
	-device e1000e,bus=sw1d2
	# SR-IOV PF (QEMU 7.2 wants an NVMe subsystem for it); never removed.
	-device nvme-subsys,id=nvs1
	-device nvme,bus=rp2,serial=stress2,subsys=nvs1,sriov_max_vfs=2,sriov_vq_flexible=4,sriov_vi_flexible=2
	# The single endpoint that is removed and rescanned.
	-device e1000e,bus=rp3
	# Never touched: must be in every dump.
	-device e1000,bus=pcie.0,addr=0x4.0
	# Reset (FLR) in a loop through phases 1 and 1b: config access blocked.
	-device pcie-root-port,id=rp4,bus=pcie.0,addr=0x2.3,chassis=4,port=4
	-device nvme,bus=rp4,serial=stress3
)
