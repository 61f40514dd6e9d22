# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# tests/exporter/run_textfile.sh: `navibench run --textfile DIR` and
# nb_result_textfile() (user/cmd/run_textfile.c), sourced by
# tests/exporter/run, whose helpers and variables it uses (NB, build, tmp,
# nbenv, metric, promtool_ok, prom_wait, check). runtf_local writes into
# the directory node_exporter's textfile collector reads ($tmp/textfile,
# beside the exporter's navibench.prom) before node_exporter starts;
# runtf_prometheus then queries what Prometheus stored through it.
# shellcheck disable=SC2154 # top, here, build, tmp, tf: tests/exporter/run's

# same A B: two numbers equal to 1e-12 relative (JSON and the metrics
# text each print the shortest form of their own value).
same() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = a < 0 ? -a : a
	exit !(a != "" && b != "" && d <= 1e-12 * m) }'; }
# runtf_families FILE: the families in FILE, sorted, one line.
runtf_families() { awk '/^# TYPE / { print $3 }' "$1" | sort | tr '\n' ' '; }

runtf_build() {
	# shellcheck disable=SC2046 # pkg-config's flags are separate words
	if gcc -std=gnu11 -g -Wall -Wextra -Werror -fsanitize=address,undefined -fno-omit-frame-pointer \
		-I"$top/user" -I"$top/module/uapi" $(pkg-config --cflags json-c libpng) \
		-o "$build/result_textfile" "$here/result_textfile.c" "$top/user/cmd/run_textfile.c" \
		"$top/user/cmd/result.c" "$top/user/cli.c" "$top"/user/print/*.c \
		$(pkg-config --libs json-c libpng) -lm >"$tmp/rtf.log" 2>&1; then
		ok "build nb_result_textfile()'s test program (ASan, UBSan)"
	else
		not_ok "build nb_result_textfile()'s test program (ASan, UBSan)" "$(tail -n 30 "$tmp/rtf.log")"
	fi
}

# runtf_values FILE JSON: FILE's series against the navibench-run result
# JSON (one device's): out says what differs.
runtf_values() {
	local f=$1 j=$2 d t fam unit scale v
	d="device=\"$(jq -r .device.index "$j")\""
	out=
	v=$(jq -r '"{device=\"\(.device.index)\",kind=\"\(.device.kind)\",name=\"\(.device.name)\",backend=\"\(.device.backend)\",reference_id=\"\(.score.reference_id)\",version=\"\(.system.navibench.version)\"" + (if .system.navibench.commit then ",commit=\"\(.system.navibench.commit)\"" else "" end) + ",quick=\"\(.configuration.quick)\"} 1"' "$j")
	grep -qxF "navibench_run_info$v" "$f" || out+="no navibench_run_info$v; "
	[ "$(metric "$f" "navibench_run_timestamp_seconds{$d}")" = "$(jq '.date | fromdate' "$j")" ] ||
		out+="timestamp is not the date's; "
	[ "$(metric "$f" "navibench_run_valid{$d}")" = "$(jq '.valid | if . then 1 else 0 end' "$j")" ] &&
		[ "$(metric "$f" "navibench_run_complete{$d}")" = "$(jq '.complete | if . then 1 else 0 end' "$j")" ] ||
		out+="valid or complete differ; "
	if [ "$(jq .score.value "$j")" = null ]; then
		! grep -q '^navibench_run_score' "$f" || out+="a score series for a null score; "
	else
		same "$(metric "$f" "navibench_run_score{$d}")" "$(jq .score.value "$j")" || out+="score; "
	fi
	while read -r t unit v; do
		case $unit in
		frames/s) fam=frames_per_second scale=1 ;;
		GFLOP/s) fam=flop_per_second scale=1e9 ;;
		GB/s) fam=bytes_per_second scale=1e9 ;;
		*) out+="unknown unit $unit; "; continue ;;
		esac
		same "$(metric "$f" "navibench_run_result_${fam}{$d,test=\"$t\"}")" \
			"$(awk -v v="$v" -v s="$scale" 'BEGIN { printf "%.17g", v * s }')" ||
			out+="$t: result_$fam is not $v $unit; "
		[ "$(metric "$f" "navibench_run_test_valid{$d,test=\"$t\"}")" = \
			"$(jq --arg t "$t" '.tests[] | select(.name == $t) | if .status == "ok" then 1 else 0 end' "$j")" ] &&
			[ "$(metric "$f" "navibench_run_test_standard{$d,test=\"$t\"}")" = \
				"$(jq --arg t "$t" '.tests[] | select(.name == $t) | if .standard then 1 else 0 end' "$j")" ] &&
			{ [ "$(jq --arg t "$t" '.tests[] | select(.name == $t) | .score' "$j")" = null ] &&
				! grep -q "^navibench_run_test_score{$d,test=\"$t\"}" "$f" ||
				same "$(metric "$f" "navibench_run_test_score{$d,test=\"$t\"}")" \
					"$(jq --arg t "$t" '.tests[] | select(.name == $t) | .score' "$j")"; } ||
			out+="$t: test_valid, test_standard or test_score; "
	done < <(jq -r '.tests[] | "\(.name) \(.unit) \(.value)"' "$j")
	[ -z "$out" ]
}

runtf_local() {
	local dir="$tmp/textfile" j="$tmp/run.json" f idx before tel
	local fams="navibench_run_complete navibench_run_info navibench_run_result_bytes_per_second navibench_run_result_flop_per_second navibench_run_test_score navibench_run_test_standard navibench_run_test_valid navibench_run_timestamp_seconds navibench_run_valid "

	runtf_build
	out=$(nbenv "$NB" run --device cpu --quick --tests fp32-peak,mem-bandwidth --textfile "$dir" \
		--json "$j" 2>&1)
	rc=$?
	idx=$(jq -r .device.index "$j" 2>/dev/null)
	f="$dir/navibench-run-$idx.prom"
	[[ $rc -eq 0 && -n $idx && -s $f ]]
	check "run --device cpu --textfile DIR: DIR/navibench-run-<device index>.prom (device $idx), exit 0" "$out"
	promtool_ok "$f"; check "promtool check metrics: the run's textfile" "$out"
	out=$(cat "$f")
	# and the telemetry's, for what this machine's result has
	# shellcheck disable=SC2046,SC2086 # one family name per word
	fams=$(printf '%s\n' $fams $(jq -r '[.tests[].telemetry | select(. != null) |
		(if .clock_mhz then "navibench_run_clock_hertz" else empty end),
		(if .temperature_c then "navibench_run_temperature_celsius" else empty end),
		(if .power_w then "navibench_run_power_watts" else empty end),
		(if .energy_j then "navibench_run_energy_joules" else empty end),
		(if .per_joule then "navibench_run_efficiency_" +
			({"frames/J": "frames", "GFLOP/J": "flop", "GB/J": "bytes"}[.per_joule.unit]) +
			"_per_joule" else empty end),
		(if (.throttle_reasons // []) | length > 0 then "navibench_run_throttle_seen" else empty end)]
		| .[]' "$j") | sort -u | tr '\n' ' ')
	[ "$(runtf_families "$f")" = "$fams" ] && ! grep -q '^navibench_device_info' "$f" &&
		[ "$(stat -c %a "$f")" = 644 ]
	check "the run's families (navibench_run_*, gauges, none of the exporter's: no navibench_device_info), mode 0644" "$out"
	[ "$(grep -c '^navibench_run_.*{device="'"$idx"'"[,}]' "$f")" = "$(grep -vc '^#' "$f")" ] &&
		grep -q "^navibench_run_test_valid{device=\"$idx\",test=\"fp32-peak\"} 1$" "$f"
	check "every series labelled device=\"$idx\", the per-test ones test=" "$out"
	cp "$j" "$tmp/run1.json"
	runtf_values "$f" "$j"; check "the values are the JSON result's (info labels, date as Unix time, results x 1e9 in base units, scores; no score series for a null score)" "$out"
	tel=$(jq '[.tests[] | select(.telemetry != null)] | length' "$j")
	if [ "$tel" = 0 ]; then
		! grep -qE '^navibench_run_(clock|temperature|power|energy|efficiency|throttle)' "$f"
		check "no telemetry in the result (CPU): no telemetry series, never 0" "$out"
	else
		local tel_ok=1 t stat v
		while read -r t stat v; do
			same "$(metric "$f" "navibench_run_clock_hertz{device=\"$idx\",test=\"$t\",stat=\"$stat\"}")" "$v" ||
				tel_ok=0
		done < <(jq -r '.tests[] | select(.telemetry.clock_mhz != null) | .name as $t |
			.telemetry.clock_mhz | to_entries[] | "\($t) \(.key) \(.value * 1e6)"' "$j")
		grep -qE '^navibench_run_(clock|temperature|power)_' "$f" && [ "$tel_ok" = 1 ]
		check "the result's telemetry: its clock min/avg/max as navibench_run_clock_hertz{stat}, in Hz" "$out"
	fi

	# --textfile refused before the run: nothing run, nothing written
	for bad in "$tmp/nodir" "$tf"; do
		before=$(sha256sum "$tf")
		out=$(nbenv "$NB" run --device cpu --quick --tests fp32-peak --textfile "$bad" \
			--json "$tmp/bad.json" 2>&1)
		rc=$?
		[[ $rc -eq 2 && $out == *"--textfile: '$bad' is not a directory"*"collector.textfile.directory"* &&
			$out != *backend:* && ! -e $tmp/bad.json && ! -e $tmp/nodir ]] &&
			[ "$before" = "$(sha256sum "$tf")" ]
		check "--textfile $([ "$bad" = "$tf" ] && echo "a file" || echo "a missing directory"): exit 2 before the run (no backend opened), the fix said, nothing written" "$out"
	done

	# a later run on the device replaces its file; another device's is its own
	before=$(cat "$f")
	sleep 1
	out=$(nbenv "$NB" run --device cpu --quick --tests mem-bandwidth --textfile "$dir" --json "$j" 2>&1) &&
		! grep -q 'test="fp32-peak"' "$f" && grep -q 'test="mem-bandwidth"' "$f" &&
		[ "$(metric "$f" "navibench_run_timestamp_seconds{device=\"$idx\"}")" -gt \
			"$(metric <(echo "$before") "navibench_run_timestamp_seconds{device=\"$idx\"}")" ] &&
		runtf_values "$f" "$j" && [ -z "$(find "$dir" -name '.*' -type f)" ]
	check "a second run on the device replaces its file whole (no temporary file left)" "$out"
	before=$(sha256sum "$f")
	out=$(nbenv "$NB" run --device 1 --quick --tests mem-bandwidth --textfile "$dir" --json "$tmp/sim.json" 2>&1)
	rc=$?
	[[ $rc -eq 4 && $out == *"cannot compute: a simulated GPU has telemetry only"* ]] &&
		[ "$before" = "$(sha256sum "$f")" ] && [ ! -e "$dir/navibench-run-1.prom" ] &&
		jq -e '.schema == "navibench-error" and .device.kind == "sim"' "$tmp/sim.json" >/dev/null
	check "run on sim0 (telemetry only): exit 4, no file of its own, device $idx's untouched" "$out"
	out=$(nbenv "$NB" run --device all --quick --tests mem-bandwidth --textfile "$tmp/all" 2>&1)
	rc=$?
	[[ $rc -eq 2 && $out == *"--textfile: '$tmp/all' is not a directory (it does not exist)"* ]]
	check "run --device all --textfile a missing directory: exit 2 before the run" "$out"
	mkdir -p "$tmp/all"
	out=$(nbenv "$NB" run --device all --quick --tests mem-bandwidth --textfile "$tmp/all" \
		--json "$tmp/all.json" 2>&1)
	# sim0 cannot compute: exit 4, its file says valid 0 and holds no result
	[[ $? -eq 4 ]] &&
		[ "$(find "$tmp/all" -type f | wc -l)" = "$(jq '.runs | length' "$tmp/all.json")" ] &&
		grep -q '^navibench_run_valid{device="1"} 0$' "$tmp/all/navibench-run-1.prom" &&
		! grep -q '^navibench_run_result' "$tmp/all/navibench-run-1.prom" &&
		jq 'first(.runs[] | select(has("device")))' "$tmp/all.json" >"$tmp/all0.json" &&
		promtool_ok "$tmp/all/navibench-run-$(jq .device.index "$tmp/all0.json").prom" &&
		runtf_values "$tmp/all/navibench-run-$(jq .device.index "$tmp/all0.json").prom" "$tmp/all0.json"
	check "run --device all --textfile: one file per device, the values of its runs[] element" "$out"

	# nb_result_textfile() on documents run does not make here
	runtf_documents "$tmp/run1.json"
}

# runtf_documents RESULT: nb_result_textfile() through result_textfile on
# RESULT (fp32-peak and mem-bandwidth) with telemetry records added, in a navibench-run-all document
# with a device whose backend did not open, and broken.
runtf_documents() {
	local j=$1 t="$tmp/rtf" f d
	mkdir -p "$t"
	# mem-bandwidth: every telemetry member; fp32-peak: null; a model test
	# made from mem-bandwidth's: per joule only
	jq '.tests |= map(if .name == "mem-bandwidth" then .telemetry = {method: "history", source: "gpu_metrics", interval_s: 0.1,
		window_s: 3.0, samples: 30, clock_mhz: {min: 1500, avg: 1700.5, max: 1845},
		temperature_c: {min: 50, avg: 55.5, max: 61}, power_w: {min: 80, avg: 95.25, max: null},
		energy_j: 285.75, per_joule: {value: 0.125, unit: "GB/J"},
		throttle_reasons: ["ppt0", "temp_hotspot", "ppt0"], sampler_cpu_s: 0.01, missing: "",
		series: {t_s: [0, 0.1], clock_mhz: [1500, 1845], temperature_c: [50, 61],
			 power_w: [80, 110]}} else .telemetry = null end)
		| .tests += [.tests[] | select(.name == "mem-bandwidth") | .name = "convlstm-mono"
		| .unit = "frames/s" | .value = 12.5 | .score = null
		| .telemetry = {clock_mhz: null, temperature_c: null, power_w: null, energy_j: null,
				per_joule: {value: 2.5, unit: "frames/J"}, throttle_reasons: null}]' \
		"$j" >"$t/tel.json"
	out=$("$build/result_textfile" "$t" <"$t/tel.json" 2>&1)
	rc=$?
	d="device=\"$(jq -r .device.index "$j")\""
	f="$t/navibench-run-$(jq -r .device.index "$j").prom"
	[[ $rc -eq 0 ]] && promtool_ok "$f"
	check "a result with telemetry: written, promtool check metrics passes" "$out"
	out=$(cat "$f")
	local m='test="mem-bandwidth"'
	[ "$(metric "$f" "navibench_run_clock_hertz{$d,$m,stat=\"min\"}")" = 1500000000 ] &&
		[ "$(metric "$f" "navibench_run_clock_hertz{$d,$m,stat=\"avg\"}")" = 1700500000 ] &&
		[ "$(metric "$f" "navibench_run_clock_hertz{$d,$m,stat=\"max\"}")" = 1845000000 ] &&
		[ "$(metric "$f" "navibench_run_temperature_celsius{$d,$m,stat=\"avg\"}")" = 55.5 ] &&
		[ "$(metric "$f" "navibench_run_power_watts{$d,$m,stat=\"avg\"}")" = 95.25 ] &&
		! grep -q '^navibench_run_power_watts{.*stat="max"' "$f" &&
		[ "$(metric "$f" "navibench_run_energy_joules{$d,$m}")" = 285.75 ] &&
		[ "$(metric "$f" "navibench_run_efficiency_bytes_per_joule{$d,$m}")" = 125000000 ]
	check "telemetry: clock in hertz, temperature, power {stat=min|avg|max}, energy, GB/J as bytes per joule (x 1e9); a null max has no series" "$out"
	[ "$(grep -c '^navibench_run_throttle_seen{' "$f")" = 2 ] &&
		[ "$(metric "$f" "navibench_run_throttle_seen{$d,$m,reason=\"ppt0\"}")" = 1 ] &&
		[ "$(metric "$f" "navibench_run_throttle_seen{$d,$m,reason=\"temp_hotspot\"}")" = 1 ]
	check "telemetry: each throttle reason seen once, value 1 (ppt0 listed twice: one series)" "$out"
	[ "$(metric "$f" "navibench_run_efficiency_frames_per_joule{$d,test=\"convlstm-mono\"}")" = 2.5 ] &&
		[ "$(metric "$f" "navibench_run_result_frames_per_second{$d,test=\"convlstm-mono\"}")" = 12.5 ] &&
		! grep -q 'navibench_run_test_score{.*convlstm-mono' "$f" &&
		! grep -qE '^navibench_run_(clock|temperature|power|energy)_[a-z_]*\{[^}]*convlstm-mono' "$f" &&
		! grep -qE '^navibench_run_[a-z_]*\{[^}]*test="fp32-peak"[^}]*\} ' <(grep -E 'clock|temperature|power|energy|efficiency|throttle' "$f")
	check "telemetry: frames/J per joule; null members and a null telemetry (fp32-peak) have no series; a null test score none" "$out"

	# --device all: a device whose backend did not open replaces its file too
	jq -n --slurpfile r "$j" '{schema: "navibench-run-all", schema_version: 1, date: "2026-12-01T10:00:00Z",
		complete: true, note: "2 GPUs", runs: [($r[0] | .device.index = 5),
		{device_index: 6, name: "GPU \"six\"", error: "hipInit failed", valid: false}],
		aggregate: [], aggregate_method: "", valid: false}' >"$t/all.json"
	out=$("$build/result_textfile" "$t" <"$t/all.json" 2>&1) &&
		promtool_ok "$t/navibench-run-5.prom" && promtool_ok "$t/navibench-run-6.prom" &&
		grep -qxF 'navibench_run_info{device="6",name="GPU \"six\""} 1' "$t/navibench-run-6.prom" &&
		[ "$(metric "$t/navibench-run-6.prom" 'navibench_run_valid{device="6"}')" = 0 ] &&
		[ "$(metric "$t/navibench-run-6.prom" 'navibench_run_timestamp_seconds{device="6"}')" = 1796119200 ] &&
		! grep -q navibench_run_result "$t/navibench-run-6.prom" &&
		grep -q '^navibench_run_result_bytes_per_second{device="5",test="mem-bandwidth"}' "$t/navibench-run-5.prom"
	check "navibench-run-all: a file per device; one whose backend did not open: info (name escaped), valid 0, the runs' date" "$out"

	# labels past the line buffer (986 bytes of name: the next label starts
	# 9 bytes before its end): cut, but each one closed
	mkdir -p "$t/long"
	out=$(jq '.device.backend = ("b" * 1000) | .score.reference_id = ("\\\"" * 600)
		| .device.name = ("n" * 986)' "$j" | "$build/result_textfile" "$t/long" 2>&1) &&
		promtool_ok "$t/long/navibench-run-$(jq -r .device.index "$j").prom" &&
		grep -q '^navibench_run_info{device="[0-9]*",kind="cpu",name="nnn*"' \
			"$t/long/navibench-run-$(jq -r .device.index "$j").prom"
	check "labels too long for the line: cut, each closed; promtool check metrics passes" "$out"

	mkdir -p "$t/bad"
	out=$(jq '.tests[0].unit = 5' "$j" | "$build/result_textfile" "$t/bad" 2>&1)
	rc=$?
	[[ $rc -eq 2 && $out == "navibench run: --textfile: the result: field tests[0].unit: expected a string, found int" ]] &&
		[ -z "$(find "$t/bad" -mindepth 1)" ]
	check "a malformed result: exit 2, the field named, nothing written" "$out"
	out=$(jq -n --slurpfile r "$j" '{schema: "navibench-run-all", schema_version: 1, date: "2026-12-01T10:00:00Z",
		runs: [$r[0], ($r[0] | .device.index = 9 | .date = "yesterday")]}' | "$build/result_textfile" "$t/bad" 2>&1)
	rc=$?
	[[ $rc -eq 2 && $out == *"field runs[1].date: 'yesterday' is not a UTC date"* ]] &&
		[ -z "$(find "$t/bad" -mindepth 1)" ]
	check "navibench-run-all with its second run malformed: exit 2, no file for the first either" "$out"
}

# runtf_prometheus: what Prometheus stored through node_exporter's textfile
# collector, which reads the runs' files beside the exporter's.
runtf_prometheus() {
	local j="$tmp/run.json" v
	v=$(jq '.tests[] | select(.name == "mem-bandwidth") | .value * 1e9' "$j")
	prom_wait "navibench_run_result_bytes_per_second{job=\"node\",device=\"$(jq .device.index "$j")\",test=\"mem-bandwidth\"}" \
		"length == 1 and ((.[0].value[1] | tonumber) / $v - 1) as \$d | \$d * \$d < 1e-18"
	check "query API: the run's mem-bandwidth result through node_exporter, in bytes/s" "$out"
	v=$(jq '{d: (.device.index | tostring), n: .device.name}' "$j")
	prom_wait 'navibench_run_valid{job="node"} * on(device) group_left(name) navibench_run_info{job="node"}' \
		"length == 1 and .[0].metric.device == $v.d and .[0].metric.name == $v.n and .[0].value[1] == \"1\""
	check "query API: navibench_run_valid joined with navibench_run_info by device (the CPU's run only: sim0 cannot compute)" "$out"
	prom_wait 'sort_desc(navibench_run_result_bytes_per_second{job="node",test="mem-bandwidth"} * on(instance, device) group_left(name, backend) navibench_run_info{quick="true"})' \
		"length == 1 and .[0].metric.name == $v.n and .[0].metric.backend == \"cpu\""
	check "query API: a result named through navibench_run_info, with the backend that computed it" "$out"
	prom_wait 'sort_desc(navibench_run_result_bytes_per_second{job="node",test="mem-bandwidth"} * on(instance, device) group_left(name, backend) navibench_run_info{quick="true",backend!="cpu"})' \
		'length == 0'
	check "query API: docs/prometheus.md's GPU comparison (backend!=\"cpu\") leaves the CPU's result out" "$out"
}

# runtf_unit: navibench-run.service's command line, its directory a
# temporary one and the suite cut short (--quick --tests mem-bandwidth).
runtf_unit() {
	local cmdline argv f
	cmdline=$(sed -n 's/^ExecStart=//p' "$top/scripts/systemd/navibench-run.service")
	[ "$cmdline" = "/usr/local/bin/navibench run --device all --textfile /var/lib/prometheus/node-exporter" ] &&
		grep -q '^ReadWritePaths=/var/lib/prometheus/node-exporter$' "$top/scripts/systemd/navibench-run.service" &&
		grep -q '^OnCalendar=' "$top/scripts/systemd/navibench-run.timer" &&
		grep -q '^Persistent=true$' "$top/scripts/systemd/navibench-run.timer"
	check "navibench-run.service: run --device all --textfile into Debian's node_exporter directory, nightly" "$cmdline"
	read -ra argv <<<"${cmdline//\/var\/lib\/prometheus\/node-exporter/$tmp/rununit}"
	mkdir -p "$tmp/rununit"
	argv[0]=$NB
	out=$(nbenv "${argv[@]}" --quick --tests mem-bandwidth 2>&1)
	rc=$?
	# the Navi 14 and sim0 cannot compute here: exit 4 (the unit fails,
	# so that an operator sees it), a file for every device all the same
	for f in "$tmp"/rununit/navibench-run-*.prom; do
		[ -s "$f" ] && promtool_ok "$f" || rc=1
	done
	[ "$rc" -eq 4 ] && [ "$(find "$tmp/rununit" -name 'navibench-run-*.prom' | wc -l)" -eq 3 ]
	check "the run unit's command line, run (--quick --tests mem-bandwidth): exit 4 (two devices cannot compute), files promtool accepts" "$out"
}
