#!/usr/bin/env python3
"""png_check.py PNG WIDTH HEIGHT COLOUR... - checks a browser's screenshot of
an `aeskit speed --plot` SVG: the PNG is WIDTH x HEIGHT, it is not blank
(between 1% and 60% of its pixels are not white), nothing is drawn on its
outermost 2 pixels (cut off), it holds text and the frame (dark pixels),
and each COLOUR (#rrggbb, the plot's line colours) is
drawn on at least 40 pixels.  Pure Python (zlib), no imaging library.
Prints what it measured; exits 1 on a failed check, 2 on an unreadable file."""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, hdr = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError("unsupported PNG: depth %d colour type %d interlace %d" % (depth, ctype, interlace))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    path, want_w, want_h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    colours = [tuple(int(c[k:k + 2], 16) for k in (1, 3, 5)) for c in sys.argv[4:]]
    try:
        w, h, bpp, rows = read_png(path)
    except (OSError, ValueError, zlib.error, TypeError, struct.error) as e:
        print("png_check: %s: %s" % (path, e))
        return 2
    fails = []
    if (w, h) != (want_w, want_h):
        fails.append("size %dx%d, want %dx%d" % (w, h, want_w, want_h))
    nonwhite = dark = edge = 0
    hits = [0] * len(colours)
    for y, line in enumerate(rows):
        for x in range(0, w * bpp, bpp):
            r, g, b = line[x], line[x + 1], line[x + 2]
            if r < 245 or g < 245 or b < 245:
                nonwhite += 1
                # drawn on the outermost 2 pixels: something runs off the picture
                if x < 2 * bpp or x >= (w - 2) * bpp or y < 2 or y >= h - 2:
                    edge += 1
            if r < 80 and g < 80 and b < 80:
                dark += 1
            for k, (cr, cg, cb) in enumerate(colours):
                if abs(r - cr) < 24 and abs(g - cg) < 24 and abs(b - cb) < 24:
                    hits[k] += 1
    total = w * h
    frac = nonwhite / total if total else 0
    print("png_check: %dx%d, %.1f%% not white, %d dark pixels, line colours %s" %
          (w, h, 100 * frac, dark, ", ".join("%s: %d px" % (c, n) for c, n in zip(sys.argv[4:], hits))))
    if frac < 0.01:
        fails.append("blank: only %.2f%% of the pixels are not white" % (100 * frac))
    if frac > 0.60:
        fails.append("%.0f%% of the pixels are not white: not the plot (an error page?)" % (100 * frac))
    if edge:
        fails.append("%d pixels drawn on the picture's edge: text or lines cut off" % edge)
    if dark < 500:
        fails.append("only %d dark pixels: no text or frame" % dark)
    for c, n in zip(sys.argv[4:], hits):
        if n < 40:
            fails.append("line colour %s on only %d pixels" % (c, n))
    for f in fails:
        print("png_check: FAIL: " + f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
