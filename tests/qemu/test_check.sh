#!/usr/bin/env bash
# `lockshim check` on a live machine, and its predictions held against real
# boots: the command runs inside a Debian guest (Debian's kernel, efivarfs,
# the MokVar table, the ESP mounted from the guest's disk at /boot/efi)
# booted through lockshim under Secure Boot; every option is then booted for
# real, today and after each what-if has been applied as root applies it,
# and each prediction must equal what the boot did.
#
#   tests/qemu/test_check.sh [SCENARIO...]     (default: all)
#
# The machine (check_prepare): Secure Boot with the test PKI, MokList
# holding the MOK key, lockshim signed by db at \EFI\lockshim\, and
#   Boot0001 "debian"  Debian's kernel, vendor-signed (.sbat: linux 1,
#                      linux.debian 1), with the check guest as its initrd
#   Boot0002 "mok"     the companion kernel signed by the MOK key
#   Boot0003 "rogue"   the companion kernel signed by the rogue key
# BootOrder 1, 2, 3. Each boot below tries options in an order set offline
# (mkdmpstore.py --set, as `efibootmgr -o` would set it from the OS): every
# option refused on the way is checked in the same boot, and it ends with
# the first that boots.
#
#   check_live_predictions
#     S0  boot 1 (1): the guest runs `lockshim check` (today) and
#         `--dbx-update dbx-update.auth` (the MOK-signed companion's digest,
#         an append signed by KEK, as dbxtool's updates are), then applies
#         that update through efivarfs.                      -> S1
#         boot 2, a copy of the store before boot 1 (3, 2): refused, boots.
#     S1  boot 3 (2, 3, 1): refused, refused, the guest: with the ESP
#         mounted where only its /dev/disk/by-partuuid link (the
#         LoaderDevicePartUUID lockshim set) leads, it installs a
#         lockshim update whose latest SBAT level says linux.debian 2, runs
#         `check --sbat-level latest`, and writes SbatPolicy latest (as
#         `mokutil --set-sbat-policy latest` does).          -> S2
#     S2  boot 4 (2, 3, 1): refused three times; nothing boots.
#   Each option's prediction (tests/qemu/check_boots.py) is compared with
#   its boot: whether the kernel ran, and lockshim's verdict record for each
#   image of the chain (verdict, image, reason, list, entry).
#
# Environment: LOCKSHIM_EFI, QEMU_TIMEOUT, BOOT_TEE as for test_boot.sh.

# shellcheck source=tests/qemu/boot.sh
. "$(dirname "${BASH_SOURCE[0]}")/boot.sh" # cds to the repository

SCENARIOS=(
	check_live_predictions
)

CHECK_WORK=$QEMU_BUILD/check
GLOBAL_GUID=8be4df61-93ca-11d2-aa0d-00e098032b8c
SHIM_GUID=605dab50-e046-4300-abb6-3dd810dd8b23
SECDB_GUID=d719b2cb-3d3a-4596-a3bc-dad00e67656f
CHECK_OPTIONS=(1:debian:debian.efi 2:mok:mok.efi 3:rogue:rogue.efi)
CHECK_VARS=
# the ESP's partition on the machine's GPT disk (LoaderDevicePartUUID)
CHECK_PARTUUID=0c4e5a1d-5e5f-4c0c-9d1a-6c6f636b7368
# the lockshim update's latest SBAT level: lockshim's latest carried
# forward under the next datestamp, with linux.debian 2
CHECK_NEXT_DATE=$(($(sed -n '1s/^sbat,[0-9]*,\([0-9]*\).*/\1/p' certs/sbat-level-latest.csv) + 1))
# the kernel of an option that boots has started: the stop of every boot
# but the guest's
KERNEL_STARTED='Linux version [0-9]'

