#!/usr/bin/env bash
# build/lockshim check: offline machine states built here (an efivarfs copy,
# an ESP, /boot), each answer checked, and each claim with a state that
# would make it fail if the claim were false. Images: lockshim signed with
# the test db key, Debian's kernel (tests/qemu/debian-kernel.sh, .sbat
# added) signed by the vendor, MOK and revoked keys, Debian's signed shim
# and GRUB (tests/qemu/debian-package.sh, cached).
set -uo pipefail
cd "$(dirname "$0")/../.."

. tests/cli/lib.sh
work=$BUILD/check-test
mk="python3 tests/cli/mkefivars.py"
cli=$BUILD/lockshim # the sanitized build for the hostile inputs below (8 MB kernels are slow under it)

rm -rf "$work" && mkdir -p "$work"
[[ -f $BUILD/lockshimx64.efi ]] || { not_ok "check: $BUILD/lockshimx64.efi missing (run make)"; exit 1; }
kernel=$(tests/qemu/debian-kernel.sh "$work/vmlinuz-debian") || { not_ok "check: no Debian kernel"; exit 1; }
shim_dir=$(tests/qemu/debian-package.sh shim-signed usr/lib/shim/shimx64.efi.signed) ||
	{ not_ok "check: no Debian shim"; exit 1; }
grub_dir=$(tests/qemu/debian-package.sh grub-efi-amd64-signed \
	usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed) || { not_ok "check: no Debian GRUB"; exit 1; }

sign db "$BUILD/lockshimx64.efi" "$work/lockshim.efi"
for k in vendor mok revoked rogue db; do sign "$k" "$kernel" "$work/kernel-$k.efi"; done

# state DIR: a machine with Secure Boot on, the test db, lockshim at
# \EFI\lockshim\ started by Boot0001, the vendor-signed kernel as its
# default loader; a copy of efivarfs in DIR/vars, the ESP in DIR/esp
# (made once, copied: each mkefivars.py call costs a Python start)
template=$work/template
mkdir -p "$template/vars" "$template/esp/EFI/lockshim" "$template/esp/EFI/BOOT" "$template/boot"
$mk byte "$template/vars" SecureBoot $GG 0x6 1
$mk byte "$template/vars" SetupMode $GG 0x6 0
$mk var "$template/vars" db $DG 0x27 "$pki/db.esl"
$mk order "$template/vars" 1
$mk option "$template/vars" 1 lockshim '\EFI\lockshim\lockshimx64.efi'
cp "$work/lockshim.efi" "$template/esp/EFI/lockshim/lockshimx64.efi"
cp "$work/kernel-vendor.efi" "$template/esp/EFI/lockshim/vmlinuz.efi"
state() {
	rm -rf "$1" && cp -a "$template" "$1"
}
check() { run_cli check --efivars "$1/vars" --esp "$1/esp" --boot "$1/boot" "${@:2}"; }
# expect_check CODE REGEX NAME DIR ARGS...
expect_check() {
	local code=$1 regex=$2 name=$3
	shift 3
	check "$@"
	if [[ $rc -eq $code && $out =~ $regex ]]; then ok "check: $name"; else not_ok "check: $name (exit $rc: $out)"; fi
}

s=$work/base
state "$s"
expect_check 0 'Boot0001 "lockshim": boots: it boots \\EFI\\lockshim\\vmlinuz.efi' \
	"vendor-signed kernel behind lockshim boots" "$s"
expect_check 0 'allowed \\EFI\\lockshim\\lockshimx64.efi \(first stage\): reason=allowed-cert list=db entry=/CN=lockshim test db' \
	"the firmware's verdict on lockshim names db's entry" "$s"
expect_check 0 'allowed \\EFI\\lockshim\\vmlinuz.efi \(default loader\): reason=allowed-cert list=vendor' \
	"lockshim's vendor certificate read from its .vendor_cert" "$s"
expect_check 0 'removable \\EFI\\BOOT\\BOOTX64.EFI: does not boot: \\EFI\\BOOT\\BOOTX64.EFI does not exist' \
	"a missing removable path is said, reason missing" "$s"

# --json: the fields the issue promises, from the CLI's one JSON writer
run_cli check --efivars "$s/vars" --esp "$s/esp" --json
if python3 -c '
import json, sys
d = json.loads(sys.argv[1])
e = d["entries"]
assert e[0]["option"] == "Boot0001" and e[0]["boots"] is True, e[0]
assert e[-1]["option"] == "removable" and e[-1]["boots"] is False
for entry in e:
    for step in entry["chain"]:
        assert step["verdict"] in ("allowed", "refused") and step["image"] and step["reason"], step
assert e[0]["chain"][1]["reason"] == "allowed-cert" and e[0]["chain"][1]["list"] == "vendor"
' "$out"; then ok "check: --json entries, chain, verdicts"; else not_ok "check: --json ($out)"; fi

# the firmware: an unsigned lockshim, lockshim revoked in dbx by hash, Secure Boot off
s=$work/unsigned && state "$s" && cp "$BUILD/lockshimx64.efi" "$s/esp/EFI/lockshim/lockshimx64.efi"
expect_check 1 'refused \\EFI\\lockshim\\lockshimx64.efi \(first stage\): reason=not-signed' \
	"an unsigned first stage is refused by the firmware" "$s"
s=$work/dbx-hash && state "$s"
python3 tests/cli/mkesl.py SHA256 "$work/lockshim-hash.esl" "$($cli hash "$work/lockshim.efi")"
$mk var "$s/vars" dbx $DG 0x27 "$work/lockshim-hash.esl"
expect_check 1 'refused \\EFI\\lockshim\\lockshimx64.efi \(first stage\): reason=deny-digest list=dbx' \
	"dbx SHA-256 entry refuses the first stage" "$s"
s=$work/sb-off && state "$s" && $mk byte "$s/vars" SecureBoot $GG 0x6 0 &&
	cp "$BUILD/lockshimx64.efi" "$s/esp/EFI/lockshim/lockshimx64.efi"
