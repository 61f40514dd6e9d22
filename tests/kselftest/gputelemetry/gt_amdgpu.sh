#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gputelemetry's amdgpu source on a real PCI device: QEMU's ati-vga, driven
# by the gt_test_amdgpu test driver, which presents amdgpu's hwmon and PCI
# attributes with values set through its debugfs knobs. gputelemetry is
# loaded with trusted_drivers=amdgpu,gt_test_amdgpu, so that it reads the
# device exactly as it reads a GPU bound to amdgpu.
#
# Covers: the device without a driver and with an untrusted one (listed,
# unbound, no sensors, nothing read); gputelemetry loaded before and after
# the driver binds; every reading equal to what the driver presents, with
# the unit conversions (Hz to MHz past 2^31, uW to mW); missing attributes
# unavailable; visibility by GC version; power1_average vs power1_input
# (the fallback when the average is missing or "not supported"); runtime
# suspend: a suspended device is not woken by sampling or reads, with
# amdgpu's sensor reads of 6.1..6.12 (which wake) and of 6.13 on (which
# fail with -EPERM), amdgpu's -EPERM shown as suspended, and an awake one
# sampled every 10 ms still autosuspends (amdgpu's runtime_idle marks the
# device busy); unbind and rebind while sampling
# and under a bounded read loop; device removal and rescan; unloads in
# either order; no kernel splat.
. "$(dirname "$0")/gt_amdgpu_lib.sh"

ta_require
ta_reset
work=$(mktemp -d)
trap 'ta_reset; rm -rf "$work"' EXIT
gt_mark

SENSOR_KEYS=$(gt_sensor_keys) || exit $KSFT_FAIL
# shellcheck disable=SC2086 # one word per key
NKEYS=$(set -- $SENSOR_KEYS; echo $#)

# Fails unless the last line of "history" ends with $1, its readings
# (" key=value" per key, in order).
expect_history() { # readings
	l=$(tail -n 1 "$G/history")
	case "$l" in
	*"$1") ;;
	*) fail "history: '$l' does not end with '$1'" ;;
	esac
}

# The readings of "sensors" as "history" writes them: " key=value" per key,
# "na" for unavailable, the value without its unit.
sensors_as_history() {
	for k in $SENSOR_KEYS; do
		v=$(sed -n "s/^$k: //p" "$G/sensors")
		case $v in unavailable) v=na ;; *) v=${v%% *} ;; esac
		printf ' %s=%s' "$k" "$v"
	done
}

# Every reading unavailable, as "history" writes it.
all_na() {
	for k in $SENSOR_KEYS; do
		printf ' %s=na' "$k"
	done
}

# Fails unless every reading of "sensors" is unavailable.
expect_no_sensors() {
	for k in $SENSOR_KEYS; do
		expect_line "$G/sensors" "$k: unavailable"
	done
	[ "$(wc -l <"$G/sensors")" -eq "$NKEYS" ] || fail "sensors: $(wc -l <"$G/sensors") lines"
}

# The device with no driver at all: listed, unbound, nothing to read.
no_driver() {
	gt_load "$GT_TRUST" interval_ms=10 || fail "insmod gputelemetry failed"
	! ta_bound || fail "$DEV is bound before the test driver is loaded"
	[ "$(gt_dev_line)" = "$DEV pci:$DEV 1002:$(sed 's/^0x//' $P/device) none unbound" ] ||
		fail "devices line '$(gt_dev_line)'"
	expect_line "$G/info" "source: none"
	expect_line "$G/info" "state: unbound"
	expect_line "$G/info" "driver: unavailable"
	expect_line "$G/info" "vendor_id: 0x1002"
	expect_line "$G/info" "device_id: $(cat $P/device)"
	expect_line "$G/info" "asic: unavailable"
	expect_line "$G/cu_count" "unavailable"
	expect_no_sensors
	expect_line "$G/metrics" "status: unavailable"
	expect_line "$G/metrics" "reason: unbound"
	sleep 0.3
	# Not sampled: nothing to read.
	[ "$(gt_dev_samples)" = 0 ] || fail "an unbound device was sampled $(gt_dev_samples) times"
	[ -z "$(cat "$G/history")" ] || fail "history of an unbound device: $(head -n 1 "$G/history")"
}

