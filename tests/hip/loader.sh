#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# navibench's side of the GPU plugins: the loader (user/devices/plugin.c),
# the device list, run on a plugin's device, the validation of what was
# timed, and --device all. Through test plugins built from fake_plugin.c
# (devices from environment variables, a backend that computes on the host
# with navibench's CPU backend), the real HIP runtime of this machine (no
# AMD GPU: hipGetDeviceCount error 100), the drm-shim's Navi 14
# (tests/cli) for the PCI address matching, and, where they are built, the
# real plugin (hip/libnavibench_hip.so) on the fake libamdhip64.so.5
# (tests/hip/fake_hip.c).
#
# Sourced by tests/hip/run (TAP functions, $TOP and $tmp set), which calls
# section_loader after section_plugin (so that the real plugin is built);
# or run alone: tests/hip/loader.sh. Its files go to $tmp/loader.

# ld_plugin NAME [CFLAGS...] -- [LIBS...]: the test plugin in $ld_dir/NAME/
ld_plugin() {
	local name=$1 cflags=() libs=()
	shift
	while [ "$1" != -- ]; do cflags+=("$1"); shift; done
	shift
	libs=("$@")
	mkdir -p "$ld_dir/$name"
	cc "${ld_cflags[@]}" "${cflags[@]}" -c -o "$ld_obj/fake_$name.o" \
		"$TOP/tests/hip/fake_plugin.c" &&
	cc -shared -Wl,--no-undefined -o "$ld_dir/$name/libnavibench_hip.so" \
		"$ld_obj/fake_$name.o" "$ld_obj"/engine_*.o "${libs[@]}" -lpthread -lm
}

# The CPU backend, compiled into every test plugin.
# shellcheck disable=SC2046 # the ISA flags are words
ld_engine() {
	local e=$TOP/user/engine f
	mkdir -p "$ld_obj" &&
	for f in cpu pool cpu_generic model data; do
		cc "${ld_cflags[@]}" -c -o "$ld_obj/engine_$f.o" "$e/$f.c" || return
	done &&
	cc "${ld_cflags[@]}" $(engine_isa_flags avx2) -c -o "$ld_obj/engine_cpu_avx2.o" "$e/cpu_avx2.c" &&
	cc "${ld_cflags[@]}" $(engine_isa_flags avx512) \
		-c -o "$ld_obj/engine_cpu_avx512.o" "$e/cpu_avx512.c"
}

# A runtime the plugin links, removed after linking: present plugin,
# missing runtime. (This machine has the real libamdhip64.so.5, so the
# stand-in has a name of its own.)
ld_norun() {
	mkdir -p "$ld_dir/rt" &&
	echo 'int nbfake_runtime_version(void) { return 1; }' >"$ld_dir/rt/rt.c" &&
	cc -shared -fPIC -Wl,-soname,libnbfake_hip_runtime.so.5 \
		-o "$ld_dir/rt/libnbfake_hip_runtime.so.5" "$ld_dir/rt/rt.c" &&
	ln -sf libnbfake_hip_runtime.so.5 "$ld_dir/rt/libnbfake_hip_runtime.so" &&
	ld_plugin norun -DNBFAKE_RUNTIME -- -L"$ld_dir/rt" -lnbfake_hip_runtime &&
	rm -rf "$ld_dir/rt"
}

# ldrun [ENV=VALUE...] -- ARGS: navibench; out=stdout+stderr, rc
ldrun() {
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	out=$(env "${envs[@]}" "$ld_nb" "$@" 2>&1)
	rc=$?
}
# ldshim: the same on the drm-shim's Navi 14
ldshim() {
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	out=$(env NBSHIM_ROOT="$ld_root" LD_PRELOAD="$ld_shim" "${envs[@]}" "$ld_nb" "$@" 2>&1)
	rc=$?
}
# ldjq DESC FILTER FILE: the JSON file satisfies FILTER
ldjq() {
	if jq -e "$2" "$3" >/dev/null 2>&1; then ok "$1"; else not_ok "$1" "$(cat "$3")"; fi
}
# shellcheck disable=SC2319 # the status of the [[ ]] just before is the verdict
ldcheck() {
	local st=$?
	tap_result "$st" "$1" "${out:-}"
}

