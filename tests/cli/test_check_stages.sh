#!/usr/bin/env bash
# build/lockshim check and the second stages' own rules: systemd-boot 252's
# menu (entry order, default, boot counting, `linux`/`efi`, UKIs, XBOOTLDR)
# and GRUB 2.06's grub.cfg (CRLF, ';', '..', $prefix, blscfg, conditions
# said as not evaluated, full titles and ids). Each machine state is built
# here offline; each case's state is one the old reading got wrong.
set -uo pipefail
cd "$(dirname "$0")/../.."

. tests/cli/lib.sh
work=$BUILD/check-stages-test
mk="python3 tests/cli/mkefivars.py"
LG=4a67b082-0a4c-41cf-b6c7-440b29bb8c4f # systemd's Boot Loader Interface

rm -rf "$work" && mkdir -p "$work"
[[ -f $BUILD/lockshimx64.efi ]] || { not_ok "stages: $BUILD/lockshimx64.efi missing (run make)"; exit 1; }
kernel=$(tests/qemu/debian-kernel.sh "$work/vmlinuz") || { not_ok "stages: no Debian kernel"; exit 1; }
sd_dir=$(tests/qemu/debian-package.sh systemd-boot-efi usr/lib/systemd/boot/efi/systemd-bootx64.efi \
	usr/lib/systemd/boot/efi/linuxx64.efi.stub) || { not_ok "stages: no Debian systemd-boot"; exit 1; }
grub_dir=$(tests/qemu/debian-package.sh grub-efi-amd64-signed \
	usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed) || { not_ok "stages: no Debian GRUB"; exit 1; }

sign db "$BUILD/lockshimx64.efi" "$work/lockshim.efi"
sign vendor "$kernel" "$work/k-vendor.efi"
sign mok "$kernel" "$work/k-mok.efi"
sign rogue "$kernel" "$work/k-rogue.efi"
cp "$kernel" "$work/k-unsigned.efi"
sign vendor "$sd_dir/systemd-bootx64.efi" "$work/sd.efi"
head -c 64 /dev/urandom >"$work/initrd"
tests/qemu/mkuki.sh "$sd_dir/linuxx64.efi.stub" "$kernel" "$work/initrd" 'root=/dev/sda2' \
	$'ID=debian\nPRETTY_NAME="Debian UKI"\nVERSION_ID=12' "$work/uki.efi" &&
	sign vendor "$work/uki.efi" "$work/uki-vendor.efi" || not_ok "stages: a UKI (mkuki.sh)"

# base DIR SECOND_STAGE: Secure Boot on, the test db, MokList with the MOK
# key, lockshim at \EFI\lockshim\ starting SECOND_STAGE there (Boot0001)
base() {
	mkdir -p "$1/vars" "$1/esp/EFI/lockshim" "$1/boot"
	$mk byte "$1/vars" SecureBoot $GG 0x6 1
	$mk byte "$1/vars" SetupMode $GG 0x6 0
	$mk var "$1/vars" db $DG 0x27 "$pki/db.esl"
	$mk var "$1/vars" MokListRT $SG 0x6 "$pki/mok.esl"
	$mk order "$1/vars" 1
	$mk option "$1/vars" 1 lockshim '\EFI\lockshim\lockshimx64.efi' "$2"
	cp "$work/lockshim.efi" "$1/esp/EFI/lockshim/lockshimx64.efi"
}
# loader_var DIR NAME VALUE: a Boot Loader Interface string as bootctl writes it (NV|BS|RT, UTF-16)
loader_var() {
	printf '%s\0' "$3" | iconv -f ascii -t utf-16le >"$1/$2.bin"
	$mk var "$1/vars" "$2" $LG 0x7 "$1/$2.bin"
}
# expect_stage CODE REGEX NAME DIR [ARGS...]: check's answer on DIR
expect_stage() {
	local code=$1 regex=$2 name=$3 dir=$4
	shift 4
	run_cli check --efivars "$dir/vars" --esp "$dir/esp" "$@"
	if [[ $rc -eq $code && $out =~ $regex ]]; then ok "stages: $name"; else not_ok "stages: $name (exit $rc: $out)"; fi
}

