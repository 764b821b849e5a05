#!/usr/bin/env bash
# The update hooks (hooks/, lockshim-hooks(7)) on a machine built here: an
# efivarfs copy, an ESP and /boot where Boot0001 starts lockshim (test db
# key), lockshim starts Debian's signed GRUB (its digest in MokListRT),
# and GRUB's default entry boots /boot/vmlinuz-VERSION. Each hook stops a
# kernel signed by an unrelated key (the rogue key) with check's reason,
# and lets a vendor-signed one through; the apt hook does the same with a
# .deb built by dpkg-deb, for a kernel and for a GRUB, before anything is
# unpacked (the machine's files unchanged), and for a dbx update a
# package brings (secureboot-db, dbxtool) that revokes the booted kernel.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh

work=$BUILD/hooks-test
mk="python3 tests/cli/mkefivars.py"
rm -rf "$work" && mkdir -p "$work"
[[ -f $BUILD/lockshimx64.efi && -x $cli ]] || { not_ok "hooks: build first (make)"; exit 1; }
kernel=$(tests/qemu/debian-kernel.sh "$work/vmlinuz-debian") || { not_ok "hooks: no Debian kernel"; exit 1; }
grub_dir=$(tests/qemu/debian-package.sh grub-efi-amd64-signed \
	usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed) || { not_ok "hooks: no Debian GRUB"; exit 1; }
sign db "$BUILD/lockshimx64.efi" "$work/lockshim.efi"
sign vendor "$kernel" "$work/kernel-vendor.efi"
sign rogue "$kernel" "$work/kernel-rogue.efi"

m=$work/machine
old=6.98.0-1-amd64 new=6.99.0-1-amd64
mkdir -p "$m/vars" "$m/esp/EFI/debian" "$m/boot/grub"
$mk byte "$m/vars" SecureBoot $GG 0x6 1
$mk byte "$m/vars" SetupMode $GG 0x6 0
$mk var "$m/vars" db $DG 0x27 "$pki/db.esl"
$mk order "$m/vars" 1
$mk option "$m/vars" 1 debian '\EFI\debian\lockshimx64.efi' 'grubx64.efi'
cp "$work/lockshim.efi" "$m/esp/EFI/debian/lockshimx64.efi"
cp "$grub_dir/grubx64.efi.signed" "$m/esp/EFI/debian/grubx64.efi"
python3 tests/cli/mkesl.py SHA256 "$work/grub.esl" "$($cli hash "$m/esp/EFI/debian/grubx64.efi")"
$mk var "$m/vars" MokListRT $SG 0x6 "$work/grub.esl"
printf "search.fs_uuid 0b5e6f0e-1111-2222-3333-444455556666 root hd0,gpt2\nset prefix=(\$root)'/boot/grub'\nconfigfile \$prefix/grub.cfg\n" >"$m/esp/EFI/debian/grub.cfg"
cp "$work/kernel-vendor.efi" "$m/boot/vmlinuz-$old"
# grub_cfg VERSION: what update-grub writes, the newest kernel first
grub_cfg() {
	printf "set default=0\nmenuentry 'Debian GNU/Linux' {\n\tlinux /boot/vmlinuz-%s root=/dev/sda2\n}\n" \
		"$1" >"$m/boot/grub/grub.cfg"
}
grub_cfg "$old"
export TMPDIR=$work/tmp # where the hooks' copies go, and must not stay
mkdir -p "$TMPDIR"
export LOCKSHIM=$cli LOCKSHIM_LIBDIR=hooks LOCKSHIM_EFIVARS=$m/vars LOCKSHIM_ESP=$m/esp LOCKSHIM_BOOT=$m/boot
unset LOCKSHIM_HOOK_SKIP LOCKSHIM_HOOK_STRICT

