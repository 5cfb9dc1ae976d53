#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Instructions per kernel function from scripts/insnprof.sh runs.

report.py RUN [BASE] [-n N] [-f FUNCTION]
report.py --calls N REC_HI REC_LO NAT_HI NAT_LO [-n N] [--labels R,N]
report.py --totals RUN
report.py RUN [BASE] --user BIN@ADDR [--user BIN@ADDR ...] [-n N]
  RUN, BASE: the OUT prefixes given to insnprof.sh (OUT.tb, OUT.ksyms).
  With BASE, functions are sorted by RUN minus BASE: what a change, or
  recording, adds.  With -f, the blocks of one function of RUN (offset,
  instructions, times run), to read against objdump of the object.
  With --calls, instructions per call of a workload run recorded (REC_*) and
  native (NAT_*) at two sizes that differ by N calls: HI minus LO leaves the
  boot and everything else that both runs share out; the ratio recorded to
  native, and what recording adds per call, function by function.
  With --totals, one line: RUN's kernel and user instructions.
  With --user (a run made with FR_INSNPROF_USER=1, whose user blocks the
  plugin kept one by one), instructions per user function instead: BIN's
  symbols (nm) where BIN was mapped at ADDR (its first mapping, as gdb's
  `info proc mappings` shows it with address randomization off); blocks
  of no BIN named count as "other".  User addresses are not told apart
  by process: name binaries whose ranges no other process of the run uses.
"""
import argparse
import bisect
import collections
import os
import subprocess


def symbols(path):
    syms = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) < 3 or int(p[0], 16) == 0:
                continue
            syms.append((int(p[0], 16), p[2] + (' ' + p[3] if len(p) > 3 else '')))
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms]


def blocks(prefix):
    with open(prefix + '.tb') as f:
        for line in f:
            if line.startswith('user ') or line.startswith('u '):
                continue
            va, n, count = line.split()
            yield int(va, 16), int(n), int(count)


def user_total(prefix):
    with open(prefix + '.tb') as f:
        for line in f:
            if line.startswith('user '):
                return int(line.split()[1])
    return 0


def per_function(prefix):
    addrs, names = symbols(prefix + '.ksyms')
    total = collections.Counter()
    for va, n, count in blocks(prefix):
        i = bisect.bisect_right(addrs, va) - 1
        total[names[i] if i >= 0 else '?'] += n * count
    return total


def elf_symbols(spec):
    """BIN@ADDR: (low, high, name, addrs, names) of BIN's functions there."""
    path, _, at = spec.rpartition('@')
    if not path:
        raise SystemExit('--user %s: BIN@ADDR' % spec)
    base = int(at, 16)
    out = subprocess.run(['nm', '--defined-only', path], capture_output=True,
                         text=True, check=True).stdout
    syms = []
    for line in out.splitlines():
        p = line.split()
        if len(p) >= 3 and p[1] in 'tTwWiI':
            syms.append((int(p[0], 16), p[2]))
    if not syms:
        raise SystemExit('%s: no function symbols' % path)
    syms.sort()
    # a PIE's symbols are offsets from its first mapping; a binary linked
    # at a fixed address has them as addresses already
    shift = base if syms[0][0] < base else 0
    addrs = [a + shift for a, _ in syms]
    return (addrs[0], addrs[-1] + (64 << 10), os.path.basename(path), addrs,
            [n for _, n in syms])


def per_user_function(prefix, specs):
    tabs = [elf_symbols(s) for s in specs]
    total = collections.Counter()
    with open(prefix + '.tb') as f:
        for line in f:
            if not line.startswith('u '):
                continue
            _, va, n, count = line.split()
            va, k = int(va, 16), int(n) * int(count)
            for lo, hi, name, addrs, names in tabs:
                if lo <= va < hi:
                    i = bisect.bisect_right(addrs, va) - 1
                    total['%s:%s' % (name, names[i] if i >= 0 else '?')] += k
                    break
            else:
                total['other'] += k
    return total


