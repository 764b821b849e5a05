#!/usr/bin/env bash
# The firmware's boot manager as `lockshim check` predicts it
# (src/core/boot_manager.h), held against OVMF: options that are not
# started or return pass the boot on to the next one.
#
#   check_falls_through  BootOrder 4, 1, 2, 3 of one store:
#                          Boot0004 "lockshim-refuses"  lockshim naming the
#                              rogue-signed kernel: lockshim refuses it
#                              and returns;
#                          Boot0001 "unsigned"  an unsigned lockshim: the
#                              firmware refuses it (OVMF 2022.11's LoadImage
#                              says Access Denied for an image db does not
#                              allow, Security Violation for one that
#                              returns refused, as lockshim does above);
#                          Boot0002 "inactive"  lockshim and a good kernel,
#                              not active: never loaded;
#                          Boot0003 "debian"    lockshim and the
#                              vendor-signed kernel: it boots.
#       `lockshim check --json` on a copy of the same variables and ESP
#       says so before the boot (exit 0, the next boot at Boot0003); the
#       boot must show each of Boot0004, Boot0001 and Boot0003 as predicted
#       (tests/qemu/check_boots.py), Boot0002 never loaded, and the kernel
#       started by Boot0003 alone.
#
# Environment: LOCKSHIM_EFI, QEMU_TIMEOUT, BOOT_TEE as for test_boot.sh.

# shellcheck source=tests/qemu/boot.sh
. "$(dirname "${BASH_SOURCE[0]}")/boot.sh" # cds to the repository

SCENARIOS=(
	check_falls_through
)

FW_WORK=$QEMU_BUILD/check-firmware
GLOBAL_GUID=8be4df61-93ca-11d2-aa0d-00e098032b8c
SECDB_GUID=d719b2cb-3d3a-4596-a3bc-dad00e67656f
FW_VARS=
# NUM:DESCRIPTION:FIRST-STAGE:LOAD-OPTIONS[:inactive], in BootOrder's order
FW_OPTIONS=(
	'4:lockshim-refuses:\EFI\lockshim\lockshimx64.efi:rogue.efi console=ttyS0 panic=-1'
	'1:unsigned:\EFI\unsigned\lockshimx64.efi:debian.efi console=ttyS0 panic=-1'
	'2:inactive:\EFI\lockshim\lockshimx64.efi:debian.efi console=ttyS0 panic=-1:inactive'
	'3:debian:\EFI\lockshim\lockshimx64.efi:debian.efi console=ttyS0 panic=-1'
)

mkefivars() { python3 tests/cli/mkefivars.py "$@"; }

