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
# Sourced by tests/hip/run (TAP functions, $TOP and $tmp set), which calls
# section_plugin; or run alone: tests/hip/plugin.sh. Its files go to
# $tmp/plugin.

# plugin_field NAME FILE: the rest of the line "NAME ..." of the probe's output
plugin_field() {
	sed -n "s/^$1 //p" "$2" | head -n 1
}

# plugin_probe_run OUT [ENV...] -- ARGS: the probe under env, stdout in OUT,
# stderr in OUT.err; its status
plugin_probe_run() {
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

# plugin_make TARGET: make -C hip TARGET, reported; its status
plugin_make() {
	make -s -C "$TOP/hip" "$1" >"$pt/make-$1.out" 2>&1
	local st=$?
	tap_result "$st" "plugin: make -C hip $1" "$(tail -n 20 "$pt/make-$1.out")"
	return "$st"
}

# the probe and the fake runtime, which every part below uses
plugin_setup() {
	# the inner shell expands its arguments
	# shellcheck disable=SC2016
	check_cmd "plugin: the probe and the fake runtime build" bash -c '
		cc -std=gnu11 -O2 -Wall -Wextra -Werror -I"$1/user" \
			"$1/tests/hip/plugin_probe.c" -o "$2" -ldl &&
		mkdir -p "$(dirname "$3")" &&
		cc -std=gnu11 -O2 -Wall -Wextra -Werror -shared -fPIC \
			-D__HIP_PLATFORM_AMD__ -Wl,-soname,libamdhip64.so.5 \
			-Wl,--version-script="$1/tests/hip/fake_hip.map" \
			-o "$3" "$1/tests/hip/fake_hip.c"' _ "$TOP" "$probe" "$fake"
	[ -x "$probe" ] && [ -e "$fake" ]
}

# libnavibench_hip.so: built, its exports and imports, on the real runtime
# without a GPU and on the fake runtime
plugin_amd() {
	if ! command -v hipcc >/dev/null; then
		skipped "plugin: libnavibench_hip.so" "no hipcc (scripts/install-deps installs it)"
		return
	fi
	local exports imports faked missing hiplib real wrong st ms libdir two n
	plugin_make plugin-hip || return
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
		plugin_probe_run "$pt/nogpu" -- "$hip_plugin"
		st=$?
		grep -qx "abi 3 size [0-9]* ops_size [0-9]*" "$pt/nogpu" &&
			grep -qx "runtime HIP [0-9.]* (ROCm)" "$pt/nogpu" &&
			grep -qx "ops complete" "$pt/nogpu"
		tap_result $? "plugin: dlopen in $(plugin_field dlopen_ms "$pt/nogpu") ms; the descriptor is navibench's interface" \
			"$(cat "$pt/nogpu" "$pt/nogpu.err")"
		ms=$(plugin_field count_ms "$pt/nogpu")
		grep -qx "count -1" "$pt/nogpu" &&
			grep -qx "error hipGetDeviceCount: error 100 (hipErrorNoDevice): no HIP device is detected" "$pt/nogpu" &&
			awk -v ms="$ms" 'BEGIN { exit !(ms < 1000) }'
		tap_result $? "plugin: no GPU: device_count fails in $ms ms with error 100 (hipErrorNoDevice)" \
			"$(cat "$pt/nogpu")"
		[ "$st" -eq 0 ] && [ ! -s "$pt/nogpu.err" ]
		tap_result $? "plugin: no GPU: the probe exits 0 with nothing on stderr (dlclose in $(plugin_field dlclose_ms "$pt/nogpu") ms)" \
			"status $st; stderr: $(cat "$pt/nogpu.err")"
	fi

	# ---- the fake runtime ----
	libdir=$(dirname "$fake")
	plugin_probe_run "$pt/fake0" LD_LIBRARY_PATH="$libdir" -- "$hip_plugin"
	grep -qx "error hipGetDeviceCount: error 100 (hipErrorNoDevice): no HIP device is detected" "$pt/fake0"
	tap_result $? "plugin: fake runtime, no device: error 100" "$(cat "$pt/fake0")"

	plugin_probe_run "$pt/fake35" LD_LIBRARY_PATH="$libdir" NB_FAKE_HIP_ERROR=35 -- "$hip_plugin"
	grep -qx "error hipGetDeviceCount: error 35 (hipErrorInsufficientDriver): the GPU driver is missing or older than the runtime" "$pt/fake35"
	tap_result $? "plugin: fake runtime, no driver: error 35 said with what it means" "$(cat "$pt/fake35")"

	two="navi14;name=AMD Instinct MI210,arch=gfx90a:sramecc+:xnack-,pci=0001:c3:1f.0,cus=104,wave=64,mem=68702699520"
	plugin_probe_run "$pt/fake2" LD_LIBRARY_PATH="$libdir" NB_FAKE_HIP_DEVICES="$two" -- "$hip_plugin"
	grep -qx "count 2" "$pt/fake2" &&
		grep -qx "device 0 name=AMD Radeon RX 5500 XT arch=gfx1012 pci=0000:03:00.0 cus=22 wave=32 mem=8589934592 clock=1845000 memclock=875000 bus=128 lds=65536 threads=1024 runtime=50221153 driver=50221153" "$pt/fake2" &&
		grep -qx "device 1 name=AMD Instinct MI210 arch=gfx90a pci=0001:c3:1f.0 cus=104 wave=64 mem=68702699520 .*" "$pt/fake2" &&
		grep -qx "device 2 error HIP device 2: there are 2 (0 to 1)" "$pt/fake2"
	tap_result $? "plugin: fake runtime, two devices: device_info (arch without its features, PCI address, sizes, an ordinal past the end)" \
		"$(cat "$pt/fake2")"

	plugin_probe_run "$pt/ops" LD_LIBRARY_PATH="$libdir" NB_FAKE_HIP_DEVICES=navi14 -- "$hip_plugin" --ops
	st=$?
	grep -qx "describe gfx1012, 22 CUs, HIP 5.2" "$pt/ops" && grep -qx "threads 1" "$pt/ops"
	tap_result $? "plugin: fake runtime: open and describe (gfx1012, 22 CUs, HIP 5.2)" "$(cat "$pt/ops")"
	grep -qx "model_load ok" "$pt/ops" &&
		grep -qx "model_forward error nbk.cpp:[0-9]*: launch of nbk_step_kernel: error 801 (hipErrorNotSupported)" "$pt/ops"
	tap_result $? "plugin: fake runtime: model_load uploads; model_forward's failed launch is named with file and line" \
		"$(cat "$pt/ops")"
	grep -qx "cell h nan c nan" "$pt/ops" && grep -qx "fma_peak flops 0 lane nan" "$pt/ops" &&
		grep -qx "triad a nan" "$pt/ops" && grep -qx closed "$pt/ops"
	tap_result $? "plugin: fake runtime: a failed cell step, FMA peak or triad leaves NaN, not stale results" "$(cat "$pt/ops")"
	n=$(grep -c "^navibench: hip backend: \(cell_step\|fma_peak\|triad\): nbk.cpp:[0-9]*: launch of nbk_[a-z_]*: error 801 (hipErrorNotSupported)$" "$pt/ops.err")
	[ "$st" -eq 0 ] && [ "$n" -eq 3 ] && [ "$(wc -l <"$pt/ops.err")" -eq 3 ]
	tap_result $? "plugin: fake runtime: each failing operation says why once on stderr; the probe exits 0" \
		"status $st; stderr: $(cat "$pt/ops.err")"
}

# plugin.cpp over the fake runtime and nbk_host.c, against the reference
plugin_backend() {
	local pf
	# ---- the backend against the reference: plugin.cpp over the fake runtime
	# and nbk_host.c (nbk.h in plain loops), under ASan and UBSan ----
	pf=$pt/plugin_forward
	# the inner shell expands its arguments
	# shellcheck disable=SC2016
	check_cmd "plugin: plugin_forward builds (plugin.cpp, fake runtime, nbk_host.c; ASan, UBSan)" bash -c '
		set -e
		san="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
		inc="-D__HIP_PLATFORM_AMD__ -I$1/hip -I$1/user"
		mkdir -p "$2.o"
		g++ -std=c++20 -x c++ -Wall -Wextra -Werror -fno-exceptions -fno-rtti \
			$san $inc -c "$1/hip/plugin.cpp" -o "$2.o/plugin.o"
		for f in tests/hip/fake_hip.c tests/hip/nbk_host.c tests/hip/plugin_forward.c \
			user/engine/model.c user/engine/data.c user/engine/refmodel.c; do
			cc -std=gnu11 -Wall -Wextra -Werror $san $inc -c "$1/$f" \
				-o "$2.o/$(basename "$f" .c).o"
		done
		cc $san -o "$2" "$2.o"/*.o -lm' _ "$TOP" "$pf"
	# the streams' work runs when the host waits, oldest stream first, then
	# newest first: a missing wait between the layers' streams, for their
	# start or for their end shows in one of the two
	local order
	for order in oldest newest; do
		NB_FAKE_HIP_DEVICES=navi14 NB_FAKE_HIP_ORDER=$order "$pf" >"$pt/pf.out" 2>&1
		tap_relay "plugin forward, $order stream first" \
			"$pt/pf.out" "$?"
	done
}

plugin_cuda() {
	local exports st
	# ---- the CUDA plugin ----
	# where hip/Makefile looks for it
	if ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
		skipped "plugin: make -C hip plugin-cuda" "no nvcc"
	else
		plugin_make plugin-cuda || return
		exports=$(nm -D --defined-only "$cuda_plugin" 2>&1 | awk '{ print $NF }')
		[ "$exports" = navibench_plugin ]
		tap_result $? "plugin: the CUDA plugin exports navibench_plugin and nothing else" "$exports"
		plugin_probe_run "$pt/cuda" -- "$cuda_plugin"
		st=$?
		grep -qx "runtime CUDA [0-9.]*" "$pt/cuda" && grep -qx "ops complete" "$pt/cuda"
		tap_result $? "plugin: the CUDA plugin loads in $(plugin_field dlopen_ms "$pt/cuda") ms; the descriptor is navibench's interface" \
			"$(cat "$pt/cuda" "$pt/cuda.err")"
		if [ -e /dev/nvidia0 ]; then
			grep -q "^count [1-9]" "$pt/cuda" && grep -q "^device 0 .*arch=sm_[0-9]* " "$pt/cuda"
			tap_result $? "plugin: the CUDA plugin lists this machine's NVIDIA GPU" "$(cat "$pt/cuda")"
		else
			grep -qx "count -1" "$pt/cuda" &&
				grep -q "^error cudaGetDeviceCount: error \(35\|100\) (cudaError\(InsufficientDriver\|NoDevice\)): " "$pt/cuda" &&
				[ "$st" -eq 0 ] && [ ! -s "$pt/cuda.err" ]
			tap_result $? "plugin: no NVIDIA driver: the CUDA plugin's device_count says so (error 35 or 100); clean exit" \
				"status $st; $(cat "$pt/cuda" "$pt/cuda.err")"
		fi
	fi
}

section_plugin() {
	# this section's files, apart from the other sections'
	pt=$tmp/plugin
	mkdir -p "$pt"
	hip_plugin=$TOP/hip/libnavibench_hip.so
	cuda_plugin=$TOP/hip/libnavibench_cuda.so
	probe=$pt/plugin_probe
	fake=$pt/fake/libamdhip64.so.5
	plugin_setup || return
	plugin_amd
	plugin_backend
	plugin_cuda
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -uo pipefail
	# shellcheck disable=SC2034 # read by tap.sh's finish
	TAP_SUITE=hip
	# shellcheck source=scripts/lib.sh
	. "$(dirname "$0")/../../scripts/lib.sh"
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/nb-hip.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	section_plugin
	finish
fi
