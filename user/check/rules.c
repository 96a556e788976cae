// SPDX-License-Identifier: GPL-2.0
#include "rules.h"

#include <stddef.h>
#include <string.h>

#define GD PA_PROFILE_GPUDIRECT
#define VF PA_PROFILE_VFIO
#define BL PA_PROFILE_BASELINE
#define EX PA_PROFILE_EXPECT

const struct pa_rule pa_rules[PA_NRULES] = {
	[PA_GD_ACS_REDIRECT] = { "gpudirect.acs-redirect", GD, PA_SEV_FAIL,
		"ACS sends the requests of a direction that carries a pair's traffic up to the root complex",
		"by the PCIe ACS rules (Base 6.0 §6.12), ReqRedir or EgressCtrl where requests enter the path redirect them, unless DirectTrans lets translated ones (ATS on) through; the direction that matters is the NIC's or drive's into the accelerator, both for two accelerators. GPUDirect then runs at root-complex speed or not at all; warn where the pair crosses the root complex anyway" },
	[PA_GD_P2P_REFUSED] = { "gpudirect.p2p-refused", GD, PA_SEV_FAIL,
		"the kernel refuses P2P DMA between a pair",
		"without a common upstream bridge, P2P DMA must cross the root complex, which the kernel allows only on AMD Zen CPUs and host bridges on its P2PDMA whitelist; no kernel parameter changes that" },
	[PA_GD_P2P_HOST_BRIDGE] = { "gpudirect.p2p-host-bridge", GD, PA_SEV_INFO,
		"P2P DMA between a pair crosses the root complex",
		"allowed (AMD Zen CPU or whitelisted host bridge) but slower than below a switch, and it passes the IOMMU" },
	[PA_GD_P2P_UNKNOWN] = { "gpudirect.p2p-unknown", GD, PA_SEV_INFO,
		"no kernel verdict for a pair whose path crosses the root complex",
		"without the module, pcieaudit cannot read the running kernel's host bridge whitelist" },
	[PA_GD_NUMA_REMOTE] = { "gpudirect.numa-remote", GD, PA_SEV_WARN,
		"a pair's devices sit on different NUMA nodes",
		"their P2P traffic crosses the inter-socket link (SYS), with a fraction of PCIe bandwidth and more latency" },
	[PA_GD_LINK_DOWNGRADED] = { "gpudirect.link-downgraded", GD, PA_SEV_WARN,
		"a link on a pair's path trained below what both its ends support",
		"a downgraded link caps the pair's P2P bandwidth; it points to a bad slot, riser or card (GPUs idle at low speed: info only)" },
	[PA_GD_BANDWIDTH_TRAP] = { "gpudirect.bandwidth-trap", GD, PA_SEV_WARN,
		"a pair's narrowest link is under the trap ratio of what its faster end can do",
		"the faster device (a Gen4 x16 GPU) waits on the slower path (a Gen3 x8 NIC); NVMe pairs are left out, drives are x4 by design" },
	[PA_GD_IOMMU_TRANSLATED] = { "gpudirect.iommu-translated", GD, PA_SEV_WARN,
		"the IOMMU translates DMA by default (DMA or DMA-FQ domains)",
		"every peer access takes an IOMMU translation (IOTLB misses, ATS round trips), and GPUDirect RDMA needs IOMMU mappings of the peer's BARs; iommu=pt or the IOMMU off is the usual setting" },
	[PA_GD_ACS_P2PDMA] = { "gpudirect.acs-p2pdma", GD, PA_SEV_INFO,
		"the kernel's P2PDMA rule sees ACS redirect on a path whose traffic direction goes peer to peer",
		"pci_p2pdma_distance() treats any ReqRedir, CmpltRedir or EgressCtrl on the path as redirecting both ways, for in-kernel P2PDMA users (NVMe CMB, p2pmem); NVIDIA's stack follows the direction, as rdma_topo's asymmetric and DirectTrans settings intend" },
	[PA_GD_BAR_SMALL] = { "gpudirect.bar-small", GD, PA_SEV_WARN,
		"a GPU's largest prefetchable BAR is smaller than its memory",
		"peers reach GPU memory through that BAR: memory registration (nvidia-peermem, dma-buf) beyond it fails or is limited; needs the memory size from NVML or KFD" },
	[PA_GD_MPS_MISMATCH] = { "gpudirect.mps-mismatch", GD, PA_SEV_WARN,
		"functions on a pair's path differ in Max_Payload_Size, or its ends in Max_Read_Request_Size",
		"a TLP larger than a receiver's MPS is malformed and dropped; Linux sizes MPS per hierarchy (pci=pcie_bus_*), and a P2P path joins two; different MRRS only splits reads differently (info)" },
	[PA_GD_RELAXED_ORDERING] = { "gpudirect.relaxed-ordering", GD, PA_SEV_WARN,
		"relaxed ordering is off on an accelerator or NIC of a pair",
		"without it, strictly ordered writes cap P2P and RDMA throughput (about 16 against more than 40 GB/s on Emerald Rapids, openucx/ucx#10955); the kernel clears it where a root port quirk says it is broken" },
	[PA_VFIO_IOMMU_OFF] = { "vfio.iommu-off", VF, PA_SEV_FAIL,
		"no IOMMU serves the PCI devices",
		"VFIO needs IOMMU groups to isolate a passed-through device's DMA" },
	[PA_VFIO_IOMMU_PASSTHROUGH] = { "vfio.iommu-passthrough", VF, PA_SEV_WARN,
		"the IOMMU's default domains are identity (passthrough)",
		"VFIO devices stay isolated, but the host's own devices can DMA anywhere, guest memory included" },
	[PA_VFIO_GROUP_SHARED] = { "vfio.group-shared", VF, PA_SEV_FAIL,
		"a device's IOMMU group holds other devices than its own functions and bridges",
		"VFIO assigns whole groups: every endpoint in it goes to the same guest or must stay unbound" },
	[PA_VFIO_GROUP_NOT_VIABLE] = { "vfio.group-not-viable", VF, PA_SEV_FAIL,
		"a vfio-pci device shares its group with an endpoint bound to a host driver",
		"VFIO refuses the group (\"group is not viable\") until every endpoint in it is bound to vfio-pci or pci-stub, or unbound" },
	[PA_VFIO_ACS_MISSING] = { "vfio.acs-missing", VF, PA_SEV_FAIL,
		"a root or downstream port above a device lacks ACS SrcValid, ReqRedir, CmpltRedir or UpstreamFwd",
		"without them the port lets devices below it reach each other without the IOMMU, so their isolation rests on the kernel's grouping alone" },
	[PA_VFIO_GROUP_OVERCLAIMS] = { "vfio.group-overclaims", VF, PA_SEV_FAIL,
		"a kernel IOMMU group is finer than the device's ACS allows",
		"pcie_acs_override= (out-of-tree patch) or ACS changed after boot make groups claim isolation the hardware does not give; info when neither explains it (likely a kernel ACS quirk)" },
	[PA_VFIO_ACS_CHANGED] = { "vfio.acs-changed", VF, PA_SEV_FAIL,
		"a function's ACS control differs from when the module loaded",
		"IOMMU groups are formed once, at boot: ACS turned off later (setpci) leaves groups that claim isolation no longer there; info when no isolating flag was lost" },
	[PA_VFIO_NOT_OPENED] = { "vfio.not-opened", VF, PA_SEV_INFO,
		"a vfio-pci device is still in its default DMA or identity domain",
		"no user has opened it yet; in use, it sits in an unmanaged or blocked domain" },
	[PA_BL_IOMMU_OFF] = { "baseline.iommu-off", BL, PA_SEV_WARN,
		"no IOMMU serves the PCI devices",
		"no DMA isolation: any device can reach all memory, and VFIO cannot work; Debian's kernels leave Intel VT-d off without intel_iommu=on" },
	[PA_BL_LINK_DOWNGRADED] = { "baseline.link-downgraded", BL, PA_SEV_WARN,
		"a link trained below what both its ends support",
		"a lower speed or width caps the device's bandwidth: a bad slot, riser or card, or a BIOS speed limit (a GPU at low speed only: info, GPUs idle there)" },
	[PA_BL_NUMA_UNKNOWN] = { "baseline.numa-unknown", BL, PA_SEV_WARN,
		"devices report NUMA node -1 on a host with several nodes",
		"the kernel then allocates their DMA buffers and interrupts without locality, often on the wrong socket" },
	[PA_BL_AMD_IOMMU_ON] = { "baseline.amd-iommu-on", BL, PA_SEV_WARN,
		"amd_iommu=on is on the kernel command line",
		"not a value amd_iommu= accepts: the kernel logs \"AMD-Vi: Unknown option - 'on'\" and ignores it; the AMD IOMMU is on by default where the firmware enables it" },
	[PA_BL_PCI_NOACS] = { "baseline.pci-noacs", BL, PA_SEV_WARN,
		"pci=noacs is on the kernel command line",
		"no such option: the kernel logs \"PCI: Unknown option `noacs'\" and changes nothing; pci=disable_acs_redir= is the parameter that stops ACS redirection" },
	[PA_BL_ACS_OVERRIDE] = { "baseline.acs-override", BL, PA_SEV_WARN,
		"pcie_acs_override= is on the kernel command line",
		"only out-of-tree patches (Proxmox, linux-zen) know it: a mainline kernel ignores it, a patched one splits IOMMU groups the hardware does not isolate" },
	[PA_BL_IOMMU_PARAMS_CONFLICT] = { "baseline.iommu-params-conflict", BL, PA_SEV_WARN,
		"IOMMU parameters on the kernel command line contradict each other",
		"e.g. iommu=pt with intel_iommu=off (no IOMMU to pass through), or one parameter both on and off: only one of them takes effect" },
	[PA_BL_IOMMU_PARAM_VENDOR] = { "baseline.iommu-param-vendor", BL, PA_SEV_WARN,
		"an IOMMU parameter for the other CPU vendor is on the kernel command line",
		"intel_iommu= does nothing on AMD hosts and amd_iommu= nothing on Intel hosts: the intended setting is not in effect" },
	[PA_BL_ACS_PARAM_EFFECT] = { "baseline.acs-param-effect", BL, PA_SEV_FAIL,
		"pci=disable_acs_redir= or pci=config_acs= did not set a device's ACS control as asked",
		"6.11 to 6.14 kernels without commit 9cf8a952d57b copy the bits these parameters clear from the firmware and misparse a config_acs naming several devices; config_acs does not exist before 6.11; a malformed entry stops the kernel's parsing; setpci can rewrite ACS after boot" },
	[PA_BL_BAR_UNASSIGNED] = { "baseline.bar-unassigned", BL, PA_SEV_FAIL,
		"a BAR the kernel found has no address range assigned",
		"the device cannot use that BAR (its driver fails to map it); the bridge windows above it were too small, often a BIOS without Above 4G Decoding or resizable BAR support" },
	[PA_GD_ACCEL_LINK] = { "gpudirect.accel-link", GD, PA_SEV_INFO,
		"a pair of accelerators is joined by NVLink or XGMI",
		"NCCL and the drivers send the pair's traffic over those links, not PCIe: the pair's PCIe path is not judged; NVLink comes from NVML, XGMI from the kernel's KFD topology, and where NVML cannot be read the links are unknown, not absent" },
	[PA_GD_PEERMEM] = { "gpudirect.peermem-not-loaded", GD, PA_SEV_WARN,
		"the NVIDIA driver is loaded without nvidia-peermem, and no dma-buf route is known",
		"RDMA NICs register GPU memory through nvidia-peermem or through dma-buf; without either, GPUDirect RDMA falls back to copies through host memory (info when the dma-buf route is there, or no InfiniBand, NVIDIA/Mellanox or EFA NIC is)" },
	[PA_GD_DMABUF] = { "gpudirect.dmabuf-unavailable", GD, PA_SEV_WARN,
		"GPU memory cannot be shared through dma-buf",
		"dma-buf GPUDirect RDMA needs Linux 5.12 or later with the dma-buf core and NVIDIA's open kernel module; it replaces nvidia-peermem (info when nvidia-peermem is loaded, or no InfiniBand, NVIDIA/Mellanox or EFA NIC is there)" },
	[PA_BL_AER_RISING] = { "baseline.aer-rising", BL, PA_SEV_WARN,
		"a device's correctable AER errors rose since an earlier report of the host (check --previous)",
		"the link recovers from these errors by replaying packets, which costs bandwidth; a count that keeps rising points to a marginal slot, riser, cable or card before it fails" },
	[PA_EX_DEVICE_MISSING] = { "expect.device-missing", EX, PA_SEV_FAIL,
		"a device the golden host or the inventory has is not on this host",
		"a GPU or NIC that fell off the bus (or never trained) leaves no error behind: the host runs on with less, and jobs sized for it fail or slow down; reseat, check power and the slot, read the kernel log for the link" },
	[PA_EX_DEVICE_EXTRA] = { "expect.device-extra", EX, PA_SEV_WARN,
		"this host has a device the golden host or the inventory does not",
		"a card added, or a golden of another configuration: the host is not what the fleet's scheduling assumes" },
	[PA_EX_LINK_BELOW] = { "expect.link-below", EX, PA_SEV_FAIL,
		"a device's link trained below the golden host's or the inventory's speed or width",
		"the same slot trained better on a good host: a bad riser, cable, card or slot, or a BIOS speed limit; a GPU only slower is info (GPUs idle at low speed)" },
	[PA_EX_ACS_DIFFERS] = { "expect.acs-differs", EX, PA_SEV_FAIL,
		"a port's ACS control differs from the golden host's or the inventory's",
		"ACS decides whether P2P goes direct or through the root complex, and how IOMMU groups form: a BIOS update or a kernel parameter changed it" },
	[PA_EX_IOMMU_DIFFERS] = { "expect.iommu-differs", EX, PA_SEV_FAIL,
		"the IOMMU's default mode, or a device's group isolation, differs from the golden host's or the inventory's",
		"translation costs DMA throughput and passthrough costs isolation; groups that differ change what VFIO can assign; a kernel parameter or firmware setting differs" },
	[PA_EX_P2P_DIFFERS] = { "expect.p2p-differs", EX, PA_SEV_FAIL,
		"the P2P verdict of a pair differs from the golden host's or the inventory's",
		"GPUDirect runs direct, through the root complex or not at all by this verdict: the topology, ACS or the kernel differ from the known-good host" },
	[PA_EX_MOVED] = { "expect.moved", EX, PA_SEV_WARN,
		"a device sits in another slot than on the golden host",
		"the same card below another port or socket: its NUMA node, P2P paths and bandwidth differ from what the host's kind assumes" },
	[PA_VFIO_INTREMAP] = { "vfio.interrupt-remapping", VF, PA_SEV_FAIL,
		"the IOMMU does not remap interrupts",
		"without it a device can write any MSI and vfio_iommu_type1 refuses to attach a group (\"No interrupt remapping support\"); allow_unsafe_interrupts=1 lets it (warn): from /proc/interrupts' IR- chips, the kernel log, intremap=off" },
	[PA_VFIO_NO_RESET] = { "vfio.no-reset", VF, PA_SEV_WARN,
		"a candidate device has no reset method, or only a bus reset shared with devices outside its group",
		"VFIO resets a device when a guest starts and ends; without FLR, PM or a device-specific reset it can only reset the bus, which needs every device on it owned by the same user, so a device keeps its last guest's state (the GPU \"reset bug\"): from sysfs reset_method (5.15+) or DevCap, PM and the bus's other functions" },
	[PA_VFIO_SRIOV_RESOURCES] = { "vfio.sriov-resources", VF, PA_SEV_FAIL,
		"an SR-IOV device's VF BARs have no address space, or its VFs reach past function 7 without ARI Forwarding on the port above",
		"writing sriov_numvfs then fails (-ENOMEM) or leaves VFs unreachable: the firmware's \"SR-IOV enable\" reserves the VF BARs' space, and a port forwards to devices other than 0 only with ARI Forwarding Enable in DevCtl2" },
	[PA_VFIO_BAR_BELOW_4G] = { "vfio.bar-below-4g", VF, PA_SEV_WARN,
		"a large 64-bit prefetchable BAR sits below 4 GiB, or got no space",
		"large-BAR GPUs need their prefetchable BARs above 4 GiB (the firmware's \"Above 4G Decoding\"); below, they crowd the small 32-bit window, and where it is full they are left unassigned (256 MiB and larger)" },
	[PA_VFIO_IDS_NOT_BOUND] = { "vfio.ids-not-bound", VF, PA_SEV_FAIL,
		"a device vfio-pci.ids= names is bound to another driver",
		"the host driver loaded first (the initramfs order) and vfio-pci.ids= does not take a device from a driver: a softdep makes vfio-pci load before it" },
};

