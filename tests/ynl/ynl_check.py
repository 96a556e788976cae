#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make ynl-check: the protocol's code against its spec (docs/protocol.md).

    ynl_check.py YNL_TREE [--root DIR]

YNL_TREE is what tests/ynl/fetch-ynl.sh prints: the kernel's tools/net/ynl
and its genetlink schemas. Steps, each of which fails the check:
  (a) the spec validates against the kernel's genetlink-c schema, by ynl's
      own loader (SpecFamily, jsonschema);
  (b) ynl-gen-c.py --mode uapi generates a header whose every enum type,
      enumerator and #define, with its value, the committed
      include/uapi/linux/pcieaudit.h has (values compared by the compiler);
      the committed header may add only *_F_ALL masks, equal to their flags;
  (c) the generated policy tables (kmod/policy_gen.[ch], user/sources/policy_gen.h)
      are what tests/ynl/gen_policies.py makes of the spec now, and every
      other nla_policy table over the family's attributes in kmod/ and
      user/ agrees with the spec: each attribute's type, and every
      attribute the spec says a request (kmod/) or a reply (user/) carries.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_policies  # noqa: E402

SPEC = "Documentation/netlink/specs/pcieaudit.yaml"
UAPI = "include/uapi/linux/pcieaudit.h"
GENERATED = {"kmod/policy_gen.h": "kernel-header",
             "kmod/policy_gen.c": "kernel-source",
             "user/sources/policy_gen.h": "cli"}

failures = []


def fail(msg):
    failures.append(msg)
    print(f"ynl-check: FAIL: {msg}")


# ---- (a) -------------------------------------------------------------------

def validate(tree, spec_path):
    sys.path.insert(0, os.path.join(tree, "tools/net/ynl"))
    from lib import SpecFamily  # the kernel's own loader
    import jsonschema
    schema = os.path.join(tree, "Documentation/netlink/genetlink-c.yaml")
    try:
        SpecFamily(spec_path, schema)
    except jsonschema.exceptions.ValidationError as e:
        fail(f"(a) {SPEC} against genetlink-c.yaml: {e.message} at "
             f"{'/'.join(str(p) for p in e.absolute_path)}")
        return False
    except Exception as e:  # ynl's own resolution errors
        fail(f"(a) {SPEC}: {type(e).__name__}: {e}")
        return False
    print("ynl-check: (a) spec valid against the kernel's genetlink-c schema")
    return True


# ---- (b) -------------------------------------------------------------------

ENUM_RE = re.compile(r"\benum\s+(\w+)\s*\{(.*?)\}", re.S)
DEFINE_RE = re.compile(r"^#define\s+(PCIEAUDIT_\w+)\s", re.M)


