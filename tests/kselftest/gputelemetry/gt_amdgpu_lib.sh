# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Shared by the gputelemetry amdgpu-source tests (gt_amdgpu*.sh): the
# ati-vga PCI device, the gt_test_amdgpu test driver and its knobs.
#
# The test driver is found at $GT_TEST_AMDGPU_KO, else next to the module
# (/lib/gputelemetry/gt_test_amdgpu.ko in the VM of scripts/vmtest). The
# tests skip (exit 4) without it or without a PCI display device of vendor
# 0x1002 that it drives (QEMU's -device ati-vga).
. "$(dirname "$0")/gt_lib.sh"

TADRV=gt_test_amdgpu
# gputelemetry reads devices of these drivers as amdgpu's.
# shellcheck disable=SC2034 # used by the scripts that source this file
GT_TRUST="trusted_drivers=amdgpu,$TADRV"

ta_ko() {
	if [ -n "${GT_TEST_AMDGPU_KO:-}" ]; then
		echo "$GT_TEST_AMDGPU_KO"
	elif [ -n "$(gt_ko)" ]; then
		echo "$(dirname "$(gt_ko)")/$TADRV.ko"
	fi
}

# Sets DEV (PCI address), G (its gputelemetry directory), TA (its knob
# directory), P (its sysfs directory); skips when there is none.
ta_require() {
	gt_require
	DEV=
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor" 2>/dev/null)" = 0x1002 ] || continue
		case "$(cat "$d/device")" in 0x5046|0x5159) ;; *) continue ;; esac
		case "$(cat "$d/class")" in 0x03*) DEV=${d##*/}; break ;; esac
	done
	if [ -z "$DEV" ]; then
		echo "# SKIP: no ati-vga PCI device (QEMU -device ati-vga)"
		exit $KSFT_SKIP
	fi
	if [ ! -f "$(ta_ko)" ]; then
		echo "# SKIP: $TADRV.ko not found (set GT_TEST_AMDGPU_KO)"
		exit $KSFT_SKIP
	fi
	G=$GT_ROOT/$DEV
	TA=/sys/kernel/debug/$TADRV/$DEV
	P=/sys/bus/pci/devices/$DEV
}

ta_loaded() {
	[ -d /sys/module/$TADRV ]
}

ta_load() { # [params...]
	insmod "$(ta_ko)" "$@"
}

ta_unload() {
	_tu=0
	while ta_loaded; do
		rmmod $TADRV 2>/dev/null && return 0
		_tu=$((_tu + 1))
		[ $_tu -lt 50 ] || { rmmod $TADRV; return 1; }
		sleep 0.1
	done
	return 0
}

ta_bound() {
	[ "$(basename "$(readlink $P/driver 2>/dev/null)")" = $TADRV ]
}

ta_bind() {
	echo "$DEV" >/sys/bus/pci/drivers/$TADRV/bind
}

ta_unbind() {
	echo "$DEV" >/sys/bus/pci/drivers/$TADRV/unbind
}

# Helpers keep their loop counters in variables of their own (_t*): shell
# variables are global, and the test cases loop too.

# Sets a knob of the test driver: ta_set temp_edge 51234, ta_set hide/pwm1 1.
ta_set() { # knob value
	echo "$2" >"$TA/$1" || fail "cannot set $TADRV knob $1 to $2"
}

ta_get() { # knob
	cat "$TA/$1"
}

# Keeps the device awake (runtime PM "on") or lets it autosuspend ("auto").
ta_power() { # on|auto
	echo "$1" >$P/power/control || fail "cannot write $1 to $P/power/control"
}

# Waits until the device is runtime-suspended (at most 10 s).
ta_wait_suspended() {
	_tw=0
	while [ "$(ta_get runtime_suspended)" != Y ]; do
		_tw=$((_tw + 1))
		[ $_tw -le 100 ] || return 1
		sleep 0.1
	done
}

# The line of the device in "devices".
gt_dev_line() {
	grep "^$DEV " $GT_ROOT/devices
}

# The value of "key: value[ unit]" in a file: gt_val sensors temp_edge.
gt_val() { # file key
	sed -n "s/^$2: \([^ ]*\).*/\1/p" "$G/$1"
}

# The sampler's count of samples of the device.
gt_dev_samples() {
	sed -n 's/^sampler: samples=\([0-9]*\) .*/\1/p' "$G/stats"
}

# Waits until the device took n more samples than $1 (at most 20 s).
gt_dev_wait_samples() { # base n
	_ts=0
	while [ "$(gt_dev_samples)" -lt $(($1 + $2)) ] 2>/dev/null; do
		_ts=$((_ts + 1))
		[ $_ts -le 200 ] || return 1
		sleep 0.1
	done
}

# Fails unless file $1 has exactly the line $2.
expect_line() { # file line
	grep -qxF "$2" "$1" || fail "$(basename "$1"): no line '$2' in: $(tr '\n' '|' <"$1")"
}

expect_no_key() { # file key
	! grep -q "^$2:" "$1" || fail "$(basename "$1"): unexpected key $2: $(grep "^$2:" "$1")"
}

# Both modules out; each case starts and ends this way.
ta_reset() {
	exec 3<&- 4<&- 5<&-
	gt_unload
	ta_unload
}
