#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gputelemetry: the sampler's cost. 4 simulated devices at interval_ms=10
# for GT_COST_SECONDS (default 2) seconds; prints the CPU time per sample
# from each device's "stats" line "sampler: samples=<n> cpu_ns=<ns>", and
# the system time of the whole machine from /proc/stat as a cross-check.
. "$(dirname "$0")/gt_lib.sh"

secs=${GT_COST_SECONDS:-2}
gt_require
gt_unload || { echo "# cannot unload $GT_MOD"; exit $KSFT_FAIL; }
trap 'gt_unload' EXIT

# Sum of the system time of all CPUs, in USER_HZ ticks.
sys_ticks() {
	awk '/^cpu / { print $4 + $7 + $8 }' /proc/stat
}

ktap_header 3
gt_mark
res=0
gt_load sim_devices=4 interval_ms=10 || res=1
ktap_result $res "load with 4 devices at 10 ms"
[ $res -eq 0 ] || ktap_finish

t0=$(awk '{ print $1 }' /proc/uptime)
s0=$(sys_ticks)
sleep "$secs"
s1=$(sys_ticks)
t1=$(awk '{ print $1 }' /proc/uptime)
samples=0
cpu_ns=0
res=0
for i in 0 1 2 3; do
	line=$(tail -n 1 $GT_ROOT/sim$i/stats)
	case "$line" in
	"sampler: samples="*" cpu_ns="*) ;;
	*) echo "# sim$i stats ends with '$line', not 'sampler: samples=<n> cpu_ns=<ns>'"; res=1; continue ;;
	esac
	n=$(echo "$line" | sed 's/.*samples=\([0-9]*\) .*/\1/')
	ns=$(echo "$line" | sed 's/.*cpu_ns=\([0-9]*\)$/\1/')
	echo "# sim$i: $line"
	samples=$((samples + n))
	cpu_ns=$((cpu_ns + ns))
done
hz=100
ncpu=$(grep -c '^cpu[0-9]' /proc/stat)
awk -v n="$samples" -v ns="$cpu_ns" -v t0="$t0" -v t1="$t1" -v s0="$s0" -v s1="$s1" \
    -v hz="$hz" -v cpus="$ncpu" 'BEGIN {
	if (n > 0)
		printf "# sampler cost: %d ns/sample over %d samples\n", ns / n, n
	printf "# guest system time: %.0f ms of %d CPUs over %.2f s (%.1f%% of one CPU); sampler: %.1f ms\n",
		(s1 - s0) * 1000 / hz, cpus, t1 - t0, (s1 - s0) * 100 / hz / (t1 - t0), ns / 1e6
}'
# At 10 ms, 4 devices take 400 samples a second; a slow VM takes fewer,
# but far fewer means the sampler stalls.
min=$((4 * secs * 100 / 4))
[ "$samples" -ge "$min" ] || { echo "# only $samples samples (want >= $min)"; res=1; }
ktap_result $res "4 devices at 10 ms took >= $min samples in $secs s"

# The sampler's own time cannot exceed the time of every CPU since load.
res=0
up_ns=$(awk -v t="$t1" -v c="$ncpu" 'BEGIN { printf "%.0f", (t + 1) * 1e9 * c }')
awk -v a="$cpu_ns" -v b="$up_ns" 'BEGIN { exit !(a > 0 && a < b) }' ||
	{ echo "# sampler cpu_ns $cpu_ns not within (0, $up_ns)"; res=1; }
ktap_result $res "sampler cpu_ns plausible"
ktap_finish
