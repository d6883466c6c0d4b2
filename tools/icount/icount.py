# icount.py - gdb script: single-steps measured_call() of aeskit-icount-call
# and prints how many instructions each function ran, the call's total
# (measured_call's own few instructions left out) first.  Run by
# scripts/icount.sh; arguments for the program come in $ICOUNT_ARGS.  With
# ICOUNT_MNEMONICS=1 it also prints how many times each mnemonic ran
# ("ICOUNT_OP <n> <mnemonic>"), for port-budget tables; with ICOUNT_TRACE=1
# every instruction as it runs ("ICOUNT_TR <function> <address> <asm>").
import collections
import os

import gdb

gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("break measured_call")
gdb.execute("run " + os.environ.get("ICOUNT_ARGS", "16"), to_string=True)
sp0 = int(gdb.parse_and_eval("$sp"))
counts = collections.Counter()
ops = collections.Counter()
want_ops = os.environ.get("ICOUNT_MNEMONICS") == "1"
want_trace = os.environ.get("ICOUNT_TRACE") == "1"
while True:
    frame = gdb.selected_frame()
    name = frame.name() or "?"
    counts[name] += 1
    if (want_ops or want_trace) and name != "measured_call":
        asm = frame.architecture().disassemble(frame.pc())[0]["asm"]
        insn = asm.split()
        if want_ops:
            ops[insn[0] if insn else "?"] += 1
        if want_trace:
            print("ICOUNT_TR %s %x %s" % (name, frame.pc(), asm))
    gdb.execute("stepi", to_string=True)
    if int(gdb.parse_and_eval("$sp")) > sp0:  # measured_call returned
        break
own = counts.pop("measured_call", 0)
print("ICOUNT total %d" % sum(counts.values()))
for name, n in counts.most_common():
    print("ICOUNT %6d  %s" % (n, name))
print("ICOUNT (measured_call itself: %d, not counted)" % own)
for op, n in ops.most_common():
    print("ICOUNT_OP %d %s" % (n, op))
gdb.execute("kill", to_string=True)
