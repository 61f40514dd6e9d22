# SPDX-License-Identifier: MIT
#
# The plugins navibench loads with dlopen (user/engine/plugin.h), included
# by hip/Makefile after kernels.mk, whose compilers, targets and kernel
# objects they use:
#
#   make -C hip plugin        libnavibench_hip.so (hipcc, every AMD target
#                             in OFFLOAD_ARCH), and libnavibench_cuda.so
#                             where nvcc exists
#   make -C hip plugin-hip    the AMD plugin only
#   make -C hip plugin-cuda   the NVIDIA plugin only
#
# A plugin is plugin.cpp (the backend) and the kernels' object, one shared
# object that exports navibench_plugin and nothing else (plugin.map).

ENGINE	:= ../user/engine
PLUGIN_SRC := plugin.cpp nbk.h $(ENGINE)/plugin.h $(ENGINE)/engine.h
PLUGIN_HIPFLAGS := -std=c++20 -O2 -g -fPIC -Wall -Wextra -Werror \
	-fno-exceptions -fno-rtti -I. -I../user
PLUGIN_NVFLAGS := -std=c++20 -O2 -g -Xcompiler -fPIC,-Wall,-Wextra,-Werror \
	-I. -I../user

.PHONY: plugin plugin-hip plugin-cuda
plugin: plugin-hip $(if $(NVCC),plugin-cuda)
plugin-hip: libnavibench_hip.so
plugin-cuda: libnavibench_cuda.so

# Host code only: compiled as C++, not once per target. The targets are
# still given, or hipcc asks rocm_agent_enumerator for them.
$(B)/plugin_hip.o: $(PLUGIN_SRC)
	@mkdir -p $(B)
	$(HIPCC) -x c++ -D__HIP_PLATFORM_AMD__ $(PLUGIN_HIPFLAGS) \
		$(addprefix --offload-arch=,$(OFFLOAD_ARCH)) -c -o $@ plugin.cpp

libnavibench_hip.so: $(B)/plugin_hip.o $(B)/nbk.o plugin.map
	$(HIPCC) -shared -fPIC $(addprefix --offload-arch=,$(OFFLOAD_ARCH)) \
		-Wl,--no-undefined -Wl,-soname,$@ -Wl,--version-script=plugin.map \
		-o $@ $(filter %.o,$^) -lamdhip64

# The CUDA runtime linked statically (nvcc's default): the plugin needs
# only the driver (libcuda.so.1), which the runtime opens when first used.
$(B)/plugin_cuda.o: $(PLUGIN_SRC) cuda_compat.h
	@test -n "$(NVCC)" || { echo "plugin-cuda: no nvcc (PATH or /usr/local/cuda/bin)" >&2; exit 1; }
	@mkdir -p $(B)
	$(NVCC) -x cu $(PLUGIN_NVFLAGS) -c -o $@ plugin.cpp

libnavibench_cuda.so: $(B)/plugin_cuda.o $(B)/nbk_cuda.o plugin.map
	$(NVCC) -shared -Xlinker --no-undefined,-soname,$@,--version-script=plugin.map \
		-o $@ $(filter %.o,$^)
