# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# tests/cli/contract.sh, sourced by tests/cli/run: the output contract of
# list, info, sensors and processes (navibench(1), Output), on the Navi 14
# fixture awake and runtime-suspended, its variants, the module's sim0 and
# the CPU:
#   - every JSON document and JSON Lines record validates against its JSON
#     Schema (user/schemas/, draft 2020-12) with Debian's validator,
#     /usr/bin/python3 -m jsonschema; a record of another shape does not;
#   - a record has the same shape in a snapshot and in --watch, and a
#     wall-clock time (RFC 3339, UTC);
#   - each command's CSV header is the one navibench(1) documents, the same
#     whatever the device reads, with named columns only;
#   - text wraps at the terminal's width (80 columns off a terminal) between
#     words, a stream's lines never;
#   - every Prometheus exposition passes promtool and holds each series
#     once; --watch with it is a usage error; the identity labels are the
#     same in every command and while the GPU sleeps, which
#     navibench_device_suspended says, and nothing wakes it;
#   - every format a command's --help offers works.
# Uses run's helpers and variables: nb, nbj, check, jqt, flat, $NB, $root,
# $tmp, $top, $here, $build.
# shellcheck disable=SC2154 # top, tmp, build, here, root, NB, rc, out come from tests/cli/run

schemas="$top/user/schemas"
cdir="$tmp/contract"
mkdir -p "$cdir/ids"
# The schemas' ids are navibench/NAME.schema.json: a base URI whose
# navibench/ is user/schemas resolves their references to each other.
ln -sfn "$schemas" "$cdir/ids/navibench"

# checkd NAME DETAIL: check with its evidence; DETAIL a plain expansion
# (a command substitution would set the status checked)
checkd() { tap_result "$?" "$1" "${2:-}"; }
# schema_ok NAME FILE...: the files validate against NAME.schema.json; out
# is what the validator said.
schema_ok() {
	local name=$1 f args=()
	shift
	for f in "$@"; do args+=(-i "$f"); done
	out=$(/usr/bin/python3 -m jsonschema --base-uri "file://$cdir/ids/" "${args[@]}" \
		"$schemas/$name.schema.json" 2>&1)
}
# save NAME ARGS...: navibench's standard output on the fake root into
# $cdir/NAME (stderr apart); rc
save() {
	local name=$1
	shift
	env NBSHIM_ROOT="$root" LD_PRELOAD="$build/drmshim.so" "$NB" "$@" >"$cdir/$name" \
		2>"$cdir/$name.err"
	rc=$?
}
# lines NAME: split the JSON Lines of $cdir/NAME into NAME.1, NAME.2, ...
lines() {
	local i=0 l
	while IFS= read -r l; do
		i=$((i + 1))
		printf '%s\n' "$l" >"$cdir/$1.$i"
	done <"$cdir/$1"
}

