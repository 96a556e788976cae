#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Scrape latency of pcieaudit-cli exporter at N functions, on the host.

    exporter-scrape.py [N] [SCRAPES]

Builds a sysfs fixture of N functions (default 1024) from the H200 guest
fixture's 0000:00:07.0, each on its own root bus and with class 0x0c0330
(a USB controller, which topo's default selection and so the P2P matrix
leave out: this measures collection, check and rendering, not a matrix of
1024 x 1024 pairs), serves it with --sysfs, scrapes it SCRAPES times (20)
one after another and prints the median and the maximum. The module path
(netlink instead of sysfs files) is not measured here: make bench's guests
time report --json, which is the same collection. Not part of make check.
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.path.join(TOP, "user", "pcieaudit-cli")
SRC = os.path.join(os.path.dirname(TOP), "shared", "fixtures", "h200-vm-guest", "devices", "0000:00:07.0")


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
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        proc = subprocess.Popen([CLI, "exporter", "--sysfs", root, "--listen",
                                 "127.0.0.1:%d" % port], stderr=subprocess.DEVNULL)
        url = "http://127.0.0.1:%d/metrics" % port
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        times, body = [], b""
        for _ in range(scrapes):
            t = time.monotonic()
            body = urllib.request.urlopen(url, timeout=60).read()
            times.append(time.monotonic() - t)
        proc.terminate()
        proc.wait()
        ok = subprocess.run(["promtool", "check", "metrics"], input=body,
                            capture_output=True).returncode == 0
        times.sort()
        series = sum(1 for l in body.decode().splitlines() if l and not l.startswith("#"))
        print("exporter scrape at %d functions: %d scrapes, median %.1f ms, max %.1f ms, "
              "%d series, %d bytes, promtool %s" % (n, scrapes, times[len(times) // 2] * 1e3,
                                                   times[-1] * 1e3, series, len(body),
                                                   "ok" if ok else "FAILED"))
        return 0 if ok else 1
    finally:
        shutil.rmtree(root)


if __name__ == "__main__":
    sys.exit(main())
