#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gputelemetry: randomized stress, seeded and reproducible. At least
# GT_STRESS_OPS (default 1000) operations drawn from a seeded PRNG: create
# and remove simulated GPUs, write valid and invalid values to every
# writable file, read every file with random buffer sizes and offsets, hold
# files open across device removal and read or write through them, bind and
# unbind the gt_test_amdgpu test driver (when it is there), unload and
# reload both modules; all the while background readers read every file.
# The result of every operation is checked against what gputelemetry.rst
# documents (a write refused with the documented errno, a value read back,
# EIO through a file of a removed device). Ends with the module unloaded
# and no kernel splat.
#
#   GT_STRESS_SEED=n      replay the operations of seed n (printed first)
#   GT_STRESS_OPS=n       operations to run (default 1000)
#   GT_STRESS_SECONDS=s   time bound (default 90): the run stops there and
#                         says how many operations it made
#   GT_STRESS_VERBOSE=1   print every operation
#   GT_TEST_AMDGPU_KO     path of gt_test_amdgpu.ko (default: next to the
#                         module, /lib/gputelemetry/gt_test_amdgpu.ko)
. "$(dirname "$0")/gt_lib.sh"

GT_WRITE=${GT_WRITE:-$(dirname "$0")/gt_write}
ops=${GT_STRESS_OPS:-1000}
secs=${GT_STRESS_SECONDS:-90}
verbose=${GT_STRESS_VERBOSE:-0}
if [ -n "${GT_STRESS_SEED:-}" ]; then
	seed=$GT_STRESS_SEED
else
	seed=$((($(date +%s) * 2654435761 + $$) % 2147483648))
fi
case "$seed$ops$secs" in
*[!0-9]*) echo "# GT_STRESS_SEED, GT_STRESS_OPS and GT_STRESS_SECONDS take decimal integers"
	  exit $KSFT_FAIL ;;
esac

# The keys of GT_SENSORS (module/uapi/gputelemetry.h), in order.
KEYS=$(gt_sensor_keys) || exit $KSFT_FAIL
PROFILES="navi14 navi10 polaris10"
IDS="0 1 2 3 4 5 6 7 8 9 200 255"
DEV_FILES="info sensors cu_count history stats interval_ms"
SIM_FILES="$DEV_FILES load fail_sensors"
TADRV=gt_test_amdgpu

gt_require
gt_unload || { echo "# cannot unload $GT_MOD"; exit $KSFT_FAIL; }

echo "# seed $seed (replay: GT_STRESS_SEED=$seed), $ops operations, bound ${secs} s"

# The PRNG: a 31-bit LCG (shell arithmetic is 64-bit), so that a seed
# replays the same operations. rnd N sets R to 0..N-1.
rs=$seed
rnd() {
	rs=$(((rs * 1103515245 + 12345) % 2147483648))
	R=$(((rs >> 8) % $1))
}
# pick WORDS...: sets P to one of them.
pick() {
	rnd $#
	shift $R
	P=$1
}

work=$(mktemp -d)
stop=$work/stop
quiet=$work/quiet
pids=

# Held files: slots on descriptors 3..6.
SLOTS="3 4 5 6"
o=
dead=
for n in $SLOTS; do
	eval "h${n}_open=0"
done

close_slots() {
	for n in $SLOTS; do
		eval "o=\$h${n}_open"
		if [ "$o" = 1 ]; then
			eval "exec $n<&-"
			eval "h${n}_open=0"
		fi
	done
}

cleanup() {
	touch "$stop"
	for p in $pids; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	close_slots
	gt_unload
	[ "$ta_loaded_here" = 1 ] && rmmod $TADRV 2>/dev/null
	rm -rf "$work"
}
ta_loaded_here=0
trap cleanup EXIT
# The runner's timeout sends SIGTERM: clean up (stop the readers, which
# would otherwise keep the runner's pipe open) and go.
trap 'exit 143' TERM INT
main_pid=$$
# True while the main script is alive: the readers stop when it is gone.
main_alive() { kill -0 "$main_pid" 2>/dev/null; }

nfail=0
fails_shown=0
bad() {
	nfail=$((nfail + 1))
	if [ $fails_shown -lt 30 ]; then
		echo "# op $op: $*"
		fails_shown=$((fails_shown + 1))
	fi
}
say() {
	[ "$verbose" = 1 ] && echo "# op $op: $*"
	return 0
}

