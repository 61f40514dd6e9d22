#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Checks gt_test_amdgpu itself, inside a VM started with QEMU's
# "-device ati-vga" (or "-device ati-vga,model=rv100"); see README.rst.
# Needs root, sysfs, debugfs and a POSIX shell (busybox is enough).
#
#   selftest.sh [path/to/gt_test_amdgpu.ko]
#
# Prints "ok N - ..." / "not ok N - ..." lines and, last, exactly
# "gt_test_amdgpu: N passed, N failed"; exits 1 if anything failed,
# 4 (kselftest's SKIP) if there is no ati-vga device.
# It does not look at dmesg: the VM runner checks the log for splats.
#
# The TAP helpers are the project's scripts/tap.sh: in scripts/vmtest's
# guest $GT_TAP (/vmtest/tap.sh), else the checkout's; elsewhere, set
# GT_TAP to a copy.

KO=${1:-$(dirname "$0")/gt_test_amdgpu.ko}
DRV=gt_test_amdgpu
TAP_SUITE=$DRV
# shellcheck source=scripts/tap.sh
. "${GT_TAP:-$(dirname "$0")/../../scripts/tap.sh}" || exit 1

expect() { # description expected actual
	if [ "$2" = "$3" ]; then ok "$1: $3"; else not_ok "$1: expected '$2', got '$3'"; fi
}
fails() { # description command...: passes when the command fails
	d=$1
	shift
	if "$@" > /dev/null 2>&1; then not_ok "$d"; else ok "$d"; fi
}
exists() { [ -e "$1" ] && echo yes || echo no; }
bound() { [ -e "$D/driver" ] && basename "$(readlink "$D/driver")" || echo none; }
le16() { od -An -tu2 -j"$2" -N2 "$1" | tr -d ' '; }
size() { wc -c < "$1" | tr -d ' '; }

D=
for d in /sys/bus/pci/devices/*; do
	[ "$(cat "$d/vendor")" = 0x1002 ] && D=$d
done
if [ -z "$D" ]; then
	skipped "$DRV" "no PCI device of vendor 0x1002: start QEMU with -device ati-vga"
	tap_summary
	exit 4
fi
BDF=${D##*/}
K=/sys/kernel/debug/$DRV/$BDF
grep -q " /sys/kernel/debug debugfs " /proc/mounts ||
	mount -t debugfs debugfs /sys/kernel/debug
echo "# device $BDF $(cat "$D/vendor") $(cat "$D/device")"

if insmod "$KO" autosuspend_ms=200; then ok "insmod"; else not_ok "insmod $KO"; fi
expect "bound to $DRV" "$DRV" "$(bound)"
H=$(echo "$D"/hwmon/hwmon*)
expect "hwmon name" amdgpu "$(cat "$H/name")"

# Defaults (a Navi 14 dGPU), units as amdgpu's.
expect "temp1_input (m°C)" 45000 "$(cat "$H/temp1_input")"
expect "temp labels" "edge junction mem" \
	"$(cat "$H/temp1_label") $(cat "$H/temp2_label") $(cat "$H/temp3_label")"
expect "freq1_input (Hz)" 1845000000 "$(cat "$H/freq1_input")"
expect "freq labels" "sclk mclk" "$(cat "$H/freq1_label") $(cat "$H/freq2_label")"
expect "power1_average (µW)" 85000000 "$(cat "$H/power1_average")"
expect "no power1_input (as 6.1)" no "$(exists "$H/power1_input")"
expect "in0 vddgfx (mV)" "vddgfx 1050" "$(cat "$H/in0_label") $(cat "$H/in0_input")"
expect "no in1 on a dGPU" no "$(exists "$H/in1_input")"
expect "fan1_input pwm1" "1200 102" "$(cat "$H/fan1_input") $(cat "$H/pwm1")"
expect "busy percents" "37 12" "$(cat "$D/gpu_busy_percent") $(cat "$D/mem_busy_percent")"
expect "vram total/used (bytes)" "4294967296 536870912" \
	"$(cat "$D/mem_info_vram_total") $(cat "$D/mem_info_vram_used")"

