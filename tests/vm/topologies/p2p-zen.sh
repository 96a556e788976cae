# shellcheck shell=bash disable=SC2034,SC2054
# Sourced by run-topology.sh. P2P DMA on an AMD Zen CPU (-cpu EPYC, family
# 0x17), where the kernel allows every path through the root complex: ACS
# redirected pairs and pairs across host bridges, which qemu64 refuses.
TOPO_DESC="P2PDMA kernel, AMD EPYC (Zen) + AMD-Vi: redirected pairs and pairs across a pxb-pcie host bridge allowed by the CPU; SR-IOV VFs; a switch"
TOPO_KERNEL=7.3
TOPO_NEEDS=(CONFIG_PCI_P2PDMA=y)
TOPO_CPU=EPYC
# iommu=pt: with DMA translation behind QEMU 7.2's AMD IOMMU the NVMe admin
# queue times out (tests/kernels/README.md). ACS is enabled all the same.
TOPO_CMDLINE="iommu=pt pa_p2p_do=0000:01:00.0,0000:01:00.1,0000:01:00.2,0000:04:00.0"
TOPO_EXPECT=(iommu=amd p2pdma=1 cpu=zen switch=1 multifunction=1 sriov=1
	p2p=acs_redirect_allowed,no_common_allowed,host_bridges_allowed,cpu_allowed,switch,vf_pf,vf_vf)
TOPO_ARGS=(
	# Interrupt remapping off: with it the 6.1 guest panics under TCG.
	-device amd-iommu,intremap=off
	-device pcie-root-port,id=rp1,bus=pcie.0,addr=0x2.0,multifunction=on,chassis=1,port=1
	-device pcie-root-port,id=rp2,bus=pcie.0,addr=0x2.1,chassis=2,port=2
	-device pcie-root-port,id=rp3,bus=pcie.0,addr=0x2.2,chassis=3,port=3
	# Three functions below an ACS root port.
	-device e1000e,bus=rp1,addr=0x0.0,multifunction=on
	-device virtio-net-pci,bus=rp1,addr=0x0.1
	-device virtio-rng-pci,bus=rp1,addr=0x0.2
	# A switch with two endpoints.
	-device x3130-upstream,id=sw1,bus=rp2
	-device xio3130-downstream,id=sw1d1,bus=sw1,chassis=11,slot=1
	-device xio3130-downstream,id=sw1d2,bus=sw1,chassis=12,slot=2
	-device e1000e,bus=sw1d1
	-device virtio-net-pci,bus=sw1d2
	# SR-IOV PF below an ACS root port; the guest enables two VFs.
	-device nvme-subsys,id=nvs0
	-device nvme,bus=rp3,serial=p2p301,subsys=nvs0,sriov_max_vfs=2,sriov_vq_flexible=4,sriov_vi_flexible=2
	# A second host bridge.
	-device pxb-pcie,id=pxb1,bus_nr=32,bus=pcie.0,addr=0x5
	-device pcie-root-port,id=rp11,bus=pxb1,addr=0x0.0,chassis=11,port=11
	-device e1000e,bus=rp11
	# Root-complex integrated endpoint.
	-device virtio-rng-pci,bus=pcie.0,addr=0x4.0
)