# Bound to a driver not in trusted_drivers: shown with it, never read.
untrusted_driver() {
	gt_load interval_ms=10 || fail "insmod gputelemetry (default trusted_drivers) failed"
	[ "$(cat /sys/module/$GT_MOD/parameters/trusted_drivers)" = amdgpu ] ||
		fail "default trusted_drivers '$(cat /sys/module/$GT_MOD/parameters/trusted_drivers)'"
	ta_load || fail "insmod $TADRV failed"
	ta_bound || fail "$TADRV did not bind $DEV"
	ta_power on
	reads=$(ta_get reads)
	case "$(gt_dev_line)" in *" none unbound") ;; *) fail "devices line '$(gt_dev_line)'" ;; esac
	expect_line "$G/info" "driver: $TADRV"
	expect_line "$G/info" "source: none"
	expect_no_sensors
	cat "$G/metrics" "$G/info" "$G/history" >/dev/null
	sleep 0.3
	[ "$(ta_get reads)" = "$reads" ] ||
		fail "the untrusted driver's attributes were read ($reads -> $(ta_get reads))"
}

# gputelemetry first, then the driver binds (BUS_NOTIFY_BOUND_DRIVER).
load_before_bind() {
	gt_load "$GT_TRUST" interval_ms=10 || fail "insmod gputelemetry failed"
	case "$(gt_dev_line)" in *" none unbound") ;; *) fail "before bind: '$(gt_dev_line)'" ;; esac
	ta_load || fail "insmod $TADRV failed"
	ta_power on
	case "$(gt_dev_line)" in *" amdgpu active") ;; *) fail "after bind: '$(gt_dev_line)'" ;; esac
	expect_line "$G/info" "driver: $TADRV"
	expect_line "$G/sensors" "gpu_busy: $(ta_get gpu_busy_percent) %"
	gt_dev_wait_samples 0 3 || fail "not sampled after bind"
}

# The driver first, then gputelemetry (the scan at load).
load_after_bind() {
	ta_load || fail "insmod $TADRV failed"
	ta_power on
	gt_load "$GT_TRUST" interval_ms=10 || fail "insmod gputelemetry failed"
	case "$(gt_dev_line)" in *" amdgpu active") ;; *) fail "devices line '$(gt_dev_line)'" ;; esac
	expect_line "$G/sensors" "temp_edge: $(ta_get temp_edge) mC"
	gt_dev_wait_samples 0 3 || fail "not sampled"
}

# Every reading is what the driver presents, in gputelemetry's units.
readings_equal() {
	ta_load && gt_load "$GT_TRUST" interval_ms=10 || fail "insmod failed"
	ta_power on
	ta_set temp_edge -5250
	ta_set temp_junction 61234
	ta_set temp_mem 71234
	ta_set sclk 2550999999		# past 2^31 Hz; MHz truncated
	ta_set mclk 1000000000
	ta_set power_average 123456789	# uW
	ta_set vddgfx 987
	ta_set fan_rpm 2345
	ta_set pwm 200
	ta_set gpu_busy_percent 77
	ta_set mem_busy_percent 33
	ta_set vram_total 17179869184
	ta_set vram_used 12345678901
	ta_set temp_edge_crit 95000
	ta_set temp_junction_crit 108000
	ta_set temp_mem_crit 99000
	ta_set power_cap 120500999	# uW; mW truncated
	ta_set power_cap_default 135000000
	ta_set power_cap_min 1000000
	ta_set power_cap_max 162000000
	ta_set gtt_total 12884901888
	ta_set gtt_used 33554432
	for l in "temp_edge: -5250 mC" "temp_junction: 61234 mC" "temp_mem: 71234 mC" \
		 "sclk: 2550 MHz" "mclk: 1000 MHz" "power_avg: 123456 mW" "power_input: unavailable" "vddgfx: 987 mV" \
		 "vddnb: unavailable" "fan: 2345 rpm" "fan_pwm: 200 pwm" "gpu_busy: 77 %" \
		 "mem_busy: 33 %" "vram_used: 12345678901 B" "vram_total: 17179869184 B" \
		 "temp_edge_crit: 95000 mC" "temp_junction_crit: 108000 mC" "temp_mem_crit: 99000 mC" \
		 "power_cap: 120500 mW" "power_cap_default: 135000 mW" "power_cap_min: 1000 mW" \
		 "power_cap_max: 162000 mW" "gtt_used: 33554432 B" "gtt_total: 12884901888 B"; do
		expect_line "$G/sensors" "$l"
	done
	expect_line "$G/info" "vram_size: 17179869184"
	# The sampler reads the same: a sample taken after the change.
	n=$(gt_dev_samples)
	gt_dev_wait_samples "$n" 2 || fail "no new samples"
	expect_history "$(sensors_as_history)"
	# A value change shows at the next read.
	ta_set sclk 300000000
	expect_line "$G/sensors" "sclk: 300 MHz"
}

