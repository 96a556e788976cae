# shellcheck shell=bash disable=SC2034,SC2054
# Sourced by run-topology.sh: QEMU arguments and kernel command line.
TOPO_DESC="Intel VT-d (lazy); root ports with ACS and with disable-acs=on; multifunction endpoint; switch; RCiEP; a function owned by VFIO; vfio-plan's bind step run as printed, judged by vfio's own viability"
# pa_vfio: the guest hands this e1000e (alone in its group) to vfio-pci and
# takes a snapshot while a VFIO container holds the group. pa_vfio_plan:
# last, the guest runs vfio-plan's bind step for 03:00.0 (the e1000e
# function of the multifunction endpoint below the ACS-less root port, in
# one group with its virtio-net sibling) as printed, and vfio itself says
# whether the group is then viable and attached (oracle.py, vfio_plan).
TOPO_CMDLINE="intel_iommu=on pa_vfio=0000:02:00.0 pa_vfio_plan=0000:03:00.0"
TOPO_EXPECT=(iommu=intel default_domain=lazy switch=1 multifunction=1 rc_endpoint=1 acs_off_root_port=1 downgraded=1
	check.gpudirect=warn:gpudirect.iommu-translated)
TOPO_ARGS=(
	-device intel-iommu
	-device pcie-root-port,id=rp1,bus=pcie.0,addr=0x2.0,multifunction=on,chassis=1,port=1
	-device pcie-root-port,id=rp2,bus=pcie.0,addr=0x2.1,chassis=2,port=2,x-speed=8,x-width=4
	-device pcie-root-port,id=rp3,bus=pcie.0,addr=0x2.2,chassis=3,port=3,disable-acs=on
	-device pcie-root-port,id=rp4,bus=pcie.0,addr=0x3.0,chassis=4,port=4,x-speed=2_5,x-width=1
	-device nvme,bus=rp1,serial=pa0001
	-device e1000e,bus=rp2
	-device e1000e,bus=rp3,addr=0x0.0,multifunction=on
	-device virtio-net-pci,bus=rp3,addr=0x0.1
	-device x3130-upstream,id=up1,bus=rp4
	-device xio3130-downstream,id=dp1,bus=up1,chassis=10,slot=1
	-device xio3130-downstream,id=dp2,bus=up1,chassis=11,slot=2
	-device nvme,bus=dp1,serial=pa0002
	-device virtio-net-pci,bus=dp2
	-device e1000e,bus=pcie.0,addr=0x4.0
)
