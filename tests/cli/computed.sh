# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# A result names the hardware that computed it (sourced by tests/cli/run,
# which gives nb, nbj, has, flat, jqt, check, $root, $tmp, $NB, $here,
# $build, $top): on the Navi 14 fixture with no GPU plugin, run --device 0
# exits 4 before any test with the reason and the fix, in text and as a
# navibench-error document; --device cpu runs the CPU; --device all
# reports the GPU as unable to compute and runs the CPU under its own name;
# no textfile ever shows the GPU's name beside CPU results; on a machine
# without a GPU, device 0 is the CPU and the first line says so. The JSON
# of run, run --device all and the error validate against their schemas.
# shellcheck disable=SC2016 # jq filters: jq's own $variables
# shellcheck disable=SC2154 # here, build, root, tmp, NB, rc come from tests/cli/run

cp_dir="$tmp/computed"
mkdir -p "$cp_dir/noplugins" "$cp_dir/ids/navibench" "$cp_dir/tf"
# The schemas' ids are navibench/NAME.schema.json. Debian's jsonschema
# resolves a relative $id against the URI of the schema that refers to it,
# so a reference two schemas deep (run-all, run, info, common) looks in
# navibench/navibench/: the link makes every depth the same folder.
ln -sf "$top"/user/schemas/*.schema.json "$cp_dir/ids/navibench/"
ln -sfn . "$cp_dir/ids/navibench/navibench"
noplug=(NAVIBENCH_PLUGIN_DIR="$cp_dir/noplugins")
# cp_schema NAME FILE: FILE validates against NAME.schema.json (out: why not)
cp_schema() {
	out=$(/usr/bin/python3 -m jsonschema --base-uri "file://$cp_dir/ids/" -i "$2" \
		"$top/user/schemas/$1.schema.json" 2>&1)
}
# cp_run FILE ENV... -- ARGS: navibench on the fake root, stdout into FILE,
# stderr into FILE.err; rc
cp_run() {
	local f=$1 envs=()
	shift
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	env NBSHIM_ROOT="$root" LD_PRELOAD="$build/drmshim.so" "${envs[@]}" "$NB" "$@" \
		>"$f" 2>"$f.err"
	rc=$?
}

"$here/mkroot" "$root" navi14
# ---- run --device 0 on a GPU with no GPU backend: exit 4, before any test ----
cp_run "$cp_dir/gpu.txt" "${noplug[@]}" -- run --device 0 --quick --tests fp32-peak --textfile "$cp_dir/tf"
out=$(cat "$cp_dir/gpu.txt" "$cp_dir/gpu.txt.err")
[[ $rc -eq 4 && ! -s $cp_dir/gpu.txt ]] &&
	has "navibench run: device 0 (AMD Radeon RX 5500 XT) cannot compute: no GPU backend: no GPU plugin found" &&
	has "navibench run: fix: install the GPU runtime" && has "--device cpu" &&
	! has "backend: cpu" && ! has "fp32-peak"
check "Navi 14, no plugin: run --device 0 exits 4 before any test, the reason and the fix"
[ -z "$(ls -A "$cp_dir/tf")" ]
check "... and --textfile writes nothing: no GPU's name beside CPU results"
cp_run "$cp_dir/gpu.json" "${noplug[@]}" -- run --device 0 --quick --tests fp32-peak --json
out=$(cat "$cp_dir/gpu.json")
[[ $rc -eq 4 ]] && jq -e '.schema == "navibench-error" and .exit_status == 4
	and .device.name == "AMD Radeon RX 5500 XT" and .device.pci == "0000:03:00.0"
	and (.reason | test("no GPU plugin found")) and (.fix | test("--device cpu"))' \
	"$cp_dir/gpu.json" >/dev/null
check "Navi 14, no plugin: run --json exits 4 with an error document, the reason and the fix"
cp_schema error "$cp_dir/gpu.json"; check "the error document validates against error.schema.json"
cp_run "$cp_dir/gpu2.txt" "${noplug[@]}" -- run --device 0 --quick --tests fp32-peak --json "$cp_dir/gpu2.json"
[[ $rc -eq 4 ]] && jq -e '.schema == "navibench-error"' "$cp_dir/gpu2.json" >/dev/null
check "Navi 14, no plugin: run --json FILE: exit 4, FILE holds the error document"

# ---- --device cpu runs the CPU, and says so ----
cp_run "$cp_dir/cpu.json" "${noplug[@]}" -- run --device cpu --quick --tests fp32-peak,mem-bandwidth --json
out=$(cat "$cp_dir/cpu.json")
[[ $rc -eq 0 ]] && jq -e '.device.kind == "cpu" and .device.backend == "cpu"
	and (.system.device_info.time | test("Z$"))' "$cp_dir/cpu.json" >/dev/null
check "Navi 14: run --device cpu runs the CPU, named as the CPU"
cp_schema run "$cp_dir/cpu.json"; check "run --json validates against run.schema.json"
jq '.device.name = "AMD Radeon RX 5500 XT" | del(.device.backend)' "$cp_dir/cpu.json" >"$cp_dir/bad.json"
! cp_schema run "$cp_dir/bad.json"; check "run.schema.json refuses a result without its backend"
nb "${noplug[@]}" -- run --device cpu --quick --tests fp32-peak
[[ $rc -eq 0 && $(head -n 1 <<<"$out") == "navibench run: on the host CPU, device 1 ("* ]]
check "run --device cpu (text): the first line says it runs on the host CPU"

# ---- --device all: the GPU reported as unable to compute, the CPU run ----
cp_run "$cp_dir/all.json" "${noplug[@]}" -- run --device all --quick --tests fp32-peak --json \
	--textfile "$cp_dir/tf"
out=$(cat "$cp_dir/all.json" "$cp_dir/all.json.err")
[[ $rc -eq 4 ]] && jq -e '.cannot_compute == 1 and (.runs | length) == 2
	and .runs[0].device_index == 0 and .runs[0].error == "device cannot compute"
	and (.runs[0].reason | test("no GPU plugin found")) and (.runs[0] | has("tests") | not)
	and .runs[1].device.kind == "cpu" and .runs[1].device.backend == "cpu"
	and (.aggregate[0].values.per_device | length) == 1' "$cp_dir/all.json" >/dev/null
check "run --device all, no plugin: the GPU reported as unable to compute (exit 4), the CPU run under its name"
cp_schema run-all "$cp_dir/all.json"; check "run --device all --json validates against run-all.schema.json"
out=$(cat "$cp_dir"/tf/*.prom)
grep -q '^navibench_run_valid{device="0"} 0$' "$cp_dir/tf/navibench-run-0.prom" &&
	! grep -q 'name="AMD Radeon RX 5500 XT".*backend="cpu"' "$cp_dir"/tf/*.prom &&
	! grep -q '^navibench_run_result.*device="0"' "$cp_dir/tf/navibench-run-0.prom" &&
	grep -q 'kind="cpu".*backend="cpu"' "$cp_dir/tf/navibench-run-1.prom"
check "run --device all --textfile: the GPU's file has valid 0 and no result; the CPU's names the CPU"
nb "${noplug[@]}" -- run --device all --quick --tests fp32-peak
[[ $rc -eq 4 ]] && flat | grep -qF "=== device 0 (AMD Radeon RX 5500 XT): cannot compute: no GPU backend" &&
	flat | grep -qF "NOT RUN: nothing here computes on this device" &&
	flat | grep -qF "1 device could not compute (NOT RUN above): exit 4"
check "run --device all (text): NOT RUN for the GPU, and why the exit status is 4"

# ---- a machine without a GPU: device 0 is the CPU, and the first line says so ----
"$here/mkroot" "$cp_dir/nogpu" no-amdgpu
out=$(env NBSHIM_ROOT="$cp_dir/nogpu" LD_PRELOAD="$build/drmshim.so" "${noplug[@]}" "$NB" \
	--device 0 --quick --tests fp32-peak 2>&1)
rc=$?
[[ $rc -eq 0 && $(head -n 1 <<<"$out") == "navibench run: on the host CPU, device 0 ("*"): no GPU backend (no GPU plugin found"* ]] &&
	has "backend: cpu ("
check "no GPU: navibench --device 0 runs the CPU, its first line says so"
"$here/mkroot" "$root" navi14
