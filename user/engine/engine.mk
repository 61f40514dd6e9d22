# SPDX-License-Identifier: MIT
#
# What the ConvLSTM engine adds to user/Makefile's build. The CPU backend
# uses POSIX threads and libm (already in LDLIBS there); json-c parses the
# safetensors header. No other library: see engine/README.md for why.
LDLIBS	+= -lpthread -lm
