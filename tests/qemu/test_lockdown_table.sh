#!/usr/bin/env bash
# Kernel lockdown: what lockshim's table does to the patched kernel, seen
# by the probe (tests/qemu/lockdown.sh says how).
#
#   tests/qemu/test_lockdown_table.sh [SCENARIO...]     (default: all, in order)
#
#   sb_off_lockshim_not_locked      lockshim, SB off: table not locked, all allowed
#   sb_off_simulate_locks           secureboot_enable=1, no table: locked, builtin keys only
#   table_locked                    valid locked table: locked, vendor+MOK trusted
#   table_locked_no_sbat_level_kexec_refused  locked, no SbatLevel: every kexec refused
#   table_unlocked                  valid table without LOCKED: nothing locked, keys unused
#   table_unlocked_simulate_locks   + secureboot_enable=1: locked, table keys not trusted
#   table_denied_entry_refused      MOK both trusted and denied: denied wins
#   table_in_boot_services_memory   the table is reserved, so its keys still load
#   sb_on_lockshim_locked           SB on, MokList enrolled and trusted (--trust-mok):
#                                   locked by lockshim's table, vendor+MOK trusted;
#                                   the store's room handed over (VariableInfo)
#   sb_on_lockshim_mok_untrusted    the same without MokListTrusted: the MOK key
#                                   boots kernels but is not trusted by the kernel
#   sb_on_mok_denied_by_tbs_digest  MOK trusted, and denied in MokListX by its TBS
#                                   digest: denied, for modules too
#   table_locked_rawio_tools_refused  locked, a SATA disk with ext2: what needs
#                                   CAP_SYS_RAWIO (SG_IO ATA pass-through, bsg,
#                                   HDIO_DRIVE_CMD, FIBMAP) refused, INQUIRY not
#   table_unlocked_rawio_tools_work the same boot with the table unlocked: all work
# (SB = Secure Boot; the scenarios but the lockshim ones start the kernel
# from launch.efi with SB off.)
#
# Prints `ok - NAME (T s, QEMU Q s)` / `not ok - NAME` per scenario; logs
# build/qemu/logs/lockdown-NAME.log. Environment, how the kernel is started,
# and the probe's slots: tests/qemu/lockdown.sh.

# shellcheck source=tests/qemu/lockdown.sh
. "$(dirname "${BASH_SOURCE[0]}")/lockdown.sh" # cds to the repository

SCENARIOS=(
	sb_off_lockshim_not_locked
	sb_off_simulate_locks
	table_locked
	table_locked_no_sbat_level_kexec_refused
	table_unlocked
	table_unlocked_simulate_locks
	table_denied_entry_refused
	table_in_boot_services_memory
	sb_on_lockshim_locked
	sb_on_lockshim_mok_untrusted
	sb_on_mok_denied_by_tbs_digest
	table_locked_rawio_tools_refused
	table_unlocked_rawio_tools_work
)

# lockshim with Secure Boot off boots an unsigned kernel: its table is there,
# without LOCKED, and nothing is locked.
sb_off_lockshim_not_locked() {
	need_lockshim || return 1
	lockdown_boot "${FUNCNAME[0]}" "$QEMU_BUILD/vars-setup.fd" "$LD_WORK/lockshim-db.efi" \
		"$LD_WORK/kernel-unsigned.efi" || return 1
	expect_log -F 'lockshim: Secure Boot is off' &&
		expect_bootlog 'table present, not locked' &&
		expect_unlocked && expect_machine_keys ""
}

# secureboot_enable=1 without a table: the simulation locks; only built-in
# keys are trusted, and none of the test keys is built in.
sb_off_simulate_locks() {
	launch_kernel "${FUNCNAME[0]}" "secureboot_enable=1" || return 1
	expect_bootlog 'secureboot_enable=1: locking down' &&
		expect_locked && expect_trust "" "" && expect_machine_keys "" &&
		expect_probe variable_info absent
}

# A valid locked table with vendor and MOK certificates, revoked denied.
table_locked() {
	launch_kernel "${FUNCNAME[0]}" "" "" --locked "${TRUSTED[@]}" --denied "$PKI/revoked.esl" || return 1
	expect_log -F 'launch: installed' &&
		expect_log '^\[ *[0-9.]+\] efi: .* LOCKSHIM=0x[0-9a-f]+ ' &&
		expect_bootlog 'locked down (Secure Boot, table v3)' &&
		expect_bootlog 'table keys: 2 trusted certificates, 1 denied entries' &&
		expect_locked && expect_trust "vendor mok" "vendor mok" &&
		expect_machine_keys "vendor mok" &&
		expect_log -F 'PROBE key:.blacklist present asymmetric "lockshim test revoked: '
}