# ---- build ----
loader_build() {
	check_cmd "loader: navibench builds (-Werror)" nb_make_plain
	check_cmd "loader: the CPU backend for the test plugins" ld_engine
	check_cmd "loader: test plugin (devices from NBFAKE_DEVICES)" ld_plugin ok --
	check_cmd "loader: test plugin whose runtime is missing" ld_norun
	check_cmd "loader: drmshim.so and a Navi 14 root (tests/cli)" bash -c '
		cc -std=gnu11 -O2 -Wall -Wextra -Werror -Wno-format-truncation -shared -fPIC \
			$(pkg-config --cflags libdrm) -o "$1" "$2/tests/cli/drmshim.c" -ldl &&
		"$2/tests/cli/mkroot" "$3" navi14' _ "$ld_shim" "$TOP" "$ld_root"
	ld_realhip=
	if [ -e /usr/include/hip/hip_runtime_api.h ] &&
		ld_plugin realhip -DNBFAKE_REAL_HIP -- -lamdhip64 >"$ld_dir/realhip.log" 2>&1; then
		ld_realhip=1
		ok "loader: test plugin on the real HIP runtime (libamdhip64)"
	else
		skipped "loader: test plugin on the real HIP runtime" "libamdhip64-dev is not installed"
	fi
	mkdir -p "$ld_dir/empty" "$ld_dir/notplugin"
	echo 'int nb_not_a_plugin;' >"$ld_dir/notplugin/x.c"
	cc -shared -fPIC -o "$ld_dir/notplugin/libnavibench_hip.so" "$ld_dir/notplugin/x.c"
}

# ---- the loader's failure paths: one notice, the run falls back ----
loader_fallback() {
	# ld_fallback DESC EXPECTED [ENV...]: run --device 0 on this machine (no
	# GPU) says EXPECTED in its one notice line and runs on the CPU
	ld_fallback() {
		local desc=$1 want=$2
		shift 2
		ldrun "$@" -- run --device 0 --tests fp32-peak --quick
		local first
		first=$(head -n 1 <<<"$out")
		[[ $rc -eq 0 && $first == *"no GPU backend ("*"$want"*"): the CPU backend runs the suite on the host CPU" &&
			$out == *"backend: cpu ("* ]]
		ldcheck "loader: $desc: one notice, then the CPU"
	}
	ld_fallback "no plugin" "no GPU plugin found (libnavibench_hip.so, libnavibench_cuda.so; looked in $ld_dir/empty)" \
		NAVIBENCH_PLUGIN_DIR="$ld_dir/empty"
	ld_fallback "interface version mismatch" "libnavibench_hip.so has interface version 99, this navibench needs 2 to 3" \
		NAVIBENCH_PLUGIN_DIR="$ld_dir/ok" NBFAKE_ABI=99 NBFAKE_DEVICES="$ld_two"
	ld_fallback "runtime missing" "libnavibench_hip.so is present but its runtime is missing (libnbfake_hip_runtime.so.5: cannot open shared object file" \
		NAVIBENCH_PLUGIN_DIR="$ld_dir/norun" NBFAKE_DEVICES="$ld_two"
	ld_fallback "runtime error" "libnavibench_hip.so (fake runtime 1.0): hipGetDeviceCount: error 35 (hipErrorInsufficientDriver)" \
		NAVIBENCH_PLUGIN_DIR="$ld_dir/ok" NBFAKE_COUNT_ERROR="hipGetDeviceCount: error 35 (hipErrorInsufficientDriver)"
	ld_fallback "zero devices" "libnavibench_hip.so (fake runtime 1.0): the runtime reports no device" \
		NAVIBENCH_PLUGIN_DIR="$ld_dir/ok"
	ld_fallback "not a plugin" "libnavibench_hip.so is not a navibench plugin (no navibench_plugin symbol)" \
		NAVIBENCH_PLUGIN_DIR="$ld_dir/notplugin"
	if [ -n "$ld_realhip" ]; then
		ld_fallback "the real HIP runtime, no GPU" "hipGetDeviceCount: error 100 (hipErrorNoDevice)" \
			NAVIBENCH_PLUGIN_DIR="$ld_dir/realhip"
	else
		skipped "loader: the real HIP runtime, no GPU" "no test plugin on libamdhip64"
	fi
	if [ -e "$TOP/hip/libnavibench_hip.so" ]; then
		ldrun NAVIBENCH_PLUGIN_DIR="$TOP/hip" -- run --device 0 --tests fp32-peak --quick
		[[ $rc -eq 0 && $(head -n 1 <<<"$out") == *"no GPU backend (libnavibench_hip.so"*"100"*"): the CPU backend"* ]]
		ldcheck "loader: the real plugin on this machine (no GPU): error 100, then the CPU"
		ldrun -- run --device 0 --tests fp32-peak --quick
		[[ $rc -eq 0 && $(head -n 1 <<<"$out") == *"libnavibench_hip.so"*"100"* ]]
		ldcheck "loader: the real plugin found in the build tree (../hip/ of the executable)"
	else
		skipped "loader: the real plugin on this machine" "hip/libnavibench_hip.so not built"
	fi
	if [ -e "$TOP/hip/libnavibench_cuda.so" ]; then
		ldrun NAVIBENCH_PLUGIN_DIR="$TOP/hip" -- run --device 0 --tests fp32-peak --quick
		[[ $rc -eq 0 && $(head -n 1 <<<"$out") == *"libnavibench_cuda.so (CUDA "*"cudaGetDeviceCount: error "*"): the CPU backend"* ]]
		ldcheck "loader: the real CUDA plugin without an NVIDIA driver: the runtime's error, then the CPU"
	else
		skipped "loader: the real CUDA plugin on this machine" "hip/libnavibench_cuda.so not built (no nvcc)"
	fi
	ldrun NAVIBENCH_PLUGIN_DIR="$ld_dir/empty" -- run --device cpu --tests fp32-peak --quick
	[[ $rc -eq 0 && $(head -n 1 <<<"$out") == *"): the CPU backend runs the suite on the host CPU" &&
		$out != *"no GPU backend"* ]]
	ldcheck "loader: --device cpu asked for: no notice"
	ldrun NAVIBENCH_PLUGIN_DIR="$ld_dir/empty" -- list
	[[ $rc -eq 0 && $out != *"no GPU backend"* ]]
	ldcheck "loader: list on a machine without a GPU: no GPU-backend notice (it does not matter there)"
}

