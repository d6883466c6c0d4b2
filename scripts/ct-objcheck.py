#!/usr/bin/env python3
"""ct-objcheck.py - the constant-time object check for the hardware kernels
that no dynamic tool can run here (arm64-ce, arm64-neon, ppc64-p8; issue 18,
docs/constant-time.md; riscv64-zkn, issue 19).

It disassembles a cross-built object with the target's objdump and lists, per
function, every instruction whose timing or address could depend on data:

  branch   conditional branches (AArch64 b.<cond>, cbz/cbnz, tbz/tbnz;
           POWER b<cond>, bc*, bdnz/bdz, conditional returns; RISC-V
           b<cond>, beqz/bnez...) and indirect branches (br/blr with a
           register, bctr; RISC-V jr, jalr), which could be a jump table
  index    loads whose address adds a register (AArch64 [xN, xM...] or a
           register post-increment; POWER X-form loads l...x, lvx), the form a
           table lookup takes.  RISC-V has only base+immediate loads, so
           there it is a load whose base register was last written by a
           register-register add (add, addw, sh1add...), the same function's
           earlier instructions in address order: a lookup's address
           computation, or pointer arithmetic, which the reason says
  div      division, whose latency depends on its operands (udiv/sdiv,
           divw/divd...; RISC-V div/rem and their u/w forms)

and compares the counts with the committed allow-list (scripts/ct-objcheck.allow),
one line per (arch, function, kind, mnemonic): the count and a one-line reason
why every such instruction in that function depends on public values only
(a length, a block count, the round count of the key size, a loop index, a
compile-time flag).  Keys are function names (GCC's .constprop/.isra/.part
clone suffixes removed, their counts summed) and mnemonics, never
addresses, so an unrelated edit elsewhere does not disturb them.

It fails (exit 1) on an instruction class that has no entry, on a count that
differs from its entry (an added branch must be looked at, a removed one
keeps the list honest), on an entry whose function is gone, and on any
reason that is empty or still reads UNEXPLAINED.

  ARCH is aarch64, ppc64le or riscv64, or ISA/NAME for a second object of one ISA
  (its own entries, e.g. aarch64/neon for arm64-neon).

  ct-objcheck.py check  ARCH OBJDUMP OBJECT ALLOWLIST
  ct-objcheck.py update ARCH OBJDUMP OBJECT ALLOWLIST   rewrite ARCH's entries:
      existing reasons are kept, new entries read UNEXPLAINED (check fails
      until someone writes the reason)
"""
import re
import subprocess
import sys

A64_BRANCH = re.compile(r"^(b\.[a-z]{2}|cbz|cbnz|tbz|tbnz|br|blr|braa|brab|blraa|blrab)$")
A64_LOAD = re.compile(r"^(ld[a-z0-9]*)$")
A64_REGIDX = re.compile(r"\[(x\d+|sp), [xw]\d+|\], x\d+")
A64_DIV = re.compile(r"^(udiv|sdiv)$")

PPC_BRANCH = re.compile(r"^(b(eq|ne|lt|gt|le|ge|so|ns|un|nu|dnz|dz|dnzt|dnzf|dzt|dzf|c|ca|cl|cla)(lr|ctr)?(l)?[+-]?|bc(lr|ctr)l?|bctrl?)$")
PPC_IDX_LOAD = re.compile(r"^(l[a-z0-9]*x|lvx|lvxl|lvebx|lvehx|lvewx)$")
PPC_DIV = re.compile(r"^(div[wd][a-z]*\.?|mod[a-z]+)$")

RV_BRANCH = re.compile(r"^(beq|bne|blt|bge|bltu|bgeu|beqz|bnez|blez|bgez|bltz|bgtz|bgt|ble|bgtu|bleu|jr|jalr)$")
RV_LOAD = re.compile(r"^(lb|lbu|lh|lhu|lw|lwu|ld|c\.ld|c\.lw)$")
RV_STORE = re.compile(r"^(sb|sh|sw|sd|c\.sd|c\.sw)$")
RV_ADD = re.compile(r"^(add|addw|sh[123]add|sh[123]add\.uw|add\.uw)$")
RV_DIV = re.compile(r"^(div|divu|divw|divuw|rem|remu|remw|remuw)$")


def classify(arch, mnem, ops):
    if arch == "aarch64":
        if A64_BRANCH.match(mnem):
            if mnem in ("blr", "braa", "brab", "blraa", "blrab") and not ops:
                return None
            return "branch"
        if A64_LOAD.match(mnem) and A64_REGIDX.search(ops):
            return "index"
        if A64_DIV.match(mnem):
            return "div"
    elif arch == "ppc64le":
        if mnem not in ("b", "bl", "blr", "ba", "bla") and PPC_BRANCH.match(mnem):
            return "branch"
        if PPC_IDX_LOAD.match(mnem):
            return "index"
        if PPC_DIV.match(mnem):
            return "div"
    elif arch == "riscv64":
        if RV_BRANCH.match(mnem):
            return "branch"
        if RV_DIV.match(mnem):
            return "div"
        # "index": decided in scan(), which follows the add results.
    else:
        sys.exit("ct-objcheck: unknown arch " + arch)
    return None


def rv_regs(ops):
    """RISC-V operands: (destination, [sources]); for a load, the base."""
    regs = re.findall(r"\b(zero|ra|sp|gp|tp|[tsa]\d+|fp)\b", ops)
    return (regs[0] if regs else None), regs[1:]


