#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The GPU plugin as navibench loads it: built, what it exports and imports,
# the descriptor, device_count where there is no GPU (the real runtime),
# and, through the fake runtime (fake_hip.c), device_info and every
# backend operation up to the first kernel launch; the backend's model,
# cell, peak and triad against the reference with nbk.h run on the host
# (nbk_host.c). The CUDA plugin too where nvcc exists.
#
# Sourced by tests/hip/run (TAP functions, $TOP and $tmp set), or run
# alone: tests/hip/plugin.sh

plugin_sh_alone=
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -uo pipefail
	TAP_SUITE=hip
	# shellcheck source=scripts/lib.sh
	. "$(dirname "$0")/../../scripts/lib.sh"
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/nb-hip.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	plugin_sh_alone=1
fi

hip_plugin=$TOP/hip/libnavibench_hip.so
cuda_plugin=$TOP/hip/libnavibench_cuda.so
probe=$tmp/plugin_probe
fake=$tmp/fake/libamdhip64.so.5

# field NAME FILE: the rest of the line "NAME ..." of the probe's output
field() {
	sed -n "s/^$1 //p" "$2" | head -n 1
}

# probe_run OUT [ENV...] -- ARGS: the probe under env, stdout in OUT,
# stderr in OUT.err; its status
probe_run() {
	local out=$1
	shift
	local envs=()
	while [ "$1" != -- ]; do
		envs+=("$1")
		shift
	done
	shift
	env "${envs[@]}" "$probe" "$@" >"$out" 2>"$out.err"
}

check_cmd "plugin: make -C hip plugin-hip" make -s -C "$TOP/hip" plugin-hip
# the inner shell expands its arguments
# shellcheck disable=SC2016
check_cmd "plugin: the probe and the fake runtime build" bash -c '
	cc -std=gnu11 -O2 -Wall -Wextra -Werror -I"$1/user/engine" \
		"$1/tests/hip/plugin_probe.c" -o "$2" -ldl &&
	mkdir -p "$(dirname "$3")" &&
	cc -std=gnu11 -O2 -Wall -Wextra -Werror -shared -fPIC \
		-D__HIP_PLATFORM_AMD__ -Wl,-soname,libamdhip64.so.5 \
		-Wl,--version-script="$1/tests/hip/fake_hip.map" \
		-o "$3" "$1/tests/hip/fake_hip.c"' _ "$TOP" "$probe" "$fake"

# ---- what the plugin exports and imports ----
exports=$(nm -D --defined-only "$hip_plugin" 2>&1 | awk '{ print $NF }')
[ "$exports" = navibench_plugin ]
tap_result $? "plugin: exports navibench_plugin and nothing else" "$exports"

# every runtime function the plugin imports is one the fake runtime has,
# with the real runtime's symbol version
imports=$(nm -D --undefined-only "$hip_plugin" | awk '$NF ~ /@hip_/ { print $NF }' | sort)
faked=$(nm -D --defined-only "$fake" | awk '$NF ~ /@@hip_/ { sub("@@", "@", $NF); print $NF }' | sort)
missing=$(comm -23 <(echo "$imports") <(echo "$faked"))
[ -n "$imports" ] && [ -z "$missing" ]
tap_result $? "plugin: its $(echo "$imports" | wc -l) libamdhip64 imports are all in the fake runtime" \
	"missing from tests/hip/fake_hip.c: $missing"
hiplib=$(ldd "$hip_plugin" | awk '$1 ~ /^libamdhip64/ { print $3 }')
real=$(objdump -T "$hiplib" 2>/dev/null |
	awk 'NF >= 2 && $(NF-1) ~ /^hip_/ { print $NF "@" $(NF-1) }' | sort)
if [ -n "$real" ]; then
	wrong=$(comm -23 <(echo "$imports") <(echo "$real"))
	[ -z "$wrong" ]
	tap_result $? "plugin: its imports exist in the real libamdhip64.so.5 with those versions" "$wrong"
else
	skipped "plugin: imports against the real libamdhip64.so.5" "not installed"
fi

# ---- the real runtime, no GPU ----
if [ -e /dev/kfd ]; then
	skipped "plugin: device_count without a GPU" "this machine has /dev/kfd (an AMD GPU)"
