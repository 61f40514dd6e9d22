#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the VM (tests/vm-navibench/run boots it with scripts/vmtest).
# Runs navibench against the gputelemetry module's simulated GPUs and the
# ati-vga device, and prints each command's exit status, standard output
# and standard error between markers for the host to check:
#   @@@ begin NAME rc=N
#   @o|<a line of standard output>
#   @e|<a line of standard error>
#   @@@ end NAME
# The checks themselves are made on the host (run), where jq is.

NB=/usr/bin/navibench
GT=/sys/kernel/debug/gputelemetry
KO=/lib/gputelemetry/gputelemetry.ko
TKO=/lib/gputelemetry/gt_test_amdgpu.ko
SPLAT='BUG:|WARNING:|Oops|general protection|Kernel panic|UBSAN|KASAN|lockdep|kmemleak|Call Trace:'

# Kernel messages on the console would cut into the lines dumped below;
# kernel splats are looked for in dmesg at the end instead.
dmesg -n 1

dump() { # NAME RC: /tmp/o and /tmp/e
	echo "@@@ begin $1 rc=$2"
	sed 's/^/@o|/' /tmp/o
	sed 's/^/@e|/' /tmp/e
	echo "@@@ end $1"
}
run() { # NAME CMD...
	n=$1
	shift
	"$@" </dev/null >/tmp/o 2>/tmp/e
	dump "$n" $?
}

# 1. No module, ati-vga without a driver.
run nomod_list $NB list
run nomod_list_v $NB list --verbose
run nomod_list_json $NB list --json
run nomod_sensors $NB sensors
run nomod_info0 $NB info --device 0
run nomod_info_sim0 $NB info --device sim0

# 2. The module with two simulated GPUs.
run insmod insmod $KO sim_devices=2
run gt_devices cat $GT/devices
run gt_info_sim0 cat $GT/sim0/info
run list $NB list
run list_v $NB list --verbose
run list_json $NB list --json
run info_sim0 $NB info --device sim0
run info_0 $NB info --device 0
run info_sim1 $NB info --device sim1
run info_sim0_json $NB info --device sim0 --json
run info_sim9 $NB info --device sim9
run info_99 $NB info --device 99
run info_bogus $NB info --device bogus
run sensors_sim0 $NB sensors --device sim0
run sensors_sim0_json $NB sensors --device sim0 --json
run sensors_cpu $NB sensors --device cpu
run sensors_all_json $NB sensors --all --json
run watch_all_json $NB sensors --all --watch --interval 100ms --count 2 --json
run sensors_csv $NB sensors --all --format csv
run list_csv $NB list --format csv
run info_cpu_json $NB info --device cpu --json
run info_sim0_csv $NB info --device sim0 --format csv
run processes_json $NB processes --json --interval 100ms
run list_prom $NB list --format prometheus
run info_sim0_prom $NB info --device sim0 --format prometheus
run sensors_prom $NB sensors --all --format prometheus
run exporter_tf sh -c "mkdir -p /tmp/tf && $NB exporter --textfile /tmp/tf && cat /tmp/tf/navibench.prom"
run sensors_badint $NB sensors --device sim0 --watch --interval 10ms
run sensors_badsrc $NB sensors --device sim0 --source nowhere
run gt_sensors_idle cat $GT/sim0/sensors
run set_load sh -c "echo 100 > $GT/sim0/load"
run sensors_load_json $NB sensors --device sim0 --json
run sensors_load $NB sensors --device sim0
run set_fail sh -c "echo sclk > $GT/sim0/fail_sensors"
run sensors_fail $NB sensors --device sim0
run sensors_fail_json $NB sensors --device sim0 --json
run clear_fail sh -c "echo none > $GT/sim0/fail_sensors"
run watch timeout 1 $NB sensors --device sim0 --watch --interval 200ms
run watch_json $NB sensors --device sim0 --watch --interval 100ms --count 3 --json
# navibench run on sim0: a simulated GPU has telemetry only, refused (exit 4)
run run_sim0_ramp $NB run --device sim0 --tests fp32-peak --json
# navibench top in tmux (carried in by run) on sim0 and sim1 while sim0's
# load changes: the screen captured at load 20 and at load 100, after a
# key and a resize, and the terminal's state after q.
# tmux needs a UTF-8 locale; navibench runs in C, in ASCII
tm() { LC_ALL=C.UTF-8 tmux -u -f /dev/null "$@"; }
if [ -x /usr/bin/tmux ]; then
	mkdir -p /dev/pts
	mount -t devpts devpts /dev/pts
	export TERM=tmux-256color
	echo 20 >$GT/sim0/load
	sleep 2
	tm new-session -d -s top -x 120 -y 45 \
		"LC_ALL=C $NB top --interval 500ms 2>/tmp/top.err; echo \$? >/tmp/top.rc; exec sleep 600"
	sleep 3
	run top_idle tm capture-pane -p -t top
	run top_idle_json $NB sensors --all --json
	echo 100 >$GT/sim0/load
	sleep 3
	run top_load tm capture-pane -p -t top
	run top_load_json $NB sensors --all --json
	tm send-keys -t top d
	sleep 1
	run top_key_d tm capture-pane -p -t top
	tm resize-window -t top -x 80 -y 24
	sleep 1.5
	run top_80x24 tm capture-pane -p -t top
	tm send-keys -t top q
	sleep 1.5
	run top_quit sh -c "cat /tmp/top.rc /tmp/top.err; LC_ALL=C.UTF-8 tmux -u display-message -p -t top '#{alternate_on} #{cursor_flag}'"
	tm kill-server
	echo 0 >$GT/sim0/load
fi
# Not root: debugfs (0700) cannot be read while the module is loaded.
echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
echo 'nogroup:x:65534:' >>/etc/group
run user_list su -s /bin/sh nobody -c "$NB list"
run user_list_json su -s /bin/sh nobody -c "$NB list --json"
run user_sensors su -s /bin/sh nobody -c "$NB sensors"
run user_info_sim0 su -s /bin/sh nobody -c "$NB info --device sim0"

# 3. ati-vga bound to the test driver: a PCI driver, no DRM node.
run insmod_test insmod $TKO
run ativga_driver readlink /sys/bus/pci/devices/0000:00:02.0/driver
run ativga_list_v $NB list --verbose
run ativga_list_json $NB list --json
run ativga_info $NB info --device 0000:00:02.0
run ativga_sensors $NB sensors --device 00:02.0

# 4. The module unloaded again.
run rmmod rmmod gputelemetry
run unload_list $NB list
run unload_list_v $NB list --verbose
run unload_info_sim0 $NB info --device sim0
run user_unload_list su -s /bin/sh nobody -c "$NB list"
run rmmod_test rmmod gt_test_amdgpu

dmesg -n 7
dmesg | grep -E "$SPLAT" >/tmp/o
: >/tmp/e
dump dmesg_splats 0
# On the console as well, for scripts/vmtest's own check.
dmesg | grep -E "$SPLAT"
exit 0
