# shellcheck shell=bash disable=SC2034,SC2054
# Sourced by run-topology.sh.
TOPO_DESC="AMD-Vi (strict); two-level x3130/xio3130 switch; root ports of mixed link speeds; interrupt remapping off: vfio refuses a group, as vfio.interrupt-remapping says"
# iommu.strict=1: translated default domains are "DMA" here, not "DMA-FQ".
# module_blacklist=nvme: QEMU 7.2's AMD IOMMU loses the NVMe admin completions
# (60 s timeout per controller); the NVMe functions stay, unbound.
# pa_vfio_attach: the virtio-net function alone below rp2 goes to vfio-pci,
# and vfio_iommu_type1 must refuse its group (no interrupt remapping), as
# check's vfio.interrupt-remapping says (oracle.py, vfio_intremap).
TOPO_CMDLINE="iommu.strict=1 module_blacklist=nvme pa_vfio_attach=0000:07:00.0"
TOPO_EXPECT=(iommu=amd default_domain=DMA switch=1 multifunction=1 downgraded=1
	check.vfio=fail:vfio.interrupt-remapping)
TOPO_ARGS=(
	# Interrupt remapping off: with it the 6.1 guest panics under TCG
	# ("timer doesn't work through Interrupt-remapped IO-APIC").
	-device amd-iommu,intremap=off
	-device pcie-root-port,id=rp1,bus=pcie.0,addr=0x3.0,multifunction=on,chassis=1,port=1,x-speed=5,x-width=8
	-device pcie-root-port,id=rp2,bus=pcie.0,addr=0x3.1,chassis=2,port=2,x-speed=2_5,x-width=2
	-device pcie-root-port,id=rp3,bus=pcie.0,addr=0x4.0,chassis=3,port=3
	# Switch under rp1, a second switch under its first downstream port.
	-device x3130-upstream,id=sw1,bus=rp1
	-device xio3130-downstream,id=sw1d1,bus=sw1,chassis=11,slot=1
	-device xio3130-downstream,id=sw1d2,bus=sw1,chassis=12,slot=2
	-device x3130-upstream,id=sw2,bus=sw1d1
	-device xio3130-downstream,id=sw2d1,bus=sw2,chassis=21,slot=1
	-device nvme,bus=sw2d1,serial=pa1001
	-device e1000e,bus=sw1d2
	-device virtio-net-pci,bus=rp2
	# Multifunction endpoint with three functions.
	-device e1000e,bus=rp3,addr=0x0.0,multifunction=on
	-device e1000e,bus=rp3,addr=0x0.1
	-device nvme,bus=rp3,addr=0x0.2,serial=pa1002
)
