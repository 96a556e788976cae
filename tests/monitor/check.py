#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judges a monitor run (tests/monitor/monitor-init.sh) from its results.

    check.py RESULTS
    check.py --selftest

Fails unless: the JSON listener saw, for the hot-plugged function and its
root port, in this order: the function removed (bus notifier), the port's
link down, the port's link up, the function added (bus notifier), with
non-decreasing timestamps; where the kernel has the pci_hp_event and
pcie_link_event tracepoints (tracefs lists them: the oracle), the module
attached to both, took as many hints as tracefs recorded events, and the
link up that pciehp traced carries source pci_hp_event (or the sampler's,
when its read came first and the hint found nothing new); elsewhere every
link event is the sampler's; an acs-changed event on the port with the
value setpci wrote, and one back; the text listener printed the same
events (same sequence numbers); no loss, or a loss signalled by a resync
line; both listeners exited 4 with a message at rmmod, and one exited 0 on
SIGTERM; the port's link history in report --json counts at least the two
transitions the events showed; no kernel splat in dmesg. QEMU's own state
(lspci of the port with the function unplugged: DLActive-) is the oracle
for "down". Prints the event counts.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sampler_stats  # noqa: E402

SPLAT = re.compile(
    r'KASAN|UBSAN|BUG:|WARNING:|Oops|general protection fault|Kernel panic'
    r'|possible (recursive |circular )?locking|inconsistent lock state'
    r'|suspicious RCU usage|sleeping function called from invalid context'
    r'|blocked for more than|refcount_t:|list_(add|del) corruption'
    r'|unreferenced object|Call Trace:')


def facts_of(res):
    facts = {}
    with open(os.path.join(res, "facts.txt")) as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition("=")
            facts[k] = v
    return facts


def param(cmdline, name):
    m = re.search(r"\b%s=(\S+)" % name, cmdline)
    return m.group(1) if m else None


def read(res, name):
    path = os.path.join(res, name)
    return open(path, errors="replace").read() if os.path.exists(path) else ""


def judge_sources(res, facts, events, port, link_up):
    """Each event's source against what the kernel itself traced."""
    errors = []
    stats = read(res, "sampler-stats.txt")
    counts = sampler_stats.parse(stats)
    kernel = read(res, "kernel-trace.txt")
    traced = {}
    for tp in ("pci_hp_event", "pcie_link_event"):
        state = re.search(r"^trace_%s (\S+)" % tp, stats, re.M)
        state = state.group(1) if state else None
        traced[tp] = facts.get("tracefs_" + tp) == "present"
        if not traced[tp]:
            if state != "absent":
                errors.append("tracefs has no %s, the module says %s" % (tp, state))
            continue
        if state != "attached":
            errors.append("the kernel has %s, the module says %s" % (tp, state))
        n = len(re.findall(r"\b%s:" % tp, kernel))
        if counts.get("hints_" + tp) != n:
            errors.append("tracefs recorded %d %s events, the module took %s hints"
                          % (n, tp, counts.get("hints_" + tp)))
        else:
            print("%s: %d events in tracefs, %d hints in the module" % (tp, n, n))
    allowed = {"sampler"} | {tp for tp in traced if traced[tp]}
    for e in events:
        if e["event"] == "link" and e["source"] not in allowed:
            errors.append("a link event from %s on a kernel without it" % e["source"])
        if e["event"] == "acs-changed" and e["source"] != "sampler":
            errors.append("an acs-changed event from %s" % e["source"])
    # pciehp traces LINK_UP for the port before it scans the slot.
    if traced["pci_hp_event"] and link_up:
        pciehp_up = re.search(r"pci_hp_event: %s slot:\S+, event:LINK_UP" % re.escape(port),
                              kernel)
        if not pciehp_up:
            errors.append("tracefs has no LINK_UP of %s from pciehp" % port)
        elif link_up["source"] != "pci_hp_event" and not (
                link_up["source"] == "sampler" and counts.get("hints_stale", 0) > 0):
            errors.append("the link up of %s came from %s, not pci_hp_event, and no hint "
                          "was stale" % (port, link_up["source"]))
        else:
            print("link up of %s: source %s" % (port, link_up["source"]))
    return errors