# ---- systemd-boot 252 -----------------------------------------------------------
# sd DIR: systemd-boot started by lockshim; kernels on the ESP: /k-vendor,
# /k-mok (MokList), /k-rogue (refused), /k-unsigned (refused)
sd() {
	base "$1" 'sd.efi'
	cp "$work/sd.efi" "$1/esp/EFI/lockshim/sd.efi"
	mkdir -p "$1/esp/loader/entries"
	for k in vendor mok rogue unsigned; do cp "$work/k-$k.efi" "$1/esp/k-$k"; done
}
# entry DIR FILE LINES...: a Type #1 entry
entry() {
	local dir=$1 file=$2
	shift 2
	printf '%s\n' "$@" >"$dir/esp/loader/entries/$file"
}

s=$work/sd-sort && sd "$s"
entry "$s" zz-old.conf 'title Old' 'linux /k-rogue'
entry "$s" a-debian.conf 'title Debian 10' 'sort-key debian' 'version 6.1.0-10' 'linux /k-vendor'
entry "$s" b-debian.conf 'title Debian 9' 'sort-key debian' 'version 6.1.0-9' 'linux /k-rogue'
expect_stage 0 "systemd-boot's default entry boots /k-vendor \\(default entry chosen by the first in its menu\\)" \
	"systemd-boot: an entry with a sort-key before one without; newest version first" "$s"
expect_stage 0 "allowed /k-vendor \\(default entry 'Debian 10'\\).*refused /k-rogue \\(entry 'Debian 9'\\).*refused /k-rogue \\(entry 'Old'\\)" \
	"systemd-boot: its menu's order is sort-key, version (newest first), then id" "$s"
entry "$s" a-debian.conf 'title Debian 10' 'sort-key debian' 'version 6.1.0-10' 'machine-id 2222' 'linux /k-vendor'
entry "$s" b-debian.conf 'title Debian 9' 'sort-key debian' 'version 6.1.0-9' 'machine-id 1111' 'linux /k-rogue'
expect_stage 1 "refused /k-rogue \\(default entry 'Debian 9'\\)" \
	"systemd-boot: machine-id before version" "$s"

s=$work/sd-tries && sd "$s"
entry "$s" 'a+0-3.conf' 'title Tried out' 'sort-key a' 'linux /k-rogue'
entry "$s" 'b+2-1.conf' 'title Counting' 'sort-key b' 'linux /k-vendor'
expect_stage 0 "allowed /k-vendor \\(default entry 'Counting'\\): reason=allowed-cert list=vendor entry=/CN=lockshim test vendor id='b\\+2-1.conf'.*refused /k-rogue \\(entry 'Tried out'\\)" \
	"systemd-boot: an entry with no tries left goes last; the counter stays in 252's id" "$s"
loader_var "$s" LoaderEntryOneShot 'a+0-3.conf'
expect_stage 1 "chosen by LoaderEntryOneShot.*refused /k-rogue \\(default entry 'Tried out'\\)" \
	"systemd-boot: a one-shot names the id with its counter" "$s"

s=$work/sd-glob && sd "$s"
entry "$s" zz.conf 'title First' 'linux /k-rogue'
entry "$s" debian-6.1.conf 'title Debian' 'linux /k-vendor'
printf 'timeout 0\ndefault Debian-*\n' >"$s/esp/loader/loader.conf"
expect_stage 0 "systemd-boot's default entry boots /k-vendor \\(default entry chosen by loader.conf default\\)" \
	"systemd-boot: loader.conf's default is a glob, lower-cased as 252 does" "$s"
printf 'default @saved\n' >"$s/esp/loader/loader.conf"
loader_var "$s" LoaderEntryLastBooted 'debian-6.1.conf'
expect_stage 0 "systemd-boot's default entry boots /k-vendor \\(default entry chosen by loader.conf default @saved: LoaderEntryLastBooted\\)" \
	"systemd-boot: default @saved boots LoaderEntryLastBooted" "$s"
loader_var "$s" LoaderEntryDefault 'zz*'
expect_stage 1 "\\(default entry chosen by LoaderEntryDefault\\).*refused /k-rogue \\(default entry 'First'\\)" \
	"systemd-boot: LoaderEntryDefault (bootctl set-default) before loader.conf, a glob too" "$s"
loader_var "$s" LoaderEntryOneShot 'debian-6.1.conf'
expect_stage 0 "systemd-boot's default entry boots /k-vendor \\(default entry chosen by LoaderEntryOneShot\\)" \
	"systemd-boot: LoaderEntryOneShot before LoaderEntryDefault" "$s"
rm "$s/vars/LoaderEntryOneShot-$LG"
loader_var "$s" LoaderEntryDefault '@saved'
expect_stage 0 "systemd-boot's default entry boots /k-vendor \\(default entry chosen by LoaderEntryDefault @saved: LoaderEntryLastBooted\\)" \
	"systemd-boot: LoaderEntryDefault @saved boots LoaderEntryLastBooted" "$s"

