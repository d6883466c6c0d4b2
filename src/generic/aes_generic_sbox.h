/*
 * aes_generic_sbox.h - the AES S-box as a Boolean circuit, for any type with
 * ^, & and ~ (a scalar word, or a GCC/Clang vector of them).  Two circuits,
 * both without tables and so constant time by construction.  Their U0 and
 * S0 are the most significant bits; the caller's planes x[0..7] run from
 * the least significant bit, so U_i = x[7 - i] and S_i goes to x[7 - i].
 *
 * AK_SBOX_CIRCUIT is Boyar and Peralta's depth-16 forward S-box: J. Boyar,
 * R. Peralta, "A depth-16 circuit for the AES S-box", SEC 2012, ePrint
 * 2011/332 -- figure 5 (top linear layer t1..t27), figure 7 (shared
 * non-linear middle m1..m63 with D = U7) and figure 8 (bottom linear layer
 * l0..l29, outputs S0..S7).  128 gates (34 AND).  AK_SBOX_CIRCUIT_NC is
 * it without the NOTs of its four XNOR outputs, S(x) ^ 0x63 (the constant
 * folds into round keys, as said below); AK_SBOX_CIRCUIT adds them back.
 * The bitsliced batches use it: there the smaller circuit below measured
 * 4-7% slower (docs/performance.md, "Zen 5: the 115-gate S-box").
 *
 * AK_SBOX_CIRCUIT_115_NC is the same authors' 115-gate circuit (32 AND,
 * 83 XOR or XNOR): J. Boyar, R. Peralta, "A new combinational logic
 * minimization technique with applications to cryptology", SEA 2010, LNCS
 * 6049, ePrint 2009/191 -- the top linear layer (y1..y21), the shared
 * middle (t2..t45, z0..z17) and the bottom linear layer (t46..t67,
 * S0..S7).  The single-block kernel uses it, 8-9% faster than with the
 * depth-16 circuit.  Its four XNOR outputs are the affine constant 0x63
 * (bits 0, 1, 5 and 6); the macro leaves them out and yields S(x) ^ 0x63.
 * A caller whose S-box output meets a round key through linear maps only
 * folds the constant into the keys: MixColumns maps a column of equal
 * bytes c to itself, ShiftRows and the layouts permute bytes, so 0x63 in
 * every byte stays 0x63 in every byte.
 */
#ifndef AK_AES_GENERIC_SBOX_H
#define AK_AES_GENERIC_SBOX_H

