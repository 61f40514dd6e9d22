# shellcheck shell=bash
# Common paths for the project's scripts. Sourced, never run.
#
# GPUTELEMETRY_CACHE: where extracted Debian packages (kernel image, kernel
# source parts) and built kernels are kept between runs; outside the
# checkout so that fresh clones reuse it.

: "${GPUTELEMETRY_CACHE:=/var/cache/gputelemetry}"
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

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