static const char *const profiles[PA_NPROFILES] = {
	[PA_PROFILE_GPUDIRECT]	= "gpudirect",
	[PA_PROFILE_VFIO]	= "vfio",
	[PA_PROFILE_BASELINE]	= "baseline",
	[PA_PROFILE_EXPECT]	= "expect",
};

static const char *const severities[] = {
	[PA_SEV_INFO]	= "info",
	[PA_SEV_WARN]	= "warn",
	[PA_SEV_FAIL]	= "fail",
};

int pa_rule_lookup(const char *id)
{
	for (int i = 0; i < PA_NRULES; i++)
		if (!strcmp(pa_rules[i].id, id))
			return i;
	return -1;
}

const char *pa_profile_name(enum pa_profile profile)
{
	return profile < PA_NPROFILES ? profiles[profile] : "?";
}

int pa_profile_lookup(const char *name)
{
	for (int i = 0; i < PA_NPROFILES; i++)
		if (!strcmp(profiles[i], name))
			return i;
	return -1;
}

const char *pa_severity_name(enum pa_severity sev)
{
	return sev >= PA_SEV_INFO && sev <= PA_SEV_FAIL ? severities[sev] : "?";
}

enum pa_severity pa_severity_lookup(const char *name)
{
	for (int s = PA_SEV_INFO; s <= PA_SEV_FAIL; s++)
		if (!strcmp(severities[s], name))
			return (enum pa_severity)s;
	return 0;
}
