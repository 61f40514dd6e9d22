# SPDX-License-Identifier: MIT
#
# What the ConvLSTM engine adds to user/Makefile's build: POSIX threads for
# the CPU backend. libm and json-c (the safetensors header) are already in
# LDLIBS there. No other library: see engine/README.md for why.
LDLIBS	+= -lpthread