s=$work/sd-efi && sd "$s"
entry "$s" debian.conf 'title Debian' 'linux /k-mok' 'efi /k-unsigned'
expect_stage 1 "systemd-boot's default entry: /k-unsigned: image is not signed" \
	"systemd-boot: of linux and efi the later line is the image" "$s"
# systemd-boot 252 returns a refused entry's error (run() ends), lockshim
# returns it, and the firmware goes on: OVMF tried the next option on every
# such boot of the differential run (GRUB instead keeps the machine)
expect_stage 1 "does not boot: systemd-boot's default entry: /k-unsigned: image is not signed: systemd-boot returns the error.*\\(the firmware goes on\\)" \
	"systemd-boot: a refused default entry falls through to the next option" "$s"
entry "$s" debian.conf 'title Debian' 'efi /k-unsigned' 'linux /k-mok'
expect_stage 0 "systemd-boot's default entry boots /k-mok" "systemd-boot: linux after efi wins too" "$s"

s=$work/sd-uki && sd "$s"
mkdir -p "$s/esp/EFI/Linux"
cp "$work/uki-vendor.efi" "$s/esp/EFI/Linux/debian.efi"
cp "$work/k-vendor.efi" "$s/esp/EFI/Linux/plain.efi"
expect_stage 0 "systemd-boot's default entry boots EFI/Linux/debian.efi.*UKI plain.efi: no .osrel section: systemd-boot leaves it out" \
	"systemd-boot: a UKI in EFI/Linux is named by its .osrel; an image without one is left out" "$s"
expect_stage 0 "allowed EFI/Linux/debian.efi \\(default entry 'Debian UKI'\\)" \
	"systemd-boot: a UKI's title is its .osrel's PRETTY_NAME" "$s"

s=$work/sd-xbootldr && sd "$s"
entry "$s" esp.conf 'title On the ESP' 'linux /k-rogue'
mkdir -p "$s/boot/loader/entries" "$s/xbootldr/loader/entries"
cp "$work/k-vendor.efi" "$s/boot/k-boot"
cp "$work/k-vendor.efi" "$s/xbootldr/k-boot"
printf 'title Boot\nlinux /k-boot\n' >"$s/boot/loader/entries/zz-boot.conf"
printf 'title Boot\nlinux /k-boot\n' >"$s/xbootldr/loader/entries/zz-boot.conf"
printf 'default zz-boot.conf\n' >"$s/esp/loader/loader.conf"
expect_stage 1 "refused /k-rogue \\(default entry 'On the ESP'\\)" \
	"systemd-boot: /boot that is no XBOOTLDR partition is not read" "$s" --boot "$s/boot"
expect_stage 0 "systemd-boot's default entry boots /k-boot" \
	"systemd-boot: the XBOOTLDR partition's entries are read" "$s" --xbootldr "$s/xbootldr"
entry "$s" bad.conf 'title Bad' "linux /$(head -c 600 /dev/zero | tr '\0' k)"
printf 'title Gone\nlinux /k-gone\n' >"$s/esp/loader/entries/gone.conf"
expect_stage 0 "loader entry bad.conf: a value longer than check reads: not read.*loader entry gone.conf: /k-gone does not exist: systemd-boot leaves it out" \
	"systemd-boot: an entry it cannot use is said, the others still checked" "$s" --xbootldr "$s/xbootldr"

# ---- GRUB 2.06 --------------------------------------------------------------------
# gr DIR: Debian's signed GRUB started by lockshim (its digest in MokList);
# kernels on /boot (--boot): vmlinuz-vendor, vmlinuz-rogue (refused)
python3 tests/cli/mkesl.py SHA256 "$work/grub-hash.esl" "$($cli hash "$grub_dir/grubx64.efi.signed")"
cat "$pki/mok.esl" "$work/grub-hash.esl" >"$work/mok-grub.esl"
gr() {
	base "$1" 'grubx64.efi'
	cp "$grub_dir/grubx64.efi.signed" "$1/esp/EFI/lockshim/grubx64.efi"
	$mk var "$1/vars" MokListRT $SG 0x6 "$work/mok-grub.esl"
	cp "$work/k-vendor.efi" "$1/boot/vmlinuz-vendor"
	cp "$work/k-rogue.efi" "$1/boot/vmlinuz-rogue"
}
# cfg DIR: grub.cfg beside GRUB from stdin, its root the --boot filesystem
cfg() {
	printf 'search --no-floppy --fs-uuid --set=root 0b5e6f0e\n' >"$1/esp/EFI/lockshim/grub.cfg"
	cat >>"$1/esp/EFI/lockshim/grub.cfg"
}
expect_grub() { expect_stage "${@:1:4}" --boot "$4/boot" "${@:5}"; }

