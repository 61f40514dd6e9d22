#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gputelemetry: bad input to every writable file (new_device, del_device,
# and per device interval_ms, load, fail_sensors, stats). Each bad write
# must be refused with the errno gputelemetry.rst documents and change
# nothing, which is checked by reading the state back after every write:
# empty, too long (a page and more), non-numeric, negative, out of range
# (overflowing 32 and 64 bits too), with and without a trailing newline,
# stray spaces, control and non-ASCII bytes, and a command split over two
# write() calls (each write is one command; the pieces are not joined).
#
# Writes go through gt_write (built from gt_write.c), which prints the
# errno name of each write() exactly.
# shellcheck disable=SC2154 # gt_marker: set by gt_mark (gt_lib.sh)
. "$(dirname "$0")/gt_lib.sh"

GT_WRITE=${GT_WRITE:-$(dirname "$0")/gt_write}
gt_require
if [ ! -x "$GT_WRITE" ]; then
	echo "# SKIP: $GT_WRITE not found (built from gt_write.c)"
	exit $KSFT_SKIP
fi
gt_unload || { echo "# cannot unload $GT_MOD"; exit $KSFT_FAIL; }

# Everything a write could change, into $STATE: the directory, the device
# list, each simulated device's knobs and stats epoch. Shell builtins only
# (no process per file): on a debug kernel under emulation every fork
# counts.
gt_state() {
	STATE=
	for _e in "$GT_ROOT"/*; do
		STATE="$STATE ${_e##*/}"
	done
	while IFS= read -r _l; do
		STATE="$STATE|$_l"
	done <$GT_ROOT/devices
	for _d in "$GT_ROOT"/sim*; do
		[ -d "$_d" ] || continue
		read -r _iv <"$_d/interval_ms"
		read -r _ld <"$_d/load"
		read -r _fs <"$_d/fail_sensors"
		read -r _st <"$_d/stats"
		STATE="$STATE|${_d##*/}: interval_ms=$_iv load=$_ld fail_sensors=$_fs $_st"
	done
}

wout=$(mktemp)
trap 'rm -f "$wout"; gt_unload' EXIT

# w FILE EXPECTED DATA...: gt_write FILE DATA... (one open file, one
# write() per DATA) must print EXPECTED: one word per write, "ok N" for a
# write of N bytes that went through.
w() {
	_wf=$1
	_we=$2
	shift 2
	"$GT_WRITE" "$_wf" "$@" >"$wout"
	_wg=
	while IFS= read -r _l; do
		_wg="$_wg${_wg:+ }$_l"
	done <"$wout"
	[ "$_wg" = "$_we" ] || fail "write $(for _wa in "$@"; do printf "'%s' " "$_wa"; done)to ${_wf#"$GT_ROOT"/}: expected $_we, got $_wg"
}

