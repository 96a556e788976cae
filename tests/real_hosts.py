#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Hold pcieaudit-cli --lspci to the real GPU hosts' nvidia-bug-report logs.

The logs lie in ../shared/fixtures/real-gpu-hosts (its README lists them);
they are read from there, never copied in. Each log is its own oracle: the
hex rows say how much configuration space each function came with (less
than 256 bytes of extended space: its ACS is unknown), the `lspci -v` text
what the kernel said of each function (NUMA node, IOMMU group, in the
Flags line or on their own lines), and `lspci -nn`'s ids which functions
are NVIDIA's display controllers. Then, on each log:

  report --json       every NUMA node and IOMMU group the -v text prints
                      is the function's numa_node and iommu.group, and a
                      NUMA node it does not print is null; its region
                      sizes ([size=], with or without "Region N:") are
                      the function's BAR sizes;
  topo --all --json   no pair is direct (map bus-addr) with a function on
                      its path whose ACS is unknown, none NODE without
                      both NUMA nodes known and equal; GPUn are NVIDIA's
                      display functions in bus order, no other function is
                      a GPUn;
  check --format json no FAIL names a function whose ACS is unknown (or a
                      bridge that is not in the capture), no pair below
                      a common bridge is said to cross the root complex,
                      and no gpudirect finding names a display function
                      that is not NVIDIA's or AMD's (a BMC's VGA);
  the -vvv text alone the log without its hex rows (plain lspci -vvv, as
                      the machine's own lspci printed it) reads as the hex
                      does, field by field: ids, class, type, bridges,
                      driver, NUMA, IOMMU group, BARs with their sizes and
                      Resizable BAR, MPS/MRRS/RlxdOrd, link, ACS, ATS (the
                      extended ones only where the hex has 4096 bytes).

    real_hosts.py [--cli PATH]

Prints one line per log and "N passed, N failed"; exits 1 on a difference
and 77 (skipped) when the shared folder is absent. Python 3 standard
library only.
"""

import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
LOGS = os.path.join(TOP, "..", "shared", "fixtures", "real-gpu-hosts")

HEADER = re.compile(r"^(?:([0-9a-f]{4,8}):)?([0-9a-f]{2}):([0-9a-f]{2})\.([0-7])\s+(.*)$")
HEX = re.compile(r"^([0-9a-f]{2,3}):((?: [0-9a-f]{2}){16})\s*$")
NUMA = re.compile(r"(?:^Flags:.*\bNUMA node (\d+)|^NUMA node:\s*(\d+))")
IOMMU = re.compile(r"(?:^Flags:.*\bIOMMU group (\d+)|^IOMMU group:\s*(\d+))")
REGION = re.compile(r"^(?:Region \d+: )?(?:Memory|I/O ports) at .*\[size=(\d+)([KMGT]?)\]")
NN_IDS = re.compile(r"\[([0-9a-f]{4})\]: .*\[([0-9a-f]{4}):([0-9a-f]{4})\]")


def bdf(m):
    return "%s:%s:%s.%s" % (m.group(1) or "0000", m.group(2), m.group(3), m.group(4))


class Log:
    """What the log itself says of each function."""

    def __init__(self, path):
        with gzip.open(path, "rt", errors="replace") as f:
            text = f.read()
        self.extent = {}    # bdf -> bytes of configuration space in hex rows
        self.config = {}    # bdf -> {offset: byte} of those rows
        self.numa = {}      # bdf -> node the -v text prints
        self.iommu = {}     # bdf -> group the -v text prints
        self.ids = {}       # bdf -> (class, vendor) of lspci -nn
        self.sizes = {}     # bdf -> sorted region sizes of the -v text
        cur = None
        for raw in text.splitlines():
            line = raw.strip()
            m = HEADER.match(raw)
            if m:
                cur = bdf(m)
                ids = NN_IDS.search(m.group(5))
                if ids:
                    self.ids[cur] = (int(ids.group(1), 16), int(ids.group(2), 16))
                continue
            if cur is None:
                continue
            h = HEX.match(line)
            if h:
                off = int(h.group(1), 16)
                self.extent[cur] = max(self.extent.get(cur, 0), off + 16)
                cfg = self.config.setdefault(cur, {})
                for i, byte in enumerate(h.group(2).split()):
                    cfg[off + i] = int(byte, 16)
                continue
            if not line:
                continue
            r = REGION.match(line)
            if r:
                size = int(r.group(1)) << (10 * ("KMGT".index(r.group(2)) + 1) if r.group(2) else 0)
                self.sizes.setdefault(cur, []).append(size)
                continue
            n = NUMA.search(line)
            if n:
                self.numa[cur] = int(n.group(1) or n.group(2))
            g = IOMMU.search(line)
            if g:
                self.iommu[cur] = int(g.group(1) or g.group(2))

    def pcie(self, b):
        """A PCI Express capability in the standard list: extended space
        (and ACS in it) exists."""
        cfg = self.config.get(b, {})
        if not cfg.get(0x06, 0) & 0x10:
            return False
        pos, seen = cfg.get(0x34, 0) & 0xfc, set()
        while pos and pos not in seen and pos + 1 in cfg:
            seen.add(pos)
            if cfg[pos] == 0x10:
                return True
            pos = cfg[pos + 1] & 0xfc
        return False

    def acs_known(self, b):
        """Its hex rows hold what ACS lives in: extended space, or none
        to hold (conventional PCI). Not captured: unknown."""
        if b not in self.config:
            return False
        return self.extent[b] > 256 or not self.pcie(b)


def open_text(path):
    with gzip.open(path, "rt", errors="replace") as f:
        return f.read()


def run_json(cli, *args):
    p = subprocess.run([cli, *args], capture_output=True, text=True)
    if p.returncode not in (0, 1, 8):   # check: findings, warnings
        raise RuntimeError(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def path_of(pair):
    out = [pair["a"], pair["b"], *pair.get("hops_a", []), *pair.get("hops_b", [])]
    if pair.get("common"):
        out.append(pair["common"])
    return out


def check_log(cli, path, errs):
    log = Log(path)
    name = os.path.basename(path).split(".")[0]

    rep = run_json(cli, "report", "--json", "--lspci", path)
    devs = {d["bdf"]: d for d in rep["devices"]}
    for b, node in sorted(log.numa.items()):
        if b in devs and devs[b].get("numa_node") != node:
            errs.append(f"{name}: {b}: the -v text prints NUMA node {node}, "
                        f"report says {devs[b].get('numa_node')}")
    for b, group in sorted(log.iommu.items()):
        got = (devs.get(b, {}).get("iommu") or {}).get("group")
        if b in devs and got != group:
            errs.append(f"{name}: {b}: the -v text prints IOMMU group {group}, report says {got}")
    for b, d in devs.items():
        if b not in log.numa and d.get("numa_node") is not None:
            errs.append(f"{name}: {b}: no NUMA node in the log, report says {d['numa_node']}")
    for b, sizes in sorted(log.sizes.items()):
        got = sorted(bar["size"] for bar in (devs.get(b, {}).get("bars") or []))
        if b in devs and got != sorted(sizes):
            errs.append(f"{name}: {b}: the -v text sizes its regions {sorted(sizes)}, report {got}")
    for b in set(log.numa) | set(log.iommu):
        if b not in devs:
            errs.append(f"{name}: {b}: the -v text shows it, report lacks it")

    topo = run_json(cli, "topo", "--all", "--json", "--lspci", path)
    for p in topo["p2p"]:
        unknown = [b for b in path_of(p) if not log.acs_known(b)]
        if p.get("map") == "bus-addr" and unknown:
            errs.append(f"{name}: {p['a']} -> {p['b']} direct with ACS unknown at {unknown[0]}")
    for p in topo["p2p"]:
        na, nb = log.numa.get(p["a"]), log.numa.get(p["b"])
        if p.get("legend") == "NODE" and (na is None or na != nb):
            errs.append(f"{name}: {p['a']} -> {p['b']} NODE with NUMA nodes {na} and {nb}")
    gpus = sorted((b for b, (cls, ven) in log.ids.items()
                   if cls >> 8 == 0x03 and ven == 0x10de and b in devs))
    labels = {d["bdf"]: d["label"] for d in topo["devices"]}
    want = {b: f"GPU{i}" for i, b in enumerate(gpus)}
    for b, label in labels.items():
        if label.startswith("GPU") and want.get(b) != label:
            errs.append(f"{name}: {b} is {label}, nvidia-smi's numbering says {want.get(b)}")
    for b, label in want.items():
        if labels.get(b) not in (None, label):
            errs.append(f"{name}: {b} is {labels.get(b)}, nvidia-smi's numbering says {label}")

    texts = 0
    if any(v > 64 for v in log.extent.values()) and re.search(r"lspci -[a-zA-Z]*vvv", open_text(path)):
        texts = same_as_hex(cli, path, rep, errs)

    chk = run_json(cli, "check", "--format", "json", "--lspci", path)
    common = {(p["a"], p["b"]): p.get("common") for p in topo["p2p"]}
    for f in chk["findings"]:
        # The root complex is crossed only without a common bridge.
        if f["id"] == "gpudirect.p2p-unknown" and common.get(tuple(f["devices"][:2])):
            errs.append(f"{name}: {f['id']} says {f['devices'][0]} -> {f['devices'][1]} "
                        f"crosses the root complex, below common bridge "
                        f"{common[tuple(f['devices'][:2])]}")
        # A BMC's VGA is a display function but nobody's GPU.
        if f["id"].startswith("gpudirect."):
            for b in f["devices"]:
                cls, ven = log.ids.get(b, (0, 0))
                if cls >> 8 == 0x03 and ven not in (0x10de, 0x1002):
                    errs.append(f"{name}: {f['id']} names {b}, a display function "
                                f"of vendor {ven:04x}, as a GPU")
        if f["severity"] != "fail":
            continue
        unknown = [b for b in f["devices"] if b in devs and not log.acs_known(b)
                   and devs[b].get("bridge")]
        if unknown:
            errs.append(f"{name}: {f['id']} FAILs naming {unknown[0]}, whose ACS is unknown")
    return name, len(log.numa), len(log.iommu), len(topo["p2p"]), texts


def strip_hex(path, tmp):
    """The log without its hex rows: the plain lspci -vvv text a user
    pastes, printed by the machine's own lspci."""
    with gzip.open(path, "rt", errors="replace") as f:
        text = f.read()
    out = os.path.join(tmp, os.path.basename(path).replace(".gz", ".txt"))
    with open(out, "w") as f:
        f.write("".join(l for l in text.splitlines(True) if not HEX.match(l.strip())))
    return out


def same_as_hex(cli, path, rep, errs):
    """The log's -vvv text, read without the hex, against the hex: every
    field lspci's text decodes (Region sizes and Resizable BAR included)."""
    name = os.path.basename(path).split(".")[0]
    hexd = {d["bdf"]: d for d in rep["devices"]}
    with tempfile.TemporaryDirectory() as tmp:
        try:
            text = {d["bdf"]: d for d in run_json(cli, "report", "--json", "--lspci",
                                                    strip_hex(path, tmp))["devices"]}
        except RuntimeError as e:
            errs.append(f"{name} text: refused: {str(e)[:120]}")
            return 0
    n = 0
    for b, h in sorted(hexd.items()):
        t = text.get(b)
        if t is None or not h.get("config_captured", True):
            continue
        n += 1
        # A log of lspci -xxx's 256 bytes, its -vvv text printed from
        # all 4096: the text knows the extended capabilities the hex
        # does not (ACS, ATS, Resizable BAR). Those are held where the
        # hex has them.
        short = h.get("pcie_type") is not None and not h.get("extended_config_read")
        if short:
            for d in (t, h):
                for bar in d.get("bars") or []:
                    bar.pop("resizable", None)
        for k in ("vendor", "device", "subsystem_vendor", "subsystem_device", "class",
                  "revision", "pcie_type", "bridge", "secondary_bus", "upstream", "driver",
                  "numa_node", "iommu", "bars", "pcie_device"):
            if t.get(k) != h.get(k):
                errs.append(f"{name} text: {b}: {k}: text {t.get(k)!r}, hex {h.get(k)!r}")
        for k in ("speed", "width", "max_speed", "max_width", "target_speed"):
            if (t.get("link") or {}).get(k) != (h.get("link") or {}).get(k):
                errs.append(f"{name} text: {b}: link.{k}: text {(t.get('link') or {}).get(k)!r}, "
                            f"hex {(h.get('link') or {}).get(k)!r}")
        if short:
            continue
        if h.get("extended_config_read") and not t.get("extended_config_read") \
                and h.get("acs") is None:
            continue    # 4096 bytes without a capability: unknown from text
        ta, ha = t.get("acs"), h.get("acs")
        if (ta and (ta["pos"], ta["cap"] & 0x7f, ta["ctrl"] & 0x7f)) != \
                (ha and (ha["pos"], ha["cap"] & 0x7f, ha["ctrl"] & 0x7f)):
            errs.append(f"{name} text: {b}: acs: text {ta}, hex {ha}")
        if t.get("ats") != h.get("ats"):
            errs.append(f"{name} text: {b}: ats: text {t.get('ats')}, hex {h.get('ats')}")
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default=os.path.join(TOP, "user", "pcieaudit-cli"))
    args = ap.parse_args()
    if not os.path.isdir(LOGS):
        print(f"real_hosts: {LOGS} absent: skipped")
        return 77
    passed = failed = 0
    for f in sorted(os.listdir(LOGS)):
        if not f.endswith(".log.gz"):
            continue
        errs = []
        name, numa, iommu, pairs, texts = check_log(args.cli, os.path.join(LOGS, f), errs)
        kinds = {}
        for e in errs:
            k = re.sub(r"[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]|\b\d+\b", "X", e.split(": ", 1)[1])
            kinds[k] = kinds.get(k, 0) + 1
        for k, n in sorted(kinds.items()):
            print(f"  {n:5} x  {k}")
        for e in errs[:20]:
            print(f"  DIFFERS  {e}")
        if len(errs) > 20:
            print(f"  ... and {len(errs) - 20} more")
        print(f"{'FAIL' if errs else 'ok  '}  {name}: {numa} NUMA nodes, {iommu} IOMMU groups "
              f"from the -v text; {pairs} pairs; {texts} functions read from the -vvv "
              f"text alone equal the hex")
        failed += bool(errs)
        passed += not errs
    print(f"real_hosts: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
