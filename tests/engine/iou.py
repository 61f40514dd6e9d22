#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where a next-frame prediction puts the squares, without numpy:

  iou.py MOVIE PRED   prints the intersection over union, over every movie
                      and frame t < T - 1, of the pixels above 0.5 in the
                      prediction for t + 1 (PRED, (B, T, H, W, 1)) and in
                      the movie's frame t + 1 (MOVIE, (B, T, H, W, 1))
"""
import ast
import struct
import sys


def npy(path):
    data = open(path, 'rb').read()
    if data[:6] != b'\x93NUMPY':
        sys.exit(f'{path}: not an .npy file')
    hl = struct.unpack('<H', data[8:10])[0]
    hdr = ast.literal_eval(data[10:10 + hl].decode('latin1'))
    if hdr['descr'] != '<f4' or hdr['fortran_order']:
        sys.exit(f'{path}: expected little-endian float32, C order')
    shape = hdr['shape']
    n = 1
    for d in shape:
        n *= d
    return shape, struct.unpack(f'<{n}f', data[10 + hl:10 + hl + 4 * n])


def main():
    ms, movie = npy(sys.argv[1])
    ps, pred = npy(sys.argv[2])
    if ms != ps or len(ms) != 5:
        sys.exit(f'shapes {ms} and {ps}: expected the same (B, T, H, W, 1)')
    b, t = ms[0], ms[1]
    frame = ms[2] * ms[3] * ms[4]
    inter = union = 0
    for i in range(b):
        for f in range(t - 1):
            p0 = (i * t + f) * frame
            y0 = (i * t + f + 1) * frame
            for k in range(frame):
                p, y = pred[p0 + k] > 0.5, movie[y0 + k] > 0.5
                inter += p and y
                union += p or y
    print(f'{inter / union if union else 0:.4f}')


main()
