# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# One option and exit-status grammar for every command, and the man page
# built from the same tables (sourced by tests/cli/run, which gives nb,
# check, $here, $top, $tmp, $root, $NB). Every command that
# `navibench --help` lists is run with a bad option, a bad value, a
# missing input file, an output in a missing directory and a device that
# does not exist: each gives the status of navibench(1)'s EXIT STATUS
# table and a message naming the problem and the fix. A command with no
# case here fails, so a new command must say how it takes bad input.
# shellcheck disable=SC2154 # here, top, tmp, root, NB, out, rc come from tests/cli/run

"$here/mkroot" "$root" navi14 gputelemetry
man1="$top/user/navibench.1"
mapfile -t commands < <("$NB" --help | sed -n 's/^  \([a-z]\+\) .*/\1/p')
[[ ${#commands[@]} -ge 10 && " ${commands[*]} " == *" list "* && " ${commands[*]} " == *" report "* ]]
check "grammar: the commands, from navibench --help (${commands[*]})"

# cmd_help CMD: the command's --help into $help, and into $flat with its
# line breaks and indentation as single spaces
cmd_help() {
	help=$("$NB" "$1" --help 2>&1)
	flat=$(tr -s ' \n' '  ' <<<"$help")
}
# help_has CMD OPT: --help of CMD lists --OPT
help_has() { cmd_help "$1"; grep -qE "^  (-., |    )--$2( |\[|\$)" <<<"$help"; }
# no_option_like CMD DESC ERE EXCLUDE: no option line of CMD's --help
# matches --ERE, but those matching EXCLUDE
no_option_like() {
	cmd_help "$1"
	! grep -E "^  (-., |    )--" <<<"$help" | grep -vE -- "$4" | grep -qE -- "^  (-., |    )--$3"
	tap_result $? "$1: $2" "$help"
}
# bad_path_cases TABLE STATUS PATTERN DESC NONE_DESC NONE_ERE NONE_EXCLUDE:
# every command runs with its arguments in the associative array TABLE,
# exits STATUS and says PATTERN and where --help is; a command without
# arguments there must have no option like NONE_ERE (no_option_like).
bad_path_cases() {
	local -n t_=$1
	local c a
	for c in "${commands[@]}"; do
		if [[ -z ${t_[$c]:-} ]]; then
			no_option_like "$c" "$5" "$6" "$7"
			continue
		fi
		read -ra a <<<"${t_[$c]}"
		nb -- "$c" "${a[@]}"
		says "$c ${t_[$c]}: $4" "$2" "$3" "$hint"
	done
}
# says DESC STATUS PATTERN...: $rc is STATUS and $out matches every
# glob PATTERN
says() {
	local desc=$1 want=$2 p ok=0
	shift 2
	[[ $rc -eq $want ]] || ok=1
	for p in "$@"; do
		# shellcheck disable=SC2053 # a glob on purpose
		[[ $out == $p ]] || ok=1
	done
	tap_result "$ok" "$desc" "exit $rc (want $want): $out"
}
hint="*see 'navibench * --help'*"

# ---- a bad option, a value in both spellings ----
for c in "${commands[@]}"; do
	nb -- "$c" --no-such-option
	says "$c --no-such-option: exit 2, the option named, --help pointed to" 2 \
		"*unknown option '--no-such-option'*" "*see 'navibench $c --help'*"
	# every option that takes a value takes it as --opt=VALUE too: an
	# empty one is refused as a bad value of that option, never as an
	# unknown option or one that takes no value
	cmd_help "$c"
	mapfile -t valopts < <(sed -nE 's/^  (-., |    )--([a-z-]+)(\[=| )[A-Z].*/\2/p' <<<"$help")
	bad=
	for o in "${valopts[@]}"; do
		nb -- "$c" "--$o="
		[[ $rc -eq 2 && $out == *"--$o"* && $out != *"unknown option"* &&
		   $out != *"takes no value"* ]] || bad+=" --$o= (exit $rc: ${out%%$'\n'*})"
	done
	[[ ${#valopts[@]} -gt 0 || $c == list ]] && [[ -z $bad ]]
	tap_result $? "$c: every option with a value takes --opt=VALUE (${valopts[*]/#/--})" "$bad"
done

# ---- a bad value: the option, the value and what is accepted ----
declare -A badval=(
	[list]="--format xml" [info]="--format=xml" [sensors]="--interval abc"
	[processes]="--interval=10ms" [run]="--batch 0" [predict]="--seed=-1"
	[weights]="--seed abc" [exporter]="--cache=2h" [compare]="--fail-on-regression 200"
	[report]="--output=" [top]="--window 1s"
)
for c in "${commands[@]}"; do
	if [[ -z ${badval[$c]:-} ]]; then
		not_ok "$c: a bad value" "no bad-value case for '$c' in tests/cli/grammar.sh"
		continue
	fi
	read -ra a <<<"${badval[$c]}"
	nb -- "$c" "${a[@]}"
	o=${a[0]%%=*}
	says "$c ${badval[$c]}: exit 2, the option, the value and what is accepted" 2 \
		"*$o*" "*invalid value*" "*expected *" "$hint"
done

# ---- a missing input file ----
weights="$tmp/g-weights.safetensors"
"$NB" weights --model convlstm-mono --output "$weights" >/dev/null 2>&1
# shellcheck disable=SC2034 # read by bad_path_cases, by name
declare -A missing=(
	[run]="--weights $tmp/none.safetensors --tests convlstm-mono"
	[predict]="-m convlstm-mono -i $tmp/none.npy -o $tmp/p.npy"
	[compare]="$tmp/none.json $tmp/none2.json" [report]="$tmp/none.json -o $tmp/r.html"
)
bad_path_cases missing 2 "*$tmp/none.*: No such file or directory; name a file that exists*" \
	"exit 2 before any work, the file and the fix named" \
	"reads no input file" '.* FILE' '--(json|output|png)'

# ---- an output in a directory that does not exist ----
# shellcheck disable=SC2034 # read by bad_path_cases, by name
declare -A outdir=(
	[list]="--json $tmp/nodir/x.json" [info]="--json=$tmp/nodir/x.json"
	[sensors]="--json $tmp/nodir/x.json" [processes]="--json $tmp/nodir/x.json"
	[run]="--device cpu --json $tmp/nodir/x.json"
	[predict]="-m convlstm-mono -i $weights -o $tmp/nodir/p.npy"
	[weights]="-m convlstm-mono -o $tmp/nodir/w.safetensors"
	[exporter]="--textfile $tmp/nodir" [report]="$weights --output $tmp/nodir/r.html"
)
# shellcheck disable=SC2034 # read by bad_path_cases, by name
help_has compare json && outdir[compare]="--json=$tmp/nodir/x.json $weights $weights"
bad_path_cases outdir 2 "*$tmp/nodir*create it*" "exit 2 (usage), the directory and the fix named" \
	"writes no file" '(json|output|png|textfile)' '^$'
[[ ! -e $tmp/nodir ]]; check "outputs into a missing directory: nothing created"
nb -- run --textfile "$tmp/nodir"
says "run --textfile into a missing directory: exit 2, as exporter --textfile" 2 \
	"*--textfile: '$tmp/nodir' is not a directory (it does not exist); create it*"
nb -- info --json "$tmp"
says "info --json DIR: exit 2, a directory is no file" 2 "*--json $tmp: is a directory; name a file in it*"

# ---- a device that does not exist ----
declare -A devargs=([predict]="-m convlstm-mono -i $weights -o $tmp/p.npy")
for c in "${commands[@]}"; do
	if ! help_has "$c" device; then
		nb -- "$c" --device 0
		says "$c takes no --device: exit 2" 2 "*unknown option '--device'*"
		continue
	fi
	read -ra a <<<"${devargs[$c]:-}"
	nb -- "$c" --device 99 "${a[@]}"
	says "$c --device 99: exit 3, named with the command, the devices listed" 3 \
		"navibench $c: --device 99: no such device; devices are 0..2*" "*found:*0  amdgpu*"
done

# ---- the --textfile of the exporter: one grammar (it was a flag with a positional DIR) ----
mkdir -p "$tmp/tfa" "$tmp/tfb" "$tmp/tfc"
for form in "--textfile=$tmp/tfa" "--textfile $tmp/tfb" "-t $tmp/tfc"; do
	read -ra a <<<"$form"
	nb -- exporter "${a[@]}"
	d=${a[-1]#--textfile=}
	[[ $rc -eq 0 && -s $d/navibench.prom ]]; tap_result $? "exporter $form: writes DIR/navibench.prom" "$out"
done

# ---- help texts say what the code does ----
cmd_help processes
[[ $flat == *"(default: every amdgpu GPU)"* ]]; tap_result $? "processes --help: --device's default is every GPU" "$help"
cmd_help run
[[ $flat == *"or all (every GPU at once) (default: 0)"* ]]; tap_result $? "run --help: --device takes all" "$help"
cmd_help info
[[ $flat == *"(default: 0)"* && $flat != *"all (every GPU"* ]]; tap_result $? "info --help: --device 0 by default, no all" "$help"
exit_line="Exit status: 0 done, 1 a runtime error or an invalid result, 2 usage, 3 no such device, 4 the device cannot compute, 5 a gate did not pass, 128+N stopped by signal N."
for c in "${commands[@]}"; do
	cmd_help "$c"
	[[ $flat == *"$exit_line"* ]]; tap_result $? "$c --help: the exit statuses, from the one table" "$help"
done
# --json: every command that prints a document (--format) takes it
for c in "${commands[@]}"; do
	help_has "$c" format || continue
	if ! help_has "$c" json && [[ $c == compare ]]; then
		skipped "$c: --format and --json" "compare's --json comes with its own change"
		continue
	fi
	help_has "$c" json; tap_result $? "$c: --format and --json (--json is --format json)" "$help"
done

# ---- the man page: built from the same tables ----
roff=$(cat "$man1")
[[ -n $roff && $roff != *'.\" @'* && $roff != *@VERSION@* ]]
check "navibench.1 built, every @ line of navibench.1.in replaced"
sections=$(sed -n 's/^\.SH //p' "$man1" | tr -d '"' | paste -sd,)
want="NAME,SYNOPSIS,DESCRIPTION,COMMANDS,OPTIONS,PROMETHEUS METRICS,EXIT STATUS,ENVIRONMENT,FILES,EXAMPLES,SEE ALSO"
[[ $sections == "$want" ]]; tap_result $? "navibench.1: sections in order" "$sections"
# cmd_section CMD: the roff of CMD's .SS, up to the next .SS or .SH
cmd_section() { awk -v h=".SS $1" '$0 == h { p = 1; next } /^\.S[SH] / { p = 0 } p' "$man1"; }
for c in "${commands[@]}"; do
	n=$(grep -cE "^\.SS $c( |$)" "$man1")
	[[ $n -eq 1 ]]; check "navibench.1 documents $c once ($n)"
	cmd_help "$c"
	from_help=$(sed -nE 's/^  (-., |    )(--[a-z-]+).*/\2/p' <<<"$help" | sort)
	from_man=$(cmd_section "$c" | awk '/^\.TP$/ { getline; if (/^\\fB\\-/) print }' |
		sed -E 's/.*\\fB\\-\\-([a-z\\-]+)\\fR.*/--\1/; s/\\-/-/g' | sort)
	[[ -n $from_help && $from_help == "$from_man" ]]
	tap_result $? "navibench.1: $c's options are its --help's, each once" \
		"--help: $(paste -sd' ' <<<"$from_help"); man: $(paste -sd' ' <<<"$from_man")"
done
! sed -n '/^\.SH PROMETHEUS METRICS/,/^\.SH EXIT STATUS/p' "$man1" | grep -qE "^\.SS ($(IFS='|'; echo "${commands[*]}"))"
check "navibench.1: no command under PROMETHEUS METRICS"
exits=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH /{/^\.TP/{n;s/^\.B //p}}' "$man1" | paste -sd' ')
[[ $exits == '0 1 2 3 4 5 128+N' ]]; check "navibench.1: EXIT STATUS lists 0 1 2 3 4 5 128+N ($exits)"
grep -qE 'NB_EXIT_GATE = 5,' "$top/user/navibench.h" && grep -qE 'NB_EXIT_NOCOMPUTE = 4,' "$top/user/navibench.h"
check "navibench.h: enum nb_exit holds the statuses the table documents"
! grep -q 'between two scrapes)' "$man1"; check "navibench.1: the sampler's statistics are since the last reset"
if command -v man >/dev/null; then
	out=$(MANWIDTH=80 man --warnings -l "$man1" 2>&1 >/dev/null)
	[[ -z $out ]]; tap_result $? "navibench.1 (generated): man --warnings prints nothing" "$out"
else
	skipped "navibench.1: man --warnings" "man(1) not installed (scripts/install-deps installs man-db)"
fi
