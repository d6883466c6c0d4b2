#!/usr/bin/env python3
"""Compare two builds of `aeskit speed` in one interleaved run.

usage: scripts/speed-compare.py OLD_AESKIT NEW_AESKIT [--rounds N] -- SPEED_ARGS...
  e.g. scripts/speed-compare.py /work/base/build/tools/aeskit build/release/tools/aeskit \
           --rounds 6 -- --preset x86 --peers none --seconds 0.2

Runs `OLD speed SPEED_ARGS --format csv --quiet` and the same with NEW,
alternating, N rounds each (old, new, old, new, ...), so slow drift of the
machine's speed falls on both alike.  For every row (backend, algorithm,
direction, size, update) it prints the best GB/s of each binary over its
rounds, the new/old ratio of the bests, and each binary's spread over its
rounds (1 - worst/best), so a ratio can be read against the noise that
produced it.  Rows present in only one binary's output are listed apart.
It measures; it asserts nothing.
"""
import csv
import io
import subprocess
import sys


def run(binary, args):
    out = subprocess.run([binary, "speed", *args, "--format", "csv", "--quiet"],
                         check=True, capture_output=True, text=True).stdout
    rows = {}
    for r in csv.DictReader(io.StringIO(out)):
        if r.get("impl") != "aeskit":
            continue
        key = (r["backend"], r["alg"], r["op"], int(r["size"]), int(r["update"]))
        rows[key] = float(r["bytes_per_sec"]) / 1e9
    return rows


def main(argv):
    if len(argv) < 3 or "--" not in argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    sep = argv.index("--")
    head, speed_args = argv[1:sep], argv[sep + 1:]
    rounds = 6
    if "--rounds" in head:
        i = head.index("--rounds")
        rounds = int(head[i + 1])
        del head[i:i + 2]
    if len(head) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    old_bin, new_bin = head
    got = {"old": {}, "new": {}}
    for r in range(rounds):
        for name, binary in (("old", old_bin), ("new", new_bin)):
            for key, v in run(binary, speed_args).items():
                got[name].setdefault(key, []).append(v)
        print(f"round {r + 1}/{rounds} done", file=sys.stderr)
    keys = sorted(set(got["old"]) & set(got["new"]))
    print(f"{'backend':16} {'alg':14} {'op':4} {'size':>6} {'upd':>4} "
          f"{'old GB/s':>9} {'new GB/s':>9} {'new/old':>8} {'spr old':>8} {'spr new':>8}")
    for k in keys:
        o, n = got["old"][k], got["new"][k]
        bo, bn = max(o), max(n)
        so, sn = 1 - min(o) / bo, 1 - min(n) / bn
        print(f"{k[0]:16} {k[1]:14} {k[2]:4} {k[3]:6} {k[4]:4} "
              f"{bo:9.3f} {bn:9.3f} {bn / bo:8.3f} {so:8.1%} {sn:8.1%}")
    for name in ("old", "new"):
        only = sorted(set(got[name]) - set(got["new" if name == "old" else "old"]))
        for k in only:
            print(f"only in {name}: {k}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
