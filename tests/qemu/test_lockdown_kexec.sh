#!/usr/bin/env bash
# Kernel lockdown across kexec: a locked kernel hands its lock on.
#
#   tests/qemu/test_lockdown_kexec.sh [SCENARIO...]     (default: all, in order)
#
#   table_locked_kexec      locked table; the probe kexecs (kexec_file_load
#                           + reboot) into the vendor-signed kernel: the
#                           second kernel finds the table and is locked too
#   table_locked_kexec_boot_services  the same with the table in boot services
#                           memory: its reservation survives kexec
#   table_locked_kexec_without_efi_refused  + efi=noruntime: no EFI state (so no
#                           table) would reach the next kernel: locked as
#                           invalid, the kexec into it refused
#   sb_on_revoked_kernel_kexec_refused  SB on, an older vendor-signed kernel
#                           revoked by its digest in MokListX: lockshim
#                           refuses to boot it, and the kernel it boots
#                           refuses to kexec it (the same image is loaded
#                           when nothing revokes it)
#
# Prints `ok - NAME (T s, QEMU Q s)` / `not ok - NAME` per scenario; logs
# build/qemu/logs/lockdown-NAME.log. Environment, how the kernel is started,
# and the probe's slots: tests/qemu/lockdown.sh.

# shellcheck source=tests/qemu/lockdown.sh
. "$(dirname "${BASH_SOURCE[0]}")/lockdown.sh" # cds to the repository

SCENARIOS=(
	table_locked_kexec
	table_locked_kexec_boot_services
	table_locked_kexec_without_efi_refused
	sb_on_revoked_kernel_kexec_refused
)

# Boot 1 (launch.efi, locked table, retain_initrd lockshim.kexec=1): the
# probe runs, then kexec_file_load()s the vendor-signed kernel with the same
# initramfs and the command line lockshim.kexec=2, and reboots into it.
# Boot 2 must find the table again, lock down, load the table's keys (their
# digest checked against the table's memory again: it was kept), and end the
# run. TCFG: launch.cfg lines (table_memory=boot).
_kexec() {
	local name=$1 tcfg=$2 log2 rc
	launch_kernel "$name" "retain_initrd lockshim.kexec=1" "$tcfg" --locked "${TRUSTED[@]}" || return 1
	log2=$LD_WORK/$name.second.log
	if ! LC_ALL=C grep -q -F 'PROBE kexec_into info rebooting' "$LOG"; then
		echo "FAIL: the first boot did not kexec" >&2
		_log_tail "$LOG"
		return 1
	fi
	# The first boot: everything up to the reboot.
	sed -n '1,/PROBE kexec_into info rebooting/p' "$LOG" >"$LD_WORK/$name.first.log"
	sed -n '/PROBE kexec_into info rebooting/,$p' "$LOG" >"$log2"
	local full=$LOG
	LOG=$LD_WORK/$name.first.log
	expect_bootlog 'locked down (Secure Boot, table v2)' &&
		expect_locked && expect_trust "vendor mok" "vendor mok" &&
		expect_probe kexec_into allowed 'vendor.efi' &&
		expect_no_log -F 'LOCKSHIM-PROBE-END'
	rc=$?
	LOG=$log2
	(( rc == 0 )) &&
		expect_log -F 'PROBE cmdline info console=ttyS0 lockshim.kexec=2' &&
		expect_log '^\[ *[0-9.]+\] efi: .* LOCKSHIM=0x[0-9a-f]+ ' &&
		expect_log '^\[ *[0-9.]+\] lockshim: locked down \(Secure Boot, table v2\)' &&
		expect_bootlog 'locked down (Secure Boot, table v2)' &&
		expect_bootlog 'table keys: 2 trusted certificates, 0 denied entries' &&
		expect_locked && expect_trust "vendor mok" "vendor mok" &&
		expect_machine_keys "vendor mok" &&
		expect_log -F 'LOCKSHIM-PROBE-END status=0'
	rc=$?
	LOG=$full
	return $rc
}
table_locked_kexec() { _kexec "${FUNCNAME[0]}" ""; }
table_locked_kexec_boot_services() { _kexec "${FUNCNAME[0]}" "table_memory=boot"; }

