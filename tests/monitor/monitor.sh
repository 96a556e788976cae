# shellcheck shell=bash disable=SC2034,SC2054
# Sourced by tests/vm/run-topology.sh through tests/monitor/run.sh, which
# drives QEMU's QMP socket from the host: pcieaudit-cli monitor while an
# e1000e is hot-unplugged and replugged (device_del, device_add on a
# hotplug-capable root port), ACS control is changed with setpci, and the
# module is removed under it.
MON_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOPO_DESC="VT-d: two root ports, an e1000e hot-unplugged and replugged through QMP, setpci on ACS, rmmod under monitor"
TOPO_MEM=1024
# 50 ms sampling: the link changes pciehp makes are a few hundred ms apart.
TOPO_CMDLINE="intel_iommu=on intremap=off pa_ep=0000:02:00.0 pa_port=0000:00:02.1"
TOPO_INIT=$MON_DIR/monitor-init.sh
TOPO_CHECK=(python3 "$MON_DIR/check.py")
TOPO_TIMEOUT=600
TOPO_ARGS=(
	-device intel-iommu
	-device pcie-root-port,id=rp1,bus=pcie.0,addr=0x2.0,multifunction=on,chassis=1,port=1
	-device pcie-root-port,id=rp2,bus=pcie.0,addr=0x2.1,chassis=2,port=2
	-device nvme,bus=rp1,serial=mon1
	-device e1000e,bus=rp2,id=hp1
	# Native PCIe hot-plug (pciehp), which drives the slot and so the
	# link, instead of QEMU's ACPI hot-plug, which touches neither.
	-global ICH9-LPC.acpi-pci-hotplug-with-bridge-support=off
	-qmp "unix:${PA_QMP_SOCKET:-/tmp/pcieaudit-monitor.qmp},server=on,wait=off"
)