#define AK_SBOX_CIRCUIT_NC(T, x)                                                \
    do {                                                                        \
        T u0 = (x)[7], u1 = (x)[6], u2 = (x)[5], u3 = (x)[4];                   \
        T u4 = (x)[3], u5 = (x)[2], u6 = (x)[1], u7 = (x)[0];                   \
        T t1 = u0 ^ u3, t2 = u0 ^ u5, t3 = u0 ^ u6, t4 = u3 ^ u5;               \
        T t5 = u4 ^ u6, t6 = t1 ^ t5, t7 = u1 ^ u2, t8 = u7 ^ t6;               \
        T t9 = u7 ^ t7, t10 = t6 ^ t7, t11 = u1 ^ u5, t12 = u2 ^ u5;            \
        T t13 = t3 ^ t4, t14 = t6 ^ t11, t15 = t5 ^ t11, t16 = t5 ^ t12;        \
        T t17 = t9 ^ t16, t18 = u3 ^ u7, t19 = t7 ^ t18, t20 = t1 ^ t19;        \
        T t21 = u6 ^ u7, t22 = t7 ^ t21, t23 = t2 ^ t22, t24 = t2 ^ t10;        \
        T t25 = t20 ^ t17, t26 = t3 ^ t16, t27 = t1 ^ t12;                      \
        T m1 = t13 & t6, m2 = t23 & t8, m3 = t14 ^ m1, m4 = t19 & u7;           \
        T m5 = m4 ^ m1, m6 = t3 & t16, m7 = t22 & t9, m8 = t26 ^ m6;            \
        T m9 = t20 & t17, m10 = m9 ^ m6, m11 = t1 & t15, m12 = t4 & t27;        \
        T m13 = m12 ^ m11, m14 = t2 & t10, m15 = m14 ^ m11, m16 = m3 ^ m2;      \
        T m17 = m5 ^ t24, m18 = m8 ^ m7, m19 = m10 ^ m15, m20 = m16 ^ m13;      \
        T m21 = m17 ^ m15, m22 = m18 ^ m13, m23 = m19 ^ t25, m24 = m22 ^ m23;   \
        T m25 = m22 & m20, m26 = m21 ^ m25, m27 = m20 ^ m21, m28 = m23 ^ m25;   \
        T m29 = m28 & m27, m30 = m26 & m24, m31 = m20 & m23, m32 = m27 & m31;   \
        T m33 = m27 ^ m25, m34 = m21 & m22, m35 = m24 & m34, m36 = m24 ^ m25;   \
        T m37 = m21 ^ m29, m38 = m32 ^ m33, m39 = m23 ^ m30, m40 = m35 ^ m36;   \
        T m41 = m38 ^ m40, m42 = m37 ^ m39, m43 = m37 ^ m38, m44 = m39 ^ m40;   \
        T m45 = m42 ^ m41, m46 = m44 & t6, m47 = m40 & t8, m48 = m39 & u7;      \
        T m49 = m43 & t16, m50 = m38 & t9, m51 = m37 & t17, m52 = m42 & t15;    \
        T m53 = m45 & t27, m54 = m41 & t10, m55 = m44 & t13, m56 = m40 & t23;   \
        T m57 = m39 & t19, m58 = m43 & t3, m59 = m38 & t22, m60 = m37 & t20;    \
        T m61 = m42 & t1, m62 = m45 & t4, m63 = m41 & t2;                       \
        T l0 = m61 ^ m62, l1 = m50 ^ m56, l2 = m46 ^ m48, l3 = m47 ^ m55;       \
        T l4 = m54 ^ m58, l5 = m49 ^ m61, l6 = m62 ^ l5, l7 = m46 ^ l3;         \
        T l8 = m51 ^ m59, l9 = m52 ^ m53, l10 = m53 ^ l4, l11 = m60 ^ l2;       \
        T l12 = m48 ^ m51, l13 = m50 ^ l0, l14 = m52 ^ m61, l15 = m55 ^ l1;     \
        T l16 = m56 ^ l0, l17 = m57 ^ l1, l18 = m58 ^ l8, l19 = m63 ^ l4;       \
        T l20 = l0 ^ l1, l21 = l1 ^ l7, l22 = l3 ^ l12, l23 = l18 ^ l2;         \
        T l24 = l15 ^ l9, l25 = l6 ^ l10, l26 = l7 ^ l9, l27 = l8 ^ l10;        \
        T l28 = l11 ^ l14, l29 = l11 ^ l17;                                     \
        (x)[7] = l6 ^ l24;                                                      \
        (x)[6] = l16 ^ l26;                                                     \
        (x)[5] = l19 ^ l28;                                                     \
        (x)[4] = l6 ^ l21;                                                      \
        (x)[3] = l20 ^ l22;                                                     \
        (x)[2] = l25 ^ l29;                                                     \
        (x)[1] = l13 ^ l27;                                                     \
        (x)[0] = l6 ^ l23;                                                      \
    } while (0)

/* The depth-16 circuit with its XNORs: S(x). */
#define AK_SBOX_CIRCUIT(T, x)      \
    do {                           \
        AK_SBOX_CIRCUIT_NC(T, x);  \
        (x)[6] = ~(x)[6];          \
        (x)[5] = ~(x)[5];          \
        (x)[1] = ~(x)[1];          \
        (x)[0] = ~(x)[0];          \
    } while (0)

