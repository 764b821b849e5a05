#!/usr/bin/env bash
# make package: the Debian packages built as a distribution would build
# them, from a clean clone of HEAD (what is committed, nothing of this
# tree's build/), with dpkg-buildpackage -us -uc -b, then lintian on the
# result. Prints both tools' output and the times; leaves the .debs and the
# logs in build/package/. Fails on a build failure or on any lintian error.
# Not part of make check: minutes of building from scratch, and debhelper
# and lintian, which nothing else needs.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=$(pwd)/build/package
rm -rf "$out" && mkdir -p "$out"
for tool in dpkg-buildpackage dh lintian; do
	command -v "$tool" >/dev/null ||
		{ echo "package: $tool missing (apt-get install dpkg-dev debhelper lintian)" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git clone -q --no-local . "$tmp/lockshim" || exit 1

start=$SECONDS
(cd "$tmp/lockshim" && dpkg-buildpackage -us -uc -b) >"$out/dpkg-buildpackage.log" 2>&1
rc=$?
build_time=$((SECONDS - start))
tail -n 25 "$out/dpkg-buildpackage.log"
echo "package: dpkg-buildpackage exit $rc in ${build_time}s (log: $out/dpkg-buildpackage.log)"
((rc == 0)) || exit 1
mv "$tmp"/*.deb "$tmp"/*.changes "$tmp"/*.buildinfo "$out/"
for deb in "$out"/*.deb; do
	echo "== $(basename "$deb")"
	dpkg-deb -c "$deb" | awk '{print $1, $6}'
done

start=$SECONDS
lintian --fail-on error --display-info "$out"/*.changes >"$out/lintian.log" 2>&1
rc=$?
cat "$out/lintian.log"
echo "package: lintian exit $rc in $((SECONDS - start))s: $(grep -c '^E:' "$out/lintian.log") errors," \
	"$(grep -c '^W:' "$out/lintian.log") warnings, $(grep -c '^I:' "$out/lintian.log") info"
exit $rc
