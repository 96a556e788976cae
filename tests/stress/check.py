#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judges a stress run (tests/stress/stress-init.sh) from its results.

    check.py [--min-cycles N] [--min-reloads N] [--min-enomem N]
             [--min-cli-enomem N] [--min-vfio-cycles N] RESULTS
    check.py --selftest

Fails on: any kernel splat in the console log or dmesg (KASAN, UBSAN,
lockdep, RCU, WARN, BUG, Oops, kmemleak, sleeping in atomic context, hung
tasks); a kmemleak report after the final scan; a hot-plug cycle, reload
or VFIO/SR-IOV cycle that did not do what it should, or fewer than asked; a dump that broke a
rule inside itself (order, duplicates, malformed: "B" lines); a dump that
ended with an error the phase does not explain (the family may be absent
only while it is unloaded, allocations may fail only under failslab); a
finished dump that lacks a function which existed during the whole dump
(sysfs at start, minus the hot-plug windows), or that names one that never
existed; a CLI exit that is not the documented one for what happened.
Prints the figures docs/reliability.md records.
"""
import argparse
import collections
import errno
import json
import os
import re
import shutil
import sys
import tempfile

# A line matching any of these is a splat, wherever it comes from.
SPLAT = re.compile(
    r'KASAN|UBSAN|BUG:|WARNING:|Oops|general protection fault|Kernel panic'
    r'|possible (recursive |circular )?locking|inconsistent lock state'
    r'|suspicious RCU usage|sleeping function called from invalid context'
    r'|kmemleak|blocked for more than|rcu.*stall|refcount_t:|list_(add|del) corruption'
    r'|unreferenced object|Call Trace:')
# Boot messages that mention a checker without being a report.
BENIGN = re.compile(
    r'kmemleak: Kernel memory leak detector initialized'
    r'|kmemleak: Automatic memory scanning thread started'
    r'|KASAN: (vmalloc|stack|inline|outline)|kasan: KernelAddressSanitizer initialized'
    r'|Command line: |Kernel command line: |RCU CPU stall warnings timeout set to')


def key_of(bdf):
    dom, bus, rest = bdf.split(':')
    dev, fn = rest.split('.')
    return int(dom, 16) << 16 | int(bus, 16) << 8 | int(dev, 16) << 3 | int(fn)


def bdf_of(key):
    return '%04x:%02x:%02x.%d' % (key >> 16, (key >> 8) & 0xff, (key >> 3) & 0x1f, key & 7)


class Run:
    def __init__(self, res, args):
        self.res = res
        self.args = args
        self.errors = []
        self.figures = collections.OrderedDict()

    def fail(self, msg):
        if len(self.errors) < 200:
            self.errors.append(msg)

    def read(self, name, must=True):
        path = os.path.join(self.res, name)
        if not os.path.exists(path):
            if must:
                self.fail('missing %s' % name)
            return ''
        with open(path, errors='replace') as f:
            return f.read()

    # ---- kernel log ------------------------------------------------------

    def splats(self):
        n = 0
        sources = [os.path.join(os.path.dirname(self.res.rstrip('/')), 'console.log'),
                   os.path.join(self.res, 'dmesg.txt')]
        for path in sources:
            if not os.path.exists(path):
                continue
            with open(path, errors='replace') as f:
                for no, line in enumerate(f, 1):
                    if SPLAT.search(line) and not BENIGN.search(line):
                        n += 1
                        self.fail('splat in %s:%d: %s' % (os.path.basename(path), no, line.strip()[:200]))
        self.figures['splats'] = n
        leak = self.read('kmemleak.txt', must=False)
        leaks = leak.count('unreferenced object')
        self.figures['kmemleak reports'] = leaks
        if leaks:
            self.fail('kmemleak: %d unreferenced objects' % leaks)

    # ---- what the guest did --------------------------------------------------

    def facts(self):
        self.f = {}
        for line in self.read('facts.txt').splitlines():
            k, _, v = line.partition('=')
            self.f[k] = v
        for k, want in (('finished', '1'), ('insmod_rc', '0'), ('resume_rc', '0'), ('hotplug_rc', '0'),
                        ('reload_rc', '0'), ('final_rc', '0'), ('final_rmmod', 'ok'),
                        ('kmemleak', 'present')):
            if self.f.get(k) != want:
                self.fail('fact %s=%s, want %s' % (k, self.f.get(k), want))
        for k in ('sweep_dev_rc', 'sweep_group_rc', 'sweep_p2p_rc'):
            if self.f.get(k, '0') != '0':
                self.fail('fact %s=%s' % (k, self.f[k]))

        def span(a, b):
            try:
                return float(self.f['phase_' + b]) - float(self.f['phase_' + a])
            except (KeyError, ValueError):
                return None
        for name, a, b in (('boot', None, 'boot_done'), ('hot-plug phase', 'hotplug_start', 'hotplug_end'),
                           ('reload phase', 'reload_start', 'reload_end'),
                           ('failslab phase', 'failslab_start', 'failslab_end'),
                           ('whole guest run', None, 'end')):
            v = float(self.f.get('phase_' + b, 'nan')) if a is None else span(a, b)
            if v is not None:
                self.figures['%s (s)' % name] = round(v, 1)

    def topology(self):
        self.universe = {}     # key -> (group, bridge)
        for line in self.read('universe.txt').splitlines():
            p = line.split()
            if len(p) >= 4:
                self.universe[key_of(p[0])] = (p[1], p[3] == 'bridge')
        if not self.universe:
            self.fail('no functions in universe.txt')
        self.figures['functions'] = len(self.universe)

    def hotplug(self):
        self.windows = collections.defaultdict(list)    # key -> [(t0, t1)]
        ops = collections.Counter()
        for line in self.read('hotplug.log').splitlines():
            p = line.split()
            if p[0] == 'W':
                for b in p[4].split(','):
                    self.windows[key_of(b)].append((int(p[1]), int(p[2])))
            elif p[0] == 'OK':
                ops[p[2]] += 1
            elif p[0] == 'FAIL':
                self.fail('hot-plug cycle failed: %s' % line)
        cycles = sum(ops.values())
        self.figures['hot-plug cycles'] = '%d (%s)' % (cycles, ', '.join(
            '%s %d' % kv for kv in sorted(ops.items())))
        if cycles < self.args.min_cycles:
            self.fail('%d hot-plug cycles, want %d' % (cycles, self.args.min_cycles))
        for op in ('endpoint', 'switch', 'vf'):
            if not ops[op]:
                self.fail('no %s hot-plug cycle' % op)
        # The deterministic resume test (stress-dump resume) removes too.
        resume = self.read('resume.log')
        for line in resume.splitlines():
            p = line.split()
            if p[0] == 'W':
                for b in p[4].split(','):
                    self.windows[key_of(b)].append((int(p[1]), int(p[2])))
        # Once without selectors (the module's general path), once with
        # every endpoint selected by address (its one-walk path).
        for mode in ('all', 'select'):
            if 'RESUME %s switch 1 vf 1' % mode not in resume:
                self.fail('resume.log: a provider was not removed between the parts '
                          'of a P2P dump (%s)' % mode)
        self.figures['P2P dumps resumed from a removed provider'] = resume.count('\nRM ') + resume.startswith('RM ')
        for k in self.windows:
            if k not in self.universe:
                self.fail('hot-plug removed %s, not in universe.txt' % bdf_of(k))

    def vfio(self):
        """Phase 1b: VFs enabled and disabled from the PF side, VF 0 bound
        to vfio-pci and its group opened, attached, detached and closed."""
        ok = 0
        for line in self.read('vfio.log', must=self.args.min_vfio_cycles > 0).splitlines():
            p = line.split()
            if p[0] == 'W':
                for b in p[4].split(','):
                    self.windows[key_of(b)].append((int(p[1]), int(p[2])))
            elif p[0] == 'OK':
                ok += 1
            elif p[0] == 'FAIL':
                self.fail('VFIO/SR-IOV cycle failed: %s' % line)
        self.figures['VFIO/SR-IOV cycles'] = ok
        if ok < self.args.min_vfio_cycles:
            self.fail('%d VFIO/SR-IOV cycles, want %d' % (ok, self.args.min_vfio_cycles))

    def resets(self):
        """Phases 1 and 1b ran with a function reset in a loop (pa_reset)."""
        if 'pa_reset=' not in self.f.get('cmdline', ''):
            return
        n = self.f.get('resets', '')
        self.figures['resets under hot-plug and VFIO'] = n
        if not n.isdigit() or int(n) == 0:
            self.fail('no reset of the pa_reset function succeeded (%r)' % n)

    def reloads(self):
        self.absent = []
        attempts = 0
        for line in self.read('reload.log').splitlines():
            p = line.split()
            if p[0] == 'U':
                self.absent.append((int(p[1]), int(p[2])))
                attempts += int(p[3])
            elif p[0] == 'FAIL':
                self.fail('reload failed: %s' % line)
        n = len(self.absent)
        self.figures['rmmod/insmod cycles'] = '%d (%d rmmod attempts)' % (n, attempts)
        if n < self.args.min_reloads:
            self.fail('%d reloads, want %d' % (n, self.args.min_reloads))

    # ---- dumps ------------------------------------------------------------------

    @staticmethod
    def overlaps(wins, t0, t1):
        return any(a <= t1 and b >= t0 for a, b in wins)

    def present(self, t0, t1):
        """Functions that surely existed from t0 to t1."""
        return {k for k in self.universe if not self.overlaps(self.windows.get(k, ()), t0, t1)}

    def check_dump(self, where, kind, t0, t1, intr, keys):
        sure = self.present(t0, t1)
        if kind == 'dev':
            got = {int(k, 16) for k in keys.split(',')} if keys != '-' else set()
            for k in sorted(got - set(self.universe)):
                self.fail('%s: dev dump names %s, which never existed' % (where, bdf_of(k)))
            for k in sorted(sure - got):
                self.fail('%s: dev dump lacks %s, present throughout' % (where, bdf_of(k)))
        elif kind == 'group':
            seen = collections.Counter()
            ingroup = {}
            for g in keys.split(',') if keys != '-' else ():
                gid, _, members = g.partition(':')
                for m in members.split('+') if members else ():
                    k = int(m, 16)
                    seen[k] += 1
                    ingroup[k] = gid
                    if k not in self.universe:
                        self.fail('%s: group %s names %s, which never existed' % (where, gid, bdf_of(k)))
            for k in sorted(sure):
                grp = self.universe[k][0]
                if grp == '-':
                    continue
                if k not in seen:
                    self.fail('%s: group dump lacks %s, present throughout' % (where, bdf_of(k)))
                elif not self.windows.get(k) and ingroup[k] != grp:
                    self.fail('%s: %s in group %s, sysfs says %s' % (where, bdf_of(k), ingroup[k], grp))
            if not intr:
                for k, n in seen.items():
                    if n > 1:
                        self.fail('%s: %s in %d groups of one consistent dump' % (where, bdf_of(k), n))
        else:
            got = set()
            for pr in keys.split(',') if keys != '-' else ():
                a, _, b = pr.partition('>')
                got.add((int(a, 16), int(b, 16)))
            ends = {k for k, (_, bridge) in self.universe.items() if not bridge}
            for a, b in sorted(got):
                if a not in ends or b not in ends:
                    self.fail('%s: pair %s>%s names a bridge or unknown function' % (where, bdf_of(a), bdf_of(b)))
            want = {(a, b) for a in sure & ends for b in sure & ends if a != b}
            missing = want - got
            if missing:
                a, b = sorted(missing)[0]
                self.fail('%s: p2p dump lacks %d pairs present throughout, e.g. %s>%s' % (
                    where, len(missing), bdf_of(a), bdf_of(b)))

    def dumps(self):
        tally = collections.Counter()
        for name in sorted(os.listdir(self.res)):
            m = re.match(r'(dump-(\w+)-(\w+)|sweep-(\w+)|resume)\.log$', name)
            if not m:
                continue
            phase = m.group(3) or m.group(4) and 'sweep' or 'resume'
            for no, line in enumerate(self.read(name).splitlines(), 1):
                p = line.split(' ')
                where = '%s:%d' % (name, no)
                if p[0] == 'B':
                    self.fail('%s: dump broke a rule: %s' % (where, ' '.join(p[1:])))
                elif p[0] == 'R':
                    self.answer(where, phase, 'lookup', int(p[1]), int(p[2]), int(p[3]), tally)
                elif p[0] == 'S':
                    tally['sweep injected'] += p[3] == '1'
                elif p[0] == 'D':
                    kind, t0, t1, err, intr, nobufs = p[1], int(p[3]), int(p[4]), int(p[5]), p[8] == '1', int(p[9])
                    tally['%s dumps' % kind] += 1
                    tally['ENOBUFS of them from recv() (a later part)'] += nobufs
                    if err == 0:
                        tally['complete, interrupted' if intr else 'complete, consistent'] += 1
                        self.check_dump(where, kind, t0, t1, intr, p[10])
                    else:
                        self.answer(where, phase, 'dump', t0, t1, err, tally)
        for k, v in sorted(tally.items()):
            self.figures[k] = v
        self.figures['ENOMEM answers'] = tally['ENOMEM'] if 'ENOMEM' in tally else 0
        if self.figures['ENOMEM answers'] < self.args.min_enomem:
            self.fail('%d ENOMEM answers under failslab, want at least %d' % (
                self.figures['ENOMEM answers'], self.args.min_enomem))
        if not tally['complete, interrupted']:
            self.fail('no dump was flagged NLM_F_DUMP_INTR: hot-plug never overlapped a dump')

    def answer(self, where, phase, what, t0, t1, err, tally):
        """An error a dump or lookup ended with, judged by what was going on."""
        name = errno.errorcode.get(-err, str(err))
        if err == -errno.ENOENT and self.overlaps(self.absent, t0, t1):
            tally['ENOENT (unloaded)'] += 1
        elif err == -errno.EPROTONOSUPPORT and what == 'dump' and self.overlaps(self.absent, t0, t1):
            tally['EPROTONOSUPPORT (unloading)'] += 1
        elif err in (-errno.ENOMEM, -errno.ENOBUFS) and phase in ('failslab', 'sweep'):
            tally[name] += 1
        else:
            self.fail('%s: %s ended with %s during %s' % (where, what, name, phase))

    # ---- the CLI ------------------------------------------------------------------

    def cli(self):
        tally = collections.Counter()
        absent_s = [(a / 1e9, b / 1e9) for a, b in self.absent]
        for name in sorted(os.listdir(self.res)):
            m = re.match(r'cli-(\w+)\.log$', name)
            if not m or m.group(1) == 'failnth':
                continue
            for no, line in enumerate(self.read(name).splitlines(), 1):
                p = line.split(' ', 4)
                t0, t1, rc, msg = float(p[1]), float(p[2]), int(p[3]), p[4] if len(p) > 4 else ''
                where = '%s:%d' % (name, no)
                tally['cli runs'] += 1
                if rc == 0:
                    tally['cli rc 0'] += 1
                elif rc == 3 and 'kept appearing or disappearing' in msg:
                    tally['cli rc 3 (retries used up)'] += 1
                elif rc == 4 and self.overlaps(absent_s, t0 - 0.01, t1 + 0.01):
                    # The exit code is the contract; the message is counted
                    # apart when it blames the network namespace instead.
                    if 'not loaded' in msg:
                        tally['cli rc 4 (unloaded)'] += 1
                    else:
                        tally['cli rc 4 (unloaded), other message'] += 1
                else:
                    self.fail('%s: CLI exit %d: %s' % (where, rc, msg))
        sweep = self.read('cli-failnth.log', must=False)
        for line in sweep.splitlines():
            if line.startswith('K '):
                # One socket buffer allocation failed (cache-filter).
                p = line.split(' ', 3)
                rc, msg = int(p[2]), p[3] if len(p) > 3 else ''
                tally['cli skb-fail runs'] += 1
                if rc == 0:
                    tally['cli skb-fail rc 0 (report whole)'] += 1
                elif rc == 3 and msg.startswith('pcieaudit-cli: ') and (
                        'Cannot allocate memory' in msg or 'No buffer space' in msg):
                    tally['cli fail-nth rc 3 (out of memory)'] += 1
                    tally['cli skb-fail rc 3 (out of memory)'] += 1
                else:
                    self.fail('cli-failnth.log: skb-fail %s: CLI exit %d: %s' % (p[1], rc, msg))
                continue
            p = line.split(' ', 4)
            if p[0] == 'T':
                self.figures['cli slab allocations per report'] = int(p[1])
                if p[3] != '0':
                    self.fail('cli-failnth.log: the unfailed run exited %s' % p[3])
                continue
            n, rc, left, msg = p[1], int(p[2]), int(p[3]), p[4] if len(p) > 4 else ''
            tally['cli fail-nth runs'] += 1
            tally['cli fail-nth injected'] += left == 0
            if rc == 0:
                tally['cli fail-nth rc 0 (report whole)'] += 1
            elif rc in (126, 127) or rc >= 128:
                tally['cli fail-nth exec failed'] += 1    # before the CLI ran
            elif rc == 3 and msg.startswith('pcieaudit-cli: ') and (
                    'Cannot allocate memory' in msg or 'No buffer space' in msg):
                tally['cli fail-nth rc 3 (out of memory)'] += 1
            else:
                self.fail('cli-failnth.log: fail-nth %s: CLI exit %d: %s' % (n, rc, msg))
        if tally['cli fail-nth rc 3 (out of memory)'] < self.args.min_cli_enomem:
            self.fail('cli-failnth.log: no failed allocation made the CLI report running out of memory')
        for k, v in sorted(tally.items()):
            self.figures[k] = v

    def report_whole(self, name):
        """A report --json taken with nothing hot-plugged names every function."""
        try:
            rep = json.loads(self.read(name))
            got = {key_of(d['bdf']) for d in rep['devices']}
        except (ValueError, KeyError, TypeError) as e:
            self.fail('%s: not a report (%s)' % (name, e))
            return
        want = set(self.universe)
        if got != want:
            self.fail('%s: report lacks %s, names %s beyond sysfs' % (
                name, [bdf_of(k) for k in sorted(want - got)], [bdf_of(k) for k in sorted(got - want)]))

    def reports(self):
        self.report_whole('final.json')
        d = os.path.join(self.res, 'cli-failnth')
        names = sorted(n for n in os.listdir(d) if n.endswith('.json')) if os.path.isdir(d) else []
        for n in names:
            self.report_whole(os.path.join('cli-failnth', n))
        self.figures['cli fail-nth reports compared with sysfs'] = len(names)

    def monitors(self):
        """Four pcieaudit-cli monitor --json listeners ran from before the
        hot-plug phase until the reload phase's first rmmod: each lost no
        event, or signalled the loss with a resync line; those without a
        loss saw the same events; each saw an addition and a removal per
        cycle at least, and exited 4 with a message when the module went."""
        names = sorted(n for n in os.listdir(self.res) if re.match(r'monitor-\d+\.jsonl$', n))
        if len(names) < self.args.min_monitors:
            self.fail('%d monitor listeners, want %d' % (len(names), self.args.min_monitors))
        whole = []
        events = lost = resyncs = 0
        for name in names:
            idx = name[len('monitor-'):-len('.jsonl')]
            seqs, kinds, resync = [], collections.Counter(), 0
            for no, line in enumerate(self.read(name).splitlines(), 1):
                try:
                    e = json.loads(line)
                except ValueError:
                    self.fail('%s:%d: not JSON' % (name, no))
                    continue
                if e.get('event') == 'resync':
                    resync += 1
                    continue
                seqs.append(e['seq'])
                kinds[e['event']] += 1
            if seqs != sorted(set(seqs)):
                self.fail('%s: sequence numbers out of order or repeated' % name)
            gap = sum(b - a - 1 for a, b in zip(seqs, seqs[1:]) if b > a + 1)
            if gap and not resync:
                self.fail('%s: %d events lost without a resync line' % (name, gap))
            if not resync:
                whole.append((name, set(seqs)))
            cycles = self.args.min_cycles
            if kinds['added'] < cycles or kinds['removed'] < cycles:
                self.fail('%s: %d added and %d removed events over %d cycles' % (
                    name, kinds['added'], kinds['removed'], cycles))
            if self.f.get('monitor_rc_' + idx) != '4':
                self.fail('%s: listener exited %s at rmmod, want 4' % (name, self.f.get('monitor_rc_' + idx)))
            if 'unloaded' not in self.read('monitor-%s.err' % idx, must=False):
                self.fail('%s: no message that the module was unloaded' % name)
            events += len(seqs)
            lost += gap
            resyncs += resync
        for name, s in whole[1:]:
            if s != whole[0][1]:
                self.fail('%s and %s saw different events without a loss' % (whole[0][0], name))
        self.figures['monitor listeners'] = len(names)
        self.figures['monitor events received (all listeners)'] = events
        self.figures['monitor events lost, signalled by resync'] = lost
        self.figures['monitor resync lines'] = resyncs

    def run(self):
        self.splats()
        self.facts()
        self.topology()
        self.reports()
        self.hotplug()
        self.vfio()
        self.resets()
        self.reloads()
        self.dumps()
        self.cli()
        self.monitors()
        return not self.errors


def judge(res, args, quiet=False):
    r = Run(res, args)
    ok = r.run()
    if not quiet:
        for k, v in r.figures.items():
            print('%-40s %s' % (k, v))
        for e in r.errors:
            print('FAIL: ' + e)
        print('stress check: %s' % ('PASS' if ok else 'FAIL (%d problems)' % len(r.errors)))
    return ok, r.errors


# ---- selftest: a small good run, then broken copies that must fail ----------------

MON = ''.join('{"seq": %d, "event": "%s", "source": "bus-notifier", "bdf": "0000:06:00.0"}\n'
              % (i + 1, 'removed' if i % 2 == 0 else 'added') for i in range(6))
GOOD = {
    'facts.txt': 'finished=1\ninsmod_rc=0\nhotplug_rc=0\nreload_rc=0\nfinal_rc=0\n'
                 'final_rmmod=ok\nkmemleak=present\nresume_rc=0\nphase_boot_done=10.0\nphase_end=99.0\n'
                 'monitor_rc_1=4\n',
    'monitor-1.jsonl': MON,
    'monitor-1.err': 'pcieaudit-cli: the pcieaudit module was unloaded; monitoring ends\n',
    'final.json': '{"devices": [{"bdf": "0000:00:02.0"}, {"bdf": "0000:00:04.0"}, {"bdf": "0000:06:00.0"}]}',
    'kmemleak.txt': '',
    'dmesg.txt': '[    1.0] kmemleak: Kernel memory leak detector initialized (mem pool available: 15000)\n'
                 '[    1.0] \tRCU CPU stall warnings timeout set to 300 (rcu_cpu_stall_timeout).\n'
                 '[    2.0] pci 0000:06:00.0: [8086:10d3] type 00 class 0x020000\n',
    'universe.txt': '0000:00:02.0 1 pci0000:00 bridge\n0000:00:04.0 2 pci0000:00 -\n'
                    '0000:06:00.0 3 0000:00:02.0 -\n',
    'hotplug.log': 'SET endpoint 0000:06:00.0\nW 100 200 endpoint 0000:06:00.0\nOK 1 endpoint\n'
                   'W 300 400 switch 0000:06:00.0\nOK 2 switch\nW 500 600 vf 0000:06:00.0\nOK 3 vf\n',
    'reload.log': 'U 1000 1100 3\n',
    'vfio.log': 'OK 1 0000:06:00.0 3\nOK 2 0000:06:00.0 3\nW 650 690 vfio 0000:06:00.0\n',
    'resume.log': 'RM 0000:06:00.0 after-part 1 provider 600\nD p2p 1 800 900 0 3 1 1 0 20>600\n'
                  'W 850 950 switch 0000:06:00.0\nRESUME all switch 1 vf 1\n'
                  'RESUME select switch 1 vf 1\n',
    # Before any window: all there. During one: 06:00.0 may be missing.
    'dump-dev-hotplug.log': 'D dev 1 10 20 0 1 3 0 0 10,20,600\n'
                            'D dev 2 150 160 0 2 2 1 0 10,20\n',
    'dump-group-hotplug.log': 'D group 1 10 20 0 1 3 0 0 1:10,2:20,3:600\n',
    'dump-p2p-hotplug.log': 'D p2p 1 10 20 0 1 2 0 0 20>600,600>20\n',
    'dump-mix-reload.log': 'D dev 1 1050 1060 -2 0 0 0 0 -\nR 1040 1045 -2\n',
    'sweep-dev.log': 'S dev 1 1 -12 0 0\nD dev 1 700 710 -12 0 0 0 0 -\n',
    'cli-hotplug.log': 'C 0.5 0.6 0 \nC 0.6 0.7 3 pcieaudit-cli: PCI devices kept appearing or disappearing during the dump; try again\n',
    'cli-reload.log': 'C 0.000001050 0.000001060 4 pcieaudit-cli: kernel module not loaded: ...\n',
    'cli-failnth.log': 'T 95 rc 0\nN 95 0 1 \nN 91 3 0 pcieaudit-cli: device dump failed: Cannot allocate memory\n'
                       'N 87 139 0 \n',
}

BROKEN = [
    ('KASAN report', 'dmesg.txt', 'a', '[ 5.0] BUG: KASAN: slab-use-after-free in dev_get_dumpit+0x1/0x2\n', 'KASAN'),
    ('UBSAN report', 'dmesg.txt', 'a', '[ 5.0] UBSAN: shift-out-of-bounds in kmod/pci_walk.c:27:9\n', 'UBSAN'),
    ('lockdep report', 'dmesg.txt', 'a', '[ 5.0] WARNING: possible circular locking dependency detected\n', 'circular locking'),
    ('RCU stall', 'dmesg.txt', 'a', '[ 5.0] rcu: INFO: rcu_sched self-detected stall on CPU\n', 'stall on CPU'),
    ('lockdep recursion', 'dmesg.txt', 'a', '[ 5.0] possible recursive locking detected\n', 'recursive locking'),
    ('RCU report', 'dmesg.txt', 'a', '[ 5.0] WARNING: suspicious RCU usage\n', 'suspicious RCU'),
    ('WARN_ON', 'dmesg.txt', 'a', '[ 5.0] WARNING: CPU: 1 PID: 77 at kmod/netlink.c:400 x+0x1/0x2\n', 'WARNING: CPU'),
    ('Oops', 'dmesg.txt', 'a', '[ 5.0] Oops: 0000 [#1] PREEMPT SMP KASAN\n', 'Oops'),
    ('atomic sleep', 'dmesg.txt', 'a', '[ 5.0] BUG: sleeping function called from invalid context at mm/slab.h:1\n', 'invalid context'),
    ('kmemleak line', 'dmesg.txt', 'a', '[ 5.0] kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)\n', 'suspected memory leaks'),
    ('kmemleak file', 'kmemleak.txt', 'w', 'unreferenced object 0xffff888001 (size 64):\n', 'unreferenced'),
    ('splat on the console only', '../console.log', 'w', 'BUG: unable to handle page fault for address\n', 'console.log'),
    ('missing device', 'dump-dev-hotplug.log', 'a', 'D dev 3 700 710 0 1 2 0 0 10,20\n', 'lacks 0000:06:00.0'),
    ('phantom device', 'dump-dev-hotplug.log', 'a', 'D dev 3 700 710 0 1 4 0 0 10,20,600,700\n', 'never existed'),
    ('missing pair', 'dump-p2p-hotplug.log', 'a', 'D p2p 2 700 710 0 1 1 0 0 20>600\n', 'lacks 1 pairs'),
    ('group moved', 'dump-group-hotplug.log', 'a', 'D group 2 700 710 0 1 3 0 0 1:10,3:20+600\n', 'in group 3, sysfs says 2'),
    ('rule broken in guest', 'dump-dev-hotplug.log', 'a', 'B dev 2 order:20/0-after-600/0\n', 'broke a rule'),
    ('ENOENT while loaded', 'dump-dev-hotplug.log', 'a', 'D dev 3 700 710 -2 0 0 0 0 -\n', 'ENOENT during hotplug'),
    ('ENOMEM outside failslab', 'dump-group-hotplug.log', 'a', 'D group 2 700 710 -12 0 0 0 0 -\n', 'ENOMEM during hotplug'),
    ('EMSGSIZE', 'sweep-dev.log', 'a', 'D dev 2 700 710 -90 0 0 0 0 -\n', 'EMSGSIZE'),
    ('hot-plug cycle failed', 'hotplug.log', 'a', 'FAIL 4 switch remove=0 rescan=0 gone=1 back=0\n', 'cycle failed'),
    ('CLI wrong exit', 'cli-hotplug.log', 'a', 'C 0.8 0.9 6 pcieaudit-cli: ABI version mismatch\n', 'CLI exit 6'),
    ('CLI unloaded while loaded', 'cli-hotplug.log', 'a', 'C 0.8 0.9 4 pcieaudit-cli: kernel module not loaded\n', 'CLI exit 4'),
    ('CLI ENOMEM as no module', 'cli-failnth.log', 'a', 'N 83 4 0 pcieaudit-cli: kernel module not loaded\n', 'fail-nth 83'),
    ('CLI skb ENOMEM as no module', 'cli-failnth.log', 'a', 'K 3 4 pcieaudit-cli: kernel module not loaded\n', 'skb-fail 3'),
    ('CLI never out of memory', 'cli-failnth.log', 'w', 'T 95 rc 0\nN 95 0 1 \n', 'no failed allocation'),
    ('resume pair lost', 'resume.log', 'a', 'D p2p 2 800 840 0 3 1 1 0 600>20\n', 'lacks 1 pairs'),
    ('resume never removed', 'resume.log', 'w', 'RESUME all switch 0 vf 1\nRESUME select switch 1 vf 1\n',
     'not removed'),
    ('selected resume never removed', 'resume.log', 'w',
     'RESUME all switch 1 vf 1\nRESUME select switch 1 vf 0\n', 'dump (select)'),
    ('report lacks a device', 'final.json', 'w', '{"devices": [{"bdf": "0000:00:02.0"}]}', 'report lacks'),
    ('guest did not finish', 'facts.txt', 'w', GOOD['facts.txt'].replace('finished=1\n', ''), 'finished'),
    ('monitor event lost', 'monitor-1.jsonl', 'a',
     '{"seq": 9, "event": "added", "source": "bus-notifier", "bdf": "0000:06:00.0"}\n', 'without a resync'),
    ('monitor missed removals', 'monitor-1.jsonl', 'w', MON.replace('removed', 'link'), 'removed events'),
    ('monitor survived rmmod', 'facts.txt', 'w', GOOD['facts.txt'].replace('monitor_rc_1=4', 'monitor_rc_1=0'),
     'exited 0'),
    ('VFIO cycle failed', 'vfio.log', 'a', 'FAIL 3 hold 0000:06:00.0 group 3 rc 104\n', 'VFIO/SR-IOV cycle failed'),
    ('too few VFIO cycles', 'vfio.log', 'w', 'OK 1 0000:06:00.0 3\n', '1 VFIO/SR-IOV cycles'),
    ('too few cycles', 'hotplug.log', 'w', 'W 100 200 endpoint 0000:06:00.0\nOK 1 endpoint\n', '1 hot-plug cycles'),
]


def selftest():
    args = argparse.Namespace(min_cycles=3, min_reloads=1, min_enomem=1, min_cli_enomem=1,
                              min_monitors=1, min_vfio_cycles=2)
    top = tempfile.mkdtemp(prefix='stress-selftest.')
    bad = 0
    try:
        def build():
            res = os.path.join(top, 'run', 'results')
            shutil.rmtree(os.path.join(top, 'run'), ignore_errors=True)
            os.makedirs(res)
            for name, text in GOOD.items():
                with open(os.path.join(res, name), 'w') as f:
                    f.write(text)
            with open(os.path.join(top, 'run', 'console.log'), 'w') as f:
                f.write('[    0.0] Linux version 6.1\n')
            return res
        ok, errs = judge(build(), args, quiet=True)
        print('selftest: good run %s' % ('passes' if ok else 'FAILS: %s' % errs[:3]))
        bad += not ok
        for what, name, mode, text, why in BROKEN:
            res = build()
            with open(os.path.join(res, name), mode) as f:
                f.write(text)
            ok, errs = judge(res, args, quiet=True)
            hit = [e for e in errs if why in e]
            print('selftest: %-28s %s' % (what, 'rejected: ' + hit[0][:90] if hit else
                                          'NOT REJECTED for "%s": %s' % (why, errs[:2])))
            bad += not hit
    finally:
        shutil.rmtree(top)
    print('selftest: %s' % ('PASS' if not bad else 'FAIL'))
    return 0 if not bad else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--min-cycles', type=int, default=200)
    ap.add_argument('--min-reloads', type=int, default=50)
    ap.add_argument('--min-enomem', type=int, default=1)
    ap.add_argument('--min-cli-enomem', type=int, default=0,
                    help='CLI runs of the fail-nth sweep that must report running out of memory')
    ap.add_argument('--min-monitors', type=int, default=4,
                    help='monitor listeners that must have run through the hot-plug phase')
    ap.add_argument('--min-vfio-cycles', type=int, default=0,
                    help='VFIO/SR-IOV cycles of phase 1b (vfio.log) to require')
    ap.add_argument('--selftest', action='store_true')
    ap.add_argument('results', nargs='?')
    args = ap.parse_args()
    if args.selftest:
        return selftest()
    if not args.results:
        ap.error('RESULTS directory required')
    ok, _ = judge(args.results, args)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
