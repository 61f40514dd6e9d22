# shellcheck shell=bash
# Common paths for the project's scripts. Sourced, never run.
#
# GPUTELEMETRY_CACHE: where extracted Debian packages (kernel image, kernel
# source parts) and built kernels are kept between runs; outside the
# checkout so that fresh clones reuse it.

: "${GPUTELEMETRY_CACHE:=/var/cache/gputelemetry}"
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The project's scripts build and test the test-only modules too (Kbuild).
export GT_TEST_MODULES=m

# The Debian kernels the project builds and tests against, pinned in
# scripts/kernels.conf: GT_KERNEL_SERIES (6.1 6.12), each series' release
# and package version, the default series (the first line) and the newest
# (the last). scripts/bump-kernels moves the pins.
GT_KERNELS_CONF="$TOP/scripts/kernels.conf"
GT_KERNEL_SERIES=()
GT_KERNEL_RELEASE=()
GT_KERNEL_VERSION=()
read_kernels_conf() {
	local series rel ver extra n=0
	while read -r series rel ver extra; do
		n=$((n + 1))
		case "$series" in ''|'#'*) continue ;; esac
		if [ -z "$ver" ] || [ -n "$extra" ] || [ "$(kernel_series "$rel")" != "$series" ]; then
			echo "$GT_KERNELS_CONF:$n: expected 'SERIES RELEASE VERSION' (e.g. 6.1 6.1.0-57-amd64 6.1.192-3), a release of that series" >&2
			GT_KERNEL_SERIES=()
			return 1
		fi
		GT_KERNEL_SERIES+=("$series")
		GT_KERNEL_RELEASE+=("$rel")
		GT_KERNEL_VERSION+=("$ver")
	done <"$GT_KERNELS_CONF"
}

# kernel_pin SERIES: "RELEASE VERSION" of SERIES in scripts/kernels.conf.
kernel_pin() {
	local i
	for i in "${!GT_KERNEL_SERIES[@]}"; do
		if [ "${GT_KERNEL_SERIES[$i]}" = "$1" ]; then
			echo "${GT_KERNEL_RELEASE[$i]} ${GT_KERNEL_VERSION[$i]}"
			return 0
		fi
	done
	echo "unknown kernel series '$1': expected one of ${GT_KERNEL_SERIES[*]} (scripts/kernels.conf)" >&2
	return 1
}

# The Debian kernel release of series $1 (default: the default series),
# e.g. 6.1.0-57-amd64 or 6.12.118+deb12-amd64, as pinned.
debian_kver() {
	local pin
	pin=$(kernel_pin "${1:-$GT_KERNEL_DEFAULT}") || return 1
	echo "${pin% *}"
}

# The Debian package version of series $1's pinned kernel, e.g. 6.1.192-3.
debian_kversion() {
	local pin
	pin=$(kernel_pin "${1:-$GT_KERNEL_DEFAULT}") || return 1
	echo "${pin#* }"
}

# The series of kernel version $1: "6.12" for 6.12.117+deb12-amd64 or
# 6.12, "6.1" for 6.1.0-57-amd64.
kernel_series() {
	local v=$1
	v=${v%%-*}
	v=${v%%+*}
	echo "$v" | cut -d. -f1,2
}

read_kernels_conf
GT_KERNEL_DEFAULT=${GT_KERNEL_SERIES[0]:-}
# shellcheck disable=SC2034 # for the scripts that source this one
GT_KERNEL_NEWEST=${GT_KERNEL_SERIES[*]: -1}

# linux-source-SERIES's tarball (default: the default series), as shipped
# by the package.
linux_source_tarball() {
	local t="/usr/src/linux-source-${1:-$GT_KERNEL_DEFAULT}.tar.xz"
	[ -f "$t" ] && echo "$t"
}

# Directory of the extracted kernel source parts of series $1 (default:
# the default series): checkpatch, the selftests.
linux_source_dir() {
	local series=${1:-$GT_KERNEL_DEFAULT} t
	t=$(linux_source_tarball "$series")
	[ -n "$t" ] || { echo "linux-source-$series is not installed: run scripts/install-deps" >&2; return 1; }
	echo "$GPUTELEMETRY_CACHE/$(basename "$t" .tar.xz)"
}

# TAP: ok, not_ok, skipped, check, tap_result, finish (scripts/tap.sh,
# POSIX sh, shared with the VM guest).
# shellcheck source=scripts/tap.sh
. "$TOP/scripts/tap.sh"