firmware_prepare() {
	boot_prepare
	[[ -z $PREP_ERROR && -z $LOCKSHIM_MISSING ]] || return 0
	local w=$FW_WORK o n desc path opts state vars=() order=()
	rm -rf "$w" && mkdir -p "$w/copy/vars" "$w/copy/esp/EFI/lockshim" "$w/copy/esp/EFI/unsigned"
	# the ESP, as a FAT image for the boot and as a directory for check
	local -a files=("$BOOT_WORK/lockshim-db.efi" EFI/lockshim/lockshimx64.efi
		"$BOOT_WORK/lockshim-unsigned.efi" EFI/unsigned/lockshimx64.efi
		"$BOOT_WORK/companion-vendor.efi" EFI/lockshim/debian.efi
		"$BOOT_WORK/kernel-rogue.efi" EFI/lockshim/rogue.efi)
	_prep "the ESP" make_esp "$w/esp.img" "${files[@]}" || return 0
	for ((n = 0; n < ${#files[@]}; n += 2)); do
		cp "${files[n]}" "$w/copy/esp/${files[n + 1]}" || { PREP_ERROR="copy ${files[n]}"; return 0; }
	done
	# the variables: Boot#### in the store and in the copy, the same
	_prep "efivars copy" mkefivars byte "$w/copy/vars" SecureBoot $GLOBAL_GUID 0x6 1 &&
		_prep "efivars copy" mkefivars byte "$w/copy/vars" SetupMode $GLOBAL_GUID 0x6 0 &&
		_prep "efivars copy" mkefivars var "$w/copy/vars" db $SECDB_GUID 0x27 "$PKI/db.esl" || return 0
	for o in "${FW_OPTIONS[@]}"; do
		IFS=: read -r n desc path opts state <<<"$o"
		_prep "Boot000$n" python3 tests/qemu/mkloadoption.py "$w/Boot000$n.bin" "$desc" "$path" "$opts" ||
			return 0
		local flag=()
		if [[ $state == inactive ]]; then # attributes 0: LOAD_OPTION_ACTIVE clear
			printf '\x00' | dd of="$w/Boot000$n.bin" bs=1 seek=0 conv=notrunc status=none
			flag=(--inactive)
		fi
		_prep "efivars copy: Boot000$n" mkefivars option "$w/copy/vars" "$n" "$desc" "$path" "$opts" "${flag[@]}" ||
			return 0
		vars+=(--var "Boot000$n:$GLOBAL_GUID:0x7:$w/Boot000$n.bin")
		order+=("$n")
	done
	_prep "efivars copy: BootOrder" mkefivars order "$w/copy/vars" "${order[@]}" || return 0
	: >"$w/BootOrder.bin"
	for n in "${order[@]}"; do printf "\\x0$n\\x00" >>"$w/BootOrder.bin"; done
	FW_VARS=$(tests/qemu/vars.sh --variant check-firmware "${vars[@]}" \
		--var "BootOrder:$GLOBAL_GUID:0x7:$w/BootOrder.bin" "$PKI" 2>>"$PREP_LOG") ||
		{ PREP_ERROR="tests/qemu/vars.sh --variant check-firmware failed: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"; return 0; }
}

check_falls_through() {
	local w=$FW_WORK rc
	# the prediction, before the boot, from the copy
	build/lockshim check --efivars "$w/copy/vars" --esp "$w/copy/esp" --json >"$w/prediction.json"
	rc=$?
	[[ $rc == 0 ]] || { echo "FAIL: check predicts exit $rc, not 0 (the next boot at Boot0003)" >&2; return 1; }
	python3 - "$w/prediction.json" <<'PY' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
got = [(e["option"], e["outcome"]) for e in d["entries"]]
want = [("Boot0004", "falls-through"), ("Boot0001", "falls-through"), ("Boot0002", "falls-through"),
        ("Boot0003", "boots"), ("removable", "falls-through")]
if got != want or d["next_boot"]["option"] != "Boot0003":
    sys.exit(f"FAIL: check predicted {got}, next boot {d['next_boot']}; want {want}, Boot0003")
PY
	cp "$FW_VARS" "$w/boot.fd" || return 1
	local -a tee=()
	(( BOOT_TEE )) && tee=(--tee)
	run_qemu --esp "$w/esp.img" --vars "$w/boot.fd" --log "$BOOT_LOGS/check-firmware.log" \
		--timeout "$QEMU_TIMEOUT" --stop 'Linux version [0-9]' --stop "$CRASH" \
		--stop 'No bootable option' "${tee[@]}"
	qemu_outcome check-firmware || return 1
	expect_order 'BdsDxe: failed to (load|start) Boot0004 "lockshim-refuses".*Security Violation' \
		'BdsDxe: loading Boot0001 "unsigned"' &&
		expect_order 'BdsDxe: failed to load Boot0001 "unsigned".*: Access Denied' \
			'BdsDxe: loading Boot0003 "debian"' &&
		expect_no_log -F 'BdsDxe: loading Boot0002' || return 1
	python3 tests/qemu/check_boots.py "$w/prediction.json" "$BOOT_LOGS/check-firmware.log" \
		Boot0004 Boot0001 Boot0003
}

scenario_main firmware_prepare "$@"
