#!/usr/bin/python3
"""Judge a VM run of pcieaudit against independent oracles.

The guest (tests/vm/guest-init.sh) records, per snapshot, what
`pcieaudit-cli report --json` said and, independently of pcieaudit, what
`lspci -D -vvv`, sysfs, /sys/kernel/iommu_groups and the raw configuration
space (sysfs `config`) say. This script compares them field by field for every
device and fails on any difference. It never compares pcieaudit against its
own output.

    oracle.py --results DIR [--expect KEY=VALUE ...] [--allow-missing]
    oracle.py --selftest [--fixture DIR]
    oracle.py --make-fixture --results DIR --fixture DIR

--expect states what the topology is supposed to contain (e.g. iommu=amd),
checked against the independent data only, so that a topology that silently
lost its IOMMU or its switch cannot pass vacuously.

--selftest builds a correct report from the independent data of a stored run
(each directory under tests/fixtures/vm-runs/), checks that it passes, then checks
that each of a list of deliberately wrong reports fails.

Python 3 standard library only.
"""

import argparse
import copy
import json
import os
import re
import shlex
import shutil
import sys
import tempfile

import vfio_host_oracle

# Stored runs' independent data, for --selftest.
VM_RUNS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                       "fixtures", "vm-runs")

ACS_FLAGS = ["SrcValid", "TransBlk", "ReqRedir", "CmpltRedir",
             "UpstreamFwd", "EgressCtrl", "DirectTrans"]

# PCI Express Capabilities register, Device/Port Type (pci_regs.h
# PCI_EXP_TYPE_*) -> JSON name, as the contract (docs/json-schema.md) spells
# them. Note the bridge names: 7, PCI_EXP_TYPE_PCI_BRIDGE, a PCIe-to-PCI
# bridge such as QEMU's pcie-pci-bridge (lspci: "PCI-Express to PCI/PCI-X
# Bridge") is "pcie_to_pci_bridge"; 8, PCI_EXP_TYPE_PCIE_BRIDGE (lspci: "PCI/PCI-X
# to PCI-Express Bridge") is "pci_to_pcie_bridge".
PCIE_TYPE_BY_CODE = {
    0x0: "endpoint",
    0x1: "legacy_endpoint",
    0x4: "root_port",
    0x5: "upstream_port",
    0x6: "downstream_port",
    0x7: "pcie_to_pci_bridge",
    0x8: "pci_to_pcie_bridge",
    0x9: "rc_endpoint",
    0xA: "rc_event_collector",
}

# pciutils ls-caps.c wording (checked against the installed lspci) -> JSON.
PCIE_TYPE_BY_LSPCI = {
    "Endpoint": "endpoint",
    "Legacy Endpoint": "legacy_endpoint",
    "Root Port": "root_port",
    "Upstream Port": "upstream_port",
    "Downstream Port": "downstream_port",
    "PCI-Express to PCI/PCI-X Bridge": "pcie_to_pci_bridge",
    "PCI/PCI-X to PCI-Express Bridge": "pci_to_pcie_bridge",
    "Root Complex Integrated Endpoint": "rc_endpoint",
    "Root Complex Event Collector": "rc_event_collector",
}

# Link speed encodings (LnkCap, LnkSta, LnkCtl2 bits 3:0) in GT/s.
SPEEDS = {1: 2.5, 2: 5.0, 3: 8.0, 4: 16.0, 5: 32.0, 6: 64.0}

DOMAIN_TYPES = {"DMA", "DMA-FQ", "identity", "blocked", "unmanaged", "unknown"}

DMESG_BAD = ["BUG:", "WARNING:", "Oops", "general protection", "KASAN", "UBSAN"]

# What the guest records: snap1 (after insmod), snap2 (after the setpci ACS
# change), vfio (a function's group held in a VFIO container; optional).
SNAPSHOTS = ("snap1", "snap2", "vfio", "d3hot")
# lspci's "Status: D<n>" of the PM capability, as the JSON spells it.
POWER_BY_LSPCI = {"D0": "D0", "D1": "D1", "D2": "D2", "D3": "D3hot"}
POWER_BY_PMCSR = {0: "D0", 1: "D1", 2: "D2", 3: "D3hot"}
# info.features bits that only say how the kernel was built, and the option.
BUILD_FEATURES = {"p2pdma": "CONFIG_PCI_P2PDMA", "iommu_api": "CONFIG_IOMMU_API",
                  "pci_iov": "CONFIG_PCI_IOV", "pci_ats": "CONFIG_PCI_ATS"}

BDF_RE = re.compile(r"^([0-9a-f]{4}):([0-9a-f]{2}):([0-9a-f]{2})\.([0-7])$")

# ---------------------------------------------------------------------------
# Parsers for the independent sources
# ---------------------------------------------------------------------------


def parse_speed(text):
    """'2.5GT/s' -> 2.5, 'unknown' -> None."""
    m = re.match(r"^([0-9.]+)GT/s$", text.strip())
    return float(m.group(1)) if m else None


def parse_flags(text):
    """'SrcValid+ TransBlk- ...' -> {'SrcValid': True, ...}."""
    flags = {}
    for tok in text.split():
        m = re.match(r"^([A-Za-z]+)([+-])$", tok)
        if m:
            flags[m.group(1)] = m.group(2) == "+"
    return flags


def parse_size(text):
    """lspci's '16MB', '256GB', '1TB' -> bytes."""
    m = re.match(r"^(\d+)([KMGTPE]?)B$", text)
    if not m:
        return None
    return int(m.group(1)) << (10 * "_KMGTPE".index(m.group(2) or "_"))


# struct resource flags in sysfs "resource" (include/linux/ioport.h).
IORESOURCE_IO = 0x100
IORESOURCE_MEM = 0x200
IORESOURCE_PREFETCH = 0x2000
IORESOURCE_MEM_64 = 0x100000
IORESOURCE_UNSET = 0x20000000


def parse_resource(text):
    """The guest's ';'-joined first six lines of sysfs 'resource' ->
    [(index, size, flags)] for the BARs the kernel holds a resource for."""
    bars = []
    for i, line in enumerate([x for x in (text or "").split(";") if x.strip()][:6]):
        start, end, flags = (int(x, 16) for x in line.split())
        if flags & (IORESOURCE_IO | IORESOURCE_MEM) and end > start:
            bars.append((i, end - start + 1, flags))
    return bars


def parse_lspci(text):
    """lspci -D -vvv -> {bdf: facts}."""
    devs = {}
    cur = None
    cap = None
    for line in text.splitlines():
        m = re.match(r"^([0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]) (.*)$", line)
        if m:
            cur = {"express": None, "lnkcap": None, "lnksta": None,
                   "target_speed": None, "acs": None, "driver": None,
                   "iommu_group": None, "caps": [], "denied": False,
                   "pm": None, "power": None, "devcap_mps": None,
                   "mps": None, "mrrs": None, "relaxed_ordering": None,
                   "ats": None, "rebar": {}}
            devs[m.group(1)] = cur
            cap = None
            continue
        if cur is None:
            continue
        m = re.match(r"^\tCapabilities: \[([0-9a-f]+)(?: v(\d+))?\] (.*)$", line)
        if m:
            cap = m.group(3)
            pos = int(m.group(1), 16)
            cur["caps"].append((pos, cap))
            em = re.match(r"^Express \(v(\d+)\) (.*?)(?:, (?:MSI|IntMsgNum) [0-9a-f]+)?$", cap)
            if em:
                words = re.sub(r" \(Slot[+-]\)$", "", em.group(2))
                cur["express"] = {"pos": pos, "version": int(em.group(1)),
                                  "words": words,
                                  "type": PCIE_TYPE_BY_LSPCI.get(words)}
                cap = "Express"
            elif cap == "Access Control Services":
                cur["acs"] = {"pos": pos, "cap_flags": None, "ctrl_flags": None}
            elif cap.startswith("Power Management"):
                cur["pm"] = pos
                cap = "Power Management"
            elif cap == "Address Translation Service (ATS)":
                cur["ats"] = {"enabled": None}
                cap = "ATS"
            elif cap == "Physical Resizable BAR":
                cap = "ReBAR"
            continue
        if re.match(r"^\tCapabilities: <access denied>", line):
            cur["denied"] = True
            continue
        m = re.match(r"^\tKernel driver in use: (\S+)", line)
        if m:
            cur["driver"] = m.group(1)
            continue
        m = re.match(r"^\tIOMMU group: (\d+)", line)
        if m:
            cur["iommu_group"] = int(m.group(1))
            continue
        if cap == "Express":
            m = re.match(r"^\t\tLnkCap:\s+Port #\d+, Speed ([^,]+), Width x(\d+)", line)
            if m:
                cur["lnkcap"] = {"speed": parse_speed(m.group(1)),
                                 "width": int(m.group(2))}
            m = re.match(r"^\t\tLnkSta:\s+Speed ([^ ,]+)( \((\w+)\))?, Width x(\d+)( \((\w+)\))?", line)
            if m:
                cur["lnksta"] = {"speed": parse_speed(m.group(1)),
                                 "speed_note": m.group(3),
                                 "width": int(m.group(4)),
                                 "width_note": m.group(6)}
            m = re.match(r"^\t\tLnkCtl2:\s+Target Link Speed: ([^,]+),", line)
            if m:
                cur["target_speed"] = parse_speed(m.group(1))
            # Device Capabilities and Control (lspci's ls-caps.c wording).
            m = re.match(r"^\t\tDevCap:\s+MaxPayload (\d+) bytes", line)
            if m:
                cur["devcap_mps"] = int(m.group(1))
            m = re.match(r"^\t\t\tRlxdOrd([+-]) ", line)
            if m and cur["relaxed_ordering"] is None:
                cur["relaxed_ordering"] = m.group(1) == "+"
            m = re.match(r"^\t\t\tMaxPayload (\d+) bytes, MaxReadReq (\d+) bytes", line)
            if m and cur["mps"] is None:
                cur["mps"], cur["mrrs"] = int(m.group(1)), int(m.group(2))
        elif cap == "ATS":
            m = re.match(r"^\t\tATSCtl:\s+Enable([+-])", line)
            if m:
                cur["ats"]["enabled"] = m.group(1) == "+"
        elif cap == "ReBAR":
            m = re.match(r"^\t\tBAR (\d): current size: (\S+), supported: (.*)$", line)
            if m:
                cur["rebar"][int(m.group(1))] = {
                    "current": parse_size(m.group(2)),
                    "supported": sorted((parse_size(x) for x in m.group(3).split()),
                                        reverse=True)}
        elif cap == "Power Management":
            m = re.match(r"^\t\tStatus: (D[0-3]) ", line)
            if m:
                cur["power"] = POWER_BY_LSPCI[m.group(1)]
        elif cap == "Access Control Services":
            m = re.match(r"^\t\tACSCap:\s+(.*)$", line)
            if m:
                cur["acs"]["cap_flags"] = parse_flags(m.group(1))
            m = re.match(r"^\t\tACSCtl:\s+(.*)$", line)
            if m:
                cur["acs"]["ctrl_flags"] = parse_flags(m.group(1))
    return devs


def parse_lspci_mm(text):
    """lspci -D -mm -> {bdf: (vendor name, device name)}."""
    out = {}
    for line in text.splitlines():
        try:
            f = shlex.split(line)
        except ValueError:
            continue
        if len(f) >= 4 and BDF_RE.match(f[0]):
            out[f[0]] = (f[2], f[3])
    return out


def parse_sysfs(text):
    """BDF<TAB>key<TAB>value lines -> {bdf: {key: value}}."""
    devs = {}
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) != 3:
            continue
        devs.setdefault(parts[0], {})[parts[1]] = parts[2]
    return devs


def parse_groups(text):
    """-> {group_id: {"type": str|None, "pci": set(bdf), "other": int}}."""
    groups = {}
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) < 3:
            continue
        g = groups.setdefault(int(parts[0]), {"type": None, "pci": set(), "other": 0})
        if parts[1] == "type":
            g["type"] = parts[2]
        elif parts[1] == "member" and len(parts) == 4:
            if parts[3] == "pci":
                g["pci"].add(parts[2])
            else:
                g["other"] += 1
    return groups


class Config:
    """Raw configuration space of one function (missing bytes read as 0)."""

    def __init__(self, hexstr):
        self.b = bytes.fromhex(hexstr)

    def r8(self, off):
        return self.b[off] if off < len(self.b) else 0

    def r16(self, off):
        return self.r8(off) | self.r8(off + 1) << 8

    def r32(self, off):
        return self.r16(off) | self.r16(off + 2) << 16

    def cap(self, cap_id):
        """Offset of a standard capability, or None."""
        if not self.r16(0x06) & 0x10:
            return None
        ptr = self.r8(0x34) & 0xFC
        for _ in range(48):
            if ptr < 0x40:
                return None
            if self.r8(ptr) == cap_id:
                return ptr
            ptr = self.r8(ptr + 1) & 0xFC
        return None

    def ecap(self, cap_id):
        """Offset of an extended capability, or None."""
        pos = 0x100
        for _ in range(512):
            hdr = self.r32(pos)
            if hdr in (0, 0xFFFFFFFF):
                return None
            if hdr & 0xFFFF == cap_id:
                return pos
            pos = hdr >> 20 & 0xFFC
            if pos < 0x100:
                return None
        return None


def parse_config(text):
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2:
            out[parts[0]] = Config(parts[1])
    return out