# ---- an amdgpu device (the drm-shim's Navi 14) ----
loader_amdgpu() {
	ldshim NAVIBENCH_PLUGIN_DIR="$ld_dir/empty" -- run --device 0 --tests fp32-peak --quick
	[[ $rc -eq 4 && $(head -n 1 <<<"$out") == "navibench run: device 0 (AMD Radeon RX 5500 XT) cannot compute: no GPU backend: no GPU plugin found ("* &&
		$out == *"fix: "*"--device cpu"* && $out != *"backend: cpu ("* ]]
	ldcheck "amdgpu without a plugin: run --device 0 exits 4 before any test, why and the fix"
	ldshim NAVIBENCH_PLUGIN_DIR="$ld_dir/empty" -- list
	[[ $rc -eq 0 && $out == *"navibench list: no GPU backend (no GPU plugin found"* ]]
	ldcheck "amdgpu without a plugin: list notes it"
	ldshim NAVIBENCH_PLUGIN_DIR="$ld_dir/empty" -- info --device 0
	[[ $rc -eq 0 && $out == *"GPU runtime"*"unavailable (no GPU plugin found"* ]]
	ldcheck "amdgpu without a plugin: info says why it has no GPU runtime"

	ld_env=(NAVIBENCH_PLUGIN_DIR="$ld_dir/ok" NBFAKE_DEVICES="$ld_two")
	out=$(env NBSHIM_ROOT="$ld_root" LD_PRELOAD="$ld_shim" "${ld_env[@]}" "$ld_nb" list --json \
		2>"$ld_dir/err" >"$ld_dir/list.json")
	ldjq "list: the plugin device at the Navi 14's PCI address is the amdgpu entry (hip_ordinal 0), the other is appended before the CPU" '
		(.devices | length) == 3
		and .devices[0].kind == "amdgpu" and .devices[0].pci == "0000:03:00.0"
		and .devices[0].hip_ordinal == 0 and .devices[0].render_node == "/dev/dri/renderD128"
		and .devices[0].gpu.arch == "gfx1012" and .devices[0].gpu.compute_units == 22
		and .devices[0].gpu.memory_bytes == 4294967296 and .devices[0].gpu.clock_mhz == 1845
		and .devices[1].kind == "hip" and .devices[1].name == "Fake H"
		and .devices[1].hip_ordinal == 1 and .devices[1].gpu.arch == "sm_90"
		and .devices[2].kind == "cpu" and (.devices[2].gpu == null)
		and (.notes | all(test("GPU backend") | not))' "$ld_dir/list.json"
	ldshim "${ld_env[@]}" -- list
	# the GPU column wraps at 80 columns: its words, in order
	flat=$(tr -s ' \n' '  ' <<<"$out")
	[[ $rc -eq 0 && $flat == *"0 amdgpu 0000:03:00.0"*"fake 0: gfx1012, 22 CUs, 4.00 GiB, 1845/875 MHz"* &&
		$flat == *"1 hip 0000:41:00.0 Fake H"*"fake 1: sm_90, 132 CUs"* && $flat == *"2 cpu"* ]]
	ldcheck "list (text): name, arch, CUs, memory and clocks of the plugin's devices"
	out=$(env NBSHIM_ROOT="$ld_root" LD_PRELOAD="$ld_shim" "${ld_env[@]}" "$ld_nb" info --device 0 --json \
		2>"$ld_dir/err" >"$ld_dir/info0.json")
	ldjq "info --device 0: libdrm_amdgpu's view and the runtime's (gpu_runtime)" '
		.kind == "amdgpu" and .asic.gfx_target == "gfx1012"
		and .gpu_runtime.plugin == "fake" and .gpu_runtime.runtime == "fake runtime 1.0"
		and .gpu_runtime.runtime_version == 50221153 and .gpu_runtime.driver_version == 60100000
		and .gpu_runtime.ordinal == 0 and .gpu_runtime.arch == "gfx1012"
		and .gpu_runtime.wave_size == 32 and .gpu_runtime.lds_bytes == 65536' "$ld_dir/info0.json"
	ldshim "${ld_env[@]}" -- info --device 1
	[[ $rc -eq 0 && $out == *"kind                     hip"* && $out == *"GPU runtime:"* &&
		$out == *"arch                   sm_90"* && $out == *"compute units          132"* ]]
	ldcheck "info --device 1: a plugin-only device, what its runtime reports"
}