# wr FILE DATA: one write(); sets W to "ok" or the errno name (ERR for
# any error when gt_write is not built).
wr() {
	if [ -x "$GT_WRITE" ]; then
		W=$("$GT_WRITE" "$1" "$2")
		case "$W" in
		"open "*) W=${W#open } ;;
		*) W=${W%% *} ;;
		esac
	else
		# shellcheck disable=SC2059
		if printf "$2" >"$1" 2>/dev/null; then W=ok; else W=ERR; fi
	fi
}
# expect WHAT GOT WANTED
expect() {
	if [ "$2" != "$3" ] && ! { [ "$2" = ERR ] && [ "$3" != ok ]; }; then
		bad "$1: expected $3, got $2"
	fi
}

# The test PCI driver and its device (QEMU's ati-vga, vendor 0x1002).
ta_ko=${GT_TEST_AMDGPU_KO:-}
[ -n "$ta_ko" ] || ta_ko=$(dirname "$(gt_ko)")/$TADRV.ko
ta_dev=
for d in /sys/bus/pci/devices/*; do
	[ "$(cat "$d/vendor" 2>/dev/null)" = 0x1002 ] && ta_dev=${d##*/}
done
ta=0
if [ -n "$ta_dev" ] && [ -f "$ta_ko" ]; then
	if [ -d /sys/module/$TADRV ]; then
		ta=1
	elif insmod "$ta_ko"; then
		ta=1
		ta_loaded_here=1
	fi
fi
if [ $ta = 1 ]; then
	echo "# $TADRV on $ta_dev: bind and unbind included"
else
	echo "# no $TADRV or no ati-vga device: bind and unbind left out"
fi
ta_bound() {
	[ "$(basename "$(readlink /sys/bus/pci/devices/"$ta_dev"/driver 2>/dev/null)")" = $TADRV ]
}

gt_mark
ktap_header 5

load_params() {
	rnd 4
	n=$R
	rnd 91
	iv=$((10 + R))
	rnd 2000
	hd=$((16 + R))
	params="sim_devices=$n interval_ms=$iv history_depth=$hd"
}
load_params
res=0
gt_load $params || res=1
gt_loaded || res=1
ktap_result $res "load with $params"
[ $res -eq 0 ] || ktap_finish

# Background readers: every file, through module reloads and device churn.
# Reader 0 reads first lines with the shell's own read (one byte per
# read(), no process per file), reader 1 with dd in odd buffer sizes and at offsets,
# reader 2 whole files with cat, and also the test driver's hwmon and PCI
# attribute files as a monitoring tool would, while gputelemetry reads
# them and the driver is bound and unbound. Errors are expected (files come
# and go); splats are not.
reader() { # k
	i=0
	extra=
	if [ "$1" = 2 ] && [ $ta = 1 ]; then
		extra="/sys/bus/pci/devices/$ta_dev/hwmon/hwmon*/*_input /sys/bus/pci/devices/$ta_dev/gpu_busy_percent /sys/bus/pci/devices/$ta_dev/mem_info_vram_used"
	fi
	while [ ! -e "$stop" ] && main_alive; do
		# shellcheck disable=SC2086
		for f in $GT_ROOT/version $GT_ROOT/devices $GT_ROOT/*/* $extra; do
			[ -e "$stop" ] && break
			case $1 in
			0) { IFS= read -r _ <"$f"; } 2>/dev/null ;;
			1) case $((i % 3)) in
			   0) dd if="$f" bs=$((i * 13 % 700 + 1)) ;;
			   1) dd if="$f" bs=7 skip=$((i % 50)) count=40 ;;
			   2) dd if="$f" bs=1 count=200 ;;
			   esac >/dev/null 2>&1 ;;
			*) cat "$f" >/dev/null 2>&1 ;;
			esac
			i=$((i + 1))
		done
		# Leave the vCPUs to the operations between passes.
		sleep 0.2
	done
	echo "$i" >"$work/reader$1"
}
# A long-lived history cursor, reopened when its device goes. It lets go
# while $quiet exists, so that rmmod can succeed.
cursor() {
	n=0
	while [ ! -e "$stop" ] && main_alive; do
		set -- $GT_ROOT/*/history
		# "command": a failed redirection must not end the shell.
		if [ ! -e "$quiet" ] && [ -e "$1" ] && command exec 7<"$1" 2>/dev/null; then
			while [ ! -e "$stop" ] && [ ! -e "$quiet" ] && main_alive; do
				while IFS= read -r _ <&7; do :; done 2>/dev/null
				# EOF is not final: new samples come; a removed
				# device gives EIO, and the reads end.
				[ -e "${1%/history}" ] || break
				n=$((n + 1))
				sleep 0.1
			done
			exec 7<&-
		fi
		sleep 0.1
	done
	echo "$n" >"$work/cursor"
}
for k in 0 1 2; do
	reader $k &
	pids="$pids $!"