# efi=noruntime (the command line is not authenticated) leaves the kexec
# loader no EFI state to hand on: the next kernel would not see the table and
# would come up unlocked. It must not get there (fail closed): with no EFI
# memory map the table cannot be validated, so the first kernel locks as for
# an invalid table and trusts none of its keys, and the vendor image is
# refused (ENOKEY); an image signed by a builtin key would still meet
# bzImage64_load's refusal (EPERM, "no EFI state to pass on", patch 9).
# /init then ends the run with status 99.
table_locked_kexec_without_efi_refused() {
	local name=${FUNCNAME[0]} n
	# Its status is 99 by design (lockdown_boot's complaint about that goes
	# to $LD_WORK/NAME.boot.err); the lines below say whether that is right.
	launch_kernel "$name" "efi=noruntime retain_initrd lockshim.kexec=1" "" --locked "${TRUSTED[@]}" \
		2>"$LD_WORK/$name.boot.err"
	if ! LC_ALL=C grep -q -F 'LOCKSHIM-PROBE-END' "$LOG"; then
		cat "$LD_WORK/$name.boot.err" >&2
		return 1
	fi
	n=$(LC_ALL=C grep -c 'Linux version' "$LOG")
	if [[ $n != 1 ]]; then
		echo "FAIL: $n kernels booted, expected 1 (kexec must be refused)" >&2
		return 1
	fi
	expect_log -F 'PROBE cmdline info console=ttyS0 initrd=\EFI\BOOT\initrd.img efi=noruntime' &&
		expect_bootlog 'invalid table (no EFI memory map to check it against): locking down' &&
		expect_locked && expect_trust "" "" &&
		expect_probe kexec_into refused 'errno=(ENOKEY|EPERM)' &&
		expect_log -F 'PROBE done ok' &&
		expect_log -F 'LOCKSHIM-PROBE-KEXEC-FAILED' &&
		expect_log -F 'LOCKSHIM-PROBE-END status=99'
}

# Revocation reaches kexec: the digest lockshim refuses to boot is refused
# by kexec_file_load too, although a trusted key (vendor) signs the image.
# Boot 1: lockshim refuses the older kernel (MokListX). Boot 2: lockshim
# boots the current one, which loads the table's denied digest into the
# blacklist, and the probe's kexec_file_load of the older one fails on it.
# Boot 3: without MokListX the same image is loaded (what refuses it in boot
# 2 is the revocation, nothing else).
sb_on_revoked_kernel_kexec_refused() {
	local name=${FUNCNAME[0]} hash
	need_lockshim || return 1
	hash=$(build/lockshim hash "$OLD_KERNEL") || return 1
	LD_REFUSAL_STOP=$FIRMWARE_REFUSED lockdown_run "$name-boot" "$SB_MOK_REVOKED_VARS" \
		"$LD_WORK/lockshim-db.efi" EFI/BOOT/BOOTX64.EFI \
		"$OLD_KERNEL" EFI/BOOT/vmlinuz.efi "$PROBE_INITRD" EFI/BOOT/initrd.img 2>/dev/null
	[[ $QEMU_STOPPED_ON == "$FIRMWARE_REFUSED" ]] || {
		echo "FAIL: the refused boot ended ${QEMU_OUTCOME}${QEMU_STOPPED_ON:+ on /$QEMU_STOPPED_ON/}, not on the firmware's refusal" >&2
		return 1
	}
	expect_log -F 'lockshim: refusing \EFI\BOOT\vmlinuz.efi: image SHA-256 digest is in MokListX' &&
		expect_log -F 'lockshim: verdict=refused image=\EFI\BOOT\vmlinuz.efi reason=deny-digest list=MokListX' &&
		expect_order -F 'lockshim: verdict=refused image=\EFI\BOOT\vmlinuz.efi' 'Security Violation' &&
		expect_no_log -F 'Linux version' || return 1
	lockdown_boot "$name" "$SB_MOK_REVOKED_VARS" "$LD_WORK/lockshim-db.efi" \
		"$LD_WORK/kernel-vendor.efi" || return 1
	expect_bootlog 'locked down (Secure Boot, table v2)' &&
		expect_bootlog 'table keys: 2 trusted certificates, 1 denied entries' &&
		expect_locked && expect_trust "vendor mok" "vendor mok" &&
		expect_probe kexec_file_load:vendor_old refused \
			"errno=EKEYREJECTED.*kmsg=\"PEFILE: Image digest $hash is blacklisted" || return 1
	lockdown_boot "$name-unrevoked" "$SB_MOK_VARS" "$LD_WORK/lockshim-db.efi" \
		"$LD_WORK/kernel-vendor.efi" || return 1
	expect_locked && expect_probe kexec_file_load:vendor_old allowed
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main lockdown_prepare "$@"
fi
