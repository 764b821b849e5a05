#!/usr/bin/env bash
# What root in the OS can leave in the firmware's variables before a
# reboot, and what lockshim makes of it on the next boot. squatted_mirrors
# is two boots of Debian's stock kernel (Boot0000, through lockshim unless
# said) with a mokutil guest: boot 1 writes time-authenticated variables
# through efivarfs as root does (plain ones root writes the same way, as
# mokutil's requests show in test_mok.sh); boot 2, through lockshim, shows
# what the stock kernel was handed. The others plant the same bytes with
# the same attributes in the VARS store offline (mok.sh mok_variant,
# cached), and boot once: what lockshim reads is the same.
#
#   tests/qemu/test_hostile_state.sh [SCENARIO...]     (default: all, in order)
#
#   root_sets_mok_sb_state      root creates MokSBState (NV|BS|RT, value 1):
#                               lockshim deletes it with a console line, sets
#                               no MokSBStateRT, and the stock kernel is
#                               locked down ([integrity]): an unsigned module
#                               is refused
#   root_sets_mok_list          root creates MokList (NV|BS|RT) holding its
#                               own certificate: deleted, never trusted; a
#                               kernel signed by that key is refused
#   squatted_mirrors            root creates MokListRT, MokListXRT,
#                               MokSBStateRT and SbatLevelRT as
#                               time-authenticated variables signed with its
#                               own key, which lockshim cannot delete:
#                               lockshim says so for each, and the stock
#                               kernel still locks down and reads lockshim's
#                               copies from the MokVar table
#                               (/sys/firmware/efi/mok-variables)
#   squatted_pw_store           root creates MokPWStore, the MOK password,
#                               as a time-authenticated variable (which
#                               lockshim cannot delete) holding a password of
#                               its choosing; with MokTimeout set, a key
#                               pressed during the countdown: lockshim says
#                               it cannot delete it, the MOK manager ignores
#                               it (not NV|BS) and opens its menu without
#                               asking for that password
#   squatted_mok_list           MokList as a time-authenticated variable
#                               signed with root's key and holding its
#                               certificate, which lockshim cannot delete:
#                               lockshim says so, ignores it, and refuses a
#                               kernel signed by that key; MokList stays
#   squatted_mok_list_enroll    the same MokList, then a pending enrollment
#                               (mokutil's recorded MokNew and MokAuth),
#                               confirmed: the MOK manager merges only what
#                               it read through the owner-variable check, so
#                               it says it ignores root's list and carries
#                               none of root's keys into a list of its own;
#                               it cannot delete root's list, so nothing is
#                               written, and root's key stays untrusted
#   rt_mok_state_deleted        MokListX (holding the db certificate),
#                               MokDBState and MokListTrusted (both 1), each
#                               NV|BS|RT: lockshim deletes each with a
#                               console line and its record, and none has an
#                               effect: the db-signed kernel boots through db,
#                               and Linux sees no MokListTrustedRT nor
#                               MokIgnoreDB
#   planted_boot_record         root plants LockshimBootLog non-volatile
#                               (NV|BS|RT), claiming a boot that did not
#                               happen: lockshim deletes it before its first
#                               record, with a console line and that record,
#                               and Linux reads this boot's record, volatile
#                               (BS|RT), from efivarfs
#
# A boot in which lockshim must refuse the kernel ends on the firmware's
# line that lockshim returned EFI_SECURITY_VIOLATION ($FIRMWARE_REFUSED).
#
# Environment and output as for test_mok.sh (mok.sh gives the preparation).

# shellcheck source=tests/qemu/mok.sh
. "$(dirname "${BASH_SOURCE[0]}")/mok.sh" # cds to the repository

SCENARIOS=(
	root_sets_mok_sb_state
	root_sets_mok_list
	squatted_mirrors
	squatted_pw_store
	squatted_mok_list
	squatted_mok_list_enroll
	rt_mok_state_deleted
	planted_boot_record
)
MIRRORS=(MokListRT MokListXRT MokSBStateRT SbatLevelRT)
RT_PLANTED=(MokListX MokDBState MokListTrusted)

