#!/usr/bin/env bash
# build/lockshim check as the firmware's boot manager runs the next boot
# (src/core/boot_manager.h): BootNext first, then BootOrder, an option that
# is not started or returns passing the boot on, the removable path last;
# the exit status says where that boot ends (0 a kernel, 1 will not boot,
# 3 cannot tell). Then hostile files where an image is expected: each is
# that image's verdict, never a wait, and the report goes on.
#
# The machine: Secure Boot with the test db, lockshim signed by db at
# \EFI\lockshim\ (Boot0001) and at \EFI\backup\ (Boot0002), each with the
# vendor-signed kernel as its default loader; BootOrder 1, 2. The stand-in
# for fwupdx64.efi, memtest86 or Windows Boot Manager: an allowed image
# that is neither a kernel nor a second stage check knows (the MOK manager
# without its .sbat, so that nothing names it).
set -uo pipefail
cd "$(dirname "$0")/../.."

. tests/cli/lib.sh
work=$BUILD/check-firmware-test
mk="python3 tests/cli/mkefivars.py"
GG=8be4df61-93ca-11d2-aa0d-00e098032b8c
DG=d719b2cb-3d3a-4596-a3bc-dad00e67656f
SG=605dab50-e046-4300-abb6-3dd810dd8b23

rm -rf "$work" && mkdir -p "$work"
[[ -f $BUILD/lockshimx64.efi && -f $BUILD/mmx64.efi ]] || { not_ok "check-firmware: run make first"; exit 1; }
kernel=$(tests/qemu/debian-kernel.sh "$work/vmlinuz-debian") || { not_ok "check-firmware: no Debian kernel"; exit 1; }
grub_dir=$(tests/qemu/debian-package.sh grub-efi-amd64-signed \
	usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed) || { not_ok "check-firmware: no Debian GRUB"; exit 1; }

sign db "$BUILD/lockshimx64.efi" "$work/lockshim.efi"
sign vendor "$kernel" "$work/kernel-vendor.efi"
sign rogue "$kernel" "$work/kernel-rogue.efi"
objcopy --remove-section .sbat --remove-section .sbatlevel "$BUILD/mmx64.efi" "$work/plain.efi"
sign db "$work/plain.efi" "$work/standin-db.efi"
# lockshim starts only an image with a .sbat: one of a component nothing revokes
printf 'sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\nmemtest86plus,1,Memtest86+,memtest86plus,7,https://memtest.org\n' >"$work/memtest.csv"
build/lockshim add-sbat "$work/memtest.csv" "$work/plain.efi" "$work/memtest-unsigned.efi" >/dev/null &&
	sign vendor "$work/memtest-unsigned.efi" "$work/standin-vendor.efi"

template=$work/template
mkdir -p "$template/vars" "$template/esp/EFI/lockshim" "$template/esp/EFI/backup" "$template/boot"
$mk byte "$template/vars" SecureBoot $GG 0x6 1
$mk byte "$template/vars" SetupMode $GG 0x6 0
$mk var "$template/vars" db $DG 0x27 "$pki/db.esl"
$mk order "$template/vars" 1 2
$mk option "$template/vars" 1 lockshim '\EFI\lockshim\lockshimx64.efi'
$mk option "$template/vars" 2 backup '\EFI\backup\lockshimx64.efi'
for d in lockshim backup; do
	cp "$work/lockshim.efi" "$template/esp/EFI/$d/lockshimx64.efi"
	cp "$work/kernel-vendor.efi" "$template/esp/EFI/$d/vmlinuz.efi"
done
state() { rm -rf "$1" && cp -a "$template" "$1"; }
boot_next() { # DIR NUM: BootNext as efibootmgr -n writes it (NV|BS|RT)
	printf "\\x$(printf %02x $(($2 & 0xff)))\\x$(printf %02x $(($2 >> 8)))" >"$work/bootnext.bin"
	$mk var "$1/vars" BootNext $GG 0x7 "$work/bootnext.bin"
}
check() { run_cli check --efivars "$1/vars" --esp "$1/esp" --boot "$1/boot" "${@:2}"; }
# expect_check CODE REGEX NAME DIR ARGS...: within 10 s (a wait fails), exit CODE, output matching REGEX
expect_check() {
	local code=$1 regex=$2 name=$3
	shift 3
	out=$(timeout 10 "$cli" check --efivars "$1/vars" --esp "$1/esp" --boot "$1/boot" "${@:2}" 2>&1)
	rc=$?
	if [[ $rc -eq $code && $out =~ $regex ]]; then ok "check-firmware: $name"; else
		not_ok "check-firmware: $name (exit $rc: $out)"; fi
}
booted='boots: it boots \\EFI\\backup\\vmlinuz.efi.*next boot: boots at Boot0002'

s=$work/base && state "$s"
expect_check 0 'Boot0001 "lockshim": boots.*next boot: boots at Boot0001: it boots \\EFI\\lockshim\\vmlinuz.efi' \
	"the first option boots: the next boot ends there" "$s"