# ---- a failed validation located: layer, frame, element (engine/diverge.c) ----
loader_located() {
	ldshim "${ld_env[@]}" NBFAKE_WRONG_LAYER=2,1,4,6,9 -- "${ld_run[@]}" --device 0 --json "$ld_dir/layer.json"
	flat=$(tr -s ' \n' '  ' <<<"$out")	# text wraps at 80 columns
	[[ $rc -eq 1 && $flat == *"convlstm-mono: first divergence: ConvLSTM layer 2, frame 1, item 0, element (y 4, x 6, channel 9): "*"a jump: one faulty step, not rounding"* ]]
	ldcheck "a wrong value in one layer's output: the text names its layer, frame and element"
	ldjq "... and so does the JSON result's validation (first_divergence, layer_max_abs_error)" '
		.tests[] | select(.name == "convlstm-mono") | .validation
		| .pass == false and (.diagnosis | startswith("first divergence: ConvLSTM layer 2, frame 1"))
		  and .first_divergence.layer == 2 and .first_divergence.layer_kind == "convlstm"
		  and .first_divergence.frame == 1 and .first_divergence.item == 0
		  and .first_divergence.y == 4 and .first_divergence.x == 6 and .first_divergence.channel == 9
		  and .first_divergence.kind == "jump" and (.first_divergence.value - .first_divergence.reference | fabs) > 0.4
		  and .first_divergence.tolerance > 0 and .first_divergence.max_abs_error_before < 1e-4
		  and (.layer_max_abs_error | length == 5) and .layer_max_abs_error[0] < 1e-4
		  and .layer_max_abs_error[2] >= 0.4' "$ld_dir/layer.json"
	ldshim "${ld_env[@]}" NBFAKE_ABI=2 NBFAKE_WRONG_FRAMES=3 -- "${ld_run[@]}" --device 0 --json "$ld_dir/abi2.json"
	flat=$(tr -s ' \n' '  ' <<<"$out")
	[[ $rc -eq 1 && $out == *"backend: fake ("* && $flat == *"convlstm-mono: the fake backend gives no per-layer outputs (a plugin of interface version 2: rebuild it)"* ]]
	ldcheck "a plugin of interface version 2 still loads and runs; its failure says it cannot be located"
	ldjq "... its validation: a diagnosis, first_divergence null" '
		.tests[] | select(.name == "convlstm-mono") | .validation
		| .pass == false and .first_divergence == null and (.diagnosis | test("interface version 2"))' \
		"$ld_dir/abi2.json"
}

