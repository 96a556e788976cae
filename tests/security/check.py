#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judges the security suite's guest results (tests/security/guest-init.sh).

    check.py RESULTS_DIR      the results of one VM run (console.log beside it)
    check.py --selftest       plants faults in a clean synthetic run; each
                              must be rejected, the clean one accepted

What it holds the run to:
  - the kernel log (console and dmesg) is free of splats: KASAN, UBSAN,
    BUG:, WARNING:, Oops, lockdep, suspicious RCU usage, sleeping in atomic
    context, any call trace; kmemleak finds nothing with the module loaded
    or after it is unloaded;
  - nlfuzz sent what it was asked to, its per-request log agrees with its
    summary, and no request that reached the family's ops failed without an
    extended-ack message (re-derived here from replies.tsv, not taken from
    the fuzzer's own count);
  - privileges, asked of the socket's opener alone (kmod/netlink.c,
    pcieaudit_nl_perm()): nobody, root of a user namespace and the rootless
    combination get EPERM on every op, from the module with its extack
    message, never from the core (no op is GENL_ADMIN_PERM), and the CLI
    exits 5 saying so; a socket opened by root answers every op after its
    process became nobody with no capability (CapEff, CapPrm, CapBnd 0,
    NoNewPrivs 1); a socket opened without effective capabilities is
    refused even when root sends on it; a new network namespace cannot even
    find the family, and the CLI exits 4 saying that the family is not
    reachable from this network namespace;
  - configuration space of every function is byte for byte what it was
    before any operation, except bytes that changed between the baseline
    snapshots taken with no operation at all;
  - the monitor group (nlfuzz --listen): every event of every subscriber
    valid (the listener's own judgement, failures=0), the listener ended
    by itself at rmmod and left no membership; the two big sockets, which
    never overflowed, saw the same events; the ACS events are the values
    the guest's setpci wrote, on the port it wrote them to; each hot-plug
    cycle (QMP, ACPI hot-plug) gave removed, then added;
    the small sockets overflowed (ENOBUFS) and every gap followed one;
    joining the group as root works, as nobody or root of a user namespace
    gives EPERM where the kernel's genetlink.h has GENL_MCAST_CAP_SYS_ADMIN
    (PA_GENL_HEADER names it; run-nlfuzz.sh sets it), and events carry
    register values exactly where joining needs privilege; a membership
    joined as root outlives the drop to nobody, and joining again as nobody
    gets the core's answer to nobody.
"""
import os
import re
import shutil
import sys
import tempfile

SPLATS = [
    r"BUG: ", r"WARNING: ", r"KASAN", r"UBSAN", r"Oops", r"general protection",
    r"suspicious RCU usage", r"sleeping function called from invalid context",
    r"possible (circular|recursive) locking", r"inconsistent lock state",
    r"lockdep", r"Call Trace:", r"Kernel panic", r"kmemleak: .*suspected memory leak",
    r"refcount_t: ", r"list_(add|del) corruption", r"blocked for more than",
    r"soft lockup", r"hard LOCKUP", r"stall", r"Modules linked in",
]
# Boot lines that match the words above without being reports.
BENIGN = [
    r"KernelAddressSanitizer initialized",
    r"kasan: KernelAddressSanitizer",
    r"Lock dependency validator",
    r"lockdep: fixing up alternatives",
    r"\bMAX_LOCKDEP_",
    r"\.\.\. (MAX_LOCKDEP|MAX_LOCK_DEPTH|CLASSHASH|CHAINHASH)",
    r"rcu: RCU (CPU )?stall warnings",
    r"rcu:\s+RCU lockdep checking is enabled",
    r"in-kernel memory leak detector",
    r"\.\.\. +(CLASSHASH|CHAINHASH|per task-struct)",
    r"lockdep is turned off",  # reported through its own first report
]
SPLAT_RE = re.compile("|".join(SPLATS))
BENIGN_RE = re.compile("|".join(BENIGN))

# Every extack message the 6.1 cores can set before a handler runs (lib/nlattr.c,
# net/netlink/genetlink.c); any other message must be one of kmod/'s.
CORE_MSGS = {
    "Array element too short", "Attribute failed policy validation",
    "NLA_F_NESTED is missing", "NLA_F_NESTED not expected", "Unknown attribute type",
    "Unsupported attribute", "allowed policy recursion depth exceeded",
    "binary attribute size out of range", "bytes leftover after parsing attributes",
    "integer out of range", "invalid attribute length", "reserved bit set",
    "genlmsghdr.reserved field is not 0", "ambiguous or reserved bits set in nlmsg_flags",
}
KMOD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kmod")


def kmod_text():
    text = ""
    for name in sorted(os.listdir(KMOD)):
        if name.endswith((".c", ".h")):
            with open(os.path.join(KMOD, name), encoding="utf-8") as f:
                text += f.read()
    # Literals split across lines join up.
    return re.sub(r'"\s*\n\s*"', "", text)


EPERM = "Operation not permitted"
# kmod/netlink.c's refusals: the opener lacks a capability.
NET_ADMIN_MSG = "the socket's opener lacks CAP_NET_ADMIN"
EINVAL = "Invalid argument"
ENOENT = "No such file or directory"
EOPNOTSUPP = "Operation not supported"
OPS = ["INFO_GET do", "INFO_GET dump", "DEV_GET do", "DEV_GET dump",
       "GROUP_GET do", "GROUP_GET dump", "P2P_GET do", "P2P_GET dump"]
# What root gets: the ops the family lacks are refused by the core.
ROOT_OPS = {op: "ok" for op in OPS}
ROOT_OPS["INFO_GET dump"] = EOPNOTSUPP
ROOT_OPS["GROUP_GET do"] = EOPNOTSUPP
# What a socket opened without the capabilities gets: the module's EPERM,
# after the core's EOPNOTSUPP for the ops the family lacks (no op is
# GENL_ADMIN_PERM, whose check came first).
UNPRIV_OPS = {op: EOPNOTSUPP if ROOT_OPS[op] == EOPNOTSUPP else EPERM for op in OPS}


class Checker:
    def __init__(self, res):
        self.res = res
        self.errors = []
        self.notes = []

    def fail(self, msg):
        self.errors.append(msg)

    def read(self, rel, default=None):
        path = os.path.join(self.res, rel)
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError:
            if default is None:
                self.fail(f"missing {rel}")
                return ""
            return default

    def kv(self, rel):
        out = {}
        for line in self.read(rel).splitlines():
            if "=" in line and "\t" not in line:
                k, v = line.split("=", 1)
                out[k] = v
        return out

    # ---- kernel log --------------------------------------------------
    def splats(self):
        logs = {"dmesg.txt": self.read("dmesg.txt"),
                "console.log": self.read("../console.log")}
        for name, text in logs.items():
            for line in text.splitlines():
                if SPLAT_RE.search(line) and not BENIGN_RE.search(line):
                    self.fail(f"{name}: {line.strip()}")
                    break
        for rel in ("kmemleak.txt",):
            text = self.read(rel)
            n = text.count("unreferenced object")
            if n:
                first = text.split("unreferenced object", 2)[1][:400]
                self.fail(f"{rel}: {n} leak(s): unreferenced object{first}")

    # ---- facts ---------------------------------------------------------
    def facts(self):
        f = self.kv("facts.txt")
        self.facts_kv = f
        for key, want in (("finished", "1"), ("artifacts", "present"),
                          ("insmod_rc", "0"), ("rmmod_rc", "0"),
                          ("kmemleak", "1")):
            if f.get(key) != want:
                self.fail(f"facts: {key}={f.get(key)}, want {want}")
        for key in ("kasan", "lockdep"):
            if f.get(key, "0") == "0":
                self.fail(f"facts: {key} not active in this kernel")

    # ---- the fuzzer ----------------------------------------------------
    def fuzz(self, rel, want_count, unpriv=False):
        s = self.kv(f"{rel}/summary.txt")
        if not s:
            return None
        sent = int(s.get("sent", 0))
        if sent < want_count:
            self.fail(f"{rel}: {sent} messages sent, want {want_count}")
        lines = [ln.split("\t") for ln in self.read(f"{rel}/replies.tsv").splitlines()]
        counts = {"answered": 0, "module_ext": 0, "module_noext": 0,
                  "core_ext": 0, "core_noext": 0, "silent": 0, "fail": 0}
        for f in lines:
            if len(f) < 7:
                self.fail(f"{rel}/replies.tsv: malformed line {f}")
                continue
            idx, _gen, pred, out, err, ext = f[:6]
            if len(f) > 7 and f[7] == "FAIL":
                counts["fail"] += 1
            if pred in ("do", "dump"):
                if out in ("err", "done_err"):
                    if ext == "1":
                        counts["module_ext"] += 1
                    else:
                        counts["module_noext"] += 1
                        self.fail(f"{rel}: message {idx}: errno {err} from the family's ops without an extack message")
                elif out == "ok" and not (len(f) > 7 and f[7] == "FAIL"):
                    counts["answered"] += 1
            elif pred == "core_ext":
                counts["core_ext"] += 1
            elif pred == "core":
                counts["core_noext"] += 1
            else:
                counts["silent"] += 1
        judged = sent - int(s.get("abandoned", 0))
        if len(lines) != judged:
            self.fail(f"{rel}: {len(lines)} lines in replies.tsv for {judged} judged messages")
        for key, n in (("answered", counts["answered"]),
                       ("module_ext", counts["module_ext"]),
                       ("module_noext", counts["module_noext"]),
                       ("core_ext", counts["core_ext"])):
            if key in s and int(s[key]) != n and not counts["fail"]:
                self.fail(f"{rel}: summary {key}={s[key]}, replies.tsv says {n}")
        core = sum(int(s.get(k, 0)) for k in s if k.startswith("core_noext_"))
        if core != counts["core_noext"] and not counts["fail"]:
            self.fail(f"{rel}: summary core_noext={core}, replies.tsv says {counts['core_noext']}")
        for key in ("failures", "module_noext"):
            if s.get(key) != "0":
                self.fail(f"{rel}: {key}={s.get(key)}")
        if counts["fail"]:
            self.fail(f"{rel}: {counts['fail']} requests failed; see {rel}/failures.txt")
        # Where each extack message came from: the core's policy checks, or
        # a literal of kmod/; anything else is an unexplained error.
        ext_core = ext_module = 0
        src = kmod_text()
        for line in self.read(f"{rel}/summary.txt").splitlines():
            f = line.split("\t")
            if f[0] != "extack" or len(f) != 4:
                continue
            if f[3] in CORE_MSGS:
                ext_core += int(f[2])
            elif f'"{f[3]}"' in src:
                ext_module += int(f[2])
            else:
                self.fail(f"{rel}: extack message '{f[3]}' neither the core's nor kmod/'s")
        fails = self.read(f"{rel}/failures.txt", "")
        if fails.strip():
            self.fail(f"{rel}/failures.txt: {fails.strip().splitlines()[0]}")
        if not unpriv:
            self.ext_core, self.ext_module = ext_core, ext_module
        # No op is GENL_ADMIN_PERM: the core never refuses for privilege.
        if int(s.get("core_noext_EPERM", 0)):
            self.fail(f"{rel}: {s['core_noext_EPERM']} requests refused with EPERM by the "
                      f"genetlink core: an op is GENL_ADMIN_PERM again")
        if unpriv:
            # As nobody, nothing is answered: what the core's checks let
            # through, the module refuses with EPERM and its message.
            eperm = sum(1 for f in lines if len(f) >= 7 and f[2] in ("do", "dump")
                        and f[4] == "1" and f[5] == "1")
            if counts["answered"]:
                self.fail(f"{rel}: {counts['answered']} unprivileged requests answered")
            if not eperm:
                self.fail(f"{rel}: no request was refused with EPERM by the module")
            for line in self.read(f"{rel}/summary.txt").splitlines():
                f = line.split("\t")
                if f[0] == "extack" and len(f) == 4 and f[1] == "1" and f[3] != NET_ADMIN_MSG:
                    self.fail(f"{rel}: EPERM with '{f[3]}', want '{NET_ADMIN_MSG}'")
            self.unpriv_eperm = eperm
        else:
            for key in ("ok_info_do", "ok_dev_do", "ok_dev_dump", "ok_group_dump",
                        "ok_p2p_do", "ok_p2p_dump"):
                if int(s.get(key, 0)) == 0:
                    self.fail(f"{rel}: no successful {key[3:]}: the handlers were not reached")
        return s

    # ---- privileges ----------------------------------------------------
    def ops(self, rel, want):
        text = self.read(rel)
        got = {}
        for line in text.splitlines():
            m = re.match(r"op (\S+ \S+) (.*)", line)
            if m:
                got[m.group(1)] = m.group(2)
        for op in OPS:
            w = want if isinstance(want, str) else want[op]
            if got.get(op) != w:
                self.fail(f"{rel}: {op} gave {got.get(op)!r}, want {w!r}")
        return text

    def privileges(self):
        p = "priv"
        rc = lambda name: self.read(f"{p}/{name}.rc").strip()  # noqa: E731
        if rc("root") != "0":
            self.fail(f"{p}: root's report exited {rc('root')}")
        self.ops(f"{p}/root-ops.txt", ROOT_OPS)
        for who in ("nobody", "userns", "nobody-userns"):
            out = self.read(f"{p}/{who}.out")
            if rc(who) != "5" or "permission denied" not in out:
                self.fail(f"{p}/{who}: exit {rc(who)}, want 5 with 'permission denied': {out.strip()[:200]}")
        for who in ("nobody", "userns"):
            text = self.ops(f"{p}/{who}-ops.txt", UNPRIV_OPS)
            if "lookup ok" not in text:
                self.fail(f"{p}/{who}-ops.txt: family lookup failed")
        if "uid=0(root)" not in self.read(f"{p}/userns-id.txt"):
            self.fail(f"{p}/userns-id.txt: not root inside the user namespace")
        if "uid=65534" not in self.read(f"{p}/nobody-id.txt"):
            self.fail(f"{p}/nobody-id.txt: not nobody")
        out = self.read(f"{p}/netns.out")
        if rc("netns") != "4" or "network namespace" not in out or "not loaded" in out:
            self.fail(f"{p}/netns: exit {rc('netns')}, want 4 saying the family is not "
                      f"reachable from this network namespace: {out.strip()[:200]}")
        # The opener decides: root's socket after the drop, nobody's under root.
        text = self.ops(f"{p}/drop-ops.txt", ROOT_OPS)
        self.status(f"{p}/drop-ops.txt", dropped=True)
        if "drop ok" not in text:
            self.fail(f"{p}/drop-ops.txt: the drop to nobody failed")
        self.ops(f"{p}/opened-unpriv-ops.txt", UNPRIV_OPS)
        self.status(f"{p}/opened-unpriv-ops.txt", dropped=False)
        text = self.ops(f"{p}/netns-ops.txt", ENOENT)
        if f"lookup {ENOENT}" not in text:
            self.fail(f"{p}/netns-ops.txt: the family lookup did not fail with ENOENT")
        self.fuzz(f"{p}/fuzz-nobody", 1000, unpriv=True)

    def status(self, rel, dropped):
        """/proc/self/status after nlfuzz's switch: the kernel's own view."""
        st = {}
        for line in self.read(rel).splitlines():
            m = re.match(r"status (\w+):\s+(.*)", line)
            if m:
                st[m.group(1)] = m.group(2).split()
        uid = st.get("Uid", ["?"])
        caps = {k: int(st.get(k, ["f"])[0], 16) for k in ("CapEff", "CapPrm", "CapBnd")}
        if dropped and (set(uid) != {"65534"} or any(caps.values()) or
                        st.get("NoNewPrivs") != ["1"]):
            self.fail(f"{rel}: not nobody without capabilities: {st}")
        if not dropped and (uid[1:2] != ["0"] or not caps["CapEff"] & (1 << 21)):
            self.fail(f"{rel}: not sending as root with CAP_SYS_ADMIN: {st}")

    # ---- operations and configuration space ---------------------------
    def cli_ops(self):
        for line in self.read("ops/rc.txt").splitlines():
            f = line.split(" ", 2)
            ok = {"0", "1", "8"} if len(f) > 2 and f[2].startswith("check") else {"0"}
            if f[1] not in ok:
                self.fail(f"ops: '{line}' exited {f[1]}")

    def snap(self, name):
        out = {}
        for line in self.read(f"config/{name}/config.hex").splitlines():
            f = line.split()
            if len(f) != 3:
                self.fail(f"config/{name}: malformed line {line[:60]}")
                continue
            bdf, size, hexs = f
            data = bytes.fromhex(hexs)
            if int(size) != len(data):
                self.fail(f"config/{name}: {bdf}: {len(data)} bytes read of {size}")
            out[bdf] = data
        return out

    def config(self):
        bases = [self.snap(f"base{i}") for i in range(3)]
        after = self.snap("after")
        if not bases[0]:
            self.fail("config: no baseline")
            return
        volatile = {}
        for bdf, data in bases[0].items():
            v = set()
            for b in bases[1:]:
                other = b.get(bdf, b"")
                v |= {i for i in range(min(len(data), len(other))) if data[i] != other[i]}
            volatile[bdf] = v
        self.volatile = sum(len(v) for v in volatile.values())
        if not any(len(d) == 4096 for d in bases[0].values()):
            self.fail("config: no function showed 4096 bytes; not read as root?")
        if set(after) != set(bases[0]):
            self.fail(f"config: functions changed: {sorted(set(after) ^ set(bases[0]))}")
        for bdf, data in after.items():
            base = bases[2].get(bdf)
            if base is None:
                continue
            if len(base) != len(data):
                self.fail(f"config: {bdf}: {len(base)} bytes before, {len(data)} after")
                continue
            diff = [i for i in range(len(data)) if data[i] != base[i] and i not in volatile[bdf]]
            if diff:
                i = diff[0]
                self.fail(f"config: {bdf}: {len(diff)} byte(s) changed, first at {i:#05x}: "
                          f"{base[i]:02x} -> {data[i]:02x}")

    # ---- the monitor group --------------------------------------------
    def joins(self):
        """Who may join: root always; the others as the kernel decides."""
        header = os.environ.get("PA_GENL_HEADER", "")
        has_cap = None
        if header:
            try:
                with open(header, encoding="utf-8", errors="replace") as f:
                    has_cap = "GENL_MCAST_CAP_SYS_ADMIN" in f.read()
            except OSError:
                self.fail(f"PA_GENL_HEADER {header} unreadable")
        want_root = {"join own": "ok", "member own": "1", "leave own": "ok",
                     "join zero": EINVAL, "join beyond": EINVAL}
        self.join_kv = {}
        for who in ("root", "nobody", "userns"):
            rel = f"priv/{who}-join.txt"
            got = {}
            for line in self.read(rel).splitlines():
                m = re.match(r"(join own|member own|leave own|bind own|join zero|join beyond) (.*)", line)
                if m and m.group(1) not in got:
                    got[m.group(1)] = m.group(2)
            self.join_kv[who] = got
            text = self.read(rel)
            if not re.search(r"^repeat \d+ inconsistent 0$", text, re.M):
                self.fail(f"{rel}: repeated joins answered differently, or not repeated")
            for k, v in want_root.items():
                if who != "root" and k in ("join own", "member own", "leave own"):
                    continue
                if got.get(k) != v:
                    self.fail(f"{rel}: {k} {got.get(k)!r}, want {v!r}")
            if who == "root" and got.get("bind own", "ok") != "ok":
                self.fail(f"{rel}: bind own {got.get('bind own')!r}, want 'ok'")
        denied = [self.join_kv[w].get("join own") == EPERM for w in ("nobody", "userns")]
        if denied[0] != denied[1]:
            self.fail("join: nobody and root of a user namespace were not treated alike")
        for w in ("nobody", "userns"):
            kv = self.join_kv[w]
            if kv.get("join own") not in ("ok", EPERM):
                self.fail(f"priv/{w}-join.txt: join own {kv.get('join own')!r}")
            if kv.get("join own") == EPERM and (kv.get("member own") != "0" or
                                                kv.get("bind own", EPERM) != EPERM):
                self.fail(f"priv/{w}-join.txt: refused, yet a member or bound ({kv})")
        if has_cap is not None and denied[0] != has_cap:
            self.fail(f"join: nobody {'refused' if denied[0] else 'admitted'}, but the kernel "
                      f"{'has' if has_cap else 'lacks'} GENL_MCAST_CAP_SYS_ADMIN")
        self.mcast_privileged = denied[0]
        # Joined as root, then nobody: the membership stays.
        rel = "priv/drop-join.txt"
        got = dict(re.findall(r"^(join root|drop|member after drop|leave after drop|"
                              r"rejoin after drop|member after rejoin) (.*)$",
                              self.read(rel), re.M))
        want = {"join root": "ok", "drop": "ok", "member after drop": "1",
                "leave after drop": "ok",
                "rejoin after drop": EPERM if denied[0] else "ok",
                "member after rejoin": "0" if denied[0] else "1"}
        for k, v in want.items():
            if got.get(k) != v:
                self.fail(f"{rel}: {k} {got.get(k)!r}, want {v!r}")
        self.status(rel, dropped=True)
        self.mcast_oracle = "genetlink.h" if has_cap is not None else "consistency only"

    def events(self):
        f = self.facts_kv
        m = self.kv("monitor/summary.txt")
        self.mon = m
        for key, want in (("listen_ready", "1"), ("listen_self_exit", "1"), ("listen_rc", "0")):
            if f.get(key) != want:
                self.fail(f"facts: {key}={f.get(key)}, want {want}")
        if m.get("failures") != "0":
            self.fail(f"monitor: {m.get('failures')} malformed or misordered events or "
                      f"memberships; see monitor/failures.txt")
        if m.get("family_removed") != "1":
            self.fail("monitor: the listener did not see the family's removal")
        fails = self.read("monitor/failures.txt", "")
        if fails.strip():
            self.fail(f"monitor/failures.txt: {fails.strip().splitlines()[0]}")
        regs, noregs = int(m.get("regs_events", 0)), int(m.get("noregs_events", 0))
        if getattr(self, "mcast_privileged", True) and noregs:
            self.fail(f"monitor: {noregs} link/ACS events without register values "
                      "where the group is privileged")
        if not getattr(self, "mcast_privileged", True) and regs:
            self.fail(f"monitor: {regs} events with register values where anyone may join")
        socks = {}
        for line in self.read("monitor/summary.txt").splitlines():
            p = line.split("\t")
            if p[0] == "socket" and len(p) > 2:
                socks[p[1]] = {k: int(v) for k, v in (x.split("=", 1) for x in p[2:])}
        self.socks = socks
        small = [n for n in socks if n.startswith("small")]
        big = [n for n in socks if n.startswith("big")]
        if len(big) < 2 or not small:
            self.fail(f"monitor: sockets {sorted(socks)}, want 2 big and some small")
            return
        if not sum(socks[n]["enobufs"] for n in small):
            self.fail("monitor: no small socket overflowed (ENOBUFS never tested)")
        for n, v in socks.items():
            if v["gaps"] > v["enobufs"]:
                self.fail(f"monitor: {n}: {v['gaps']} gaps after {v['enobufs']} ENOBUFS")
        rows = [ln.split("\t") for ln in self.read("monitor/events.tsv").splitlines()]
        by = {}
        for r in rows:
            if len(r) != 8:
                self.fail(f"monitor/events.tsv: malformed line {r}")
                continue
            by.setdefault(r[0], []).append(r)
        full = [n for n in big if socks[n]["enobufs"] == 0]
        if len(full) < 2:
            self.fail(f"monitor: fewer than 2 big sockets without ENOBUFS ({full})")
            return
        seqs = [[r[1] for r in by.get(n, [])] for n in full]
        if any(s != seqs[0] for s in seqs):
            self.fail("monitor: the big sockets saw different events")
        ev = by.get(full[0], [])
        port, orig, tog = f.get("acs_port"), f.get("acs_orig", ""), f.get("acs_toggled", "")
        acs = [r for r in ev if r[3] == "acs"]
        writes = int(f.get("acs_writes", "0") or 0)
        if orig and tog:
            want = {int(orig, 16), int(tog, 16)}
            for r in acs:
                if r[5] != port or {int(r[6], 16), int(r[7], 16)} != want:
                    self.fail(f"monitor: ACS event {r[1]} on {r[5]} {r[6]} -> {r[7]}; "
                              f"the guest wrote {orig}/{tog} on {port}")
                    break
            if writes and not acs:
                self.fail(f"monitor: {writes} ACS writes, no ACS event")
            if len(acs) > writes + 1:
                self.fail(f"monitor: {len(acs)} ACS events for {writes} writes")
        self.acs_events = len(acs)
        # Hot-plug, each cycle in order: removed, added. q35's ACPI
        # hot-plug leaves the link alone: link events are not required.
        ep, cycles = f.get("hp_ep", ""), int(f.get("hp_cycles", "0") or 0)
        asked = int(f.get("hp_cycles_asked", "0") or 0)
        if cycles < asked or not ep and asked:
            self.fail(f"hot-plug: {cycles} of {asked} cycles done (function '{ep}')")
        hport = f.get("hp_port", "")
        seq = []
        for r in ev:
            old, new = int(r[6], 16), int(r[7], 16)
            if r[5] == ep and r[3] in ("removed", "added"):
                seq.append(r[3])
            elif r[5] == hport and r[3] == "link":
                if (old & 0x2000 and not new & 0x2000) or (old & 0x3f0 and not new & 0x3f0):
                    seq.append("down")
                elif (new & 0x2000 and not old & 0x2000) or (new & 0x3f0 and not old & 0x3f0):
                    seq.append("up")
        seq = [x for x in seq if x in ("removed", "added")]
        want_seq = ["removed", "added"] * cycles
        it = iter(seq)
        if not all(any(x == w for x in it) for w in want_seq):
            self.fail(f"hot-plug: events {seq}, want {want_seq} in that order")
        if seq.count("removed") != cycles or seq.count("added") != cycles:
            self.fail(f"hot-plug: {seq.count('removed')} removed and {seq.count('added')} "
                      f"added events for {cycles} cycles")
        self.hp_cycles = cycles

    def run(self):
        self.facts()
        self.splats()
        count = int(self.facts_kv.get("count", "0"))
        s = self.fuzz("nlfuzz", count)
        self.privileges()
        self.joins()
        self.events()
        self.cli_ops()
        self.config()
        return s


def report(res):
    c = Checker(res)
    s = c.run() or {}
    if c.errors:
        for e in c.errors:
            print(f"security: FAIL {e}")
        return 1
    print(f"security: seed {s.get('seed')}: {s.get('sent')} messages in {s.get('seconds')} s: "
          f"answered {s.get('answered')}, extack errors {int(s.get('core_ext', 0)) + int(s.get('module_ext', 0))} "
          f"(genetlink header {s.get('core_ext')}, attribute policy {c.ext_core}, "
          f"pcieaudit's handlers {c.ext_module}), core errors without extack "
          f"{sum(int(v) for k, v in s.items() if k.startswith('core_noext_'))}, "
          f"ignored {int(s.get('silent_drop', 0)) + int(s.get('silent_ack0', 0))}, "
          f"abandoned dumps {s.get('abandoned')}; 0 splats, 0 leaks; "
          f"privileges as documented; configuration space unchanged "
          f"({c.volatile} volatile bytes)")
    m = c.mon
    print(f"security: monitor: {m.get('seconds')} s subscribed, "
          + ", ".join(f"{n} {v['events']} events/{v['enobufs']} ENOBUFS/{v['lost']} lost"
                      for n, v in c.socks.items())
          + f"; {c.acs_events} ACS events, {c.hp_cycles} hot-plug cycles in order; "
          f"joins: nobody {'refused' if c.mcast_privileged else 'admitted'} ({c.mcast_oracle}); "
          + ", ".join(f"{k[6:]} {v}" for k, v in m.items() if k.startswith("churn_"))
          + "; rmmod under the subscribers clean")
    return 0


# ---- self-test -----------------------------------------------------------

def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def clean_run(root):
    res = os.path.join(root, "results")
    write(root, "console.log", "[    0.000000] Linux version 6.1\n"
          "[    0.100000] kasan: KernelAddressSanitizer initialized (generic)\n"
          "[    0.200000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc.\n")
    write(res, "dmesg.txt", "[    0.000000] Linux version 6.1\n")
    write(res, "facts.txt", "kernel=6.1\nseed=7\ncount=4\nkmemleak=1\nkasan=1\nlockdep=1\n"
          "artifacts=present\ninsmod_rc=0\nnlfuzz_rc=0\nrmmod_rc=0\nfinished=1\n")
    write(res, "kmemleak.txt", "")
    summary = ("seed=7\ncount=4\nsent=4\nabandoned=0\nseconds=1.0\nanswered=1\ncore_ext=0\n"
               "module_ext=1\ncore_noext_ENOENT=0\ncore_noext_EINVAL=0\n"
               "core_noext_EOPNOTSUPP=1\ncore_noext_EPERM=0\nmodule_noext=0\nfailures=0\n"
               "ok_info_do=1\nok_dev_do=1\nok_dev_dump=1\nok_group_dump=1\nok_p2p_do=1\n"
               "ok_p2p_dump=1\nsilent_drop=1\nsilent_ack0=0\n"
               "extack\t19\t1\tno such PCI function\n")
    write(res, "nlfuzz/summary.txt", summary)
    write(res, "nlfuzz/replies.tsv",
          "0\tvalid\tdo\tok\t0\t0\t\n"
          "1\tmutated\tdo\terr\t19\t1\tno such PCI function\n"
          "2\tnoise\tcore\terr\t95\t0\t\n"
          "3\tmutated\tdrop\tnone\t0\t0\t\n")
    write(res, "nlfuzz/failures.txt", "")
    write(res, "priv/fuzz-nobody/summary.txt",
          "sent=1000\nabandoned=0\nanswered=0\ncore_ext=0\nmodule_ext=1000\nmodule_noext=0\n"
          "failures=0\ncore_noext_EPERM=0\nunpriv_eperm=1000\n"
          f"extack\t1\t1000\t{NET_ADMIN_MSG}\n")
    write(res, "priv/fuzz-nobody/replies.tsv",
          "".join(f"{i}\tvalid\tdo\terr\t1\t1\t{NET_ADMIN_MSG}\n" for i in range(1000)))
    write(res, "priv/fuzz-nobody/failures.txt", "")
    ops = lambda r: "".join(f"op {op} {r if isinstance(r, str) else r[op]}\n" for op in OPS)  # noqa: E731
    write(res, "priv/root.rc", "0\n")
    write(res, "priv/root-ops.txt", "lookup ok\nfamily_id 30\n" + ops(ROOT_OPS))
    denied = ("pcieaudit-cli: permission denied for the device dump: "
              "run as root, or with CAP_SYS_ADMIN and CAP_NET_ADMIN\n")
    for who in ("nobody", "userns", "nobody-userns"):
        write(res, f"priv/{who}.rc", "5\n")
        write(res, f"priv/{who}.out", denied)
    write(res, "priv/nobody-ops.txt", "lookup ok\nfamily_id 30\n" + ops(UNPRIV_OPS))
    write(res, "priv/userns-ops.txt", "lookup ok\nfamily_id 30\n" + ops(UNPRIV_OPS))
    write(res, "priv/userns-id.txt", "uid=0(root) gid=0(root)\n")
    write(res, "priv/nobody-id.txt", "uid=65534(nobody) gid=65534(nogroup)\n")
    dropped = ("status Uid:\t65534\t65534\t65534\t65534\nstatus CapEff:\t0000000000000000\n"
               "status CapPrm:\t0000000000000000\nstatus CapBnd:\t0000000000000000\n"
               "status NoNewPrivs:\t1\n")
    write(res, "priv/drop-ops.txt", "drop ok\n" + dropped + "lookup ok\nfamily_id 30\n" + ops(ROOT_OPS))
    write(res, "priv/opened-unpriv-ops.txt",
          "status Uid:\t0\t0\t0\t0\nstatus CapEff:\t000001ffffffffff\n"
          "status CapPrm:\t000001ffffffffff\nstatus CapBnd:\t000001ffffffffff\n"
          "status NoNewPrivs:\t0\nlookup ok\nfamily_id 30\n" + ops(UNPRIV_OPS))
    write(res, "priv/drop-join.txt", "lookup ok\ngroup 3\njoin root ok\ndrop ok\n" + dropped +
          f"member after drop 1\nleave after drop ok\nrejoin after drop {EPERM}\n"
          "member after rejoin 0\n")
    write(res, "priv/netns.rc", "4\n")
    write(res, "priv/netns.out", "pcieaudit-cli: the pcieaudit module is loaded, but its generic "
          "netlink family is not reachable from this network namespace\n")
    write(res, "priv/netns-ops.txt", f"lookup {ENOENT}\nfamily_id 30\n" + ops(ENOENT))
    write(res, "ops/rc.txt", "1 0 info\n2 1 check --profile gpudirect\n")
    plant_facts = ("listen_ready=1\nlisten_self_exit=1\nlisten_rc=0\nacs_port=0000:00:02.0\n"
                   "acs_orig=001d\nacs_toggled=001c\nacs_writes=4\nhp_ep=0000:06:00.0\n"
                   "hp_port=0000:00:02.2\nhp_cycles=1\nhp_cycles_asked=1\n")
    with open(os.path.join(res, "facts.txt"), "a", encoding="utf-8") as f:
        f.write(plant_facts)
    joined = "lookup ok\ngroup 3\njoin own ok\nmember own 1\nleave own ok\nbind own ok\nmember own 1\n"
    refused = (f"lookup ok\ngroup 3\njoin own {EPERM}\nmember own 0\nleave own ok\n"
               f"bind own {EPERM}\nmember own 0\n")
    tail = f"join zero {EINVAL}\njoin beyond {EINVAL}\nrepeat 500 inconsistent 0\n"
    write(res, "priv/root-join.txt", joined + tail)
    write(res, "priv/nobody-join.txt", refused + tail)
    write(res, "priv/userns-join.txt", refused + tail)
    sock = "socket\t{}\trcvbuf={}\tevents={}\tenobufs={}\tgaps={}\tlost={}\tforeign=0\tadded=1\tremoved=1\tlink=2\tacs={}\n"
    write(res, "monitor/summary.txt",
          "family_id=30\ngroup=3\nseconds=60.0\nfamily_removed=1\nregs_events=5\n"
          "noregs_events=0\nfailures=0\n"
          + sock.format("small0", 2304, 3, 2, 1, 4, 1) + sock.format("big1", 2097152, 7, 0, 0, 0, 3)
          + sock.format("big2", 2097152, 7, 0, 0, 0, 3) + sock.format("churn", 2097152, 2, 0, 0, 0, 0)
          + "churn_join=10\nchurn_leave=9\n")
    ev = ["1\t100\tacs\t2\t0000:00:02.0\t0x1d\t0x1c",
          "2\t200\tacs\t2\t0000:00:02.0\t0x1c\t0x1d",
          "3\t300\tremoved\t1\t0000:06:00.0\t0\t0",
          "4\t400\tlink\t2\t0000:00:02.2\t0x2011\t0x11",
          "5\t500\tlink\t2\t0000:00:02.2\t0x11\t0x2011",
          "6\t600\tadded\t1\t0000:06:00.0\t0\t0",
          "7\t700\tacs\t2\t0000:00:02.0\t0x1d\t0x1c"]
    write(res, "monitor/events.tsv", "".join(f"{n}\t{e}\n" for n in ("big1", "big2") for e in ev)
          + "small0\t1\t100\tacs\t2\t0000:00:02.0\t0x1d\t0x1c\n")
    write(res, "monitor/failures.txt", "")
    cfg = "00" * 4096
    for name in ("base0", "base1", "base2", "after"):
        # Byte 6 (status) differs among the baselines: volatile.
        c = cfg[:12] + ("10" if name == "base1" else "00") + cfg[14:]
        write(res, f"config/{name}/config.hex", f"0000:00:00.0 4096 {c}\n")
    return res


def plant(res, rel, old, new):
    path = os.path.join(res, rel)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if old is None:
        text += new
    else:
        assert old in text, (rel, old)
        text = text.replace(old, new, 1)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


FAULTS = [
    ("KASAN report on the console", "../console.log", None,
     "[   12.3] BUG: KASAN: slab-out-of-bounds in dev_get_doit+0x1c/0x80 [pcieaudit]\n"),
    ("lockdep report in dmesg", "dmesg.txt", None,
     "[   13.0] WARNING: possible circular locking dependency detected\n"),
    ("suspicious RCU usage", "dmesg.txt", None, "[   13.0] =============================\n"
     "[   13.0] suspicious RCU usage.\n"),
    ("UBSAN report", "dmesg.txt", None, "[   13.0] UBSAN: shift-out-of-bounds in kmod/p2p_path.c:40:9\n"),
    ("sleeping in atomic context", "../console.log", None,
     "[   14.0] BUG: sleeping function called from invalid context at mm/slab.h:742\n"),
    ("kmemleak object", "kmemleak.txt", None,
     "unreferenced object 0xffff888012345678 (size 64):\n  backtrace:\n    kmalloc_trace\n"),
    ("module error without extack", "nlfuzz/replies.tsv", "1\tmutated\tdo\terr\t19\t1\t",
     "1\tmutated\tdo\terr\t19\t0\t"),
    ("dump error without extack", "nlfuzz/replies.tsv", "1\tmutated\tdo\terr\t19\t1\t",
     "1\tmutated\tdump\tdone_err\t90\t0\t"),
    ("fuzzer failure", "nlfuzz/summary.txt", "failures=0", "failures=1"),
    ("extack message of unknown origin", "nlfuzz/summary.txt", "no such PCI function",
     "something went wrong"),
    ("fewer messages than asked", "facts.txt", "count=4", "count=5"),
    ("configuration space written", "config/after/config.hex", "0000:00:00.0 4096 0000",
     "0000:00:00.0 4096 0100"),
    ("nobody allowed", "priv/nobody.rc", "5", "0"),
    ("nobody's op answered", "priv/nobody-ops.txt", f"op DEV_GET dump {EPERM}", "op DEV_GET dump ok"),
    ("user namespace root allowed", "priv/userns-ops.txt", f"op P2P_GET do {EPERM}", "op P2P_GET do ok"),
    ("unprivileged fuzzing answered", "priv/fuzz-nobody/replies.tsv",
     f"0\tvalid\tdo\terr\t1\t1\t{NET_ADMIN_MSG}", "0\tvalid\tdo\tok\t0\t0\t"),
    ("unprivileged fuzzing never refused by the module", "priv/fuzz-nobody/replies.tsv",
     f"\tdo\terr\t1\t1\t{NET_ADMIN_MSG}", "\tcore\terr\t1\t0\t"),
    ("the core refused for privilege (GENL_ADMIN_PERM)", "priv/fuzz-nobody/summary.txt",
     "core_noext_EPERM=0", "core_noext_EPERM=3"),
    ("another message for nobody's EPERM", "priv/fuzz-nobody/summary.txt",
     NET_ADMIN_MSG, "PCI configuration space needs CAP_SYS_ADMIN"),
    ("root's socket refused after the drop", "priv/drop-ops.txt", "op DEV_GET dump ok",
     f"op DEV_GET dump {EPERM}"),
    ("capabilities left after the drop", "priv/drop-ops.txt",
     "status CapBnd:\t0000000000000000", "status CapBnd:\t0000000000200000"),
    ("an unprivileged opener's socket answered root", "priv/opened-unpriv-ops.txt",
     f"op INFO_GET do {EPERM}", "op INFO_GET do ok"),
    ("the membership lost at the drop", "priv/drop-join.txt", "member after drop 1",
     "member after drop 0"),
    ("nobody joined again where the group is privileged", "priv/drop-join.txt",
     f"rejoin after drop {EPERM}", "rejoin after drop ok"),
    ("misleading message in another network namespace", "priv/netns.out",
     "the pcieaudit module is loaded, but its generic netlink family is not reachable from this network namespace",
     "kernel module not loaded: generic netlink family \"pcieaudit\" not found"),
    ("family found in another network namespace", "priv/netns-ops.txt", f"lookup {ENOENT}", "lookup ok"),
    ("rmmod failed", "facts.txt", "rmmod_rc=0", "rmmod_rc=1"),
    ("malformed event", "monitor/summary.txt", "failures=0", "failures=1"),
    ("a failure logged by the listener", "monitor/failures.txt", None,
     "FAIL monitor socket big1: event does not decode: mon-event: attribute 8 has 4 bytes\n"),
    ("listener hung at rmmod", "facts.txt", "listen_self_exit=1", "listen_self_exit=0"),
    ("family removal unseen", "monitor/summary.txt", "family_removed=1", "family_removed=0"),
    ("no ENOBUFS on the small sockets", "monitor/summary.txt", "enobufs=2", "enobufs=0"),
    ("a gap without ENOBUFS", "monitor/summary.txt", "gaps=1", "gaps=3"),
    ("the big sockets disagree", "monitor/events.tsv", "big2\t7\t700", "big2\t8\t700"),
    ("an ACS value nobody wrote", "monitor/events.tsv", "big1\t7\t700\tacs\t2\t0000:00:02.0\t0x1d\t0x1c",
     "big1\t7\t700\tacs\t2\t0000:00:02.0\t0x1d\t0x18"),
    ("hot-plug events out of order", "monitor/events.tsv", "big1\t3\t300\tremoved",
     "big1\t3\t300\tadded"),
    ("a hot-plug cycle not done", "facts.txt", "hp_cycles=1", "hp_cycles=0"),
    ("nobody joined the group", "priv/nobody-join.txt", f"join own {EPERM}", "join own ok"),
    ("root could not join", "priv/root-join.txt", "join own ok", f"join own {EPERM}"),
    ("repeated joins inconsistent", "priv/userns-join.txt", "inconsistent 0", "inconsistent 3"),
    ("a group beyond the ids joined", "priv/root-join.txt", f"join beyond {EINVAL}", "join beyond ok"),
    ("events without registers where privileged", "monitor/summary.txt", "noregs_events=0",
     "noregs_events=2"),
]


def selftest():
    bad = 0
    # Hermetic: the kernel header is the real run's oracle, not the selftest's.
    os.environ.pop("PA_GENL_HEADER", None)
    with tempfile.TemporaryDirectory() as tmp:
        c = Checker(clean_run(os.path.join(tmp, "clean")))
        c.run()
        if c.errors:
            print("security selftest: FAIL: the clean run was rejected:")
            for e in c.errors:
                print(f"  {e}")
            bad += 1
        for name, rel, old, new in FAULTS:
            root = os.path.join(tmp, "f")
            shutil.rmtree(root, ignore_errors=True)
            res = clean_run(root)
            plant(res, rel, old, new)
            c = Checker(res)
            c.run()
            if not c.errors:
                print(f"security selftest: FAIL: planted '{name}' was accepted")
                bad += 1
    if bad:
        return 1
    print(f"security selftest: the clean run passes; all {len(FAULTS)} planted faults rejected")
    return 0


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--selftest":
        return selftest()
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    return report(sys.argv[1])


if __name__ == "__main__":
    sys.exit(main())