else
	probe_run "$tmp/nogpu" -- "$hip_plugin"
	st=$?
	grep -qx "abi 1 size [0-9]* ops_size [0-9]*" "$tmp/nogpu" &&
		grep -qx "runtime HIP [0-9.]* (ROCm)" "$tmp/nogpu" &&
		grep -qx "ops complete" "$tmp/nogpu"
	tap_result $? "plugin: dlopen in $(field dlopen_ms "$tmp/nogpu") ms; the descriptor is navibench's interface" \
		"$(cat "$tmp/nogpu" "$tmp/nogpu.err")"
	ms=$(field count_ms "$tmp/nogpu")
	grep -qx "count -1" "$tmp/nogpu" &&
		grep -qx "error hipGetDeviceCount: error 100 (hipErrorNoDevice): no HIP device is detected" "$tmp/nogpu" &&
		awk -v ms="$ms" 'BEGIN { exit !(ms < 1000) }'
	tap_result $? "plugin: no GPU: device_count fails in $ms ms with error 100 (hipErrorNoDevice)" \
		"$(cat "$tmp/nogpu")"
	[ "$st" -eq 0 ] && [ ! -s "$tmp/nogpu.err" ]
	tap_result $? "plugin: no GPU: the probe exits 0 with nothing on stderr (dlclose in $(field dlclose_ms "$tmp/nogpu") ms)" \
		"status $st; stderr: $(cat "$tmp/nogpu.err")"
fi

# ---- the fake runtime ----
libdir=$(dirname "$fake")
probe_run "$tmp/fake0" LD_LIBRARY_PATH="$libdir" -- "$hip_plugin"
grep -qx "error hipGetDeviceCount: error 100 (hipErrorNoDevice): no HIP device is detected" "$tmp/fake0"
tap_result $? "plugin: fake runtime, no device: error 100" "$(cat "$tmp/fake0")"

probe_run "$tmp/fake35" LD_LIBRARY_PATH="$libdir" NB_FAKE_HIP_ERROR=35 -- "$hip_plugin"
grep -qx "error hipGetDeviceCount: error 35 (hipErrorInsufficientDriver): the GPU driver is missing or older than the runtime" "$tmp/fake35"
tap_result $? "plugin: fake runtime, no driver: error 35 said with what it means" "$(cat "$tmp/fake35")"

two="navi14;name=AMD Instinct MI210,arch=gfx90a:sramecc+:xnack-,pci=0001:c3:1f.0,cus=104,wave=64,mem=68702699520"
probe_run "$tmp/fake2" LD_LIBRARY_PATH="$libdir" NB_FAKE_HIP_DEVICES="$two" -- "$hip_plugin"
grep -qx "count 2" "$tmp/fake2" &&
	grep -qx "device 0 name=AMD Radeon RX 5500 XT arch=gfx1012 pci=0000:03:00.0 cus=22 wave=32 mem=8589934592 clock=1845000 memclock=875000 bus=128 lds=65536 threads=1024 runtime=50221153 driver=50221153" "$tmp/fake2" &&
	grep -qx "device 1 name=AMD Instinct MI210 arch=gfx90a pci=0001:c3:1f.0 cus=104 wave=64 mem=68702699520 .*" "$tmp/fake2" &&
	grep -qx "device 2 error HIP device 2: there are 2 (0 to 1)" "$tmp/fake2"
tap_result $? "plugin: fake runtime, two devices: device_info (arch without its features, PCI address, sizes, an ordinal past the end)" \
	"$(cat "$tmp/fake2")"

probe_run "$tmp/ops" LD_LIBRARY_PATH="$libdir" NB_FAKE_HIP_DEVICES=navi14 -- "$hip_plugin" --ops
st=$?
grep -qx "describe gfx1012, 22 CUs, HIP 5.2" "$tmp/ops" && grep -qx "threads 1" "$tmp/ops"
tap_result $? "plugin: fake runtime: open and describe (gfx1012, 22 CUs, HIP 5.2)" "$(cat "$tmp/ops")"
grep -qx "model_load ok" "$tmp/ops" &&
	grep -qx "model_forward error nbk.cpp:[0-9]*: launch of nbk_step_kernel: error 801 (hipErrorNotSupported)" "$tmp/ops"
tap_result $? "plugin: fake runtime: model_load uploads; model_forward's failed launch is named with file and line" \
	"$(cat "$tmp/ops")"
grep -qx "cell h nan c nan" "$tmp/ops" && grep -qx "fma_peak flops 0 lane nan" "$tmp/ops" &&
	grep -qx "triad a nan" "$tmp/ops" && grep -qx closed "$tmp/ops"