# Attributes the driver does not have, or whose read fails: unavailable.
missing_attributes() {
	ta_load && gt_load "$GT_TRUST" interval_ms=10 || fail "insmod failed"
	ta_power on
	for f in temp2_input freq2_input fan1_input gpu_busy_percent mem_info_vram_used; do
		ta_set hide/$f 1
	done
	[ ! -e $P/gpu_busy_percent ] || fail "hide/gpu_busy_percent left the file"
	for l in "temp_junction: unavailable" "mclk: unavailable" "fan: unavailable" \
		 "gpu_busy: unavailable" "vram_used: unavailable"; do
		expect_line "$G/sensors" "$l"
	done
	expect_line "$G/sensors" "temp_edge: $(ta_get temp_edge) mC"
	expect_line "$G/sensors" "fan_pwm: $(ta_get pwm) pwm"
	# Back when the attribute is back.
	ta_set hide/gpu_busy_percent 0
	expect_line "$G/sensors" "gpu_busy: $(ta_get gpu_busy_percent) %"
	# A read that fails (EIO) is unavailable; the others are read.
	ta_set fail/temp1_input 5
	expect_line "$G/sensors" "temp_edge: unavailable"
	expect_line "$G/sensors" "temp_mem: $(ta_get temp_mem) mC"
	ta_set fail/temp1_input 0
	expect_line "$G/sensors" "temp_edge: $(ta_get temp_edge) mC"
	# An APU: vddnb appears, the dGPU-only attributes go.
	ta_set apu 1
	expect_line "$G/sensors" "vddnb: $(ta_get vddnb) mV"
	for k in temp_mem mem_busy fan_pwm; do
		expect_line "$G/sensors" "$k: unavailable"
	done
}

# What amdgpu 6.12 hides by GC version (tests/modules: gt_attr_present()).
gc_visibility() {
	ta_load && gt_load "$GT_TRUST" || fail "insmod failed"
	ta_power on
	ta_set gc_version 0x080003		# Polaris: no SOC15 temperatures
	for l in "temp_junction: unavailable" "temp_mem: unavailable" \
		 "temp_edge: $(ta_get temp_edge) mC" "vddgfx: $(ta_get vddgfx) mV" \
		 "mem_busy: $(ta_get mem_busy_percent) %"; do
		expect_line "$G/sensors" "$l"
	done
	ta_set gc_version 0x090001		# Vega10: no mem_busy_percent
	expect_line "$G/sensors" "mem_busy: unavailable"
	expect_line "$G/sensors" "temp_mem: $(ta_get temp_mem) mC"
	ta_set gc_version 0x060000		# SI: no vddgfx
	expect_line "$G/sensors" "vddgfx: unavailable"
	ta_set gc_version 0x0a0101
	ta_set no_fan 1				# a board without a fan
	expect_line "$G/sensors" "fan: unavailable"
	expect_line "$G/sensors" "fan_pwm: unavailable"
	ta_set no_fan 0
	expect_line "$G/sensors" "fan_pwm: $(ta_get pwm) pwm"
	# pwm1 is 0644, as amdgpu's; gputelemetry only reads it.
	mode=$(stat -c %a $P/hwmon/hwmon*/pwm1) || fail "no pwm1"
	[ "$mode" = 644 ] || fail "pwm1 mode $mode, not 644"
}

