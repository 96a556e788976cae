#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""expect-cost.py: what --expect adds to check, paired runs.

Inputs, each checked plainly and with --expect against a golden of its
kind: (a) a 300-function snapshot of tests/fleet/gen-fleet.py (host 1, the
golden host 2, the same kind), (b) the same against the YAML inventory of
host 2's kind (each kind's count and least link, as docs/check.md
describes), and (c) the machine's own /sys (the golden: its report
--json). Each round runs every command once, in an order
shuffled per round, so that the machine's other load falls on all alike;
the table gives mean wall and CPU (user + system, from wait4) milliseconds
and --expect's ratio to the plain check. With valgrind installed, each
command's instruction count (callgrind, one run: not moved by the load) is
given too. A benchmark: it fails only when a command fails (check's exit 1
and 8 are verdicts). Issue 25's goal: --expect adds at most 10%.

  expect-cost.py [--cli PATH] [--base PATH] [--runs N] [--sysfs ROOT]

--base adds another build's commands to the same rounds (before and after).
make bench runs it (tests/bench/run.sh); docs/performance.md has figures.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from startup import run_once  # noqa: E402  (one timing helper for both)

OK = (0, 1, 8)


def instructions(argv):
    """Instructions one run executes (callgrind's Ir), or None."""
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run(["valgrind", "--tool=callgrind",
                            f"--callgrind-out-file={d}/cg"] + argv,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        m = re.search(r"Collected : (\d+)", p.stderr)
        return int(m.group(1)) if m else None


KINDS = ((lambda c: c >> 16 == 0x03, "gpu"), (lambda c: c >> 16 == 0x02, "nic"),
         (lambda c: c == 0x010802, "nvme"), (lambda c: c >> 16 == 0x12, "accelerator"))
SPEEDS = {1: "2.5", 2: "5", 3: "8", 4: "16", 5: "32", 6: "64"}


def inventory_of(snapshot):
    """The YAML inventory (docs/check.md) a fleet would keep for the
    golden's kind: each kind's count and the least link it trains."""
    import json
    with open(snapshot) as f:
        devs = json.load(f)["devices"]
    out = ["version: 1", "devices:"]
    for is_kind, kind in KINDS:
        mine = [d for d in devs if is_kind(d["class"]) and not d.get("virtfn")]
        if not mine:
            continue
        out += [f"  - class: {kind}", f"    count: {len(mine)}"]
        sta = [d["link"]["lnksta"] for d in mine if (d.get("link") or {}).get("lnksta")]
        if sta:
            speed = min(v & 0xF for v in sta)
            width = min(v >> 4 & 0x3F for v in sta)
            out.append(f"    link: {{ speed: {SPEEDS.get(speed, '2.5')}, width: x{width} }}")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default=os.path.join(ROOT, "user", "pcieaudit-cli"))
    ap.add_argument("--base", help="another pcieaudit-cli, measured alike")
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--sysfs", default="/sys")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="expect-cost.")
    try:
        subprocess.run([sys.executable, os.path.join(ROOT, "tests/fleet/gen-fleet.py"),
                        f"{tmp}/fleet", "--hosts", "3", "--outliers", "0"],
                       check=True, stdout=subprocess.DEVNULL)
        host, golden = f"{tmp}/fleet/host-0001.json", f"{tmp}/fleet/host-0002.json"
        sys_golden = f"{tmp}/sys-golden.json"
        with open(sys_golden, "w") as f:
            subprocess.run([a.cli, "report", "--json", "--sysfs", a.sysfs], stdout=f, check=True)
        inventory = f"{tmp}/inventory.yaml"
        with open(inventory, "w") as f:
            f.write(inventory_of(golden))
        inputs = [("300-function snapshot", ["--input", host],
                   [("golden snapshot", golden), ("inventory", inventory)]),
                  (f"--sysfs {a.sysfs}", ["--sysfs", a.sysfs], [("golden snapshot", sys_golden)])]
        variants = []	# (label, argv, the plain check's label or None)
        for name, cli in (("", a.cli), ("base ", a.base)):
            for what, src, golds in inputs if cli else ():
                plain = f"{name}check {what}"
                variants.append((plain, [cli, "check"] + src, None))
                for gname, gold in golds:
                    variants.append((f"{plain} --expect {gname}",
                                     [cli, "check"] + src + ["--expect", gold], plain))
        times = {v[0]: [] for v in variants}
        for label, argv, _ in variants:	# untimed: page cache alike for all
            if run_once(argv)[2] not in OK:
                sys.exit(f"expect-cost.py: {' '.join(argv)} failed")
        rng = random.Random(25)
        for _ in range(a.runs):
            order = variants[:]
            rng.shuffle(order)
            for label, argv, _ in order:
                wall, cpu, rc = run_once(argv)
                if rc not in OK:
                    sys.exit(f"expect-cost.py: {' '.join(argv)} exited {rc}")
                times[label].append((wall, cpu))
        grind = shutil.which("valgrind") is not None
        ir = {label: instructions(argv) for label, argv, _ in variants} if grind else {}
    finally:
        shutil.rmtree(tmp)

    def mean(label, i):
        return 1000 * sum(t[i] for t in times[label]) / len(times[label])

    nfun = len(os.listdir(os.path.join(a.sysfs, "bus/pci/devices")))
    print(f"{a.runs} paired rounds; /sys has {nfun} PCI functions; goal: --expect adds <= 10%\n")
    print("| command | wall ms | CPU ms | instructions (M) | --expect / plain (CPU) | (instructions) |")
    print("|---|---|---|---|---|---|")
    for label, _, plain in variants:
        w, c = mean(label, 0), mean(label, 1)
        n = ir.get(label)
        ratio = rir = ""
        if plain:
            ratio = f"{c / mean(plain, 1):.2f}"
            if n and ir.get(plain):
                rir = f"{n / ir[plain]:.2f}"
        print(f"| `{label}` | {w:.1f} | {c:.1f} | {f'{n / 1e6:.1f}' if n else ''} | {ratio} | {rir} |")


if __name__ == "__main__":
    main()
