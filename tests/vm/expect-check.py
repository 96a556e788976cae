#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judges the VM test of `check --expect` (topologies/gpu-server-expect.sh).

expect-check.py --golden GOLDEN_RESULTS [--cli CLI] RESULTS

GOLDEN_RESULTS is the first boot's results (gpu-server: snap1/report.json,
the module's snapshot, and snap1/sysfs.tsv), RESULTS the second boot's
(report.json, paths.tsv, check-guest.json). The oracle is sysfs: each
function's device path (host bridge, then device.function of every hop) and
ids in both boots give what is missing, moved and extra. The test fails
unless that is one display function missing and one moved, nothing extra,
and `check --profile expect` finds exactly those, on the host over both
snapshots and in the guest against the module, with nothing else from the
expect profile, while the golden against itself finds nothing.

The same boot runs the exporter with the module and --user nobody
(exporter/): the kernel's /proc status of its every thread must show a
uid other than 0, CapInh, CapPrm, CapEff, CapBnd and CapAmb 0 and
NoNewPrivs 1, and its scrape pcieaudit_up 1 with one pcieaudit_device_info
per function sysfs lists (bdf, vendor, device, class as paths.tsv has them).
Then guest-exporter.sh loads it: 300 idle connections while 4 scrapers
scrape, malformed requests, and a second exporter with TLS and basic auth
through busybox wget.
"""

import argparse
import json
import os
import re
import subprocess
import sys

MISSING = re.compile(r" expected at (\S+) \((\S+) on the golden host\)")
MOVED = re.compile(r" sits at (\S+) \((\S+)\), on the golden host at (\S+) \((\S+)\)")


def slot_path(realpath):
    """/sys/devices/pci0000:00/0000:00:02.0/0000:01:00.0 -> pci0000:00/02.0/00.0"""
    parts = realpath.split("/")
    top = next(i for i, p in enumerate(parts) if p.startswith("pci"))
    return "/".join([parts[top]] + [p.split(":")[-1] for p in parts[top + 1:]])


def golden_paths(tsv):
    """{bdf: (slot, vendor, device, class)} from guest-init.sh's sysfs.tsv."""
    facts = {}
    with open(tsv) as f:
        for line in f:
            bdf, key, val = line.rstrip("\n").split("\t")[:3]
            facts.setdefault(bdf, {})[key] = val
    return {b: (slot_path(v["realpath"]), int(v["vendor"], 16),
                int(v["device"], 16), int(v["class"], 16)) for b, v in facts.items()}


def second_paths(tsv):
    out = {}
    with open(tsv) as f:
        for line in f:
            bdf, path, ven, dev, cls = line.split()
            out[bdf] = (slot_path(path), int(ven, 16), int(dev, 16), int(cls, 16))
    return out


def differences(gold, here):
    """What sysfs says changed: missing, moved and extra, with BDFs."""
    gslot = {v[0]: (b, v) for b, v in gold.items()}
    hslot = {v[0]: (b, v) for b, v in here.items()}
    gleft = [(b, v) for s, (b, v) in gslot.items() if hslot.get(s, (0, None))[1] != v]
    hleft = [(b, v) for s, (b, v) in hslot.items() if gslot.get(s, (0, None))[1] != v]
    moved = []
    for gb, gv in list(gleft):
        same = [h for h in hleft if h[1][1:] == gv[1:]]
        if same:
            hb, hv = same[0]
            moved.append(("expect.moved", hv[0], hb, gv[0], gb))
            gleft.remove((gb, gv))
            hleft.remove((hb, hv))
    missing = [("expect.device-missing", v[0], b) for b, v in gleft]
    extra = [("expect.device-extra", v[0], b) for b, v in hleft]
    return missing, moved, extra, gold


def findings(doc):
    """The expect profile's findings as the tuples differences() gives."""
    out = []
    for f in doc["findings"]:
        if f["profile"] != "expect":
            continue
        m = MISSING.search(f["message"]) if f["id"] == "expect.device-missing" else None
        n = MOVED.search(f["message"]) if f["id"] == "expect.moved" else None
        if m:
            out.append((f["id"], m.group(1), m.group(2)))
        elif n:
            out.append((f["id"],) + n.groups())
        else:
            out.append((f["id"], f["message"]))
    return sorted(out)


def run(cli, *args):
    p = subprocess.run([cli, "check", "--profile", "expect", "--format", "json", *args],
                       capture_output=True, text=True)
    try:
        return p.returncode, json.loads(p.stdout), p.stderr
    except json.JSONDecodeError:
        return p.returncode, None, p.stderr + p.stdout


INFO = re.compile(r'^pcieaudit_device_info\{bdf="([^"]+)",vendor="([0-9a-f]+)",'
                  r'device="([0-9a-f]+)",class="([0-9a-f]+)"', re.M)