# power1_average is power_avg and power1_input is power_input, each
# named for what it is: one is never reported under the other's name.
power_readings() {
	ta_load && gt_load "$GT_TRUST" || fail "insmod failed"
	ta_power on
	ta_set power_average 45000000
	ta_set power_input 47999999
	expect_line "$G/sensors" "power_avg: 45000 mW"	# as on 6.1: no power1_input
	expect_line "$G/sensors" "power_input: unavailable"
	ta_set hide/power1_input 0		# both
	expect_line "$G/sensors" "power_avg: 45000 mW"
	expect_line "$G/sensors" "power_input: 47999 mW"
	ta_set hide/power1_average 1		# only the input (newer firmware)
	expect_line "$G/sensors" "power_avg: unavailable"
	expect_line "$G/sensors" "power_input: 47999 mW"
	ta_set hide/power1_input 1		# neither
	expect_line "$G/sensors" "power_avg: unavailable"
	expect_line "$G/sensors" "power_input: unavailable"
	# An average the firmware does not support (EOPNOTSUPP, 95: mainline
	# Renoir), has no data for (ENODATA, 61) or fails to read (EIO, 5):
	# unavailable, and the input is still its own reading.
	ta_set hide/power1_average 0
	ta_set hide/power1_input 0
	for e in 95 61 5; do
		ta_set fail/power1_average $e
		expect_line "$G/sensors" "power_avg: unavailable"
		expect_line "$G/sensors" "power_input: 47999 mW"
	done
}

# A runtime-suspended device stays asleep while sampled and read.
suspended_stays_asleep() {
	ta_load && gt_load "$GT_TRUST" interval_ms=10 || fail "insmod failed"
	ta_power auto
	ta_wait_suspended || fail "$DEV did not runtime-suspend"
	resumes=$(ta_get runtime_resumes)
	reads=$(ta_get reads)
	n=$(gt_dev_samples)
	sleep 1
	for k in 1 2 3 4 5; do
		cat "$G/sensors" "$G/info" "$G/metrics" "$G/cu_count" $GT_ROOT/devices >/dev/null
	done
	case "$(gt_dev_line)" in *" amdgpu suspended") ;; *) fail "devices line '$(gt_dev_line)'" ;; esac
	expect_line "$G/info" "state: suspended"
	expect_no_sensors
	expect_line "$G/metrics" "reason: suspended"
	[ "$(gt_dev_samples)" -gt $((n + 20)) ] || fail "not sampled while suspended ($n -> $(gt_dev_samples))"
	expect_history "$(all_na)"
	[ "$(ta_get runtime_resumes)" = "$resumes" ] ||
		fail "woken: runtime_resumes $resumes -> $(ta_get runtime_resumes)"
	[ "$(ta_get reads)" = "$reads" ] || fail "attributes read while suspended ($reads -> $(ta_get reads))"
	[ "$(ta_get runtime_suspended)" = Y ] || fail "no longer suspended"
	# Woken by someone else, it is read again.
	ta_power on
	expect_line "$G/sensors" "gpu_busy: $(ta_get gpu_busy_percent) %"
	case "$(gt_dev_line)" in *" amdgpu active") ;; *) fail "devices line '$(gt_dev_line)'" ;; esac
}

# amdgpu's sensor reads of 6.13 on (sensor_read_wakes=0) refuse a
# suspended device with -EPERM instead of waking it: the device shows
# suspended, nothing is woken; those of 6.1..6.12 (=1) wake it, which
# gputelemetry never asks for. A system suspend in progress (in_suspend)
# refuses every read with -EPERM on every kernel: suspended, not a zero.
sensor_read_models() {
	for wakes in 0 1; do
		ta_load sensor_read_wakes=$wakes && gt_load "$GT_TRUST" interval_ms=10 ||
			fail "insmod failed (sensor_read_wakes=$wakes)"
		ta_power auto
		ta_wait_suspended || fail "$DEV did not runtime-suspend"
		resumes=$(ta_get runtime_resumes)
		n=$(gt_dev_samples)
		gt_dev_wait_samples "$n" 5 || fail "not sampled while suspended"
		expect_no_sensors
		expect_line "$G/metrics" "reason: suspended"
		[ "$(ta_get runtime_resumes)" = "$resumes" ] || fail "woken (sensor_read_wakes=$wakes)"
		# The driver itself, read directly: as amdgpu of each kernel.
		if [ $wakes = 0 ]; then
			cat $P/gpu_busy_percent >/dev/null 2>"$work/err" &&
				fail "a suspended device's gpu_busy_percent read"
			grep -q "not permitted" "$work/err" || fail "not EPERM: $(cat "$work/err")"
			[ "$(ta_get runtime_resumes)" = "$resumes" ] || fail "the direct read woke it"
		else
			[ "$(cat $P/gpu_busy_percent)" = "$(ta_get gpu_busy_percent)" ] ||
				fail "direct read"
			[ "$(ta_get runtime_resumes)" -gt "$resumes" ] || fail "the direct read did not wake it"
		fi
		# Awake, but amdgpu refuses (system suspend in progress): what
		# takes no PM reference (mem_info_vram_*) is still read.
		ta_power on
		expect_line "$G/sensors" "gpu_busy: $(ta_get gpu_busy_percent) %"
		ta_set in_suspend 1
		for k in $SENSOR_KEYS; do
			# what amdgpu reads without asking the GPU answers still
			case $k in vram_* | gtt_* | temp_*_crit) continue ;; esac
			expect_line "$G/sensors" "$k: unavailable"
		done
		expect_line "$G/sensors" "temp_junction_crit: $(ta_get temp_junction_crit) mC"
		expect_line "$G/sensors" "vram_total: $(ta_get vram_total) B"
		n=$(gt_dev_samples)
		gt_dev_wait_samples "$n" 3 || fail "not sampled"
		tail -n 1 "$G/history" | grep -q " temp_edge=na .* gpu_busy=na mem_busy=na vram_used=" ||
			fail "history while refused: $(tail -n 1 "$G/history")"
		ta_set in_suspend 0
		expect_line "$G/sensors" "gpu_busy: $(ta_get gpu_busy_percent) %"
		ta_reset
	done
}

