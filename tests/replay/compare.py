#!/usr/bin/env python3
"""compare.py --cli CLI [--when WHEN] RESULTS | --cli CLI --offline [--write]
   | --list WHEN

RESULTS (a replay guest's: tests/replay/replay.sh's, or a topology's with
TOPO_REPLAY, tests/vm/run-topology.sh): for each machine of machines.txt
replayed there (--when: those of that WHEN; default kernels),
 - the domain's functions are the capture's (less the root buses mkblob.py
   drops), and lspci -xxxx in the guest, reading through the kernel, gives
   the capture's bytes except in the registers software writes; lspci -vvv's
   link, ACS, device capability and bus lines equal `lspci -F CAPTURE -vvv`;
 - the kernel's own pci_p2pdma_distance_many() answered every ordered pair
   of the capture's endpoints (pairs=bridged: those below a bridge), and
   pcieaudit.ko's verdict (p2p-probe's map and distance) agrees with it on
   each;
 - with acs= (machines.txt), the kernel's log, lspci -xxxx in the guest
   and pcieaudit.ko's report show the ACS Control pci=config_acs= set;
 - the kernel's verdicts equal the stored ones (tests/fixtures/lspci/
   kernel-p2p/NAME.txt; --write stores them);
and, with --offline too (make corpus-test, no guest; every WHEN):
pcieaudit-cli's offline `topo --all --json --lspci CAPTURE` never
contradicts a stored kernel verdict. A pair the CLI leaves without a verdict
is counted with the reason, never a difference; a contradiction fails. A
machine whose capture= is absent (no ../shared) is skipped with a line
saying so. --list WHEN prints "NAME CAPTURE PAIRS" per machine of WHEN
(CAPTURE "-" where absent), for the shell that makes the blobs."""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mkblob  # noqa: E402

TOP = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.normpath(os.path.join(HERE, '..', 'fixtures', 'lspci'))
STORE = os.path.join(CORPUS, 'kernel-p2p')
VVV = re.compile(r'^\s+(LnkCap|LnkSta|ACSCap|ACSCtl|DevCap|Bus):')
CAPTURES = {}
# acs=DDDD:BB:DD.F=CTRL: the kernel sets that port's ACS Control to CTRL
# (hex) from pci=config_acs= when it enumerates the replayed domain.
ACS_OPT = re.compile(r'^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]=[0-9a-f]{4}$')


def machines(when=None):
    """The machines of machines.txt (of WHEN, or all) in order; CAPTURES
    gets each one's capture path and pairs mode."""
    out = []
    with open(os.path.join(HERE, 'machines.txt'), encoding='utf-8') as fh:
        for line in fh:
            f = line.split('#', 1)[0].split()
            if not f:
                continue
            opts = dict(o.split('=', 1) for o in f[2:])
            if set(opts) - {'capture', 'pairs', 'acs'} or opts.get('pairs', 'all') not in ('all', 'bridged') \
                    or ('acs' in opts and not ACS_OPT.match(opts['acs'])):
                sys.exit(f'machines.txt: bad line: {line.strip()}')
            path = os.path.normpath(os.path.join(TOP, opts['capture'])) if 'capture' in opts \
                else os.path.join(CORPUS, f[1] + '.lspci')
            acs = None
            if 'acs' in opts:
                where, ctrl = opts['acs'].rsplit('=', 1)
                acs = (where, int(ctrl, 16))
            CAPTURES[f[1]] = (path, opts.get('pairs', 'all'), acs)
            if when is None or f[0] == when:
                out.append(f[1])
    return out


def capture(m):
    return CAPTURES[m][0]


def present(m):
    """False, with a line saying so, where the capture is absent."""
    if os.path.exists(capture(m)):
        return True
    print(f'{m}: SKIP: {os.path.relpath(capture(m), TOP)} absent (../shared not here)')
    return False


def bdf(dom, bus, devfn):
    return f'{dom:04x}:{bus:02x}:{devfn >> 3:02x}.{devfn & 7}'


def capture_funcs(m):
    funcs, _ = mkblob.prune(mkblob.parse_text(capture_text(m), capture(m)))
    doms = sorted({f['domain'] for f in funcs})
    return funcs, {0x100 + i: d for i, d in enumerate(doms)}