s=$work/grub-crlf && gr "$s"
printf "set default=1\r\nmenuentry 'Rogue' {\r\n\tlinux /boot/vmlinuz-rogue\r\n}\r\nmenuentry 'Vendor' {\r\n\tlinux /boot/vmlinuz-vendor\r\n}\r\n" | cfg "$s"
expect_grub 0 "GRUB's default entry boots /boot/vmlinuz-vendor" "GRUB: CRLF line ends read as GRUB drops '\\r'" "$s"

s=$work/grub-semicolon && gr "$s"
printf 'menuentry "a" { linux /boot/vmlinuz-vendor ; }\nmenuentry "b" { linux /boot/vmlinuz-rogue; }\n' | cfg "$s"
expect_grub 0 "allowed /boot/vmlinuz-vendor \\(default entry 'a'\\).*refused /boot/vmlinuz-rogue \\(entry 'b'\\)" \
	"GRUB: a menuentry on one line, its commands after '{' and ';'" "$s"

s=$work/grub-dotdot && gr "$s"
printf 'menuentry "up" {\n\tlinux /boot/grub/../vmlinuz-vendor\n}\nmenuentry "top" {\n\tlinux /../../boot/./vmlinuz-vendor\n}\n' | cfg "$s"
expect_grub 0 "allowed /boot/vmlinuz-vendor \\(default entry 'up'\\).*allowed /boot/vmlinuz-vendor \\(entry 'top'\\)" \
	"GRUB: '..' goes up, never above the root, '.' stays" "$s"

s=$work/grub-prefix && gr "$s"
printf 'menuentry "beside" {\n\tlinux /boot/vmlinuz-rogue\n}\n' | cfg "$s"
mkdir -p "$s/esp/EFI/debian"
printf 'menuentry "prefix" {\n\tlinux $prefix/../../boot/vmlinuz-vendor\n}\n' >"$s/esp/EFI/debian/grub.cfg"
mkdir -p "$s/esp/boot" && cp "$work/k-vendor.efi" "$s/esp/boot/vmlinuz-vendor"
expect_grub 0 "GRUB's default entry boots \\(ESP\\)/boot/vmlinuz-vendor" \
	"GRUB: Debian's GRUB reads \$prefix/grub.cfg (/EFI/debian, built in) before the one beside it" "$s"
expect_grub 0 "allowed \\(ESP\\)/boot/vmlinuz-vendor \\(default entry 'prefix'\\)" \
	"GRUB: \$prefix in a path is the built-in /EFI/debian" "$s"

s=$work/grub-blscfg && gr "$s"
printf 'set boot=search:fedora-boot\nblscfg\nmenuentry "after" {\n\tlinux /boot/vmlinuz-rogue\n}\n' | cfg "$s"
mkdir -p "$s/boot/loader/entries"
printf 'title Fedora (6.1)\nversion 6.1.0\nlinux /vmlinuz-rogue\n' >"$s/boot/loader/entries/fedora-6.1.0.conf"
printf 'title Fedora (6.10)\nversion 6.10.0\nlinux /vmlinuz-vendor\n' >"$s/boot/loader/entries/fedora-6.10.0.conf"
expect_grub 0 "allowed /vmlinuz-vendor \\(default entry 'Fedora \\(6.10\\)'\\):.* id='fedora-6.10.0'.*refused /vmlinuz-rogue \\(entry 'Fedora \\(6.1\\)'\\).*refused /boot/vmlinuz-rogue \\(entry 'after'\\)" \
	"GRUB: blscfg reads /loader/entries, newest version first, ids the file names" "$s"
# Fedora's grub.cfg: the default is grubenv's saved_entry, a BLS id
printf 'set boot=search:fedora-boot\nload_env\nset default="${saved_entry}"\nblscfg\n' | cfg "$s"
expect_grub 1 "cannot tell which entry GRUB boots: its default \\(\\) is set where check does not evaluate" \
	"GRUB: saved_entry from a grubenv that cannot be read is not guessed" "$s"
