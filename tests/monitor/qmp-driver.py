#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host side of tests/monitor (and of tests/security's hot-plug phase):
follows the guest console and answers its "PA-MON-REQUEST unplug|plug
TOKEN" lines with QMP device_del / device_add of the device hp1: by
default the e1000e on root port rp2, or the device_add arguments in
PA_QMP_DEVICE (JSON). Each request line (verb and token) is answered once;
the times of the QMP commands go to qmp.log for check.py.

    qmp-driver.py SOCKET CONSOLE_LOG QMP_LOG
"""
import json
import os
import re
import socket
import sys
import time

DEVICE_ADD = json.loads(os.environ.get("PA_QMP_DEVICE") or
                        '{"driver": "e1000e", "bus": "rp2", "id": "hp1"}')
# The token ends in whitespace: a line still being written is not read.
REQUEST = re.compile(r"PA-MON-REQUEST (unplug|plug) (\S+)\s")


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
        while time.monotonic() < deadline:
            try:
                text = open(console, errors="replace").read()
            except OSError:
                text = ""
            # In the order asked: an unplug is always answered before its plug.
            for m in REQUEST.finditer(text):
                if m.groups() in done:
                    continue
                if m.group(1) == "unplug":
                    execute, args = "device_del", {"id": DEVICE_ADD["id"]}
                else:
                    execute, args = "device_add", DEVICE_ADD
                # A device_add before QEMU has finished the previous unplug
                # is refused (the id is still taken): try again a while.
                for _ in range(20):
                    reply = command(f, sock, execute, args)
                    log.write("%.3f %s %s\n" % (time.time(), execute, json.dumps(reply)))
                    log.flush()
                    if "error" not in reply or execute != "device_add":
                        break
                    time.sleep(0.5)
                done.add(m.groups())
            time.sleep(0.2)


if __name__ == "__main__":
    main()
