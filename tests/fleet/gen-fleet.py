#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Writes a fleet of report --json snapshots for `pcieaudit-cli fleet`.

gen-fleet.py DIR [--hosts N] [--outliers K]

Three kinds of host of FUNCS functions each (an 8-GPU training node, a
4-GPU inference node, a storage node), N hosts in all (half, 3/10 and 1/5),
every tenth one gzipped. K of them carry one planted difference, cycling
through: a GPU (NVMe drive on the storage kind) removed with every later
bus number shifted down, a link trained at x8, ACS control changed on one
downstream port, the IOMMU in passthrough, a NIC moved to a free port of
another root port. DIR/planted.txt (not *.json: fleet would read it) lists them: {host: [what, slot]}, the
oracle the test holds fleet's output to. Python 3 standard library only.
"""

import copy
import gzip
import json
import os
import sys

FUNCS = 300
LINK16 = {"lnkcap": 0x104, "lnksta": 0x104, "lnkctl2": None}   # Gen4 x16
ACS_CAP, ACS_CTRL = 0x5f, 0x1d

KINDS = {
    # name: (root ports, per root port: list of endpoints (None: free port),
    #        endpoint models, uncore vendor)
    "train": {"rps": 4, "slots": ["gpu", "nic", "gpu", None],
              "gpu": (0x10de, 0x2330, 0x030200), "nic": (0x15b3, 0x1021, 0x020700),
              "cpu": (0x8086, 0x3456)},
    "infer": {"rps": 2, "slots": ["gpu", "gpu", "nic", None],
              "gpu": (0x1002, 0x74a1, 0x038000), "nic": (0x14e4, 0x1750, 0x020000),
              "cpu": (0x1022, 0x14a4)},
    "store": {"rps": 4, "slots": ["nvme", "nvme", "nic", None],
              "nvme": (0x144d, 0xa824, 0x010802), "nic": (0x8086, 0x1592, 0x020000),
              "cpu": (0x8086, 0x09a2)},
}


def bdf(bus, dev, fn=0):
    return "0000:%02x:%02x.%x" % (bus, dev, fn)


def dev(addr, ids, ptype, upstream, group, link=True, acs=False, secondary=None):
    vendor, device, klass = ids
    return {
        "bdf": addr, "vendor": vendor, "device": device, "class": klass,
        "pcie_type": ptype, "bridge": secondary is not None,
        "secondary_bus": secondary, "upstream": upstream, "numa_node": 0,
        "driver": None,
        "acs": {"pos": 0x220, "cap": ACS_CAP, "ctrl": ACS_CTRL, "ctrl_at_load": ACS_CTRL} if acs else None,
        "link": dict(LINK16) if link else None,
        "iommu": {"group": group, "default_domain": "DMA", "default_domain_source": "kernel",
                  "domain": "DMA", "instance": "dmar0"},
    }


def build(kind):
    """The kind's snapshot, and where its endpoints sit: [(kind, bdf)]."""
    k = KINDS[kind]
    devs, where, group = [], [], [1]

    def g():
        group[0] += 1
        return group[0]
    bus = 1
    for rp in range(k["rps"]):
        rp_bdf = bdf(0, 1 + rp)
        usp_bus = bus
        dsp_bus = bus + 1
        devs.append(dev(rp_bdf, (0x8086, 0x352a, 0x060400), "root_port", None, g(), acs=True, secondary=usp_bus))
        devs.append(dev(bdf(usp_bus, 0), (0x1000, 0xc030, 0x060400), "upstream_port", rp_bdf, g(), secondary=dsp_bus))
        bus = dsp_bus + 1
        for i, what in enumerate(k["slots"]):
            dsp = bdf(dsp_bus, i)
            devs.append(dev(dsp, (0x1000, 0xc030, 0x060400), "downstream_port", bdf(usp_bus, 0), g(),
                            acs=True, secondary=bus))
            if what:
                devs.append(dev(bdf(bus, 0), k[what], "endpoint", dsp, g()))
                where.append((what, bdf(bus, 0)))
            bus += 1
    # The uncore's functions on root buses 0xfe and 0xff pad the host to FUNCS.
    n = FUNCS - len(devs)
    for i in range(n):
        devs.append(dev(bdf(0xfe + i // 256, i // 8 % 32, i % 8), k["cpu"] + (0x088000,), "rc_endpoint",
                        None, 1, link=False))
    devs.sort(key=lambda d: d["bdf"])
    snap = {
        "schema_version": 1,
        "info": {"module_version": "0.1.0", "kernel_release": "6.8.0-45-generic",
                 "features": {"p2pdma": True, "iommu_api": True, "iommu_present": True,
                              "pci_iov": True, "pci_ats": True},
                 "iommu_default_mode": "translated", "iommu_strict": "lazy",
                 "device_count": len(devs), "group_count": group[0]},
        "devices": devs, "groups": None, "p2p": None,
        "host": {"source": "module", "cmdline": "ro quiet", "numa_nodes": 1,
                 "cpu_vendor": "GenuineIntel", "cpu_family": 6, "hypervisor": False,
                 "iommu_table": "DMAR"},
    }
    return snap, where


def slot_path(snap, addr):
    by = {d["bdf"]: d for d in snap["devices"]}
    parts, d = [], by[addr]
    while True:
        parts.append(d["bdf"][-4:])
        if not d["upstream"]:
            break
        d = by[d["upstream"]]
    return "pci%s/%s" % (d["bdf"][:7], "/".join(reversed(parts)))


def shift_bus(snap, gone_bus):
    """Every bus number above gone_bus one lower, as a renumbering BIOS."""
    def fix(a):
        if a is None:
            return None
        b = int(a[5:7], 16)
        return a if b <= gone_bus or b >= 0xfe else "%s%02x%s" % (a[:5], b - 1, a[7:])
    for d in snap["devices"]:
        d["bdf"] = fix(d["bdf"])
        d["upstream"] = fix(d["upstream"])
        sb = d["secondary_bus"]
        if sb is not None and gone_bus < sb < 0xfe:
            d["secondary_bus"] = sb - 1


def plant(snap, where, kind, n):
    """The n-th planted difference: (what, slot path)."""
    s = copy.deepcopy(snap)
    by = {d["bdf"]: d for d in s["devices"]}
    first = [w for w in where if w[0] in ("gpu", "nvme")]
    nics = [w for w in where if w[0] == "nic"]
    which = n % 5
    if which == 0:                       # a GPU (or drive) gone, buses shifted
        addr = first[n % len(first)][1]
        path = slot_path(s, addr)
        s["devices"].remove(by[addr])
        shift_bus(s, int(addr[5:7], 16))
        return s, ["missing", path]
    if which == 1:                       # a link at x8
        addr = first[(n + 1) % len(first)][1]
        by[addr]["link"]["lnksta"] = 0x84
        return s, ["link", slot_path(s, addr)]
    if which == 2:                       # ACS control changed on one port
        dsp = by[by[first[0][1]]["upstream"]]
        dsp["acs"]["ctrl"] = 0x11
        return s, ["acs", slot_path(s, dsp["bdf"])]
    if which == 3:                       # the IOMMU in passthrough
        s["info"]["iommu_default_mode"] = "passthrough"
        return s, ["iommu", None]
    # A NIC moved to the free port (last downstream port) of the next root port.
    nic = by[nics[0][1]]
    old = slot_path(s, nic["bdf"])
    rp_of = {}
    for d in s["devices"]:
        if d["pcie_type"] == "downstream_port":
            rp_of.setdefault(by[d["upstream"]]["upstream"], []).append(d)
    rps = sorted(rp_of)
    here = by[by[nic["upstream"]]["upstream"]]["upstream"]
    target = rp_of[rps[(rps.index(here) + 1) % len(rps)]][-1]
    nic["bdf"] = bdf(target["secondary_bus"], 0)
    nic["upstream"] = target["bdf"]
    s["devices"].sort(key=lambda d: d["bdf"])
    return s, ["moved", slot_path(s, nic["bdf"]), old]


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    out, hosts, outliers = args[0], 1000, 20
    if "--hosts" in args:
        hosts = int(args[args.index("--hosts") + 1])
    if "--outliers" in args:
        outliers = int(args[args.index("--outliers") + 1])
    os.makedirs(out, exist_ok=True)
    kinds = ["train"] * (hosts // 2) + ["infer"] * (hosts * 3 // 10)
    kinds += ["store"] * (hosts - len(kinds))
    built = {k: build(k) for k in KINDS}
    text = {k: json.dumps(v[0], separators=(",", ":")).encode() for k, v in built.items()}
    # Outliers spread over the fleet, never a group's first host.
    step = hosts // max(outliers, 1)
    planted, chosen = {}, {1 + i * step + step // 2 for i in range(outliers)}
    for i, kind in enumerate(kinds):
        name = "host-%04d.json" % i
        data = text[kind]
        if i in chosen:
            snap, what = plant(built[kind][0], built[kind][1], kind, len(planted))
            data = json.dumps(snap, separators=(",", ":")).encode()
            planted[name + (".gz" if i % 10 == 0 else "")] = what
        if i % 10 == 0:
            with gzip.open(os.path.join(out, name + ".gz"), "wb", compresslevel=1) as f:
                f.write(data)
        else:
            with open(os.path.join(out, name), "wb") as f:
                f.write(data)
    with open(os.path.join(out, "planted.txt"), "w") as f:
        json.dump(planted, f, indent=1)


if __name__ == "__main__":
    main()
