# shellcheck shell=bash disable=SC2034,SC2054
# Sourced by run-topology.sh. SR-IOV VFs in P2P DMA: pci_upstream_bridge()
# of a VF is its PF's bridge, so VF<->PF and VF<->VF pairs meet there.
TOPO_DESC="P2PDMA kernel, VT-d: three SR-IOV NVMe PFs with 2 VFs enabled each (one of 15, past device 0: ARI), below an ACS root port (redirected), a root port without ACS and a switch"
TOPO_KERNEL=7.3
TOPO_NEEDS=(CONFIG_PCI_P2PDMA=y)
TOPO_CMDLINE="intel_iommu=on"
TOPO_EXPECT=(iommu=intel p2pdma=1 cpu=not_zen sriov=1 switch=1 acs_off_root_port=1
	p2p=vf_pf,vf_vf,acs_redirect,bus_addr_rp,switch,refused,withheld)
TOPO_ARGS=(
	-device intel-iommu
	-device pcie-root-port,id=rp1,bus=pcie.0,addr=0x2.0,multifunction=on,chassis=1,port=1
	-device pcie-root-port,id=rp2,bus=pcie.0,addr=0x2.1,chassis=2,port=2,disable-acs=on
	-device pcie-root-port,id=rp3,bus=pcie.0,addr=0x2.2,chassis=3,port=3
	# QEMU 7.2 wants an NVMe subsystem for SR-IOV; one per PF. The first
	# has 15 VFs, past device 0: the kernel enables ARI Forwarding above
	# it, and vfio.sriov-resources passes (vfio_host_oracle.py).
	-device nvme-subsys,id=nvs1
	-device nvme-subsys,id=nvs2
	-device nvme-subsys,id=nvs3
	-device nvme,bus=rp1,serial=p2p501,subsys=nvs1,sriov_max_vfs=15,sriov_vq_flexible=30,sriov_vi_flexible=15
	-device nvme,bus=rp2,serial=p2p502,subsys=nvs2,sriov_max_vfs=2,sriov_vq_flexible=4,sriov_vi_flexible=2
	-device x3130-upstream,id=sw1,bus=rp3
	-device xio3130-downstream,id=sw1d1,bus=sw1,chassis=11,slot=1
	-device xio3130-downstream,id=sw1d2,bus=sw1,chassis=12,slot=2
	-device nvme,bus=sw1d1,serial=p2p503,subsys=nvs3,sriov_max_vfs=2,sriov_vq_flexible=4,sriov_vi_flexible=2
	-device e1000e,bus=sw1d2
)
