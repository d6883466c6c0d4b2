/*
 * aeskit_isa.h - guest AES and carry-less-multiply instructions, computed
 * exactly, for emulators and binary translators (issue 17).
 *
 * One function per guest instruction, on the architectural register image:
 * sources in, result out, each a byte array whose order is defined below
 * per architecture.  Part of libaeskit (link with -laeskit, or
 * aeskit::aeskit); this header is standalone and does not need aeskit.h.
 *
 * ---------------------------------------------------------------------------
 * Conventions (all functions)
 * ---------------------------------------------------------------------------
 * - Exact: every function returns bit for bit what the guest instruction
 *   writes to its destination register, for every input (checked against the
 *   real instructions and against reference models written from the
 *   manuals: tests/isa/).  Immediates are taken modulo what the instruction
 *   encodes (imm8 & 0xff, rnum & 0xf).
 * - The output may be the same array as any input (d == a, d == b); other
 *   partial overlaps are not allowed.  Any alignment.
 * - Paths: the first call in the process chooses, once, between the host
 *   path (this CPU's own AES / carry-less-multiply instructions: x86 AES-NI,
 *   PCLMULQDQ, VAES, VPCLMULQDQ; AArch64 AESE/AESD/AESMC/AESIMC/PMULL;
 *   POWER8 vcipher/vncipher/vsbox/vpmsum*) and the portable path (plain C).
 *   The choice honours the AESKIT_CPU mask of aeskit.h (AESKIT_CPU=generic
 *   forces the portable path; "-aesni", "-pclmul", "-vaes", "-vpclmulqdq",
 *   "-arm-aes", "-pmull", "-vcrypto" drop one family).  After that a call
 *   is one atomic pointer load and one indirect call: no detection, no lock.
 *   Instructions whose host has no direct counterpart (for example AArch64
 *   PMULL.8B on x86) use the portable code on every host.
 * - Constant time on both paths: no branch and no memory index depends on
 *   the register contents (the portable S-box is computed, not looked up:
 *   GF(2^8) inversion by an addition chain of bit-mask multiplications;
 *   carry-less products are sums of masked shifts).  Immediates (imm8,
 *   rnum) are treated as public, like the instruction encoding they come
 *   from.
 * - Thread-safe: any number of threads may call any function at once.
 *
 * AES state order, the same for every architecture below: image byte i is
 * byte i of the 16-byte AES input block (FIPS-197 section 3.4: state
 * s[r][c] = byte r + 4c).  That is what each ISA's AES instructions assume
 * when the image is laid out as defined for that ISA.
 */
#ifndef AESKIT_ISA_H
#define AESKIT_ISA_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define AESKIT_ISA_API __attribute__((visibility("default")))
#else
#define AESKIT_ISA_API
#endif

/* ===========================================================================
 * Control
 * ======================================================================== */

/* A short description of the path in use, e.g. "host: aes-ni pclmulqdq vaes
 * vpclmulqdq" or "portable".  Static storage; never NULL. */
AESKIT_ISA_API const char *aeskit_isa_path(void);

/* on != 0: every later call in the process uses the portable path; on == 0:
 * back to the path chosen at start-up.  Returns the previous setting (0 or
 * 1).  Meant for tests and benchmarks: both paths give identical results,
 * so calls racing with a switch are still exact. */
AESKIT_ISA_API int aeskit_isa_use_portable(int on);

/* ===========================================================================
 * x86 (Intel SDM vol. 2: AESENC, AESENCLAST, AESDEC, AESDECLAST, AESIMC,
 * AESKEYGENASSIST, PCLMULQDQ; VAES / VPCLMULQDQ for the ymm/zmm forms)
 *
 * Image: the XMM register as MOVDQU stores it: byte i = bits 8i+7..8i;
 * quadword 0 = bytes 0..7 (little-endian), doubleword j = bytes 4j..4j+3.
 * Batch forms (_x2 = ymm, _x4 = zmm) take 32 / 64 bytes: lane L is bytes
 * 16L..16L+15 and is computed exactly as the xmm instruction on that lane
 * (the same imm8 for every lane, as in the VEX/EVEX encodings).
 * Operand names follow the VEX form: d = destination, s (or a) = first
 * source, k (or b) = second source (the round key for the AES rounds).
 * ======================================================================== */

