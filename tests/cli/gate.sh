# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# compare's regression gate can fire (sourced by tests/cli/run, which gives
# nb, has, check, $tmp, $NB, $NBPLAIN, $top): a quick run keeps enough
# repeats for every test to be judged after Holm's correction; a test that
# cannot be judged fails the gate (exit 5) and stderr names it; a planted
# 30% slowdown of one test (NAVIBENCH_TESTING_SLOWDOWN, compiled only in
# the test build, TESTING=1) fails it on two quick runs; the release build
# has no such knob. compare's formats: --json like every command's, the
# schema; prometheus not offered.
# shellcheck disable=SC2016 # jq filters: jq's own $variables
# shellcheck disable=SC2154 # tmp, NB, NBPLAIN, top, rc come from tests/cli/run

g_dir="$tmp/gate"
mkdir -p "$g_dir/ids/navibench"
ln -sf "$top"/user/schemas/*.schema.json "$g_dir/ids/navibench/"
ln -sfn . "$g_dir/ids/navibench/navibench"
g_tests=fp32-peak,mem-bandwidth
# g_run FILE [ENV...]: a quick run of g_tests on the CPU, JSON into FILE
g_run() {
	local f=$1
	shift
	env "$@" "$NB" run --device cpu --quick --tests "$g_tests" --json "$f" >/dev/null 2>&1
}
# g_cmp ARGS: compare, stdout into $g_dir/cmp.out, stderr into cmp.err; rc
g_cmp() {
	"$NB" compare "$@" >"$g_dir/cmp.out" 2>"$g_dir/cmp.err"
	rc=$?
	out=$(cat "$g_dir/cmp.out" "$g_dir/cmp.err")
}

g_run "$g_dir/a.json" && g_run "$g_dir/b.json"
check "two quick runs of $g_tests"
jq -e 'all(.tests[]; .repeats >= 6 and (.times_s | length) == .repeats)' "$g_dir/a.json" >/dev/null
check "--quick keeps 6 repeats at least per test (enough to judge after Holm's correction)"
g_cmp "$g_dir/a.json" "$g_dir/b.json" --fail-on-regression 5 --json
[[ $rc -eq 0 || $rc -eq 5 ]] &&
	jq -e 'all(.tests[]; .verdict != "too few repeats" and (.p_holm | type == "number")
		and .p_holm >= .p_value) and .unjudged == 0 and .correction == "holm"' \
		"$g_dir/cmp.out" >/dev/null
check "compare --fail-on-regression on two quick runs: every test judged, Holm's p >= p"
/usr/bin/python3 -m jsonschema --base-uri "file://$g_dir/ids/" -i "$g_dir/cmp.out" \
	"$top/user/schemas/compare.schema.json" >"$g_dir/schema.out" 2>&1
out=$(cat "$g_dir/schema.out"); check "compare --json validates against compare.schema.json"

# a test that cannot be judged: two repeats kept of fp32-peak in each run
# (2 against 2: p >= 1/3)
for f in a b; do
	jq '.tests[0].times_s |= .[:2] | .tests[0].repeats = 2' "$g_dir/$f.json" >"$g_dir/few-$f.json"
done
g_cmp "$g_dir/few-a.json" "$g_dir/few-b.json" --fail-on-regression 5
[[ $rc -eq 5 ]] && has "--fail-on-regression: fp32-peak (few-b.json) not judged: too few repeats" &&
	has "Not judged (the gate fails on them too): 1" && has ": exit 5"
check "a test the gate cannot judge: exit 5, and stderr names it"
g_cmp "$g_dir/few-a.json" "$g_dir/few-b.json"
[[ $rc -eq 0 ]] && has "too few repeats"
check "... without --fail-on-regression: shown, exit 0 (no gate)"
jq 'del(.tests[1])' "$g_dir/b.json" >"$g_dir/one.json"
g_cmp "$g_dir/a.json" "$g_dir/one.json" --fail-on-regression 5
[[ $rc -eq 5 ]] && has "mem-bandwidth (one.json) not judged: missing"
check "a test missing from the new run: not judged, exit 5"

# the planted slowdown: fp32-peak 30% slower. The machine's load moves
# quick runs too (a load average of 20 on two cores moves them by more
# than 30%); eight tries, the gate must fire on one.
fired=0
for try in 1 2 3 4 5 6 7 8; do
	if ! g_run "$g_dir/base.json" || ! g_run "$g_dir/slow.json" NAVIBENCH_TESTING_SLOWDOWN=fp32-peak:1.3; then
		break
	fi
	g_cmp "$g_dir/base.json" "$g_dir/slow.json" --fail-on-regression 10 --json
	if [[ $rc -eq 5 ]] && jq -e '.tests[] | select(.test == "fp32-peak")
		| .regression and .verdict == "slower" and .ratio < 0.9' "$g_dir/cmp.out" >/dev/null; then
		fired=$try
		break
	fi
done
echo "# planted 30% slowdown of fp32-peak: the gate fired on try $fired of 8"
[[ $fired -gt 0 ]]
check "a planted 30% slowdown of fp32-peak fails the gate (exit 5) on two quick runs"
g_cmp "$g_dir/base.json" "$g_dir/slow.json" --fail-on-regression 10
[[ $fired -gt 0 && $rc -eq 5 ]] && grep -qE '^fp32-peak .*slower \(REGRESSION\)' "$g_dir/cmp.out"
check "... the text names fp32-peak a REGRESSION"
! grep -q NAVIBENCH_TESTING_SLOWDOWN "$NBPLAIN" && grep -q NAVIBENCH_TESTING_SLOWDOWN "$NB"
check "the planted slowdown is in the test build only, never in the release build"

# ---- compare's formats: every one --help offers ----
g_cmp "$g_dir/a.json" "$g_dir/b.json" --format prometheus
[[ $rc -eq 2 && $out == *"expected one of: text json csv"* ]]
check "compare --format prometheus: not offered (exit 2, the formats named)"
out=$("$NB" compare --help)
out=$(flat)
[[ $out == *"one of: text, json, csv"* && $out != *prometheus* && $out == *"Holm"* ]]
check "compare --help: text, json and csv; Holm's correction described"
for f in text json csv; do
	g_cmp "$g_dir/a.json" "$g_dir/b.json" --format "$f"
	[[ $rc -eq 0 && -s $g_dir/cmp.out ]]
	check "compare --format $f works"
done
g_cmp "$g_dir/a.json" "$g_dir/b.json" --json="$g_dir/c.json"
[[ $rc -eq 0 && ! -s $g_dir/cmp.out ]] && jq -e '.schema == "navibench-compare"' "$g_dir/c.json" >/dev/null
check "compare --json=FILE writes the document to FILE"
