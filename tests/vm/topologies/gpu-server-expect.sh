# shellcheck shell=bash disable=SC2034,SC2054
# Sourced by run-topology.sh. The second boot of `check --expect`'s VM test:
# the demo machine (gpu-server.sh) again with one GPU stand-in left out of
# QEMU's command line (the bochs-display below gpusw3) and one moved to
# another port (the virtio-gpu of gpusw1, now below gpusw3). run-all.sh
# boots it after gpu-server (TOPO_AFTER), whose first snapshot (snap1, the
# module's report --json) is the golden host. The guest only loads the
# module and writes its snapshot (guest-init.sh's pa_light=expect, in the
# stock image the other topologies share); expect-check.py finds
# the two differences in both boots' sysfs paths and holds check --expect
# (here, and in the guest against the module) to exactly those.
TOPO_AFTER=gpu-server
GOLDEN_RES=$OUT_DIR/gpu-server/results
# shellcheck source=tests/vm/topologies/gpu-server.sh
. "$VM_DIR/topologies/gpu-server.sh"
TOPO_DESC="gpu-server again, one GPU stand-in left out and one moved: check --expect with gpu-server's snapshot as the golden host"
TOPO_CMDLINE="intel_iommu=on pa_light=expect"
TOPO_TIMEOUT=240
TOPO_CHECK=(python3 "$VM_DIR/expect-check.py" --golden "$GOLDEN_RES" --cli "$CLI_BIN")
args=()
for a in "${TOPO_ARGS[@]}"; do
	case $a in
	bochs-display,bus=gpusw3) unset 'args[-1]' ;;	# and its -device
	virtio-gpu-pci,bus=gpusw1) args+=(virtio-gpu-pci,bus=gpusw3) ;;
	*) args+=("$a") ;;
	esac
done
TOPO_ARGS=("${args[@]}")
# The golden snapshot, for the guest's own check against the module.
[[ ! -s $GOLDEN_RES/snap1/report.json ]] ||
	TOPO_ARGS+=(-fw_cfg "name=opt/pcieaudit/golden,file=$GOLDEN_RES/snap1/report.json")