# hook NAME WANT-EXIT REGEX CMD...: CMD's exit status and output
hook() {
	local name=$1 want=$2 regex=$3 out rc
	shift 3
	out=$("$@" 2>&1 </dev/null)
	rc=$?
	if [[ $rc -eq $want && $out =~ $regex ]]; then ok "hooks: $name"; else not_ok "hooks: $name (exit $rc: $out)"; fi
}
run_cli check --efivars "$m/vars" --esp "$m/esp" --boot "$m/boot"
[[ $rc -eq 0 && $out == *"GRUB's default entry boots /boot/vmlinuz-$old"* ]] &&
	ok "hooks: the machine boots before any update" || not_ok "hooks: machine (exit $rc: $out)"

# run-parts (--exit-on-error, as Debian's kernel postinst runs it) runs the
# hook after the initramfs is built and before the menu is updated
# (zz-systemd-boot, zz-update-grub): a refusal leaves the menu as it was.
parts=$work/postinst.d
mkdir -p "$parts"
for f in dracut initramfs-tools zz-update-grub zz-systemd-boot; do
	printf '#!/bin/sh\necho %s >>"%s"\n' "$f" "$work/parts-ran" >"$parts/$f" && chmod +x "$parts/$f"
done
cp hooks/zz-lockshim "$parts/"
[[ $(run-parts --test "$parts" | sed 's,.*/,,' | tr '\n' ' ') == "dracut initramfs-tools zz-lockshim zz-systemd-boot zz-update-grub " ]] &&
	ok "hooks: run-parts runs zz-lockshim after the initramfs, before the menu's update" ||
	not_ok "hooks: run-parts order: $(run-parts --test "$parts")"

# the kernel's postinst.d and kernel-install: the kernel already in /boot,
# the menu not yet updated (zz-update-grub; 90-loaderentry.install)
install_kernel() { # IMAGE
	cp "$1" "$m/boot/vmlinuz-$new"
}
# the incoming kernel in place of every one in /boot: the default is refused
rogue_reason="refused /boot/vmlinuz-$old .*reason=untrusted-signer"
install_kernel "$work/kernel-rogue.efi"
rm -f "$work/parts-ran"
hook "postinst.d stops a kernel signed by an unrelated key, with check's reason" 1 \
	"kernel $new.*would no longer.*incoming vmlinuz-$new.*$rogue_reason.*stopped" \
	run-parts --exit-on-error --arg="$new" --arg="$m/boot/vmlinuz-$new" "$parts"
[[ $(tr '\n' ' ' <"$work/parts-ran") == "dracut initramfs-tools " ]] &&
	ok "hooks: refused, neither zz-systemd-boot nor zz-update-grub runs" ||
	not_ok "hooks: after the refusal these ran: $(cat "$work/parts-ran")"
hook "kernel-install plugin stops it too" 1 "incoming vmlinuz-$new.*$rogue_reason" \
	hooks/88-lockshim.install add "$new" "/boot/efi/debian/$new" "$m/boot/vmlinuz-$new"
hook "kernel-install plugin: removing a kernel is not checked" 0 '^$' \
	hooks/88-lockshim.install remove "$new" "/boot/efi/debian/$new"
hook "LOCKSHIM_HOOK_SKIP=1 lets it through, saying so" 0 "LOCKSHIM_HOOK_SKIP=1: not checking" \
	env LOCKSHIM_HOOK_SKIP=1 hooks/zz-lockshim "$new" "$m/boot/vmlinuz-$new"
install_kernel "$work/kernel-vendor.efi"
hook "postinst.d lets a vendor-signed kernel through" 0 '^$' hooks/zz-lockshim "$new" "$m/boot/vmlinuz-$new"
hook "kernel-install plugin lets it through" 0 '^$' \
	hooks/88-lockshim.install add "$new" "/boot/efi/debian/$new" "$m/boot/vmlinuz-$new"
