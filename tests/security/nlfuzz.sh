# shellcheck shell=bash disable=SC2034,SC2054
# Sourced by tests/vm/run-topology.sh through tests/security/run-nlfuzz.sh
# (make nlfuzz, make nlfuzz-long): the security suite on the debug kernel
# (KASAN, UBSAN, lockdep, kmemleak). NLFUZZ_COUNT messages (default
# 10,000), NLFUZZ_SEED (default: the guest picks one and records it),
# NLFUZZ_TIMEOUT seconds for the whole VM, NLFUZZ_HP_CYCLES hot-plug cycles
# of the NVMe on rp3 (default 3) through QMP, answered by
# tests/monitor/qmp-driver.py, which run-nlfuzz.sh starts beside QEMU.
# q35's ACPI hot-plug (acpiphp), not native pciehp as in tests/monitor:
# 6.1.192's pciehp_unconfigure_device() makes lockdep report
# pci_rescan_remove_lock against ctrl->reset_lock on the first unplug, and
# lockdep, once it has reported, is off for the rest of the run.
TOPO_DESC="debug kernel, VT-d: netlink fuzzer with monitor subscribers, privileges, configuration space before and after, hot-plug, rmmod under subscribers"
TOPO_KERNEL=debug
# intremap=off: 6.1's own lockdep report with VT-d and virtio-net
# (tests/kernels/README.md), which would switch lockdep off before we start.
TOPO_CMDLINE="intel_iommu=on intremap=off pa_nlfuzz_count=${NLFUZZ_COUNT:-10000} pa_nlfuzz_seed=${NLFUZZ_SEED:-0} pa_hp_cycles=${NLFUZZ_HP_CYCLES:-3} pa_hp_port=0000:00:02.2"
TOPO_MEM=2048
TOPO_TIMEOUT=${NLFUZZ_TIMEOUT:-1200}
TOPO_INIT=$(dirname "${BASH_SOURCE[0]}")/guest-init.sh
TOPO_PROGS=("$(dirname "${BASH_SOURCE[0]}")/nlfuzz.c")
TOPO_CHECK=(python3 "$(dirname "${BASH_SOURCE[0]}")/check.py")
TOPO_ARGS=(
	-device intel-iommu
	-device pcie-root-port,id=rp1,bus=pcie.0,addr=0x2.0,multifunction=on,chassis=1,port=1
	-device pcie-root-port,id=rp2,bus=pcie.0,addr=0x2.1,chassis=2,port=2
	-device pcie-root-port,id=rp3,bus=pcie.0,addr=0x2.2,chassis=3,port=3,disable-acs=on
	-device x3130-upstream,id=sw1,bus=rp1
	-device xio3130-downstream,id=sw1d1,bus=sw1,chassis=11,slot=1
	-device xio3130-downstream,id=sw1d2,bus=sw1,chassis=12,slot=2
	-device nvme,bus=sw1d1,serial=fz0001
	-device e1000e,bus=sw1d2
	-device e1000e,bus=rp2,addr=0x0.0,multifunction=on
	-device virtio-net-pci,bus=rp2,addr=0x0.1
	# hp1: hot-unplugged and replugged (PA_QMP_DEVICE in run-nlfuzz.sh).
	-device nvme,bus=rp3,serial=fz0002,id=hp1
	-device e1000e,bus=pcie.0,addr=0x4.0
	-qmp "unix:${PA_QMP_SOCKET:-/tmp/pcieaudit-nlfuzz.qmp},server=on,wait=off"
)