MOK_WORK=$QEMU_BUILD/hostile
HOSTILE_DATA=$QEMU_BUILD/hostile-planted
EFIVARS=/sys/firmware/efi/efivars
UNSIGNED_MODULE=/data/efivarfs-unsigned.ko

# strip_module_signature IN OUT: the module without its appended signature
# (struct module_signature, then "~Module signature appended~\n").
strip_module_signature() {
	python3 - "$1" "$2" <<'EOF'
import struct, sys
data = open(sys.argv[1], "rb").read()
magic = b"~Module signature appended~\n"
if not data.endswith(magic):
    sys.exit(f"{sys.argv[1]}: not a signed module")
sig_len = struct.unpack(">I", data[-len(magic) - 4:-len(magic)])[0]
open(sys.argv[2], "wb").write(data[:len(data) - len(magic) - 12 - sig_len])
EOF
}

# squat_auth NAME DATA OUT: the EFI_VARIABLE_AUTHENTICATION_2 payload that
# creates NAME as a time-authenticated variable signed with the rogue key
# (a fixed timestamp: the same bytes every time).
squat_auth() {
	sign-efi-sig-list -g "$SHIM_GUID" -t '2026-01-01 00:00:00' \
		-k "$PKI/rogue.key" -c "$PKI/rogue.crt" "$1" "$2" "$3" >/dev/null
}

# squat_payload NAME DATA OUT: what root writes to efivarfs to create NAME as
# a time-authenticated variable signed with the rogue key: the attributes
# (NV|BS|RT|time-based authenticated write) and squat_auth's payload.
squat_payload() {
	local out=$3
	squat_auth "$1" "$2" "$out.auth" &&
		{ printf '\x27\x00\x00\x00'; cat "$out.auth"; } >"$out" && rm -f "$out.auth"
}

hostile_prepare() {
	local data=$HOSTILE_DATA module
	mok_prepare
	[[ -z $PREP_ERROR && -z $LOCKSHIM_MISSING ]] || return 0
	# the stock kernel's efivarfs.ko, which mok_prepare's guest build extracted
	module=$LOCKSHIM_CACHE/$(cat "$LOCKSHIM_CACHE/debian-kernel.stamp")/modules/efivarfs.ko
	rm -rf "$data" && mkdir -p "$data"
	printf '\x01' >"$data/one.bin"
	printf 'boot-record=1 lockshim=planted dropped=0\nlockdown=none reason=secure-boot-off\n' \
		>"$data/LockshimBootLog.txt"
	_prep "unsigned module" strip_module_signature "$module" "$data/efivarfs-unsigned.ko" &&
		_prep "squatted MokListRT" squat_payload MokListRT "$PKI/rogue.esl" "$data/MokListRT.bin" &&
		_prep "squatted MokListXRT" squat_payload MokListXRT "$PKI/rogue.esl" "$data/MokListXRT.bin" &&
		_prep "squatted MokSBStateRT" squat_payload MokSBStateRT "$data/one.bin" "$data/MokSBStateRT.bin" &&
		_prep "squatted SbatLevelRT" squat_payload SbatLevelRT certs/sbat-level-latest.csv \
			"$data/SbatLevelRT.bin" &&
		_prep "squatted MokList" squat_auth MokList "$PKI/rogue.esl" "$data/MokList.auth" &&
		_prep "squatted MokPWStore" squat_auth MokPWStore \
			tests/vectors/mokutil/password_hashfile/MokPW.bin "$data/MokPWStore.auth" || return 0
	for f in MokListRT MokListXRT MokSBStateRT SbatLevelRT; do
		MOK_GUEST_ADD+=(--add "$data/$f.bin:/data/$f.bin")
	done
	MOK_GUEST_ADD+=(--add "$data/efivarfs-unsigned.ko:$UNSIGNED_MODULE")
}

# Boot 2's steps: the lockdown state, an unsigned module, the MokVar table
# (each entry's first 80 bytes in hex), the kernel's lockdown messages.
AFTER_STEPS=$(cat <<'EOF'
step mount -t securityfs securityfs /sys/kernel/security
step cat /sys/kernel/security/lockdown
step insmod /data/efivarfs-unsigned.ko
for f in /sys/firmware/efi/mok-variables/*; do
	echo "MOKVAR-TABLE ${f##*/} $(od -An -tx1 "$f" | tr -d ' \n' | head -c 160)"
