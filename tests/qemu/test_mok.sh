#!/usr/bin/env bash
# The MOK manager end to end, across real reboots: one writable VARS file
# per scenario carries the variables from boot to boot.
#
#   tests/qemu/test_mok.sh [SCENARIO...]     (default: all, in order)
#
# Every request is confirmed by typing yes once the manager has shown what
# it will do, then its password (or three characters of it).
#
# Where a scenario is about the manager, its request is planted in the
# scenario's VARS store before the boot into the manager: the variables
# Debian's mokutil wrote in tests/vectors/mokutil, byte for byte with their
# attributes, answered with the passwords of their case.json (mok.sh
# plant_vectors). A few keep Debian's real mokutil end to end: boot 1 runs
# it (tests/initramfs/mokutil-guest.sh, through a Boot0000 entry) to write
# the request: [mokutil] below. The kernel lockshim boots here is the
# companion test kernel (mok.sh), except where a scenario is about what
# Debian's stock kernel does with lockshim's variables.
#
#   mok_enroll_with_mokutil     [mokutil] --import mok.der --hash-file;
#                               reboot: lockshim starts mmx64.efi, the harness
#                               types the password; reboot: a kernel signed
#                               only by the MOK key boots and mokutil
#                               --list-enrolled shows the key
#   mok_wrong_passwords         three wrong passwords: nothing enrolled, the
#                               request is gone (no replay)
#   mok_empty_password_hash     [mokutil] --import with --hash-file holding the
#                               SHA-256 crypt of "" (no recorded vector has
#                               it): Enter at the password prompt is refused
#                               ("empty password"), nothing enrolled, the
#                               request gone
#   mok_legacy_hash_empty_password  MokNew and a 32-byte MokAuth, SHA-256 over
#                               MokNew alone (the legacy form of an empty
#                               password), as root writes them: Enter
#                               refused likewise
#   mok_yes_required            a MokNew, a MokSB and a MokPW: Enter at the
#                               first yes prompt, Escape at the second, a
#                               single y at the third; though the harness
#                               would type the right passwords and
#                               characters, nothing is written
#   mok_yes_timeout             a MokSB and no answer at all: the prompt
#                               times out (60 s of the guest's time, which
#                               QEMU's -icount sleep=off lets pass while the
#                               guest idles) and refuses
#   mok_delete_with_mokutil     [mokutil] from an enrolled MokList: --delete,
#                               confirmed: the MOK-signed kernel is refused
#   mok_corrupt_request         a MokNew that is not a signature list: refused,
#                               cleared, nothing enrolled
#   mok_owner_enrolls_key_file  MokTimeout set: a key pressed during lockshim's
#                               countdown opens the manager's menu, where the
#                               owner enrolls \EFI\lockshim\mok.der from the ESP
#   mok_owner_enrolls_image_hash  the same with the hash of an unsigned kernel,
#                               which then boots through MokList
#   mok_password_guards_menu    a MokPW (--password), confirmed: the menu entered
#                               on purpose then asks for that MOK password
#   mok_pw_store_wrong_attributes  MokPWStore written NV|BS|RT (by root: the
#                               manager writes NV|BS) with a password root
#                               chose, and MokTimeout: lockshim deletes it
#                               with a console line, and the menu opens
#                               without asking for that password
#   mok_reset                   from an enrolled MokList: a MokAuth alone
#                               (--reset), confirmed: MokList is gone
#   mokx_enroll_refuses_kernel  [mokutil] --mokx --import, confirmed: MokListX
#                               holds the key and the MOK-signed kernel is
#                               refused (the recorded vectors' key has no
#                               private key here to sign a kernel with)
#   mok_trust_mok               a MokListTrustedNew (--trust-mok), confirmed:
#                               MokListTrusted is set and Linux sees lockshim's
#                               MokListTrustedRT
#   mok_request_wrong_attributes  a MokNew written NV|BS (not mokutil's NV|BS|RT):
#                               ignored and cleared, nothing enrolled
#   mok_ignore_db               a MokDB (--ignore-db), confirmed: a kernel
#                               signed by the db key is refused (db no longer
#                               trusted), and Debian's stock kernel finds
#                               lockshim's volatile MokIgnoreDB and loads no
#                               db certificate into .platform
#   sbat_policy_with_mokutil    [mokutil] --list-sbat-revocations reads lockshim's
#                               SbatLevelRT; --set-sbat-policy latest: on the
#                               next boot lockshim applies its latest level,
#                               deletes SbatPolicy, and mokutil lists the new level
#   mok_impostor_refused        root's MokNew pending and a vendor-signed image
#                               with .sbat (the test kernel) copied to
#                               mmx64.efi: lockshim refuses it as not its own
#                               MOK manager (the build's digest), never starts
#                               it, and boots the kernel with its tables
#                               installed; the request stays pending
#   mok_impostor_refused_mokx_unusable  the same with a malformed MokListX:
#                               the impostor is refused as not the MOK
#                               manager, then the kernel for the unusable list
#   mokx_malformed_manager_reachable  MokListX (NV|BS) holds a malformed
#                               signature list: lockshim refuses the kernel (a
#                               deny list it cannot use whole), but a key pressed
#                               during the countdown still starts the manager
#   mok_validation_off_and_on   a MokSB (--disable-validation), confirmed by
#                               typing the characters the manager asks for
#                               (three distinct positions; randomness from the
#                               TSC under qemu64, from RDRAND or the firmware's
#                               RNG under -cpu max): lockshim boots an unsigned
#                               kernel "in insecure mode", table not locked,
#                               where [mokutil] --enable-validation asks to
#                               undo it; confirmed, the unsigned kernel is
#                               refused
#
# A boot in which lockshim must refuse the kernel ends on the firmware's
# line that lockshim returned EFI_SECURITY_VIOLATION ($FIRMWARE_REFUSED),
# not on lockshim's own refusal. lockshim and mmx64.efi are signed with db,
# the kernels with the vendor or MOK key. Variables are checked offline
# between boots (mkdmpstore.py --list).

