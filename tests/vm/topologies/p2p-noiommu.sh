# shellcheck shell=bash disable=SC2034,SC2054
# Sourced by run-topology.sh. Without an IOMMU the kernel leaves ACS off, so
# functions below a root port map by bus address; conventional PCI
# functions behind a PCIe-to-PCI bridge meet at that bridge. pa_acs_set
# has the guest set P2P Request Redirect on one root port before the P2P
# steps: the kernel and pcieaudit read the register live.
# After its own work the guest replays the real machines of
# tests/replay/machines.txt marked `check` (TOPO_REPLAY): pa_replay.ko makes
# a PCI domain of each capture, judged by tests/replay/compare.py against
# lspci and the kernel's own pci_p2pdma_distance_many(); the others replay
# in make replay-test.
TOPO_DESC="P2PDMA kernel, no IOMMU: 3-function endpoint below a root port whose ReqRedir is set at run time; 2-function endpoint below a root port without ACS; PCIe-to-PCI bridge with conventional devices; switch; RCiEPs"
TOPO_KERNEL=7.3
TOPO_NEEDS=(CONFIG_PCI_P2PDMA=y)
TOPO_REPLAY=check
TOPO_CMDLINE="pa_acs_set=0000:00:02.0=0004 pa_p2p_do=0000:01:00.0,0000:01:00.1,0000:00:04.0,0000:00:05.0"
TOPO_EXPECT=(iommu=none p2pdma=1 cpu=not_zen switch=1 multifunction=1 rc_endpoint=1
	pcie_to_pci_bridge=1 conventional=1 acs_off_root_port=1
	p2p=bus_addr_rp,acs_redirect,switch,no_common,refused,withheld)
TOPO_ARGS=(
	-device pcie-root-port,id=rp1,bus=pcie.0,addr=0x2.0,multifunction=on,chassis=1,port=1
	-device pcie-root-port,id=rp2,bus=pcie.0,addr=0x2.1,chassis=2,port=2,disable-acs=on
	-device pcie-root-port,id=rp3,bus=pcie.0,addr=0x2.2,chassis=3,port=3
	-device pcie-root-port,id=rp4,bus=pcie.0,addr=0x2.3,chassis=4,port=4
	-device e1000e,bus=rp1,addr=0x0.0,multifunction=on
	-device virtio-net-pci,bus=rp1,addr=0x0.1
	-device virtio-rng-pci,bus=rp1,addr=0x0.2
	-device virtio-rng-pci,bus=rp2,addr=0x0.0,multifunction=on
	-device nvme,bus=rp2,addr=0x0.1,serial=p2p601
	-device pcie-pci-bridge,id=pb1,bus=rp3
	-device e1000,bus=pb1,addr=0x1
	-device e1000,bus=pb1,addr=0x2
	-device x3130-upstream,id=sw1,bus=rp4
	-device xio3130-downstream,id=sw1d1,bus=sw1,chassis=11,slot=1
	-device xio3130-downstream,id=sw1d2,bus=sw1,chassis=12,slot=2
	-device e1000e,bus=sw1d1
	-device nvme,bus=sw1d2,serial=p2p602
	# Root-complex integrated endpoints.
	-device e1000e,bus=pcie.0,addr=0x4.0
	-device virtio-rng-pci,bus=pcie.0,addr=0x5.0
)