# refused FILE ERRNO DATA...: each DATA, written as the only write of a
# fresh open of FILE, is refused with ERRNO; and the state is the same
# after all of them.
refused() {
	_rf=$1
	_re=$2
	shift 2
	_rall="$*"
	gt_state
	_rb=$STATE
	"$GT_WRITE" -o "$_rf" "$@" >"$wout"
	_rbad=
	while IFS= read -r _l; do
		[ "$_l" = "$_re" ] || _rbad="$_rbad '$1' gave $_l;"
		shift
	done <"$wout"
	[ $# -eq 0 ] || fail "gt_write stopped before writing '$1' to ${_rf#"$GT_ROOT"/}"
	[ -z "$_rbad" ] || fail "to ${_rf#"$GT_ROOT"/}, expected $_re:$_rbad"
	gt_state
	[ "$_rb" = "$STATE" ] ||
		fail "refused writes to ${_rf#"$GT_ROOT"/} ($_rall) changed the state from [$_rb] to [$STATE]"
}

# refused_list FILE ERRNO LIST: refused, with the non-empty lines of LIST.
refused_list() {
	_lf=$1
	_le=$2
	_ll=$3
	set --
	while IFS= read -r _a; do
		if [ -n "$_a" ]; then set -- "$@" "$_a"; fi
	done <<EOF
$_ll
EOF
	refused "$_lf" "$_le" "$@"
}

# Malformed input common to every file: empty, a lone newline, two
# newlines, spaces around, control and non-ASCII bytes, a page and more.
common_bad='
\n
\n\n
\t
\x00
\xff
@4095:1
@4096:1
@5000:1
@1048576:1
'
# Numbers no decimal 0..N field of the module accepts.
num_bad='abc
1a
-1
+1
0x10
1e3
1.5
4294967296
4294967306
18446744073709551616
99999999999999999999999999
'

S=$GT_ROOT/sim0

setup() {
	gt_load sim_devices=2 || return 1
	[ -d $S ] || return 1
	echo 40 >$S/load && echo 50 >$S/interval_ms && echo "sclk mclk" >$S/fail_sensors
}

t_setup() {
	[ "$(cat $S/load)" = 40 ] || fail "load reads '$(cat $S/load)', not 40"
	[ "$(cat $S/interval_ms)" = 50 ] || fail "interval_ms reads '$(cat $S/interval_ms)', not 50"
	[ "$(cat $S/fail_sensors)" = "sclk mclk" ] || fail "fail_sensors reads '$(cat $S/fail_sensors)'"
}

t_empty() {
	for f in new_device del_device sim0/interval_ms sim0/load sim0/fail_sensors sim0/stats; do
		refused $GT_ROOT/$f EINVAL '' '\n'
	done
}

t_new_bad() {
	refused $GT_ROOT/new_device EINVAL '5' '5\n' '5 ' ' 5 navi14' '5  navi14' \
		'5 navi14 ' '5 navi14\n\n' '\n5 navi14' '5\tnavi14' '5 navi14\x00' \
		'5 navi14\xff' '5 navi99' '5 NAVI14' 'navi14' 'navi14 5' '5 navi14 navi10' \
		'256 navi14' '300 navi14' '-1 navi14' '+5 navi14' '0x5 navi14' \
		'4294967301 navi14' '18446744073709551621 navi14' 'abc navi14' '5,navi14' \
		'@4096:5' '@5000:5'
	refused_list $GT_ROOT/new_device EINVAL "$common_bad"
	[ ! -e $GT_ROOT/sim5 ] || fail "sim5 exists"
}

t_new_exists() {
	refused $GT_ROOT/new_device EEXIST '0 navi14' '0 navi14\n' '1 navi10' '0 polaris10\n'
}

t_new_msg() {
	gt_mark
	w $GT_ROOT/new_device EINVAL '7 nope'
	w $GT_ROOT/new_device EEXIST '1 navi14'
	log=$(gt_log_since "$gt_marker")
	echo "$log" | grep -qF 'gputelemetry: new_device: expected "<id> <profile>" with id 0..255 and profile one of: navi14 navi10 polaris10' ||
		fail "no message with the expected format; log: $log"
	echo "$log" | grep -qF 'gputelemetry: new_device: sim1 already exists' ||
		fail "no 'sim1 already exists' message; log: $log"
}

t_new_partial() {
	refused $GT_ROOT/new_device EINVAL '5' ' navi14'
	gt_state
	before=$STATE
	w $GT_ROOT/new_device "EINVAL EINVAL" '5' ' navi14'
	w $GT_ROOT/new_device "EINVAL EINVAL" '5 nav' 'i14\n'
	gt_state
	[ "$before" = "$STATE" ] || fail "split writes changed the state from [$before] to [$STATE]"
	[ ! -e $GT_ROOT/sim5 ] || fail "the pieces were joined into a command: sim5 exists"
}

t_new_good() {
	w $GT_ROOT/new_device "ok 8" '7 navi10'
	w $GT_ROOT/new_device "ok 12" '8 polaris10\n'
	w $GT_ROOT/new_device "ok 10" '255 navi14'
	grep -qx 'sim7 sim:7 navi10 sim active' $GT_ROOT/devices || fail "sim7 not listed: $(cat $GT_ROOT/devices)"
	grep -qx 'sim8 sim:8 polaris10 sim active' $GT_ROOT/devices || fail "sim8 not listed"
	grep -qx 'sim255 sim:255 navi14 sim active' $GT_ROOT/devices || fail "sim255 not listed"
	# A second command on the same open file is a new command.
	w $GT_ROOT/new_device "ok 8 EEXIST" '9 navi14' '9 navi14'
	[ -d $GT_ROOT/sim9 ] || fail "sim9 missing"
}

t_del_bad() {
	refused $GT_ROOT/del_device EINVAL ' 7' '7 ' '7\n\n' '7 8' '7\t' 'sim7' '7\x00' \
		'256' '-7' '+7' '0x7' '4294967303' '18446744073709551623' '@4096:7' '@5000:7'
	refused_list $GT_ROOT/del_device EINVAL "$common_bad
$num_bad"
	[ -d $GT_ROOT/sim7 ] || fail "sim7 was removed"
}

t_del_missing() {
	gt_mark
	refused $GT_ROOT/del_device ENOENT '200' '200\n' '6'
	gt_log_since "$gt_marker" | grep -qF 'gputelemetry: del_device: no simulated device sim200' ||
		fail "no 'no simulated device sim200' message"
	gt_mark
	w $GT_ROOT/del_device EINVAL 'x'
	gt_log_since "$gt_marker" | grep -qF 'gputelemetry: del_device: expected "<id>" with id 0..255' ||
		fail "no message with the expected format"
}

t_del_partial() {
	# sim7 and sim8 exist, sim78 never does: "7" then "8" removes sim7
	# and sim8, each write being its own command.
	w $GT_ROOT/new_device "ok 9" '78 navi14'
	refused $GT_ROOT/del_device EINVAL '7 ' '8\n\n'
	w $GT_ROOT/del_device "ok 1 ok 2" '7' '8\n'
	[ ! -e $GT_ROOT/sim7 ] && [ ! -e $GT_ROOT/sim8 ] || fail "sim7 or sim8 still there"
	[ -d $GT_ROOT/sim78 ] || fail "sim78 removed by '7' then '8'"
	w $GT_ROOT/del_device "ok 2 ok 3 ok 2 ENOENT" '78' '255' '9\n' '9'
}

# The one rule of numbers, for module parameters as for the numeric
# files: decimal digits only, so a leading '+' (which kstrtouint() takes)
# is refused, and the kernel log says what was expected.
t_param_plus() {
	for p in sim_devices=+2 interval_ms=+100; do
		gt_mark
		if gt_load "$p" 2>/dev/null; then
			gt_unload
			fail "insmod $p succeeded"
		fi
		gt_loaded && fail "insmod $p failed but left the module loaded"
		case ${p%%=*} in
		sim_devices) range=0..16 ;;
		interval_ms) range=10..60000 ;;
		esac
		msg="gputelemetry: $p is invalid: expected a decimal integer in $range"
		gt_log_since "$gt_marker" | grep -qF "$msg" ||
			fail "no kernel message '$msg'; log: $(gt_log_since "$gt_marker")"
	done
}

