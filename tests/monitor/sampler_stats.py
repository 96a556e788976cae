# SPDX-License-Identifier: GPL-2.0
"""The module's sampler accounting, debugfs pcieaudit/monitor ("key value"
lines, kmod/monitor.c's mon_stats_show()), read and summarised. Shared by
tests/monitor/check.py and tests/bench/analyze.py."""


def parse(text):
    """{key: int} of the file's lines; {} for anything else."""
    out = {}
    for line in text.splitlines():
        k, _, v = line.partition(" ")
        if v.strip().lstrip("-").isdigit():
            out[k] = int(v)
    return out


def delta(before, after):
    """The passes between two readings: after - before for each counter."""
    return {k: after[k] - before.get(k, 0) for k in after}


def summary(before, after, label=""):
    """One line: passes, mean pass, reads a pass, ns a read, CPU share at
    one pass a second (the cost of a pass is its wall time: an upper bound
    of its CPU time). None when no pass ran."""
    d = delta(before, after)
    passes = d.get("passes", 0)
    if passes <= 0:
        return None
    ns = d["pass_ns_total"] / passes
    reads = (d["lnksta_reads"] + d["acs_reads"]) / passes
    per_read = d["pass_ns_total"] / max(d["lnksta_reads"] + d["acs_reads"], 1)
    return {
        "label": label, "functions": after.get("functions", 0),
        "link_every_pass": after.get("link_every_pass", 0),
        "link_on_change": after.get("link_on_change", 0), "acs": after.get("acs", 0),
        "passes": passes, "mean_pass_us": ns / 1e3, "max_pass_us": after.get("pass_ns_max", 0) / 1e3,
        "reads_per_pass": reads, "ns_per_read": per_read,
        # At one pass a second: ns a pass / 1e9 ns, as a percentage.
        "core_pct_at_1hz": ns / 1e7,
    }


def line(s):
    return ("sampler%s: %d functions (%d links read every pass, %d followers read on a change, "
            "%d with ACS); %d passes, mean %.1f us, max %.1f us, %.1f reads a pass, %.0f ns a read "
            "(pass time / reads); at one pass a second %.4f%% of one core"
            % (" " + s["label"] if s["label"] else "", s["functions"], s["link_every_pass"],
               s["link_on_change"], s["acs"], s["passes"], s["mean_pass_us"], s["max_pass_us"],
               s["reads_per_pass"], s["ns_per_read"], s["core_pct_at_1hz"]))