# Knobs and their input checks.
echo -5000 > "$K/temp_edge"
expect "negative temperature" -5000 "$(cat "$H/temp1_input")"
echo 2500000000 > "$K/sclk"
expect "sclk past 2^31 Hz" 2500000000 "$(cat "$H/freq1_input")"
echo 0x10 > "$K/gpu_busy_percent"
expect "hex input" 16 "$(cat "$D/gpu_busy_percent")"
for bad_input in "pwm 256" "temp_edge abc" "temp_edge 1 2" "gpu_busy_percent -1" \
		 "gpu_metrics_rev 1.9.1" "gpu_metrics_rev 256.0" "hide/temp1_input 2" \
		 "fail/temp1_input -1"; do
	f=${bad_input%% *}
	v=${bad_input#* }
	before=$(cat "$K/$f")
	if (echo "$v" > "$K/$f") 2>/dev/null; then
		not_ok "$f accepted '$v'"
	else
		expect "$f refuses '$v', unchanged" "$before" "$(cat "$K/$f")"
	fi
done

# Visibility: hide knobs, power average/input, APU rules.
echo 1 > "$K/hide/temp1_input"
expect "hidden temp1 (input, label)" "no no" "$(exists "$H/temp1_input") $(exists "$H/temp1_label")"
echo 0 > "$K/hide/temp1_input"
expect "temp1 back" -5000 "$(cat "$H/temp1_input")"
echo 1 > "$K/hide/power1_average"
echo 0 > "$K/hide/power1_input"
expect "power1_input only" "no 87000000" "$(exists "$H/power1_average") $(cat "$H/power1_input")"
echo 0 > "$K/hide/power1_average"
expect "both power files" "85000000 87000000" "$(cat "$H/power1_average") $(cat "$H/power1_input")"
echo 1 > "$K/hide/power1_input"
for f in gpu_busy_percent mem_busy_percent mem_info_vram_total mem_info_vram_used gpu_metrics; do
	echo 1 > "$K/hide/$f"
	expect "$f hidden" no "$(exists "$D/$f")"
	echo 0 > "$K/hide/$f"
	expect "$f back" yes "$(exists "$D/$f")"
done
echo 1 > "$K/apu"
expect "APU: in1 vddnb" "vddnb 900" "$(cat "$H/in1_label") $(cat "$H/in1_input")"
left=
for f in "$H"/temp2_input "$H"/temp3_input "$H"/freq2_input "$H"/fan1_input "$H"/pwm1 \
	 "$D"/mem_busy_percent; do
	[ -e "$f" ] && left="$left ${f##*/}"
done
expect "APU: no temp2/3, freq2, fan1, pwm1, mem_busy" "" "$left"
echo 0 > "$K/apu"
expect "dGPU again: fan1, no in1" "1200 no" "$(cat "$H/fan1_input") $(exists "$H/in1_input")"

# Failing reads.
echo 5 > "$K/fail/temp1_input"
fails "temp1_input read fails (EIO)" cat "$H/temp1_input"
echo 0 > "$K/fail/temp1_input"
echo 95 > "$K/fail/gpu_metrics"
fails "gpu_metrics read fails" cat "$D/gpu_metrics"
echo 0 > "$K/fail/gpu_metrics"

# gpu_metrics: sizes, header, a few fields (see gt_test_blobs.c).
echo 45000 > "$K/temp_edge"
echo 1845000000 > "$K/sclk"
M=$D/gpu_metrics
# 1.4, 1.5, 2.4 and 3.0 have layouts of their own (6.12); 1.6 and 3.1 none:
# the "unknown revision" blob of 120 bytes.
for r in 1.0:80 1.1:96 1.2:104 1.3:120 1.4:288 1.5:360 2.0:120 2.1:120 2.2:128 2.3:152 \
	 2.4:168 3.0:264 1.6:120 3.1:120; do
	echo "${r%:*}" > "$K/gpu_metrics_rev"
	frev=${r%%.*}
	crev=${r#*.}
	crev=${crev%:*}
	expect "rev ${r%:*}: size, structure_size, revision" "${r#*:} ${r#*:} $frev $crev" \
		"$(size "$M") $(le16 "$M" 0) $(od -An -tu1 -j2 -N2 "$M" | tr -s ' ' ' ' | sed 's/^ //')"
done
echo 1.0 > "$K/gpu_metrics_rev"
expect "1.0 edge °C, gfxclk MHz, fan" "45 1845 1200" "$(le16 "$M" 16) $(le16 "$M" 54) $(le16 "$M" 72)"
echo 1.3 > "$K/gpu_metrics_rev"
expect "1.3 edge °C, hotspot, power W, gfxclk MHz" "45 52 85 1845" \
	"$(le16 "$M" 4) $(le16 "$M" 6) $(le16 "$M" 22) $(le16 "$M" 54)"
expect "1.3 average socclk: not supported" 65535 "$(le16 "$M" 42)"
expect "1.3 voltage gfx mV" 1050 "$(le16 "$M" 106)"
echo 2.3 > "$K/gpu_metrics_rev"
echo 15000000 > "$K/power_average"
expect "2.3 gfx centi-°C, power mW, gfxclk MHz" "4500 15000 1845" \
	"$(le16 "$M" 4) $(le16 "$M" 40) $(le16 "$M" 76)"
echo 100 > "$K/gpu_metrics_truncate"
expect "truncated blob" 52 "$(size "$M")"
expect "truncated header keeps structure_size" 152 "$(le16 "$M" 0)"
echo 0 > "$K/gpu_metrics_truncate"

# Runtime PM: idle suspends; sensors wake, labels and VRAM do not.
P=$D/power
expect "power/control" auto "$(cat "$P/control")"
sleep 1
expect "suspended when idle" "suspended Y" "$(cat "$P/runtime_status") $(cat "$K/runtime_suspended")"
r0=$(cat "$K/runtime_resumes")
n0=$(cat "$K/reads")
cat "$D/mem_info_vram_total" "$H/temp1_label" "$H/name" > /dev/null
expect "labels, VRAM do not wake" "$r0 suspended" "$(cat "$K/runtime_resumes") $(cat "$P/runtime_status")"
cat "$H/temp1_input" > /dev/null
expect "a sensor read wakes, counted" "$((r0 + 1)) $((n0 + 1))" \
	"$(cat "$K/runtime_resumes") $(cat "$K/reads")"
sleep 1
expect "suspended again" suspended "$(cat "$P/runtime_status")"
echo on > "$P/control"
expect "control on: active" active "$(cat "$P/runtime_status")"
echo auto > "$P/control"

# Unbind and rebind under readers and knob writers, files held open.
(while :; do cat "$M" "$H/temp1_input" "$H/freq1_input" "$D/gpu_busy_percent"; done) \
	> /dev/null 2>&1 &
readers=$!
(i=0; while :; do echo $((i % 2)) > "$K/hide/temp2_input"; i=$((i + 1)); done) 2> /dev/null &
writers=$!
exec 3< "$H/temp1_input" 6< "$K/temp_edge"
for i in 1 2 3 4 5; do
	echo "$BDF" > /sys/bus/pci/drivers/$DRV/unbind || not_ok "unbind $i"
	[ "$(bound)" = none ] || not_ok "bound after unbind $i"
	sleep 0.1
	echo "$BDF" > /sys/bus/pci/drivers/$DRV/bind || not_ok "bind $i"
	sleep 0.1
done
kill $readers $writers
wait 2> /dev/null
H=$(echo "$D"/hwmon/hwmon*)
fails "hwmon fd from before unbind fails" cat <&3
fails "knob fd from before unbind fails" cat <&6
exec 3<&- 6<&-
expect "bound again, defaults" "$DRV 45000" "$(bound) $(cat "$H/temp1_input")"
sleep 1
expect "suspends after the rebinds (no usage count leak)" suspended \
	"$(cat "$D/power/runtime_status")"

# pci_device_id: what the PCI core shows, restored by 0 and at remove.
own=$(cat "$D/device")
echo 0x7340 > "$K/pci_device_id"
expect "pci_device_id shown as the device id" 0x7340 "$(cat "$D/device")"
echo 0 > "$K/pci_device_id"
expect "pci_device_id 0: the device's own id again" "$own" "$(cat "$D/device")"
echo 0x744c > "$K/pci_device_id"

# rmmod: refused while a knob is open, fine during a read loop and with
# sysfs files open.
exec 6< "$K/temp_edge"
fails "rmmod refused while a knob is open" rmmod $DRV
exec 6<&-
(while :; do cat "$M" "$H/temp1_input" "$D/mem_info_vram_used"; done) > /dev/null 2>&1 &
readers=$!
sleep 0.3
exec 4< "$D/gpu_busy_percent" 5< "$H/temp1_input"
if rmmod $DRV; then ok "rmmod during reads, sysfs files open"; else not_ok "rmmod during reads"; fi
kill $readers
wait 2> /dev/null
fails "sysfs fd after rmmod fails" cat <&4
exec 4<&- 5<&-
expect "unbound, runtime PM back to on" "none on" "$(bound) $(cat "$D/power/control")"
expect "no knobs left" no "$(exists /sys/kernel/debug/$DRV)"
expect "the device's own id restored at remove" "$own" "$(cat "$D/device")"

insmod "$KO" runpm=0
sleep 0.5
expect "runpm=0: runtime PM forbidden, active" "on active" \
	"$(cat "$D/power/control") $(cat "$D/power/runtime_status")"
if rmmod $DRV; then ok "rmmod (runpm=0)"; else not_ok "rmmod (runpm=0)"; fi
fails "autosuspend_ms out of range refused" insmod "$KO" autosuspend_ms=-1

finish
