# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# Sourced by tests/engine/run (its $nb, $tmp, $root, check_cmd, saved and
# expect_usage): what navibench gives people to use: bad input refused
# before anything is written, predict --png decoded and checked pixel by
# pixel, the system record and repeat times of a run, and navibench compare
# on real run results.
# shellcheck disable=SC2016 # bash -c '...' _ ARGS: the inner shell expands
# shellcheck disable=SC2154 # nb, tmp and root come from tests/engine/run

# ---- bad input: --tests, outputs that are inputs ----
expect_usage "run --tests with an empty element" "--tests 'fp32-peak,,mem-bandwidth': an empty test name" \
	"$nb" run --device cpu --quick --tests fp32-peak,,mem-bandwidth
expect_usage "run --tests with a trailing comma" "an empty test name" \
	"$nb" run --device cpu --quick --tests fp32-peak,

cp "$tmp/w.safetensors" "$tmp/same.safetensors"
sum_before=$(sha256sum "$tmp/same.safetensors" "$tmp/m.npy")
expect_usage "predict -o naming the weights file" "--output .* is the same file as --weights" \
	"$nb" predict -m convlstm-mono -w "$tmp/same.safetensors" -i "$tmp/m.npy" \
	-o "$tmp/same.safetensors"
ln -f "$tmp/m.npy" "$tmp/hardlink.npy"
expect_usage "predict -o a hard link to the input" "--output .* is the same file as --input" \
	"$nb" predict -m convlstm-mono -i "$tmp/m.npy" -o "$tmp/hardlink.npy"
ln -sf m.npy "$tmp/symlink.npy"
expect_usage "predict --png a symbolic link to the input" "--png .* is the same file as --input" \
	"$nb" predict -m convlstm-mono -i "$tmp/m.npy" -o "$tmp/ok.npy" --png "$tmp/symlink.npy"
expect_usage "predict -o and --png the same new file" "are the same file" \
	"$nb" predict -m convlstm-mono -i "$tmp/m.npy" -o "$tmp/new.out" --png "$tmp/./new.out"
check_cmd "  ... the inputs unchanged, nothing written" \
	bash -c '[ "$(sha256sum "$1" "$2")" = "$3" ] && [ ! -e "$4" ] && [ ! -e "$5" ]' _ \
	"$tmp/same.safetensors" "$tmp/m.npy" "$sum_before" "$tmp/new.out" "$tmp/ok.npy"
expect_usage "run --json naming the --weights file" "--json .* is the same file as --weights" \
	"$nb" run --quick --tests convlstm-mono --weights "$tmp/same.safetensors" \
	--json "$tmp/same.safetensors"
check_cmd "  ... the weights unchanged" \
	bash -c '[ "$(sha256sum "$1" "$2")" = "$3" ]' _ "$tmp/same.safetensors" "$tmp/m.npy" \
	"$sum_before"

# ---- predict --png ----
png=$root/tests/engine/pngcheck.py
check_cmd "generate a movie (2 x 8 frames of 40x40x1)" \
	"$tmp/opt/test_io" --movie convlstm-mono 2 8 "$tmp/m8.npy"
check_cmd "predict convlstm-mono --png" \
	"$nb" predict -m convlstm-mono -w "$tmp/w.safetensors" -i "$tmp/m8.npy" \
	-o "$tmp/p8.npy" --png "$tmp/p8.png"
# 170 px of labels, 8 frames of 3 x 40 px and 4 px gaps, 8 px margin; 26 px
# of frame numbers, 2 movies of 3 rows of 124 px and a 20 px gap
check_cmd "  ... decoded: 8-bit RGB, 1170 x 810 (2 movies x 3 rows x 8 frames)" \
	bash -c '[ "$("$1" "$2" size)" = "1170 810" ]' _ "$png" "$tmp/p8.png"
check_cmd "  ... holds input frames 0, 7, 8 and 15, each pixel a 3 x 3 block" \
	"$png" "$tmp/p8.png" find "$tmp/m8.npy" 3 0 7 8 15
