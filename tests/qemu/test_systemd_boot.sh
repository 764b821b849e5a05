#!/usr/bin/env bash
# systemd-boot as lockshim's second stage, under Secure Boot: Debian 12's
# systemd-bootx64.efi (systemd-boot-efi, signed here with the test vendor
# key) started by lockshim from a boot entry,
#
#   Boot0000 "lockshim"  \EFI\lockshim\lockshimx64.efi  "\EFI\systemd\systemd-bootx64.efi"
#
# boots what its loader.conf (`timeout 0`, `default` the one entry on the
# ESP) names. systemd-boot loads every entry with the firmware's LoadImage,
# under its own security override that asks lockshim's SHIM_LOCK Verify;
# lockshim's own override of the firmware's security protocols answers with
# the same policy. db holds only the test db key: everything below boots
# through lockshim's policy or not at all.
#
#   tests/qemu/test_systemd_boot.sh [SCENARIO...]     (default: all, in order)
#
#   sdboot_type1_mok_kernel_boots   a Type #1 entry (loader/entries/*.conf:
#                                   linux, initrd, options) whose kernel is
#                                   signed only by the MOK key (MokList
#                                   enrolled) reaches the test initramfs
#   sdboot_uki_vendor_boots         a UKI (tests/qemu/mkuki.sh: systemd's
#                                   linuxx64.efi.stub, the unsigned kernel, the
#                                   initrd, .cmdline, .osrel) signed by the
#                                   vendor key, in \EFI\Linux\, boots with its
#                                   own command line
#   sdboot_uki_unsigned_refused     the same UKI unsigned: lockshim refuses it,
#                                   systemd-boot reports the refusal, no kernel
#   sdboot_linux_then_efi_refused   a Type #1 entry with `linux` (the MOK-signed
#                                   kernel) and then `efi` (the unsigned one):
#                                   systemd-boot loads the later line's image,
#                                   lockshim refuses it, no kernel; `lockshim
#                                   check` on the same ESP and variables
#                                   predicts exactly that refusal first
#
# Environment and output as for test_boot.sh.

# shellcheck source=tests/qemu/second_stage.sh
. "$(dirname "${BASH_SOURCE[0]}")/second_stage.sh" # cds to the repository

# GRUB or systemd-boot holds the kernel and its initrd while the kernel
# decompresses itself: more memory than the default (lib.sh).
QEMU_MEMORY=512

SCENARIOS=(
	sdboot_type1_mok_kernel_boots
	sdboot_uki_vendor_boots
	sdboot_uki_unsigned_refused
	sdboot_linux_then_efi_refused
)

SDBOOT_WORK=$BOOT_WORK/systemd-boot
SDBOOT_ESP_PATH='\EFI\systemd\systemd-bootx64.efi'
SDBOOT_VARS=
TYPE1_OPTIONS='lockshim.test=sdboot-type1'
UKI_CMDLINE='lockshim.test=sdboot-uki'
UKI_OSREL=$'ID=lockshim-test\nNAME="lockshim test"\nVERSION_ID=1'

sdboot_prepare() {
	second_stage_prepare "$SDBOOT_WORK" || return 0
	local w=$SDBOOT_WORK dir
	dir=$(tests/qemu/debian-package.sh systemd-boot-efi \
		usr/lib/systemd/boot/efi/systemd-bootx64.efi \
		usr/lib/systemd/boot/efi/linuxx64.efi.stub 2>>"$PREP_LOG") ||
		{ PREP_ERROR="systemd-boot-efi (tests/qemu/debian-package.sh) failed: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"; return 0; }
	_prep "vendor-signed systemd-boot" sign_efi vendor "$dir/systemd-bootx64.efi" "$w/systemd-boot.efi" &&
		_prep "MOK-signed kernel" sign_efi mok "$BOOT_WORK/kernel-unsigned.efi" "$w/kernel-mok.efi" &&
		_prep "unsigned UKI (tests/qemu/mkuki.sh)" tests/qemu/mkuki.sh "$dir/linuxx64.efi.stub" \
			"$BOOT_WORK/kernel-unsigned.efi" build/initramfs/initrd.img "$UKI_CMDLINE" \
			"$UKI_OSREL" "$w/uki-unsigned.efi" &&
		_prep "vendor-signed UKI" sign_efi vendor "$w/uki-unsigned.efi" "$w/uki-vendor.efi" ||
		return 0
	SDBOOT_VARS=$(second_stage_vars systemd-boot "$SDBOOT_ESP_PATH" \
		"MokList:$SHIM_GUID:0x3:$PKI/mok.esl" 2>>"$PREP_LOG") ||
		PREP_ERROR="VARS with systemd-boot's boot entry failed: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"
}

