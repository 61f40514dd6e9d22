#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In the VM of tests/ksft-tree/run (busybox sh): the kselftest tarball
# unpacked in /ksft, gputelemetry.ko in /lib/modules/$(uname -r)/extra/
# with its modules.dep, and nothing else of the module (no
# $GPUTELEMETRY_KO): the tests find it through modprobe, as in a kernel CI
# lab. Everything the host checks goes to the second serial port (the
# TAP alone, no kernel messages) and the console:
#   ksft-tree-guest: modinfo VERSION     busybox modinfo finds it by name
#   ksft-tree-guest: run all ... end all rc=N
#                                        run_kselftest.sh with the module
#   ksft-tree-guest: run absent ... end absent rc=N
#                                        again with the module removed
#   ksft-tree-guest: exit PROG N         each program run alone, no module
# ksft-tree-guest: done
ko=/lib/modules/$(uname -r)/extra/gputelemetry.ko
stty -F /dev/ttyS1 raw -echo 2>/dev/null
exec 3>/dev/ttyS1
say() {
	echo "ksft-tree-guest: $*"
	echo "ksft-tree-guest: $*" >&3
}
# The runner's output to both, its status to /tmp/rc.
runner() {
	{ ./run_kselftest.sh 2>&1; echo $? >/tmp/rc; } | tee /dev/ttyS1
}

say "modinfo $(modinfo -F version gputelemetry 2>&1 | head -n 1)"
cd /ksft || { say "no /ksft"; exit 1; }

say "run all"
runner
say "end all rc=$(cat /tmp/rc)"

# No module: every program must skip (exit 4, KSFT_SKIP) and say why.
rmmod gputelemetry 2>/dev/null
mv "$ko" /tmp/gputelemetry.ko
say "run absent"
runner
say "end absent rc=$(cat /tmp/rc)"
cut -d: -f2 kselftest-list.txt | while read -r t; do
	(cd drivers/gpu/gputelemetry && "./$t" >/dev/null 2>&1 </dev/null)
	say "exit $t $?"
done
mv /tmp/gputelemetry.ko "$ko"
say "done"