/* AESENC: d = MixColumns(SubBytes(ShiftRows(s))) ^ k. */
AESKIT_ISA_API void aeskit_isa_x86_aesenc(uint8_t d[16], const uint8_t s[16], const uint8_t k[16]);
/* AESENCLAST: d = SubBytes(ShiftRows(s)) ^ k. */
AESKIT_ISA_API void aeskit_isa_x86_aesenclast(uint8_t d[16], const uint8_t s[16], const uint8_t k[16]);
/* AESDEC: d = InvMixColumns(InvSubBytes(InvShiftRows(s))) ^ k. */
AESKIT_ISA_API void aeskit_isa_x86_aesdec(uint8_t d[16], const uint8_t s[16], const uint8_t k[16]);
/* AESDECLAST: d = InvSubBytes(InvShiftRows(s)) ^ k. */
AESKIT_ISA_API void aeskit_isa_x86_aesdeclast(uint8_t d[16], const uint8_t s[16], const uint8_t k[16]);
/* AESIMC: d = InvMixColumns(s). */
AESKIT_ISA_API void aeskit_isa_x86_aesimc(uint8_t d[16], const uint8_t s[16]);
/* AESKEYGENASSIST imm8: with X1 = doubleword 1 and X3 = doubleword 3 of s and
 * RCON = imm8 zero-extended, d's doublewords 0..3 are SubWord(X1),
 * RotWord(SubWord(X1)) ^ RCON, SubWord(X3), RotWord(SubWord(X3)) ^ RCON
 * (RotWord moves byte 0 of the word to byte 3: a right rotation by 8 of the
 * little-endian doubleword). */
AESKIT_ISA_API void aeskit_isa_x86_aeskeygenassist(uint8_t d[16], const uint8_t s[16], unsigned imm8);
/* PCLMULQDQ imm8: d = the 128-bit carry-less product of quadword (imm8 bit
 * 0) of a and quadword (imm8 bit 4) of b, as a little-endian 128-bit integer
 * (a = xmm1 of the legacy form, the first source of VPCLMULQDQ). */
AESKIT_ISA_API void aeskit_isa_x86_pclmulqdq(uint8_t d[16], const uint8_t a[16], const uint8_t b[16], unsigned imm8);

/* VAESENC / VAESENCLAST / VAESDEC / VAESDECLAST / VPCLMULQDQ on ymm (2
 * lanes) and zmm (4 lanes): each lane as the xmm instruction above. */
AESKIT_ISA_API void aeskit_isa_x86_vaesenc_x2(uint8_t d[32], const uint8_t s[32], const uint8_t k[32]);
AESKIT_ISA_API void aeskit_isa_x86_vaesenclast_x2(uint8_t d[32], const uint8_t s[32], const uint8_t k[32]);
AESKIT_ISA_API void aeskit_isa_x86_vaesdec_x2(uint8_t d[32], const uint8_t s[32], const uint8_t k[32]);
AESKIT_ISA_API void aeskit_isa_x86_vaesdeclast_x2(uint8_t d[32], const uint8_t s[32], const uint8_t k[32]);
AESKIT_ISA_API void aeskit_isa_x86_vpclmulqdq_x2(uint8_t d[32], const uint8_t a[32], const uint8_t b[32], unsigned imm8);
AESKIT_ISA_API void aeskit_isa_x86_vaesenc_x4(uint8_t d[64], const uint8_t s[64], const uint8_t k[64]);
AESKIT_ISA_API void aeskit_isa_x86_vaesenclast_x4(uint8_t d[64], const uint8_t s[64], const uint8_t k[64]);
AESKIT_ISA_API void aeskit_isa_x86_vaesdec_x4(uint8_t d[64], const uint8_t s[64], const uint8_t k[64]);
AESKIT_ISA_API void aeskit_isa_x86_vaesdeclast_x4(uint8_t d[64], const uint8_t s[64], const uint8_t k[64]);
AESKIT_ISA_API void aeskit_isa_x86_vpclmulqdq_x4(uint8_t d[64], const uint8_t a[64], const uint8_t b[64], unsigned imm8);

/* ===========================================================================
 * AArch64 (Arm ARM for A-profile, C7.2: AESE, AESD, AESMC, AESIMC, PMULL,
 * PMULL2, PMUL)
 *
 * Image: the SIMD register Vn as ST1 {Vn.16B} stores it: byte i = bits
 * 8i+7..8i, element j of an arrangement of w-bit elements = bytes
 * jw/8..(j+1)w/8-1, little-endian (so Vn.D[0] = bytes 0..7).  AESE and AESD
 * read and write Vd: vd is its old value, d its new one.
 * ======================================================================== */

