# shellcheck shell=bash disable=SC2034,SC2054
# Sourced by the bench topology files (topo-*.sh) with BENCH_TILES set;
# builds TOPO_ARGS for run-topology.sh. Not a test: tests/vm/run-all.sh
# never sees these files (they live outside tests/vm/topologies).
#
# One tile is 64 PCI functions below one root port:
#   root port (io-reserve=0)
#   `- switch upstream port, 4 downstream ports
#      |- d0: nested switch (upstream + 2 downstream), each with an
#      |      8-function virtio-rng endpoint
#      |- d1, d2: an 8-function virtio-rng endpoint each
#      `- d3: an NVMe PF with 22 SR-IOV VFs (enabled in the guest)
# = 9 bridges + 32 multifunction functions + 1 PF + 22 VFs = 64.
# Tiles go round-robin to BENCH_NODES pxb-pcie host bridges, one per NUMA
# node; bus ranges are BENCH_BUS_STRIDE apart (9 buses per tile).
#
# Budgets watched: bus numbers (one segment, 256 buses shared by pcie.0 and
# every pxb), I/O space (no endpoint has an I/O BAR: virtio is modern-only
# on a PCIe port, and root ports reserve none), 32-bit MMIO (virtio with
# vectors=0 has only a 64-bit prefetchable BAR; NVMe BARs are 16 KiB).
# virtio-rng has no driver in the initramfs and NVMe VFs are not probed,
# so boot time under TCG stays in enumeration, not in drivers.

: "${BENCH_TILES:?}"
BENCH_NODES=${BENCH_NODES:-4}
BENCH_VFS=${BENCH_VFS:-22}
BENCH_BUS_STRIDE=${BENCH_BUS_STRIDE:-48}
[[ $BENCH_NODES -le $BENCH_TILES ]] || BENCH_NODES=$BENCH_TILES

TOPO_CMDLINE="intel_iommu=on ${BENCH_CMDLINE:-}"
TOPO_MEM=1024
# topo-1024 needs about 20 minutes under load (firmware, ~10 min of kernel
# PCI setup, the rounds), and QEMU is slow to exit afterwards.
TOPO_TIMEOUT=${BENCH_TIMEOUT:-$((600 + BENCH_TILES * 90))}
TOPO_ARGS=(-device intel-iommu)
node_mem=$((TOPO_MEM / BENCH_NODES))
for ((n = 0; n < BENCH_NODES; n++)); do
	TOPO_ARGS+=(-object "memory-backend-ram,id=m$n,size=${node_mem}M")
	# The one CPU sits on node 0; the others are memory-only nodes.
	if ((n == 0)); then
		TOPO_ARGS+=(-numa "node,nodeid=0,cpus=0,memdev=m0")
	else
		TOPO_ARGS+=(-numa "node,nodeid=$n,memdev=m$n")
	fi
	TOPO_ARGS+=(-device "pxb-pcie,id=pxb$n,bus_nr=$((32 + n * BENCH_BUS_STRIDE)),numa_node=$n,bus=pcie.0,addr=0x$((n + 8)).0")
done

# mf SLOT_FUNCTION: function 0 of a multifunction slot carries the flag.
mf() { if [[ $1 == 0 ]]; then echo ,multifunction=on; fi; }
# ep8 BUS: an 8-function endpoint without a driver and without I/O BARs.
ep8() {
	local f
	for f in 0 1 2 3 4 5 6 7; do
		TOPO_ARGS+=(-device "virtio-rng-pci,bus=$1,addr=0x0.$f$(mf $f),disable-legacy=on,vectors=0")
	done
}

for ((t = 0; t < BENCH_TILES; t++)); do
	n=$((t % BENCH_NODES))
	slot=$((t / BENCH_NODES))
	TOPO_ARGS+=(
		-device "pcie-root-port,id=rp$t,bus=pxb$n,addr=0x$((slot)).0,chassis=$((t + 1)),port=$((t + 1)),io-reserve=0"
		-device "x3130-upstream,id=up$t,bus=rp$t"
	)
	for d in 0 1 2 3; do
		TOPO_ARGS+=(-device "xio3130-downstream,id=dn$t.$d,bus=up$t,chassis=$((100 + t * 8 + d)),slot=$d")
	done
	TOPO_ARGS+=(-device "x3130-upstream,id=nup$t,bus=dn$t.0")
	for d in 0 1; do
		TOPO_ARGS+=(-device "xio3130-downstream,id=ndn$t.$d,bus=nup$t,chassis=$((100 + t * 8 + 4 + d)),slot=$d")
		ep8 "ndn$t.$d"
	done
	ep8 "dn$t.1"
	ep8 "dn$t.2"
	TOPO_ARGS+=(
		-device "nvme-subsys,id=nvs$t"
		-device "nvme,bus=dn$t.3,serial=bench$t,subsys=nvs$t,sriov_max_vfs=$BENCH_VFS,sriov_vq_flexible=$((BENCH_VFS * 2)),sriov_vi_flexible=$BENCH_VFS,max_ioqpairs=$((BENCH_VFS * 2 + 2)),msix_qsize=$((BENCH_VFS + 2))"
	)
done
TOPO_DESC="bench: $BENCH_TILES tile(s) of 64 functions on $BENCH_NODES pxb-pcie/NUMA node(s), VT-d"
TOPO_INIT=$(dirname "${BASH_SOURCE[0]}")/bench-init.sh
TOPO_PROGS=("$(dirname "${BASH_SOURCE[0]}")/benchrun.c" "$(dirname "${BASH_SOURCE[0]}")/scrape.c" "$(dirname "${BASH_SOURCE[0]}")/httpget.c"
	"$(dirname "${BASH_SOURCE[0]}")/nldump.c")
TOPO_BINS=(/usr/bin/perf /usr/bin/strace /sbin/ldconfig)
TOPO_CHECK=(python3 "$(dirname "${BASH_SOURCE[0]}")/analyze.py" --check)
