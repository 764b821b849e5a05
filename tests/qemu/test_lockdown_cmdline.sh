#!/usr/bin/env bash
# Kernel lockdown: a hostile kernel command line (the command line is not
# authenticated) cannot undo a lock.
#
#   tests/qemu/test_lockdown_cmdline.sh [SCENARIO...]     (default: all, in order)
#
#   table_locked_cmdline_cannot_undo    launch.efi, SB off, a locked table, and
#                       lockdown=none secureboot_enable=0 module.sig_enforce=0 lsm=
#   sb_on_lockshim_cmdline_cannot_undo  SB on, MokList enrolled: lockshim's own
#                       table, the same command line through launch.efi
#
# Prints `ok - NAME (T s, QEMU Q s)` / `not ok - NAME` per scenario; logs
# build/qemu/logs/lockdown-NAME.log. Environment, how the kernel is started,
# and the probe's slots: tests/qemu/lockdown.sh.

# shellcheck source=tests/qemu/lockdown.sh
. "$(dirname "${BASH_SOURCE[0]}")/lockdown.sh" # cds to the repository

SCENARIOS=(
	table_locked_cmdline_cannot_undo
	sb_on_lockshim_cmdline_cannot_undo
)

# Nothing on the command line undoes a locked table.
table_locked_cmdline_cannot_undo() {
	launch_kernel "${FUNCNAME[0]}" "lockdown=none secureboot_enable=0 module.sig_enforce=0 lsm=capability" \
		"" --locked "${TRUSTED[@]}" || return 1
	expect_log -F 'PROBE cmdline info console=ttyS0 initrd=\EFI\BOOT\initrd.img lockdown=none secureboot_enable=0 module.sig_enforce=0 lsm=capability' &&
		expect_bootlog 'locked down (Secure Boot, table v3)' &&
		expect_bootlog 'secureboot_enable=0 ignored: it cannot undo a lock' &&
		expect_log -F "PROBE bootlog line Booting kernel: \`0' invalid for parameter \`module.sig_enforce'" &&
		expect_locked && expect_trust "vendor mok" "vendor mok"
}

# Secure Boot on, MokList enrolled: lockshim (started by launch.efi,
# db-signed, as a boot entry would) locks the kernel down, and a command
# line that tries to undo everything does not.
sb_on_lockshim_cmdline_cannot_undo() {
	need_lockshim || return 1
	lockdown_boot "${FUNCNAME[0]}" "$SB_MOK_VARS" "$LD_WORK/launch-db.efi" \
		"$LD_WORK/kernel-vendor.efi" \
		"image=\\EFI\\BOOT\\lockshim.efi"$'\n'"options=vmlinuz.efi lockdown=none secureboot_enable=0 module.sig_enforce=0" \
		"$LD_WORK/lockshim-db.efi" EFI/BOOT/lockshim.efi || return 1
	expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_log -F 'PROBE cmdline info console=ttyS0 lockdown=none secureboot_enable=0 module.sig_enforce=0' &&
		expect_bootlog 'locked down (Secure Boot, table v3)' &&
		expect_bootlog 'secureboot_enable=0 ignored: it cannot undo a lock' &&
		expect_locked && expect_trust "vendor mok" "vendor mok"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main lockdown_prepare "$@"
fi
