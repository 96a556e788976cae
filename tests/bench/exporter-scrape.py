#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Scrape latency of pcieaudit-cli exporter at N functions, on the host.

    exporter-scrape.py [N] [SCRAPES]

Builds a sysfs fixture of N functions (default 1024) from the H200 guest
fixture's 0000:00:07.0, each on its own root bus and with class 0x0c0330
(a USB controller, which topo's default selection and so the P2P matrix
leave out: this measures collection, check and rendering, not a matrix of
1024 x 1024 pairs), serves it with --sysfs, scrapes it SCRAPES times (20)
one after another and prints the median and the maximum, and the
collection's own duration (pcieaudit_collect_duration_seconds), which a
scrape no longer waits for. The module path (netlink instead of sysfs
files) is measured in make bench's guests (bench-init.sh's exporter
phase). Part of make bench, not of make check.
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "exporter"))
import exporter_client as ec  # noqa: E402

SRC = os.path.join(ec.FIXTURES, "h200-vm-guest", "devices", "0000:00:07.0")


def build(root, n):
    devs = os.path.join(root, "devices")
    os.makedirs(devs)
    for i in range(n):
        bus, dev = 0x10 + i // 32, i % 32
        bdf = "0000:%02x:%02x.0" % (bus, dev)
        d = os.path.join(devs, bdf)
        shutil.copytree(SRC, d)
        for name in os.listdir(d):
            os.chmod(os.path.join(d, name), 0o644)
        with open(os.path.join(d, "sysfs_path"), "w") as f:
            f.write("pci0000:%02x/%s\n" % (bus, bdf))
        with open(os.path.join(d, "class"), "w") as f:
            f.write("0x0c0330\n")
        with open(os.path.join(d, "config"), "r+b") as f:
            f.seek(9)
            f.write(bytes([0x30, 0x03, 0x0c]))


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    scrapes = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    root = tempfile.mkdtemp(prefix="pa-scrape.")
    try:
        build(root, n)
        proc, url = ec.start(["--sysfs", root])
        times, body = [], ""
        for _ in range(scrapes):
            _, body, t = ec.get(url)
            times.append(t)
        ec.stop(proc)
        ok = subprocess.run(["promtool", "check", "metrics"], input=body.encode(),
                            capture_output=True).returncode == 0
        s = ec.parse(body)
        times.sort()
        print("exporter scrape at %d functions: %d scrapes, median %.1f ms, max %.1f ms, "
              "%d series, %d bytes, promtool %s; its collection %.1f ms"
              % (n, scrapes, times[len(times) // 2] * 1e3, times[-1] * 1e3, len(s), len(body),
                 "ok" if ok else "FAILED",
                 s.get(("pcieaudit_collect_duration_seconds", ""), -1) * 1e3))
        return 0 if ok else 1
    finally:
        shutil.rmtree(root)


if __name__ == "__main__":
    sys.exit(main())
