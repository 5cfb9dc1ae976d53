#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Instructions per kernel function from scripts/insnprof.sh runs.

report.py RUN [BASE] [-n N] [-f FUNCTION]
  RUN, BASE: the OUT prefixes given to insnprof.sh (OUT.tb, OUT.ksyms).
  With BASE, functions are sorted by RUN minus BASE: what a change, or
  recording, adds.  With -f, the blocks of one function of RUN (offset,
  instructions, times run), to read against objdump of the object.
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('run')
    ap.add_argument('base', nargs='?')
    ap.add_argument('-n', type=int, default=40)
    ap.add_argument('-f', dest='function')
    a = ap.parse_args()
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