done
cursor &
pids="$pids $!"

# A random device directory name (existing or not): sets D.
pick_dev() {
	rnd 5
	if [ $R -eq 0 ]; then
		set -- $GT_ROOT/*/
		if [ -d "$1" ]; then
			pick "$@"
			D=${P%/}
			D=${D##*/}
			return
		fi
	fi
	pick $IDS
	D=sim$P
}

is_sim() { case $1 in sim*) return 0 ;; esac; return 1; }

op_new() {
	pick $IDS
	id=$P
	pick $PROFILES
	v="$id $P"
	rnd 2
	[ $R -eq 0 ] && v="$v\\n"
	if [ -d $GT_ROOT/sim$id ]; then want=EEXIST; else want=ok; fi
	wr $GT_ROOT/new_device "$v"
	say "new_device '$v': $W"
	expect "new_device '$v'" "$W" $want
	if [ $want = ok ] && ! grep -q "^sim$id sim:$id ${P} sim active$" $GT_ROOT/devices; then
		bad "sim$id not listed in devices after new_device"
	fi
}

# Marks held files of device $1 as dead (their reads fail with EIO).
kill_slots() {
	for n in $SLOTS; do
		eval "o=\$h${n}_open d=\$h${n}_dev"
		[ "$o" = 1 ] && [ "$d" = "$1" ] && eval "h${n}_dead=1"
	done
}

op_del() {
	pick $IDS
	id=$P
	rnd 2
	v=$id
	[ $R -eq 0 ] && v="$v\\n"
	if [ -d $GT_ROOT/sim$id ]; then want=ok; else want=ENOENT; fi
	wr $GT_ROOT/del_device "$v"
	say "del_device '$v': $W"
	expect "del_device '$v'" "$W" $want
	[ ! -e $GT_ROOT/sim$id ] || bad "sim$id still there after del_device"
	[ $want = ok ] && kill_slots sim$id
	return 0
}

op_ctl_bad() {
	rnd 2
	if [ $R -eq 0 ]; then
		f=new_device
		pick "" "5" "5\\n" "5 navi99" "256 navi14" "-1 navi14" "x navi14" " 5 navi14" \
			"5  navi14" "5 navi14 " "@5000:5" "5 navi14\\n\\n"
	else
		f=del_device
		pick "" "x" "256" "-1" " 1" "1 " "1\\n\\n" "@5000:1" "0x1" "+1"
	fi
	before=$(cat $GT_ROOT/devices)
	wr $GT_ROOT/$f "$P"
	say "$f '$P': $W"
	expect "$f '$P'" "$W" EINVAL
	[ "$before" = "$(cat $GT_ROOT/devices)" ] || bad "$f '$P' refused but devices changed"
}

# knob FILE VALID-VALUE BAD-VALUES...: writes one of them to FILE of a
# random device and checks the result and the value read back.
knob() {
	f=$1
	good=$2
	shift 2
	pick_dev
	path=$GT_ROOT/$D/$f
	rnd 3
	if [ $R -eq 0 ]; then
		pick "$@"
		v=$P
	else
		v=$good
	fi
	rnd 3
	nl=
	case "$v" in @*) ;; *) [ $R -eq 0 ] && nl='\n' ;; esac
	if [ ! -d $GT_ROOT/$D ]; then
		want=ENOENT
	elif [ $f = fail_sensors ] || [ $f = load ]; then
		if ! is_sim "$D"; then want=ENOENT; elif [ "$v" = "$good" ]; then want=ok; else want=EINVAL; fi
	elif [ "$v" = "$good" ]; then
		want=ok
	else
		want=EINVAL
	fi
	before=
	[ -r "$path" ] && [ $f != stats ] && read -r before <"$path"
	wr "$path" "$v$nl"
	say "$D/$f '$v$nl': $W"
	expect "$D/$f '$v$nl'" "$W" $want
	[ $want = ENOENT ] && return 0
	after=
	read -r after <"$path" || { bad "$D/$f unreadable"; return 0; }
	case "$want:$f" in
	ok:stats) ;;
	ok:*)
		[ "$after" = "$expected" ] || bad "$D/$f reads '$after' after writing '$v', expected '$expected'" ;;
	*:stats) ;;
	*)
		[ "$after" = "$before" ] || bad "$D/$f changed from '$before' to '$after' on a refused write" ;;
	esac
}

op_load() {
	rnd 101
	expected=$R
	knob load $R 101 -1 abc "" " 5" "5 " 4294967296 "50%" "@5000:5" "0x10"
}

