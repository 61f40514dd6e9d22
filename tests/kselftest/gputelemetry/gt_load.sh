#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gputelemetry: loading and unloading, with and without simulated devices,
# with devices present and files open; the module parameters applied.
. "$(dirname "$0")/gt_lib.sh"

gt_require
gt_unload || { echo "# cannot unload $GT_MOD"; exit $KSFT_FAIL; }
trap 'exec 3<&- 4<&- 5<&- 2>/dev/null; gt_unload' EXIT
gt_mark

load_plain() {
	gt_load || fail "insmod without parameters failed"
	[ -d $GT_ROOT ] || fail "$GT_ROOT missing"
	for f in version devices new_device del_device; do
		[ -e $GT_ROOT/$f ] || fail "$GT_ROOT/$f missing"
	done
	grep -q "^gputelemetry [^ ]* format [0-9]*$" $GT_ROOT/version ||
		fail "version: '$(cat $GT_ROOT/version)'"
	n=$(grep -c '^sim' $GT_ROOT/devices || true)
	[ "$n" -eq 0 ] || fail "$n simulated devices without sim_devices"
	gt_unload || fail "rmmod failed"
	[ ! -e $GT_ROOT ] || fail "$GT_ROOT left after rmmod"
	! gt_loaded || fail "still loaded"
}

load_sim_devices() {
	gt_load sim_devices=3 || fail "insmod sim_devices=3 failed"
	n=$(grep -c '^sim' $GT_ROOT/devices || true)
	[ "$n" -eq 3 ] || fail "$n simulated devices, want 3: $(cat $GT_ROOT/devices)"
	for i in 0 1 2; do
		grep -qx "sim$i sim:$i navi14 sim active" $GT_ROOT/devices ||
			fail "no line for sim$i: $(cat $GT_ROOT/devices)"
		grep -q '^sclk: [0-9]* MHz$' $GT_ROOT/sim$i/sensors || fail "sim$i sensors"
		[ "$(cat $GT_ROOT/sim$i/cu_count)" = 22 ] || fail "sim$i cu_count"
	done
	[ ! -e $GT_ROOT/sim3 ] || fail "sim3 exists"
	gt_unload || fail "rmmod with 3 devices failed"
	[ ! -e $GT_ROOT ] || fail "$GT_ROOT left after rmmod"
}

params_applied() {
	gt_load sim_devices=1 interval_ms=250 history_depth=16 || fail "insmod failed"
	# Read-only (0444) in sysfs, with the values given.
	for p in sim_devices=1 interval_ms=250 history_depth=16; do
		f=/sys/module/$GT_MOD/parameters/${p%=*}
		[ "$(cat "$f")" = "${p#*=}" ] || fail "$f is '$(cat "$f")', want ${p#*=}"
		[ "$(stat -c %a "$f")" = 444 ] || fail "$f mode $(stat -c %a "$f")"
	done
	[ "$(cat $GT_ROOT/sim0/interval_ms)" = 250 ] ||
		fail "interval_ms=250 but sim0 has $(cat $GT_ROOT/sim0/interval_ms)"
	grep -qx 'interval_ms: 250' $GT_ROOT/sim0/info || fail "info interval_ms"
	# A device created later gets the parameter's period too.
	echo "5 navi14" >$GT_ROOT/new_device || fail "new_device"
	[ "$(cat $GT_ROOT/sim5/interval_ms)" = 250 ] || fail "sim5 interval_ms"
	# history_depth=16: a new reader gets at most the 16 kept samples.
	echo 10 >$GT_ROOT/sim5/interval_ms
	gt_wait_samples 5 20 || fail "sim5 took no 20 samples"
	# Slow the sampler down first, so no sample lands during the read.
	echo 60000 >$GT_ROOT/sim5/interval_ms
	n=$(wc -l <$GT_ROOT/sim5/history)
	[ "$n" -eq 16 ] || fail "history of a 16-deep ring after 20 samples: $n lines"
	gt_unload || fail "rmmod failed"
}

# rmmod while devices exist and files are open: refused (module in use),
# the module keeps working; once the files are closed it succeeds.
unload_with_open_files() {
	gt_load sim_devices=2 interval_ms=10 || fail "insmod failed"
	echo "9 navi14" >$GT_ROOT/new_device || fail "new_device"
	exec 3<$GT_ROOT/sim0/history 4<$GT_ROOT/sim9/sensors 5<$GT_ROOT/sim1/stats
	head -c 10 <&3 >/dev/null
	! rmmod $GT_MOD 2>/dev/null || fail "rmmod with files open succeeded"
	gt_loaded || fail "rmmod failed but the module is gone"
	cat <&3 >/dev/null || fail "read after a refused rmmod failed"
	grep -q '^sclk:' $GT_ROOT/sim9/sensors || fail "sim9 stopped working"
	exec 3<&- 4<&- 5<&-
	gt_unload || fail "rmmod after closing the files failed"
	[ ! -e $GT_ROOT ] || fail "$GT_ROOT left after rmmod"
}

# Load and unload at once, many times: the samplers start and stop at any point.
reload_cycles() {
	for i in 1 2 3 4 5 6 7 8; do
		gt_load sim_devices=4 interval_ms=10 || fail "insmod $i failed"
		[ $((i % 2)) -eq 0 ] && cat $GT_ROOT/sim3/history >/dev/null
		gt_unload || fail "rmmod $i failed"
	done
}

no_splat() {
	gt_splats || fail "kernel splat"
}

# Each case starts and ends with the module unloaded, even when one fails.
case_run() {
	gt_unload
	gt_run "$@"
	exec 3<&- 4<&- 5<&-
	gt_unload
}

ktap_header 6
case_run load_plain "load and unload without parameters"
case_run load_sim_devices "load with sim_devices=3 and unload"
case_run params_applied "interval_ms and history_depth parameters applied"
case_run unload_with_open_files "rmmod with devices present and files open"
case_run reload_cycles "8 quick load/unload cycles with 4 devices"
gt_run no_splat "no kernel splat"
ktap_finish