expect_check 0 'allowed \\EFI\\lockshim\\lockshimx64.efi \(first stage\): reason=secure-boot-off' \
	"Secure Boot off: an unsigned first stage runs" "$s"

# lockshim's policy on the kernel: dbx certificate, MokList, MokListX, a rogue key
s=$work/dbx-cert && state "$s" && $mk var "$s/vars" dbx $DG 0x27 "$pki/vendor.esl"
expect_check 1 'refused \\EFI\\lockshim\\vmlinuz.efi \(default loader\): reason=deny-cert list=dbx entry=/CN=lockshim test vendor' \
	"dbx certificate entry refuses the kernel" "$s"
s=$work/mok && state "$s" && cp "$work/kernel-mok.efi" "$s/esp/EFI/lockshim/vmlinuz.efi"
expect_check 1 'refused \\EFI\\lockshim\\vmlinuz.efi .*reason=untrusted-signer' \
	"a MOK-signed kernel without MokList is refused" "$s"
$mk var "$s/vars" MokListRT $SG 0x6 "$pki/mok.esl"
expect_check 0 'allowed \\EFI\\lockshim\\vmlinuz.efi \(default loader\): reason=allowed-cert list=MokList entry=/CN=lockshim test mok' \
	"MokListRT's key allows the MOK-signed kernel" "$s"
mkdir -p "$s/mokvar" && : >"$s/mokvar/MokListRT"
run_cli check --efivars "$s/vars" --mok-variables "$s/mokvar" --esp "$s/esp"
[[ $rc -eq 1 ]] && ok "check: the MokVar table's MokListRT counts before root's variable" ||
	not_ok "check: MokVar table first (exit $rc: $out)"
s=$work/mokx && state "$s" && $mk var "$s/vars" MokListXRT $SG 0x6 "$pki/vendor.esl"
expect_check 1 'reason=deny-cert list=MokListX entry=/CN=lockshim test vendor' \
	"MokListXRT refuses the vendor-signed kernel" "$s"

# the MOK state: MokDBState (mirrored as MokIgnoreDB) takes db from the
# first stage's trust; MokSBState (MokSBStateRT) turns its validation off
sign db "$kernel" "$work/kernel-db.efi"
s=$work/ignore-db && state "$s" && cp "$work/kernel-db.efi" "$s/esp/EFI/lockshim/vmlinuz.efi"
expect_check 0 'allowed \\EFI\\lockshim\\vmlinuz.efi \(default loader\): reason=allowed-cert list=db' \
	"a db-signed kernel behind lockshim boots" "$s"
$mk byte "$s/vars" MokIgnoreDB $SG 0x6 1
expect_check 1 'refused \\EFI\\lockshim\\vmlinuz.efi \(default loader\): reason=untrusted-signer' \
	"MokIgnoreDB: lockshim no longer trusts db for the kernel" "$s"
expect_check 1 'allowed \\EFI\\lockshim\\lockshimx64.efi \(first stage\): reason=allowed-cert list=db' \
	"MokIgnoreDB: the firmware still trusts db for lockshim" "$s"
s=$work/validation-off && state "$s" && cp "$work/kernel-rogue.efi" "$s/esp/EFI/lockshim/vmlinuz.efi"
$mk byte "$s/vars" MokSBStateRT $SG 0x6 1
expect_check 0 'allowed \\EFI\\lockshim\\vmlinuz.efi \(default loader\): reason=secure-boot-off: runs unverified' \
	"MokSBStateRT=1: lockshim boots an unverified kernel, saying so" "$s"
cp "$BUILD/lockshimx64.efi" "$s/esp/EFI/lockshim/lockshimx64.efi"
expect_check 1 'refused \\EFI\\lockshim\\lockshimx64.efi \(first stage\): reason=not-signed' \
	"MokSBStateRT=1: the firmware still refuses an unsigned lockshim" "$s"

# SBAT: the stored level revokes the kernel's linux generation
s=$work/sbat && state "$s"
printf 'sbat,1,2026120300\nshim,4\ngrub,5\nlinux,9\n' >"$work/level-linux9.csv"
$mk var "$s/vars" SbatLevelRT $SG 0x6 "$work/level-linux9.csv"
expect_check 1 'reason=sbat-revoked list=SbatLevel' "SbatLevelRT revokes the kernel" "$s"
printf 'sbat,1,2030010100\nlockshim,9\n' >"$work/level-lockshim9.csv"
state "$s" && $mk var "$s/vars" SbatLevelRT $SG 0x6 "$work/level-lockshim9.csv"
expect_check 1 "first stage's own SBAT\\): reason=sbat-revoked" "a level revoking lockshim itself starts nothing" "$s"

# lockshim one SBAT generation back (tests/sbat-previous.sh), db-signed: it
# boots under the automatic level, and the latest level lockshim ships
# refuses it, asked for (--sbat-level latest) or stored; this lockshim
# passes that level
gen=$(sed -n 's/^lockshim,\([0-9]*\),.*/\1/p' certs/sbat.csv)
latest=$(sed -n '1s/^sbat,[0-9]*,\([0-9]*\).*/\1/p' certs/sbat-level-latest.csv)
if previous=$(tests/sbat-previous.sh "$work/previous" "$pki/vendor.der" 2>"$work/previous.log"); then
	sign db "$work/previous/lockshimx64.efi" "$work/lockshim-previous.efi"
else
	not_ok "check: tests/sbat-previous.sh ($(tail -n 3 "$work/previous.log" | tr '\n' ' '))"
fi
revoked="SBAT revokes component lockshim generation $previous \\(SbatLevel $latest requires $gen\\)"
s=$work/previous-generation && state "$s" && cp "$work/lockshim-previous.efi" "$s/esp/EFI/lockshim/lockshimx64.efi"
expect_check 0 'Boot0001 "lockshim": boots' "lockshim generation $previous boots under the automatic level" "$s"
expect_check 1 "after this update Boot0001 will no longer boot: [^ ]*lockshimx64.efi is refused: $revoked.*first stage's own SBAT\\): reason=sbat-revoked" \
	"--sbat-level latest refuses lockshim generation $previous" "$s" --sbat-level latest