/* The 115-gate circuit, less its XNORs: S(x) ^ 0x63 (see the header). */
#define AK_SBOX_CIRCUIT_115_NC(T, x)                                            \
    do {                                                                        \
        T u0 = (x)[7], u1 = (x)[6], u2 = (x)[5], u3 = (x)[4];                   \
        T u4 = (x)[3], u5 = (x)[2], u6 = (x)[1], u7 = (x)[0];                   \
        T y14 = u3 ^ u5, y13 = u0 ^ u6, y9 = u0 ^ u3, y8 = u0 ^ u5;             \
        T t0 = u1 ^ u2, y1 = t0 ^ u7, y4 = y1 ^ u3, y12 = y13 ^ y14;            \
        T y2 = y1 ^ u0, y5 = y1 ^ u6, y3 = y5 ^ y8, t1 = u4 ^ y12;              \
        T y15 = t1 ^ u5, y20 = t1 ^ u1, y6 = y15 ^ u7, y10 = y15 ^ t0;          \
        T y11 = y20 ^ y9, y7 = u7 ^ y11, y17 = y10 ^ y11, y19 = y10 ^ y8;       \
        T y16 = t0 ^ y11, y21 = y13 ^ y16, y18 = u0 ^ y16;                      \
        T t2 = y12 & y15, t3 = y3 & y6, t4 = t3 ^ t2, t5 = y4 & u7;             \
        T t6 = t5 ^ t2, t7 = y13 & y16, t8 = y5 & y1, t9 = t8 ^ t7;             \
        T t10 = y2 & y7, t11 = t10 ^ t7, t12 = y9 & y11, t13 = y14 & y17;       \
        T t14 = t13 ^ t12, t15 = y8 & y10, t16 = t15 ^ t12, t17 = t4 ^ t14;     \
        T t18 = t6 ^ t16, t19 = t9 ^ t14, t20 = t11 ^ t16, t21 = t17 ^ y20;     \
        T t22 = t18 ^ y19, t23 = t19 ^ y21, t24 = t20 ^ y18;                    \
        T t25 = t21 ^ t22, t26 = t21 & t23, t27 = t24 ^ t26, t28 = t25 & t27;   \
        T t29 = t28 ^ t22, t30 = t23 ^ t24, t31 = t22 ^ t26, t32 = t31 & t30;   \
        T t33 = t32 ^ t24, t34 = t23 ^ t33, t35 = t27 ^ t33, t36 = t24 & t35;   \
        T t37 = t36 ^ t34, t38 = t27 ^ t36, t39 = t29 & t38, t40 = t25 ^ t39;   \
        T t41 = t40 ^ t37, t42 = t29 ^ t33, t43 = t29 ^ t40, t44 = t33 ^ t37;   \
        T t45 = t42 ^ t41;                                                      \
        T z0 = t44 & y15, z1 = t37 & y6, z2 = t33 & u7, z3 = t43 & y16;         \
        T z4 = t40 & y1, z5 = t29 & y7, z6 = t42 & y11, z7 = t45 & y17;         \
        T z8 = t41 & y10, z9 = t44 & y12, z10 = t37 & y3, z11 = t33 & y4;       \
        T z12 = t43 & y13, z13 = t40 & y5, z14 = t29 & y2, z15 = t42 & y9;      \
        T z16 = t45 & y14, z17 = t41 & y8;                                      \
        T t46 = z15 ^ z16, t47 = z10 ^ z11, t48 = z5 ^ z13, t49 = z9 ^ z10;     \
        T t50 = z2 ^ z12, t51 = z2 ^ z5, t52 = z7 ^ z8, t53 = z0 ^ z3;          \
        T t54 = z6 ^ z7, t55 = z16 ^ z17, t56 = z12 ^ t48, t57 = t50 ^ t53;     \
        T t58 = z4 ^ t46, t59 = z3 ^ t54, t60 = t46 ^ t57, t61 = z14 ^ t57;     \
        T t62 = t52 ^ t58, t63 = t49 ^ t58, t64 = z4 ^ t59, t65 = t61 ^ t62;    \
        T t66 = z1 ^ t63, t67 = t64 ^ t65, s3 = t53 ^ t66;                      \
        (x)[7] = t59 ^ t63;                                                     \
        (x)[1] = t56 ^ t62;                                                     \
        (x)[0] = t48 ^ t60;                                                     \
        (x)[4] = s3;                                                            \
        (x)[3] = t51 ^ t66;                                                     \
        (x)[2] = t47 ^ t65;                                                     \
        (x)[6] = t64 ^ s3;                                                      \
        (x)[5] = t55 ^ t67;                                                     \
    } while (0)

#endif