def read_text(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def read_kv(path):
    """KEY=VALUE lines; a kernel config's "# CONFIG_X is not set" reads as n."""
    out = {}
    if os.path.exists(path):
        for line in read_text(path).splitlines():
            unset = re.match(r"^# (CONFIG_\w+) is not set$", line)
            if unset:
                out[unset.group(1)] = "n"
            elif "=" in line:
                k, v = line.split("=", 1)
                out[k] = v
    return out


class Snapshot:
    """Everything the guest recorded at one point in time."""

    def __init__(self, path):
        self.path = path
        self.lspci = parse_lspci(read_text(os.path.join(path, "lspci.txt")))
        self.sysfs = parse_sysfs(read_text(os.path.join(path, "sysfs.tsv")))
        self.groups = parse_groups(read_text(os.path.join(path, "groups.tsv")))
        self.config = parse_config(read_text(os.path.join(path, "config.hex")))
        mm = os.path.join(path, "lspci-mm.txt")
        self.names = parse_lspci_mm(read_text(mm)) if os.path.exists(mm) else None
        self.report_path = os.path.join(path, "report.json")
        rc = os.path.join(path, "report.rc")
        self.report_rc = int(read_text(rc).strip()) if os.path.exists(rc) else None


# ---------------------------------------------------------------------------
# What a correct report says, derived from the independent data only
# ---------------------------------------------------------------------------


def hexint(s):
    return int(s, 16)


def pm_candidates(snap, vfio_bdf=None):
    """Endpoints with a PM capability, not VFs, as guest-init.sh picks one
    to put into D3hot (it takes the first)."""
    return [b for b in sorted(snap.lspci)
            if snap.lspci[b]["pm"] is not None and snap.lspci[b]["express"]
            and snap.lspci[b]["express"]["type"] == "endpoint"
            and "physfn" not in snap.sysfs.get(b, {}) and b != vfio_bdf]


def report_device(rep, bdf):
    for d in (rep or {}).get("devices") or []:
        if isinstance(d, dict) and d.get("bdf") == bdf:
            return d
    return None


def text_block(path, bdf):
    """The lines of a text report from bdf's device line to the next one."""
    if not os.path.exists(path):
        return ""
    lines = read_text(path).splitlines()
    for i, line in enumerate(lines):
        # "+- " before a device with siblings below it, "\- " before the last.
        if re.search(rf"[+\\]- {re.escape(bdf)} ", line):
            block = [line]
            for nxt in lines[i + 1:]:
                if re.search(r"- [0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7] ", nxt):
                    break
                block.append(nxt)
            return "\n".join(block)
    return ""


def expected_device(snap, bdf):
    """The oracle's view of one function, keyed like the JSON contract."""
    s = snap.sysfs[bdf]
    lp = snap.lspci.get(bdf, {})
    cfg = snap.config.get(bdf)
    dom, bus, dev, fn = BDF_RE.match(bdf).groups()
    parent = s.get("parent")
    e = {
        "bdf": bdf,
        "domain": int(dom, 16),
        "bus": int(bus, 16),
        "devfn": int(dev, 16) << 3 | int(fn),
        "vendor": hexint(s["vendor"]),
        "device": hexint(s["device"]),
        "subsystem_vendor": hexint(s["subsystem_vendor"]),
        "subsystem_device": hexint(s["subsystem_device"]),
        "class": hexint(s["class"]),
        "revision": hexint(s["revision"]),
        # The kernel's -1 (no node) is null: unknown.
        "numa_node": int(s["numa_node"]) if int(s["numa_node"]) >= 0 else None,
        "driver": s.get("driver"),
        "upstream": parent if parent in snap.sysfs else None,
        "multifunction": multifunction(snap, bdf),
        "virtfn": "physfn" in s,
        "pf": s.get("physfn"),
        # sysfs shows sriov_numvfs for every PF the kernel set up (is_physfn),
        # VFs enabled or not (the kernel may have refused them).
        "physfn": "sriov_numvfs" in s,
        "pcie_type": lp["express"]["type"] if lp.get("express") else None,
        "bridge": "subordinate" in s,
        "secondary_bus": int(s["subordinate"].split(":")[1], 16) if "subordinate" in s else None,
        "disconnected": False,
        # PMCSR as lspci decodes it; null without a PM capability. Every
        # function of a test VM answers configuration reads.
        "power_state": lp.get("power"),
        "config_readable": True,
    }
    acs = lp.get("acs")
    if acs:
        pos = acs["pos"]
        e["acs"] = {"pos": pos, "cap": cfg.r16(pos + 4), "ctrl": cfg.r16(pos + 6),
                    "cap_flags": acs["cap_flags"], "ctrl_flags": acs["ctrl_flags"]}
    else:
        e["acs"] = None
    if lp.get("lnkcap"):
        xp = lp["express"]["pos"]
        # target_speed follows lspci: LnkCtl2 absent (capability v1) -> null;
        # a Target Link Speed hardwired to 0 means a 2.5GT/s-only component
        # (PCIe spec), which lspci prints as 2.5GT/s.
        e["link"] = {"speed": lp["lnksta"]["speed"], "width": lp["lnksta"]["width"],
                     "max_speed": lp["lnkcap"]["speed"], "max_width": lp["lnkcap"]["width"],
                     "target_speed": lp["target_speed"],
                     "lnkcap": cfg.r32(xp + 0x0C), "lnksta": cfg.r16(xp + 0x12)}
        e["link"]["downgraded"] = expected_downgraded(lp)
        if lp["target_speed"] is None and lp["express"]["version"] >= 2:
            e["link"]["target_speed_reserved"] = SPEEDS.get(cfg.r16(xp + 0x30) & 0xF or 1)
    else:
        e["link"] = None
    # ATS, Device Control, BARs: the module reports them for every PCIe
    # function and for any function with BARs (sizes from sysfs resource,
    # decoding from lspci).
    bars = parse_resource(s.get("resource"))
    express = bool(lp.get("express"))
    known = express or bool(bars)
    if known:
        ats = lp.get("ats")
        e["ats"] = {"capable": ats is not None,
                    "enabled": bool(ats and ats["enabled"])}
    else:
        e["ats"] = None
    e["pcie_device"] = {"mps": lp.get("mps"), "mps_supported": lp.get("devcap_mps"),
                        "mrrs": lp.get("mrrs"),
                        "relaxed_ordering": lp.get("relaxed_ordering")} if express else None
    e["bars"] = [{"index": i, "size": size,
                  "type": "io" if fl & IORESOURCE_IO else "mem",
                  "prefetchable": bool(fl & IORESOURCE_PREFETCH),
                  "mem64": bool(fl & IORESOURCE_MEM_64),
                  "assigned": not fl & IORESOURCE_UNSET,
                  "resizable": lp.get("rebar", {}).get(i)}
                 for i, size, fl in bars] if known else None
    # Memory size comes from NVML or KFD, never from the PCI facts.
    e["mem_bytes"] = None
    if "iommu_group" in s:
        gid = int(s["iommu_group"])
        dtype = snap.groups.get(gid, {}).get("type")
        e["iommu"] = {"group": gid, "default_domain": dtype,
                      "domain": dtype if s.get("driver") != "vfio-pci" else None,
                      "instance": s.get("iommu")}
    else:
        e["iommu"] = None
    return e


def multifunction(snap, bdf):
    """Part of a multifunction device: the function's own header type has
    bit 7 set, or function 0 of its slot has (the kernel scans functions 1-7
    only then, and sets pci_dev->multifunction on each; QEMU, unlike most
    hardware, sets the bit in function 0 only)."""
    own = hexint(snap.sysfs[bdf]["hdr_type"]) & 0x80
    if "physfn" in snap.sysfs[bdf]:
        # VFs: iov.c clears the flag, but a later pci_scan_slot() of the
        # PF's slot (ACPI hotplug rescans, following the PF's ARI next-
        # function pointer) sets it again on the VF it reaches. Seen on
        # QEMU's NVMe VF 1 and not VF 2; unpredictable from outside.
        return None
    if own or bdf.endswith(".0"):
        return bool(own)
    fn0 = snap.sysfs.get(bdf[:-1] + "0")
    return bool(fn0 and hexint(fn0["hdr_type"]) & 0x80)


def trained_below_capability(lp):
    """True/False where lspci's numbers decide it, None where they don't
    (unknown speed, width 0, or a status above the capability)."""
    cap, sta = lp["lnkcap"], lp["lnksta"]
    if None in (cap["speed"], sta["speed"]) or cap["width"] == 0:
        return None
    if sta["speed"] > cap["speed"] or sta["width"] > cap["width"]:
        return None
    return sta["speed"] < cap["speed"] or sta["width"] < cap["width"]


def expected_downgraded(lp):
    """lspci's own verdict, its "(downgraded)" after LnkSta's speed or
    width: it never marks root and downstream ports or PCI/PCI-X to PCIe
    bridges, whose partner below decides the link. None where the numbers
    do not decide."""
    if trained_below_capability(lp) is None:
        return None
    sta = lp["lnksta"]
    return "downgraded" in (sta["speed_note"], sta["width_note"])


def expected_groups(snap):
    return {gid: g for gid, g in snap.groups.items() if g["pci"]}


# ---------------------------------------------------------------------------
# VFIO facts, AER and BAR places, from config.hex and the sysfs dump alone
# ---------------------------------------------------------------------------

# Capability IDs and offsets (PCI Local Bus / PCIe specs; pci_regs.h).
CAP_PM, CAP_EXP, CAP_AF = 0x01, 0x10, 0x13
ECAP_SRIOV = 0x0010
PM_CTRL, PM_CTRL_NO_SOFT_RESET = 0x04, 0x0008
AF_CAP, AF_CAP_TP_FLR = 0x03, 0x03
EXP_DEVCAP2, EXP_DEVCTL2 = 0x24, 0x28
SRIOV_INITIAL_VF, SRIOV_TOTAL_VF, SRIOV_NUM_VF = 0x0C, 0x0E, 0x10
SRIOV_VF_OFFSET, SRIOV_VF_STRIDE, SRIOV_BAR = 0x14, 0x16, 0x24
# The AER counters' TOTAL_ERR_* lines, as guest-init.sh keys them.
AER_TOTALS = (("correctable", "aer_TOTAL_ERR_COR"),
              ("nonfatal", "aer_TOTAL_ERR_NONFATAL"),
              ("fatal", "aer_TOTAL_ERR_FATAL"))


def resource_lines(text):
    """';'-joined "start end flags" lines -> [(start, end, flags)]."""
    return [tuple(int(x, 16) for x in line.split())
            for line in (text or "").split(";") if len(line.split()) == 3]


def config_unusable(cfg):
    """No configuration space to judge: none dumped, or all ones (the whole
    space, or the whole header as passthru.c has it: a VF's vendor and
    device read 0xffff, its command and class registers do not)."""
    if cfg is None or not cfg.b:
        return True
    return all(x == 0xFF for x in cfg.b) or \
        cfg.r32(0x00) == cfg.r32(0x04) == cfg.r32(0x08) == 0xFFFFFFFF


def vf_bar_regs(cfg, pos):
    """The SR-IOV capability's six VF BAR registers: [(declared, address)].
    Declared: an I/O BAR with an address; a memory BAR with an address or
    its 64-bit or prefetchable bit set. The upper half of a 64-bit BAR is
    no BAR."""
    out, upper = [], False
    for i in range(6):
        v = cfg.r32(pos + SRIOV_BAR + 4 * i)
        if upper:
            out.append((False, 0))
            upper = False
            continue
        if v & 1:
            addr = v & 0xFFFFFFFC
            out.append((addr != 0, addr))
            continue
        addr, mem64 = v & 0xFFFFFFF0, (v & 0x6) == 0x4 and i < 5
        if mem64:
            addr |= cfg.r32(pos + SRIOV_BAR + 4 * (i + 1)) << 32
            upper = True
        out.append((bool(addr or mem64 or v & 0x8), addr))
    return out


def expected_vf_bars(cfg, pos, iov):
    """(vf_bars_assigned, vf_bars_sized) from the VF BAR registers and the
    resource file's VF BAR lines (iov: '' where the file has none, a kernel
    without CONFIG_PCI_IOV). A sized line (memory, end past start) sets its
    bit, and is unassigned when IORESOURCE_UNSET; a declared register
    without a sized line got no space; with no lines at all, only a
    declared register still at address 0 tells."""
    lines = resource_lines(iov)
    with_res = len(lines) >= 6
    assigned, sized = True, 0
    for i, (declared, addr) in enumerate(vf_bar_regs(cfg, pos)):
        if with_res:
            start, end, fl = lines[i]
            if fl & IORESOURCE_MEM and end > start:
                sized |= 1 << i
                if fl & IORESOURCE_UNSET:
                    assigned = False
                continue
        if declared and (with_res or not addr):
            assigned = False
    return assigned, sized


def expected_passthrough(s, cfg, iov):
    """A function's passthrough object from its sysfs dump s and its
    configuration space: PM's No_Soft_Reset, the Advanced Features FLR,
    DevCap2/DevCtl2 (PCIe capability version 2 on), the SR-IOV capability
    (the extended space), sysfs's reset files and sriov_numvfs. iov: the
    resource file's VF BAR lines, None where the dump lacks them (an older
    guest): the sriov object then has no vf_bars_* to compare."""
    pm, af, xp = cfg.cap(CAP_PM), cfg.cap(CAP_AF), cfg.cap(CAP_EXP)
    v2 = xp is not None and cfg.r16(xp + 2) & 0xF > 1
    e = {"reset_method": s.get("reset_method"),
         # The kernel shows reset and reset_method together.
         "reset_file": "reset" in s or "reset_method" in s,
         "pm_no_soft_reset": None if pm is None
         else bool(cfg.r16(pm + PM_CTRL) & PM_CTRL_NO_SOFT_RESET),
         "af_flr": None if af is None
         else cfg.r8(af + AF_CAP) & AF_CAP_TP_FLR == AF_CAP_TP_FLR,
         "devcap2": cfg.r32(xp + EXP_DEVCAP2) if v2 else None,
         "devctl2": cfg.r16(xp + EXP_DEVCTL2) if v2 else None,
         "sriov": None}
    sp = cfg.ecap(ECAP_SRIOV)
    if sp is not None:
        numvfs = s.get("sriov_numvfs")
        sr = {"total_vfs": cfg.r16(sp + SRIOV_TOTAL_VF),
              "initial_vfs": cfg.r16(sp + SRIOV_INITIAL_VF),
              "num_vfs": cfg.r16(sp + SRIOV_NUM_VF),
              "vf_offset": cfg.r16(sp + SRIOV_VF_OFFSET),
              "vf_stride": cfg.r16(sp + SRIOV_VF_STRIDE),
              # null: sysfs has no sriov_numvfs (the kernel did not set
              # the PF up, or was built without CONFIG_PCI_IOV).
              "sysfs_num_vfs": int(numvfs) if numvfs is not None and numvfs.isdigit() else None}
        if iov is not None:
            sr["vf_bars_assigned"], sr["vf_bars_sized"] = expected_vf_bars(cfg, sp, iov)
        e["sriov"] = sr
    return e


def expected_aer(s, pcie):
    """None for conventional PCI; else whether the kernel's AER counter
    files exist, and their totals: {"state", field: total}. None too where
    the dump does not say (an older guest): nothing to compare."""
    if not pcie:
        return {"state": None}
    if "aer" not in s:
        return None
    if s["aer"] != "yes":
        return {"state": "unknown"}
    e = {"state": "known"}
    for field, key in AER_TOTALS:
        if s.get(key, "").isdigit():
            e[field] = int(s[key])
    return e


# ---------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------


class Checker:
    def __init__(self):
        self.errors = []
        self.counts = {}
        self.names = None
        self.kernel = None
        self.kconfig = None
        self.dma_fq = True
        self.default_mode = None
        self.held = set()
        self.snap = None
        self.p2p_stats = None
        # vfio_facts(): facts compared, functions skipped, facts an older
        # guest's dump could not decide.
        self.vfio_stats = [0, 0, 0]

    def err(self, where, msg):
        self.errors.append(f"{where}: {msg}")

    def count(self, what):
        self.counts[what] = self.counts.get(what, 0) + 1

    def eq(self, where, field, got, want):
        """Numbers compare numerically (2.5 == 2.5, 5 == 5.0); bool is not int."""
        self.count(field)
        if isinstance(got, bool) or isinstance(want, bool):
            same = isinstance(got, bool) and isinstance(want, bool) and got == want
        elif isinstance(got, (int, float)) and isinstance(want, (int, float)):
            same = abs(got - want) < 1e-9
        else:
            same = got == want
        if not same:
            self.err(where, f"{field}: report={fmt(got)} oracle={fmt(want)}")

    # -- consistency of the independent sources among themselves ------------

    def sources(self, tag, snap):
        """lspci, sysfs and raw config must agree; if they don't, the oracle
        itself cannot be trusted and the run fails."""
        where = f"{tag} oracle-sources"
        if set(snap.lspci) != set(snap.sysfs):
            self.err(where, f"lspci BDFs {sorted(set(snap.lspci) ^ set(snap.sysfs))} differ from sysfs")
        if set(snap.config) != set(snap.sysfs):
            self.err(where, "config dump BDFs differ from sysfs")
        for bdf, lp in snap.lspci.items():
            if bdf not in snap.sysfs or bdf not in snap.config:
                continue
            w = f"{where} {bdf}"
            s, cfg = snap.sysfs[bdf], snap.config[bdf]
            if lp["denied"]:
                self.err(w, "lspci could not read the capabilities (not root?)")
            if lp["driver"] != s.get("driver"):
                self.err(w, f"lspci driver {lp['driver']} != sysfs {s.get('driver')}")
            sg = int(s["iommu_group"]) if "iommu_group" in s else None
            if lp["iommu_group"] != sg:
                self.err(w, f"lspci IOMMU group {lp['iommu_group']} != sysfs {sg}")
            # A VF's Vendor ID register reads 0xffff; the kernel takes the PF's.
            if ("physfn" not in s and cfg.r16(0) != hexint(s["vendor"])) \
                    or cfg.r8(0x0E) != hexint(s["hdr_type"]):
                self.err(w, "config space does not match sysfs ids/header type")
            xp = cfg.cap(0x10)
            lx = lp["express"]
            if (xp is None) != (lx is None) or (lx and lx["pos"] != xp):
                self.err(w, f"Express capability: lspci {lx and lx['pos']} config {xp}")
            if lx:
                code = cfg.r16(xp + 2) >> 4 & 0xF
                if lx["type"] is None or PCIE_TYPE_BY_CODE.get(code) != lx["type"]:
                    self.err(w, f"lspci Express type '{lx['words']}' vs config type {code}")
            pm = cfg.cap(0x01)
            if (pm is None) != (lp["pm"] is None) or (lp["pm"] and lp["pm"] != pm):
                self.err(w, f"PM capability: lspci {lp['pm']} config {pm}")
            elif pm is not None and lp["power"] != POWER_BY_PMCSR[cfg.r16(pm + 4) & 3]:
                self.err(w, f"lspci power state {lp['power']} != config PMCSR "
                         f"{cfg.r16(pm + 4):#06x}")
            ap = cfg.ecap(0x000D)
            la = lp["acs"]
            if (ap is None) != (la is None) or (la and la["pos"] != ap):
                self.err(w, f"ACS capability: lspci {la and la['pos']} config {ap}")
            if la:
                for name, reg in (("cap_flags", 4), ("ctrl_flags", 6)):
                    fl = la[name]
                    if fl is None or sorted(fl) != sorted(ACS_FLAGS):
                        self.err(w, f"lspci ACS {name} unparsed: {fl}")
                        continue
                    raw = cfg.r16(ap + reg)
                    for i, f in enumerate(ACS_FLAGS):
                        if fl[f] != bool(raw >> i & 1):
                            self.err(w, f"lspci ACS {name}.{f} != config bit {i} of {raw:#06x}")
            if lp["lnkcap"] and not lp["lnksta"]:
                self.err(w, "lspci has LnkCap but no LnkSta")
            if lp["lnkcap"] and lp["lnksta"] and xp is not None:
                cap, sta = cfg.r32(xp + 0x0C), cfg.r16(xp + 0x12)
                # lspci shows LnkCtl2 from capability v2 on, except on
                # endpoints other than function 0, where it is reserved.
                fn0 = bdf.endswith(":00.0")
                has2 = lx["version"] >= 2 and (fn0 or lx["type"] not in ("endpoint", "legacy_endpoint"))
                tgt = cfg.r16(xp + 0x30) if has2 else None
                pairs = [("LnkCap speed", lp["lnkcap"]["speed"], SPEEDS.get(cap & 0xF)),
                         ("LnkCap width", lp["lnkcap"]["width"], cap >> 4 & 0x3F),
                         ("LnkSta speed", lp["lnksta"]["speed"], SPEEDS.get(sta & 0xF)),
                         ("LnkSta width", lp["lnksta"]["width"], sta >> 4 & 0x3F),
                         # 0 is "only 2.5GT/s supported" (PCIe spec, pciutils).
                         ("LnkCtl2 target", lp["target_speed"],
                          None if tgt is None else SPEEDS.get(tgt & 0xF or 1))]
                for name, parsed, raw in pairs:
                    if parsed != raw:
                        self.err(w, f"lspci {name} {parsed} != config {raw}")
        for gid, g in snap.groups.items():
            for bdf in g["pci"]:
                if snap.sysfs.get(bdf, {}).get("iommu_group") != str(gid):
                    self.err(where, f"group {gid} lists {bdf} but its iommu_group link disagrees")

    # -- the report against the oracle ----------------------------------------

    def report(self, tag, snap):
        where = f"{tag} report"
        if snap.report_rc is None:
            self.err(where, "no report was taken")
            return None
        if snap.report_rc != 0:
            self.err(where, f"pcieaudit-cli report --json exited {snap.report_rc}")
        try:
            rep = json.loads(read_text(snap.report_path))
        except (OSError, ValueError) as exc:
            self.err(where, f"report.json does not parse: {exc}")
            return None
        if not isinstance(rep, dict):
            self.err(where, "report is not a JSON object")
            return None
        self.eq(where, "schema_version", rep.get("schema_version"), 1)
        if not isinstance(rep.get("info"), dict):
            self.err(where, "info missing or not an object")
        devices = rep.get("devices")
        if not isinstance(devices, list):
            self.err(where, "devices missing or not a list")
            return rep
        by_bdf = {}
        for d in devices:
            if not isinstance(d, dict) or not isinstance(d.get("bdf"), str):
                self.err(where, f"malformed device entry {fmt(d)}")
                continue
            if d["bdf"] in by_bdf:
                self.err(where, f"{d['bdf']} listed twice")
            by_bdf[d["bdf"]] = d
        want = set(snap.sysfs)
        for bdf in sorted(want - set(by_bdf)):
            self.err(where, f"{bdf}: in sysfs, missing from the report")
        for bdf in sorted(set(by_bdf) - want):
            self.err(where, f"{bdf}: in the report, not in sysfs")
        self.count("device set")
        self.names = snap.names
        self.info(where, rep.get("info"), snap, devices)
        self.report_pairs(where, rep)
        self.snap = snap
        for bdf in sorted(want & set(by_bdf)):
            self.device(f"{tag} {bdf}", by_bdf[bdf], expected_device(snap, bdf))
        self.groups(tag, rep.get("groups"), snap)
        return rep

    def report_pairs(self, where, rep):
        """The report's pairs say whose verdict they carry: where the kernel
        answered, whether pcieaudit agrees (it must, here); where it did
        not, the rules pcieaudit's verdict models (info.p2p_rules)."""
        pairs = rep.get("p2p")
        if pairs is None:
            return
        if not isinstance(pairs, list):
            self.err(where, f"p2p not a list: {fmt(pairs)}")
            return
        info = rep.get("info") if isinstance(rep.get("info"), dict) else {}
        for pr in pairs:
            if not isinstance(pr, dict):
                self.err(where, f"malformed pair {fmt(pr)}")
                continue
            w = f"{where} p2p {pr.get('a')} -> {pr.get('b')}"
            answered = pr.get("kernel_status") == "answered"
            self.eq(w, "agreement", pr.get("agreement", "<absent>"),
                    "agree" if answered else None)
            self.eq(w, "modelled_on", pr.get("modelled_on", "<absent>"),
                    None if answered else info.get("p2p_rules"))

    def device(self, where, d, e):
        for k in ("domain", "bus", "devfn", "vendor", "device", "subsystem_vendor",
                  "subsystem_device", "class", "revision", "numa_node", "driver",
                  "upstream", "virtfn", "physfn", "pf", "pcie_type"):
            self.eq(where, k, d.get(k, "<absent>"), e[k])
        if e["multifunction"] is not None:
            self.eq(where, "multifunction", d.get("multifunction", "<absent>"), e["multifunction"])
        elif not isinstance(d.get("multifunction"), bool):
            self.err(where, f"multifunction not a bool: {fmt(d.get('multifunction'))}")
        for k in ("bridge", "secondary_bus", "disconnected", "power_state",
                  "config_readable"):
            self.eq(where, k, d.get(k, "<absent>"), e[k])
        if self.names is not None:
            for k, lname in zip(("vendor_name", "device_name"), self.names.get(d["bdf"], (None, None))):
                got = d.get(k, "<absent>")
                # libpci spells unknown names "Device 1234"; the CLI may say null.
                if got is None and lname and re.match(r"^(Vendor|Device) [0-9a-f]{4}$", lname):
                    continue
                self.eq(where, k, got, lname)

        a, ea = d.get("acs", "<absent>"), e["acs"]
        if ea is None or not isinstance(a, dict):
            self.eq(where, "acs", a, None if ea is None else "<object>")
        else:
            self.eq(where, "acs.pos", a.get("pos"), ea["pos"])
            self.eq(where, "acs.cap", a.get("cap"), ea["cap"])
            self.eq(where, "acs.ctrl", a.get("ctrl"), ea["ctrl"])
            for name, raw in (("cap_flags", "cap"), ("ctrl_flags", "ctrl")):
                jf = a.get(name)
                if not isinstance(jf, dict) or sorted(jf) != sorted(ACS_FLAGS):
                    self.err(where, f"acs.{name}: want exactly the keys {ACS_FLAGS}, got {fmt(jf)}")
                    continue
                for i, f in enumerate(ACS_FLAGS):
                    self.eq(where, f"acs.{name}.{f} (lspci)", jf[f], ea[name][f])
                    if isinstance(a.get(raw), int):
                        self.eq(where, f"acs.{name}.{f} (raw {raw} bit {i})",
                                jf[f], bool(a[raw] >> i & 1))

        ln, el = d.get("link", "<absent>"), e["link"]
        if el is None or not isinstance(ln, dict):
            self.eq(where, "link", ln, None if el is None else "<object>")
        else:
            for k in ("speed", "width", "max_speed", "max_width", "lnkcap", "lnksta"):
                self.eq(where, f"link.{k}", ln.get(k, "<absent>"), el[k])
            tgt = ln.get("target_speed", "<absent>")
            # Where LnkCtl2 is reserved (v2 endpoints other than function
            # 0) lspci hides it; null or its decoded value are both fine.
            if not (el["target_speed"] is None and tgt is not None
                    and tgt == el.get("target_speed_reserved")):
                self.eq(where, "link.target_speed", tgt, el["target_speed"])
            if el["downgraded"] is not None:
                self.eq(where, "link.downgraded", ln.get("downgraded"), el["downgraded"])
            elif not isinstance(ln.get("downgraded"), bool):
                self.err(where, f"link.downgraded not a bool: {fmt(ln.get('downgraded'))}")

        self.device_caps(where, d, e)

        io, ei = d.get("iommu", "<absent>"), e["iommu"]
        if ei is None or not isinstance(io, dict):
            self.eq(where, "iommu", io, None if ei is None else "<object>")
        else:
            self.eq(where, "iommu.group", io.get("group"), ei["group"])
            # The module reads no domain: the default one is sysfs's own,
            # the attached one is reported by nobody.
            self.eq(where, "iommu.default_domain", io.get("default_domain", "<absent>"),
                    ei["default_domain"])
            self.eq(where, "iommu.domain", io.get("domain", "<absent>"), None)
            self.eq(where, "iommu.instance", io.get("instance"), ei["instance"])
            src = io.get("default_domain_source", "<absent>")
            self.eq(where, "iommu.default_domain_source", src,
                    None if io.get("default_domain") is None else "kernel")
            self.eq(where, "iommu.dma_owner", io.get("dma_owner", "<absent>"),
                    expected_dma_owner(self.snap, ei["group"], self.held, self.kernel))

    def device_caps(self, where, d, e):
        """ATS and Device Control against lspci, BARs against sysfs
        resource (sizes, flags) and lspci (resizable BAR sizes)."""
        self.eq(where, "mem_bytes", d.get("mem_bytes", "<absent>"), e["mem_bytes"])
        for k in ("ats", "pcie_device"):
            got, want = d.get(k, "<absent>"), e[k]
            if want is None or not isinstance(got, dict):
                self.eq(where, k, got, want)
                continue
            for f in want:
                self.eq(where, f"{k}.{f}", got.get(f, "<absent>"), want[f])
        got, want = d.get("bars", "<absent>"), e["bars"]
        if want is None or not isinstance(got, list):
            self.eq(where, "bars", got, want)
            return
        self.eq(where, "bars (indexes)", [b.get("index") for b in got],
                [b["index"] for b in want])
        for g, w in zip(got, want):
            for f in ("size", "type", "prefetchable", "mem64", "assigned"):
                self.eq(where, f"bars[{w['index']}].{f}", g.get(f, "<absent>"), w[f])
            self.eq(where, f"bars[{w['index']}].resizable", g.get("resizable", "<absent>"),
                    w["resizable"])

    # -- VFIO facts, AER, BAR places: config.hex and sysfs, not pcieaudit --

    def vfio_eq(self, where, field, got, want):
        self.vfio_stats[0] += 1
        self.eq(where, field, got, want)

    def vfio_facts(self, tag, snap, rep):
        """Each function's passthrough object, its AER state and totals and
        its BARs' starts against config.hex as decoded here and the guest's
        sysfs dump (sysfs.tsv), never against pcieaudit's own reading. What
        an older guest did not dump (resource_iov, aer, power_control) is
        skipped, and counted as such."""
        if not isinstance(rep, dict) or not isinstance(rep.get("devices"), list):
            return
        for d in rep["devices"]:
            if not isinstance(d, dict) or d.get("bdf") not in snap.sysfs:
                continue  # report() names it
            bdf = d["bdf"]
            s, cfg = snap.sysfs[bdf], snap.config.get(bdf)
            where = f"{tag} {bdf}"
            # Nothing to judge against: unreadable to the report or the dump.
            if d.get("config_readable") is False or config_unusable(cfg):
                self.vfio_stats[1] += 1
                continue
            self.passthrough_facts(where, d, s, cfg)
            self.aer_facts(where, d, s)
            self.bar_starts(where, d, s)

    def passthrough_facts(self, where, d, s, cfg):
        pt = d.get("passthrough", "<absent>")
        if pt is None:
            # Not read: the CLI leaves a runtime-suspended function alone
            # (reading config would wake it). Only runtime PM allows that.
            control = s.get("power_control")
            if control is None:
                self.vfio_stats[2] += 1
            elif control != "auto":
                self.vfio_eq(where, f"passthrough (power/control {control})", pt, "<object>")
            else:
                self.count("passthrough unread (runtime PM)")
            return
        want = expected_passthrough(s, cfg, s.get("resource_iov"))
        if not isinstance(pt, dict):
            self.vfio_eq(where, "passthrough", pt, "<object>")
            return
        for k, w in want.items():
            if k == "sriov":
                continue
            # DevCap2/DevCtl2 absent or null: the same, no such registers.
            absent = None if k in ("devcap2", "devctl2") and w is None else "<absent>"
            self.vfio_eq(where, f"passthrough.{k}", pt.get(k, absent), w)
        got, w = pt.get("sriov", "<absent>"), want["sriov"]
        if w is None or not isinstance(got, dict):
            self.vfio_eq(where, "passthrough.sriov", got, None if w is None else "<object>")
            return
        for k in w:
            self.vfio_eq(where, f"passthrough.sriov.{k}", got.get(k, "<absent>"), w[k])
        if "vf_bars_assigned" not in w:
            self.vfio_stats[2] += 2

    def aer_facts(self, where, d, s):
        want = expected_aer(s, d.get("pcie_type") is not None)
        got = d.get("aer", "<absent>")
        if want is None:
            self.vfio_stats[2] += 1
        elif want["state"] is None:
            self.vfio_eq(where, "aer (conventional PCI)", got, None)
        elif not isinstance(got, dict):
            self.vfio_eq(where, "aer", got, "<object>")
        else:
            self.vfio_eq(where, "aer.state (aer_dev_correctable)", got.get("state", "<absent>"),
                         want["state"])
            if got.get("state") == "known":
                for field, _ in AER_TOTALS:
                    if field in want:
                        self.vfio_eq(where, f"aer.{field} (TOTAL)", got.get(field, "<absent>"),
                                     want[field])

    def bar_starts(self, where, d, s):
        """An assigned BAR starts where the kernel's resource says."""
        bars = d.get("bars")
        if not isinstance(bars, list):
            return  # device_caps() judges that
        lines = resource_lines(s.get("resource"))
        for b in bars:
            if not isinstance(b, dict) or b.get("assigned") is not True:
                continue
            i = b.get("index")
            if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(lines):
                continue
            start, end, fl = lines[i]
            if fl & (IORESOURCE_IO | IORESOURCE_MEM) and end > start and not fl & IORESOURCE_UNSET:
                self.vfio_eq(where, f"bars[{i}].start", b.get("start", "<absent>"), start)

    def acs_directions(self, results, facts):
        """Each ACS run: the ports hold what setpci wrote (lspci), and the
        p2p JSON's directions are what §6.12 says (spec_direction)."""
        base = os.path.join(results, "acsdir")
        asked = "pa_acs_dir=" in facts.get("cmdline", "")
        if not os.path.isdir(base):
            if asked:
                self.err("acs-dir", "pa_acs_dir was given but no run was recorded")
            return
        for name, verdicts in ACS_DIR_RUNS.items():
            where = f"acs-dir {name}"
            d = os.path.join(base, name)
            if not os.path.isdir(d):
                self.err(where, "not run")
                continue
            f = read_kv(os.path.join(d, "facts.txt"))
            lsp = parse_lspci(read_text(os.path.join(d, "lspci.txt")))
            sysfs = parse_sysfs(read_text(os.path.join(d, "sysfs.tsv")))
            who = {"gpu": f["gpu"], "nic": f["nic"]}
            for port, bits in ((f["gpu_port"], f["gpu_bits"]), (f["nic_port"], f["nic_bits"])):
                flags = ((lsp.get(port) or {}).get("acs") or {}).get("ctrl_flags") or {}
                for i, ch in enumerate(reversed(bits)):
                    if ch in "01":
                        self.eq(where, f"{port} ACSCtl {ACS_FLAGS[i]} after setpci (lspci)",
                                flags.get(ACS_FLAGS[i]), ch == "1")
            try:
                out = json.loads(read_text(os.path.join(d, "p2p.json")))
                dirs = out["p2p"][0]["directions"]
            except (OSError, ValueError, KeyError, IndexError, TypeError) as exc:
                self.err(where, f"p2p --json: {exc}")
                continue
            for (r, c), meant in verdicts.items():
                w = f"{where} {r}->{c}"
                spec = spec_direction(sysfs, lsp, who[r], who[c])
                # The test's own claim about the setting, from the spec.
                if spec["peer_to_peer"] != meant:
                    self.err(w, f"by the spec this run gives peer_to_peer={spec['peer_to_peer']}, "
                             f"not {meant}: the setup is not what the test needs ({spec})")
                got = next((x for x in dirs if x.get("requester") == who[r]
                            and x.get("completer") == who[c]), None)
                if got is None:
                    self.err(w, "no such direction in the JSON")
                    continue
                self.eq(w, "request_ports", got.get("request_ports"), spec["request_ports"])
                self.eq(w, "completion_ports", got.get("completion_ports"),
                        spec["completion_ports"])
                for k in ("requests", "translated_requests", "completions"):
                    t = got.get(k) or {}
                    self.eq(w, f"{k}.redirected", t.get("redirected"), spec[k] is not None)
                    self.eq(w, f"{k}.port", t.get("port"), spec[k])
                self.eq(w, "requester_ats", got.get("requester_ats"), spec["requester_ats"])
                self.eq(w, "peer_to_peer", got.get("peer_to_peer"), meant)

    def info(self, where, info, snap, devices):
        """The info object's facts that independent data can decide."""
        if not isinstance(info, dict):
            return
        groups = expected_groups(snap)
        self.eq(where, "info.device_count", info.get("device_count"), len(snap.sysfs))
        self.eq(where, "info.group_count", info.get("group_count"), len(groups))
        if self.kernel:
            self.eq(where, "info.kernel_release", info.get("kernel_release"), self.kernel)
            # The module models the P2PDMA rules of the kernel it was
            # built for, which is the booted one.
            self.eq(where, "info.p2p_rules", p2p_rules_kernel(info.get("p2p_rules")),
                    kernel_major_minor(self.kernel))
        feats = info.get("features")
        if isinstance(feats, dict):
            self.eq(where, "info.features.iommu_present", feats.get("iommu_present"), bool(groups))
            # What the kernel was built with, from its own .config.
            for feat, sym in BUILD_FEATURES.items():
                if self.kconfig is not None:
                    self.eq(where, f"info.features.{feat}", feats.get(feat),
                            self.kconfig.get(sym) == "y")
        else:
            self.err(where, f"info.features not an object: {fmt(feats)}")
        types = {g["type"] for g in groups.values()}
        if not groups:
            mode, strict = None, None
        else:
            # The kernel logs its global default at boot.
            mode = self.default_mode
            strict = expected_strict(types, self.dma_fq)
        if mode is not None or not groups:
            self.eq(where, "info.iommu_default_mode", info.get("iommu_default_mode", "<absent>"), mode)
        self.eq(where, "info.iommu_strict", info.get("iommu_strict", "<absent>"), strict)

    def groups(self, tag, groups, snap):
        where = f"{tag} groups"
        if not isinstance(groups, list):
            self.err(where, "groups missing or not a list")
            return
        got = {}
        for g in groups:
            if not isinstance(g, dict) or not isinstance(g.get("id"), int) or \
                    not isinstance(g.get("devices"), list):
                self.err(where, f"malformed group {fmt(g)}")
                continue
            if g["id"] in got:
                self.err(where, f"group {g['id']} listed twice")
            got[g["id"]] = g
        want = expected_groups(snap)
        self.count("group set")
        for gid in sorted(set(want) - set(got)):
            self.err(where, f"group {gid} ({sorted(want[gid]['pci'])}) missing from the report")
        for gid in sorted(set(got) - set(want)):
            self.err(where, f"group {gid} in the report, not in /sys/kernel/iommu_groups")
        for gid in sorted(set(want) & set(got)):
            g = got[gid]
            if sorted(g["devices"]) != sorted(want[gid]["pci"]) or \
                    len(g["devices"]) != len(set(g["devices"])):
                self.err(where, f"group {gid}: report={sorted(g['devices'])} "
                         f"sysfs={sorted(want[gid]['pci'])}")
            self.eq(f"{where} {gid}", "other_members", g.get("other_members"), want[gid]["other"])

    # -- run-level checks -----------------------------------------------------

    def acs_change(self, results, rep1, rep2, snap2):
        ch = read_kv(os.path.join(results, "acs_change.txt"))
        where = "acs-change"
        if not ch:
            return
        bdf, old, new, rb = ch["bdf"], hexint(ch["old"]), hexint(ch["new"]), hexint(ch["readback"])
        if rb != new or rb == old:
            self.err(where, f"setpci did not stick on {bdf}: old={old:#06x} new={new:#06x} readback={rb:#06x}")
        lp = snap2.lspci.get(bdf, {}).get("acs")
        if not lp or any(lp["ctrl_flags"].get(f) != bool(rb >> i & 1) for i, f in enumerate(ACS_FLAGS)):
            self.err(where, f"lspci after setpci disagrees with readback {rb:#06x}")
        if rep1 is None or rep2 is None:
            return

        def ctrl(rep):
            for d in rep.get("devices") or []:
                if isinstance(d, dict) and d.get("bdf") == bdf and isinstance(d.get("acs"), dict):
                    return d["acs"].get("ctrl")
            return None
        c1, c2 = ctrl(rep1), ctrl(rep2)
        self.eq(where + f" {bdf}", "acs.ctrl after setpci", c2, rb)
        self.eq(where + f" {bdf}", "acs.ctrl before setpci", c1, old)
        if c1 == c2:
            self.err(where, f"{bdf}: acs.ctrl unchanged across setpci ({fmt(c1)})")

    def vfio_intremap(self, results, facts):
        """check's vfio.interrupt-remapping against vfio's own answer: a
        group vfio_iommu_type1 attached (pa_vfio's snapshot under vfio-hold,
        vfio-plan's hold, pa_vfio_attach's rc 0) means the rule must pass
        (warn with allow_unsafe_interrupts=Y); VFIO_SET_IOMMU refused with
        EPERM (vfio-hold 107) and "No interrupt remapping support" in the
        kernel log means it must fail."""
        try:
            with open(os.path.join(results, "check-vfio.json")) as f:
                rules = json.load(f).get("rules", [])
        except (OSError, ValueError):
            return
        got = [r.get("status") for r in rules if r.get("id") == "vfio.interrupt-remapping"]
        if not got:
            return
        try:
            with open(os.path.join(results, "dmesg.txt"), errors="replace") as f:
                refused_log = "No interrupt remapping support" in f.read()
        except OSError:
            refused_log = False
        try:
            with open(os.path.join(results, "vfio", "report.rc")) as f:
                held = f.read().strip() == "0"
        except OSError:
            held = False
        rc = facts.get("vfio_attach_rc")
        if "pa_vfio_attach=" in facts.get("cmdline", "") and rc is None:
            self.err("vfio-attach", "pa_vfio_attach was given but vfio-hold did not run")
        if rc is not None and facts.get("vfio_attach_driver") != "vfio-pci":
            self.err("vfio-attach", f"the function is bound to {facts.get('vfio_attach_driver')}, not vfio-pci")
        if rc not in (None, "0", "107"):
            self.err("vfio-attach", f"vfio-hold exited {rc} (want 0 attached or 107 refused)")
        attached = rc == "0" or held or facts.get("vfio_plan_hold_rc") == "0"
        refused = rc == "107"
        if refused and not refused_log:
            self.err("vfio-attach", "VFIO_SET_IOMMU failed with EPERM but the kernel log lacks "
                     "\"No interrupt remapping support\"")
        if refused_log and not refused:
            self.err("vfio-attach", "the kernel log says \"No interrupt remapping support\" "
                     f"but vfio-hold exited {rc}")
        if attached and refused:
            self.err("vfio-attach", "vfio attached one group and refused another")
            return
        want = None
        if refused:
            want = "fail"
        elif attached:
            want = "warn" if facts.get("vfio_attach_unsafe") == "Y" else "pass"
        if want is None:
            return
        self.eq("check vfio " + ("refused" if refused else "attached"),
                "vfio.interrupt-remapping", got[0], want)

    def vfio_host(self, results, snap, facts):
        """check's vfio host rules against the kernel's own facts
        (vfio_host_oracle.py)."""
        try:
            with open(os.path.join(results, "check-vfio.json")) as f:
                out = json.load(f)
        except (OSError, ValueError):
            return
        self.count("vfio host rules")
        for rule, msg in vfio_host_oracle.judge(out, snap.sysfs, snap.config,
                                                snap.groups, facts):
            self.err(f"check vfio {rule}", msg)

    def vfio_plan(self, results, facts):
        """vfio-plan's bind step, run as printed in the guest, against vfio's
        own verdict: the group is not viable with only the named function
        bound (vfio-hold 104), viable and attached after every line (0); the
        plan names every endpoint of the kernel's group."""
        d = os.path.join(results, "vfio-plan")

        def read(name):
            try:
                with open(os.path.join(d, name)) as f:
                    return f.read()
            except OSError:
                return ""
        rc = facts.get("vfio_plan_rc")
        if rc not in ("0", "1", "8"):
            self.err("vfio-plan", f"exit {rc}: {read('plan.err').strip()}")
            return
        if facts.get("vfio_plan_json_rc") != rc:
            self.err("vfio-plan", f"--json exit {facts.get('vfio_plan_json_rc')}, text {rc}")
        try:
            plan = json.loads(read("plan.json"))
        except ValueError as e:
            self.err("vfio-plan", f"--json is no JSON: {e}")
            plan = {}
        text = read("plan.txt")
        steps = read("steps.sh")
        endpoints = []
        for line in read("members.txt").splitlines():
            m, _, cls = line.partition(" ")
            # Bridges stay with pcieport: vfio allows that driver in a group.
            if cls.strip().startswith("0x0604"):
                continue
            endpoints.append(m)
            if f"/sys/bus/pci/devices/{m}/driver_override" not in steps:
                self.err("vfio-plan", f"{m} is in group {facts.get('vfio_plan_group')} "
                         "(sysfs) but the plan's bind step leaves it out")
        if len(endpoints) < 2:
            self.err("vfio-plan", f"group {facts.get('vfio_plan_group')} has endpoints "
                     f"{endpoints}: the test needs one with other members")
        if "must go too" not in text:
            self.err("vfio-plan", "the plan does not say the other members must go too")
        if facts.get("vfio_plan_own_steps_rc") != "0" or facts.get("vfio_plan_steps_rc") != "0":
            self.err("vfio-plan", "a printed step failed when run: "
                     + (read("steps-own.out") + read("steps.out")).strip()[-300:])
        if facts.get("vfio_plan_own_hold_rc") != "104":
            self.err("vfio-plan", "with only the named function bound, vfio-hold exited "
                     f"{facts.get('vfio_plan_own_hold_rc')} (want 104, not viable): "
                     + read("hold-own.out").strip())
        if facts.get("vfio_plan_hold_rc") != "0":
            self.err("vfio-plan", "after the plan's steps the group is not viable and "
                     f"attached: vfio-hold exited {facts.get('vfio_plan_hold_rc')}: "
                     + read("hold.out").strip() + "; drivers: " + read("drivers.txt").strip())
        if not plan:
            self.err("vfio-plan", "--json gave nothing")

    def errpaths(self, results):
        path = os.path.join(results, "errpaths.txt")
        if not os.path.exists(path):
            self.err("error-paths", "errpaths.txt missing")
            return
        seen = set()
        for line in read_text(path).splitlines():
            parts = line.split()
            if len(parts) != 3:
                continue
            name, want, got = parts
            seen.add(name)
            if not got.lstrip("-").isdigit():
                self.err("error-paths", f"{name}: no exit status ({got!r})")
                continue
            self.eq("error-paths", f"{name} exit status", int(got), int(want))
        for name in ("module_not_loaded", "nonexistent_bdf", "unprivileged",
                     "no_sys_admin", "no_sys_admin_dump", "no_sys_admin_dump_devs"):
            if name not in seen:
                self.err("error-paths", f"{name} was not run")

    # -- power states and resets (guest-init.sh) -------------------------------

    def power(self, results, facts, snaps, reps):
        """An endpoint put into D3hot with setpci must be reported in D3hot,
        as lspci's PM Status says; while it is reset in a loop, no report
        may show its registers as all ones (or unreadable)."""
        where = "power"
        bdf = facts.get("d3hot_bdf")
        if bdf is None:
            self.err(where, "the power-state step was not run")
            return
        if bdf == "none":
            if pm_candidates(snaps["snap1"], facts.get("vfio_bdf")):
                self.err(where, "no endpoint was put into D3hot, though one has a PM capability")
            return
        self.count("power state")
        snap, rep = snaps.get("d3hot"), reps.get("d3hot")
        if snap is None or rep is None:
            self.err(where, f"{bdf}: no report while it was in D3hot")
        else:
            lp = snap.lspci.get(bdf, {})
            if lp.get("power") != "D3hot":
                self.err(where, f"{bdf}: lspci says {lp.get('power')} after setpci "
                         f"(PMCSR {facts.get('d3hot_pmcsr')}), not D3: the test did nothing")
            d = report_device(rep, bdf)
            self.eq(f"{where} {bdf}", "power_state in D3hot",
                    d.get("power_state", "<absent>") if d else "<no device>", "D3hot")
            block = text_block(os.path.join(results, "d3hot", "report.txt"), bdf)
            if "Power: D3hot" not in block:
                self.err(where, f"{bdf}: the text report does not say 'Power: D3hot': {block!r}")
        drv = facts.get("d3hot_driver")
        if drv and drv != "none" and facts.get("d3hot_rebound") != drv:
            self.err(where, f"{bdf}: bound to {facts.get('d3hot_rebound')} after the "
                     f"test, not to {drv} again")
        after = facts.get("d3hot_pmcsr_after", "")
        if not re.match(r"^[0-9a-f]{4}$", after) or int(after, 16) & 3:
            self.err(where, f"{bdf}: not back in D0 after the test (PMCSR {after!r})")

        rb = facts.get("reset_bdf")
        if rb != bdf:
            self.err(where, f"the reset loop ran on {rb}, not {bdf}")
            return
        n, ok = int(facts.get("reset_reports") or 0), int(facts.get("reset_ok") or 0)
        if ok == 0:
            self.err(where, f"{rb}: no reset succeeded (reset_method {facts.get('reset_method')})")
        if n < 2:
            self.err(where, f"{rb}: only {n} reports ran during the resets")
        want = expected_device(snaps["snap1"], rb)
        for i in range(1, n + 1):
            w = f"{where} reset report {i} {rb}"
            self.count("report during reset")
            rcp = os.path.join(results, "reset", f"report-{i}.rc")
            rc = read_text(rcp).strip() if os.path.exists(rcp) else None
            if rc != "0":
                self.err(w, f"report --json exited {rc}")
                continue
            try:
                d = report_device(json.loads(read_text(
                    os.path.join(results, "reset", f"report-{i}.json"))), rb)
            except (OSError, ValueError) as exc:
                self.err(w, f"does not parse: {exc}")
                continue
            if d is None:
                self.err(w, "the function is missing")
                continue
            self.eq(w, "config_readable", d.get("config_readable", "<absent>"), True)
            self.eq(w, "power_state", d.get("power_state", "<absent>"), want["power_state"])
            for k in ("acs", "link"):
                if (d.get(k) is None) != (want[k] is None):
                    self.err(w, f"{k}: {fmt(d.get(k))}, want {'null' if want[k] is None else 'an object'}")
            for nest, reg, ones in (("acs", "cap", 0xFFFF), ("acs", "ctrl", 0xFFFF),
                                    ("link", "lnkcap", 0xFFFFFFFF), ("link", "lnksta", 0xFFFF)):
                if isinstance(d.get(nest), dict) and d[nest].get(reg) == ones:
                    self.err(w, f"{nest}.{reg} reads all ones ({ones:#x}) during a reset")

    # -- dumps across parts (dump-probe.c) -----------------------------------

    def dumps(self, results, facts):
        """Dumps resume by key: ordered, never repeated, never skipping a
        function that stayed; a removal between parts is flagged."""
        before_path = os.path.join(results, "dump-before.sysfs")
        if not os.path.exists(before_path):
            self.err("dump", "dump-probe was not run")
            return
        before = sysfs_bdfs(read_text(before_path))
        plain = parse_probe(read_text(os.path.join(results, "dump-plain.txt")))
        remove = re.search(r"pa_remove=(\S+)", facts.get("cmdline", ""))
        self.dump_run("dump", plain, before, before, None)
        if remove:
            # The removal test needs a part built after it: at least three.
            self.count("dump parts")
            if plain["parts"] < 3:
                self.err("dump", f"only {plain['parts']} parts; the removal test needs 3")
            after = sysfs_bdfs(read_text(os.path.join(results, "dump-after.sysfs")))
            run = parse_probe(read_text(os.path.join(results, "dump-remove.txt")))
            self.dump_run("dump --remove", run, before, after, set(remove.group(1).split(",")))

    def dump_run(self, where, run, before, after, removed):
        self.count("dump")
        if run["rc"] != 0 or not run["done"]:
            self.err(where, f"dump did not complete (rc {run['rc']})")
        seen = [bdf for bdf, _, _ in run["devs"]]
        if seen != sorted(set(seen)):
            self.err(where, "functions out of order or repeated: " + " ".join(seen))
        gone = before - after
        for bdf in sorted(after - set(seen)):
            self.err(where, f"{bdf} stayed in sysfs but the dump skipped it")
        for bdf in sorted(set(seen) - before):
            self.err(where, f"{bdf} was never in sysfs")
        if removed is None:
            if any(intr for _, _, intr in run["devs"]):
                self.err(where, "NLM_F_DUMP_INTR set though nothing changed")
            return
        for bdf in sorted(removed - gone):
            self.err(where, f"{bdf} was not removed from sysfs")
        # Parts 1 and 2 were built before the removal; later ones after it.
        for bdf, part, _ in run["devs"]:
            if bdf in gone and part > 2:
                self.err(where, f"{bdf} reported in part {part}, after its removal")
        if not any(intr for _, part, intr in run["devs"] if part > 2):
            self.err(where, "no message after the removal carries NLM_F_DUMP_INTR")

    # -- P2P DMA pairs (p2p-probe.c) -------------------------------------------

    def p2p_expectations(self, info, expects):
        """p2pdma=0|1, cpu=zen|not_zen, p2p=KIND,...: the run had them."""
        for key, val in expects.items():
            if key not in ("p2pdma", "cpu", "p2p"):
                continue
            w = f"expect {key}={val}"
            self.count("expectation")
            if info is None:
                self.err(w, "no P2P data")
            elif key == "p2p":
                missing = set(val.split(",")) - info["kinds"]
                if missing:
                    self.err(w, f"no pair of kind {', '.join(sorted(missing))}; "
                             f"seen: {', '.join(sorted(info['kinds']))}")
            elif info[key] != val:
                self.err(w, f"got {info[key]}")

    def p2p(self, results, facts):
        """Every ordered pair of functions without a subordinate bus: on a
        P2PDMA kernel against the kernel's answer and its verbose log, else
        against the model; paths against sysfs, redirects against config
        space. Returns the kinds of pairs seen (for --expect p2p=...)."""
        base = os.path.join(results, "p2p")
        if not os.path.exists(os.path.join(base, "dump-verbose.txt")):
            self.err("p2p", "p2p-probe was not run")
            return None
        sysfs = parse_sysfs(read_text(os.path.join(base, "sysfs.tsv")))
        config = parse_config(read_text(os.path.join(base, "config.hex")))
        zen = facts.get("cpu_vendor") == "AuthenticAMD" and \
            int(facts.get("cpu_family") or 0) >= 0x17
        p2pdma = facts.get("p2pdma_kallsyms", "0") != "0"
        topo = P2PTopology(sysfs, config, zen)
        for e in topo.errors:
            self.err("p2p oracle-sources", e)
        if set(config) != set(sysfs):
            self.err("p2p oracle-sources", "config dump BDFs differ from sysfs")
            return None
        klogs = read_klogs(results)
        vlog = parse_p2p_klog(klogs.get("p2p-verbose", ""))
        qlog = parse_p2p_klog(klogs.get("p2p-quiet", ""))

        # The truth for each pair: the kernel's, where it has P2PDMA (the
        # model must agree with it, or the oracle is not to be trusted).
        pairs = [(p, c) for p in topo.ends for c in topo.ends if p != c]
        truth = {}
        for p, c in pairs:
            m = topo.model(p, c)
            truth[(p, c)] = topo.from_kernel(m, vlog, p, c) if p2pdma else m
            for k in ("path", "redirect", "map", "host", "dist", "warns"):
                if m[k] != truth[(p, c)][k]:
                    self.err("p2p oracle-sources", f"{p} -> {c}: {k}: model {m[k]}, "
                             f"kernel log {truth[(p, c)][k]}")
        self.p2p_klog("p2p verbose kernel log", vlog, set(pairs), p2pdma)

        dump = parse_p2p_probe(read_text(os.path.join(base, "dump-verbose.txt")))
        seen = self.p2p_run("p2p dump", dump, pairs, truth, p2pdma, quiet=False)
        for (p, c), r in seen.items():
            if p2pdma and r.get("kdist") not in (None, "-"):
                # The kernel's own answer against its own explanation.
                want = "-1" if (p, c) in vlog["refused"] else truth[(p, c)]["len"]
                if r["kdist"] != want:
                    self.err("p2p oracle-sources", f"{p} -> {c}: kernel distance "
                             f"{r['kdist']} but its log says {want}")
        self.p2p_quiet(base, facts, klogs, qlog, pairs, truth, p2pdma)
        self.p2p_do_each(base, pairs, truth, p2pdma)
        # The module's address-selection path (what the CLI asks for).
        select = parse_p2p_probe(read_text(os.path.join(base, "dump-select.txt")))
        self.p2p_run("p2p dump by address", select, pairs, truth, p2pdma, quiet=False)

        kinds = p2p_kinds(topo, truth, klogs.get("before-p2p", ""))
        quiet = parse_p2p_probe(read_text(os.path.join(base, "dump-quiet.txt")))
        if any(r.get("kstatus") == "withheld_log" for r in quiet["pairs"]):
            kinds.add("withheld")
        self.p2p_stats = (len(pairs), sum(r.get("kstatus") == "answered" for r in seen.values()),
                          sorted(kinds))
        return {"p2pdma": "1" if p2pdma else "0", "cpu": "zen" if zen else "not_zen",
                "kinds": kinds}

    def p2p_pair(self, where, r, want, p2pdma, statuses):
        """One pair line against the truth."""
        for k in P2P_FIELDS:
            self.eq(where, k, r.get(k, "<absent>"), want[k])
        st = r.get("kstatus", "<absent>")
        if p2pdma:
            if st not in statuses:
                self.err(where, f"kernel status {st}, want {' or '.join(statuses)}")
        else:
            # No verdict at all from a stub that answers -1 to everything.
            self.eq(where, "kstatus", st, "not_built")
        self.count("p2p kstatus")
        self.eq(where, "kdist", r.get("kdist", "<absent>"),
                want["dist"] if st == "answered" else "-")
        # The module states whether its analysis agrees with the kernel's
        # answer, exactly when there is one; on these topologies it must.
        self.eq(where, "agree", r.get("agree", "<absent>"),
                "agree" if st == "answered" else "-")
        self.eq(where, "intr", r.get("intr", "<absent>"), "0")

    def p2p_run(self, where, run, pairs, truth, p2pdma, quiet):
        """A dump: each ordered pair exactly once, in key order, right."""
        done = run["done"] or {}
        if done.get("rc") != "0":
            self.err(where, f"p2p-probe did not complete (rc {done.get('rc')}): {run['bad'][:3]}")
        seen = {}
        order = []
        for r in run["pairs"]:
            key = (r.get("provider"), r.get("client"))
            if key in seen:
                self.err(where, f"{key[0]} -> {key[1]} listed twice")
            seen[key] = r
            order.append(key)
        if order != sorted(order):
            self.err(where, "pairs not in (provider, client) order")
        for p, c in sorted(set(pairs) - set(seen)):
            self.err(where, f"{p} -> {c}: missing")
        for p, c in sorted(set(seen) - set(pairs)):
            self.err(where, f"{p} -> {c}: not a pair of distinct functions without a subordinate bus")
        self.count("p2p pair set")
        for key in pairs:
            if key in seen:
                t = truth[key]
                statuses = ("answered", "withheld_log") if quiet and t["warns"] else ("answered",)
                self.p2p_pair(f"{where} {key[0]} -> {key[1]}", seen[key], t, p2pdma, statuses)
        return seen

    def p2p_klog(self, where, log, pairs, p2pdma):
        """Each pair was put to the kernel once, and each line is one's."""
        for line in log["stray"]:
            self.err(where, f"line out of sequence: {line.strip()}")
        for key, lists in log["acs"].items():
            if len(lists) > 1:
                self.err(where, f"{key[0]} -> {key[1]}: the kernel was asked {len(lists)} times")
        for key, n in log["refused"].items():
            if n > 1 and key not in log["acs"]:
                self.err(where, f"{key[0]} -> {key[1]}: the kernel was asked {n} times")
        for key in sorted((set(log["acs"]) | set(log["refused"])) - pairs):
            self.err(where, f"{key[0]} -> {key[1]}: explained, but not a pair of the dump")
        if sum(log["warned"].values()) != log["whitelist"]:
            self.err(where, "a whitelist warning outside any pair's explanation")
        if not p2pdma and (log["acs"] or log["refused"] or log["whitelist"]):
            self.err(where, "P2PDMA messages from a kernel without P2PDMA")
        self.count("p2p kernel log")

    def p2p_quiet(self, base, facts, klogs, qlog, pairs, truth, p2pdma):
        """Without verbose: the same answers; the kernel's whitelist warnings
        within PCIEAUDIT_P2P_KERNEL_LOG_BURST a minute over the whole run
        (the CLI's reports ask too); pairs withheld only once the minute's
        allowance is used up, and then every later one."""
        where = "p2p quiet"
        dump = parse_p2p_probe(read_text(os.path.join(base, "dump-quiet.txt")))
        seen = self.p2p_run("p2p quiet dump", dump, pairs, truth, p2pdma, quiet=True)
        asked = []
        # The distance over all clients of a do stops at the first refused
        # client, and warns again where that one warns.
        many_warns = 0
        do_list = re.search(r"\bpa_p2p_do=(\S+)", facts.get("cmdline", ""))
        if do_list:
            devs = do_list.group(1).split(",")
            run = parse_p2p_probe(read_text(os.path.join(base, "do-quiet.txt")))
            self.p2p_do(where + " do", run, [(devs[0], devs[1:])], truth, p2pdma, quiet=True)
            asked += [((r.get("provider"), r.get("client")), r.get("kstatus")) for r in run["pairs"]]
            refused = [c for c in devs[1:] if (devs[0], c) in truth and
                       truth[(devs[0], c)]["map"] == "not_supported"]
            if run["many"] and run["many"][0].get("kdist") not in (None, "-") and \
                    len(devs) > 2 and refused and truth[(devs[0], refused[0])]["warns"]:
                many_warns = 1
        asked += [(key, seen[key].get("kstatus")) for key in sorted(seen)]
        warned = [(key, st) for key, st in asked if key in truth and truth[key]["warns"]]
        answered = sum(st == "answered" for _, st in warned)
        withheld = [key for key, st in warned if st == "withheld_log"]
        try:
            t0, t1 = float(facts["p2p_quiet_start"]), float(facts["p2p_quiet_end"])
        except (KeyError, ValueError):
            self.err(where, "the quiet steps' times were not recorded")
            return
        self.count("p2p log bound")
        if qlog["acs"] or qlog["refused"]:
            self.err(where, "the kernel explained pairs although verbose was off")
        # Each call that warns does so once: no call unaccounted for.
        if answered + many_warns != qlog["whitelist"]:
            self.err(where, f"{answered} answered pairs that warn"
                     f"{' and a distance over all clients' if many_warns else ''}, but the "
                     f"kernel warned {qlog['whitelist']} times")
        # Every warning outside the verbose steps counts; the kernel's
        # minute starts at the first call after the previous one ran out.
        times = []
        for name, text in klogs.items():
            if name not in ("p2p-verbose", "p2p-do", "p2p-select"):
                times += p2p_warning_times(text, self, f"kernel log {name}")
        times.sort()
        windows, i = [], 0
        while i < len(times):
            n = sum(1 for t in times[i:] if t < times[i] + 60)
            windows.append((times[i], n))
            if n > P2P_LOG_BURST:
                self.err(where, f"the kernel warned {n} times in the minute from "
                         f"{times[i]:.1f} s; the bound is {P2P_LOG_BURST}")
            i += n
        # The minutes the quiet steps ran in (1 s slack between clocks).
        during = [(w, n) for w, n in windows if w <= t1 + 1 and w + 60 >= t0 - 1]
        if withheld and not any(n >= P2P_LOG_BURST - 1 for _, n in during):
            self.err(where, f"{withheld[0][0]} -> {withheld[0][1]} withheld, but the "
                     f"kernel warned only {sum(n for _, n in during)} times that minute")
        if withheld and len(during) <= 1:
            first = next(i for i, (_, st) in enumerate(warned) if st == "withheld_log")
            if any(st == "answered" for _, st in warned[first:]):
                self.err(where, "a pair answered after one was withheld within the minute")
        if p2pdma and len(warned) > P2P_LOG_BURST * (len(during) + 1) and not withheld:
            self.err(where, f"{len(warned)} pairs that warn, none withheld")

    def p2p_do(self, where, run, requests, truth, p2pdma, quiet):
        """Do requests: per-pair answers as the dump's, and the kernel's
        distance over all clients their sum, or -1 when one refuses."""
        done = run["done"] or {}
        if done.get("rc") != "0":
            self.err(where, f"p2p-probe did not complete (rc {done.get('rc')}): {run['bad'][:3]}")
        if len(run["many"]) != len(requests):
            self.err(where, f"{len(run['many'])} replies to {len(requests)} requests")
        for m, (provider, clients) in zip(run["many"], requests):
            w = f"{where} {provider}"
            got = [r.get("client") for r in m["pairs"]]
            if m.get("provider") != provider or got != clients or \
                    m.get("clients", "").split(",") != clients:
                self.err(w, f"reply for {m.get('provider')} with clients {got}, asked {clients}")
                continue
            if any((provider, c) not in truth for c in clients):
                self.err(w, f"asked about functions that are no pair: {clients}")
                continue
            for r in m["pairs"]:
                t = truth[(provider, r["client"])]
                statuses = ("answered", "withheld_log") if quiet and t["warns"] else ("answered",)
                self.p2p_pair(f"{w} -> {r['client']}", r, t, p2pdma, statuses)
            # Present exactly when every pair was answered: where the
            # allowance does not cover the call, a pair is withheld too.
            kd = [r.get("kdist") for r in m["pairs"]]
            want = "-"
            if p2pdma and all(r.get("kstatus") == "answered" for r in m["pairs"]):
                want = "-1" if "-1" in kd else \
                    str(sum(int(d) for d in kd if re.match(r"^\d+$", d or "")))
            self.eq(w, "kernel distance over all clients", m.get("kdist"), want)
            self.count("p2p do")

    def p2p_do_each(self, base, pairs, truth, p2pdma):
        ends = sorted({p for p, _ in pairs})
        requests = []
        for p in ends:
            others = [c for c in ends if c != p]
            for i in range(0, len(others), 64):
                requests.append((p, others[i:i + 64]))
        run = parse_p2p_probe(read_text(os.path.join(base, "do-verbose.txt")))
        self.p2p_do("p2p do", run, requests, truth, p2pdma, quiet=False)

    def dmesg(self, results):
        path = os.path.join(results, "dmesg.txt")
        if not os.path.exists(path):
            self.err("dmesg", "dmesg.txt missing")
            return
        for line in read_text(path).splitlines():
            for bad in DMESG_BAD:
                if bad in line:
                    self.err("dmesg", line.strip())
                    break
        self.count("dmesg")

    # Exit status of `check` per verdict, as the README's exit codes document it.
    CHECK_RC = {"pass": 0, "fail": 1, "warn": 8}

    def check_verdicts(self, results, expects):
        """check.PROFILE=VERDICT[:RULE]: the topology is built to give that
        verdict, and to fail (or warn) for that rule's reason."""
        for key, val in expects.items():
            prof = key[len("check."):]
            want, _, rule = val.partition(":")
            w = f"expect {key}={val}"
            self.count("check verdict")
            try:
                out = json.loads(read_text(os.path.join(results, f"check-{prof}.json")))
                rc = int(read_text(os.path.join(results, f"check-{prof}.rc")).strip())
            except (OSError, ValueError) as exc:
                self.err(w, f"no check output: {exc}")
                continue
            got = out.get("profiles", {}).get(prof)
            if got != want:
                self.err(w, f"verdict {got}")
            if rc != self.CHECK_RC.get(want):
                self.err(w, f"check exited {rc}")
            if rule:
                status = {r.get("id"): r.get("status") for r in out.get("rules", [])}.get(rule)
                if status != want:
                    self.err(w, f"rule {rule} is {status}, not {want}")

    def expectations(self, snap, expects):
        """The topology contains what it claims to (independent data only)."""
        lsp, sysfs = snap.lspci, snap.sysfs
        types = [d["express"]["type"] for d in lsp.values() if d["express"]]
        inst = {s.get("iommu") for s in sysfs.values() if "iommu_group" in s}
        for key, val in expects.items():
            w = f"expect {key}={val}"
            if key == "iommu":
                grouped = [b for b, s in sysfs.items() if "iommu_group" in s]
                if val == "none":
                    ok = not grouped and not snap.groups
                else:
                    prefix = {"intel": "dmar", "amd": "ivhd"}[val]
                    ok = bool(grouped) and all(i and i.startswith(prefix) for i in inst)
                if not ok:
                    self.err(w, f"IOMMU instances {sorted(map(str, inst))}, {len(snap.groups)} groups")
            elif key == "default_domain":
                # "lazy": the booted kernel's name for a lazy DMA domain.
                if val == "lazy":
                    val = "DMA-FQ" if self.dma_fq else "DMA"
                got = {g["type"] for g in expected_groups(snap).values()}
                if got != {val}:
                    self.err(w, f"group types {sorted(map(str, got))}")
            elif key in ("switch", "pcie_to_pci_bridge", "rc_endpoint"):
                need = {"switch": "upstream_port",
                        "pcie_to_pci_bridge": PCIE_TYPE_BY_CODE[7]}.get(key, key)
                if need not in types:
                    self.err(w, f"no {need} in lspci")
            elif key == "multifunction":
                # An endpoint (not a bridge) whose function 0 sets the
                # multifunction bit and which has a sibling function.
                if not any(b.endswith(".0") and hexint(s["hdr_type"]) & 0x80
                           and hexint(s["class"]) >> 8 != 0x0604
                           and any(o != b and o[:-1] == b[:-1] for o in sysfs)
                           and lsp.get(b, {}).get("express", {}) and
                           lsp[b]["express"]["type"] == "endpoint"
                           for b, s in sysfs.items()):
                    self.err(w, "no multifunction endpoint with a sibling function")
            elif key == "conventional":
                if not any(lsp[b]["express"] is None and sysfs[b]["parent"] in sysfs
                           for b in lsp if b in sysfs):
                    self.err(w, "no conventional PCI function behind a bridge")
            elif key == "acs_off_root_port":
                if not any(d["express"] and d["express"]["type"] == "root_port" and not d["acs"]
                           for d in lsp.values()):
                    self.err(w, "every root port has ACS")
            elif key == "sriov":
                if not any("physfn" in s for s in sysfs.values()):
                    self.err(w, "no SR-IOV virtual function")
            elif key == "numa":
                # Functions on at least VAL known NUMA nodes (pxb-pcie numa_node).
                nodes = {s.get("numa_node") for s in sysfs.values()} - {"-1", None}
                if len(nodes) < int(val):
                    self.err(w, f"NUMA nodes seen: {sorted(nodes)}")
            elif key == "functions":
                if len(sysfs) < int(val):
                    self.err(w, f"only {len(sysfs)} functions")
            elif key == "downgraded":
                if not any(d["lnkcap"] and trained_below_capability(d) for d in lsp.values()):
                    self.err(w, "no downgraded link")
            elif key in ("p2pdma", "cpu", "p2p"):
                continue  # p2p_expectations(), from the P2P step's data
            else:
                self.err(w, "unknown expectation")
            self.count("expectation")


# ---------------------------------------------------------------------------
# Direction-aware ACS, by the PCIe Base Specification 6.0, §6.12
# ---------------------------------------------------------------------------
#
# Written here from the specification, not from pcieaudit's code:
#  - §6.12.1.1 (root ports) and §6.12.1.2 (switch downstream ports): ACS P2P
#    Request Redirect redirects peer-to-peer requests received at the port
#    upstream; ACS P2P Egress Control blocks (or with Request Redirect,
#    redirects) those for the ports its vector names; ACS P2P Completion
#    Redirect redirects peer-to-peer read completions received at the port.
#    A TLP is received at the ports it enters on its way up from its
#    source: requests on the requester's side, completions on the
#    completer's.
#  - §6.12.3 (ACS peer-to-peer control interactions): with ACS Direct
#    Translated P2P, requests whose Address Type is Translated are routed
#    directly despite Request Redirect and Egress Control. Only a function
#    with ATS enabled (its ATS Control Enable bit, §10.5.1.3) sends them.
# A direction goes peer to peer when its untranslated requests do, or its
# translated ones and the requester has ATS on.

ACS_PORT_TYPES = {"root_port", "downstream_port"}


def ports_up(sysfs, lsp, bdf):
    """The PCI ancestors of bdf, nearest first, from the sysfs device path."""
    parts = [p for p in sysfs[bdf]["realpath"].split("/") if BDF_RE.match(p)]
    return list(reversed(parts[:-1]))


def spec_direction(sysfs, lsp, req, cpl):
    """What §6.12 says happens to req's TLPs towards cpl."""
    up_r, up_c = ports_up(sysfs, lsp, req), ports_up(sysfs, lsp, cpl)
    common = next((b for b in up_r if b in up_c), None)

    def side(up):
        cut = up.index(common) if common in up else len(up)
        return [b for b in up[:cut]
                if (lsp.get(b, {}).get("express") or {}).get("type") in ACS_PORT_TYPES]

    def ctl(b):
        return ((lsp.get(b) or {}).get("acs") or {}).get("ctrl_flags") or {}

    def first(ports, pred):
        return next((b for b in ports if pred(ctl(b))), None)

    rp, cp = side(up_r), side(up_c)
    redir = first(rp, lambda f: f.get("ReqRedir") or f.get("EgressCtrl"))
    trans = first(rp, lambda f: (f.get("ReqRedir") or f.get("EgressCtrl"))
                  and not f.get("DirectTrans"))
    cmpl = first(cp, lambda f: f.get("CmpltRedir"))
    ats = lsp.get(req, {}).get("ats")
    ats_on = bool(ats and ats["enabled"])
    return {"request_ports": rp, "completion_ports": cp, "requests": redir,
            "translated_requests": trans, "completions": cmpl,
            "requester_ats": ats_on,
            "peer_to_peer": redir is None or (ats_on and trans is None)}


# The runs the guest makes (guest-init.sh, pa_acs_dir=): the direction each
# setting is meant for passes, the other fails.
ACS_DIR_RUNS = {
    # rdma_topo bare metal: "xx101x1" on the GPU's port, "xx110x1" on the
    # NIC's: the NIC's DMA into the GPU goes across.
    "asym": {("nic", "gpu"): True, ("gpu", "nic"): False},
    # rdma_topo VMs: "1x111x1" on both; the GPU stand-in has ATS on, the
    # NIC none: the GPU's translated requests go across, the NIC's do not.
    "dt": {("gpu", "nic"): True, ("nic", "gpu"): False},
}
# PCI drivers that manage DMA themselves (driver_managed_dma = true in 6.1:
# vfio-pci and its variants, pci-stub, the PCIe port driver): binding them
# claims no DMA ownership of the group.
DMA_SELF_MANAGED = {"vfio-pci", "mlx5-vfio-pci", "hisi-acc-vfio-pci", "pci-stub", "pcieport"}


def expected_dma_owner(snap, gid, held, kernel):
    """iommu.dma_owner from independent facts: iommu_group_dma_owner_claimed()
    (v5.19+) counts every bound driver that uses the DMA API and every user
    that took the group (vfio-hold's container); null before v5.19."""
    mm = kernel_major_minor(kernel)
    if mm is None or tuple(int(x) for x in mm.split(".")) < (5, 19):
        return None
    if gid in held:
        return "claimed"
    for s in snap.sysfs.values():
        if s.get("iommu_group") == str(gid) and s.get("driver") \
                and s["driver"] not in DMA_SELF_MANAGED:
            return "claimed"
    return "unclaimed"


def kernel_major_minor(release):
    """'7.3.4+deb13-amd64' -> '7.3'; None when it does not start so."""
    m = re.match(r"^(\d+)\.(\d+)", release or "")
    return f"{m.group(1)}.{m.group(2)}" if m else None


def p2p_rules_kernel(rules):
    """'Linux 7.1 + 0ba76b19fd4c' -> '7.1'; the string itself when it is
    not of that form (so that a comparison shows it)."""
    m = re.match(r"^Linux (\d+\.\d+)( \+ [0-9a-f]{12})*$", rules or "") \
        if isinstance(rules, str) else None
    return m.group(1) if m else rules


def fmt(v):
    if isinstance(v, int) and not isinstance(v, bool) and v > 9:
        return f"{v} ({v:#x})"
    return json.dumps(v) if not isinstance(v, str) or v != "<absent>" else v


def sysfs_bdfs(text):
    return {line.split("\t", 1)[0] for line in text.splitlines() if line}


def parse_probe(text):
    """dump-probe.c's output: devs as (bdf, part, intr), parts, rc, done."""
    run = {"devs": [], "parts": 0, "rc": None, "done": False}
    for line in text.splitlines():
        f = line.split()
        if len(f) == 6 and f[0] == "dev":
            run["devs"].append((f[1], int(f[3]), f[5] == "1"))
        elif len(f) == 5 and f[0] == "done":
            run.update(parts=int(f[2]), rc=int(f[4]), done=True)
    return run


def dump_selftest():
    """The dump checks pass a correct run and fail each wrong one."""
    def sysfs(bdfs):
        return {b for b in bdfs}
    before = sysfs(f"0000:00:{i:02x}.0" for i in range(8))
    after = before - {"0000:00:06.0"}
    def run(devs, parts=4):
        return {"devs": devs, "parts": parts, "rc": 0, "done": True}
    good = [(b, 1 + i // 3, i >= 6) for i, b in enumerate(sorted(after))]
    cases = {
        "good": (run(good), True),
        "repeated": (run(good[:3] + good[2:]), False),
        "skipped": (run(good[:2] + good[3:]), False),
        "removed-late": (run(good[:5] + [("0000:00:06.0", 3, True)] + good[5:]), False),
        "no-intr": (run([(b, p, False) for b, p, _ in good]), False),
    }
    ok = True
    for name, (r, want_pass) in cases.items():
        c = Checker()
        c.dump_run("dump", r, before, after, {"0000:00:06.0"})
        if (not c.errors) != want_pass:
            ok = False
            print(f"selftest FAIL: dump {name}: {c.errors or 'accepted'}")
    c = Checker()
    c.dump_run("dump", run([(b, 1, True) for b in sorted(before)]), before, before, None)
    if not c.errors:
        ok = False
        print("selftest FAIL: dump with a spurious NLM_F_DUMP_INTR accepted")
    if ok:
        print("selftest ok: dump resume and interruption checks")
    return ok


# ---------------------------------------------------------------------------
# P2P DMA pairs (p2p-probe.c): the kernel's verdict and its own log, sysfs
# device paths and configuration space
# ---------------------------------------------------------------------------

# PCIEAUDIT_P2P_KERNEL_LOG_BURST (include/uapi/linux/pcieaudit.h).
P2P_LOG_BURST = 4

# drivers/pci/p2pdma.c v6.1, pci_p2pdma_whitelist[]: (vendor, device) ->
# REQ_SAME_HOST_BRIDGE. Only the model of kernels without P2PDMA decides
# with it; on P2PDMA kernels the kernel decides, and the model must agree.
P2P_WHITELIST = {(0x8086, 0x3C00): True, (0x8086, 0x3C01): True,
                 (0x8086, 0x2F00): True, (0x8086, 0x2F01): True,
                 (0x8086, 0x2030): False, (0x8086, 0x2031): False,
                 (0x8086, 0x2032): False, (0x8086, 0x2033): False,
                 (0x8086, 0x2020): False, (0x8086, 0x09A2): False}

# ACS Control bits that send P2P traffic up (pci_bridge_has_acs_redir()):
# P2P Request Redirect, P2P Completion Redirect, P2P Egress Control.
ACS_REDIR_BITS = 1 << 2 | 1 << 3 | 1 << 5

# The fields of a pair line that pcieaudit derives, compared across runs.
P2P_FIELDS = ("dist", "len", "map", "path", "host", "common", "hops_p", "hops_c",
              "redirect", "hb_p", "hb_c")

# The kernel's P2PDMA messages (pci_warn(): "<driver or bus> <BDF>: ...").
KMSG_RE = re.compile(r"^(?:\[[^\]]*\]\s*)?\S+ ([0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]): (.*)$")
K_ACS = re.compile(r"^ACS redirect is set between the client and provider \((\S+)\)$")
K_HINT = re.compile(r"^to disable ACS redirect for this path, add the kernel parameter: "
                    r"pci=disable_acs_redir=(\S*)$")
K_REFUSE = re.compile(r"^cannot be used for peer-to-peer DMA as the client and provider "
                      r"\((\S+)\) do not share an upstream bridge or whitelisted host bridge$")
K_WHITELIST = re.compile(r"^Host bridge not in P2PDMA whitelist: ([0-9a-f]{4}):([0-9a-f]{4})$")


def parse_p2p_probe(text):
    """p2p-probe.c's lines -> {"pairs", "many", "done", "bad"}; each pair or
    many a dict of its key=value fields, pairs of a do under their many."""
    out = {"pairs": [], "many": [], "done": None, "bad": []}
    for line in text.splitlines():
        f = line.split()
        if not f:
            continue
        kv = dict(t.split("=", 1) for t in f[1:] if "=" in t)
        if f[0] == "pair":
            out["pairs"].append(kv)
            if kv.get("op") == "do" and out["many"]:
                out["many"][-1]["pairs"].append(kv)
        elif f[0] == "many":
            kv["pairs"] = []
            out["many"].append(kv)
        elif f[0] == "done":
            out["done"] = kv
        else:
            out["bad"].append(line)
    return out


def parse_p2p_klog(text):
    """The kernel's P2PDMA messages, attributed to (provider, client): the
    lists of its ACS messages (the pci=disable_acs_redir= list of each),
    its refusals, its whitelist warnings (printed between the two within
    one call) and the lines that fit no call."""
    log = {"acs": {}, "refused": {}, "warned": {}, "whitelist": 0, "stray": []}
    cur = None
    for line in text.splitlines():
        m = KMSG_RE.match(line.strip())
        if not m:
            continue
        dev, msg = m.groups()
        a, h, r, w = (K_ACS.match(msg), K_HINT.match(msg), K_REFUSE.match(msg),
                      K_WHITELIST.match(msg))
        if a:
            cur = (a.group(1), dev)
            log["acs"].setdefault(cur, []).append(None)
        elif h:
            if cur and cur[1] == dev and log["acs"][cur][-1] is None:
                log["acs"][cur][-1] = h.group(1)
            else:
                log["stray"].append(line)
        elif w:
            log["whitelist"] += 1
            if cur:
                log["warned"][cur] = log["warned"].get(cur, 0) + 1
        elif r:
            pair = (r.group(1), dev)
            log["refused"][pair] = log["refused"].get(pair, 0) + 1
            cur = None
    return log


class P2PTopology:
    """The PCI hierarchy as sysfs device paths and configuration space show
    it, and calc_map_type_and_dist() of v6.1 worked on it: the model."""

    def __init__(self, sysfs, config, zen):
        self.sysfs, self.config, self.zen = sysfs, config, zen
        self.chain, self.host, self.errors = {}, {}, []
        for bdf, s in sysfs.items():
            comps = s.get("realpath", "").split("/")
            hosts = [c for c in comps if re.match(r"^pci[0-9a-f]{4}:[0-9a-f]{2}$", c)]
            up = [c for c in comps if BDF_RE.match(c)]
            # From the function up: pci_upstream_bridge() of each, which
            # maps a VF to its PF's bridge, the VF's sysfs parent too.
            self.chain[bdf] = up[::-1]
            self.host[bdf] = hosts[0] if len(hosts) == 1 else None
            parent = s.get("parent")
            if not up or up[-1] != bdf or self.host[bdf] is None or \
                    (up[-2] if len(up) > 1 else hosts[:1] and hosts[0]) != parent:
                self.errors.append(f"{bdf}: realpath {s.get('realpath')} vs parent {parent}")
        self.ends = sorted(b for b, s in sysfs.items() if "subordinate" not in s)

    def pcie_type(self, bdf):
        cfg = self.config.get(bdf)
        xp = cfg.cap(0x10) if cfg else None
        return PCIE_TYPE_BY_CODE.get(cfg.r16(xp + 2) >> 4 & 0xF) if xp is not None else None

    def redirects(self, bdf):
        cfg = self.config.get(bdf)
        pos = cfg.ecap(0x000D) if cfg else None
        return bool(pos and cfg.r16(pos + 6) & ACS_REDIR_BITS)

    def host_bridge_dev(self, bdf):
        """pci_host_bridge_dev(): the first function on the host bridge's
        root bus, if it is 00.0 or a root port."""
        host = self.host.get(bdf)
        on_root = sorted(b for b in self.sysfs if self.host.get(b) == host
                         and len(self.chain[b]) == 1 and "physfn" not in self.sysfs[b])
        if not on_root:
            return None
        first = on_root[0]
        return first if first.endswith(":00.0") or self.pcie_type(first) == "root_port" else None

    def host_bridge_id(self, bdf):
        root = self.host_bridge_dev(bdf)
        if root is None:
            return "-"
        s = self.sysfs[root]
        return f"{hexint(s['vendor']):04x}:{hexint(s['device']):04x}"

    def whitelisted(self, a, b):
        """host_bridge_whitelist(): (allowed, would warn)."""
        def one(bdf, same):
            root = self.host_bridge_dev(bdf)
            if root is None:
                return False, False
            s = self.sysfs[root]
            req_same = P2P_WHITELIST.get((hexint(s["vendor"]), hexint(s["device"])))
            if req_same is None:
                return False, True
            return not req_same or same, False
        if self.host[a] == self.host[b]:
            return one(a, True)
        ok, warn = one(a, False)
        if not ok:
            return ok, warn
        return one(b, False)

    def model(self, p, c):
        cp, cc = self.chain[p], self.chain[c]
        common = next((a for a in cp if a in cc), None)
        if common:
            ia, ib = cp.index(common), cc.index(common)
            hops_p, hops_c = cp[:ia], cc[:ib]
            # Provider side up to and including the common bridge.
            redir = [a for a in cp[:ia + 1] if self.redirects(a)] + \
                    [b for b in hops_c if self.redirects(b)]
        else:
            hops_p, hops_c, redir = cp, cc, []
        e = {"len": str(len(hops_p) + len(hops_c)), "common": common or "-",
             "hops_p": ",".join(hops_p) or "-", "hops_c": ",".join(hops_c) or "-",
             "redirect": ";".join(redir) or "-", "hb_p": self.host_bridge_id(p),
             "hb_c": self.host_bridge_id(c), "warns": False}
        if common and not redir:
            e.update(path="common_upstream", map="bus_addr", host="not_needed")
        else:
            e.update(path="acs_redirect" if common else "no_common_upstream",
                     map="thru_host_bridge", host="cpu")
            if not self.zen:
                ok, warns = self.whitelisted(p, c)
                e["host"] = "whitelist" if ok else "refused"
                e["map"] = "thru_host_bridge" if ok else "not_supported"
                e["warns"] = bool(common) and warns
        e["dist"] = "-1" if e["map"] == "not_supported" else e["len"]
        return e

    def from_kernel(self, m, klog, p, c):
        """What the kernel's log says of a pair, with the model's paths."""
        acs = klog["acs"].get((p, c))
        refused = (p, c) in klog["refused"]
        e = dict(m)
        e["path"] = "acs_redirect" if acs else \
            "common_upstream" if m["common"] != "-" else "no_common_upstream"
        e["redirect"] = (acs[0] or "-") if acs else "-"
        e["map"] = "not_supported" if refused else \
            "bus_addr" if e["path"] == "common_upstream" else "thru_host_bridge"
        e["host"] = {"bus_addr": "not_needed", "not_supported": "refused"}.get(
            e["map"], "cpu" if self.zen else "whitelist")
        e["dist"] = "-1" if refused else m["len"]
        e["warns"] = (p, c) in klog["warned"]
        return e


def p2p_pair_selftest():
    """The kernel log parser attributes messages to the right pairs."""
    text = "\n".join([
        "[    5.1] pci 0000:09:00.1: ACS redirect is set between the client and provider (0000:09:00.0)",
        "[    5.1] pci 0000:09:00.1: to disable ACS redirect for this path, add the kernel parameter: "
        "pci=disable_acs_redir=0000:00:02.1",
        "[    5.1] pci 0000:00:00.0: Host bridge not in P2PDMA whitelist: 8086:29c0",
        "[    5.1] pci 0000:09:00.1: cannot be used for peer-to-peer DMA as the client and provider "
        "(0000:09:00.0) do not share an upstream bridge or whitelisted host bridge",
        "[    5.2] e1000e 0000:0a:00.0: cannot be used for peer-to-peer DMA as the client and "
        "provider (0000:00:04.0) do not share an upstream bridge or whitelisted host bridge"])
    log = parse_p2p_klog(text)
    ok = (log["acs"] == {("0000:09:00.0", "0000:09:00.1"): ["0000:00:02.1"]}
          and set(log["refused"]) == {("0000:09:00.0", "0000:09:00.1"),
                                      ("0000:00:04.0", "0000:0a:00.0")}
          and log["warned"] == {("0000:09:00.0", "0000:09:00.1"): 1}
          and log["whitelist"] == 1 and not log["stray"])
    print("selftest ok: kernel P2PDMA log attribution" if ok else
          f"selftest FAIL: kernel P2PDMA log parsed as {log}")
    return ok


def text_block_selftest():
    """A device's block is found whichever tree glyph leads it."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("+- 0000:00:02.0 Root Port\n|  +- 0000:01:00.0 Endpoint\n|  |     Power: D3hot\n"
                "|  \\- 0000:01:00.1 Endpoint\n|        Power: D0\n")
    try:
        ok = text_block(f.name, "0000:01:00.0").endswith("Power: D3hot") and \
            text_block(f.name, "0000:01:00.1").endswith("Power: D0")
    finally:
        os.unlink(f.name)
    print("selftest ok: text report blocks" if ok else "selftest FAIL: text report blocks")
    return ok


def vfio_host_selftest():
    """vfio_host_oracle on a made-up guest: a root-bus NIC with no reset
    named by vfio-pci.ids= and bound to e1000, a 15-VF PF below a root port
    with ARI Forwarding off, a 256 MiB BAR below 4 GiB. The check that says
    so is accepted; one rule's status or named device changed is not."""
    def cfg(size, pokes):
        b = bytearray(size)
        for off, width, val in pokes:
            b[off:off + width] = val.to_bytes(width, "little")
        return Config(b.hex())
    pf_bar = "0x00000000e0000000 0x00000000efffffff 0x000000000014220c"
    sysfs = {
        "0000:00:02.0": {"class": "0x060400", "hdr_type": "01", "parent": "pci0000:00",
                         "iommu_group": "1"},
        "0000:00:06.0": {"class": "0x020000", "hdr_type": "00", "parent": "pci0000:00",
                         "iommu_group": "2", "driver": "e1000", "vendor": "0x8086",
                         "device": "0x100e", "subsystem_vendor": "0x1af4",
                         "subsystem_device": "0x1100"},
        "0000:01:00.0": {"class": "0x010802", "hdr_type": "00", "parent": "0000:00:02.0",
                         "iommu_group": "3", "reset": "yes", "sriov_totalvfs": "15",
                         "driver": "nvme", "vendor": "0x1b36", "device": "0x0010"},
        "0000:02:00.0": {"class": "0x050000", "hdr_type": "00", "parent": "0000:00:03.0",
                         "iommu_group": "4", "reset": "yes", "driver": "vfio-pci",
                         "vendor": "0x1af4", "device": "0x1110",
                         "resource": ";".join(["0x0 0x0 0x0", "0x0 0x0 0x0", pf_bar])},
    }
    config = {
        "0000:00:02.0": cfg(256, [(0x06, 2, 0x10), (0x34, 1, 0x40), (0x40, 1, 0x10),
                                  (0x42, 2, 0x42)]),
        "0000:01:00.0": cfg(4096, [(0x100, 4, 0x00010010), (0x10E, 2, 15),
                                   (0x114, 2, 1), (0x116, 2, 1)]),
    }
    facts = {"cmdline": "intel_iommu=on vfio-pci.ids=8086:100e,1af4:1110"}
    want = {"vfio.no-reset": ("warn", "0000:00:06.0"),
            "vfio.sriov-resources": ("fail", "0000:01:00.0"),
            "vfio.bar-below-4g": ("warn", "0000:02:00.0"),
            "vfio.ids-not-bound": ("fail", "0000:00:06.0")}

    def check(w):
        return {"rules": [{"id": r, "status": st} for r, (st, _) in w.items()],
                "findings": [{"id": r, "devices": [b]} for r, (_, b) in w.items()]}
    groups = {1: {}}
    ok = vfio_host_oracle.judge(check(want), sysfs, config, groups, facts) == []
    for rule, (st, bdf) in want.items():
        for wrong in ({**want, rule: ("pass", bdf)}, {**want, rule: (st, "0000:00:02.0")}):
            ok = ok and vfio_host_oracle.judge(check(wrong), sysfs, config, groups, facts) != []
    # ARI Forwarding on, or a port of no IOMMU: nothing / skip only.
    config["0000:00:02.0"] = cfg(256, [(0x06, 2, 0x10), (0x34, 1, 0x40), (0x40, 1, 0x10),
                                       (0x42, 2, 0x42), (0x68, 2, 0x20)])
    ok = ok and not vfio_host_oracle.expected(sysfs, config, facts)["vfio.sriov-resources"]
    # The kernel refusing the VFs too: two findings for the PF, not one.
    facts["sriov_0000:01:00.0"] = "failed"
    ok = ok and vfio_host_oracle.expected(sysfs, config, facts)["vfio.sriov-resources"] == \
        {"0000:01:00.0": 1}
    ok = ok and vfio_host_oracle.judge(check(want), sysfs, config, {}, facts) != []
    print("selftest ok: vfio host rules against the kernel's facts" if ok else
          "selftest FAIL: vfio host rules against the kernel's facts")
    return ok


def kernel_wording_selftest():
    """Per-version facts come from the kernel: both ACS log wordings, and
    the lazy domain's name from the build options."""
    log = "\n".join([
        "[    1.0] pci 0000:00:02.2: disabled ACS redirect",          # up to 6.10
        "[    1.1] pci 0000:00:02.3: Configured ACS to 0x0041",       # 6.11+: RR, CR, EC clear
        "[    1.2] pci 0000:00:02.4: Configured ACS to 0x005d"])      # 6.11+: RR, CR set
    ok = acs_redirect_disabled(log) == {"0000:00:02.2", "0000:00:02.3"}
    ok = ok and kernel_has_dma_fq({"CONFIG_IOMMU_DEFAULT_DMA_LAZY": "y"}) \
        and kernel_has_dma_fq({"CONFIG_IOMMU_DEFAULT_DMA_STRICT": "n"}) \
        and not kernel_has_dma_fq({"CONFIG_IOMMU_DEFAULT_PASSTHROUGH": "n"})
    ok = ok and expected_strict({"DMA"}, False) is None and expected_strict({"DMA"}, True) == "strict" \
        and expected_strict({"DMA", "DMA-FQ"}, False) == "lazy"
    print("selftest ok: per-kernel wording and domain names" if ok else
          "selftest FAIL: per-kernel wording or domain names")
    return ok


def p2p_warning_times(text, checker, where):
    """Boot times of the kernel's whitelist warnings in a piece of its log."""
    out = []
    for line in text.splitlines():
        m = KMSG_RE.match(line.strip())
        if m and K_WHITELIST.match(m.group(2)):
            t = re.match(r"^\[\s*(\d+\.\d+)\]", line.strip())
            if t:
                out.append(float(t.group(1)))
            else:
                checker.err(where, f"no timestamp: {line.strip()}")
    return out


def read_klogs(results):
    """The guest's kernel log pieces (klog/N-NAME.txt) -> {NAME: text}."""
    out = {}
    d = os.path.join(results, "klog")
    if os.path.isdir(d):
        for name in os.listdir(d):
            m = re.match(r"^\d+-(.*)\.txt$", name)
            if m:
                out[m.group(1)] = read_text(os.path.join(d, name))
    return out


# What the kernel logs when pci=disable_acs_redir= (or config_acs=) set a
# port's ACS control: "disabled ACS redirect" until v6.10; from v6.11
# ("PCI: Extend ACS configurability", 47c8846a49ba) the control it wrote.
K_ACS_DISABLED = re.compile(r"^disabled ACS redirect$")
K_ACS_CONFIGURED = re.compile(r"^Configured ACS to (0x[0-9a-fA-F]+)$")
ACS_REDIRECT_BITS = 0x0004 | 0x0008 | 0x0020  # ReqRedir, CmpltRedir, EgressCtrl


def acs_redirect_disabled(log):
    """The functions whose redirect bits the kernel says it cleared at boot,
    in whichever wording the booted kernel uses."""
    out = set()
    for line in log.splitlines():
        m = re.search(r"(\S+): (disabled ACS redirect|Configured ACS to 0x[0-9a-fA-F]+)\s*$", line)
        if not m:
            continue
        conf = K_ACS_CONFIGURED.match(m.group(2))
        if conf is None or not int(conf.group(1), 16) & ACS_REDIRECT_BITS:
            out.add(m.group(1))
    return out


def p2p_kinds(topo, truth, boot_log):
    """What kinds of pairs the run had, from the independent data."""
    kinds = set()
    disabled = acs_redirect_disabled(boot_log)
    for (p, c), t in truth.items():
        hops = [h for h in (t["hops_p"] + "," + t["hops_c"]).split(",") if h != "-"]
        allowed = t["map"] != "not_supported"
        if t["map"] == "bus_addr":
            ctype = topo.pcie_type(t["common"])
            if ctype == "upstream_port":
                kinds.add("switch")
            if any(topo.pcie_type(h) == "upstream_port" for h in hops):
                kinds.add("switch2")
            if ctype == "root_port":
                kinds.add("bus_addr_rp")
            if t["common"] in disabled and topo.config[t["common"]].ecap(0x000D):
                kinds.add("acs_redir_disabled")
        if t["path"] == "acs_redirect":
            kinds.add("acs_redirect_allowed" if allowed else "acs_redirect")
            if t["hb_p"] == "-":
                kinds.add("redirect_no_host_fn")
        if t["path"] == "no_common_upstream":
            kinds.add("no_common_allowed" if allowed else "no_common")
        if topo.host[p] != topo.host[c]:
            kinds.add("host_bridges_allowed" if allowed else "host_bridges")
        if not allowed:
            kinds.add("refused")
        if t["host"] == "cpu":
            kinds.add("cpu_allowed")
        pf_p, pf_c = topo.sysfs[p].get("physfn"), topo.sysfs[c].get("physfn")
        if pf_p == c or pf_c == p:
            kinds.add("vf_pf")
        if pf_p and pf_c:
            kinds.add("vf_vf")
    return kinds


def judge(results, expects, allow_missing=False, quiet=False):
    """Returns the list of differences (empty: pass)."""
    c = Checker()
    facts = read_kv(os.path.join(results, "facts.txt"))
    if facts.get("finished") != "1":
        c.err("guest", "the guest did not finish its run")
    snaps = {}
    for tag in SNAPSHOTS:
        p = os.path.join(results, tag)
        if os.path.isdir(p):
            try:
                snaps[tag] = Snapshot(p)
            except (OSError, ValueError, KeyError) as exc:
                c.err(tag, f"cannot read the independent data: {exc}")
    if "snap1" not in snaps:
        c.err("snap1", "missing")
        return c.errors
    for tag, snap in snaps.items():
        c.sources(tag, snap)
    c.check_verdicts(results, {k: v for k, v in expects.items() if k.startswith("check.")})
    kconfig = os.path.join(results, "kernel.config")
    c.kconfig = read_kv(kconfig) if os.path.exists(kconfig) else None
    c.dma_fq = kernel_has_dma_fq(c.kconfig)
    c.expectations(snaps["snap1"], {k: v for k, v in expects.items()
                                    if not k.startswith("check.")})
    has_acs_root_port = any(
        d["express"] and d["express"]["type"] == "root_port" and d["acs"]
        for d in snaps["snap1"].lspci.values())
    # make demo's guest (pa_demo=1) does only the snapshot, the reports and
    # the checks: what vm-test does besides is not asked of it.
    demo = facts.get("demo") == "1"
    if has_acs_root_port and "snap2" not in snaps and not demo:
        c.err("acs-change", "a root port has ACS but the runtime change was not made")
    c.dmesg(results)

    c.kernel = facts.get("kernel")
    c.default_mode = boot_default_mode(results)
    missing = facts.get("artifacts") == "missing"
    if missing and not allow_missing:
        c.err("guest", "pcieaudit.ko / pcieaudit-cli were not in the initramfs")
    if not missing:
        if facts.get("insmod_rc") != "0":
            c.err("insmod", f"insmod pcieaudit.ko exited {facts.get('insmod_rc')}")
        if facts.get("text_report_rc") != "0":
            c.err("text report", f"pcieaudit-cli report exited {facts.get('text_report_rc')}")
        # A kernel without the IOMMU API must be named as such, not as "none".
        header = read_text(os.path.join(results, "report.txt")).split("\n", 1)[0] \
            if os.path.exists(os.path.join(results, "report.txt")) else ""
        if c.kconfig is not None and header:
            built = c.kconfig.get("CONFIG_IOMMU_API") == "y"
            says = "IOMMU not built (CONFIG_IOMMU_API off)" in header
            if built == says:
                c.err("text report", f"header {header!r} with CONFIG_IOMMU_API "
                      f"{'on' if built else 'off'}")
        reps = {}
        for tag, snap in snaps.items():
            c.held = {int(facts["vfio_group"])} if tag == "vfio" and "vfio_group" in facts else set()
            reps[tag] = c.report(tag, snap)
            c.vfio_facts(tag, snap, reps[tag])
        c.held = set()
        if "pa_vfio=" in facts.get("cmdline", ""):
            if "vfio" not in snaps:
                c.err("vfio", "pa_vfio was given but no VFIO snapshot was taken")
            if facts.get("vfio_driver") != "vfio-pci":
                c.err("vfio", f"the function is bound to {facts.get('vfio_driver')}, not vfio-pci")
        if "pa_vfio_plan=" in facts.get("cmdline", "") and not demo:
            c.vfio_plan(results, facts)
        if not demo:
            c.vfio_intremap(results, facts)
        c.vfio_host(results, snaps["snap1"], facts)
        if "snap2" in snaps:
            c.acs_change(results, reps.get("snap1"), reps.get("snap2"), snaps["snap2"])
        if not demo:
            c.errpaths(results)
            c.power(results, facts, snaps, reps)
            c.dumps(results, facts)
            c.p2p_expectations(c.p2p(results, facts), expects)
            c.acs_directions(results, facts)
    elif "snap2" in snaps:
        c.acs_change(results, None, None, snaps["snap2"])

    if not quiet:
        ndev = len(snaps["snap1"].sysfs)
        print(f"oracle: {facts.get('scenario', '?')}: {ndev} functions, "
              f"{len(expected_groups(snaps['snap1']))} IOMMU groups, "
              f"{sum(c.counts.values())} comparisons, {len(c.errors)} differences")
        if not missing:
            n, skipped, undecided = c.vfio_stats
            print(f"oracle: {facts.get('scenario', '?')}: VFIO facts, AER, BAR starts: "
                  f"{n} compared against config.hex and sysfs, {skipped} functions "
                  f"without config space, {undecided} facts not in this guest's dump")
        if c.p2p_stats:
            n, answered, kinds = c.p2p_stats
            print(f"oracle: {facts.get('scenario', '?')}: P2P: {n} ordered pairs, "
                  f"{answered} answered by the kernel ({'P2PDMA' if answered else 'no P2PDMA'}); "
                  f"kinds: {', '.join(kinds)}")
    return c.errors


# ---------------------------------------------------------------------------
# Self-test
# ---------------------------------------------------------------------------


def boot_default_mode(results):
    """'passthrough'/'translated' from the IOMMU core's boot message, or None."""
    path = os.path.join(results, "dmesg.txt")
    if not os.path.exists(path):
        return None
    m = re.search(r"iommu: Default domain type: (\w+)", read_text(path))
    return {"Passthrough": "passthrough", "Translated": "translated"}.get(m.group(1)) if m else None


def kernel_has_dma_fq(kconfig):
    """Whether the booted kernel has a type of its own for lazy DMA domains
    ("DMA-FQ", v5.15), from its build options (read_kv): the default-domain
    choice IOMMU_DEFAULT_DMA_LAZY/_STRICT came with the type. Without it a
    "DMA" domain may be strict or lazy. No config: assume a current kernel."""
    if kconfig is None:
        return True
    return any(k in kconfig for k in ("CONFIG_IOMMU_DEFAULT_DMA_LAZY",
                                      "CONFIG_IOMMU_DEFAULT_DMA_STRICT"))


def expected_strict(types, dma_fq):
    """info.iommu_strict from the groups' types: lazy with a DMA-FQ group;
    strict with a DMA group where the kernel has DMA-FQ; else unknown."""
    if "DMA-FQ" in types:
        return "lazy"
    if "DMA" in types and dma_fq:
        return "strict"
    return None


def synth_report(snap, kernel, default_mode, kconfig=None):
    """A report as a correct pcieaudit would print it, from independent data."""
    devs = []
    for bdf in sorted(snap.sysfs):
        e = expected_device(snap, bdf)
        if e["acs"]:
            a = e["acs"]
            a["cap_flags"] = {f: bool(a["cap"] >> i & 1) for i, f in enumerate(ACS_FLAGS)}
            a["ctrl_flags"] = {f: bool(a["ctrl"] >> i & 1) for i, f in enumerate(ACS_FLAGS)}
        if e["link"]:
            e["link"].pop("target_speed_reserved", None)
            if e["link"]["downgraded"] is None:
                e["link"]["downgraded"] = False
        if e["multifunction"] is None:
            e["multifunction"] = False
        if e["iommu"]:
            e["iommu"]["default_domain_source"] = \
                "kernel" if e["iommu"]["default_domain"] is not None else None
            e["iommu"]["domain"] = None
            e["iommu"]["dma_owner"] = expected_dma_owner(snap, e["iommu"]["group"], set(), kernel)
        if snap.names is not None:
            e["vendor_name"], e["device_name"] = snap.names[bdf]
        synth_vfio_facts(e, snap.sysfs[bdf], snap.config.get(bdf))
        devs.append(e)
    groups = [{"id": gid, "devices": sorted(g["pci"]), "other_members": g["other"]}
              for gid, g in sorted(expected_groups(snap).items())]
    types = {g["type"] for g in expected_groups(snap).values()}
    info = {"device_count": len(devs), "group_count": len(groups),
            "kernel_release": kernel,
            "p2p_rules": f"Linux {kernel_major_minor(kernel)}",
            "features": dict({"iommu_present": bool(groups)},
                             **{f: (kconfig or {}).get(sym) == "y"
                                for f, sym in BUILD_FEATURES.items() if kconfig is not None}),
            "iommu_default_mode": (default_mode or "translated") if groups else None,
            "iommu_strict": expected_strict(types, kernel_has_dma_fq(kconfig))
            if groups else None}
    # Pairs among the first endpoints, with the fields the oracle judges
    # in a report (the dumps judge the rest).
    p2pdma = (kconfig or {}).get("CONFIG_PCI_P2PDMA") == "y"
    ends = [d["bdf"] for d in devs if d["secondary_bus"] is None][:3]
    pairs = [{"a": a, "b": b, "kernel_status": "answered" if p2pdma else "not_built",
              "agreement": "agree" if p2pdma else None,
              "modelled_on": None if p2pdma else info["p2p_rules"]}
             for a in ends for b in ends if a != b]
    return {"schema_version": 1, "info": info, "devices": devs, "groups": groups,
            "p2p": pairs}


def synth_vfio_facts(e, s, cfg):
    """The passthrough, AER and BAR start facts of device e onto it, as a
    correct pcieaudit gives them, from its sysfs dump s and config cfg."""
    if cfg is None or config_unusable(cfg):
        e["passthrough"] = None
    else:
        e["passthrough"] = expected_passthrough(s, cfg, s.get("resource_iov", ""))
    aer = expected_aer(s, e["pcie_type"] is not None) or {"state": "unknown"}
    if aer["state"] is None:
        e["aer"] = None
    elif aer["state"] == "unknown":
        e["aer"] = {"state": "unknown", "reason": "no aer_dev_correctable"}
    else:
        e["aer"] = dict({f: 0 for f, _ in AER_TOTALS}, **aer)
    lines = resource_lines(s.get("resource"))
    for b in e["bars"] or []:
        if b["assigned"]:
            b["start"] = lines[b["index"]][0]


def synth_resource(cfg):
    """A resource file's six BAR lines for the BAR registers' addresses."""
    nregs = {0: 6, 1: 2}.get(cfg.r8(0x0E) & 0x7F, 0)
    lines = [(0, 0, 0)] * 6
    i = 0
    while i < nregs:
        v = cfg.r32(0x10 + 4 * i)
        if v & 1:
            addr, fl, step = v & 0xFFFFFFFC, IORESOURCE_IO, 1
        else:
            addr, fl, step = v & 0xFFFFFFF0, IORESOURCE_MEM, 1
            if v & 0x8:
                fl |= IORESOURCE_PREFETCH
            if (v & 0x6) == 0x4 and i + 1 < nregs:
                addr |= cfg.r32(0x10 + 4 * (i + 1)) << 32
                fl |= IORESOURCE_MEM_64
                step = 2
        if addr:
            lines[i] = (addr, addr + (addr & -addr) - 1, fl)
        i += step
    return "".join(f"{a:#018x} {b:#018x} {c:#018x};" for a, b, c in lines)


def synth_vfio_sysfs(good):
    """What a current guest's dump_sysfs adds and the stored fixtures (from
    older guests) lack, made up consistently with their config space: the
    VF BAR lines (sized where a VF BAR register declares a BAR), aer where
    a PCIe function has the AER capability (a correctable error counted),
    and runtime PM forbidden (power/control on); and the older fixtures'
    missing resource, the BARs the registers place, each as large as its
    address's alignment."""
    for tag in SNAPSHOTS:
        path = os.path.join(good, tag, "sysfs.tsv")
        if not os.path.exists(path):
            continue
        snap_cfg = parse_config(read_text(os.path.join(good, tag, "config.hex")))
        sysfs = parse_sysfs(read_text(path))
        add = []
        for bdf, s in sorted(sysfs.items()):
            cfg = snap_cfg.get(bdf)
            if cfg is None:
                continue
            if "resource" not in s:
                add.append((bdf, "resource", synth_resource(cfg)))
            if "resource_iov" not in s:
                sp = cfg.ecap(ECAP_SRIOV)
                lines = ["0x0000000000000000 0x0000000000000000 0x0000000000000000"] * 6
                for i, (declared, _) in enumerate(vf_bar_regs(cfg, sp) if sp else []):
                    if declared:
                        start = 0x800000000 + (i << 20)
                        lines[i] = f"{start:#018x} {start + 0x3FFF:#018x} {0x100200:#018x}"
                add.append((bdf, "resource_iov", ";".join(lines) + ";"))
            if "aer" not in s:
                aer = cfg.cap(CAP_EXP) is not None and cfg.ecap(0x0001) is not None
                add.append((bdf, "aer", "yes" if aer else "no"))
                if aer:
                    add += [(bdf, key, "1" if field == "correctable" else "0")
                            for field, key in AER_TOTALS]
            if "power_control" not in s:
                add.append((bdf, "power_control", "on"))
        with open(path, "a", encoding="utf-8") as f:
            f.write("".join(f"{b}\t{k}\t{v}\n" for b, k, v in add))


def synth_d3hot(good, vfio_bdf):
    """What guest-init.sh's power step records, from the fixture's snap1:
    the first candidate endpoint's PMCSR set to D3hot in lspci and config
    space (snapshot d3hot). Returns the function, or None."""
    snap1 = Snapshot(os.path.join(good, "snap1"))
    cands = pm_candidates(snap1, vfio_bdf)
    facts = os.path.join(good, "facts.txt")
    if not cands:
        with open(facts, "a", encoding="utf-8") as f:
            f.write("d3hot_bdf=none\n")
        return None
    bdf = cands[0]
    d3 = os.path.join(good, "d3hot")
    os.makedirs(d3)
    for name in ("lspci.txt", "lspci-mm.txt", "sysfs.tsv", "groups.tsv", "config.hex"):
        if os.path.exists(os.path.join(good, "snap1", name)):
            shutil.copy(os.path.join(good, "snap1", name), d3)
    out, cur, pm = [], None, False
    for line in read_text(os.path.join(d3, "lspci.txt")).splitlines():
        m = re.match(r"^([0-9a-f]{4}:\S+) ", line)
        if m:
            cur = m.group(1)
        if line.startswith("\tCapabilities:"):
            pm = "Power Management" in line
        if cur == bdf and pm and line.startswith("\t\tStatus: D0 "):
            line = line.replace("Status: D0 ", "Status: D3 ", 1)
        out.append(line)
    with open(os.path.join(d3, "lspci.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    out = []
    for line in read_text(os.path.join(d3, "config.hex")).splitlines():
        if line.startswith(bdf + " "):
            raw = bytearray(bytes.fromhex(line.split()[1]))
            raw[snap1.lspci[bdf]["pm"] + 4] |= 3
            line = f"{bdf} {raw.hex()}"
        out.append(line)
    with open(os.path.join(d3, "config.hex"), "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    with open(os.path.join(d3, "report.txt"), "w", encoding="utf-8") as f:
        f.write(f"\\- {bdf} Endpoint [1234:0001] unknown vendor unknown device (no driver, NUMA node unknown)\n"
                "      Power: D3hot\n      ACS: none\n")
    with open(facts, "a", encoding="utf-8") as f:
        f.write(f"d3hot_bdf={bdf}\nd3hot_pmcsr=0003\nd3hot_pmcsr_after=0000\n")
    return bdf


def synth_resets(good, bdf):
    """Reports during the reset loop: snap1's, which a correct module gives."""
    if bdf is None:
        return
    os.makedirs(os.path.join(good, "reset"))
    for i in (1, 2, 3):
        shutil.copy(os.path.join(good, "snap1", "report.json"),
                    os.path.join(good, "reset", f"report-{i}.json"))
        with open(os.path.join(good, "reset", f"report-{i}.rc"), "w", encoding="utf-8") as f:
            f.write("0\n")
    with open(os.path.join(good, "facts.txt"), "a", encoding="utf-8") as f:
        f.write(f"reset_bdf={bdf}\nreset_reports=3\nreset_ok=20\n")


def _dev(rep, pred):
    for d in rep["devices"]:
        if pred(d):
            return d
    raise LookupError("self-test fixture lacks a device the mutation needs")


def _mutations(change_bdf, vfio_group, d3hot_bdf=None, sriov=False):
    """(name, snapshot it applies to, function mutating report or results dir)."""
    def acs_dev(d):
        return d["acs"] is not None

    def linked(d):
        return d["link"] is not None

    def grouped(d):
        return d["iommu"] is not None

    def flip_acs_ctrl(rep):
        d = _dev(rep, acs_dev)
        d["acs"]["ctrl"] ^= 1 << 2
        d["acs"]["ctrl_flags"]["ReqRedir"] = not d["acs"]["ctrl_flags"]["ReqRedir"]

    def flip_acs_flag_only(rep):
        d = _dev(rep, acs_dev)
        d["acs"]["cap_flags"]["SrcValid"] = not d["acs"]["cap_flags"]["SrcValid"]

    def acs_pos(rep):
        _dev(rep, acs_dev)["acs"]["pos"] += 4

    def drop_acs(rep):
        _dev(rep, acs_dev)["acs"] = None

    def link_width(rep):
        _dev(rep, linked)["link"]["width"] *= 2

    def link_max_speed(rep):
        d = _dev(rep, lambda d: linked(d) and d["link"]["max_speed"])
        d["link"]["max_speed"] = 32

    def link_null(rep):
        _dev(rep, linked)["link"] = None

    def link_on_rciep(rep):
        d = _dev(rep, lambda d: d["pcie_type"] is None or d["pcie_type"] == "rc_endpoint")
        d["link"] = {"speed": 2.5, "width": 1, "max_speed": 2.5, "max_width": 1,
                     "target_speed": None, "downgraded": False, "lnkcap": 0, "lnksta": 0}

    def downgraded(rep):
        # A link whose verdict lspci decides (known speeds, nothing above
        # the capability): a root port's slower link included, which lspci
        # never marks.
        d = _dev(rep, lambda d: linked(d) and d["link"]["max_speed"] and d["link"]["speed"]
                 and d["link"]["max_speed"] >= d["link"]["speed"]
                 and d["link"]["max_width"] >= d["link"]["width"] > 0)
        d["link"]["downgraded"] = not d["link"]["downgraded"]

    def drop_device(rep):
        rep["devices"].pop(len(rep["devices"]) // 2)

    def add_device(rep):
        d = copy.deepcopy(rep["devices"][0])
        d["bdf"] = "0000:7e:00.0"
        rep["devices"].append(d)

    def vendor(rep):
        rep["devices"][0]["vendor"] ^= 1

    def class_code(rep):
        rep["devices"][-1]["class"] = rep["devices"][-1]["class"] >> 8

    def driver(rep):
        _dev(rep, lambda d: d["driver"])["driver"] = None

    def upstream(rep):
        _dev(rep, lambda d: d["upstream"])["upstream"] = None

    def multifunction(rep):
        d = _dev(rep, lambda d: d["multifunction"])
        d["multifunction"] = False

    def multifunction_fn1(rep):
        d = _dev(rep, lambda d: d["multifunction"] and not d["bdf"].endswith(".0"))
        d["multifunction"] = False

    def pcie_type(rep):
        d = _dev(rep, lambda d: d["pcie_type"] == "root_port")
        d["pcie_type"] = "downstream_port"

    def numa(rep):
        rep["devices"][0]["numa_node"] = 0

    def group_id(rep):
        d = _dev(rep, grouped)
        d["iommu"]["group"] += 100

    def default_domain(rep):
        d = _dev(rep, grouped)
        d["iommu"]["default_domain"] = "identity" if d["iommu"]["default_domain"] != "identity" else "DMA"

    def domain(rep):
        d = _dev(rep, grouped)
        d["iommu"]["domain"] = "unmanaged"

    def instance(rep):
        d = _dev(rep, grouped)
        d["iommu"]["instance"] = None

    def drop_iommu(rep):
        _dev(rep, grouped)["iommu"] = None

    def group_member(rep):
        g = next(g for g in rep["groups"] if len(g["devices"]) > 1)
        g["devices"].pop()

    def group_drop(rep):
        rep["groups"].pop()

    def schema(rep):
        rep["schema_version"] = 2

    def bool_as_int(rep):
        rep["devices"][0]["multifunction"] = int(rep["devices"][0]["multifunction"])

    def acs_raw_only(rep):
        _dev(rep, acs_dev)["acs"]["cap"] ^= 1 << 8

    def link_speed(rep):
        _dev(rep, linked)["link"]["speed"] = 5

    def target_speed(rep):
        _dev(rep, lambda d: linked(d) and d["link"]["target_speed"])["link"]["target_speed"] = None

    def lnksta_raw(rep):
        _dev(rep, linked)["link"]["lnksta"] ^= 1 << 13

    def other_members(rep):
        rep["groups"][0]["other_members"] = 1

    def domain_source(rep):
        _dev(rep, grouped)["iommu"]["default_domain_source"] = "guessed"

    def secondary_bus(rep):
        _dev(rep, lambda d: d["bridge"])["secondary_bus"] += 1

    def bridge(rep):
        _dev(rep, lambda d: d["bridge"])["bridge"] = False

    def device_name(rep):
        rep["devices"][0]["device_name"] = "Imaginary GPU"

    def device_count(rep):
        rep["info"]["device_count"] += 1

    def iommu_strict(rep):
        rep["info"]["iommu_strict"] = "strict" if rep["info"]["iommu_strict"] != "strict" else "lazy"

    def iommu_mode(rep):
        rep["info"]["iommu_default_mode"] = {"passthrough": "translated"}.get(
            rep["info"]["iommu_default_mode"], "passthrough")

    def power_state(rep):
        d = _dev(rep, lambda d: d.get("power_state") == "D0")
        d["power_state"] = "D3hot"

    def power_state_absent(rep):
        """As a module before power states (and its CLI) reports."""
        for d in rep["devices"]:
            d.pop("power_state", None)
            d.pop("config_readable", None)

    def config_unreadable(rep):
        d = _dev(rep, acs_dev)
        d.update(config_readable=False, acs=None, link=None)

    def d3hot_missed(rep):
        _dev(rep, lambda d: d["bdf"] == d3hot_bdf)["power_state"] = "D0"

    def reset_all_ones(results):
        path = os.path.join(results, "reset", "report-2.json")
        rep = json.loads(read_text(path))
        d = _dev(rep, lambda d: d["bdf"] == d3hot_bdf)
        if d["link"]:
            d["link"]["lnksta"] = 0xFFFF
        else:
            d["config_readable"] = False
        with open(path, "w", encoding="utf-8") as f:
            json.dump(rep, f)

    def stale_ctrl(rep):
        d = _dev(rep, lambda d: d["bdf"] == change_bdf)
        d["acs"]["ctrl"] ^= 1 << 2
        d["acs"]["ctrl_flags"]["ReqRedir"] = not d["acs"]["ctrl_flags"]["ReqRedir"]

    def vfio_owner(rep):
        d = _dev(rep, lambda d: d["iommu"] and str(d["iommu"]["group"]) == vfio_group)
        d["iommu"]["dma_owner"] = "unclaimed"

    def vfio_default(rep):
        d = _dev(rep, lambda d: d["iommu"] and str(d["iommu"]["group"]) == vfio_group)
        d["iommu"]["default_domain"] = "identity" if d["iommu"]["default_domain"] != "identity" else "DMA"

    def dma_owner(rep):
        d = _dev(rep, grouped)
        d["iommu"]["dma_owner"] = {"claimed": "unclaimed"}.get(d["iommu"]["dma_owner"], "claimed")

    def _errpaths(results, **got):
        """errpaths.txt of a correct run (expected, got), with some results
        replaced by what a wrong one got."""
        want = {"module_not_loaded": 4, "nonexistent_bdf": 7, "unprivileged": 5,
                "no_sys_admin": 5, "no_sys_admin_dump": 1, "no_sys_admin_dump_devs": 0}
        with open(os.path.join(results, "errpaths.txt"), "w", encoding="utf-8") as f:
            f.write("".join(f"{k} {v} {got.get(k, v)}\n" for k, v in want.items()))

    def errpath(results):
        _errpaths(results, nonexistent_bdf=1)

    def errpath_unpriv(results):
        _errpaths(results, unprivileged=0)

    def errpath_no_sys_admin(results):
        """CAP_NET_ADMIN alone is not enough: root without CAP_SYS_ADMIN."""
        _errpaths(results, no_sys_admin=0)

    def errpath_dump_no_sys_admin(results):
        """A dump without CAP_SYS_ADMIN answered its functions."""
        _errpaths(results, no_sys_admin_dump=0, no_sys_admin_dump_devs=14)

    def dmesg_warn(results):
        with open(os.path.join(results, "dmesg.txt"), "a", encoding="utf-8") as f:
            f.write("[   9.000000] WARNING: CPU: 0 PID: 1 at kmod/dev.c:42 pa_fill+0x1/0x2\n")

    def dmesg_bug(results):
        with open(os.path.join(results, "dmesg.txt"), "a", encoding="utf-8") as f:
            f.write("[   9.000000] BUG: kernel NULL pointer dereference, address: 0000000000000008\n")

    def kconfig_flip_iommu_api(results):
        path = os.path.join(results, "kernel.config")
        lines = read_text(path).splitlines()
        kept = [ln for ln in lines if not ln.startswith("CONFIG_IOMMU_API=")]
        if len(kept) == len(lines):
            kept.append("CONFIG_IOMMU_API=y")
        with open(path, "w", encoding="utf-8") as f:
            f.write("".join(f"{ln}\n" for ln in kept))

    def kconfig_iov_built(results):
        with open(os.path.join(results, "kernel.config"), "a", encoding="utf-8") as f:
            f.write("CONFIG_PCI_IOV=n\n")

    def p2p_rules_other_kernel(rep):
        rep["info"]["p2p_rules"] = "Linux 5.10"

    def p2p_rules_missing(rep):
        del rep["info"]["p2p_rules"]

    def p2p_json_agreement(rep):
        pr = rep["p2p"][0]
        pr["agreement"] = "disagree" if pr["kernel_status"] == "answered" else "agree"

    def p2p_json_modelled_on(rep):
        pr = rep["p2p"][0]
        pr["modelled_on"] = "Linux 5.10" if pr["modelled_on"] else rep["info"]["p2p_rules"]

    def mps(rep):
        d = _dev(rep, lambda d: d.get("pcie_device"))
        d["pcie_device"]["mps"] = 4096 if d["pcie_device"]["mps"] != 4096 else 128

    def ats_claimed(rep):
        d = _dev(rep, lambda d: d.get("ats") and not d["ats"]["capable"])
        d["ats"] = {"capable": True, "enabled": True}

    def relaxed_ordering(rep):
        d = _dev(rep, lambda d: d.get("pcie_device"))
        d["pcie_device"]["relaxed_ordering"] = not d["pcie_device"]["relaxed_ordering"]

    def bars_unknown(rep):
        d = _dev(rep, lambda d: d.get("bars") is not None)
        d["bars"] = None

    def mem_bytes_invented(rep):
        rep["devices"][0]["mem_bytes"] = 1 << 30

    def passthru_with(rep, key):
        return _dev(rep, lambda d: (d.get("passthrough") or {}).get(key) is not None)["passthrough"]

    def passthru_devctl2(rep):
        passthru_with(rep, "devctl2")["devctl2"] ^= 1 << 5  # ARI Forwarding Enable

    def passthru_no_soft_reset(rep):
        pt = passthru_with(rep, "pm_no_soft_reset")
        pt["pm_no_soft_reset"] = not pt["pm_no_soft_reset"]

    def passthru_unread(rep):
        _dev(rep, lambda d: d.get("passthrough"))["passthrough"] = None

    def bar_start(rep):
        d = _dev(rep, lambda d: any(b.get("start") for b in d.get("bars") or []))
        next(b for b in d["bars"] if b.get("start"))["start"] += 0x1000

    def aer_state(rep):
        _dev(rep, lambda d: (d.get("aer") or {}).get("state") == "known")["aer"] = \
            {"state": "unknown", "reason": "no aer_dev_correctable"}

    def aer_claimed(rep):
        _dev(rep, lambda d: (d.get("aer") or {}).get("state") == "unknown")["aer"] = \
            {"state": "known", "correctable": 0, "nonfatal": 0, "fatal": 0}

    def aer_total(rep):
        _dev(rep, lambda d: (d.get("aer") or {}).get("state") == "known")["aer"]["correctable"] += 1

    def sriov_pf(d):
        return (d.get("passthrough") or {}).get("sriov")

    def sriov_num_vfs(rep):
        _dev(rep, sriov_pf)["passthrough"]["sriov"]["sysfs_num_vfs"] = None

    def sriov_vf_bars(rep):
        sr = _dev(rep, sriov_pf)["passthrough"]["sriov"]
        sr["vf_bars_assigned"] = not sr["vf_bars_assigned"]
        sr["vf_bars_sized"] ^= 1 << 5

    def insmod_failed(results):
        with open(os.path.join(results, "facts.txt"), "a", encoding="utf-8") as f:
            f.write("insmod_rc=1\n")

    rep1 = [flip_acs_ctrl, flip_acs_flag_only, acs_pos, drop_acs, link_width, link_max_speed,
            link_null, link_on_rciep, downgraded, drop_device, add_device, vendor,
            class_code, driver, upstream, multifunction, multifunction_fn1, pcie_type, numa, group_id,
            default_domain, domain, instance, drop_iommu, group_member, group_drop,
            schema, bool_as_int, acs_raw_only, link_speed, target_speed, lnksta_raw,
            other_members, domain_source, dma_owner, secondary_bus, bridge, device_name,
            device_count, iommu_strict, iommu_mode, p2p_rules_other_kernel,
            p2p_rules_missing, p2p_json_agreement, p2p_json_modelled_on, power_state,
            power_state_absent, config_unreadable, mps, ats_claimed,
            relaxed_ordering, bars_unknown, mem_bytes_invented, passthru_devctl2,
            passthru_no_soft_reset, passthru_unread, bar_start, aer_state, aer_claimed,
            aer_total]
    out = [(f.__name__, "snap1", f) for f in rep1]
    if sriov:
        out += [(f.__name__, "snap1", f) for f in (sriov_num_vfs, sriov_vf_bars)]
    out.append(("stale_ctrl_after_setpci", "snap2", stale_ctrl))
    out.append(("vfio_group_not_claimed", "vfio", vfio_owner))
    out.append(("vfio_wrong_default", "vfio", vfio_default))
    if d3hot_bdf:
        out.append(("d3hot_reported_as_d0", "d3hot", d3hot_missed))
        out.append(("reset_all_ones", None, reset_all_ones))
    out += [(f.__name__, None, f) for f in (errpath, errpath_unpriv, errpath_no_sys_admin,
                                               errpath_dump_no_sys_admin, dmesg_warn,
                                               dmesg_bug, insmod_failed,
                                               kconfig_flip_iommu_api, kconfig_iov_built)]
    return out


def selftest(fixture):
    """True when the oracle passes a correct report and fails every wrong one."""
    base = tempfile.mkdtemp(prefix="pcieaudit-oracle-")
    ok = True
    try:
        good = os.path.join(base, "good")
        shutil.copytree(fixture, good)
        synth_vfio_sysfs(good)
        expects = {}
        with open(os.path.join(good, "facts.txt"), "a", encoding="utf-8") as f:
            f.write("artifacts=present\ninsmod_rc=0\ntext_report_rc=0\n")
        with open(os.path.join(good, "errpaths.txt"), "w", encoding="utf-8") as f:
            f.write("module_not_loaded 4 4\nnonexistent_bdf 7 7\nunprivileged 5 5\n"
                    "no_sys_admin 5 5\nno_sys_admin_dump 1 1\nno_sys_admin_dump_devs 0 0\n")
        # An undisturbed one-part dump of every function in the fixture.
        shutil.copy(os.path.join(good, "snap1", "sysfs.tsv"),
                    os.path.join(good, "dump-before.sysfs"))
        with open(os.path.join(good, "dump-plain.txt"), "w", encoding="utf-8") as f:
            for bdf in sorted(sysfs_bdfs(read_text(os.path.join(good, "snap1", "sysfs.tsv")))):
                f.write(f"dev {bdf} part 1 intr 0\n")
            f.write("done parts 1 rc 0\n")
        facts = read_kv(os.path.join(good, "facts.txt"))
        p2pdma = facts.get("p2pdma_kallsyms", "0") != "0"
        # The build options of the kernel that produced the fixture.
        kconfig = {"CONFIG_PCI_IOV": "y", "CONFIG_PCI_ATS": "y"}
        if p2pdma:
            kconfig["CONFIG_PCI_P2PDMA"] = "y"
        if os.path.isdir(os.path.join(good, "snap1")) and \
                read_text(os.path.join(good, "snap1", "groups.tsv")).strip():
            kconfig["CONFIG_IOMMU_API"] = "y"
        with open(os.path.join(good, "kernel.config"), "w", encoding="utf-8") as f:
            f.write("".join(f"{k}={v}\n" for k, v in kconfig.items()))
        if os.path.isdir(os.path.join(good, "p2p")):
            synth_p2p(good)
        d3hot_bdf = synth_d3hot(good, facts.get("vfio_bdf"))
        for tag in SNAPSHOTS:
            if not os.path.isdir(os.path.join(good, tag)):
                continue
            snap = Snapshot(os.path.join(good, tag))
            rep = synth_report(snap, facts["kernel"], boot_default_mode(good), kconfig)
            if tag == "vfio":
                # As pcieaudit reports a group in a VFIO container.
                for d in rep["devices"]:
                    if d["iommu"] and str(d["iommu"]["group"]) == facts.get("vfio_group") \
                            and d["iommu"]["dma_owner"] is not None:
                        d["iommu"]["dma_owner"] = "claimed"
            with open(snap.report_path, "w", encoding="utf-8") as f:
                json.dump(rep, f, indent=1)
            with open(os.path.join(good, tag, "report.rc"), "w", encoding="utf-8") as f:
                f.write("0\n")
        synth_resets(good, d3hot_bdf)
        errs = judge(good, expects, quiet=True)
        if errs:
            ok = False
            print("selftest FAIL: a correct report was rejected:")
            for e in errs:
                print("   ", e)
        else:
            print("selftest ok: correct report accepted")

        change_bdf = read_kv(os.path.join(good, "acs_change.txt")).get("bdf")
        snap1 = Snapshot(os.path.join(good, "snap1"))
        sriov = any(c.ecap(ECAP_SRIOV) for c in snap1.config.values())
        for name, tag, mutate in _mutations(change_bdf, facts.get("vfio_group"), d3hot_bdf, sriov):
            if tag and not os.path.isdir(os.path.join(good, tag)):
                continue
            bad = os.path.join(base, name)
            shutil.copytree(good, bad)
            try:
                if tag:
                    path = os.path.join(bad, tag, "report.json")
                    rep = json.loads(read_text(path))
                    mutate(rep)
                    with open(path, "w", encoding="utf-8") as f:
                        json.dump(rep, f)
                else:
                    mutate(bad)
            except (LookupError, StopIteration):
                ok = False
                print(f"selftest FAIL: {name}: the fixture has nothing to mutate")
                continue
            errs = judge(bad, expects, quiet=True)
            if errs:
                print(f"selftest ok: {name} rejected ({errs[0]})")
            else:
                ok = False
                print(f"selftest FAIL: {name} was accepted")
        for name, kernel, mutate in _p2p_mutations():
            if kernel and kernel != ("p2pdma" if p2pdma else "stock"):
                continue
            bad = os.path.join(base, name)
            shutil.copytree(good, bad)
            try:
                mutate(bad)
            except LookupError:
                continue  # nothing of the kind here; main() wants it somewhere
            P2P_APPLIED.add(name)
            errs = judge(bad, expects, quiet=True)
            if errs:
                print(f"selftest ok: {name} rejected ({errs[0]})")
            else:
                ok = False
                print(f"selftest FAIL: {name} was accepted")
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return ok


# ---------------------------------------------------------------------------
# Self-test of the P2P checks
# ---------------------------------------------------------------------------


def p2p_line(op, p, c, t, status, kdist):
    agree = "agree" if status == "answered" else "-"
    return (f"pair op={op} provider={p} client={c} kstatus={status} kdist={kdist} agree={agree} "
            + " ".join(f"{k}={t[k]}" for k in P2P_FIELDS) + " intr=0")


def synth_p2p(results):
    """p2p-probe's output as a correct pcieaudit gives it, from the fixture's
    independent data: the kernel's log (P2PDMA kernels) or the model. The
    quiet steps follow the kernel log's allowance as pcieaudit must spend
    it; a fixture whose quiet log does not fit that is rejected."""
    base = os.path.join(results, "p2p")
    facts = read_kv(os.path.join(results, "facts.txt"))
    sysfs = parse_sysfs(read_text(os.path.join(base, "sysfs.tsv")))
    config = parse_config(read_text(os.path.join(base, "config.hex")))
    zen = facts.get("cpu_vendor") == "AuthenticAMD" and int(facts.get("cpu_family") or 0) >= 0x17
    p2pdma = facts.get("p2pdma_kallsyms", "0") != "0"
    topo = P2PTopology(sysfs, config, zen)
    klogs = read_klogs(results)
    vlog = parse_p2p_klog(klogs.get("p2p-verbose", ""))
    pairs = [(p, c) for p in topo.ends for c in topo.ends if p != c]
    truth = {(p, c): topo.from_kernel(topo.model(p, c), vlog, p, c) if p2pdma
             else topo.model(p, c) for p, c in pairs}
    status = "answered" if p2pdma else "not_built"

    def kd(key):
        return truth[key]["dist"] if p2pdma else "-"

    def write(name, lines):
        with open(os.path.join(base, name), "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")

    for name in ("dump-verbose.txt", "dump-select.txt"):
        write(name, [p2p_line("dump", p, c, truth[(p, c)], status, kd((p, c)))
                     for p, c in pairs] + [f"done op=dump pairs={len(pairs)} parts=1 rc=0"])
    out = []
    for p in topo.ends:
        others = [c for c in topo.ends if c != p]
        for i in range(0, len(others), 64):
            chunk = others[i:i + 64]
            dists = [kd((p, c)) for c in chunk]
            many = "-" if not p2pdma else "-1" if "-1" in dists else str(sum(map(int, dists)))
            out.append(f"many op=do provider={p} clients={','.join(chunk)} kdist={many}")
            out += [p2p_line("do", p, c, truth[(p, c)], status, kd((p, c))) for c in chunk]
    write("do-verbose.txt", out + [f"done op=do-each pairs={len(pairs)} parts={len(topo.ends)} rc=0"])

    # The quiet steps: the allowance left from the minute before, spent in
    # request order; the distance over all clients of a do costs one more
    # where its first refused client warns.
    t0 = float(facts.get("p2p_quiet_start", "0"))
    before = [t for name, text in klogs.items() if name not in ("p2p-verbose", "p2p-do", "p2p-quiet")
              for t in p2p_warning_times(text, Checker(), name) if t > t0 - 60]
    budget = max(P2P_LOG_BURST - len(before), 0)
    prints = 0

    def ask(key):
        nonlocal budget, prints
        if not (p2pdma and truth[key]["warns"]):
            return status, kd(key)
        if budget:
            budget -= 1
            prints += 1
            return "answered", kd(key)
        return "withheld_log", "-"
    do_list = re.search(r"\bpa_p2p_do=(\S+)", facts.get("cmdline", ""))
    if do_list:
        devs = do_list.group(1).split(",")
        asked = [[c, *ask((devs[0], c))] for c in devs[1:]]
        many = "-"
        if p2pdma and all(st == "answered" for _, st, _ in asked):
            many = "-1" if any(d == "-1" for _, _, d in asked) else str(sum(int(d) for _, _, d in asked))
            first = next((a for a in asked if a[2] == "-1"), None)
            if first and len(asked) > 1 and truth[(devs[0], first[0])]["warns"]:
                if budget:
                    budget -= 1
                    prints += 1
                else:
                    first[1:] = ["withheld_log", "-"]
                    prints -= 1
                    many = "-"
        write("do-quiet.txt", [f"many op=do provider={devs[0]} clients={','.join(devs[1:])} kdist={many}"]
              + [p2p_line("do", devs[0], c, truth[(devs[0], c)], st, d) for c, st, d in asked]
              + [f"done op=do pairs={len(asked)} parts=1 rc=0"])
    quiet = [p2p_line("dump", p, c, truth[(p, c)], *ask((p, c))) for p, c in pairs]
    write("dump-quiet.txt", quiet + [f"done op=dump pairs={len(pairs)} parts=1 rc=0"])
    qlines = parse_p2p_klog(klogs.get("p2p-quiet", ""))["whitelist"]
    if prints != qlines:
        raise ValueError(f"the fixture's quiet kernel log has {qlines} warnings, "
                         f"a correct pcieaudit makes {prints}")


def _p2p_edit(name, pred, change):
    """A mutation of one pair line of p2p/NAME: the first matching PRED."""
    def mutate(results):
        path = os.path.join(results, "p2p", name)
        lines = read_text(path).splitlines()
        for i, line in enumerate(lines):
            f = line.split()
            if not f or f[0] != "pair":
                continue
            kv = dict(t.split("=", 1) for t in f[1:])
            if pred(kv):
                change(kv)
                lines[i] = "pair " + " ".join(f"{k}={v}" for k, v in kv.items())
                with open(path, "w", encoding="utf-8") as out:
                    out.write("\n".join(lines) + "\n")
                return
        raise LookupError(name)
    return mutate


def _p2p_klog_edit(piece, edit):
    """A mutation of a kernel log piece: EDIT(lines) -> lines."""
    def mutate(results):
        d = os.path.join(results, "klog")
        names = [n for n in os.listdir(d) if re.match(rf"^\d+-{piece}\.txt$", n)]
        if not names:
            raise LookupError(piece)
        path = os.path.join(d, names[0])
        lines = edit(read_text(path).splitlines())
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    return mutate


def _first(lines, pattern):
    for i, line in enumerate(lines):
        if re.search(pattern, line):
            return i
    raise LookupError(pattern)


def _p2p_mutations():
    """(name, kernel it applies to: "p2pdma", "stock" or None, mutation of a
    results directory); each must apply to some fixture, and fail there."""
    def setter(**kw):
        return lambda kv: kv.update(kw)

    def bump(key, by=1):
        return lambda kv: kv.update({key: str(int(kv[key]) + by)})

    def drop_hop(kv):
        kv["hops_p"] = kv["hops_p"].rsplit(",", 1)[0]

    def answered_refused(kv):
        kv.update(map="thru_host_bridge", host="whitelist", dist=kv["len"], kdist=kv["len"])

    def drop_line(results, name="dump-verbose.txt"):
        path = os.path.join(results, "p2p", name)
        lines = read_text(path).splitlines()
        del lines[len(lines) // 2]
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")

    def dup_line(results):
        path = os.path.join(results, "p2p", "dump-verbose.txt")
        lines = read_text(path).splitlines()
        lines.insert(1, lines[0])
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")

    def probe_failed(results):
        path = os.path.join(results, "p2p", "dump-verbose.txt")
        text = read_text(path).replace(" rc=0", " rc=22")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def many_sum(results):
        path = os.path.join(results, "p2p", "do-verbose.txt")
        text = read_text(path)
        m = re.search(r"^(many .* kdist=)(-1|\d+)$", text, re.M)
        if not m:
            raise LookupError("many")
        wrong = "0" if m.group(2) == "-1" else str(int(m.group(2)) + 1)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text[:m.start(2)] + wrong + text[m.end(2):])

    def many_on_stock(results):
        path = os.path.join(results, "p2p", "do-verbose.txt")
        text = read_text(path)
        m = re.search(r"^many .* kdist=(-)$", text, re.M)
        if not m:
            raise LookupError("many")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text[:m.start(1)] + "-1" + text[m.end(1):])

    def twice(lines):
        i = _first(lines, "ACS redirect is set")
        return lines[:i + 2] + lines[i:]

    def other_list(lines):
        i = _first(lines, "pci=disable_acs_redir=")
        lines[i] = re.sub(r"disable_acs_redir=\S+", "disable_acs_redir=0000:00:00.0", lines[i])
        return lines

    def unrefused(lines):
        del lines[_first(lines, "cannot be used for peer-to-peer DMA")]
        return lines

    def flood(lines):
        i = _first(lines, "Host bridge not in P2PDMA whitelist")
        return lines + [lines[i]] * P2P_LOG_BURST

    def warned(kv):
        return kv["path"] == "acs_redirect" and kv["map"] == "not_supported"

    return [
        ("p2p_dist", None, _p2p_edit("dump-verbose.txt", lambda kv: kv["map"] == "bus_addr",
                                     bump("dist"))),
        ("p2p_length", None, _p2p_edit("dump-verbose.txt", lambda kv: True, bump("len"))),
        ("p2p_map", None, _p2p_edit("dump-verbose.txt", lambda kv: kv["map"] == "not_supported",
                                    setter(map="thru_host_bridge"))),
        ("p2p_path", None, _p2p_edit("dump-verbose.txt", lambda kv: kv["path"] == "common_upstream",
                                     setter(path="acs_redirect"))),
        ("p2p_redirect_missing", "p2pdma", _p2p_edit("dump-verbose.txt",
                                                     lambda kv: kv["path"] == "acs_redirect",
                                                     setter(redirect="-"))),
        ("p2p_redirect_extra", None, _p2p_edit("dump-verbose.txt", lambda kv: kv["common"] != "-"
                                               and kv["redirect"] == "-",
                                               lambda kv: kv.update(redirect=kv["common"]))),
        ("p2p_common", None, _p2p_edit("dump-verbose.txt", lambda kv: kv["common"] != "-",
                                       lambda kv: kv.update(common=kv["client"]))),
        ("p2p_hops", None, _p2p_edit("dump-verbose.txt", lambda kv: "," in kv["hops_p"], drop_hop)),
        ("p2p_host_bridge", None, _p2p_edit("dump-verbose.txt", lambda kv: True,
                                            setter(hb_c="8086:2020"))),
        ("p2p_host_rule", None, _p2p_edit("dump-verbose.txt", lambda kv: kv["host"] == "refused",
                                          setter(host="whitelist"))),
        ("p2p_not_built_on_p2pdma", "p2pdma", _p2p_edit("dump-verbose.txt", lambda kv: True,
                                                        setter(kstatus="not_built", kdist="-", agree="-"))),
        ("p2p_answered_on_stock", "stock", _p2p_edit(
            "dump-verbose.txt", lambda kv: True, lambda kv: kv.update(kstatus="answered", agree="agree",
                                                                      kdist=kv["dist"]))),
        ("p2p_stub_verdict", "stock", _p2p_edit("dump-verbose.txt", lambda kv: True,
                                                setter(kdist="-1"))),
        ("p2p_kdist", "p2pdma", _p2p_edit("dump-verbose.txt", lambda kv: kv["kdist"] != "-1",
                                          bump("kdist", 2))),
        ("p2p_disagreement", "p2pdma", _p2p_edit("dump-verbose.txt",
                                                 lambda kv: kv["kstatus"] == "answered",
                                                 setter(agree="disagree"))),
        ("p2p_agreement_hidden", "p2pdma", _p2p_edit("dump-select.txt",
                                                     lambda kv: kv["kstatus"] == "answered",
                                                     setter(agree="-"))),
        ("p2p_agreement_without_answer", "stock", _p2p_edit(
            "dump-verbose.txt", lambda kv: True, setter(agree="agree"))),
        ("p2p_allowed_refused", "p2pdma", _p2p_edit("dump-verbose.txt",
                                                    lambda kv: kv["kdist"] == "-1", answered_refused)),
        ("p2p_pair_missing", None, drop_line),
        ("p2p_pair_twice", None, dup_line),
        ("p2p_intr", None, _p2p_edit("dump-verbose.txt", lambda kv: True, setter(intr="1"))),
        ("p2p_probe_failed", None, probe_failed),
        ("p2p_many_not_sum", "p2pdma", many_sum),
        ("p2p_many_on_stock", "stock", many_on_stock),
        ("p2p_do_pair", None, _p2p_edit("do-verbose.txt", lambda kv: True, bump("len"))),
        ("p2p_do_missing", None, lambda r: drop_line(r, "do-verbose.txt")),
        ("p2p_select_missing", None, lambda r: drop_line(r, "dump-select.txt")),
        ("p2p_select_pair", None, _p2p_edit("dump-select.txt", lambda kv: True, bump("len"))),
        ("p2p_quiet_withheld_needlessly", "p2pdma", _p2p_edit(
            "dump-quiet.txt", lambda kv: kv["kstatus"] == "answered" and not warned(kv),
            setter(kstatus="withheld_log", kdist="-", agree="-"))),
        ("p2p_quiet_answered_late", "p2pdma", _p2p_edit(
            "dump-quiet.txt", lambda kv: kv["kstatus"] == "withheld_log",
            setter(kstatus="answered", kdist="-1", agree="agree"))),
        ("p2p_quiet_wrong_answer", None, _p2p_edit("dump-quiet.txt", lambda kv: True, bump("dist"))),
        ("p2p_quiet_flood", "p2pdma", _p2p_klog_edit("p2p-quiet", flood)),
        ("p2p_kernel_asked_twice", "p2pdma", _p2p_klog_edit("p2p-verbose", twice)),
        ("p2p_kernel_other_list", "p2pdma", _p2p_klog_edit("p2p-verbose", other_list)),
        ("p2p_kernel_did_not_refuse", "p2pdma", _p2p_klog_edit("p2p-verbose", unrefused)),
    ]


# The P2P mutations that found something to mutate in some fixture.
P2P_APPLIED = set()


def make_fixture(results, fixture):
    """Store a run's independent data (never its report) as the self-test
    fixture; configuration space is trimmed of trailing zero bytes."""
    if os.path.exists(fixture):
        shutil.rmtree(fixture)
    os.makedirs(fixture)
    facts = read_kv(os.path.join(results, "facts.txt"))
    with open(os.path.join(fixture, "facts.txt"), "w", encoding="utf-8") as f:
        for k in ("scenario", "kernel", "cmdline", "vfio_bdf", "vfio_group", "vfio_driver",
                  "cpu_vendor", "cpu_family", "p2pdma_kallsyms", "p2p_quiet_start",
                  "p2p_quiet_end"):
            if k in facts:
                f.write(f"{k}={facts[k]}\n")
        f.write("finished=1\n")
    shutil.copy(os.path.join(results, "acs_change.txt"), fixture)
    # The kernel log is trimmed to the IOMMU core's lines, which the oracle reads.
    with open(os.path.join(fixture, "dmesg.txt"), "w", encoding="utf-8") as f:
        for line in read_text(os.path.join(results, "dmesg.txt")).splitlines():
            if "] iommu: " in line:
                f.write(line + "\n")
    # The kernel's P2PDMA lines and its ACS configuration of each piece.
    if os.path.isdir(os.path.join(results, "klog")):
        os.makedirs(os.path.join(fixture, "klog"))
        for name in sorted(os.listdir(os.path.join(results, "klog"))):
            if name.endswith("-p2p-do.txt"):
                continue  # verbose do requests; nothing reads them
            with open(os.path.join(fixture, "klog", name), "w", encoding="utf-8") as f:
                for line in read_text(os.path.join(results, "klog", name)).splitlines():
                    m = KMSG_RE.match(line.strip())
                    if m and any(r.match(m.group(2)) for r in (K_ACS, K_HINT, K_REFUSE, K_WHITELIST,
                                                               K_ACS_DISABLED, K_ACS_CONFIGURED)):
                        f.write(line + "\n")
    for tag in SNAPSHOTS + ("p2p",):
        if not os.path.isdir(os.path.join(results, tag)):
            continue
        os.makedirs(os.path.join(fixture, tag))
        names = ("sysfs.tsv",) if tag == "p2p" else \
            ("lspci.txt", "lspci-mm.txt", "sysfs.tsv", "groups.tsv")
        for name in names:
            shutil.copy(os.path.join(results, tag, name), os.path.join(fixture, tag))
        with open(os.path.join(fixture, tag, "config.hex"), "w", encoding="utf-8") as out:
            for line in read_text(os.path.join(results, tag, "config.hex")).splitlines():
                bdf, hexstr = line.split()
                out.write(f"{bdf} {re.sub('(00)*$', '', hexstr)}\n")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--results", help="a run's results directory")
    ap.add_argument("--expect", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--allow-missing", action="store_true",
                    help="module/CLI absent: check only the independent data")
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--fixture", action="append",
                    help="a fixture directory (default: every one under tests/fixtures/vm-runs/)")
    ap.add_argument("--make-fixture", action="store_true",
                    help="store --results' independent data as the --fixture")
    args = ap.parse_args()

    if args.make_fixture:
        if not args.results:
            ap.error("--make-fixture needs --results")
        if not args.fixture or len(args.fixture) != 1:
            ap.error("--make-fixture needs one --fixture DIR")
        make_fixture(args.results, args.fixture[0])
        return 0

    if args.selftest:
        fixtures = args.fixture or sorted(
            os.path.join(VM_RUNS, d) for d in os.listdir(VM_RUNS))
        ok = True
        for fx in fixtures:
            print(f"selftest: fixture {os.path.relpath(fx, here)}")
            ok = selftest(fx) and ok
        ok = dump_selftest() and ok
        ok = p2p_pair_selftest() and ok
        ok = kernel_wording_selftest() and ok
        ok = vfio_host_selftest() and ok
        ok = text_block_selftest() and ok
        if not args.fixture:
            for name in sorted({n for n, _, _ in _p2p_mutations()} - P2P_APPLIED):
                ok = False
                print(f"selftest FAIL: {name}: no fixture has anything to mutate")
        print("selftest:", "PASS" if ok else "FAIL")
        return 0 if ok else 1
    if not args.results:
        ap.error("--results or --selftest")
    expects = {}
    for e in args.expect:
        k, _, v = e.partition("=")
        expects[k] = v
    errs = judge(args.results, expects, args.allow_missing)
    for e in errs:
        print("DIFF", e)
    print("oracle:", "FAIL" if errs else "PASS")
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