def writable(f):
    """Offsets software may change (pa_replay.c's par_setup())."""
    cfg, hdr = f['cfg'], f['cfg'][0x0e] & 0x7f
    w = {4, 5}
    if hdr == 0:
        w |= set(range(0x10, 0x28)) | set(range(0x30, 0x34))
    elif hdr == 1:
        w |= set(range(0x10, 0x18)) | {0x18, 0x19, 0x1a, 0x3e, 0x3f} | set(range(0x38, 0x3c))
    pos = cfg[0x34] if cfg[0x06] & 0x10 else 0
    for _ in range(48):
        if pos < 0x40:
            break
        if cfg[pos] == 0x10:
            for o in (8, 0x10, 0x28, 0x30):
                w |= {pos + o, pos + o + 1}
        pos = cfg[pos + 1] & ~3
    pos = 0x100
    while f['len'] > 0x100 and 0x100 <= pos <= 0xff8:
        h = int.from_bytes(cfg[pos:pos + 4], 'little')
        if h in (0, 0xffffffff):
            break
        if h & 0xffff == 0x0d:
            w |= {pos + 6, pos + 7}
        pos = h >> 20
    return w


def vvv_lines(text, dmap=None):
    """BDF -> the compared lines of lspci -vvv text; with DMAP (replay
    domain -> capture domain) only the replayed domains, as the capture's."""
    out, cur = {}, None
    for line in text.splitlines():
        m = mkblob.HDR.match(line)
        if m:
            dom = int(m.group(1) or '0', 16)
            if dmap is not None:
                dom = dmap.get(dom)
            cur = None if dom is None else f'{dom:04x}:{m.group(2)}:{m.group(3)}.{m.group(4)}'
            if cur:
                out[cur] = []
        elif cur and VVV.match(line):
            out[cur].append(line.strip())
    return out


def pairs_of(path):
    res = {}
    with open(path, encoding='utf-8', errors='replace') as fh:
        for line in fh:
            if line.startswith('pair '):
                kv = dict(t.split('=', 1) for t in line.split()[1:] if '=' in t)
                res[(kv['provider'], kv['client'])] = kv
    return res


def acs_pos(f):
    """The offset of f's ACS extended capability, or None."""
    cfg, pos = f['cfg'], 0x100
    while f['len'] > 0x100 and 0x100 <= pos <= 0xff8:
        h = int.from_bytes(cfg[pos:pos + 4], 'little')
        if h in (0, 0xffffffff):
            return None
        if h & 0xffff == 0x0d:
            return pos
        pos = h >> 20
    return None


def capture_text(m):
    """The capture's lspci text (of a log, its lspci section) as the kernel
    leaves it: with acs=, that port's ACS Control as pci=config_acs= sets
    it, in its hex dump."""
    text = mkblob.read_capture(capture(m))
    acs = CAPTURES[m][2]
    if not acs:
        return text
    where, ctrl = acs
    lines, cur, pos = text.splitlines(keepends=True), None, None
    for f in mkblob.parse_text(text):
        if bdf(f['domain'], f['bus'], f['devfn']) == where:
            pos = acs_pos(f)
    if pos is None:
        sys.exit(f'machines.txt: {m}: acs={where}: no such function with ACS in the capture')
    done = 0
    for i, line in enumerate(lines):
        h = mkblob.HDR.match(line)
        if h:
            cur = f'{int(h.group(1) or "0", 16):04x}:{h.group(2)}:{h.group(3)}.{h.group(4)}'
            continue
        r = mkblob.ROW.match(line)
        if cur == where and r and int(r.group(1), 16) == pos & ~0xf:
            b = r.group(2).split()
            b[(pos + 6) & 0xf], b[(pos + 7) & 0xf] = f'{ctrl & 0xff:02x}', f'{ctrl >> 8:02x}'
            lines[i] = f'{r.group(1)}: {" ".join(b)}\n'
            done += 1
    if done != 1:
        sys.exit(f'machines.txt: {m}: acs={where}: its ACS Control not found in the hex dump')
    return ''.join(lines)


