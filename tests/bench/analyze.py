#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Medians and ratios of the benchmark's raw figures (bench-init.sh).

  analyze.py --check RESULTS            one run: table; exit 1 if unusable
  analyze.py --summary RESULTS...       all runs: the tables of
                                        docs/performance.md, in Markdown

A run is unusable when the guest did not finish, a measured command failed,
fewer than 5 counted rounds exist, or the outputs disagree on how many PCI
functions there are (report, lspci and scrape count them independently).
With the monitor phases (pa_monitor=1, the default) also when the sampler
ran no pass in its window, a scrape did not answer 200, or the exporter's
body does not list every function (sysfs's count is the oracle).
"""
import argparse
import gzip
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "monitor"))
import sampler_stats  # noqa: E402

NAMES = {
    "report": "pcieaudit-cli report --json",
    "lspci": "lspci -vvv",
    "scrape": "scrape (compiled sysfs scraper)",
    "clisysfs": "pcieaudit-cli report --json --sysfs /sys",
    "topo": "pcieaudit-cli topo (64 endpoints, 4032 pairs)",
    "text": "pcieaudit-cli report (text)",
    "exec": "pcieaudit-cli --version (exec and dynamic linking only)",
    "lspciexec": "lspci --version (the same for lspci)",
    "dump": "nldump: the report's netlink requests, replies discarded (the kernel's dump and the transfers)",
}


def load(res):
    facts = {}
    with open(os.path.join(res, "facts.txt")) as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition("=")
            facts[k] = v
    runs = {}
    path = os.path.join(res, "times.tsv")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                p = line.split()
                if len(p) != 7:
                    raise ValueError(f"{path}: bad line {line!r}")
                rnd, var = int(p[0]), p[1]
                wall, user, sys_, rss, rc = map(int, p[2:])
                runs.setdefault(var, []).append(
                    dict(round=rnd, wall=wall, user=user, sys=sys_, rss=rss, rc=rc))
    return facts, runs


def stats(runs):
    """Median of the counted rounds (round 0 warms up)."""
    out = {}
    for var, rs in runs.items():
        counted = [r for r in rs if r["round"] > 0]
        out[var] = dict(
            n=len(counted),
            wall=statistics.median(r["wall"] for r in counted) / 1000.0,
            wall_min=min(r["wall"] for r in counted) / 1000.0,
            wall_max=max(r["wall"] for r in counted) / 1000.0,
            cpu=statistics.median(r["user"] + r["sys"] for r in counted) / 1000.0,
            user=statistics.median(r["user"] for r in counted) / 1000.0,
            sys=statistics.median(r["sys"] for r in counted) / 1000.0,
            rss=max(r["rss"] for r in counted),
            rcs=sorted({r["rc"] for r in rs}),
        ) if counted else dict(n=0, rcs=sorted({r["rc"] for r in rs}))
    return out


def out_text(res, var):
    path = os.path.join(res, f"out-{var}.gz")
    if not os.path.exists(path):
        return None
    with gzip.open(path, "rt", errors="replace") as f:
        return f.read()


def counts(res):
    """Functions each tool saw, counted from its own output."""
    c = {}
    t = out_text(res, "report")
    if t:
        c["report"] = len(json.loads(t).get("devices", []))
    t = out_text(res, "clisysfs")
    if t:
        c["clisysfs"] = len(json.loads(t).get("devices", []))
    t = out_text(res, "lspci")
    if t:
        c["lspci"] = sum(1 for line in t.splitlines() if line and not line[0].isspace())
    t = out_text(res, "scrape")
    if t:
        c["scrape"] = sum(1 for line in t.splitlines() if line.startswith("dev\t"))
    t = out_text(res, "topo")
    if t:
        c["topo_text_lines"] = len(t.splitlines())
    return c


def dump_totals(res):
    """nldump's "messages bytes", or None without the dump variant."""
    t = out_text(res, "dump")
    if t is None:
        return None
    p = t.split()
    if len(p) != 2 or not all(x.isdigit() for x in p):
        raise ValueError(f"{res}: nldump printed {t!r}")
    return int(p[0]), int(p[1])


def read(res, name):
    path = os.path.join(res, name)
    if not os.path.exists(path):
        return None
    opener = gzip.open if name.endswith(".gz") else open
    with opener(path, "rt", errors="replace") as f:
        return f.read()


def monitoring(res, facts):
    """The sampler's window and the exporter's scrapes; None without them."""
    before, after = read(res, "monitor-before.txt"), read(res, "monitor-after.txt")
    if before is None or after is None:
        return None
    m = {"sampler": sampler_stats.summary(sampler_stats.parse(before), sampler_stats.parse(after))}
    if m["sampler"]:
        # Over the window: the passes' time over the window's length.
        window = float(facts["monitor_end"]) - float(facts["monitor_start"])
        d = sampler_stats.delta(sampler_stats.parse(before), sampler_stats.parse(after))
        m["sampler"]["window_s"] = window
        m["sampler"]["window_core_pct"] = d["pass_ns_total"] / (window * 1e9) * 100
    scrapes = []
    for line in (read(res, "exporter-scrapes.txt") or "").splitlines():
        p = line.split()
        if len(p) == 3:
            scrapes.append((int(p[0]) / 1000.0, int(p[1]), int(p[2])))
    m["scrapes"] = scrapes
    spread = []
    for line in (read(res, "exporter-scrapes-spread.txt") or "").splitlines():
        p = line.split()
        if len(p) == 3:
            spread.append((int(p[0]) / 1000.0, int(p[1]), int(p[2])))
    m["spread"] = spread
    body = read(res, "exporter-body.gz") or ""
    series = {}
    for line in body.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            series[name] = value
    m["collect_s"] = float(series.get("pcieaudit_collect_duration_seconds", "nan"))
    m["series"] = len(series)
    m["body_bytes"] = len(body)
    m["bdfs"] = len({l.split('bdf="')[1].split('"')[0] for l in body.splitlines()
                     if l.startswith("pcieaudit_link_width{") or
                     l.startswith("pcieaudit_aer_unknown{") or
                     l.startswith("pcieaudit_aer_correctable_errors_total{")})
    return m


def check(res):
    problems = []
    facts, runs = load(res)
    if facts.get("finished") != "1":
        problems.append("guest did not finish")
    st = stats(runs)
    for var, s in st.items():
        if s["rcs"] != [0]:
            problems.append(f"{var}: exit status {s['rcs']}")
        if s["n"] < 5:
            problems.append(f"{var}: only {s['n']} counted rounds")
    nfun = int(facts.get("functions", "0"))
    for tool, n in counts(res).items():
        if tool != "topo_text_lines" and n != nfun:
            problems.append(f"{tool} saw {n} functions, sysfs has {nfun}")
    # One message per function at least, groups and the rest besides.
    try:
        dt = dump_totals(res)
    except ValueError as e:
        problems.append(str(e))
        dt = None
    if dt is not None and dt[0] < nfun:
        problems.append(f"nldump saw {dt[0]} messages, sysfs has {nfun} functions")
    if int(facts.get("selected", "0")) != min(64, nfun - int(facts.get("bridges", "0"))):
        problems.append(f"{facts.get('selected')} endpoints selected, not 64")
    mon = monitoring(res, facts)
    if mon is not None:
        if not mon["sampler"]:
            problems.append("the sampler ran no pass in its window")
        for key in ("scrapes", "spread"):
            if not mon[key] or any(sc[2] != 200 for sc in mon[key]):
                problems.append("exporter %s: %s" % (key, [sc[2] for sc in mon[key]]))
        # Every PCIe function has either AER counters or an unknown reason.
        if mon["bdfs"] > nfun or mon["bdfs"] == 0:
            problems.append(f"the exporter's body names {mon['bdfs']} functions, sysfs has {nfun}")
    return facts, st, problems


def table(facts, st):
    lines = [f"kernel {facts.get('kernel')}, {facts.get('functions')} functions "
             f"({facts.get('bridges')} bridges, {facts.get('vfs')} VFs, "
             f"{facts.get('groups')} IOMMU groups)",
             "| variant | median ms | min-max ms | CPU ms (user+sys) | peak RSS KiB | x report |",
             "|---|---:|---:|---:|---:|---:|"]
    base = st.get("report", {}).get("wall")
    for var in NAMES:
        s = st.get(var)
        if not s or not s["n"]:
            continue
        ratio = f"{s['wall'] / base:.2f}" if base else "-"
        lines.append(f"| {NAMES[var]} | {s['wall']:.1f} | {s['wall_min']:.1f}-{s['wall_max']:.1f} | "
                     f"{s['cpu']:.1f} ({s['user']:.1f}+{s['sys']:.1f}) | {s['rss']} | {ratio} |")
    return "\n".join(lines)


def monitoring_row(nfun, facts, m):
    s = m["sampler"] or {}
    sc = sorted(x[0] for x in m["scrapes"])
    sp = sorted(x[0] for x in m.get("spread", []))
    med = statistics.median(sc) if sc else float("nan")
    return (f"| {nfun} | {facts.get('kernel')} | {s.get('link_every_pass', '-')} | "
            f"{s.get('reads_per_pass', 0):.1f} | {s.get('passes', 0)} | {s.get('mean_pass_us', 0):.0f} | "
            f"{s.get('ns_per_read', 0) / 1000:.1f} | {s.get('window_core_pct', float('nan')):.4f}% | "
            f"{len(sc)} | {med:.2f} | {sc[-1] if sc else float('nan'):.2f} | "
            f"{len(sp)} | {statistics.median(sp) if sp else float('nan'):.2f} | "
            f"{sp[-1] if sp else float('nan'):.2f} | "
            f"{m['collect_s'] * 1000:.0f} | {m['series']} |")


MONITORING_HEAD = [
    "| functions | kernel | links read each pass | reads a pass | passes | mean pass us | "
    "us a read | sampler CPU (window) | scrapes | scrape median ms | scrape max ms | "
    "spread scrapes | median ms | max ms | collection ms | series |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]


def summary(dirs):
    rows = []
    for d in dirs:
        facts, st, problems = check(d)
        rows.append((int(facts.get("functions", 0)), d, facts, st, problems))
    rows.sort(key=lambda r: (r[2].get("kernel", ""), r[0]))
    out = []
    for nfun, d, facts, st, problems in rows:
        out.append(f"### {os.path.basename(os.path.dirname(d.rstrip('/')))}\n")
        out.append(table(facts, st))
        if problems:
            out.append("\nPROBLEMS: " + "; ".join(problems))
        out.append("")
    # Ratios and growth, per kernel.
    out.append("| functions | kernel | lspci -vvv / report | scrape / report | "
               "clisysfs / report | topo / report | exec / report | dump / report | "
               "report peak RSS KiB |")
    out.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for nfun, d, facts, st, _ in rows:
        r = st.get("report", {}).get("wall")
        if not r:
            continue

        def ratio(v):
            s = st.get(v)
            return f"{s['wall'] / r:.1f}x" if s and s.get("n") else "-"
        out.append(f"| {nfun} | {facts.get('kernel')} | {ratio('lspci')} | {ratio('scrape')} | "
                   f"{ratio('clisysfs')} | {ratio('topo')} | {ratio('exec')} | {ratio('dump')} | "
                   f"{st['report']['rss']} |")
    mons = [(nfun, facts, monitoring(d, facts)) for nfun, d, facts, _, _ in rows]
    mons = [x for x in mons if x[2]]
    if mons:
        out.append("")
        out.append("Monitoring: the sampler over its quiet window at the default interval "
                   "(debugfs pcieaudit/monitor; \"us a read\" is pass time / reads, loop "
                   "included) and the exporter's scrapes (httpget, one after another):")
        out.append("")
        out.extend(MONITORING_HEAD)
        for nfun, facts, m in mons:
            out.append(monitoring_row(nfun, facts, m))
    by_kernel = {}
    for row in rows:
        by_kernel.setdefault(row[2].get("kernel"), []).append(row)
    out.append("")
    out.append("Growth (median wall time ratio between consecutive sizes, "
               "normalised to a doubling of functions: ratio ** (1 / log2(size ratio))):")
    out.append("")
    out.append("| kernel | variant | sizes | time ratio | per doubling |")
    out.append("|---|---|---|---:|---:|")
    import math
    for k, rs in by_kernel.items():
        for var in NAMES:
            for a, b in zip(rs, rs[1:]):
                sa, sb = a[3].get(var), b[3].get(var)
                if not sa or not sb or not sa.get("n") or not sb.get("n"):
                    continue
                tr = sb["wall"] / sa["wall"]
                per = tr ** (1 / math.log2(b[0] / a[0]))
                out.append(f"| {k} | {var} | {a[0]} -> {b[0]} | {tr:.2f} | {per:.2f} |")
    return "\n".join(out), any(r[4] for r in rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--summary", action="store_true")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    if a.summary:
        text, bad = summary(a.dirs)
        print(text)
        return 1 if bad else 0
    facts, st, problems = check(a.dirs[-1])
    print(table(facts, st))
    mon = monitoring(a.dirs[-1], facts)
    if mon:
        print("\n".join(MONITORING_HEAD + [monitoring_row(int(facts.get("functions", 0)), facts, mon)]))
    print("counts:", counts(a.dirs[-1]))
    try:
        dt = dump_totals(a.dirs[-1])
    except ValueError:
        dt = None
    if dt:
        print(f"nldump: {dt[0]} messages, {dt[1]} bytes")
    for p in problems:
        print("PROBLEM:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