tap_result $? "plugin: fake runtime: a failed cell step, FMA peak or triad leaves NaN, not stale results" "$(cat "$tmp/ops")"
n=$(grep -c "^navibench: hip backend: \(cell_step\|fma_peak\|triad\): nbk.cpp:[0-9]*: launch of nbk_[a-z_]*: error 801 (hipErrorNotSupported)$" "$tmp/ops.err")
[ "$st" -eq 0 ] && [ "$n" -eq 3 ] && [ "$(wc -l <"$tmp/ops.err")" -eq 3 ]
tap_result $? "plugin: fake runtime: each failing operation says why once on stderr; the probe exits 0" \
	"status $st; stderr: $(cat "$tmp/ops.err")"

# ---- the backend against the reference: plugin.cpp over the fake runtime
# and nbk_host.c (nbk.h in plain loops), under ASan and UBSan ----
pf=$tmp/plugin_forward
# the inner shell expands its arguments
# shellcheck disable=SC2016
check_cmd "plugin: plugin_forward builds (plugin.cpp, fake runtime, nbk_host.c; ASan, UBSan)" bash -c '
	set -e
	san="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
	inc="-D__HIP_PLATFORM_AMD__ -I$1/hip -I$1/user/engine"
	mkdir -p "$2.o"
	g++ -std=c++20 -x c++ -Wall -Wextra -Werror -fno-exceptions -fno-rtti \
		$san $inc -c "$1/hip/plugin.cpp" -o "$2.o/plugin.o"
	for f in tests/hip/fake_hip.c tests/hip/nbk_host.c tests/hip/plugin_forward.c \
		user/engine/model.c user/engine/data.c user/engine/ref.c; do
		cc -std=gnu11 -Wall -Wextra -Werror $san $inc -c "$1/$f" \
			-o "$2.o/$(basename "$f" .c).o"
	done
	cc $san -o "$2" "$2.o"/*.o -lm' _ "$TOP" "$pf"
NB_FAKE_HIP_DEVICES=navi14 "$pf" >"$tmp/pf.out" 2>&1
st=$?
p=$(grep -c '^ok ' "$tmp/pf.out")
f=$(grep -c '^not ok ' "$tmp/pf.out")
[ "$st" -eq 0 ] && [ "$f" -eq 0 ] && [ "$p" -gt 0 ]
tap_result $? "plugin: the backend's forward pass, cell, peak and triad match the reference ($p checks; $f failed, status $st)" \
	"$(grep -v '^ok ' "$tmp/pf.out")"

# ---- the CUDA plugin ----
# where hip/Makefile looks for it
if ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
	skipped "plugin: make -C hip plugin-cuda" "no nvcc"
else
	check_cmd "plugin: make -C hip plugin-cuda" make -s -C "$TOP/hip" plugin-cuda
	exports=$(nm -D --defined-only "$cuda_plugin" 2>&1 | awk '{ print $NF }')
	[ "$exports" = navibench_plugin ]
	tap_result $? "plugin: the CUDA plugin exports navibench_plugin and nothing else" "$exports"
	probe_run "$tmp/cuda" -- "$cuda_plugin"
	st=$?
	grep -qx "runtime CUDA [0-9.]*" "$tmp/cuda" && grep -qx "ops complete" "$tmp/cuda"
	tap_result $? "plugin: the CUDA plugin loads in $(field dlopen_ms "$tmp/cuda") ms; the descriptor is navibench's interface" \
		"$(cat "$tmp/cuda" "$tmp/cuda.err")"
	if [ -e /dev/nvidia0 ]; then
		grep -q "^count [1-9]" "$tmp/cuda" && grep -q "^device 0 .*arch=sm_[0-9]* " "$tmp/cuda"
		tap_result $? "plugin: the CUDA plugin lists this machine's NVIDIA GPU" "$(cat "$tmp/cuda")"
	else
		grep -qx "count -1" "$tmp/cuda" &&
			grep -q "^error cudaGetDeviceCount: error \(35\|100\) (cudaError\(InsufficientDriver\|NoDevice\)): " "$tmp/cuda" &&
			[ "$st" -eq 0 ] && [ ! -s "$tmp/cuda.err" ]
		tap_result $? "plugin: no NVIDIA driver: the CUDA plugin's device_count says so (error 35 or 100); clean exit" \
			"status $st; $(cat "$tmp/cuda" "$tmp/cuda.err")"
	fi
fi

if [ -n "$plugin_sh_alone" ]; then
	finish
fi
