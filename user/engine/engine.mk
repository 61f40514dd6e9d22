# SPDX-License-Identifier: MIT
#
# What the ConvLSTM engine adds to user/Makefile's build: POSIX threads for
# the CPU backend. libm and json-c (the safetensors header) are already in
# LDLIBS there. No other library: see engine/README.md for why.
LDLIBS	+= -lpthread

# The instruction sets of the CPU backend's kernels (cpu_avx2.c,
# cpu_avx512.c), each file compiled with its own; cpu.c picks one at run
# time. The one place these flags are written: tests/fuzz/Makefile
# includes this file, the test scripts read them with engine_isa_flags
# (scripts/lib.sh).
AVX2_FLAGS	:= -mavx2 -mfma
AVX512_FLAGS	:= -mavx512f -mavx512vl -mavx512bw -mavx512dq -mfma
