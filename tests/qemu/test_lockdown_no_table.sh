#!/usr/bin/env bash
# Kernel lockdown without lockshim's table: under Secure Boot the patched
# kernel fails closed (locks down, trusts no table keys); with Secure Boot
# off and no table it stays unlocked.
#
#   tests/qemu/test_lockdown_no_table.sh [SCENARIO...]     (default: all, in order)
#
#   sb_on_debian_shim_no_table   SB on: Debian's shim 16.1 (shim-unsigned,
#                       signed with db) -> Debian's signed GRUB -> the
#                       patched kernel, MOK-signed (MokList enrolled), which
#                       GRUB has shim verify: no lockshim table, locked
#   sb_off_firmware_shell_unlocked  SB off: the firmware's own UEFI Shell
#                       starts the kernel (startup.nsh), no loader, no
#                       table: unlocked
#   stubless_sb_on_locks  SB on: launch.efi (db-signed) enters the unsigned
#                       kernel through the x86 64-bit boot protocol, no EFI
#                       stub, so boot_params.secure_boot is 0 (unset), with
#                       the SSDT initrd: the kernel must ask the firmware,
#                       lock down and ignore the initrd's ACPI table
#   stubless_sb_off_unlocked  SB off (setup mode), the same entry: the
#                       firmware says off, unlocked; the initrd's SSDT is
#                       ignored all the same (it comes before the kernel
#                       can ask the firmware, and an undecided boot counts
#                       as locked)
#
# Prints `ok - NAME (T s, QEMU Q s)` / `not ok - NAME` per scenario; logs
# build/qemu/logs/lockdown-NAME.log. Environment, how the kernel is started,
# and the probe's slots: tests/qemu/lockdown.sh.

# shellcheck source=tests/qemu/lockdown.sh
. "$(dirname "${BASH_SOURCE[0]}")/lockdown.sh" # cds to the repository
# shellcheck source=tests/qemu/debian-chain.sh
. tests/qemu/debian-chain.sh

# GRUB or systemd-boot holds the kernel and its initrd while the kernel
# decompresses itself: more memory than the default (lib.sh).
QEMU_MEMORY=512

SCENARIOS=(
	sb_on_debian_shim_no_table
	sb_off_firmware_shell_unlocked
	stubless_sb_on_locks
	stubless_sb_off_unlocked
)

# lockdown.sh's preparation, then shim 16.1 signed with db, the MOK-signed
# kernel, GRUB's configuration and the VARS (Boot0001 = shim, MokList).
no_table_prepare() {
	lockdown_prepare || return 1
	local shim_dir
	shim_dir=$(tests/bench/debian-shim.sh 2>>"$PREP_LOG") ||
		{ PREP_ERROR="Debian's shim-unsigned (tests/bench/debian-shim.sh) failed"; return 1; }
	_prep "db-signed shim 16.1" sign_efi db "$shim_dir/shimx64.efi" "$LD_WORK/shim-db.efi" &&
		_prep "MOK-signed kernel" sign_efi mok "$KDIR/bzImage" "$LD_WORK/kernel-mok.efi" &&
		_prep "Debian's GRUB (grub-efi-amd64-signed)" debian_chain_grub &&
		_prep "grub.cfg" debian_chain_grub_cfg "$LD_WORK/shim-grub.cfg" "" &&
		_prep "Boot0001" debian_chain_boot_entry "$LD_WORK/Boot0001-shim.bin" shimx64.efi ||
		return 1
	SHIM_VARS=$(tests/qemu/vars.sh --variant lockdown-debian-shim "${DEBIAN_CHAIN_BOOT_VARS[@]}" \
		--var "MokList:$MOK_GUID:0x3:$PKI/mok.esl" "$PKI" 2>>"$PREP_LOG" | tail -n1) && [[ -s $SHIM_VARS ]] ||
		PREP_ERROR="tests/qemu/vars.sh failed: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"
}

# Another loader, under Secure Boot: shim verifies GRUB (Debian's CA) and,
# through SHIM_LOCK, the kernel (MokList); it installs its MokVar table but
# no lockshim table. The kernel must lock down on its own: no table keys
# (the vendor key, which only lockshim's table carries, trusted for
# nothing), .platform (db) not trusted once locked. The MOK key is trusted
# for modules and kexec through the MokVar table, as shim 16.1 asks by
# default (MokListTrustedRT set unless the owner ran --untrust-mok), and
# Debian's CA, shim's vendor certificate, with it.
sb_on_debian_shim_no_table() {
	local img
	img=$(debian_chain_grub) || return 1
	lockdown_run "${FUNCNAME[0]}" "$SHIM_VARS" \
		"$LD_WORK/shim-db.efi" "$DEBIAN_CHAIN_GRUB_DIR/shimx64.efi" \
		"$img" "$DEBIAN_CHAIN_GRUB_DIR/grubx64.efi" \
		"$LD_WORK/shim-grub.cfg" "$DEBIAN_CHAIN_GRUB_DIR/grub.cfg" \
		"$LD_WORK/kernel-mok.efi" boot/vmlinuz "$PROBE_INITRD" boot/initrd.img || return 1
	expect_log -F 'LOCKSHIM-GRUB: booting' &&
		expect_no_log -F 'lockshim: SecureBoot=' &&
		expect_log '^\[ *[0-9.]+\] efi: .* MOKvar=0x[0-9a-f]+' &&
		expect_no_log '^\[ *[0-9.]+\] efi: .* LOCKSHIM=' &&
		expect_bootlog 'no table, Secure Boot on: locking down' &&
		expect_no_log -F 'PROBE bootlog line lockshim: table keys' &&
		expect_locked &&
		expect_probe finit_module:lstest_vendor refused &&
		expect_probe kexec_file_load:vendor refused &&
		expect_probe finit_module:lstest_db refused &&
		expect_probe kexec_file_load:db refused &&
		expect_probe finit_module:lstest_mok allowed &&
		expect_probe kexec_file_load:mok allowed &&
		expect_machine_keys "mok" &&
		expect_log -F 'PROBE key:.machine present asymmetric "Debian Secure Boot CA: '
}