op_interval() {
	rnd 4
	if [ $R -eq 0 ]; then rnd 59991; v=$((10 + R)); else rnd 191; v=$((10 + R)); fi
	expected=$v
	knob interval_ms $v 9 0 60001 abc "" 1e3 -5 "@5000:1" 4294967306 " 20"
}

op_fail() {
	set --
	for k in $KEYS; do
		rnd 5
		[ $R -eq 0 ] && set -- "$@" $k
	done
	expected="$*"
	[ -n "$expected" ] || expected=none
	# Written in reverse order half the time: read back in key order.
	v=$expected
	rnd 2
	if [ $R -eq 0 ] && [ $# -gt 1 ]; then
		v=
		for k in "$@"; do v="$k${v:+ }$v"; done
	fi
	knob fail_sensors "$v" bogus "sclk  mclk" " sclk" SCLK "" "sclk " "sclk,mclk" "@5000:a"
}

op_stats() {
	knob stats reset Reset "" "reset " " reset" 1 rese "@5000:r"
}

# Reads a random file with random buffer size, offset and count.
op_read() {
	rnd 6
	if [ $R -eq 0 ]; then
		pick version devices
		f=$GT_ROOT/$P
	else
		pick_dev
		if is_sim "$D"; then pick $SIM_FILES; else pick $DEV_FILES; fi
		f=$GT_ROOT/$D/$P
	fi
	pick 1 2 3 7 16 64 100 511 512 4096 5000
	bs=$P
	rnd 4
	skip=0
	[ $R -eq 0 ] && { rnd 40; skip=$R; }
	rnd 3
	count=
	[ $R -eq 0 ] && { rnd 30; count="count=$((R + 1))"; }
	if [ -e "$f" ]; then
		# shellcheck disable=SC2086
		dd if="$f" of=/dev/null bs=$bs skip=$skip $count 2>"$work/dd.err" ||
			bad "dd if=${f#"$GT_ROOT"/} bs=$bs skip=$skip $count failed: $(cat "$work/dd.err")"
		say "read ${f#"$GT_ROOT"/} bs=$bs skip=$skip $count"
	else
		dd if="$f" of=/dev/null bs=$bs 2>/dev/null && bad "read of missing ${f#"$GT_ROOT"/} succeeded"
	fi
	return 0
}

# Opens, reads, writes or closes a held file.
op_hold() {
	pick $SLOTS
	n=$P
	eval "o=\$h${n}_open"
	if [ "$o" != 1 ]; then
		pick_dev
		[ -d $GT_ROOT/$D ] || return 0
		if is_sim "$D"; then pick $SIM_FILES; else pick $DEV_FILES; fi
		f=$P
		case $f in
		interval_ms|load|fail_sensors|stats) mode='<>' ;;
		*) mode='<' ;;
		esac
		eval "command exec $n$mode\"\$GT_ROOT/\$D/\$f\"" ||
			{ bad "cannot open $D/$f"; return 0; }
		eval "h${n}_open=1 h${n}_dev=\$D h${n}_file=\$f h${n}_dead=0"
		say "hold $D/$f on fd $n"
		return 0
	fi
	eval "d=\$h${n}_dev f=\$h${n}_file dead=\$h${n}_dead"
	rnd 4
	if [ $R -eq 0 ]; then
		eval "exec $n<&-"
		eval "h${n}_open=0"
		say "close fd $n ($d/$f)"
	elif [ $R -eq 1 ] && [ $f = interval_ms ] && [ -x "$GT_WRITE" ]; then
		wr fd:$n 25
		if [ "$dead" = 1 ]; then want=EIO; else want=ok; fi
		say "write 25 to held $d/$f (dead=$dead): $W"
		expect "write to held $d/$f (device removed: $dead)" "$W" $want
	else
		if cat <&"$n" >/dev/null 2>"$work/cat.err"; then
			[ "$dead" = 1 ] && bad "read of held $d/$f succeeded after the device was removed"
		else
			[ "$dead" = 1 ] || bad "read of held $d/$f failed: $(cat "$work/cat.err")"
		fi
		say "read held $d/$f (dead=$dead)"
	fi
	return 0
}