def config_acs(m):
    """The pci=config_acs= argument for m's acs= (in the replayed domain,
    0x100 on: capture_funcs()), or None."""
    acs = CAPTURES[m][2]
    if not acs:
        return None
    where, ctrl = acs
    _, dmap = capture_funcs(m)
    dom = next(r for r, d in dmap.items() if d == int(where[:4], 16))
    # Bit 0 rightmost; '1' sets a bit, '0' clears it.
    mask = format(ctrl, 'b').rjust(7, '0')
    return f'pci=config_acs={mask}@{dom:04x}{where[4:]}'


def lspci_text(m):
    """A file of capture_text(m), for lspci -F and the CLI's --lspci; the
    caller removes it."""
    fd, tmp = tempfile.mkstemp(prefix=f'replay-{m}-', suffix='.lspci')
    with os.fdopen(fd, 'w', encoding='utf-8') as fh:
        fh.write(capture_text(m))
    return tmp


def offline(cli, m):
    tmp = lspci_text(m)
    try:
        out = subprocess.run([cli, 'topo', '--all', '--json', '--lspci', tmp],
                             capture_output=True, text=True, check=False)
    finally:
        os.unlink(tmp)
    return {(p['a'], p['b']): p for p in json.loads(out.stdout)['p2p']}


def stored(m):
    path = os.path.join(STORE, m + '.txt')
    if not os.path.exists(path):
        return None
    res = {}
    with open(path, encoding='utf-8') as fh:
        for line in fh:
            if line.strip() and not line.startswith('#'):
                a, b, d = line.split()
                res[(a, b)] = int(d)
    return res


def cli_vs_kernel(cli, m, kern, errs):
    """The offline CLI against the kernel's verdicts; returns counts."""
    off = offline(cli, m)
    n = {'pairs': 0, 'agree': 0, 'cli_unknown': 0}
    why = {}
    for (a, b), kd in sorted(kern.items()):
        n['pairs'] += 1
        p = off.get((a, b)) or off.get((b, a))
        if p is None:
            errs.append(f'{m}: {a} {b}: the kernel answered {kd}, the CLI lists no such pair')
            continue
        cmap = p['map']
        if cmap is None:
            n['cli_unknown'] += 1
            r = p['path'] or 'ACS unknown on the path'
            why[r] = why.get(r, 0) + 1
            continue
        if (kd >= 0) != (cmap != 'unsupported') or (kd >= 0 and p['distance'] != kd):
            errs.append(f'{m}: {a} {b}: the kernel says {kd}, the CLI offline '
                        f'{cmap} distance {p["distance"]}')
        else:
            n['agree'] += 1
    n['unknown_why'] = why
    return n


def acs_checks(m, d, dmap, want, got, errs):
    """acs=: the kernel's pci=config_acs= as the kernel says it (its log),
    as lspci reads it in the guest, and as pcieaudit.ko reports it."""
    where, ctrl = CAPTURES[m][2]
    rdom = next(r for r, c in dmap.items() if c == int(where[:4], 16))
    there = f'{rdom:04x}{where[4:]}'
    pos = acs_pos(want[where])
    g = got.get(where)
    val = int.from_bytes(g['cfg'][pos + 6:pos + 8], 'little') if g else None
    if val != ctrl:
        errs.append(f'{m}: {there}: ACS Control in the guest\'s lspci -xxxx '
                    f'{val if val is None else hex(val)}, pci=config_acs= asked {ctrl:#06x}')
    log = open(os.path.join(d, 'dmesg.txt'), encoding='utf-8', errors='replace').read()
    if not re.search(rf'{re.escape(there)}: Configured ACS to {ctrl:#06x}', log):
        errs.append(f'{m}: the kernel log lacks "{there}: Configured ACS to {ctrl:#06x}"')
    try:
        with open(os.path.join(d, 'report.json'), encoding='utf-8') as fh:
            rep = json.load(fh)
        mod = next((x.get('acs') or {} for x in rep['devices'] if x['bdf'] == there), {})
    except (OSError, ValueError, KeyError) as e:
        errs.append(f'{m}: pcieaudit.ko\'s report.json unreadable: {e}')
        return
    if mod.get('ctrl') != ctrl:
        errs.append(f'{m}: {there}: pcieaudit.ko reports ACS Control {mod.get("ctrl")}, '
                    f'the kernel configured {ctrl:#06x}')


