# shellcheck shell=bash disable=SC2034,SC2054
# Sourced by run-topology.sh.
TOPO_DESC="Intel VT-d in passthrough (iommu=pt), interrupt remapping off: vfio refuses a group; PCIe-to-PCI bridge with conventional devices; SR-IOV NVMe with 2 of 15 VFs and ARI off, one whose 127 VFs get no BAR space; a conventional NIC on the root bus (no reset); a 256 MiB BAR below 4 GiB; vfio-pci.ids= beaten by e1000"
# The vfio host rules, each against the kernel (vfio_host_oracle.py, and
# oracle.py's vfio_intremap): intremap=off, and pa_vfio_attach's
# VFIO_SET_IOMMU fails with EPERM (vfio.interrupt-remapping); pci=noari
# leaves ARI Forwarding off above the 15-VF NVMe, and with realloc=off the
# 127-VF NVMe's VF BARs (2032 KiB) find no room beside its 64 KiB BAR in its
# port's 2 MiB window: sriov_numvfs fails (vfio.sriov-resources); the e1000
# on the root bus has no FLR, no PM and no bus to reset (vfio.no-reset);
# the ivshmem's 256 MiB BAR sits below 4 GiB (vfio.bar-below-4g);
# vfio-pci.ids= names the e1000s, which e1000 binds before vfio-pci loads,
# and the ivshmem, which vfio-pci gets (vfio.ids-not-bound).
TOPO_CMDLINE="intel_iommu=on iommu=pt intremap=off pa_vfio_attach=0000:06:00.0 pci=noari,realloc=off vfio-pci.ids=8086:100e,1af4:1110"
TOPO_EXPECT=(iommu=intel default_domain=identity pcie_to_pci_bridge=1 conventional=1 acs_off_root_port=1 sriov=1
	check.gpudirect=pass check.vfio=fail:vfio.group-shared)
TOPO_ARGS=(
	-device intel-iommu
	-device pcie-root-port,id=rp1,bus=pcie.0,addr=0x2.0,multifunction=on,chassis=1,port=1,x-speed=16,x-width=16
	-device pcie-root-port,id=rp2,bus=pcie.0,addr=0x2.1,chassis=2,port=2,disable-acs=on
	-device pcie-root-port,id=rp3,bus=pcie.0,addr=0x5.0,multifunction=on,chassis=3,port=3
	-device pcie-root-port,id=rp4,bus=pcie.0,addr=0x5.1,chassis=4,port=4,x-speed=8,x-width=4
	-device pcie-root-port,id=rp5,bus=pcie.0,addr=0x5.2,chassis=5,port=5
	-device pcie-root-port,id=rp6,bus=pcie.0,addr=0x5.3,chassis=6,port=6
	-device nvme,bus=rp1,serial=pa2001
	-device pcie-pci-bridge,id=pb1,bus=rp2
	# Conventional PCI: no Express capability, no link, shares a group.
	-device e1000,bus=pb1,addr=0x1
	-device e1000,bus=pb1,addr=0x2
	-device virtio-net-pci,bus=rp3
	# SR-IOV PF; the guest enables two VFs (QEMU 7.2 wants a subsystem).
	-device nvme-subsys,id=nvs0
	-device nvme,bus=rp4,serial=pa2002,subsys=nvs0,sriov_max_vfs=15,sriov_vq_flexible=30,sriov_vi_flexible=15
	-object memory-backend-ram,id=shm1,size=256M
	-device ivshmem-plain,bus=rp5,memdev=shm1
	-device e1000,bus=pcie.0,addr=0x6.0
	# msix_qsize=2048 makes BAR 0 64 KiB: beside it 127 VFs' 16 KiB do not fit.
	-device nvme-subsys,id=nvs1
	-device nvme,bus=rp6,serial=pa2003,subsys=nvs1,sriov_max_vfs=127,sriov_vq_flexible=254,sriov_vi_flexible=127,max_ioqpairs=256,msix_qsize=2048
)
