#!/usr/bin/env bash
# Fetch files from a Debian package, as the package ships them, without
# installing it:
#
#   tests/qemu/debian-package.sh PACKAGE PATH...
#
# PATH is a file inside the package (e.g. usr/lib/shim/shimx64.efi.signed;
# a shell pattern such as 'boot/vmlinuz-*' matches exactly one file). Each is
# copied to ${cache}/debian-PACKAGE-VERSION/BASENAME, where VERSION is apt's
# candidate; that directory is printed on stdout. The .deb is fetched with
# `apt-get download` and deleted afterwards.
#
# Warm runs make no apt call: ${cache}/debian-PACKAGE.stamp names the
# directory last filled, used as long as every PATH's file is in it. Set
# LOCKSHIM_DEBIAN_REFRESH=1 to ask apt again (after an apt-get update, say).
set -euo pipefail

die() { echo "debian-package.sh: $*" >&2; exit 1; }
(( $# >= 2 )) || die "usage: debian-package.sh PACKAGE PATH..."
pkg=$1; shift
[[ $pkg =~ ^[a-z0-9][a-z0-9.+-]+$ ]] || die "not a package name: $pkg"
cache=${XDG_CACHE_HOME:-$HOME/.cache}/lockshim
stamp=$cache/debian-$pkg.stamp
mkdir -p "$cache"

# all_present DIR: every PATH's file is in DIR (patterns match by basename)
all_present() {
	local p
	for p in "$@"; do
		compgen -G "$dir/$(basename "$p")" >/dev/null || return 1
	done
}

if [[ ${LOCKSHIM_DEBIAN_REFRESH:-0} != 1 && -f $stamp ]]; then
	dir=$cache/$(cat "$stamp")
	if all_present "$@"; then
		echo "$dir"
		exit 0
	fi
fi

ver=$(apt-cache policy "$pkg" | sed -n 's/^ *Candidate: //p')
[[ -n $ver && $ver != "(none)" ]] || die "no candidate version for $pkg (run apt-get update?)"
name=debian-$pkg-$ver
dir=$cache/$name
if ! all_present "$@"; then
	tmp=$(mktemp -d "$cache/.debian-package.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	echo "debian-package.sh: downloading $pkg $ver" >&2
	# As root, apt drops to the _apt user for the download, which cannot
	# write under /root: keep it root (it only writes to $tmp).
	aptopt=()
	[[ $(id -u) == 0 ]] && aptopt=(-o APT::Sandbox::User=root)
	(cd "$tmp" && apt-get download -q "${aptopt[@]}" "$pkg=$ver" >&2) ||
		die "apt-get download $pkg=$ver failed"
	mkdir "$tmp/x" "$tmp/out"
	dpkg-deb --fsys-tarfile "$tmp"/*.deb |
		tar -x -C "$tmp/x" --wildcards "${@/#/./}" ||
		die "$pkg $ver lacks one of: $*"
	for p in "$@"; do
		mapfile -t files < <(compgen -G "$tmp/x/$p")
		if (( ${#files[@]} != 1 )) || [[ ! -s ${files[0]} ]]; then
			die "$pkg $ver: $p matches ${#files[@]} files"
		fi
		cp "${files[0]}" "$tmp/out/"
	done
	echo "$pkg $ver" >"$tmp/out/VERSION"
	rm -rf "$dir"
	mv "$tmp/out" "$dir"
fi
echo "$name" >"$stamp.tmp" && mv "$stamp.tmp" "$stamp"
echo "$dir"
