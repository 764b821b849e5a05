#!/usr/bin/env bash
# Fetch Debian's stock kernel (an EFI application, signed by Debian) for the
# QEMU tests, without installing it, and make it bootable under lockshim:
#
#   tests/qemu/debian-kernel.sh [--without-sbat | --as-shipped] [OUT]
#                                          (OUT defaults to build/qemu/vmlinuz-debian)
#
# OUT is Debian's vmlinuz with Debian's signature removed and
# tests/qemu/debian-kernel.sbat.csv added as its .sbat section (bookworm's
# 6.1 kernel has none, and lockshim, like shim 16.1, refuses a kernel without
# one): the tests sign it with their own keys. Needs build/lockshim.
# --without-sbat leaves the section out; --as-shipped copies Debian's vmlinuz
# as it is (Debian's signature, no .sbat).
#
# The package linux-image-amd64 depends on (e.g. linux-image-6.1.0-57-amd64)
# is fetched with `apt-get download` into the cache, and only ./boot/vmlinuz-*
# is extracted, to ${cache}/debian-kernel-<package version>/vmlinuz. The .deb
# is deleted afterwards (70 MB; the vmlinuz is 8 MB).
#
# Warm runs make no apt call at all: ${cache}/debian-kernel.stamp names the
# kernel last resolved, and it is used as long as its vmlinuz exists. Set
# LOCKSHIM_KERNEL_REFRESH=1 to resolve linux-image-amd64 again (after an
# apt-get update, say).
#
# Prints the path of OUT on stdout.
set -euo pipefail

cd "$(dirname "$0")/../.."
mode=with-sbat
case ${1:-} in
--without-sbat) mode=without-sbat; shift ;;
--as-shipped) mode=as-shipped; shift ;;
esac
out=${1:-build/qemu/vmlinuz-debian}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/lockshim
stamp=$cache/debian-kernel.stamp
mkdir -p "$cache" "$(dirname "$out")"

die() { echo "debian-kernel.sh: $*" >&2; exit 1; }

kdir=
if [[ ${LOCKSHIM_KERNEL_REFRESH:-0} != 1 && -f $stamp ]]; then
	kdir=$cache/$(cat "$stamp")
	[[ -s $kdir/vmlinuz ]] || kdir=
fi

if [[ -z $kdir ]]; then
	# linux-image-amd64 is a metapackage: Depends: linux-image-6.1.0-NN-amd64.
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n1)
	[[ -n $pkg ]] || die "cannot resolve linux-image-amd64 (run apt-get update?)"
	ver=$(apt-cache policy "$pkg" | sed -n 's/^ *Candidate: //p')
	[[ -n $ver && $ver != "(none)" ]] || die "no candidate version for $pkg"
	name=debian-kernel-$pkg-$ver
	kdir=$cache/$name
	if [[ ! -s $kdir/vmlinuz ]]; then
		tmp=$(mktemp -d "$cache/.debian-kernel.XXXXXX")
		trap 'rm -rf "$tmp"' EXIT
		echo "debian-kernel.sh: downloading $pkg $ver" >&2
		# As root, apt drops to the _apt user for the download, which cannot
		# reach a cache under /root: keep it root (it only writes to $tmp).
		aptopt=()
		[[ $(id -u) == 0 ]] && aptopt=(-o APT::Sandbox::User=root)
		(cd "$tmp" && apt-get download -q "${aptopt[@]}" "$pkg=$ver" >&2) ||
			die "apt-get download $pkg=$ver failed"
		deb=$(ls "$tmp"/*.deb) || die "no .deb downloaded"
		mkdir "$tmp/x"
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp/x" --wildcards './boot/vmlinuz-*'
		vmlinuz=$(find "$tmp/x/boot" -name "vmlinuz-*" | head -n1)
		[[ -s $vmlinuz ]] || die "no vmlinuz in $deb"
		mkdir -p "$tmp/out"
		mv "$vmlinuz" "$tmp/out/vmlinuz"
		echo "$pkg $ver $(basename "$vmlinuz")" >"$tmp/out/VERSION"
		rm -rf "$kdir"
		mv "$tmp/out" "$kdir"
	fi
	echo "$name" >"$stamp.tmp" && mv "$stamp.tmp" "$stamp"
fi

# Work files of this run's own (two runs at once must not share one), renamed
# into place at the end: a reader of OUT never sees half a kernel.
tmp_out=$(mktemp "$out.XXXXXX")
trap 'rm -rf "${tmp:-}" "$tmp_out" "$tmp_out.sbat"' EXIT # also the download's, if any
cp "$kdir/vmlinuz" "$tmp_out"
for _ in 1 2 3 4; do
	[[ $mode != as-shipped ]] || break
	sbattach --remove "$tmp_out" >/dev/null 2>&1 || break
done
if [[ $mode == with-sbat ]]; then
	build/lockshim add-sbat tests/qemu/debian-kernel.sbat.csv "$tmp_out" "$tmp_out.sbat" ||
		die "cannot add .sbat to Debian's kernel (is build/lockshim built?)"
	mv "$tmp_out.sbat" "$tmp_out"
fi
chmod 644 "$tmp_out"
mv "$tmp_out" "$out"
echo "$out"
