# shellcheck shell=bash disable=SC2034,SC2054
# Sourced by run-topology.sh.
TOPO_DESC="no IOMMU; ACS and disable-acs root ports; multifunction endpoint; switch; RCiEP"
TOPO_CMDLINE=""
TOPO_EXPECT=(iommu=none switch=1 multifunction=1 rc_endpoint=1 acs_off_root_port=1 downgraded=1
	check.gpudirect=pass check.vfio=fail:vfio.iommu-off check.baseline=warn:baseline.iommu-off)
TOPO_ARGS=(
	-device pcie-root-port,id=rp1,bus=pcie.0,addr=0x2.0,multifunction=on,chassis=1,port=1,x-speed=8,x-width=16
	-device pcie-root-port,id=rp2,bus=pcie.0,addr=0x2.1,chassis=2,port=2,disable-acs=on
	-device pcie-root-port,id=rp3,bus=pcie.0,addr=0x2.2,chassis=3,port=3,x-speed=5,x-width=1
	-device nvme,bus=rp1,serial=pa3001
	-device e1000e,bus=rp2,addr=0x0.0,multifunction=on
	-device virtio-net-pci,bus=rp2,addr=0x0.1
	-device x3130-upstream,id=sw1,bus=rp3
	-device xio3130-downstream,id=sw1d1,bus=sw1,chassis=11,slot=1
	-device nvme,bus=sw1d1,serial=pa3002
	# Root-complex integrated endpoint: Express capability, no link registers.
	-device e1000e,bus=pcie.0,addr=0x6.0
)
