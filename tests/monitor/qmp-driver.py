#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host side of tests/monitor: follows the guest console and answers its
"PA-MON-REQUEST unplug|plug" lines with QMP device_del / device_add of the
e1000e hp1 on root port rp2. Each request is answered once; the times of
the QMP commands go to qmp.log for check.py.

    qmp-driver.py SOCKET CONSOLE_LOG QMP_LOG
"""
import json
import os
import socket
import sys
import time

DEVICE_ADD = {"driver": "e1000e", "bus": "rp2", "id": "hp1"}


def connect(path, deadline):
    while time.monotonic() < deadline:
        try:
            s = socket.socket(socket.AF_UNIX)
            s.connect(path)
            return s
        except OSError:
            time.sleep(0.2)
    sys.exit("qmp-driver: no QMP socket at " + path)


def command(f, sock, execute, arguments=None):
    msg = {"execute": execute}
    if arguments:
        msg["arguments"] = arguments
    sock.sendall(json.dumps(msg).encode() + b"\n")
    while True:
        line = f.readline()
        if not line:
            sys.exit("qmp-driver: QMP closed")
        reply = json.loads(line)
        if "return" in reply or "error" in reply:
            return reply


def main():
    sock_path, console, log_path = sys.argv[1:4]
    deadline = time.monotonic() + 900
    sock = connect(sock_path, deadline)
    f = sock.makefile("r")
    json.loads(f.readline())  # the greeting
    command(f, sock, "qmp_capabilities")
    done = set()
    with open(log_path, "w") as log:
        while time.monotonic() < deadline and len(done) < 2:
            try:
                text = open(console, errors="replace").read()
            except OSError:
                text = ""
            for req, execute, args in (("unplug", "device_del", {"id": "hp1"}),
                                       ("plug", "device_add", DEVICE_ADD)):
                if req in done or "PA-MON-REQUEST %s " % req not in text:
                    continue
                reply = command(f, sock, execute, args)
                log.write("%.3f %s %s\n" % (time.time(), execute, json.dumps(reply)))
                log.flush()
                done.add(req)
            time.sleep(0.2)


if __name__ == "__main__":
    main()
