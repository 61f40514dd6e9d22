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

# The kernel series the project builds and tests against: the two that
# Debian 12 ships, 6.1 LTS (its default) and 6.12 LTS (bookworm-security).
GT_KERNEL_SERIES=(6.1 6.12)

# The Debian kernel ABI of series $1 (default 6.1), e.g. 6.1.0-57-amd64 or
# 6.12.117+deb12-amd64. Discovered, never hard-coded, so a point release
# moves everything together:
#   6.1:  the headers that linux-headers-amd64 depends on;
#   6.12: the newest linux-headers-6.12.*+deb12-amd64 in the archive.
# Without apt lists (not fetched yet), the newest installed headers of
# that series.
debian_kver() {
	local series=${1:-6.1} dep=
	case "$series" in
	6.1)
		dep=$(apt-cache depends linux-headers-amd64 2>/dev/null |
		      awk '/Depends: linux-headers-6\.1\.[0-9]/ { sub("linux-headers-", "", $2); print $2; exit }')
		;;
	6.12)
		dep=$(apt-cache pkgnames linux-headers-6.12. 2>/dev/null |
		      sed -n 's/^linux-headers-\(6\.12\.[0-9]*+deb12-amd64\)$/\1/p' | sort -V | tail -n 1)
		;;
	*)
		echo "unknown kernel series '$series': expected one of ${GT_KERNEL_SERIES[*]}" >&2
		return 1
		;;
	esac
	if [ -z "$dep" ]; then
		dep=$(find /usr/src -maxdepth 1 -name "linux-headers-$series.*-amd64" -printf '%f\n' 2>/dev/null |
		      sed 's/^linux-headers-//' | sort -V | tail -n 1)
	fi
	[ -n "$dep" ] || { echo "cannot find Debian's $series kernel version: run scripts/install-deps" >&2; return 1; }
	echo "$dep"
}

# The series of kernel version $1: "6.12" for 6.12.117+deb12-amd64 or
# 6.12, "6.1" for 6.1.0-57-amd64.
kernel_series() {
	local v=$1
	v=${v%%-*}
	v=${v%%+*}
	echo "$v" | cut -d. -f1,2
}

# linux-source-SERIES's tarball (default 6.1), as shipped by the package.
linux_source_tarball() {
	local t="/usr/src/linux-source-${1:-6.1}.tar.xz"
	[ -f "$t" ] && echo "$t"
}

# Directory of the extracted kernel source parts of series $1 (default
# 6.1): checkpatch, the selftests.
linux_source_dir() {
	local series=${1:-6.1} t
	t=$(linux_source_tarball "$series")
	[ -n "$t" ] || { echo "linux-source-$series is not installed: run scripts/install-deps" >&2; return 1; }
	echo "$GPUTELEMETRY_CACHE/$(basename "$t" .tar.xz)"
}

# TAP for the project's test suites, one copy for all of them. A suite
# sets TAP_SUITE (its name in "make check"), reports each test with ok,
# not_ok, skipped or check, and ends with finish, whose line
#   $TAP_SUITE: N passed, N failed[, N skipped]
# make check counts.
TAP_SUITE=${TAP_SUITE:-test}
tap_pass=0 tap_fail=0 tap_skip=0

tap_n() { echo $((tap_pass + tap_fail + tap_skip)); }

# ok DESC
ok() {
	tap_pass=$((tap_pass + 1))
	echo "ok $(tap_n) - $1"
}

# not_ok DESC [DETAIL]: DETAIL (the evidence) follows as comment lines.
not_ok() {
	tap_fail=$((tap_fail + 1))
	echo "not ok $(tap_n) - $1"
	[ -z "${2:-}" ] || sed 's/^/#   /' <<<"$2" | tail -n "${TAP_DETAIL_LINES:-40}"
}

# skipped DESC WHY
skipped() {
	tap_skip=$((tap_skip + 1))
	echo "ok $(tap_n) - $1 # SKIP $2"
}

# check DESC [DETAIL]: the status of the command just before decides.
check() {
	# shellcheck disable=SC2181 # the caller's last status is the input
	if [ "$?" -eq 0 ]; then ok "$1"; else not_ok "$1" "${2:-}"; fi
}

# finish: the summary line; exits non-zero when a test failed.
finish() {
	local line="$TAP_SUITE: $tap_pass passed, $tap_fail failed"
	[ "$tap_skip" -eq 0 ] || line="$line, $tap_skip skipped"
	echo "$line"
	[ "$tap_fail" -eq 0 ]
	exit
}
