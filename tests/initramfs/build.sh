#!/usr/bin/env bash
# Build the test initramfs: busybox-static plus an /init that reports to the
# serial port and powers off.
#
#   tests/initramfs/build.sh [OUT]     (OUT defaults to build/initramfs/initrd.img)
#
# /init mounts devtmpfs, proc, sys and securityfs, then writes to /dev/ttyS0
# (the kernel gets no console= argument, so its own console is VGA):
#   LOCKSHIM-TEST-MARKER: init reached
#   LOCKSHIM-TEST-UNAME: <uname -r>
#   LOCKSHIM-TEST-CMDLINE: <contents of /proc/cmdline>
#   LOCKSHIM-TEST-LOCKDOWN: <contents of /sys/kernel/security/lockdown>
#   LOCKSHIM-TEST-DONE
# and runs `poweroff -f`. Packed with cpio -H newc -R 0:0 and gzip -n; file
# times are pinned, so the same busybox gives a byte-identical image.
# /dev/console is created with mknod when run as root (skipped otherwise:
# /init writes to ttyS0 itself and does not need it).
set -euo pipefail

cd "$(dirname "$0")/../.."
out=${1:-build/initramfs/initrd.img}
busybox=${BUSYBOX:-/bin/busybox}

die() { echo "initramfs/build.sh: $*" >&2; exit 1; }
[[ -x $busybox ]] || die "$busybox not found (install busybox-static)"
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	ldd "$busybox" 2>&1 | grep -q 'not a dynamic' ||
	die "$busybox is not statically linked (install busybox-static)"

mkdir -p "$(dirname "$out")"
root=$(mktemp -d "$(dirname "$out")/.root.XXXXXX")
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,dev,proc,sys,tmp}
cp "$busybox" "$root/bin/busybox"
for applet in sh mount mkdir cat uname echo poweroff sleep; do
	ln -s busybox "$root/bin/$applet"
done
if [[ $(id -u) == 0 ]]; then
	mknod -m 600 "$root/dev/console" c 5 1
	mknod -m 666 "$root/dev/null" c 1 3
fi

cat >"$root/init" <<'INIT'
#!/bin/sh
export PATH=/bin
mount -t devtmpfs devtmpfs /dev
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
exec </dev/console >/dev/ttyS0 2>&1
echo
echo "LOCKSHIM-TEST-MARKER: init reached"
echo "LOCKSHIM-TEST-UNAME: $(uname -r)"
echo "LOCKSHIM-TEST-CMDLINE: $(cat /proc/cmdline)"
echo "LOCKSHIM-TEST-LOCKDOWN: $(cat /sys/kernel/security/lockdown 2>&1)"
echo "LOCKSHIM-TEST-DONE"
poweroff -f
sleep 5
INIT
chmod 755 "$root/init"

find "$root" -exec touch -h -d @0 {} +
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0 --reproducible) |
	gzip -9 -n >"$out.tmp"
mv "$out.tmp" "$out"
echo "$out"