def one_function(prefix, name):
    addrs, names = symbols(prefix + '.ksyms')
    starts = [a for a, n in zip(addrs, names) if n.split()[0] == name]
    if not starts:
        raise SystemExit('%s: no symbol %s' % (prefix, name))
    start = starts[0]
    end = addrs[bisect.bisect_right(addrs, start)]
    rows = collections.Counter()
    sizes = {}
    for va, n, count in blocks(prefix):
        if start <= va < end:
            rows[va - start] += count
            sizes[va - start] = n
    for off in sorted(rows):
        print('%6x %4d insns x %10d = %12d' % (off, sizes[off], rows[off],
                                               sizes[off] * rows[off]))


def per_call(a):
    """What the --calls mode prints (scripts/bench-insn.sh reads it)."""
    rh, rl, nh, nl = a.run, a.base, a.nat[0], a.nat[1]

    def diff(hi, lo):
        h, l = per_function(hi), per_function(lo)
        return {k: h.get(k, 0) - l.get(k, 0) for k in set(h) | set(l)}
    rec, nat = diff(rh, rl), diff(nh, nl)
    rk, nk = sum(rec.values()) / a.calls, sum(nat.values()) / a.calls
    ru = (user_total(rh) - user_total(rl)) / a.calls
    nu = (user_total(nh) - user_total(nl)) / a.calls
    lr, ln = a.labels.rsplit(',', 1)
    w = max(len(lr), len(ln)) + 1
    print('  %-*s %7.1f kernel + %6.1f user = %7.1f instructions per call'
          % (w, ln + ':', nk, nu, nk + nu))
    print('  %-*s %7.1f kernel + %6.1f user = %7.1f instructions per call'
          % (w, lr + ':', rk, ru, rk + ru))
    print('  ratio: %.4f' % ((rk + ru) / (nk + nu)))
    print('  added per call, by function:')
    add = {k: (rec.get(k, 0) - nat.get(k, 0)) / a.calls
           for k in set(rec) | set(nat)}
    for k in sorted(add, key=lambda k: -abs(add[k]))[:a.n]:
        print('    %7.1f  %s' % (add[k], k))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('run')
    ap.add_argument('base', nargs='?')
    ap.add_argument('-n', type=int, default=40)
    ap.add_argument('-f', dest='function')
    ap.add_argument('--calls', type=int)
    ap.add_argument('--totals', action='store_true')
    ap.add_argument('--labels', default='recorded,native',
                    help='--calls: the names of the two settings')
    ap.add_argument('--user', action='append', metavar='BIN@ADDR')
    ap.add_argument('nat', nargs='*')
    a = ap.parse_args()
    if a.calls:
        if not a.base or len(a.nat) != 2:
            ap.error('--calls takes REC_HI REC_LO NAT_HI NAT_LO')
        per_call(a)
        return
    if a.nat:
        ap.error('too many arguments')
    if a.totals:
        print(sum(per_function(a.run).values()), user_total(a.run))
        return
    if a.function:
        one_function(a.run, a.function)
        return
    if a.user:
        run = per_user_function(a.run, a.user)
        base = per_user_function(a.base, a.user) if a.base else None
        print('user: %d instructions in blocks%s' % (sum(run.values()),
              against(base, sum(run.values()), lambda: sum(base.values()))))
        table(run, base, a.n)
        return
    run = per_function(a.run)
    base = per_function(a.base) if a.base else None
    print('kernel: %d instructions%s' % (sum(run.values()),
          against(base, sum(run.values()), lambda: sum(base.values()))))
    u = user_total(a.run)
    print('user:   %d instructions%s' % (u, against(base, u, lambda: user_total(a.base))))
    table(run, base, a.n)


def against(base, total, base_total):
    """', base B, difference D' when there is a base."""
    if base is None:
        return ''
    b = base_total()
    return ', base %d, difference %d' % (b, total - b)


def table(run, base, n):
    """The n functions that add most, with their counts in both runs."""
    b = base if base is not None else collections.Counter()
    keys = sorted(set(run) | set(b), key=lambda k: -(run[k] - b[k]))
    for k in keys[:n]:
        if base is not None:
            print('%13d %13d %13d  %s' % (run[k] - b[k], run[k], b[k], k))
        else:
            print('%13d  %s' % (run[k], k))


main()
