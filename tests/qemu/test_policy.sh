#!/usr/bin/env bash
# Policy scenarios: which trust list lockshim boots a kernel through, and
# which attribute rule makes it ignore one, under Secure Boot with lockshim
# signed by db (as in test_boot.sh, whose preparation this reuses). The deny
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

# shellcheck source=tests/qemu/test_boot.sh
. "$(dirname "${BASH_SOURCE[0]}")/test_boot.sh" # cds to the repository

SHIM_GUID=605dab50-e046-4300-abb6-3dd810dd8b23
SECDB_GUID=d719b2cb-3d3a-4596-a3bc-dad00e67656f

SCENARIOS=(
	db_signed_kernel_boots
	moklist_kernel_boots
	moklist_runtime_ignored
	mokx_malformed_refused
	dbx_sha1_kernel_refused
)

# The lockshim built with an outside vendor certificate (test_boot.sh's f.)
# is not used here: skip building it.
outside_vendor_prepare() { :; }

declare -A VARIANT_ERROR=() VARIANT_SECS=()

# _variant NAME ARGS...: tests/qemu/vars.sh --variant NAME ARGS... $PKI, timed;
# on failure VARIANT_ERROR[NAME] says why.
_variant() {
	local name=$1; shift
	local err=$BOOT_WORK/variant-$name.err t0 t1
	t0=$(date +%s.%N)
	if ! tests/qemu/vars.sh --variant "$name" "$@" "$PKI" >/dev/null 2>"$err"; then
		VARIANT_ERROR[$name]="tests/qemu/vars.sh --variant $name failed: $(tail -n 3 "$err" | tr '\n' ' ')"
		echo "# variant $name: FAILED (see $err)" >&2
		return 1
	fi
	t1=$(date +%s.%N)
	VARIANT_SECS[$name]=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	local how=cached
	grep -q 'creating variant' "$err" && how=created
	echo "# variant $name: $how in ${VARIANT_SECS[$name]}s ($QEMU_BUILD/vars-$name.fd)" >&2
}

policy_prepare() {
	boot_prepare
	[[ -z $PREP_ERROR && -z $LOCKSHIM_MISSING ]] || return 0
	_prep "db-signed kernel" sign_efi db "$BOOT_WORK/kernel-unsigned.efi" "$BOOT_WORK/kernel-db.efi" &&
		_prep "MOK-signed kernel" sign_efi mok "$BOOT_WORK/kernel-unsigned.efi" "$BOOT_WORK/kernel-mok.efi" ||
		return 0

	local mok=$PKI/mok.esl
	_variant policy-mok --var "MokList:$SHIM_GUID:0x3:$mok"
	_variant policy-mok-rt --var "MokList:$SHIM_GUID:0x7:$mok"
	malformed_esl "$BOOT_WORK/mokx-malformed.esl"
	_variant policy-mokx-malformed --var "MokListX:$SHIM_GUID:0x3:$BOOT_WORK/mokx-malformed.esl"
	# The SHA-1 digest as lockshim's host CLI computes it (tests/cli checks it
	# against osslsigncode's): dbx is that list, then the revoked certificate.
	_prep "the db-signed kernel's SHA-1 digest" sha1_esl "$BOOT_WORK/kernel-db.efi" "$BOOT_WORK/dbx-sha1.esl" &&
		_prep "a list of unknown type" python3 tests/cli/mkesl.py UNKNOWN "$BOOT_WORK/unknown.esl" 00112233 &&
		cat "$BOOT_WORK/dbx-sha1.esl" "$PKI/revoked.esl" >"$BOOT_WORK/dbx-sha1.expected" &&
		_variant policy-dbx-sha1 --dbx-esl "$BOOT_WORK/dbx-sha1.esl" \
			--var "MokListX:$SHIM_GUID:0x3:$BOOT_WORK/unknown.esl"
}

# sha1_esl IMAGE OUT: one EFI_CERT_SHA1 list of IMAGE's Authenticode SHA-1 digest.
sha1_esl() {
	local digest
	digest=$(build/lockshim hash --alg sha1 "$1") && [[ $digest =~ ^[0-9a-f]{40}$ ]] &&
		python3 tests/cli/mkesl.py SHA1 "$2" "$digest" && echo "# kernel Authenticode SHA-1 $digest" >&2
}

# _vars NAME SPEC...: the variant's VARS file exists (its creation did not
# fail) and holds each mkdmpstore.py --check SPEC; sets VARS to its path.
_vars() {
	local name=$1; shift
	VARS=$QEMU_BUILD/vars-$name.fd
	if [[ -n ${VARIANT_ERROR[$name]:-} ]]; then
		echo "FAIL: ${VARIANT_ERROR[$name]}" >&2
		return 1
	fi
	local out
	if ! out=$(python3 tests/qemu/mkdmpstore.py --check "$VARS" "$@" 2>&1); then
		echo "FAIL: $VARS does not hold what the scenario needs:" >&2
		sed 's/^/| /' <<<"$out" >&2
		return 1
	fi
	sed 's/^/# read back: /' <<<"$out" >&2
}

# Stop rules: a boot ends at the initramfs' last line, a refusal, or the
# firmware giving up (and $CRASH, added by boot_lockshim).
BOOTS=('LOCKSHIM-TEST-DONE' 'lockshim: refusing' 'No bootable option')
REFUSALS=('lockshim: refusing' 'No bootable option' "$MARKER")

# Shared by the scenarios that boot: lockshim's verdict, then the kernel
# under Secure Boot, then the initramfs.
# _expect_kernel_booted VERDICT [RECORD]: the sentence says VERDICT and, when
# given, the record line after it says RECORD after the image.
_expect_kernel_booted() {
	local verdict=$1 record=${2:-}
	expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_no_log -F 'lockshim: refusing' &&
		expect_log -F "lockshim: booting $KPATH: $verdict" &&
		{ [[ -z $record ]] ||
			expect_order -F "lockshim: booting $KPATH: $verdict" \
				"lockshim: verdict=allowed image=$KPATH $record"; } &&
		expect_log -F 'EFI stub: UEFI Secure Boot is enabled.' &&
		expect_log -F "$MARKER" &&
		expect_order -F 'lockshim: SecureBoot=1' "lockshim: booting $KPATH" &&
		expect_order -F "lockshim: booting $KPATH" "$MARKER"
}

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
