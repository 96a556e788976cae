# shellcheck shell=bash disable=SC2034,SC2054
# Sourced by run-topology.sh. P2P DMA on the P2PDMA test kernel, Intel CPU
# rules (qemu64 is not Zen; the q35 host bridge is not whitelisted).
TOPO_DESC="P2PDMA kernel, VT-d: endpoints behind a switch and a switch below it; 3-function endpoint below an ACS root port (redirected, refused); 2 functions below a root port without ACS; RCiEP"
TOPO_KERNEL=7.3
TOPO_NEEDS=(CONFIG_PCI_P2PDMA=y)
# pa_p2p_do: a quiet do request over two redirected pairs before the quiet
# matrix, which must share the kernel log's allowance with it.
TOPO_CMDLINE="intel_iommu=on pa_p2p_do=0000:09:00.0,0000:09:00.1,0000:09:00.2"
TOPO_EXPECT=(iommu=intel p2pdma=1 cpu=not_zen switch=1 multifunction=1
	p2p=switch,switch2,acs_redirect,refused,no_common,bus_addr_rp,withheld)
TOPO_ARGS=(
	-device intel-iommu
	-device pcie-root-port,id=rp1,bus=pcie.0,addr=0x2.0,multifunction=on,chassis=1,port=1
	-device pcie-root-port,id=rp2,bus=pcie.0,addr=0x2.1,chassis=2,port=2
	-device pcie-root-port,id=rp3,bus=pcie.0,addr=0x2.2,chassis=3,port=3,disable-acs=on
	# sw1 below rp1 with three downstream ports; sw2 below the first.
	-device x3130-upstream,id=sw1,bus=rp1
	-device xio3130-downstream,id=sw1d1,bus=sw1,chassis=11,slot=1
	-device xio3130-downstream,id=sw1d2,bus=sw1,chassis=12,slot=2
	-device xio3130-downstream,id=sw1d3,bus=sw1,chassis=13,slot=3
	-device x3130-upstream,id=sw2,bus=sw1d1
	-device xio3130-downstream,id=sw2d1,bus=sw2,chassis=21,slot=1
	-device xio3130-downstream,id=sw2d2,bus=sw2,chassis=22,slot=2
	-device nvme,bus=sw2d1,serial=p2p101
	-device e1000e,bus=sw2d2
	-device e1000e,bus=sw1d2
	-device virtio-net-pci,bus=sw1d3
	# Three functions below an ACS root port: every pair is redirected.
	-device e1000e,bus=rp2,addr=0x0.0,multifunction=on
	-device virtio-net-pci,bus=rp2,addr=0x0.1
	-device nvme,bus=rp2,addr=0x0.2,serial=p2p102
	# Two functions below a root port without ACS: bus addresses.
	-device e1000e,bus=rp3,addr=0x0.0,multifunction=on
	-device virtio-rng-pci,bus=rp3,addr=0x0.1
	# Root-complex integrated endpoint: no upstream bridge at all.
	-device e1000e,bus=pcie.0,addr=0x4.0
)
