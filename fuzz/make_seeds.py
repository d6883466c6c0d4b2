#!/usr/bin/env python3
"""Writes the committed seed corpora of the fuzz targets (fuzz/corpus/*).

The open target needs valid (key, IV, AAD, ciphertext, tag) tuples to reach
its accept path, which random mutation would never find; they are made here
with the `cryptography` package (OpenSSL underneath), in the byte layout
fuzz_open.c reads.  Re-run only to regenerate:  python3 fuzz/make_seeds.py
"""
import os, random
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
rng = random.Random(20261130)
rb = lambda n: bytes(rng.getrandbits(8) for _ in range(n))
GCM_TAGS = [4, 8, 12, 13, 14, 15, 16]

def write(target, name, data):
    d = os.path.join(root, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

def gcm(key, iv, aad, pt):
    e = Cipher(algorithms.AES(key), modes.GCM(iv, min_tag_length=4)).encryptor()
    e.authenticate_additional_data(aad)
    ct = e.update(pt) + e.finalize()
    return ct, e.tag

i = 0
for kl_sel, kl in enumerate((16, 24, 32)):
    for ivl in (12, 8, 16, 32):
        for n in (0, 1, 16, 33, 200, 600):
            for tsel in (0, 3, 6):
                key, iv, aad, pt = rb(kl), rb(ivl), rb(rng.choice((0, 5, 16, 40))), rb(n)
                ct, tag = gcm(key, iv, aad, pt)
                tl = GCM_TAGS[tsel]
                data = bytes([kl_sel, ivl - 1, len(aad), tsel]) + key + iv + aad + tag[:tl] + ct
                write("open", "valid-%03d" % i, data)
                i += 1
# Differential target: mode byte, then parameters and data (any bytes are valid).
for mode in range(8):
    for j, n in enumerate((0, 1, 17, 64, 255, 256, 1000, 3000)):
        write("diff", "mode%d-%d" % (mode, j), bytes([mode]) + rb(8 + 32 + 64 + 40 + n))
print("seeds written to", root)