# ---- scripts/gpu-check --dry-run: its build, steps and summary on the test plugin ----
loader_gpu_check() {
	local gc=$ld_dir/gpu-check start=$SECONDS
	out=$(NBFAKE_DEVICES="$ld_two" "$TOP/scripts/gpu-check" --dry-run --plugin-dir "$ld_dir/ok" \
		--out "$gc" 2>&1)
	rc=$?
	[[ $rc -eq 0 && $out == *"navibench run (run): backend fake, valid True"* &&
		$out == *"convlstm-mono "*" ok "* && $out == *"every navibench result valid: yes"* &&
		$out == *"gpu-check: done: every step ran, every result valid"* &&
		-s $gc/peer-w.safetensors && -s $gc/peer-cpu.npy ]]
	ldcheck "gpu-check --dry-run: build, list, info, every step, the summary; exit 0 ($((SECONDS - start)) s)"
	start=$SECONDS
	out=$(NBFAKE_DEVICES="$ld_two" NBFAKE_WRONG_LAYER=1,2,7,3,5 "$TOP/scripts/gpu-check" --dry-run \
		--plugin-dir "$ld_dir/ok" --out "$gc" 2>&1)
	rc=$?
	[[ $rc -eq 1 && $out == *"convlstm-mono "*" INVALID "* &&
		$out == *"first divergence: ConvLSTM layer 1, frame 2, item 0, element (y 7, x 3, channel 5): "*"a jump: one faulty step, not rounding"* &&
		$out == *"largest |d| per layer (the head last): "* && $out == *"every navibench result valid: NO"* ]]
	ldcheck "gpu-check --dry-run, a wrong value planted in layer 1: the summary names its layer, frame and element; exit 1 ($((SECONDS - start)) s)"
	grep -F "first divergence" <<<"$out" | head -n 1 | sed 's/^/# /'
}

# ---- run on a plugin's device; the timed output validated ----
loader_run() {
	ld_run=(run --tests "convlstm-mono,convlstm-gates" --quick --batch 2 --frames 4)
	ldshim "${ld_env[@]}" -- "${ld_run[@]}" --device 0 --json "$ld_dir/run0.json"
	[[ $rc -eq 0 && $(head -n 1 <<<"$out") == *"device 0 (AMD Radeon RX 5500 XT): runs on the GPU through the fake plugin"* &&
		$out == *"backend: fake ("* ]]
	ldcheck "run --device 0: the amdgpu device runs through its plugin"
	ldjq "run --device 0: the timed output (items 0 and B-1, all frames) checked against the CPU backend, and said" '
		.valid and .device.backend == "fake"
		and (.tests[] | select(.name == "convlstm-mono") | .validation
		     | .pass and .timed_output.pass and .timed_output.max_abs_error <= 1e-4
		       and (.timed_output.input | test("items 0 and 1 at 4 frames, against the CPU backend"))
		       and (.input | test("against the reference; and the last timed repeat")))
		and (.tests[] | select(.name == "convlstm-gates") | .validation.timed_output == null)' \
		"$ld_dir/run0.json"
	ldshim "${ld_env[@]}" NBFAKE_WRONG_FRAMES=4 -- "${ld_run[@]}" --device 0 --json "$ld_dir/wrong.json"
	[[ $rc -eq 1 && $out == *"convlstm-mono: INVALID"* && $out == *"Result: INVALID"* ]]
	ldcheck "a backend whose timed output is wrong: INVALID, exit 1"
	ldjq "... flagged by the timed-output check alone (the 3-frame run was right)" '
		(.valid | not) and (.tests[] | select(.name == "convlstm-mono") | .status == "INVALID"
		 and .validation.timed_output.pass == false and .validation.timed_output.max_abs_error >= 0.4)' \
		"$ld_dir/wrong.json"
	loader_located
	ldrun NAVIBENCH_PLUGIN_DIR="$ld_dir/empty" -- run --device cpu --tests convlstm-mono --quick --batch 2 --frames 4 --json "$ld_dir/cpu.json"
	ldjq "on the CPU backend no timed-output check (the reference validation is its check)" '
		.valid and (.tests[0].validation.timed_output == null)' "$ld_dir/cpu.json"
}

