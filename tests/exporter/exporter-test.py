#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""pcieaudit-cli exporter under load: 4 concurrent scrapers and malformed
HTTP requests at once, on the H200 guest fixture (--sysfs). Every scrape
must answer 200 with a body promtool accepts, whose link gauges agree with
sysfs's own current_link_speed/width and max_link_speed/width files (the
oracle: the kernel's decode, not ours). The exporter must survive the
malformed requests, and exit 0 on SIGTERM. Prints the scrape latencies.

Then freshness, on a copy of the fixture whose AER counter files the test
writes (the oracle: the file's own contents): with --interval 0.5 every
body's collection is at most interval + its duration + 1 s old, and a
counter written into the copy shows within that bound; with --interval
3600, 50 scrapes trigger no collection (pcieaudit_collections_total stays
at the first one, the timestamp does not move) and a counter written meanwhile
is not served."""
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exporter_client as ec  # noqa: E402

CLI = ec.CLI
FIXTURE = os.environ.get("PA_FIXTURE", os.path.join(ec.FIXTURES, "h200-vm-guest"))
SCRAPERS = 4
SCRAPES = int(os.environ.get("PA_SCRAPES", "25"))

failures = []
INFO = {}


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, flush=True)


def sysfs_oracle():
    """bdf -> {speed, width, max_speed, max_width} from sysfs's text."""
    out = {}
    devs = os.path.join(FIXTURE, "devices")
    for bdf in sorted(os.listdir(devs)):
        d = {}
        for key, name in (("speed", "current_link_speed"), ("width", "current_link_width"),
                          ("max_speed", "max_link_speed"), ("max_width", "max_link_width")):
            try:
                text = open(os.path.join(devs, bdf, name)).read().strip()
            except OSError:
                continue
            m = re.match(r"([0-9.]+)", text)
            if m:
                d[key] = float(m.group(1))
        if d:
            out[bdf] = d
    return out


def info_oracle():
    """The pcieaudit_device_info sample line of every function, from the
    fixture's own sysfs files: vendor, device, class, driver, numa_node, and
    the slot path cut from sysfs_path (pci0000:00/0000:00:01.0 -> .../01.0)."""
    out = {}
    devs = os.path.join(FIXTURE, "devices")
    for bdf in sorted(os.listdir(devs)):
        def rd(name, d=os.path.join(devs, bdf)):
            try:
                return open(os.path.join(d, name)).read().strip()
            except OSError:
                return None
        parts = rd("sysfs_path").split("/")
        slot = "/".join([parts[0]] + [p.split(":")[-1] for p in parts[1:]])
        numa = rd("numa_node")
        out[bdf] = ('pcieaudit_device_info{bdf="%s",vendor="%s",device="%s",class="%s",'
                    'driver="%s",slot="%s",numa_node="%s"} 1'
                    % (bdf, rd("vendor")[2:], rd("device")[2:], rd("class")[2:],
                       rd("driver") or "", slot, "" if numa in (None, "-1") else numa))
    return out


def check_landing(port):
    """/ is an HTML page that links to the metrics (html.parser's reading)."""
    import html.parser
    import urllib.request

    class Links(html.parser.HTMLParser):
        hrefs = []

        def handle_starttag(self, tag, attrs):
            if tag == "a":
                self.hrefs.append(dict(attrs).get("href"))
    with urllib.request.urlopen("http://127.0.0.1:%d/" % port, timeout=10) as r:
        ctype = r.headers.get("Content-Type", "")
        page = r.read().decode()
    if not ctype.startswith("text/html"):
        fail("/ content type %r, want text/html" % ctype)
    p = Links()
    p.feed(page)
    if not any(h and urllib.parse.urljoin("http://x/", h) == "http://x/metrics" for h in p.hrefs):
        fail("/ links to no /metrics: %r" % p.hrefs)


def parse(body):
    return ec.parse(body, lambda line: fail("unparsable line: " + line))


def check_body(body, oracle):
    r = subprocess.run(["promtool", "check", "metrics"], input=body.encode(),
                       capture_output=True)
    if r.returncode:
        fail("promtool: " + (r.stdout + r.stderr).decode())
    s = parse(body)
    if s.get(("pcieaudit_up", "")) != 1:
        fail("pcieaudit_up is not 1")
    names = {"speed": "pcieaudit_link_speed_gts", "width": "pcieaudit_link_width",
             "max_speed": "pcieaudit_link_max_speed_gts", "max_width": "pcieaudit_link_max_width"}
    lines = set(body.splitlines())
    for bdf, line in INFO.items():
        if line not in lines:
            fail("%s: no %s" % (bdf, line))
    compared = 0
    for bdf, want in oracle.items():
        for key, value in want.items():
            got = s.get((names[key], '{bdf="%s"}' % bdf))
            if got is None:
                fail("%s: no %s" % (bdf, names[key]))
            elif abs(got - value) > 1e-9:
                fail("%s: %s %s, sysfs says %s" % (bdf, names[key], got, value))
            compared += 1
    return compared


def scraper(url, latencies, bodies):
    for _ in range(SCRAPES):
        try:
            r, body, t = ec.get(url, timeout=10)
            if r.status != 200:
                fail("status %d" % r.status)
            if not r.headers.get("Content-Type", "").startswith("text/plain; version=0.0.4"):
                fail("content type " + r.headers.get("Content-Type", ""))
        except (urllib.error.URLError, OSError) as e:
            fail("scrape: %s" % e)
            continue
        latencies.append(t)
        bodies.add(ec.without_collector(body))


def raw(port, data, read=True):
    """Sends data; returns the status line, or '' when the server closed."""
    s = socket.create_connection(("127.0.0.1", port), timeout=15)
    try:
        s.sendall(data)
        if not read:
            return ""
        s.shutdown(socket.SHUT_WR)
        reply = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            reply += chunk
        return reply.split(b"\r\n", 1)[0].decode(errors="replace")
    except OSError as e:
        return "error: %s" % e
    finally:
        s.close()


# Each answer's status line must match; "" is a close without an answer
# and "error: ..." a close while the request was still being sent (libmicrohttpd
# answers 431/414 and closes as soon as a header or URL grows too big).
ANY_4XX_OR_CLOSE = r"^(HTTP/1\.[01] 4\d\d |$|error: )"
MALFORMED = [
    ("garbage request line", b"GARBAGE\r\n\r\n", ANY_4XX_OR_CLOSE),
    ("unknown version", b"GET /metrics HTTP/9.9\r\nHost: x\r\n\r\n", r"^(HTTP/1\.[01] (400|505) |$)"),
    # RFC 9112 wants a 400; libmicrohttpd is lenient and serves it.
    ("HTTP/1.1 without Host", b"GET /metrics HTTP/1.1\r\n\r\n", r"^HTTP/1\.1 (400|200) "),
    ("header without colon", b"GET /metrics HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n", ANY_4XX_OR_CLOSE),
    ("64 KiB header", b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 65536 + b"\r\n\r\n", ANY_4XX_OR_CLOSE),
    ("64 KiB URL", b"GET /" + b"a" * 65536 + b" HTTP/1.1\r\nHost: x\r\n\r\n", ANY_4XX_OR_CLOSE),
    ("POST with body", b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", r"^HTTP/1\.1 405 "),
    ("bad Content-Length", b"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", ANY_4XX_OR_CLOSE),
    ("binary", bytes(range(256)) * 4, ANY_4XX_OR_CLOSE),
    ("unknown path", b"GET /../../etc/passwd HTTP/1.0\r\n\r\n", r"^HTTP/1\.[01] 404 "),
    ("truncated request", b"GET /metr", ANY_4XX_OR_CLOSE),
]


def malformed(port):
    for name, data, want in MALFORMED:
        status = raw(port, data)
        if not re.match(want, status):
            fail("%s: answered %r" % (name, status))
    # A client that sends half a request and waits: the others go on.
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /metrics HTTP/1.1\r\nHo")
    return s


AER_DEV = "0000:00:07.0"
COR = ("pcieaudit_aer_correctable_errors_total", '{bdf="%s"}' % AER_DEV)


def write_aer(root, cor):
    """AER counter files of AER_DEV in the copy, as the kernel writes them."""
    d = os.path.join(root, "devices", AER_DEV)
    for name, total in (("aer_dev_correctable", "TOTAL_ERR_COR %d" % cor),
                        ("aer_dev_nonfatal", "TOTAL_ERR_NONFATAL 0"),
                        ("aer_dev_fatal", "TOTAL_ERR_FATAL 0")):
        tmp = os.path.join(d, name + ".tmp")
        with open(tmp, "w") as f:
            f.write("RxErr 0\n%s\n" % total)
        os.rename(tmp, os.path.join(d, name))


def collected(s):
    return (s.get(("pcieaudit_collect_timestamp_seconds", "")),
            sum(v for (n, _), v in s.items() if n == "pcieaudit_collections_total"))


def fresh_bodies(root):
    """--interval 0.5: every body's age is bounded; a written counter shows."""
    interval = 0.5
    proc, url = ec.start(["--sysfs", root, "--interval", str(interval)])
    try:
        ages, seen_at = [], None
        write_aer(root, 7)
        written = time.time()
        end = time.monotonic() + 4
        while time.monotonic() < end:
            _, body, _ = ec.get(url, timeout=10)
            now = time.time()
            s = parse(body)
            ts, _ = collected(s)
            dur = s.get(("pcieaudit_collect_duration_seconds", ""), 0)
            if ts is None:
                fail("no pcieaudit_collect_timestamp_seconds")
                break
            ages.append(now - ts)
            if now - ts > interval + dur + 1.0:
                fail("a body %.2f s old, bound %.2f s" % (now - ts, interval + dur + 1.0))
            if seen_at is None and s.get(COR) == 7:
                seen_at = now - written
            time.sleep(0.05)
        if seen_at is None:
            fail("the counter written into the copy never showed in 4 s")
        elif seen_at > interval + 1.0:
            fail("the written counter showed after %.2f s, bound %.2f s" % (seen_at, interval + 1.0))
        print("freshness: %d scrapes at --interval %g, age max %.3f s, a written AER counter "
              "served after %.3f s" % (len(ages), interval, max(ages) if ages else -1,
                                      seen_at if seen_at is not None else -1))
    finally:
        ec.stop(proc)


def scrapes_do_not_collect(root):
    """--interval 3600: 50 scrapes, one collection (the first)."""
    write_aer(root, 1)
    proc, url = ec.start(["--sysfs", root, "--interval", "3600"])
    try:
        first = parse(ec.get(url)[1])
        write_aer(root, 99)
        for _ in range(50):
            s = parse(ec.get(url)[1])
            if collected(s) != collected(first):
                fail("a scrape collected: %s, first %s" % (collected(s), collected(first)))
                break
            if s.get(COR) != 1:
                fail("a scrape served the counter written after the collection: %s" % s.get(COR))
                break
        if first.get(("pcieaudit_collections_total", '{trigger="start"}')) != 1:
            fail("collections at start: %s" % first)
        print("no collection on scrape: 51 scrapes, collections %d, timestamp unchanged"
              % collected(first)[1])
    finally:
        ec.stop(proc)


def freshness():
    root = tempfile.mkdtemp(prefix="pa-exporter.")
    try:
        shutil.copytree(os.path.join(FIXTURE, "devices"), os.path.join(root, "devices"))
        fresh_bodies(root)
        scrapes_do_not_collect(root)
    finally:
        shutil.rmtree(root)


def main():
    if not os.access(CLI, os.X_OK):
        sys.exit("build the CLI first: make cli")
    if not os.path.isdir(os.path.join(FIXTURE, "devices")):
        sys.exit(f"exporter-test reads {FIXTURE}: the shared fixtures, ../shared beside this clone")
    oracle = sysfs_oracle()
    INFO.update(info_oracle())
    if not oracle:
        sys.exit("no link attributes under " + FIXTURE)
    bad = subprocess.run([CLI, "exporter", "--listen", "example.org:80"], capture_output=True)
    if bad.returncode != 2:
        fail("--listen example.org:80 exited %d, want 2" % bad.returncode)
    for interval in ("0", "abc", "86401"):
        bad = subprocess.run([CLI, "exporter", "--interval", interval], capture_output=True)
        if bad.returncode != 2:
            fail("--interval %s exited %d, want 2" % (interval, bad.returncode))
    err = tempfile.TemporaryFile()
    proc, url = ec.start(["--sysfs", FIXTURE], stderr=err)
    port = int(url.split(":")[2].split("/")[0])
    latencies, bodies = [], set()
    threads = [threading.Thread(target=scraper, args=(url, latencies, bodies))
               for _ in range(SCRAPERS)]
    for t in threads:
        t.start()
    check_landing(port)
    stalled = malformed(port)
    for t in threads:
        t.join()
    stalled.close()
    if proc.poll() is not None:
        fail("the exporter died: exit %s" % proc.returncode)
    compared = 0
    for body in bodies:
        compared += check_body(body, oracle)
    # After all that, it still answers.
    scraper(url, latencies, set())
    proc.send_signal(signal.SIGTERM)
    try:
        rc = proc.wait(timeout=5)
        if rc != 0:
            fail("exit %d after SIGTERM" % rc)
    except subprocess.TimeoutExpired:
        proc.kill()
        fail("no exit within 5 s of SIGTERM")
    want = (SCRAPERS + 1) * SCRAPES
    latencies.sort()
    print("exporter: %d/%d scrapes answered by %d scrapers, %d distinct bodies, "
          "%d link values compared with sysfs, %d malformed requests; latency median %.1f ms, max %.1f ms"
          % (len(latencies), want, SCRAPERS, len(bodies), compared, len(MALFORMED) + 1,
             latencies[len(latencies) // 2] * 1e3 if latencies else -1,
             latencies[-1] * 1e3 if latencies else -1))
    if len(latencies) != want:
        fail("%d scrapes answered, want %d" % (len(latencies), want))
    freshness()
    if failures:
        err.seek(0)
        sys.stderr.write(err.read().decode())
        print("exporter test: FAILED (%d)" % len(failures))
        sys.exit(1)
    print("exporter test: passed")


if __name__ == "__main__":
    main()
