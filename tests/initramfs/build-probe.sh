#!/usr/bin/env bash
# Build the probe initramfs for the kernel lockdown tests
# (tests/qemu/test_lockdown.sh):
#
#   tests/initramfs/build-probe.sh KERNEL_DIR [OUT [NAME=IMAGE]...]
#
# KERNEL_DIR is kernel/build.sh's output directory; OUT defaults to
# build/initramfs/probe-initrd.img. Environment: PKI (default build/pki, from
# tests/pki.sh), GUEST (default build/guest, from tests/guest/build.sh),
# BUSYBOX (default /bin/busybox, busybox-static), KEXEC_CORPUS (a directory
# of images: see /kexec-corpus).
#
# Contents:
#   /init                mounts devtmpfs, proc, sysfs, securityfs; prints
#                        LOCKSHIM-PROBE-BEGIN; runs the probe; prints
#                        LOCKSHIM-PROBE-END status=N; poweroff -f. With
#                        lockshim.kexec=1 (and retain_initrd) on the command
#                        line, the probe then kexecs into /kexec/vendor.efi
#                        with /sys/firmware/initrd as initrd and the command
#                        line lockshim.kexec=2, and that boot ends the run
#   /probe               tests/guest/probe.c and its parts (probe_*.c), static
#   /lib/lstest/lstest_<slot>.ko   the test module of KERNEL_DIR, signed with
#                        scripts/sign-file sha256 by build/pki/<slot>.{key,crt}
#                        (slot unsigned: left unsigned)
#   /kexec/<slot>.efi    KERNEL_DIR/bzImage, signed with sbsign by the same
#                        keys (unsigned: as built), written by the probe
#                        (--kexec-parts) from /kexec-parts: the body all
#                        slots share (KERNEL_DIR/bzImage.raw past its first
#                        4 KiB), once, and each slot's first 4 KiB (where
#                        signing patches the PE headers) and what follows
#                        the body (.sbat, certificate table);
#                        tests/initramfs/split-kexec.py checks that they
#                        give sbsign's bytes. Five copies in the
#                        initramfs were 7 MB more for every probe boot to
#                        inflate.
#   /kexec-corpus        with KEXEC_CORPUS, its images (NAME.efi), split the
#                        same way around the same body (a hard link): the
#                        probe puts each together and loads it, one at a
#                        time (--kexec-corpus; tests/qemu/kexec_corpus.sh)
#   /kexec/NAME.efi      each IMAGE given as NAME=IMAGE, as it is (e.g. an
#                        older kernel that a deny list revokes)
#   /bin/busybox + links
# The slots are whatever KERNEL_DIR/modules/ holds: unsigned vendor mok rogue db.
# The kernel's console is ttyS0 (CONFIG_CMDLINE), so /dev/console is the
# serial port. The image is rebuilt only when an input changed (a hash of
# them sits in OUT.inputs). Prints OUT.
set -euo pipefail

cd "$(dirname "$0")/../.."
. tests/qemu/lib.sh

