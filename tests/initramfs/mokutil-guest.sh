#!/usr/bin/env bash
# Build a guest initramfs that runs Debian's mokutil against the firmware's
# EFI variables (efivarfs), for tests/qemu/mokutil_vectors.sh:
#
#   tests/initramfs/mokutil-guest.sh [--steps FILE] [--add SRC:DEST]...
#                                    [--bin FILE]... [--module NAME]... [OUT]
#                                    (OUT defaults to build/initramfs/mokutil-guest.img)
#   tests/initramfs/mokutil-guest.sh --base IMG --steps FILE [--add SRC:DEST]... OUT
#
#   --steps FILE   a shell script (busybox sh) copied to /mokutil-steps.sh and
#                  sourced by /init once efivarfs is mounted; without it, the
#                  steps are `mokutil --version`, `--sb-state`, `--list-enrolled`.
#   --base IMG     OUT is IMG (an image made by the first form) followed by
#                  a second, small archive with only the steps and the --add
#                  files: the kernel unpacks both, in order, the second's
#                  files replacing the first's. A fraction of the first
#                  form's time, for a boot per set of steps (test_mok.sh).
#   --add SRC:DEST copy host file SRC to DEST in the image (e.g.
#                  build/pki/mok.der:/data/mok.der); may be repeated.
#   --bin FILE     another program, at /usr/bin/NAME, with the libraries
#                  `ldd` lists (build/lockshim, say); may be repeated.
#   --module NAME  another module of the kernel's .deb (virtio_blk, vfat),
#                  loaded after its dependencies; may be repeated.
#
# Contents: busybox-static, /usr/bin/mokutil with the libraries `ldd` lists
# and the dynamic loader, and efivarfs.ko and the --module modules (plus any
# module they depend on, by `modinfo -F depends`) from the linux-image .deb
# of the kernel that tests/qemu/debian-kernel.sh fetched. The modules are
# extracted once into ${cache}/debian-kernel-<package>-<version>/modules/,
# NAME.order listing NAME's load order (the .deb is fetched again with
# `apt-get download` when one is missing, then deleted). Nothing is installed.
#
# /init mounts devtmpfs, proc, sysfs, quiets the kernel console (dmesg -n 1),
# insmods the modules (those already built in or loaded are skipped), mounts
# efivarfs at /sys/firmware/efi/efivars, then,
# on /dev/ttyS0 (the console with console=ttyS0):
#   MOKUTIL-GUEST-BEGIN <uname -r>
#   MOKUTIL-GUEST-CMDLINE <contents of /proc/cmdline>
#   MOKUTIL-GUEST-EFIVARFS ok | MOKUTIL-GUEST-ERROR <what>
#   ... the steps' output ...
#   MOKUTIL-VAR <Name>-<guid> <bytes>      one per variable of the shim GUID
#   MOKUTIL-B64 <base64 line>...             the efivarfs file (u32 attributes
#   MOKUTIL-VAR-END <Name>-<guid>            then the data), base64
#   MOKUTIL-GUEST-DONE
# and runs `poweroff -f`.
#
# The steps script can use the helper
#   step CMD [ARGS...]
# which prints `MOKUTIL-STEP <n> CMD ARGS...`, runs the command with the
# step's standard input (so `printf 'pw\npw\n' | step mokutil --import ...`
# works), prints its standard output and error prefixed with `| `, then
# `MOKUTIL-RC <n> <exit status>`.
#
# Packed with cpio -H newc -R 0:0 and gzip -n, file times pinned: the same
# inputs give a byte-identical image. Prints OUT on stdout.
set -euo pipefail

cd "$(dirname "$0")/../.."
die() { echo "mokutil-guest.sh: $*" >&2; exit 1; }
usage() { die "usage: mokutil-guest.sh [--steps FILE] [--add SRC:DEST]... [OUT]"; }

