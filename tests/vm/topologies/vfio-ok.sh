# shellcheck shell=bash disable=SC2034,SC2054
# Sourced by run-topology.sh. A host built to pass the vfio and baseline
# profiles: VT-d translating, every endpoint alone below a root port with
# ACS, so each IOMMU group holds one function. GPU and NIC sit on different
# root ports of a host bridge the kernel does not whitelist, so gpudirect
# fails for that reason.
# The vfio host rules pass against the kernel (vfio_host_oracle.py): every
# endpoint can be reset, the ivshmem's 1 GiB BAR is above 4 GiB, and the
# device vfio-pci.ids= names is bound to vfio-pci.
TOPO_DESC="VT-d; each GPU, NIC and NVMe alone below an ACS root port: isolated groups; P2P refused across root ports; a 1 GiB BAR above 4 GiB, bound to vfio-pci by vfio-pci.ids="
TOPO_CMDLINE="intel_iommu=on vfio-pci.ids=1af4:1110"
TOPO_EXPECT=(iommu=intel default_domain=lazy
	check.vfio=pass check.baseline=pass
	check.gpudirect=fail:gpudirect.p2p-refused)
TOPO_ARGS=(
	-device intel-iommu
	-device pcie-root-port,id=rp1,bus=pcie.0,addr=0x2.0,multifunction=on,chassis=1,port=1
	-device pcie-root-port,id=rp2,bus=pcie.0,addr=0x2.1,chassis=2,port=2
	-device pcie-root-port,id=rp3,bus=pcie.0,addr=0x2.2,chassis=3,port=3
	-device pcie-root-port,id=rp4,bus=pcie.0,addr=0x2.3,chassis=4,port=4
	-device virtio-gpu-pci,bus=rp1
	-device e1000e,bus=rp2
	-device nvme,bus=rp3,serial=vf0001
	-object memory-backend-ram,id=shm1,size=1G
	-device ivshmem-plain,bus=rp4,memdev=shm1
)