# check_cmd DESC CMD...: runs CMD; its status decides, the last 20 lines
# of its output are the evidence when it fails.
# (Its locals have names of their own: CMD sees them, bash's scoping is
# dynamic.)
check_cmd() {
	local tap_cc_desc=$1 tap_cc_out tap_cc_st
	shift
	tap_cc_out=$(mktemp) || return
	"$@" >"$tap_cc_out" 2>&1
	tap_cc_st=$?
	tap_result "$tap_cc_st" "$tap_cc_desc" "$(tail -n 20 "$tap_cc_out")"
	rm -f "$tap_cc_out"
}

# The builds that several suites use, made once: navibench in the tree
# (user/navibench, what the docs run), its test build NB_ASAN_DIR (ASan
# and UBSan, -Werror and the test-only knobs, TESTING=1) and the GPU
# plugins in the tree (hip/*.so, where hipcc exists), which the tree's
# navibench loads. A suite calls nb_make_plain or nb_make_asan (a no-op
# when the build is up to date); scripts/check runs shared_builds before
# it runs suites side by side, so that no suite builds files that another
# is building or loading.
NB_ASAN_DIR="$TOP/build/asan"
nb_make_plain() { make -s -C "$TOP/user" WERROR=1; }
nb_make_asan() {
	make -s -C "$TOP/user" O="$NB_ASAN_DIR" SANITIZE=address,undefined WERROR=1 TESTING=1
}
shared_builds_list() { echo "user/navibench, $NB_ASAN_DIR/navibench, hip/*.so"; }
shared_builds() {
	local pids=() p st=0

	nb_make_plain & pids+=($!)
	nb_make_asan & pids+=($!)
	make -s -C "$TOP" hip & pids+=($!)
	for p in "${pids[@]}"; do
		wait "$p" || st=1
	done
	return "$st"
}

# engine_isa_flags avx2|avx512: the compile flags of the CPU backend's
# kernel for that instruction set, as user/engine/engine.mk defines them.
engine_isa_flags() {
	local var
	var=$(printf '%s' "$1" | tr '[:lower:]' '[:upper:]')_FLAGS
	sed -n "s/^${var}[[:space:]]*:=[[:space:]]*//p" "$TOP/user/engine/engine.mk"
}

# module_copy DEST: the module's sources (Kbuild, module/, tests/modules/)
# copied to DEST for a build against other headers, so that module/ keeps
# its own build. Not the products of a build against other headers: kbuild
# would take them as up to date (*.mod lists absolute paths).
module_copy() {
	local dest=$1
	local products=(--exclude='*.o' --exclude='*.o.d' --exclude='*.ko' --exclude='.*.cmd'
			--exclude='*.mod' --exclude='*.mod.c' --exclude='modules.order'
			--exclude='Module.symvers')
	mkdir -p "$dest/tests" &&
	rsync -a --delete "${products[@]}" "$TOP/module" "$TOP/Kbuild" "$dest/" &&
	rsync -a --delete "${products[@]}" "$TOP/tests/modules" "$dest/tests/"
}

# kernel_image KVER: Debian's kernel image of version KVER, as
# scripts/install-deps unpacks it.
kernel_image() {
	echo "$GPUTELEMETRY_CACHE/linux-image-$1/boot/vmlinuz-$1"
}

# kver_of SERIES|VERSION: the Debian kernel version: debian_kver for a
# series (6.1, 6.12), the version itself when it is one (6.12.117+deb12-amd64).
kver_of() {
	case "$1" in
	*-*|*+*) echo "$1" ;;
	*) debian_kver "$1" ;;
	esac
}

# shell_scripts: the project's shell scripts, found by their #! line (sh,
# bash, through env or not) or, for the sourced ones, a "# shellcheck
# shell=" line at the top; paths relative to $TOP.
shell_scripts() {
	local f
	{ git -C "$TOP" ls-files --cached --others --exclude-standard 2>/dev/null ||
	  (cd "$TOP" && find . -path ./build -prune -o -path ./.git -prune -o -type f -print | sed 's|^\./||'); } |
	sort -u | while IFS= read -r f; do
		[ -f "$TOP/$f" ] || continue
		if head -n 1 "$TOP/$f" | grep -qE '^#!.*[/ ](ba|da)?sh( |$)' ||
		   head -n 3 "$TOP/$f" | grep -q '^# shellcheck shell='; then
			echo "$f"
		fi
	done
}
