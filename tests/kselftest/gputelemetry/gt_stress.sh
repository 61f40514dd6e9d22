#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gputelemetry: a bounded stress. Several concurrent readers of every file
# while devices are created and removed and their knobs written, then rmmod;
# it must end with the module gone and no kernel splat.
#
# GT_STRESS_SECONDS (default 2) bounds the busy phase.
. "$(dirname "$0")/gt_lib.sh"

secs=${GT_STRESS_SECONDS:-2}
gt_require
gt_unload || { echo "# cannot unload $GT_MOD"; exit $KSFT_FAIL; }
work=$(mktemp -d)
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	gt_unload
	rm -rf "$work"
}
trap cleanup EXIT
gt_mark

ktap_header 5
res=0
gt_load sim_devices=4 interval_ms=10 || res=1
ktap_result $res "load with 4 devices at 10 ms"
[ $res -eq 0 ] || ktap_finish

stop=$work/stop

# Readers: whole files, 1-byte reads, and long-lived history cursors.
reader() { # n
	i=0
	while [ ! -e "$stop" ]; do
		for d in $GT_ROOT/sim*; do
			cat "$d/history" "$d/sensors" "$d/stats" "$d/info" >/dev/null 2>&1
			[ $((i % 5)) -eq "$1" ] && dd if="$d/history" bs=1 count=300 2>/dev/null >/dev/null
		done
		cat $GT_ROOT/devices >/dev/null
		i=$((i + 1))
	done
	echo "$i" >"$work/reader$1"
}
cursor() { # device
	exec 3<"$GT_ROOT/sim$1/history" || return
	n=0
	while [ ! -e "$stop" ]; do
		cat <&3 >/dev/null 2>&1 || break
		n=$((n + 1))
		sleep 0.05
	done
	exec 3<&-
	echo "$n" >"$work/cursor$1"
}
# Files of the devices that come and go, held open across their removal:
# reads through them fail (EIO) once the device is gone.
churn_reader() {
	n=0
	while [ ! -e "$stop" ]; do
		for id in 10 11 12 13 14 15; do
			# (A failed redirection of "exec" would end the shell.)
			{
				cat <&4 >/dev/null
				sleep 0.02
				cat <&4 >/dev/null
				cat <&5 >/dev/null
			} 2>/dev/null 4<"$GT_ROOT/sim$id/history" 5<"$GT_ROOT/sim$id/stats" &&
				n=$((n + 1))
		done
	done
	echo "$n" >"$work/churn"
}
# The control side: devices 10..15 come and go, knobs change.
control() {
	i=0
	while [ ! -e "$stop" ]; do
		id=$((10 + i % 6))
		if [ -d "$GT_ROOT/sim$id" ]; then
			echo "$id" >$GT_ROOT/del_device
		else
			echo "$id navi14" >$GT_ROOT/new_device
		fi
		d=$GT_ROOT/sim$((i % 4))
		echo $((i * 37 % 101)) >"$d/load"
		echo $((10 + i % 3 * 10)) >"$d/interval_ms"
		case $((i % 4)) in
		0) echo "sclk temp_mem" >"$d/fail_sensors" ;;
		1) echo none >"$d/fail_sensors" ;;
		2) echo reset >"$d/stats" ;;
		esac
		i=$((i + 1))
	done
	echo "$i" >"$work/control"
}

for n in 0 1 2 3; do
	reader $n &
	pids="$pids $!"
done
for n in 0 1; do
	cursor $n &
	pids="$pids $!"
done
churn_reader &
pids="$pids $!"
control &
pids="$pids $!"

sleep "$secs"
touch "$stop"
res=0
for p in $pids; do
	wait "$p" || true
done
pids=
for f in reader0 reader1 reader2 reader3 cursor0 cursor1 churn control; do
	[ -s "$work/$f" ] || { echo "# $f did not finish"; res=1; }
done
echo "# $secs s: reader passes $(cat "$work"/reader* | tr '\n' ' ')," \
     "cursor reads $(cat "$work"/cursor* | tr '\n' ' '), files held across removal" \
     "$(cat "$work/churn"), control steps $(cat "$work/control")"
[ "$(cat "$work/control" 2>/dev/null || echo 0)" -ge 6 ] || { echo "# control made too few steps"; res=1; }
ktap_result $res "concurrent readers, device churn and knob writes for $secs s"

# The devices left are exactly the ones the directory shows.
res=0
for d in $GT_ROOT/sim*; do
	n=${d##*/}
	grep -q "^$n sim:${n#sim} navi14 sim active$" $GT_ROOT/devices || { echo "# $n not listed"; res=1; }
done
[ "$(grep -c '^sim' $GT_ROOT/devices)" -eq "$(ls -d $GT_ROOT/sim* | wc -l)" ] ||
	{ echo "# devices and directories differ"; res=1; }
for i in 0 1 2 3; do
	grep -q '^sclk: ' $GT_ROOT/sim$i/sensors || { echo "# sim$i sensors"; res=1; }
done
ktap_result $res "devices list consistent after the churn"

# rmmod while a reader still holds a file open and reads: refused as
# busy or done; once the reader is gone it must succeed.
exec 3<$GT_ROOT/sim0/history
(while cat $GT_ROOT/sim1/history >/dev/null 2>&1; do :; done) &
bg=$!
rmmod $GT_MOD 2>/dev/null && echo "# rmmod with readers succeeded" ||
	echo "# rmmod with readers refused (in use)"
kill $bg 2>/dev/null
wait $bg 2>/dev/null
exec 3<&-
res=0
gt_unload || res=1
! gt_loaded || res=1
[ ! -e $GT_ROOT ] || res=1
ktap_result $res "rmmod after the stress"

res=0
gt_splats || res=1
ktap_result $res "no kernel splat"
ktap_finish