$mk var "$s/vars" SbatLevelRT $SG 0x6 certs/sbat-level-latest.csv
expect_check 1 "first stage's own SBAT\\): reason=sbat-revoked: $revoked" \
	"the latest level stored refuses lockshim generation $previous" "$s"
s=$work/latest-current && state "$s"
expect_check 0 "after this update every option boots as it does today" \
	"--sbat-level latest: this lockshim (generation $gen) boots" "$s" --sbat-level latest

# the level lockshim applies by itself: SbatLevelRT still the original
# level, lockshim's .sbatlevel raises it to its automatic one (grub,5), which
# revokes a grub,4 second stage it starts
objcopy --remove-section .sbat --remove-section .sbatlevel "$BUILD/mmx64.efi" "$work/plain.efi"
printf 'sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\ngrub,4,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n' >"$work/grub4.csv"
build/lockshim add-sbat "$work/grub4.csv" "$work/plain.efi" "$work/grub4-unsigned.efi" &&
	sign vendor "$work/grub4-unsigned.efi" "$work/grub4.efi"
printf 'sbat,1,2021030218\n' >"$work/level-original.csv"
s=$work/sbat-auto && state "$s" && cp "$work/grub4.efi" "$s/esp/EFI/lockshim/grub4.efi"
$mk var "$s/vars" SbatLevelRT $SG 0x6 "$work/level-original.csv"
$mk option "$s/vars" 1 lockshim '\EFI\lockshim\lockshimx64.efi' 'grub4.efi'
expect_check 1 'refused \\EFI\\lockshim\\grub4.efi \(load options\): reason=sbat-revoked list=SbatLevel.*grub generation 4 \(SbatLevel 2025021800 requires 5\)' \
	"lockshim's automatic level from its .sbatlevel revokes what the stored one does not" "$s"
# no SbatLevel stored and none written before (the first option's file is
# missing): the second option's lockshim still applies its automatic level
s=$work/sbat-none && state "$s" && cp "$work/grub4.efi" "$s/esp/EFI/lockshim/grub4.efi"
$mk option "$s/vars" 1 gone '\EFI\lockshim\gone.efi'
$mk option "$s/vars" 2 lockshim '\EFI\lockshim\lockshimx64.efi' 'grub4.efi'
$mk order "$s/vars" 1 2
expect_check 1 'Boot0002 "lockshim": does not boot: .*refused \\EFI\\lockshim\\grub4.efi \(load options\): reason=sbat-revoked list=SbatLevel.*grub generation 4 \(SbatLevel 2025021800 requires 5\)' \
	"no SbatLevel stored: lockshim's automatic level still applies" "$s"

# load options name the kernel; a missing one is said, never replaced by the default
s=$work/options && state "$s" && cp "$work/kernel-mok.efi" "$s/esp/EFI/lockshim/other.efi"
$mk option "$s/vars" 1 lockshim '\EFI\lockshim\lockshimx64.efi' 'other.efi root=/dev/sda2'
expect_check 1 'refused \\EFI\\lockshim\\other.efi \(load options\)' "the option's load options name the kernel" "$s"

# GRUB as the second stage: grub.cfg beside it, configfile into /boot, default entry first
s=$work/grub && state "$s"
cp "$grub_dir/grubx64.efi.signed" "$s/esp/EFI/lockshim/grubx64.efi"
python3 tests/cli/mkesl.py SHA256 "$work/grub-hash.esl" "$($cli hash "$s/esp/EFI/lockshim/grubx64.efi")"
cat "$pki/mok.esl" "$work/grub-hash.esl" >"$work/mok-grub.esl"
$mk var "$s/vars" MokListRT $SG 0x6 "$work/mok-grub.esl"
$mk option "$s/vars" 1 lockshim '\EFI\lockshim\lockshimx64.efi' 'grubx64.efi'
cat >"$s/esp/EFI/lockshim/grub.cfg" <<'CFG'
search.fs_uuid 0b5e6f0e-1111-2222-3333-444455556666 root hd0,gpt2
set prefix=($root)'/boot/grub'
configfile $prefix/grub.cfg
CFG
mkdir -p "$s/boot/grub"
cat >"$s/boot/grub/grub.cfg" <<'CFG'
function load_video {
  insmod all_video
}
if [ "${next_entry}" ] ; then
   set default="${next_entry}"
else
   set default="1"
fi
menuentry 'Debian rogue' --class debian {
	linux /boot/vmlinuz-rogue root=/dev/sda2
}
menuentry 'Debian MOK' --class debian {
	search --no-floppy --fs-uuid --set=root 0b5e6f0e
	linux /boot/vmlinuz-mok root=/dev/sda2
}
submenu 'Advanced' {
	menuentry 'Debian vendor' {
		linux /boot/vmlinuz-vendor
	}
}
CFG
cp "$work/kernel-rogue.efi" "$s/boot/vmlinuz-rogue"
cp "$work/kernel-mok.efi" "$s/boot/vmlinuz-mok"
cp "$work/kernel-vendor.efi" "$s/boot/vmlinuz-vendor"
expect_check 0 "GRUB's default entry boots /boot/vmlinuz-mok" "GRUB: configfile followed, default entry's kernel boots" "$s"
expect_check 0 "allowed \\\\EFI\\\\lockshim\\\\grubx64.efi \\(load options\\): reason=allowed-digest list=MokList" \
	"GRUB allowed by its digest in MokList" "$s"
expect_check 0 "refused /boot/vmlinuz-rogue \\(entry 'Debian rogue'\\): reason=untrusted-signer" \
	"GRUB: a non-default entry's refusal is said" "$s"
expect_check 0 "allowed /boot/vmlinuz-vendor \\(entry 'Advanced>Debian vendor'\\)" \
	"GRUB: a submenu's entry is checked" "$s"