# knob_msg FILE VALUE RANGE: writing VALUE to sim0/FILE is refused with
# EINVAL and logged with the file, the value and the range.
knob_msg() {
	gt_mark
	w $S/$1 EINVAL "$2"
	msg="gputelemetry: sim0/$1: \"$2\" is invalid: expected a decimal integer in $3"
	gt_log_since "$gt_marker" | grep -qF "$msg" ||
		fail "no kernel message '$msg'; log: $(gt_log_since "$gt_marker")"
}

# The messages of interval_ms and load name the file, the value and the
# range.
t_knob_msg() {
	knob_msg interval_ms +50 10..60000
	knob_msg interval_ms 9 10..60000
	knob_msg load +5 0..100
}

# interval_ms: 10..60000.
t_interval() {
	f=$S/interval_ms
	refused $f EINVAL 0 9 60001 100000 '-10' '+50' ' 50' '50 ' '50\n\n' '50\t' '5 0' \
		'50ms' '050x' '4294967306' '@4096:5' '@5000:5'
	refused_list $f EINVAL "$common_bad
$num_bad"
	# Split: "2" and "0" are each out of range; "20" would be valid.
	w $f "EINVAL EINVAL" 2 0
	[ "$(cat $f)" = 50 ] || fail "interval_ms is $(cat $f) after refused writes"
	w $f "ok 2" 10
	[ "$(cat $f)" = 10 ] || fail "interval_ms 10 reads $(cat $f)"
	w $f "ok 6" '60000\n'
	[ "$(cat $f)" = 60000 ] || fail "interval_ms 60000 reads $(cat $f)"
	w $f "ok 3" '50\n'
	grep -qx 'interval_ms: 50' $S/info || fail "info does not show interval_ms: 50"
}

# load: 0..100.
t_load() {
	f=$S/load
	refused $f EINVAL 101 1000 '-1' '+5' ' 5' '5 ' '5\n\n' '50%' '4294967336' \
		'@4096:5' '@5000:5'
	refused_list $f EINVAL "$common_bad
$num_bad"
	# Split "10" then "1" is two commands (10, then 1), never 101.
	w $f "ok 2 ok 1" 10 1
	[ "$(cat $f)" = 1 ] || fail "load reads $(cat $f) after '10' then '1', expected 1"
	w $f "ok 1" 0
	[ "$(cat $f)" = 0 ] || fail "load 0 reads $(cat $f)"
	w $f "ok 4" '100\n'
	[ "$(cat $f)" = 100 ] || fail "load 100 reads $(cat $f)"
	w $f "ok 2" 40
}

