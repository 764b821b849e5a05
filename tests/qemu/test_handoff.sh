#!/usr/bin/env bash
# What lockshim hands to the kernel, seen from a stock Debian kernel under
# Secure Boot, booted through a real boot entry (Boot0000, as efibootmgr
# writes it) whose optional data names the kernel, its command line and
# its initrd:
#
#   Boot0000 "lockshim"  \EFI\lockshim\lockshimx64.efi
#            "linux.efi initrd=\boot\initrd-test.img lockshim.test=42 console=ttyS0"
#
#   tests/qemu/test_handoff.sh [SCENARIO...]     (default: all, in order)
#
#   bootentry_handoff          the kernel and initrd named in the load options
#                              are used; /proc/cmdline shows the command line;
#                              and Debian's unpatched kernel locks itself down
#                              and imports the vendor and MOK certificates
#                              from lockshim's MokVar table (one boot: these
#                              were two scenarios booting the same thing)
#   bootentry_refused_kernel   the load options name a rogue-signed kernel
#                              (\EFI\lockshim\rogue.efi): lockshim refuses it
#                              with the reason and returns Security Violation
#                              to the firmware; nothing starts, not even the
#                              vendor-signed kernel at lockshim's default
#                              loader path (\EFI\lockshim\vmlinuz.efi) on
#                              the same ESP: the load options choose which
#                              image is verified, and a refusal is the end
#
# Environment and output as for test_boot.sh (boot.sh gives the preparation).

# shellcheck source=tests/qemu/second_stage.sh
. "$(dirname "${BASH_SOURCE[0]}")/second_stage.sh" # cds to the repository (second_stage_boot)

SCENARIOS=(
	bootentry_handoff
	bootentry_refused_kernel
)

CMDLINE='initrd=\boot\initrd-test.img lockshim.test=42 console=ttyS0'
HANDOFF_VARS=
REFUSED_VARS=

handoff_prepare() {
	boot_prepare
	[[ -z $PREP_ERROR && -z $LOCKSHIM_MISSING ]] || return 0
	_prep "Boot0000 load option" python3 tests/qemu/mkloadoption.py "$BOOT_WORK/Boot0000.bin" \
		lockshim '\EFI\lockshim\lockshimx64.efi' "linux.efi $CMDLINE" || return 0
	printf '\x00\x00' >"$BOOT_WORK/BootOrder.bin"
	HANDOFF_VARS=$(tests/qemu/vars.sh --variant handoff \
		--var "Boot0000:$GLOBAL_GUID:0x7:$BOOT_WORK/Boot0000.bin" \
		--var "BootOrder:$GLOBAL_GUID:0x7:$BOOT_WORK/BootOrder.bin" \
		--var "MokList:$SHIM_GUID:0x3:$PKI/mok.esl" "$PKI" 2>>"$PREP_LOG") ||
		{ PREP_ERROR="tests/qemu/vars.sh --variant handoff failed: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"; return 0; }
	_prep "Boot0000 load option naming rogue.efi" python3 tests/qemu/mkloadoption.py \
		"$BOOT_WORK/Boot0000-refused.bin" lockshim '\EFI\lockshim\lockshimx64.efi' "rogue.efi $CMDLINE" ||
		return 0
	REFUSED_VARS=$(tests/qemu/vars.sh --variant handoff-refused \
		--var "Boot0000:$GLOBAL_GUID:0x7:$BOOT_WORK/Boot0000-refused.bin" \
		--var "BootOrder:$GLOBAL_GUID:0x7:$BOOT_WORK/BootOrder.bin" "$PKI" 2>>"$PREP_LOG") ||
		PREP_ERROR="tests/qemu/vars.sh --variant handoff-refused failed: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"
}

bootentry_handoff() {
	second_stage_boot "${FUNCNAME[0]}" "$HANDOFF_VARS" 0.5 'LOCKSHIM-TEST-DONE' 'lockshim: refusing' \
		'No bootable option' -- "$BOOT_WORK/kernel-vendor.efi" EFI/lockshim/linux.efi \
		build/initramfs/initrd.img boot/initrd-test.img || return 1
	expect_log -F 'BdsDxe: starting Boot0000 "lockshim" from \EFI\lockshim\lockshimx64.efi' &&
		expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_log -F 'lockshim: booting \EFI\lockshim\linux.efi: signed by /CN=lockshim test vendor' &&
		expect_log -F 'lockshim: initrd \boot\initrd-test.img' &&
		expect_log -F 'EFI stub: Loaded initrd from LINUX_EFI_INITRD_MEDIA_GUID device path' &&
		expect_log -F "$MARKER" &&
		expect_log -F "LOCKSHIM-TEST-CMDLINE: $CMDLINE" || return 1
	# the stock kernel and lockshim's MokVar table
	expect_log -F 'lockshim: lockdown table: locked (Secure Boot)' &&
		expect_log 'efi: .*MOKvar=0x' &&
		expect_log -F 'Kernel is locked down from EFI Secure Boot' &&
		expect_log "integrity: Loaded X.509 cert 'lockshim test vendor: " &&
		expect_log "integrity: Loaded X.509 cert 'lockshim test mok: " &&
		expect_order -F 'UEFI:MokListRT (MOKvar table)' "Loaded X.509 cert 'lockshim test mok" &&
		expect_log -F 'LOCKSHIM-TEST-LOCKDOWN: none [integrity] confidentiality'
}

bootentry_refused_kernel() {
	local rogue='\EFI\lockshim\rogue.efi'
	second_stage_boot "${FUNCNAME[0]}" "$REFUSED_VARS" 0.5 "$FIRMWARE_REFUSED" 'No bootable option' "$MARKER" -- \
		"$BOOT_WORK/kernel-rogue.efi" EFI/lockshim/rogue.efi \
		"$BOOT_WORK/kernel-vendor.efi" EFI/lockshim/vmlinuz.efi \
		build/initramfs/initrd.img boot/initrd-test.img || return 1
	expect_log -F 'BdsDxe: starting Boot0000 "lockshim" from \EFI\lockshim\lockshimx64.efi' &&
		expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_log -F "lockshim: refusing $rogue: signer does not chain to a trusted certificate" &&
		expect_order -F "lockshim: refusing $rogue: " \
			"lockshim: verdict=refused image=$rogue reason=untrusted-signer" &&
		expect_order -F "lockshim: verdict=refused image=$rogue " \
			'BdsDxe: failed to start Boot0000 "lockshim" from \EFI\lockshim\lockshimx64.efi: Security Violation' &&
		expect_no_log -F 'lockshim: booting' &&
		expect_no_log -F 'vmlinuz.efi' &&
		expect_no_log -F 'EFI stub:' &&
		expect_no_log -F "$MARKER"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main handoff_prepare "$@"
fi
