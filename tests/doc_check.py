#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The README and docs/ against the code they describe (make doc-test).

- links: every relative link in README.md and docs/*.md names a file of
  the repository, and its #anchor a heading of that file (GitHub's slugs);
  every docs/*.md is linked from the README;
- rules: the rule table of docs/check.md and the one-line list of the
  README hold exactly the rules of pa_rules[] (user/), each with its
  severity;
- exit codes: the README's table holds exactly the PA_EXIT_* codes;
- commands: the README's usage block names every command of the command
  table;
- make: every .PHONY target of a Makefile has a rule, and every `make
  TARGET` (also `make -C DIR TARGET`) in the README and docs/ exists;
- the guide: the README stays a user's guide of at most README_MAX_LINES
  lines (detail goes to docs/), and its Quick start keeps the promise of
  the developers' guide: on a fresh Debian 12 machine, as root, `make
  demo` and `make check`;
- metrics: the README's metrics table names every metric user/ writes, and
  no other;
- layout: docs/layout.md's code blocks name every .c of kmod/ and of
  user/'s folders, and every header without a .c, under its folder
  (`kmod/`, `user/FOLDER/` at the start of a line; the indented lines
  below it are its files), every file they name there exists, and
  user/'s folders come in user/layers.mk's order (PA_LAYERS); a source
  path (`user/FOLDER/NAME.c`, `kmod/NAME.h`) in the README or docs/ exists;
- man page: each section (.SH) of man/pcieaudit-cli.8 appears once;
- samples: a code block line `$ pcieaudit-cli ...` that reads a file of the
  repository (--input, --sysfs, --lspci) is run with the CLI the tree
  built, and every line shown below it must appear in its output, in that
  order (`...` lines and blank lines stand for what was left out).

Prints one line per problem and exits 1 if there was any. Python 3
standard library only.
"""

import glob
import os
import re
import subprocess
import sys
import unicodedata

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
problems = []


def fail(msg):
    if msg not in problems:
        problems.append(msg)


def read(path):
    with open(os.path.join(TOP, path), encoding="utf-8") as f:
        return f.read()


def docs():
    return ["README.md"] + sorted(
        os.path.relpath(p, TOP) for p in glob.glob(os.path.join(TOP, "docs", "*.md")))


def prose_and_code(text):
    """(prose lines, [(first line number, code block lines)])."""
    prose, blocks, block, start = [], [], None, 0
    for n, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            if block is None:
                block, start = [], n + 1
            else:
                blocks.append((start, block))
                block = None
            prose.append("")
            continue
        if block is None:
            prose.append(line)
        else:
            block.append(line)
            prose.append("")
    return prose, blocks


# --- links -----------------------------------------------------------------

def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped
    (but - and _), spaces to hyphens."""
    h = heading.strip().lower()
    out = []
    for ch in h:
        cat = unicodedata.category(ch)
        if ch in "-_" or ch == " " or cat[0] in "LN":
            out.append("-" if ch == " " else ch)
    return "".join(out)


def anchors(path):
    seen, result = {}, set()
    prose, _ = prose_and_code(read(path))
    for line in prose:
        m = re.match(r"^#{1,6} (.*)$", line)
        if not m:
            continue
        base = slug(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        result.add(base if n == 0 else f"{base}-{n}")
    return result


LINK = re.compile(r"\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^()\s]+)\)")


def check_links():
    for doc in docs():
        prose, _ = prose_and_code(read(doc))
        # Links may wrap: join the paragraph's lines.
        text = "\n".join(prose).replace("\n", " ")
        for url in LINK.findall(text):
            if re.match(r"^[a-z]+:", url):
                continue
            path, _, frag = url.partition("#")
            target = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
            if not os.path.exists(os.path.join(TOP, target)):
                fail(f"{doc}: link to {url}: no such file {target}")
                continue
            if frag and target.endswith(".md") and frag not in anchors(target):
                fail(f"{doc}: link to {url}: {target} has no heading #{frag}")
    readme = read("README.md")
    for doc in docs()[1:]:
        if f"]({doc})" not in readme:
            fail(f"README.md: {doc} is not linked from the README")


# --- rules, exit codes, commands -------------------------------------------

PROFILES = {"GD": "gpudirect", "VF": "vfio", "BL": "baseline", "EX": "expect"}


def user_sources(ext):
    """user/'s files, wherever in it they live, with their text."""
    for path in sorted(glob.glob(os.path.join(TOP, "user", "**", "*." + ext), recursive=True)):
        yield path, open(path, encoding="utf-8").read()


def code_rules():
    for path, text in user_sources("c"):
        if "const struct pa_rule pa_rules" not in text:
            continue
        rules = re.findall(r'\{ "([a-z]+\.[a-z0-9-]+)", (GD|VF|BL|EX), PA_SEV_([A-Z]+)', text)
        for rid, prof, _ in rules:
            if not rid.startswith(PROFILES[prof] + "."):
                fail(f"{os.path.relpath(path, TOP)}: {rid} is in profile {PROFILES[prof]}")
        return {rid: sev.lower() for rid, _, sev in rules}
    fail("cannot find pa_rules[] under user/")
    return {}


def table_rules(doc):
    rows = re.findall(r"^\| `([a-z]+\.[a-z0-9-]+)` \| ([a-z]+) \|", read(doc), re.M)
    table = {}
    for rid, sev in rows:
        if rid in table:
            fail(f"{doc}: rule {rid} listed twice")
        table[rid] = sev
    return table


def check_rules():
    code = code_rules()
    if not code:
        return
    for doc in ("docs/check.md", "README.md"):
        table = table_rules(doc)
        for rid, sev in code.items():
            if rid not in table:
                fail(f"{doc}: rule {rid} missing from the rule table")
            elif table[rid] != sev:
                fail(f"{doc}: rule {rid} is {table[rid]} in the table, {sev} in the code")
        for rid in table.keys() - code.keys():
            fail(f"{doc}: rule {rid} is in the table but not in the code")


def section(text, title):
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    return m.group(1) if m else ""


def check_exit_codes():
    codes = set()
    for _, text in user_sources("h"):
        codes.update(re.findall(r"^\tPA_EXIT_[A-Z_]+\s*= (\d+),", text, re.M))
    if not codes:
        fail("cannot find the exit codes (PA_EXIT_*) under user/")
    table = set(re.findall(r"^\| (\d+) \|", section(read("README.md"), "Exit codes"), re.M))
    for c in sorted(codes - table, key=int):
        fail(f"README.md: exit code {c} missing from the Exit codes table")
    for c in sorted(table - codes, key=int):
        fail(f"README.md: exit code {c} is in the Exit codes table but not in the code")


def check_commands():
    commands = []
    for _, text in user_sources("c"):
        commands += re.findall(r'^\t\{ "([a-z0-9]+)", (?:pa_)?cmd_', text, re.M)
    if not commands:
        fail("cannot find the command table ({ \"name\", cmd_...) under user/")
    _, blocks = prose_and_code(section(read("README.md"), "Using the CLI"))
    usage = "\n".join(blocks[0][1]) if blocks else ""
    for c in commands:
        if not re.search(rf"^pcieaudit-cli (\[--json\] )?{c}( |$)", usage, re.M):
            fail(f"README.md: the usage block under 'Using the CLI' lacks the command {c}")


# --- the guide ------------------------------------------------------------

# Issue 16: "README.md is the user's guide, about 300 lines"; issue 15 asks
# for its metrics table (7 lines), issue 25 for --expect and fleet with real
# output and their 7 rules (31 lines).
# Issue 27: vfio-plan with real output, and the 5 vfio rules (27 lines).
README_MAX_LINES = 375
PROMISE = ("fresh Debian 12", "as root", "make demo", "make check")


def check_guide():
    readme = read("README.md")
    n = len(readme.rstrip("\n").split("\n"))
    if n > README_MAX_LINES:
        fail(f"README.md: {n} lines, more than {README_MAX_LINES}: "
             "the README is the user's guide, detail goes to docs/")
    quick = section(readme, "Quick start")
    for words in PROMISE:
        if words not in quick:
            fail(f"README.md: its Quick start no longer says '{words}' "
                 "(on a fresh Debian 12 machine, as root, make demo and make check)")


# --- metrics ---------------------------------------------------------------

def expand(name):
    """pcieaudit_link_{a,b} -> [pcieaudit_link_a, pcieaudit_link_b]."""
    m = re.match(r"^([a-z_]*)\{([a-z_,]+)\}([a-z_]*)$", name)
    return [m.group(1) + p + m.group(3) for p in m.group(2).split(",")] if m else [name]


def check_metrics():
    """The README's metrics table names every metric the CLI writes, and
    only those."""
    code = set()
    for _, text in user_sources("c"):
        code.update(re.findall(r'"(pcieaudit_[a-z_]+)', text))
    m = re.search(r"^### `monitor` and `exporter`\n(.*?)(?=^##)", read("README.md"),
                  re.M | re.S)
    table = m.group(1) if m else ""
    shown = set()
    for line in table.split("\n"):
        if line.startswith("| `pcieaudit_"):
            for cell in re.findall(r"`(pcieaudit_[a-z_{},]+)`", line.split("|")[1]):
                shown.update(expand(cell))
    for name in sorted(shown - code):
        fail(f"README.md: metric {name} is in the table but no source writes it")
    for name in sorted(code - shown):
        fail(f"README.md: metric {name} is written (user/) but not in the metrics table")


# --- make targets ----------------------------------------------------------

def makefile_targets(path):
    """(targets with a rule, including % patterns; .PHONY names)."""
    text = re.sub(r"\\\n", " ", open(path, encoding="utf-8").read())
    rules, phony = set(), set()
    for line in text.split("\n"):
        if line.startswith(("\t", "#")) or not line.strip():
            continue
        m = re.match(r"^([^:=#]+?)\s*::?(?!=)(.*)$", line)
        if not m or "$" in m.group(1):
            continue
        names = m.group(1).split()
        if names == [".PHONY"]:
            phony.update(m.group(2).split())
        elif not names[0].startswith("."):
            rules.update(names)
    return rules, phony


def has_target(rules, target):
    return any(re.fullmatch(re.escape(r).replace("%", ".+"), target) for r in rules)


def check_make():
    makefiles = [os.path.relpath(p, TOP) for p in
                 [os.path.join(TOP, "Makefile"), os.path.join(TOP, "user", "Makefile")]
                 + glob.glob(os.path.join(TOP, "tests", "*", "Makefile"))]
    known = {}
    for mk in makefiles:
        rules, phony = makefile_targets(os.path.join(TOP, mk))
        known[os.path.dirname(mk) or "."] = rules
        for p in sorted(phony - rules):
            fail(f"{mk}: .PHONY names '{p}', which has no rule")
    for doc in docs():
        text = read(doc)
        prose, blocks = prose_and_code(text)
        spans = re.findall(r"`([^`]*)`", "\n".join(prose).replace("\n", " "))
        spans += [line for _, b in blocks for line in b]
        for span in spans:
            for m in re.finditer(r"(?:^|[\s;&|(])make((?:\s+\S+)*)", span):
                words = m.group(1).split()
                where, i = ".", 0
                while i < len(words) and (words[i].startswith("-") or "=" in words[i]):
                    if words[i] == "-C" and i + 1 < len(words):
                        where = os.path.normpath(words[i + 1])
                        i += 1
                    i += 1
                for w in words[i:]:
                    if not re.fullmatch(r"[a-z][a-z0-9_-]*", w):
                        break
                    if where not in known:
                        if not where.startswith("$"):
                            fail(f"{doc}: 'make -C {where}': no Makefile there")
                        break
                    if not has_target(known[where], w):
                        fail(f"{doc}: 'make {'-C ' + where + ' ' if where != '.' else ''}{w}': no such target")


# --- samples ---------------------------------------------------------------

def check_samples(cli):
    ran = 0
    for doc in docs():
        _, blocks = prose_and_code(read(doc))
        for start, block in blocks:
            i = 0
            while i < len(block):
                line = block[i]
                i += 1
                if not line.startswith("$ pcieaudit-cli "):
                    continue
                args = line[len("$ pcieaudit-cli "):].split(" #")[0].split()
                shown = []
                while i < len(block) and not block[i].startswith("$ "):
                    shown.append(block[i])
                    i += 1
                sources = [args[k + 1] for k, a in enumerate(args[:-1])
                           if a in ("--input", "--sysfs", "--lspci")]
                if not sources or not all(os.path.exists(os.path.join(TOP, s)) for s in sources):
                    continue
                if any(c in line for c in "|><"):
                    continue
                ran += 1
                env = dict(os.environ, NO_COLOR="1", LC_ALL="C.UTF-8")
                r = subprocess.run([cli] + args, cwd=TOP, env=env, capture_output=True,
                                   text=True, timeout=60)
                out = r.stdout.split("\n")
                pos = 0
                for want in shown:
                    if not want.strip() or want.strip() == "...":
                        continue
                    try:
                        pos = out.index(want.rstrip(), pos) + 1
                    except ValueError:
                        fail(f"{doc}:{start}: '{line}' does not print, at this place "
                             f"in its output: {want.strip()!r}")
                        break
    if ran == 0:
        fail("no sample of README.md or docs/ could be run")
    return ran


FOLDER_LINE = re.compile(r"^(kmod|user/[a-z_]+)/(\s|$)")
SOURCE_PATH = re.compile(r"(?<![\w./-])((?:kmod|user/[a-z_]+)/[a-z0-9_]+\.[ch])(?![\w])")
FILE_NAME = re.compile(r"(?<![\w./-])([a-z0-9_]+\.[ch])(?![\w])")


def check_install_lines():
    """Every apt-get line of the docs that installs the CLI's libraries
    (one -dev package of CLI_DEPS) names them all: a reader who copies it
    must be able to build the CLI."""
    mk = read("Makefile")
    m = re.search(r"^CLI_DEPS :=((?:.*\\\n)*.*)$", mk, re.M)
    if not m:
        fail("Makefile: no CLI_DEPS")
        return
    devs = [w for w in m.group(1).replace("\\", " ").split() if w.endswith("-dev")]
    for doc in docs():
        text = read(doc).replace("\\\n", " ")  # continued lines joined
        for cmd in re.finditer(r"apt-get install[^\n]*", text):
            words = cmd.group(0).split()
            if not any(w in devs for w in words):
                continue
            missing = [d for d in devs if d not in words]
            if missing:
                fail(f"{doc}: an apt-get line that builds the CLI lacks {' '.join(missing)} (Makefile's CLI_DEPS)")


def check_layout():
    """docs/layout.md's file lists against the tree, both ways."""
    _, blocks = prose_and_code(read("docs/layout.md"))
    listed, order = {}, []
    for _, lines in blocks:
        folder = None
        for line in lines:
            m = FOLDER_LINE.match(line)
            if m:
                folder = m.group(1)
                order.append(folder)
                listed.setdefault(folder, set())
                line = line[m.end():]
            elif line[:1] not in (" ", "\t"):
                folder = None
            if folder:
                listed[folder].update(FILE_NAME.findall(line))
    layers = re.search(r"^PA_LAYERS\s*:=\s*(.*)$", read("user/layers.mk"), re.M)
    want = ["user/" + f for f in layers.group(1).split()]
    if [f for f in order if f.startswith("user/")] != want:
        fail(f"docs/layout.md: user/'s folders are not in PA_LAYERS's order ({' '.join(want)})")
    for folder in ["kmod"] + want:
        names = {os.path.basename(p) for p in glob.glob(os.path.join(TOP, folder, "*.[ch]"))}
        needed = {n for n in names if n.endswith(".c") or n[:-2] + ".c" not in names}
        for n in sorted(needed - listed.get(folder, set())):
            fail(f"docs/layout.md: {folder}/{n} is not listed under {folder}/")
        for n in sorted(listed.get(folder, set()) - names):
            fail(f"docs/layout.md: {folder}/{n} is listed but not in the tree")
    for doc in docs():
        for path in sorted(set(SOURCE_PATH.findall(read(doc)))):
            if not os.path.exists(os.path.join(TOP, path)):
                fail(f"{doc}: {path} does not exist (docs/layout.md says where files are)")
    return sum(len(v) for v in listed.values())


def check_man_sections():
    """Each .SH of the man page once."""
    seen = set()
    for line in read("man/pcieaudit-cli.8").split("\n"):
        if line.startswith(".SH "):
            title = line[4:].strip().strip('"')
            if title in seen:
                fail(f"man/pcieaudit-cli.8: section {title} appears twice")
            seen.add(title)


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else os.path.join(TOP, "user", "pcieaudit-cli")
    check_links()
    check_rules()
    check_exit_codes()
    check_commands()
    check_guide()
    check_metrics()
    check_make()
    check_install_lines()
    nlisted = check_layout()
    check_man_sections()
    if os.access(cli, os.X_OK):
        ran = check_samples(cli)
    else:
        fail(f"{cli} is not built (make cli): the samples cannot be run")
        ran = 0
    for p in problems:
        print(f"doc: {p}", file=sys.stderr)
    if problems:
        return 1
    print(f"doc_check: links, {len(code_rules())} rules, exit codes, commands, guide, metrics, make targets, install lines, "
          f"layout ({nlisted} files), man sections, {ran} samples")
    return 0


if __name__ == "__main__":
    sys.exit(main())