# fail_sensors: keys of GT_SENSORS separated by one space, or "none".
t_fail_sensors() {
	f=$S/fail_sensors
	gt_mark
	refused $f EINVAL bogus 'sclk bogus' 'sclk  mclk' ' sclk' 'sclk ' 'SCLK' 'sclk,mclk' \
		'sclk\tmclk' 'sclk\n\n' 'na' 'unavailable' 'sclk\x00' '@4096:a' '@5000:a' 'sc' 'lk'
	refused_list $f EINVAL "$common_bad"
	gt_log_since "$gt_marker" | grep -q 'bogus' || fail "no message naming the unknown key 'bogus'"
	w $f "EINVAL EINVAL" 'sc' 'lk'
	[ "$(cat $f)" = "sclk mclk" ] || fail "fail_sensors reads '$(cat $f)' after refused writes"
	w $f "ok 13" 'fan temp_edge'
	[ "$(cat $f)" = "temp_edge fan" ] || fail "fail_sensors reads '$(cat $f)', expected 'temp_edge fan'"
	w $f "ok 5" 'none\n'
	[ "$(cat $f)" = none ] || fail "fail_sensors reads '$(cat $f)' after none"
	w $f "ok 10" 'sclk mclk\n'
	[ "$(cat $f)" = "sclk mclk" ] || fail "fail_sensors reads '$(cat $f)'"
}

# stats: only "reset".
t_stats() {
	f=$S/stats
	refused $f EINVAL Reset RESET 'reset ' ' reset' 'reset\n\n' rese resetx 'reset\x00' \
		'reset\treset' 1 0 '@4096:r' '@5000:r'
	refused_list $f EINVAL "$common_bad
$num_bad"
	since=$(head -n 1 $f)
	w $f "EINVAL EINVAL" 'res' 'et'
	[ "$since" = "$(head -n 1 $f)" ] || fail "split 'res' 'et' reset the stats"
	w $f "ok 5" reset
	s1=$(head -n 1 $f)
	[ "$s1" != "$since" ] || fail "reset did not move '$since'"
	w $f "ok 6" 'reset\n'
	s2=$(head -n 1 $f)
	[ "$s2" != "$s1" ] || fail "reset with newline did not move '$s1'"
}

# Files without a write handler refuse every write.
t_readonly() {
	for f in version devices sim0/info sim0/sensors sim0/cu_count sim0/history; do
		refused $GT_ROOT/$f EINVAL 1 'reset\n' '0 navi14' '9\n'
	done
}

# Writes through files held open across the device's removal fail with
# -EIO (gputelemetry.rst, "Lifetime and safety") and change nothing.
t_removed() {
	w $GT_ROOT/new_device "ok 8" '9 navi14'
	exec 5>$GT_ROOT/sim9/load 6>$GT_ROOT/sim9/interval_ms 7>$GT_ROOT/sim9/fail_sensors 8>$GT_ROOT/sim9/stats
	w fd:5 "ok 2" 10
	w $GT_ROOT/del_device "ok 1" 9
	w fd:5 "EIO" 20
	w fd:6 "EIO" 100
	w fd:7 "EIO" sclk
	w fd:8 "EIO" reset
	w fd:5 "EIO" 'bogus'
	exec 5>&- 6>&- 7>&- 8>&-
	[ ! -e $GT_ROOT/sim9 ] || fail "sim9 still there"
}

ktap_header 20
gt_run t_param_plus "insmod sim_devices=+2 and interval_ms=+100 refused, and logged"
gt_mark
res=0
setup || res=1
ktap_result $res "load with 2 simulated devices and set known knobs"
[ $res -eq 0 ] || ktap_finish
splat_mark=$gt_marker
gt_run t_setup "knobs read back as set"
gt_run t_empty "empty writes refused with EINVAL on every writable file"
# The messages are checked before the floods below: each message is rate
# limited (10 in 5 s, gt_ratelimit.sh), and a flood of it uses that up.
gt_run t_new_msg "new_device: errors logged with the expected format"
gt_run t_del_missing "del_device: missing id refused with ENOENT, errors logged"
gt_run t_knob_msg "interval_ms and load: errors logged with the file, the value and the range"
gt_run t_new_bad "new_device: malformed input refused with EINVAL, nothing created"
gt_run t_new_exists "new_device: existing id refused with EEXIST"
gt_run t_new_partial "new_device: a command split over two writes is refused"
gt_run t_new_good "new_device: valid input with and without newline"
gt_run t_del_bad "del_device: malformed input refused with EINVAL, nothing removed"
gt_run t_del_partial "del_device: each write is one command"
gt_run t_interval "interval_ms: bad input refused with EINVAL, range 10..60000"
gt_run t_load "load: bad input refused with EINVAL, range 0..100"
gt_run t_fail_sensors "fail_sensors: bad input refused with EINVAL, keys read back in order"
gt_run t_stats "stats: only 'reset' accepted"
gt_run t_readonly "read-only files refuse writes with EINVAL"
gt_run t_removed "writes through files held across device removal fail with EIO"
gt_unload_no_splat "$splat_mark"
ktap_finish
