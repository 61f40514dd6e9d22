# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# Telemetry during `navibench run` on the host (sourced by tests/cli/run,
# which gives nb, nbj, has, jqt, check, $root, $tmp, $NB): the CPU device as
# this machine shows it, the CPU device on a fake sysfs with cpufreq, a
# k10temp sensor and a RAPL counter that wraps (mkroot cpu: 25 W, 61.5 C,
# 3000 and 3400 MHz), and the Navi 14 fixture through libdrm_amdgpu with
# its gpu_metrics throttle status. The module's history is read in the VM
# (tests/vm-navibench), where a simulated GPU samples for real.
# shellcheck disable=SC2016 # jq filters: jq's own $variables
# shellcheck disable=SC2154 # here, build, root, tmp, NB, rc come from tests/cli/run

quick=(run --quick --tests 'fp32-peak,mem-bandwidth')

# ---- the real host ----
nbj "${quick[@]}" --device cpu --json
jqt "host: every test carries telemetry from the sampler thread" \
	'.schema_version == 3 and all(.tests[]; .telemetry.method == "sampler"
	 and .telemetry.interval_s == 0.1 and .telemetry.samples >= 2
	 and (.telemetry.window_s | . > 0.2))'
jqt "host: the series has a time per sample, increasing, from the run's start" \
	'all(.tests[].telemetry.series; (.t_s | length) >= 3 and (.t_s[0] >= 0)
	 and ([.t_s as $t | range(1; $t | length) | $t[.] > $t[. - 1]] | all)
	 and (.clock_mhz | length) == (.t_s | length)
	 and (.temperature_c | length) == (.t_s | length)
	 and (.power_w | length) == (.t_s | length))'
jqt "host: the second test's series starts after the first's window" \
	'.tests[1].telemetry.series.t_s[-1] > .tests[0].telemetry.series.t_s[-1]'
jqt "host: a reading is there, or missing says why (never 0)" \
	'all(.tests[].telemetry; (.clock_mhz != null or (.missing | test("clock")))
	 and (.temperature_c != null or (.missing | test("temperature: ")))
	 and (.power_w != null or (.missing | test("power: ")))
	 and (.clock_mhz == null or .clock_mhz.min > 0))'
jqt "host: the sampler costs under 2% of one CPU (its thread's CPU time)" \
	'all(.tests[].telemetry; (.sampler_cpu_s | type == "number")
	 and .sampler_cpu_s / .window_s < 0.02)'
jq -r '.tests[] | "# host \(.name): \(.telemetry.source); \(.telemetry.samples) samples in \(.telemetry.window_s * 1000 | floor) ms; sampler CPU \(.telemetry.sampler_cpu_s * 1e6 | floor) us; missing: \(.telemetry.missing)"' <<<"$out"

nb -- "${quick[@]}" --device cpu
[[ $rc -eq 0 ]] && has "Telemetry during the timed repeats (min/avg/max):" &&
	grep -qE '^  fp32-peak +[0-9]+/[0-9]+/[0-9]+ ' <<<"$out"
check "host: text shows each test's telemetry (clock min/avg/max)"

nbj run --quick --tests fp32-peak --device cpu --telemetry-interval 20 --json
jqt "--telemetry-interval 20: five times the samples of 100 ms" \
	'.tests[0].telemetry.interval_s == 0.02 and .tests[0].telemetry.samples >= 12'
nbj run --quick --tests fp32-peak --device cpu --telemetry-interval 0 --json
jqt "--telemetry-interval 0: telemetry off, null" '.tests[0].telemetry == null'
nb -- run --quick --tests fp32-peak --device cpu --telemetry-interval 0
[[ $rc -eq 0 ]] && has "Telemetry: telemetry off (--telemetry-interval 0)"
check "--telemetry-interval 0: text says telemetry is off"
for bad in 5 -1 60001 x; do
	nb -- run --quick --tests fp32-peak --device cpu --telemetry-interval "$bad"
	[[ $rc -eq 2 ]] && has "--telemetry-interval"
	check "--telemetry-interval $bad: exit 2, the option named"
done

# ---- the CPU on a fake sysfs: cpufreq, k10temp, RAPL ----
cpuroot="$tmp/cpuroot"
"$here/mkroot" "$cpuroot" no-amdgpu cpu
out=$(env NBSHIM_ROOT="$cpuroot" LD_PRELOAD="$build/drmshim.so" "$NB" "${quick[@]}" \
	--device cpu --json 2>"$tmp/err")
