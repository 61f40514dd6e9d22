#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""One training step of convlstm-mono in PyTorch, timed: the step that
navibench's convlstm-train test times (user/engine/train.h), for
scripts/bench-train to run beside it.

The model is user/engine/model.c's convlstm-mono: 4 x ConvLSTM2D(40
filters, 3x3, same padding, return_sequences), Keras 2 gates (i, f, c, o;
hard sigmoid 0.2 z + 0.5 clipped to [0, 1]; tanh; bias on the input
convolution; no peepholes), each followed by BatchNormalization in training
mode (epsilon 1e-3, statistics over batch, frames, height and width), then
Conv3D(1 filter, 3x3x3, same) with binary cross-entropy on its logits
against the next frames, mean over every output; backpropagation through
time by autograd; Adam (lr 1e-3, beta 0.9/0.999, epsilon 1e-7). The input
convolution of every frame of a layer is one batched conv2d, the
recurrent one a conv2d per frame: the same multiply-adds as navibench's
step (nb_flops_train), in the order PyTorch runs them best.

Prints one JSON object: the step times in seconds (after one warm-up
step), the loss of the first and last step, the threads and versions.
"""
import argparse
import json
import sys
import time

import torch
import torch.nn.functional as F


class ConvLSTM(torch.nn.Module):
    def __init__(self, cin, filters):
        super().__init__()
        self.f = filters
        self.x = torch.nn.Conv2d(cin, 4 * filters, 3, padding=1, bias=True)
        self.h = torch.nn.Conv2d(filters, 4 * filters, 3, padding=1, bias=False)
        self.bn = torch.nn.BatchNorm2d(filters, eps=1e-3, momentum=0.01)

    def forward(self, x):  # x: (B, T, C, H, W) -> (B, T, F, H, W)
        b, t, c, hh, ww = x.shape
        zx = self.x(x.reshape(b * t, c, hh, ww)).reshape(b, t, 4 * self.f, hh, ww)
        h = x.new_zeros(b, self.f, hh, ww)
        cell = x.new_zeros(b, self.f, hh, ww)
        out = []
        for k in range(t):
            z = zx[:, k] if k == 0 else zx[:, k] + self.h(h)
            zi, zf, zc, zo = torch.split(z, self.f, dim=1)
            i = torch.clamp(0.2 * zi + 0.5, 0, 1)
            f = torch.clamp(0.2 * zf + 0.5, 0, 1)
            o = torch.clamp(0.2 * zo + 0.5, 0, 1)
            cell = f * cell + i * torch.tanh(zc)
            h = o * torch.tanh(cell)
            out.append(h)
        y = torch.stack(out, 1)
        return self.bn(y.reshape(b * t, self.f, hh, ww)).reshape(b, t, self.f, hh, ww)


class Mono(torch.nn.Module):
    def __init__(self, layers=4, filters=40):
        super().__init__()
        cins = [1] + [filters] * (layers - 1)
        self.cells = torch.nn.ModuleList(ConvLSTM(c, filters) for c in cins)
        self.head = torch.nn.Conv3d(filters, 1, 3, padding=1)

    def forward(self, x):  # (B, T, 1, H, W) -> logits (B, 1, T, H, W)
        for cell in self.cells:
            x = cell(x)
        return self.head(x.permute(0, 2, 1, 3, 4))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--frames", type=int, default=10)
    ap.add_argument("--threads", type=int, required=True)
    ap.add_argument("--steps", type=int, default=5, help="timed steps after one warm-up")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()

    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    model = Mono()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.999), eps=1e-7)
    # sparse bright pixels, as the moving squares are: the step's time does
    # not depend on the values (no data-dependent work in either step)
    movie = (torch.rand(a.batch, a.frames + 1, 1, 40, 40) > 0.9).float()
    x = movie[:, :-1].contiguous()
    y = movie[:, 1:].permute(0, 2, 1, 3, 4).contiguous()

    def step():
        opt.zero_grad(set_to_none=True)
        loss = F.binary_cross_entropy_with_logits(model(x), y)
        loss.backward()
        opt.step()
        return loss.item()

    losses = [step()]
    times = []
    for _ in range(a.steps):
        t0 = time.perf_counter()
        losses.append(step())
        times.append(time.perf_counter() - t0)
    if not all(l == l and abs(l) < 1e30 for l in losses):
        print(f"bench-train.py: the loss is not finite: {losses}", file=sys.stderr)
        return 1
    json.dump({"times_s": times, "loss_first": losses[0], "loss_last": losses[-1],
               "threads": torch.get_num_threads(), "torch": torch.__version__,
               "batch": a.batch, "frames": a.frames}, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
