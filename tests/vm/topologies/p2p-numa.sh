# shellcheck shell=bash disable=SC2034,SC2054
# Sourced by run-topology.sh. P2P DMA across host bridges: pcie.0 on NUMA
# node 0 and two pxb-pcie host bridges on nodes 1 and 2, on the P2PDMA test
# kernel with Intel CPU rules (no pair may cross a host bridge).
TOPO_DESC="P2PDMA kernel, VT-d: pxb-pcie host bridges on NUMA nodes 1 and 2 besides pcie.0; a switch and redirected 2-function endpoints behind them, one on a host bridge without a function to whitelist"
TOPO_KERNEL=7.3
TOPO_NEEDS=(CONFIG_PCI_P2PDMA=y)
TOPO_CMDLINE="intel_iommu=on"
TOPO_EXPECT=(iommu=intel p2pdma=1 cpu=not_zen numa=2 switch=1
	p2p=host_bridges,switch,acs_redirect,redirect_no_host_fn,no_common,refused)
TOPO_MEM=768
TOPO_ARGS=(
	# One socket per node, as wide-numa does, so that no cache is shared
	# across nodes.
	-smp 3,sockets=3,cores=1,threads=1
	-object memory-backend-ram,id=m0,size=256M
	-object memory-backend-ram,id=m1,size=256M
	-object memory-backend-ram,id=m2,size=256M
	-numa node,nodeid=0,cpus=0,memdev=m0
	-numa node,nodeid=1,cpus=1,memdev=m1
	-numa node,nodeid=2,cpus=2,memdev=m2
	-device intel-iommu
	-device pcie-root-port,id=rp1,bus=pcie.0,addr=0x2.0,multifunction=on,chassis=1,port=1
	-device pcie-root-port,id=rp2,bus=pcie.0,addr=0x2.1,chassis=2,port=2
	-device nvme,bus=rp1,serial=p2p201
	-device e1000e,bus=rp2
	# Node 1: buses 0x20 on; a switch with two endpoints, and an NVMe.
	-device pxb-pcie,id=pxb1,bus_nr=32,numa_node=1,bus=pcie.0,addr=0x5
	-device pcie-root-port,id=rp11,bus=pxb1,addr=0x0.0,chassis=11,port=11
	-device pcie-root-port,id=rp12,bus=pxb1,addr=0x1.0,chassis=12,port=12
	-device x3130-upstream,id=sw1,bus=rp11
	-device xio3130-downstream,id=sw1d1,bus=sw1,chassis=13,slot=1
	-device xio3130-downstream,id=sw1d2,bus=sw1,chassis=14,slot=2
	-device e1000e,bus=sw1d1
	-device virtio-net-pci,bus=sw1d2
	-device nvme,bus=rp12,serial=p2p202
	# Node 2: buses 0x40 on; a 2-function endpoint below an ACS root port
	# (the pxb's host bridge function is that root port, 1b36:000c).
	-device pxb-pcie,id=pxb2,bus_nr=64,numa_node=2,bus=pcie.0,addr=0x6
	-device pcie-root-port,id=rp21,bus=pxb2,addr=0x0.0,chassis=21,port=21
	-device pcie-root-port,id=rp22,bus=pxb2,addr=0x1.0,chassis=22,port=22
	-device e1000e,bus=rp21,addr=0x0.0,multifunction=on
	-device virtio-net-pci,bus=rp21,addr=0x0.1
	-device virtio-rng-pci,bus=rp22
	# Node 1 again, buses 0x60 on: the first function of this root bus is a
	# PCIe-to-PCI bridge at 03.0, neither 00.0 nor a root port, so the
	# kernel has no host bridge function to match its whitelist on: the
	# redirected pair below is refused without a warning.
	-device pxb-pcie,id=pxb3,bus_nr=96,numa_node=1,bus=pcie.0,addr=0x7
	-device pcie-pci-bridge,id=pb31,bus=pxb3,addr=0x3.0
	-device pcie-root-port,id=rp31,bus=pxb3,addr=0x4.0,chassis=31,port=31
	-device e1000,bus=pb31,addr=0x1
	-device e1000e,bus=rp31,addr=0x0.0,multifunction=on
	-device virtio-rng-pci,bus=rp31,addr=0x0.1
)