# shellcheck source=tests/qemu/mok.sh
. "$(dirname "${BASH_SOURCE[0]}")/mok.sh" # cds to the repository

SCENARIOS=(
	mok_enroll_with_mokutil
	mok_wrong_passwords
	mok_empty_password_hash
	mok_legacy_hash_empty_password
	mok_yes_required
	mok_yes_timeout
	mok_delete_with_mokutil
	mok_corrupt_request
	mok_validation_off_and_on
	mok_owner_enrolls_key_file
	mok_owner_enrolls_image_hash
	mok_ignore_db
	mok_password_guards_menu
	mok_pw_store_wrong_attributes
	mok_reset
	mokx_enroll_refuses_kernel
	mok_trust_mok
	mok_request_wrong_attributes
	sbat_policy_with_mokutil
	mokx_malformed_manager_reachable
	mok_impostor_refused
	mok_impostor_refused_mokx_unusable
)


# Boot 1: mokutil leaves a request.
request_with_mokutil() {
	local name=$1 vars=$2 cmd=$3
	boot_mok "$name-request" "$vars" "$BOOT_WORK/companion-vendor.efi" "step $cmd" || return 1
	expect_log -F 'MOKUTIL-GUEST-DONE' && expect_log 'MOKUTIL-RC 1 0'
}

# Boot 2: lockshim starts the MOK manager; the harness answers each prompt.
# It ends when the manager reboots, or when lockshim goes on to the kernel
# (the manager changed nothing): the kernel itself is not needed here (nor
# run: --firmware-only). (Not on "booting in insecure mode", which lockshim
# says before the manager.)
confirm_in_manager() {
	local name=$1 vars=$2; shift 2
	boot_mok "$name-confirm" "$vars" "$BOOT_WORK/companion-vendor.efi" 'step true' \
		--stop 'MOK manager: rebooting' --stop 'lockshim: booting \\EFI' --firmware-only "$@" || return 1
	expect_log -F 'lockshim: starting the MOK manager' &&
		expect_log -F 'lockshim: starting \EFI\lockshim\mmx64.efi: signed by /CN=lockshim test db, trusted through db certificate'
}

mok_enroll_with_mokutil() {
	local vars=$MOK_WORK/enroll.fd
	cp "$VARS_BASE" "$vars"
	request_with_mokutil enroll "$vars" 'mokutil --import /data/mok.der --hash-file /data/pw.hash' &&
		expect_var "$vars" MokNew 0x7 && expect_var "$vars" MokAuth 0x7 || return 1
	confirm_in_manager enroll "$vars" --send-on "$MM_YES_ENROLL" 'yes\r' \
		--send-on 'Password for Enroll MOK \(attempt 1 of 3\)' "$PASSWORD\r" || return 1
	expect_order -F 'Subject:  /CN=lockshim test mok' "Enroll these keys in MokList (trusted)? Type 'yes'" &&
		expect_order -F "Type 'yes' to continue: yes" 'Password for Enroll MOK (attempt 1 of 3)' &&
		expect_log 'SHA-256:  ([0-9A-F]{2}:){31}[0-9A-F]{2}' &&
		expect_log -F 'MOK manager: Enroll MOK: done (1 entry)' &&
		expect_log -F 'MOK manager: rebooting' &&
		expect_var "$vars" MokList 0x3 && expect_no_var "$vars" MokNew && expect_no_var "$vars" MokAuth || return 1
	boot_mok enroll-after "$vars" "$BOOT_WORK/companion-mok.efi" 'step mokutil --list-enrolled' || return 1
	expect_no_log -F 'lockshim: starting the MOK manager' &&
		expect_log -F 'lockshim: booting \EFI\lockshim\linux.efi: signed by /CN=lockshim test mok, trusted through MokList certificate /CN=lockshim test mok' &&
		expect_log 'Subject: CN ?= ?lockshim test mok' &&
		expect_log -F 'MOKUTIL-GUEST-DONE'
}

