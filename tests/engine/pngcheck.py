#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks a PNG written by navibench without an image library: the file is
decoded here (chunks and their CRCs, zlib, the five row filters), so a
broken encoder cannot pass by a lenient decoder.

  pngcheck.py PNG size                 prints "WIDTH HEIGHT"
  pngcheck.py PNG stats                prints "WIDTH HEIGHT NONWHITE COLOURS": the
                                       fraction of pixels that are not white
                                       and the number of distinct colours
  pngcheck.py PNG has RRGGBB...        each colour (hex) is some pixel's
  pngcheck.py PNG find NPY SCALE I...  each frame I of the .npy (float32,
                                       frames are its last three dimensions)
                                       is somewhere in the picture, every
                                       pixel a SCALE x SCALE block of
                                       floor(255 v + 0.5), v clamped to [0, 1]
"""
import ast
import math
import struct
import sys
import zlib


def decode(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit(f'{path}: not a PNG signature')
    pos, idat, ihdr = 8, b'', None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        crc, = struct.unpack('>I', data[pos + 8 + n:pos + 12 + n])
        if zlib.crc32(kind + body) != crc:
            sys.exit(f'{path}: chunk {kind} has a bad CRC')
        if kind == b'IHDR':
            ihdr = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        elif kind == b'IEND':
            break
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype != 2 or interlace:
        sys.exit(f'{path}: expected 8-bit RGB, not interlaced (got {ihdr})')
    raw, bpp, stride = zlib.decompress(idat), 3, w * 3
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            elif f != 0:
                sys.exit(f'{path}: row {y}: filter {f}')
        rows.append(bytes(line))
        prev = line
    return w, h, rows


def npy_frames(path):
    data = open(path, 'rb').read()
    hl, = struct.unpack('<H', data[8:10])
    hdr = ast.literal_eval(data[10:10 + hl].decode())
    shape = hdr['shape']
    vals = struct.unpack('<%df' % math.prod(shape), data[10 + hl:])
    fh, fw, ch = shape[-3:]
    n = fh * fw * ch
    return fh, fw, ch, [vals[i:i + n] for i in range(0, len(vals), n)]


def level(v):
    return 0 if not v > 0 else 255 if v >= 1 else math.floor(255 * v + 0.5)


def find(rows, fh, fw, ch, frame, scale):
    want = []
    for j in range(fh):
        line = bytearray()
        for i in range(fw):
            px = frame[(j * fw + i) * ch:(j * fw + i + 1) * ch]
            rgb = [level(v) for v in px] if ch == 3 else [level(px[0])] * 3
            line += bytes(rgb) * scale
        want.append(bytes(line))
    for y in range(len(rows) - fh * scale + 1):
        x = rows[y].find(want[0])
        while x >= 0:
            if x % 3 == 0 and all(rows[y + j * scale + k][x:x + len(want[j])] == want[j]
                                  for j in range(fh) for k in range(scale)):
                return x // 3, y
            x = rows[y].find(want[0], x + 1)
    return None


def main():
    w, h, rows = decode(sys.argv[1])
    if sys.argv[2] == 'size':
        print(w, h)
        return
    if sys.argv[2] in ('stats', 'has'):
        seen = set()
        for r in rows:
            seen.update(r[i:i + 3] for i in range(0, len(r), 3))
        if sys.argv[2] == 'stats':
            white = sum(1 for r in rows for i in range(0, len(r), 3) if r[i:i + 3] == b'\xff\xff\xff')
            print(w, h, f'{1 - white / (w * h):.4f}', len(seen))
            return
        missing = [c for c in sys.argv[3:] if bytes.fromhex(c) not in seen]
        if missing:
            sys.exit(f'{sys.argv[1]}: no pixel of colour {" ".join(missing)}')
        return
    fh, fw, ch, frames = npy_frames(sys.argv[3])
    scale = int(sys.argv[4])
    for i in map(int, sys.argv[5:]):
        at = find(rows, fh, fw, ch, frames[i], scale)
        if not at:
            sys.exit(f'frame {i} of {sys.argv[3]} is not in the picture')
        print(f'frame {i} at {at[0]},{at[1]}')


main()