check_prepare() {
	boot_prepare
	[[ -z $PREP_ERROR && -z $LOCKSHIM_MISSING ]] || return 0
	local w=$CHECK_WORK
	rm -rf "$w" && mkdir -p "$w/data"
	{ echo "sbat,1,$CHECK_NEXT_DATE"; tail -n +2 certs/sbat-level-latest.csv; echo linux.debian,2; } \
		>"$w/level-next.csv"
	echo s1 >"$w/phase-s1"
	_prep "rogue-signed companion kernel" sign_efi rogue "$BOOT_WORK/companion-unsigned.efi" "$w/rogue.efi" &&
		_prep "lockshim update (make variant)" tests/make-locked.sh -s variant VARIANT="$w/next" \
			VARIANT_CERT="$PKI/vendor.der" VARIANT_SBAT_LEVEL_LATEST="$w/level-next.csv" &&
		_prep "db-signed lockshim update" sign_efi db "$w/next/lockshimx64.efi" "$w/data/lockshimx64-next.efi" &&
		_prep "dbx update: the MOK-signed companion's digest" \
			hash-to-efi-sig-list "$BOOT_WORK/companion-mok.efi" "$w/dbx-update.esl" &&
		_prep "dbx update signed by KEK, an append" sign-efi-sig-list -a -t '2026-12-01 00:00:00' \
			-k "$PKI/KEK.key" -c "$PKI/KEK.crt" dbx "$w/dbx-update.esl" "$w/data/dbx-update.auth" ||
		return 0
	# what root writes to efivarfs: the attributes, then the data
	# (NV|BS|RT|time-based authenticated|append = 0x67; NV|BS|RT = 0x7)
	{ printf '\x67\x00\x00\x00'; cat "$w/data/dbx-update.auth"; } >"$w/data/dbx-update.var"
	printf '\x07\x00\x00\x00\x01' >"$w/data/SbatPolicy-latest.var" # 1: latest

	local o n desc file vars=() order=
	for o in "${CHECK_OPTIONS[@]}"; do
		IFS=: read -r n desc file <<<"$o"
		local opts="$file console=ttyS0 panic=-1"
		[[ $n == 1 ]] && opts="$file initrd=\\boot\\check-guest.img console=ttyS0 panic=-1"
		_prep "Boot000$n" python3 tests/qemu/mkloadoption.py "$w/Boot000$n.bin" "$desc" \
			'\EFI\lockshim\lockshimx64.efi' "$opts" || return 0
		vars+=(--var "Boot000$n:$GLOBAL_GUID:0x7:$w/Boot000$n.bin")
		order+="$n "
	done
	boot_order_file "$w/BootOrder.bin" $order
	CHECK_VARS=$(tests/qemu/vars.sh --variant check-live "${vars[@]}" \
		--var "BootOrder:$GLOBAL_GUID:0x7:$w/BootOrder.bin" \
		--var "MokList:$SHIM_GUID:0x3:$PKI/mok.esl" "$PKI" 2>>"$PREP_LOG") ||
		{ PREP_ERROR="tests/qemu/vars.sh --variant check-live failed: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"; return 0; }

	# The guest: Debian's kernel, its virtio, FAT and efivarfs modules,
	# Debian's chattr (efivarfs makes dbx immutable) and bootctl (systemd
	# 252, the systemd-boot package), and lockshim's CLI.
	local bootctl
	bootctl=$(tests/qemu/debian-package.sh systemd-boot usr/bin/bootctl 2>>"$PREP_LOG") ||
		{ PREP_ERROR="tests/qemu/debian-package.sh systemd-boot failed"; return 0; }
	_prep "check guest initramfs" tests/initramfs/mokutil-guest.sh \
		--module virtio_pci --module virtio_blk --module vfat --module nls_cp437 --module nls_ascii \
		--bin build/lockshim --bin /usr/bin/chattr --bin "$bootctl/bootctl" \
		--add "$w/data/dbx-update.auth:/data/dbx-update.auth" \
		--add "$w/data/dbx-update.var:/data/dbx-update.var" \
		--add "$w/data/lockshimx64-next.efi:/data/lockshimx64-next.efi" \
		--add "$w/data/SbatPolicy-latest.var:/data/SbatPolicy-latest.var" \
		--steps tests/qemu/check-guest.sh "$w/guest-s0.img" &&
		_prep "check guest initramfs, boot 2" tests/initramfs/mokutil-guest.sh --base "$w/guest-s0.img" \
			--add "$w/phase-s1:/data/phase" --steps tests/qemu/check-guest.sh "$w/guest-s1.img" &&
		_prep "the machine's disk (GPT, its ESP)" gpt_disk "$w/esp-s0.img" "$CHECK_PARTUUID" \
			"$BOOT_WORK/lockshim-db.efi" EFI/lockshim/lockshimx64.efi \
			"$BOOT_WORK/kernel-vendor.efi" EFI/lockshim/debian.efi \
			"$BOOT_WORK/companion-mok.efi" EFI/lockshim/mok.efi \
			"$w/rogue.efi" EFI/lockshim/rogue.efi \
			"$w/guest-s0.img" boot/check-guest.img
}

# boot_order_file OUT N...: BootOrder's data, Boot000N in that order.
boot_order_file() {
	local out=$1 n
	shift
	: >"$out"
	for n in "$@"; do printf "\\x0$n\\x00" >>"$out"; done
}

