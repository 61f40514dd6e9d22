#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gputelemetry: the messages a refused write logs are rate limited
# (gputelemetry.rst). 200 bad writes to a file, as fast as one process
# makes them, must each be refused, and add at most printk's rate limit
# burst of that message to the kernel log (DEFAULT_RATELIMIT_BURST, 10 per
# DEFAULT_RATELIMIT_INTERVAL, 5 s, include/linux/ratelimit_types.h), not
# 200. After the interval the message is logged again, with a line that
# counts the ones left out.
#
# Every message a write can trigger is flooded in turn: a number out of
# range (one message for every numeric file), an unknown fail_sensors key,
# new_device malformed and existing, del_device malformed and missing.
# shellcheck disable=SC2154 # gt_marker: set by gt_mark (gt_lib.sh)
. "$(dirname "$0")/gt_lib.sh"

GT_WRITE=${GT_WRITE:-$(dirname "$0")/gt_write}
FLOOD=200
BURST=10
INTERVAL_S=5
S=$GT_ROOT/sim0

gt_require
if [ ! -x "$GT_WRITE" ]; then
	echo "# SKIP: $GT_WRITE not found (built from gt_write.c)"
	exit $KSFT_SKIP
fi
gt_unload || { echo "# cannot unload $GT_MOD"; exit $KSFT_FAIL; }
wout=$(mktemp)
trap 'rm -f "$wout"; gt_unload' EXIT

# flood FILE ERRNO DATA MESSAGE: FLOOD writes of DATA to FILE, each on a
# fresh open, are all refused with ERRNO; the kernel log gains MESSAGE at
# least once (the first is never lost) and at most BURST times per rate
# limit interval the flood lasted.
flood() {
	_ff=$1
	_fe=$2
	_fd=$3
	_fm=$4
	set --
	_i=0
	while [ $_i -lt $FLOOD ]; do
		set -- "$@" "$_fd"
		_i=$((_i + 1))
	done
	gt_mark
	_t0=$(date +%s)
	"$GT_WRITE" -o "$_ff" "$@" >"$wout"
	_t1=$(date +%s)
	_ok=$(grep -cx "$_fe" "$wout" || true)
	[ "$_ok" -eq $FLOOD ] ||
		fail "$FLOOD writes of '$_fd' to ${_ff#"$GT_ROOT"/}: $_ok refused with $_fe; got $(sort "$wout" | uniq -c | tr '\n' ' ')"
	_n=$(gt_log_since "$gt_marker" | grep -cF "$GT_MOD: $_fm" || true)
	# A flood that straddles the end of an interval gets a new burst.
	_max=$((BURST * ((_t1 - _t0) / INTERVAL_S + 1)))
	[ $((_t1 - _t0)) -lt $INTERVAL_S ] || _max=$((_max + BURST))
	echo "# ${_ff#"$GT_ROOT"/}: $FLOOD bad writes in $((_t1 - _t0)) s, $_n lines '$_fm' logged (at most $_max)"
	[ "$_n" -ge 1 ] || fail "no message '$GT_MOD: $_fm' at all; log: $(gt_log_since "$gt_marker" | head -n 5)"
	[ "$_n" -le "$_max" ] ||
		fail "$_n lines '$_fm' for $FLOOD bad writes: not rate limited (at most $_max)"
}

t_knob() {
	flood $S/load EINVAL 101 'sim0/load: "101" is invalid: expected a decimal integer in 0..100'
}

t_fail_sensors() {
	flood $S/fail_sensors EINVAL bogus 'sim0: fail_sensors: unknown key "bogus"'
}

t_new_malformed() {
	flood $GT_ROOT/new_device EINVAL '7 nope' 'new_device: expected "<id> <profile>"'
}

t_new_exists() {
	flood $GT_ROOT/new_device EEXIST '0 navi14' 'new_device: sim0 already exists'
}

t_del_malformed() {
	flood $GT_ROOT/del_device EINVAL x 'del_device: expected "<id>"'
}

t_del_missing() {
	flood $GT_ROOT/del_device ENOENT 200 'del_device: no simulated device sim200'
}

# After the interval the message is logged again, and a line counts those
# the flood left out ("gt_write_uint: N callbacks suppressed").
t_after_interval() {
	sleep $((INTERVAL_S + 1))
	gt_mark
	"$GT_WRITE" $S/load 102 >"$wout"
	[ "$(cat "$wout")" = EINVAL ] || fail "writing 102 to load: $(cat "$wout"), expected EINVAL"
	log=$(gt_log_since "$gt_marker")
	echo "$log" | grep -qF "$GT_MOD: sim0/load: \"102\" is invalid" ||
		fail "no message for the write after the interval; log: $log"
	echo "$log" | grep -qE 'gt_write_uint: [0-9]+ callbacks suppressed' ||
		fail "no line counting the messages left out; log: $log"
}

ktap_header 9
gt_mark
splat_mark=$gt_marker
res=0
gt_load sim_devices=1 && [ -d $S ] || res=1
ktap_result $res "load with a simulated device"
[ $res -eq 0 ] || ktap_finish
gt_run t_knob "$FLOOD bad numbers to a knob: each refused, at most $BURST messages"
gt_run t_fail_sensors "$FLOOD unknown fail_sensors keys: each refused, at most $BURST messages"
gt_run t_new_malformed "$FLOOD malformed new_device commands: each refused, at most $BURST messages"
gt_run t_new_exists "$FLOOD new_device of an existing id: each refused, at most $BURST messages"
gt_run t_del_malformed "$FLOOD malformed del_device commands: each refused, at most $BURST messages"
gt_run t_del_missing "$FLOOD del_device of a missing id: each refused, at most $BURST messages"
gt_run t_after_interval "after the interval, logged again with the count of those left out"
gt_unload_no_splat "$splat_mark"
ktap_finish