done
dmesg | grep -E 'Lockdown|MOKvar|MokListRT|Loading of' | sed 's/^/DMESG /'
EOF
)

# after_boot NAME VARS: boot 2 with the vendor-signed stock kernel; checks
# the kernel locked itself down and refused the unsigned module.
after_boot() {
	local name=$1 vars=$2
	boot_mok "after-$name" "$vars" "$BOOT_WORK/kernel-vendor.efi" "$AFTER_STEPS" || return 1
	expect_log -F 'lockshim: lockdown table: locked (Secure Boot)' &&
		expect_log -F '| none [integrity] confidentiality' &&
		expect_log -F "| insmod: can't insert '$UNSIGNED_MODULE': Key was rejected by service" &&
		expect_log -F 'Loading of unsigned module is rejected' &&
		expect_log "integrity: Loaded X.509 cert 'lockshim test vendor: " &&
		expect_no_log "integrity: Loaded X.509 cert 'lockshim test rogue" &&
		expect_log -F 'MOKUTIL-GUEST-DONE'
}

root_sets_mok_sb_state() {
	local vars=$MOK_WORK/mok-sb-state.fd src
	src=$(mok_variant hostile-mok-sb-state-rt --var "MokSBState:$SHIM_GUID:0x7:$HOSTILE_DATA/one.bin") || return 1
	cp "$src" "$vars" && expect_var "$vars" MokSBState 0x7 || return 1
	after_boot mok-sb-state "$vars" || return 1
	expect_log -F 'lockshim: deleted MokSBState: attributes 0x7 are not the MOK manager' &&
		expect_no_log -F 'insecure mode' &&
		expect_no_log -F "MOKUTIL-VAR MokSBStateRT-$SHIM_GUID" &&
		expect_no_log -F 'MOKVAR-TABLE MokSBStateRT' &&
		expect_no_var "$vars" MokSBState
}

root_sets_mok_list() {
	local vars=$MOK_WORK/mok-list.fd src
	src=$(mok_variant hostile-mok-list-rt --var "MokList:$SHIM_GUID:0x7:$PKI/rogue.esl") || return 1
	cp "$src" "$vars" && expect_var "$vars" MokList 0x7 || return 1
	boot_mok_refused after-mok-list "$vars" "$BOOT_WORK/kernel-rogue.efi" || return 1
	expect_order -F 'lockshim: deleted MokList: attributes 0x7 are not the MOK manager' 'lockshim: refusing' &&
		expect_mok_kernel_refused 'signer does not chain to a trusted certificate' 'reason=untrusted-signer' &&
		expect_no_var "$vars" MokList
}

# Root creates each of the four mirror names as a time-authenticated
# variable in a boot where lockshim left no copy of its own (the firmware
# started the db-signed kernel directly: the volatile copy of a lockshim
# boot cannot be deleted at runtime). Each survives lockshim, which says so
# for each, and the kernel still locks down and reads lockshim's copies.
squatted_mirrors() {
	local vars=$MOK_WORK/squatted.fd name steps=() level
	cp "$VARS_BASE" "$vars"
	for name in "${MIRRORS[@]}"; do
		steps+=("step sh -c 'cat /data/$name.bin > $EFIVARS/$name-$SHIM_GUID'")
	done
	FIRST_STAGE=$MOK_WORK/kernel-db.efi boot_mok plant-mirrors "$vars" "$BOOT_WORK/kernel-vendor.efi" \
		"$(printf '%s\n' "${steps[@]}")" || return 1
	for name in "${MIRRORS[@]}"; do
		expect_var "$vars" "$name" 0x27 || return 1
	done
	after_boot squatted "$vars" || return 1
	for name in "${MIRRORS[@]}"; do
		expect_log -F "lockshim: cannot write $name as lockshim's own volatile variable: " &&
			expect_var "$vars" "$name" 0x27 || return 1
	done
	level=$(head -n1 certs/sbat-level-automatic.csv)
	# MokListRT from the table, lockshim's (the squatted one holds the rogue key)
	expect_order -F 'UEFI:MokListRT (MOKvar table)' "Loaded X.509 cert 'lockshim test vendor" &&
		expect_no_log -F 'MOKVAR-TABLE MokSBStateRT' &&
		expect_log -F "MOKVAR-TABLE SbatLevelRT $(printf '%s' "$level" | od -An -tx1 | tr -d ' \n')"
}

