# icount.py - gdb script: single-steps measured_call() of aeskit-icount-call
# and prints how many instructions each function ran, the call's total
# (measured_call's own few instructions left out) first.  Run by
# scripts/icount.sh; arguments for the program come in $ICOUNT_ARGS.
import collections
import os

import gdb

gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("break measured_call")
gdb.execute("run " + os.environ.get("ICOUNT_ARGS", "16"), to_string=True)
sp0 = int(gdb.parse_and_eval("$sp"))
counts = collections.Counter()
while True:
    name = gdb.selected_frame().name() or "?"
    counts[name] += 1
    gdb.execute("stepi", to_string=True)
    if int(gdb.parse_and_eval("$sp")) > sp0:  # measured_call returned
        break
own = counts.pop("measured_call", 0)
print("ICOUNT total %d" % sum(counts.values()))
for name, n in counts.most_common():
    print("ICOUNT %6d  %s" % (n, name))
print("ICOUNT (measured_call itself: %d, not counted)" % own)
gdb.execute("kill", to_string=True)