expect_check 0 "^after this update Boot0001: /boot/vmlinuz-vendor \\(entry 'Advanced>Debian vendor'\\) will be refused: certificate /CN=lockshim test vendor is in dbx" \
	"what if: a recovery kernel's refusal is said though the option still boots" "$s" --dbx-update "$pki/vendor.esl"
printf '# GRUB Environment Block\nnext_entry=Debian rogue\n%s\n' "$(head -c 900 /dev/zero | tr '\0' '#')" >"$s/boot/grub/grubenv"
expect_check 0 "GRUB's default entry boots /boot/vmlinuz-mok \\(grubenv next_entry=Debian rogue: not evaluated\\)" \
	"GRUB: a one-shot next_entry in grubenv is said, not guessed at" "$s"
rm "$s/boot/grub/grubenv"
sed -i 's/set default="1"/set default="0"/' "$s/boot/grub/grub.cfg"
expect_check 1 "GRUB's default entry: /boot/vmlinuz-rogue is refused" "GRUB: a refused default entry stops the option" "$s"
rm "$s/boot/vmlinuz-rogue"
expect_check 1 "refused /boot/vmlinuz-rogue \\(default entry 'Debian rogue'\\): reason=missing" \
	"GRUB: a kernel missing from /boot is said" "$s"

# GRUB started by the firmware itself: no SHIM_LOCK, every kernel refused
s2=$work/grub-direct && cp -a "$s" "$s2"
python3 tests/cli/mkesl.py SHA256 "$work/grub-db.esl" "$($cli hash "$s2/esp/EFI/lockshim/grubx64.efi")"
$mk var "$s2/vars" db $DG 0x27 "$work/grub-db.esl"
$mk option "$s2/vars" 1 grub '\EFI\lockshim\grubx64.efi'
expect_check 1 "reason=no-shim-lock" "GRUB without lockshim or shim finds no SHIM_LOCK" "$s2"

# systemd-boot: a Type #1 entry and a UKI in EFI/Linux
sd_dir=$(tests/qemu/debian-package.sh systemd-boot-efi usr/lib/systemd/boot/efi/systemd-bootx64.efi \
	usr/lib/systemd/boot/efi/linuxx64.efi.stub) ||
	not_ok "check: no Debian systemd-boot"
s=$work/sdboot && state "$s"
cp "$sd_dir/systemd-bootx64.efi" "$s/esp/EFI/lockshim/sd.efi"
build/lockshim add-sbat <(printf 'sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n') \
	"$s/esp/EFI/lockshim/sd.efi" "$work/sd-sbat.efi" 2>/dev/null || true
sign vendor "$s/esp/EFI/lockshim/sd.efi" "$s/esp/EFI/lockshim/sd.efi"
$mk option "$s/vars" 1 lockshim '\EFI\lockshim\lockshimx64.efi' 'sd.efi'
mkdir -p "$s/esp/loader/entries" "$s/esp/EFI/Linux"
printf 'title Debian\nversion 6.1\nlinux /vmlinuz-mok\noptions root=/dev/sda2\n' >"$s/esp/loader/entries/debian-6.1.conf"
cp "$work/kernel-mok.efi" "$s/esp/vmlinuz-mok"
# a UKI: systemd-boot 252 lists only one with an .osrel (its ID the title here)
head -c 64 /dev/zero >"$work/uki-initrd"
tests/qemu/mkuki.sh "$sd_dir/linuxx64.efi.stub" "$kernel" "$work/uki-initrd" 'root=/dev/sda2' \
	'ID=debian-uki' "$work/uki.efi" && sign vendor "$work/uki.efi" "$s/esp/EFI/Linux/debian-uki.efi"
printf 'default debian-6.1.conf\n' >"$s/esp/loader/loader.conf"
expect_check 1 "systemd-boot's default entry: /vmlinuz-mok: .*not trusted|systemd-boot's default entry: /vmlinuz-mok: .*chain" \
	"systemd-boot: a Type #1 entry's MOK kernel refused without MokList" "$s"
expect_check 1 "allowed EFI/Linux/debian-uki.efi \\(entry 'debian-uki'\\): reason=allowed-cert list=vendor" \
	"systemd-boot: a UKI in EFI/Linux allowed by the vendor key" "$s"
printf 'debian-uki.efi\0' | iconv -f ascii -t utf-16le >"$work/entry-uki"
cp -a "$s" "$work/sdboot-oneshot"
# bootctl writes it non-volatile (NV|BS|RT, as systemd's efi_set_variable does)
$mk var "$work/sdboot-oneshot/vars" LoaderEntryOneShot 4a67b082-0a4c-41cf-b6c7-440b29bb8c4f 0x7 "$work/entry-uki"
expect_check 0 "systemd-boot's default entry boots EFI/Linux/debian-uki.efi" \
	"systemd-boot: LoaderEntryOneShot (bootctl set-oneshot) comes before loader.conf" "$work/sdboot-oneshot"
# a volatile one is not bootctl's and is gone at the next boot: ignored, and said
$mk var "$work/sdboot-oneshot/vars" LoaderEntryOneShot 4a67b082-0a4c-41cf-b6c7-440b29bb8c4f 0x6 "$work/entry-uki"
expect_check 1 "LoaderEntryOneShot-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f: ignored: attributes 0x6, not 0x7.*systemd-boot's default entry: /vmlinuz-mok" \
	"systemd-boot: a LoaderEntryOneShot with other attributes than bootctl's is not trusted" "$work/sdboot-oneshot"
# bootctl set-default: LoaderEntryDefault comes before loader.conf, and
# after a one-shot
printf 'debian-6.1.conf\0' | iconv -f ascii -t utf-16le >"$work/entry-conf"
cp -a "$s" "$work/sdboot-default"
$mk var "$work/sdboot-default/vars" LoaderEntryDefault 4a67b082-0a4c-41cf-b6c7-440b29bb8c4f 0x7 "$work/entry-uki"
expect_check 0 "systemd-boot's default entry boots EFI/Linux/debian-uki.efi" \
	"systemd-boot: LoaderEntryDefault (bootctl set-default) comes before loader.conf" "$work/sdboot-default"