# No loader at all: the firmware's shell runs startup.nsh, which starts the
# kernel with its initrd. Secure Boot off, no table: nothing locks. (A key
# at the shell's 5 s countdown runs startup.nsh at once, as the countdown
# would.)
sb_off_firmware_shell_unlocked() {
	printf 'fs0:\r\n\\EFI\\BOOT\\vmlinuz.efi initrd=\\EFI\\BOOT\\initrd.img\r\n' >"$LD_WORK/startup.nsh"
	LD_RUN_OPTS=(--send-on 'Press ESC in [0-9]+ seconds to skip startup.nsh' '\r')
	lockdown_boot "${FUNCNAME[0]}" "$QEMU_BUILD/vars-setup.fd" - "$LD_WORK/kernel-unsigned.efi" "" \
		"$LD_WORK/startup.nsh" startup.nsh || return 1
	expect_log -F 'PROBE cmdline info console=ttyS0 \EFI\BOOT\vmlinuz.efi initrd=\EFI\BOOT\initrd.img' &&
		expect_no_log -F 'launch:' &&
		expect_bootlog 'no table' &&
		expect_unlocked && expect_machine_keys ""
}

# ---- no EFI stub: the 64-bit boot protocol ------------------------------------

# A legacy loader (old GRUB's linux command, elilo, kexec_load) enters the
# kernel at startup_64 with boot_params of its own: the EFI system table
# and memory map, but secure_boot 0, which only the stub fills. Nothing
# verifies the kernel; under Secure Boot the kernel itself must find out.
STUBLESS_LAUNCH='launch: entering \\EFI\\BOOT\\vmlinuz\.efi \(protocol [0-9.]+\) through the 64-bit boot protocol, no EFI stub'
STUBLESS_SETUP_ARCH='lockshim: Secure Boot state not given by the loader: asking the firmware once runtime services are up'

# _stubless_boot NAME VARS LAUNCHER: LAUNCHER enters the unsigned kernel
# through the boot protocol, the SSDT initrd as its initrd.
_stubless_boot() {
	local name=$1 vars=$2 launcher=$3
	local PROBE_INITRD=$ACPI_INITRD
	lockdown_boot "$name" "$vars" "$launcher" "$LD_WORK/kernel-unsigned.efi" \
		"entry=boot-protocol"$'\n'"initrd=\\EFI\\BOOT\\initrd.img"$'\n'"options=stubless=1"
}

# The entry was the boot protocol's: the launcher's lines (the firmware's
# SecureBoot value, SB) before the kernel's first, the kernel on EFI without
# the stub's Secure Boot state (mode 0: unset), the command line from
# boot_params.
_expect_stubless_entry() {
	local sb=$1
	expect_log -F "launch: firmware SecureBoot=$sb; boot_params.secure_boot left 0 (unset)" &&
		expect_order "$STUBLESS_LAUNCH" '^\[ *[0-9.]+\] Linux version ' &&
		expect_log '^\[ *[0-9.]+\] efi: EFI v[0-9.]+ by ' &&
		expect_log -F 'Secure boot could not be determined (mode 0)' &&
		expect_log -F 'PROBE cmdline info console=ttyS0 stubless=1'
}

# The kernel said in setup_arch() that it would ask the firmware, then
# DECISION (its line without the `lockshim: `).
_expect_asked_firmware() {
	expect_order -F "$STUBLESS_SETUP_ARCH" "lockshim: $1" &&
		expect_bootlog "$1"
}

# The lock first: with a kernel that trusts secure_boot 0, this is what fails.
stubless_sb_on_locks() {
	_stubless_boot "${FUNCNAME[0]}" "$QEMU_BUILD/vars-secboot.fd" "$LD_WORK/launch-db.efi" || return 1
	_expect_stubless_entry 1 &&
		expect_locked &&
		_expect_acpi_override_ignored &&
		expect_machine_keys "" &&
		_expect_asked_firmware 'no table, Secure Boot on (asked the firmware): locking down'
}

# The initrd's SSDT came before the decision, and was ignored.
_expect_acpi_override_ignored() {
	expect_order "\\] $STUBLESS_SETUP_ARCH" '^\[ *[0-9.]+\] ACPI: kernel is locked down, ignoring table override$' &&
		expect_no_log -F 'Table Upgrade: install' &&
		expect_probe "acpi_table:$ACPI_TABLE_ID" absent
}

stubless_sb_off_unlocked() {
	_stubless_boot "${FUNCNAME[0]}" "$QEMU_BUILD/vars-setup.fd" "$GUEST/launch.efi" || return 1
	_expect_stubless_entry 0 &&
		expect_unlocked &&
		_expect_acpi_override_ignored &&
		expect_machine_keys "" &&
		_expect_asked_firmware 'no table, Secure Boot off (asked the firmware)'
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main no_table_prepare "$@"
fi
