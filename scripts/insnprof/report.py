#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Instructions per kernel function from scripts/insnprof.sh runs.

report.py RUN [BASE] [-n N] [-f FUNCTION]
report.py --calls N REC_HI REC_LO NAT_HI NAT_LO [-n N] [--labels R,N]
report.py --totals RUN
  RUN, BASE: the OUT prefixes given to insnprof.sh (OUT.tb, OUT.ksyms).
  With BASE, functions are sorted by RUN minus BASE: what a change, or
  recording, adds.  With -f, the blocks of one function of RUN (offset,
  instructions, times run), to read against objdump of the object.
  With --calls, instructions per call of a workload run recorded (REC_*) and
  native (NAT_*) at two sizes that differ by N calls: HI minus LO leaves the
  boot and everything else that both runs share out; the ratio recorded to
  native, and what recording adds per call, function by function.
  With --totals, one line: RUN's kernel and user instructions.
"""
import argparse
import bisect
import collections


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
            if line.startswith('user '):
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
    run = per_function(a.run)
    base = per_function(a.base) if a.base else collections.Counter()
    print('kernel: %d instructions%s' % (sum(run.values()),
          ', base %d, difference %d' % (sum(base.values()),
          sum(run.values()) - sum(base.values())) if a.base else ''))
    u = user_total(a.run)
    print('user:   %d instructions%s' % (u, ', base %d, difference %d' %
          (user_total(a.base), u - user_total(a.base)) if a.base else ''))
    keys = sorted(set(run) | set(base), key=lambda k: -(run[k] - base[k]))
    for k in keys[:a.n]:
        if a.base:
            print('%13d %13d %13d  %s' % (run[k] - base[k], run[k], base[k], k))
        else:
            print('%13d  %s' % (run[k], k))


main()