mok_wrong_passwords() {
	local vars=$MOK_WORK/wrong.fd
	plant_vectors mok-wrong "$vars" import_hashfile/MokNew import_hashfile/MokAuth || return 1
	confirm_in_manager wrong "$vars" --send-on "$MM_YES_ENROLL" 'yes\r' \
		--send-on 'attempt 1 of 3' 'wrong-one\r' \
		--send-on 'attempt 2 of 3' 'wrong-two\r' \
		--send-on 'attempt 3 of 3' 'wrong-three\r' || return 1
	expect_log -F 'MOK manager: too many wrong passwords: Enroll MOK refused' &&
		expect_no_log -F 'MOK manager: rebooting' &&
		expect_log -F 'lockshim: booting \EFI\lockshim\linux.efi' &&
		expect_no_var "$vars" MokList && expect_no_var "$vars" MokNew && expect_no_var "$vars" MokAuth
}

# expect_empty_password_refused VARS: Enter at each password prompt was
# refused as an empty password; nothing enrolled, the request gone.
expect_empty_password_refused() {
	local vars=$1
	expect_log -F 'MOK manager: empty password: not accepted' &&
		expect_log -F 'MOK manager: too many wrong passwords: Enroll MOK refused' &&
		expect_no_log -F 'Enroll MOK: done' &&
		expect_no_log -F 'MOK manager: rebooting' &&
		expect_log -F 'lockshim: booting \EFI\lockshim\linux.efi' &&
		expect_no_var "$vars" MokList && expect_no_var "$vars" MokNew && expect_no_var "$vars" MokAuth
}

# Enter (an empty password) at each of the three password prompts.
ENTER_AT_PASSWORDS=(--send-on 'Password for Enroll MOK \(attempt 1 of 3\)' '\r'
	--send-on 'Password for Enroll MOK \(attempt 2 of 3\)' '\r'
	--send-on 'Password for Enroll MOK \(attempt 3 of 3\)' '\r')

mok_empty_password_hash() {
	local vars=$MOK_WORK/empty-hash.fd
	cp "$VARS_BASE" "$vars"
	request_with_mokutil empty-hash "$vars" 'mokutil --import /data/mok.der --hash-file /data/empty.hash' &&
		expect_var "$vars" MokNew 0x7 && expect_var "$vars" MokAuth 0x7 || return 1
	confirm_in_manager empty-hash "$vars" --send-on "$MM_YES_ENROLL" 'yes\r' "${ENTER_AT_PASSWORDS[@]}" || return 1
	expect_empty_password_refused "$vars"
}

# Root writes the request itself, as mokutil would but with the legacy
# MokAuth: SHA-256 over MokNew followed by no password at all. Planted as
# root's efivarfs writes leave them (NV|BS|RT): mokutil's MokNew, and that
# MokAuth (mok_prepare).
mok_legacy_hash_empty_password() {
	local vars=$MOK_WORK/legacy-hash.fd
	plant_vectors mok-legacy-hash "$vars" import_hashfile/MokNew \
		--var "MokAuth:$SHIM_GUID:0x7:$MOK_WORK/legacy-MokAuth.bin" || return 1
	confirm_in_manager legacy-hash "$vars" --send-on "$MM_YES_ENROLL" 'yes\r' "${ENTER_AT_PASSWORDS[@]}" || return 1
	expect_empty_password_refused "$vars"
}

# Enter at the key request's yes prompt, Escape at the state request's, y
# alone at the password request's; the right passwords and characters are
# on offer at their prompts, so a manager that skipped the yes step, or took
# a default or a single key for it, would write. (No answer at all:
# mok_yes_timeout.)
mok_yes_required() {
	local vars=$MOK_WORK/yes-required.fd
	plant_vectors mok-yes-required "$vars" import_hashfile/MokNew import_hashfile/MokAuth \
		disable_validation/MokSB password_hashfile/MokPW || return 1
	confirm_in_manager yes-required "$vars" --send-on "$MM_YES_ENROLL" '\r' \
		--send-on 'Password for Enroll MOK \(attempt 1 of 3\)' "$(vector_password import_hashfile)\r" \
		--answer-chars "$(vector_password disable_validation)" \
		--send-on 'Disable Secure Boot validation\? Type' '\033' \
		--send-on 'Set the MOK password\? Type' 'y\r' \
		--send-on 'Password for Set MOK password \(attempt 1 of 3\)' "$(vector_password password_hashfile)\r" || return 1
	expect_log -F 'MOK manager: not confirmed: Enroll MOK refused' &&
		expect_log -F "Disable Secure Boot validation? Type 'yes' to continue:" &&
		expect_log -F 'MOK manager: no answer: Disable Secure Boot validation refused' &&
		expect_log -F 'MOK manager: not confirmed: Set MOK password refused' &&
		expect_no_log -F 'Password for Enroll MOK' &&
		expect_no_log -F 'Password for Set MOK password' &&
		expect_no_log -F 'Enter password character' &&
		expect_no_log -F 'MOK manager: rebooting' &&
		expect_log -F 'lockshim: booting \EFI\lockshim\linux.efi' &&
		expect_no_var "$vars" MokList && expect_no_var "$vars" MokSBState &&
		expect_no_var "$vars" MokPWStore && expect_no_var "$vars" MokNew &&
		expect_no_var "$vars" MokAuth && expect_no_var "$vars" MokSB && expect_no_var "$vars" MokPW
}

