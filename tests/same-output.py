#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every command's output over every stored input, to hold a refactoring to
byte-identical behaviour: run it with the CLI before and after, then
compare the two folders (diff -r).

  tests/same-output.py CLI OUTDIR

Inputs: the snapshots (--input), the lspci captures and the real GPU hosts'
bug-report logs (--lspci), the sysfs trees (--sysfs), of tests/fixtures and
../shared/fixtures. Per input: info, report, topo (default and --all,
--nccl-xml), check (every profile, every format) and p2p for pairs of its
endpoints; each as text and JSON, with stdout, stderr and the exit code.
"""
import glob
import json
import os
import subprocess
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
cli, out = os.path.abspath(sys.argv[1]), sys.argv[2]
fx, shared = f"{top}/tests/fixtures", f"{top}/../shared/fixtures"

sources = [("input", p) for p in sorted(glob.glob(f"{fx}/snapshots/*.json"))]
sources += [("lspci", p) for p in sorted(glob.glob(f"{fx}/lspci/*.lspci"))]
sources += [("lspci", p) for p in
            sorted(glob.glob(f"{shared}/real-gpu-hosts/*.log.gz"))]
sources += [("sysfs", p) for p in (f"{fx}/h200/sysfs", f"{shared}/h200-vm-guest")
            if os.path.isdir(p)]

env = dict(os.environ, PCIEAUDIT_NO_NVML="1", NO_COLOR="1")
os.makedirs(out, exist_ok=True)
tmp = os.path.join(out, ".nccl.xml")


def run(name, args):
    if os.path.exists(tmp):
        os.unlink(tmp)
    p = subprocess.run([cli] + args, capture_output=True, env=env, cwd=top)
    with open(os.path.join(out, name), "wb") as f:
        f.write(b"rc %d\n--- stdout\n" % p.returncode + p.stdout +
                b"--- stderr\n" + p.stderr.replace(top.encode(), b"TOP"))
        if os.path.exists(tmp):
            f.write(b"--- nccl-xml\n" + open(tmp, "rb").read())
    return p


count = 0
for kind, path in sources:
    src = [f"--{kind}", path]
    base = os.path.basename(path)
    cmds = {"info": ["info"], "report": ["report"], "topo": ["topo"],
            "topo-all": ["topo", "--all"],
            "topo-nccl": ["topo", "--nccl-xml", tmp]}
    for prof in ("", "gpudirect", "vfio", "baseline"):
        for fmt in ("text", "prometheus", "nfd"):
            p = ["--profile", prof] if prof else []
            cmds[f"check-{prof or 'all'}-{fmt}"] = ["check", "--format", fmt] + p
    rep = subprocess.run([cli, "--json", "report"] + src, capture_output=True,
                         env=env, cwd=top)
    ends = []
    try:
        devs = json.loads(rep.stdout).get("devices", [])
        ends = [d["bdf"] for d in devs if not d.get("bridge")]
    except (ValueError, AttributeError):
        pass
    pairs = list(zip(ends, ends[1:]))[:6] + ([(ends[-1], ends[0])] if ends else [])
    for a, b in pairs:
        cmds[f"p2p-{a}-{b}"] = ["p2p", a, b]
    for name, args in cmds.items():
        for js in (False, True):
            if js and args[0] == "check":
                if args[2] != "text":
                    continue
                a = args[:2] + ["json"] + args[3:]
            else:
                a = (["--json"] if js else []) + args
            run(f"{kind}-{base}-{name}{'.json' if js else ''}", a + src)
            count += 1
print(f"same-output: {count} runs over {len(sources)} inputs into {out}")
