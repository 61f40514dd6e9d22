#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""convlstm-mono in PyTorch: the peer navibench's GPU result is compared with.

The model of user/engine (refmodel.c), in Keras 2 semantics: 4 x ConvLSTM2D(40
filters, 3x3, same padding, return_sequences) with gates in the order i, f,
c, o, recurrent activation hard_sigmoid = clip(0.2 x + 0.5, 0, 1) (not
PyTorch's hardsigmoid, which is x / 6 + 0.5), activation tanh, bias on the
input convolution; each layer followed by BatchNormalization in inference
(per-channel scale and shift, epsilon 1e-3); then Conv3D(1 filter, 3x3x3,
same, sigmoid). Frames 40x40x1.

Written as a PyTorch user would write it fast: the input convolution of a
layer over every frame at once (one cuDNN call on B*T images), then per
time step the recurrent convolution and the gates. FP32 only: TF32 is off
for cuDNN and matmul, and cudnn.benchmark picks cuDNN's fastest algorithm.

  torch_peer.py time  [--batch 64] [--frames 15] [--json FILE]
  torch_peer.py input --output in.npy [--batch 2] [--frames 4]
  torch_peer.py check --weights w.safetensors --input in.npy --expect out.npy

"time" reports frames/s from the median of repeats, each between two
torch.cuda.synchronize() calls. "check" runs the weights navibench wrote
(navibench weights) on the input and compares with navibench predict's
output, |d| <= 1e-4 + 1e-3 |ref| (the tolerance of navibench's model tests).
"""
import argparse
import json
import statistics
import struct
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

LAYERS, FILTERS, SIZE, BN_EPS = 4, 40, 40, 1e-3
GFLOP_PER_FRAME = 1.298  # user/engine/result-schema.md: convolutions, FMA = 2


def hard_sigmoid(x):
    return torch.clamp(0.2 * x + 0.5, 0.0, 1.0)


def read_safetensors(path):
    """navibench weights' file: float32 tensors by Keras name and layout."""
    with open(path, "rb") as f:
        blob = f.read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n])
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        if t["dtype"] != "F32":
            sys.exit(f"torch_peer: {path}: {name} is {t['dtype']}, expected F32")
        s, e = t["data_offsets"]
        out[name] = np.frombuffer(blob[8 + n + s:8 + n + e], dtype="<f4").reshape(t["shape"])
    return out


def random_weights(seed):
    """Glorot-uniform-like kernels: speed does not depend on the values."""
    g = np.random.default_rng(seed)
    w, cin = {}, 1
    for layer in range(LAYERS):
        lim = np.sqrt(6.0 / (9 * cin + 9 * 4 * FILTERS))
        w[f"convlstm.{layer}.kernel"] = g.uniform(-lim, lim, (3, 3, cin, 4 * FILTERS))
        w[f"convlstm.{layer}.recurrent_kernel"] = g.uniform(-lim, lim, (3, 3, FILTERS, 4 * FILTERS))
        bias = np.zeros(4 * FILTERS)
        bias[FILTERS:2 * FILTERS] = 1.0
        w[f"convlstm.{layer}.bias"] = bias
        w[f"bn.{layer}.gamma"] = np.ones(FILTERS)
        w[f"bn.{layer}.beta"] = np.zeros(FILTERS)
        w[f"bn.{layer}.moving_mean"] = np.zeros(FILTERS)
        w[f"bn.{layer}.moving_variance"] = np.ones(FILTERS)
        cin = FILTERS
    lim = np.sqrt(6.0 / (27 * FILTERS + 27))
    w["head.kernel"] = g.uniform(-lim, lim, (3, 3, 3, FILTERS, 1))
    w["head.bias"] = np.zeros(1)
    return {k: v.astype(np.float32) for k, v in w.items()}


