# SPDX-License-Identifier: GPL-2.0
"""Starting pcieaudit-cli exporter and scraping it: shared by
tests/exporter/exporter-test.py and tests/bench/exporter-scrape.py."""
import os
import re
import socket
import subprocess
import time
import urllib.request

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.path.join(TOP, "user", "pcieaudit-cli")
FIXTURES = os.path.join(os.path.dirname(TOP), "shared", "fixtures")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_listening(port, proc=None, timeout=60):
    """True once port accepts connections; False when proc died or time ran out."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc is not None and proc.poll() is not None:
            return False
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


def start(args, stderr=subprocess.DEVNULL, cli=CLI):
    """Starts `cli exporter ARGS --listen 127.0.0.1:PORT`; returns (proc, url).
    It listens only after its first collection."""
    port = free_port()
    proc = subprocess.Popen([cli, "exporter"] + args + ["--listen", "127.0.0.1:%d" % port],
                            stderr=stderr)
    if not wait_listening(port, proc):
        proc.kill()
        proc.wait()
        raise RuntimeError("the exporter did not start listening on %d" % port)
    return proc, "http://127.0.0.1:%d/metrics" % port


def stop(proc, timeout=5):
    """SIGTERM; returns the exit code, or None when it had to be killed."""
    proc.terminate()
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return None


def get(url, timeout=60):
    """One GET: (response, body text, seconds)."""
    t = time.monotonic()
    with urllib.request.urlopen(url, timeout=timeout) as r:
        body = r.read().decode()
    return r, body, time.monotonic() - t


SAMPLE = re.compile(r'([a-z_]+)(\{[^}]*\})? (\S+)$')


def parse(body, bad=None):
    """{(name, labels): value} of the samples; bad(line) for what is none."""
    series = {}
    for line in body.splitlines():
        if line.startswith("#") or not line:
            continue
        m = SAMPLE.match(line)
        if not m:
            if bad:
                bad(line)
            continue
        series[(m.group(1), m.group(2) or "")] = float(m.group(3))
    return series


# The collection's own series, which change from one collection to the next
# even when the fabric does not.
COLLECTOR = re.compile(r'^pcieaudit_(collect_timestamp_seconds|collect_duration_seconds'
                       r'|collections_total)\b.*\n', re.M)


def without_collector(body):
    return COLLECTOR.sub("", body)
