# shellcheck shell=bash disable=SC2034,SC2054
# Sourced by run-topology.sh. Enough functions that a dump spans several
# netlink parts. After part 1, pa_remove takes away one function already
# sent (an index-based resume would then skip a survivor) and one not yet
# sent (which must not appear). A second host bridge (pxb-pcie) on NUMA node 1.
TOPO_DESC="55 functions over 4 dump parts, two removed mid-dump; pxb-pcie on NUMA node 1; VT-d"
TOPO_CMDLINE="intel_iommu=on pa_remove=0000:01:00.2,0000:43:00.1"
TOPO_EXPECT=(iommu=intel switch=1 multifunction=1 numa=1 functions=55)
TOPO_ARGS=(
	# One socket per node, so no cache is shared across nodes.
	-smp 2,sockets=2,cores=1,threads=1
	-object memory-backend-ram,id=m0,size=384M
	-object memory-backend-ram,id=m1,size=384M
	-numa node,nodeid=0,cpus=0,memdev=m0
	-numa node,nodeid=1,cpus=1,memdev=m1
	-device intel-iommu
)
# Function 0 of a multifunction slot carries the flag.
mf() { if [ "$1" = 0 ]; then echo ,multifunction=on; fi; }

# Four root ports on node 0, each with an 8-function endpoint.
for p in 0 1 2 3; do
	TOPO_ARGS+=(-device "pcie-root-port,id=rp$p,bus=pcie.0,addr=0x3.$p,chassis=$((p + 1)),port=$((p + 1))$(mf "$p")")
	for f in 0 1 2 3 4 5 6 7; do
		TOPO_ARGS+=(-device "virtio-rng-pci,bus=rp$p,addr=0x0.$f$(mf "$f")")
	done
done
# Node 1: a second host bridge with a switch of two 4-function endpoints
# (buses 0x43 and 0x44) and an NVMe drive.
TOPO_ARGS+=(
	-device pxb-pcie,id=pxb1,bus_nr=64,numa_node=1,bus=pcie.0,addr=0x5
	-device pcie-root-port,id=rp5,bus=pxb1,addr=0x0.0,chassis=5,port=5
	-device pcie-root-port,id=rp6,bus=pxb1,addr=0x1.0,chassis=6,port=6
	-device x3130-upstream,id=sw,bus=rp5
	-device xio3130-downstream,id=swd0,bus=sw,chassis=20,slot=0
	-device xio3130-downstream,id=swd1,bus=sw,chassis=21,slot=1
	-device nvme,bus=rp6,serial=pa6001
)
for d in 0 1; do
	for f in 0 1 2 3; do
		TOPO_ARGS+=(-device "virtio-rng-pci,bus=swd$d,addr=0x0.$f$(mf "$f")")
	done
done
