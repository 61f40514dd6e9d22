# The navibench run result, schema version 3 (user/engine/result-schema.md),
# for a full --quick run on the CPU: jq -e -f schema.jq result.json
def num: type == "number";
def str: type == "string";
def numornull: type == "number" or type == "null";

def strabsent: type == "string" and length > 0;
def load3: type == "array" and length == 3 and all(.[]; type == "number" and . >= 0);

.schema == "navibench-run" and .schema_version == 3 and (.date | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T"))
and .complete == true
and (.device.index | num) and (.device.kind | IN("cpu", "hip", "amdgpu", "sim"))
and (.device.name | str) and .device.backend == "cpu" and (.device.backend_detail | str)
and (.device.note | str)
and .configuration.quick == true and (.configuration.threads | num) and (.configuration.seed | num)
and (.configuration.weights | type == "null" or type == "string")
and (.configuration.peak_gflops | num) and (.configuration.peak_source | str)
and (.tests | length == 6)
and ([.tests[].name] | sort == ["convlstm-color", "convlstm-gates", "convlstm-mono", "convlstm-train", "fp32-peak", "mem-bandwidth"])
and all(.tests[]; . as $t |
	(.value | num) and .value > 0 and (.best | num) and .best >= .value * 0.999
	and (.unit | IN("frames/s", "GFLOP/s", "GB/s"))
	and (.cv | num) and (.median_s | num) and (.min_s | num) and .min_s <= .median_s
	and .repeats >= 2 and (.work_per_repeat | num)
	and (.gflops | numornull) and (.percent_of_peak | numornull)
	and .status == "ok" and .error == null
	and (.validation.pass == true) and (.validation.max_abs_error | num)
	and (.validation.max_rel_error | num) and (.validation.tolerance_abs | num)
	and (.validation.tolerance_rel | num) and (.validation.input | str)
	and (.validation.reason | str and length > 20)
	and (.reference_value | num) and (.description | str)
	# --quick: convlstm-train's short form (batch 2 x 1 frame), not scored
	and (if .name == "convlstm-train"
	     then .standard == false and .score == null and .batch == 2 and .frames == 1
		and .work_per_repeat == 4831488000
	     else .standard == true and (.score | num) end)
	and (.times_s | type == "array" and length == $t.repeats)
	and all(.times_s[]; num and . > 0)
	and ((.times_s | min) == .min_s)
	and (.telemetry | .method == "sampler" and (.source | str) and .samples >= 1
		and .window_s > 0 and .interval_s == 0.1 and (.sampler_cpu_s | num)
		and (.missing | str) and ((.energy_j | numornull))
		and (.clock_mhz == null or (.clock_mhz.min <= .clock_mhz.avg and .clock_mhz.avg <= .clock_mhz.max))
		and (.series.t_s | length) >= .samples
		and all(.series | (.clock_mhz, .temperature_c, .power_w); length == ($t.telemetry.series.t_s | length))))
and all(.tests[] | select(.name | startswith("convlstm")); (.percent_of_peak | num) and (.gflops | num) and .batch >= 1)
and all(.tests[] | select(.name | startswith("convlstm-m") or startswith("convlstm-co")); .frames >= 1)
and (.score.value | num) and (.score.method | str)
and (.score.method | test("over convlstm-mono, convlstm-color, convlstm-gates, fp32-peak and mem-bandwidth$"))
and (.score.reference_id | test("^sha256:[0-9a-f]{16}$"))
and (.system | (.navibench.version | str) and (.navibench.compiler | str)
	and ((.navibench.commit // "x") | strabsent) and (.kernel.release | strabsent)
	and (.kernel.machine | strabsent) and (.cpu.logical_cpus | num)
	and ((.cpu.governor // "x") | strabsent) and ((.os // "x") | strabsent)
	and (.libraries["json-c"] | str) and (.libraries.libpng | str)
	and (.load_average.start | load3) and (.load_average.end | load3)
	and (.device_info.index | num) and (.device_info.kind | str)
	and (.gpu == null))
and (.score.reference | (.machine | str) and (.cpu | str) and (.date | str) and (.command | str))
and .valid == true