# No answer at all at the yes prompt: it times out and refuses. Its 60 s
# are the guest's: with -icount sleep=off QEMU moves the guest's clock on to
# its next timer whenever the guest idles (the manager waiting for a key),
# so they pass in seconds, and the manager is the one that ships. No key is
# sent: the prompt's timer is its only way out. (The characters are on
# offer all the same, for a manager that took no answer for yes.)
mok_yes_timeout() {
	local vars=$MOK_WORK/yes-timeout.fd
	plant_vectors mok-yes-timeout "$vars" disable_validation/MokSB || return 1
	confirm_in_manager yes-timeout "$vars" --answer-chars "$(vector_password disable_validation)" \
		-- -icount shift=7,sleep=off || return 1
	expect_order -F "Disable Secure Boot validation? Type 'yes' to continue:" \
		'MOK manager: no answer: Disable Secure Boot validation refused' &&
		expect_no_log -F 'Enter password character' &&
		expect_no_log -F 'MOK manager: rebooting' &&
		expect_log -F 'lockshim: booting \EFI\lockshim\linux.efi' &&
		expect_no_var "$vars" MokSBState && expect_no_var "$vars" MokSB
}

mok_delete_with_mokutil() {
	local vars=$MOK_WORK/delete.fd
	cp "$VARS_ENROLLED" "$vars"
	request_with_mokutil delete "$vars" 'mokutil --delete /data/mok.der --hash-file /data/pw.hash' &&
		expect_var "$vars" MokDel 0x7 || return 1
	confirm_in_manager delete "$vars" --send-on 'Delete these keys from MokList\? Type' 'yes\r' \
		--send-on 'Password for Delete MOK \(attempt 1 of 3\)' "$PASSWORD\r" || return 1
	expect_log -F 'MOK manager: Delete MOK: done (1 entry)' &&
		expect_no_var "$vars" MokList && expect_no_var "$vars" MokDel || return 1
	boot_mok_refused delete-after "$vars" "$BOOT_WORK/companion-mok.efi" || return 1
	expect_mok_kernel_refused 'signer does not chain to a trusted certificate' 'reason=untrusted-signer'
}

# The request is planted in the store (attributes as mokutil's), with a real
# MokAuth from tests/vectors: MokNew is a signature list cut short.
mok_corrupt_request() {
	local vars
	head -c 60 "$PKI/mok.esl" >"$MOK_WORK/corrupt-moknew.bin"
	vars=$(mok_variant mok-corrupt \
		--var "MokNew:$SHIM_GUID:0x7:$MOK_WORK/corrupt-moknew.bin" \
		--var "MokAuth:$SHIM_GUID:0x7:tests/vectors/mokutil/import_hashfile/MokAuth.bin") ||
		return 1
	cp "$vars" "$MOK_WORK/corrupt.fd"
	confirm_in_manager corrupt "$MOK_WORK/corrupt.fd" || return 1
	expect_log -F 'MOK manager: malformed MokNew' &&
		expect_log -F 'request refused' &&
		expect_no_log -F 'Password for Enroll MOK' &&
		expect_log -F 'lockshim: booting \EFI\lockshim\linux.efi' &&
		expect_no_var "$MOK_WORK/corrupt.fd" MokNew &&
		expect_no_var "$MOK_WORK/corrupt.fd" MokAuth &&
		expect_no_var "$MOK_WORK/corrupt.fd" MokList
}