def read_facts(results):
    """The guest's facts.txt, KEY=VALUE a line."""
    with open(os.path.join(results, "facts.txt")) as f:
        return dict(ln.split("=", 1) for ln in f.read().splitlines() if "=" in ln)


def exporter_reader(results, errors):
    """A reader of the guest's exporter/ files: a missing one is an error."""
    d = os.path.join(results, "exporter")

    def read(name):
        try:
            with open(os.path.join(d, name), errors="replace") as f:
                return f.read()
        except OSError:
            errors.append(f"exporter: {name} missing")
            return ""
    return read


def exporter_errors(results):
    """The exporter as nobody: privileges from /proc, data against sysfs."""
    errors = []
    read = exporter_reader(results, errors)
    err = read("exporter.err")
    tasks = [ln for ln in read("tasks.txt").splitlines() if ln.strip()]
    status = dict(re.findall(r"^(\w+):\s+(.*)$", read("status.txt"), re.M))
    if not tasks or "Uid" not in status:
        errors.append(f"exporter: no /proc status ({err.strip()[:300]})")
    uids = ["?"]
    for t in tasks:
        f = dict(re.findall(r"(\w+):\s+([0-9a-f\t ]+?)\s*(?=\w+:|$)", t))
        uids = f.get("Uid", "0").split()
        caps = [f.get(k, "?") for k in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")]
        if "0" in uids or any(c != "0000000000000000" for c in caps) or f.get("NoNewPrivs") != "1":
            errors.append(f"exporter thread not dropped: {t.strip()}")
    body = read("metrics.txt")
    if "\npcieaudit_up 1\n" not in "\n" + body:
        errors.append(f"exporter: pcieaudit_up is not 1 ({err.strip()[:300]})")
    got = {(b, int(v, 16), int(dv, 16), int(c, 16)) for b, v, dv, c in INFO.findall(body)}
    want = set()
    with open(os.path.join(results, "paths.tsv")) as f:
        for line in f:
            bdf, _path, ven, dev, cls = line.split()
            want.add((bdf, int(ven, 16), int(dev, 16), int(cls, 16)))
    if got != want:
        errors.append(f"exporter: device_info {len(got)} functions, sysfs {len(want)}; "
                      f"differ: {sorted(got ^ want)[:4]}")
    if "running as nobody" not in err:
        errors.append(f"exporter: did not say it runs as nobody: {err.strip()[:300]}")
    facts = read_facts(results)
    secs = float(facts.get("exporter_end", 0)) - float(facts.get("exporter_start", 0))
    if not errors:
        print(f"expect-check: exporter as nobody: {len(tasks)} threads Uid "
              f"{uids[0]}, every Cap* 0, NoNewPrivs 1; {len(got)} functions as sysfs; "
              f"{secs:.1f} guest s")
    return errors


def status_line(text):
    """The HTTP status code of a reply (nc's raw reply or wget -S), or None."""
    m = re.search(r"HTTP/1\.[01] (\d{3})", text)
    return int(m.group(1)) if m else None


def exporter_load_errors(results):
    """guest-exporter.sh against the module: idle connections, malformed
    requests, TLS with basic auth; the kernel's /proc/net/tcp counts the
    connections held."""
    facts = read_facts(results)
    errors = []
    read = exporter_reader(results, errors)
    held = int(facts.get("exporter_idle_open", "0") or 0)
    if held < 300:
        errors.append(f"exporter: {held} connections established while 300 were to be held idle")
    times, spans = [], []
    for s in range(1, 5):
        for line in read(f"idle-{s}.txt").splitlines():
            a, b, rc, _ = line.split()
            times.append(float(b) - float(a))
            spans += [float(a), float(b)]
            if rc != "0":
                errors.append(f"exporter: scraper {s}'s scrape failed (wget {rc}) beside idle connections")
    if len(times) != 20:
        errors.append(f"exporter: {len(times)} scrapes beside idle connections, want 20")
    after = int(facts.get("exporter_idle_after", "0") or 0)
    if spans and max(spans) - min(spans) < 4.0 and after < 300:
        errors.append(f"exporter: {after} of the idle connections left after scrapes of "
                      f"{max(spans) - min(spans):.1f} s (the exporter drops them idle for 5 s)")
    if times and max(times) >= 1.0:
        errors.append(f"exporter: the slowest scrape beside 300 idle connections took {max(times):.2f} s (limit 1 s)")
    codes = [status_line(read(f"bad-{n}.txt")) for n in range(1, 6)]
    if any(c is not None and c >= 500 for c in codes):
        errors.append(f"exporter: a malformed request got a server error: {codes}")
    # No request line: a 4xx or the connection closed. A negative
    # Content-Length and broken chunks: 400 (libmicrohttpd's framing).
    if codes[0] is not None and codes[0] // 100 != 4:
        errors.append(f"exporter: 'GARBAGE' got {codes[0]}, want 4xx or the connection closed")
    for n in (1, 3):
        if codes[n] != 400:
            errors.append(f"exporter: malformed request {n + 1} got {codes[n]}, want 400")
    if facts.get("exporter_after_bad_rc") != "0" or "\npcieaudit_up 1\n" not in "\n" + read("after-bad.txt"):
        errors.append("exporter: no scrape answered after the malformed requests")
    if facts.get("exporter_tls") == "none":
        errors.append("exporter: the initramfs has no web configuration (openssl or htpasswd missing)")
        return errors
    tls_err = read("tls.err").strip()[:300]
    if facts.get("exporter_tls_rc") != "0" or "\npcieaudit_up 1\n" not in "\n" + read("tls-metrics.txt"):
        errors.append(f"exporter: no scrape over TLS with the password: {read('tls-wget.err').strip()[:200]}; {tls_err}")
    for name, fact in (("tls-wrong.txt", "exporter_tls_wrong_rc"), ("tls-noauth.txt", "exporter_tls_noauth_rc")):
        code = status_line(read(name))
        if facts.get(fact) == "0" or code != 401:
            errors.append(f"exporter: {name[4:-4]} credentials over TLS got {code} (wget {facts.get(fact)}), want 401")
    if facts.get("exporter_tls_plain_rc") == "0":
        errors.append("exporter: plain HTTP to the TLS listener was answered")
    if not errors:
        print(f"expect-check: exporter under load: {held} idle connections held ({after} after), 20 scrapes by 4 "
              f"scrapers, slowest {max(times):.3f} s; malformed requests: replies {codes}, then "
              f"answered; TLS with basic auth answered, wrong and no password 401, plain HTTP refused")
    return errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--golden", required=True)
    ap.add_argument("--cli", default="user/pcieaudit-cli")
    ap.add_argument("results")
    a = ap.parse_args()
    golden = os.path.join(a.golden, "snap1", "report.json")
    snap = os.path.join(a.results, "report.json")
    errors = []
    for f in (golden, os.path.join(a.golden, "snap1", "sysfs.tsv"), snap,
              os.path.join(a.results, "paths.tsv")):
        if not os.path.isfile(f):
            print(f"expect-check: {f} missing (gpu-server's run, then this one)")
            return 1

    missing, moved, extra, gold = differences(
        golden_paths(os.path.join(a.golden, "snap1", "sysfs.tsv")),
        second_paths(os.path.join(a.results, "paths.tsv")))
    print(f"expect-check: sysfs: missing {missing}, moved {moved}, extra {extra}")
    if len(missing) != 1 or len(moved) != 1 or extra or gold[missing[0][2]][3] >> 16 != 3:
        errors.append("the second boot is not the first with one display function "
                      "left out and one device moved (per sysfs)")
    # The finding names the golden's BDF for a missing device.
    want = sorted(missing + moved)

    rc, doc, err = run(a.cli, "--expect", golden, "--input", snap)
    if doc is None:
        errors.append(f"host check did not give JSON (rc {rc}): {err.strip()}")
    else:
        got = findings(doc)
        print(f"expect-check: host check --expect: rc {rc}, {got}")
        if got != want:
            errors.append(f"host check --expect found {got}, sysfs says {want}")
        if rc != 1:
            errors.append(f"host check --expect exited {rc}, want 1 (a device missing fails)")
        for r in doc["rules"]:
            if r["profile"] == "expect" and r["status"] not in ("pass", "fail", "warn"):
                errors.append(f"{r['id']}: {r['status']} ({r['note']}): the module reads every fact")

    rc0, self_doc, err = run(a.cli, "--expect", golden, "--input", golden)
    if self_doc is None or findings(self_doc) or rc0 != 0:
        errors.append(f"the golden against itself: rc {rc0}, "
                      f"{findings(self_doc) if self_doc else err.strip()}, want nothing")

    guest = os.path.join(a.results, "check-guest.json")
    if not os.path.isfile(guest):
        errors.append("the guest ran no check --expect (no golden over fw_cfg?)")
    else:
        with open(guest) as f:
            try:
                gdoc = json.load(f)
            except json.JSONDecodeError as exc:
                gdoc = None
                errors.append(f"the guest's check --expect is not JSON: {exc}")
        with open(os.path.join(a.results, "check-guest.rc")) as f:
            grc = int(f.read())
        if gdoc is not None:
            gg = findings(gdoc)
            print(f"expect-check: guest check --expect (module): rc {grc}, {gg}")
            if gg != want or grc != 1:
                errors.append(f"the guest's check --expect against the module: rc {grc}, {gg}; want 1, {want}")

    errors += exporter_errors(a.results)
    errors += exporter_load_errors(a.results)
    for e in errors:
        print(f"expect-check: FAIL: {e}")
    if not errors:
        print(f"oracle: expect: {len(missing)} missing, {len(moved)} moved, found by check --expect on the host and in the guest")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
