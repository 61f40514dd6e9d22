#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gputelemetry: module parameter ranges. In range, insmod works; out of
# range or not a decimal integer, insmod fails, the module is not left
# loaded, and the kernel log names the parameter and its range.
. "$(dirname "$0")/gt_lib.sh"

gt_require
gt_unload || { echo "# cannot unload $GT_MOD"; exit $KSFT_FAIL; }
trap 'gt_unload' EXIT

good="sim_devices=0 sim_devices=16 interval_ms=10 interval_ms=60000 history_depth=16 history_depth=65536"
bad="sim_devices=17 sim_devices=-1 sim_devices=x sim_devices=0x1 interval_ms=9 interval_ms=60001 interval_ms=0 history_depth=15 history_depth=65537 history_depth=0"

ktap_header $(( $(echo $good $bad | wc -w) + 1 ))
gt_mark

for p in $good; do
	res=0
	if ! gt_load "$p"; then
		echo "# insmod $p failed"
		res=1
	elif [ "$p" = sim_devices=16 ]; then
		n=$(grep -c '^sim' $GT_ROOT/devices || true)
		[ "$n" -eq 16 ] || { echo "# $n devices with $p"; res=1; }
	fi
	gt_unload || res=1
	ktap_result $res "insmod $p accepted"
done

for p in $bad; do
	res=0
	pm="gputelemetry-selftest-param-$$-$p"
	echo "$pm" >/dev/kmsg
	if gt_load "$p" 2>/dev/null; then
		echo "# insmod $p succeeded"
		res=1
		gt_unload
	elif gt_loaded; then
		echo "# insmod $p failed but left the module loaded"
		res=1
		gt_unload
	fi
	# "gputelemetry: interval_ms=9 is invalid: expected a decimal integer in 10..60000"
	name=${p%%=*}
	case $name in
	sim_devices) range=0..16 ;;
	interval_ms) range=10..60000 ;;
	history_depth) range=16..65536 ;;
	esac
	msg="$p is invalid: expected a decimal integer in $range"
	if ! gt_log_since "$pm" | grep -qF "gputelemetry: $msg"; then
		echo "# no kernel message 'gputelemetry: $msg'; the log says:"
		gt_log_since "$pm" | sed -n '2,4s/^/#   /p'
		res=1
	fi
	ktap_result $res "insmod $p refused"
done

gt_load sim_devices=1 && gt_unload
res=$?
gt_splats || res=1
ktap_result $res "loads after the refusals, no splat"
ktap_finish