steps='' out='' base=''
adds=() bins=() modules=(efivarfs)
while (( $# )); do
	case $1 in
	--steps) (( $# >= 2 )) || usage; steps=$2; shift 2 ;;
	--base) (( $# >= 2 )) || usage; base=$2; shift 2 ;;
	--add) (( $# >= 2 )) || usage; adds+=("$2"); shift 2 ;;
	--bin) (( $# >= 2 )) || usage; bins+=("$2"); shift 2 ;;
	--module) (( $# >= 2 )) || usage; [[ $2 =~ ^[a-z0-9_]+$ ]] || usage; modules+=("$2"); shift 2 ;;
	-*) usage ;;
	*) [[ -z $out ]] || usage; out=$1; shift ;;
	esac
done
out=${out:-build/initramfs/mokutil-guest.img}
busybox=${BUSYBOX:-/bin/busybox}
mokutil=${MOKUTIL:-/usr/bin/mokutil}
cache=${LOCKSHIM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lockshim}

[[ -x $busybox ]] || die "$busybox not found (install busybox-static)"
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	die "$busybox is not statically linked (install busybox-static)"
command -v objcopy >/dev/null || command -v modinfo >/dev/null ||
	die "neither modinfo (kmod) nor objcopy (binutils) found"
[[ -x $mokutil ]] || die "$mokutil not found (apt-get install mokutil)"
[[ -z $steps || -s $steps ]] || die "--steps $steps: missing or empty"
[[ -z $base || ( -s $base && -n $steps ) ]] || die "--base needs an image that exists, and --steps"
[[ -z $base || ( ${#bins[@]} == 0 && ${#modules[@]} == 1 ) ]] || die "--base takes no --bin or --module"
for bin in "${bins[@]}"; do [[ -x $bin ]] || die "--bin $bin: not an executable file"; done

# add_data ROOT: the --add files and the steps (the default ones without
# --steps) into the tree ROOT.
add_data() {
	local root=$1 spec src dst
	for spec in "${adds[@]}"; do
		src=${spec%%:*} dst=${spec#*:}
		[[ -n $src && $dst == /* && $spec == *:* ]] || die "bad --add '$spec' (want SRC:/DEST)"
		[[ -f $src ]] || die "--add: $src missing"
		mkdir -p "$root$(dirname "$dst")"
		cp "$src" "$root$dst"
	done
	if [[ -n $steps ]]; then
		cp "$steps" "$root/mokutil-steps.sh"
	else
		printf '%s\n' 'step mokutil --version' 'step mokutil --sb-state' \
			'step mokutil --list-enrolled' >"$root/mokutil-steps.sh"
	fi
}

# pack ROOT: the tree as a gzipped newc cpio archive on stdout, owners and
# times pinned (the same tree gives the same bytes).
pack() {
	find "$1" -exec touch -h -d @0 {} +
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0 --reproducible) |
		gzip -6 -n
}

mkdir -p "$(dirname "$out")"
root=$(mktemp -d "$(dirname "$out")/.mokroot.XXXXXX")
trap 'rm -rf "$root"' EXIT

if [[ -n $base ]]; then
	add_data "$root"
	{ cat "$base" && pack "$root"; } >"$out.tmp"
	mv "$out.tmp" "$out"
	echo "$out"
	exit 0
fi

# ---- efivarfs.ko from the kernel's .deb ---------------------------------------

# The kernel tests/qemu/debian-kernel.sh resolved; it runs only when it has
# not yet (each run rewrites build/qemu/vmlinuz-debian, for nothing here).
stamp=$cache/debian-kernel.stamp
if [[ ! -s $stamp || ! -s $cache/$(cat "$stamp")/VERSION ]]; then
	tests/qemu/debian-kernel.sh >/dev/null || die "tests/qemu/debian-kernel.sh failed"
fi
[[ -s $stamp ]] || die "$stamp missing after debian-kernel.sh"
kdir=$cache/$(cat "$stamp")
read -r kpkg kver kimage <"$kdir/VERSION" || die "$kdir/VERSION unreadable"
krel=${kimage#vmlinuz-}
mdir=$kdir/modules

# modinfo_field FILE FIELD: `modinfo -F FIELD FILE` (kmod), or the same read
# from the module's .modinfo section with objcopy where kmod is not installed.
modinfo_field() {
	if command -v modinfo >/dev/null; then
		modinfo -F "$2" "$1"
	else
		objcopy -O binary --only-section=.modinfo "$1" /dev/stdout |
			tr '\0' '\n' | sed -n "s/^$2=//p"
	fi
}

missing=()
for name in "${modules[@]}"; do
	[[ -s $mdir/$name.order ]] || missing+=("$name")
done
if (( ${#missing[@]} )); then
	tmp=$(mktemp -d "$cache/.mokutil-guest.XXXXXX")
	trap 'rm -rf "$tmp" "$root"' EXIT
	echo "mokutil-guest.sh: fetching $kpkg $kver for its modules ${missing[*]}" >&2
	aptopt=()
	[[ $(id -u) == 0 ]] && aptopt=(-o APT::Sandbox::User=root)
	(cd "$tmp" && apt-get download -q "${aptopt[@]}" "$kpkg=$kver" >&2) ||
		die "apt-get download $kpkg=$kver failed"
	deb=$(ls "$tmp"/*.deb) || die "no .deb downloaded"
	dpkg-deb -c "$deb" | awk '{ print $NF }' | grep -E '\.ko(\.[a-z]+)?$' >"$tmp/index"
	mkdir -p "$tmp/x" "$tmp/out"
	cp -a "$mdir/." "$tmp/out/" 2>/dev/null || true
	# add_module NAME: NAME's dependencies (by name, depth first), then
	# NAME itself, appended to order[] once each
	add_module() {
		local name=$1 path f dep
		local -a deps
		[[ $seen == *" $name "* ]] && return 0
		seen+="$name "
		path=$(grep -E "/lib/modules/$krel/.*/${name//[-_]/[-_]}\.ko(\.[a-z]+)?$" "$tmp/index" | head -n1) ||
			die "module $name not in $deb"
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp/x" "$path"
		f=$tmp/x/${path#./}
		[[ -s $f ]] || die "could not extract $path"
		case $f in *.ko) ;; *) die "$path is compressed: not handled" ;; esac
		[[ $(modinfo_field "$f" vermagic) == "$krel "* ]] || die "$path: vermagic is not for $krel"
		cp "$f" "$tmp/out/$name.ko"
		IFS=, read -ra deps <<<"$(modinfo_field "$f" depends)"
		for dep in "${deps[@]}"; do
			add_module "$dep"
		done
		order+=("$name")
	}
	for top in "${missing[@]}"; do
		order=() seen=' '
		add_module "$top"
		printf '%s\n' "${order[@]}" >"$tmp/out/$top.order"
	done
	echo "$kpkg $kver $krel" >"$tmp/out/SOURCE"
	rm -rf "$mdir"
	mv "$tmp/out" "$mdir"
	rm -rf "$tmp"
	trap 'rm -rf "$root"' EXIT
fi

# ---- the image ----------------------------------------------------------------

mkdir -p "$root"/{bin,dev,proc,sys,tmp,usr/bin,lib/modules,data}
cp "$busybox" "$root/bin/busybox"
for applet in sh mount umount mkdir cat cp dd sync uname echo poweroff sleep insmod dmesg \
	base64 sed ls stat printf head tail od xxd wc grep cut tr; do
	ln -s busybox "$root/bin/$applet"
done
if [[ $(id -u) == 0 ]]; then
	mknod -m 600 "$root/dev/console" c 5 1
	mknod -m 666 "$root/dev/null" c 1 3
fi

# mokutil, its libraries and the loader, at the paths ldd gives.
cp "$mokutil" "$root/usr/bin/mokutil"
libs=$(ldd "$mokutil" | sed -nE 's/.*=> (\/[^ ]+) .*/\1/p; s/^[[:space:]]*(\/[^ ]+) \(0x.*/\1/p')
[[ -n $libs ]] || die "ldd $mokutil listed no libraries"
for lib in $libs; do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done

# the other programs, the same way, at /usr/bin/NAME
for bin in "${bins[@]}"; do
	if ldd "$bin" | grep 'not found' >/dev/null; then
		die "--bin $bin:$(ldd "$bin" | grep 'not found' | head -n1 | tr -s ' \t' ' ') (scripts/bootstrap.sh installs its libraries)"
	fi
	cp "$bin" "$root/usr/bin/$(basename "$bin")"
	for lib in $(ldd "$bin" | sed -nE 's/.*=> (\/[^ ]+) .*/\1/p; s/^[[:space:]]*(\/[^ ]+) \(0x.*/\1/p'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
done

# every module once, dependencies first
: >"$root/lib/modules/load-order"
for top in "${modules[@]}"; do
	while read -r name; do
		grep -qx "$name" "$root/lib/modules/load-order" && continue
		cp "$mdir/$name.ko" "$root/lib/modules/$name.ko"
		echo "$name" >>"$root/lib/modules/load-order"
	done <"$mdir/$top.order"
done

add_data "$root"

cat >"$root/init" <<'INIT'
#!/bin/sh
export PATH=/bin:/usr/bin
mount -t devtmpfs devtmpfs /dev
mount -t proc proc /proc
mount -t sysfs sysfs /sys
exec </dev/null >/dev/ttyS0 2>&1
# Keep kernel messages off the serial port from here on.
dmesg -n 1
echo
echo "MOKUTIL-GUEST-BEGIN $(uname -r)"
echo "MOKUTIL-GUEST-CMDLINE $(cat /proc/cmdline)"

EFIVARS=/sys/firmware/efi/efivars
SHIM_GUID=605dab50-e046-4300-abb6-3dd810dd8b23
ok=1
# Debian's kernel has efivarfs as a module; lockshim's companion kernel
# (kernel/build.sh) has it built in.
for m in $(cat /lib/modules/load-order); do
	[ $m = efivarfs ] && grep -qw efivarfs /proc/filesystems && continue
	insmod /lib/modules/$m.ko || { echo "MOKUTIL-GUEST-ERROR insmod $m"; ok=0; }
done
mount -t efivarfs efivarfs $EFIVARS || { echo "MOKUTIL-GUEST-ERROR mount efivarfs"; ok=0; }
[ -e $EFIVARS/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c ] ||
	{ echo "MOKUTIL-GUEST-ERROR no SecureBoot variable in efivarfs"; ok=0; }
[ $ok = 1 ] && echo "MOKUTIL-GUEST-EFIVARFS ok"

# The step counter lives in a file: `printf ... | step ...` runs step in a
# subshell.
echo 0 >/tmp/step.n
step() {
	STEP_N=$(($(cat /tmp/step.n) + 1))
	echo $STEP_N >/tmp/step.n
	echo "MOKUTIL-STEP $STEP_N $*"
	"$@" >/tmp/step.out 2>&1
	rc=$?
	sed 's/^/| /' /tmp/step.out
	# mokutil's prompts end without a newline.
	[ -n "$(tail -c 1 /tmp/step.out)" ] && echo
	echo "MOKUTIL-RC $STEP_N $rc"
	return $rc
}

if [ $ok = 1 ]; then
	. /mokutil-steps.sh
	for f in $EFIVARS/*-$SHIM_GUID; do
		[ -e "$f" ] || continue
		n=${f##*/}
		echo "MOKUTIL-VAR $n $(stat -c %s "$f")"
		base64 "$f" | sed 's/^/MOKUTIL-B64 /'
		echo "MOKUTIL-VAR-END $n"
	done
fi
echo "MOKUTIL-GUEST-DONE"
poweroff -f
sleep 5
INIT
chmod 755 "$root/init"

pack "$root" >"$out.tmp"
mv "$out.tmp" "$out"
echo "$out"
