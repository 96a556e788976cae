# shellcheck shell=bash disable=SC2034,SC2054
# Sourced by run-topology.sh. pci=disable_acs_redir= clears the redirect bits
# the IOMMU had the kernel set on one root port: its pairs map by bus
# address again, while a root port not named keeps redirecting.
TOPO_DESC="P2PDMA kernel, VT-d, pci=disable_acs_redir= on one root port: below it a switch and an endpoint beside it (bus addresses through the root port); a redirected 2-function endpoint below another"
TOPO_KERNEL=7.3
TOPO_NEEDS=(CONFIG_PCI_P2PDMA=y)
# 00:02.2: its slot holds a switch upstream port (function 0) and an e1000e
# (function 1), so pairs across the switch meet at the root port itself.
TOPO_CMDLINE="intel_iommu=on pci=disable_acs_redir=0000:00:02.2 pa_p2p_do=0000:02:00.0,0000:02:00.1,0000:06:00.0 pa_explain=0000:02:00.0,0000:02:00.1"
TOPO_EXPECT=(iommu=intel p2pdma=1 cpu=not_zen switch=1 multifunction=1
	p2p=acs_redir_disabled,bus_addr_rp,acs_redirect,switch,no_common,refused)
TOPO_ARGS=(
	-device intel-iommu
	-device pcie-root-port,id=rp1,bus=pcie.0,addr=0x2.0,multifunction=on,chassis=1,port=1
	-device pcie-root-port,id=rp2,bus=pcie.0,addr=0x2.1,chassis=2,port=2
	-device pcie-root-port,id=rp3,bus=pcie.0,addr=0x2.2,chassis=3,port=3
	-device nvme,bus=rp1,serial=p2p401
	# Redirected: two functions below an ACS root port.
	-device virtio-net-pci,bus=rp2,addr=0x0.0,multifunction=on
	-device e1000e,bus=rp2,addr=0x0.1
	# Not redirected (pci=disable_acs_redir=0000:00:02.2).
	-device x3130-upstream,id=sw1,bus=rp3,addr=0x0.0,multifunction=on
	-device e1000e,bus=rp3,addr=0x0.1
	-device xio3130-downstream,id=sw1d1,bus=sw1,chassis=11,slot=1
	-device xio3130-downstream,id=sw1d2,bus=sw1,chassis=12,slot=2
	-device nvme,bus=sw1d1,serial=p2p402
	-device virtio-rng-pci,bus=sw1d2
)
