# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# The shell examples of README.md and docs/*.md, run as a user types them,
# on the fixtures (sourced by tests/cli/run, which gives tap, $here, $top,
# $tmp, $build, $NBPLAIN: the build without sanitizers, as a user's). Each
# must exit as the text says: 0, or the status a transcript prints after
# "; echo $?", or the one a command's comment gives ("# ... exits 4 ...").
# Also: README.md stays within README_MAX_LINES lines (the rest goes to
# docs/), every relative link of those files names a file that exists,
# and the README's sample of "user/navibench --device 0" has the lines
# this build prints, in the same order (readme_skeleton).
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
# docs say that ends it with status 0.
# shellcheck disable=SC2154 # here, top, tmp, build, NBPLAIN, NB come from tests/cli/run

README_MAX_LINES=350

# readme_docs: the files whose examples run, relative to $top.
readme_docs() {
	local f
	echo README.md
	for f in "$top"/docs/*.md; do
		[[ -f $f ]] && echo "docs/${f##*/}"
	done
}

# readme_length: README.md says what the project is and where to read
# more; the rest lives in docs/.
readme_length() {
	local n
	n=$(wc -l <"$top/README.md")
	[[ $n -le $README_MAX_LINES ]]
	tap_result $? "README.md is at most $README_MAX_LINES lines ($n)" \
		"README.md has $n lines: move the detail to docs/ (docs/HACKING.md says what goes where)"
}

# readme_links: every relative link [text](path#anchor) of the docs names
# a file or directory that exists, from the linking file's directory.
readme_links() {
	local f t bad=''
	while IFS= read -r f; do
		while IFS= read -r t; do
			t=${t%%#*}
			[[ -z $t || $t == *://* || $t == mailto:* ]] && continue
			[[ -e $top/$(dirname "$f")/$t ]] || bad+="$f: $t"$'\n'
		done < <(grep -o '\](\([^)]*\))' "$top/$f" | sed 's/^](//; s/)$//')
	done < <(readme_docs)
	[[ -z $bad ]]
	tap_result $? "every relative link of README.md and docs/*.md names a file that exists" \
		"links to nothing: $bad"
}

# readme_skeleton TEXT: the lines' keys, one a line: the first word of
# each line that starts at column 0 or 2 (labels, section and table
# rows); deeper lines (values wrapped onto the next line) have no key, so
# that the machine's name and numbers, which differ, do not count.
readme_skeleton() {
	sed -nE 's/^(  )?([^ ].*)$/\2/p' <<<"$1" | awk '{ print $1 }'
}

readme_length
readme_links

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

	local doc
	while IFS= read -r doc; do
		readme_file "$doc" "$wd" "$bin"
	done < <(readme_docs)
}

# readme_file DOC WD BIN: run DOC's blocks (DOC relative to $top).
readme_file() {
	local doc=$1 wd=$2 bin=$3
	local block=0 infence=0 mark='' lang='' kind='' n=0 prev='' line
	local -a cmds=() wants=() outs=()
	while IFS= read -r line || [[ -n $line ]]; do
		n=$((n + 1))
		if [[ $line == '```'* ]]; then
			if ((infence)); then
				readme_block "$doc" "$block" "$lang" "$mark" "$kind" "$wd" "$bin" cmds wants outs
				infence=0
			else
				infence=1 block=$((block + 1)) lang=${line#\`\`\`} kind=cmds cmds=() wants=() outs=()
				mark=$(sed -nE 's/^<!-- examples: (.*) -->$/\1/p' <<<"$prev")
			fi
			prev=$line
			continue
		fi
		if ((infence)); then
			if [[ $line == '$ '* ]]; then
				[[ $kind == transcript ]] || cmds=() wants=() outs=()
				kind=transcript
				cmds+=("${line#\$ }:$n") wants+=("") outs+=("")
			elif [[ $kind == transcript ]]; then
				outs[-1]+=$line$'\n'
				# the status a transcript prints after "; echo $?"
				if [[ ${cmds[-1]%:*} == *'; echo $?' && -z ${wants[-1]} && $line =~ ^[0-9]+$ ]]; then
					wants[-1]=$line
				fi
			elif [[ -n $line ]]; then
				cmds+=("$line:$n") wants+=("") outs+=("")
			fi
		fi
		prev=$line
	done <"$top/$doc"
}

# readme_block DOC N LANG MARK KIND WD BIN CMDS WANTS OUTS: run a block's
# commands (OUTS: what a transcript shows each print).
readme_block() {
	local doc=$1 b=$2 lang=$3 mark=$4 kind=$5 wd=$6 bin=$7
	local -n c_=$8 w_=$9 o_=${10}
	local root="$tmp/readme-navi14" i cmd ln want st out0 server t0
	case "$lang" in
	''|sh|shell|console) ;;
	*) return ;;
	esac
	[[ ${#c_[@]} -gt 0 ]] || return
	if [[ $mark == skip:* ]]; then
		skipped "$doc block $b (line ${c_[0]##*:}): ${c_[0]%:*}" "${mark#skip: }"
		return
	fi
	[[ $mark == nogpu ]] && root="$tmp/readme-nogpu"
	for i in "${!c_[@]}"; do
		[[ -n ${README_NO_BENCH:-} ]] || break
		if readme_whole_suite "${c_[i]%:*}" "$mark"; then
			skipped "$doc block $b (line ${c_[0]##*:}): ${c_[i]%:*}" \
				"the benchmark's whole suite on the CPU (a minute or more); README_NO_BENCH is set (make check-quick): make check runs it"
			return
		fi
	done
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
		tap_result $? "$doc line $ln: $cmd (exit $st, the text says $want; $((SECONDS - t0)) s)" \
			"$(tail -n 15 <<<"$out0")"
		if [[ $doc == README.md && $cmd == 'user/navibench --device 0' ]]; then
			diff <(readme_skeleton "${o_[i]}") <(readme_skeleton "$out0") >"$tmp/readme-skel.diff"
			tap_result $? "README line $ln: its sample output has the lines this build prints, in order" \
				"$(cat "$tmp/readme-skel.diff"); paste the output of $cmd (< README, > this build)"
		fi
	done
}

# readme_whole_suite CMD MARK: CMD runs the benchmark's whole suite on
# the CPU: a run (or the main job) on the CPU device, on every device, or
# on device 0 of a machine without a GPU (MARK nogpu), without --tests.
readme_whole_suite() {
	[[ $1 =~ ^(user/)?navibench\ (run\ )?--device[\ =]([^ ]+) ]] || return 1
	[[ $1 != *--tests* ]] &&
		[[ ${BASH_REMATCH[3]} == cpu || ${BASH_REMATCH[3]} == all || $2 == nogpu ]]
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