# each way the first option falls through: the second boots, exit 0
$mk option "$s/vars" 1 lockshim '\EFI\lockshim\lockshimx64.efi' --inactive
expect_check 0 "Boot0001 \"lockshim\": does not boot: inactive: the firmware skips it \\(the firmware goes on\\).*$booted" \
	"the first option inactive: the second boots" "$s"
$mk option "$s/vars" 1 lockshim '\EFI\lockshim\lockshimx64.efi' --app
expect_check 0 "Boot0001 \"lockshim\": does not boot: an application, not of the boot category: the firmware skips it.*$booted" \
	"the first option of the application category (OVMF's UiApp): the second boots" "$s"
state "$s" && rm "$s/esp/EFI/lockshim/lockshimx64.efi"
expect_check 0 "Boot0001 \"lockshim\": does not boot: \\\\EFI\\\\lockshim\\\\lockshimx64.efi does not exist \\(the firmware goes on\\).*$booted" \
	"the first option's file missing: the second boots" "$s"
state "$s" && $mk order "$s/vars" 5 2
expect_check 0 "Boot0005: does not boot: no Boot0005: the firmware goes on.*$booted" \
	"BootOrder naming an option that does not exist: the next one boots" "$s"
state "$s" && cp "$BUILD/lockshimx64.efi" "$s/esp/EFI/lockshim/lockshimx64.efi"
expect_check 0 "refused \\\\EFI\\\\lockshim\\\\lockshimx64.efi \\(first stage\\): reason=not-signed.*$booted" \
	"the first option refused by the firmware (db): the second boots" "$s"
state "$s" && cp "$work/kernel-rogue.efi" "$s/esp/EFI/lockshim/rogue.efi"
$mk option "$s/vars" 1 lockshim '\EFI\lockshim\lockshimx64.efi' 'rogue.efi'
expect_check 0 "refused \\\\EFI\\\\lockshim\\\\rogue.efi \\(load options\\): reason=untrusted-signer.*$booted" \
	"the first option's kernel refused by lockshim, which returns: the second boots" "$s"

# will not boot: every option falls through, the removable path too
$mk order "$s/vars" 1
expect_check 1 "removable .*does not boot.*next boot: will not boot: every option falls through" \
	"every option falls through: will not boot, exit 1" "$s"
# BootNext is tried first: it names Boot0002, outside BootOrder
boot_next "$s" 2
expect_check 0 '^Boot0002 "backup" \(BootNext\): boots.*Boot0001 "lockshim": does not boot.*next boot: boots at Boot0002' \
	"BootNext's option is tried first, before BootOrder's" "$s"
# one the firmware cannot take (not 2 bytes) it deletes unused: so does check
printf '\x02\x00\x00' >"$work/bootnext-bad.bin" && $mk var "$s/vars" BootNext $GG 0x7 "$work/bootnext-bad.bin"
expect_check 1 "BootNext-$GG: BootNext is not one option number.*the firmware deletes it.*next boot: will not boot" \
	"a malformed BootNext is said and not tried" "$s"

# an allowed image check does not follow: "starts, not followed", never
# "does not boot"; where the next boot ends there, exit 3 (cannot tell)
state "$s" && mkdir -p "$s/esp/EFI/fwupd" && cp "$work/standin-db.efi" "$s/esp/EFI/fwupd/fwupdx64.efi"
$mk option "$s/vars" 3 'Linux Firmware Updater' '\EFI\fwupd\fwupdx64.efi'
$mk order "$s/vars" 1 2 3
expect_check 0 'Boot0003 "Linux Firmware Updater": starts, not followed: starts \\EFI\\fwupd\\fwupdx64.efi, not followed.*next boot: boots at Boot0001' \
	"an allowed stand-in image in BootOrder: starts, not followed; the first option still boots" "$s"
boot_next "$s" 3
expect_check 3 '^Boot0003 "Linux Firmware Updater" \(BootNext\): starts, not followed.*next boot: cannot tell at Boot0003' \
	"BootNext naming a fwupdx64.efi-like allowed image: starts, not followed, exit 3" "$s"
out=$(timeout 10 "$cli" check --efivars "$s/vars" --esp "$s/esp" --json 2>&1)
if python3 -c '
import json, sys
d = json.loads(sys.argv[1])
e = d["entries"]
assert [x["option"] for x in e] == ["Boot0003", "Boot0001", "Boot0002", "Boot0003", "removable"], e
assert e[0]["boot_next"] is True and e[0]["outcome"] == "not-followed" and e[0]["boots"] is False, e[0]
assert e[1]["boot_next"] is False and e[1]["outcome"] == "boots" and e[1]["boots"] is True, e[1]
assert e[4]["outcome"] == "falls-through", e[4]
assert d["next_boot"] == {"result": "cannot-tell", "option": "Boot0003", "why": e[0]["why"]}, d["next_boot"]
' "$out"; then ok "check-firmware: --json: BootNext first, each option's outcome, the next boot's result"
else not_ok "check-firmware: --json BootNext ($out)"; fi
cp "$work/plain.efi" "$s/esp/EFI/fwupd/fwupdx64.efi"
expect_check 0 'Boot0003 "Linux Firmware Updater" \(BootNext\): does not boot: .*reason=not-signed.*next boot: boots at Boot0001' \
	"BootNext naming an image the firmware refuses: it falls through to BootOrder" "$s"