# A locked table whose SbatLevel area is empty: the kernel cannot decide
# as lockshim would, so kexec_file_load refuses every image, the
# vendor-signed one too; modules are not concerned.
table_locked_no_sbat_level_kexec_refused() {
	launch_kernel "${FUNCNAME[0]}" "" "" --locked "${TRUSTED[@]}" --no-sbat-level || return 1
	expect_bootlog 'locked down (Secure Boot, table v3)' &&
		expect_bootlog 'SbatLevel unusable (no records: the sbat entry is missing): every kexec image will be refused' &&
		expect_locked && expect_trust "vendor mok" "" &&
		expect_probe kexec_file_load:vendor refused 'errno=EKEYREJECTED.*no usable SbatLevel'
}

# A valid table without LOCKED: nothing locks, its trusted keys are not used.
table_unlocked() {
	launch_kernel "${FUNCNAME[0]}" "" "" --unlocked "${TRUSTED[@]}" || return 1
	expect_bootlog 'table present, not locked (table v3)' &&
		expect_bootlog 'table keys: 0 denied entries; trusted keys unused (the table does not lock)' &&
		expect_unlocked && expect_machine_keys ""
}

# secureboot_enable=1 with an unlocked table: locked, but the table's keys
# are not trusted: a table that does not lock comes from a boot nothing
# verified, whatever the command line says (the simulation only restricts).
table_unlocked_simulate_locks() {
	launch_kernel "${FUNCNAME[0]}" "secureboot_enable=1" "" --unlocked "${TRUSTED[@]}" || return 1
	expect_bootlog 'secureboot_enable=1: locking down (table v3 present, not locked)' &&
		expect_bootlog 'table keys: 0 denied entries; trusted keys unused (the table does not lock)' &&
		expect_locked && expect_trust "" "" &&
		expect_machine_keys ""
}

# A denied certificate wins over the same certificate among the trusted ones.
table_denied_entry_refused() {
	launch_kernel "${FUNCNAME[0]}" "" "" --locked "${TRUSTED[@]}" --denied "$PKI/mok.esl" || return 1
	expect_bootlog 'locked down (Secure Boot, table v3)' &&
		expect_locked && expect_trust "vendor" "vendor" &&
		expect_probe finit_module:lstest_mok refused 'errno=EKEYREJECTED' &&
		expect_log -F 'PROBE key:.blacklist present asymmetric "lockshim test mok: '
}

# In boot services memory, which the kernel frees before it loads keys: the
# table must have been reserved for its keys to load.
table_in_boot_services_memory() {
	launch_kernel "${FUNCNAME[0]}" "" "table_memory=boot" --locked "${TRUSTED[@]}" || return 1
	expect_log -F 'in boot services memory' &&
		expect_bootlog 'locked down (Secure Boot, table v3)' &&
		expect_bootlog 'table keys: 2 trusted certificates, 0 denied entries' &&
		expect_locked && expect_trust "vendor mok" "vendor mok"
}

# Secure Boot on, lockshim signed by db, kernel by vendor, MOK enrolled and
# trusted for the kernel (MokListTrusted): locked through lockshim's table,
# vendor and MOK keys trusted for modules and kexec; db (in the platform
# keyring here) is refused for both, rogue too.
sb_on_lockshim_locked() {
	need_lockshim || return 1
	lockdown_boot "${FUNCNAME[0]}" "$SB_MOK_VARS" "$LD_WORK/lockshim-db.efi" \
		"$LD_WORK/kernel-vendor.efi" || return 1
	expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_bootlog 'locked down (Secure Boot, table v3)' &&
		expect_locked && expect_trust "vendor mok" "vendor mok" &&
		expect_log -F 'PROBE key:.machine present asymmetric "lockshim test mok: ' &&
		expect_variable_store
}

# The same MokList without the owner's --trust-mok: the MOK key is not in
# the table's trusted keys, so a MOK-signed module and kexec image are
# refused; the vendor key still counts. The table, not the variables, is the
# source of MOK trust while it locks: load_uefi.c does not read MokListRT,
# so the MOK key is not even in .platform (it was, before patch 17); db is.
sb_on_lockshim_mok_untrusted() {
	need_lockshim || return 1
	lockdown_boot "${FUNCNAME[0]}" "$SB_MOK_UNTRUSTED_VARS" "$LD_WORK/lockshim-db.efi" \
		"$LD_WORK/kernel-vendor.efi" || return 1
	expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_bootlog 'locked down (Secure Boot, table v3)' &&
		expect_locked && expect_trust "vendor" "vendor" && expect_machine_keys "vendor" &&
		expect_log -F 'PROBE key:.platform present asymmetric "lockshim test db: ' &&
		expect_no_log -F 'PROBE key:.platform present asymmetric "lockshim test mok: '
}