$mk var "$work/sdboot-default/vars" LoaderEntryDefault 4a67b082-0a4c-41cf-b6c7-440b29bb8c4f 0x7 "$work/entry-conf"
$mk var "$work/sdboot-default/vars" LoaderEntryOneShot 4a67b082-0a4c-41cf-b6c7-440b29bb8c4f 0x7 "$work/entry-uki"
expect_check 0 "systemd-boot's default entry boots EFI/Linux/debian-uki.efi" \
	"systemd-boot: LoaderEntryOneShot comes before LoaderEntryDefault" "$work/sdboot-default"
$mk var "$s/vars" MokListRT $SG 0x6 "$pki/mok.esl"
expect_check 0 "systemd-boot's default entry boots /vmlinuz-mok" "systemd-boot: MokList allows the Type #1 kernel" "$s"

# shim as the first stage: Debian's, its vendor certificate from .vendor_cert
s=$work/shim && state "$s" && mkdir -p "$s/esp/EFI/debian"
cp "$shim_dir/shimx64.efi.signed" "$s/esp/EFI/debian/shimx64.efi"
cp "$grub_dir/grubx64.efi.signed" "$s/esp/EFI/debian/grubx64.efi"
python3 tests/cli/mkesl.py SHA256 "$work/shim-db.esl" "$($cli hash "$s/esp/EFI/debian/shimx64.efi")"
$mk var "$s/vars" db $DG 0x27 "$work/shim-db.esl"
$mk var "$s/vars" MokListRT $SG 0x6 "$pki/vendor.esl"
$mk option "$s/vars" 1 debian '\EFI\debian\shimx64.efi'
printf "linux /boot/vmlinuz root=/dev/sda2\n" >/dev/null
printf "menuentry 'Debian' {\n\tlinux /boot/vmlinuz root=/dev/sda2\n}\n" >"$s/esp/EFI/debian/grub.cfg"
mkdir -p "$s/esp/boot" && cp "$work/kernel-vendor.efi" "$s/esp/boot/vmlinuz"
expect_check 0 "allowed \\\\EFI\\\\debian\\\\grubx64.efi \\(default loader\\): reason=allowed-cert list=vendor entry=/CN=Debian Secure Boot CA" \
	"shim: Debian's GRUB allowed through the CA in shim's .vendor_cert" "$s"
expect_check 0 "allowed \\(ESP\\)/boot/vmlinuz \\(default entry 'Debian'\\): reason=allowed-cert list=MokList" \
	"shim: the kernel GRUB asks about, through SHIM_LOCK" "$s"

# What Windows' servicing writes to SbatLevel (--sbat-level windows,
# certs/sbat-level-windows.csv) revokes shim below generation 4. A shim
# 15.x-style first stage (Debian's unsigned shim with shim,3 and no
# .sbatlevel of its own, its digest in db) boots under the original level and
# stops at its own SBAT check under Windows' level, as shim's "SBAT
# self-check failed" does; lockshim's components pass that level.
shim_unsigned=$(tests/qemu/debian-package.sh shim-unsigned usr/lib/shim/shimx64.efi) ||
	not_ok "check: no Debian shim-unsigned"
objcopy -O binary --only-section=.sbat "$shim_unsigned/shimx64.efi" "$work/shim.sbat"
sed 's/^shim,4,/shim,3,/' "$work/shim.sbat" >"$work/shim3.sbat"
objcopy --remove-section .sbatlevel --update-section .sbat="$work/shim3.sbat" \
	"$shim_unsigned/shimx64.efi" "$work/shim3-unsigned.efi"
s=$work/shim3 && cp -a "$work/shim" "$s"
sign db "$work/shim3-unsigned.efi" "$s/esp/EFI/debian/shimx64.efi"
python3 tests/cli/mkesl.py SHA256 "$work/shim3-db.esl" "$($cli hash "$s/esp/EFI/debian/shimx64.efi")"
$mk var "$s/vars" db $DG 0x27 "$work/shim3-db.esl"
expect_check 0 "allowed \\(ESP\\)/boot/vmlinuz \\(default entry 'Debian'\\)" \
	"a shim,3 first stage boots under the original SbatLevel" "$s"
expect_check 1 "shimx64.efi \\(first stage's own SBAT\\): reason=sbat-revoked: SBAT revokes component shim generation 3 \\(SbatLevel 2024010900 requires 4\\)" \
	"--sbat-level windows: a shim,3 first stage fails its own SBAT check" "$s" --sbat-level windows
$mk var "$s/vars" SbatLevelRT $SG 0x6 certs/sbat-level-windows.csv
expect_check 1 "first stage's own SBAT\\): reason=sbat-revoked" \
	"Windows' level stored: the shim,3 first stage fails its own SBAT check" "$s"
expect_check 0 'Boot0001 "lockshim": boots' "--sbat-level windows: lockshim boots" "$work/base" \
	--sbat-level windows

# shim as the removable path with its fallback beside it: fbx64.efi runs,
# rewrites the boot options, and the answer says so rather than guess
s=$work/shim-fallback && cp -a "$work/shim" "$s"
cp "$shim_dir/shimx64.efi.signed" "$s/esp/EFI/BOOT/BOOTX64.EFI"
cp "$work/kernel-vendor.efi" "$s/esp/EFI/BOOT/fbx64.efi"
expect_check 0 'removable \\EFI\\BOOT\\BOOTX64.EFI: starts, not followed: \\EFI\\BOOT\\fbx64.efi creates boot options' \
	"shim's fallback from \\EFI\\BOOT\\ is said, not followed" "$s"
$mk option "$s/vars" 1 debian '\EFI\debian\shimx64.efi' --inactive
expect_check 3 'Boot0001 "debian": does not boot: inactive: the firmware skips it \(the firmware goes on\).*next boot: cannot tell at removable' \
	"an inactive option is skipped: the next boot ends at shim's fallback, not followed" "$s"

