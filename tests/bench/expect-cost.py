#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""expect-cost.py: what --expect adds to check, paired runs.

Two inputs, each checked plainly and with --expect against a golden host of
its kind: (a) a 300-function snapshot of tests/fleet/gen-fleet.py (host 1,
the golden host 2, the same kind), and (b) the machine's own /sys (the
golden: its report --json). Each round runs every command once, in an order
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
        inputs = [("300-function snapshot", ["--input", host], golden),
                  (f"--sysfs {a.sysfs}", ["--sysfs", a.sysfs], sys_golden)]
        variants = []
        for name, cli in (("", a.cli), ("base ", a.base)):
            for what, src, gold in inputs if cli else ():
                variants.append((f"{name}check {what}", [cli, "check"] + src))
                variants.append((f"{name}check {what} --expect", [cli, "check"] + src + ["--expect", gold]))
        times = {v[0]: [] for v in variants}
        for label, argv in variants:	# untimed: page cache alike for all
            if run_once(argv)[2] not in OK:
                sys.exit(f"expect-cost.py: {' '.join(argv)} failed")
        rng = random.Random(25)
        for _ in range(a.runs):
            order = variants[:]
            rng.shuffle(order)
            for label, argv in order:
                wall, cpu, rc = run_once(argv)
                if rc not in OK:
                    sys.exit(f"expect-cost.py: {' '.join(argv)} exited {rc}")
                times[label].append((wall, cpu))
        grind = shutil.which("valgrind") is not None
        ir = {label: instructions(argv) for label, argv in variants} if grind else {}
    finally:
        shutil.rmtree(tmp)

    def mean(label, i):
        return 1000 * sum(t[i] for t in times[label]) / len(times[label])

    nfun = len(os.listdir(os.path.join(a.sysfs, "bus/pci/devices")))
    print(f"{a.runs} paired rounds; /sys has {nfun} PCI functions; goal: --expect adds <= 10%\n")
    print("| command | wall ms | CPU ms | instructions (M) | --expect / plain (CPU) | (instructions) |")
    print("|---|---|---|---|---|---|")
    for i, (label, _) in enumerate(variants):
        w, c = mean(label, 0), mean(label, 1)
        n = ir.get(label)
        ratio = rir = ""
        if i % 2:
            plain = variants[i - 1][0]
            ratio = f"{c / mean(plain, 1):.2f}"
            if n and ir.get(plain):
                rir = f"{n / ir[plain]:.2f}"
        print(f"| `{label}` | {w:.1f} | {c:.1f} | {f'{n / 1e6:.1f}' if n else ''} | {ratio} | {rir} |")


if __name__ == "__main__":
    main()