class ConvLSTMMono:
    """Keras layouts in, PyTorch layouts (OIHW, OIDHW) kept."""

    def __init__(self, w, device):
        def t(a):
            return torch.from_numpy(np.ascontiguousarray(a)).to(device)

        self.layers = []
        for layer in range(LAYERS):
            k = t(w[f"convlstm.{layer}.kernel"]).permute(3, 2, 0, 1).contiguous()
            r = t(w[f"convlstm.{layer}.recurrent_kernel"]).permute(3, 2, 0, 1).contiguous()
            b = t(w[f"convlstm.{layer}.bias"])
            gamma, beta = t(w[f"bn.{layer}.gamma"]), t(w[f"bn.{layer}.beta"])
            mean, var = t(w[f"bn.{layer}.moving_mean"]), t(w[f"bn.{layer}.moving_variance"])
            scale = gamma / torch.sqrt(var + BN_EPS)
            shift = beta - mean * scale
            self.layers.append((k, r, b, scale.view(1, -1, 1, 1), shift.view(1, -1, 1, 1)))
        self.head_k = t(w["head.kernel"]).permute(4, 3, 0, 1, 2).contiguous()
        self.head_b = t(w["head.bias"])

    def __call__(self, x):
        """x (B, T, H, W, 1) -> (B, T, H, W, 1), as navibench predict."""
        bsz, frames = x.shape[0], x.shape[1]
        seq = x.permute(0, 1, 4, 2, 3)  # (B, T, C, H, W)
        for k, r, b, scale, shift in self.layers:
            cin = seq.shape[2]
            zx = F.conv2d(seq.reshape(bsz * frames, cin, SIZE, SIZE), k, b, padding=1)
            zx = zx.view(bsz, frames, 4 * FILTERS, SIZE, SIZE)
            h = torch.zeros(bsz, FILTERS, SIZE, SIZE, device=x.device)
            c = torch.zeros_like(h)
            outs = []
            for step in range(frames):
                z = zx[:, step] + F.conv2d(h, r, padding=1)
                zi, zf, zc, zo = z.chunk(4, dim=1)
                c = hard_sigmoid(zf) * c + hard_sigmoid(zi) * torch.tanh(zc)
                h = hard_sigmoid(zo) * torch.tanh(c)
                outs.append(h * scale + shift)
            seq = torch.stack(outs, dim=1)
        y = F.conv3d(seq.permute(0, 2, 1, 3, 4), self.head_k, self.head_b, padding=1)
        return torch.sigmoid(y).permute(0, 2, 3, 4, 1)  # (B, 1, T, H, W) -> (B, T, H, W, 1)


def fp32_only():
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.benchmark = True


def cmd_time(a):
    if not torch.cuda.is_available():
        sys.exit("torch_peer: torch.cuda.is_available() is False: no GPU for the peer")
    fp32_only()
    dev = torch.device("cuda")
    model = ConvLSTMMono(random_weights(1), dev)
    x = torch.rand(a.batch, a.frames, SIZE, SIZE, 1, device=dev)
    times = []
    with torch.inference_mode():
        for _ in range(3):  # warm-up: cuDNN's algorithm search, allocations
            model(x)
        torch.cuda.synchronize()
        end = time.monotonic() + a.seconds
        while len(times) < a.min_repeats or (time.monotonic() < end and len(times) < 1000):
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            model(x)
            torch.cuda.synchronize()
            times.append(time.perf_counter() - t0)
    med = statistics.median(times)
    res = {
        "peer": "pytorch",
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "cudnn": torch.backends.cudnn.version(),
        "device": torch.cuda.get_device_name(0),
        "tf32": False,
        "batch": a.batch,
        "frames": a.frames,
        "repeats": len(times),
        "median_s": med,
        "min_s": min(times),
        "frames_per_s": a.batch * a.frames / med,
        "gflops": a.batch * a.frames * GFLOP_PER_FRAME / med,
    }
    print(f"pytorch {res['torch']} (CUDA {res['cuda']}, cuDNN {res['cudnn']}) on {res['device']}: "
          f"convlstm-mono batch {a.batch} x {a.frames} frames: {res['frames_per_s']:.1f} frames/s, "
          f"{res['gflops']:.1f} GFLOP/s (median of {len(times)})")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=2)


def cmd_input(a):
    g = np.random.default_rng(7)
    np.save(a.output, g.random((a.batch, a.frames, SIZE, SIZE, 1), dtype=np.float32))


def cmd_check(a):
    fp32_only()
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = ConvLSTMMono(read_safetensors(a.weights), dev)
    x = torch.from_numpy(np.load(a.input)).to(dev)
    with torch.inference_mode():
        got = model(x).double().cpu().numpy()
    ref = np.load(a.expect).astype(np.float64)
    if got.shape != ref.shape:
        sys.exit(f"torch_peer: shapes differ: peer {got.shape}, navibench {ref.shape}")
    d = np.abs(got - ref)
    ok = bool(np.all(d <= 1e-4 + 1e-3 * np.abs(ref)))
    print(f"peer vs navibench predict (CPU engine) on {dev}: max |d| {d.max():.2e}: "
          f"{'pass' if ok else 'FAIL'} (|d| <= 1e-4 + 1e-3 |ref|)")
    sys.exit(0 if ok else 1)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("time")
    t.add_argument("--batch", type=int, default=64)
    t.add_argument("--frames", type=int, default=15)
    t.add_argument("--seconds", type=float, default=5.0)
    t.add_argument("--min-repeats", type=int, default=5)
    t.add_argument("--json")
    i = sub.add_parser("input")
    i.add_argument("--output", required=True)
    i.add_argument("--batch", type=int, default=2)
    i.add_argument("--frames", type=int, default=4)
    c = sub.add_parser("check")
    c.add_argument("--weights", required=True)
    c.add_argument("--input", required=True)
    c.add_argument("--expect", required=True)
    a = p.parse_args()
    {"time": cmd_time, "input": cmd_input, "check": cmd_check}[a.cmd](a)


if __name__ == "__main__":
    main()
