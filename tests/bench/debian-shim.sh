#!/usr/bin/env bash
# Fetch rhboot/shim as Debian builds it (shim-unsigned: shimx64.efi and
# mmx64.efi, unsigned), for `make bench` to compare against, without
# installing it:
#
#   tests/bench/debian-shim.sh       prints the directory holding both files
#
# Cached in ${XDG_CACHE_HOME:-$HOME/.cache}/lockshim/debian-shim-<version>/;
# warm runs make no apt call (debian-shim.stamp names the last one).
set -euo pipefail

cache=${XDG_CACHE_HOME:-$HOME/.cache}/lockshim
stamp=$cache/debian-shim.stamp
mkdir -p "$cache"
die() { echo "debian-shim.sh: $*" >&2; exit 1; }

if [[ -f $stamp && -s $cache/$(cat "$stamp")/shimx64.efi ]]; then
	echo "$cache/$(cat "$stamp")"
	exit 0
fi
ver=$(apt-cache policy shim-unsigned | sed -n 's/^ *Candidate: //p')
[[ -n $ver && $ver != "(none)" ]] || die "no candidate version for shim-unsigned (apt-get update?)"
dir=$cache/debian-shim-$ver
if [[ ! -s $dir/shimx64.efi ]]; then
	tmp=$(mktemp -d "$cache/.debian-shim.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	echo "debian-shim.sh: downloading shim-unsigned $ver" >&2
	aptopt=()
	[[ $(id -u) == 0 ]] && aptopt=(-o APT::Sandbox::User=root) # _apt cannot write here
	(cd "$tmp" && apt-get download -q "${aptopt[@]}" "shim-unsigned=$ver" >&2) ||
		die "apt-get download shim-unsigned=$ver failed"
	mkdir "$tmp/x" "$tmp/out"
	dpkg-deb -x "$tmp"/*.deb "$tmp/x"
	for f in shimx64.efi mmx64.efi; do
		[[ -s $tmp/x/usr/lib/shim/$f ]] || die "no /usr/lib/shim/$f in shim-unsigned $ver"
		cp "$tmp/x/usr/lib/shim/$f" "$tmp/out/$f"
	done
	echo "shim-unsigned $ver" >"$tmp/out/VERSION"
	rm -rf "$dir" && mv "$tmp/out" "$dir"
fi
echo "debian-shim-$ver" >"$stamp.tmp" && mv "$stamp.tmp" "$stamp"
echo "$dir"
