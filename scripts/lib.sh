# shellcheck shell=bash
# Common paths for the project's scripts. Sourced, never run.
#
# GPUTELEMETRY_CACHE: where extracted Debian packages (kernel image, kernel
# source parts) and built kernels are kept between runs; outside the
# checkout so that fresh clones reuse it.

: "${GPUTELEMETRY_CACHE:=/var/cache/gputelemetry}"
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The Debian kernel ABI the project builds and tests against: the one
# linux-headers-amd64 depends on (e.g. 6.1.0-57-amd64). Discovered, never
# hard-coded, so a point release moves everything together.
debian_kver() {
	local dep
	dep=$(apt-cache depends linux-headers-amd64 2>/dev/null |
	      awk '/Depends: linux-headers-[0-9]/ { sub("linux-headers-", "", $2); print $2; exit }')
	if [ -z "$dep" ]; then
		# apt lists not fetched yet: fall back to installed headers.
		dep=$(find /usr/src -maxdepth 1 -name 'linux-headers-*-amd64' -printf '%f\n' 2>/dev/null |
		      sed 's/^linux-headers-//' | sort -V | tail -n 1)
	fi
	[ -n "$dep" ] || { echo "cannot find the Debian kernel version: run scripts/install-deps" >&2; return 1; }
	echo "$dep"
}

# linux-source-6.1's tarball, as shipped by the package.
linux_source_tarball() {
	find /usr/src -maxdepth 1 -name 'linux-source-*.tar.xz' 2>/dev/null | sort -V | tail -n 1
}

# Directory of the extracted kernel source parts (checkpatch, selftests).
linux_source_dir() {
	local t
	t=$(linux_source_tarball)
	[ -n "$t" ] || { echo "linux-source-6.1 is not installed: run scripts/install-deps" >&2; return 1; }
	echo "$GPUTELEMETRY_CACHE/$(basename "$t" .tar.xz)"
}