# what if: a dbx update (signature list, then signed .auth) revoking the kernel's signer
s=$work/whatif && state "$s"
expect_check 1 "after this update Boot0001 will no longer boot: .*deny-cert|after this update Boot0001 will no longer boot: \\\\EFI\\\\lockshim\\\\vmlinuz.efi is refused: certificate /CN=lockshim test vendor is in dbx" \
	"--dbx-update ESL: the change said first" "$s" --dbx-update "$pki/vendor.esl"
[[ ${out%%$'\n'*} == "after this update Boot0001 will no longer boot:"* ]] &&
	ok "check: the difference comes first" || not_ok "check: difference first ($out)"
run_cli check --efivars "$s/vars" --esp "$s/esp" --dbx-update "$pki/vendor.esl" --json
if python3 -c '
import json, sys
d = json.loads(sys.argv[1])
c = d["changes"][0]
assert c["option"] == "Boot0001" and c["boots_before"] is True and c["boots_after"] is False, c
assert d["entries"][0]["boots"] is False
' "$out"; then ok "check: --json what-if: changes, then the entries after"; else not_ok "check: --json what-if ($out)"; fi
$mk auth "$work/dbx-update.auth" "$pki/vendor.esl"
expect_check 1 "after this update Boot0001 will no longer boot" "--dbx-update signed .auth: its payload appended" \
	"$s" --dbx-update "$work/dbx-update.auth"
expect_check 0 "after this update every option boots as it does today" "--dbx-update that revokes nothing in use" \
	"$s" --dbx-update "$pki/rogue.esl"
expect_check 1 "after this update Boot0001 will no longer boot: .*SBAT revokes component linux" \
	"--sbat-level FILE revoking the kernel" "$s" --sbat-level "$work/level-linux9.csv"
# an update is appended: what dbx already refuses stays refused
s=$work/whatif-append && state "$s" && $mk var "$s/vars" dbx $DG 0x27 "$pki/vendor.esl"
expect_check 1 "^after this update every option boots as it does today.*Boot0001 \"lockshim\": does not boot: .*certificate /CN=lockshim test vendor is in dbx" \
	"--dbx-update is appended to dbx, never in its place" "$s" --dbx-update "$pki/rogue.esl"
s=$work/whatif-mok && state "$s" && cp "$work/kernel-mok.efi" "$s/esp/EFI/lockshim/vmlinuz.efi"
expect_check 0 "after this update Boot0001 will boot again" "--mok-import CERT" "$s" --mok-import "$pki/mok.der"
$mk var "$s/vars" MokListRT $SG 0x6 "$pki/mok.esl"
expect_check 1 "after this update Boot0001 will no longer boot" "--mok-delete CERT" "$s" --mok-delete "$pki/mok.der"

# PCR 4, 7 and 14 of the next boot (lockshim's events over the firmware's
# part of this boot's log), equal to `pcr --predict`'s for the same chain
# (which tests/qemu/test_measured_boot.sh checks against a TPM); lockshim's
# MOK mirrors hold the vendor certificate's list first, as it writes them
s=$work/pcrs && state "$s"
python3 tests/qemu/tpm_log.py x509-esl "$pki/vendor.der" "$work/vendor-shim.esl"
$mk eventlog "$work/this-boot.log" "$($cli hash "$work/lockshim.efi")"
$mk eventlog "$work/other-boot.log" "$($cli hash "$work/kernel-rogue.efi")"
pcrs_of() { grep -E '^  PCR (4|7|14) ' <<<"$1" | sed 's/^  PCR //'; }
want=$($cli pcr --predict --event-log "$work/this-boot.log" --vendor-cert "$pki/vendor.der" "$work/kernel-vendor.efi")
check "$s" --event-log "$work/this-boot.log"
[[ $rc -eq 0 && -n $want && $(pcrs_of "$out") == "$want" ]] && ok "check: PCRs of lockshim -> kernel as pcr --predict gives" ||
	not_ok "check: PCRs of lockshim -> kernel (exit $rc: $out; expected: $want)"
g=$work/pcrs-grub && cp -a "$work/grub" "$g"
cat "$work/vendor-shim.esl" "$work/mok-grub.esl" >"$work/mirror-grub.esl"
$mk var "$g/vars" MokListRT $SG 0x6 "$work/mirror-grub.esl"
sed -i 's/set default="0"/set default="1"/' "$g/boot/grub/grub.cfg"
cp "$work/kernel-rogue.efi" "$g/boot/vmlinuz-rogue"
want=$($cli pcr --predict --event-log "$work/this-boot.log" --vendor-cert "$pki/vendor.der" --mok "$work/mok-grub.esl" \
	"$g/esp/EFI/lockshim/grubx64.efi" --shim-lock "$g/boot/vmlinuz-mok" --shim-lock "$g/boot/vmlinuz-mok")
check "$g" --event-log "$work/this-boot.log"
[[ $rc -eq 0 && -n $want && $(pcrs_of "$out") == "$want" ]] &&
	ok "check: PCRs behind GRUB: its default kernel asked about twice, as pcr --predict gives" ||
	not_ok "check: PCRs behind GRUB (exit $rc: $out; expected: $want)"
rm -rf "$work/pcrlock" # not there yet: check creates it, as systemd-pcrlock does
check "$g" --event-log "$work/this-boot.log" --pcrlock "$work/pcrlock"
if python3 - "$work/this-boot.log" "$work/pcrlock" "$(pcrs_of "$out")" <<'PY'
import glob, hashlib, json, struct, subprocess, sys
log, d, want = sys.argv[1], sys.argv[2], sys.argv[3]
pcrs = {}
for line in subprocess.run(["python3", "tests/qemu/tpm_log.py", "replay", log], capture_output=True, text=True).stdout.split("\n"):
    if line:
        pcr, value = line.split()
        pcrs[int(pcr)] = bytes.fromhex(value)
