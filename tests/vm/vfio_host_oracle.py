"""check's vfio host rules (vfio.no-reset, vfio.sriov-resources,
vfio.bar-below-4g, vfio.ids-not-bound) against what the guest's kernel
itself says: the sysfs reset attribute, which the kernel makes visible only
where it has a reset method; sriov_numvfs refusing a write; the BAR
addresses the kernel assigned; the driver the kernel bound a device named
by vfio-pci.ids= to; and, from raw configuration space (not pcieaudit's
decoder), the SR-IOV capability's VF routing IDs and the port's ARI
Forwarding Enable bit.

The rules' thresholds are the policy's own (docs/check.md): a large BAR is
256 MiB or more; more VFs than device 0's functions hold need ARI."""

import re
from collections import Counter

LARGE_BAR = 256 << 20
IORESOURCE_PREFETCH = 0x2000
IORESOURCE_MEM_64 = 0x100000
BDF = re.compile(r"^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$")
RULES = {
    "vfio.no-reset": "warn",
    "vfio.sriov-resources": "fail",
    "vfio.bar-below-4g": "warn",
    "vfio.ids-not-bound": "fail",
}


def _int(s, base=16):
    try:
        return int(s, base)
    except (TypeError, ValueError):
        return None


def _kind(cls):
    """The classes check's vfio profile selects by default (topo.c)."""
    return (cls >> 16 in (0x02, 0x03, 0x12) or cls >> 8 == 0x0b40 or
            cls == 0x010802)


def candidates(sysfs):
    out = []
    for bdf, s in sysfs.items():
        cls = _int(s.get("class"))
        hdr = _int(s.get("hdr_type"))
        if cls is None or hdr is None or hdr & 0x7F == 1:
            continue
        if (_kind(cls) and "physfn" not in s) or s.get("driver") == "vfio-pci":
            out.append(bdf)
    return out


def no_reset(sysfs):
    """Candidates the kernel has no reset for that VFIO can use: no reset
    attribute, and no bus reset that resets only the function's own group
    (a root bus has none)."""
    flagged = set()
    for bdf in candidates(sysfs):
        s = sysfs[bdf]
        if s.get("reset") == "yes":
            continue
        parent = s.get("parent", "")
        sibs = [o for o, t in sysfs.items() if o != bdf and t.get("parent") == parent]
        if not BDF.match(parent) or not sibs or any(
                sysfs[o].get("iommu_group") is None or
                sysfs[o].get("iommu_group") != s.get("iommu_group") for o in sibs):
            flagged.add(bdf)
    return flagged


def _devfn(bdf):
    dev, fn = bdf.rsplit(":", 1)[1].split(".")
    return int(dev, 16) << 3 | int(fn)


def sriov_resources(sysfs, config, facts):
    """PFs whose VFs the kernel refused (sriov_numvfs failed), and PFs whose
    last VF lies beyond device 0 below a port with ARI Forwarding off: one
    finding for each reason."""
    flagged = Counter()
    for bdf in candidates(sysfs):
        if (_int(sysfs[bdf].get("sriov_totalvfs"), 10) or 0) <= 0:
            continue
        if facts.get(f"sriov_{bdf}") == "failed":
            flagged[bdf] += 1
        cfg = config.get(bdf)
        pos = cfg.ecap(0x10) if cfg else None
        if pos is None:
            continue
        total, offset, stride = cfg.r16(pos + 0x0E), cfg.r16(pos + 0x14), cfg.r16(pos + 0x16)
        if not total:
            continue
        last = _devfn(bdf) + (offset + stride * (total - 1) if offset else total)
        port = config.get(sysfs[bdf].get("parent", ""))
        exp = port.cap(0x10) if port else None
        if last <= 7 or exp is None or (port.r16(exp + 2) >> 4 & 0xF) not in (4, 6):
            continue
        if not port.r16(exp + 0x28) & 0x20:
            flagged[bdf] += 1
    return flagged


def bar_below_4g(sysfs):
    """Candidates with a large 64-bit prefetchable BAR the kernel placed
    below 4 GiB or could not place: one finding for each BAR."""
    flagged = Counter()
    for bdf in candidates(sysfs):
        for line in sysfs[bdf].get("resource", "").split(";")[:6]:
            parts = [_int(x) for x in line.split()]
            if len(parts) != 3 or None in parts:
                continue
            start, end, flags = parts
            if not (flags & IORESOURCE_MEM_64 and flags & IORESOURCE_PREFETCH):
                continue
            if end - start + 1 >= LARGE_BAR and (start == 0 or end < 1 << 32):
                flagged[bdf] += 1
    return flagged


def cmdline_ids(cmdline):
    """vfio-pci.ids= of the kernel command line (the last wins), as
    (vendor, device, subvendor, subdevice) with None for any."""
    value = None
    for arg in cmdline.split():
        key, _, val = arg.partition("=")
        if key.replace("-", "_") == "vfio_pci.ids":
            value = val
    ids = []
    for item in (value or "").split(","):
        f = [_int(x) for x in item.split(":")]
        if len(f) >= 2 and None not in f:
            ids.append((f + [None, None])[:4])
    return ids


def ids_not_bound(sysfs, cmdline):
    flagged = set()
    ids = cmdline_ids(cmdline)
    for bdf, s in sysfs.items():
        have = [_int(s.get(k)) for k in ("vendor", "device", "subsystem_vendor", "subsystem_device")]
        named = any(all(w is None or w == h for w, h in zip(i, have)) for i in ids)
        if named and s.get("driver") not in (None, "vfio-pci"):
            flagged.add(bdf)
    return flagged


def expected(sysfs, config, facts):
    """{rule: Counter of the BDFs its findings must name first}."""
    return {
        "vfio.no-reset": Counter(no_reset(sysfs)),
        "vfio.sriov-resources": sriov_resources(sysfs, config, facts),
        "vfio.bar-below-4g": bar_below_4g(sysfs),
        "vfio.ids-not-bound": Counter(ids_not_bound(sysfs, facts.get("cmdline", ""))),
    }


def judge(check, sysfs, config, groups, facts):
    """[(rule, message)] where check --profile vfio's JSON differs from the
    kernel's answer; with no IOMMU every vfio rule must be skipped."""
    errs = []
    status = {r.get("id"): r.get("status") for r in check.get("rules", [])}
    named = {}
    for f in check.get("findings", []):
        if f.get("id") in RULES and f.get("devices"):
            named.setdefault(f["id"], Counter())[f["devices"][0]] += 1
    if not groups:
        for rule in RULES:
            if status.get(rule) != "skip":
                errs.append((rule, f"{status.get(rule)} with no IOMMU groups (want skip)"))
        return errs
    for rule, want_set in expected(sysfs, config, facts).items():
        want = RULES[rule] if want_set else "pass"
        if status.get(rule) != want:
            errs.append((rule, f"{status.get(rule)}, but the kernel's facts give {want}"
                         + (f" for {', '.join(sorted(want_set))}" if want_set else "")))
        got = named.get(rule, Counter())
        if got != want_set:
            errs.append((rule, f"names {sorted(got.elements())}; the kernel's facts name "
                         f"{sorted(want_set.elements())}"))
    return errs