# check_boot NAME VARS ESP ORDER STOP...: one boot of copies of VARS and
# ESP (kept as NAME.fd, NAME.img: what the boot wrote), with BootOrder set
# to ORDER ("4 2": Boot0004, then Boot0002) when it is not empty.
# CHECK_FIRMWARE_ONLY=1: no OS runs in this boot (run_qemu --firmware-only).
check_boot() {
	local name=$1 vars=$2 esp=$3 order=$4; shift 4
	local w=$CHECK_WORK
	cp "$vars" "$w/$name.fd" && cp "$esp" "$w/$name.img" || return 1
	if [[ -n $order ]]; then
		# shellcheck disable=SC2086  # ORDER is a list of numbers
		boot_order_file "$w/$name.order" $order
		python3 tests/qemu/mkdmpstore.py --set "$w/$name.fd" \
			"BootOrder:$GLOBAL_GUID:0x7=$w/$name.order" || return 1
	fi
	# without the hypervisor bit: lockshim sets the Boot Loader Interface's
	# times only then, as systemd-boot 252 does
	# shellcheck disable=SC2054  # one QEMU argument, its commas its own
	local -a BOOT_RUN_OPTS=(-- -cpu qemu64,-hypervisor)
	(( ${CHECK_FIRMWARE_ONLY:-0} )) && BOOT_RUN_OPTS=(--firmware-only "${BOOT_RUN_OPTS[@]}")
	boot_disk "check-$name" "$w/$name.fd" "$w/$name.img" "$@"
}

# guest_boot NAME VARS ESP ORDER: a boot that ends in the guest (Boot0001),
# which must have run to its end.
guest_boot() {
	check_boot "$1" "$2" "$3" "$4" 'MOKUTIL-GUEST-DONE' || return 1
	expect_log -F 'MOKUTIL-GUEST-EFIVARFS ok' && expect_log -F 'MOKUTIL-GUEST-DONE'
}

# predictions BOOTLOG NAME [NAME...]: the guest's check --json outputs in
# BOOTLOG (CHECK-JSON NAME ...), each in $CHECK_WORK/NAME.json, valid
# against the JSON contract (docs/lockshim.schema.json).
predictions() {
	local log=$1 name
	shift
	for name in "$@"; do
		sed -n "s/^CHECK-JSON $name //p" "$log" >"$CHECK_WORK/$name.json"
		if [[ ! -s $CHECK_WORK/$name.json ]]; then
			echo "FAIL: the guest printed no check --json for $name" >&2
			return 1
		fi
		python3 tests/json_schema_check.py docs/lockshim.schema.json as check \
			"$CHECK_WORK/$name.json" >&2 || {
			echo "FAIL: the guest's check --json for $name is not the schema's" >&2
			return 1
		}
	done
}

# held PREDICTION BOOT OPTION...: each OPTION's prediction in
# PREDICTION.json equals what boot BOOT's log shows (check_boots.py).
held() {
	local pred=$1 boot=$2
	shift 2
	python3 tests/qemu/check_boots.py "$CHECK_WORK/$pred.json" "$BOOT_LOGS/check-$boot.log" "$@"
}

# expect_status_and_bootctl: in the guest's first boot, `lockshim status`
# named the kernel lockshim started and the kernel's lockdown, and Debian's
# bootctl showed lockshim as the boot loader, its ESP partition and file,
# and the firmware; the Boot Loader Interface's times are set (the CPU
# reports no hypervisor in these boots).
expect_status_and_bootctl() {
	local version lg='4a67b082-0a4c-41cf-b6c7-440b29bb8c4f'
	version=$(sed -n 's/^lockshim \([0-9][^ ]*\)$/\1/p' "$LOG" | head -n1)
	[[ -n $version ]] || { echo "FAIL: no lockshim banner in $LOG" >&2; return 1; }
	expect_log -F '| started: \EFI\lockshim\debian.efi: allowed (allowed-cert, vendor /CN=lockshim test vendor)' &&
		expect_log -F '| lockdown: lockshim asked locked (secure-boot); the kernel is at integrity' &&
		expect_log -F "|       Product: lockshim $version" &&
		expect_log -F "|           ESP: /dev/disk/by-partuuid/$CHECK_PARTUUID" &&
		expect_log -F '|          File: └─/EFI/lockshim/lockshimx64.efi' &&
		expect_log -F '|       Firmware: UEFI 2.70 (EDK II 1.00)' &&
		expect_log -F "LOADER-VAR LoaderInfo-$lg lockshim $version" &&
		expect_log -F "LOADER-VAR LoaderImageIdentifier-$lg \EFI\lockshim\lockshimx64.efi" &&
		expect_log -F "LOADER-VAR LoaderDevicePartUUID-$lg ${CHECK_PARTUUID^^}" &&
		expect_log "^LOADER-VAR LoaderTimeInitUSec-$lg [1-9][0-9]*\$" &&
		expect_log "^LOADER-VAR LoaderTimeExecUSec-$lg [1-9][0-9]*\$" || return 1
	# as lockshim starts, then as it starts the next stage: the 1 ms stall
	# that times the TSC, and the kernel's verification, lie between
	local init exec
	init=$(sed -n "s/^LOADER-VAR LoaderTimeInitUSec-$lg //p" "$LOG")
	exec=$(sed -n "s/^LOADER-VAR LoaderTimeExecUSec-$lg //p" "$LOG")
	(( exec >= init + 1000 )) || {
		echo "FAIL: LoaderTimeExecUSec $exec is not 1 ms or more after LoaderTimeInitUSec $init" >&2
		return 1
	}
	sed -n 's/^STATUS-JSON //p' "$LOG" >"$CHECK_WORK/status.json"
	python3 tests/json_schema_check.py docs/lockshim.schema.json as status "$CHECK_WORK/status.json" >&2 ||
		{ echo "FAIL: the guest's status --json is not the schema's" >&2; return 1; }
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["started"]
assert s["image"] == "\\EFI\\lockshim\\debian.efi" and s["verdict"] == "allowed", s
assert d["secure_boot"] == "enforced", d["secure_boot"]
' "$CHECK_WORK/status.json" || { echo "FAIL: lockshim status --json did not name the started kernel" >&2; return 1; }
}