mkdir -p "$s/esp/boot/grub" && printf 'saved_entry=fedora-6.1.0\n' >"$s/esp/boot/grub/grubenv"
expect_grub 1 "refused /vmlinuz-rogue \\(default entry 'Fedora \\(6.1\\)'\\)" \
	"GRUB: blscfg's entries chosen by grubenv's saved_entry" "$s"

s=$work/grub-if && gr "$s"
cat <<'CFG' | cfg "$s"
if loadfont unicode ; then
	set default=1
else
	set default=0
fi
menuentry 'Vendor' {
	linux /boot/vmlinuz-vendor
}
menuentry 'Rogue' {
	linux /boot/vmlinuz-rogue
}
CFG
expect_grub 1 "cannot tell which entry GRUB boots: its default \\(0\\) is set where check does not evaluate \\(grub.cfg line 3: default not evaluated: default=1\\)" \
	"GRUB: if/else on a command is said not evaluated, no branch guessed" "$s"
cat <<'CFG' | cfg "$s"
if [ -s $prefix/grubenv ]; then
  set have_grubenv=true
  load_env
fi
if [ "${next_entry}" ] ; then
   set default="${next_entry}"
   set next_entry=
else
   set default="0"
fi
if [ x"${feature_menuentry_id}" = xy ]; then
  menuentry_id_option="--id"
else
  menuentry_id_option=""
fi
menuentry 'Rogue' $menuentry_id_option 'rogue-id' {
	if [ x$grub_platform = xxen ]; then insmod xzio; fi
	linux /boot/vmlinuz-rogue
}
menuentry 'Vendor' $menuentry_id_option 'vendor-id' {
	linux /boot/vmlinuz-vendor
}
CFG
expect_grub 1 "GRUB's default entry: /boot/vmlinuz-rogue is refused" \
	"GRUB: Debian's conditions evaluated: no grubenv, default 0" "$s"
mkdir -p "$s/esp/boot/grub" # $prefix: no /EFI/debian on this ESP
printf '# GRUB Environment Block\nnext_entry=vendor-id\n' >"$s/esp/boot/grub/grubenv"
expect_grub 0 "GRUB's default entry boots /boot/vmlinuz-vendor" \
	"GRUB: load_env's next_entry chooses the entry by its --id" "$s"
if [[ $out == *"not evaluated"* ]]; then not_ok "stages: GRUB: evaluated conditions said not evaluated ($out)"; else ok "stages: GRUB: nothing said not evaluated when all was"; fi

s=$work/grub-titles && gr "$s"
uuid=0b5e6f0e-1111-2222-3333-444455556666
{
	printf "menuentry_id_option=--id\n"
	printf "submenu 'Advanced options for Debian GNU/Linux' \$menuentry_id_option 'gnulinux-advanced-%s' {\n" $uuid
	for v in 6.1.0-57 6.1.0-9; do
		for m in '' ' (recovery mode)'; do
			printf "\tmenuentry 'Debian GNU/Linux, with Linux %s-amd64%s' \$menuentry_id_option 'gnulinux-%s-amd64-%s-%s' {\n\t\tlinux /boot/vmlinuz-vendor\n\t}\n" \
				"$v" "$m" "$v" "${m:+recovery}" $uuid
		done
	done
	printf "}\nmenuentry { linux /boot/vmlinuz-rogue }\n"
} | cfg "$s"
run_cli check --efivars "$s/vars" --esp "$s/esp" --boot "$s/boot" --json
if python3 -c '
import json, sys
e = json.loads(sys.argv[1])["entries"][0]
steps = [s for s in e["chain"] if "entry" in s["role"]]
roles = [s["role"] for s in steps]
ids = [s["id"] for s in steps]
assert e["boots"] is True, e
assert len(steps) == 4 and len(set(roles)) == 4 and len(set(ids)) == 4, (roles, ids)
assert roles[0] == "default entry '"'"'Advanced options for Debian GNU/Linux>Debian GNU/Linux, with Linux 6.1.0-57-amd64'"'"'", roles
assert "Advanced options for Debian GNU/Linux>Debian GNU/Linux, with Linux 6.1.0-9-amd64 (recovery mode)" in roles[3], roles
assert ids[0] == "gnulinux-advanced-'$uuid'>gnulinux-6.1.0-57-amd64--'$uuid'", ids
assert "without a title" in e["why"], e["why"]
' "$out"; then ok "stages: GRUB: four Debian entries read whole and apart, each with its id; a bad entry skipped"; else not_ok "stages: GRUB titles and ids (exit $rc: $out)"; fi

exit $failed