kdir=${1:?usage: build-probe.sh KERNEL_DIR [OUT [NAME=IMAGE]...]}
out=${2:-build/initramfs/probe-initrd.img}
shift $(( $# < 2 ? $# : 2 ))
extra_kexec=("$@")
pki=${PKI:-build/pki}
guest=${GUEST:-build/guest}
busybox=${BUSYBOX:-/bin/busybox}
corpus=${KEXEC_CORPUS:-}
die() { echo "initramfs/build-probe.sh: $*" >&2; exit 1; }

[[ -f $kdir/bzImage && -x $kdir/sign-file ]] || die "$kdir is not a kernel/build.sh output"
[[ -x $guest/probe ]] || die "$guest/probe missing (tests/guest/build.sh)"
[[ -x $busybox ]] || die "$busybox not found (install busybox-static)"
{ ldd "$busybox" 2>&1 || true; } | grep -q "not a dynamic" || die "$busybox is not static (install busybox-static)"

shopt -s nullglob
mods=("$kdir"/modules/lstest_*.ko)
shopt -u nullglob
(( ${#mods[@]} )) || die "no test modules in $kdir/modules"
slots=()
for m in "${mods[@]}"; do
	s=${m##*/lstest_}; slots+=("${s%.ko}")
done
for s in "${slots[@]}"; do
	[[ $s == unsigned ]] && continue
	[[ -f $pki/$s.key && -f $pki/$s.crt ]] || die "$pki/$s.{key,crt} missing (tests/pki.sh)"
done

inputs=$( {
	echo "build-probe 2 $kdir ${slots[*]}"
	sha256sum "$kdir/bzImage" "$kdir/bzImage.raw" "${mods[@]}" "$guest/probe" "$busybox" "$0" tests/initramfs/split-kexec.py
	for s in "${slots[@]}"; do [[ $s == unsigned ]] || sha256sum "$pki/$s.crt"; done
	for e in "${extra_kexec[@]}"; do echo "${e%%=*}"; sha256sum "${e#*=}"; done
	[[ -z $corpus ]] || (cd "$corpus" && sha256sum -- *.efi)
} | sha256sum | cut -c1-64)
if [[ -f $out && -f $out.inputs && $(cat "$out.inputs") == "$inputs" ]]; then
	echo "$out"
	exit 0
fi

mkdir -p "$(dirname "$out")"
root=$(mktemp -d "$(dirname "$out")/.probe-root.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,dev,proc,sys,tmp,kexec,kexec-parts,lib/lstest}
cp "$busybox" "$root/bin/busybox"
for applet in sh mount mkdir cat echo poweroff sleep dmesg ls; do
	ln -s busybox "$root/bin/$applet"
done
cp "$guest/probe" "$root/probe"
if [[ $(id -u) == 0 ]]; then
	mknod -m 600 "$root/dev/console" c 5 1
	mknod -m 666 "$root/dev/null" c 1 3
fi

for s in "${slots[@]}"; do
	m=$root/lib/lstest/lstest_$s.ko
	cp "$kdir/modules/lstest_$s.ko" "$m"
	if [[ $s == unsigned ]]; then
		cp "$kdir/bzImage" "$root/kexec-parts/unsigned.efi"
	else
		"$kdir/sign-file" sha256 "$pki/$s.key" "$pki/$s.crt" "$m" ||
			die "sign-file $s failed"
		sign_efi "$s" "$kdir/bzImage" "$root/kexec-parts/$s.efi" >/dev/null ||
			die "sbsign of bzImage with $s failed"
	fi
done
# Each slot's image as /init puts it together: NAME.head, the shared body,
# NAME.tail (split-kexec.py).
parts=()
for s in "${slots[@]}"; do parts+=("$s=$root/kexec-parts/$s.efi"); done
tests/initramfs/split-kexec.py "$root/kexec-parts" "$kdir/bzImage.raw" "${parts[@]}" ||
	die "cannot split the kexec images into shared parts"
rm -f "$root"/kexec-parts/*.efi
if [[ -n $corpus ]]; then
	parts=()
	for f in "$corpus"/*.efi; do
		n=${f##*/}; parts+=("${n%.efi}=$f")
	done
	mkdir "$root/kexec-corpus"
	tests/initramfs/split-kexec.py "$root/kexec-corpus" "$kdir/bzImage.raw" "${parts[@]}" ||
		die "cannot split the kexec corpus ($corpus) into shared parts"
	# the same body: a hard link, which cpio stores once
	ln -f "$root/kexec-parts/body" "$root/kexec-corpus/body"
fi

for e in "${extra_kexec[@]}"; do
	[[ $e == *=* && ${e%%=*} =~ ^[a-z0-9_]+$ && -s ${e#*=} ]] || die "bad NAME=IMAGE: $e"
	cp "${e#*=}" "$root/kexec/${e%%=*}.efi"
done

cat >"$root/init" <<'INIT'
#!/bin/sh
export PATH=/bin
mount -t devtmpfs devtmpfs /dev
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
exec </dev/console >/dev/console 2>&1
echo
echo "LOCKSHIM-PROBE-BEGIN"
# Keep the kernel's console messages out of the probe's lines; the probe
# reports the messages each check caused, from /dev/kmsg.
dmesg -n 1
case " $(cat /proc/cmdline) " in
*" lockshim.kexec=1 "*)
	# First of two boots: probe, then kexec into the vendor-signed kernel
	# with this same initramfs (kept by retain_initrd) and lockshim.kexec=2.
	# No END line here: the second boot prints it.
	if cat /sys/firmware/initrd >/tmp/initrd.img; then
		/probe --kexec-dir /kexec --kexec-parts /kexec-parts --module-dir /lib/lstest \
			--kexec-into /kexec/vendor.efi --kexec-initrd /tmp/initrd.img \
			--kexec-cmdline "lockshim.kexec=2"
	fi
	echo "LOCKSHIM-PROBE-KEXEC-FAILED"
	echo "LOCKSHIM-PROBE-END status=99"
	;;
*)
	corpus=
	[ -d /kexec-corpus ] && corpus="--kexec-corpus /kexec-corpus"
	# shellcheck disable=SC2086 # $corpus is two words or none
	/probe --kexec-dir /kexec --kexec-parts /kexec-parts $corpus --module-dir /lib/lstest
	echo "LOCKSHIM-PROBE-END status=$?"
	;;
esac
poweroff -f
sleep 10
INIT
chmod 755 "$root/init"

find "$root" -exec touch -h -d @0 {} +
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0 --reproducible) |
	gzip -1 -n >"$out.tmp"
mv "$out.tmp" "$out"
echo "$inputs" >"$out.inputs"
echo "$out"