# ---- predict on a plugin's device ----
loader_predict() {
	# ld_movie FILE: a (1, 3, 40, 40, 1) float32 .npy of uniform values
	ld_movie() {
		python3 - "$1" <<-'EOF'
	import random, struct, sys
	h = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 40, 40, 1), }"
	h += " " * (63 - (10 + len(h)) % 64) + "\n"
	r = random.Random(5)
	with open(sys.argv[1], "wb") as f:
	    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode())
	    f.write(struct.pack("<4800f", *[r.random() for _ in range(4800)]))
	EOF
	}
	ld_predict=(predict --model convlstm-mono --input "$ld_dir/movie.npy")
	if ld_movie "$ld_dir/movie.npy"; then
		ldshim "${ld_env[@]}" -- "${ld_predict[@]}" --device cpu --output "$ld_dir/p-cpu.npy"
		ldshim "${ld_env[@]}" -- "${ld_predict[@]}" --device 1 --output "$ld_dir/p-gpu.npy"
		[[ $rc -eq 0 && -z $out ]] && cmp -s "$ld_dir/p-cpu.npy" "$ld_dir/p-gpu.npy"
		ldcheck "predict --device 1: through the plugin's backend, the CPU backend's answer"
		ldshim "${ld_env[@]}" NBFAKE_WRONG_FRAMES=3 -- "${ld_predict[@]}" --device 1 --output "$ld_dir/p-bad.npy"
		[[ $rc -eq 0 ]] && ! cmp -s "$ld_dir/p-cpu.npy" "$ld_dir/p-bad.npy"
		ldcheck "predict --device 1: it is the plugin that computes (a wrong one shows)"
		ldshim NAVIBENCH_PLUGIN_DIR="$ld_dir/empty" -- "${ld_predict[@]}" --device 0 --output "$ld_dir/p-fb.npy"
		[[ $rc -eq 0 && $out == "navibench predict: device 0 (AMD Radeon RX 5500 XT): no GPU backend (no GPU plugin found"*"): running on the CPU" ]] &&
			cmp -s "$ld_dir/p-cpu.npy" "$ld_dir/p-fb.npy"
		ldcheck "predict --device 0 without a plugin: one notice, the CPU's answer"
	else
		not_ok "predict: a test movie (.npy)"
	fi
}

# ---- --device all ----
loader_all() {
	ldshim "${ld_env[@]}" -- run --device all --tests convlstm-mono,fp32-peak --quick --batch 2 --frames 3 --json "$ld_dir/all.json"
	# text wraps at 80 columns: the words, in order
	flat=$(tr -s ' \n' '  ' <<<"$out")
	[[ $rc -eq 0 && $flat == *"2 GPUs at once, one host thread each: device 0 (AMD Radeon RX 5500 XT), device 1 (Fake H)"* &&
		$out == *"=== device 0"* && $out == *"=== device 1"* && $out == *"=== all 2 devices together"* ]]
	ldcheck "run --device all: both devices, each reported, then the aggregate"
	ldjq "run --device all (JSON): two runs, each on its own device, the aggregate their sum" '
		.schema == "navibench-run-all" and .schema_version == 1 and .valid and .complete
		and (.runs | length) == 2
		and ([.runs[].device.index] == [0, 1]) and ([.runs[].device.backend] == ["fake", "fake"])
		and (.runs | all(.schema == "navibench-run" and .valid))
		and (.aggregate | length) == 2
		and (.aggregate[] | select(.name == "convlstm-mono")
		     | .valid and (.values.per_device | length) == 2
		       and ((.value - (.values.per_device | add)) | fabs) < 1e-9)
		and (.aggregate_method | test("summed"))' "$ld_dir/all.json"
	ldshim "${ld_env[@]}" NBFAKE_WRONG_FRAMES=3 -- run --device all --tests convlstm-mono --quick --batch 2 --frames 3 --json "$ld_dir/allbad.json"
	[[ $rc -eq 1 ]]
	ldcheck "run --device all: an invalid device makes the run invalid (exit 1)"
	ldjq "... and its aggregate null" '(.valid | not) and .aggregate[0].value == null' "$ld_dir/allbad.json"
	ldrun NAVIBENCH_PLUGIN_DIR="$ld_dir/empty" -- run --device all --tests fp32-peak --quick --json "$ld_dir/allcpu.json"
	flat=$(tr -s ' \n' '  ' <<<"$out")
	[[ $rc -eq 0 && $flat == *"navibench run --device all: no GPU with a backend (no GPU plugin found"*"): the CPU only"* ]]
	ldcheck "run --device all without a GPU: the CPU only, and it says so"
	ldjq "... one run, on the CPU" '(.runs | length) == 1 and .runs[0].device.kind == "cpu"
		and (.note | test("the CPU only"))' "$ld_dir/allcpu.json"
}