state "$s" && cp "$work/standin-vendor.efi" "$s/esp/EFI/lockshim/memtest.efi"
$mk option "$s/vars" 1 lockshim '\EFI\lockshim\lockshimx64.efi' 'memtest.efi'
expect_check 3 'allowed \\EFI\\lockshim\\memtest.efi \(load options\).*Boot0001 "lockshim": starts, not followed|Boot0001 "lockshim": starts, not followed: starts \\EFI\\lockshim\\memtest.efi.*next boot: cannot tell at Boot0001' \
	"lockshim starting an allowed image it does not know: cannot tell, exit 3" "$s"

# hostile files where lockshim's kernel is expected: each one that image's
# verdict within 10 s, the boot going on to Boot0002
hostile() { # NAME MAKE-COMMAND REASON-REGEX
	local s=$work/hostile-$1
	state "$s"
	(cd "$s/esp/EFI/lockshim" && eval "$2")
	$mk option "$s/vars" 1 lockshim '\EFI\lockshim\lockshimx64.efi' "$1.efi"
	expect_check 0 "refused \\\\EFI\\\\lockshim\\\\$1.efi \\(load options\\): reason=$3.*$booted" \
		"$1 where the kernel is expected: a verdict, the boot goes on" "$s"
}
cli=$BUILD/lockshim-san
hostile fifo 'mkfifo fifo.efi' 'unreadable: a FIFO'
hostile sparse 'truncate -s 2G sparse.efi' 'unreadable: too large: 2147483648 bytes'
hostile loop 'ln -s loop.efi loop.efi' 'unreadable: a loop of symbolic links'
hostile dangling 'ln -s nowhere.efi dangling.efi' 'missing: a dangling symbolic link'
hostile dir 'mkdir dir.efi' 'unreadable: a directory'
# a FIFO as the first stage: the firmware cannot load it either
s=$work/fifo-first && state "$s" && rm "$s/esp/EFI/lockshim/lockshimx64.efi" && mkfifo "$s/esp/EFI/lockshim/lockshimx64.efi"
expect_check 0 "refused \\\\EFI\\\\lockshim\\\\lockshimx64.efi \\(first stage\\): reason=unreadable: a FIFO.*$booted" \
	"a FIFO as the first stage: the firmware's verdict, the next option boots" "$s"
# a variable of the efivarfs copy that is a FIFO: no answer (exit 2), never a wait
s=$work/fifo-var && state "$s" && mkfifo "$s/vars/dbx-$DG"
expect_check 2 "dbx-$DG: a FIFO" "a FIFO among the variables: said, exit 2, no wait" "$s"
# memory: a 2 GiB file is refused by its size before any byte is read (the
# run stays inside a 600 MB address space; read whole it would not)
s=$work/hostile-sparse
out=$( (ulimit -v 600000 && timeout 10 "$BUILD/lockshim" check --efivars "$s/vars" --esp "$s/esp") 2>&1)
rc=$?
[[ $rc -eq 0 && $out =~ "reason=unreadable: too large" ]] &&
	ok "check-firmware: a 2 GiB file costs no memory: refused by its size" ||
	not_ok "check-firmware: 2 GiB file under a 600 MB limit (exit $rc: $out)"

# the same in GRUB's entries that are not the default: each its entry's
# verdict, the default entry still boots
s=$work/grub && state "$s"
cp "$grub_dir/grubx64.efi.signed" "$s/esp/EFI/lockshim/grubx64.efi"
python3 tests/cli/mkesl.py SHA256 "$work/grub-hash.esl" "$("$cli" hash "$s/esp/EFI/lockshim/grubx64.efi")"
$mk var "$s/vars" MokListRT $SG 0x6 "$work/grub-hash.esl"
$mk option "$s/vars" 1 lockshim '\EFI\lockshim\lockshimx64.efi' 'grubx64.efi'
mkdir -p "$s/esp/boot" && cp "$work/kernel-vendor.efi" "$s/esp/boot/vmlinuz"
{
	printf "menuentry 'Debian' {\n\tlinux /boot/vmlinuz root=/dev/sda2\n}\n"
	for k in fifo sparse loop dangling dir; do printf "menuentry '%s' {\n\tlinux /boot/%s\n}\n" $k $k; done
} >"$s/esp/EFI/lockshim/grub.cfg"
(cd "$s/esp/boot" && mkfifo fifo && truncate -s 2G sparse && ln -s loop loop && ln -s nowhere dangling && mkdir dir)
expect_check 0 "refused \\(ESP\\)/boot/fifo \\(entry 'fifo'\\): reason=unreadable id='fifo': a FIFO.*reason=unreadable id='sparse': too large.*reason=unreadable id='loop': a loop of symbolic links.*reason=missing id='dangling': a dangling symbolic link.*reason=unreadable id='dir': a directory.*next boot: boots at Boot0001: GRUB's default entry boots \\(ESP\\)/boot/vmlinuz" \
	"hostile files in GRUB's other entries: each a verdict, the default entry boots" "$s"

exit $failed