# sdboot_boot NAME DEFAULT GRACE STOP... -- SRC ESPPATH...: lockshim and
# systemd-boot on the ESP with a loader.conf that boots DEFAULT (a glob of
# entry names) at once, plus the SRC files.
sdboot_boot() {
	local name=$1 default=$2 grace=$3; shift 3
	local -a stops=()
	while (( $# )) && [[ $1 != -- ]]; do
		stops+=("$1")
		shift
	done
	printf 'timeout 0\ndefault %s\neditor no\n' "$default" >"$SDBOOT_WORK/$name-loader.conf"
	second_stage_boot "$name" "$SDBOOT_VARS" "$grace" "${stops[@]}" "$@" \
		"$SDBOOT_WORK/systemd-boot.efi" "$SDBOOT_ESP_PATH" \
		"$SDBOOT_WORK/$name-loader.conf" loader/loader.conf
}

# systemd-boot started by lockshim, verified as a second stage.
_expect_sdboot_started() {
	expect_log -F 'BdsDxe: starting Boot0000 "lockshim" from \EFI\lockshim\lockshimx64.efi' &&
		expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_log -F "lockshim: booting $SDBOOT_ESP_PATH: signed by /CN=lockshim test vendor"
}

# lockshim's Verify allowed IMAGE (systemd-boot's override asks it first),
# signed by SIGNER, trusted through TRUST.
_expect_allowed() {
	expect_log -F "lockshim: allowing image from the second stage ($(stat -c %s "$1") bytes): signed by $2, trusted through $3"
}

# The test initramfs ran, locked down, with the words WORDS in its command line.
_expect_kernel_ran() {
	local words=${1//./\\.}
	expect_no_log -F 'lockshim: refusing' &&
		expect_no_log -F 'Error loading' &&
		expect_log -F 'EFI stub: UEFI Secure Boot is enabled.' &&
		expect_log -F "$MARKER" &&
		expect_log "^LOCKSHIM-TEST-CMDLINE: (.* )?$words( .*)?\$" &&
		expect_log -F 'LOCKSHIM-TEST-LOCKDOWN: none [integrity] confidentiality' &&
		expect_order -F "lockshim: booting $SDBOOT_ESP_PATH" "$MARKER"
}

# c1. A Type #1 entry whose kernel only MokList trusts.
sdboot_type1_mok_kernel_boots() {
	local name=${FUNCNAME[0]} mok='/CN=lockshim test mok'
	printf 'title lockshim test (MOK-signed kernel)\nlinux /EFI/debian/vmlinuz-mok.efi\ninitrd /EFI/debian/initrd.img\noptions %s\n' \
		"$TYPE1_OPTIONS" >"$SDBOOT_WORK/$name.conf"
	sdboot_boot "$name" 'mok-kernel*' 0.5 'LOCKSHIM-TEST-DONE' 'No bootable option' -- \
		"$SDBOOT_WORK/$name.conf" loader/entries/mok-kernel.conf \
		"$SDBOOT_WORK/kernel-mok.efi" EFI/debian/vmlinuz-mok.efi \
		build/initramfs/initrd.img EFI/debian/initrd.img || return 1
	_expect_sdboot_started &&
		_expect_allowed "$SDBOOT_WORK/kernel-mok.efi" "$mok" "MokList certificate $mok" &&
		_expect_kernel_ran "$TYPE1_OPTIONS"
}

# c2. A UKI signed by the vendor key: its own .cmdline, whole.
sdboot_uki_vendor_boots() {
	local vendor='/CN=lockshim test vendor'
	sdboot_boot "${FUNCNAME[0]}" 'uki-vendor*' 0.5 'LOCKSHIM-TEST-DONE' 'No bootable option' -- \
		"$SDBOOT_WORK/uki-vendor.efi" EFI/Linux/uki-vendor.efi || return 1
	_expect_sdboot_started &&
		_expect_allowed "$SDBOOT_WORK/uki-vendor.efi" "$vendor" "vendor certificate $vendor" &&
		_expect_kernel_ran "$UKI_CMDLINE" &&
		expect_log "^LOCKSHIM-TEST-CMDLINE: ${UKI_CMDLINE//./\\.}\$"
}

# c3. The same UKI unsigned: Verify (systemd-boot's override) refuses it,
# then lockshim's own override (the handler systemd-boot's falls back to),
# then the firmware's db; systemd-boot reports it and returns to lockshim.
sdboot_uki_unsigned_refused() {
	local uki=$SDBOOT_WORK/uki-unsigned.efi
	sdboot_boot "${FUNCNAME[0]}" 'uki-unsigned*' 0.5 'BdsDxe: failed to start Boot0000' \
		"$MARKER" 'No bootable option' -- "$uki" EFI/Linux/uki-unsigned.efi || return 1
	_expect_sdboot_started &&
		expect_log -F "lockshim: refusing image from the second stage ($(stat -c %s "$uki") bytes): image is not signed" &&
		expect_log '^lockshim: refusing [^ ]*\\EFI\\Linux\\uki-unsigned\.efi: image is not signed$' &&
		expect_log -F "lockshim: verdict=refused image=buffer:$(stat -c %s "$uki") reason=not-signed" &&
		expect_log '^lockshim: verdict=refused image=[^ ]*\\EFI\\Linux\\uki-unsigned\.efi reason=not-signed$' &&
		expect_log -F 'Error loading \EFI\Linux\uki-unsigned.efi: Access Denied' &&
		expect_order -F 'lockshim: refusing image from the second stage' 'Error loading' &&
		expect_log -F "lockshim: $SDBOOT_ESP_PATH returned: Access Denied" &&
		expect_no_log -F 'EFI stub:' &&
		expect_no_log -F "$MARKER"
}

# c4. `linux` then `efi` in one entry: 252 keeps the later line. check's
# prediction (an efivarfs copy as the OS sees this machine: MokList as the
# MokListRT lockshim mirrors) must say that image is refused as not signed,
# and the boot must show the same refusal and no kernel.
sdboot_linux_then_efi_refused() {
	local name=${FUNCNAME[0]} w=$SDBOOT_WORK/linux-then-efi mk="python3 tests/cli/mkefivars.py"
	local unsigned=$BOOT_WORK/kernel-unsigned.efi
	printf 'title lockshim test (linux then efi)\nlinux /EFI/debian/vmlinuz-mok.efi\nefi /EFI/debian/vmlinuz-unsigned.efi\noptions %s\n' \
		"$TYPE1_OPTIONS" >"$SDBOOT_WORK/$name.conf"
	printf 'timeout 0\ndefault linux-then-efi*\neditor no\n' >"$SDBOOT_WORK/$name-loader.conf"
	rm -rf "$w" && mkdir -p "$w/vars" "$w/esp/EFI/lockshim" "$w/esp/EFI/systemd" \
		"$w/esp/EFI/debian" "$w/esp/loader/entries" || return 1
	cp "$BOOT_WORK/lockshim-db.efi" "$w/esp/EFI/lockshim/lockshimx64.efi" &&
		cp "$SDBOOT_WORK/systemd-boot.efi" "$w/esp/EFI/systemd/systemd-bootx64.efi" &&
		cp "$SDBOOT_WORK/$name.conf" "$w/esp/loader/entries/linux-then-efi.conf" &&
		cp "$SDBOOT_WORK/$name-loader.conf" "$w/esp/loader/loader.conf" &&
		cp "$SDBOOT_WORK/kernel-mok.efi" "$w/esp/EFI/debian/vmlinuz-mok.efi" &&
		cp "$unsigned" "$w/esp/EFI/debian/vmlinuz-unsigned.efi" &&
		$mk byte "$w/vars" SecureBoot "$GLOBAL_GUID" 0x6 1 &&
		$mk byte "$w/vars" SetupMode "$GLOBAL_GUID" 0x6 0 &&
		$mk var "$w/vars" db d719b2cb-3d3a-4596-a3bc-dad00e67656f 0x27 "$PKI/db.esl" &&
		$mk var "$w/vars" MokListRT "$SHIM_GUID" 0x6 "$PKI/mok.esl" &&
		$mk order "$w/vars" 0 &&
		$mk option "$w/vars" 0 lockshim "$LOCKSHIM_ESP_PATH" "$SDBOOT_ESP_PATH" || return 1
	build/lockshim check --efivars "$w/vars" --esp "$w/esp" --json >"$w/check.json"
	[[ $? == 1 ]] || { echo "FAIL: check does not say Boot0000 will not boot" >&2; cat "$w/check.json" >&2; return 1; }
	python3 - "$w/check.json" <<'PY' || return 1
import json, sys
e = json.load(open(sys.argv[1]))["entries"][0]
steps = [s for s in e["chain"] if s["role"].startswith(("default entry", "entry"))]
assert e["option"] == "Boot0000" and e["boots"] is False, e
assert len(steps) == 1, steps  # the entry has one image: the later line's
s = steps[0]
assert (s["image"], s["verdict"], s["reason"], s["id"]) == \
    ("/EFI/debian/vmlinuz-unsigned.efi", "refused", "not-signed", "linux-then-efi.conf"), s
PY
	sdboot_boot "$name" 'linux-then-efi*' 0.5 'BdsDxe: failed to start Boot0000' \
		"$MARKER" 'No bootable option' -- \
		"$SDBOOT_WORK/$name.conf" loader/entries/linux-then-efi.conf \
		"$SDBOOT_WORK/kernel-mok.efi" EFI/debian/vmlinuz-mok.efi \
		"$unsigned" EFI/debian/vmlinuz-unsigned.efi || return 1
	_expect_sdboot_started &&
		expect_log -F "lockshim: refusing image from the second stage ($(stat -c %s "$unsigned") bytes): image is not signed" &&
		expect_log -F "lockshim: verdict=refused image=buffer:$(stat -c %s "$unsigned") reason=not-signed" &&
		expect_log -F 'Error loading \EFI\debian\vmlinuz-unsigned.efi: Access Denied' &&
		expect_no_log -F "lockshim: allowing image from the second stage ($(stat -c %s "$SDBOOT_WORK/kernel-mok.efi") bytes)" &&
		expect_no_log -F 'EFI stub:' &&
		expect_no_log -F "$MARKER"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main sdboot_prepare "$@"
fi