# cannot tell (a copy of efivarfs that is not one): said; stops only when strict
hook "cannot tell: said, and the update goes on" 0 "cannot tell whether.*going on" \
	env LOCKSHIM_EFIVARS="$work/none" hooks/zz-lockshim "$new" "$m/boot/vmlinuz-$new"
hook "cannot tell: LOCKSHIM_HOOK_STRICT=1 stops" 1 "cannot tell whether.*stopped \\(LOCKSHIM_HOOK_STRICT=1\\)" \
	env LOCKSHIM_EFIVARS="$work/none" LOCKSHIM_HOOK_STRICT=1 hooks/zz-lockshim "$new" "$m/boot/vmlinuz-$new"
rm "$m/boot/vmlinuz-$new" && grub_cfg "$old"

# apt: .deb files as apt hands them to DPkg::Pre-Install-Pkgs, before unpacking
mkdeb() { # PACKAGE FILE-IN-PACKAGE IMAGE -> prints the .deb's path
	local d
	d=$work/deb-$1-$(basename "$3")
	mkdir -p "$d/DEBIAN" "$d/$(dirname "$2")"
	cp "$3" "$d/$2"
	printf 'Package: %s\nVersion: 1\nArchitecture: amd64\nMaintainer: test <t@example.org>\nDescription: test\n' \
		"$1" >"$d/DEBIAN/control"
	dpkg-deb --root-owner-group -Zgzip -b "$d" "$d.deb" >/dev/null && echo "$d.deb"
}
snapshot() { (cd "$m" && find . -type f -exec sha256sum {} + | sort); }
before=$(snapshot)
rogue_deb=$(mkdeb "linux-image-$new" "boot/vmlinuz-$new" "$work/kernel-rogue.efi")
vendor_deb=$(mkdeb "linux-image-$new" "boot/vmlinuz-$new" "$work/kernel-vendor.efi")
other_deb=$(mkdeb hello-lockshim-test "usr/share/doc/x/vmlinuz-$new" "$work/kernel-rogue.efi")
# a GRUB the machine does not trust: its digest is not MokListRT's
bad_grub_deb=$(mkdeb grub-efi-amd64-signed usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed \
	"$work/kernel-rogue.efi")
good_grub_deb=$(mkdeb grub-efi-amd64-signed usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed \
	"$grub_dir/grubx64.efi.signed")
apt_hook() { printf '%s\n' "$@" | hooks/apt-hook; }
hook "apt stops a kernel package signed by an unrelated key, with check's reason" 1 \
	"installing linux-image-$new.*would no longer.*refused /boot/vmlinuz-$old .*reason=untrusted-signer" \
	apt_hook "$vendor_deb" "**CONFIGURE**" "$rogue_deb"
[[ $(snapshot) == "$before" ]] && ok "hooks: apt's check leaves the machine's files as they were" ||
	not_ok "hooks: apt's check changed the machine's files"
hook "apt lets a vendor-signed kernel package through" 0 '^$' apt_hook "$vendor_deb"
hook "apt: a package that brings no boot image is not checked" 0 '^$' apt_hook "$other_deb"
hook "apt stops a GRUB package the machine does not trust" 1 \
	"installing grub-efi-amd64-signed.*refused \\\\EFI\\\\debian\\\\grubx64.efi .*reason=untrusted-signer" \
	apt_hook "$bad_grub_deb"
hook "apt lets Debian's GRUB package through" 0 '^$' apt_hook "$good_grub_deb"
hook "apt: a kernel and a GRUB package at once, each image for its own files" 1 \
	"incoming vmlinuz-$new\)"$'\n'"lockshim: \(below, each grubx64.efi on the ESP is the incoming one\)"$'\n'"  Boot0001" \
	apt_hook "$vendor_deb" "$bad_grub_deb"