def names_of(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    enums, consts = {}, []
    for m in ENUM_RE.finditer(text):
        body = [e.split("=")[0].strip() for e in m.group(2).split(",")]
        enums[m.group(1)] = [e for e in body if e]
    consts = DEFINE_RE.findall(text)
    return enums, consts


def values(header, names, work):
    """name -> value as the compiler sees it, through the header."""
    src = os.path.join(work, "values.c")
    with open(src, "w", encoding="utf-8") as f:
        f.write(f'#include <stdio.h>\n#include "{header}"\nint main(void)\n{{\n')
        for n in names:
            # The family's and its multicast groups' names are strings.
            if n.endswith("_FAMILY_NAME") or "_MCGRP_" in n:
                f.write(f'\tprintf("{n} %s\\n", {n});\n')
            else:
                f.write(f'\tprintf("{n} %lld\\n", (long long)({n}));\n')
        f.write("\treturn 0;\n}\n")
    exe = os.path.join(work, "values")
    subprocess.run(["cc", "-std=c11", "-o", exe, src], check=True)
    out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    return dict(line.split(" ", 1) for line in out.splitlines())


def compare_uapi(tree, root, work):
    kroot = os.path.join(work, "kernel")
    os.makedirs(os.path.join(kroot, "Documentation/netlink/specs"))
    # ynl-gen-c.py looks for the kernel tree's root by its MAINTAINERS file.
    open(os.path.join(kroot, "MAINTAINERS"), "w").close()
    shutil.copy(os.path.join(tree, "Documentation/netlink/genetlink-c.yaml"),
                os.path.join(kroot, "Documentation/netlink"))
    spec = os.path.join(kroot, SPEC)
    shutil.copy(os.path.join(root, SPEC), spec)
    gen = os.path.join(work, "generated.h")
    r = subprocess.run([sys.executable, os.path.join(tree, "tools/net/ynl/ynl-gen-c.py"),
                        "--mode", "uapi", "--header", "--spec", spec, "-o", gen],
                       capture_output=True, text=True)
    if r.returncode:
        fail(f"(b) ynl-gen-c.py --mode uapi: {(r.stdout + r.stderr).strip().splitlines()[-1:]}")
        return
    with open(gen, encoding="utf-8") as f:
        g_enums, g_consts = names_of(f.read())
    with open(os.path.join(root, UAPI), encoding="utf-8") as f:
        h_enums, h_consts = names_of(f.read())

    for e in sorted(set(g_enums) - set(h_enums)):
        fail(f"(b) {UAPI} lacks enum {e}")
    for e in sorted(set(h_enums) - set(g_enums)):
        fail(f"(b) {UAPI} has enum {e}, which the spec does not")
    g_names = [n for e in g_enums.values() for n in e] + g_consts
    h_names = [n for e in h_enums.values() for n in e] + h_consts
    for n in g_names:
        if n not in h_names:
            fail(f"(b) {UAPI} lacks {n}")
    common = [n for n in g_names if n in h_names]
    gv = values(gen, common, work)
    hv = values(os.path.join(root, UAPI), h_names, work)
    for n in common:
        if gv[n] != hv[n]:
            fail(f"(b) {n} is {hv[n]} in {UAPI}, {gv[n]} in the spec")
    # The committed header's own additions: flags masks, nothing else.
    for e, entries in h_enums.items():
        for n in entries:
            if n in g_names:
                continue
            flags = [x for x in g_enums.get(e, []) if x != n]
            mask = 0
            for x in flags:
                mask |= int(gv[x])
            if not n.endswith("_F_ALL"):
                fail(f"(b) {UAPI} has {n}, which the spec does not")
            elif int(hv[n]) != mask:
                fail(f"(b) {n} is {hv[n]}, not the mask of enum {e} (0x{mask:x})")
    for n in h_consts:
        if n not in g_names:
            fail(f"(b) {UAPI} defines {n}, which the spec does not")
    print(f"ynl-check: (b) {UAPI}: {len(h_enums)} enums, {len(common)} names "
          f"compared with ynl-gen-c --mode uapi")


# ---- (c) -------------------------------------------------------------------

TABLE_RE = re.compile(r"nla_policy\s+(\w+)\s*\[[^\]]*\]\s*=\s*\{(.*?)\n\};", re.S)
ENTRY_RE = re.compile(r"\[\s*(PCIEAUDIT_A_\w+)\s*\]\s*=\s*([^\n]*?),?\s*(?:/\*.*)?$", re.M)
MACRO_RE = re.compile(r"^#define\s+(\w+)(?:\([^)]*\))?\s+(.*)$", re.M)
SPEC_NLA = {"u8": {"U8"}, "u16": {"U16"}, "u32": {"U32"}, "s32": {"S32"},
            "u64": {"U64"}, "string": {"STRING", "NUL_STRING"},
            "nest": {"NESTED"}, "flag": {"FLAG"}}


def entry_type(value, macros):
    """NLA type name of a table entry, through the file's own macros."""
    for _ in range(4):
        m = re.match(r"(\w+)", value.strip())
        if m and m.group(1) in macros:
            value = macros[m.group(1)] + value.strip()[len(m.group(1)):]
    if "NLA_POLICY_NESTED" in value:
        return "NESTED"
    m = re.search(r"NLA_(U8|U16|U32|U64|S32|STRING|NUL_STRING|NESTED|FLAG|REJECT)\b",
                  value)
    return m.group(1) if m else None


def audit_tables(spec, root):
    by_attr = {a["c"]: (s, a) for s, v in spec.sets.items() for a in v["attrs"]}
    expected = {"kmod": {}, "user": {}}
    for _, set_name, attrs in gen_policies.kernel_tables(spec):
        expected["kmod"].setdefault(set_name, set()).update(a["name"] for a in attrs)
    for _, set_name, names in gen_policies.cli_tables(spec):
        expected["user"].setdefault(set_name, set()).update(names)
    # Events have no generated table (only monitor_event.c parses them):
    # its hand-written one must name all they carry.
    for op in spec.ops:
        names = (op.get("event") or {}).get("attributes", [])
        if names:
            expected["user"].setdefault(op["attribute-set"], set()).update(names)
    tables = 0
    for side in ("kmod", "user"):
        # user/ is grouped in folders (docs/layout.md): every file below.
        for path in sorted(os.path.relpath(os.path.join(d, fn), root)
                           for d, _, fns in os.walk(os.path.join(root, side))
                           for fn in fns):
            if not path.endswith((".c", ".h")) or path in GENERATED:
                continue
            with open(os.path.join(root, path), encoding="utf-8") as f:
                text = f.read()
            macros = dict(MACRO_RE.findall(text))
            for name, body in TABLE_RE.findall(text):
                entries = ENTRY_RE.findall(body)
                if not entries:
                    continue
                tables += 1
                sets = {by_attr[c][0] for c, _ in entries if c in by_attr}
                for c, value in entries:
                    if c not in by_attr:
                        fail(f"(c) {path} {name}: {c} is not in the spec")
                        continue
                    set_name, a = by_attr[c]
                    t = entry_type(value, macros)
                    if t == "REJECT" and side == "kmod":
                        continue
                    if t not in SPEC_NLA[a["type"]]:
                        fail(f"(c) {path} {name}: {c} is {t}, the spec says {a['type']}")
                for set_name in sets:
                    have = {by_attr[c][1]["name"] for c, _ in entries if c in by_attr}
                    for n in sorted(expected[side].get(set_name, set()) - have):
                        a = spec.attr(set_name, n)
                        what = "request" if side == "kmod" else "reply"
                        fail(f"(c) {path} {name}: lacks {a['c']} ({a['type']}), "
                             f"which a {what} carries")
    return tables


def check_policies(root, work):
    spec = gen_policies.Spec(os.path.join(root, SPEC))
    for path, what in GENERATED.items():
        fresh = {"kernel-header": gen_policies.kernel_header,
                 "kernel-source": gen_policies.kernel_source,
                 "cli": gen_policies.cli_header}[what](spec)
        try:
            with open(os.path.join(root, path), encoding="utf-8") as f:
                have = f.read()
        except FileNotFoundError:
            have = None
        if have != fresh:
            fail(f"(c) {path} is not what the spec generates: run "
                 f"tests/ynl/gen_policies.py {SPEC} {what} -o {path}")
    tables = audit_tables(spec, root)
    print(f"ynl-check: (c) {len(GENERATED)} generated policy files and "
          f"{tables} other policy tables checked against the spec")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tree")
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(HERE)))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="ynl-check.") as work:
        if validate(args.tree, os.path.join(args.root, SPEC)):
            compare_uapi(args.tree, args.root, work)
        check_policies(args.root, work)
    if failures:
        print(f"ynl-check: FAILED ({len(failures)})")
        return 1
    print("ynl-check: the UAPI header and both sides' policies agree with the spec")
    return 0


if __name__ == "__main__":
    sys.exit(main())