# ---- the schemas themselves ----
for f in "$schemas"/*.schema.json; do
	n=$(basename "$f")
	out=$(/usr/bin/python3 - "$f" <<-'PY' 2>&1
	import json, sys
	from jsonschema import Draft202012Validator
	s = json.load(open(sys.argv[1]))
	Draft202012Validator.check_schema(s)
	name = sys.argv[1].rsplit("/", 1)[1]
	assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema", s["$schema"]
	assert s["$id"] == "navibench/" + name, s["$id"]
	PY
	)
	check "schema $n: a valid draft 2020-12 schema, \$id navibench/$n"
done

# ---- what the commands write, awake and asleep ----
# state STATE MKROOT-OPTIONS...: the fixture in that state, every command's
# JSON saved as STATE-*.
state() {
	local st=$1
	shift
	"$here/mkroot" "$root" "$@"
	save "$st-list.json" list --json
	save "$st-info0.json" info --device 0 --json
	save "$st-sensors.json" sensors --json
	save "$st-all.json" sensors --all --json
	save "$st-watch" sensors --all --watch --count 2 --interval 50ms --format json
	lines "$st-watch"
	save "$st-procs.json" processes --json --interval 100ms
	save "$st-procwatch" processes --watch --count 2 --json --interval 100ms
	lines "$st-procwatch"
}
state awake navi14 gputelemetry procs=6.12
save awake-info1.json info --device 1 --json
save awake-info2.json info --device 2 --json
save awake-sim0.json sensors --device sim0 --json
save awake-hwmon sensors --watch --count 1 --source hwmon --json
lines awake-hwmon
state asleep navi14 suspended gputelemetry procs=6.12
state mi300 navi14 metrics=1.4 procs=6.1
"$here/mkroot" "$root" unknown-id
save unknown-info.json info --json
save unknown-list.json list --json
"$here/mkroot" "$root" navi14
env NBSHIM_ROOT="$root" LD_PRELOAD="$build/drmshim.so" NBSHIM_QUIRKS=old-kernel "$NB" info --json \
	>"$cdir/oldk-info.json" 2>/dev/null
env NBSHIM_ROOT="$root" LD_PRELOAD="$build/drmshim.so" NBSHIM_QUIRKS=no-libdrm-amdgpu "$NB" \
	info --json >"$cdir/nolib-info.json" 2>/dev/null
env NBSHIM_ROOT="$root" LD_PRELOAD="$build/drmshim.so" NBSHIM_QUIRKS=eacces "$NB" \
	sensors --json >"$cdir/eacces-sensors.json" 2>/dev/null
mkdir -p "$cdir/none"
root="$cdir/none"
save none-list.json list --json
save none-info.json info --json
root="$tmp/root"

c=$cdir
schema_ok list "$c"/{awake,asleep,mi300}-list.json "$c"/{unknown,none}-list.json
check "list --json validates (list.schema.json): awake, asleep, unknown id, no GPU" "$out"
schema_ok info "$c"/{awake,asleep,mi300}-info0.json "$c"/awake-info{1,2}.json \
	"$c"/{unknown,oldk,nolib,none}-info.json
check "info --json validates (info.schema.json): amdgpu awake and asleep, sim0, the CPU, unknown id, old kernel, no libdrm_amdgpu" "$out"
schema_ok sensors "$c"/{awake,asleep,mi300}-sensors.json "$c"/{awake,asleep,mi300}-all.json \
	"$c"/awake-sim0.json "$c"/eacces-sensors.json
check "sensors --json and --all --json validate (sensors.schema.json): awake, asleep, gpu_metrics 1.4, sim0, node not readable" "$out"
schema_ok sensors-watch "$c"/{awake,asleep,mi300}-watch.[1-4] "$c"/awake-hwmon.1
check "each line of sensors --watch --format json validates (sensors-watch.schema.json)" "$out"
schema_ok processes "$c"/{awake,asleep,mi300}-procs.json "$c"/{awake,asleep,mi300}-procwatch.[12]
check "processes --json and each line of --watch --json validate (processes.schema.json): 6.12, 6.1, asleep" "$out"
[ "$(cat "$c"/awake-watch.[1-4] "$c"/awake-procwatch.[12] | wc -l)" -eq 6 ] &&
	[ ! -e "$c/awake-watch.5" ] && [ ! -e "$c/awake-procwatch.3" ]
check "--watch --count 2: 4 sensors records (2 devices), 2 processes samples"

# The schemas tell shapes apart: today's --watch record (readings an array,
# no time) and a wrong value are refused.
jq -c '.readings = [.readings | to_entries[] | {key: .key} + .value]' "$c/awake-sensors.json" >"$c/bad1.json"
jq -c 'del(.time)' "$c/awake-watch.1" >"$c/bad2.json"
jq -c '.readings.sclk.value = "fast"' "$c/awake-watch.1" >"$c/bad3.json"
jq -c '.time = "2026-12-02 10:29:04"' "$c/awake-list.json" >"$c/bad4.json"
for b in 1 2 3; do
	! schema_ok sensors-watch "$c/bad$b.json"; check "sensors-watch.schema.json refuses a wrong record ($b)" "$out"
done
! schema_ok list "$c/bad4.json"; check "list.schema.json refuses a time not in RFC 3339 UTC" "$out"

# One shape: a snapshot's record and a --watch line have the same members.
shape() { jq -r '[paths | map(tostring) | join(".")] | sort | .[]' "$1"; }
d=$(diff <(shape "$c/awake-sensors.json") <(shape "$c/awake-watch.1"))
[ -z "$d" ] && [ -n "$(shape "$c/awake-sensors.json")" ] &&
	[ "$(jq -c '.readings.sclk | keys' "$c/awake-sensors.json")" = '["source","unit","value"]' ]
checkd "sensors: a snapshot's record and a --watch line have the same shape (readings an object keyed by reading)" "$d"
[ "$(jq -c 'del(.notes) | [paths | map(tostring) | join(".")] | sort' "$c/awake-procs.json")" = \
  "$(jq -c '[paths | map(tostring) | join(".")] | sort' "$c/awake-procwatch.1")" ]
check "processes: a snapshot and a --watch line have the same shape"
# Every record's time: RFC 3339 UTC, now.
out=$(cat "$c"/awake-{list,info0,sensors,all,procs}.json "$c"/awake-watch.[1-4] "$c"/awake-procwatch.[12] |
	jq -s -c '[.[] | .time, (.devices[]?.time // empty)]')
jq -e 'length == 13 and all(.[]; test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$")
	and ((sub("\\.[0-9]+Z$"; "Z") | fromdateiso8601) - now | fabs) < 600)' <<<"$out" >/dev/null
check "a wall-clock time in every document and record (RFC 3339 UTC, to the ms, now)"

# ---- CSV: the documented header, whatever the device reads ----
# documented CMD: the columns navibench(1) lists for CMD (Output, CSV), in
# the man page as built (the readings come from GT_SENSORS)
documented() {
	awk -v c="$1" '$0 == ".\\\" csv-columns " c { f = 1; next } /^\.\\" end/ { f = 0 } f' \
		"$top/user/navibench.1" | tr -d '\n' | sed 's/, */,/g'
}
# header STATE ARGS...: the CSV header of navibench ARGS in that state
header() {
	local st=$1
	shift
	# shellcheck disable=SC2086 # the state's options are words
	"$here/mkroot" "$root" $st
	env NBSHIM_ROOT="$root" LD_PRELOAD="$build/drmshim.so" "$NB" "$@" 2>/dev/null | head -n 1
}
for cmd in list info sensors processes; do
	want=$(documented "$cmd")
	case $cmd in
	list) runs=("navi14 gputelemetry|list --format csv" "navi14 suspended|list --format csv"
		    "no-amdgpu|list --format csv") ;;
	info) runs=("navi14 gputelemetry|info --device 0 --format csv"
		    "navi14 gputelemetry|info --device 1 --format csv"
		    "navi14 gputelemetry|info --device 2 --format csv"
		    "navi14 suspended|info --format csv" "unknown-id|info --format csv") ;;
	sensors) runs=("navi14 gputelemetry|sensors --format csv" "navi14 suspended gputelemetry|sensors --format csv"
		       "navi14 gputelemetry|sensors --device sim0 --format csv"
		       "navi14 metrics=1.4|sensors --format csv" "navi14 gputelemetry|sensors --all --format csv"
		       "navi14 gputelemetry|sensors --watch --count 2 --interval 50ms --format csv"
		       "navi14|sensors --source hwmon --format csv") ;;
	processes) runs=("navi14 procs=6.12|processes --interval 100ms --format csv"
			 "navi14 procs=6.1|processes --watch --count 2 --interval 100ms --format csv"
			 "navi14|processes --interval 100ms --format csv") ;;
	esac
	bad='' seen=''
	for r in "${runs[@]}"; do
		# shellcheck disable=SC2086 # the state's options and the arguments are words
		got=$(header "${r%%|*}" ${r#*|})
		seen+="$got"$'\n'
		[ -n "$want" ] && [ "$got" = "$want" ] || bad+="[${r%%|*}] ${r#*|}: $got"$'\n'
	done
	[ -z "$bad" ]
	checkd "$cmd --format csv: the header navibench(1) documents, in every state (${#runs[@]} runs)" \
		"documented: $want"$'\n'"$bad"
	[ -n "$seen" ] && ! grep -qE '(^|,)[^,]*\.[0-9]+(\.|,|$)' <<<"$seen"
	checkd "$cmd --format csv: named columns only, none positional" "$seen"
done
"$here/mkroot" "$root" navi14 gputelemetry
nbj sensors --all --format csv
python3 -c 'import csv, sys
r = list(csv.DictReader(sys.stdin, strict=True))
assert len(r) == 2 and r[0]["throttle_active"] == "ppt0 temp_hotspot" and r[1]["throttle_active"] == ""
assert r[0]["device.asic"] == r[1]["device.asic"] == "navi14" and r[0]["time"].endswith("Z")' <<<"$out" 2>&1
check "sensors --all --format csv: the active throttle reasons in one field, empty for sim0" "$out"

# ---- text: wrapped between words at the line's width ----
words=$("$build/printfmt" json wrap | jq -r .device.note)
out=$("$build/printfmt" text wrap 2>&1)
# the note's words whole and in order (a word cut in two would not be),
# its second line under the value column (column 26)
awk 'length > 80 { bad = 1 } END { exit bad }' <<<"$out" &&
	[[ $(flat) == *"note $words short"* ]] && grep -qxE ' {25}[^ ].*' <<<"$(sed -n 3p <<<"$out")"
check "text: a long value wraps at 80 columns off a terminal, under its value column, whole words" "$out"
out=$("$build/printfmt" text wrap 2>&1 | sed -n '/^ID /,$p')
awk 'length > 80 { bad = 1 } END { exit bad }' <<<"$out" && [[ $(flat) == *"1 no GPU backend"*"the host CPU"* ]] &&
	grep -qE '^ 1  no GPU backend .* +end$' <<<"$out" && grep -qE '^    [a-z(]' <<<"$(sed -n 3p <<<"$out")"
check "text: a table wider than the line wraps its widest column under itself" "$out"
nb NBSHIM_QUIRKS=eacces -- list
awk 'length > 80 { bad = 1 } END { exit bad }' <<<"$(grep -v '^navibench list: ' <<<"$out")" &&
	[[ $(flat) == *"no access to"*"/dev/dri/renderD128:"*"Permission denied"* ]]
check "list: a long status wraps at 80 columns off a terminal"
NBSHIM_ROOT="$root" LD_PRELOAD="$build/drmshim.so" NBSHIM_QUIRKS=eacces SHELL=/bin/sh \
	script -qec "stty cols 76; exec '$NB' list" /dev/null >"$cdir/tty76" 2>/dev/null
out=$(tr -d '\r' <"$cdir/tty76" | grep -v '^navibench list: ')
awk 'length > 76 { bad = 1 } END { exit bad }' <<<"$out" && [[ $(flat) == *"no access to"* ]] &&
	[ "$(wc -l <<<"$out")" -gt 4 ]
check "list on a 76-column terminal: wrapped at 76" "$out"
nbj sensors --watch --count 1
[[ $(wc -l <<<"$out") -eq 1 && ${#out} -gt 200 ]]; check "a stream's line (sensors --watch) is never wrapped" "$out"

# ---- Prometheus ----
# prom_ok: $out passes promtool check metrics and has each series once
prom_ok() {
	local dup
	dup=$(grep -v '^#' <<<"$out" | sed 's/ [^ ]*$//' | sort | uniq -d)
	[ -z "$dup" ] && [ -z "$(promtool check metrics <<<"$out" 2>&1)" ]
}
for r in "navi14 gputelemetry procs=6.12" "navi14 suspended gputelemetry procs=6.12" "navi14 metrics=1.4"; do
	# shellcheck disable=SC2086 # the state's options are words
	"$here/mkroot" "$root" $r
	bad=
	for a in "list" "info --device 0" "info --device 1" "info --device cpu" "sensors" "sensors --all" \
		 "processes --interval 100ms"; do
		# shellcheck disable=SC2086 # the arguments are words
		nbj $a --format prometheus
		[ "$rc" -eq 0 ] && prom_ok || bad+="$a: $(promtool check metrics <<<"$out" 2>&1)"$'\n'
	done
	[ -z "$bad" ]; checkd "promtool check metrics, each series once: list, info, sensors, processes ($r)" "$bad"
done
"$here/mkroot" "$root" navi14 gputelemetry
for a in "sensors --watch --count 2" "sensors --all --watch --count 3" "sensors --count 2" \
	 "processes --watch --count 2"; do
	# shellcheck disable=SC2086 # the arguments are words
	nb -- $a --interval 50ms --format prometheus
	[[ $rc -eq 2 && $out == *"--format prometheus cannot go with --watch"* &&
	   $out == *"holds each series once"* && $out == *"navibench exporter"* ]]
	check "$a --format prometheus: exit 2, says why and what to use (the exporter)" "$out"
done

# The identity labels of device 0 (the RX 5500 XT) and 1 (sim0): the same
# in every command's exposition, awake and asleep.
# ident DEV ARGS...: the navibench_device_info series of device DEV
ident() {
	local d=$1
	shift
	env NBSHIM_ROOT="$root" LD_PRELOAD="$build/drmshim.so" "$NB" "$@" 2>/dev/null |
		grep "^navibench_device_info{device=\"$d\""
}
declare -A ids=()
for st in awake asleep; do
	if [ "$st" = awake ]; then "$here/mkroot" "$root" navi14 gputelemetry procs=6.12
	else "$here/mkroot" "$root" navi14 suspended gputelemetry procs=6.12; fi
	rm -rf "$cdir/tf" && mkdir -p "$cdir/tf"
	env NBSHIM_ROOT="$root" LD_PRELOAD="$build/drmshim.so" "$NB" exporter --processes --textfile \
		"$cdir/tf" 2>/dev/null
	for d in 0 1; do
		ids[$st.$d]=$(grep "^navibench_device_info{device=\"$d\"" "$cdir/tf/navibench.prom")
		all="exporter: ${ids[$st.$d]}"$'\n'
		for a in "list" "info --device $d" "sensors --all" "sensors --device $d" \
			 "processes --interval 100ms"; do
			[ "$d" = 1 ] && [[ $a == processes* ]] && continue	# sim0 has no DRM clients
			# shellcheck disable=SC2086 # the arguments are words
			all+="$a: $(ident "$d" $a --format prometheus)"$'\n'
		done
		[ "$(sed 's/^[^:]*: //' <<<"${all%$'\n'}" | sort -u | wc -l)" -eq 1 ] &&
			[[ ${ids[$st.$d]} == *',asic="navi14",gfx_target="gfx1012"} 1' ]]
		checkd "device $d $st: navibench_device_info the same in exporter, list, info, sensors, processes (asic, gfx_target)" "$all"
	done
	v=0
	[ "$st" = asleep ] && v=1
	ev=$(grep suspended "$cdir/tf/navibench.prom")
	grep -qxF "navibench_device_suspended{device=\"0\",pci_address=\"0000:03:00.0\"} $v" \
		"$cdir/tf/navibench.prom" && ! grep -q 'navibench_device_suspended{device="1"' "$cdir/tf/navibench.prom"
	checkd "navibench_device_suspended $v for the GPU $st (none for sim0, which has no runtime PM)" "$ev"
done
[ "${ids[awake.0]}" = "${ids[asleep.0]}" ] && [ "${ids[awake.1]}" = "${ids[asleep.1]}" ] &&
	[[ ${ids[asleep.0]} == *'name="AMD Radeon RX 5500 XT"'* ]]
checkd "the identity labels are the same awake and asleep (the name too, not 'AMD GPU [1002:7340 rev c5]')" \
	"${ids[awake.0]}"$'\n'"${ids[asleep.0]}"

# Asleep: named, never woken, by any command.
"$here/mkroot" "$root" navi14 suspended gputelemetry procs=6.12
rm -f "$cdir/wake"
for a in "list" "list --verbose" "info" "sensors" "sensors --all" "sensors --watch --count 2 --interval 50ms" \
	 "processes --interval 100ms" "exporter --textfile $cdir/tf"; do
	# shellcheck disable=SC2086 # the arguments are words
	env NBSHIM_ROOT="$root" LD_PRELOAD="$build/drmshim.so" NBSHIM_WAKE_FILE="$cdir/wake" \
		NBSHIM_COUNT_FILE="$cdir/wake" "$NB" $a >/dev/null 2>&1
done
ev=$(cat "$cdir/wake" 2>/dev/null)
[ ! -e "$cdir/wake" ]; checkd "asleep: no command opens the node or reads what would wake the GPU" "$ev"
env NBSHIM_ROOT="$root" LD_PRELOAD="$build/drmshim.so" NBSHIM_WAKE_FILE="$cdir/wake" "$NB" sensors --wake \
	>/dev/null 2>&1
ev=$(cat "$cdir/wake" 2>/dev/null)
grep -qx /dev/dri/renderD128 "$cdir/wake" && grep -q '/hwmon/' "$cdir/wake"
checkd "the shim sees what wakes a GPU: sensors --wake opens the node and reads hwmon" "$ev"
nb -- sensors
[[ $out == *"device 0: AMD Radeon RX 5500 XT (0000:03:00.0)"* ]]; check "asleep: sensors names the GPU as awake" "$out"

# ---- every format --help offers works ----
"$here/mkroot" "$root" navi14 gputelemetry procs=6.12
for cmd in list info sensors processes; do
	fmts=$("$NB" "$cmd" --help | tr -s ' \n' '  ' |
		sed -nE 's/.*--format FMT [^;]*; one of: ([a-z]+(, [a-z]+)*).*/\1/p' | tr -d ,)
	bad=
	extra=()
	[ "$cmd" = processes ] && extra=(--interval 100ms)
	for f in $fmts; do
		nbj "$cmd" --format "$f" "${extra[@]}"
		case $f in
		text) [[ $rc -eq 0 && -n $out ]] ;;
		json) [[ $rc -eq 0 ]] && jq -e . <<<"$out" >/dev/null ;;
		csv) [[ $rc -eq 0 ]] && python3 -c 'import csv, sys
r = list(csv.reader(sys.stdin, strict=True)); assert len(r) > 1 and all(len(x) == len(r[0]) for x in r)' <<<"$out" ;;
		prometheus) [[ $rc -eq 0 ]] && prom_ok && grep -q '^navibench_device_info{' <<<"$out" ;;
		*) false ;;
		esac || bad+="--format $f: exit $rc: $out"$'\n'
	done
	[ -n "$fmts" ] && [ -z "$bad" ]
	checkd "$cmd: every format --help offers works ($fmts)" "$bad"
done