def endpoints(funcs, want, bridged):
    """The functions p2p-probe asks about: those without a bus below them
    (header type 0: the kernel gives a CardBus bridge a bus of its own, a
    pci_bus in sysfs, though no driver scans it here); with BRIDGED only
    those below a bridge."""
    roots = {(d, b) for d, b, _ in mkblob.roots_of(funcs)}
    return {k for k, f in want.items() if f['cfg'][0x0e] & 0x7f == 0
            and not (bridged and (f['domain'], f['bus']) in roots)}


def check_guest(cli, res, when, write, errs):
    for m in machines(when):
        if not present(m):
            continue
        d = os.path.join(res, 'replay', m)
        if not os.path.isdir(d):
            errs.append(f'{m}: not replayed')
            continue
        rd = lambda f: open(os.path.join(d, f), encoding='utf-8', errors='replace').read()  # noqa: E731
        if rd('insmod.rc').strip() != '0' or rd('rmmod.rc').strip() != '0':
            errs.append(f'{m}: insmod {rd("insmod.rc").strip()}, rmmod {rd("rmmod.rc").strip()}: '
                        f'{rd("insmod.out").strip()} {rd("rmmod.out").strip()}')
            continue
        if any(re.match(r'01[0-9a-f]{2}:', x) for x in rd('after.txt').split()):
            errs.append(f'{m}: functions left after rmmod')
        for pat in ('BUG:', 'WARNING:', 'Oops', 'Call Trace'):
            if pat in rd('dmesg.txt') + rd('dmesg-rmmod.txt'):
                errs.append(f'{m}: the kernel log has {pat}')
        funcs, dmap = capture_funcs(m)
        # Below a CardBus bridge only its driver (yenta) scans: no driver binds here.
        cardbus = set()
        for f in funcs:
            if f['cfg'][0x0e] & 0x7f == 2:
                cardbus |= {(f['domain'], b) for b in mkblob.below(funcs, f['domain'], f['cfg'][0x19])}
        want = {bdf(f['domain'], f['bus'], f['devfn']): f for f in funcs
                if (f['domain'], f['bus']) not in cardbus}
        got = {}
        for g in mkblob.parse_text(rd('lspci.txt')):
            if g['domain'] in dmap:
                got[bdf(dmap[g['domain']], g['bus'], g['devfn'])] = g
        if set(got) != set(want):
            errs.append(f'{m}: replayed {sorted(set(got) ^ set(want))} differ from the capture')
        nbytes = 0
        for k in sorted(set(got) & set(want)):
            w, g = want[k], got[k]
            ok = writable(w)
            diff = [o for o in range(w['len']) if w['cfg'][o] != g['cfg'][o] and o not in ok]
            nbytes += sum(w['cfg'][o] != g['cfg'][o] for o in range(w['len']))
            if g['len'] != w['len'] or diff:
                errs.append(f'{m}: {k}: lspci in the guest: {g["len"]} bytes, differs at '
                            f'{",".join(f"{o:#x}" for o in diff[:8])}')
        if CAPTURES[m][2]:
            acs_checks(m, d, dmap, want, got, errs)
        tmp = lspci_text(m)
        try:
            host = subprocess.run(['lspci', '-F', tmp, '-vvv'],
                                  capture_output=True, text=True, check=False).stdout
        finally:
            os.unlink(tmp)
        hv, gv = vvv_lines(host), vvv_lines(rd('lspci.txt'), dmap)
        nl = 0
        for k in want:
            if hv.get(k) != gv.get(k):
                errs.append(f'{m}: {k}: lspci -vvv: capture {hv.get(k)} guest {gv.get(k)}')
            nl += len(hv.get(k, []))
        # The kernel's verdicts, and pcieaudit.ko's beside them.
        kern, mod_bad, mod_unknown = {}, 0, 0
        pp = pairs_of(os.path.join(d, 'p2p.txt')) if os.path.exists(os.path.join(d, 'p2p.txt')) else {}
        for (p, c), kv in pp.items():
            if kv.get('kstatus') != 'answered':
                continue
            a = f'{dmap[int(p[:4], 16)]:04x}{p[4:]}'
            b = f'{dmap[int(c[:4], 16)]:04x}{c[4:]}'
            kd = int(kv['kdist'])
            kern[(a, b)] = kd
            mmap, mdist = kv.get('map'), kv.get('dist')
            if mmap in (None, '-', 'unknown'):
                mod_unknown += 1
                continue
            if (kd >= 0) != (mmap != 'not_supported') or (kd >= 0 and int(mdist) != kd):
                mod_bad += 1
                errs.append(f'{m}: {a} {b}: the kernel says {kd}, pcieaudit.ko {mmap} {mdist}')
        # Every ordered pair of the capture's endpoints, answered.
        ends = endpoints(funcs, want, CAPTURES[m][1] == 'bridged')
        missing = {(a, b) for a in ends for b in ends if a != b} - set(kern)
        if missing:
            errs.append(f'{m}: {len(missing)} ordered pairs without the kernel\'s verdict, '
                        f'such as {" ".join(sorted(missing)[0])}')
        if write:
            os.makedirs(STORE, exist_ok=True)
            with open(os.path.join(STORE, m + '.txt'), 'w', encoding='utf-8') as fh:
                fh.write(f'# {m}: pci_p2pdma_distance_many() of Debian 7.3 (no IOMMU, '
                         'x86, not Zen) per ordered pair; -1 not supported. Written by '
                         'tests/replay/compare.py --write from the replay guest.\n')
                for (a, b), kd in sorted(kern.items()):
                    fh.write(f'{a} {b} {kd}\n')
        elif stored(m) is None:
            errs.append(f'{m}: no kernel-p2p/{m}.txt (compare.py --write stores the kernel\'s verdicts)')
        elif stored(m) != kern:
            old = stored(m)
            bad = sorted(k for k in set(old) | set(kern) if old.get(k) != kern.get(k))
            errs.append(f'{m}: the kernel\'s verdicts differ from kernel-p2p/{m}.txt on {len(bad)} '
                        f'pairs, such as {" ".join(bad[0])}: stored {old.get(bad[0])}, '
                        f'kernel {kern.get(bad[0])}')
        n = cli_vs_kernel(cli, m, kern, errs)
        try:
            t0, t1 = (float(x) for x in rd('uptime.txt').split())
            secs = f'{t1 - t0:.1f} s'
        except (OSError, ValueError):
            secs = '? s'
        print(f'{m}: {secs} in the guest; {len(got)} functions, {nbytes} bytes changed by the kernel '
              f'(writable registers), {nl} lspci -vvv lines equal; {len(pp)} pairs, {len(kern)} '
              f'answered by the kernel ({sum(v >= 0 for v in kern.values())} supported), '
              f'pcieaudit.ko differs on {mod_bad}, unknown on {mod_unknown}; CLI offline agrees '
              f'on {n["agree"]}, no verdict on {n["cli_unknown"]} {n["unknown_why"]}')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--cli')
    ap.add_argument('--offline', action='store_true')
    ap.add_argument('--write', action='store_true')
    ap.add_argument('--when', default='kernels', choices=('check', 'kernels'))
    ap.add_argument('--list', metavar='WHEN', choices=('check', 'kernels'))
    ap.add_argument('results', nargs='?')
    a = ap.parse_args()
    if a.list:
        for m in machines(a.list):
            path, pairs, _ = CAPTURES[m]
            ca = config_acs(m) if os.path.exists(path) else None
            print(m, path if os.path.exists(path) else '-', pairs, ca or '-')
        return 0
    if not a.cli or not (a.offline or a.results):
        ap.error('--cli CLI with --offline or RESULTS')
    errs = []
    if a.offline:
        for m in machines():
            if not present(m):
                continue
            kern = stored(m)
            if kern is None:
                errs.append(f'{m}: no kernel-p2p/{m}.txt')
                continue
            n = cli_vs_kernel(a.cli, m, kern, errs)
            print(f'{m}: {n["pairs"]} kernel verdicts, CLI offline agrees on {n["agree"]}, '
                  f'no verdict on {n["cli_unknown"]} {n["unknown_why"]}')
    else:
        check_guest(a.cli, a.results, a.when, a.write, errs)
    for e in errs:
        print('DIFF', e)
    print(f'replay: {"FAIL" if errs else "PASS"} ({len(errs)} differences)')
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