# A MOK password only root knows, which lockshim cannot delete, neither
# guards the menu nor keeps the owner out of it.
squatted_pw_store() {
	local vars=$MOK_WORK/squatted-pw-store.fd src
	src=$(mok_variant hostile-squatted-pw-store \
		--var "MokTimeout:$SHIM_GUID:0x7:$MOK_WORK/MokTimeout.bin" \
		--var "MokPWStore:$SHIM_GUID:0x27:$HOSTILE_DATA/MokPWStore.auth") || return 1
	cp "$src" "$vars" && expect_var "$vars" MokPWStore 0x27 || return 1
	boot_mok after-pw-store "$vars" "$BOOT_WORK/kernel-vendor.efi" 'step true' \
		--send-on 'press any key for the MOK manager' ' ' \
		--send-on 'Choice \(continues booting' '3' || return 1
	expect_log -F "lockshim: MokPWStore has attributes 0x27, not the MOK manager's 0x3, and cannot be deleted: " &&
		expect_log -F "MOK manager: ignoring MokPWStore: attributes 0x27 are not the MOK manager's 0x3" &&
		expect_order -F 'lockshim: starting the MOK manager' '==== MOK manager ====' &&
		expect_no_log -F 'Password for MOK manager' &&
		expect_log -F 'MOKUTIL-GUEST-DONE' &&
		expect_var "$vars" MokPWStore 0x27
}

# Root's MokList that lockshim cannot delete (time-authenticated, signed
# with root's own key) is never trusted: ignored, said, and left there.
squatted_mok_list() {
	local vars=$MOK_WORK/squatted-mok-list.fd src
	src=$(mok_variant hostile-squatted-mok-list \
		--var "MokList:$SHIM_GUID:0x27:$HOSTILE_DATA/MokList.auth") || return 1
	cp "$src" "$vars"
	boot_mok_refused squatted-mok-list "$vars" "$BOOT_WORK/kernel-rogue.efi" || return 1
	expect_order -F "lockshim: MokList has attributes 0x27, not the MOK manager's 0x3, and cannot be deleted: " \
		'lockshim: variable=MokList action=ignored reason=attributes attributes=0x27' &&
		expect_order -F 'lockshim: variable=MokList action=ignored' 'lockshim: refusing' &&
		expect_mok_kernel_refused 'signer does not chain to a trusted certificate' 'reason=untrusted-signer' &&
		expect_var "$vars" MokList 0x27
}

# Root's MokList that lockshim cannot delete, then a pending enrollment the
# owner confirms: the MOK manager ignores root's list as lockshim did
# (without that check it merged root's certificate into the list it then
# tried to write), so no list it writes could hold root's key.
squatted_mok_list_enroll() {
	local vars=$MOK_WORK/squatted-mok-list-enroll.fd src
	src=$(mok_variant hostile-squatted-mok-list-enroll \
		--var "MokList:$SHIM_GUID:0x27:$HOSTILE_DATA/MokList.auth" \
		--var "MokNew:$SHIM_GUID:0x7:$MOK_VECTORS/import_hashfile/MokNew.bin" \
		--var "MokAuth:$SHIM_GUID:0x7:$MOK_VECTORS/import_hashfile/MokAuth.bin") || return 1
	cp "$src" "$vars"
	# the recorded request's password (tests/vectors/mokutil/README.md)
	boot_mok_refused squatted-mok-list-enroll "$vars" "$BOOT_WORK/kernel-rogue.efi" \
		--send-on "$MM_YES_ENROLL" 'yes\r' \
		--send-on 'Password for Enroll MOK \(attempt 1 of 3\)' 'lockshim-mok-1\r' || return 1
	expect_order -F "lockshim: MokList has attributes 0x27, not the MOK manager's 0x3, and cannot be deleted: " \
		'lockshim: starting the MOK manager' &&
		expect_order -F 'Password for Enroll MOK (attempt 1 of 3)' \
			"MOK manager: ignoring MokList: attributes 0x27 are not the MOK manager's 0x3" &&
		expect_log -F 'MOK manager: cannot delete MokList: ' &&
		expect_no_log -F 'Enroll MOK: done' &&
		expect_no_log -F 'MOK manager: cannot write MokList' &&
		expect_mok_kernel_refused 'signer does not chain to a trusted certificate' 'reason=untrusted-signer' &&
		expect_var "$vars" MokList 0x27 && expect_no_var "$vars" MokNew
}