# dbx updates as packages ship them (secureboot-db's sbkeysync keystore,
# dbxtool's DBXUpdate files): signed .auth payloads appended to dbx
dbx_auth() { # OUT IMAGE: a dbx update revoking IMAGE's SHA-256
	python3 tests/cli/mkesl.py SHA256 "$1.esl" "$($cli hash "$2")" && $mk auth "$1" "$1.esl"
}
dbx_auth "$work/dbx-kernel.auth" "$m/boot/vmlinuz-$old"
dbx_auth "$work/dbx-other.auth" "$BUILD/mmx64.efi" # an image this machine does not start
revoking_deb=$(mkdeb secureboot-db usr/share/secureboot/updates/dbx/dbxupdate_x64.bin "$work/dbx-kernel.auth")
other_dbx_deb=$(mkdeb secureboot-db usr/share/secureboot/updates/dbx/dbxupdate_x64.bin "$work/dbx-other.auth")
dbxtool_deb=$(mkdeb dbxtool usr/share/dbxtool/DBXUpdate-2026-12-06-x64.bin "$work/dbx-kernel.auth")
not_dbx_deb=$(mkdeb hello-lockshim-test usr/share/secureboot/updates/dbx/dbxupdate_x64.bin "$work/dbx-kernel.auth")
before=$(snapshot)
hook "apt stops a dbx update (secureboot-db) that revokes the kernel the machine boots, with check's reason" 1 \
	"installing secureboot-db.*with the dbx update dbxupdate_x64.bin applied.*refused /boot/vmlinuz-$old .*reason=deny-digest list=dbx" \
	apt_hook "$revoking_deb"
[[ $(snapshot) == "$before" ]] && ok "hooks: apt's dbx check leaves the machine's files and variables as they were" ||
	not_ok "hooks: apt's dbx check changed the machine"
hook "apt stops dbxtool's DBXUpdate file that revokes it too" 1 \
	"installing dbxtool.*refused /boot/vmlinuz-$old .*reason=deny-digest" apt_hook "$dbxtool_deb"
hook "apt lets a dbx update through that revokes nothing the machine boots" 0 '^$' apt_hook "$other_dbx_deb"
hook "apt: a dbx file in another package is not a dbx update" 0 '^$' apt_hook "$not_dbx_deb"
hook "apt: a good kernel package beside a revoking dbx update: stopped" 1 \
	"installing linux-image-$new secureboot-db.*reason=deny-digest" apt_hook "$vendor_deb" "$revoking_deb"
# apt reads 60lockshim: one more Pre-Install-Pkgs command beside the system's,
# which does nothing once lockshim-tools is removed and this file kept
cmd=$(apt-config -c hooks/60lockshim dump DPkg::Pre-Install-Pkgs |
	sed -n 's/^DPkg::Pre-Install-Pkgs:: "\(.*lockshim.*\)";$/\1/p')
if [[ $cmd == *"/usr/lib/lockshim/apt-hook"* ]] &&
	sh -c "${cmd//\/usr\/lib\/lockshim\//\/nonexistent\/}" </dev/null; then
	ok "hooks: apt parses 60lockshim; without lockshim-tools its command does nothing"
else
	not_ok "hooks: apt.conf snippet: '$cmd'"
fi

# systemd-boot: lockshim starts Debian's systemd-boot (vendor-signed here),
# whose entry names the copy kernel-install made on the ESP
sd_dir=$(tests/qemu/debian-package.sh systemd-boot-efi usr/lib/systemd/boot/efi/systemd-bootx64.efi) ||
	not_ok "hooks: no Debian systemd-boot"
sd=$work/sd-machine token=0123456789abcdef0123456789abcdef
cp -a "$m" "$sd" && rm -rf "$sd/esp/EFI/debian/grub"* "$sd/boot/"*
sign vendor "$sd_dir/systemd-bootx64.efi" "$sd/esp/EFI/debian/systemd-bootx64.efi"
$mk option "$sd/vars" 1 debian '\EFI\debian\lockshimx64.efi' 'systemd-bootx64.efi'
mkdir -p "$sd/esp/loader/entries" "$sd/esp/$token/$old"
cp "$work/kernel-vendor.efi" "$sd/esp/$token/$old/linux"
printf 'title Debian GNU/Linux\nversion %s\nlinux /%s/%s/linux\n' "$old" "$token" "$old" \
	>"$sd/esp/loader/entries/$token-$old.conf"
