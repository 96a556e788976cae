# shellcheck shell=bash disable=SC2034,SC2054
# Sourced by tests/vm/run-topology.sh through tests/safety/run.sh: the
# always-on module against the PCI core's power and locking rules. A
# runtime-suspended endpoint and Root Port (pcie_port_pm=force lets the
# port suspend; hotplug=off keeps pciehp's interrupt out of it), an IOMMU
# group of 161 members (conventional functions below a PCIe-to-PCI bridge
# alias to it), an NVMe reset in a loop while dumps and a rescan run, and a
# system suspend through pm_test. QEMU's own trace of every configuration
# read (pci_cfg_read) is the oracle for what the module reads.
SAFETY_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOPO_DESC="VT-d: runtime-suspended port and endpoint, a 161-member IOMMU group, resets under dumps, suspend via pm_test"
TOPO_MEM=1024
# Two CPUs: with one, the pm_test wait leaves no CPU time to a non-freezable
# work, and the suspend check could not fail.
TOPO_SMP=2
TOPO_CMDLINE="intel_iommu=on intremap=off pcie_port_pm=force pa_rpm=0000:01:00.0 pa_rpm_port=0000:00:02.0 pa_reset=0000:04:00.0"
TOPO_INIT=$SAFETY_DIR/safety-init.sh
TOPO_PROGS=("$SAFETY_DIR/group-probe.c")
TOPO_CHECK=(python3 "$SAFETY_DIR/check.py" --trace "${PA_CFG_TRACE:-/dev/null}")
TOPO_TIMEOUT=600
TOPO_ARGS=(
	-device intel-iommu
	-device pcie-root-port,id=rp1,bus=pcie.0,addr=0x2.0,chassis=1,port=1,hotplug=off
	-device pcie-root-port,id=rp2,bus=pcie.0,addr=0x3.0,chassis=2,port=2,hotplug=off
	-device pcie-root-port,id=rp3,bus=pcie.0,addr=0x4.0,chassis=3,port=3,hotplug=off
	-device nvme,bus=rp1,serial=rpm1
	-device nvme,bus=rp3,serial=rst1
	-device pcie-pci-bridge,id=br1,bus=rp2
	-trace "enable=pci_cfg_read,file=${PA_CFG_TRACE:-/dev/null}"
)
# 20 slots of 8 conventional functions (QEMU's edu: no driver binds it).
for slot in $(seq 1 20); do
	for fn in 0 1 2 3 4 5 6 7; do
		mf=
		[[ $fn == 0 ]] && mf=,multifunction=on
		TOPO_ARGS+=(-device "edu,bus=br1,addr=$(printf '0x%x.%d' "$slot" "$fn")$mf")
	done
done
