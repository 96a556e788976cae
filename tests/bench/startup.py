#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""startup.py: pcieaudit-cli's start-up against lspci -vvv, paired runs.

Without the module, on the machine it runs on (--sysfs /sys): each round
runs lspci -vvv and every pcieaudit command once, in an order shuffled per
round, so that the machine's other load falls on all alike. Prints a
Markdown table: mean wall and CPU (user + system, from wait4) milliseconds
of each, and each one's ratio to lspci -vvv's. A benchmark: it fails only
when a command fails (check's exit 1 and 8 are verdicts, not failures).

  startup.py [--cli PATH] [--base PATH] [--lspci PATH] [--runs N] [--sysfs ROOT]

--base adds another build's commands to the same rounds (before and
after a change, paired).

make bench runs it (tests/bench/run.sh); tests/gpu/capture-device.sh runs
it on the H200, with an lspci it carries.
"""
import argparse
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# (label, argv after the CLI, exit codes that are answers); the goals of
# issue 28 as ratios to lspci -vvv.
COMMANDS = [
    ("report --sysfs /sys", ["report"], (0,), 1.0),
    ("--json report --sysfs /sys", ["--json", "report"], (0,), 0.5),
    ("--json report --nvml --sysfs /sys", ["--json", "report", "--nvml"], (0,), None),
    ("check --sysfs /sys", ["check"], (0, 1, 8), 1.5),
    ("topo --sysfs /sys", ["topo"], (0,), None),
    ("--version", ["--version"], (0,), None),
]
# Options a --base build may predate: measured for --cli only.
NEW_ONLY = {"--nvml"}


def run_once(argv):
    """Wall and CPU seconds of one run, its output discarded."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    t0 = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ,
                          file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1),
                                        (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    os.close(devnull)
    return wall, ru.ru_utime + ru.ru_stime, os.waitstatus_to_exitcode(status)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default=os.path.join(ROOT, "user", "pcieaudit-cli"))
    ap.add_argument("--base", help="another pcieaudit-cli, measured alike")
    ap.add_argument("--lspci", default="lspci")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--sysfs", default="/sys")
    a = ap.parse_args()

    variants = [("lspci -vvv", [a.lspci, "-vvv"], (0,), None)]
    for name, cli in (("pcieaudit-cli", a.cli), ("base", a.base)):
        for label, args, ok, goal in COMMANDS if cli else ():
            if name == "base" and NEW_ONLY & set(args):
                continue
            extra = [] if args == ["--version"] else ["--sysfs", a.sysfs]
            variants.append((f"{name} {label}", [cli] + args + extra, ok,
                             goal if name == "pcieaudit-cli" else None))
    times = {v[0]: [] for v in variants}
    # One untimed round: page cache and dynamic loader alike for all.
    for label, argv, ok, _ in variants:
        rc = run_once(argv)[2]
        if rc not in ok:
            sys.exit(f"startup.py: {' '.join(argv)} exited {rc}")
    rng = random.Random(28)
    for _ in range(a.runs):
        order = variants[:]
        rng.shuffle(order)
        for label, argv, ok, _ in order:
            wall, cpu, rc = run_once(argv)
            if rc not in ok:
                sys.exit(f"startup.py: {' '.join(argv)} exited {rc}")
            times[label].append((wall, cpu))

    def mean(label, i):
        v = times[label]
        return 1000 * sum(t[i] for t in v) / len(v)

    base_wall, base_cpu = mean("lspci -vvv", 0), mean("lspci -vvv", 1)
    nfun = len(os.listdir(os.path.join(a.sysfs, "bus/pci/devices")))
    print(f"{a.runs} paired rounds, {nfun} PCI functions, {os.uname().release}\n")
    print("| command | wall ms | CPU ms | wall / lspci | CPU / lspci | goal |")
    print("|---|---|---|---|---|---|")
    for label, _, _, goal in variants:
        w, c = mean(label, 0), mean(label, 1)
        print(f"| `{label}` | {w:.1f} | {c:.1f} | {w / base_wall:.2f} | "
              f"{c / base_cpu:.2f} | {'' if goal is None else f'<= {goal}'} |")


if __name__ == "__main__":
    main()