def base_name(fn):
    return re.sub(r"\.(constprop|isra|part|cold|lto_priv)(\.\d+)?", "", fn)


def scan(arch, objdump, obj):
    dis = subprocess.run([objdump, "-d", "--no-show-raw-insn", obj], check=True,
                         capture_output=True, text=True).stdout
    counts, funcs, fn = {}, set(), None
    added = set()  # RISC-V: registers whose last write was a register-register add
    for line in dis.splitlines():
        m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
        if m:
            # RISC-V objects keep GCC's local labels (.L12, for linker
            # relaxation): they are inside the function before them.
            if not (arch == "riscv64" and m.group(1).startswith(".L")):
                fn = base_name(m.group(1))
                funcs.add(fn)
                added = set()
            continue
        parts = line.split("\t")
        if fn is None or len(parts) < 2 or not re.match(r"^\s*[0-9a-f]+:$", parts[0]):
            continue
        # AArch64 objdump puts a tab between mnemonic and operands, POWER spaces.
        insn = " ".join(parts[1:]).split(None, 1)
        if not insn:
            continue
        mnem = insn[0]
        ops = insn[1].split("//")[0].split("#")[0].strip() if len(insn) > 1 and arch == "ppc64le" else \
            (insn[1].split("//")[0].strip() if len(insn) > 1 else "")
        kind = classify(arch, mnem, ops)
        if arch == "riscv64":
            rd, srcs = rv_regs(ops)
            if RV_LOAD.match(mnem) and srcs and srcs[-1] in added:
                kind = "index"
            # Stores and branches write no register; everything else writes
            # its first operand.
            if rd and not RV_STORE.match(mnem) and not RV_BRANCH.match(mnem) and mnem != "j":
                if RV_ADD.match(mnem) and len(srcs) == 2:
                    added.add(rd)
                else:
                    added.discard(rd)
        if kind:
            key = (fn, kind, mnem)
            counts[key] = counts.get(key, 0) + 1
    return counts, funcs


def read_allow(path):
    entries, other = {}, []
    try:
        lines = open(path).read().splitlines()
    except FileNotFoundError:
        lines = []
    for line in lines:
        m = re.match(r"^(\S+)\s+(\S+)\s+(branch|index|div)\s+(\S+)\s+(\d+)\s+(.*)$", line)
        if not m:
            other.append(line)
            continue
        entries[(m.group(1), m.group(2), m.group(3), m.group(4))] = (int(m.group(5)), m.group(6).strip())
    return entries, other


def main():
    if len(sys.argv) != 6 or sys.argv[1] not in ("check", "update"):
        sys.exit(__doc__)
    mode, arch, objdump, obj, allow = sys.argv[1:]
    # ARCH may name one object of an ISA, "aarch64/neon": the list keys on
    # the whole label, the disassembly rules on the ISA before the "/".
    counts, funcs = scan(arch.split("/")[0], objdump, obj)
    entries, other = read_allow(allow)
    mine = {k: v for k, v in entries.items() if k[0] == arch}

    if mode == "update":
        # Reasons are kept per (function, kind, mnemonic), else borrowed from
        # the same function and kind (one reason usually covers its loops).
        out = dict((k, v) for k, v in entries.items() if k[0] != arch)
        for (fn, kind, mnem), n in counts.items():
            old = mine.get((arch, fn, kind, mnem))
            reason = old[1] if old else next(
                (r for (a, f, k, _), (_, r) in mine.items() if f == fn and k == kind), "UNEXPLAINED")
            out[(arch, fn, kind, mnem)] = (n, reason)
        with open(allow, "w") as f:
            for line in other:
                f.write(line + "\n")
            for k in sorted(out):
                f.write("%s %s %s %s %d %s\n" % (k + out[k]))
        print("ct-objcheck %s: %d entries written to %s" % (arch, len(counts), allow))
        return 0

    problems = []
    for (fn, kind, mnem), n in sorted(counts.items()):
        e = mine.get((arch, fn, kind, mnem))
        if e is None:
            problems.append("NEW: %s %s %s x%d has no entry: show it depends on public values only, "
                            "then add it (update mode)" % (fn, kind, mnem, n))
        elif e[0] != n:
            problems.append("CHANGED: %s %s %s: %d in the object, %d in the list: look at the new ones"
                            % (fn, kind, mnem, n, e[0]))
        elif not e[1] or "UNEXPLAINED" in e[1]:
            problems.append("UNEXPLAINED: %s %s %s x%d" % (fn, kind, mnem, n))
    for (a, fn, kind, mnem), (n, _) in sorted(mine.items()):
        if (fn, kind, mnem) not in counts:
            problems.append("STALE: %s %s %s x%d is listed but not in the object%s"
                            % (fn, kind, mnem, n, "" if fn in funcs else " (function gone)"))
    total = {}
    for (fn, kind, mnem), n in counts.items():
        total[kind] = total.get(kind, 0) + n
    print("ct-objcheck %s: %d functions; %d conditional/indirect branches, %d indexed loads, "
          "%d divisions; %d allow-list entries"
          % (arch, len(funcs), total.get("branch", 0), total.get("index", 0), total.get("div", 0), len(mine)))
    for p in problems:
        print("ct-objcheck %s: %s" % (arch, p))
    if problems:
        print("ct-objcheck %s: FAILED (%d problems)" % (arch, len(problems)))
        return 1
    print("ct-objcheck %s: every one explained by a committed reason: 0 unexplained" % arch)
    return 0


if __name__ == "__main__":
    sys.exit(main())
