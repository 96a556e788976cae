#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What compact JSON saves: bytes and time of report --json, compact (the
default into a pipe or a file) against --pretty, on the host, no VM.

    json-size.py [N] [ROUNDS]

Builds exporter-scrape.py's sysfs fixture of N functions (default 1024),
then runs, interleaved ROUNDS times (default 15):
  report --sysfs FIXTURE --json            (compact)
  report --sysfs FIXTURE --json --pretty
  report --input SNAPSHOT --json           reading each form back, and
  check --input SNAPSHOT --format json     writing again
with standard output to a file, and prints a Markdown table of the output
bytes, the median wall time and the median CPU time (user + system,
which the machine's other load disturbs less). With BASELINE_CLI=PATH (another build of
pcieaudit-cli, such as the commit before compact JSON) its
report --sysfs --json and report --input --json (of the compact snapshot)
are timed in the same rounds. Not part of make check.
"""
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CLI = os.path.join(os.path.dirname(os.path.dirname(HERE)), "user", "pcieaudit-cli")

spec = importlib.util.spec_from_file_location("scrape", os.path.join(HERE, "exporter-scrape.py"))
scrape = importlib.util.module_from_spec(spec)
spec.loader.exec_module(scrape)


def run(args, out_path, cli=CLI):
    """Wall and CPU (user + system) seconds of one run, and output bytes."""
    with open(out_path, "wb") as out:
        t0 = time.monotonic()
        proc = subprocess.Popen([cli] + args, stdout=out, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(proc.pid, 0)
        dt = time.monotonic() - t0
    rc = os.waitstatus_to_exitcode(status)
    # check exits 1/8 on failing/warning rules: an answer all the same.
    if rc not in (0, 1, 8):
        sys.exit("json-size: %s exited %d" % (" ".join(args), rc))
    return dt, ru.ru_utime + ru.ru_stime, os.path.getsize(out_path)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    tmp = tempfile.mkdtemp(prefix="pa-json-size.")
    try:
        root = os.path.join(tmp, "sysfs")
        scrape.build(root, n)
        snap = {"compact": os.path.join(tmp, "compact.json"),
                "pretty": os.path.join(tmp, "pretty.json")}
        variants = [
            ("report --sysfs --json", "compact", ["report", "--sysfs", root, "--json"], snap["compact"]),
            ("report --sysfs --json", "pretty", ["report", "--sysfs", root, "--json", "--pretty"], snap["pretty"]),
            ("report --input --json", "compact", ["report", "--input", snap["compact"], "--json"], None),
            ("report --input --json", "pretty", ["report", "--input", snap["pretty"], "--json", "--pretty"], None),
            ("check --input --format json", "compact", ["check", "--input", snap["compact"], "--format", "json"], None),
            ("check --input --format json", "pretty", ["check", "--input", snap["pretty"], "--format", "json", "--pretty"], None),
        ]
        base = os.environ.get("BASELINE_CLI")
        if base:
            label = "baseline " + os.path.basename(base)
            variants.append(("report --sysfs --json", label,
                             ["report", "--sysfs", root, "--json"], None))
            variants.append(("report --input --json", label,
                             ["report", "--input", snap["compact"], "--json"], None))
        times = {i: [] for i in range(len(variants))}
        cpu = {i: [] for i in range(len(variants))}
        size = {}
        for r in range(rounds + 1):
            for i, (_, layout, args, out) in enumerate(variants):
                cli = base if layout.startswith("baseline") else CLI
                dt, c, b = run(args, out or os.path.join(tmp, "out-%d" % i), cli)
                if r:		# the first round warms the page cache
                    times[i].append(dt)
                    cpu[i].append(c)
                size[i] = b
        cmd = "tests/bench/json-size.py %d %d" % (n, rounds)
        if base:
            cmd = "BASELINE_CLI=%s %s" % (base, cmd)
        print("%d functions, %d rounds, medians; `%s`" % (n, rounds, cmd))
        print()
        print("| command | layout | output bytes | wall ms | wall min-max | CPU ms (user+sys) |")
        print("|---|---|---:|---:|---|---:|")
        for i, (what, layout, _, _) in enumerate(variants):
            t = [x * 1000 for x in times[i]]
            print("| %s | %s | %d | %.1f | %.1f-%.1f | %.1f |" %
                  (what, layout, size[i], statistics.median(t), min(t), max(t),
                   statistics.median(cpu[i]) * 1000))
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