names = sorted(glob.glob(d + "/*.pcrlock"))
assert [n.split("/")[-1] for n in names] == ["630-lockshim-mok-state.pcrlock", "640-lockshim-authority.pcrlock", "650-lockshim-images.pcrlock"], names
for n in names:
    for r in json.load(open(n))["records"]:
        (dg,) = [x for x in r["digests"] if x["hashAlg"] == "sha256"]
        pcrs[r["pcr"]] = hashlib.sha256(pcrs.get(r["pcr"], bytes(32)) + bytes.fromhex(dg["digest"])).digest()
got = "\n".join("%d %s" % (p, pcrs.get(p, bytes(32)).hex()) for p in (4, 7, 14))
assert got == want, (got, want)
PY
then ok "check: --pcrlock files replayed over the log give the predicted PCRs"; else not_ok "check: --pcrlock ($out)"; fi
expect_check 0 "PCRs not predicted: the event log is of another first stage" \
	"a log of another first stage predicts nothing" "$s" --event-log "$work/other-boot.log"
rm -rf "$work/pcrs-sd" && cp -a "$work/sdboot" "$work/pcrs-sd"
cat "$work/vendor-shim.esl" "$pki/mok.esl" >"$work/mirror-mok.esl"
$mk var "$work/pcrs-sd/vars" MokListRT $SG 0x6 "$work/mirror-mok.esl"
expect_check 0 "PCRs not predicted: PCRs behind systemd-boot are not predicted" \
	"behind systemd-boot nothing is predicted (its measurements are not modelled)" "$work/pcrs-sd" \
	--event-log "$work/this-boot.log"
expect_check 0 "PCRs not predicted: the MOK mirrors do not start with this lockshim's vendor keys" \
	"a MokListRT lockshim did not write predicts nothing" "$work/sdboot" --event-log "$work/this-boot.log"
head -c 120 "$work/this-boot.log" >"$work/cut.log"
expect_check 2 "cut.log: .*(past the end|no boot application)" "a cut event log is named" "$s" --event-log "$work/cut.log"
expect_check 2 "--pcrlock: no event log" "--pcrlock without a log" "$s" --pcrlock "$work/pcrlock"
expect_check 2 "--pcrlock: removable's PCRs cannot be predicted|--pcrlock: Boot0001's PCRs cannot be predicted: the event log is of another" \
	"--pcrlock for an option that cannot be predicted" "$s" --event-log "$work/other-boot.log" --pcrlock "$work/pcrlock"

# pending requests
s=$work/pending && state "$s" && $mk var "$s/vars" MokNew $SG 0x7 "$pki/mok.esl"
expect_check 0 "pending MokNew \(mokutil --import or --import-hash\): once confirmed at the console, adds to MokList: X509 /CN=lockshim test mok" \
	"a pending MokNew is said with its key" "$s"
# one that is not mokutil's (NV|BS|RT) the MOK manager ignores: so does check, and says it
state "$s" && $mk var "$s/vars" MokNew $SG 0x27 "$pki/mok.esl"
check "$s"
[[ $rc -eq 0 && $out =~ "MokNew-$SG: ignored: attributes 0x27, not 0x7" && ! $out =~ "pending MokNew" ]] &&
	ok "check: a MokNew with other attributes than mokutil's is not reported pending" ||
	not_ok "check: a MokNew with other attributes than mokutil's is not reported pending ($out)"
# mokutil --trust-mok as Debian's mokutil 0.6.0 wrote it (tests/vectors/mokutil/misc)
vec=tests/vectors/mokutil
state "$s" && $mk var "$s/vars" MokListTrustedNew $SG 0x7 "$vec/misc/MokListTrustedNew.bin"
expect_check 0 "pending MokListTrustedNew \(mokutil --trust-mok\): once confirmed at the console, lets the kernel trust MOK keys in its machine keyring \(MokListTrusted set\)" \
	"a pending mokutil --trust-mok is said (the recorded vector)" "$s"
# --untrust-mok: the same request with state 1 (README of the vectors: the toggle's layout)
{ printf '\x01\x00\x00\x00'; tail -c +5 "$vec/misc/MokListTrustedNew.bin"; } >"$work/untrust-mok.bin"
state "$s" && $mk var "$s/vars" MokListTrustedNew $SG 0x7 "$work/untrust-mok.bin"
expect_check 0 "pending MokListTrustedNew \(mokutil --untrust-mok\): once confirmed at the console, stops the kernel trusting MOK keys" \
	"a pending mokutil --untrust-mok is said" "$s"
state "$s" && $mk var "$s/vars" MokDB $SG 0x7 "$vec/ignore_db/MokDB.bin"
expect_check 0 "pending MokDB \(mokutil --ignore-db\): once confirmed at the console, stops trusting db for kernels \(MokDBState set\)" \
	"a pending mokutil --ignore-db is said (the recorded vector)" "$s"

# bad inputs: exit 2, naming the input; with ASan and UBSan, which must report nothing
cli=$BUILD/lockshim-san
s=$work/bad && state "$s"
printf '\x06\x00' >"$s/vars/SecureBoot-$GG"
expect_check 2 "SecureBoot-$GG: truncated" "a truncated variable" "$s"
state "$s" && printf '\x07\x00\x00\x00\x01\x00\x02' >"$s/vars/BootOrder-$GG"
expect_check 2 "BootOrder-$GG: BootOrder has an odd number of bytes" "a malformed BootOrder" "$s"
state "$s" && printf '\x07\x00\x00\x00\x01\x00\x00\x00\x40\x00' >"$s/vars/Boot0001-$GG"
expect_check 2 "Boot0001-$GG: boot option" "a malformed boot option" "$s"
# a zero-length node (here an ACPI one) before the file path: the walk stops there
state "$s" && printf '\x07\x00\x00\x00\x01\x00\x00\x00\x20\x00x\x00\x00\x00%b%b%b' \
	'\x02\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00' '\x04\x04\x10\x00a\x00.\x00e\x00f\x00i\x00\x00\x00' \
	'\x7f\xff\x04\x00' >"$s/vars/Boot0001-$GG"
expect_check 2 "Boot0001-$GG: device path node has a bad length" "a boot option with a zero-length node" "$s"
state "$s" && chmod 000 "$s/esp/EFI"
if [[ $(id -u) -ne 0 ]]; then
	expect_check 2 "esp/EFI: Permission denied" "an unreadable ESP" "$s"