check_cmd "  ... and the predictions of both movies, first and last frame" \
	"$png" "$tmp/p8.png" find "$tmp/p8.npy" 3 0 7 8 15
check_cmd "predict convlstm-color --png (1 x 3 frames of 64x64x3)" \
	"$nb" predict -m convlstm-color -i "$tmp/mc.npy" -o "$tmp/pc2.npy" --png "$tmp/pc.png"
check_cmd "  ... holds the colour input frames and the prediction, 2 x 2 blocks" \
	bash -c '"$1" "$2" find "$3" 2 0 1 2 && "$1" "$2" find "$4" 2 0' _ "$png" \
	"$tmp/pc.png" "$tmp/mc.npy" "$tmp/pc2.npy"
check_cmd "predict --png to an unwritable place fails, nothing left" \
	bash -c '! "$1" predict -m convlstm-mono -i "$2" -o "$3" --png /nonexistent/p.png' \
	_ "$nb" "$tmp/m8.npy" "$tmp/p9.npy"

# ---- the system record and the repeat times (result schema 2) ----
check_cmd "run --quick --tests fp32-peak,mem-bandwidth --json (twice, and with --seed 2)" \
	bash -c '"$1" run --quick --tests fp32-peak,mem-bandwidth --json "$2/r1.json" &&
		"$1" run --quick --tests fp32-peak,mem-bandwidth --json "$2/r2.json" &&
		"$1" run --quick --tests fp32-peak,mem-bandwidth --seed 2 --json "$2/r3.json"' \
	_ "$nb" "$tmp" >/dev/null
check_cmd "  ... every repeat's time kept, the fastest is min_s" \
	jq -e 'all(.tests[]; (.times_s | length) == .repeats and (.times_s | min) == .min_s)' \
	"$tmp/r1.json"
check_cmd "  ... the system: build, kernel, CPU, load at start and end, the device's info" \
	jq -e '.system | (.navibench.version | length > 0) and (.kernel.release | length > 0)
		and (.cpu.model | length > 0) and (.load_average.start | length == 3)
		and (.load_average.end | length == 3) and .device_info.kind == "cpu"
		and all(.. | strings; length > 0)' "$tmp/r1.json"
ref_id=$(sed -n 's/^\t\.id = "\(.*\)",$/\1/p' "$root/user/engine/scores.c")
check_cmd "  ... the score names its reference ($ref_id, of engine/reference.json)" \
	jq -e --arg id "$ref_id" '.score.reference_id == $id' "$tmp/r1.json"
check_cmd "  ... and scores.c's id is reference.json's sha256" \
	bash -c '[ "sha256:$(sha256sum "$1" | cut -c1-16)" = "$2" ]' _ \
	"$root/user/engine/reference.json" "$ref_id"

# ---- navibench compare ----
check_cmd "compare r1 r2: exit 0" saved "$tmp/cmp.txt" "$nb" compare "$tmp/r1.json" "$tmp/r2.json"
check_cmd "  ... a row per test with ratio, p, Holm's p and verdict; the method stated" \
	bash -c 'grep -qE "^fp32-peak +GFLOP/s +[0-9.]+ +[0-9.]+ +[0-9.]+ +[<0-9.-]+ +[<0-9.-]+ +(within noise|faster|slower|too few)" "$1" &&
		grep -qE "^mem-bandwidth +GB/s" "$1" && grep -q "^Method: Mann-Whitney U" "$1" &&
		grep -q "^Base r1.json:" "$1" && grep -q "^New r2.json:" "$1"' _ "$tmp/cmp.txt"