def judge(res, cmdline):
    errors = []
    facts = facts_of(res)
    ep, port = param(cmdline, "pa_ep"), param(cmdline, "pa_port")
    events, resyncs = [], 0
    with open(os.path.join(res, "monitor.jsonl")) as f:
        for line in f:
            e = json.loads(line)
            if e["event"] == "resync":
                resyncs += 1
            else:
                events.append(e)
    seqs = [e["seq"] for e in events]
    if seqs != sorted(seqs):
        errors.append("sequence numbers out of order: %s" % seqs)
    if not resyncs and seqs and seqs != list(range(seqs[0], seqs[0] + len(seqs))):
        errors.append("a gap in the sequence without a resync line: %s" % seqs)
    times = [e["time"] for e in events]
    if times != sorted(times):
        errors.append("timestamps go backwards")

    def find(start, pred, what):
        for i in range(start, len(events)):
            if pred(events[i]):
                return i
        errors.append("no %s after event %d" % (what, start))
        return None

    i = find(0, lambda e: e["event"] == "removed" and e["bdf"] == ep and
             e["source"] == "bus-notifier", "removal of " + ep)
    if i is not None:
        i = find(i + 1, lambda e: e["event"] == "link" and e["bdf"] == port and
                 not e["link"]["up"] and e["was"]["up"], "link down on " + port)
    up = None
    if i is not None:
        i = up = find(i + 1, lambda e: e["event"] == "link" and e["bdf"] == port and
                      e["link"]["up"], "link up on " + port)
    if i is not None:
        find(i + 1, lambda e: e["event"] == "added" and e["bdf"] == ep and
             e["source"] == "bus-notifier", "addition of " + ep)

    errors += judge_sources(res, facts, events, port, None if up is None else events[up])

    acs_set = facts.get("acs_set")
    acs = [e for e in events if e["event"] == "acs-changed" and e["bdf"] == port]
    if not acs_set:
        errors.append("setpci could not read the port's ACS control")
    elif [e["acs_ctrl"] for e in acs] != ["0x" + acs_set, "0x" + facts["acs_before"]]:
        errors.append("acs-changed events %s, want to 0x%s and back to 0x%s"
                      % ([e["acs_ctrl"] for e in acs], acs_set, facts["acs_before"]))

    with open(os.path.join(res, "monitor.txt")) as f:
        text = [l for l in f if "resync" not in l]
    text_seqs = [int(re.search(r"seq (\d+)$", l).group(1)) for l in text]
    if text_seqs != seqs:
        errors.append("the text listener saw seq %s, the JSON one %s" % (text_seqs, seqs))

    for k, want in (("unplug_rc", "0"), ("plug_rc", "0"), ("rmmod_rc", "0"),
                    ("monitor_rc", "4"), ("monitor_json_rc", "4"),
                    ("monitor_term_rc", "0"), ("report_rc", "0"),
                    ("exporter_before_rc", "0"), ("exporter_unplugged_rc", "0"),
                    ("exporter_plugged_rc", "0"), ("exporter_rmmod_rc", "0"),
                    ("exporter_rc", "0")):
        if facts.get(k) != want:
            errors.append("%s is %s, want %s" % (k, facts.get(k), want))
    for name in ("monitor.err", "monitor-json.err"):
        if "unloaded" not in open(os.path.join(res, name)).read():
            errors.append(name + " does not say the module was unloaded")
    # The exporter (--interval 3600) followed the hot-plug and the rmmod
    # (the facts above; sysfs's own view is the oracle of presence) through
    # event-triggered collections alone.
    plugged = os.path.join(res, "exporter-plugged.txt")
    if os.path.exists(plugged):
        body = open(plugged).read()
        ev = re.search(r'^pcieaudit_collections_total\{trigger="event"\} (\d+)$', body, re.M)
        iv = re.search(r'^pcieaudit_collections_total\{trigger="interval"\} (\d+)$', body, re.M)
        # An interval collection is the exporter's fault unless the
        # guest's own clock says the hour passed: TCG on a loaded host has
        # let a guest clock jump (a fresh-clone CI run of 3f65e7a), while the run is limited
        # to minutes of the host's time.
        try:
            elapsed = (float(facts["exporter_plugged_uptime"]) -
                       float(facts["exporter_start_uptime"]))
        except (KeyError, ValueError):
            elapsed = None
        clock_jumped = elapsed is not None and elapsed >= 3600
        if not ev or int(ev.group(1)) < 2 or not iv or (iv.group(1) != "0" and not clock_jumped):
            errors.append("the exporter's collections after the replug: event %s, interval %s; "
                          "want 2 or more and 0 (the guest's clock: %s s since the exporter started)"
                          % (ev and ev.group(1), iv and iv.group(1),
                             "?" if elapsed is None else "%.1f" % elapsed))
            err = os.path.join(res, "exporter.err")
            if os.path.exists(err):
                errors.extend("exporter.err: " + l.rstrip() for l in open(err))
        elif iv.group(1) != "0":
            print("exporter: %s event-triggered collections by the replug, %s by the interval: "
                  "the guest's clock ran %.0f s (CLOCK_BOOTTIME) in a run of minutes, so the "
                  "hour passed for the exporter too" % (ev.group(1), iv.group(1), elapsed))
        else:
            print("exporter: %s event-triggered collections by the replug, 0 by the interval "
                  "(%.1f s of the guest's clock)" % (ev.group(1), elapsed or 0))
    else:
        errors.append("no exporter body after the replug")
    # QEMU's view, the independent one: the port's link inactive while
    # the slot is empty.
    unplugged = open(os.path.join(res, "port-unplugged.txt")).read()
    if "DLActive-" not in unplugged:
        errors.append("lspci does not show the port's link down while unplugged")

    report = json.load(open(os.path.join(res, "report.json")))
    dev = {d["bdf"]: d for d in report["devices"]}
    hist = (dev.get(port) or {}).get("link_history")
    port_changes = [e for e in events if e["event"] == "link" and e["bdf"] == port and
                    (e["link"]["up"] != e["was"]["up"] or e["link"]["width"] != e["was"]["width"]
                     or e["link"]["speed_gts"] != e["was"]["speed_gts"])]
    if not hist:
        errors.append("no link_history for %s in report --json" % port)
    elif hist["transitions"] < len(port_changes) or hist["transitions"] < 2:
        errors.append("link_history of %s counts %d transitions, the events %d"
                      % (port, hist["transitions"], len(port_changes)))
    if not (dev.get(ep) or {}).get("link_history"):
        errors.append("no link_history for the replugged %s" % ep)

    for line in open(os.path.join(res, "dmesg.txt"), errors="replace"):
        if SPLAT.search(line):
            errors.append("splat: " + line.strip())
    # The sampler's passes, as the function_graph tracer timed them.
    durations = []
    trace = os.path.join(res, "sample-trace.txt")
    if os.path.exists(trace):
        for line in open(trace):
            m = re.search(r"([0-9.]+) us", line)
            if m:
                durations.append(float(m.group(1)))
    if durations:
        durations.sort()
        n = int(facts.get("functions", "0"))
        med = durations[len(durations) // 2]
        print("sampler: %d passes over %d functions, median %.1f us (%.2f us a function), "
              "max %.1f us; at one pass a second: %.4f%% of a core"
              % (len(durations), n, med, med / max(n, 1), durations[-1], med / 1e4))
    else:
        print("sampler: not timed (no function_graph tracer in this kernel)")
    stats = os.path.join(res, "sampler-stats.txt")
    if os.path.exists(stats):
        st = sampler_stats.parse(open(stats).read())
        s = sampler_stats.summary({}, st, "(debugfs)")
        if not st:
            print("sampler: no debugfs accounting (a kernel without debugfs?)")
        elif s:
            print(sampler_stats.line(s))
    kinds = {}
    for e in events:
        kinds[e["event"]] = kinds.get(e["event"], 0) + 1
    print("monitor: %d events (%s), %d resync lines, %d lost; port transitions %s"
          % (len(events), ", ".join("%s %d" % kv for kv in sorted(kinds.items())), resyncs,
             (seqs[-1] - seqs[0] + 1 - len(seqs)) if seqs else 0,
             hist["transitions"] if hist else "?"))
    return errors


def selftest():
    """The checker must reject a run whose events are out of order."""
    import tempfile
    d = tempfile.mkdtemp()
    ev = [
        {"seq": 1, "time": "1", "event": "added", "source": "bus-notifier", "bdf": "E"},
        {"seq": 2, "time": "2", "event": "removed", "source": "bus-notifier", "bdf": "E"},
    ]
    open(os.path.join(d, "monitor.jsonl"), "w").write("".join(json.dumps(e) + "\n" for e in ev))
    open(os.path.join(d, "monitor.txt"), "w").write("x seq 1\nx seq 2\n")
    open(os.path.join(d, "facts.txt"), "w").write("unplug_rc=0\n")
    for n in ("monitor.err", "monitor-json.err", "port-unplugged.txt", "dmesg.txt"):
        open(os.path.join(d, n), "w").write("")
    open(os.path.join(d, "report.json"), "w").write('{"devices": []}')
    errors = judge(d, "pa_ep=E pa_port=P")
    if not any("link down" in e for e in errors):
        sys.exit("selftest: the checker accepted a bad run: %s" % errors)
    # An interval collection within minutes of the guest's clock is the
    # exporter's fault; after the guest's clock ran the hour, it is not.
    body = ('pcieaudit_collections_total{trigger="event"} 3\n'
            'pcieaudit_collections_total{trigger="interval"} 1\n')
    open(os.path.join(d, "exporter-plugged.txt"), "w").write(body)
    for end, want in (("40.5", True), ("3700", False)):
        open(os.path.join(d, "facts.txt"), "w").write(
            "unplug_rc=0\nexporter_start_uptime=10.0\nexporter_plugged_uptime=%s\n" % end)
        blamed = any("collections after the replug" in e for e in judge(d, "pa_ep=E pa_port=P"))
        if blamed != want:
            sys.exit("selftest: an interval collection at guest uptime %s: blamed %s, want %s"
                     % (end, blamed, want))
    print("check.py selftest: ok")


def main():
    if sys.argv[1:] == ["--selftest"]:
        selftest()
        return
    res = sys.argv[1]
    cmdline = facts_of(res).get("cmdline") or open("/proc/self/cmdline").read()
    errors = judge(res, cmdline)
    for e in errors:
        print("FAIL:", e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
