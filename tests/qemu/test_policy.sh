#!/usr/bin/env bash
# Policy scenarios: which trust list lockshim boots a kernel through, and
# which attribute rule makes it ignore one, under Secure Boot with lockshim
# signed by db (as in test_boot.sh; boot.sh's preparation). The deny
# lists are tests/qemu/test_sbat.sh's revocation matrix.
#
#   tests/qemu/test_policy.sh [SCENARIO...]     (default: all, in order)
#
# Environment: LOCKSHIM_EFI, QEMU_TIMEOUT, BOOT_TEE as for test_boot.sh.
#
# Prints `ok - NAME (T s)` or `not ok - NAME` per scenario (diagnostics on
# stderr), exits 1 if any failed. Logs: build/qemu/logs/NAME.log (clean),
# NAME.log.raw, NAME.log.err.
#
#   db_signed_kernel_boots    kernel signed by the db key: trusted through db
#   moklist_kernel_boots      MokList (NV|BS) holds the MOK certificate: a
#                             MOK-signed kernel boots through MokList
#   moklist_runtime_ignored   the same MokList written NV|BS|RT: deleted, the
#                             MOK-signed kernel is refused
#   mokx_malformed_refused    MokListX (NV|BS) holds a malformed signature
#                             list: the deny list is unusable, so the db-signed
#                             kernel is refused with the reason (fail closed)
#   dbx_sha1_kernel_refused   dbx holds the db-signed kernel's SHA-1
#                             Authenticode digest (EFI_CERT_SHA1, as shim
#                             16.1's check_denylist reads dbx): the kernel is
#                             refused with the reason. MokListX holds a list
#                             of a type nobody defines (OVMF keeps them out
#                             of dbx): said once on the console, it does not
#                             make the deny list unusable
#
# The VARS files are variants from tests/qemu/vars.sh --variant (cached, see
# there): build/qemu/vars-policy-*.fd. Before booting one, the scenario reads
# it back (mkdmpstore.py --check) to be sure the variables carry the
# attributes and data it relies on.

# shellcheck source=tests/qemu/policy.sh
. "$(dirname "${BASH_SOURCE[0]}")/policy.sh" # cds to the repository

SCENARIOS=(
	db_signed_kernel_boots
	moklist_kernel_boots
	moklist_runtime_ignored
	mokx_malformed_refused
	dbx_sha1_kernel_refused
)

db_signed_kernel_boots() {
	boot_lockshim "${FUNCNAME[0]}" "$QEMU_BUILD/vars-secboot.fd" \
		"$BOOT_WORK/lockshim-db.efi" "$BOOT_WORK/kernel-db.efi" 0.5 "${BOOTS[@]}" || return 1
	_expect_kernel_booted 'signed by /CN=lockshim test db, trusted through db certificate /CN=lockshim test db' \
		'reason=allowed-cert list=db entry="/CN=lockshim test db"' &&
		expect_no_log -F 'lockshim: ignoring'
}

moklist_kernel_boots() {
	_vars policy-mok "MokList:$SHIM_GUID:0x3=$PKI/mok.esl" || return 1
	boot_lockshim "${FUNCNAME[0]}" "$VARS" \
		"$BOOT_WORK/lockshim-db.efi" "$BOOT_WORK/kernel-mok.efi" 0.5 "${BOOTS[@]}" || return 1
	_expect_kernel_booted 'signed by /CN=lockshim test mok, trusted through MokList certificate /CN=lockshim test mok' \
		'reason=allowed-cert list=MokList entry="/CN=lockshim test mok"' &&
		expect_no_log -F 'lockshim: ignoring'
}

moklist_runtime_ignored() {
	_vars policy-mok-rt "MokList:$SHIM_GUID:0x7=$PKI/mok.esl" || return 1
	boot_lockshim "${FUNCNAME[0]}" "$VARS" \
		"$BOOT_WORK/lockshim-db.efi" "$BOOT_WORK/kernel-mok.efi" 2 "${REFUSALS[@]}" || return 1
	expect_log -F "lockshim: deleted MokList: attributes 0x7 are not the MOK manager's 0x3" &&
		expect_order -F 'lockshim: deleted MokList' "lockshim: refusing $KPATH" &&
		expect_log -F 'lockshim: variable=MokList action=deleted reason=attributes attributes=0x7' &&
		expect_order -F 'lockshim: deleted MokList' 'lockshim: variable=MokList action=deleted' &&
		_expect_kernel_refused 'signer does not chain to a trusted certificate' reason=untrusted-signer
}

mokx_malformed_refused() {
	local reason='deny list MokListX is unusable: 1 signature list(s) rejected: list size is not a whole number of signatures'
	_vars policy-mokx-malformed "MokListX:$SHIM_GUID:0x3=$BOOT_WORK/mokx-malformed.esl" || return 1
	boot_lockshim "${FUNCNAME[0]}" "$VARS" \
		"$BOOT_WORK/lockshim-db.efi" "$BOOT_WORK/kernel-db.efi" 2 "${REFUSALS[@]}" || return 1
	expect_log -F 'lockshim: MokListX: 1 signature list(s) rejected: list size is not a whole number of signatures' &&
		expect_log -F 'lockshim: MokListX is unusable: under Secure Boot only the MOK manager may start' &&
		expect_order -F 'lockshim: MokListX is unusable' "lockshim: refusing $KPATH" &&
		_expect_kernel_refused "$reason" 'reason=deny-list-unusable' &&
		expect_no_log -F "lockshim: verdict=refused image=$KPATH reason=deny-list-unusable list="
}

dbx_sha1_kernel_refused() {
	_vars policy-dbx-sha1 "dbx:$SECDB_GUID:0x27=$BOOT_WORK/dbx-sha1.expected" \
		"MokListX:$SHIM_GUID:0x3=$BOOT_WORK/unknown.esl" || return 1
	boot_lockshim "${FUNCNAME[0]}" "$VARS" \
		"$BOOT_WORK/lockshim-db.efi" "$BOOT_WORK/kernel-db.efi" 2 "${REFUSALS[@]}" || return 1
	expect_log -F 'lockshim: MokListX: skipping 1 signature list(s) of a type lockshim does not know (4c6f636b-5368-696d-556e-6b6e6f776e21)' &&
		expect_no_log -F 'is unusable' &&
		_expect_kernel_refused 'image SHA-1 digest is in dbx' 'reason=deny-digest list=dbx entry=' &&
		expect_log "lockshim: verdict=refused image=.* reason=deny-digest list=dbx entry=[0-9a-f]{40}([^0-9a-f]|$)"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main policy_prepare "$@"
fi
