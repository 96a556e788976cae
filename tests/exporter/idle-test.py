#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""pcieaudit-cli exporter against idle clients, on the H200 guest fixture
(--sysfs): IDLE connections (300) from localhost are opened and held, half
of them silent and half having sent part of a request line, then 4
scrapers from the same address scrape one after another. Every scrape must
answer 200 within LIMIT seconds (1), with the idle connections still open:
one local process must not hide the host from monitoring. Then the idle
connections must be dropped by the exporter within its idle timeout (the
oracle: the kernel's own socket, which reads EOF once the peer closed it).

    idle-test.py [IDLE] [LIMIT]

Prints the slowest scrape; exit 1 on a failure."""
import os
import resource
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exporter_client as ec  # noqa: E402

IDLE = int(sys.argv[1]) if len(sys.argv) > 1 else 300
LIMIT = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
FIXTURE = os.path.join(ec.FIXTURES, "h200-vm-guest")
# The exporter's idle timeout, and some slack for a loaded CI machine.
DROP_WITHIN = float(os.environ.get("PA_IDLE_DROP_S", "20"))

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, flush=True)


def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < IDLE + 64:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, IDLE + 256), hard))
    proc, url = ec.start(["--sysfs", FIXTURE])
    port = int(url.split(":")[2].split("/")[0])
    idle = []
    try:
        for i in range(IDLE):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            if i % 2:
                s.sendall(b"GET /metr")
            idle.append(s)
        time.sleep(0.5)
        worst = 0.0
        lock = threading.Lock()

        def scrape(n):
            nonlocal worst
            for _ in range(n):
                t = time.monotonic()
                try:
                    r, body, _ = ec.get(url, timeout=LIMIT + 10)
                    dt = time.monotonic() - t
                    if r.status != 200 or "pcieaudit_up 1" not in body:
                        fail("a scrape answered %d without pcieaudit_up 1" % r.status)
                except OSError as e:
                    dt = time.monotonic() - t
                    fail("a scrape failed after %.2f s: %s" % (dt, e))
                with lock:
                    worst = max(worst, dt)

        ts = [threading.Thread(target=scrape, args=(5,)) for _ in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        print("idle-test: %d idle connections, 4 scrapers x 5: slowest scrape %.3f s (limit %g s)"
              % (IDLE, worst, LIMIT), flush=True)
        if worst > LIMIT:
            fail("slowest scrape %.3f s > %g s with %d idle connections" % (worst, LIMIT, IDLE))
        # The exporter, not the client, ends idle connections.
        end = time.monotonic() + DROP_WITHIN
        open_ = list(idle)
        while open_ and time.monotonic() < end:
            still = []
            for s in open_:
                s.setblocking(False)
                try:
                    if s.recv(4096) == b"":
                        continue
                except BlockingIOError:
                    pass
                except OSError:
                    continue
                still.append(s)
            open_ = still
            time.sleep(0.2)
        if open_:
            fail("%d of %d idle connections still open after %g s" % (len(open_), IDLE, DROP_WITHIN))
    finally:
        for s in idle:
            s.close()
        rc = ec.stop(proc)
    if rc != 0:
        fail("exporter exit status %r after SIGTERM" % rc)
    print("idle-test: %s" % ("FAILED" if failures else "ok"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
