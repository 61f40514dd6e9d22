# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Shared by the gputelemetry shell tests: KTAP output, loading the module,
# simulated devices, and a check of the kernel log for splats.
#
# The module is found at $GPUTELEMETRY_KO, at /lib/gputelemetry/gputelemetry.ko,
# or through modprobe; without it the test skips (exit 4).

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

GT_ROOT=/sys/kernel/debug/gputelemetry
GT_MOD=gputelemetry

gt_n=0
gt_pass=0
gt_fail=0
gt_skip=0

ktap_header() { # plan
	echo "TAP version 13"
	echo "1..$1"
}

ktap_result() { # 0|1 description
	gt_n=$((gt_n + 1))
	if [ "$1" -eq 0 ]; then
		gt_pass=$((gt_pass + 1))
		echo "ok $gt_n $2"
	else
		gt_fail=$((gt_fail + 1))
		echo "not ok $gt_n $2"
	fi
}

ktap_skip() { # description reason
	gt_n=$((gt_n + 1))
	gt_skip=$((gt_skip + 1))
	echo "ok $gt_n $1 # SKIP $2"
}

ktap_finish() {
	echo "# Totals: pass:$gt_pass fail:$gt_fail xfail:0 xpass:0 skip:$gt_skip error:0"
	[ "$gt_fail" -eq 0 ] || exit $KSFT_FAIL
	[ "$gt_pass" -gt 0 ] || exit $KSFT_SKIP
	exit $KSFT_PASS
}

# Every test case is a shell function; "gt_run name description" runs it
# in a subshell and records its status. A case fails by "fail message".
fail() {
	echo "# $*"
	exit 1
}

gt_run() { # function description
	( set -e; "$1" )
	ktap_result $? "$2"
}

gt_ko() {
	if [ -n "${GPUTELEMETRY_KO:-}" ]; then
		echo "$GPUTELEMETRY_KO"
	elif [ -f /lib/gputelemetry/gputelemetry.ko ]; then
		echo /lib/gputelemetry/gputelemetry.ko
	fi
}

# Whether modprobe can load the module: modinfo reads its name from the
# file modules.dep names. Not its status: busybox's modinfo returns 0
# when the file is missing, and busybox's modprobe has no -n.
gt_modinfo_finds() {
	[ "$(modinfo -F name $GT_MOD 2>/dev/null)" = $GT_MOD ]
}

# Skips the whole test (exit 4) when the module or debugfs is missing.
gt_require() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "# SKIP: needs root"
		exit $KSFT_SKIP
	fi
	if [ -z "$(gt_ko)" ] && ! gt_loaded && ! gt_modinfo_finds; then
		echo "# SKIP: $GT_MOD.ko not found (set GPUTELEMETRY_KO, or install it for modprobe)"
		exit $KSFT_SKIP
	fi
	if [ ! -d /sys/kernel/debug ] || ! grep -q ' /sys/kernel/debug debugfs ' /proc/mounts; then
		mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null || {
			echo "# SKIP: debugfs is not mounted"
			exit $KSFT_SKIP
		}
	fi
}

gt_loaded() {
	[ -d /sys/module/$GT_MOD ]
}

# The keys of the module's readings (GT_SENSORS in gputelemetry.h), in the
# order "sensors" and "history" list them, on one line, from gt_keys (built
# from gt_keys.c with the header): the tests never spell the list out.
# Fails, with a message, when gt_keys is missing:
#   KEYS=$(gt_sensor_keys) || exit $KSFT_FAIL
gt_sensor_keys() {
	if [ ! -x "$(dirname "$0")/gt_keys" ]; then
		echo "# gt_keys not found beside $0 (built from gt_keys.c)" >&2
		return 1
	fi
	"$(dirname "$0")/gt_keys" | tr '\n' ' ' | sed 's/ $//'
}

gt_load() { # [params...]
	ko=$(gt_ko)
	if [ -n "$ko" ]; then
		insmod "$ko" "$@"
	else
		modprobe $GT_MOD "$@"
	fi
}

# Unloads, retrying while a previous reader is still closing.
gt_unload() {
	i=0
	while gt_loaded; do
		rmmod $GT_MOD 2>/dev/null && return 0
		i=$((i + 1))
		[ $i -lt 50 ] || { rmmod $GT_MOD; return 1; }
		sleep 0.1
	done
	return 0
}

# Prints the sampler's count of samples of sim<id> (the last "stats" line).
gt_samples() { # id
	sed -n 's/^sampler: samples=\([0-9]*\) .*/\1/p' $GT_ROOT/sim$1/stats
}

# Waits until sim<id> took at least n samples since creation (at most 20 s).
gt_wait_samples() { # id n
	i=0
	while [ "$(gt_samples "$1")" -lt "$2" ] 2>/dev/null; do
		i=$((i + 1))
		[ $i -le 200 ] || return 1
		sleep 0.1
	done
	[ "$(gt_samples "$1")" -ge "$2" ] 2>/dev/null
}

# Marks the kernel log, so that gt_splats reports only what came after.
gt_mark() {
	gt_marker="gputelemetry-selftest-mark-$$-$(date +%s)-$gt_n"
	echo "$gt_marker" >/dev/kmsg
}

# Prints the kernel log from the line holding marker $1.
gt_log_since() {
	dmesg | sed -n "/$1/,\$p"
}

# The last case of a test: the module unloads, and nothing since marker $1
# (the test's first gt_mark) is a splat.
gt_unload_no_splat() { # marker
	gt_marker=$1
	_res=0
	gt_unload || _res=1
	gt_splats || _res=1
	ktap_result $_res "unload and no kernel splat"
}

# Prints kernel splats logged since gt_mark; returns 1 when there are any.
gt_splats() {
	found=$(gt_log_since "$gt_marker" |
		grep -E 'BUG:|WARNING:|Oops|general protection|UBSAN|KASAN|possible (circular|recursive) locking|inconsistent lock state|DEBUG_LOCKS_WARN_ON|unreferenced object|Call Trace:' || true)
	[ -z "$found" ] && return 0
	echo "$found" | sed 's/^/# splat: /'
	return 1
}