jqt "RAPL: the source names cpufreq, k10temp and RAPL" \
	'all(.tests[].telemetry; .source == "clock: cpufreq; temperature: hwmon k10temp; power: RAPL package energy" and .missing == "")'
jqt "cpufreq: the clock is the CPUs' mean, 3200 MHz" \
	'all(.tests[].telemetry.clock_mhz; .min == 3200 and .max == 3200)'
jqt "k10temp: 61.5 C, the nvme sensor beside it not taken" \
	'all(.tests[].telemetry.temperature_c; .min == 61.5 and .max == 61.5)'
jqt "RAPL: 25 W from the counter's deltas, across its wraps every 0.4 s (1%)" \
	'all(.tests[].telemetry.power_w; .min > 24.75 and .max < 25.25)'
jqt "RAPL: energy = 25 W x the window (2%); the subzone not counted again" \
	'all(.tests[].telemetry; (.energy_j / .window_s) as $w | $w > 24.5 and $w < 25.5)'
jqt "results per joule: the result / 25 W, in the result's unit per J" \
	'all(.tests[]; (.telemetry.per_joule.value * 25 / .value) as $r | $r > 0.97 and $r < 1.03
	 and .telemetry.per_joule.unit == (.unit | sub("/s$"; "/J")))'
jqt "CPU: no throttle reasons known (null, not [])" \
	'all(.tests[].telemetry; .throttle_reasons == null)'
jq -r '.tests[] | "# fake RAPL \(.name): \(.telemetry.energy_j) J in \(.telemetry.window_s) s; \(.telemetry.per_joule.value) \(.telemetry.per_joule.unit)"' <<<"$out"
out=$(env NBSHIM_ROOT="$cpuroot" NBSHIM_QUIRKS=rapl-eacces LD_PRELOAD="$build/drmshim.so" "$NB" \
	run --quick --tests fp32-peak --device cpu --json 2>"$tmp/err")
jqt "RAPL readable by root only: power missing, and the fix" \
	'.tests[0].telemetry | .power_w == null and .energy_j == null
	 and (.missing | test("readable by root only \\(run as root\\)"))'
rm -rf "$cpuroot/sys/class/powercap"
out=$(env NBSHIM_ROOT="$cpuroot" LD_PRELOAD="$build/drmshim.so" "$NB" run --quick \
	--tests fp32-peak --device cpu --json 2>"$tmp/err")
jqt "no RAPL: power and energy null, missing names powercap" \
	'.tests[0].telemetry | .power_w == null and .energy_j == null and .per_joule == null
	 and (.missing | test("power: no RAPL package domain in /sys/class/powercap"))'

# ---- the Navi 14 fixture ----
# Without a GPU backend nothing runs on it (exit 4, tests/cli/computed.sh):
# no GPU's watts or joules beside tests the CPU ran.
"$here/mkroot" "$root" navi14
nbj "${quick[@]}" --device 0 --json
jqt "Navi 14 without a GPU backend: no run, so no telemetry beside CPU results" \
	'.schema == "navibench-error" and (has("tests") | not)'

# ---- the sampler thread under ThreadSanitizer ----
if make -s -C "$top/user" O="$build/tsan" SANITIZE=thread WERROR=1 >"$tmp/tsan.log" 2>&1; then
	out=$(env NBSHIM_ROOT="$root" LD_PRELOAD="$build/drmshim.so" \
		TSAN_OPTIONS=halt_on_error=1:exitcode=66 "$build/tsan/navibench" run --quick \
		--tests fp32-peak --device cpu --telemetry-interval 10 --json 2>"$tmp/tsan.err")
	rc=$?
	[[ $rc -eq 0 ]] && ! grep -q "ThreadSanitizer" "$tmp/tsan.err" &&
		jq -e '.tests[0].telemetry.samples >= 12' >/dev/null 2>&1 <<<"$out"
	tap_result "$?" "ThreadSanitizer: the sampler thread (10 ms) beside the test, the CPU: no race" \
		"$(cat "$tmp/tsan.err")"
else
	not_ok "build navibench with -fsanitize=thread" "$(tail -30 "$tmp/tsan.log")"
fi