op_bind() {
	if ta_bound; then
		echo "$ta_dev" >/sys/bus/pci/drivers/$TADRV/unbind || bad "unbind $ta_dev failed"
		ta_bound && bad "$ta_dev still bound after unbind"
		kill_slots "$ta_dev"
		say "unbind $ta_dev"
	else
		echo "$ta_dev" >/sys/bus/pci/drivers/$TADRV/bind || bad "bind $ta_dev failed"
		ta_bound || bad "$ta_dev not bound after bind"
		say "bind $ta_dev"
	fi
	# Held files of the real device: removal or not is up to the
	# registry; do not assert either way.
	for n in $SLOTS; do
		eval "o=\$h${n}_open d=\$h${n}_dev"
		[ "$o" = 1 ] && [ "$d" = "$ta_dev" ] && eval "exec $n<&-; h${n}_open=0"
	done
	return 0
}

op_ta_reload() {
	for n in $SLOTS; do
		eval "o=\$h${n}_open d=\$h${n}_dev"
		[ "$o" = 1 ] && [ "$d" = "$ta_dev" ] && eval "exec $n<&-; h${n}_open=0"
	done
	i=0
	while ! rmmod $TADRV 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 50 ] || { bad "cannot rmmod $TADRV"; return 0; }
		sleep 0.1
	done
	insmod "$ta_ko" || bad "insmod $ta_ko failed"
	ta_bound || bad "$ta_dev not bound after reloading $TADRV"
	say "reload $TADRV"
}

op_reload() {
	held=0
	for n in $SLOTS; do
		eval "o=\$h${n}_open"
		[ "$o" = 1 ] && held=1
	done
	if [ $held = 1 ]; then
		rmmod $GT_MOD 2>/dev/null && bad "rmmod succeeded with files held open"
		gt_loaded || { bad "module gone with files held open"; close_slots; gt_load $params; return 0; }
		close_slots
	fi
	# The history cursor lets go; the other readers keep going, so rmmod
	# races with their opens.
	touch "$quiet"
	gt_unload || { bad "cannot unload $GT_MOD"; rm -f "$quiet"; return 0; }
	rm -f "$quiet"
	[ ! -e $GT_ROOT ] || bad "$GT_ROOT still there after rmmod"
	wr $GT_ROOT/new_device "1 navi14"
	expect "new_device with the module unloaded" "$W" ENOENT
	load_params
	gt_load $params || bad "insmod $params failed"
	say "reload with $params"
	for i in $(seq 0 $((n - 1))); do
		[ -d $GT_ROOT/sim$i ] || bad "sim$i missing after load with $params"
	done
	nreload=$((nreload + 1))
}

t0=$(date +%s)
op=0
nreload=0
nbind=0
while [ $op -lt "$ops" ]; do
	if [ $((op % 20)) -eq 0 ] && [ $(($(date +%s) - t0)) -ge "$secs" ]; then
		echo "# time bound of ${secs} s reached"
		break
	fi
	op=$((op + 1))
	gt_loaded || { bad "module not loaded"; gt_load $params; }
	rnd 100
	if [ $R -lt 10 ]; then op_new
	elif [ $R -lt 17 ]; then op_del
	elif [ $R -lt 20 ]; then op_ctl_bad
	elif [ $R -lt 29 ]; then op_load
	elif [ $R -lt 35 ]; then op_fail
	elif [ $R -lt 41 ]; then op_interval
	elif [ $R -lt 45 ]; then op_stats
	elif [ $R -lt 70 ]; then op_read
	elif [ $R -lt 84 ]; then op_hold
	elif [ $R -lt 89 ] && [ $ta = 1 ]; then op_bind; nbind=$((nbind + 1))
	elif [ $R -lt 90 ] && [ $ta = 1 ]; then op_ta_reload
	elif [ $R -lt 92 ]; then op_reload
	else op_read
	fi
done
t1=$(date +%s)
echo "# $op operations in $((t1 - t0)) s: $nreload module reloads, $nbind binds/unbinds, $nfail unexpected results"
ktap_result $((nfail > 0)) "$op random operations (seed $seed) with documented results"

touch "$stop"
for p in $pids; do
	wait "$p" || true
done
pids=
res=0
for f in reader0 reader1 reader2 cursor; do
	[ -s "$work/$f" ] || { echo "# $f did not finish"; res=1; }
done
echo "# readers: $(cat "$work"/reader* | tr '\n' ' ')files read, history cursor: $(cat "$work/cursor" 2>/dev/null) reads"
ktap_result $res "background readers ran throughout"

close_slots
res=0
gt_unload || res=1
gt_loaded && res=1
[ ! -e $GT_ROOT ] || res=1
if [ "$ta_loaded_here" = 1 ]; then
	rmmod $TADRV || res=1
	ta_loaded_here=0
fi
ktap_result $res "module unloaded at the end"

res=0
gt_splats || res=1
ktap_result $res "no kernel splat (seed $seed)"
ktap_finish
