#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
#
# make distro-test: lockshim's Debian packages on a Debian 12 machine booted
# through lockshim, end to end (docs/distro-test.md):
#
#   tests/distro/distro-test.sh [DEBS_DIR]    (default build/package, which
#                                             make package fills)
#
# The machine: OVMF with Secure Boot on (the test PK/KEK/db), Boot0001 ->
# \EFI\debian\lockshimx64.efi (Debian's vendor certificate, signed with db;
# tests/qemu/debian-chain.sh) -> Debian's signed GRUB -> search.fs_uuid for
# the root, /boot/grub/grub.cfg -> Debian's signed kernel -> an initramfs
# (busybox and the kernel's modules: tests/initramfs/mokutil-guest.sh with
# tests/distro/switch-root.sh) -> the root: Debian 12's packages for
# dpkg, bash and the hooks' tools, unpacked from the archive's .debs
# (apt-get download into the cache) and recorded as installed in dpkg's
# status. Disks: the ESP (GPT, FAT by mtools) and the root (ext4, mke2fs
# -d; no loop mount). Three boots of the same disks and variables
# (tests/distro/guest-init.sh says what each does):
#
#   1  dpkg -i the built lockshim-tools and lockshim-unsigned; dpkg -i
#      linux-image-ROGUE, Debian's kernel re-signed by a key nothing trusts:
#      the postinst.d hook stops it with check's reason, dpkg fails
#   2  the machine still boots its first kernel; dpkg -i linux-image-GOOD,
#      Debian's kernel as Debian signed it: installs, becomes the default
#   3  the machine boots linux-image-GOOD
#
# The kernel packages are built here with dpkg-deb: /boot/vmlinuz-VERSION
# and the postinst of Debian's linux-image packages (run-parts
# --exit-on-error /etc/kernel/postinst.d); the guest's update-grub is a
# stand-in (tests/distro/update-grub). Every boot is bounded
# (DISTRO_TIMEOUT, default 300 s); the serial logs are the evidence:
# build/distro/boot-N.log. DISTRO_TEE=1 shows each console live.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
. tests/qemu/debian-chain.sh

debs_dir=${1:-build/package}
W=$LOCKSHIM_ROOT/build/distro
PKI=build/pki
TIMEOUT=${DISTRO_TIMEOUT:-300}
ROOT_UUID=6c6f636b-7368-696d-2064-697374726f00 # fixed: the same image each run
ESP_PARTUUID=6c6f636b-7368-696d-2065-737000000001
ROGUE=6.1.0-900-amd64 GOOD=6.1.0-901-amd64
# GRUB holds the kernel and initrd while the kernel decompresses, and dpkg
# unpacks 8 MB kernels into the page cache: more than lib.sh's default.
QEMU_MEMORY=512 # read by run_qemu (lib.sh)
# Debian 12's packages the root holds: dpkg and what it runs (sh, tar, diff,
# ldconfig), the hooks' tools (bash, coreutils, findutils, sed, grep,
# run-parts and ischroot), lockshim's libraries, and their dependencies.
USERLAND=(base-files bash coreutils dash debianutils diffutils dpkg findutils gcc-12-base grep
	gzip libacl1 libattr1 libbz2-1.0 libc-bin libc6 libgcc-s1 libgmp10 liblzma5 libmd0
	libpcre2-8-0 libselinux1 libssl3 libtinfo6 libzstd1 mawk sed tar zlib1g)

failed=0
ok() { echo "ok - distro-test: $*"; }
not_ok() { echo "not ok - distro-test: $*"; failed=1; }
die() { echo "distro-test: $*" >&2; exit 1; }
t_start=$SECONDS

# ---- inputs ------------------------------------------------------------------

