# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
#
# TAP for the project's test suites, one copy for all of them: sourced by
# scripts/lib.sh (the host's bash suites) and, as /vmtest/tap.sh, by the
# scripts that run in the VM guest under busybox sh (tests/modules/
# selftest.sh), so it is POSIX sh. A suite sets TAP_SUITE (its name in
# "make check"), reports each test with ok, not_ok, skipped, check or
# tap_result, and ends with finish, whose line
#   $TAP_SUITE: N passed, N failed[, N skipped]
# make check counts.

TAP_SUITE=${TAP_SUITE:-test}
tap_pass=0 tap_fail=0 tap_skip=0

tap_n() { echo $((tap_pass + tap_fail + tap_skip)); }

# ok DESC
ok() {
	tap_pass=$((tap_pass + 1))
	echo "ok $(tap_n) - $1"
}

# not_ok DESC [DETAIL]: DETAIL (the evidence) follows as comment lines,
# its last TAP_DETAIL_LINES (default 40).
not_ok() {
	tap_fail=$((tap_fail + 1))
	echo "not ok $(tap_n) - $1"
	[ -z "${2:-}" ] || printf '%s\n' "$2" | sed 's/^/#   /' | tail -n "${TAP_DETAIL_LINES:-40}"
}

# skipped DESC WHY
skipped() {
	tap_skip=$((tap_skip + 1))
	echo "ok $(tap_n) - $1 # SKIP $2"
}

# tap_result STATUS DESC [DETAIL]: ok when STATUS is 0, else not_ok.
tap_result() {
	if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2" "${3:-}"; fi
}

# check DESC [DETAIL]: the status of the command just before decides.
# DETAIL must be a plain expansion ("$out"), never a command substitution:
# the substitution runs first and its status would be the one check reads
# (use tap_result "$?" DESC "$(...)" for that).
check() {
	tap_result "$?" "$1" "${2:-}"
}

# tap_relay LABEL FILE STATUS: the output (FILE) of a test program that
# exited with STATUS, as ours: each of its "ok", "not ok" and "# SKIP"
# lines one test of ours, named "LABEL: ..."; its other lines comments;
# then one failure more, with FILE's last lines, unless it ran to its end
# (STATUS 0 and at least one check). Sets tap_relayed to its check count.
tap_relay() {
	tap_relayed=0
	while IFS= read -r tap_rl || [ -n "$tap_rl" ]; do
		case "$tap_rl" in
		"ok "*" # SKIP "*)
			tap_rd=${tap_rl#ok * - }
			skipped "$1: ${tap_rd% # SKIP *}" "${tap_rl##* # SKIP }" ;;
		"ok "*) ok "$1: ${tap_rl#ok * - }" ;;
		"not ok "*) not_ok "$1: ${tap_rl#not ok * - }" ;;
		"#"*) echo "$tap_rl"; continue ;;
		*) echo "# $tap_rl"; continue ;;
		esac
		tap_relayed=$((tap_relayed + 1))
	done <"$2"
	if [ "$3" -ne 0 ] || [ "$tap_relayed" -eq 0 ]; then
		not_ok "$1: ran to its end (status $3, $tap_relayed checks)" "$(tail -n 5 "$2")"
	fi
}

# tap_run LABEL CMD...: runs the test program CMD, its output relayed as
# ours (tap_relay).
tap_run() {
	tap_lbl=$1
	shift
	tap_out=$(mktemp "${TMPDIR:-/tmp}/tap.XXXXXX") || { not_ok "$tap_lbl: mktemp"; return; }
	"$@" >"$tap_out" 2>&1
	tap_relay "$tap_lbl" "$tap_out" "$?"
	rm -f "$tap_out"
}

# tap_summary: the summary line; false when a test failed.
tap_summary() {
	tap_line="$TAP_SUITE: $tap_pass passed, $tap_fail failed"
	[ "$tap_skip" -eq 0 ] || tap_line="$tap_line, $tap_skip skipped"
	echo "$tap_line"
	[ "$tap_fail" -eq 0 ]
}

# finish: the summary line, then exit: non-zero when a test failed.
finish() {
	tap_summary
	exit
}