check_cmd "compare --format json: runs, tests, scores, no warnings" \
	bash -c '"$1" compare --format json "$2/r1.json" "$2/r2.json" | jq -e "
		.schema == \"navibench-compare\" and (.runs | length == 2) and .runs[0].role == \"base\"
		and (.tests | length == 2) and all(.tests[]; (.ratio | type == \"number\")
		and (.p_value >= 0 and .p_value <= 1) and .base_repeats >= 2)
		and (.notes // []) == [] and (.scores | length == 1)"' _ "$nb" "$tmp"
check_cmd "compare --format csv: a header and a line per test, 13 fields" \
	bash -c '"$1" compare --format csv "$2/r1.json" "$2/r2.json" >"$2/cmp.csv" &&
		[ "$(wc -l <"$2/cmp.csv")" -eq 3 ] &&
		head -n 1 "$2/cmp.csv" | grep -q "^test,unit,base,new,ratio,p_value,p_holm,verdict," &&
		awk -F, "{ if (NF != 13) exit 1 }" "$2/cmp.csv"' _ "$nb" "$tmp"
check_cmd "compare a run with itself: ratio 1, p 1, within noise" \
	bash -c '"$1" compare --format json "$2/r1.json" "$2/r1.json" | jq -e "
		all(.tests[]; .ratio == 1 and .p_value == 1 and .verdict == \"within noise\")"' \
	_ "$nb" "$tmp"

# a run twice as slow: every repeat time doubled, the values halved
jq '.tests |= map(.times_s |= map(. * 2) | .median_s *= 2 | .min_s *= 2 | .value /= 2 | .best /= 2)' \
	"$tmp/r1.json" >"$tmp/slow.json"
check_cmd "compare with a run twice as slow: slower, ratio 0.5, p < 0.05" \
	bash -c '"$1" compare --format json "$2/r1.json" "$2/slow.json" | jq -e "
		all(.tests[]; .verdict == \"slower\" and (.ratio - 0.5 | fabs) < 1e-9
		and .p_value < 0.05)"' _ "$nb" "$tmp"
"$nb" compare --fail-on-regression 10 "$tmp/r1.json" "$tmp/slow.json" >"$tmp/o1" 2>&1
tap_result "$([ $? -eq 5 ] && grep -q REGRESSION "$tmp/o1"; echo $?)" \
	"  ... --fail-on-regression 10: exit 5 (the gate), REGRESSION shown" "$(cat "$tmp/o1")"
check_cmd "  ... --fail-on-regression 60: 50% slower is not more than 60%: exit 0" \
	"$nb" compare --fail-on-regression 60 "$tmp/r1.json" "$tmp/slow.json"
jq '.tests |= map(.times_s |= .[0:2] | .repeats = 2)' "$tmp/slow.json" >"$tmp/two.json"
jq '.tests |= map(.times_s |= .[0:2] | .repeats = 2)' "$tmp/r1.json" >"$tmp/two-base.json"
check_cmd "compare 2 repeats against 2: too few repeats, not within noise" \
	bash -c '"$1" compare --format json "$2/two-base.json" "$2/two.json" | jq -e "
		all(.tests[]; .verdict == \"too few repeats\" and (.note | test(\"cannot go below 0.33\")))"' \
	_ "$nb" "$tmp"

check_cmd "compare runs of another seed: a warning naming the seed (JSON notes; stderr)" \
	bash -c '"$1" compare --format json "$2/r1.json" "$2/r3.json" |
		jq -e ".notes | length == 1 and (.[0] | test(\"seed 1.*seed 2\"))" &&
		"$1" compare "$2/r1.json" "$2/r3.json" 2>&1 >/dev/null |
		grep -q "navibench compare: warning: .*seed 1"' _ "$nb" "$tmp"
expect_usage "compare --strict runs of another seed" "--strict: 1 difference" \
	"$nb" compare --strict "$tmp/r1.json" "$tmp/r3.json"
jq '.score.reference_id = "sha256:0000000000000000"' "$tmp/r2.json" >"$tmp/otherref.json"
check_cmd "compare a score made against another reference: warned, not compared" \
	bash -c '"$1" compare --format json "$2/r1.json" "$2/otherref.json" 2>/dev/null | jq -e "
		(.notes[0] | test(\"different references\")) and .scores[0].ratio == null
		and .scores[0].reference_id == null"' _ "$nb" "$tmp"
# schema1-result.json: the reference run as navibench wrote it at schema 1
# (before per-repeat times), kept so that old results stay readable.
check_cmd "compare with a schema 1 result: no repeat times, reference unknown" \
	bash -c '"$1" compare --format json "$3/tests/engine/schema1-result.json" "$2/r1.json" 2>/dev/null |
		jq -e "(.tests | map(select(.verdict == \"no repeat times\")) | length == 2)
		and (.tests | map(select(.verdict == \"missing\")) | length == 3)
		and any(.notes[]; test(\"quick no.*quick yes\"))
		and any(.notes[]; test(\"unknown \\\\(schema 1\\\\)\"))"' _ "$nb" "$tmp" "$root"

check_cmd "run convlstm-gates --batch 1 and --batch 2 (--json)" \
	bash -c '"$1" run --quick --tests convlstm-gates --batch 1 --json "$2/g1.json" &&
		"$1" run --quick --tests convlstm-gates --batch 2 --json "$2/g2.json"' \
	_ "$nb" "$tmp" >/dev/null
check_cmd "compare batch 1 with batch 2: not comparable, no ratio" \
	bash -c '"$1" compare --format json "$2/g1.json" "$2/g2.json" | jq -e "
		.tests[0].verdict == \"not comparable\" and .tests[0].ratio == null
		and (.tests[0].note | test(\"batch 1 .*against 2\"))"' _ "$nb" "$tmp"

"$nb" run --quick --tests convlstm-mono --weights "$tmp/nan.safetensors" --batch 1 \
	--frames 2 --json "$tmp/inv.json" >/dev/null 2>&1
"$nb" run --quick --tests convlstm-mono --weights "$tmp/w.safetensors" --batch 1 \
	--frames 2 --json "$tmp/mono.json" >/dev/null 2>&1
check_cmd "compare with an INVALID run: flagged, not judged" \
	bash -c '"$1" compare --format json "$2/mono.json" "$2/inv.json" 2>/dev/null | jq -e "
		.tests[0].verdict == \"invalid\" and .tests[0].p_value == null
		and .runs[1].status == \"INVALID\" and any(.notes[]; test(\"INVALID\"))"' \
	_ "$nb" "$tmp"
"$nb" compare --fail-on-regression 5 "$tmp/mono.json" "$tmp/inv.json" >/dev/null 2>&1
tap_result "$([ $? -eq 5 ]; echo $?)" "  ... --fail-on-regression: an invalid NEW run fails the gate (exit 5)"

printf '{"schema": "navibench-run", "schema_version": 2,' >"$tmp/trunc.json"
expect_usage "compare a truncated file" "trunc.json: not JSON: the text ends early" \
	"$nb" compare "$tmp/r1.json" "$tmp/trunc.json"
echo '{"name": "something else"}' >"$tmp/foreign.json"
expect_usage "compare a foreign JSON file" "foreign.json: field schema is missing" \
	"$nb" compare "$tmp/r1.json" "$tmp/foreign.json"
jq '.schema = "navibench-compare"' "$tmp/r1.json" >"$tmp/other.json"
expect_usage "compare another navibench document" "field schema: 'navibench-compare', not 'navibench-run'" \
	"$nb" compare "$tmp/r1.json" "$tmp/other.json"
jq '.schema_version = 9' "$tmp/r1.json" >"$tmp/v9.json"
expect_usage "compare a future schema version" "field schema_version: 9" \
	"$nb" compare "$tmp/r1.json" "$tmp/v9.json"
jq 'del(.configuration.seed)' "$tmp/r1.json" >"$tmp/noseed.json"
expect_usage "compare a result without configuration.seed" "noseed.json: field configuration.seed is missing" \
	"$nb" compare "$tmp/noseed.json" "$tmp/r1.json"
jq '.tests[1].times_s[3] = "fast"' "$tmp/r1.json" >"$tmp/badtime.json"
expect_usage "compare a result with a string among the times" "field tests\[1\].times_s\[3\]: expected a time" \
	"$nb" compare "$tmp/r1.json" "$tmp/badtime.json"
expect_usage "compare with one file" "at least one NEW.json" "$nb" compare "$tmp/r1.json"
expect_usage "compare a file that is not there" "nothere.json: No such file or directory; name a file" \
	"$nb" compare "$tmp/r1.json" "$tmp/nothere.json"
