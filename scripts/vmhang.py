#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""vmhang.py RUNDIR KALLSYMS - where each CPU of a hung test VM is.

For a VM started with FR_VM_MONITOR=1 (scripts/vm.sh): asks its qemu
monitor (RUNDIR/monitor.sock) for every vCPU's registers, then prints each
CPU's rip, whether interrupts are on, and every kernel text address found
in the top of its stack (an unreliable backtrace, like the kernel's "? "
lines), named from KALLSYMS, a copy of that boot's /proc/kallsyms (for
instance `cat /proc/kallsyms > build/tmp/ksyms` at the start of the command).
A CPU the kernel cannot stop (no IPI, no NMI answered) still shows here:
this is the emulator's own view.
"""
import bisect
import re
import socket
import sys

STACK_WORDS = 512


def load_syms(path):
    syms = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 3 or parts[1] not in 'tTwW':
                continue
            addr = int(parts[0], 16)
            if addr:
                name = parts[2] + (' ' + parts[3] if len(parts) > 3 else '')
                syms.append((addr, name))
    syms.sort()
    return syms


def name_of(syms, addrs, a):
    i = bisect.bisect_right(addrs, a) - 1
    if i < 0 or a - syms[i][0] > 0x10000:
        return None
    return '%s+0x%x' % (syms[i][1], a - syms[i][0])


class Monitor:
    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(path)
        self.read_prompt()

    def read_prompt(self):
        buf = b''
        while not buf.endswith(b'(qemu) '):
            chunk = self.s.recv(65536)
            if not chunk:
                raise SystemExit('vmhang: the monitor closed the connection')
            buf += chunk
        return buf.decode(errors='replace')

    def cmd(self, line):
        self.s.sendall(line.encode() + b'\n')
        out = self.read_prompt()
        # strip the echoed command and the prompt; drop terminal escapes
        out = re.sub(r'\x1b\[[0-9;]*[A-Za-z]', '', out)
        lines = out.replace('\r', '').split('\n')
        return '\n'.join(l for l in lines[1:] if not l.startswith('(qemu)'))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    run, ksyms = sys.argv[1], sys.argv[2]
    syms = load_syms(ksyms)
    addrs = [a for a, _ in syms]
    mon = Monitor(run + '/monitor.sock')
    cpus = mon.cmd('info cpus')
    print(cpus.strip())
    ncpu = len(re.findall(r'CPU #\d+', cpus))
    for cpu in range(ncpu):
        mon.cmd('cpu %d' % cpu)
        regs = mon.cmd('info registers')
        rip = int(re.search(r'RIP=([0-9a-f]+)', regs).group(1), 16)
        rsp = int(re.search(r'RSP=([0-9a-f]+)', regs).group(1), 16)
        efl = int(re.search(r'RFL=([0-9a-f]+)', regs).group(1), 16)
        hlt = re.search(r'HLT=(\d)', regs)
        print('\nCPU %d: rip %x %s, rsp %x, interrupts %s%s' % (
            cpu, rip, name_of(syms, addrs, rip) or '(not kernel text)', rsp,
            'on' if efl & 0x200 else 'OFF',
            ', halted' if hlt and hlt.group(1) == '1' else ''))
        if rsp < 0xff00000000000000:	# 5-level paging (la57) included
            continue
        dump = mon.cmd('x /%dgx 0x%x' % (STACK_WORDS, rsp))
        for line in dump.split('\n'):
            m = re.match(r'([0-9a-f]+):((?:\s+0x[0-9a-f]+)+)', line)
            if not m:
                continue
            for w in m.group(2).split():
                n = name_of(syms, addrs, int(w, 16))
                if n:
                    print('   ? %s' % n)


if __name__ == '__main__':
    main()