# Sampling every 10 ms does not keep an awake device from autosuspending
# (the driver's autosuspend delay is 1 s here, longer than a sample takes
# even under TCG, so that each sample falls inside it): gputelemetry puts
# the busy mark of amdgpu's handlers back, and its put does not run
# amdgpu's runtime_idle, which would mark the device busy again.
awake_still_autosuspends() {
	ta_load autosuspend_ms=1000 && gt_load "$GT_TRUST" interval_ms=10 ||
		fail "insmod failed"
	ta_power on
	[ "$(ta_get runtime_suspended)" = N ] || fail "suspended while power/control is on"
	n=$(gt_dev_samples)
	gt_dev_wait_samples "$n" 10 || fail "not sampled"
	reads=$(ta_get reads)
	[ "$reads" -gt 0 ] || fail "the sampler read nothing"
	ta_power auto
	ta_wait_suspended || fail "$DEV did not autosuspend while sampled at 10 ms"
	resumes=$(ta_get runtime_resumes)
	n=$(gt_dev_samples)
	gt_dev_wait_samples "$n" 5 || fail "not sampled after the suspend"
	sleep 0.5
	[ "$(ta_get runtime_resumes)" = "$resumes" ] || fail "woken again by the sampler"
}

# Unbind and rebind while sampling: sampling stops at unbind and resumes
# at bind; sensors follow.
unbind_rebind() {
	ta_load && gt_load "$GT_TRUST" interval_ms=10 || fail "insmod failed"
	round=0
	while [ $round -lt 5 ]; do
		ta_power on
		n=$(gt_dev_samples)
		gt_dev_wait_samples "$n" 3 || fail "round $round: not sampled"
		ta_unbind || fail "round $round: unbind failed"
		case "$(gt_dev_line)" in *" none unbound") ;; *) fail "unbound: '$(gt_dev_line)'" ;; esac
		expect_line "$G/info" "driver: unavailable"
		expect_no_sensors
		n=$(gt_dev_samples)
		sleep 0.2
		[ "$(gt_dev_samples)" = "$n" ] || fail "round $round: sampled while unbound"
		ta_bind || fail "round $round: bind failed"
		ta_power on
		case "$(gt_dev_line)" in *" amdgpu active") ;; *) fail "rebound: '$(gt_dev_line)'" ;; esac
		# The knobs start from their defaults again.
		expect_line "$G/sensors" "temp_edge: 45000 mC"
		round=$((round + 1))
	done
}

# Readers of every file while the driver is unbound, rebound, unloaded and
# reloaded, and the device removed and rescanned; bounded; no splat.
reader() { # n
	it=0
	while [ $it -lt 400 ] && [ ! -e "$work/stop" ]; do
		# The device comes and goes: reads may fail (set -e is on).
		for f in sensors metrics info cu_count stats history; do
			cat "$G/$f" >/dev/null 2>&1 || true
		done
		cat $GT_ROOT/devices >/dev/null
		# Every sensors snapshot is whole: a line per key, values or unavailable.
		n=$(cat "$G/sensors" 2>/dev/null |
		    grep -cE '^[a-z_]+: (-?[0-9]+ [^ ]+|unavailable)$' || true)
		[ "$n" = "$NKEYS" ] || [ "$n" = 0 ] || echo "bad snapshot: $n lines" >>"$work/bad"
		it=$((it + 1))
	done
}

