#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Runs in the VM (tests/exporter/run boots it with scripts/vmtest
# --hostfwd): the gputelemetry module with one simulated GPU, navibench
# exporter on the guest's port 9457 (forwarded to a port of the host's
# 127.0.0.1, where the host's Prometheus scrapes it), and a control port,
# 9458, on which the host sends one command per connection:
#   load80   write 80 to sim0/load
#   fail     make sim0's gpu_busy reading fail (sim0/fail_sensors)
#   stop     stop the exporter with SIGTERM and end
# The host retries a command until Prometheus shows its effect, so a
# command sent before nc listens is sent again. Lines for the host start
# with "exporter-guest:".
NB=/usr/bin/navibench
GT=/sys/kernel/debug/gputelemetry

dmesg -n 1
insmod /lib/gputelemetry/gputelemetry.ko sim_devices=1 || exit 1
$NB exporter --listen :9457 2>/tmp/exp.err &
pid=$!
echo "exporter-guest: exporter started"
while :; do
	cmd=$(nc -l -p 9458)
	echo "exporter-guest: command '$cmd'"
	case $cmd in
	load80) echo 80 >$GT/sim0/load ;;
	fail) echo gpu_busy >$GT/sim0/fail_sensors ;;
	stop) break ;;
	esac
done
kill -TERM $pid
wait $pid
rc=$?
echo "exporter-guest: exporter exit $rc"
sed 's/^/exporter-guest: err| /' /tmp/exp.err
exit $rc
