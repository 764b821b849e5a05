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

SCENARIOS=()

no_list_ignored() { expect_no_log -F 'lockshim: ignoring'; }

boot_case db_signed_kernel_boots kernel="$BOOT_WORK/companion-db.efi" \
	boots='signed by /CN=lockshim test db, trusted through db certificate /CN=lockshim test db' \
	record='reason=allowed-cert list=db entry="/CN=lockshim test db"' then=no_list_ignored

boot_case moklist_kernel_boots kernel="$BOOT_WORK/companion-mok.efi" \
	variant=policy-mok holds="MokList:$SHIM_GUID:0x3=$PKI/mok.esl" \
	boots='signed by /CN=lockshim test mok, trusted through MokList certificate /CN=lockshim test mok' \
	record='reason=allowed-cert list=MokList entry="/CN=lockshim test mok"' then=no_list_ignored

# MokList NV|BS|RT: written by an OS, deleted before anything is decided.
moklist_deleted_first() {
	expect_log -F "lockshim: deleted MokList: attributes 0x7 are not the MOK manager's 0x3" &&
		expect_order -F 'lockshim: deleted MokList' "lockshim: refusing $KPATH" &&
		expect_log -F 'lockshim: variable=MokList action=deleted reason=attributes attributes=0x7' &&
		expect_order -F 'lockshim: deleted MokList' 'lockshim: variable=MokList action=deleted'
}
boot_case moklist_runtime_ignored kernel="$BOOT_WORK/kernel-mok.efi" \
	variant=policy-mok-rt holds="MokList:$SHIM_GUID:0x7=$PKI/mok.esl" \
	refused='signer does not chain to a trusted certificate' record=reason=untrusted-signer \
	then=moklist_deleted_first

# A MokListX that cannot be parsed whole: no kernel, and the record names no list entry.
mokx_unusable_said() {
	expect_log -F 'lockshim: MokListX: 1 signature list(s) rejected: list size is not a whole number of signatures' &&
		expect_log -F 'lockshim: MokListX is unusable: under Secure Boot only the MOK manager may start' &&
		expect_order -F 'lockshim: MokListX is unusable' "lockshim: refusing $KPATH" &&
		expect_no_log -F "lockshim: verdict=refused image=$KPATH reason=deny-list-unusable list="
}
boot_case mokx_malformed_refused kernel="$BOOT_WORK/kernel-db.efi" \
	variant=policy-mokx-malformed holds="MokListX:$SHIM_GUID:0x3=$BOOT_WORK/mokx-malformed.esl" \
	refused='deny list MokListX is unusable: 1 signature list(s) rejected: list size is not a whole number of signatures' \
	record=reason=deny-list-unusable then=mokx_unusable_said

# dbx's SHA-1 entry refuses; MokListX's list of an unknown type is skipped, said once.
sha1_entry_and_unknown_list() {
	expect_log -F 'lockshim: MokListX: skipping 1 signature list(s) of a type lockshim does not know (4c6f636b-5368-696d-556e-6b6e6f776e21)' &&
		expect_no_log -F 'is unusable' &&
		expect_log "lockshim: verdict=refused image=.* reason=deny-digest list=dbx entry=[0-9a-f]{40}([^0-9a-f]|$)"
}
boot_case dbx_sha1_kernel_refused kernel="$BOOT_WORK/kernel-db.efi" variant=policy-dbx-sha1 \
	holds="dbx:$SECDB_GUID:0x27=$BOOT_WORK/dbx-sha1.expected MokListX:$SHIM_GUID:0x3=$BOOT_WORK/unknown.esl" \
	refused='image SHA-1 digest is in dbx' record='reason=deny-digest list=dbx entry=' \
	then=sha1_entry_and_unknown_list

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main policy_prepare "$@"
fi