churn_under_readers() {
	ta_load && gt_load "$GT_TRUST" interval_ms=10 || fail "insmod failed"
	ta_power on
	rm -f "$work/stop" "$work/bad"
	reader 1 & r1=$!
	reader 2 & r2=$!
	exec 3<"$G/history" 4<"$G/sensors"
	round=0
	while [ $round -lt 6 ]; do
		ta_unbind || fail "unbind $round failed"
		sleep 0.05
		ta_bind || fail "bind $round failed"
		ta_power on
		sleep 0.05
		round=$((round + 1))
	done
	ta_unload || fail "rmmod $TADRV under readers failed"
	case "$(gt_dev_line)" in *" none unbound") ;; *) fail "after rmmod: '$(gt_dev_line)'" ;; esac
	ta_load || fail "insmod $TADRV under readers failed"
	ta_power on
	cat <&3 >/dev/null || fail "history held open across unbinds failed"
	# Removal and rescan: BUS_NOTIFY_DEL_DEVICE, then ADD and BOUND.
	echo 1 >$P/remove || fail "PCI remove failed"
	[ ! -e "$G" ] || fail "$G left after the device's removal"
	! gt_dev_line >/dev/null || fail "still listed after removal"
	cat <&3 >/dev/null 2>&1 && fail "history of a removed device still reads"
	exec 3<&- 4<&-
	echo 1 >/sys/bus/pci/rescan || fail "PCI rescan failed"
	[ -e "$P" ] || fail "$DEV not back after rescan"
	ta_bound || fail "$TADRV did not bind $DEV after rescan"
	ta_power on
	case "$(gt_dev_line)" in *" amdgpu active") ;; *) fail "after rescan: '$(gt_dev_line)'" ;; esac
	expect_line "$G/sensors" "temp_edge: 45000 mC"
	touch "$work/stop"
	wait $r1 || fail "reader 1 failed"
	wait $r2 || fail "reader 2 failed"
	[ ! -e "$work/bad" ] || fail "$(head -n 3 "$work/bad")"
}

# Unload either module first while sampling and reading.
unload_orders() {
	ta_load && gt_load "$GT_TRUST" interval_ms=10 || fail "insmod failed"
	ta_power on
	gt_dev_wait_samples 0 3 || fail "not sampled"
	gt_unload || fail "rmmod gputelemetry while sampling a bound device failed"
	ta_bound || fail "$TADRV lost the device"
	gt_load "$GT_TRUST" interval_ms=10 || fail "insmod gputelemetry again failed"
	gt_dev_wait_samples 0 3 || fail "not sampled after reload"
	ta_unload || fail "rmmod $TADRV while sampled failed"
	case "$(gt_dev_line)" in *" none unbound") ;; *) fail "after rmmod: '$(gt_dev_line)'" ;; esac
	gt_unload || fail "rmmod gputelemetry failed"
}

no_splat() {
	gt_splats || fail "kernel splat"
}

case_run() {
	ta_reset
	gt_run "$@"
	ta_reset
}

ktap_header 15
case_run no_driver "ati-vga without a driver: listed unbound, no sensors, not sampled"
case_run untrusted_driver "bound to an untrusted driver: unbound, never read"
case_run load_before_bind "gputelemetry loaded before the driver binds"
case_run load_after_bind "gputelemetry loaded after the driver bound"
case_run readings_equal "readings equal the driver's, converted (Hz past 2^31, uW)"
case_run missing_attributes "hidden or failing attributes unavailable, APU visibility"
case_run gc_visibility "attributes amdgpu hides by GC version, or without a fan"
case_run power_readings "power1_average is power_avg, power1_input is power_input, never swapped"
case_run suspended_stays_asleep "runtime-suspended device not woken by sampling or reads"
case_run sensor_read_models "amdgpu's reads that wake (6.1..6.12) or refuse with EPERM (6.13 on)"
case_run awake_still_autosuspends "awake device sampled every 10 ms still autosuspends"
case_run unbind_rebind "unbind and rebind while sampling"
case_run churn_under_readers "unbind, rebind, driver reload, remove and rescan under readers"
case_run unload_orders "unload gputelemetry or the driver first while sampling"
gt_run no_splat "no kernel splat"
ktap_finish