# expect_live_verify: in the guest's first boot, `lockshim verify` with no
# list option read this machine's lists from efivarfs, said so, and
# answered as the boot does: the vendor-signed kernel allowed through
# MokListRT (lockshim's vendor key first in it), the MOK-signed companion
# through MokListRT, the rogue one refused, and the companion refused by
# dbx once the update is applied; -q printed nothing and exited alike.
expect_live_verify() {
	local dbx='/sys/firmware/efi/efivars/dbx-d719b2cb-3d3a-4596-a3bc-dad00e67656f'
	expect_log '^\| # db: /sys/firmware/efi/efivars/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f: [1-9][0-9]* entr' &&
		expect_log '^\| # MokList: /sys/firmware/efi/.*MokListRT.*: [2-9][0-9]* entries' &&
		expect_log -F '| allowed: /boot/efi/EFI/lockshim/debian.efi: signed by /CN=lockshim test vendor, trusted through MokList' &&
		expect_log -F 'VERIFY-RC debian 0 0' && expect_log -F 'VERIFY-RC mok 0 0' &&
		expect_log -F 'VERIFY-RC rogue 1 0' && expect_log -F 'VERIFY-RC mok-revoked 1 0' &&
		expect_log "^\\| # dbx: $dbx: [1-9][0-9]* entr" &&
		expect_log -F '| refused: /boot/efi/EFI/lockshim/mok.efi: image SHA-256 digest is in dbx'
}

check_live_predictions() {
	local w=$CHECK_WORK
	# S0: the guest's boot, then the other options
	guest_boot s0-guest "$CHECK_VARS" "$w/esp-s0.img" '' || return 1
	predictions "$LOG" today dbx || return 1
	expect_status_and_bootctl || return 1
	expect_log -F 'CHECK-RC today 0' && expect_log -F 'CHECK-RC dbx 0' &&
		expect_log -F '| after this update Boot0002 will no longer boot' &&
		expect_log -F 'CHECK-APPLIED dbx' &&
		held today s0-guest Boot0001 &&
		expect_live_verify || return 1
	check_boot s0-other "$CHECK_VARS" "$w/esp-s0.img" '3 2' "$KERNEL_STARTED" &&
		held today s0-other Boot0003 Boot0002 || return 1

	# S1: the store the guest left (the dbx update applied), the same ESP
	cp "$w/esp-s0.img" "$w/esp-s1.img" &&
		mcopy -o -i "$w/esp-s1.img@@$((2048 * 512))" "$w/guest-s1.img" ::/boot/check-guest.img || return 1
	guest_boot s1-guest "$w/s0-guest.fd" "$w/esp-s1.img" '2 3 1' || return 1
	predictions "$LOG" sbat || return 1
	# every option of BootOrder refused, OVMF's UiApp skipped (not of the boot
	# category), then OVMF's own option for the disk: not a file check can follow
	expect_log -F "ESP-BY-PARTUUID $CHECK_PARTUUID" && expect_log -F 'CHECK-RC sbat 3' &&
		expect_log -F '| next boot: cannot tell at Boot0004' &&
		expect_log -F '| after this update Boot0001 will no longer boot' &&
		expect_log -F 'CHECK-APPLIED SbatPolicy' &&
		held dbx s1-guest Boot0002 Boot0003 Boot0001 || return 1

	# S2: the SBAT update installed and asked for; every option refused
	CHECK_FIRMWARE_ONLY=1 check_boot s2 "$w/s1-guest.fd" "$w/s1-guest.img" '' 'BdsDxe: failed to start Boot0001 ' &&
		held sbat s2 Boot0002 Boot0003 Boot0001 &&
		expect_log -F "lockshim: SbatLevel $CHECK_NEXT_DATE stored"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main check_prepare "$@"
fi