# MokList trusted (--trust-mok) and MokListX denying the same MOK
# certificate by its TBS digest (EFI_CERT_X509_SHA256): the denial wins, for
# modules too, which are checked against the key already in a keyring. That
# needs the entry blacklisted as the digest alone, without the EFI_TIME that
# follows it in the list (patch 14; before it, 48 bytes that no digest
# matches), and before the key is offered to .machine (the table's denials
# load first, patch 17): the MOK key never reaches .machine (the table
# offers it and the keyring refuses it: "2 trusted certificates" counts
# what the table offers), the MOK-signed module and kexec image are refused.
sb_on_mok_denied_by_tbs_digest() {
	need_lockshim || return 1
	lockdown_boot "${FUNCNAME[0]}" "$SB_MOK_TBS_DENIED_VARS" "$LD_WORK/lockshim-db.efi" \
		"$LD_WORK/kernel-vendor.efi" || return 1
	expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_bootlog 'locked down (Secure Boot, table v3)' &&
		expect_bootlog 'trusted certificate not loaded: -129' &&
		expect_bootlog 'table keys: 1 trusted certificates, 1 denied entries' &&
		expect_log -F "PROBE key:.blacklist present blacklist \"tbs:$(_tbs_sha256 "$PKI/mok.der")\"" &&
		expect_log -F "X.509: Cert $(_tbs_sha256 "$PKI/mok.der") is blacklisted" &&
		expect_locked && expect_trust "vendor" "vendor" && expect_machine_keys "vendor" &&
		expect_probe finit_module:lstest_mok refused 'errno=EKEYREJECTED'
}
# The SHA-256 digest of a DER certificate's tbsCertificate, in hex.
_tbs_sha256() { python3 tests/cli/mkesl.py tbs-hex - SHA256 "$1"; }

# What the capability drop costs, measured: the same boot (launch.efi, a
# table, a SATA disk on q35's AHCI with ext2 on it) locked and unlocked.
# Locked, CAP_SYS_RAWIO is gone from every task's bounding set, so what
# smartctl and hdparm send (SG_IO with ATA PASS-THROUGH, the same through
# /dev/bsg, HDIO_DRIVE_CMD) and what extlinux asks (FIBMAP) are refused;
# INQUIRY, on the kernel's list of read-safe SCSI commands, is not. Unlocked,
# each works: IDENTIFY DEVICE returns the disk's model, FIBMAP a block that
# holds the file's bytes. No lockdown message: the capability check refuses.
table_locked_rawio_tools_refused() {
	local LD_RUN_OPTS=("${RAWIO_DISK_OPTS[@]}")
	launch_kernel "${FUNCNAME[0]}" "" "" --locked "${TRUSTED[@]}" || return 1
	expect_bootlog 'locked down (Secure Boot, table v3)' &&
		expect_probe capbnd:self absent &&
		expect_probe sg_io:ata_identify refused 'errno=EPERM.*lockdown_msg=no' &&
		expect_probe bsg:ata_identify refused 'errno=EPERM.*lockdown_msg=no' &&
		expect_probe hdio:drive_cmd refused 'errno=EACCES.*lockdown_msg=no' &&
		expect_probe fibmap refused 'errno=EPERM.*lockdown_msg=no' &&
		expect_probe sg_io:inquiry allowed 'status=0x0 model="ATA +QEMU HARDDISK'
}
table_unlocked_rawio_tools_work() {
	local LD_RUN_OPTS=("${RAWIO_DISK_OPTS[@]}")
	launch_kernel "${FUNCNAME[0]}" "" "" --unlocked "${TRUSTED[@]}" || return 1
	expect_bootlog 'table present, not locked (table v3)' &&
		expect_probe capbnd:self present &&
		expect_probe sg_io:ata_identify allowed 'status=0x0 model="QEMU HARDDISK"' &&
		expect_probe bsg:ata_identify allowed 'status=0x0 model="QEMU HARDDISK"' &&
		expect_probe hdio:drive_cmd allowed 'ret=0' &&
		expect_probe fibmap allowed 'block=[1-9][0-9]* block_size=1024 on_disk=matches' &&
		expect_probe sg_io:inquiry allowed 'status=0x0 model="ATA +QEMU HARDDISK'
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main lockdown_prepare "$@"
fi
