# SPDX-License-Identifier: MIT
#
# The kernels and their launch wrappers (nbk.cpp, kernels/), included by
# hip/Makefile; every variable can be set on the command line.
#
#   make -C hip kernels          build/nbk.o: one fat object, -fPIC, every
#                                AMD target in OFFLOAD_ARCH
#   make -C hip kernels-cuda     build/nbk_cuda.o with nvcc (CUDA_ARCH), where
#                                nvcc exists
#   make -C hip nbk-flags        the hipcc flags, the nvcc flags (without
#   make -C hip nbk-nvflags      the targets) and the AMD targets, for
#   make -C hip nbk-targets      scripts/hip-resources
#
# Debian 12's ROCm 5.2 builds these targets; gfx1100 lacks its device
# library there, gfx942, gfx1150 and gfx1200 need a newer ROCm (README.md).
# --offload-arch is always explicit: without it hipcc asks
# rocm_agent_enumerator, which fails where there is no AMD GPU.

HIPCC	?= hipcc
NVCC	?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc))
B	?= build
OFFLOAD_ARCH ?= gfx1010 gfx1012 gfx1030 gfx1031 gfx906 gfx908 gfx90a gfx940
CUDA_ARCH ?= sm_80 sm_90

# A family's tile parameters other than nbk_layout.h's, for host and
# device alike: e.g. NBK_TUNE='-DNBK_TILE_RDNA=(8,8,8,4,0)' (hip/README.md)
NBK_TUNE ?=
NBK_HIPFLAGS := -std=c++17 -O3 -g -fPIC -Wall -Wextra -Werror $(NBK_TUNE)
# ptxas: a spill or any local (stack) memory is an error, as on AMD
NBK_NVCOMMON := -std=c++17 -O3 -g -Xcompiler -fPIC,-Wall,-Wextra $(NBK_TUNE) \
	-Xptxas --warn-on-spills,--warn-on-local-memory-usage,-Werror
NBK_NVFLAGS := $(NBK_NVCOMMON) \
	$(foreach a,$(CUDA_ARCH),-gencode arch=compute_$(a:sm_%=%),code=$(a)) \
	-gencode arch=compute_$(lastword $(CUDA_ARCH:sm_%=%)),code=compute_$(lastword $(CUDA_ARCH:sm_%=%))
NBK_SRC := nbk.cpp nbk.h $(wildcard kernels/*)

.PHONY: kernels kernels-cuda nbk-flags nbk-nvflags nbk-targets
kernels: $(B)/nbk.o
kernels-cuda: $(B)/nbk_cuda.o

$(B)/nbk.o: $(NBK_SRC)
	@mkdir -p $(B)
	$(HIPCC) $(NBK_HIPFLAGS) $(addprefix --offload-arch=,$(OFFLOAD_ARCH)) \
		-c -o $@ nbk.cpp

$(B)/nbk_cuda.o: $(NBK_SRC) cuda_compat.h
	@test -n "$(NVCC)" || { echo "kernels-cuda: no nvcc (PATH or /usr/local/cuda/bin)" >&2; exit 1; }
	@mkdir -p $(B)
	$(NVCC) -x cu $(NBK_NVFLAGS) -c -o $@ nbk.cpp

nbk-flags:
	@echo $(NBK_HIPFLAGS)

nbk-nvflags:
	@echo $(NBK_NVCOMMON)

nbk-targets:
	@echo $(OFFLOAD_ARCH)