/* AESE Vd.16B, Vn.16B: d = ShiftRows(SubBytes(vd ^ vn)). */
AESKIT_ISA_API void aeskit_isa_arm_aese(uint8_t d[16], const uint8_t vd[16], const uint8_t vn[16]);
/* AESD Vd.16B, Vn.16B: d = InvShiftRows(InvSubBytes(vd ^ vn)). */
AESKIT_ISA_API void aeskit_isa_arm_aesd(uint8_t d[16], const uint8_t vd[16], const uint8_t vn[16]);
/* AESMC Vd.16B, Vn.16B: d = MixColumns(vn). */
AESKIT_ISA_API void aeskit_isa_arm_aesmc(uint8_t d[16], const uint8_t vn[16]);
/* AESIMC Vd.16B, Vn.16B: d = InvMixColumns(vn). */
AESKIT_ISA_API void aeskit_isa_arm_aesimc(uint8_t d[16], const uint8_t vn[16]);
/* PMULL Vd.1Q, Vn.1D, Vm.1D: d = the 128-bit polynomial product of vn.D[0]
 * and vm.D[0]. */
AESKIT_ISA_API void aeskit_isa_arm_pmull_1q(uint8_t d[16], const uint8_t vn[16], const uint8_t vm[16]);
/* PMULL2 Vd.1Q, Vn.2D, Vm.2D: the same on D[1]. */
AESKIT_ISA_API void aeskit_isa_arm_pmull2_1q(uint8_t d[16], const uint8_t vn[16], const uint8_t vm[16]);
/* PMULL Vd.8H, Vn.8B, Vm.8B: d.H[i] = polynomial product of vn.B[i] and
 * vm.B[i], i = 0..7. */
AESKIT_ISA_API void aeskit_isa_arm_pmull_8h(uint8_t d[16], const uint8_t vn[16], const uint8_t vm[16]);
/* PMULL2 Vd.8H, Vn.16B, Vm.16B: d.H[i] = product of vn.B[8+i], vm.B[8+i]. */
AESKIT_ISA_API void aeskit_isa_arm_pmull2_8h(uint8_t d[16], const uint8_t vn[16], const uint8_t vm[16]);
/* PMUL Vd.16B, Vn.16B, Vm.16B: d.B[i] = low 8 bits of the polynomial product
 * of vn.B[i] and vm.B[i], i = 0..15. */
AESKIT_ISA_API void aeskit_isa_arm_pmul_16b(uint8_t d[16], const uint8_t vn[16], const uint8_t vm[16]);

/* ===========================================================================
 * POWER (Power ISA 3.0B, Book I, 6.11 "Vector Cryptographic Instructions"
 * and "Vector Polynomial Multiply-Sum"; POWER8 and later)
 *
 * Image: the vector register in the ISA's own big-endian numbering: byte i
 * = VR bits 8i..8i+7 (byte 0 is the most significant), element j of w-bit
 * elements = bytes jw/8..(j+1)w/8-1 read big-endian.  This is what stvx /
 * stxvb16x write to memory in either endian mode.  (QEMU's ppc_avr_t on a
 * little-endian host holds the same register with the 16 bytes reversed.)
 * ======================================================================== */

/* vcipher VRT,VRA,VRB: d = MixColumns(ShiftRows(SubBytes(a))) ^ b. */
AESKIT_ISA_API void aeskit_isa_ppc_vcipher(uint8_t d[16], const uint8_t a[16], const uint8_t b[16]);
/* vcipherlast: d = ShiftRows(SubBytes(a)) ^ b. */
AESKIT_ISA_API void aeskit_isa_ppc_vcipherlast(uint8_t d[16], const uint8_t a[16], const uint8_t b[16]);
/* vncipher: d = InvMixColumns(InvSubBytes(InvShiftRows(a)) ^ b) (the round
 * key is added before InvMixColumns, unlike x86 AESDEC). */
AESKIT_ISA_API void aeskit_isa_ppc_vncipher(uint8_t d[16], const uint8_t a[16], const uint8_t b[16]);
/* vncipherlast: d = InvSubBytes(InvShiftRows(a)) ^ b. */
AESKIT_ISA_API void aeskit_isa_ppc_vncipherlast(uint8_t d[16], const uint8_t a[16], const uint8_t b[16]);
/* vsbox VRT,VRA: d = SubBytes(a). */
AESKIT_ISA_API void aeskit_isa_ppc_vsbox(uint8_t d[16], const uint8_t a[16]);
/* vpmsumb: halfword j of d = pmul(a.b[2j], b.b[2j]) ^ pmul(a.b[2j+1],
 * b.b[2j+1]), j = 0..7 (pmul = polynomial product, 15 bits here). */
