#!/usr/bin/env bash
# Kernel lockdown: the early-boot window. The lockdown hooks are registered
# after setup_arch(), where the kernel installs ACPI tables from the initrd
# (acpi_table_upgrade) and takes acpi_rsdp= from the command line; neither
# the initrd nor the command line is verified, and AML can write any
# physical memory. A locked kernel must refuse both.
#
#   tests/qemu/test_lockdown_early.sh [SCENARIO...]     (default: all, in order)
#
#   early_window_unlocked       launch.efi, SB off, no table: the initrd's SSDT
#                               is installed and acpi_rsdp= followed
#   early_window_sb_on_lockshim SB on, lockshim started by launch.efi with
#                               acpi_rsdp= in its load options, the same
#                               initrd: both refused, locked by the table
#   early_window_simulate       secureboot_enable=1, no table: both refused
#   early_window_lockdown_param lockdown=integrity, SB off, no table: both
#                               refused (the early checks see any lock, not
#                               only the series')
#
# The SSDT is a 36-byte header (OEM table ID LSEARLY1) in an uncompressed
# cpio in front of the probe initramfs (lockdown.sh's acpi_initrd_table).
# acpi_rsdp= names the firmware's ACPI 1.0 RSDP (launch.cfg acpi_rsdp=v1),
# which the kernel would not take itself (it takes the ACPI 2.0 one): the
# `ACPI: RSDP` line of the boot log says which one it used.
#
# Prints `ok - NAME (T s, QEMU Q s)` / `not ok - NAME` per scenario; logs
# build/qemu/logs/lockdown-NAME.log. Environment, how the kernel is started,
# and the probe's slots: tests/qemu/lockdown.sh.

# shellcheck source=tests/qemu/lockdown.sh
. "$(dirname "${BASH_SOURCE[0]}")/lockdown.sh" # cds to the repository

SCENARIOS=(
	early_window_unlocked
	early_window_sb_on_lockshim
	early_window_simulate
	early_window_lockdown_param
)

# The RSDP the kernel used: its revision (v00: ACPI 1.0, from acpi_rsdp=;
# v02: ACPI 2.0, the firmware's default).
_expect_rsdp() {
	expect_log "^\\[ *[0-9.]+\\] ACPI: RSDP 0x[0-9A-F]+ [0-9A-F]+ \\($1 "
}

# Locked before setup_arch() looked at the initrd and acpi_rsdp=: both refused.
_expect_early_refused() {
	expect_log '^\[ *[0-9.]+\] ACPI: kernel is locked down, ignoring table override$' &&
		expect_log '^\[ *[0-9.]+\] ACPI: OSL: kernel is locked down, ignoring acpi_rsdp=$' &&
		expect_no_log -F 'Table Upgrade: install' &&
		expect_probe "acpi_table:$ACPI_TABLE_ID" absent &&
		_expect_rsdp v02 && expect_locked
}

early_window_unlocked() {
	local PROBE_INITRD=$ACPI_INITRD
	launch_kernel "${FUNCNAME[0]}" "" "acpi_rsdp=v1" || return 1
	expect_log -F 'PROBE cmdline info console=ttyS0 initrd=\EFI\BOOT\initrd.img acpi_rsdp=0x' &&
		expect_bootlog 'no table' &&
		expect_log "^\\[ *[0-9.]+\\] ACPI: Table Upgrade: install \\[SSDT-LOCKSH-$ACPI_TABLE_ID\\]" &&
		expect_probe "acpi_table:$ACPI_TABLE_ID" present &&
		_expect_rsdp v00 &&
		expect_no_log -F 'kernel is locked down, ignoring' &&
		expect_unlocked
}

# The real chain: what root can change is the initrd beside the kernel and
# the load options of a boot entry.
early_window_sb_on_lockshim() {
	local PROBE_INITRD=$ACPI_INITRD
	need_lockshim || return 1
	lockdown_boot "${FUNCNAME[0]}" "$SB_MOK_VARS" "$LD_WORK/launch-db.efi" \
		"$LD_WORK/kernel-vendor.efi" \
		"image=\\EFI\\BOOT\\lockshim.efi"$'\n'"options=vmlinuz.efi"$'\n'"acpi_rsdp=v1" \
		"$LD_WORK/lockshim-db.efi" EFI/BOOT/lockshim.efi || return 1
	expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_log -F 'PROBE cmdline info console=ttyS0 acpi_rsdp=0x' &&
		expect_bootlog 'locked down (Secure Boot, table v3)' &&
		_expect_early_refused
}

early_window_simulate() {
	local PROBE_INITRD=$ACPI_INITRD
	launch_kernel "${FUNCNAME[0]}" "secureboot_enable=1" "acpi_rsdp=v1" || return 1
	expect_bootlog 'secureboot_enable=1: locking down' &&
		_expect_early_refused
}

# lockdown= sets the level in parse_early_param(), before setup_arch()
# looks at the initrd: security_locked_down_early() sees it (patch 11), as
# it would see a distribution's lock in Secure Boot mode.
early_window_lockdown_param() {
	local PROBE_INITRD=$ACPI_INITRD
	launch_kernel "${FUNCNAME[0]}" "lockdown=integrity" "acpi_rsdp=v1" || return 1
	expect_log -F 'PROBE cmdline info console=ttyS0 initrd=\EFI\BOOT\initrd.img lockdown=integrity acpi_rsdp=0x' &&
		expect_bootlog 'no table' &&
		expect_log -F 'Kernel is locked down from command line' &&
		expect_log '^\[ *[0-9.]+\] ACPI: kernel is locked down, ignoring table override$' &&
		expect_log '^\[ *[0-9.]+\] ACPI: OSL: kernel is locked down, ignoring acpi_rsdp=$' &&
		expect_no_log -F 'Table Upgrade: install' &&
		expect_probe "acpi_table:$ACPI_TABLE_ID" absent &&
		_expect_rsdp v02 &&
		expect_probe lockdown integrity
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main lockdown_prepare "$@"
fi
