#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""fleet over a generated fleet (gen-fleet.py), held to what was planted.

fleet-test.py CLI [--hosts N] [--bench]

Generates N (default 1000) hosts of 300 functions in 3 kinds with 20
planted outliers into a temporary directory, runs `CLI fleet --json` over
it and fails unless there are exactly 3 groups, every planted host is
listed with exactly its one difference (what, and the slot where it was
planted) and no other host is. --bench runs it under /usr/bin/time -v and
fails above 10 s of CPU time (user and system: on a shared machine other
load stretches the wall time) or 64 MiB peak memory. Part of make
corpus-test without --bench; make bench runs it with --bench.
"""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    cli = os.path.abspath(args[0])
    hosts = int(args[args.index("--hosts") + 1]) if "--hosts" in args else 1000
    bench = "--bench" in args
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        d = os.path.join(tmp, "fleet")
        subprocess.run([sys.executable, os.path.join(HERE, "gen-fleet.py"), d,
                        "--hosts", str(hosts)], check=True)
        with open(os.path.join(d, "planted.txt")) as f:
            planted = json.load(f)
        cmd = [cli, "fleet", "--json", d]
        timing = os.path.join(tmp, "time")
        if bench:
            cmd = ["/usr/bin/time", "-v", "-o", timing] + cmd
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 1:
            problems.append(f"exit {p.returncode}, want 1 (hosts differ): {p.stderr.strip()}")
        out = json.loads(p.stdout)
        if len(out["groups"]) != 3:
            problems.append(f"{len(out['groups'])} groups, want 3")
        if out["hosts"] != hosts:
            problems.append(f"{out['hosts']} hosts read, want {hosts}")
        seen = {}
        for g in out["groups"]:
            for o in g["outliers"]:
                seen[o["host"]] = o["differences"]
        for host, want in planted.items():
            got = seen.pop(host, None)
            if got is None:
                problems.append(f"{host}: planted {want} not found")
                continue
            if len(got) != 1:
                problems.append(f"{host}: {len(got)} differences, want 1 ({want}): {got}")
                continue
            what = got[0]["what"]
            if what != want[0] or got[0]["slot"] != want[1] or \
               (what == "moved" and got[0]["from"] != want[2]):
                problems.append(f"{host}: found {got[0]}, planted {want}")
        for host, got in sorted(seen.items()):
            problems.append(f"{host}: reported but nothing planted: {got}")
        if bench:
            with open(timing) as f:
                t = f.read()
            def field(name):
                return [l for l in t.splitlines() if name in l][0].split()[-1]
            m, s = field("Elapsed").split(":")[-2:]
            wall = int(m) * 60 + float(s)
            cpu = float(field("User time")) + float(field("System time"))
            rss = int(field("Maximum resident"))
            print(f"fleet over {hosts} hosts: {cpu:.2f} s of CPU ({wall:.2f} s wall), "
                  f"peak RSS {rss / 1024:.1f} MiB")
            # CPU time: the machine is shared, and other load stretches the
            # wall time without making fleet any slower.
            if cpu >= 10 or rss >= 64 * 1024:
                problems.append(f"over budget: {cpu:.2f} s, {rss / 1024:.1f} MiB (10 s, 64 MiB)")
    for p in problems:
        print("fleet-test:", p)
    if problems:
        sys.exit(1)
    print(f"fleet-test: {hosts} hosts, 3 kinds, {len(planted)} planted outliers, each found once, nothing else")


if __name__ == "__main__":
    main()
