# shellcheck shell=bash disable=SC2034,SC2054
# Sourced by run-topology.sh. The config matrix's bare kernel
# (tests/kernels/minimal.config): no IOMMU API, SR-IOV or ATS, P2PDMA on.
# The board has a VT-d unit and an SR-IOV-capable NVMe that this kernel
# cannot use: pcieaudit must report them as not built, never guess.
TOPO_DESC="minimal kernel (CONFIG_IOMMU_API, PCI_IOV, PCI_ATS off; P2PDMA on) on a VT-d board: ACS and no-ACS root ports, SR-IOV-capable NVMe, multifunction endpoint, switch"
TOPO_KERNEL=minimal
# Its kernel is a 20-CPU-minute build on a cold cache, which make check's
# 60-minute cold budget cannot hold: make check compiles the module against
# the minimal options (compat-test), make check-kernels builds and boots it.
TOPO_WHEN=kernels
TOPO_NEEDS=(CONFIG_IOMMU_API=n)
TOPO_CMDLINE="intel_iommu=on"
TOPO_EXPECT=(iommu=none p2pdma=1 cpu=not_zen switch=1 multifunction=1 acs_off_root_port=1
	check.vfio=fail:vfio.iommu-off)
TOPO_ARGS=(
	-device intel-iommu
	-device pcie-root-port,id=rp1,bus=pcie.0,addr=0x2.0,multifunction=on,chassis=1,port=1
	-device pcie-root-port,id=rp2,bus=pcie.0,addr=0x2.1,chassis=2,port=2,disable-acs=on
	-device pcie-root-port,id=rp3,bus=pcie.0,addr=0x2.2,chassis=3,port=3
	-device nvme-subsys,id=nvs1
	-device nvme,bus=rp1,serial=min001,subsys=nvs1,sriov_max_vfs=2,sriov_vq_flexible=4,sriov_vi_flexible=2
	-device e1000e,bus=rp2,addr=0x0.0,multifunction=on
	-device virtio-net-pci,bus=rp2,addr=0x0.1
	-device x3130-upstream,id=sw1,bus=rp3
	-device xio3130-downstream,id=sw1d1,bus=sw1,chassis=11,slot=1
	-device xio3130-downstream,id=sw1d2,bus=sw1,chassis=12,slot=2
	-device nvme,bus=sw1d1,serial=min002
	-device e1000e,bus=sw1d2
)
