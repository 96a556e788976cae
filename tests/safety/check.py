#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judges a safety run (tests/safety/safety-init.sh) from its results.

    check.py --trace QEMU_TRACE RESULTS
    check.py --selftest

The oracles are the kernel's and QEMU's, never the module's word:
  off       with monitor_interval_ms=0 the load read no LnkCap (QEMU's
            trace, window O), debugfs has no monitor and report no history;
  groups    every IOMMU group of sysfs, members and all, in the dump that
            group-probe made as a fresh socket's first request (one group
            of more than 130 members), which ended without an error, and in
            report --json;
  runtime   QEMU's trace of every configuration read (pci_cfg_read): while
            the endpoint and its Root Port were active (window A), the
            module read the port's LnkSta; while both were runtime-suspended
            (window B), nothing read the endpoint and nothing read the
            port's LnkSta or ACS control; the link history of both says
            "suspended" and did not change between two reports;
  resets    with resets of a function in a loop, every dump and the rescan
            completed and the sampler's passes went on (blocked reads it
            skipped are counted, a figure);
  suspend   ftrace: no function of the module ran between the end of
            dpm_suspend and the start of dpm_resume, and report worked
            after the resume;
  and no kernel splat in dmesg. Prints the figures the note quotes.
"""
import json
import os
import re
import shutil
import sys
import tempfile

# The monitor test's pattern of a kernel splat: one list for both guests.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "monitor"))
from check import SPLAT  # noqa: E402

# QEMU's hw/pci trace: device model, bus:slot.function, offset.
CFG_READ = re.compile(r'pci_cfg_read (\S+) ([0-9a-f]{2}:[0-9a-f]{2}\.[0-7]) @0x([0-9a-f]+)')
MARKERS = {0x48: "A start", 0x4c: "A end", 0x50: "B start", 0x54: "B end",
           0x58: "O start", 0x5c: "O end"}


def read(res, name):
    path = os.path.join(res, name)
    return open(path, errors="replace").read() if os.path.exists(path) else ""


def facts_of(res):
    facts = {}
    for line in read(res, "facts.txt").splitlines():
        k, _, v = line.partition("=")
        facts[k] = v
    return facts


def stats_of(text):
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].isdigit():
            out[parts[0]] = int(parts[1])
    return out


def load_json(res, name, errors):
    try:
        return json.loads(read(res, name))
    except ValueError as e:
        errors.append("%s: %s" % (name, e))
        return None


def judge_groups(res, facts, errors):
    sysfs = {}
    for line in read(res, "sysfs-groups.txt").splitlines():
        gid, bdf = line.split()
        sysfs.setdefault(int(gid), set()).add(bdf)
    if not sysfs:
        errors.append("sysfs lists no IOMMU group")
        return ""
    probe = {}
    rc = None
    messages = 0
    for line in read(res, "group-probe.txt").splitlines():
        m = re.match(r"group (\d+) member (\S+)$", line)
        if m:
            probe.setdefault(int(m.group(1)), set()).add(m.group(2))
        m = re.match(r"messages (\d+) parts (\d+) rc (-?\d+)$", line)
        if m:
            messages, rc = int(m.group(1)), int(m.group(3))
    if rc != 0:
        errors.append("GROUP_GET as a fresh socket's first request ended with rc %s" % rc)
    if probe != sysfs:
        missing = sorted(set(sysfs) - set(probe))
        differ = sorted(g for g in sysfs if g in probe and probe[g] != sysfs[g])
        errors.append("GROUP_GET differs from sysfs: groups missing %s, members differ in %s"
                      % (missing[:5], differ[:5]))
    big = max(len(v) for v in sysfs.values())
    if big <= 130:
        errors.append("the largest group has %d members, the test needs more than 130" % big)
    rep = load_json(res, "report.json", errors)
    if rep is not None:
        cli = {g["id"]: set(g["devices"]) for g in rep.get("groups") or []}
        if cli != sysfs:
            errors.append("report --json's groups differ from sysfs")
    return "groups %d, largest %d members, %d messages" % (len(sysfs), big, messages)


def port_offsets(lspci, reg=0x12):
    """LnkSta (or another PCIe register) and ACS control offsets of the
    port, from lspci -vvv."""
    offs = set()
    m = re.search(r"Capabilities: \[([0-9a-f]+)\] Express", lspci)
    if m:
        offs.update({int(m.group(1), 16) + reg})
    m = re.search(r"Capabilities: \[([0-9a-f]+) v\d+\] Access Control Services", lspci)
    if m:
        offs.update({int(m.group(1), 16) + 6})
    return offs


def judge_runtime(res, facts, trace, errors):
    port_offs = port_offsets(read(res, "port.lspci"))
    if not port_offs:
        errors.append("no PCIe capability in the port's lspci")
    lnkcap = port_offsets(read(res, "port.lspci"), 0x0c) - port_offs
    window = None
    reads = {w: {"port": 0, "ep": 0, "lnkcap": 0} for w in "ABO"}
    seen = set()
    for line in trace.splitlines():
        m = CFG_READ.search(line)
        if not m:
            continue
        name, bdf, off = m.group(1), "0000:" + m.group(2), int(m.group(3), 16)
        if name == "mch" and off in MARKERS:
            label = MARKERS[off]
            seen.add(label)
            window = label[0] if label.endswith("start") else None
            continue
        if window is None:
            continue
        if bdf == facts.get("rpm_bdf"):
            reads[window]["ep"] += 1
        if bdf == facts.get("rpm_port_bdf") and off in port_offs:
            reads[window]["port"] += 1
        if bdf == facts.get("rpm_port_bdf") and off in lnkcap:
            reads[window]["lnkcap"] += 1
    if seen != set(MARKERS.values()):
        errors.append("QEMU's trace lacks markers %s (no pci_cfg_read trace?)"
                      % sorted(set(MARKERS.values()) - seen))
        return ""
    # Off means off: the load with monitor_interval_ms=0 read no LnkCap.
    if reads["O"]["lnkcap"]:
        errors.append("monitor off: the load read the port's LnkCap %d times"
                      % reads["O"]["lnkcap"])
    if facts.get("off_insmod_rc") != "0" or facts.get("off_report_rc") != "0":
        errors.append("monitor off: insmod %s, report %s"
                      % (facts.get("off_insmod_rc"), facts.get("off_report_rc")))
    if facts.get("off_debugfs") != "absent":
        errors.append("monitor off: debugfs pcieaudit/monitor is %s" % facts.get("off_debugfs"))
    off = load_json(res, "report-off.json", errors) or {}
    if any(d.get("link_history") for d in off.get("devices") or []):
        errors.append("monitor off: report --json has a link history")
    if reads["A"]["port"] == 0:
        errors.append("window A: the module never read the active port's LnkSta")
    if facts.get("rpm_endpoint") != "suspended":
        errors.append("the endpoint did not runtime-suspend (%s)" % facts.get("rpm_endpoint"))
    if reads["B"]["ep"]:
        errors.append("window B: %d reads of the runtime-suspended endpoint" % reads["B"]["ep"])
    port_suspended = facts.get("rpm_port") == "suspended" and \
        facts.get("rpm_port_after") == "suspended"
    if port_suspended and reads["B"]["port"]:
        errors.append("window B: %d reads of the runtime-suspended port's LnkSta/ACS"
                      % reads["B"]["port"])
    if not port_suspended:
        errors.append("the Root Port did not runtime-suspend (%s, %s)"
                      % (facts.get("rpm_port"), facts.get("rpm_port_after")))
    before = stats_of(read(res, "stats-suspended-before.txt"))
    after = stats_of(read(res, "stats-suspended-after.txt"))
    skipped = after.get("skipped_suspended", 0) - before.get("skipped_suspended", 0)
    if skipped <= 0:
        errors.append("the sampler counted no read skipped for suspension in window B")
    return "window A: %d port reads; window B: %d port reads, %d endpoint reads; %d reads skipped" % (
        reads["A"]["port"], reads["B"]["port"], reads["B"]["ep"], skipped)


def judge_history(res, bdfs, errors):
    snaps = []
    for i in (1, 2):
        rep = load_json(res, "report-suspended-%d.json" % i, errors)
        if rep is None:
            return
        snaps.append({d["bdf"]: d.get("link_history") for d in rep.get("devices") or []})
    for bdf in bdfs:
        h1, h2 = snaps[0].get(bdf), snaps[1].get(bdf)
        if not h1 or not h2:
            errors.append("%s: no link history in report --json" % bdf)
            continue
        for h in (h1, h2):
            if h.get("not_sampled") != "suspended":
                errors.append("%s: link history says not_sampled %r while suspended"
                              % (bdf, h.get("not_sampled")))
        for k in ("transitions", "below_capability_seconds", "slowest_gts", "narrowest_width"):
            if h1.get(k) != h2.get(k):
                errors.append("%s: history %s changed while suspended: %r -> %r"
                              % (bdf, k, h1.get(k), h2.get(k)))
        if not h2.get("unsampled_seconds", 0) > h1.get("unsampled_seconds", 0):
            errors.append("%s: unsampled time did not grow while suspended" % bdf)


def judge_resets(res, facts, errors):
    resets = read(res, "resets.txt").strip()
    if not resets.isdigit() or int(resets) == 0:
        errors.append("no reset of the NVMe function succeeded (%r, reset_method %s)"
                      % (resets, facts.get("reset_method")))
        return ""
    lat = read(res, "latencies.txt").splitlines()
    if len(lat) != 6 or any(" rc 0 " not in line for line in lat):
        errors.append("dumps or the rescan under resets did not all complete: %s" % lat)
    before = stats_of(read(res, "stats-reset-before.txt"))
    after = stats_of(read(res, "stats-reset-after.txt"))
    blocked = after.get("skipped_blocked", 0) - before.get("skipped_blocked", 0)
    # The sampler went on through the resets (its passes and reads rose);
    # whether a pass met a blocked function depends on timing: a figure.
    for k in ("passes", "lnksta_reads"):
        if after.get(k, 0) <= before.get(k, 0):
            errors.append("the sampler's %s did not rise during %s resets" % (k, resets))
    secs = [float(line.split()[-1]) for line in lat if line.split()[-1].replace(".", "").isdigit()]
    return "%s resets (%s); %d reads skipped as blocked; dump/rescan seconds %s" % (
        resets, facts.get("reset_method"), blocked, secs)


def judge_suspend(res, facts, errors):
    if facts.get("ftrace") != "present":
        errors.append("no function tracer in the guest")
        return ""
    if facts.get("suspend_rc") != "0":
        errors.append("the pm_test suspend failed (rc %s)" % facts.get("suspend_rc"))
    lines = read(res, "suspend-trace.txt").splitlines()
    start = end = None
    for i, line in enumerate(lines):
        if start is None and re.search(r"suspend_resume: dpm_suspend\[\d+\] end", line):
            start = i
        if start is not None and re.search(r"suspend_resume: dpm_resume\[\d+\] begin", line):
            end = i
            break
    if start is None or end is None:
        errors.append("the trace lacks the end of dpm_suspend or the start of dpm_resume")
        return ""
    calls = [line for line in lines if "suspend_resume" not in line and
             not line.startswith("#") and re.search(r"\S+\s+\[\d+\]", line)]
    inside = [line for line in lines[start + 1:end]
              if "suspend_resume" not in line and not line.startswith("#")]
    if inside:
        errors.append("%d calls of the module's functions while devices were suspended: %s"
                      % (len(inside), inside[0].strip()))
    if not calls:
        errors.append("the trace holds no call of the module's functions at all")
    if facts.get("report_resumed_rc") != "0":
        errors.append("report after resume exited %s" % facts.get("report_resumed_rc"))
    return "%d module calls traced, %d between dpm_suspend and dpm_resume" % (len(calls), len(inside))


def judge(res, trace):
    errors = []
    facts = facts_of(res)
    if facts.get("finished") != "1":
        errors.append("the guest did not finish")
    if facts.get("insmod_rc") != "0" or facts.get("report_rc") != "0":
        errors.append("insmod %s, report %s" % (facts.get("insmod_rc"), facts.get("report_rc")))
    out = [judge_groups(res, facts, errors), judge_runtime(res, facts, trace, errors)]
    bdfs = [facts.get("rpm_bdf"), facts.get("rpm_port_bdf")]
    judge_history(res, [b for b in bdfs if b], errors)
    out += [judge_resets(res, facts, errors), judge_suspend(res, facts, errors)]
    splat = [line for line in read(res, "dmesg.txt").splitlines() if SPLAT.search(line)]
    if splat:
        errors.append("kernel splat: %s" % splat[0])
    return errors, "; ".join(x for x in out if x)


def selftest():
    """A passing run, then one fault planted at a time: each must fail."""
    d = tempfile.mkdtemp()
    try:
        def w(name, text):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        w("facts.txt", "finished=1\ninsmod_rc=0\nreport_rc=0\nrpm_endpoint=suspended\n"
          "rpm_port=suspended\nrpm_port_after=suspended\nsuspend_rc=0\nftrace=present\n"
          "report_resumed_rc=0\nreset_method=flr\nrpm_bdf=0000:01:00.0\n"
          "off_insmod_rc=0\noff_report_rc=0\noff_debugfs=absent\n"
          "rpm_port_bdf=0000:00:02.0\n")
        members = ["0000:03:%02x.%d" % (s, f) for s in range(1, 19) for f in range(8)]
        w("sysfs-groups.txt", "".join("5 %s\n" % m for m in members) + "1 0000:00:02.0\n")
        w("group-probe.txt", "".join("group 5 member %s\n" % m for m in members) +
          "group 1 member 0000:00:02.0\nmessages 4 parts 3 rc 0\n")
        devs = lambda skip, un: [  # noqa: E731
            {"bdf": b, "link_history": {"transitions": 0, "below_capability_seconds": 0,
                                        "not_sampled": skip, "unsampled_seconds": un}}
            for b in ("0000:01:00.0", "0000:00:02.0")]
        w("report.json", json.dumps({"groups": [{"id": 5, "devices": members},
                                                {"id": 1, "devices": ["0000:00:02.0"]}]}))
        w("report-suspended-1.json", json.dumps({"devices": devs("suspended", 1.0)}))
        w("report-suspended-2.json", json.dumps({"devices": devs("suspended", 3.0)}))
        w("port.lspci", "Capabilities: [40] Express (v2) Root Port\n"
          "Capabilities: [148 v1] Access Control Services\n")
        w("stats-suspended-before.txt", "skipped_suspended 2\n")
        w("stats-suspended-after.txt", "skipped_suspended 40\n")
        w("resets.txt", "12\n")
        w("latencies.txt", "".join("dump rc 0 seconds 0.40\n" for _ in range(5)) +
          "rescan rc 0 seconds 0.90\n")
        w("stats-reset-before.txt", "skipped_blocked 0\npasses 10\nlnksta_reads 40\n")
        w("stats-reset-after.txt", "skipped_blocked 9\npasses 90\nlnksta_reads 360\n")
        w("suspend-trace.txt", "# tracer: function\n"
          " kworker-1 [000] 1.0: mon_sample_work <-process_one_work\n"
          " sh-1 [000] 2.0: suspend_resume: dpm_suspend[2] end\n"
          " sh-1 [000] 7.0: suspend_resume: dpm_resume[16] begin\n"
          " kworker-1 [000] 8.0: mon_sample_work <-process_one_work\n")
        w("dmesg.txt", "ok\n")
        w("report-off.json", json.dumps({"devices": [{"bdf": "0000:00:02.0", "link_history": None}]}))
        trace = ("pci_cfg_read mch 00:00.0 @0x58 -> 0\npci_cfg_read mch 00:00.0 @0x5c -> 0\n"
                 "pci_cfg_read mch 00:00.0 @0x48 -> 0\npci_cfg_read pcie-root-port 00:02.0 @0x52 -> 0\n"
                 "pci_cfg_read mch 00:00.0 @0x4c -> 0\npci_cfg_read mch 00:00.0 @0x50 -> 0\n"
                 "pci_cfg_read mch 00:00.0 @0x54 -> 0\n")
        errors, _ = judge(d, trace)
        if errors:
            return "selftest: a good run failed: %s" % errors
        faults = [
            ("trace", trace.replace("@0x50 -> 0\n", "@0x50 -> 0\npci_cfg_read nvme 01:00.0 @0x0 -> 0\n")),
            ("trace", trace.replace("@0x50 -> 0\n", "@0x50 -> 0\npci_cfg_read pcie-root-port 00:02.0 @0x52 -> 0\n")),
            ("trace", trace.replace("pci_cfg_read pcie-root-port 00:02.0 @0x52 -> 0\n", "")),
            ("trace", trace.replace("@0x58 -> 0\n", "@0x58 -> 0\npci_cfg_read pcie-root-port 00:02.0 @0x4c -> 0\n")),
            ("report-off.json", json.dumps({"devices": [{"bdf": "0000:00:02.0", "link_history": {"transitions": 0}}]})),
            ("group-probe.txt", "group 1 member 0000:00:02.0\nmessages 1 parts 1 rc 90\n"),
            ("suspend-trace.txt", read(d, "suspend-trace.txt").replace(
                "7.0: suspend", "3.0: mon_sample_work <-x\n sh-1 [000] 7.0: suspend")),
            ("stats-reset-after.txt", "skipped_blocked 0\npasses 10\nlnksta_reads 40\n"),
            ("report-suspended-2.json", json.dumps({"devices": devs(None, 3.0)})),
            ("dmesg.txt", "WARNING: CPU: 0 PID: 1 at kmod/monitor.c\n"),
        ]
        for name, bad in faults:
            keep = read(d, name) if name != "trace" else None
            if name == "trace":
                errors, _ = judge(d, bad)
            else:
                w(name, bad)
                errors, _ = judge(d, trace)
                w(name, keep)
            if not errors:
                return "selftest: a planted fault in %s passed" % name
        return None
    finally:
        shutil.rmtree(d)


def main():
    if sys.argv[1:] == ["--selftest"]:
        err = selftest()
        if err:
            print(err)
            return 1
        print("safety check selftest: a good run passes; 10 planted faults fail")
        return 0
    if len(sys.argv) != 4 or sys.argv[1] != "--trace":
        print(__doc__)
        return 2
    trace = open(sys.argv[2], errors="replace").read() if os.path.exists(sys.argv[2]) else ""
    errors, summary = judge(sys.argv[3], trace)
    for e in errors:
        print("FAIL: " + e)
    print("safety: " + summary)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