# The three characters asked in the first attempt were at distinct positions.
expect_distinct_positions() {
	local -a asked
	mapfile -t asked < <(grep -oE 'Enter password character [0-9]+ \(attempt 1 of 3\)' "$LOG" |
		awk '{ print $4 }')
	if (( ${#asked[@]} != 3 )); then
		echo "FAIL: ${#asked[@]} characters asked in attempt 1, not 3" >&2
		return 1
	fi
	if (( $(printf '%s\n' "${asked[@]}" | sort -u | wc -l) != 3 )); then
		echo "FAIL: the positions asked are not distinct: ${asked[*]}" >&2
		return 1
	fi
	echo "# positions asked: ${asked[*]}" >&2
	POSITIONS_ASKED+=("${asked[@]}")
}

# expect_positions_span LENGTH: the positions asked so far (POSITIONS_ASKED,
# two confirmations of a LENGTH-character password) lie in it, and not all
# among its first three characters: a manager that drew them from a prefix
# would let a prefix of the password confirm. A right one asks only the
# first three twice in a row once in C(12,3)^2 = 48,400 runs.
POSITIONS_ASKED=()
expect_positions_span() {
	local length=$1 p past=0
	for p in "${POSITIONS_ASKED[@]}"; do
		if (( p < 1 || p > length )); then
			echo "FAIL: position $p asked of a $length-character password" >&2
			return 1
		fi
		(( p > 3 )) && past=1
	done
	if (( ! past )); then
		echo "FAIL: only the first three characters asked: ${POSITIONS_ASKED[*]}" >&2
		return 1
	fi
}

mok_validation_off_and_on() {
	local vars=$MOK_WORK/validation.fd
	plant_vectors mok-validation "$vars" disable_validation/MokSB || return 1
	confirm_in_manager validation-off "$vars" --answer-chars "$(vector_password disable_validation)" \
		--send-on 'Disable Secure Boot validation\? Type' 'yes\r' || return 1
	expect_log -F '==== Disable Secure Boot validation ====' &&
		expect_log -F 'lockshim will boot images it cannot verify (MokSBState set).' &&
		expect_log -F 'MOK manager: random positions from the TSC' &&
		expect_distinct_positions &&
		expect_log -F 'MOK manager: Disable Secure Boot validation: done' &&
		expect_var "$vars" MokSBState 0x3 && expect_no_var "$vars" MokSB || return 1
	# the unsigned kernel boots, where Debian's mokutil asks for validation back
	boot_mok validation-insecure "$vars" "$BOOT_WORK/companion-unsigned.efi" \
		'step mokutil --enable-validation < /data/sb.pw' || return 1
	expect_log -F 'lockshim: booting in insecure mode' &&
		expect_log -F 'lockshim: booting \EFI\lockshim\linux.efi unverified: image is not signed' &&
		expect_log -F 'lockshim: lockdown table: not locked' &&
		expect_log 'MOKUTIL-RC 1 0' && expect_log -F 'MOKUTIL-GUEST-DONE' &&
		expect_var "$vars" MokSB 0x7 || return 1
	# a CPU with RDRAND (QEMU's max): RDRAND, or the firmware's RNG if it has one
	confirm_in_manager validation-on "$vars" --answer-chars "$SB_PASSWORD" \
		--send-on 'Enable Secure Boot validation\? Type' 'yes\r' -- -cpu max || return 1
	expect_log 'MOK manager: random positions from (RDRAND|EFI_RNG_PROTOCOL)' &&
		expect_distinct_positions &&
		expect_log -F 'MOK manager: Enable Secure Boot validation: done' &&
		expect_no_var "$vars" MokSBState || return 1
	expect_positions_span "${#SB_PASSWORD}" || return 1
	boot_mok_refused validation-secure "$vars" "$BOOT_WORK/companion-unsigned.efi" || return 1
	expect_no_log -F 'insecure mode' &&
		expect_mok_kernel_refused 'image is not signed' 'reason=not-signed'
}

mok_ignore_db() {
	local vars=$MOK_WORK/ignore-db.fd
	plant_vectors mok-ignore-db "$vars" ignore_db/MokDB || return 1
	confirm_in_manager ignore-db "$vars" --answer-chars "$(vector_password ignore_db)" \
		--send-on 'Ignore db for kernel verification\? Type' 'yes\r' || return 1
	expect_log -F 'MOK manager: Ignore db for kernel verification: done' &&
		expect_var "$vars" MokDBState 0x3 || return 1
	boot_mok_refused ignore-db-after "$vars" "$BOOT_WORK/companion-db.efi" || return 1
	expect_order -F 'lockshim: not trusting db for the kernel' 'lockshim: refusing' &&
		expect_mok_kernel_refused 'signer does not chain to a trusted certificate' 'reason=untrusted-signer' ||
		return 1
	# a stock kernel reads lockshim's MokIgnoreDB (load_uefi.c) and leaves db out of .platform
	boot_mok ignore-db-stock "$vars" "$BOOT_WORK/kernel-vendor.efi" \
		"step od -An -tx1 /sys/firmware/efi/efivars/MokIgnoreDB-$SHIM_GUID
step dmesg" || return 1
	expect_log -F 'lockshim: booting \EFI\lockshim\linux.efi: signed by /CN=lockshim test vendor' &&
		expect_log '^\| +06 00 00 00 01' &&
		expect_log "integrity: Loaded X.509 cert 'lockshim test vendor:" &&
		expect_no_log 'Loading X.509 certificate: UEFI:db' &&
		expect_no_log "Loaded X.509 cert 'lockshim test db:" &&
		expect_log -F 'MOKUTIL-GUEST-DONE'
}

mok_password_guards_menu() {
	local vars=$MOK_WORK/password.fd pw
	pw=$(vector_password password_hashfile) &&
		plant_vectors mok-password "$vars" password_hashfile/MokPW \
			--var "MokTimeout:$SHIM_GUID:0x7:$MOK_WORK/MokTimeout.bin" || return 1
	confirm_in_manager password "$vars" --send-on 'Set the MOK password\? Type' 'yes\r' \
		--send-on 'Password for Set MOK password \(attempt 1 of 3\)' "$pw\r" || return 1
	expect_log -F 'MOK manager: Set MOK password: done' &&
		expect_var "$vars" MokPWStore 0x3 && expect_no_var "$vars" MokPW || return 1
	boot_mok password-menu "$vars" "$BOOT_WORK/companion-vendor.efi" 'step true' \
		--send-on 'press any key for the MOK manager' ' ' \
		--send-on 'Password for MOK manager \(attempt 1 of 3\)' "$pw\r" \
		--send-on 'Choice \(continues booting' '3' || return 1
	expect_order -F 'Password for MOK manager (attempt 1 of 3)' '==== MOK manager ====' &&
		expect_log -F 'MOKUTIL-GUEST-DONE'
}

# Root's MokPWStore (mokutil's MokPW of another password, NV|BS|RT) must not
# keep the owner out of the menu, nor guard it with root's password.
mok_pw_store_wrong_attributes() {
	local vars=$MOK_WORK/pw-store-wrong-attributes.fd src
	src=$(mok_variant mok-pw-store-wrong-attributes \
		--var "MokTimeout:$SHIM_GUID:0x7:$MOK_WORK/MokTimeout.bin" \
		--var "MokPWStore:$SHIM_GUID:0x7:tests/vectors/mokutil/password_hashfile/MokPW.bin") ||
		return 1
	cp "$src" "$vars"
	boot_mok pw-store-wrong-attributes "$vars" "$BOOT_WORK/companion-vendor.efi" 'step true' \
		--send-on 'press any key for the MOK manager' ' ' \
		--send-on 'Choice \(continues booting' '3' || return 1
	expect_log -F "lockshim: deleted MokPWStore: attributes 0x7 are not the MOK manager's 0x3" &&
		expect_order -F 'lockshim: starting the MOK manager' '==== MOK manager ====' &&
		expect_no_log -F 'Password for MOK manager' &&
		expect_log -F 'MOKUTIL-GUEST-DONE' &&
		expect_no_var "$vars" MokPWStore
}

mok_reset() {
	local vars=$MOK_WORK/reset.fd
	plant_vectors mok-reset "$vars" reset/MokAuth --var "MokList:$SHIM_GUID:0x3:$PKI/mok.esl" || return 1
	confirm_in_manager reset "$vars" --send-on 'Remove every MOK from MokList\? Type' 'yes\r' \
		--send-on 'Password for Reset MOK list \(attempt 1 of 3\)' "$(vector_password reset)\r" || return 1
	expect_log -F 'MOK manager: MOK list reset' &&
		expect_no_var "$vars" MokList && expect_no_var "$vars" MokAuth
}

mokx_enroll_refuses_kernel() {
	local vars=$MOK_WORK/mokx.fd
	cp "$VARS_ENROLLED" "$vars"
	request_with_mokutil mokx "$vars" 'mokutil --mokx --import /data/mok.der --hash-file /data/pw.hash' &&
		expect_var "$vars" MokXNew 0x7 || return 1
	confirm_in_manager mokx "$vars" --send-on 'Enroll these keys in MokListX \(refused\)\? Type' 'yes\r' \
		--send-on 'Password for Enroll MOKX \(attempt 1 of 3\)' "$PASSWORD\r" || return 1
	expect_log -F 'MOK manager: Enroll MOKX: done (1 entry)' &&
		expect_var "$vars" MokListX 0x3 && expect_var "$vars" MokList 0x3 || return 1
	boot_mok_refused mokx-after "$vars" "$BOOT_WORK/companion-mok.efi" || return 1
	expect_mok_kernel_refused 'certificate /CN=lockshim test mok is in MokListX' \
		'reason=deny-cert list=MokListX entry="/CN=lockshim test mok"'
}

mok_trust_mok() {
	local vars=$MOK_WORK/trust.fd
	plant_vectors mok-trust "$vars" misc/MokListTrustedNew || return 1
	confirm_in_manager trust "$vars" --answer-chars "$(vector_password misc)" \
		--send-on "Trust MOK keys in the kernel's machine keyring\\? Type" 'yes\r' || return 1
	expect_log -F "MOK manager: Trust MOK keys in the kernel's machine keyring: done" &&
		expect_var "$vars" MokListTrusted 0x3 || return 1
	boot_mok trust-after "$vars" "$BOOT_WORK/companion-vendor.efi" 'step true' || return 1
	expect_log "MOKUTIL-VAR MokListTrustedRT-$SHIM_GUID"
}

mok_request_wrong_attributes() {
	local vars
	vars=$(mok_variant mok-wrong-attributes \
		--var "MokNew:$SHIM_GUID:0x3:tests/vectors/mokutil/import_hashfile/MokNew.bin" \
		--var "MokAuth:$SHIM_GUID:0x7:tests/vectors/mokutil/import_hashfile/MokAuth.bin") ||
		return 1
	cp "$vars" "$MOK_WORK/wrong-attributes.fd"
	# The manager, with nothing to do, offers its menu: continue booting
	# rather than wait out its 60 s.
	confirm_in_manager wrong-attributes "$MOK_WORK/wrong-attributes.fd" \
		--send-on 'Choice \(continues booting' '3' || return 1
	expect_log -F "MOK manager: ignoring MokNew: attributes 0x3 are not mokutil's 0x7" &&
		expect_no_log -F 'Password for Enroll MOK' &&
		expect_no_log -F 'Reset MOK list' &&
		expect_no_var "$MOK_WORK/wrong-attributes.fd" MokNew &&
		expect_no_var "$MOK_WORK/wrong-attributes.fd" MokAuth &&
		expect_no_var "$MOK_WORK/wrong-attributes.fd" MokList
}

# Deny lists fail closed, but the owner keeps the MOK manager (verify.h, VERIFY_MOK_MANAGER).
mokx_malformed_manager_reachable() {
	local vars=$MOK_WORK/mokx-malformed.fd src
	malformed_esl "$MOK_WORK/mokx-malformed.esl"
	src=$(mok_variant mok-mokx-malformed \
		--var "MokTimeout:$SHIM_GUID:0x7:$MOK_WORK/MokTimeout.bin" \
		--var "MokListX:$SHIM_GUID:0x3:$MOK_WORK/mokx-malformed.esl") || return 1
	cp "$src" "$vars"
	# in the manager's menu, continue booting: lockshim then refuses the kernel
	boot_mok_refused mokx-malformed "$vars" "$BOOT_WORK/companion-db.efi" \
		--send-on 'press any key for the MOK manager' ' ' \
		--send-on 'Choice \(continues booting' '3' || return 1
	expect_log -F 'lockshim: MokListX is unusable: under Secure Boot only the MOK manager may start' &&
		expect_log -F 'lockshim: starting \EFI\lockshim\mmx64.efi: signed by /CN=lockshim test db, trusted through db certificate' &&
		expect_log -F '==== MOK manager ====' &&
		expect_mok_kernel_refused 'deny list MokListX is unusable: 1 signature list(s) rejected: list size is not a whole number of signatures' \
			'reason=deny-list-unusable' &&
		expect_order -F '==== MOK manager ====' 'lockshim: refusing'
}

# Only lockshim's own MOK manager runs in its slot (verify.c
# check_mok_manager): the refusal names the impostor's digest. The boot goes
# on past it, to prove lockshim refused it and did not stop there.
expect_impostor_refused() {
	local digest
	digest=$(build/lockshim hash "$BOOT_WORK/kernel-vendor.efi") || return 1
	expect_log -F 'lockshim: starting the MOK manager' &&
		expect_log -F "lockshim: refusing \EFI\lockshim\mmx64.efi: not lockshim's MOK manager: SHA-256 digest $digest is not the one built in" &&
		expect_order -F "lockshim: refusing \EFI\lockshim\mmx64.efi: not lockshim's MOK manager" \
			"lockshim: verdict=refused image=\EFI\lockshim\mmx64.efi reason=not-mok-manager entry=$digest" &&
		expect_no_log -F 'lockshim: starting \EFI\lockshim\mmx64.efi' &&
		expect_no_log -F '==== MOK manager ===='
}

mok_impostor_refused() {
	local vars=$MOK_WORK/impostor.fd src
	src=$(mok_variant mok-impostor \
		--var "MokNew:$SHIM_GUID:0x7:tests/vectors/mokutil/import_hashfile/MokNew.bin" \
		--var "MokAuth:$SHIM_GUID:0x7:tests/vectors/mokutil/import_hashfile/MokAuth.bin") ||
		return 1
	cp "$src" "$vars"
	MANAGER=$BOOT_WORK/kernel-vendor.efi REFUSAL_STOP='lockshim: refusing \\EFI\\lockshim\\linux' \
		boot_mok impostor "$vars" "$BOOT_WORK/companion-vendor.efi" 'step true' || return 1
	expect_impostor_refused &&
		expect_order -F 'lockshim: lockdown table: locked (Secure Boot)' 'lockshim: starting the MOK manager' &&
		expect_log -F 'lockshim: booting \EFI\lockshim\linux.efi: signed by /CN=lockshim test vendor' &&
		expect_log -F 'MOKUTIL-GUEST-DONE' &&
		expect_var "$vars" MokNew 0x7 && expect_no_var "$vars" MokList
}

mok_impostor_refused_mokx_unusable() {
	local vars=$MOK_WORK/impostor-mokx.fd src
	malformed_esl "$MOK_WORK/mokx-malformed.esl"
	src=$(mok_variant mok-impostor-mokx \
		--var "MokNew:$SHIM_GUID:0x7:tests/vectors/mokutil/import_hashfile/MokNew.bin" \
		--var "MokAuth:$SHIM_GUID:0x7:tests/vectors/mokutil/import_hashfile/MokAuth.bin" \
		--var "MokListX:$SHIM_GUID:0x3:$MOK_WORK/mokx-malformed.esl") || return 1
	cp "$src" "$vars"
	MANAGER=$BOOT_WORK/kernel-vendor.efi \
		boot_mok_refused impostor-mokx "$vars" "$BOOT_WORK/companion-vendor.efi" || return 1
	expect_log -F 'lockshim: MokListX is unusable: under Secure Boot only the MOK manager may start' &&
		expect_impostor_refused &&
		expect_mok_kernel_refused 'deny list MokListX is unusable' 'reason=deny-list-unusable' &&
		expect_order -F "not lockshim's MOK manager" 'lockshim: refusing \EFI\lockshim\linux.efi'
}

# owner_enroll NAME VARS CHOICE FILE: open the menu during the countdown and
# enroll FILE (ESP path) with menu CHOICE; the manager writes MokList and
# reboots: no OS runs (run_qemu --firmware-only; the guest's end stops a
# boot that went past the manager, which fails).
owner_enroll() {
	local name=$1 vars=$2 choice=$3 file=$4
	boot_mok "$name" "$vars" "$BOOT_WORK/companion-vendor.efi" 'step true' --firmware-only \
		--stop 'MOK manager: rebooting' --stop 'MOKUTIL-GUEST-DONE' \
		--send-on 'press any key for the MOK manager' ' ' \
		--send-on 'Choice \(continues booting' "$choice" \
		--send-on 'File on this disk' "$file\\r" \
		--send-on 'Enroll it in MokList\? Type' 'yes\r' || return 1
	expect_log -F 'lockshim: starting the MOK manager' &&
		expect_log -F '==== MOK manager ====' &&
		expect_log -F 'MOK manager: Enroll MOK: done (1 entry)' &&
		expect_log -F 'MOK manager: rebooting' &&
		expect_var "$vars" MokList 0x3
}

mok_owner_enrolls_key_file() {
	local vars=$MOK_WORK/owner-key.fd
	cp "$VARS_TIMEOUT" "$vars"
	owner_enroll owner-key "$vars" 1 '\\EFI\\lockshim\\mok.der' || return 1
	expect_log -F 'Subject:  /CN=lockshim test mok' || return 1
	# no key this time: the countdown runs out and the MOK-signed kernel boots
	boot_mok owner-key-after "$vars" "$BOOT_WORK/companion-mok.efi" 'step true' || return 1
	expect_log -F 'press any key for the MOK manager' &&
		expect_no_log -F 'lockshim: starting the MOK manager' &&
		expect_log -F 'trusted through MokList certificate /CN=lockshim test mok' &&
		expect_log -F 'MOKUTIL-GUEST-DONE'
}

mok_owner_enrolls_image_hash() {
	local vars=$MOK_WORK/owner-hash.fd hash
	cp "$VARS_TIMEOUT" "$vars"
	owner_enroll owner-hash "$vars" 2 '\\EFI\\lockshim\\linux.efi' || return 1
	hash=$(build/lockshim hash "$BOOT_WORK/companion-vendor.efi") &&
		expect_log -F "SHA256: $(printf '%s' "$hash" | tr a-f A-F)" || return 1
	boot_mok owner-hash-after "$vars" "$BOOT_WORK/companion-unsigned.efi" 'step true' || return 1
	expect_log -F 'lockshim: booting \EFI\lockshim\linux.efi: image SHA-256 digest is in MokList' &&
		expect_log -F 'MOKUTIL-GUEST-DONE'
}

sbat_policy_with_mokutil() {
	local vars=$MOK_WORK/sbat.fd
	local auto latest own
	auto=$(head -n1 certs/sbat-level-automatic.csv) latest=$(head -n1 certs/sbat-level-latest.csv)
	own=$(grep '^lockshim,' certs/sbat-level-latest.csv)
	cp "$VARS_BASE" "$vars"
	boot_mok sbat-request "$vars" "$BOOT_WORK/companion-vendor.efi" \
		$'step mokutil --list-sbat-revocations\nstep mokutil --set-sbat-policy latest' || return 1
	expect_log -F "lockshim: SbatLevel ${auto##*,} stored" &&
		expect_log -F 'MOKUTIL-RC 1 0' && expect_log -F "| $auto" &&
		expect_log -F 'MOKUTIL-RC 2 0' &&
		expect_var "$vars" SbatPolicy && expect_var "$vars" SbatLevel 0x3 || return 1
	boot_mok sbat-applied "$vars" "$BOOT_WORK/companion-vendor.efi" 'step mokutil --list-sbat-revocations' || return 1
	expect_log -F "lockshim: SbatLevel raised from ${auto##*,} to ${latest##*,}" &&
		expect_log -F "lockshim: SbatLevel ${latest##*,} stored" &&
		expect_log -F "| $latest" && expect_log -F "| $own" &&
		expect_no_var "$vars" SbatPolicy &&
		python3 tests/qemu/mkdmpstore.py --check "$vars" \
			"SbatLevel:$SHIM_GUID:0x3=certs/sbat-level-latest.csv" >/dev/null
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main mok_prepare "$@"
fi