else
	rm -rf "$s/esp" && printf x >"$s/esp"
	expect_check 2 "bad/esp: Not a directory" "an ESP that is not a directory" "$s"
fi
chmod 755 "$s/esp/EFI" 2>/dev/null
state "$s" && $mk var "$s/vars" MokListRT $SG 0x27 "$pki/vendor.esl"
expect_check 2 "MokListRT-$SG: attributes 0x27, not a loader's mirror" \
	"a MokListRT the OS wrote (not volatile BS|RT) is no answer" "$s"
# only the firmware writes SecureBoot and dbx, with its attributes, and a
# loader the mirrors: a copy with others is not a machine's (NAME GUID WRITER'S)
for planted in "SecureBoot $GG 0x6" "dbx $DG 0x27" "MokSBStateRT $SG 0x6"; do
	read -r name guid attributes <<<"$planted"
	state "$s" && $mk byte "$s/vars" "$name" "$guid" 0x7 1
	expect_check 2 "$name-$guid: attributes 0x7, not (the firmware's $attributes|a loader's mirror)" \
		"a $name with other attributes than its writer's is no answer" "$s"
done
state "$s"
head -c 20 "$pki/vendor.esl" >"$work/short.esl"
expect_check 2 "short.esl: malformed update" "a malformed dbx update" "$s" --dbx-update "$work/short.esl"
printf 'sbat,1,x\n' >"$work/bad-level.csv"
expect_check 2 "bad-level.csv: not a usable SbatLevel" "a malformed SbatLevel" "$s" --sbat-level "$work/bad-level.csv"
expect_check 2 "rogue.der: not in MokList" "--mok-delete of a key not enrolled" "$s" --mok-delete "$pki/rogue.der"
# The fallback (boot_plan.h): lockshim at the removable path, no boot
# option, \EFI\Acme\BOOTX64.CSV. check runs the plan as lockshim does: the
# CSV's files decided by lockshim's policy, the first option the next stage.
csv() { # OUT TEXT: TEXT as UCS-2, as distributions write BOOTX64.CSV
	python3 -c 'import sys; open(sys.argv[1], "wb").write(sys.argv[2].encode("utf-16-le"))' "$@"
}
fallback_state() { # DIR KERNEL-KEY CSV-TEXT
	rm -rf "$1" && mkdir -p "$1/vars" "$1/esp/EFI/BOOT" "$1/esp/EFI/Acme" "$1/boot"
	cp "$template"/vars/{SecureBoot,SetupMode}-$GG "$template/vars/db-$DG" "$1/vars/"
	cp "$work/lockshim.efi" "$1/esp/EFI/BOOT/BOOTX64.EFI"
	cp "$work/lockshim.efi" "$1/esp/EFI/Acme/lockshimx64.efi"
	cp "$work/kernel-$2.efi" "$1/esp/EFI/Acme/vmlinuz.efi"
	csv "$1/esp/EFI/Acme/BOOTX64.CSV" "$3"
}
s=$work/fallback
fallback_state "$s" vendor $'vmlinuz.efi,Acme,root=/dev/vda,the kernel itself\n'
expect_check 0 'removable \\EFI\\BOOT\\BOOTX64.EFI: boots: it boots \\EFI\\Acme\\vmlinuz.efi' \
	"the fallback's option boots: predicted from the CSV" "$s"
expect_check 0 'allowed \\EFI\\Acme\\vmlinuz.efi \(fallback \(\\EFI\\Acme\\BOOTX64.CSV\)\): reason=allowed-cert list=vendor.*allowed \\EFI\\Acme\\vmlinuz.efi \(fallback.s boot option\)' \
	"the CSV's file is decided by lockshim's policy, then started as the next stage" "$s"
fallback_state "$s" db $'vmlinuz.efi,Acme,,db-signed\n'
$mk byte "$s/vars" MokIgnoreDB $SG 0x6 1
expect_check 1 'refused \\EFI\\Acme\\vmlinuz.efi \(fallback \(\\EFI\\Acme\\BOOTX64.CSV\)\): reason=.*refused \\EFI\\BOOT\\vmlinuz.efi \(default loader\): reason=missing' \
	"a db-signed kernel under MokDBState: the fallback creates nothing, lockshim goes on without it" "$s"
rm "$s/vars/MokIgnoreDB-$SG"
expect_check 0 'removable \\EFI\\BOOT\\BOOTX64.EFI: boots: it boots \\EFI\\Acme\\vmlinuz.efi' \
	"the same db-signed kernel while db is trusted" "$s"
fallback_state "$s" vendor $'lockshimx64.efi,Acme,vmlinuz.efi,as Debian names its first stage\n'
expect_check 0 'allowed \\EFI\\Acme\\lockshimx64.efi \(fallback.s boot option\).*allowed \\EFI\\Acme\\vmlinuz.efi \(load options\)' \
	"the fallback's option names lockshim: the inner lockshim's plan is followed" "$s"
fallback_state "$s" vendor $'vmlinuz.efi,Acme,,x\n'
mkdir -p "$s/esp/EFI/Zed" && csv "$s/esp/EFI/Zed/BOOTX64.CSV" $'missing.efi,Zed,,x\n'
expect_check 0 'refused \\EFI\\Zed\\missing.efi \(fallback \(\\EFI\\Zed\\BOOTX64.CSV\)\): reason=missing' \
	"a CSV naming a missing file is not taken; the other still is" "$s"

run_cli check --efivars "$s/no-such-dir" --esp "$s/esp"
[[ $rc -eq 2 && $out =~ "no-such-dir: No such file" ]] && ok "check: a missing efivars copy is named" ||
	not_ok "check: missing efivars copy ($out)"
run_cli check --efivars "$s/vars"
[[ $rc -eq 2 && $out =~ "without --esp" ]] && ok "check: --efivars alone is refused" || not_ok "check: --efivars alone ($out)"

exit $failed
