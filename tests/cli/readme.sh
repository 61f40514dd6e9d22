# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# README.md's shell examples, run as a user types them, on the fixtures
# (sourced by tests/cli/run, which gives tap, $here, $top, $tmp, $build,
# $NBPLAIN: the build without sanitizers, as a user's). Each must exit as the README says: 0, or the status a transcript
# prints after "; echo $?", or the one a command's comment gives
# ("# ... exits 4 ...").
#
# Which fenced blocks run (a line just before the opening fence marks it):
#   <!-- examples: skip: WHY -->   not run (a VM, root's system changes,
#                                  a server and its scrape, a benchmark);
#                                  WHY is printed with the skip
#   <!-- examples: nogpu -->       on a machine without a GPU (an empty
#                                  fixture: device 0 is the CPU)
#   anything else                  on the RX 5500 XT fixture with the
#                                  gputelemetry module (sim0) and two
#                                  processes with DRM clients
# A fence with a language other than sh, shell or console (```promql) holds
# no commands. In a transcript the commands are the "$ " lines; in any
# other block every line is one (bash drops the comments).
#
# Every command runs in a working directory of its own (result files stay
# there for the commands after it), with navibench and user/navibench on
# the fixture, and, as root, in namespaces of its own: a network with only
# its loopback (navibench exporter binds 9457 without clashing), and an
# empty tmpfs over /var/lib/prometheus, so that node_exporter's textfile
# directory is there and the machine's is never written. A server (the
# exporter without --textfile) is stopped with SIGTERM after 2 s: the
# README says that ends it with status 0.
# shellcheck disable=SC2154 # here, top, tmp, build, NBPLAIN, NB come from tests/cli/run

readme_run() {
	local wd="$tmp/readme" bin="$tmp/readme-bin" f
	if [[ $(id -u) -ne 0 ]] || ! command -v unshare >/dev/null || ! command -v ip >/dev/null ||
	   [[ ! -d /var/lib/prometheus ]]; then
		skipped "README examples" "needs root, unshare, ip and /var/lib/prometheus (scripts/install-deps)"
		return
	fi
	"$here/mkroot" "$tmp/readme-navi14" navi14 gputelemetry procs=6.12
	mkdir -p "$wd/user" "$bin" "$tmp/readme-nogpu"
	for f in "$bin/navibench" "$wd/user/navibench"; do
		printf '#!/bin/sh\nexec env NBSHIM_ROOT="$README_ROOT" LD_PRELOAD=%q %q "$@"\n' \
			"$build/drmshim.so" "${NBPLAIN:-$NB}" >"$f"
		chmod +x "$f"
	done
	# the movie `navibench predict -i movie.npy` reads: 2 sequences of 3
	# frames of 40x40x1, float32 zeros (.npy version 1.0)
	{
		h="{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 40, 40, 1), }"
		printf '\x93NUMPY\x01\x00'
		printf "\\x$(printf %02x $(((128 - 10) % 256)))\\x00"
		printf '%-117s\n' "$h"
		head -c $((2 * 3 * 40 * 40 * 4)) /dev/zero
	} >"$wd/movie.npy"

	local block=0 infence=0 mark='' lang='' kind='' n=0 prev='' line
	local -a cmds=() wants=()
	while IFS= read -r line || [[ -n $line ]]; do
		n=$((n + 1))
		if [[ $line == '```'* ]]; then
			if ((infence)); then
				readme_block "$block" "$lang" "$mark" "$kind" "$wd" "$bin" cmds wants
				infence=0
			else
				infence=1 block=$((block + 1)) lang=${line#\`\`\`} kind=cmds cmds=() wants=()
				mark=$(sed -nE 's/^<!-- examples: (.*) -->$/\1/p' <<<"$prev")
			fi
			prev=$line
			continue
		fi
		if ((infence)); then
			if [[ $line == '$ '* ]]; then
				[[ $kind == transcript ]] || cmds=() wants=()
				kind=transcript
				cmds+=("${line#\$ }:$n") wants+=("")
			elif [[ $kind == transcript ]]; then
				# the status a transcript prints after "; echo $?"
				if [[ ${cmds[-1]%:*} == *'; echo $?' && -z ${wants[-1]} && $line =~ ^[0-9]+$ ]]; then
					wants[-1]=$line
				fi
			elif [[ -n $line ]]; then
				cmds+=("$line:$n") wants+=("")
			fi
		fi
		prev=$line
	done <"$top/README.md"
}

# readme_block N LANG MARK KIND WD BIN CMDS WANTS: run a block's commands.
readme_block() {
	local b=$1 lang=$2 mark=$3 kind=$4 wd=$5 bin=$6
	local -n c_=$7 w_=$8
	local root="$tmp/readme-navi14" i cmd ln want st out0 server t0
	case "$lang" in
	''|sh|shell|console) ;;
	*) return ;;
	esac
	[[ ${#c_[@]} -gt 0 ]] || return
	if [[ $mark == skip:* ]]; then
		skipped "README block $b (line ${c_[0]##*:}): ${c_[0]%:*}" "${mark#skip: }"
		return
	fi
	[[ $mark == nogpu ]] && root="$tmp/readme-nogpu"
	for i in "${!c_[@]}"; do
		cmd=${c_[i]%:*} ln=${c_[i]##*:} want=${w_[i]}
		[[ $kind == transcript ]] && cmd=${cmd%; echo \$?}
		if [[ -z $want ]]; then
			want=$(sed -nE 's/.* # .*\<exits? ([0-9]+)\>.*/\1/p' <<<"$cmd")
			want=${want:-0}
		fi
		server=0
		[[ $cmd =~ ^(user/)?navibench\ exporter && $cmd != *--textfile* ]] && server=1
		t0=$SECONDS
		out0=$(cd "$wd" && README_ROOT=$root PATH="$bin:$PATH" readme_sandbox "$server" "$cmd" 2>&1)
		st=$?
		[[ $st -eq $want ]]
		tap_result $? "README line $ln: $cmd (exit $st, the README says $want; $((SECONDS - t0)) s)" \
			"$(tail -n 15 <<<"$out0")"
	done
}

# readme_sandbox SERVER CMD: bash -c CMD in the namespaces described above;
# SERVER=1: stopped by SIGTERM after 2 s, its own status returned.
readme_sandbox() {
	local pre='mount -t tmpfs readme /var/lib/prometheus && mkdir /var/lib/prometheus/node-exporter &&
		ip link set lo up || exit 99'
	if [[ $1 -eq 1 ]]; then
		unshare -mn --propagation private -- bash -c "$pre"'; exec timeout --preserve-status -s TERM 2 bash -c "$1"' _ "$2"
	else
		unshare -mn --propagation private -- bash -c "$pre"'; exec timeout 600 bash -c "$1"' _ "$2"
	fi
}

readme_run