# ---- the real plugin on the fake HIP runtime (tests/hip/fake_hip.c) ----
loader_real() {
	if [ -e "$TOP/hip/libnavibench_hip.so" ] && [ -e "$TOP/tests/hip/fake_hip.c" ]; then
		mkdir -p "$ld_dir/fakehip"
		check_cmd "real plugin: the fake libamdhip64.so.5 builds" \
			cc -std=gnu11 -O2 -Wall -Wextra -shared -fPIC -D__HIP_PLATFORM_AMD__ \
			-Wl,-soname,libamdhip64.so.5 -Wl,--version-script="$TOP/tests/hip/fake_hip.map" \
			-o "$ld_dir/fakehip/libamdhip64.so.5" "$TOP/tests/hip/fake_hip.c"
		out=$(env NBSHIM_ROOT="$ld_root" LD_PRELOAD="$ld_shim" LD_LIBRARY_PATH="$ld_dir/fakehip" \
			NB_FAKE_HIP_DEVICES="navi14" NAVIBENCH_PLUGIN_DIR="$TOP/hip" "$ld_nb" list --json \
			2>"$ld_dir/err" >"$ld_dir/real.json")
		ldjq "real plugin: its Navi 14 is matched to the amdgpu entry by PCI address" '
			(.devices | length) == 2 and .devices[0].kind == "amdgpu"
			and .devices[0].hip_ordinal == 0 and .devices[0].gpu.plugin == "hip"
			and (.devices[0].gpu.arch | startswith("gfx1012"))' "$ld_dir/real.json"
	else
		skipped "real plugin on the fake HIP runtime" "hip/libnavibench_hip.so or tests/hip/fake_hip.c missing"
	fi
}

# The loader's cost at startup: `navibench list` with no plugin, with a
# test plugin, and with the real plugin on the real HIP runtime (what a
# machine with ROCm and no AMD GPU pays on every command).
ld_cost() {
	local dir=$1 t0 t1 times=()
	for _ in $(seq 21); do
		t0=$(date +%s%N)
		NAVIBENCH_PLUGIN_DIR=$dir "$ld_nb" list >/dev/null 2>&1
		t1=$(date +%s%N)
		times+=($(( (t1 - t0) / 1000 )))
	done
	printf '%s\n' "${times[@]}" | sort -n | sed -n 11p
}

loader_cost_report() {
	local real=
	if [ -e "$TOP/hip/libnavibench_hip.so" ]; then
		real="; the real plugin (HIP runtime, error 100) $(ld_cost "$TOP/hip") us"
	fi
	echo "# loader cost, median of 21 runs of 'navibench list': no plugin $(ld_cost "$ld_dir/empty") us;" \
		"test plugin, 2 devices $(NBFAKE_DEVICES="$ld_two" ld_cost "$ld_dir/ok") us$real"
}

section_loader() {
	ld_nb=$TOP/user/navibench
	ld_dir=$tmp/loader
	ld_obj=$ld_dir/obj
	ld_shim=$ld_dir/drmshim.so
	ld_root=$ld_dir/root
	ld_cflags=(-std=gnu11 -O2 -g -Wall -Wextra -Werror -fPIC -fvisibility=hidden
		-I"$TOP/user")
	# Navi 14 at the drm-shim's address, and a GPU no DRM device matches
	ld_two="AMD Radeon RX 5500 XT,gfx1012,0000:03:00.0,22,4096;Fake H,sm_90,0000:41:00.0,132,144000"
	mkdir -p "$ld_dir"
	loader_build
	loader_fallback
	loader_amdgpu
	loader_run
	loader_gpu_check
	loader_predict
	loader_all
	loader_real
	loader_cost_report
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -uo pipefail
	# shellcheck disable=SC2034 # read by tap.sh's finish
	TAP_SUITE=hip
	# shellcheck source=scripts/lib.sh
	. "$(dirname "$0")/../../scripts/lib.sh"
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/nb-hip.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	section_loader
	finish
fi
