# Records what NVML says about each GPU, for pcieaudit's NVML fixture.
import json, sys
import pynvml as n

def call(f, *a):
    try:
        v = f(*a)
        if isinstance(v, bytes):
            v = v.decode()
        return v
    except Exception as e:  # NVML errors are recorded, not raised
        return {"error": str(e)}

n.nvmlInit()
out = {"driver_version": call(n.nvmlSystemGetDriverVersion),
       "nvml_version": call(n.nvmlSystemGetNVMLVersion),
       "device_count": n.nvmlDeviceGetCount(), "devices": []}
for i in range(n.nvmlDeviceGetCount()):
    h = n.nvmlDeviceGetHandleByIndex(i)
    pci = n.nvmlDeviceGetPciInfo(h)
    d = {"index": i, "name": call(n.nvmlDeviceGetName, h),
         "uuid": call(n.nvmlDeviceGetUUID, h),
         "pci": {"busId": pci.busId.decode() if isinstance(pci.busId, bytes) else pci.busId,
                 "domain": pci.domain, "bus": pci.bus, "device": pci.device,
                 "pciDeviceId": pci.pciDeviceId, "pciSubSystemId": pci.pciSubSystemId},
         "pcie_cur_gen": call(n.nvmlDeviceGetCurrPcieLinkGeneration, h),
         "pcie_max_gen": call(n.nvmlDeviceGetMaxPcieLinkGeneration, h),
         "pcie_gpu_max_gen": call(n.nvmlDeviceGetGpuMaxPcieLinkGeneration, h),
         "pcie_cur_width": call(n.nvmlDeviceGetCurrPcieLinkWidth, h),
         "pcie_max_width": call(n.nvmlDeviceGetMaxPcieLinkWidth, h),
         "numa_node": call(getattr(n, "nvmlDeviceGetNumaNodeId", lambda h: None), h),
         "cpu_affinity": call(n.nvmlDeviceGetCpuAffinity, h, 4),
         "nvlinks": []}
    b = call(n.nvmlDeviceGetBAR1MemoryInfo, h)
    d["bar1_total"] = b.bar1Total if hasattr(b, "bar1Total") else b
    m = call(n.nvmlDeviceGetMemoryInfo, h)
    d["memory_total"] = m.total if hasattr(m, "total") else m
    for l in range(n.NVML_NVLINK_MAX_LINKS):
        st = call(n.nvmlDeviceGetNvLinkState, h, l)
        if isinstance(st, dict) and "Invalid Argument" in st.get("error", ""):
            break
        link = {"link": l, "state": st,
                "version": call(n.nvmlDeviceGetNvLinkVersion, h, l),
                "remote_type": call(getattr(n, "nvmlDeviceGetNvLinkRemoteDeviceType", lambda h, l: None), h, l),
                "cap_p2p": call(n.nvmlDeviceGetNvLinkCapability, h, l, n.NVML_NVLINK_CAP_P2P_SUPPORTED)}
        r = call(n.nvmlDeviceGetNvLinkRemotePciInfo, h, l)
        link["remote_busId"] = (r.busId.decode() if isinstance(r.busId, bytes) else r.busId) if hasattr(r, "busId") else r
        d["nvlinks"].append(link)
    out["devices"].append(d)
json.dump(out, sys.stdout, indent=1, default=str)
print()
