#!/usr/bin/env python3
# aes_ssse3_gen.py - computes the 16-entry tables of aes_ssse3.c from the
# derivation in that file's header, checks every table pair on all 256
# inputs against GF(2^8) arithmetic (inverse, S-box, 2S, 3S, InvS times
# 9/11/13/14, in both working bases), and prints the C initialisers;
# last, the vperm rule of ppc64-altivec and its two inversion tables.
# Run: python3 src/x86/aes_ssse3_gen.py   (no output but the tables = all
# checks passed; an AssertionError names the first failing input).
def gmul(a,b):
    r=0
    while b:
        if b&1: r^=a
        a<<=1
        if a&0x100: a^=0x11b
        b>>=1
    return r
def gpow(a,e):
    r=1
    for _ in range(e): r=gmul(r,a)
    return r
def ginv(a): return 0 if a==0 else gpow(a,254)
def aff(x):  # AES affine, linear part only
    r=0
    for i in range(8):
        b=((x>>i)^(x>>((i+4)%8))^(x>>((i+5)%8))^(x>>((i+6)%8))^(x>>((i+7)%8)))&1
        r|=b<<i
    return r
SBOX=[aff(ginv(x))^0x63 for x in range(256)]
assert SBOX[0]==0x63 and SBOX[1]==0x7c and SBOX[0x53]==0xed
# generator of GF(256)*: 3
g=3
g16=gpow(g,17)            # order 15: generates GF(16)* inside GF(256)
sub=[0]+[gpow(g16,e) for e in range(15)]
assert len(set(sub))==16
# GF(16) nibble coordinates in basis 1, g16, g16^2, g16^3
basis=[1,g16,gmul(g16,g16),gpow(g16,3)]
def emb(n):
    r=0
    for b in range(4):
        if n>>b&1: r^=basis[b]
    return r
E=[emb(n) for n in range(16)]
assert sorted(E)==sorted(sub)
NIB={E[n]:n for n in range(16)}
def choose():
    for an in range(2,16):
        a=E[an]
        if any(gmul(r,r)^gmul(a,r)^a==0 for r in sub): continue
        for beta in range(256):
            if gmul(beta,beta)^gmul(a,beta)^a==0: return an,a,beta
an,a,beta=choose()
# x = k + i*beta  <->  tower byte (k<<4)|i
tow={}
for i in range(16):
    for k in range(16):
        x=E[k]^gmul(E[i],beta)
        tow[x]=(k<<4)|i
assert len(tow)==256
M=[tow[x] for x in range(256)]     # standard byte -> tower byte (GF(2)-linear)
assert all(M[x^y]==M[x]^M[y] for x in range(0,256,7) for y in range(256))
def n16inv(n): return NIB[ginv(E[n])]
INV=[0x80]+[n16inv(n) for n in range(1,16)]
AINV=[0x80]+[NIB[gmul(a,ginv(E[n]))] for n in range(1,16)]
def shuf(tbl,idx): return 0 if idx&0x80 else tbl[idx&15]
ainv=ginv(a); a2inv=gmul(ainv,ainv)
c1=1^gmul(beta,ainv)^gmul(beta,a2inv)
c2=gmul(beta,a2inv)
def outtab(mul, lin):
    F=[0]*16; G=[0]*16
    for n in range(1,16):
        A=ginv(E[n])
        F[n]=lin(gmul(mul,gmul(A,c1))); G[n]=lin(gmul(mul,gmul(A,c2)))
    return F,G
def core(t):
    i=t&15; k=t>>4; j=i^k
    ak=shuf(AINV,k)
    P=shuf(INV,i)^ak; Q=shuf(INV,j)^ak
    io=shuf(INV,P)^j; jo=shuf(INV,Q)^i
    return io,jo
# verify: inverse
FI,GI=outtab(1,lambda v:v)
for x in range(256):
    io,jo=core(M[x])
    assert shuf(FI,io)^shuf(GI,jo)==ginv(x),x
FS,GS=outtab(1,aff); FS2,GS2=outtab(1,lambda v:gmul(2,aff(v)))
for x in range(256):
    io,jo=core(M[x])
    assert shuf(FS,io)^shuf(GS,jo)^0x63==SBOX[x]
    assert shuf(FS2,io)^shuf(GS2,jo)==gmul(2,SBOX[x]^0x63)
# decryption input: y' = y^0x63 -> M(Lin^-1(y'))
linv={aff(x):x for x in range(256)}
MD=[M[linv[y]] for y in range(256)]
INVS=[SBOX.index(y) for y in range(256)]
for y in range(256):
    io,jo=core(MD[y^0x63])
    assert shuf(FI,io)^shuf(GI,jo)==INVS[y]
dec={m:outtab(m,lambda v:v) for m in (0x0e,0x0b,0x0d,0x09)}
MS3,GMS3=outtab(1,lambda v:M[gmul(3,aff(v))]); MS,GMS=outtab(1,lambda v:M[aff(v)]); MS2,GMS2=outtab(1,lambda v:M[gmul(2,aff(v))])
DB=lambda v:MD[v]
ddec={m:outtab(m,DB) for m in (0x0e,0x0b,0x0d,0x09)}
# verify tower-basis round pieces
for x in range(256):
    io,jo=core(M[x])
    assert shuf(MS,io)^shuf(GMS,jo)==M[SBOX[x]^0x63]
    assert shuf(MS2,io)^shuf(GMS2,jo)==M[gmul(2,SBOX[x]^0x63)]
    assert shuf(MS3,io)^shuf(GMS3,jo)==M[gmul(3,SBOX[x]^0x63)]