shopt -s nullglob
tools_debs=("$debs_dir"/lockshim-tools_*_amd64.deb "$debs_dir"/lockshim-unsigned_*_amd64.deb)
shopt -u nullglob
((${#tools_debs[@]} == 2)) || die "no lockshim-tools and lockshim-unsigned .deb in $debs_dir (make package)"
for t in mke2fs mformat dpkg-deb apt-get sbattach; do
	command -v "$t" >/dev/null || die "$t missing (scripts/bootstrap.sh)"
done
rm -rf "$W" && mkdir -p "$W/logs"

# fetch_userland: the USERLAND .debs, apt's candidates, in the cache
# directory keyed by their names and versions (printed)
fetch_userland() {
	local spec key dir tmp aptopt=()
	spec=$(apt-cache policy "${USERLAND[@]}" |
		awk '/^[^ ].*:$/ { p = substr($1, 1, length($1) - 1) } /^  Candidate:/ { print p "=" $2 }')
	(($(wc -l <<<"$spec") == ${#USERLAND[@]})) && [[ $spec != *"(none)"* ]] ||
		{ echo "distro-test: no candidate for some of ${USERLAND[*]} (apt-get update?)" >&2; return 1; }
	key=$(sha256sum <<<"$spec" | cut -c1-16)
	dir=$LOCKSHIM_CACHE/distro-debs-$key
	if [[ ! -s $dir/SPEC ]]; then
		tmp=$(mktemp -d "$LOCKSHIM_CACHE/.distro-debs.XXXXXX") || return 1
		[[ $(id -u) == 0 ]] && aptopt=(-o APT::Sandbox::User=root)
		echo "distro-test: downloading ${#USERLAND[@]} Debian packages" >&2
		# shellcheck disable=SC2086 # one word a package
		(cd "$tmp" && apt-get download -q "${aptopt[@]}" $spec >&2) ||
			{ rm -rf "$tmp"; echo "distro-test: apt-get download failed" >&2; return 1; }
		echo "$spec" >"$tmp/SPEC"
		rm -rf "$dir" && mv "$tmp" "$dir"
	fi
	echo "$dir"
}

# kernel_deb VERSION IMAGE: linux-image-VERSION as Debian's packages lay it
# out for the hooks: the image at /boot/vmlinuz-VERSION, and the postinst's
# run of /etc/kernel/postinst.d (Debian's also runs depmod and
# linux-update-symlinks, for modules and links this package has none of)
kernel_deb() {
	local d=$W/linux-image-$1
	mkdir -p "$d/DEBIAN" "$d/boot"
	cp "$2" "$d/boot/vmlinuz-$1"
	cat >"$d/DEBIAN/control" <<-CONTROL
		Package: linux-image-$1
		Version: ${1%%-*}-${1#*-}
		Architecture: amd64
		Maintainer: lockshim tests <tests@example.org>
		Section: kernel
		Priority: optional
		Description: Linux $1 for lockshim's distro test
		 Debian's kernel image, as a linux-image package lays it out.
	CONTROL
	cat >"$d/DEBIAN/postinst" <<-POSTINST
		#!/bin/sh -e
		version=$1
		image_path=/boot/vmlinuz-\$version
		[ "\$1" = configure ] || exit 0
		if [ -d /etc/kernel/postinst.d ]; then
		    DEB_MAINT_PARAMS="\$*" run-parts --report --exit-on-error --arg=\$version \\
		        --arg=\$image_path /etc/kernel/postinst.d
		fi
	POSTINST
	chmod 755 "$d/DEBIAN/postinst"
	dpkg-deb --root-owner-group -b "$d" "$W/linux-image-$1.deb" >/dev/null && rm -rf "$d"
}

# make_root DIR DEBS_DIR: the USERLAND packages unpacked in DIR and
# recorded as installed (status, file lists) as debootstrap leaves them
make_root() {
	local r=$1 deb pkg arch info
	mkdir -p "$r/var/lib/dpkg/info" "$r/var/lib/dpkg/updates" "$r/var/lib/dpkg/triggers" \
		"$r"/{proc,sys,dev,run,tmp,root,boot/efi,etc/kernel/postinst.d} || return 1
	chmod 1777 "$r/tmp"
	: >"$r/var/lib/dpkg/status"
	: >"$r/var/lib/dpkg/available"
	for deb in "$2"/*.deb; do
		dpkg-deb -x "$deb" "$r" || return 1
		pkg=$(dpkg-deb -f "$deb" Package) arch=$(dpkg-deb -f "$deb" Architecture)
		info=$pkg
		[[ $(dpkg-deb -f "$deb" Multi-Arch) == same ]] && info=$pkg:$arch
		{
			echo "Package: $pkg"
			echo "Status: install ok installed"
			dpkg-deb -f "$deb" | grep -v '^Package:'
			echo
		} >>"$r/var/lib/dpkg/status"
		dpkg-deb --fsys-tarfile "$deb" | tar -t | sed 's,^\./,/,; s,/$,,; s,^$,/.,' \
			>"$r/var/lib/dpkg/info/$info.list"
	done
	printf 'root:x:0:0:root:/root:/bin/bash\n' >"$r/etc/passwd"
	printf 'root:x:0:\n' >"$r/etc/group"
	printf 'distro-test\n' >"$r/etc/hostname"
	ldconfig -r "$r" || return 1
}

step() { # WHAT CMD...: run CMD, or stop saying WHAT failed
	local what=$1
	shift
	"$@" >>"$W/prepare.log" 2>&1 || { tail -n 5 "$W/prepare.log" >&2; die "$what failed (log: $W/prepare.log)"; }
}

t0=$SECONDS
step "test PKI" tests/pki.sh "$PKI"
step "Debian's kernel" tests/qemu/debian-kernel.sh --as-shipped "$W/kernel-debian.efi"
read -r _ _ kimage <"$LOCKSHIM_CACHE/$(cat "$LOCKSHIM_CACHE/debian-kernel.stamp")/VERSION"
OLD=${kimage#vmlinuz-}
step "unsigned kernel" unsign_efi "$W/kernel-debian.efi" "$W/kernel-unsigned.efi"
step "rogue-signed kernel" sign_efi rogue "$W/kernel-unsigned.efi" "$W/kernel-rogue.efi"
step "kernel package $ROGUE" kernel_deb "$ROGUE" "$W/kernel-rogue.efi"
step "kernel package $GOOD" kernel_deb "$GOOD" "$W/kernel-debian.efi"
lockshim=$(debian_chain_lockshim "$DEBIAN_CHAIN_BUILD" 2>>"$W/prepare.log") ||
	die "lockshim with Debian's vendor certificate failed (log: $W/prepare.log)"
step "db-signed lockshim" sign_efi db "$lockshim" "$W/lockshimx64.efi"
step "Boot0001" debian_chain_boot_entry "$W/Boot0001.bin" lockshimx64.efi
vars=$(tests/qemu/vars.sh --variant distro-test "${DEBIAN_CHAIN_BOOT_VARS[@]}" "$PKI" 2>>"$W/prepare.log" |
	tail -n 1) && [[ -s $vars ]] || die "tests/qemu/vars.sh failed (log: $W/prepare.log)"
cp "$vars" "$W/vars.fd"
step "initramfs" tests/initramfs/mokutil-guest.sh --module virtio_pci --module virtio_blk \
	--module vfat --module nls_cp437 --module nls_ascii --module crc32c_generic --module ext4 \
	--steps tests/distro/switch-root.sh "$W/initrd.img"

# The ESP as grub-install leaves it for Debian's signed GRUB: its grub.cfg
# finds the root by UUID and reads /boot/grub/grub.cfg there.
printf "search.fs_uuid %s root hd1\nset prefix=(\$root)'/boot/grub'\nconfigfile \$prefix/grub.cfg\n" \
	"$ROOT_UUID" >"$W/esp-grub.cfg"
step "ESP" debian_chain_esp "$W/esp.fat" lockshimx64.efi "$W/lockshimx64.efi" "$W/esp-grub.cfg"
step "ESP disk" python3 tests/qemu/mkgpt.py "$W/esp.img" "$W/esp.fat" "$ESP_PARTUUID"
rm -f "$W/esp.fat"

userland=$(fetch_userland 2>>"$W/prepare.log") || die "Debian 12 packages: $(tail -n 3 "$W/prepare.log")"
r=$W/root
step "root tree" make_root "$r" "$userland"
cp "$W/kernel-debian.efi" "$r/boot/vmlinuz-$OLD"
cp "$W/initrd.img" "$r/boot/initrd.img"
install -m 755 tests/distro/update-grub "$r/usr/sbin/update-grub"
install -m 755 tests/distro/zz-update-grub "$r/etc/kernel/postinst.d/zz-update-grub"
install -m 755 tests/distro/guest-init.sh "$r/sbin/lockshim-distro-init"
step "first boot menu" tests/distro/update-grub "$r"
mkdir -p "$r/root/debs"
cp "${tools_debs[@]}" "$W/linux-image-$ROGUE.deb" "$W/linux-image-$GOOD.deb" "$r/root/debs/"
cat >"$r/etc/lockshim-distro.conf" <<-CONF
	TOOLS_DEBS="${tools_debs[*]/#*\//\/root\/debs\/}"
	ROGUE_DEB=/root/debs/linux-image-$ROGUE.deb
	GOOD_DEB=/root/debs/linux-image-$GOOD.deb
CONF
step "root filesystem" mke2fs -q -t ext4 -O ^has_journal -U "$ROOT_UUID" -L distro-root -d "$r" \
	"$W/root.img" 512M
echo "# prepared in $((SECONDS - t0))s: Debian kernel $OLD, ${#USERLAND[@]} Debian packages," \
	"$(basename "${tools_debs[0]}") $(basename "${tools_debs[1]}")"

# ---- boots -------------------------------------------------------------------

LOCKSHIM_ENTRY='BdsDxe: starting Boot0001 "debian" from \EFI\debian\lockshimx64.efi'
GRUB_VERDICT='lockshim: booting \EFI\debian\grubx64.efi: signed by /CN=Debian Secure Boot Signer 2022 - grub2, trusted through vendor certificate /CN=Debian Secure Boot CA'
DEBIAN_KERNEL_VERDICT='signed by /CN=Debian Secure Boot Signer 2022 - linux, trusted through vendor certificate /CN=Debian Secure Boot CA'
STOPS=('DISTRO-TEST: boot [0-9]+ done' 'DISTRO-TEST-ERROR' '^error: ' 'Press any key to continue'
	"$QEMU_CRASH" 'No bootable option' 'Kernel panic')

# boot N: the machine's Nth boot (disks and variables as the last left them)
boot() {
	local s
	local -a opts=()
	for s in "${STOPS[@]}"; do opts+=(--stop "$s"); done
	[[ ${DISTRO_TEE:-0} == 1 ]] && opts+=(--tee)
	run_qemu --esp "$W/esp.img" --vars "$W/vars.fd" --persist --log "$W/logs/boot-$1.log" \
		--timeout "$TIMEOUT" --grace 3 "${opts[@]}" -- \
		-drive "if=none,id=root,format=raw,file=$W/root.img" -device virtio-blk-pci,drive=root
	qemu_outcome "boot $1" "the guest's boot $1 done"
}

# booted N VERSION: boot N went through lockshim, GRUB and Debian's signed
# kernel VERSION (lockshim allowed it for Debian's signature) to the
# system's init
booted() {
	local allowed
	allowed="lockshim: allowing image from the second stage ($(stat -c %s "$W/kernel-debian.efi") bytes): $DEBIAN_KERNEL_VERDICT"
	expect_log -F "$LOCKSHIM_ENTRY" && expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_log -F "$GRUB_VERDICT" && expect_log -F "$allowed" &&
		expect_no_log -F 'lockshim: refusing' &&
		expect_log -F 'Kernel is locked down from EFI Secure Boot' &&
		expect_log -F "Loading Linux $2 ..." &&
		expect_log "^DISTRO-TEST: boot $1: .* BOOT_IMAGE=/boot/vmlinuz-$2 " &&
		expect_order -F "Loading Linux $2 ..." "$allowed" &&
		expect_log -F 'DISTRO-TEST: secure boot: 1' &&
		expect_order -F "$allowed" "DISTRO-TEST: boot $1:" &&
		expect_log -F "DISTRO-TEST: boot $1 done"
}

# rc NAME STATUS: the guest's command NAME exited with STATUS, the hook's
# script saying nothing of its own failures (bash's "check-update: line N")
rc() { expect_log "^DISTRO-TEST-RC $1 $2 [0-9]+$" && expect_no_log -F 'check-update: line'; }

t0=$SECONDS
boot 1 && booted 1 "$OLD" && ok "boot 1: lockshim -> Debian's GRUB -> Debian's kernel $OLD" ||
	not_ok "boot 1 did not reach the system"
rc install-tools 0 && expect_log -F 'Setting up lockshim-tools (' &&
	expect_log -F 'Setting up lockshim-unsigned (' &&
	ok "boot 1: dpkg -i installs lockshim-tools and lockshim-unsigned" || not_ok "boot 1: dpkg -i of the built packages"
rc check 0 && ok "boot 1: lockshim check: the machine boots" || not_ok "boot 1: lockshim check"
refusal="lockshim: kernel $ROGUE (/boot/vmlinuz-$ROGUE): the machine's first boot option would no longer reach a kernel that runs:"
# check-update's words, then check's: the incoming image in place of the
# kernel the menu boots today, refused for its signer
rc install-rogue 1 && expect_log -F "| $refusal" &&
	expect_log -F "| lockshim: (below, every kernel in /boot and on the ESP is the incoming vmlinuz-$ROGUE)" &&
	expect_log "^\|     refused /boot/vmlinuz-$OLD .*reason=untrusted-signer" &&
	expect_log -F '| run-parts: /etc/kernel/postinst.d/zz-lockshim exited with return code 1' &&
	expect_no_log -F '| /etc/kernel/postinst.d/zz-update-grub:' &&
	expect_log -F "| dpkg: error processing package linux-image-$ROGUE (--install):" &&
	expect_log -F "| Errors were encountered while processing:" &&
	ok "boot 1: dpkg -i linux-image-$ROGUE (an unrelated key) stopped by the hook with check's reason" ||
	not_ok "boot 1: the rogue kernel package was not stopped as it should be"
expect_log -F "DISTRO-TEST: default entry: /boot/vmlinuz-$OLD" &&
	ok "boot 1: the boot menu's default entry is still $OLD" || not_ok "boot 1: the menu changed"
boot1=$QEMU_ELAPSED

boot 2 && booted 2 "$OLD" && ok "boot 2: the machine still boots $OLD after the refusal" ||
	not_ok "boot 2: the machine no longer boots after the refused kernel"
rc check 0 && ok "boot 2: lockshim check: the machine boots" || not_ok "boot 2: lockshim check"
rc install-good 0 && expect_log -F "| Setting up linux-image-$GOOD (" &&
	expect_log -F "DISTRO-TEST: default entry: /boot/vmlinuz-$GOOD" &&
	ok "boot 2: dpkg -i linux-image-$GOOD (Debian's signature) installs and becomes the default" ||
	not_ok "boot 2: the good kernel package did not install"
boot2=$QEMU_ELAPSED

boot 3 && booted 3 "$GOOD" && ok "boot 3: the machine boots $GOOD" || not_ok "boot 3: $GOOD does not boot"
rc check 0 && ok "boot 3: lockshim check: the machine boots" || not_ok "boot 3: lockshim check"
boot3=$QEMU_ELAPSED

echo "# boots: ${boot1}s, ${boot2}s, ${boot3}s; all in $((SECONDS - t_start))s (logs: $W/logs/)"
for n in 1 2 3; do
	grep -E '^DISTRO-TEST-(RUN|RC)' "$W/logs/boot-$n.log" | sed "s/^/# boot $n: /"
done
exit $failed
