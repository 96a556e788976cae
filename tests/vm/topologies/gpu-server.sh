# shellcheck shell=bash disable=SC2034,SC2054
# Sourced by run-topology.sh. The demo machine; also run as a test.
TOPO_DESC="demo: 4 GPU stand-ins behind a switch, NIC and NVMe on their own root ports, VT-d"
# pa_acs_dir: the guest writes NVIDIA rdma_topo's ACS settings into the
# GPU's and the NIC's root ports and records each direction's verdict for the
# oracle's reading of the PCIe ACS rules (oracle.py ACS_DIR_RUNS). The first
# GPU stand-in has ATS (device-iotlb on the vIOMMU), for DirectTrans.
TOPO_CMDLINE="intel_iommu=on pa_acs_dir=0000:03:00.0,0000:07:00.0,0000:00:02.0,0000:00:02.1"
TOPO_EXPECT=(iommu=intel default_domain=lazy switch=1 acs_off_root_port=1 downgraded=1
	check.gpudirect=fail:gpudirect.p2p-refused check.vfio=fail:vfio.acs-missing check.baseline=pass)
TOPO_ARGS=(
	-device intel-iommu,device-iotlb=on
	# GPU switch: x16 Gen4 root port, upstream port, four downstream ports.
	-device pcie-root-port,id=rp_gpu,bus=pcie.0,addr=0x2.0,multifunction=on,chassis=1,port=1,x-speed=16,x-width=16
	-device pcie-root-port,id=rp_nic,bus=pcie.0,addr=0x2.1,chassis=2,port=2,x-speed=8,x-width=8
	-device pcie-root-port,id=rp_nvme,bus=pcie.0,addr=0x2.2,chassis=3,port=3,x-speed=8,x-width=4
	# A slot whose ACS was turned off, as some firmwares do.
	-device pcie-root-port,id=rp_spare,bus=pcie.0,addr=0x2.3,chassis=4,port=4,disable-acs=on
	-device x3130-upstream,id=gpusw,bus=rp_gpu
	-device xio3130-downstream,id=gpusw0,bus=gpusw,chassis=10,slot=0
	-device xio3130-downstream,id=gpusw1,bus=gpusw,chassis=11,slot=1
	-device xio3130-downstream,id=gpusw2,bus=gpusw,chassis=12,slot=2
	-device xio3130-downstream,id=gpusw3,bus=gpusw,chassis=13,slot=3
	-device virtio-gpu-pci,bus=gpusw0,ats=on
	-device virtio-gpu-pci,bus=gpusw1
	-device bochs-display,bus=gpusw2
	-device bochs-display,bus=gpusw3
	-device e1000e,bus=rp_nic
	-device nvme,bus=rp_nvme,serial=pa4001
	-device virtio-net-pci,bus=rp_spare,addr=0x0.0,multifunction=on
	-device virtio-net-pci,bus=rp_spare,addr=0x0.1
)