# What the MOK manager alone sets, written NV|BS|RT as an OS writes it
# (the manager's are NV|BS): deleted at boot, and without effect in that
# boot. MokListX holds the db certificate, MokDBState says ignore db: yet
# the db-signed kernel boots through db, and Linux still loads db's
# certificate; MokListTrusted says trust MOK keys: yet no MokListTrustedRT
# (nor MokIgnoreDB) reaches Linux.
rt_mok_state_deleted() {
	local vars=$MOK_WORK/rt-mok-state.fd src name
	src=$(mok_variant hostile-rt-mok-state \
		--var "MokListX:$SHIM_GUID:0x7:$PKI/db.esl" \
		--var "MokDBState:$SHIM_GUID:0x7:$HOSTILE_DATA/one.bin" \
		--var "MokListTrusted:$SHIM_GUID:0x7:$HOSTILE_DATA/one.bin") || return 1
	cp "$src" "$vars"
	boot_mok rt-mok-state "$vars" "$MOK_WORK/kernel-db.efi" 'step true' || return 1
	for name in "${RT_PLANTED[@]}"; do
		expect_order -F "lockshim: deleted $name: attributes 0x7 are not the MOK manager's 0x3" \
			"lockshim: variable=$name action=deleted reason=attributes attributes=0x7" &&
			expect_no_var "$vars" "$name" || return 1
	done
	expect_no_log -F 'lockshim: refusing' &&
		expect_no_log -F 'lockshim: not trusting db' &&
		expect_log -F 'lockshim: booting \EFI\lockshim\linux.efi: signed by /CN=lockshim test db, trusted through db certificate' &&
		expect_log -F 'MOKUTIL-GUEST-DONE' &&
		expect_no_log -F "MOKUTIL-VAR MokListTrustedRT-$SHIM_GUID" &&
		expect_no_log -F "MOKUTIL-VAR MokIgnoreDB-$SHIM_GUID" &&
		expect_log "integrity: Loaded X.509 cert 'lockshim test db: "
}

planted_boot_record() {
	local vars=$MOK_WORK/boot-record.fd src lg=fa4589c8-983f-4879-98de-41989578e75d
	src=$(mok_variant hostile-boot-record \
		--var "LockshimBootLog:$lg:0x7:$HOSTILE_DATA/LockshimBootLog.txt") || return 1
	cp "$src" "$vars"
	# the guest: the variable's attributes, then its data, as efivarfs shows them
	boot_mok planted-boot-record "$vars" "$MOK_WORK/kernel-db.efi" \
		"step od -An -tx1 -N4 $EFIVARS/LockshimBootLog-$lg
step dd if=$EFIVARS/LockshimBootLog-$lg bs=4 skip=1" || return 1
	# deleted before lockshim's first record, and said so
	expect_order -F 'lockshim: variable=LockshimBootLog action=deleted reason=attributes attributes=0x7' \
		'lockshim: memory-attributes=' &&
		expect_log '^\| +06 00 00 00$' &&
		expect_log '^\| boot-record=1 lockshim=[^ ]+ dropped=0$' &&
		expect_order -F '| variable=LockshimBootLog action=deleted reason=attributes attributes=0x7' \
			'| verdict=allowed image=\EFI\lockshim\linux.efi reason=allowed-cert list=db' &&
		expect_no_log -F 'lockshim=planted' &&
		expect_no_log -F '| lockdown=none'
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main hostile_prepare "$@"
fi