AESKIT_ISA_API void aeskit_isa_ppc_vpmsumb(uint8_t d[16], const uint8_t a[16], const uint8_t b[16]);
/* vpmsumh: word j of d = pmul(a.h[2j], b.h[2j]) ^ pmul(a.h[2j+1], b.h[2j+1]). */
AESKIT_ISA_API void aeskit_isa_ppc_vpmsumh(uint8_t d[16], const uint8_t a[16], const uint8_t b[16]);
/* vpmsumw: doubleword j of d = pmul(a.w[2j], b.w[2j]) ^ pmul(a.w[2j+1],
 * b.w[2j+1]). */
AESKIT_ISA_API void aeskit_isa_ppc_vpmsumw(uint8_t d[16], const uint8_t a[16], const uint8_t b[16]);
/* vpmsumd: d (one 128-bit big-endian quadword) = pmul(a.d[0], b.d[0]) ^
 * pmul(a.d[1], b.d[1]). */
AESKIT_ISA_API void aeskit_isa_ppc_vpmsumd(uint8_t d[16], const uint8_t a[16], const uint8_t b[16]);

/* ===========================================================================
 * RISC-V RV64 (RISC-V Cryptography Extensions vol. I, v1.0.1, Zkne/Zknd:
 * aes64*; Bit-manipulation v1.0.0, Zbc/Zbkc: clmul*)
 *
 * Registers are XLEN = 64-bit integers.  The aes64 instructions see the
 * 128-bit AES state as rs2:rs1 (rs1 = state bytes 0..7, byte i = bits
 * 8i+7..8i; rs2 = bytes 8..15) and return the low half of the round result:
 * state bytes 0..7 (rd has the columns 0 and 1).
 * The vector crypto element-group forms (Zvkned, Zvkg) are not here: their
 * operands are vector register groups with vl/vstart, not one image.
 * ======================================================================== */

/* aes64es: bytes 0..7 of SubBytes(ShiftRows(rs2:rs1)). */
AESKIT_ISA_API uint64_t aeskit_isa_rv_aes64es(uint64_t rs1, uint64_t rs2);
/* aes64esm: bytes 0..7 of MixColumns(SubBytes(ShiftRows(rs2:rs1))). */
AESKIT_ISA_API uint64_t aeskit_isa_rv_aes64esm(uint64_t rs1, uint64_t rs2);
/* aes64ds: bytes 0..7 of InvSubBytes(InvShiftRows(rs2:rs1)). */
AESKIT_ISA_API uint64_t aeskit_isa_rv_aes64ds(uint64_t rs1, uint64_t rs2);
/* aes64dsm: bytes 0..7 of InvMixColumns(InvSubBytes(InvShiftRows(rs2:rs1))). */
AESKIT_ISA_API uint64_t aeskit_isa_rv_aes64dsm(uint64_t rs1, uint64_t rs2);
/* aes64im: InvMixColumns on each 32-bit half of rs1. */
AESKIT_ISA_API uint64_t aeskit_isa_rv_aes64im(uint64_t rs1);
/* aes64ks1i rnum: with t = rs1 bits 63..32, t' = t if rnum == 10, else t
 * rotated right by 8; w = SubWord(t') ^ rcon(rnum) (rcon = 01 02 04 08 10 20
 * 40 80 1b 36 for rnum 0..9, 0 for 10); result w:w.  rnum 11..15 are
 * reserved encodings (a decoder must raise illegal-instruction); this
 * function then computes as for rcon = 0 with the rotation. */
AESKIT_ISA_API uint64_t aeskit_isa_rv_aes64ks1i(uint64_t rs1, unsigned rnum);
/* aes64ks2: w0 = rs1[63:32] ^ rs2[31:0], w1 = w0 ^ rs2[63:32]; result w1:w0. */
AESKIT_ISA_API uint64_t aeskit_isa_rv_aes64ks2(uint64_t rs1, uint64_t rs2);
/* clmul: bits 63..0 of the 128-bit carry-less product rs1 * rs2. */
AESKIT_ISA_API uint64_t aeskit_isa_rv_clmul(uint64_t rs1, uint64_t rs2);
/* clmulh: bits 127..64 of the product. */
AESKIT_ISA_API uint64_t aeskit_isa_rv_clmulh(uint64_t rs1, uint64_t rs2);
/* clmulr: bits 126..63 of the product (the bit-reversed multiply). */
AESKIT_ISA_API uint64_t aeskit_isa_rv_clmulr(uint64_t rs1, uint64_t rs2);

#ifdef __cplusplus
}
#endif

#endif /* AESKIT_ISA_H */