for y in range(256):
    io,jo=core(MD[y^0x63])
    for m in ddec:
        assert shuf(ddec[m][0],io)^shuf(ddec[m][1],jo)==MD[gmul(m,INVS[y])]
def lohi(T): return [T[n] for n in range(16)],[T[n<<4] for n in range(16)]
def c(name,v): return "    {%s}, /* %s */" % (", ".join("0x%02x"%b for b in v), name)
out=[]
tabs=[("in_lo",lohi(M)[0]),("in_hi",lohi(M)[1]),("inv",INV),("ainv",AINV),
 ("ms_io",MS),("ms_jo",GMS),("ms2_io",MS2),("ms2_jo",GMS2),("ms3_io",MS3),("ms3_jo",GMS3),("s_io",FS),("s_jo",GS),
 ("dn_lo",lohi(MD)[0]),("dn_hi",lohi(MD)[1]),
 ("de_io",ddec[0x0e][0]),("de_jo",ddec[0x0e][1]),("db_io",ddec[0x0b][0]),("db_jo",ddec[0x0b][1]),
 ("dd_io",ddec[0x0d][0]),("dd_jo",ddec[0x0d][1]),("d9_io",ddec[0x09][0]),("d9_jo",ddec[0x09][1]),
 ("i_io",FI),("i_jo",GI)]
for n,v in tabs:
    assert all(M[x]==M[x&15]^M[x&0xf0] for x in range(256))
    out.append(c(n,v))
print("a = nibble %d, beta = 0x%02x, g16 = 0x%02x"%(an,beta,g16))
print("\n".join(out))
# AltiVec's vperm (ppc64-altivec, src/ppc64/aes_ppc64_altivec.c) selects
# byte idx & 31 of its two 16-byte operands and never gives 0 by itself.
# With a zero vector as the second operand, "index 16..31 gives 0" takes
# the place of PSHUFB's "bit 7 gives 0" if the inversion tables mark
# infinity (1/0) as 0x10 instead of 0x80: every other table value the core
# XORs is a nibble, so bit 4 plays bit 7's part, p, q, io, jo stay below 32
# (vperm never sees bits 5..7 set, so it cannot alias), and each lookup
# gives what PSHUFB gives.  Checked on all 256 inputs for every table pair.
def vperm(tbl,idx):
    assert 0<=idx<32,idx
    return tbl[idx] if idx<16 else 0
INV32=[0x10]+INV[1:]; AINV32=[0x10]+AINV[1:]
assert all(v<16 for v in INV[1:]+AINV[1:])
def core32(t):
    i=t&15; k=t>>4; j=i^k
    ak=vperm(AINV32,k)
    P=vperm(INV32,i)^ak; Q=vperm(INV32,j)^ak
    io=vperm(INV32,P)^j; jo=vperm(INV32,Q)^i
    return io,jo
pairs=[(FI,GI),(FS,GS),(MS,GMS),(MS2,GMS2),(MS3,GMS3)]+[ddec[m] for m in ddec]
for t in range(256):
    io,jo=core(t); io32,jo32=core32(t)
    for F,G in pairs:
        assert vperm(F,io32)^vperm(G,jo32)==shuf(F,io)^shuf(G,jo),t
print(c("inv (vperm: infinity 0x10)",INV32))
print(c("ainv (vperm: infinity 0x10)",AINV32))
# x86-ssse3's serial modes carry the state between rounds as its two
# nibble vectors, i (bits 0-3 of the tower byte) and k (bits 4-7), each
# produced by the previous round from tables of one nibble of M(S) and
# M(3 S): the io half and the jo half of a pair give a nibble of the
# result each, since selecting a nibble is GF(2)-linear.  Checked on all
# 256 inputs.
def nib_i(T): return [v&15 for v in T]
def nib_k(T): return [v>>4 for v in T]
NT=[("ms_io_i",nib_i(MS)),("ms_jo_i",nib_i(GMS)),("ms3_io_i",nib_i(MS3)),("ms3_jo_i",nib_i(GMS3)),
    ("ms_io_k",nib_k(MS)),("ms_jo_k",nib_k(GMS)),("ms3_io_k",nib_k(MS3)),("ms3_jo_k",nib_k(GMS3))]
for x in range(256):
    io,jo=core(M[x])
    s=M[SBOX[x]^0x63]; h=M[gmul(3,SBOX[x]^0x63)]
    assert shuf(NT[0][1],io)^shuf(NT[1][1],jo)==s&15,x
    assert shuf(NT[2][1],io)^shuf(NT[3][1],jo)==h&15,x
    assert shuf(NT[4][1],io)^shuf(NT[5][1],jo)==s>>4,x
    assert shuf(NT[6][1],io)^shuf(NT[7][1],jo)==h>>4,x
print("/* vp_ntab: the serial modes' nibble tables */")
for n,v in NT:
    print(c(n,v))
