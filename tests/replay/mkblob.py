#!/usr/bin/env python3
"""mkblob.py CAPTURE OUT.bin [--domain-base N]: a corpus capture
(lspci -xxx or -xxxx hex, with -v's region sizes where it has them) as the
blob pa_replay.ko reads through request_firmware() (format in pa_replay.c).
CAPTURE may also be an nvidia-bug-report log (gzip or not, as in
../shared/fixtures/real-gpu-hosts/): its `lspci -nnDvvvxxxx` (or -xxx)
section is the capture.

Each capture domain becomes replay domain BASE + its index (default 0x100);
its root buses are the buses no captured bridge leads to, each given the bus
numbers up to the next root. Prints "CAPTURE-DOMAIN REPLAY-DOMAIN" lines,
the map the comparison needs."""
import argparse
import gzip
import re
import struct
import sys

HDR = re.compile(r'^(?:([0-9a-f]{4,8}):)?([0-9a-f]{2}):([0-9a-f]{2})\.([0-7]) ')
ROW = re.compile(r'^([0-9a-f]{2,3}): ((?:[0-9a-f]{2} ?){16})\s*$')
SIZE = re.compile(r'^\s+(?:Region (\d)|(Expansion ROM)) .*\[(?:disabled\] \[)?size=(\d+)([KMGT]?)\]')
UNIT = {'': 1, 'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30, 'T': 1 << 40}


# An nvidia-bug-report log names each section by its command line, after a
# line of underscores.
LOG_LSPCI = re.compile(r'^/\S*lspci -\S*D\S*xxx\S*\s*$')


def read_capture(path):
    """The text of CAPTURE: a gzip file decompressed; of an nvidia-bug-report
    log, only its lspci -D...xxx(x) section."""
    with open(path, 'rb') as fh:
        raw = fh.read()
    if raw[:2] == b'\x1f\x8b':
        raw = gzip.decompress(raw)
    text = raw.decode('utf-8', errors='replace')
    lines = text.splitlines(keepends=True)
    start = next((i for i, ln in enumerate(lines) if LOG_LSPCI.match(ln)), None)
    if start is None:
        return text
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith('____')), len(lines))
    return ''.join(lines[start + 1:end])


def parse(path):
    return parse_text(read_capture(path), path)


def parse_text(text, path='-'):
    funcs, cur = [], None
    for line in text.splitlines(keepends=True):
        m = HDR.match(line)
        if m:
            cur = {'domain': int(m.group(1) or '0', 16), 'bus': int(m.group(2), 16),
                   'devfn': int(m.group(3), 16) << 3 | int(m.group(4)),
                   'cfg': bytearray(4096), 'len': 0, 'size': [0] * 7}
            funcs.append(cur)
            continue
        if cur is None:
            continue
        m = ROW.match(line)
        if m:
            off = int(m.group(1), 16)
            cur['cfg'][off:off + 16] = bytes.fromhex(m.group(2).replace(' ', ''))
            cur['len'] = max(cur['len'], off + 16)
            continue
        m = SIZE.match(line)
        if m:
            idx = 6 if m.group(2) else int(m.group(1))
            cur['size'][idx] = int(m.group(3)) * UNIT[m.group(4)]
    out = []
    for f in funcs:
        if f['len'] not in (256, 4096):
            sys.exit(f'{path}: {f["bus"]:02x}:{f["devfn"] >> 3:02x}.{f["devfn"] & 7}: '
                     f'{f["len"]} bytes, need lspci -xxx or -xxxx')
        out.append(f)
    return out


def pcie_type(f):
    """The PCIe port type of a function, None for conventional PCI."""
    cfg = f['cfg']
    pos = cfg[0x34] if cfg[0x06] & 0x10 else 0
    for _ in range(48):
        if pos < 0x40:
            return None
        if cfg[pos] == 0x10:
            return cfg[pos + 2] >> 4 & 0xf
        pos = cfg[pos + 1] & ~3
    return None


def below(funcs, dom, bus):
    """The buses of domain DOM at and below BUS, by the captured bridges."""
    out, todo = set(), [bus]
    while todo:
        b = todo.pop()
        if b in out:
            continue
        out.add(b)
        todo += [f['cfg'][0x19] for f in funcs if f['domain'] == dom and f['bus'] == b
                 and f['cfg'][0x0e] & 0x7f in (1, 2) and f['cfg'][0x19] > b]
    return out


def prune(funcs):
    """Drops the root buses that hold a switch port (its upstream port, or
    the port above it, was not captured): no real fabric has one, and the
    kernel's ASPM setup dereferences the missing parent (7.3 oopses in
    pcie_aspm_init_link_state()). Returns the functions kept and a line per
    dropped root bus."""
    dropped, notes = set(), []
    for dom, first, _ in roots_of(funcs):
        ports = [f for f in funcs if f['domain'] == dom and f['bus'] == first
                 and pcie_type(f) in (5, 6)]
        if ports:
            buses = below(funcs, dom, first)
            dropped |= {(dom, b) for b in buses}
            notes.append(f'{dom:04x}:{first:02x}: a switch port on a root bus '
                         f'(the port above it not captured); buses '
                         f'{",".join(f"{b:02x}" for b in sorted(buses))} not replayed')
    return [f for f in funcs if (f['domain'], f['bus']) not in dropped], notes


def roots_of(funcs):
    """(domain, first, last) of every root bus."""
    res = []
    for dom in sorted({f['domain'] for f in funcs}):
        mine = [f for f in funcs if f['domain'] == dom]
        secs = {f['cfg'][0x19] for f in mine if f['cfg'][0x0e] & 0x7f in (1, 2)}
        roots = sorted({f['bus'] for f in mine} - secs)
        for i, r in enumerate(roots):
            last = roots[i + 1] - 1 if i + 1 < len(roots) else 0xff
            res.append((dom, r, last))
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('capture')
    ap.add_argument('out')
    ap.add_argument('--domain-base', type=lambda s: int(s, 0), default=0x100)
    a = ap.parse_args()
    funcs, notes = prune(parse(a.capture))
    for n in notes:
        print(f'{a.capture}: {n}', file=sys.stderr)
    if not funcs:
        sys.exit(f'{a.capture}: no function')
    doms = sorted({f['domain'] for f in funcs})
    dmap = {d: a.domain_base + i for i, d in enumerate(doms)}
    roots = roots_of(funcs)
    blob = bytearray(b'PAREPLY1' + struct.pack('<II', len(roots), len(funcs)))
    for dom, first, last in roots:
        blob += struct.pack('<IBBH', dmap[dom], first, last, 0)
    for f in funcs:
        blob += struct.pack('<IHBBII7Q', dmap[f['domain']], f['bus'], f['devfn'], 0,
                            f['len'], 0, *f['size'])
        blob += f['cfg']
    with open(a.out, 'wb') as fh:
        fh.write(blob)
    for d in doms:
        print(f'{d:04x} {dmap[d]:04x}')


if __name__ == '__main__':
    main()
