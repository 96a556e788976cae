#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""user/'s layers, held to their order (docs/layout.md, run by make style).

user/layers.mk's PA_LAYERS lists user/'s folders bottom-up. A file may
include headers of its own folder and of the folders before it, never of
one after it; so no two folders include each other, directly or through
others. Includes name the file alone (every folder is on the include path),
so a header's name says its folder, and two files may not share a name.

  tests/layers.py [USER]     check the tree (user/ by default)
  tests/layers.py --cycles   the folder pairs that include each other
  tests/layers.py --selftest a wrong-way include planted in a copy must fail
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layers(user):
    mk = open(os.path.join(user, "layers.mk")).read()
    m = re.search(r"^PA_LAYERS\s*:=\s*(.*)$", mk, re.M)
    return m.group(1).split()


def scan(user):
    """Every source's folder and quoted includes; errors for what is amiss."""
    order = layers(user)
    errors, where, files = [], {}, []
    for folder in sorted(os.listdir(user)):
        path = os.path.join(user, folder)
        if not os.path.isdir(path):
            continue
        if folder not in order:
            errors.append(f"user/{folder}/: not in PA_LAYERS (user/layers.mk)")
            continue
        for name in sorted(os.listdir(path)):
            if not name.endswith((".c", ".h")):
                continue
            if name in where:
                errors.append(f"user/{folder}/{name}: the name of "
                              f"user/{where[name]}/{name} (includes name the file alone)")
            where[name] = folder
            files.append((folder, name))
    deps = []
    for folder, name in files:
        text = open(os.path.join(user, folder, name), errors="replace").read()
        for inc in INCLUDE.findall(text):
            if inc not in where:
                errors.append(f"user/{folder}/{name}: includes \"{inc}\", "
                              "which no folder of user/ holds")
                continue
            deps.append((folder, name, inc, where[inc]))
    return order, errors, deps


def check(user):
    order, errors, deps = scan(user)
    rank = {f: i for i, f in enumerate(order)}
    for folder, name, inc, dfolder in deps:
        if rank[dfolder] > rank[folder]:
            errors.append(f"user/{folder}/{name}: includes {inc} of {dfolder}/, "
                          f"a layer above {folder}/ (order: {' '.join(order)})")
    return errors


def cycles(user):
    """Pairs of folders that reach each other through includes."""
    order, _, deps = scan(user)
    edge = {f: set() for f in order}
    for folder, _, _, dfolder in deps:
        if dfolder != folder:
            edge[folder].add(dfolder)
    reach = {}
    for f in order:
        seen, todo = set(), [f]
        while todo:
            for n in edge[todo.pop()] - seen:
                seen.add(n)
                todo.append(n)
        reach[f] = seen
    return [(a, b) for i, a in enumerate(order) for b in order[i + 1:]
            if b in reach[a] and a in reach[b]]


def selftest():
    """The real tree passes with no circle; a copy with one wrong-way
    include fails, and --cycles finds the circle it makes."""
    user = os.path.join(top, "user")
    if check(user) or cycles(user):
        return "the tree itself fails"
    order = layers(user)
    low, high = order[0], order[-1]
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "user")
        shutil.copytree(user, copy, ignore=shutil.ignore_patterns(
            "*.o", "*.d", "pcieaudit-cli"))
        hdr = sorted(n for n in os.listdir(os.path.join(copy, high))
                     if n.endswith(".h"))[0]
        src = sorted(n for n in os.listdir(os.path.join(copy, low))
                     if n.endswith(".c"))[0]
        with open(os.path.join(copy, low, src), "a") as f:
            f.write(f'#include "{hdr}"\n')
        p = subprocess.run([sys.executable, __file__, copy],
                           capture_output=True, text=True)
        if p.returncode == 0 or f"{low}/{src}: includes {hdr}" not in p.stdout:
            return f"{low}/{src} including {high}/{hdr} passed: {p.stdout}"
        if (low, high) not in cycles(copy):
            return f"--cycles missed {low} <-> {high}"
    return None


def main():
    args = sys.argv[1:]
    if args == ["--selftest"]:
        err = selftest()
        if err:
            print(f"layers selftest: FAILED: {err}")
            return 1
        print("layers selftest: a planted wrong-way include fails the check")
        return 0
    if args[:1] == ["--cycles"]:
        user = args[1] if len(args) > 1 else os.path.join(top, "user")
        pairs = cycles(user)
        for a, b in pairs:
            print(f"{a} <-> {b}")
        print(f"layers: {len(pairs)} folder pairs in a circle")
        return 0
    user = args[0] if args else os.path.join(top, "user")
    errors = check(user)
    for e in errors:
        print(e)
    if errors:
        print(f"layers: FAILED ({len(errors)})")
        return 1
    print(f"layers: every include goes down ({' '.join(layers(user))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