run_cli check --efivars "$sd/vars" --esp "$sd/esp" --boot "$sd/boot"
[[ $rc -eq 0 && $out == *"systemd-boot's default entry boots /$token/$old/linux"* ]] &&
	ok "hooks: the systemd-boot machine boots before any update" || not_ok "hooks: sd machine (exit $rc: $out)"
# Debian 12's kernel-install (systemd 252) with the plugins of Debian's
# systemd (85-initrd, 90-loaderentry) and systemd-boot (90-uki-copy) as
# stubs, in name order as it runs them: it stops at the refusal, before
# the new kernel's entry is written.
if command -v kernel-install >/dev/null; then
	ki=$work/kernel-install
	mkdir -p "$ki/plugins" "$ki/conf"
	for f in 85-initrd 90-loaderentry 90-uki-copy; do
		printf '#!/bin/sh\necho %s >>"%s"\n' "$f" "$ki/ran" >"$ki/plugins/$f.install" &&
			chmod +x "$ki/plugins/$f.install"
	done
	cp hooks/88-lockshim.install "$ki/plugins/"
	kernel_install() { # IMAGE
		LOCKSHIM_EFIVARS=$sd/vars LOCKSHIM_ESP=$sd/esp LOCKSHIM_BOOT=$sd/boot \
			KERNEL_INSTALL_CONF_ROOT=$ki/conf BOOT_ROOT=$ki/boot KERNEL_INSTALL_MACHINE_ID=$token \
			KERNEL_INSTALL_PLUGINS="$(ls -d "$ki/plugins/"* | tr '\n' ' ')" kernel-install add "$new" "$1"
	}
	rm -f "$ki/ran"
	hook "kernel-install stops a kernel signed by an unrelated key on systemd-boot" 1 \
		"refused /$token/$old/linux .*reason=untrusted-signer" kernel_install "$work/kernel-rogue.efi"
	[[ $(tr '\n' ' ' <"$ki/ran") == "85-initrd " ]] &&
		ok "hooks: refused, kernel-install writes no entry (90-loaderentry, 90-uki-copy never run)" ||
		not_ok "hooks: after the refusal these plugins ran: $(cat "$ki/ran")"
	rm -f "$ki/ran"
	hook "kernel-install lets a vendor-signed kernel through on systemd-boot" 0 '^$' \
		kernel_install "$work/kernel-vendor.efi"
	[[ $(tr '\n' ' ' <"$ki/ran") == "85-initrd 90-loaderentry 90-uki-copy " ]] &&
		ok "hooks: kernel-install went on to every plugin" || not_ok "hooks: plugins ran: $(cat "$ki/ran")"
else
	not_ok "hooks: kernel-install missing (apt-get install systemd)"
fi
sd_hook() { printf '%s\n' "$@" | LOCKSHIM_EFIVARS=$sd/vars LOCKSHIM_ESP=$sd/esp LOCKSHIM_BOOT=$sd/boot hooks/apt-hook; }
hook "apt stops a kernel package signed by an unrelated key on systemd-boot" 1 \
	"refused /$token/$old/linux .*reason=untrusted-signer" sd_hook "$rogue_deb"
hook "apt lets a vendor-signed kernel package through on systemd-boot" 0 '^$' sd_hook "$vendor_deb"

[[ -z $(ls -A "$TMPDIR") ]] && ok "hooks: nothing left in TMPDIR" ||
	not_ok "hooks: left in TMPDIR: $(ls -A "$TMPDIR")"
exit $failed
