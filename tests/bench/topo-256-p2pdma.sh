# shellcheck shell=bash disable=SC2034
# Sourced by run-topology.sh: the bench machine with 4 tiles of 64 functions
# on the P2PDMA test kernel, for the P2P matrix with the kernel's verdicts.
# Its drivers are built in: virtio-pci is kept off the virtio-rng endpoints
# so that they stay driverless, as on the stock kernel.
BENCH_TILES=4
# shellcheck source-path=SCRIPTDIR source=gen-topology.sh
. "$(dirname "${BASH_SOURCE[0]}")/gen-topology.sh"
TOPO_KERNEL=p2pdma
TOPO_CMDLINE+=" initcall_blacklist=virtio_pci_driver_init"
TOPO_DESC+=", P2PDMA kernel"
